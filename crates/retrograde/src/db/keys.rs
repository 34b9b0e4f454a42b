//! The map from a position's key to its record: the sorted keys in the
//! Elias–Fano encoding, searched where they lie in the mapped file.
//!
//! `n` distinct keys below `u` are split into a high part `key >> l` and a
//! low part of `l = ⌊log2(u / n)⌋` bits. The low parts are packed, `l` bits a
//! key, in key order. The high parts are written in unary: for each bucket
//! `h` (the keys whose high part is `h`), one 1 bit per key, then a 0. A
//! sample every [`SAMPLE`] buckets gives where that bucket's bits start.
//!
//! Finding key `x`: the sample before its bucket, a scan for the zeros of at
//! most [`SAMPLE`] − 1 buckets (popcounts a word at a time) to where the
//! bucket starts, then its keys' low parts compared in order. The key's
//! index, its rank among the keys, is the number of 1 bits before it.
//!
//! Memory: `l + u / (n 2^l) + 1 + 64 / SAMPLE · u / (n 2^l)` bits a key, at
//! most about `l + 3.5`: 7.4 bits a key for Dōbutsu shōgi's 246,803,168 keys
//! (positions numbered out of 7.6 billion), against 33 or 64 for the keys
//! themselves.

use super::section::Bytes;
use super::DbError;

/// Buckets between two samples of where a bucket starts.
pub const SAMPLE: u64 = 256;

/// The three arrays of an Elias–Fano encoding, built in memory.
pub(crate) struct Built {
    pub(crate) low_bits: u32,
    pub(crate) base: u64,
    pub(crate) universe: u64,
    pub(crate) lows: Vec<u8>,
    pub(crate) highs: Vec<u8>,
    pub(crate) samples: Vec<u8>,
}

/// The low-part width for `n` keys below `universe`.
pub(crate) fn low_bits(n: u64, universe: u64) -> u32 {
    if n == 0 || universe <= n {
        0
    } else {
        (universe / n).ilog2().min(56)
    }
}

/// The bytes of the three arrays for `n` keys below `universe`, as
/// [`build`] makes them: lows, highs, samples. `None` if they overflow.
pub(crate) fn sizes(n: u64, universe: u64) -> Option<(u64, u64, u64)> {
    let l = low_bits(n, universe);
    let buckets = (universe >> l).checked_add(1)?;
    let lows = n.checked_mul(u64::from(l))?.div_ceil(8);
    let highs = (n.checked_add(buckets)?.div_ceil(64) + 1).checked_mul(8)?;
    let samples = buckets.div_ceil(SAMPLE).checked_mul(8)?;
    Some((lows, highs, samples))
}

/// Encodes `keys`, which must be strictly increasing (the caller checks),
/// less the first of them (`base`): keys that share their high bits (a
/// tier's, say) cost what keys from 0 would.
pub(crate) fn build(keys: &[u64]) -> Built {
    let base = keys.first().copied().unwrap_or(0);
    let n = keys.len() as u64;
    let universe = keys.last().map_or(0, |&k| k - base + 1);
    let l = low_bits(n, universe);
    let buckets = (universe >> l) + 1;
    let mut lows = vec![0u8; packed_bytes(n, l)];
    for (i, &k) in keys.iter().enumerate() {
        put_bits(&mut lows, i as u64 * u64::from(l), l, (k - base) & mask(l));
    }
    let bits = n + buckets;
    let mut words = vec![0u64; bits.div_ceil(64) as usize + 1];
    for (i, &k) in keys.iter().enumerate() {
        let at = ((k - base) >> l) + i as u64;
        words[(at / 64) as usize] |= 1 << (at % 64);
    }
    // The start of every SAMPLE-th bucket: where its ones begin.
    let mut samples = Vec::with_capacity(((buckets / SAMPLE + 1) * 8) as usize);
    let mut bucket = 0u64;
    let mut i = 0usize;
    while bucket < buckets {
        while i < keys.len() && (keys[i] - base) >> l < bucket {
            i += 1;
        }
        samples.extend_from_slice(&(bucket + i as u64).to_le_bytes());
        bucket += SAMPLE;
    }
    Built {
        low_bits: l,
        base,
        universe,
        lows,
        highs: words.iter().flat_map(|w| w.to_le_bytes()).collect(),
        samples,
    }
}

/// The encoding read back from the file, its arrays checked as they are read.
pub(crate) struct Keys<'a> {
    pub(crate) count: u64,
    pub(crate) low_bits: u32,
    pub(crate) base: u64,
    pub(crate) universe: u64,
    pub(crate) lows: Bytes<'a>,
    pub(crate) highs: Bytes<'a>,
    pub(crate) samples: Bytes<'a>,
}

