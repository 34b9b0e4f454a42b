//! The one rule that decides a position, written once for every engine.
//!
//! Engines differ in how they schedule work (a FIFO queue, levels on all
//! cores, rounds of messages between processes) and how they store it (flat
//! arrays, counters packed into the state byte, atomics); they never differ in
//! the rule. This module is the rule:
//!
//! - **State codes** ([`WIN`], [`LOSE`], [`DRAW`], [`TIE`], [`ABSENT`],
//!   [`UNDECIDED`]): the byte every engine keeps per position.
//! - **Terminal precedence** ([`start`]): not a position at all, then a
//!   label, then the game's own value, then the no-move rule; every other
//!   position starts undecided with one counter per move.
//! - **A decided successor** ([`effect`], [`Bookkeeping::successor_decided`]): a
//!   `Lose` successor makes an undecided position a `Win` at once; a `Win`
//!   successor counts its moves down, the last one makes it a `Lose`; a `Tie`
//!   successor makes a position a `Tie` once no side can force a win.
//! - **The order of moves** ([`preference`], [`best_first`], [`rank`]): which
//!   move is best for the player who makes it. A win soonest, then a tie
//!   soonest, then a draw, then a loss as late as possible. A move's value
//!   is its successor's, flipped, one ply longer
//!   ([`Value::after_move`](crate::Value::after_move)); the best move of a
//!   position is the first of its moves in this order, and the position's
//!   value is that move's. Equal moves: see below.
//!
//! The two phases: positions are decided in order of remoteness, first from
//! the terminal wins and losses until nothing more is decided (a position
//! decided then is a real win or loss), then from the terminal ties through
//! the positions still undecided (none of which either side can force to a
//! win). Whatever stays undecided is a `Draw` ([`undecided_to_draw`]).
//!
//! # Equal moves
//!
//! Among moves of equal value the best is **the first in the game's own
//! order of moves**: the order [`StateGame::for_each_move`](crate::StateGame::for_each_move)
//! and [`Playable::moves`](crate::play::Playable::moves) give
//! ([`best_first`] sorts a position's moves so, [`first_best_of`] picks the
//! first best). Every answer asked by position follows it:
//! [`StateSolution`](crate::StateSolution)'s moves, best move and line (and
//! its best moves by number), [`Probe::answer`](crate::play::Probe::answer)
//! and so every tool that reads a database or lists a position's moves.
//!
//! The engines cannot follow it cheaply: they see a position's moves
//! backwards, one successor at a time, not where each stands in the
//! position's list of moves. The best moves they store ([`Bookkeeping`],
//! [`level_rank`], [`best_of`], and through them a
//! [`Solution`](crate::Solution), [`Solved::best_move`](crate::Solved) and
//! [`Solved::moves`](crate::Solved::moves)) take **the smaller number**
//! among equal moves ([`rank`]), the same in every engine, so that engines
//! can be compared exactly. The two agree wherever a position's moves come
//! in increasing number: in an explicit graph ([`Graph::successors`](crate::Graph::successors)
//! lists them so, and a graph's database keeps them so), every engine,
//! every solution file and every answer from its database give one best
//! line. In a state game or a numbered game the numbers follow the
//! exploration or the game's numbering, not the order of moves, and a
//! `Solution`'s best move may be another move of the same value; the
//! answers by position never read it.
//!
//! The slow solver [`solve_reference`](crate::solve::reference::solve_reference)
//! and [`verify`](crate::verify()) do not use this module: they are written
//! from the definitions, so that they can check it.
//!
//! ```
//! use retrograde::kernel::{rank, LOSE, TIE, WIN};
//! // For the player to move, a move to a loss in 4 (a win in 5) beats a tie in 1,
//! // which beats a move to a win in 9 (a loss in 10).
//! assert!(rank(LOSE, 4, 7) > rank(TIE, 0, 3));
//! assert!(rank(TIE, 0, 3) > rank(WIN, 9, 1));
//! // Winning sooner is better; losing later is better; then the smaller id.
//! assert!(rank(LOSE, 2, 9) > rank(LOSE, 4, 1));
//! assert!(rank(WIN, 8, 9) > rank(WIN, 6, 1));
//! assert!(rank(WIN, 8, 1) > rank(WIN, 8, 9));
//! ```

