//! Arrays that several threads update at once, as atomics: a `&mut [u32]`
//! seen as `&[AtomicU32]` for the duration of a parallel step.

use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU32, AtomicU64};

/// `v` as atomics, for as long as the exclusive borrow lasts.
pub(crate) fn as_atomic_u8(v: &mut [u8]) -> &[AtomicU8] {
    // SAFETY: AtomicU8 has the same size, alignment and bit validity as u8,
    // and the exclusive borrow guarantees no other access meanwhile.
    unsafe { &*(v as *mut [u8] as *const [AtomicU8]) }
}

/// `n` atomic zeros, allocated zeroed: the operating system hands the
/// pages over untouched, so only the pages written are ever backed by
/// memory (on huge pages where the system allows them).
pub(crate) fn zeroed_u8(n: usize) -> Vec<AtomicU8> {
    let mut v = std::mem::ManuallyDrop::new(vec![0u8; n]);
    crate::alloc::advise_huge(&mut v);
    // SAFETY: AtomicU8 has the same size, alignment and bit validity as
    // u8, so the allocation is a valid Vec<AtomicU8> of the same length
    // and capacity; the original is not dropped.
    unsafe { Vec::from_raw_parts(v.as_mut_ptr().cast::<AtomicU8>(), v.len(), v.capacity()) }
}

/// [`zeroed_u8`] for `u16`s.
pub(crate) fn zeroed_u16(n: usize) -> Vec<AtomicU16> {
    let mut v = std::mem::ManuallyDrop::new(vec![0u16; n]);
    crate::alloc::advise_huge(&mut v);
    // SAFETY: as above, for u16 and AtomicU16.
    unsafe { Vec::from_raw_parts(v.as_mut_ptr().cast::<AtomicU16>(), v.len(), v.capacity()) }
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
