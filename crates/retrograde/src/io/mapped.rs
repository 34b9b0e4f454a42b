//! Files read through a memory map, and what another program can do to
//! them meanwhile.
//!
//! A map shows the file as it is now, not as it was when it was opened: a
//! file rewritten in place (`cp` over it) shows the new bytes, and reading
//! past the end of one cut short raises SIGBUS. So every map is registered
//! while it lives, with the file's size and modification time when it was
//! opened:
//! - a process that catches SIGBUS can name the file that was cut short
//!   ([`mapped_path_at`], safe to call from a signal handler);
//! - a reader can tell a file changed since it was opened from a damaged
//!   one ([`Mapped::changed`]);
//! - a process can ask, before it reports success, whether a file it read
//!   through a map changed while it was mapped ([`changed_while_mapped`]).

use std::fs::File;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};

use memmap2::Mmap;

/// A read-only map of a whole file, registered while it lives.
pub(crate) struct Mapped {
    map: Mmap,
    file: File,
    path: PathBuf,
    stamp: Option<Stamp>,
    slot: Option<usize>,
}

impl std::fmt::Debug for Mapped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mapped")
            .field("path", &self.path)
            .field("len", &self.map.len())
            .finish()
    }
}

/// What says a file changed: its length and its modification time.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: Option<std::time::SystemTime>,
}

impl Stamp {
    fn of(file: &File) -> Option<Stamp> {
        let meta = file.metadata().ok()?;
        Some(Stamp {
            len: meta.len(),
            modified: meta.modified().ok(),
        })
    }
}

impl Mapped {
    /// Maps `file` (opened from `path`, named in messages) whole.
    pub(crate) fn new(file: File, path: &Path) -> std::io::Result<Mapped> {
        // The stamp is taken first: a change between it and the map is
        // then seen as a change, never missed.
        let stamp = Stamp::of(&file);
        // SAFETY: the map is read only. Another program may still change
        // the file under it: new bytes are caught by the readers' checks or
        // by `changed`, and a cut short file raises SIGBUS, which the
        // registry lets a handler name.
        let map = unsafe { Mmap::map(&file) }?;
        let slot = register(&map, path);
        Ok(Mapped {
            map,
            file,
            path: path.to_path_buf(),
            stamp,
            slot,
        })
    }

    /// Whether the file's length or modification time differ from when it
    /// was opened (or can no longer be read).
    pub(crate) fn changed(&self) -> bool {
        self.stamp.is_none() || Stamp::of(&self.file) != self.stamp
    }

    /// The file, for ordinary reads.
    pub(crate) fn file(&self) -> &File {
        &self.file
    }

    /// Asks the OS to read `start..start + len` in now (a hint).
    #[cfg(target_os = "linux")]
    pub(crate) fn populate(&self, start: usize, len: usize) {
        let _ = self
            .map
            .advise_range(memmap2::Advice::PopulateRead, start, len);
    }
}

impl Deref for Mapped {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.map
    }
}

impl Drop for Mapped {
    fn drop(&mut self) {
        if self.changed() {
            // Once a file: a long-running program that never asks
            // (`changed_while_mapped`) keeps at most one entry a file.
            if let Ok(mut changed) = CHANGED.lock()
                && !changed.contains(&self.path)
            {
                changed.push(self.path.clone());
            }
        }
        if let Some(s) = self.slot {
            SLOTS[s].state.store(FREE, Ordering::Release);
        }
    }
}

/// The files that changed while they were mapped, since the last call
/// (each map is asked when it is dropped): a run that read one may have
/// read some of the new bytes with the old layout.
pub fn changed_while_mapped() -> Vec<PathBuf> {
    CHANGED
        .lock()
        .map(|mut c| std::mem::take(&mut *c))
        .unwrap_or_default()
}

static CHANGED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Bytes of a path kept for the signal handler (a longer one is cut).
pub const MAPPED_PATH_BYTES: usize = 480;

/// Maps registered at once (more are mapped, but not named on SIGBUS).
const SLOT_COUNT: usize = 64;

