//! Counting a database's records by value without decoding each one: how
//! many records hold each code, every block on all threads; the histogram
//! and the longest win and loss follow from the codes.

use std::collections::HashMap;

use rayon::prelude::*;

use super::{BLOCK_RECORDS, Database, DbError, decode, encode, keys};
use crate::{Histogram, Outcome};

/// What [`Database::count`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counted {
    /// The records' values by outcome and remoteness.
    pub histogram: Histogram,
    /// The longest win's remoteness and the key of its first record.
    pub longest_win: Option<(u32, u64)>,
    /// The longest loss's remoteness and the key of its first record.
    pub longest_loss: Option<(u32, u64)>,
}

/// The records counted by code, with the first block each code occurs in:
/// tables while codes take 16 bits or fewer, else a map.
enum Tally {
    Table { counts: Vec<u64>, first: Vec<u64> },
    Map(HashMap<u64, (u64, u64)>),
}

impl Tally {
    fn new(bits: u32) -> Tally {
        if bits <= 16 {
            Tally::Table {
                counts: vec![0; 1 << bits],
                first: vec![u64::MAX; 1 << bits],
            }
        } else {
            Tally::Map(HashMap::new())
        }
    }

    /// `n` more records of `code`, in block `b`.
    #[inline]
    fn add(&mut self, code: u64, n: u64, b: u64) {
        match self {
            Tally::Table { counts, first } => {
                counts[code as usize] += n;
                first[code as usize] = first[code as usize].min(b);
            }
            Tally::Map(m) => {
                let e = m.entry(code).or_insert((0, u64::MAX));
                e.0 += n;
                e.1 = e.1.min(b);
            }
        }
    }

    /// One record of `code` fewer.
    fn remove_one(&mut self, code: u64) {
        match self {
            Tally::Table { counts, .. } => counts[code as usize] -= 1,
            Tally::Map(m) => {
                if let Some(e) = m.get_mut(&code) {
                    e.0 -= 1;
                }
            }
        }
    }

    fn join(mut self, other: Tally) -> Tally {
        other.each(|code, n, b| self.add(code, n, b));
        self
    }

    /// Every code counted: its records and the first block it occurs in.
    fn each(&self, mut f: impl FnMut(u64, u64, u64)) {
        match self {
            Tally::Table { counts, first } => counts
                .iter()
                .zip(first)
                .enumerate()
                .filter(|&(_, (&n, _))| n > 0)
                .for_each(|(c, (&n, &b))| f(c as u64, n, b)),
            Tally::Map(m) => m.iter().for_each(|(&c, &(n, b))| f(c, n, b)),
        }
    }
}

impl Database {
    /// Every record counted by value, but those under the keys
    /// `uncounted`: the histogram, and the longest win and loss with the
    /// key of the first record of each. Every block is read once (and
    /// checked), on all threads, its records counted by code, each code
    /// decoded once; a block is read again only to find where a longest
    /// value first occurs.
    ///
    /// # Errors
    /// A damaged block or section.
    ///
    /// # Complexity
    /// Time **O(records)**, memory a count per code and thread (`2^bits`
    /// counts while records take 16 bits or fewer).
    pub fn count(&self, uncounted: &[u64]) -> Result<Counted, DbError> {
        let bits = self.header.record_bits;
        let blocks = self.len().div_ceil(BLOCK_RECORDS);
        let mut tally = (0..blocks)
            .into_par_iter()
            .try_fold(
                || Tally::new(bits),
                |mut t, b| {
                    self.tally_block(b, &mut t)?;
                    Ok::<_, DbError>(t)
                },
            )
            .try_reduce(|| Tally::new(bits), |a, b| Ok(a.join(b)))?;
        let mut skipped = Vec::new();
        for &key in uncounted {
            if let Some(r) = self.record_of(key)?
                && !skipped.contains(&r)
            {
                let code = encode(self.record(r)?);
                if code != 0 {
                    tally.remove_one(code);
                    skipped.push(r);
                }
            }
        }
        let mut counted = Counted::default();
        let (mut win, mut loss) = (None, None);
        tally.each(|code, n, b| {
            let Ok(Some(v)) = decode(code) else { return };
            if n == 0 {
                return;
            }
            counted.histogram.count_times(v, n);
            let most = match v.outcome {
                Outcome::Win => &mut win,
                Outcome::Lose => &mut loss,
                _ => return,
            };
            *most = (*most).max(Some((code, b)));
        });
        for (code, slot) in [
            (win, &mut counted.longest_win),
            (loss, &mut counted.longest_loss),
        ] {
            let Some((code, b)) = code else { continue };
            let r = self.first_with_code(code, b, &skipped)?;
            let remoteness = decode(code).ok().flatten().and_then(|v| v.remoteness);
            if let (Some(r), Some(remoteness)) = (r, remoteness) {
                *slot = Some((remoteness, self.key_of_record(r)?));
            }
        }
        Ok(counted)
    }