use crate::graph::NONE;
use crate::{GameGraph, NoMoveRule, Outcome, Player, Value};

/// A win for the player to move.
pub const WIN: u8 = Outcome::Win as u8;
/// A loss for the player to move.
pub const LOSE: u8 = Outcome::Lose as u8;
/// Best play goes on forever.
pub const DRAW: u8 = Outcome::Draw as u8;
/// Best play ends the game level.
pub const TIE: u8 = Outcome::Tie as u8;
/// Not a position of the game (an index a dense numbering leaves unused).
pub const ABSENT: u8 = 3;
/// Not decided yet. Codes above it are free for engines that pack a move
/// counter into the state byte. A code `>= DRAW` is a draw or undecided.
pub const UNDECIDED: u8 = 5;

/// The final code of a position a solve leaves with state byte `code`: one
/// still undecided ([`UNDECIDED`], or above it with a packed counter: see
/// [`solve::layout`](crate::solve::layout)) is a `Draw`, every other code is
/// final already. Every engine ends with this.
///
/// ```
/// use retrograde::kernel::{undecided_to_draw, DRAW, UNDECIDED, WIN};
/// assert_eq!(undecided_to_draw(UNDECIDED), DRAW);
/// assert_eq!(undecided_to_draw(UNDECIDED + 7), DRAW);
/// assert_eq!(undecided_to_draw(WIN), WIN);
/// ```
#[inline]
pub fn undecided_to_draw(code: u8) -> u8 {
    if code >= UNDECIDED { DRAW } else { code }
}

/// The outcome of a final state code; `None` for [`ABSENT`] (and for codes
/// that are not final).
#[inline]
pub fn outcome(code: u8) -> Option<Outcome> {
    Outcome::from_code(code)
}

/// How a position enters a solve: its state code ([`ABSENT`], a terminal
/// outcome's code, or [`UNDECIDED`]) and, when undecided, its number of
/// moves (at least one) to count down (0 otherwise).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Start {
    /// The state code the position starts with.
    pub code: u8,
    /// The moves to count down, for an undecided position; else 0.
    pub moves: u32,
}

impl Start {
    /// Not a position: never decided, never counted.
    pub const ABSENT: Start = Start {
        code: ABSENT,
        moves: 0,
    };

    /// Terminal, with this value and remoteness 0 (a `Draw` has none).
    pub fn terminal(o: Outcome) -> Start {
        Start {
            code: o as u8,
            moves: 0,
        }
    }

    /// Undecided, with `moves` moves.
    pub fn open(moves: u32) -> Start {
        Start {
            code: UNDECIDED,
            moves,
        }
    }

    /// Whether the position is undecided (it has moves to play).
    #[inline]
    pub fn is_open(self) -> bool {
        self.code == UNDECIDED
    }
}

/// Terminal precedence, the same in every engine: a position that does not
/// exist is [`Start::ABSENT`]; else a terminal label decides; else the game's
/// own terminal value; else a position without moves gets the no-move rule's
/// value; else it is open with `moves()` moves. `moves` is called only when
/// needed (generating moves may cost).
///
/// ```
/// use retrograde::kernel::{start, Start};
/// use retrograde::{NoMoveRule, Outcome};
/// let rule = NoMoveRule::Lose;
/// assert_eq!(start(true, Some(Outcome::Tie), Some(Outcome::Win), || 3, rule), Start::terminal(Outcome::Tie));
/// assert_eq!(start(true, None, Some(Outcome::Win), || 3, rule), Start::terminal(Outcome::Win));
/// assert_eq!(start(true, None, None, || 0, rule), Start::terminal(Outcome::Lose));
/// assert_eq!(start(true, None, None, || 2, rule), Start::open(2));
/// assert_eq!(start(false, Some(Outcome::Win), None, || 2, rule), Start::ABSENT);
/// ```
#[inline]
pub fn start(
    exists: bool,
    label: Option<Outcome>,
    game: Option<Outcome>,
    moves: impl FnOnce() -> u32,
    no_move: NoMoveRule,
) -> Start {
    if !exists {
        return Start::ABSENT;
    }
    if let Some(o) = label.or(game) {
        return Start::terminal(o);
    }
    match moves() {
        0 => Start::terminal(no_move.outcome()),
        d => Start::open(d),
    }
}

