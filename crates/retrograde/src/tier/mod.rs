//! Games bigger than memory, solved tier by tier.
//!
//! A [`TieredGame`] splits its positions into tiers (a chess ending's
//! material, the stones on a Morris board): every move stays in its tier or
//! reaches one of the tier's declared *child tiers*, and the tiers form no
//! cycle. [`TierSolver`] then solves one tier at a time, children first: a
//! tier is explored and solved alone, each move into a child tier valued
//! by probing that tier's database where it lies (memory-mapped), and the
//! tier is kept as a [database](crate::db) of its own in one directory with
//! a manifest (`tiers.json`). Peak memory follows the largest tier, not the
//! game.
//!
//! A run that is stopped, in any way, leaves every finished tier complete
//! (databases and manifest are written atomically); run again, it takes
//! those tiers as they are, after checking each against the manifest's
//! checksum and its header, and solves the rest. A damaged tier is solved
//! again; a directory of another game is refused.
//!
//! ```
//! use retrograde::tier::{TierSolver, TieredGame};
//! use retrograde::{Outcome, StateGame};
//!
//! /// Take 1 or 2 from a pile of up to 9; the tier is the pile's third
//! /// (0-2, 3-5, 6-8, 9): a move stays in its third or goes one down.
//! struct Pile;
//! impl StateGame for Pile {
//!     type Position = u8;
//!     fn starts(&self) -> Vec<u8> { vec![9] }
//!     fn for_each_move<F: FnMut(u8)>(&self, p: &u8, mut f: F) {
//!         (1..=2).filter(|&k| k <= *p).for_each(|k| f(p - k));
//!     }
//!     fn encode(&self, p: &u8) -> Option<u64> { Some(u64::from(*p)) }
//!     fn decode(&self, c: u64) -> Option<u8> { u8::try_from(c).ok().filter(|&p| p <= 9) }
//! }
//! impl TieredGame for Pile {
//!     type Tier = u8;
//!     fn tier(&self, p: &u8) -> u8 { p / 3 }
//!     fn child_tiers(&self, t: &u8) -> Vec<u8> { (t.saturating_sub(1)..*t).collect() }
//!     fn tier_positions(&self, t: &u8) -> Vec<u8> { (t * 3..t * 3 + 3).filter(|&p| p <= 9).collect() }
//!     fn tier_name(&self, t: &u8) -> String { format!("third{t}") }
//! }
//!
//! let dir = tempfile::tempdir().unwrap();
//! let run = TierSolver::new(dir.path()).solve(&Pile, &[3]).unwrap();
//! assert_eq!(run.tiers.len(), 4); // tiers 0, 1, 2, 3
//! let tiers = retrograde::tier::TierDirectory::open(dir.path()).unwrap();
//! // 9 is a multiple of 3: the player to move loses, in 6 plies.
//! let v = tiers.value(&Pile, &9).unwrap();
//! assert_eq!((v.outcome, v.remoteness), (Outcome::Lose, Some(6)));
//! ```
//!
//! # How a tier is solved
//! A move into a solved child tier is a move to a position whose value is
//! known: a win, loss or tie in `r` plies, or a draw. The tier's graph gets,
//! for every value its children hold, one *stand-in* position of exactly
//! that value (a chain: a loss in `r` has one move, to a win in `r - 1`;
//! a draw has one move, to itself), and the move is sent there. The tier is
//! then an ordinary game, solved by the same engines as any other; the
//! stand-ins (at most four a remoteness) are left out of its database and
//! its counts.
//!
//! # The dense rung
//! A tier whose positions fill one range of the game's dense numbers
//! ([`TieredGame::tier_numbers`]) and that gives un-moves
//! ([`TieredGame::for_each_unmove`]) is not explored at all: it is solved
//! by the lean engine over its numbers, as a numbered game is, in a few
//! bytes a position (the values and a move counter; no hash table, no
//! recorded moves). A move into a child tier is taken as an *event*: each
//! child's database is read a block at a time into one array, and every
//! child position of a given level is pushed back through its un-moves
//! into the tier, level by level, alongside the tier's own levels. Its
//! database keeps the tier's range from its first number on, one record a
//! number. A tier that gives numbers but
//! no un-moves is explored as above; the two rungs give the same values,
//! the same counts and the same files' answers (checked on random tiered
//! games in the tests). [`check_unmoves`] checks a tier's un-moves against
//! its moves, with multiplicity, as
//! [`TierOptions::check_unmoves`] does before each tier is solved.
//!
//! # Complexity
//! Each tier costs what an [`Explorer`](crate::Explorer) solve of its own
//! positions costs, plus one database probe (a few reads of a mapped file)
//! for every move that leaves it; the whole game is solved in time linear
//! in its moves, and in the memory of its largest tier plus the stand-ins.
//! On the dense rung a tier costs time linear in its numbers and its
//! moves, and memory linear in its numbers plus its largest child's.

