//! The generalised Sprague–Grundy function: loopy nim values, so that a
//! game of several tokens on graphs with cycles is decided from one token's
//! values, without building the product of the graphs.
//!
//! ```
//! use retrograde::grundy::{self, Loopy};
//! use retrograde::{Csr, Outcome};
//! // 0 -> 1 -> 2 (2 has no move), and 3 <-> 4 with 4 -> 1.
//! let g = Csr::from_edges(5, &[(0, 1), (1, 2), (3, 4), (4, 3), (4, 1)]).with_successors();
//! let values = grundy::grundy(&g).unwrap();
//! assert_eq!(values.value(2), Some(Loopy::Finite(0)));
//! assert_eq!(values.value(1), Some(Loopy::Finite(1)));
//! assert_eq!(values.value(0), Some(Loopy::Finite(0)));
//! // 3 can only go round the cycle: a draw; 4 can also reach the heap of 1.
//! assert_eq!(values.value(3).unwrap().to_string(), "inf");
//! assert_eq!(values.value(4).unwrap().to_string(), "inf{1}");
//! assert_eq!(values.outcome(4), Some(Outcome::Draw));
//! // Two tokens, on 1 and on 4: 1 + inf{1} = inf{0}, a win: move 4 to 1.
//! let both = grundy::sum([&values.value(1).unwrap(), &values.value(4).unwrap()]);
//! assert_eq!((both.to_string(), both.outcome()), ("inf{0}".to_string(), Outcome::Win));
//! let tokens = [grundy::Token { graph: &g, values: &values, at: 1 },
//!               grundy::Token { graph: &g, values: &values, at: 4 }];
//! let m = grundy::winning_move(&tokens).unwrap();
//! assert_eq!((m.token, m.to), (1, 1));
//! ```
//!
//! # The theory
//!
//! Impartial play on a graph: both players have the same moves, and the
//! player who cannot move loses. Smith (1966) and Fraenkel with Yesha (1986)
//! give every position `u` a value `γ(u)`, a natural number or `∞(K)`:
//!
//! - `γ(u) = a` (finite) when no option of `u` has value `a`, `u` has options
//!   of every value below `a`, and every option of a greater or infinite
//!   value has an option of value `a` itself (reached "further down" in a
//!   well-founded order, the counter function: [`GrundyValues::order`]);
//! - otherwise `γ(u) = ∞(K)`, `K` the set of finite values among `u`'s
//!   options (written `inf{0,2}`, and `inf` for `∞(∅)`).
//!
//! A position of value 0 is a loss for the player to move, one of positive
//! value or of `∞(K)` with `0 ∈ K` a win, any other `∞(K)` a draw. The value
//! of a sum of tokens (a move moves one of them) is the xor of its finite
//! values; `∞(K ⊕ y)` when one token is `∞(K)` and the others' xor is `y`;
//! `∞(∅)`, a draw, when two or more are infinite ([`sum`]).
//!
//! # The algorithm
//!
//! Fraenkel and Yesha's labelling, stage by stage: at stage `i` the values
//! below `i` are known, and among the other positions, those of value `i`
//! are exactly the losses of the seed's retrograde pass on the moves that
//! do not lead to a value below `i` (a position already found infinite is
//! never a loss). Each stage is the seed's counter algorithm: a position's
//! counter starts at its number of such moves, an option of value `i` makes
//! its predecessors "escaped" (they have a move to `i`), an escaped option
//! takes one off the counter of each of its predecessors, and a counter at
//! zero gives value `i`. What is neither of value `i` nor escaped at the end
//! of stage `i` is infinite (it has no option of value `i`, so it can have
//! no finite value above).
//!
//! # Complexity
//!
//! Stage `i` costs the positions still open plus the moves into positions of
//! value `i` and into escaped ones: **O((V + E) · (m + 2))** time for a
//! largest finite value `m`, and `m + 1 ≤ √(2E) + 1` (a position of value `m`
//! has options of every smaller value, each of which has its own), and
//! `m < V`: at most `O(V · (V + E))`. Memory: five `u32` a position and, for
//! the infinite ones' sets, 4 bytes a move into a finite position at most
//! (8 bytes a position for their offsets). docs/GRUNDY.md has the theory,
//! a worked example and measurements.

pub mod reference;
mod sum;

pub use sum::{SumMove, Token, sum, winning_move};

use std::fmt;

use crate::{GameGraph, Outcome};

/// A position's value: a nim heap's size, or `∞(K)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Loopy {
    /// Plays as a nim heap of this size.
    Finite(u32),
    /// `∞(K)`: `K` the finite values among the options, increasing, each once.
    Infinite(Vec<u32>),
}

