//! Positions known by the game's own numbers ([`StateGame::encode`]): a
//! set that all threads fill at once while exploring, and, once every
//! position is found, the numbers sorted, where a position's rank is its id.
//!
//! A game's numbers are scrambled first by a bijection of `u64` ([`mix`],
//! the finaliser of MurmurHash3), so that they spread evenly over the whole
//! range however the game packs its positions. Both structures use that
//! evenness: the [`Table`] puts a number at the slot its scrambled value
//! scales to (so its slots hold the numbers almost in order), and [`Keys`]
//! finds a number's rank from a directory of its leading bits, then among
//! the few numbers that share them.
//!
//! [`StateGame::encode`]: super::StateGame::encode

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use crate::shared::as_atomic_u64;

const M1: u64 = 0xff51_afd7_ed55_8ccd;
const M2: u64 = 0xc4ce_b9fe_1a85_ec53;

/// The inverse of the odd `m` modulo 2⁶⁴ (Newton's iteration: each step
/// doubles the correct low bits, from 3).
const fn inverse(m: u64) -> u64 {
    let mut x = m;
    let mut i = 0;
    while i < 6 {
        x = x.wrapping_mul(2u64.wrapping_sub(m.wrapping_mul(x)));
        i += 1;
    }
    x
}

/// A game's number scrambled: a bijection of `u64` ([`unmix`] undoes it).
#[inline]
pub(crate) fn mix(x: u64) -> u64 {
    let mut k = x;
    k ^= k >> 33;
    k = k.wrapping_mul(M1);
    k ^= k >> 33;
    k = k.wrapping_mul(M2);
    k ^ (k >> 33)
}

/// The number `h` was scrambled from by [`mix`].
#[inline]
pub(crate) fn unmix(h: u64) -> u64 {
    let mut k = h;
    k ^= k >> 33;
    k = k.wrapping_mul(inverse(M2));
    k ^= k >> 33;
    k = k.wrapping_mul(inverse(M1));
    k ^ (k >> 33)
}

/// The slot of `h` among `slots`: its place in proportion, so that slots
/// follow the order of the scrambled numbers.
#[inline]
fn home(h: u64, slots: usize) -> usize {
    ((u128::from(h) * slots as u128) >> 64) as usize
}

/// A set of scrambled numbers that several threads insert into at once:
/// open addressing, linear probing, 8 bytes a slot, `0` for an empty slot
/// (the number `0` itself is kept aside). It never holds more than
/// [`Table::room`] numbers, so a probe always ends; it grows between
/// parallel steps ([`Table::grow`]).
pub(crate) struct Table {
    slots: Vec<u64>,
    zero: bool,
}

/// A [`Table`] while threads insert into it.
pub(crate) struct Filling<'t> {
    slots: &'t [AtomicU64],
    zero: &'t AtomicBool,
}

impl Table {
    /// An empty table of `slots` slots (at least 64).
    pub(crate) fn with_slots(slots: usize) -> Table {
        Table {
            slots: crate::alloc::filled(slots.max(64), 0),
            zero: false,
        }
    }

    /// The slots.
    pub(crate) fn slots(&self) -> usize {
        self.slots.len()
    }

    /// How many numbers it may hold: three quarters of its slots (linear
    /// probing slows quickly past that: a new number looks at 8.5 slots
    /// on average at 3/4 full, 32 at 7/8).
    pub(crate) fn room(&self) -> usize {
        Table::room_of(self.slots.len())
    }

    /// How many numbers a table of `slots` slots may hold.
    pub(crate) fn room_of(slots: usize) -> usize {
        slots / 4 * 3
    }

    /// Bytes a table of `slots` slots takes.
    pub(crate) fn bytes_for(slots: usize) -> u64 {
        slots as u64 * 8
    }