mod dense;
mod directory;
mod plan;
mod share;
mod solution;
mod solver;
mod view;

use std::fmt;
use std::hash::Hash;
use std::path::PathBuf;

pub use dense::{UnmoveCheck, UnmoveMismatch, check_unmoves};
pub use directory::{MANIFEST, Manifest, ManifestTier, TierDirectory, WithTiers};
pub use plan::{Plan, plan};
pub use share::{TierShare, share_out};
pub use solution::TierSolution;
pub use solver::{DENSE_BYTES_PER_NUMBER, LOCK, TierDone, TierOptions, TierRun, TierSolver};
pub use view::{Slot, TierView};

/// The key of `p` (any form) in its tier's database: its dense number
/// ([`TieredGame::number_of`]) where its tier is on the dense rung, else
/// the number of its canonical form ([`StateGame::encode`]).
pub fn key_of<G: TieredGame>(game: &G, p: &G::Position) -> Option<u64> {
    if game.tier_numbers(&game.tier(p)).is_some() {
        game.number_of(p)
    } else {
        game.encode(&game.canonical(p.clone()))
    }
}

/// The position keyed `key` in its tier's database ([`key_of`]): its
/// dense number's where that names a position of a tier on the dense rung,
/// else its number's.
pub fn position_of_key<G: TieredGame>(game: &G, key: u64) -> Option<G::Position> {
    if let Some(p) = game.position_of(key) {
        let in_range = game
            .tier_numbers(&game.tier(&p))
            .is_some_and(|r| r.contains(&key));
        if in_range {
            return Some(p);
        }
    }
    game.decode(key)
        .filter(|p| game.tier_numbers(&game.tier(p)).is_none())
}

use crate::StateGame;
use crate::db::DbError;

/// A game whose positions fall into tiers that moves only leave downward:
/// see the [module docs](self).
///
/// The game must number its positions ([`StateGame::encode`] and
/// [`StateGame::decode`]): a tier's database keeps each position under its
/// number, and a move into a child tier is valued by that number.
pub trait TieredGame: StateGame {
    /// A tier: a chess ending's material, a count of stones.
    type Tier: Clone + Eq + Hash + Ord + fmt::Debug + Send + Sync;

    /// The tier of `p`; the same for `p` and its
    /// [canonical](StateGame::canonical) form.
    fn tier(&self, p: &Self::Position) -> Self::Tier;

    /// The tiers a move from `tier` can reach besides `tier` itself. A move
    /// to any other tier is an error ([`TierError::Undeclared`]) unless the
    /// game is over where it lands ([`StateGame::terminal`]: a Morris
    /// player left with two stones needs no tier of such positions), and
    /// so is a cycle among tiers ([`TierError::Cycle`]).
    fn child_tiers(&self, tier: &Self::Tier) -> Vec<Self::Tier>;

    /// The positions `tier` is explored from: every one whose value is
    /// wanted (each tier is solved strongly from them, and from what their
    /// moves reach within the tier). A move from a parent tier must reach
    /// only positions found so.
    fn tier_positions(&self, tier: &Self::Tier) -> Vec<Self::Position>;

    /// The tier's name: its database's file name in the directory
    /// (`KPK.db`) and its name in messages. Distinct tiers, distinct names,
    /// of letters, digits, `-`, `_` and `.` only.
    fn tier_name(&self, tier: &Self::Tier) -> String;

    /// About how many positions `tier` holds, if the game can say without
    /// listing them: how [`share_out`] balances the tiers of a level among
    /// processes (each counts 1 without it).
    fn tier_size(&self, tier: &Self::Tier) -> Option<u64> {
        let _ = tier;
        None
    }

