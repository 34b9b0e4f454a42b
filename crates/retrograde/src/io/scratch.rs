//! Scratch directories for tests.
//!
//! Every output is written atomically and synced to its disk before it
//! takes its name ([`write_atomically`](super::write_atomically)): what a
//! user's files need, and on a disk a few milliseconds a file. The tests
//! write thousands of small files and check what is in them, not that they
//! outlast a crash; synced to a disk, those milliseconds were most of some
//! tests' time (a test of the tiers: 56 s, against 2.9 s in memory, with
//! another job writing to the same disk). [`scratch_dir`] puts a test's
//! directory in memory where the system has room for it there.

use std::path::Path;
use std::sync::OnceLock;

/// Free bytes a memory-backed `/dev/shm` must have to be used.
const ROOM: u64 = 2 << 30;

/// A new temporary directory for a test, removed when dropped: under
/// `/dev/shm` where that is a file system in memory with at least 2 GiB
/// free, else where [`tempfile::tempdir`] puts it.
///
/// # Errors
/// As [`tempfile::tempdir`].
#[doc(hidden)]
pub fn scratch_dir() -> std::io::Result<tempfile::TempDir> {
    static IN_MEMORY: OnceLock<bool> = OnceLock::new();
    let shm = Path::new("/dev/shm");
    if *IN_MEMORY.get_or_init(|| in_memory_with_room(shm)) {
        tempfile::tempdir_in(shm)
    } else {
        crate::io::scratch_dir()
    }
}

#[cfg(target_os = "linux")]
fn in_memory_with_room(dir: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    const TMPFS_MAGIC: i64 = 0x0102_1994;
    let Ok(path) = std::ffi::CString::new(dir.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: `path` is a NUL-terminated string and `s` a `statfs` the call
    // fills in; all zeroes is a valid `statfs`.
    let mut s: libc::statfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statfs(path.as_ptr(), &mut s) } != 0 {
        return false;
    }
    // The fields' types differ between targets: cast, not converted.
    #[allow(clippy::unnecessary_cast)]
    let (kind, free) = (
        s.f_type as i64,
        (s.f_bavail as u64).saturating_mul(s.f_bsize as u64),
    );
    kind == TMPFS_MAGIC && free >= ROOM
}

#[cfg(not(target_os = "linux"))]
fn in_memory_with_room(_: &Path) -> bool {
    false
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_scratch_directory_is_made_and_removed() {
        let dir = super::scratch_dir().unwrap();
        let path = dir.path().to_path_buf();
        std::fs::write(path.join("a"), b"x").unwrap();
        drop(dir);
        assert!(!path.exists());
    }
}