    /// Runs `f` with the table open to inserts from every thread; `zero`
    /// records whether the number 0 was inserted.
    pub(crate) fn fill<R>(&mut self, f: impl FnOnce(&Filling<'_>) -> R) -> R {
        let zero = AtomicBool::new(self.zero);
        let r = f(&Filling {
            slots: as_atomic_u64(&mut self.slots),
            zero: &zero,
        });
        self.zero = zero.into_inner();
        r
    }

    /// The same numbers in a table of `slots` slots (at least as many as
    /// now), moved on all threads. Slots in order go to slots in order, so
    /// each thread writes one stretch of the new table.
    pub(crate) fn grow(&mut self, slots: usize) {
        let mut bigger = Table::with_slots(slots.max(self.slots.len()));
        bigger.zero = self.zero;
        let old = std::mem::take(&mut self.slots);
        bigger.fill(|t| {
            old.par_chunks(1 << 16).for_each(|c| {
                for &h in c.iter().filter(|&&h| h != 0) {
                    t.insert(h);
                }
            })
        });
        drop(old);
        *self = bigger;
    }

    /// The numbers held, in no useful order, in the table's own memory
    /// (shrunk to fit).
    pub(crate) fn into_numbers(self) -> Vec<u64> {
        let Table { mut slots, zero } = self;
        // Each piece packs its numbers to its front, on all threads; the
        // packed fronts are then moved together.
        let piece = slots
            .len()
            .div_ceil(rayon::current_num_threads() * 4)
            .max(1);
        let kept: Vec<usize> = slots
            .par_chunks_mut(piece)
            .map(|c| {
                let mut w = 0;
                for r in 0..c.len() {
                    if c[r] != 0 {
                        c[w] = c[r];
                        w += 1;
                    }
                }
                w
            })
            .collect();
        let mut len = 0;
        for (k, &w) in kept.iter().enumerate() {
            slots.copy_within(k * piece..k * piece + w, len);
            len += w;
        }
        slots.truncate(len);
        if zero {
            slots.push(0);
        }
        slots.shrink_to_fit();
        slots
    }
}

impl Filling<'_> {
    /// Inserts `h`; true if it was not there yet.
    #[inline]
    pub(crate) fn insert(&self, h: u64) -> bool {
        if h == 0 {
            return !self.zero.swap(true, Relaxed);
        }
        let n = self.slots.len();
        let mut i = home(h, n);
        loop {
            let slot = &self.slots[i];
            let mut here = slot.load(Relaxed);
            if here == 0 {
                match slot.compare_exchange(0, h, Relaxed, Relaxed) {
                    Ok(_) => return true,
                    Err(now) => here = now,
                }
            }
            if here == h {
                return false;
            }
            i += 1;
            if i == n {
                i = 0;
            }
        }
    }

    /// Hints that `h` will be inserted soon.
    #[inline]
    pub(crate) fn prefetch(&self, h: u64) {
        crate::alloc::prefetch(&self.slots[home(h, self.slots.len())]);
    }
}

/// The game's numbers of every position, sorted: a position's id is the
/// rank of its number, found in **O(1)** expected.
///
/// The order is that of the game's own numbers when they are spread evenly
/// enough (measured on a sample), so that positions the game numbers close
/// together (a piece one step away, say) get ids close together, and the
/// engines' accesses stay in the cache; otherwise it is the order of the
/// scrambled numbers, which are always spread evenly. A directory of the
/// numbers' leading bits (one `u32` for about every 32 numbers: small
/// enough to stay in the cache) gives the stretch of numbers that share
/// them; within it, the place in proportion is a few numbers off, so one
/// cache line of numbers is read, rarely two (a binary search in a stretch
/// of more than 64).
pub(crate) struct Keys {
    /// Sorted: the game's numbers (`raw`) or the scrambled ones.
    values: Vec<u64>,
    raw: bool,
    /// How much the game's numbers crowd together: see [`Keys::crowding`].
    crowding: f64,
    /// The smallest value; `directory[b]` counts the values `v` with
    /// `(v - min) >> shift` below `b`.
    min: u64,
    shift: u32,
    directory: Vec<u32>,
}

/// Numbers a directory entry stands for, about.
const SPREAD: usize = 32;

/// The most [`Keys::crowding`] under which ids follow the game's numbers.
pub(crate) const CROWDING: f64 = 4.0;

/// The bits of a directory for `n` values.
fn bits_for(n: usize) -> u32 {
    (n / SPREAD).max(2).next_power_of_two().trailing_zeros()
}

