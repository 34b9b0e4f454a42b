//! The result of a solve: outcome, remoteness and best move of every position.

use std::fmt;

use super::{DRAW, LOSE, UNDECIDED, WIN};
use crate::error::{Error, Result};
use crate::graph::NONE;
use crate::{Outcome, Rules, Successors};

/// The strong solution of a game: for every position, its [`Outcome`] for the
/// player to move, its remoteness and a best move.
///
/// **Remoteness** is the number of plies to the end under best play: 0 for a
/// terminal position; for a `Win`, 1 + the least remoteness of its `Lose`
/// successors (the winner hurries); for a `Lose`, 1 + the greatest remoteness
/// of its successors, all `Win` (the loser holds out). Draws have none.
///
/// **Best move** (a successor position), chosen deterministically so that every
/// engine gives the same answer: for a `Win`, the `Lose` successor of least
/// remoteness; for a `Lose`, the successor of greatest remoteness; for a
/// non-terminal `Draw`, a `Draw` successor; ties go to the smallest id.
/// Terminal positions have no best move.
///
/// Memory: 9 bytes per position, or 3 for a solution that stores no best moves
/// and whose remoteness stays below 65535 (see
/// [`solve_lean`](crate::solve::solve_lean); 5 beyond). Best moves are then
/// computed on demand from the game's moves by [`Solution::best_move_in`],
/// with exactly the same rules, or filled in by [`Solution::with_best_moves`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    pub(crate) state: Vec<u8>,
    pub(crate) remoteness: Remoteness,
    /// One entry per position (`NONE` for none), or `None` if not stored.
    pub(crate) best: Option<Vec<u32>>,
}

impl Solution {
    /// Assembles a solution from flat arrays (state codes, remoteness with
    /// `u32::MAX` for draws, best moves with `u32::MAX` for none).
    pub(crate) fn from_parts(state: Vec<u8>, remoteness: Vec<u32>, best: Vec<u32>) -> Solution {
        debug_assert!(state.iter().all(|&s| s <= DRAW));
        Solution {
            state,
            remoteness: Remoteness::Wide(remoteness),
            best: Some(best),
        }
    }

    /// Assembles a solution without best moves.
    pub(crate) fn from_values(state: Vec<u8>, remoteness: Remoteness) -> Solution {
        debug_assert!(state.iter().all(|&s| s <= DRAW));
        Solution {
            state,
            remoteness,
            best: None,
        }
    }

    /// Assembles a solution computed elsewhere (another engine, another
    /// process) from flat arrays, one entry per position: `outcomes` the codes
    /// of [`Outcome`] (0 win, 1 lose, 2 draw), `remoteness` with `u32::MAX` for
    /// a draw, `best` the best move with `u32::MAX` for none.
    ///
    /// # Errors
    /// [`Error::Invalid`] if the arrays differ in length, a code is not an
    /// outcome, a draw has a remoteness or a decided position has none, or a
    /// best move names no position.
    ///
    /// ```
    /// use retrograde::{Outcome, Solution};
    /// // 0 -> 1, 1 has no move: 0 wins in 1 by moving to 1.
    /// let s = Solution::try_from_arrays(vec![0, 1], vec![1, 0], vec![1, u32::MAX]).unwrap();
    /// assert_eq!((s.outcome(0), s.best_move(0)), (Outcome::Win, Some(1)));
    /// assert!(Solution::try_from_arrays(vec![3], vec![0], vec![u32::MAX]).is_err());
    /// ```
    pub fn try_from_arrays(
        outcomes: Vec<u8>,
        remoteness: Vec<u32>,
        best: Vec<u32>,
    ) -> Result<Solution> {
        let n = outcomes.len();
        if remoteness.len() != n || best.len() != n {
            return Err(Error::Invalid(format!(
                "solution arrays differ in length: {n} outcomes, {} remoteness values, {} best moves",
                remoteness.len(),
                best.len()
            )));
        }
        for v in 0..n {
            let (s, r, b) = (outcomes[v], remoteness[v], best[v]);
            let problem = if s > DRAW {
                Some(format!("outcome code {s} is not 0, 1 or 2"))
            } else if (s == DRAW) != (r == NONE) {
                Some("a draw has no remoteness and a decided position has one".to_string())
            } else if b != NONE && b as usize >= n {
                Some(format!("best move {b} is not a position"))
            } else {
                None
            };
            if let Some(p) = problem {
                return Err(Error::Invalid(format!("solution entry of vertex {v}: {p}")));
            }
        }
        Ok(Solution::from_parts(outcomes, remoteness, best))
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.state.len()
    }