    /// **The dense rung.** The numbers of `tier`'s positions, where they
    /// fill one range: every position of the tier is numbered within it
    /// ([`TieredGame::number_of`]), and every number of it is a canonical
    /// position of the tier ([`TieredGame::position_of`]) or none (a number
    /// left unused). `None`, the default: the tier's positions are found
    /// by exploring it.
    ///
    /// A game that gives this and [`TieredGame::for_each_unmove`] has each
    /// such tier solved by the lean engine without exploring it: about 3
    /// bytes a number, no table of positions, no move recorded (see the
    /// [module docs](self#the-dense-rung)). Each tier's database then keeps
    /// its range of numbers as they are, and is probed by them.
    fn tier_numbers(&self, tier: &Self::Tier) -> Option<std::ops::Range<u64>> {
        let _ = tier;
        None
    }

    /// The dense rung's number of `p`, a position in any form: its
    /// canonical form's. The default: [`StateGame::encode`] of
    /// [`StateGame::canonical`], for a game whose own numbers fill each
    /// tier's range. A game may number positions one way as they are played
    /// (`encode`, every board as it is) and another way on the dense rung
    /// (one number a class of equivalent boards), as Nine Men's Morris
    /// does.
    fn number_of(&self, p: &Self::Position) -> Option<u64> {
        self.encode(&self.canonical(p.clone()))
    }

    /// The canonical position the dense rung numbers `number`
    /// ([`TieredGame::number_of`]); `None` for a number left unused. The
    /// default: [`StateGame::decode`].
    fn position_of(&self, number: u64) -> Option<Self::Position> {
        self.decode(number)
    }

    /// Calls `f(q, number_of(q))` for every move `p -> q`: the dense rung
    /// numbers each move. The default: [`StateGame::for_each_move`] and
    /// [`TieredGame::number_of`]; a game whose moves share work in their
    /// numbers (the stones that did not move) gives it faster.
    fn for_each_numbered_move<F: FnMut(Self::Position, Option<u64>)>(
        &self,
        p: &Self::Position,
        mut f: F,
    ) {
        self.for_each_move(p, |q| {
            let c = self.number_of(&q);
            f(q, c)
        })
    }

    /// **The dense rung's un-moves.** Calls `f(p)` for the positions `p`
    /// of `q`'s own tier that have a move to `q` (or to a position whose
    /// [canonical](StateGame::canonical) form is `q`): at least once each,
    /// in any form (repeats, and forms equal under the game's symmetries,
    /// count once). Moves that reach `q` from another tier are not asked
    /// for. `q` is canonical (and may be terminal). Needed by, and only called
    /// for, the tiers that give [`TieredGame::tier_numbers`];
    /// [`check_unmoves`] checks it against the moves. The default calls
    /// nothing.
    fn for_each_unmove<F: FnMut(Self::Position)>(&self, q: &Self::Position, f: F) {
        let _ = (q, f);
    }
}