/// The shift that maps values from `min` to `max` onto about `2^bits`
/// directory entries.
fn shift_for(min: u64, max: u64, bits: u32) -> u32 {
    (64 - (max - min).leading_zeros()).saturating_sub(bits)
}

impl Keys {
    /// The ids of the numbers `scrambled` (distinct, fewer than 2³², in
    /// any order; their memory is reused): in the game's order if its
    /// numbers are even enough, else in scrambled order.
    pub(crate) fn new(scrambled: Vec<u64>) -> Keys {
        let bounds = scrambled
            .par_iter()
            .map(|&h| unmix(h))
            .fold(|| (u64::MAX, 0), |(lo, hi), c| (lo.min(c), hi.max(c)))
            .reduce(|| (u64::MAX, 0), |a, b| (a.0.min(b.0), a.1.max(b.1)));
        let bits = bits_for(scrambled.len());
        let crowding = match bounds {
            (min, max) if min <= max => Keys::crowding_of(&scrambled, min, max),
            _ => 0.0,
        };
        let keys = match bounds {
            (min, max) if min <= max && crowding <= CROWDING => {
                let mut codes = scrambled;
                codes.par_iter_mut().for_each(|h| *h = unmix(*h));
                Keys::build(codes, true, min, max, shift_for(min, max, bits))
            }
            _ => Keys::build(scrambled, false, 0, u64::MAX, 64 - bits),
        };
        Keys { crowding, ..keys }
    }

    /// How much the game's numbers between `min` and `max` crowd
    /// together: on a sample (the scrambled order is a random one), the
    /// numbers a directory entry would stand for, weighted by themselves,
    /// over what evenly spread numbers give. They are even enough at
    /// [`CROWDING`] or less.
    fn crowding_of(scrambled: &[u64], min: u64, max: u64) -> f64 {
        let step = (scrambled.len() >> 16).max(1);
        let sample: Vec<u64> = scrambled.iter().step_by(step).map(|&h| unmix(h)).collect();
        let shift = shift_for(min, max, bits_for(sample.len()));
        let mut count = std::collections::HashMap::<u64, u64>::new();
        for &c in &sample {
            *count.entry((c - min) >> shift).or_default() += 1;
        }
        let cost: u64 = count.values().map(|&k| k * k).sum();
        cost as f64 / (SPREAD as f64 * sample.len() as f64)
    }

    /// Sorts `values` (between `min` and `max`) by their directory entry
    /// (a counting sort on all threads, each with its own counts), then each
    /// entry's few values, and keeps the directory the counts give. Time
    /// **O(n)** expected for values spread evenly; 16 bytes a value and 4 an
    /// entry a thread meanwhile.
    fn build(values: Vec<u64>, raw: bool, min: u64, max: u64, shift: u32) -> Keys {
        const SPAN: usize = 1 << 14;
        let buckets = ((max - min) >> shift) as usize + 1;
        let bucket = |v: u64| ((v - min) >> shift) as usize;
        // Each thread counts, then places, the values of its own part: no
        // counter is shared.
        let part = values.len().div_ceil(rayon::current_num_threads()).max(1);
        let mut counts: Vec<Vec<u32>> = values
            .par_chunks(part)
            .map(|c| {
                let mut count = vec![0u32; buckets];
                for &v in c {
                    count[bucket(v)] += 1;
                }
                count
            })
            .collect();
        let mut directory = crate::alloc::filled(buckets + 1, 0u32);
        let mut at = 0u32;
        for b in 0..buckets {
            directory[b] = at;
            for count in &mut counts {
                let k = count[b];
                count[b] = at;
                at += k;
            }
        }
        directory[buckets] = at;
        let mut sorted = crate::alloc::filled(values.len(), 0u64);
        {
            let out = as_atomic_u64(&mut sorted);
            values
                .par_chunks(part)
                .zip(counts.par_iter_mut())
                .for_each(|(c, cursor)| {
                    for &v in c {
                        let b = bucket(v);
                        out[cursor[b] as usize].store(v, Relaxed);
                        cursor[b] += 1;
                    }
                });
        }
        drop(counts);
        drop(values);
        // Each stretch of SPAN entries apart, to sort their values.
        let mut stretches = Vec::new();
        let mut rest = &mut sorted[..];
        for first in (0..buckets).step_by(SPAN) {
            let last = (first + SPAN).min(buckets);
            let len = (directory[last] - directory[first]) as usize;
            let (here, more) = rest.split_at_mut(len);
            stretches.push((first, last, here));
            rest = more;
        }
        stretches.into_par_iter().for_each(|(first, last, here)| {
            let base = directory[first];
            for b in first..last {
                let (lo, hi) = (directory[b] - base, directory[b + 1] - base);
                here[lo as usize..hi as usize].sort_unstable();
            }
        });
        Keys {
            values: sorted,
            raw,
            crowding: 0.0,
            min,
            shift,
            directory,
        }
    }