/// [`start`] for vertex `v` of a graph: whether it is a position, its label,
/// its own terminal value and its out-degree come from `g`.
#[inline]
pub fn start_of<G: GameGraph + ?Sized>(
    g: &G,
    v: u32,
    label: Option<Outcome>,
    no_move: NoMoveRule,
) -> Start {
    if !g.is_position(v) {
        return Start::ABSENT;
    }
    if let Some(o) = label {
        return Start::terminal(o);
    }
    let (terminal, degree) = g.terminal_and_degree(v);
    start(true, None, terminal, || degree, no_move)
}

/// Which phase a terminal position starts: wins and losses spread in the
/// first, ties in the second, draws never.
#[inline]
pub fn phase(code: u8) -> Option<Phase> {
    // WIN and LOSE are 0 and 1, TIE 2: one comparison for most positions.
    if code > TIE {
        None
    } else if code == TIE {
        Some(Phase::Tie)
    } else {
        Some(Phase::WinLose)
    }
}

/// The two phases of a solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Wins and losses spread back from the terminal wins and losses.
    WinLose = 0,
    /// Ties spread back from the terminal ties through undecided positions.
    Tie = 1,
}

impl Phase {
    /// Both phases, in the order they run.
    pub const BOTH: [Phase; 2] = [Phase::WinLose, Phase::Tie];
}

/// What a successor decided as `successor` (a state code) does to an
/// undecided predecessor.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Effect {
    /// The predecessor is decided at once, with this code (`WIN` or `TIE`),
    /// one ply longer than the successor.
    Decide(u8),
    /// One more of the predecessor's moves reaches a win for the opponent;
    /// when none is left, it is a `Lose`, one ply longer than this successor.
    CountDown,
    /// Nothing (the successor is not a decided win, loss or tie).
    #[default]
    Nothing,
}

/// A successor's state code as the player who moves into it sees it:
/// unchanged when the turn passes (a `Lose` there is good for the mover),
/// `Win` and `Lose` swapped when the move keeps the turn (`same_player`:
/// the successor's value is the mover's own). Engines pass every decided
/// successor through this before [`effect`], [`rank`] and
/// [`Bookkeeping::successor_decided`]; for a strictly alternating game
/// `same_player` is always false and this is the identity.
///
/// ```
/// use retrograde::kernel::{seen, LOSE, TIE, WIN};
/// assert_eq!(seen(WIN, false), WIN);
/// assert_eq!(seen(WIN, true), LOSE);
/// assert_eq!(seen(LOSE, true), WIN);
/// assert_eq!(seen(TIE, true), TIE);
/// ```
#[inline(always)]
pub fn seen(code: u8, same_player: bool) -> u8 {
    // WIN is 0 and LOSE 1: one xor swaps them.
    if same_player && code <= LOSE {
        code ^ 1
    } else {
        code
    }
}

/// Whether a move keeps the turn: both positions name their player to move
/// and it is the same one. A position that names no one
/// ([`GameGraph::owner`] is `None`) passes the turn.
#[inline(always)]
pub fn same_player(from: Option<Player>, to: Option<Player>) -> bool {
    Player::keeps_turn(from, to)
}

