//! Values: every position's outcome and remoteness, the result of every
//! engine and what every kind of solution holds.

use super::{Histogram, HistogramCounter, Remoteness, Summary};
use crate::kernel::{self, ABSENT, DRAW};
use crate::{Outcome, Value};

/// The value of every position: its [`Outcome`] for the player to move and
/// its remoteness.
///
/// **Remoteness** is the number of plies to the end under best play: 0 for a
/// terminal position; for a `Win`, 1 + the least remoteness of its `Lose`
/// successors (the winner hurries); for a `Lose`, 1 + the greatest
/// remoteness of its successors, all `Win` (the loser holds out); for a
/// `Tie`, 1 + the least remoteness of its `Tie` successors (both sides would
/// rather end level than play forever). Draws have none.
///
/// Indices are `0..len()`. A dense numbering may leave some unused (see
/// [`Game::is_position`](crate::Game::is_position)): they are no positions,
/// [`Values::value`] answers `None` for them and no count includes them.
///
/// Memory: 1 byte per index for the outcome and 2 for the remoteness while
/// it stays below 65535 (4 beyond).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Values {
    pub(crate) state: Vec<u8>,
    pub(crate) remoteness: Remoteness,
}

impl Values {
    /// Assembles values from final state codes and remoteness.
    /// The values `values[v]` (`None`: no position), laid out on all threads.
    pub fn from_values(values: &[Option<Value>]) -> Values {
        use rayon::prelude::*;
        let state = values
            .par_iter()
            .map(|v| match v {
                None => ABSENT,
                Some(v) if v.outcome == Outcome::Draw => DRAW,
                Some(v) => v.outcome as u8,
            })
            .collect();
        let remoteness = values
            .par_iter()
            .map(|v| v.and_then(|v| v.remoteness).unwrap_or(u32::MAX))
            .collect();
        Values::new(state, Remoteness::Wide(remoteness))
    }

    pub(crate) fn new(state: Vec<u8>, remoteness: Remoteness) -> Values {
        debug_assert!(state.iter().all(|&s| s <= DRAW));
        Values { state, remoteness }
    }

    /// The number of indices (positions and unused indices alike).
    pub fn len(&self) -> usize {
        self.state.len()
    }

    /// Whether there are no indices.
    pub fn is_empty(&self) -> bool {
        self.state.is_empty()
    }

    /// Whether `v` is a position (in range and not an unused index).
    #[inline]
    pub fn is_position(&self, v: u32) -> bool {
        self.state.get(v as usize).is_some_and(|&s| s != ABSENT)
    }

    /// The value of `v`; `None` if `v` is not a position.
    #[inline]
    pub fn value(&self, v: u32) -> Option<Value> {
        let outcome = kernel::outcome(*self.state.get(v as usize)?)?;
        Some(Value::new(outcome, self.remoteness.get(v as usize)))
    }

    /// Asks for the value of `v` to be brought into the cache (a hint; any
    /// `v`): for a pass that looks up a position's moves together.
    #[inline]
    pub(crate) fn prefetch(&self, v: u32) {
        let v = v as usize;
        crate::alloc::prefetch(self.state.as_ptr().wrapping_add(v));
        match &self.remoteness {
            Remoteness::Narrow(r) => crate::alloc::prefetch(r.as_ptr().wrapping_add(v)),
            Remoteness::Wide(r) => crate::alloc::prefetch(r.as_ptr().wrapping_add(v)),
        }
    }

    /// The outcome of `v` for the player to move.
    ///
    /// # Panics
    /// If `v` is not a position (use [`Values::value`] to ask safely).
    #[inline]
    pub fn outcome(&self, v: u32) -> Outcome {
        match kernel::outcome(self.state[v as usize]) {
            Some(o) => o,
            None => panic!("{v} is not a position"),
        }
    }

    /// Plies to the end under best play; `None` for a draw (and for an index
    /// that is not a position).
    ///
    /// # Panics
    /// If `v` is out of range.
    #[inline]
    pub fn remoteness(&self, v: u32) -> Option<u32> {
        self.remoteness.get(v as usize)
    }

    /// The positions, in increasing order (every index but the unused ones).
    pub fn positions(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.len() as u32).filter(|&v| self.state[v as usize] != ABSENT)
    }

    /// Counts of each outcome and the longest remoteness.
    pub fn summary(&self) -> Summary {
        let mut counts = [0u64; 5];
        for &s in &self.state {
            counts[s as usize] += 1;
        }
        let max_remoteness = (0..self.len()).filter_map(|v| self.remoteness.get(v)).max();
        Summary {
            positions: self.state.len() as u64 - counts[ABSENT as usize],
            wins: counts[Outcome::Win as usize],
            losses: counts[Outcome::Lose as usize],
            ties: counts[Outcome::Tie as usize],
            draws: counts[Outcome::Draw as usize],
            max_remoteness,
        }
    }

    /// How many positions have each outcome at each remoteness.
    pub fn histogram(&self) -> Histogram {
        let mut counter = HistogramCounter::default();
        for v in 0..self.len() as u32 {
            if let Some(value) = self.value(v) {
                counter.count(value);
            }
        }
        counter.finish()
    }

    /// The raw state codes (see [`kernel`]: 0 win, 1 lose, 2 tie, 3 not a
    /// position, 4 draw), one byte per index.
    pub fn outcome_codes(&self) -> &[u8] {
        &self.state
    }
}
