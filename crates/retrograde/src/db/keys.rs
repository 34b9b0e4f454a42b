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

use super::DbError;
use super::section::Bytes;

/// Buckets between two samples of where a bucket starts.
pub const SAMPLE: u64 = 256;

/// A reader's sample of the keys, made for crowded buckets: every
/// `ONES`-th key's place in the high bits.
pub(crate) const ONES: u64 = 128;

/// A bucket of this many keys or more is searched through the sample.
const CROWDED: u64 = 128;

/// Words of the high bits scanned for a bucket's start before the sample
/// of the ones is made and used instead.
const LONG_SCAN: u64 = 16;

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
    /// The sample of every [`ONES`]-th key's place, made when first needed.
    pub(crate) ones: &'a std::sync::OnceLock<Vec<u64>>,
}

impl Keys<'_> {
    /// The index of `key` among the keys, if it is one.
    pub(crate) fn rank(&self, key: u64) -> Result<Option<u64>, DbError> {
        let Some(key) = key.checked_sub(self.base).filter(|&k| k < self.universe) else {
            return Ok(None);
        };
        let l = self.low_bits;
        let bucket = key >> l;
        let at = self.bucket_start(bucket)?;
        let first = at - bucket;
        let low = key & mask(l);
        // The bucket's keys are the run of ones from `at`, their low bits
        // increasing. A short run is searched in place; a crowded one
        // (numbers bunched in a few ranges, as a game's bit boards or
        // tiers make them) through the sampled keys, in log time.
        let run = self.ones_from(at, CROWDED)?;
        if run >= CROWDED {
            return self.rank_crowded(first, at, low);
        }
        self.search(first, (first + run).min(self.count), low)
    }

    /// The ones in a row from bit `at` of the high bits, counted up to
    /// `cap` or more.
    fn ones_from(&self, mut at: u64, cap: u64) -> Result<u64, DbError> {
        let mut run = 0;
        while run < cap {
            let shift = at % 64;
            let ones = u64::from((self.highs.u64_at(at / 64)? >> shift).trailing_ones());
            let ones = ones.min(64 - shift);
            run += ones;
            at += ones;
            if ones < 64 - shift {
                break;
            }
        }
        Ok(run)
    }

    /// The index in `from..end` (keys of one bucket) whose low bits are
    /// `low`: a binary search.
    fn search(&self, from: u64, end: u64, low: u64) -> Result<Option<u64>, DbError> {
        let (mut lo, mut hi) = (from, end);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.low(mid)? < low {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        Ok((lo < end && self.low(lo)? == low).then_some(lo))
    }

    /// The index of the key with low bits `low` in the crowded bucket
    /// whose first key is number `first`, its one at `start`: the
    /// bucket's sampled keys ([`ONES`] apart, sampled on first use)
    /// searched, then the keys from the last sample at most `low` up to
    /// the next: O(log n) however many keys share the bucket.
    fn rank_crowded(&self, first: u64, start: u64, low: u64) -> Result<Option<u64>, DbError> {
        let ones = self.ones()?;
        // A one's place less its index is its bucket: the same for every
        // key of this bucket, the samples of which come one after another.
        let bucket = start - first;
        let in_bucket = |j: usize| ones[j].wrapping_sub(j as u64 * ONES) == bucket;
        let first_sample = first.div_ceil(ONES) as usize;
        let (mut lo, mut hi) = (first_sample, ones.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if in_bucket(mid) && self.low(mid as u64 * ONES)? <= low {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        let from = if lo > first_sample {
            (lo as u64 - 1) * ONES
        } else {
            first
        };
        // The bucket's keys from `from` on, at most ONES of them.
        let run = self.ones_from(bucket + from, ONES)?.min(ONES);
        self.search(from, (from + run).min(self.count), low)
    }

    /// Where every [`ONES`]-th one of the high bits lies: one scan.
    fn sample_ones(&self) -> Result<Vec<u64>, DbError> {
        let mut out = Vec::with_capacity((self.count / ONES + 1) as usize);
        let (mut seen, mut word_index) = (0u64, 0u64);
        while seen < self.count {
            let word = self.highs.u64_at(word_index)?;
            let c = u64::from(word.count_ones());
            let mut next = seen.div_ceil(ONES) * ONES;
            while next < seen + c && next < self.count {
                let mut w = word;
                for _ in 0..next - seen {
                    w &= w - 1;
                }
                out.push(word_index * 64 + u64::from(w.trailing_zeros()));
                next += ONES;
            }
            seen += c;
            word_index += 1;
        }
        Ok(out)
    }

    /// Where bucket `b`'s ones begin in the high bits: from the file's
    /// sample of every [`SAMPLE`]-th bucket, a scan past the zeros between;
    /// where crowded buckets make that scan long, from the reader's sample
    /// of the ones ([`ONES`]), which leaves fewer than `SAMPLE + ONES` bits
    /// to scan.
    fn bucket_start(&self, b: u64) -> Result<u64, DbError> {
        let sample = self.samples.u64_at(b / SAMPLE)?;
        if let Some(at) = self.skip_zeros(sample, b % SAMPLE, LONG_SCAN)? {
            return Ok(at);
        }
        let ones = self.ones()?;
        // The last sampled one in a bucket before `b` (a one's place less
        // its index is its bucket), if it lies past the file's sample.
        let (mut lo, mut hi) = (0, ones.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if ones[mid].wrapping_sub(mid as u64 * ONES) < b {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        let j = lo;
        let from = j
            .checked_sub(1)
            .map(|j| (ones[j].wrapping_sub(j as u64 * ONES), ones[j]))
            .filter(|&(bucket, pos)| pos >= sample && bucket < b);
        let at = match from {
            Some((bucket, pos)) => self.skip_zeros(pos, b - bucket, u64::MAX)?,
            None => self.skip_zeros(sample, b % SAMPLE, u64::MAX)?,
        };
        Ok(at.unwrap_or(0))
    }

    /// The position just after the `k`-th zero bit at or after `at` (`at`
    /// itself for `k == 0`); `None` if that takes more than `words` words.
    fn skip_zeros(&self, at: u64, mut k: u64, words: u64) -> Result<Option<u64>, DbError> {
        if k == 0 {
            return Ok(Some(at));
        }
        let mut word = at / 64;
        let mut zeros = !self.highs.u64_at(word)? & (u64::MAX << (at % 64));
        for _ in 0..words {
            let c = u64::from(zeros.count_ones());
            if c >= k {
                for _ in 1..k {
                    zeros &= zeros - 1;
                }
                return Ok(Some(word * 64 + u64::from(zeros.trailing_zeros()) + 1));
            }
            k -= c;
            word += 1;
            zeros = !self.highs.u64_at(word)?;
        }
        Ok(None)
    }

    /// The reader's sample of the ones, made on first use.
    fn ones(&self) -> Result<&Vec<u64>, DbError> {
        match self.ones.get() {
            Some(ones) => Ok(ones),
            None => {
                let sampled = self.sample_ones()?;
                Ok(self.ones.get_or_init(|| sampled))
            }
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
