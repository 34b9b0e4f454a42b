//! The map from a position to its number: the positions in the order they
//! were found, and a hash table of their numbers.

use std::hash::{BuildHasher, Hash};

use foldhash::fast::FixedState;
use hashbrown::hash_table::{Entry, HashTable};

/// Positions numbered densely in the order they are inserted, found again
/// by value in `O(1)` expected.
///
/// Memory: the positions (`size_of::<P>()` each) and a table of `u32`
/// numbers (5 bytes a slot with its control byte, at most 7/8 full: 5.7 to
/// 11.4 bytes a position). The hash is seeded with a constant, so the same
/// game lays out its table alike on every run; the numbering never depends
/// on it.
pub(crate) struct Index<P> {
    positions: Vec<P>,
    table: HashTable<u32>,
    hasher: FixedState,
}

impl<P> Index<P> {
    /// The number of positions.
    pub(crate) fn len(&self) -> usize {
        self.positions.len()
    }
}

/// Bytes a table of `n` positions takes (the next power-of-two bucket count
/// at 7/8 load, 5 bytes a bucket).
pub(crate) fn table_bytes_for(n: usize) -> u64 {
    let buckets = (n.saturating_mul(8) / 7 + 1).next_power_of_two().max(4);
    buckets as u64 * 5
}

impl<P: Hash + Eq> Index<P> {
    pub(crate) fn new() -> Index<P> {
        Index {
            positions: Vec::new(),
            table: HashTable::new(),
            hasher: FixedState::with_seed(0x7265_7472_6f67_7261),
        }
    }

    /// The hash of `p` that [`Index::find_hashed`] and [`Index::insert`] take.
    #[inline]
    pub(crate) fn hash(&self, p: &P) -> u64 {
        self.hasher.hash_one(p)
    }

    /// The number of `p`, if inserted.
    #[inline]
    pub(crate) fn find(&self, p: &P) -> Option<u32> {
        self.find_hashed(self.hash(p), p)
    }

    /// The number of `p`, whose hash is `hash`, if inserted.
    #[inline]
    pub(crate) fn find_hashed(&self, hash: u64, p: &P) -> Option<u32> {
        self.table
            .find(hash, |&i| self.positions[i as usize] == *p)
            .copied()
    }

    /// The number of `p` (hash `hash`), inserting it with the next number if
    /// it is new; and whether it was.
    pub(crate) fn insert(&mut self, hash: u64, p: P) -> (u32, bool) {
        let Index {
            positions,
            table,
            hasher,
        } = self;
        let entry = table.entry(
            hash,
            |&i| positions[i as usize] == p,
            |&i| hasher.hash_one(&positions[i as usize]),
        );
        match entry {
            Entry::Occupied(e) => (*e.get(), false),
            Entry::Vacant(e) => {
                let i = positions.len() as u32;
                e.insert(i);
                positions.push(p);
                (i, true)
            }
        }
    }

    /// Makes room for `additional` more positions without growing the table.
    pub(crate) fn reserve(&mut self, additional: usize) {
        let Index {
            positions,
            table,
            hasher,
        } = self;
        table.reserve(additional, |&i| hasher.hash_one(&positions[i as usize]));
        positions.reserve(additional);
    }

    /// The position numbered `i`.
    #[inline]
    pub(crate) fn position(&self, i: u32) -> Option<&P> {
        self.positions.get(i as usize)
    }

    /// All positions, by number.
    pub(crate) fn positions(&self) -> &[P] {
        &self.positions
    }

    /// Bytes held: the positions' own size (not what they own on the heap)
    /// and the table.
    pub(crate) fn bytes(&self) -> u64 {
        (self.positions.capacity() * std::mem::size_of::<P>() + self.table.allocation_size()) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_follow_insertion_and_are_found_again() {
        let mut ix = Index::new();
        for (k, word) in ["b", "a", "b", "c", "a"].iter().enumerate() {
            let h = ix.hash(word);
            let (i, new) = ix.insert(h, *word);
            assert_eq!(new, k == 0 || k == 1 || k == 3, "{word}");
            assert_eq!(ix.position(i), Some(word));
        }
        assert_eq!(ix.len(), 3);
        assert_eq!(ix.find(&"c"), Some(2));
        assert_eq!(ix.find(&"z"), None);
        assert_eq!(ix.positions(), ["b", "a", "c"]);
    }

    #[test]
    fn many_positions_survive_the_table_growing() {
        let mut ix = Index::new();
        for x in 0u64..100_000 {
            let p = x.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let h = ix.hash(&p);
            assert_eq!(ix.insert(h, p), (x as u32, true));
        }
        for x in (0u64..100_000).step_by(7) {
            assert_eq!(
                ix.find(&x.wrapping_mul(0x9E37_79B9_7F4A_7C15)),
                Some(x as u32)
            );
        }
        assert!(ix.bytes() <= 100_000 * 8 * 2 + table_bytes_for(100_000));
    }
}
