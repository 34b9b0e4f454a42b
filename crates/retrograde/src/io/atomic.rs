//! Writing a file so that it is either complete or absent, even when the
//! process is interrupted.

use std::fs::{self, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use crate::error::{Error, Result};

/// The temporary files being written right now, so that a signal handler can
/// remove them ([`remove_temporary_files`]).
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn pending() -> MutexGuard<'static, Vec<PathBuf>> {
    PENDING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Writes `path` through `write`, into a temporary file in the same directory
/// that is renamed into place only once everything is written and flushed.
/// On any error (or a panic) the temporary file is removed and `path` is
/// untouched; if the process is interrupted, a signal handler calling
/// [`remove_temporary_files`] removes it.
///
/// Special cases:
/// - if `path` is a symbolic link, the file it points to is replaced (the link stays);
/// - if `path` exists and is not a regular file (`/dev/stdout`, `/dev/null`, a
///   named pipe), it is written directly: there is nothing to rename, and a
///   device must never be replaced by a regular file;
/// - a directory is refused.
///
/// The new file gets the usual permissions (`0666` less the umask).
pub fn write_atomically<F>(path: &Path, write: F) -> Result<()>
where
    F: FnOnce(&mut dyn Write) -> std::io::Result<()>,
{
    let is_link = fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    let target = if is_link {
        // A dangling link fails here, with the link's name in the message.
        fs::canonicalize(path).map_err(|e| Error::io(path, e))?
    } else {
        path.to_path_buf()
    };
    match fs::metadata(&target) {
        Ok(m) if m.is_dir() => {
            return Err(Error::io(
                path,
                std::io::Error::other("is a directory, expected a file"),
            ))
        }
        Ok(m) if !m.is_file() => return write_directly(path, &target, write),
        _ => {}
    }
    let dir = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let name = target
        .file_name()
        .ok_or_else(|| Error::io(path, std::io::Error::other("not a file name")))?;
    let mut prefix = std::ffi::OsString::from(".");
    prefix.push(name);
    prefix.push(".");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    // Create and register under the lock, so that an interrupt cannot come
    // between the two and leave an unregistered file behind.
    let tmp = {
        let mut pending = pending();
        let tmp = builder.tempfile_in(dir).map_err(|e| Error::io(path, e))?;
        pending.push(tmp.path().to_path_buf());
        tmp
    };
    let tmp_path = tmp.path().to_path_buf();
    let result = (|| {
        {
            let mut out = BufWriter::with_capacity(1 << 20, tmp.as_file());
            write(&mut out).map_err(|e| from_write(path, e))?;
            out.flush().map_err(|e| Error::io(path, e))?;
        }
        tmp.as_file().sync_all().map_err(|e| Error::io(path, e))?;
        tmp.persist(&target).map_err(|e| Error::io(path, e.error))?;
        Ok(())
    })();
    // On error the temporary file was dropped (removed) above.
    pending().retain(|p| *p != tmp_path);
    result
}

/// An error of a writer: the library's own error if the writer carried one
/// (a bad input found while writing), else an I/O error on `path`.
fn from_write(path: &Path, e: std::io::Error) -> Error {
    match e.downcast::<Error>() {
        Ok(inner) => inner,
        Err(e) => Error::io(path, e),
    }
}

/// Writes to an existing non-regular file (a device or a pipe) in place.
fn write_directly<F>(path: &Path, target: &Path, write: F) -> Result<()>
where
    F: FnOnce(&mut dyn Write) -> std::io::Result<()>,
{
    let file = OpenOptions::new()
        .write(true)
        .open(target)
        .map_err(|e| Error::io(path, e))?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    write(&mut out).map_err(|e| from_write(path, e))?;
    out.flush().map_err(|e| Error::io(path, e))
}

/// Removes the temporary files of every [`write_atomically`] in progress, for
/// a SIGINT or SIGTERM handler that then ends the process: an interrupted run
/// leaves no partial output. While the returned guard lives, no write can
/// start a new temporary file (they wait), so end the process while holding
/// it; a file already renamed into place is complete and stays.
#[must_use = "end the process while the guard is held, or new temporary files may appear"]
pub fn remove_temporary_files() -> WritesHeld {
    let pending = pending();
    for p in pending.iter() {
        let _ = fs::remove_file(p);
    }
    WritesHeld { _pending: pending }
}

/// Held by [`remove_temporary_files`]: until it is dropped, atomic writes
/// cannot start.
pub struct WritesHeld {
    _pending: MutexGuard<'static, Vec<PathBuf>>,
}

impl std::fmt::Debug for WritesHeld {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("WritesHeld")
    }
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
    fn nothing_stays_registered_after_a_write() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.tsv");
        write_atomically(&target, |w| {
            // Other tests may be writing too: look for this one's file.
            assert!(pending().iter().any(|p| p.starts_with(dir.path())));
            w.write_all(b"x")
        })
        .unwrap();
        let _ = write_atomically(&target, |_| Err(std::io::Error::other("boom")));
        assert!(pending().iter().all(|p| !p.starts_with(dir.path())));
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_is_followed_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.tsv");
        let link = dir.path().join("link.tsv");
        fs::write(&real, "old").unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_atomically(&link, |w| w.write_all(b"new")).unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read_to_string(&real).unwrap(), "new");
        let dangling = dir.path().join("dangling.tsv");
        std::os::unix::fs::symlink(dir.path().join("nowhere/x"), &dangling).unwrap();
        assert!(write_atomically(&dangling, |w| w.write_all(b"x")).is_err());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_device_is_written_in_place_never_replaced() {
        // /dev/null takes everything; /dev/full refuses with "no space left".
        write_atomically(Path::new("/dev/null"), |w| w.write_all(b"x")).unwrap();
        let e = write_atomically(Path::new("/dev/full"), |w| w.write_all(&[b'x'; 1 << 21]))
            .unwrap_err();
        assert!(e.to_string().starts_with("/dev/full: "), "{e}");
        assert!(!fs::metadata("/dev/full").unwrap().is_file());
    }

    #[test]
    fn missing_directory_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("no/such/dir/out.tsv");
        assert!(write_atomically(&target, |w| w.write_all(b"x")).is_err());
    }
}
