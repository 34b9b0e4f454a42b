//! Games written from their rules alone: the author's own position type,
//! forward moves, terminal values, optionally a canonical form; the library
//! finds every reachable position, numbers them, reverses the moves and
//! solves.
//!
//! ```
//! use retrograde::explore::StateGame;
//! use retrograde::solve_states;
//! use retrograde::{Outcome, Value};
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
//! assert!(s.value(&9).is_err()); // not reachable from 7: not a position
//! ```
//!
//! How it works depends on whether the game numbers its positions
//! ([`StateGame::encode`] and [`StateGame::decode`]).
//!
//! **By key**, when it does (the faster and leaner way):
//! 1. **Explore** ([`Explorer::explore`]): breadth first from the starts, a
//!    level at a time, every step on all threads. Each level's moves are
//!    generated and their numbers inserted into one table of numbers that
//!    all threads fill at once (one cache miss a move: the number is the
//!    position, so nothing else is read).
//! 2. **Number**: the numbers, sorted, give the ids: a position's id is the
//!    rank of its number. Where the game's numbers spread evenly, the order
//!    is theirs, so positions the game numbers close together get ids
//!    close together and every later step stays in the cache: number a
//!    position so that a move changes its number little (the side to move
//!    in the low bits, a piece's square next to its neighbours'). Otherwise
//!    the order is that of the numbers scrambled by a fixed bijection.
//!    Either way the ids depend neither on the thread count nor on the
//!    order positions were found; in the game's order, a database keyed by
//!    the same numbers lists its records in the order of the ids.
//! 3. **Reverse**: the moves generated again by id and looked up by rank,
//!    for out-degrees, terminal values and predecessor counts; then the
//!    predecessors placed from the recorded moves, or, with
//!    [`Explorer::low_memory`] (and by itself past the memory limit), from
//!    the moves generated once more.
//!
//! **By hash** otherwise (or with [`Explorer::by_hash`]): the positions
//! themselves are kept in the order found, the starts first, with a hash
//! table of their numbers; each level's moves are generated on all threads
//! and looked up, the new positions numbered in the order a single thread
//! would find them (so the numbering never depends on the thread count);
//! the moves are recorded and sorted by target, or generated twice more.
//!
//! **Solve**: any engine; [`Explorer::solve`] runs the lean engine for a
//! game explored by key (ids follow its numbers, and the lean walk stays in
//! the cache), and for one explored by hash the parallel engine (the
//! sequential one on one thread) where it fits the memory limit, else the
//! lean engine.
//!
//! Terminal positions (the game's [`StateGame::terminal`]) are not
//! expanded. With a canonical form, every position is replaced by its
//! canonical one before it is looked up, and moves keep their multiplicity:
//! two moves to positions equivalent under a symmetry are two moves to the
//! canonical one. Only reachable positions exist anywhere: in counts, files
//! and lines.
//!
//! # Memory
//! By key: while exploring, 8 bytes a slot of the table (a slot for 1.33 to
//! 2 positions; half as much again while it grows) and 8 a position of the
//! level being expanded and the next; then per position 8 bytes of number
//! and under 1 of directory, 1 of terminal value, 4 of out-degree and 8 of
//! reverse offsets: 21 bytes a position, and 4 a move (8 while the
//! recorded moves are placed; 4 with [`Explorer::low_memory`]).
//!
//! By hash: per position the position itself (`size_of::<Position>()` and
//! whatever it owns), 5.7 to 11.4 bytes of hash table, 4 of out-degree, 1
//! of terminal value, 8 of reverse offsets; per move 4 bytes of reverse
//! adjacency, and 4 more for the recorded moves while they are sorted (none
//! with [`Explorer::low_memory`]).
//!
//! Solving adds the engine's state: 17 bytes a position for the parallel
//! engine (9 of which are the result), 4 for the lean one.

mod by_key;
mod explorer;
mod game;
mod index;
mod keys;
mod solution;

pub use explorer::Explorer;
pub use game::StateGame;
pub use solution::{StateLine, StateMove, StateSolution};

use std::fmt;

use crate::error::Result;
use crate::{Csr, GameGraph, Labels, Outcome, Player, Rules, Successors};
use index::Index;
use keys::Keys;