/// The effect of a decided successor on an undecided predecessor.
#[inline]
pub fn effect(successor: u8) -> Effect {
    match successor {
        LOSE => Effect::Decide(WIN),
        WIN => Effect::CountDown,
        TIE => Effect::Decide(TIE),
        _ => Effect::Nothing,
    }
}

/// What a decided successor does to each of its predecessors: the
/// [`effect`] of its code, worked out once for all of them, and for a
/// predecessor whose mover moves again the effect of the code [`seen`] by
/// them (worked out only then: a strictly alternating game never pays for
/// it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effects {
    pass: Effect,
    code: u8,
    owner: Option<Player>,
}

impl Effects {
    /// The effects of a successor of state code `code` whose mover is `owner`.
    #[inline(always)]
    pub fn of(code: u8, owner: Option<Player>) -> Effects {
        Effects {
            pass: effect(code),
            code,
            owner,
        }
    }

    /// The effect on a predecessor whose mover is `owner`. For a strictly
    /// alternating game (no owners) this is always the effect of the code.
    #[inline(always)]
    pub fn on(self, owner: Option<Player>) -> Effect {
        if same_player(owner, self.owner) {
            effect(seen(self.code, true))
        } else {
            self.pass
        }
    }
}

/// How good the move to a successor of state code `successor` and this
/// `remoteness` is for the player who makes it, as a number: greater is
/// better. The order of moves, written once: a move to a `Lose` (a win for
/// the mover), sooner first; then to a `Tie`, sooner first; then to a
/// `Draw`; then to a `Win` (a loss for the mover), later first.
#[inline]
fn worth(successor: u8, remoteness: u32) -> u64 {
    let (class, rem_key) = match successor {
        LOSE => (3u64, NONE - remoteness),
        TIE => (2, NONE - remoteness),
        DRAW => (1, 0),
        _ => (0, remoteness),
    };
    (class << 32) | u64::from(rem_key)
}

/// How good a move is for the player who makes it, from its value for
/// them (see [`Value::after_move`]); greater is better: a win soonest, then
/// a tie soonest, then a draw, then a loss latest. The order of [`rank`]
/// without its id: equal preferences are moves of equal value.
///
/// ```
/// use retrograde::kernel::preference;
/// use retrograde::{Outcome, Value};
/// let p = |o, r| preference(Value::new(o, r));
/// assert!(p(Outcome::Win, Some(3)) > p(Outcome::Win, Some(5)));
/// assert!(p(Outcome::Win, Some(99)) > p(Outcome::Tie, Some(1)));
/// assert!(p(Outcome::Tie, Some(99)) > p(Outcome::Draw, None));
/// assert!(p(Outcome::Draw, None) > p(Outcome::Lose, Some(99)));
/// assert!(p(Outcome::Lose, Some(8)) > p(Outcome::Lose, Some(2)));
/// ```
#[inline]
pub fn preference(mv: Value) -> Preference {
    // The move's value is its successor's flipped: rank the successor.
    let successor = mv.outcome.flip() as u8;
    Preference(worth(successor, mv.remoteness.unwrap_or(NONE)))
}

/// How good a move is for its mover, see [`preference`]. Only the order
/// means anything.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Preference(u64);

/// Sorts a position's moves best first for the player who makes them (a
/// win soonest, a tie soonest, a draw, a loss latest: [`preference`]),
/// `value` giving each move's value for the mover. Equal moves keep the
/// order they are given in: given in the game's order of moves, this is
/// the rule for equal moves (see the [module](self)'s documentation), and
/// the first move is the best.
///
/// # Complexity
/// Time **O(d log d)** for `d` moves (a stable sort).
///
/// ```
/// use retrograde::kernel::best_first;
/// use retrograde::{Outcome, Value};
/// let v = |o, r| Value::new(o, r);
/// let mut moves = vec![
///     ("a", v(Outcome::Lose, Some(4))),
///     ("b", v(Outcome::Win, Some(7))),
///     ("c", v(Outcome::Draw, None)),
///     ("d", v(Outcome::Win, Some(3))),
///     ("e", v(Outcome::Win, Some(3))),
/// ];
/// best_first(&mut moves, |m| m.1);
/// let names: Vec<&str> = moves.iter().map(|m| m.0).collect();
/// assert_eq!(names, ["d", "e", "b", "c", "a"]);
/// ```
pub fn best_first<T>(moves: &mut [T], value: impl Fn(&T) -> Value) {
    moves.sort_by_key(|m| std::cmp::Reverse(preference(value(m))));
}