/// Why a tiered solve failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TierError {
    /// The tiers form a cycle.
    #[error("the tiers form a cycle: {}", tiers.join(" -> "))]
    Cycle {
        /// The tiers on it, the first repeated at the end.
        tiers: Vec<String>,
    },
    /// A move reaches a tier its tier does not declare as a child.
    #[error(
        "a move from tier {from} reaches tier {to}, which {from} does not declare as a child (it declares {declared})"
    )]
    Undeclared {
        /// The tier moved from.
        from: String,
        /// The tier reached.
        to: String,
        /// The children it declares, comma-separated.
        declared: String,
    },
    /// A move reaches a position its child tier's database does not hold.
    #[error(
        "a move from tier {from} reaches {position} in tier {to}, whose database does not hold it (a tier is solved from its tier_positions)"
    )]
    NotInTier {
        /// The tier moved from.
        from: String,
        /// The tier reached.
        to: String,
        /// The position, in the game's notation.
        position: String,
    },
    /// A position the game does not number.
    #[error("tier {tier}: {position} has no number (a tiered game must encode every position)")]
    NotNumbered {
        /// The tier.
        tier: String,
        /// The position, in the game's notation.
        position: String,
    },
    /// A position of a tier on the dense rung numbered outside the tier's
    /// numbers (or not at all).
    #[error("tier {tier}: {position} is numbered {}, outside the tier's numbers {}..{} (a tier on the dense rung numbers each of its positions within its tier_numbers)", number.map_or("nothing".to_string(), |n| n.to_string()), numbers.start, numbers.end)]
    OutsideNumbers {
        /// The tier.
        tier: String,
        /// The position, in the game's notation.
        position: String,
        /// Its number, if it has one.
        number: Option<u64>,
        /// The tier's numbers.
        numbers: std::ops::Range<u64>,
    },
    /// A tier's un-moves are not its moves reversed
    /// ([`TierSolver::check_unmoves`]).
    #[error("tier {tier}: the un-moves are not the moves reversed ({} pairs of positions by the moves, {} by the un-moves){}", check.moves, check.unmoves, shown_mismatches(check))]
    Unmoves {
        /// The tier.
        tier: String,
        /// What the check found.
        check: Box<UnmoveCheck>,
    },
    /// Another run is writing the directory.
    #[error("{}: another run is solving into this directory (it holds {}); wait for it to end, or use another directory", crate::io::paths::shown(dir), crate::io::paths::shown(&dir.join(LOCK)))]
    Busy {
        /// The directory.
        dir: PathBuf,
    },
    /// A tier asked for on the dense rung that the game does not number
    /// densely.
    #[error("tier {tier} is not on the dense rung: the game gives no tier_numbers for it")]
    NotDense {
        /// The tier.
        tier: String,
    },
    /// A tier's name cannot name a file, or two tiers share one.
    #[error("tier name {name:?}: {why}")]
    BadName {
        /// The name.
        name: String,
        /// What is wrong with it.
        why: &'static str,
    },
    /// A position its tier's database does not hold.
    #[error("{position} is not in the database of its tier, {tier}")]
    NotHeld {
        /// The tier.
        tier: String,
        /// The position.
        position: String,
    },
    /// The directory's manifest does not read, or is another game's.
    #[error("{}: {why}", crate::io::paths::shown(path))]
    Manifest {
        /// The manifest.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// A tier's database is another game's.
    #[error(
        "{}: {why}; it is not this game's tier (remove it to solve the tier again)",
        crate::io::paths::shown(path)
    )]
    Foreign {
        /// The database.
        path: PathBuf,
        /// What differs.
        why: String,
    },
    /// A position is not in any tier the directory holds.
    #[error("{position} is in tier {tier}, which the directory does not hold")]
    NoSuchTier {
        /// The tier.
        tier: String,
        /// The position.
        position: String,
    },
    /// A database could not be read or written.
    #[error(transparent)]
    Db(#[from] DbError),
    /// A tier's solve failed (the memory limit, say).
    #[error("tier {tier}: {source}")]
    Solve {
        /// The tier.
        tier: String,
        /// Why.
        #[source]
        source: crate::Error,
    },
    /// The run was asked to stop ([`Progress::stop`](crate::solve::Progress::stop))
    /// while a tier was solved: the tier is not kept (the tiers finished
    /// before it are), and the next run solves it again.
    #[error("tier {tier}: the run was stopped before the tier was kept")]
    Stopped {
        /// The tier.
        tier: String,
    },
    /// The directory could not be created or written.
    #[error(transparent)]
    Io(#[from] crate::Error),
    /// Sharing the tiers with the other processes failed.
    #[error("sharing the tiers with the other processes: {0}")]
    Share(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// A tier another process sent is refused.
    #[error("{file}, received from process {process}: {why}")]
    Received {
        /// Its file name.
        file: String,
        /// The process that sent it (or should have).
        process: usize,
        /// What is wrong with it.
        why: String,
    },
}

/// A check's mismatches, for a message.
fn shown_mismatches(check: &UnmoveCheck) -> String {
    check
        .mismatches
        .iter()
        .map(|m| {
            if m.missed {
                format!(
                    "; the move {} -> {} is missing from the un-moves",
                    m.from, m.to
                )
            } else {
                format!("; the un-move {} -> {} is no move", m.from, m.to)
            }
        })
        .collect()
}
