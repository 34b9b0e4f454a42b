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
/// Where the output goes:
/// - `-`, `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` and `/proc/self/fd/N`
///   are this process's own descriptors: written in place, at their
///   current position (so `-o /dev/stdout >> log` appends, and a pipe works);
/// - if `path` is a symbolic link, the file it points to is replaced (the link stays);
/// - if `path` exists and is not a regular file (`/dev/null`, a named
///   pipe), it is written directly: a device is never replaced by a file;
/// - a directory is refused.
///
/// The new file gets the usual permissions (`0666` less the umask). Several
/// outputs that must appear together go through [`Outputs`].
pub fn write_atomically<F>(path: &Path, write: F) -> Result<()>
where
    F: FnOnce(&mut dyn Write) -> std::io::Result<()>,
{
    let mut outputs = Outputs::new();
    outputs.write(path, write)?;
    outputs.commit()
}

/// Outputs of one run, committed together: each regular file is written to
/// a temporary file, and all are renamed into place by [`Outputs::commit`]
/// once every one is complete. Dropped without a commit (an error, a panic),
/// they leave nothing behind. Descriptors, devices and pipes (see
/// [`write_atomically`]) cannot wait: they are written at once.
#[derive(Debug, Default)]
pub struct Outputs {
    staged: Vec<Staged>,
}

#[derive(Debug)]
struct Staged {
    /// The name given, for messages.
    path: PathBuf,
    /// The file to replace.
    target: PathBuf,
    tmp: tempfile::NamedTempFile,
}

impl Outputs {
    /// No outputs yet.
    pub fn new() -> Outputs {
        Outputs::default()
    }

    /// Writes `path` through `write` (see [`write_atomically`]); a regular
    /// file appears only at [`Outputs::commit`].
    pub fn write<F>(&mut self, path: &Path, write: F) -> Result<()>
    where
        F: FnOnce(&mut dyn Write) -> std::io::Result<()>,
    {
        match destination(path)? {
            Destination::Descriptor(fd) => write_descriptor(path, fd, write),
            Destination::Device(target) => write_directly(path, &target, write),
            Destination::File(target) => {
                let staged = stage(path, target, write)?;
                self.staged.push(staged);
                Ok(())
            }
        }
    }

    /// Renames every staged file into place.
    ///
    /// # Errors
    /// The first rename that fails; the files not yet renamed are removed
    /// (those renamed before it stay).
    pub fn commit(mut self) -> Result<()> {
        for s in std::mem::take(&mut self.staged) {
            let tmp_path = s.tmp.path().to_path_buf();
            let result = s
                .tmp
                .persist(&s.target)
                .map(|_| ())
                .map_err(|e| Error::io(&s.path, without_temporary_name(e.error)));
            pending().retain(|p| *p != tmp_path);
            result?;
        }
        Ok(())
    }
}

impl Drop for Outputs {
    fn drop(&mut self) {
        // Each temporary file removes itself when dropped; then forget it.
        for s in self.staged.drain(..) {
            let tmp = s.tmp.path().to_path_buf();
            drop(s);
            pending().retain(|p| *p != tmp);
        }
    }
}

/// Checks, before any work, that `path` can be written as an output: not a
/// directory, not a dangling link, and for a file to be created, in a
/// directory that exists. A run that would fail to save its result after
/// hours of solving fails at once instead. Descriptors and devices pass.
///
/// # Errors
/// The error [`Outputs::write`] would give, naming `path`.
pub fn check_output(path: &Path) -> Result<()> {
    let Destination::File(target) = destination(path)? else {
        return Ok(());
    };
    // `DIR/.` is refused with the system's own words when DIR is missing
    // ("No such file or directory") or a file ("Not a directory").
    fs::metadata(directory_of(&target).join("."))
        .map(|_| ())
        .map_err(|e| Error::io(path, e))
}