/// Explores `game` from its starts (see [`Explorer`] for limits and progress).
///
/// # Errors
/// See [`Explorer::explore`].
pub fn explore<G: StateGame>(game: G) -> Result<Explored<G>> {
    Explorer::new().explore(game)
}

/// "No terminal value" in [`Explored`]'s value array.
const OPEN: u8 = u8::MAX;

/// A state game explored: its positions numbered `0..len()` in the order
/// they were found (the starts first), their terminal values, and the
/// reverse graph every engine reads. Implements [`GameGraph`] and
/// [`Successors`] (moves generated again on demand), so every engine,
/// [`verify`](crate::verify()) and [`Solved`](crate::Solved) take it.
pub struct Explored<G: StateGame> {
    game: G,
    numbering: Numbering<G::Position>,
    terminal: Vec<u8>,
    graph: Csr,
    starts: Vec<u32>,
    /// Who moves at each position (0, 1, or [`NO_OWNER`]), for a game
    /// that names them ([`StateGame::owner`]); `None` for one that
    /// alternates strictly.
    owners: Option<Vec<u8>>,
}

/// An [`Explored::owners`] entry for a position that names no player.
const NO_OWNER: u8 = u8::MAX;

/// How positions are numbered: in the order found (a hash table of the
/// positions), or by the rank of the game's own number for them.
/// The order an exploration gave its positions' ids in, and why: the
/// engines work fastest where positions close in play have close ids.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum IdOrder {
    /// The order positions were found in: the game gives no numbers
    /// ([`StateGame::encode`]), so it was explored by hash.
    Found,
    /// The order of the game's own numbers, which spread evenly enough
    /// (`crowding`, measured on a sample: 1 for numbers spread evenly, at
    /// most 4 here).
    Numbers {
        /// How much the numbers crowd together.
        crowding: f64,
    },
    /// The order of a fixed scrambling of the game's numbers, which crowd
    /// together (`crowding` over 4) where a stretch of them would be
    /// looked up slowly: ids no longer follow play, and the engines lose
    /// their locality (a numbering that spreads evenly keeps it).
    Scrambled {
        /// How much the numbers crowd together.
        crowding: f64,
    },
}

impl fmt::Display for IdOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IdOrder::Found => f.write_str("ids in the order found (the game gives no numbers)"),
            IdOrder::Numbers { crowding } => write!(
                f,
                "ids in the order of the game's numbers (they spread evenly: crowding {crowding:.1}, at most {:.0})",
                keys::CROWDING
            ),
            IdOrder::Scrambled { crowding } => write!(
                f,
                "ids in a scrambled order of the game's numbers (they crowd together: crowding {crowding:.1}, over {:.0}; numbers spread more evenly would keep ids in play's order, and the solve faster)",
                keys::CROWDING
            ),
        }
    }
}

enum Numbering<P> {
    Found(Index<P>),
    Keys(Keys),
}

impl<G: StateGame> fmt::Debug for Explored<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Explored")
            .field("positions", &self.len())
            .field("moves", &self.move_count())
            .finish_non_exhaustive()
    }
}

impl<G: StateGame> Explored<G> {
    /// The game.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// Fills in who moves at each position, if the game names it at any
    /// start (one pass over the positions, on all threads).
    fn with_owners(mut self) -> Explored<G> {
        use rayon::prelude::*;
        let names = self
            .starts
            .iter()
            .filter_map(|&s| self.position(s))
            .any(|p| self.game.owner(&p).is_some());
        if names {
            let owners = (0..self.len() as u32)
                .into_par_iter()
                .map(|i| {
                    self.position(i)
                        .and_then(|p| self.game.owner(&p))
                        .map_or(NO_OWNER, Player::index)
                })
                .collect();
            self.owners = Some(owners);
        }
        self
    }

    /// Whether the game names who moves at its positions
    /// ([`StateGame::owner`]).
    pub fn has_owners(&self) -> bool {
        self.owners.is_some()
    }

    /// The number of positions found.
    pub fn len(&self) -> usize {
        match &self.numbering {
            Numbering::Found(index) => index.len(),
            Numbering::Keys(keys) => keys.len(),
        }
    }

    /// Whether no position was found (the game has no start).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The number of `p` (after [`StateGame::canonical`]); `None` if it is
    /// not reachable from the starts.
    pub fn index(&self, p: &G::Position) -> Option<u32> {
        self.find(self.game.canonical(p.clone()))
    }