/// The best move among the successors reported by `for_each_successor` in
/// the game's order of moves (each as `(id, the move's value for the
/// mover)`: [`Value::after`]): the first of greatest [`preference`], the
/// move [`best_first`] puts first. `None` without successors.
#[inline]
pub fn first_best_of(for_each_successor: impl FnOnce(&mut dyn FnMut(u32, Value))) -> Option<u32> {
    let mut best: Option<(Preference, u32)> = None;
    for_each_successor(&mut |w, value| {
        let p = preference(value);
        if best.is_none_or(|(b, _)| p > b) {
            best = Some((p, w));
        }
    });
    best.map(|(_, w)| w)
}

/// How good the move to a successor is for the player who makes it, in
/// the engines: greater is better. The order of [`preference`] (`successor`
/// is the successor's state code, `remoteness` its remoteness, ignored for a
/// draw); equal values go to the smaller id, so that every engine picks the
/// same move (see the [module](self)'s documentation on equal moves).
///
/// The best move of a position is its successor of greatest rank.
#[inline]
pub fn rank(successor: u8, remoteness: u32, id: u32) -> Rank {
    Rank(u128::from(worth(successor, remoteness)) << 32 | u128::from(NONE - id))
}

/// The rank of a move, see [`rank`]. Only the order means anything.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rank(u128);

/// The rank of a candidate move within one level of a level-by-level engine,
/// in 64 bits: during the win-and-loss phase a `Lose` successor
/// (`decides = true`) outranks every `Win` one; a `Win` successor of a later
/// level outranks one of an earlier level; then the smaller id. During the
/// tie phase every candidate is a `Tie` successor (`decides = true`). Within
/// one engine run this orders candidates exactly as [`rank`] does, for
/// levels below 2³¹ (the first level with a deciding successor decides, so
/// its remoteness need not be stored).
#[inline]
pub fn level_rank(decides: bool, level: u32, id: u32) -> u64 {
    if decides {
        LEVEL_DECIDES | u64::from(NONE - id)
    } else {
        (u64::from(level) << 32) | u64::from(NONE - id)
    }
}

/// Set in a [`level_rank`] once a deciding successor has been seen.
pub const LEVEL_DECIDES: u64 = 1 << 63;

/// The id in a [`level_rank`].
#[inline]
pub fn level_rank_id(key: u64) -> u32 {
    NONE - key as u32
}

/// The largest level [`level_rank`] can hold.
pub const MAX_LEVEL: u32 = (1 << 31) - 1;

/// One position's bookkeeping in an engine that stores best moves, borrowed
/// from wherever the engine keeps it.
///
/// While the position is undecided, `remoteness` and `best` hold its
/// best-ranked `Win` successor so far (the loser holds out: greatest
/// remoteness); once decided, its own remoteness and best move.
#[derive(Debug)]
pub struct Bookkeeping<'a> {
    /// The state code.
    pub state: &'a mut u8,
    /// Moves not yet known to reach a `Win`, while undecided.
    pub counter: &'a mut u32,
    /// See the type's documentation.
    pub remoteness: &'a mut u32,
    /// See the type's documentation; [`NONE`] for none yet.
    pub best: &'a mut u32,
}