    /// What the game's number `code` is kept as.
    #[inline]
    fn value(&self, code: u64) -> u64 {
        if self.raw { code } else { mix(code) }
    }

    /// The directory entry of the value `v`, if in range.
    #[inline]
    fn bucket(&self, v: u64) -> Option<usize> {
        let b = (v.checked_sub(self.min)? >> self.shift) as usize;
        (b < self.directory.len() - 1).then_some(b)
    }

    /// Where the game's number `code` would be: its value, the stretch of
    /// values in its directory entry and its place in proportion within it
    /// (what [`Keys::rank_near`] starts from).
    #[inline]
    pub(crate) fn guess(&self, code: u64) -> Guess {
        let v = self.value(code);
        let Some(b) = self.bucket(v) else {
            return Guess::default();
        };
        let (lo, hi) = (self.directory[b] as usize, self.directory[b + 1] as usize);
        let low_bits = (v - self.min) & (1u64 << self.shift).wrapping_sub(1);
        let at = lo + ((u128::from(low_bits) * (hi - lo) as u128) >> self.shift) as usize;
        Guess { v, lo, at, hi }
    }

    /// The id of the position the game numbers `code`, if it is one.
    #[inline]
    pub(crate) fn rank(&self, code: u64) -> Option<u32> {
        self.rank_near(self.guess(code))
    }

    /// The id of a number, if held, from its [`Keys::guess`].
    #[inline]
    pub(crate) fn rank_near(&self, g: Guess) -> Option<u32> {
        let Guess { v, lo, mut at, hi } = g;
        if lo == hi {
            return None;
        }
        if hi - lo > 64 {
            return self.values[lo..hi]
                .binary_search(&v)
                .ok()
                .map(|k| (lo + k) as u32);
        }
        at = at.min(hi - 1);
        if self.values[at] < v {
            at += 1;
            while at < hi && self.values[at] < v {
                at += 1;
            }
        } else {
            while at > lo && self.values[at - 1] >= v {
                at -= 1;
            }
        }
        (at < hi && self.values[at] == v).then_some(at as u32)
    }

    /// Hints that the rank of `code` will be asked soon: its directory entry.
    #[inline]
    pub(crate) fn prefetch(&self, code: u64) {
        if let Some(b) = self.bucket(self.value(code)) {
            crate::alloc::prefetch(&self.directory[b]);
        }
    }

    /// Hints that the numbers near a guess will be read soon.
    #[inline]
    pub(crate) fn prefetch_numbers(&self, g: &Guess) {
        if let Some(k) = self.values.get(g.at) {
            crate::alloc::prefetch(k);
        }
    }

    /// Whether ids follow the game's own numbers (else scrambled ones).
    pub(crate) fn in_game_order(&self) -> bool {
        self.raw
    }

    /// How much the game's numbers crowd together, measured on a sample:
    /// the numbers a directory entry stands for, each weighted by them all,
    /// over what evenly spread numbers give (about 1 for those; more where
    /// numbers bunch up). Ids follow the game's numbers at [`CROWDING`] or
    /// less.
    pub(crate) fn crowding(&self) -> f64 {
        self.crowding
    }

    /// How many numbers.
    pub(crate) fn len(&self) -> usize {
        self.values.len()
    }

