//! Flat arrays that live either in memory or in a memory-mapped file.

use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

use memmap2::Mmap;

/// Plain integer types that may be viewed straight from file bytes.
///
/// # Safety
/// Every bit pattern must be a valid value and the type must have no padding.
pub(crate) unsafe trait Plain: Copy + 'static {
    /// The value of little-endian bytes (exactly the type's size).
    fn from_le_bytes(b: &[u8]) -> Self;
}
unsafe impl Plain for u32 {
    fn from_le_bytes(b: &[u8]) -> u32 {
        u32::from_le_bytes(b.try_into().expect("4 bytes"))
    }
}
unsafe impl Plain for u64 {
    fn from_le_bytes(b: &[u8]) -> u64 {
        u64::from_le_bytes(b.try_into().expect("8 bytes"))
    }
}

/// An array of `T`, owned or borrowed from a shared memory map (no copy).
pub(crate) enum Store<T: Plain> {
    Owned(Vec<T>),
    Mapped {
        map: Arc<Mmap>,
        offset: usize,
        len: usize,
    },
}

impl<T: Plain> Store<T> {
    /// Views `len` values at byte `offset` of `map`. `None` if out of bounds or misaligned.
    pub(crate) fn mapped(map: &Arc<Mmap>, offset: usize, len: usize) -> Option<Store<T>> {
        let bytes = len.checked_mul(std::mem::size_of::<T>())?;
        let end = offset.checked_add(bytes)?;
        if end > map.len() || (map.as_ptr() as usize + offset) % std::mem::align_of::<T>() != 0 {
            return None;
        }
        Some(Store::Mapped {
            map: Arc::clone(map),
            offset,
            len,
        })
    }
}

impl<T: Plain> Deref for Store<T> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        match self {
            Store::Owned(v) => v,
            // SAFETY: bounds and alignment were checked in `Store::mapped`, T
            // accepts any bit pattern, and the map lives as long as `self`.
            Store::Mapped { map, offset, len } => unsafe {
                std::slice::from_raw_parts(map.as_ptr().add(*offset) as *const T, *len)
            },
        }
    }
}

impl<T: Plain> Default for Store<T> {
    fn default() -> Store<T> {
        Store::Owned(Vec::new())
    }
}

impl<T: Plain> Clone for Store<T> {
    fn clone(&self) -> Store<T> {
        match self {
            Store::Owned(v) => Store::Owned(v.clone()),
            Store::Mapped { map, offset, len } => Store::Mapped {
                map: Arc::clone(map),
                offset: *offset,
                len: *len,
            },
        }
    }
}

impl<T: Plain + PartialEq> PartialEq for Store<T> {
    fn eq(&self, other: &Store<T>) -> bool {
        **self == **other
    }
}

impl<T: Plain + Eq> Eq for Store<T> {}

impl<T: Plain + fmt::Debug> fmt::Debug for Store<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = if matches!(self, Store::Owned(_)) {
            "owned"
        } else {
            "mapped"
        };
        write!(f, "Store({kind}, {} values)", self.len())
    }
}