    /// Counts block `b`'s records into `t`, refusing a code no value of
    /// the header's longest remoteness has.
    fn tally_block(&self, b: u64, t: &mut Tally) -> Result<(), DbError> {
        let bytes = self.unpacked_block(b).map_err(|e| self.blame(e))?;
        let bits = self.header.record_bits;
        let records = BLOCK_RECORDS.min(self.len() - b * BLOCK_RECORDS);
        let mut most = 0;
        if bits <= 12 {
            // Counted in a table of the block's own, then added in once a
            // code (8-bit codes are the bytes themselves).
            let mut table = vec![0u64; 1 << bits];
            if bits == 8 {
                bytes[..records as usize]
                    .iter()
                    .for_each(|&c| table[usize::from(c)] += 1);
            } else {
                (0..records).for_each(|j| table[code_at(&bytes, j, bits) as usize] += 1);
            }
            for (c, &n) in table.iter().enumerate().filter(|&(_, &n)| n > 0) {
                t.add(c as u64, n, b);
                most = c as u64;
            }
        } else {
            for j in 0..records {
                let code = code_at(&bytes, j, bits);
                t.add(code, 1, b);
                most = most.max(code);
            }
        }
        // Every code up to the largest is a value if the largest is.
        self.decoded(most.max(1), b).map_err(|e| self.blame(e))?;
        Ok(())
    }

    /// The first record holding `code` but those in `skipped`, from block
    /// `from` on (the first block it occurs in).
    fn first_with_code(
        &self,
        code: u64,
        from: u64,
        skipped: &[u64],
    ) -> Result<Option<u64>, DbError> {
        let bits = self.header.record_bits;
        for b in from..self.len().div_ceil(BLOCK_RECORDS) {
            let bytes = self.unpacked_block(b).map_err(|e| self.blame(e))?;
            let first = b * BLOCK_RECORDS;
            let records = BLOCK_RECORDS.min(self.len() - first);
            let found = (0..records)
                .find(|&j| code_at(&bytes, j, bits) == code && !skipped.contains(&(first + j)));
            if let Some(j) = found {
                return Ok(Some(first + j));
            }
        }
        Ok(None)
    }

    /// The key of record `r` (its number past the first key, for a dense
    /// game).
    fn key_of_record(&self, r: u64) -> Result<u64, DbError> {
        let Some(keys) = self.keys() else {
            return Ok(self.header.first_key + r);
        };
        let mut found = None;
        keys.for_each(|i, key| {
            if i == r {
                found = Some(key);
            }
        })
        .map_err(|e| self.blame(e))?;
        Ok(found.unwrap_or(r))
    }
}

/// Record `j`'s code in a block's packed bytes.
#[inline]
fn code_at(bytes: &[u8], j: u64, bits: u32) -> u64 {
    let at = j * u64::from(bits);
    let from = (at / 8) as usize;
    match bytes.get(from..from + 8) {
        Some(word) => {
            let word = u64::from_le_bytes(word.try_into().unwrap_or([0; 8]));
            (word >> (at % 8)) & keys::mask(bits)
        }
        None => {
            let to = ((at + u64::from(bits)).div_ceil(8) as usize).min(bytes.len());
            keys::unpack(&bytes[from.min(to)..to], (at % 8) as u32, bits)
        }
    }
}
