//! A solved state game, asked by position.

use std::collections::HashMap;
use std::fmt;

use super::{Explored, StateGame};
use crate::error::{Error, Result};
use crate::kernel;
use crate::solve::{Histogram, IntoParts, Summary};
use crate::{Answers, GameGraph, Outcome, Solved, Successors, Value, Values};

/// The strong solution of a [`StateGame`], asked by position: the value of
/// every reachable position, its moves with their values for the player who
/// makes them, best first, and lines of best play, all in the game's own
/// positions. A position is canonicalised first; one that is not reachable
/// from the starts is an error ([`Error::NotAPosition`]), not a panic.
///
/// It also answers by number ([`Answers`], for the solution writer and
/// [`verify`](crate::verify())): numbers are those of [`Explored`].
///
/// Among moves of equal value the best is the first in the game's order of
/// moves ([`StateGame::for_each_move`]; see [`kernel`] on equal moves):
/// [`StateSolution::moves`] puts it first, [`StateSolution::best_move`]
/// and [`StateSolution::line`] play it, and a
/// [`Probe`](crate::play::Probe) of a database written from this solution,
/// through a [`Playable`](crate::play::Playable) that lists moves in the
/// same order, plays the same moves from the same position. By number,
/// [`Answers::best_move`] of `v` is the best move of the (canonical)
/// position numbered `v` by the same rule; so lines by number are the
/// lines by position from canonical positions where the game lists the
/// moves of equivalent positions in the same order. The engine's own best
/// moves ([`StateSolution::solved`]) take the smaller number instead and
/// may pick another move of the same value.
pub struct StateSolution<G: StateGame> {
    solved: Solved<Explored<G>>,
}

impl<G: StateGame> fmt::Debug for StateSolution<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StateSolution")
            .field("summary", &self.summary())
            .finish_non_exhaustive()
    }
}

/// A move of a state game and what it is worth for the player who makes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateMove<P> {
    /// The position the move leads to, as the game generated it.
    pub to: P,
    /// Its value for the player who makes the move: the outcome of `to`
    /// flipped (kept, where the mover moves again), and the plies to the
    /// end counting this move ([`Value::after`]).
    pub value: Value,
    /// How many plies longer than best play the game lasts after this move
    /// (0 for a best move, [`Value::delta`]); `None` when the move changes
    /// the outcome or the outcome is a draw.
    pub delta: Option<i64>,
}

impl<P> StateMove<P> {
    /// The move to `to` (whose value, for its player to move, is `after`)
    /// played from a position of value `here`: its value for the mover is
    /// [`Value::after`] (`same_player`: whether the mover moves again at
    /// `to`), its delta [`Value::delta`].
    pub fn new(to: P, after: Value, same_player: bool, here: Value) -> StateMove<P> {
        let value = after.after(same_player);
        StateMove {
            to,
            value,
            delta: value.delta(here),
        }
    }
}

/// A line of best play in a state game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateLine<P> {
    /// The positions, the one asked for first, as the moves generated them.
    pub positions: Vec<P>,
    /// The value of each, for its player to move.
    pub values: Vec<Value>,
    /// True for a draw: best play goes on forever and only a prefix is shown.
    pub endless: bool,
    /// For a draw that came back to an earlier position (up to symmetry):
    /// the ply of its first visit, from where play cycles forever.
    pub repeats_from: Option<usize>,
}

impl<G: StateGame> StateSolution<G> {
    pub(crate) fn new(explored: Explored<G>, solution: impl IntoParts) -> Result<StateSolution<G>> {
        let rules = explored.rules();
        Ok(StateSolution {
            solved: Solved::new(explored, rules, solution)?,
        })
    }

    /// The explored game: its positions and numbers.
    pub fn explored(&self) -> &Explored<G> {
        self.solved.graph()
    }

    /// The game.
    pub fn game(&self) -> &G {
        self.explored().game()
    }

    /// The solution by number.
    pub fn solved(&self) -> &Solved<Explored<G>> {
        &self.solved
    }

    /// The number of `p`, or the error that it is not a position.
    fn number(&self, p: &G::Position) -> Result<u32> {
        self.explored()
            .index(p)
            .ok_or_else(|| Error::NotAPosition(self.game().notation(p)))
    }

    /// The value of `p` for the player to move.
    ///
    /// # Errors
    /// [`Error::NotAPosition`] if `p` is not reachable from the starts.
    pub fn value(&self, p: &G::Position) -> Result<Value> {
        let v = self.number(p)?;
        self.solved
            .value(v)
            .ok_or_else(|| Error::NotAPosition(self.game().notation(p)))
    }

    /// The values of the start positions, in the order of [`StateGame::starts`].
    pub fn start_values(&self) -> Vec<Value> {
        let values = self.solved.values();
        self.explored()
            .starts()
            .iter()
            .filter_map(|&v| values.value(v))
            .collect()
    }

