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

    /// The numbers held, sorted, in the table's own memory (shrunk to fit).
    pub(crate) fn into_sorted(self) -> Vec<u64> {
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
        // Almost in order already: each number sits at or a little after its
        // proportional place.
        slots.par_sort_unstable();
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

/// Sorted distinct scrambled numbers: a position's id is the rank of its
/// number, found in **O(1)** expected. A directory of the numbers' leading
/// bits (one `u32` for about every 32 numbers: small enough to stay in the
/// cache) gives the stretch of numbers that share them; as the numbers are
/// spread evenly, the place in proportion within that stretch is a few
/// numbers off, so one cache line of numbers is read, rarely two.
pub(crate) struct Keys {
    keys: Vec<u64>,
    /// `directory[b]`: how many numbers have leading bits below `b`.
    directory: Vec<u32>,
    /// `64 - ` the directory's bits.
    shift: u32,
}

/// Numbers a directory entry stands for, about.
const SPREAD: usize = 32;

impl Keys {
    /// The directory of `keys`, sorted and distinct, fewer than 2³² of them.
    pub(crate) fn new(keys: Vec<u64>) -> Keys {
        let bits = (keys.len() / SPREAD)
            .max(2)
            .next_power_of_two()
            .trailing_zeros();
        let shift = 64 - bits;
        let buckets = 1usize << bits;
        let mut directory = crate::alloc::filled(buckets + 1, 0u32);
        const SPAN: usize = 1 << 14;
        directory
            .par_chunks_mut(SPAN)
            .enumerate()
            .for_each(|(k, d)| {
                let first = k * SPAN;
                let mut at = keys.partition_point(|&h| ((h >> shift) as usize) < first);
                for (b, slot) in (first..).zip(d.iter_mut()) {
                    while at < keys.len() && ((keys[at] >> shift) as usize) < b {
                        at += 1;
                    }
                    *slot = at as u32;
                }
            });
        Keys {
            keys,
            directory,
            shift,
        }
    }

    /// Where `h` would be, in proportion within the stretch of its leading
    /// bits, and that stretch: what [`Keys::rank_near`] starts from.
    #[inline]
    pub(crate) fn guess(&self, h: u64) -> (usize, usize, usize) {
        let b = (h >> self.shift) as usize;
        let (lo, hi) = (self.directory[b] as usize, self.directory[b + 1] as usize);
        let low_bits = h & (u64::MAX >> (64 - self.shift));
        let at = lo + ((u128::from(low_bits) * (hi - lo) as u128) >> self.shift) as usize;
        (lo, at, hi)
    }

    /// The id of the scrambled number `h`, if held.
    #[inline]
    pub(crate) fn rank(&self, h: u64) -> Option<u32> {
        self.rank_near(h, self.guess(h))
    }

    /// The id of `h`, if held, from its [`Keys::guess`].
    #[inline]
    pub(crate) fn rank_near(&self, h: u64, (lo, mut at, hi): (usize, usize, usize)) -> Option<u32> {
        if at == hi {
            if lo == hi {
                return None;
            }
            at -= 1;
        }
        if self.keys[at] < h {
            at += 1;
            while at < hi && self.keys[at] < h {
                at += 1;
            }
        } else {
            while at > lo && self.keys[at - 1] >= h {
                at -= 1;
            }
        }
        (at < hi && self.keys[at] == h).then_some(at as u32)
    }

    /// Hints that the rank of `h` will be asked soon: its directory entry.
    #[inline]
    pub(crate) fn prefetch(&self, h: u64) {
        let b = (h >> self.shift) as usize;
        crate::alloc::prefetch(&self.directory[b]);
    }

    /// Hints that the numbers near `at` will be read soon.
    #[inline]
    pub(crate) fn prefetch_numbers(&self, at: usize) {
        if let Some(k) = self.keys.get(at) {
            crate::alloc::prefetch(k);
        }
    }

    /// How many numbers.
    pub(crate) fn len(&self) -> usize {
        self.keys.len()
    }

    /// The game's number of the position with id `i`.
    #[inline]
    pub(crate) fn code(&self, i: u32) -> Option<u64> {
        self.keys.get(i as usize).map(|&h| unmix(h))
    }

    /// The scrambled numbers, by id.
    pub(crate) fn scrambled(&self) -> &[u64] {
        &self.keys
    }

    /// Bytes held.
    pub(crate) fn bytes(&self) -> u64 {
        (self.keys.capacity() * 8 + self.directory.capacity() * 4) as u64
    }

    /// Bytes the numbers and directory of `n` positions take.
    pub(crate) fn bytes_for(n: usize) -> u64 {
        n as u64 * 8 + ((n / SPREAD).max(2).next_power_of_two() as u64 + 1) * 4
    }
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
        let sorted = t.into_sorted();
        let mut want: Vec<u64> = (0..3000).map(mix).collect();
        want.sort_unstable();
        assert_eq!(sorted, want);
    }

    #[test]
    fn ranks_are_places_in_order_and_others_are_absent() {
        for n in [0usize, 1, 7, 100, 10_000] {
            let mut h: Vec<u64> = (0..n as u64).map(|x| mix(2 * x)).collect();
            h.sort_unstable();
            let keys = Keys::new(h.clone());
            for (i, &x) in h.iter().enumerate() {
                assert_eq!(keys.rank(x), Some(i as u32));
                assert_eq!(keys.code(i as u32), Some(unmix(x)));
            }
            for x in 0..n as u64 {
                assert_eq!(keys.rank(mix(2 * x + 1)), None);
            }
            assert_eq!(keys.rank(0), h.binary_search(&0).ok().map(|i| i as u32));
            assert_eq!(keys.rank(u64::MAX), None);
        }
    }
}
