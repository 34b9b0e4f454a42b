//! Writing a file so that it is either complete or absent.

use std::fs;
use std::io::{BufWriter, Write};
use std::path::Path;

use crate::error::{Error, Result};

/// Writes `path` through `write`, into a temporary file in the same directory
/// that is renamed into place only once everything is written and flushed.
/// On any error (or a panic) the temporary file is removed and `path` is untouched.
pub fn write_atomically<F>(path: &Path, write: F) -> Result<()>
where
    F: FnOnce(&mut dyn Write) -> std::io::Result<()>,
{
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| Error::io(path, std::io::Error::other("not a file name")))?;
    if let Ok(meta) = fs::metadata(path) {
        if meta.is_dir() {
            return Err(Error::io(
                path,
                std::io::Error::other("is a directory, expected a file"),
            ));
        }
        if !meta.is_file() {
            // A device or a pipe (/dev/null, /dev/stdout): write to it in
            // place; renaming over it would replace the device.
            let file = fs::OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(|e| Error::io(path, e))?;
            let mut out = BufWriter::with_capacity(1 << 20, file);
            write(&mut out).map_err(|e| Error::io(path, e))?;
            return out.flush().map_err(|e| Error::io(path, e));
        }
    }
    let mut prefix = std::ffi::OsString::from(".");
    prefix.push(name);
    prefix.push(".");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    {
        // Read-write for everyone less the umask, as `File::create` would give.
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    let tmp = builder.tempfile_in(dir).map_err(|e| Error::io(path, e))?;
    {
        let mut out = BufWriter::with_capacity(1 << 20, tmp.as_file());
        write(&mut out).map_err(|e| Error::io(path, e))?;
        out.flush().map_err(|e| Error::io(path, e))?;
    }
    tmp.as_file().sync_all().map_err(|e| Error::io(path, e))?;
    tmp.persist(path).map_err(|e| Error::io(path, e.error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failed_write_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.tsv");
        let r = write_atomically(&target, |w| {
            w.write_all(b"partial")?;
            Err(std::io::Error::other("boom"))
        });
        assert!(r.is_err());
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn successful_write_replaces_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.tsv");
        fs::write(&target, "old").unwrap();
        write_atomically(&target, |w| w.write_all(b"new")).unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "new");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn devices_are_written_in_place_not_replaced() {
        write_atomically(Path::new("/dev/null"), |w| w.write_all(b"x")).unwrap();
        let meta = fs::metadata("/dev/null").unwrap();
        assert!(!meta.is_file(), "/dev/null must stay a device");
    }

    #[test]
    fn missing_directory_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("no/such/dir/out.tsv");
        assert!(write_atomically(&target, |w| w.write_all(b"x")).is_err());
    }
}