impl Keys<'_> {
    /// The index of `key` among the keys, if it is one.
    pub(crate) fn rank(&self, key: u64) -> Result<Option<u64>, DbError> {
        let Some(key) = key.checked_sub(self.base).filter(|&k| k < self.universe) else {
            return Ok(None);
        };
        let l = self.low_bits;
        let bucket = key >> l;
        let sample = self.samples.u64_at(bucket / SAMPLE)?;
        let mut at = self.skip_zeros(sample, bucket % SAMPLE)?;
        let mut index = at - bucket;
        let low = key & mask(l);
        loop {
            let word = self.highs.u64_at(at / 64)?;
            if word >> (at % 64) & 1 == 0 || index >= self.count {
                return Ok(None);
            }
            let here = self.low(index)?;
            if here >= low {
                return Ok((here == low).then_some(index));
            }
            index += 1;
            at += 1;
        }
    }

    /// The position just after the `k`-th zero bit at or after `at` (`at`
    /// itself for `k == 0`).
    fn skip_zeros(&self, at: u64, mut k: u64) -> Result<u64, DbError> {
        if k == 0 {
            return Ok(at);
        }
        let mut word = at / 64;
        let mut zeros = !self.highs.u64_at(word)? & (u64::MAX << (at % 64));
        loop {
            let c = u64::from(zeros.count_ones());
            if c >= k {
                for _ in 1..k {
                    zeros &= zeros - 1;
                }
                return Ok(word * 64 + u64::from(zeros.trailing_zeros()) + 1);
            }
            k -= c;
            word += 1;
            zeros = !self.highs.u64_at(word)?;
        }
    }

    fn low(&self, index: u64) -> Result<u64, DbError> {
        get_bits(&self.lows, index * u64::from(self.low_bits), self.low_bits)
    }

    /// Calls `f(index, key)` for every key in order (a scan of the arrays).
    pub(crate) fn for_each(&self, mut f: impl FnMut(u64, u64)) -> Result<(), DbError> {
        let mut index = 0u64;
        let mut word_index = 0u64;
        while index < self.count {
            if word_index * 8 >= self.highs.len() {
                return Err(self.highs.damaged(
                    word_index * 8 / super::section::CHUNK,
                    super::Fault::Decode(format!(
                        "{} keys where {} were expected",
                        index, self.count
                    )),
                ));
            }
            let mut word = self.highs.u64_at(word_index)?;
            while word != 0 && index < self.count {
                let at = word_index * 64 + u64::from(word.trailing_zeros());
                let key = ((at - index) << self.low_bits) | self.low(index)?;
                f(index, key + self.base);
                index += 1;
                word &= word - 1;
            }
            word_index += 1;
        }
        Ok(())
    }
}

/// `(1 << bits) - 1`.
#[inline]
pub(crate) fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// Bytes that `n` values of `bits` bits take packed.
pub(crate) fn packed_bytes(n: u64, bits: u32) -> usize {
    (n * u64::from(bits)).div_ceil(8) as usize
}

/// Writes the low `bits` bits of `value` at bit `at` of `bytes` (little-endian).
pub(crate) fn put_bits(bytes: &mut [u8], at: u64, bits: u32, value: u64) {
    let mut value = value & mask(bits);
    let mut at = at;
    let mut left = bits;
    while left > 0 {
        let byte = (at / 8) as usize;
        let shift = (at % 8) as u32;
        let take = (8 - shift).min(left);
        bytes[byte] |= ((value & mask(take)) << shift) as u8;
        value >>= take;
        at += u64::from(take);
        left -= take;
    }
}

/// Reads `bits` bits (at most 57) at bit `at` of a checked array.
#[inline]
pub(crate) fn get_bits(bytes: &Bytes<'_>, at: u64, bits: u32) -> Result<u64, DbError> {
    if bits == 0 {
        return Ok(0);
    }
    let first = at / 8;
    let last = (at + u64::from(bits)).div_ceil(8);
    let slice = bytes.slice(first, last - first)?;
    Ok(unpack(slice, (at % 8) as u32, bits))
}

/// The `bits` bits starting at bit `shift` of `slice` (at most 8 bytes long
/// past the first).
#[inline]
pub(crate) fn unpack(slice: &[u8], shift: u32, bits: u32) -> u64 {
    let mut buf = [0u8; 8];
    let n = slice.len().min(8);
    buf[..n].copy_from_slice(&slice[..n]);
    (u64::from_le_bytes(buf) >> shift) & mask(bits)
}
