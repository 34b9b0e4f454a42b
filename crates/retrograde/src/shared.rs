//! Arrays that several threads update at once, as atomics: a `&mut [u32]`
//! seen as `&[AtomicU32]` for the duration of a parallel step.

use std::sync::atomic::{AtomicU32, AtomicU64, AtomicU8};

/// `v` as atomics, for as long as the exclusive borrow lasts.
pub(crate) fn as_atomic_u8(v: &mut [u8]) -> &[AtomicU8] {
    // SAFETY: AtomicU8 has the same size, alignment and bit validity as u8,
    // and the exclusive borrow guarantees no other access meanwhile.
    unsafe { &*(v as *mut [u8] as *const [AtomicU8]) }
}

/// `v` as atomics, for as long as the exclusive borrow lasts.
pub(crate) fn as_atomic_u32(v: &mut [u32]) -> &[AtomicU32] {
    // SAFETY: as above, for u32 and AtomicU32.
    unsafe { &*(v as *mut [u32] as *const [AtomicU32]) }
}

/// `v` as atomics, for as long as the exclusive borrow lasts.
pub(crate) fn as_atomic_u64(v: &mut [u64]) -> &[AtomicU64] {
    // SAFETY: as above, for u64 and AtomicU64 (same alignment on 64-bit targets).
    unsafe { &*(v as *mut [u64] as *const [AtomicU64]) }
}
