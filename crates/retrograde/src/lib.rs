//! Strongly solve two-player games whose positions form any directed graph,
//! cycles included: for **every** position, whether the player to move
//! **wins**, **loses**, **ties** (the game ends level) or can only **draw**
//! (it never ends), how many plies best play lasts (its *remoteness*: the
//! winner hurries, the loser holds out) and a best move, by retrograde
//! analysis in time linear in the number of moves.
//!
//! A game is written from its rules alone: a position type of its own, its
//! moves, the positions where it is over.
//!
//! ```
//! use retrograde::{solve_states, Outcome, StateGame, Value};
//!
//! /// Take 1 or 2 counters from a pile of 7; who cannot move loses.
//! struct Pile;
//!
//! impl StateGame for Pile {
//!     type Position = u8;
//!     fn starts(&self) -> Vec<u8> {
//!         vec![7]
//!     }
//!     fn for_each_move<F: FnMut(u8)>(&self, p: &u8, mut f: F) {
//!         (1..=2).filter(|&k| k <= *p).for_each(|k| f(p - k));
//!     }
//! }
//!
//! let s = solve_states(Pile).unwrap();
//! assert_eq!(s.value(&7).unwrap(), Value::new(Outcome::Win, Some(5)));
//! assert_eq!(s.best_move(&7).unwrap(), Some(6)); // leave a multiple of 3
//! assert_eq!(s.value(&6).unwrap().outcome, Outcome::Lose);
//! ```
//!
//! # One ladder, from rules to speed
//! Every game climbs the same ladder. Each rung is something more the game
//! gives, and unlocks a faster, leaner path to the same answers; nothing
//! below it changes.
//!
//! | rung | the game gives | what it gets | example |
//! |---|---|---|---|
//! | 1. rules | [`StateGame`]: starts, moves, terminal values; optionally a canonical form, notation, move names, who moves | explored by hash and solved ([`Explorer`]); solved by `retrograde game` through the [`registry`], not saved | [`explore`] |
//! | 2. numbers | [`StateGame::encode`] and [`StateGame::decode`] | explored by number, about 21 bytes a position; saved as a [database](db), then queried, played and served by name | [`registry`] |
//! | 3. dense numbers and un-moves | positions `0..n` and the moves into each: [`Game`]; optionally a start, notation, move names, who moves, the same as on the first rung | the lean engine ([`solve_game`]): no exploring, about 3 bytes a position; every tool through [`registry::Numbered`] ([`registry::Entry::numbered_game`]); the timely engine across processes (the `retrograde-timely` crate) | [`game`] |
//! | 4. tiers | [`tier::TieredGame`]: tiers that moves leave only downward; each on the dense rung with [`tier::TieredGame::tier_numbers`] and [`tier::TieredGame::for_each_unmove`] | solved a tier at a time in the memory of the largest ([`tier::TierSolver`]), resumable | [`tier`] |
//!
//! A game registered in the [`registry`] (one line, [`registry::Entry`])
//! reaches every tool of the command line: solve and save, query, play,
//! analyze, verify, serve. The built-in games (the `retrograde-games`
//! crate, whose `registry()` lists them) are written the same way: tic-tac-toe and dots and boxes on the second rung, the cop and
//! the thief, Teeko and Dōbutsu shōgi on the third, the chess endings on the
//! fourth (their tiers explored), and Nine Men's Morris on the fourth with
//! its tiers on the dense rung.
//!
//! # Graphs and engines
//! Underneath, a game is a graph: positions are vertices `0..V`, moves are
//! edges. [`GameGraph`] and [`Successors`] are the small traits every engine
//! reads; [`Csr`] (built by [`CsrBuilder`]) is an explicit graph, read from
//! a file by [`io`].
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
//! - [`Outcome`], [`Rules`] ([`NoMoveRule`] and terminal [`Labels`]): the model.
//! - [`Solver`]: the one way to solve with options, whatever the rung: the
//!   engine (or left to choose: parallel on more than one thread, lean where
//!   the others would pass the memory limit or the game numbers its
//!   positions), threads, a memory limit, rules, progress; it says which
//!   engine it runs and why ([`Solver::choose`]). It solves a graph
//!   ([`Solver::solve`]), a game on the dense rung ([`Solver::solve_game`])
//!   or a game from its rules ([`Solver::solve_states`]), each answering
//!   through [`Answers`].
//! - [`solve()`], [`solve_game`] and [`solve_states`]: the same with every
//!   option left as it is; [`solve`](mod@solve) holds the engines
//!   (sequential, parallel, lean) and [`solve::reference`], the slow
//!   yardstick written from the definitions.
//! - [`verify()`]: checks a solution against the game from local conditions,
//!   without trusting any solver ([`Report`], [`Violation`], [`Condition`]).
//! - [`db`]: the database file; [`play`]: probing it, moves best first.
//! - [`grundy`]: loopy nim values, for sums of games.
#![deny(missing_docs)]

mod alloc;
pub mod db;
pub mod drawing;
mod error;
pub mod explore;
mod fingerprint;
pub mod game;
pub mod graph;
pub mod grundy;
pub mod io;
pub mod kernel;
pub mod memory;
mod outcome;
pub mod play;
pub mod registry;
mod shared;
pub mod solve;
pub mod solver;
pub mod tier;
pub mod verify;

pub use alloc::{allocation_may_fail, fallibly};
pub use error::{ArraysError, Error, Location, Naming, Result, SolveError};
pub use explore::{Explorer, StateGame, StateSolution};
pub use fingerprint::Fingerprint;
pub use game::Game;
pub use graph::{Csr, CsrBuilder, EdgeSource, GameGraph, Graph, Successors};
pub use outcome::{LabelWalk, Labels, NoMoveRule, Outcome, Player, Rules, UnknownName, Value};
pub use solve::{
    Answers, Histogram, HistogramCounter, Line, Lookup, MoveValue, NoProgress, Progress, Solution,
    Solved, Summary, Values, solve,
};
pub use solver::{Solver, solve_game, solve_states};
pub use verify::{Condition, Report, Violation, verify};