impl Bookkeeping<'_> {
    /// The rule: successor `u` has been decided as `u_state` with remoteness
    /// `ru`. Returns true if this decides the position (its state, remoteness
    /// and best move are then set).
    ///
    /// Successors must be reported in order of remoteness within each phase
    /// (a FIFO queue or levels do this): then the first decision is final and
    /// later reports only pick, among moves of the same rank class and
    /// remoteness, the one [`rank`] prefers.
    #[inline(always)]
    pub fn successor_decided(self, u: u32, u_state: u8, ru: u32) -> bool {
        let state = *self.state;
        match effect(u_state) {
            Effect::Decide(to) if state == UNDECIDED => {
                *self.state = to;
                *self.remoteness = ru + 1;
                *self.best = u;
                true
            }
            Effect::Decide(to) if state == to && *self.remoteness == ru + 1 => {
                // Decided by an earlier report of the same remoteness: keep
                // the better of the two.
                if rank(u_state, ru, u) > rank(u_state, ru, *self.best) {
                    *self.best = u;
                }
                false
            }
            Effect::CountDown if state == UNDECIDED => {
                if *self.best == NONE || rank(WIN, ru, u) > rank(WIN, *self.remoteness, *self.best)
                {
                    *self.remoteness = ru;
                    *self.best = u;
                }
                *self.counter -= 1;
                if *self.counter == 0 {
                    *self.state = LOSE;
                    *self.remoteness = ru + 1;
                    true
                } else {
                    false
                }
            }
            _ => false,
        }
    }
}

