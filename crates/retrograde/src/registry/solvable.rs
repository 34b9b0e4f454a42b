//! What a registry entry builds: a game the tools can play, solve and
//! check ([`Solvable`]), its solution ([`GameSolution`]) with the order of
//! its keys ([`KeyOrder`]), and a small game laid out as a graph
//! ([`SmallGraph`]).

use super::{Checked, How, RunError, SolvedBy};
use crate::db::Database;
use crate::play::Playable;
use crate::{Answers, Report, SolveError, Value};

/// A game the tools can play, solve and check: what an [`Entry`](super::Entry) builds.
pub trait Solvable: Playable + Send {
    /// Explores (or numbers) the game and solves it: every position's
    /// value, each keyed as its database keeps it.
    ///
    /// # Errors
    /// Past the memory limit; a game too large for `u32` ids; a game
    /// whose moves change when generated again.
    fn solve(&self, how: &How<'_>) -> Result<Box<dyn GameSolution + '_>, RunError>;

    /// Checks `db` against the game without trusting it: every position
    /// enumerated, looked up under its key, and the whole checked with the
    /// certificate of every solve ([`verify`](crate::verify())), keeping
    /// `keep` violations.
    ///
    /// # Errors
    /// Past the memory limit; a damaged database or one of another game.
    fn check(&self, db: &Database, how: &How<'_>, keep: usize) -> Result<Checked, RunError>;

    /// Solves the game as one of the processes of `share`, which share out
    /// its tiers ([`TierSolver::solve_shared`](crate::tier::TierSolver::solve_shared)):
    /// process 0 gets the solution, as [`Solvable::solve`] would give it;
    /// the others `None`, once they have done their share (each holding
    /// every tier below in `how`'s tier directory).
    ///
    /// # Errors
    /// As [`Solvable::solve`]; the sharing failing; a game not solved tier
    /// by tier ([`RunError::NotTiered`], the default).
    fn solve_shared(
        &self,
        how: &How<'_>,
        share: &dyn crate::tier::TierShare,
    ) -> Result<Option<Box<dyn GameSolution + '_>>, RunError> {
        let _ = (how, share);
        Err(RunError::NotTiered {
            game: crate::play::describe(&self.meta()),
        })
    }

    /// The game as an explicit graph with a name for each position, if it
    /// has at most `limit` positions and can be laid out (for the web
    /// explorer's animation of a solve); `None` by default.
    ///
    /// # Errors
    /// As [`Solvable::solve`].
    fn small_graph(&self, _limit: usize) -> Result<Option<SmallGraph>, RunError> {
        Ok(None)
    }

    /// Whether [`Solvable::small_graph`] lays the game out when it has no
    /// more than its limit of positions (a larger limit would then
    /// animate it); `false`, the default, where it never does.
    fn lays_out(&self) -> bool {
        false
    }

    /// Whether reports split the counts by the player to move
    /// ([`Playable::to_move`]): worth it where the sides play differently
    /// (a chess ending's stronger side). `false` by default.
    fn counts_by_side(&self) -> bool {
        false
    }

    /// Whether a solution can be saved: the game numbers its positions
    /// ([`StateGame::encode`](crate::StateGame::encode)), the number being
    /// the key its database keeps a record under. `true` by default.
    fn numbered(&self) -> bool {
        true
    }
}

/// A small game laid out as a graph: for showing a solve step by step.
#[derive(Clone, Debug)]
pub struct SmallGraph {
    /// Each position's notation, by number.
    pub labels: Vec<String>,
    /// Every move, as numbers.
    pub edges: Vec<(u32, u32)>,
    /// The rules: terminal values as labels.
    pub rules: crate::Rules,
    /// Who moves at each position, for a game that names it (a player
    /// may move twice in a row).
    pub owners: Option<Vec<crate::Player>>,
}

/// A registered game, solved: what `--save` writes and the report counts.
pub trait GameSolution: Sync {
    /// Every position's value and best move, by number.
    fn answers(&self) -> &(dyn Answers + Sync);

    /// The database key of position `i` (the game's [`Playable::key`]).
    fn key(&self, i: u32) -> Option<u64>;

    /// The number of the start position, if the game has one.
    fn start(&self) -> Option<u32>;

    /// The moves of the game's graph, where counted (a state game's).
    fn move_count(&self) -> Option<u64>;

    /// Checks the solution with the certificate of every solve, keeping
    /// `keep` violations.
    ///
    /// # Errors
    /// A solution of another size than the game (never for a solution this
    /// trait's solvers made).
    fn verify(&self, keep: usize) -> Result<Report, SolveError>;

    /// The start's value, if the game has one start.
    fn start_value(&self) -> Option<Value> {
        self.start().and_then(|s| self.answers().value(s))
    }

    /// The positions that only stand for a finished game (a captured lion,
    /// a chess ending's capture): kept so that moves to them are valued,
    /// not counted ([`Playable::uncounted`]). None by default.
    fn uncounted(&self) -> Vec<u32> {
        Vec::new()
    }

    /// How the keys run with the numbers (what a database writer can skip).
    fn key_order(&self) -> KeyOrder {
        KeyOrder::Any
    }

    /// The value of the position keyed `key` where this solution does not
    /// hold it but knows where it is: a game solved tier by tier finds a
    /// position of another tier in that tier's database. `None` by default.
    fn elsewhere(&self, _key: u64) -> Option<Value> {
        None
    }

    /// How the game was solved: the rung of the ladder its capabilities
    /// reached, and the order its positions' ids took. `None` by default
    /// (a solution made elsewhere).
    fn solved_by(&self) -> Option<SolvedBy> {
        None
    }
}

/// How a solution's keys run with its positions' numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyOrder {
    /// Position `i`'s key is `i`.
    Numbers,
    /// Keys grow with the numbers.
    Increasing,
    /// Any order.
    Any,
    /// Position `i` below `records` is keyed `first + i` (a range of the
    /// game's numbers: a tier on the dense rung); the indices from
    /// `records` on are kept out.
    Range {
        /// The key of position 0.
        first: u64,
        /// The positions kept.
        records: u64,
    },
}
