//! The binary's allocator: the system's, except that an allocation that
//! fails ends the run with exit 2 and a memory message instead of an abort
//! (exit 134). Every command estimates what it needs before it allocates
//! and refuses what does not fit; the estimates are conservative, but the
//! growth inside a library call (a hash table or a vector doubling while an
//! exploration runs) can still pass an address-space limit between two
//! checks, and this is the last line. An allocation whose failure the
//! caller handles (`try_reserve` inside `retrograde::fallibly`) still fails
//! as usual.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, Ordering};

/// [`System`], ending the run when it has no memory to give.
pub struct EndOnFailure;

#[global_allocator]
static ALLOCATOR: EndOnFailure = EndOnFailure;

// SAFETY: every call is passed to `System` unchanged; a null result
// returns only inside `retrograde::fallibly` (the process ends otherwise).
unsafe impl GlobalAlloc for EndOnFailure {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.alloc(layout) };
        if p.is_null() {
            out_of_memory(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.alloc_zeroed(layout) };
        if p.is_null() {
            out_of_memory(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if p.is_null() {
            out_of_memory(new_size);
        }
        p
    }
}

/// Failed allocations of at least this many bytes are an array of the run
/// (never the small records of the temporary-file registry), so its lock is
/// free to take and the half-written outputs are removed; smaller ones end
/// the run without that cleanup, which could wait on a lock this very
/// thread holds.
const CLEANUP_FROM: usize = 64 << 10;

/// Says that `bytes` could not be allocated and exits 2, allocating nothing
/// on the way, unless the caller handles the failure. A second thread
/// failing meanwhile waits for the first to end the process.
#[cold]
fn out_of_memory(bytes: usize) {
    // A caller that handles the failure itself (`try_reserve` in
    // `retrograde::fallibly`) gets the null pointer.
    if retrograde::allocation_may_fail() {
        return;
    }
    end(bytes)
}

/// Says that `bytes` could not be allocated and exits 2.
#[cold]
fn end(bytes: usize) -> ! {
    static ENDING: AtomicBool = AtomicBool::new(false);
    if ENDING.swap(true, Ordering::SeqCst) {
        loop {
            // SAFETY: pause only waits for a signal.
            unsafe { libc::pause() };
        }
    }
    let mut buf = [0u8; 256];
    let n = message(&mut buf, bytes);
    // SAFETY: writes `n` initialised bytes of `buf` to standard error.
    unsafe { libc::write(2, buf.as_ptr().cast(), n) };
    if bytes >= CLEANUP_FROM {
        let _held = retrograde::io::remove_temporary_files();
        // SAFETY: ends the process at once: nothing else may run while the
        // registry is held.
        unsafe { libc::_exit(2) }
    }
    // SAFETY: as above.
    unsafe { libc::_exit(2) }
}

/// The error line for a failed allocation of `bytes`, in `buf` (no
/// allocation: the allocator has none to give); its length.
fn message(buf: &mut [u8; 256], bytes: usize) -> usize {
    let mut len = 0;
    let mut put = |s: &[u8]| {
        let n = s.len().min(buf.len() - len);
        buf[len..len + n].copy_from_slice(&s[..n]);
        len += n;
    };
    put(b"retrograde: error: out of memory: an allocation of ");
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut x = bytes;
    loop {
        at -= 1;
        digits[at] = b'0' + (x % 10) as u8;
        x /= 10;
        if x == 0 {
            break;
        }
    }
    put(&digits[at..]);
    put(b" bytes failed: the process's memory limit is lower than the run needs (see --max-memory)\n");
    len
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_names_the_bytes_and_the_flag() {
        let mut buf = [0u8; 256];
        let n = message(&mut buf, 2_097_152);
        let text = std::str::from_utf8(&buf[..n]).unwrap();
        assert_eq!(
            text,
            "retrograde: error: out of memory: an allocation of 2097152 bytes failed: \
             the process's memory limit is lower than the run needs (see --max-memory)\n"
        );
        let n = message(&mut buf, 0);
        assert!(
            std::str::from_utf8(&buf[..n])
                .unwrap()
                .contains(" of 0 bytes")
        );
    }
}
