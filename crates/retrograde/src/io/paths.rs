//! What a file name denotes: one of this process's standard streams or
//! descriptors, or the same file as another name.

use std::fs;
use std::path::{Path, PathBuf};

/// The descriptor an output name denotes: `-` and `/dev/stdout` are 1,
/// `/dev/stderr` 2, `/dev/fd/N` and `/proc/self/fd/N` are N. `None` for
/// any other name.
pub fn output_descriptor(path: &Path) -> Option<i32> {
    match path.to_str()? {
        "-" | "/dev/stdout" => Some(1),
        "/dev/stderr" => Some(2),
        s => fd_name(s),
    }
}

/// The descriptor an input name denotes: `-` and `/dev/stdin` are 0,
/// `/dev/fd/N` and `/proc/self/fd/N` are N.
pub fn input_descriptor(path: &Path) -> Option<i32> {
    match path.to_str()? {
        "-" | "/dev/stdin" => Some(0),
        s => fd_name(s),
    }
}

fn fd_name(s: &str) -> Option<i32> {
    s.strip_prefix("/dev/fd/")
        .or_else(|| s.strip_prefix("/proc/self/fd/"))
        .and_then(|n| n.parse().ok())
}

/// What a name denotes, to tell whether two names are one file.
#[derive(Debug, PartialEq, Eq)]
enum Identity {
    /// One of this process's descriptors.
    Descriptor(i32),
    /// An existing file: its device and inode.
    Existing(u64, u64),
    /// A file not created yet: its canonical directory and its name.
    Future(PathBuf),
    /// Something that cannot clash (a device such as `/dev/null`).
    Free,
}

fn identity(path: &Path, descriptor: Option<i32>) -> Identity {
    if let Some(fd) = descriptor {
        return Identity::Descriptor(fd);
    }
    match fs::metadata(path) {
        Ok(m) if !m.is_file() && !m.is_dir() => Identity::Free,
        Ok(m) => file_id(&m).map_or(Identity::Free, |(d, i)| Identity::Existing(d, i)),
        Err(_) => {
            let dir = match path.parent() {
                Some(p) if !p.as_os_str().is_empty() => p,
                _ => Path::new("."),
            };
            match (fs::canonicalize(dir), path.file_name()) {
                (Ok(d), Some(n)) => Identity::Future(d.join(n)),
                _ => Identity::Free,
            }
        }
    }
}

#[cfg(unix)]
fn file_id(m: &fs::Metadata) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    Some((m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn file_id(_m: &fs::Metadata) -> Option<(u64, u64)> {
    None
}

/// Whether two outputs would land in the same place: the same regular file
/// (through any names or links), or the same descriptor. Devices such as
/// `/dev/null` take any number of writers and never clash.
pub fn same_output(a: &Path, b: &Path) -> bool {
    let (x, y) = (
        identity(a, output_descriptor(a)),
        identity(b, output_descriptor(b)),
    );
    x != Identity::Free && x == y
}

/// Whether an output would overwrite an input: the same regular file.
pub fn output_is_input(output: &Path, input: &Path) -> bool {
    if output_descriptor(output).is_some() || input_descriptor(input).is_some() {
        return false;
    }
    let x = identity(output, None);
    matches!(x, Identity::Existing(..)) && x == identity(input, None)
}

/// Whether two inputs are one stream that can be read only once (standard
/// input twice, or one descriptor twice).
pub fn same_stream(a: &Path, b: &Path) -> bool {
    matches!((input_descriptor(a), input_descriptor(b)), (Some(x), Some(y)) if x == y)
}

pub use crate::error::shown;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_streams_and_descriptors_are_recognised() {
        assert_eq!(output_descriptor(Path::new("-")), Some(1));
        assert_eq!(output_descriptor(Path::new("/dev/stdout")), Some(1));
        assert_eq!(output_descriptor(Path::new("/dev/fd/5")), Some(5));
        assert_eq!(output_descriptor(Path::new("/proc/self/fd/2")), Some(2));
        assert_eq!(output_descriptor(Path::new("out.tsv")), None);
        assert_eq!(input_descriptor(Path::new("/dev/stdin")), Some(0));
        assert!(same_stream(Path::new("-"), Path::new("/dev/stdin")));
        assert!(!same_stream(Path::new("-"), Path::new("g.txt")));
    }

    #[test]
    fn one_file_under_two_names_is_the_same_output() {
        let dir = crate::io::scratch_dir().unwrap();
        let a = dir.path().join("a.txt");
        assert!(same_output(&a, &dir.path().join(".").join("a.txt")));
        fs::write(&a, "x").unwrap();
        #[cfg(unix)]
        {
            let link = dir.path().join("link");
            std::os::unix::fs::symlink(&a, &link).unwrap();
            assert!(same_output(&a, &link));
            assert!(output_is_input(&link, &a));
        }
        assert!(!same_output(&a, &dir.path().join("b.txt")));
        assert!(same_output(Path::new("-"), Path::new("/dev/stdout")));
        assert!(!same_output(Path::new("/dev/null"), Path::new("/dev/null")));
        assert!(!output_is_input(&dir.path().join("new.txt"), &a));
    }
}