/// The directory a file is created in: its parent, or `.` for a bare name.
fn directory_of(target: &Path) -> PathBuf {
    match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Where an output goes.
enum Destination {
    /// One of this process's descriptors.
    Descriptor(i32),
    /// An existing file that is not regular (a device, a pipe).
    Device(PathBuf),
    /// A regular file, existing or not: replaced by a renamed temporary file.
    File(PathBuf),
}

fn destination(path: &Path) -> Result<Destination> {
    if let Some(fd) = super::paths::output_descriptor(path) {
        return Ok(Destination::Descriptor(fd));
    }
    let is_link = fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    let target = if is_link {
        // A dangling link fails here, with the link's name in the message.
        fs::canonicalize(path).map_err(|e| Error::io(path, e))?
    } else {
        path.to_path_buf()
    };
    match fs::metadata(&target) {
        Ok(m) if m.is_dir() => Err(Error::io(
            path,
            std::io::Error::other("is a directory, expected a file"),
        )),
        Ok(m) if !m.is_file() => Ok(Destination::Device(target)),
        _ => Ok(Destination::File(target)),
    }
}

/// The longest file name a temporary file may start with; longer names get
/// a fixed prefix, so that `.NAME.XXXXXX.tmp` stays within the 255 bytes a
/// file name may have.
const MAX_PREFIX: usize = 200;

/// Writes `target` into a registered temporary file next to it.
fn stage<F>(path: &Path, target: PathBuf, write: F) -> Result<Staged>
where
    F: FnOnce(&mut dyn Write) -> std::io::Result<()>,
{
    let dir = directory_of(&target);
    let name = target
        .file_name()
        .ok_or_else(|| Error::io(path, std::io::Error::other("not a file name")))?;
    let mut prefix = std::ffi::OsString::from(".");
    if name.len() <= MAX_PREFIX {
        prefix.push(name);
    } else {
        prefix.push("retrograde-output");
    }
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
        let tmp = builder
            .tempfile_in(&dir)
            .map_err(|e| Error::io(path, without_temporary_name(e)))?;
        pending.push(tmp.path().to_path_buf());
        tmp
    };
    let tmp_path = tmp.path().to_path_buf();
    let written = (|| {
        let mut out = BufWriter::with_capacity(1 << 20, tmp.as_file());
        write(&mut out).map_err(|e| from_write(path, e))?;
        out.flush().map_err(|e| Error::io(path, e))?;
        drop(out);
        tmp.as_file().sync_all().map_err(|e| Error::io(path, e))
    })();
    if let Err(e) = written {
        // Dropping the file removes it.
        drop(tmp);
        pending().retain(|p| *p != tmp_path);
        return Err(e);
    }
    Ok(Staged {
        path: path.to_path_buf(),
        target,
        tmp,
    })
}

/// The operating system's error without the temporary file's name that the
/// temporary-file crate adds to it: messages name the output the user gave.
fn without_temporary_name(e: std::io::Error) -> std::io::Error {
    if let Some(code) = e.raw_os_error() {
        return std::io::Error::from_raw_os_error(code);
    }
    let text = e.to_string();
    match text.split_once(" at path ") {
        Some((cause, _)) => std::io::Error::new(e.kind(), cause.to_string()),
        None => e,
    }
}

/// An error of a writer: the library's own error if the writer carried one
/// (a bad input found while writing), else an I/O error on `path`.
fn from_write(path: &Path, e: std::io::Error) -> Error {
    match e.downcast::<Error>() {
        Ok(inner) => inner,
        Err(e) => Error::io(path, e),
    }
}

/// Writes to one of this process's descriptors, at its current position.
fn write_descriptor<F>(path: &Path, fd: i32, write: F) -> Result<()>
where
    F: FnOnce(&mut dyn Write) -> std::io::Result<()>,
{
    let result = match fd {
        1 => {
            let mut out = BufWriter::with_capacity(1 << 20, std::io::stdout().lock());
            write(&mut out).and_then(|()| out.flush())
        }
        2 => {
            let mut out = std::io::stderr().lock();
            write(&mut out).and_then(|()| out.flush())
        }
        _ => write_fd(fd, write),
    };
    result.map_err(|e| from_write(path, e))
}

#[cfg(unix)]
fn write_fd<F>(fd: i32, write: F) -> std::io::Result<()>
where
    F: FnOnce(&mut dyn Write) -> std::io::Result<()>,
{
    use std::os::fd::BorrowedFd;
    if fd < 0 {
        return Err(std::io::Error::other("not a file descriptor"));
    }
    // SAFETY: the descriptor is only borrowed to duplicate it; a number that
    // is not open makes the duplication fail (EBADF), which is reported.
    let owned = unsafe { BorrowedFd::borrow_raw(fd) }.try_clone_to_owned()?;
    let mut out = BufWriter::with_capacity(1 << 20, fs::File::from(owned));
    write(&mut out)?;
    out.flush()
}

