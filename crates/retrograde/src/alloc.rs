//! Big arrays, allocated the way memory-bound code wants them.
//!
//! A solve touches a few bytes of several arrays per position, and on a
//! fresh allocation the first touch of every 4 KiB page is a page fault: at
//! a few GB/s, faulting in the arrays of a big graph costs as much as the
//! solve itself. [`filled`] asks the OS for transparent huge pages (2 MiB,
//! on Linux, where the system allows them at all: `madvise` mode or
//! `always`) and writes the initial value on all threads, so the faults
//! are few and happen in parallel. Elsewhere it is an ordinary vector.

use std::mem::MaybeUninit;

use rayon::prelude::*;

thread_local! {
    /// Whether this thread is inside [`fallibly`].
    static FALLIBLE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f`, whose failed allocations are handled where they happen
/// (`try_reserve`, which turns them into an error naming what did not
/// fit): an allocator that ends the process when an allocation fails (the
/// `retrograde` binary's does, to exit with a message instead of an abort)
/// asks [`allocation_may_fail`] and lets these fail instead.
pub fn fallibly<T>(f: impl FnOnce() -> T) -> T {
    /// Puts the flag back however `f` ends, unwinding included: a flag
    /// left set would let every later failure on this thread return null.
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            let _ = FALLIBLE.try_with(|c| c.set(self.0));
        }
    }
    let _restore = Restore(FALLIBLE.with(|c| c.replace(true)));
    f()
}

/// Whether an allocation on this thread now is inside [`fallibly`], its
/// failure handled by the caller. Allocates nothing: an allocator may ask.
pub fn allocation_may_fail() -> bool {
    FALLIBLE.try_with(std::cell::Cell::get).unwrap_or(false)
}

/// Arrays smaller than this are allocated and filled plainly.
const BIG: usize = 4 << 20;

/// Elements filled per task.
const CHUNK: usize = 1 << 18;

/// A vector of `n` copies of `value`; see the module docs.
pub fn filled<T: Copy + Send + Sync>(n: usize, value: T) -> Vec<T> {
    let bytes = n.saturating_mul(std::mem::size_of::<T>());
    if bytes < BIG {
        return vec![value; n];
    }
    let mut v: Vec<T> = Vec::with_capacity(n);
    advise_huge_pages(&mut v.spare_capacity_mut()[..n]);
    v.spare_capacity_mut()[..n]
        .par_chunks_mut(CHUNK)
        .for_each(|c| c.fill(MaybeUninit::new(value)));
    // SAFETY: the first n elements were all written just above.
    unsafe { v.set_len(n) };
    v
}

/// An empty vector with room for `n` elements, on huge pages where it is
/// big enough; see the module docs.
pub(crate) fn with_capacity<T>(n: usize) -> Vec<T> {
    let mut v: Vec<T> = Vec::with_capacity(n);
    if n.saturating_mul(std::mem::size_of::<T>()) >= BIG {
        advise_huge_pages(&mut v.spare_capacity_mut()[..n]);
    }
    v
}

/// Asks for huge pages under `s`, allocated zeroed and not yet written (a
/// hint, as [`with_capacity`]'s).
pub(crate) fn advise_huge<T>(s: &mut [T]) {
    if std::mem::size_of_val(s) >= BIG {
        // SAFETY: a `T` is a valid `MaybeUninit<T>` of the same layout; the
        // advice leaves the contents as they are.
        let s = unsafe {
            std::slice::from_raw_parts_mut(s.as_mut_ptr().cast::<MaybeUninit<T>>(), s.len())
        };
        advise_huge_pages(s);
    }
}

/// Asks for huge pages under `s` (not yet touched). A hint: failure is
/// harmless and ignored.
#[cfg(target_os = "linux")]
fn advise_huge_pages<T>(s: &mut [MaybeUninit<T>]) {
    const PAGE: usize = 4096;
    let start = (s.as_ptr() as usize).next_multiple_of(PAGE);
    let end = (s.as_ptr() as usize + std::mem::size_of_val(s)) & !(PAGE - 1);
    if end > start {
        // SAFETY: madvise with MADV_HUGEPAGE only changes how the kernel
        // backs these pages, which lie inside an allocation we own; it
        // neither reads nor invalidates their contents.
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages<T>(_: &mut [MaybeUninit<T>]) {}

/// Asks for the cache line at `p` to be loaded, ahead of a use: a hint that
/// lets scattered reads overlap instead of waiting on one miss after another.
#[inline(always)]
pub fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching is a hint; it never faults, whatever the address.
    unsafe {
        std::arch::x86_64::_mm_prefetch(p as *const i8, std::arch::x86_64::_MM_HINT_T0)
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_allocation_may_fail_only_inside_fallibly_and_on_its_thread() {
        assert!(!allocation_may_fail());
        let inside = fallibly(|| {
            let nested = fallibly(allocation_may_fail);
            let other = std::thread::spawn(allocation_may_fail).join().unwrap();
            (allocation_may_fail(), nested, other)
        });
        assert_eq!(inside, (true, true, false));
        assert!(!allocation_may_fail(), "restored after");
    }

    #[test]
    fn filled_holds_the_value_everywhere_small_or_big() {
        for n in [0, 1, 1000, BIG / 4 + 3, 3 * CHUNK + 1] {
            let v = filled(n, 7u32);
            assert_eq!(v.len(), n);
            assert!(v.iter().all(|&x| x == 7));
        }
    }
}
