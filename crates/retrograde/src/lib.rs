//! Strongly solve two-player games on arbitrary directed graphs, cycles included.
//!
//! Positions are vertices `0..V`, moves are edges, players alternate. For every
//! position, [`solve()`] finds whether the player to move wins, loses or can only
//! draw, how many plies best play lasts (its *remoteness*: the winner hurries,
//! the loser holds out) and a best move — by retrograde analysis in
//! **O(V + E)** time.
//!
//! ```
//! use retrograde::{solve, Answers, Csr, Outcome, Rules};
//!
//! // 0 -> 1 -> 2; 2 has no move. 3 <-> 4 and 3 -> 0.
//! let g = Csr::from_edges(5, &[(0, 1), (1, 2), (3, 4), (4, 3), (3, 0)]);
//! let s = solve(&g, &Rules::normal()).unwrap();
//!
//! assert_eq!(s.outcome(2), Outcome::Lose); // stuck: the player to move loses
//! assert_eq!(s.outcome(0), Outcome::Lose); // 0 must move to 1, a win for the opponent
//! assert_eq!(s.outcome(3), Outcome::Win); // 3 moves to 0 ...
//! assert_eq!(s.best_move(3), Some(0));
//! assert_eq!(s.remoteness(3), Some(3)); // ... and wins in 3 plies
//! assert_eq!(s.outcome(4), Outcome::Lose); // 4's only move gives 3 the win
//! assert_eq!(s.line(4, 10).positions, vec![4, 3, 0, 1, 2]);
//! ```
//!
//! The pieces:
//! - [`Outcome`], [`Rules`] ([`NoMoveRule`] and terminal [`Labels`]): the model.
//! - [`GameGraph`] and [`Successors`]: the small traits the solver reads a game
//!   through; [`Csr`] is the explicit graph, built by [`CsrBuilder`].
//! - [`solve()`] and its result [`Solution`]; [`solve::reference`] is the slow
//!   yardstick from the definitions.
//! - [`verify()`]: checks a solution against the game from local conditions,
//!   without trusting any solver ([`Report`], [`Violation`], [`Condition`]).
//! - [`game`]: games generated on the fly — the [`Game`] trait, the lean
//!   [`solve_game`], [`materialise`](game::materialise) and the
//!   [`check_game`](game::check_game) self-check; [`games`] holds the built-in
//!   ones (the cop and the thief).
//! - [`io`]: the text edge list, terminal labels and solution formats.
#![deny(missing_docs)]

// The tutorial's game is compiled into the library as its users write it.
extern crate self as retrograde;

mod alloc;
pub mod db;
mod error;
pub mod explore;
pub mod game;
pub mod games;
pub mod graph;
pub mod grundy;
pub mod io;
pub mod kernel;
mod outcome;
pub mod play;
pub mod registry;
mod shared;
pub mod solve;
pub mod tier;
pub mod verify;

pub use alloc::{allocation_may_fail, fallibly};
pub use error::{ArraysError, Error, Location, Naming, Result, SolveError, human_bytes};
pub use explore::{Explorer, StateGame, StateSolution, solve_states};
pub use game::{Game, solve_game};
pub use graph::{Csr, CsrBuilder, EdgeSource, GameGraph, Graph, Successors};
pub use outcome::{LabelWalk, Labels, NoMoveRule, Outcome, Player, Rules, UnknownName, Value};
pub use solve::{
    Answers, Histogram, HistogramCounter, Line, Lookup, MoveValue, NoProgress, Progress, Solution,
    Solved, Summary, Values, solve,
};
pub use verify::{Condition, Report, Violation, verify};
