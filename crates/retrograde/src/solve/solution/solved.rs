//! Solution (best moves stored) and Solved (best moves computed from the
//! game it holds), with every move's value (MoveValue).

use super::{Answers, Remoteness, Values};
use crate::error::{ArraysError, SolveError};
use crate::graph::NONE;
use crate::kernel::{self, ABSENT, DRAW};
use crate::{Outcome, Rules, Successors, Value};

/// A strong solution with every best move stored: what the sequential,
/// parallel and distributed engines return, and what a solution file holds.
/// It answers everything on its own, without the game.
///
/// Memory: 9 bytes per position ([`Values`] and a `u32` best move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    values: Values,
    /// One entry per index, `NONE` for none.
    best: Vec<u32>,
}

impl Solution {
    /// Assembles a solution from flat arrays of final state codes,
    /// remoteness (`u32::MAX` for draws) and best moves (`u32::MAX` for none).
    pub(crate) fn from_parts(state: Vec<u8>, remoteness: Vec<u32>, best: Vec<u32>) -> Solution {
        Solution {
            values: Values::new(state, Remoteness::Wide(remoteness)),
            best,
        }
    }

    /// Assembles a solution from one value per index (`None`: not a
    /// position) and one best move per index.
    pub(crate) fn from_options(
        values: Vec<Option<(Outcome, Option<u32>)>>,
        best: Vec<Option<u32>>,
    ) -> Solution {
        let state = values
            .iter()
            .map(|x| x.map_or(ABSENT, |(o, _)| o as u8))
            .collect();
        let rem = values
            .iter()
            .map(|x| x.and_then(|(_, r)| r).unwrap_or(NONE))
            .collect();
        let best = best.iter().map(|b| b.unwrap_or(NONE)).collect();
        Solution::from_parts(state, rem, best)
    }

    /// Assembles a solution computed elsewhere (another engine, another
    /// process) from flat arrays, one entry per position: `outcomes` the codes
    /// of [`Outcome`] (0 win, 1 lose, 2 tie, 4 draw), `remoteness` with
    /// `u32::MAX` for a draw, `best` the best move with `u32::MAX` for none.
    ///
    /// # Errors
    /// [`ArraysError`] if the arrays differ in length, a code is not an
    /// outcome, a draw has a remoteness or another position has none, or a
    /// best move names no position.
    ///
    /// ```
    /// use retrograde::{Answers, Outcome, Solution};
    /// // 0 -> 1, 1 has no move: 0 wins in 1 by moving to 1.
    /// let s = Solution::try_from_arrays(vec![0, 1], vec![1, 0], vec![1, u32::MAX]).unwrap();
    /// assert_eq!((s.outcome(0), s.best_move(0)), (Outcome::Win, Some(1)));
    /// assert!(Solution::try_from_arrays(vec![3], vec![0], vec![u32::MAX]).is_err());
    /// ```
    pub fn try_from_arrays(
        outcomes: Vec<u8>,
        remoteness: Vec<u32>,
        best: Vec<u32>,
    ) -> Result<Solution, ArraysError> {
        let n = outcomes.len();
        if remoteness.len() != n || best.len() != n {
            return Err(ArraysError::Lengths {
                outcomes: n,
                remoteness: remoteness.len(),
                best: best.len(),
            });
        }
        for v in 0..n {
            let (code, r, b) = (outcomes[v], remoteness[v], best[v]);
            let vertex = v as u32;
            let problem = if Outcome::from_code(code).is_none() {
                Some(ArraysError::Code { vertex, code })
            } else if (code == DRAW) != (r == NONE) {
                Some(ArraysError::Remoteness { vertex })
            } else if b != NONE && b as usize >= n {
                Some(ArraysError::Move { vertex, to: b })
            } else {
                None
            };
            if let Some(p) = problem {
                return Err(p);
            }
        }
        Ok(Solution::from_parts(outcomes, remoteness, best))
    }

    /// The values alone (4 bytes per position less).
    pub fn into_values(self) -> Values {
        self.values
    }
}

impl Answers for Solution {
    fn values(&self) -> &Values {
        &self.values
    }

    #[inline]
    fn best_move(&self, v: u32) -> Option<u32> {
        match self.best.get(v as usize) {
            Some(&NONE) | None => None,
            Some(&w) => Some(w),
        }
    }
}

/// A move and what it is worth for the player who makes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The position the move leads to.
    pub to: u32,
    /// Its value for the player who makes the move: the outcome of `to`
    /// flipped, and the plies to the end counting this move
    /// ([`Value::after_move`]).
    pub value: Value,
}

impl MoveValue {
    /// How many plies longer than best play from the position the move is
    /// played in (of value `from`) the game lasts after this move: 0 for a
    /// best move. `None` when the move changes the outcome or the outcome
    /// is a draw ([`Value::delta`]).
    pub fn delta(&self, from: Value) -> Option<i64> {
        self.value.delta(from)
    }
}

