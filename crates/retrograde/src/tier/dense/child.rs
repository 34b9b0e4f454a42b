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
///
/// Codes of 9 to 16 bits are kept in one byte where the child has no more
/// than 255 different ones (a byte indexes them): a long game's records
/// need 10 bits, but its wins and losses keep to one parity of remoteness
/// each, so its codes are few. Nine Men's Morris's largest tiers have
/// children of a billion records each: this halves what they take.
pub(super) struct ChildRecords<T> {
    pub(super) tier: T,
    pub(super) name: String,
    pub(super) db: Database,
    first: u64,
    codes: Codes,
    /// The code each byte of [`Codes::Narrow`] stands for (the byte itself
    /// for records of 8 bits or fewer).
    table: Box<[u16; 256]>,
    /// The byte that stands for each code where [`ChildRecords::table`] is
    /// not the identity; empty where it is.
    inverse: Vec<u8>,
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
    /// The child's records, none read yet, but for codes of 9 to 16 bits:
    /// their blocks are read once here to learn which codes occur.
    ///
    /// # Errors
    /// A block of the child's database that cannot be read.
    pub(super) fn new(child: Child<T>) -> Result<ChildRecords<T>, crate::db::DbError> {
        let h = child.db.header();
        let n = child.db.len() as usize;
        let mut table = Box::new([0u16; 256]);
        let mut inverse = Vec::new();
        let codes = match h.record_bits {
            _ if h.keys.is_some() => Codes::Asked,
            0..=8 => {
                (0..256).for_each(|c| table[c] = c as u16);
                Codes::Narrow(crate::shared::zeroed_u8(n))
            }
            9..=16 => match few_codes(&child.db)? {
                Some(few) => {
                    table[..few.len()].copy_from_slice(&few);
                    inverse = vec![0u8; 1 << h.record_bits];
                    for (byte, &code) in few.iter().enumerate() {
                        inverse[usize::from(code)] = byte as u8;
                    }
                    Codes::Narrow(crate::shared::zeroed_u8(n))
                }
                None => Codes::Medium(crate::shared::zeroed_u16(n)),
            },
            _ => Codes::Asked,
        };
        let blocks = match codes {
            Codes::Asked => Vec::new(),
            _ => (0..child.db.len().div_ceil(BLOCK_RECORDS))
                .map(|_| AtomicU8::new(EMPTY))
                .collect(),
        };
        Ok(ChildRecords {
            tier: child.tier,
            name: child.name,
            first: h.first_key,
            db: child.db,
            codes,
            table,
            inverse,
            blocks,
        })
    }

    /// Forgets the records read so far, their memory given back (a fresh
    /// zeroed array takes none until written): the next look at a record
    /// reads its block again.
    pub(super) fn release(&mut self) {
        let n = self.db.len() as usize;
        match &mut self.codes {
            Codes::Narrow(c) => *c = crate::shared::zeroed_u8(n),
            Codes::Medium(c) => *c = crate::shared::zeroed_u16(n),
            Codes::Asked => {}
        }
        self.blocks.iter_mut().for_each(|b| *b.get_mut() = EMPTY);
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
            Codes::Narrow(c) => u64::from(self.table[usize::from(c[r as usize].load(Relaxed))]),
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
                    Codes::Narrow(c) => (0..n).for_each(|j| {
                        let code = codes.get(j);
                        let byte = match self.inverse.get(code as usize) {
                            Some(&b) => b,
                            None => code as u8,
                        };
                        c[at + j].store(byte, Relaxed)
                    }),
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

/// The codes a database's records take, in order, if there are no more
/// than 256; `None` if there are more. Reads every block once, on every
/// core.
fn few_codes(db: &Database) -> Result<Option<Vec<u16>>, crate::db::DbError> {
    use rayon::prelude::*;
    let bits = db.header().record_bits;
    let blocks = db.len().div_ceil(BLOCK_RECORDS);
    let seen = (0..blocks)
        .into_par_iter()
        .map(|b| {
            let codes = db.block_codes(b)?;
            let n = (db.len() - b * BLOCK_RECORDS).min(BLOCK_RECORDS) as usize;
            let mut seen = vec![false; 1 << bits];
            (0..n).for_each(|j| seen[codes.get(j) as usize] = true);
            Ok::<_, crate::db::DbError>(seen)
        })
        .try_reduce(
            || vec![false; 1 << bits],
            |mut a, b| {
                a.iter_mut().zip(b).for_each(|(a, b)| *a |= b);
                Ok(a)
            },
        )?;
    let few: Vec<u16> = (0..seen.len())
        .filter(|&c| seen[c])
        .map(|c| c as u16)
        .collect();
    Ok((few.len() <= 256).then_some(few))
}