    /// The number of the canonical position `p`.
    #[inline]
    fn find(&self, p: G::Position) -> Option<u32> {
        match &self.numbering {
            Numbering::Found(index) => index.find(&p),
            Numbering::Keys(keys) => keys.rank(self.game.encode(&p)?),
        }
    }

    /// The (canonical) position numbered `i`.
    pub fn position(&self, i: u32) -> Option<G::Position> {
        match &self.numbering {
            Numbering::Found(index) => index.position(i).cloned(),
            Numbering::Keys(keys) => self.game.decode(keys.code(i)?),
        }
    }

    /// Whether positions are numbered by the rank of the game's own number
    /// for them ([`StateGame::encode`]: in the numbers' order where they
    /// spread evenly, else in the order of a fixed scrambling of them), not
    /// in the order found (see the [module documentation](self)).
    pub fn numbered_by_key(&self) -> bool {
        matches!(self.numbering, Numbering::Keys(_))
    }

    /// The order of the positions' ids, and why.
    pub fn id_order(&self) -> IdOrder {
        match &self.numbering {
            Numbering::Found(_) => IdOrder::Found,
            Numbering::Keys(k) if k.in_game_order() => IdOrder::Numbers {
                crowding: k.crowding(),
            },
            Numbering::Keys(k) => IdOrder::Scrambled {
                crowding: k.crowding(),
            },
        }
    }

    /// The numbers of the start positions.
    pub fn starts(&self) -> &[u32] {
        &self.starts
    }

    /// How many positions are terminal by the game's [`StateGame::terminal`].
    pub fn terminal_count(&self) -> u64 {
        self.terminal.iter().filter(|&&t| t != OPEN).count() as u64
    }

    /// The number of moves (with multiplicity) out of non-terminal positions.
    pub fn move_count(&self) -> u64 {
        self.graph.edge_count()
    }

    /// The reverse graph the engines read.
    pub fn graph(&self) -> &Csr {
        &self.graph
    }

    /// The rules to solve with: the game's no-move rule, no labels (terminal
    /// values come from the game).
    pub fn rules(&self) -> Rules {
        Rules {
            no_move: self.game.no_move(),
            labels: Labels::new(),
        }
    }

    /// Position `i` as the game shows it; its number if there is none.
    pub fn show(&self, i: u32) -> String {
        self.position(i)
            .map_or_else(|| i.to_string(), |p| self.game.show(&p))
    }

    /// Bytes held: the positions (their own size) and the hash table, or
    /// the sorted numbers; the terminal values and the graph.
    pub fn bytes(&self) -> u64 {
        let v = self.len() as u64;
        let numbering = match &self.numbering {
            Numbering::Found(index) => index.bytes(),
            Numbering::Keys(keys) => keys.bytes(),
        };
        numbering + v + v * 4 + (v + 1) * 8 + self.move_count() * 4
    }
}

impl<G: StateGame> GameGraph for Explored<G> {
    #[inline]
    fn vertex_count(&self) -> usize {
        self.len()
    }
    #[inline]
    fn out_degree(&self, v: u32) -> u32 {
        self.graph.out_degree(v)
    }
    #[inline]
    fn for_each_predecessor<F: FnMut(u32)>(&self, v: u32, f: F) {
        self.graph.for_each_predecessor(v, f)
    }
    #[inline]
    fn terminal(&self, v: u32) -> Option<Outcome> {
        Outcome::from_code(self.terminal[v as usize])
    }
    #[inline]
    fn owner(&self, v: u32) -> Option<Player> {
        let owners = self.owners.as_ref()?;
        Player::from_index(u64::from(owners[v as usize]))
    }
}

impl<G: StateGame> Successors for Explored<G> {
    /// The moves of `v`, generated again and looked up: time **O(d)**
    /// expected for `d` moves. None for a terminal position.
    fn for_each_successor<F: FnMut(u32)>(&self, v: u32, mut f: F) {
        if self.terminal[v as usize] != OPEN {
            return;
        }
        let Some(p) = self.position(v) else {
            return;
        };
        self.game.for_each_move(&p, |q| {
            if let Some(j) = self.find(self.game.canonical(q)) {
                f(j)
            }
        });
    }
}
