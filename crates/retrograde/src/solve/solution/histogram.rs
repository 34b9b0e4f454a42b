//! Counts of positions: by outcome (Summary), and by outcome and
//! remoteness (Histogram, HistogramCounter).

use std::collections::BTreeMap;
use std::fmt;

use crate::{Outcome, Value};

/// Counts of each outcome.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// All positions.
    pub positions: u64,
    /// Positions won by the player to move.
    pub wins: u64,
    /// Positions lost by the player to move.
    pub losses: u64,
    /// Positions where best play ends level.
    pub ties: u64,
    /// Positions where best play goes on forever.
    pub draws: u64,
    /// The longest remoteness of a position that ends, if any.
    pub max_remoteness: Option<u32>,
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} win, {} lose, {} tie, {} draw, longest remoteness {}",
            self.wins,
            self.losses,
            self.ties,
            self.draws,
            self.max_remoteness
                .map_or_else(|| "-".to_string(), |r| r.to_string())
        )
    }
}

/// Positions counted by outcome and remoteness (see [`Values::histogram`](crate::Values::histogram)).
///
/// Only the remotenesses some position has are kept (a map, not a vector
/// indexed by remoteness), so a histogram holds at most one entry a
/// position counted, whatever remoteness a value read from a file claims.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Histogram {
    /// The wins, losses and ties of each remoteness some position has, in
    /// increasing order of remoteness.
    pub by_remoteness: BTreeMap<u32, [u64; 3]>,
    /// The draws (which have no remoteness).
    pub draws: u64,
}

impl Histogram {
    /// The bytes one remoteness takes in [`Histogram::by_remoteness`]: the
    /// entry and its share of the tree's nodes, rounded up.
    pub const BYTES_PER_REMOTENESS: u64 = 64;

    /// Counts one position of value `value`.
    pub fn count(&mut self, value: Value) {
        self.count_times(value, 1);
    }

    /// Counts `n` positions of value `value`.
    pub fn count_times(&mut self, value: Value, n: u64) {
        match (Histogram::column(value.outcome), value.remoteness) {
            (Some(c), Some(r)) => self.by_remoteness.entry(r).or_default()[c] += n,
            _ => self.draws += n,
        }
    }

    /// Adds the counts of `other` (another share of the same game's positions).
    pub fn add(&mut self, other: &Histogram) {
        for (&r, theirs) in &other.by_remoteness {
            let row = self.by_remoteness.entry(r).or_default();
            for (a, b) in row.iter_mut().zip(theirs) {
                *a += b;
            }
        }
        self.draws += other.draws;
    }

    /// The counts of each outcome and the longest remoteness (as
    /// [`Values::summary`](crate::Values::summary) gives them for the same positions).
    pub fn summary(&self) -> Summary {
        let sum = |c: usize| self.by_remoteness.values().map(|row| row[c]).sum::<u64>();
        let (wins, losses, ties) = (sum(0), sum(1), sum(2));
        Summary {
            positions: wins + losses + ties + self.draws,
            wins,
            losses,
            ties,
            draws: self.draws,
            max_remoteness: self
                .by_remoteness
                .iter()
                .rev()
                .find(|(_, row)| row.iter().any(|&c| c > 0))
                .map(|(&r, _)| r),
        }
    }

    /// The column of `outcome` in [`Histogram::by_remoteness`] (0 win, 1
    /// lose, 2 tie); `None` for a draw.
    pub fn column(outcome: Outcome) -> Option<usize> {
        match outcome {
            Outcome::Win => Some(0),
            Outcome::Lose => Some(1),
            Outcome::Tie => Some(2),
            Outcome::Draw => None,
        }
    }
}

/// Counts positions into a [`Histogram`], fast: the remotenesses below
/// [`HistogramCounter::DENSE`] (every one a solve has, in practice) in a
/// table indexed by remoteness, grown as they come; any other in the
/// histogram's map. The table never passes `DENSE` rows, so no remoteness
/// makes it allocate more than that.
#[derive(Clone, Debug, Default)]
pub struct HistogramCounter {
    dense: Vec<[u64; 3]>,
    histogram: Histogram,
}

impl HistogramCounter {
    /// The remotenesses counted in the table (1.5 MiB of it at most).
    pub const DENSE: u32 = 1 << 16;

    /// Counts one position of value `value`.
    #[inline]
    pub fn count(&mut self, value: Value) {
        match (Histogram::column(value.outcome), value.remoteness) {
            (Some(c), Some(r)) if r < Self::DENSE => {
                let r = r as usize;
                if self.dense.len() <= r {
                    self.dense.resize(r + 1, [0; 3]);
                }
                self.dense[r][c] += 1;
            }
            _ => self.histogram.count(value),
        }
    }

    /// The histogram of the positions counted.
    pub fn finish(self) -> Histogram {
        let mut h = self.histogram;
        for (r, row) in self.dense.into_iter().enumerate() {
            if row.iter().any(|&c| c > 0) {
                h.by_remoteness.insert(r as u32, row);
            }
        }
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_histogram_holds_only_the_remotenesses_present_however_large() {
        let mut counter = HistogramCounter::default();
        for (o, r) in [
            (Outcome::Win, Some(3)),
            (Outcome::Win, Some(3)),
            (Outcome::Lose, Some(4_000_000_000)),
            (Outcome::Tie, Some(HistogramCounter::DENSE)),
            (Outcome::Draw, None),
        ] {
            counter.count(Value::new(o, r));
        }
        // Nothing indexed by the large remotenesses: the table stops at
        // the small one.
        assert_eq!(counter.dense.len(), 4);
        let h = counter.finish();
        let levels: Vec<(u32, [u64; 3])> = h.by_remoteness.clone().into_iter().collect();
        assert_eq!(
            levels,
            [
                (3, [2, 0, 0]),
                (HistogramCounter::DENSE, [0, 0, 1]),
                (4_000_000_000, [0, 1, 0])
            ]
        );
        assert_eq!(h.draws, 1);
        let s = h.summary();
        assert_eq!((s.positions, s.max_remoteness), (5, Some(4_000_000_000)));
        // Two shares add up level by level.
        let mut twice = h.clone();
        twice.add(&h);
        assert_eq!(twice.by_remoteness[&3], [4, 0, 0]);
        assert_eq!(twice.draws, 2);
    }
}