/// The best move among the successors reported by `for_each_successor`
/// (each as `(id, state code, remoteness)`, remoteness [`NONE`] for a draw):
/// the one of greatest [`rank`] (equal moves: the smaller id, as the
/// engines pick). `None` without successors.
#[inline]
pub fn best_of(for_each_successor: impl FnOnce(&mut dyn FnMut(u32, u8, u32))) -> Option<u32> {
    let mut best: Option<(Rank, u32)> = None;
    for_each_successor(&mut |w, code, rem| {
        let r = rank(code, rem, w);
        if best.is_none_or(|(b, _)| r > b) {
            best = Some((r, w));
        }
    });
    best.map(|(_, w)| w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_orders_moves_for_the_mover() {
        let order = [
            rank(LOSE, 0, 5),
            rank(LOSE, 0, 6),
            rank(LOSE, 2, 1),
            rank(TIE, 0, 9),
            rank(TIE, 3, 0),
            rank(DRAW, NONE, 0),
            rank(DRAW, NONE, 4),
            rank(WIN, 7, 8),
            rank(WIN, 1, 0),
            rank(WIN, 1, 3),
        ];
        for w in order.windows(2) {
            assert!(w[0] > w[1], "{w:?}");
        }
    }

    #[test]
    fn level_rank_agrees_with_rank_within_a_phase() {
        // Win candidates: later levels first, then smaller ids.
        let cands = [(3, 9), (3, 2), (5, 7), (0, 0), (5, 1)];
        for &(l1, a) in &cands {
            for &(l2, b) in &cands {
                let by_level = level_rank(false, l1, a).cmp(&level_rank(false, l2, b));
                let by_rank = rank(WIN, l1, a).cmp(&rank(WIN, l2, b));
                assert_eq!(by_level, by_rank, "{l1} {a} {l2} {b}");
            }
        }
        assert!(level_rank(true, 0, u32::MAX - 1) > level_rank(false, MAX_LEVEL, 0));
        assert!(level_rank(true, 0, 3) > level_rank(true, 0, 4));
        assert_eq!(level_rank_id(level_rank(true, 0, 17)), 17);
        assert_eq!(level_rank_id(level_rank(false, 40, 17)), 17);
    }

    #[test]
    fn preference_orders_moves_as_rank_does_without_the_id() {
        let values = [
            Value::new(Outcome::Lose, Some(0)),
            Value::new(Outcome::Lose, Some(2)),
            Value::new(Outcome::Win, Some(1)),
            Value::new(Outcome::Win, Some(6)),
            Value::new(Outcome::Tie, Some(0)),
            Value::new(Outcome::Tie, Some(5)),
            Value::new(Outcome::Draw, None),
        ];
        let code = |v: Value| v.outcome as u8;
        let rem = |v: Value| v.remoteness.unwrap_or(NONE);
        for &a in &values {
            for &b in &values {
                let by_preference = preference(a.after_move()).cmp(&preference(b.after_move()));
                let by_rank = rank(code(a), rem(a), 7).cmp(&rank(code(b), rem(b), 7));
                assert_eq!(by_preference, by_rank, "{a} {b}");
            }
        }
    }

    #[test]
    fn the_first_best_move_is_the_first_of_the_moves_sorted_best_first() {
        // Successors in the game's order: 9 and 4 are equal best moves.
        let successors = [
            (5, Value::new(Outcome::Win, Some(2))),
            (9, Value::new(Outcome::Lose, Some(4))),
            (4, Value::new(Outcome::Lose, Some(4))),
            (2, Value::new(Outcome::Tie, Some(1))),
        ];
        let first = first_best_of(|report| {
            successors
                .iter()
                .for_each(|&(w, after)| report(w, after.after_move()))
        });
        let mut sorted: Vec<(u32, Value)> = successors
            .iter()
            .map(|&(w, after)| (w, after.after_move()))
            .collect();
        best_first(&mut sorted, |m| m.1);
        assert_eq!(first, Some(9));
        assert_eq!(sorted[0].0, 9);
        assert_eq!(sorted.iter().map(|m| m.0).collect::<Vec<_>>(), [9, 4, 2, 5]);
        // The engines' rule takes the smaller id instead.
        let by_id = best_of(|report| {
            successors.iter().for_each(|&(w, after)| {
                report(w, after.outcome as u8, after.remoteness.unwrap_or(NONE))
            })
        });
        assert_eq!(by_id, Some(4));
        assert_eq!(first_best_of(|_| {}), None);
    }

    /// One position's entry, owned, for the tests.
    struct Cell {
        state: u8,
        counter: u32,
        rem: u32,
        best: u32,
    }

    impl Cell {
        fn open(moves: u32) -> Cell {
            Cell {
                state: UNDECIDED,
                counter: moves,
                rem: NONE,
                best: NONE,
            }
        }

        fn report(&mut self, u: u32, code: u8, ru: u32) -> bool {
            Bookkeeping {
                state: &mut self.state,
                counter: &mut self.counter,
                remoteness: &mut self.rem,
                best: &mut self.best,
            }
            .successor_decided(u, code, ru)
        }

        fn value(&self) -> (u8, u32, u32) {
            (self.state, self.rem, self.best)
        }
    }

    #[test]
    fn an_entry_counts_down_and_keeps_the_latest_loss() {
        let mut c = Cell::open(3);
        assert!(!c.report(8, WIN, 1));
        assert!(!c.report(4, WIN, 3));
        assert!(c.report(6, WIN, 3));
        assert_eq!(c.value(), (LOSE, 4, 4));
    }

    #[test]
    fn an_entry_wins_at_once_and_keeps_the_smallest_equal_move() {
        let mut c = Cell::open(5);
        assert!(!c.report(2, WIN, 0));
        assert!(c.report(9, LOSE, 2));
        assert!(!c.report(3, LOSE, 2));
        assert!(!c.report(1, LOSE, 4));
        assert!(!c.report(0, TIE, 0));
        assert_eq!(c.value(), (WIN, 3, 3));
    }

    #[test]
    fn an_undecided_entry_ties_from_a_tie() {
        let mut c = Cell::open(2);
        assert!(!c.report(5, WIN, 0));
        assert!(c.report(7, TIE, 0));
        assert!(!c.report(6, TIE, 0));
        assert_eq!(c.value(), (TIE, 1, 6));
    }

    #[test]
    fn a_terminal_entry_is_never_changed() {
        let mut c = Cell::open(0);
        c.state = WIN;
        c.rem = 0;
        assert!(!c.report(3, LOSE, 0));
        assert!(!c.report(3, TIE, 0));
        assert_eq!(c.value(), (WIN, 0, NONE));
    }
}