impl Loopy {
    /// The outcome for the player to move: 0 loses, a positive value wins,
    /// `∞(K)` wins if `0 ∈ K` and is a draw otherwise.
    pub fn outcome(&self) -> Outcome {
        match self {
            Loopy::Finite(0) => Outcome::Lose,
            Loopy::Finite(_) => Outcome::Win,
            Loopy::Infinite(k) if k.first() == Some(&0) => Outcome::Win,
            Loopy::Infinite(_) => Outcome::Draw,
        }
    }

    /// The finite value, if it is one.
    pub fn finite(&self) -> Option<u32> {
        match self {
            Loopy::Finite(a) => Some(*a),
            Loopy::Infinite(_) => None,
        }
    }
}

/// `3`, `inf{0,2}`, or `inf` for `∞(∅)`.
impl fmt::Display for Loopy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Loopy::Finite(a) => write!(f, "{a}"),
            Loopy::Infinite(k) if k.is_empty() => f.write_str("inf"),
            Loopy::Infinite(k) => {
                f.write_str("inf{")?;
                for (i, a) in k.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{a}")?;
                }
                f.write_str("}")
            }
        }
    }
}

/// Why a graph has no loopy nim values.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GrundyError {
    /// A position the game ends with another value than a loss for the
    /// player to move: impartial play knows only "who cannot move loses".
    #[error(
        "position {vertex} is terminal with the value {outcome:?} for the player to move: \
         loopy nim values are for impartial play, where a position ends only by having no \
         move (a loss)"
    )]
    Terminal {
        /// The position.
        vertex: u32,
        /// Its value.
        outcome: Outcome,
    },
}

/// Values as a database keeps them ([`GrundyValues::codes`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Codes {
    /// A finite value, `u32::MAX - 1` for an infinite one, `u32::MAX - 2`
    /// for no position, one a position.
    pub values: Vec<u32>,
    /// When each finite value was given (`u32::MAX` for the others).
    pub order: Vec<u32>,
}

/// Why kept values cannot be read back ([`GrundyValues::from_codes`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CodeError {
    /// The arrays do not match the graph.
    #[error("{values} values and {order} orders kept for a graph of {positions} positions")]
    Length {
        /// Values kept.
        values: u64,
        /// Orders kept.
        order: u64,
        /// The graph's positions.
        positions: u64,
    },
    /// A code that is no value.
    #[error("position {vertex}'s value is kept as {code}, which is no value")]
    Code {
        /// The position.
        vertex: u32,
        /// Its code.
        code: u32,
    },
}

/// Not yet given a value.
const OPEN: u32 = u32::MAX;
/// `∞(K)` (the set kept apart).
const INFINITE: u32 = u32::MAX - 1;
/// An index that is no position.
const ABSENT: u32 = u32::MAX - 2;

/// Every position's loopy nim value (see the [module](self)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GrundyValues {
    /// The finite value, [`INFINITE`] or [`ABSENT`], by position.
    value: Vec<u32>,
    /// When each finite value was given (0, 1, 2, ... over the whole run).
    order: Vec<u32>,
    /// `sets[set_offsets[v]..set_offsets[v + 1]]`: `K` of an infinite `v`.
    set_offsets: Vec<u64>,
    sets: Vec<u32>,
    stages: u32,
}

/// How many positions of each kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct GrundyCounts {
    /// Value 0: lost for the player to move.
    pub zero: u64,
    /// A positive value.
    pub positive: u64,
    /// `∞(K)` with `0 ∈ K`: won.
    pub infinite_win: u64,
    /// Any other `∞(K)`: drawn.
    pub infinite_draw: u64,
    /// The largest finite value; `None` if there is none.
    pub largest: Option<u32>,
}

impl GrundyValues {
    /// The number of indices (positions and unused numbers).
    pub fn len(&self) -> usize {
        self.value.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.value.is_empty()
    }

    /// The value of `v`; `None` if `v` is no position.
    pub fn value(&self, v: u32) -> Option<Loopy> {
        match *self.value.get(v as usize)? {
            ABSENT => None,
            INFINITE => Some(Loopy::Infinite(self.set(v).to_vec())),
            a => Some(Loopy::Finite(a)),
        }
    }

    /// The finite value of `v`, if it has one.
    pub fn finite(&self, v: u32) -> Option<u32> {
        self.value.get(v as usize).copied().filter(|&a| a < ABSENT)
    }

    /// `K` of an infinite `v` (empty for any other).
    pub fn set(&self, v: u32) -> &[u32] {
        match self.set_offsets.get(v as usize..v as usize + 2) {
            Some(&[from, to]) => &self.sets[from as usize..to as usize],
            _ => &[],
        }
    }