    /// Whether there are no positions.
    pub fn is_empty(&self) -> bool {
        self.state.is_empty()
    }

    /// The value of `v` for the player to move.
    #[inline]
    pub fn outcome(&self, v: u32) -> Outcome {
        Outcome::from_u8(self.state[v as usize])
    }

    /// Plies to the end under best play; `None` for a draw.
    #[inline]
    pub fn remoteness(&self, v: u32) -> Option<u32> {
        self.remoteness.get(v as usize)
    }

    /// The best move from `v` (the position it leads to), `None` for a terminal position.
    ///
    /// # Panics
    /// If this solution stores no best moves ([`Solution::has_best_moves`] is
    /// false, as after [`solve_lean`](crate::solve::solve_lean)): use
    /// [`Solution::best_move_in`] or [`Solution::with_best_moves`] then.
    #[inline]
    pub fn best_move(&self, v: u32) -> Option<u32> {
        let best = self
            .best
            .as_ref()
            .expect("this solution stores no best moves: use best_move_in or with_best_moves");
        match best[v as usize] {
            NONE => None,
            w => Some(w),
        }
    }

    /// This solution without its stored best moves (4 bytes per position less).
    pub fn without_best_moves(mut self) -> Solution {
        self.best = None;
        self
    }

    /// Whether best moves are stored (so [`Solution::best_move`] may be called).
    pub fn has_best_moves(&self) -> bool {
        self.best.is_some()
    }

    /// The best move from `v`, computed from the moves of `g`, the game this
    /// solution was solved from under `rules`. Follows exactly the rules of the
    /// type's documentation, so it equals what [`solve`](crate::solve()) stores:
    /// for a `Win`, the `Lose` successor of least remoteness; for a `Lose`, the
    /// successor of greatest remoteness; for a non-terminal `Draw`, a `Draw`
    /// successor; ties to the smallest id; `None` for a terminal position
    /// (labelled by `rules` or by `g`, or without moves).
    ///
    /// Works whether or not best moves are stored (the stored ones are not read).
    ///
    /// # Complexity
    /// Time **O(out-degree of `v`)**, no memory.
    pub fn best_move_in<G: Successors + ?Sized>(
        &self,
        g: &G,
        rules: &Rules,
        v: u32,
    ) -> Option<u32> {
        if rules.labels.get(v).is_some() || g.terminal(v).is_some() {
            return None;
        }
        let outcome = self.state[v as usize];
        let rem = |w: u32| self.remoteness(w).unwrap_or(NONE);
        // Best so far as (key, id); smaller keys win, ties to the smaller id.
        let mut best: Option<(u32, u32)> = None;
        g.for_each_successor(v, |w| {
            let key = match outcome {
                WIN if self.state[w as usize] == LOSE => rem(w),
                LOSE => u32::MAX - rem(w),
                DRAW if self.state[w as usize] == DRAW => 0,
                _ => return,
            };
            if best.is_none_or(|b| (key, w) < b) {
                best = Some((key, w));
            }
        });
        best.map(|(_, w)| w)
    }

    /// This solution with every best move stored, computed from the moves of
    /// `g` under `rules` as in [`Solution::best_move_in`]. Time **O(V + E)**,
    /// 4 bytes more per position.
    pub fn with_best_moves<G: Successors + ?Sized>(mut self, g: &G, rules: &Rules) -> Solution {
        if self.best.is_none() {
            let best = (0..self.len() as u32)
                .map(|v| self.best_move_in(g, rules, v).unwrap_or(NONE))
                .collect();
            self.best = Some(best);
        }
        self
    }

    /// Counts of each outcome and the longest remoteness.
    pub fn summary(&self) -> Summary {
        let mut counts = [0u64; 3];
        for &s in &self.state {
            counts[s as usize] += 1;
        }
        let max_remoteness = (0..self.len()).filter_map(|v| self.remoteness.get(v)).max();
        Summary {
            positions: self.state.len() as u64,
            wins: counts[0],
            losses: counts[1],
            draws: counts[2],
            max_remoteness,
        }
    }