const FREE: u8 = 0;
const FILLING: u8 = 1;
const LIVE: u8 = 2;

/// A registered map: its address range and the file's name. Plain atomics,
/// so that a signal handler can read them without a lock.
struct Slot {
    state: AtomicU8,
    start: AtomicUsize,
    end: AtomicUsize,
    len: AtomicUsize,
    name: [AtomicU8; MAPPED_PATH_BYTES],
}

#[allow(clippy::declare_interior_mutable_const)] // a template for the array only
const EMPTY: Slot = Slot {
    state: AtomicU8::new(FREE),
    start: AtomicUsize::new(0),
    end: AtomicUsize::new(0),
    len: AtomicUsize::new(0),
    name: [const { AtomicU8::new(0) }; MAPPED_PATH_BYTES],
};

static SLOTS: [Slot; SLOT_COUNT] = [EMPTY; SLOT_COUNT];

/// Registers `map` under `path`'s name; `None` if every slot is taken.
fn register(map: &Mmap, path: &Path) -> Option<usize> {
    let s = SLOTS.iter().position(|s| {
        s.state
            .compare_exchange(FREE, FILLING, Ordering::Acquire, Ordering::Relaxed)
            .is_ok()
    })?;
    let slot = &SLOTS[s];
    let name = super::paths::shown(path);
    let mut len = name.len().min(MAPPED_PATH_BYTES);
    while !name.is_char_boundary(len) {
        len -= 1;
    }
    for (cell, &b) in slot.name.iter().zip(&name.as_bytes()[..len]) {
        cell.store(b, Ordering::Relaxed);
    }
    let start = map.as_ptr() as usize;
    slot.start.store(start, Ordering::Relaxed);
    slot.end.store(start + map.len(), Ordering::Relaxed);
    slot.len.store(len, Ordering::Relaxed);
    slot.state.store(LIVE, Ordering::Release);
    Some(s)
}

/// The name of the mapped file at address `addr` (the address SIGBUS
/// reports), copied into `name`; its length, 0 if no registered map holds
/// `addr`. Safe to call from a signal handler: no lock, no allocation.
pub fn mapped_path_at(addr: usize, name: &mut [u8; MAPPED_PATH_BYTES]) -> usize {
    for slot in &SLOTS {
        if slot.state.load(Ordering::Acquire) != LIVE {
            continue;
        }
        let (start, end) = (
            slot.start.load(Ordering::Relaxed),
            slot.end.load(Ordering::Relaxed),
        );
        if (start..end).contains(&addr) {
            let len = slot.len.load(Ordering::Relaxed).min(MAPPED_PATH_BYTES);
            for (out, cell) in name.iter_mut().zip(&slot.name[..len]) {
                *out = cell.load(Ordering::Relaxed);
            }
            return len;
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_map_is_named_by_its_addresses_while_it_lives() {
        let dir = crate::io::scratch_dir().unwrap();
        let path = dir.path().join("named.bin");
        std::fs::write(&path, [7u8; 10_000]).unwrap();
        let m = Mapped::new(File::open(&path).unwrap(), &path).unwrap();
        let at = m.as_ptr() as usize + 9_999;
        let mut name = [0u8; MAPPED_PATH_BYTES];
        let n = mapped_path_at(at, &mut name);
        assert_eq!(&name[..n], path.to_str().unwrap().as_bytes());
        assert!(!m.changed());
        drop(m);
        assert_eq!(mapped_path_at(at, &mut name), 0);
    }

    #[test]
    fn a_file_rewritten_in_place_is_seen_as_changed() {
        let dir = crate::io::scratch_dir().unwrap();
        let path = dir.path().join("rewritten.bin");
        std::fs::write(&path, [1u8; 4096]).unwrap();
        let m = Mapped::new(File::open(&path).unwrap(), &path).unwrap();
        // The same inode, truncated and written again, as `cp` does.
        std::fs::write(&path, [2u8; 100]).unwrap();
        assert!(m.changed());
        drop(m);
        assert!(changed_while_mapped().contains(&path));
    }
}