    /// Every move of `p` with its value for the player who makes it, best
    /// first (a win soonest, a tie soonest, a draw, a loss latest; equal
    /// moves in the game's order, [`kernel::best_first`]), each move as
    /// often as the game generates it. Empty for a terminal position.
    ///
    /// # Errors
    /// [`Error::NotAPosition`] if `p` is not reachable from the starts.
    pub fn moves(&self, p: &G::Position) -> Result<Vec<StateMove<G::Position>>> {
        let v = self.number(p)?;
        let explored = self.explored();
        if self.is_terminal(v) {
            return Ok(Vec::new());
        }
        let here = self.value(p)?;
        let mut moves = Vec::new();
        self.game().for_each_move(p, |q| {
            if let Some(w) = explored.index(&q)
                && let Some(after) = self.solved.value(w)
            {
                let same = explored.same_player(v, w);
                moves.push(StateMove::new(q, after, same, here));
            }
        });
        kernel::best_first(&mut moves, |m| m.value);
        Ok(moves)
    }

    /// Whether position `v` has no move to play.
    fn is_terminal(&self, v: u32) -> bool {
        let explored = self.explored();
        explored.terminal(v).is_some() || explored.graph().out_degree(v) == 0
    }

    /// The best move from `p` (the position it leads to, as generated): the
    /// first of [`StateSolution::moves`]; `None` for a terminal position.
    ///
    /// # Errors
    /// [`Error::NotAPosition`] if `p` is not reachable from the starts.
    pub fn best_move(&self, p: &G::Position) -> Result<Option<G::Position>> {
        Ok(self.moves(p)?.into_iter().next().map(|m| m.to))
    }

    /// The line of best play from `p`, following best moves until a terminal
    /// position. A draw never ends: its line stops when a position repeats
    /// (up to symmetry) or after `max_plies` moves, and is marked
    /// [`StateLine::endless`]. Lines that end are never cut.
    ///
    /// # Errors
    /// [`Error::NotAPosition`] if `p` is not reachable from the starts.
    pub fn line(&self, p: &G::Position, max_plies: usize) -> Result<StateLine<G::Position>> {
        let first = self.value(p)?;
        let mut line = StateLine {
            positions: vec![p.clone()],
            values: vec![first],
            endless: false,
            repeats_from: None,
        };
        let mut seen: HashMap<u32, usize> = HashMap::new();
        let mut cur = p.clone();
        while let Some(next) = self.best_move(&cur)? {
            if first.outcome == Outcome::Draw {
                line.endless = true;
                seen.insert(self.number(&cur)?, line.positions.len() - 1);
                if line.positions.len() > max_plies {
                    break;
                }
                if let Some(&at) = seen.get(&self.number(&next)?) {
                    line.values.push(self.value(&next)?);
                    line.positions.push(next);
                    line.repeats_from = Some(at);
                    break;
                }
            }
            line.values.push(self.value(&next)?);
            line.positions.push(next.clone());
            cur = next;
        }
        Ok(line)
    }

    /// `line` as text: each ply's number and value, then the position as the
    /// game shows it; then how it ends.
    pub fn show_line(&self, line: &StateLine<G::Position>) -> String {
        let mut out = String::new();
        for (ply, (p, v)) in line.positions.iter().zip(&line.values).enumerate() {
            out.push_str(&format!("ply {ply}: {v} for the player to move\n"));
            out.push_str(&self.game().show(p));
            if !out.ends_with('\n') {
                out.push('\n');
            }
        }
        match (line.endless, line.repeats_from) {
            (true, Some(k)) => out.push_str(&format!(
                "a draw: ply {} repeats ply {k}, and play cycles from there forever\n",
                line.positions.len() - 1
            )),
            (true, None) => out.push_str("a draw: best play goes on forever\n"),
            (false, _) => match line.values.last().map(|v| v.outcome) {
                Some(Outcome::Tie) => out.push_str("game over: the game ends level\n"),
                Some(o) => out.push_str(&format!("game over: {o} for the player to move\n")),
                None => {}
            },
        }
        out
    }

    /// Counts of each outcome and the longest remoteness.
    pub fn summary(&self) -> Summary {
        self.solved.summary()
    }

    /// Positions counted by outcome and remoteness.
    pub fn histogram(&self) -> Histogram {
        self.solved.values().histogram()
    }
}

impl<G: StateGame> Answers for StateSolution<G> {
    fn values(&self) -> &Values {
        self.solved.values()
    }

    /// The best move of `v` by the rule of [`StateSolution::moves`] (equal
    /// moves: the first the game generates), computed from the game's
    /// moves: time **O(d)** expected for `d` moves.
    fn best_move(&self, v: u32) -> Option<u32> {
        if !self.solved.values().is_position(v) || self.is_terminal(v) {
            return None;
        }
        let explored = self.explored();
        kernel::first_best_of(|report| {
            explored.for_each_successor(v, |w| {
                if let Some(after) = self.solved.value(w) {
                    report(w, after.after(explored.same_player(v, w)))
                }
            })
        })
    }
}