    /// The outcome of one token on `v` for the player to move.
    pub fn outcome(&self, v: u32) -> Option<Outcome> {
        match *self.value.get(v as usize)? {
            ABSENT => None,
            INFINITE if self.set(v).first() == Some(&0) => Some(Outcome::Win),
            INFINITE => Some(Outcome::Draw),
            0 => Some(Outcome::Lose),
            _ => Some(Outcome::Win),
        }
    }

    /// When `v`'s finite value was given, counted over the whole run: the
    /// counter function of the theory. An option of greater or infinite
    /// value has an option of `v`'s value given before `v`, so that moving
    /// back to it ends. `None` for an infinite value.
    pub fn order(&self, v: u32) -> Option<u32> {
        self.finite(v).map(|_| self.order[v as usize])
    }

    /// The stages the labelling took: one more than the largest finite
    /// value, or than the least value missing from an infinite position's
    /// set if that is larger (it was found infinite at that stage); 0 for
    /// no position.
    pub fn stages(&self) -> u32 {
        self.stages
    }

    /// The values as codes, as a database keeps them (a finite value,
    /// `u32::MAX - 1` for an infinite one, `u32::MAX - 2` for no position;
    /// [`GrundyValues::from_codes`] reads them back), and the order the
    /// finite values were given in (`u32::MAX` for the others).
    pub fn codes(&self) -> (&[u32], &[u32]) {
        (&self.value, &self.order)
    }

    /// Values kept as [`GrundyValues::codes`] gave them, for the graph `g`
    /// they were computed on: the infinite values' sets are gathered from
    /// its moves, as [`grundy`] gathers them.
    ///
    /// # Errors
    /// Arrays of another length than `g`'s positions, or a code that is
    /// no value.
    pub fn from_codes<G: GameGraph + ?Sized>(
        g: &G,
        value: Vec<u32>,
        order: Vec<u32>,
    ) -> Result<GrundyValues, CodeError> {
        let n = g.vertex_count();
        if value.len() != n || order.len() != n {
            return Err(CodeError::Length {
                values: value.len() as u64,
                order: order.len() as u64,
                positions: n as u64,
            });
        }
        if let Some(v) = value.iter().position(|&a| a == OPEN) {
            return Err(CodeError::Code {
                vertex: v as u32,
                code: value[v],
            });
        }
        let (set_offsets, sets) = infinite_sets(g, &value);
        // The stages a run takes: one past the last value given and past
        // the last stage a position was found infinite at, the least
        // value among none of its options (it has options of all below).
        let mut stages = value
            .iter()
            .filter(|&&a| a < ABSENT)
            .max()
            .map_or(0, |&m| m + 1);
        for u in 0..n {
            if value[u] == INFINITE {
                let set = &sets[set_offsets[u] as usize..set_offsets[u + 1] as usize];
                let mex = (0u32..)
                    .zip(set)
                    .find(|&(i, &a)| i != a)
                    .map_or(set.len() as u32, |(i, _)| i);
                stages = stages.max(mex + 1);
            }
        }
        Ok(GrundyValues {
            value,
            order,
            set_offsets,
            sets,
            stages,
        })
    }

    /// Positions by kind, and the largest finite value.
    pub fn counts(&self) -> GrundyCounts {
        let mut c = GrundyCounts::default();
        for (v, &a) in self.value.iter().enumerate() {
            match a {
                ABSENT => {}
                INFINITE if self.set(v as u32).first() == Some(&0) => c.infinite_win += 1,
                INFINITE => c.infinite_draw += 1,
                0 => c.zero += 1,
                _ => c.positive += 1,
            }
            if a < ABSENT {
                c.largest = Some(c.largest.map_or(a, |m| m.max(a)));
            }
        }
        c
    }
}

