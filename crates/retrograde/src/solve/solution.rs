//! The results of a solve: the values of every position ([`Values`]), with
//! best moves stored ([`Solution`]) or computed from the game it holds
//! ([`Solved`]), and what every kind answers ([`Answers`]).

use std::collections::{BTreeMap, HashMap};
use std::fmt;

use crate::error::{ArraysError, SolveError};
use crate::graph::NONE;
use crate::kernel::{self, ABSENT, DRAW};
use crate::{Outcome, Rules, Successors, Value};

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

/// What every kind of solution answers about the positions `0..len()`.
///
/// Implemented by [`Solution`] (best moves stored), [`Solved`] (best moves
/// computed from the game it holds) and the solutions of state games; the
/// solution writer, [`verify`](crate::verify()) and the line of best play
/// take any of them.
pub trait Answers {
    /// The value of every position.
    fn values(&self) -> &Values;

    /// The best move from `v` (the position it leads to); `None` for a
    /// terminal position or an index that is not a position. For a `Win`, the
    /// `Lose` successor of least remoteness; for a `Lose`, the successor of
    /// greatest remoteness; for a `Tie`, the `Tie` successor of least
    /// remoteness; for a non-terminal `Draw`, a `Draw` successor. Equal
    /// moves: the engines' results ([`Solution`], [`Solved`]) take the
    /// smallest id ([`kernel::rank`]), so every engine answers alike; a
    /// [`StateSolution`](crate::StateSolution) takes the first in the game's
    /// order of moves, as it does by position (see [`kernel`] on equal
    /// moves).
    fn best_move(&self, v: u32) -> Option<u32>;

    /// The number of indices.
    fn len(&self) -> usize {
        self.values().len()
    }

    /// Whether there are no indices.
    fn is_empty(&self) -> bool {
        self.values().is_empty()
    }

    /// See [`Values::outcome`].
    fn outcome(&self, v: u32) -> Outcome {
        self.values().outcome(v)
    }

    /// See [`Values::remoteness`].
    fn remoteness(&self, v: u32) -> Option<u32> {
        self.values().remoteness(v)
    }

    /// See [`Values::value`].
    fn value(&self, v: u32) -> Option<Value> {
        self.values().value(v)
    }

    /// See [`Values::summary`].
    fn summary(&self) -> Summary {
        self.values().summary()
    }

    /// The line of best play from `v`, following best moves until a terminal
    /// position. A draw never ends: its line stops when a position repeats
    /// (best moves are fixed, so play then cycles forever, see
    /// [`Line::repeats_from`]) or after `max_plies` moves, and is marked
    /// [`Line::endless`]. Lines that end (wins, losses and ties) are never cut:
    /// their length is the remoteness. Empty if `v` is not a position.
    fn line(&self, v: u32, max_plies: usize) -> Line {
        Line::follow(v, max_plies, |w| self.value(w), |w| self.best_move(w))
    }
}

/// Values looked up one position at a time: all that a verdict or a picture
/// of a few positions needs. Every [`Answers`] is one; so are values fetched
/// from elsewhere (the workers of a cluster, which hold the solution between
/// them).
pub trait Lookup {
    /// The value of `v`; `None` if it is not a position.
    fn lookup(&self, v: u32) -> Option<Value>;

    /// The outcome of `v` ([`Outcome::Draw`] if it is not a position, as
    /// [`Values::outcome`] says).
    fn outcome_of(&self, v: u32) -> Outcome {
        self.lookup(v).map_or(Outcome::Draw, |x| x.outcome)
    }

    /// The remoteness of `v`; `None` for a draw or if it is not a position.
    fn remoteness_of(&self, v: u32) -> Option<u32> {
        self.lookup(v).and_then(|x| x.remoteness)
    }
}

impl<A: Answers + ?Sized> Lookup for A {
    #[inline]
    fn lookup(&self, v: u32) -> Option<Value> {
        self.value(v)
    }
}

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
                let rank = kernel::rank(child.outcome as u8, rem, w);
                let value = child.after_move();
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
                let code = state[w as usize];
                report(w, code, self.values.remoteness(w).unwrap_or(NONE))
            })
        })
    }
}

/// The remoteness of every position: `u16`s while they fit (the lean engine,
/// and the timely engine's shares of a game), else `u32`s; the largest value
/// of each type means "none" (a draw, or not decided yet).
#[derive(Clone, Debug)]
pub enum Remoteness {
    /// Values below `u16::MAX`.
    Narrow(Vec<u16>),
    /// Values below `u32::MAX`.
    Wide(Vec<u32>),
}

impl Remoteness {
    /// The remoteness of `v`; `None` if it has none.
    #[inline]
    pub fn get(&self, v: usize) -> Option<u32> {
        match self {
            Remoteness::Narrow(r) => (r[v] != u16::MAX).then(|| u32::from(r[v])),
            Remoteness::Wide(r) => (r[v] != NONE).then_some(r[v]),
        }
    }

    /// Sets the remoteness of `v` to `r`, which must fit (see
    /// [`Remoteness::fit`]).
    #[inline]
    pub fn set(&mut self, v: usize, r: u32) {
        match self {
            Remoteness::Narrow(a) => a[v] = r as u16,
            Remoteness::Wide(a) => a[v] = r,
        }
    }

    /// Makes room for remoteness `r`: `u16`s hold up to 65534; past that,
    /// every value is widened to `u32` (in time and memory **O(n)**, once).
    pub fn fit(&mut self, r: u32) {
        if let Remoteness::Narrow(a) = self {
            if r >= u32::from(u16::MAX) {
                let wide = a
                    .iter()
                    .map(|&x| if x == u16::MAX { NONE } else { u32::from(x) })
                    .collect();
                *self = Remoteness::Wide(wide);
            }
        }
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        match self {
            Remoteness::Narrow(r) => r.len(),
            Remoteness::Wide(r) => r.len(),
        }
    }

    /// Whether there are no positions.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
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
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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

impl Line {
    /// The line of best play from `v` (see [`Answers::line`]), asking
    /// `value` for values and `best_move` for best moves: for answers held
    /// anywhere (in memory, in a database, on other machines).
    pub fn follow(
        v: u32,
        max_plies: usize,
        mut value: impl FnMut(u32) -> Option<Value>,
        mut best_move: impl FnMut(u32) -> Option<u32>,
    ) -> Line {
        let Some(first) = value(v) else {
            return Line::default();
        };
        let endless = first.outcome == Outcome::Draw && best_move(v).is_some();
        let mut positions = vec![v];
        let mut seen = HashMap::new();
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
}

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

/// Positions counted by outcome and remoteness (see [`Values::histogram`]).
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
        match (Histogram::column(value.outcome), value.remoteness) {
            (Some(c), Some(r)) => self.by_remoteness.entry(r).or_default()[c] += 1,
            _ => self.draws += 1,
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
    /// [`Values::summary`] gives them for the same positions).
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
