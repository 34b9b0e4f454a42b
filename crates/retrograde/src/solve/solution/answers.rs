//! What every kind of solution answers (Answers), and values looked up one
//! position at a time (Lookup).

use super::{Line, Summary, Values};
use crate::{Outcome, Value};

/// What every kind of solution answers about the positions `0..len()`.
///
/// Implemented by [`Solution`](crate::Solution) (best moves stored), [`Solved`](crate::Solved) (best moves
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
    /// moves: the engines' results ([`Solution`](crate::Solution), [`Solved`](crate::Solved)) take the
    /// smallest id ([`kernel::rank`](crate::kernel::rank)), so every engine answers alike; a
    /// [`StateSolution`](crate::StateSolution) takes the first in the game's
    /// order of moves, as it does by position (see [`kernel`](crate::kernel) on equal
    /// moves).
    fn best_move(&self, v: u32) -> Option<u32>;

    /// Whether best moves are stored, rather than derived from the values
    /// by the engines' rule when asked (a [`Solved`](crate::Solved) that
    /// keeps none): [`verify`](crate::verify()) checks a stored best move;
    /// a derived one follows from the values it checks.
    fn best_moves_stored(&self) -> bool {
        true
    }

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