    /// The game's number of the position with id `i`.
    #[inline]
    pub(crate) fn code(&self, i: u32) -> Option<u64> {
        let v = *self.values.get(i as usize)?;
        Some(if self.raw { v } else { unmix(v) })
    }

    /// Bytes held.
    pub(crate) fn bytes(&self) -> u64 {
        (self.values.capacity() * 8 + self.directory.capacity() * 4) as u64
    }

    /// Bytes the numbers and directory of `n` positions take.
    pub(crate) fn bytes_for(n: usize) -> u64 {
        n as u64 * 8 + ((1u64 << bits_for(n)) + 2) * 4
    }
}

/// Where a number would be among the [`Keys`]: its value, and the stretch
/// `lo..hi` with the place in proportion `at`.
#[derive(Clone, Copy, Default)]
pub(crate) struct Guess {
    v: u64,
    lo: usize,
    at: usize,
    hi: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unmix_undoes_mix() {
        for x in [
            0,
            1,
            2,
            41,
            u64::MAX,
            u64::MAX - 1,
            1 << 63,
            0x1234_5678_9abc,
        ] {
            assert_eq!(unmix(mix(x)), x);
            assert_eq!(mix(unmix(x)), x);
        }
        for x in 0..10_000u64 {
            assert_eq!(unmix(mix(x * 0x9E37_79B9)), x * 0x9E37_79B9);
        }
    }

    #[test]
    fn a_table_keeps_each_number_once_through_growing() {
        let mut t = Table::with_slots(64);
        let numbers: Vec<u64> = (0..5000u64).map(|x| mix(x % 3000)).collect();
        let mut new = 0;
        for chunk in numbers.chunks(40) {
            while t.room() < new + chunk.len() {
                assert_eq!(t.room(), Table::room_of(t.slots()));
                let slots = t.slots() * 3 / 2;
                t.grow(slots);
            }
            new += t.fill(|f| chunk.iter().filter(|&&h| f.insert(h)).count());
        }
        assert_eq!(new, 3000);
        let mut sorted = t.into_numbers();
        sorted.sort_unstable();
        let mut want: Vec<u64> = (0..3000).map(mix).collect();
        want.sort_unstable();
        assert_eq!(sorted, want);
    }

    /// The keys of `codes`, built as the explorer does: from the table's
    /// scrambled numbers, in no useful order.
    fn keys_of(codes: &[u64]) -> Keys {
        let mut h: Vec<u64> = codes.iter().map(|&c| mix(c)).collect();
        h.reverse();
        Keys::new(h)
    }

    #[test]
    fn ranks_are_places_in_order_and_others_are_absent() {
        // Even numbers, evenly spread: ids in the game's order. Numbers
        // bunched at a few places: in scrambled order.
        let even = |n: u64| (0..n).map(|x| 2 * x).collect::<Vec<u64>>();
        let bunched = |n: u64| {
            (0..n)
                .map(|x| (x % 7) << (8 * (x % 7)) | (x / 7) << 1)
                .collect::<Vec<u64>>()
        };
        for n in [0u64, 1, 7, 100, 10_000, 100_000] {
            for (codes, game_order) in [(even(n), true), (bunched(n), false)] {
                let mut codes = codes;
                codes.sort_unstable();
                codes.dedup();
                let keys = keys_of(&codes);
                if n >= 10_000 {
                    assert_eq!(keys.in_game_order(), game_order, "{n}");
                }
                let mut order: Vec<u64> = codes.clone();
                if !keys.in_game_order() {
                    order.sort_unstable_by_key(|&c| mix(c));
                }
                for (i, &c) in order.iter().enumerate() {
                    assert_eq!(keys.rank(c), Some(i as u32), "{c}");
                    assert_eq!(keys.code(i as u32), Some(c));
                }
                for &c in &codes {
                    for absent in [c + 1, c.wrapping_sub(1), c | 1 << 63] {
                        if codes.binary_search(&absent).is_err() {
                            assert_eq!(keys.rank(absent), None, "{absent}");
                        }
                    }
                }
                assert_eq!(keys.rank(u64::MAX), None);
                assert_eq!(keys.code(codes.len() as u32), None);
            }
        }
    }
}