#[cfg(not(unix))]
fn write_fd<F>(_fd: i32, _write: F) -> std::io::Result<()>
where
    F: FnOnce(&mut dyn Write) -> std::io::Result<()>,
{
    Err(std::io::Error::other("file descriptors are a Unix feature"))
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

/// A temporary file in `dir` that will become `dir/name`, named as the
/// atomic writes name theirs (`.NAME.XXXXXX.tmp`) and registered so that
/// an interrupt removes it ([`remove_temporary_files`]): for a file that
/// arrives in pieces (a tier sent by another process). Put it in place with
/// [`persist_temporary`].
///
/// # Errors
/// The file could not be created.
pub fn temporary_file(dir: &Path, name: &str) -> Result<tempfile::NamedTempFile> {
    let mut builder = tempfile::Builder::new();
    let prefix = format!(".{name}.");
    builder.prefix(&prefix).suffix(".tmp");
    let mut pending = pending();
    let tmp = builder
        .tempfile_in(dir)
        .map_err(|e| Error::io(dir.join(name), without_temporary_name(e)))?;
    pending.push(tmp.path().to_path_buf());
    Ok(tmp)
}

/// Renames a [`temporary_file`] into place at `to`, and forgets it.
///
/// # Errors
/// The rename failed (the temporary file is then removed).
pub fn persist_temporary(tmp: tempfile::NamedTempFile, to: &Path) -> Result<()> {
    let path = tmp.path().to_path_buf();
    let done = tmp.persist(to).map_err(|e| Error::io(to, e.error));
    pending().retain(|p| *p != path);
    done.map(|_| ())
}

/// Whether `name` is the name of a temporary file an atomic write or a
/// [`temporary_file`] makes (`.NAME.XXXXXX.tmp`): what a directory that
/// one run at a time writes into may clear of an earlier run stopped
/// without the chance to remove its own.
pub fn is_temporary_name(name: &str) -> bool {
    name.starts_with('.') && name.ends_with(".tmp") && name.len() > ".x.XXXXXX.tmp".len() - 1
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
        let dir = crate::io::scratch_dir().unwrap();
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
        let dir = crate::io::scratch_dir().unwrap();
        let target = dir.path().join("out.tsv");
        fs::write(&target, "old").unwrap();
        write_atomically(&target, |w| w.write_all(b"new")).unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "new");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn nothing_stays_registered_after_a_write() {
        let dir = crate::io::scratch_dir().unwrap();
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
        let dir = crate::io::scratch_dir().unwrap();
        let real = dir.path().join("real.tsv");
        let link = dir.path().join("link.tsv");
        fs::write(&real, "old").unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_atomically(&link, |w| w.write_all(b"new")).unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
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
    fn outputs_appear_together_at_the_commit_and_not_before() {
        let dir = crate::io::scratch_dir().unwrap();
        let (a, b) = (dir.path().join("a.tsv"), dir.path().join("b.tsv"));
        fs::write(&a, "old").unwrap();
        let mut outputs = Outputs::new();
        outputs.write(&a, |w| w.write_all(b"new")).unwrap();
        outputs.write(&b, |w| w.write_all(b"b")).unwrap();
        assert_eq!(fs::read_to_string(&a).unwrap(), "old");
        assert!(!b.exists());
        outputs.commit().unwrap();
        assert_eq!(fs::read_to_string(&a).unwrap(), "new");
        assert_eq!(fs::read_to_string(&b).unwrap(), "b");
        // A later output fails: the earlier one never appears.
        let mut outputs = Outputs::new();
        outputs.write(&a, |w| w.write_all(b"newer")).unwrap();
        assert!(
            outputs
                .write(&b, |_| Err(std::io::Error::other("boom")))
                .is_err()
        );
        drop(outputs);
        assert_eq!(fs::read_to_string(&a).unwrap(), "new");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 2);
    }

    #[test]
    fn an_output_that_cannot_be_written_is_refused_before_any_work() {
        let dir = crate::io::scratch_dir().unwrap();
        check_output(&dir.path().join("new.tsv")).unwrap();
        check_output(Path::new("-")).unwrap();
        let missing = dir.path().join("no/such/dir/out.tsv");
        let e = check_output(&missing).unwrap_err().to_string();
        assert!(e.contains("No such file or directory"), "{e}");
        let file = dir.path().join("file");
        fs::write(&file, "x").unwrap();
        let e = check_output(&file.join("out.tsv")).unwrap_err().to_string();
        assert!(e.contains("Not a directory"), "{e}");
        let e = check_output(dir.path()).unwrap_err().to_string();
        assert!(e.contains("is a directory"), "{e}");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn missing_directory_is_an_error() {
        let dir = crate::io::scratch_dir().unwrap();
        let target = dir.path().join("no/such/dir/out.tsv");
        assert!(write_atomically(&target, |w| w.write_all(b"x")).is_err());
    }
}