/// The loopy nim value of every position of `g`, played impartially (a
/// position without moves, or terminal as a loss, has value 0).
///
/// # Errors
/// A position terminal with another value than a loss.
///
/// # Complexity
/// `O((V + E) · (m + 2))` for a largest finite value `m` (see the
/// [module](self)).
pub fn grundy<G: GameGraph + ?Sized>(g: &G) -> Result<GrundyValues, GrundyError> {
    let n = g.vertex_count();
    let mut value = vec![OPEN; n];
    // Moves to positions without a finite value of an earlier stage.
    let mut alive = vec![0u32; n];
    let mut open = open_positions(g, &mut value, &mut alive)?;
    let mut counter = vec![0u32; n];
    // The last stage at which the position had an option of that stage's value.
    let mut escaped = vec![OPEN; n];
    let mut order = vec![OPEN; n];
    let mut given = 0u32;
    let mut stage = 0u32;
    let mut labelled: Vec<u32> = Vec::new();
    let mut escapes: Vec<u32> = Vec::new();
    while !open.is_empty() {
        labelled.clear();
        escapes.clear();
        for &u in &open {
            counter[u as usize] = alive[u as usize];
            if alive[u as usize] == 0 {
                value[u as usize] = stage;
                labelled.push(u);
            }
        }
        let (mut next_label, mut next_escape) = (0, 0);
        loop {
            if next_escape < escapes.len() {
                // `u` has an option of value `stage`: each of its open
                // predecessors not escaped itself has one move fewer that
                // could still make it a loss.
                let u = escapes[next_escape];
                next_escape += 1;
                g.for_each_predecessor(u, |x| {
                    let xi = x as usize;
                    if value[xi] == OPEN && escaped[xi] != stage {
                        counter[xi] -= 1;
                        if counter[xi] == 0 {
                            value[xi] = stage;
                            labelled.push(x);
                        }
                    }
                });
            } else if next_label < labelled.len() {
                // `v` has value `stage`: its predecessors without a finite
                // value escape.
                let v = labelled[next_label];
                next_label += 1;
                order[v as usize] = given;
                given += 1;
                g.for_each_predecessor(v, |u| {
                    let ui = u as usize;
                    if (value[ui] == OPEN || value[ui] == INFINITE) && escaped[ui] != stage {
                        escaped[ui] = stage;
                        escapes.push(u);
                    }
                });
            } else {
                break;
            }
        }
        // The positions of value `stage` leave the moves still alive.
        for &v in &labelled {
            g.for_each_predecessor(v, |u| {
                if value[u as usize] == OPEN {
                    alive[u as usize] -= 1;
                }
            });
        }
        // Open and not escaped: no option of value `stage`, so no finite
        // value at all.
        open.retain(|&u| {
            let ui = u as usize;
            if value[ui] != OPEN {
                return false;
            }
            if escaped[ui] != stage {
                value[ui] = INFINITE;
                return false;
            }
            true
        });
        stage += 1;
    }
    let (set_offsets, sets) = infinite_sets(g, &value);
    Ok(GrundyValues {
        value,
        order,
        set_offsets,
        sets,
        stages: stage,
    })
}

/// The positions, all open: the other vertices marked absent, each position's moves counted.
fn open_positions<G: GameGraph + ?Sized>(
    g: &G,
    value: &mut [u32],
    alive: &mut [u32],
) -> Result<Vec<u32>, GrundyError> {
    let mut open: Vec<u32> = Vec::new();
    for v in 0..value.len() as u32 {
        if !g.is_position(v) {
            value[v as usize] = ABSENT;
            continue;
        }
        let (terminal, degree) = g.terminal_and_degree(v);
        match terminal {
            None | Some(Outcome::Lose) => {}
            Some(outcome) => return Err(GrundyError::Terminal { vertex: v, outcome }),
        }
        alive[v as usize] = degree;
        open.push(v);
    }
    Ok(open)
}

/// `K` of every infinite position: the finite values among its options,
/// gathered backwards from the finite positions (two passes, a counting
/// sort), then each set sorted and made unique.
fn infinite_sets<G: GameGraph + ?Sized>(g: &G, value: &[u32]) -> (Vec<u64>, Vec<u32>) {
    let n = value.len();
    let mut offsets = vec![0u64; n + 1];
    let finite = || (0..n as u32).filter(|&v| value[v as usize] < ABSENT);
    for v in finite() {
        g.for_each_predecessor(v, |u| {
            if value[u as usize] == INFINITE {
                offsets[u as usize + 1] += 1;
            }
        });
    }
    for i in 0..n {
        offsets[i + 1] += offsets[i];
    }
    let mut cursor = offsets.clone();
    let mut sets = vec![0u32; offsets[n] as usize];
    for v in finite() {
        let a = value[v as usize];
        g.for_each_predecessor(v, |u| {
            if value[u as usize] == INFINITE {
                sets[cursor[u as usize] as usize] = a;
                cursor[u as usize] += 1;
            }
        });
    }
    // Sort and deduplicate each set, compacting them to the front.
    let mut write = 0usize;
    let mut from = 0usize;
    for u in 0..n {
        let to = offsets[u + 1] as usize;
        let set = &mut sets[from..to];
        set.sort_unstable();
        let mut kept = 0;
        for i in 0..set.len() {
            if i == 0 || set[i] != set[i - 1] {
                set[kept] = set[i];
                kept += 1;
            }
        }
        sets.copy_within(from..from + kept, write);
        offsets[u] = write as u64;
        write += kept;
        from = to;
    }
    offsets[n] = write as u64;
    sets.truncate(write);
    (offsets, sets)
}
