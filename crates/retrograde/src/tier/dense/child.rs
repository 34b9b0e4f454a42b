//! A child tier's records, read a block at a time as the tier's moves
//! reach them.

use std::sync::atomic::{
    AtomicU8, AtomicU16, Ordering::Acquire, Ordering::Relaxed, Ordering::Release,
};

use super::super::view::Child;
use crate::Value;
use crate::db::{BLOCK_RECORDS, Database};

/// A child tier's database, its records read a block at a time as the
/// tier's moves reach them, each block once, into one array of codes a
/// record (allocated zeroed: the blocks never reached take no memory).
pub(super) struct ChildRecords<T> {
    pub(super) tier: T,
    pub(super) name: String,
    pub(super) db: Database,
    first: u64,
    codes: Codes,
    /// Each block: [`EMPTY`], [`FILLING`], [`READY`] or [`FAILED`].
    blocks: Vec<AtomicU8>,
}

/// A block's states.
const EMPTY: u8 = 0;
const FILLING: u8 = 1;
const READY: u8 = 2;
const FAILED: u8 = 3;

/// A child's record codes.
enum Codes {
    /// Every code below 256 (records of 8 bits or fewer).
    Narrow(Vec<AtomicU8>),
    /// Every code below 65,536.
    Medium(Vec<AtomicU16>),
    /// Wider codes, or records found by key: asked of the database.
    Asked,
}

impl<T> ChildRecords<T> {
    pub(super) fn new(child: Child<T>) -> ChildRecords<T> {
        let h = child.db.header();
        let n = child.db.len() as usize;
        let codes = match h.record_bits {
            _ if h.keys.is_some() => Codes::Asked,
            0..=8 => Codes::Narrow(crate::shared::zeroed_u8(n)),
            9..=16 => Codes::Medium(crate::shared::zeroed_u16(n)),
            _ => Codes::Asked,
        };
        let blocks = match codes {
            Codes::Asked => Vec::new(),
            _ => (0..child.db.len().div_ceil(BLOCK_RECORDS))
                .map(|_| AtomicU8::new(EMPTY))
                .collect(),
        };
        ChildRecords {
            tier: child.tier,
            name: child.name,
            first: h.first_key,
            db: child.db,
            codes,
            blocks,
        }
    }

    /// Whether the database keeps the numbers from its first on, and
    /// `key` is one of them.
    #[inline]
    pub(super) fn holds(&self, key: u64) -> bool {
        !self.db.is_keyed()
            && key
                .checked_sub(self.first)
                .is_some_and(|r| r < self.db.len())
    }

    /// Asks for the record of `key` to be loaded, if its block is read.
    #[inline]
    pub(super) fn prefetch(&self, key: u64) {
        let r = key.wrapping_sub(self.first) as usize;
        let ready = |r: usize| {
            self.blocks
                .get(r / BLOCK_RECORDS as usize)
                .is_some_and(|b| b.load(Acquire) == READY)
        };
        match &self.codes {
            Codes::Narrow(c) if ready(r) => crate::alloc::prefetch(c.as_ptr().wrapping_add(r)),
            Codes::Medium(c) if ready(r) => crate::alloc::prefetch(c.as_ptr().wrapping_add(r)),
            _ => {}
        }
    }

    /// The value under `key`; `None` if the database holds no position
    /// there.
    #[inline]
    pub(super) fn value(&self, key: u64) -> Result<Option<Value>, crate::db::DbError> {
        if let Codes::Asked = self.codes {
            return self.db.value(key);
        }
        let Some(r) = key.checked_sub(self.first).filter(|&r| r < self.db.len()) else {
            return Ok(None);
        };
        let b = (r / BLOCK_RECORDS) as usize;
        if self.blocks[b].load(Acquire) != READY {
            self.fill(b)?;
        }
        let code = match &self.codes {
            Codes::Narrow(c) => u64::from(c[r as usize].load(Relaxed)),
            Codes::Medium(c) => u64::from(c[r as usize].load(Relaxed)),
            Codes::Asked => 0,
        };
        Ok(Database::code_value(code))
    }

    /// Reads block `b` into the codes, or waits while another thread does.
    #[cold]
    fn fill(&self, b: usize) -> Result<(), crate::db::DbError> {
        let state = &self.blocks[b];
        match state.compare_exchange(EMPTY, FILLING, Acquire, Acquire) {
            Ok(_) => {
                let codes = match self.db.block_codes(b as u64) {
                    Ok(c) => c,
                    Err(e) => {
                        state.store(FAILED, Release);
                        return Err(e);
                    }
                };
                let at = b * BLOCK_RECORDS as usize;
                let n = (self.db.len() as usize - at).min(BLOCK_RECORDS as usize);
                match &self.codes {
                    Codes::Narrow(c) => {
                        (0..n).for_each(|j| c[at + j].store(codes.get(j) as u8, Relaxed))
                    }
                    Codes::Medium(c) => {
                        (0..n).for_each(|j| c[at + j].store(codes.get(j) as u16, Relaxed))
                    }
                    Codes::Asked => {}
                }
                state.store(READY, Release);
                Ok(())
            }
            Err(_) => loop {
                match state.load(Acquire) {
                    READY => return Ok(()),
                    // The thread that read it has the error; read it again here.
                    FAILED => return self.db.block_codes(b as u64).map(|_| ()),
                    _ => std::thread::yield_now(),
                }
            },
        }
    }
}