    /// The line of best play from `v`, following best moves until a terminal
    /// position. A draw never ends: its line stops when a position repeats (best
    /// moves are fixed, so play then cycles forever, see [`Line::repeats_from`])
    /// or after `max_plies` moves, and is marked [`Line::endless`]. Decided lines
    /// are never cut: their length is the remoteness.
    ///
    /// # Panics
    /// If this solution stores no best moves: use [`Solution::line_in`] then.
    pub fn line(&self, v: u32, max_plies: usize) -> Line {
        self.line_by(v, max_plies, |p| self.best_move(p))
    }

    /// [`Solution::line`], with best moves computed on demand from the moves of
    /// `g` under `rules` (see [`Solution::best_move_in`]).
    pub fn line_in<G: Successors + ?Sized>(
        &self,
        g: &G,
        rules: &Rules,
        v: u32,
        max_plies: usize,
    ) -> Line {
        self.line_by(v, max_plies, |p| self.best_move_in(g, rules, p))
    }

    fn line_by(&self, v: u32, max_plies: usize, best_move: impl Fn(u32) -> Option<u32>) -> Line {
        let endless = self.outcome(v) == Outcome::Draw && best_move(v).is_some();
        let mut positions = vec![v];
        let mut seen = std::collections::HashMap::new();
        let mut repeats_from = None;
        let mut cur = v;
        while let Some(next) = best_move(cur) {
            if endless {
                seen.insert(cur, positions.len() - 1);
                if positions.len() > max_plies {
                    break;
                }
                if let Some(&at) = seen.get(&next) {
                    positions.push(next);
                    repeats_from = Some(at);
                    break;
                }
            }
            positions.push(next);
            cur = next;
        }
        Line {
            positions,
            endless,
            repeats_from,
        }
    }

    /// The raw state codes (0 win, 1 lose, 2 draw), one byte per position.
    pub fn outcome_codes(&self) -> &[u8] {
        &self.state
    }
}

/// The remoteness of every position: `u16`s while they fit (the lean engine),
/// else `u32`s; the largest value of each type means "none" (a draw).
#[derive(Clone, Debug)]
pub(crate) enum Remoteness {
    /// Values below `u16::MAX`.
    Narrow(Vec<u16>),
    /// Values below `u32::MAX`.
    Wide(Vec<u32>),
}

impl Remoteness {
    #[inline]
    pub(crate) fn get(&self, v: usize) -> Option<u32> {
        match self {
            Remoteness::Narrow(r) => (r[v] != u16::MAX).then(|| u32::from(r[v])),
            Remoteness::Wide(r) => (r[v] != NONE).then_some(r[v]),
        }
    }

    fn len(&self) -> usize {
        match self {
            Remoteness::Narrow(r) => r.len(),
            Remoteness::Wide(r) => r.len(),
        }
    }
}

/// Equal values, whatever the width.
impl PartialEq for Remoteness {
    fn eq(&self, other: &Remoteness) -> bool {
        self.len() == other.len() && (0..self.len()).all(|v| self.get(v) == other.get(v))
    }
}

impl Eq for Remoteness {}

/// A line of best play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The positions, starting with the one asked for.
    pub positions: Vec<u32>,
    /// True for a draw: best play goes on forever and only a prefix is shown.
    pub endless: bool,
    /// For a draw whose line came back to an earlier position: the ply of that
    /// position's first visit (the last entry of `positions` repeats it), after
    /// which play cycles forever.
    pub repeats_from: Option<usize>,
}

/// Counts of each outcome in a [`Solution`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// All positions.
    pub positions: u64,
    /// Positions won by the player to move.
    pub wins: u64,
    /// Positions lost by the player to move.
    pub losses: u64,
    /// Drawn positions.
    pub draws: u64,
    /// The longest remoteness of a decided position, if any is decided.
    pub max_remoteness: Option<u32>,
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} win, {} lose, {} draw, longest remoteness {}",
            self.wins,
            self.losses,
            self.draws,
            self.max_remoteness
                .map_or_else(|| "-".to_string(), |r| r.to_string())
        )
    }
}

const _: () = assert!(UNDECIDED > DRAW);