/// A solved game that holds its game and rules, so that it answers
/// everything: values, best moves (stored, or computed from the moves with
/// the rule of [`kernel::rank`]), every move with its value, lines.
///
/// Made by [`solve_game`](crate::solve_game) (best moves on demand) or
/// [`Solved::new`] from any solver's result.
///
/// ```
/// use retrograde::{solve, Answers, Csr, Outcome, Rules, Solved};
/// let g = Csr::from_edges(3, &[(0, 1), (0, 2), (1, 2)]).with_successors();
/// let rules = Rules::normal();
/// let s = Solved::new(&g, rules.clone(), solve(&g, &rules).unwrap()).unwrap();
/// let moves = s.moves(0);
/// // 0 -> 2 wins at once, 0 -> 1 loses in 2.
/// assert_eq!((moves[0].to, moves[0].value.outcome), (2, Outcome::Win));
/// assert_eq!((moves[1].to, moves[1].value.outcome), (1, Outcome::Lose));
/// assert_eq!(s.best_move(0), Some(2));
/// ```
#[derive(Clone, Debug)]
pub struct Solved<G> {
    graph: G,
    rules: Rules,
    values: Values,
    best: Option<Vec<u32>>,
}

/// What a solver returns that [`Solved::new`] accepts: values, or values
/// with best moves.
pub trait IntoParts {
    /// The values and the best moves, if stored.
    fn into_parts(self) -> (Values, Option<Vec<u32>>);
}

impl IntoParts for Values {
    fn into_parts(self) -> (Values, Option<Vec<u32>>) {
        (self, None)
    }
}

impl IntoParts for Solution {
    fn into_parts(self) -> (Values, Option<Vec<u32>>) {
        (self.values, Some(self.best))
    }
}

impl<G: Successors> Solved<G> {
    /// `solution` (values, or a [`Solution`]) as the solution of `graph`
    /// under `rules`.
    ///
    /// # Errors
    /// [`SolveError::SizeMismatch`] if `solution` does not have one entry per
    /// position of `graph`; [`SolveError::LabelOutOfRange`] if a label names
    /// no vertex of it.
    pub fn new(graph: G, rules: Rules, solution: impl IntoParts) -> Result<Solved<G>, SolveError> {
        let (values, best) = solution.into_parts();
        if values.len() != graph.vertex_count() {
            return Err(SolveError::SizeMismatch {
                solution: values.len() as u64,
                graph: graph.vertex_count() as u64,
            });
        }
        rules.check(graph.vertex_count())?;
        Ok(Solved {
            graph,
            rules,
            values,
            best,
        })
    }

    /// The game.
    pub fn graph(&self) -> &G {
        &self.graph
    }

    /// The rules it was solved under.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Whether `v` is terminal (or no position): it has no move to play.
    fn is_terminal(&self, v: u32) -> bool {
        let start = kernel::start(
            self.values.is_position(v),
            self.rules.labels.get(v),
            self.graph.terminal(v),
            || self.graph.out_degree(v),
            self.rules.no_move,
        );
        !start.is_open()
    }

    /// Every move of `v` with its value for the player who makes it, best
    /// first (a win soonest, a tie soonest, a draw, a loss latest; equal
    /// moves by id, as the engines' best moves: [`kernel::rank`], the same
    /// as the game's order of moves where successors come in increasing id,
    /// as a [`Graph`](crate::Graph)'s do), parallel moves once each time
    /// they occur. Empty for a terminal position or an index that is not a
    /// position.
    ///
    /// # Complexity
    /// Time **O(d log d)** for the `d` moves of `v`.
    pub fn moves(&self, v: u32) -> Vec<MoveValue> {
        if self.is_terminal(v) {
            return Vec::new();
        }
        let mut moves = Vec::new();
        self.graph.for_each_successor(v, |w| {
            if let Some(child) = self.values.value(w) {
                let rem = child.remoteness.unwrap_or(NONE);
                let same = self.graph.same_player(v, w);
                let rank = kernel::rank(kernel::seen(child.outcome as u8, same), rem, w);
                let value = child.after(same);
                moves.push((std::cmp::Reverse(rank), MoveValue { to: w, value }));
            }
        });
        moves.sort_by_key(|&(rank, _)| rank);
        moves.into_iter().map(|(_, m)| m).collect()
    }

    /// This solution with every best move stored, as a [`Solution`] (which no
    /// longer needs the game). Time **O(V + E)**.
    pub fn into_solution(self) -> Solution {
        let best = match self.best {
            Some(b) => b,
            None => (0..self.values.len() as u32)
                .map(|v| self.best_move(v).unwrap_or(NONE))
                .collect(),
        };
        Solution {
            values: self.values,
            best,
        }
    }

    /// The values alone.
    pub fn into_values(self) -> Values {
        self.values
    }
}

impl<G: Successors> Answers for Solved<G> {
    fn values(&self) -> &Values {
        &self.values
    }

    fn best_moves_stored(&self) -> bool {
        self.best.is_some()
    }

    /// Stored, or computed from the moves of `v`: time **O(out-degree)**.
    fn best_move(&self, v: u32) -> Option<u32> {
        if let Some(best) = &self.best {
            return match best.get(v as usize) {
                Some(&NONE) | None => None,
                Some(&w) => Some(w),
            };
        }
        if self.is_terminal(v) {
            return None;
        }
        let state = &self.values.state;
        kernel::best_of(|report| {
            self.graph.for_each_successor(v, |w| {
                let code = kernel::seen(state[w as usize], self.graph.same_player(v, w));
                report(w, code, self.values.remoteness(w).unwrap_or(NONE))
            })
        })
    }
}
