//! Solving a registered game and checking its database: the paths every
//! [`Solvable`](super::Solvable) takes, one for games written from their
//! rules ([`StateGame`]) and one for numbered games ([`Game`]).
//!
//! # Memory
//! Checking a database reads every record back: 5 bytes a record (its
//! outcome and remoteness), and for a game whose keys are not its numbers
//! 17 bytes a position more while the values are looked up by key
//! ([`VALUES_BY_KEY_BYTES_PER_POSITION`]).

use super::{GameSolution, How, KeyOrder, RunError};
use crate::db::{Checked, Database};
use crate::explore::{Explored, StateSolution};
use crate::game::AsGraph;
use crate::{Answers, Explorer, Game, Report, Rules, SolveError, Solved, StateGame};

/// Bytes a record that reading a whole database back holds
/// ([`Database::values`]): its outcome, and its remoteness as a `u32` at most.
pub const VALUES_BYTES_PER_RECORD: u64 = 5;

/// Bytes a position that reading a database back by key holds at its peak
/// ([`Database::values_by_key`]): every record read
/// ([`VALUES_BYTES_PER_RECORD`]), each position's value looked up (12), and
/// the values laid out in the game's order (5).
pub const VALUES_BY_KEY_BYTES_PER_POSITION: u64 = VALUES_BYTES_PER_RECORD + 12 + 5;

/// A state game solved, each position keyed by `key`.
pub struct StateRun<G: StateGame, K> {
    solution: StateSolution<G>,
    key: K,
    uncounted: Vec<u32>,
}

/// Explores and solves `game` within `how`'s limit (as [`Explorer::solve`]:
/// the lean engine for a game explored by key, else the parallel one where
/// it fits), position `p` keyed by `key(p)` in its database.
///
/// # Errors
/// As [`Explorer::solve`].
pub fn solve_states<G, K>(game: G, how: &How<'_>, key: K) -> Result<StateRun<G, K>, RunError>
where
    G: StateGame,
    K: Fn(&G::Position) -> Option<u64> + Sync,
{
    let solution = explorer(how, how.reserve).solve(game)?;
    Ok(StateRun {
        solution,
        key,
        uncounted: Vec::new(),
    })
}

fn explorer<'p>(how: &How<'p>, reserve: u64) -> Explorer<'p> {
    let mut e = Explorer::new().reserve(reserve).progress(how.progress);
    if how.by_hash {
        e = e.by_hash();
    }
    match how.memory_limit {
        Some(limit) => e.memory_limit(limit),
        None => e,
    }
}

impl<G: StateGame, K> StateRun<G, K> {
    /// The solution, asked by position.
    pub fn solution(&self) -> &StateSolution<G> {
        &self.solution
    }

    /// With `p`, if reached, counted as no position
    /// ([`GameSolution::uncounted`]).
    pub fn uncounted(mut self, p: &G::Position) -> Self {
        self.uncounted.extend(self.solution.explored().index(p));
        self
    }
}

impl<G, K> GameSolution for StateRun<G, K>
where
    G: StateGame,
    K: Fn(&G::Position) -> Option<u64> + Sync,
{
    fn answers(&self) -> &(dyn Answers + Sync) {
        self.solution.solved()
    }

    fn key(&self, i: u32) -> Option<u64> {
        self.solution
            .explored()
            .position(i)
            .and_then(|p| (self.key)(&p))
    }

    fn start(&self) -> Option<u32> {
        match self.solution.explored().starts() {
            [s] => Some(*s),
            _ => None,
        }
    }

    fn move_count(&self) -> Option<u64> {
        Some(self.solution.explored().move_count())
    }

    fn uncounted(&self) -> Vec<u32> {
        self.uncounted.clone()
    }

    fn verify(&self, keep: usize) -> Result<Report, SolveError> {
        let explored = self.solution.explored();
        crate::verify(explored, &explored.rules(), self.solution.solved(), keep)
    }

    fn solved_by(&self) -> Option<super::SolvedBy> {
        let ids = self.solution.explored().id_order();
        let rung = match ids {
            crate::explore::IdOrder::Found => super::Rung::Rules,
            _ => super::Rung::Numbers,
        };
        Some(super::SolvedBy {
            rung,
            ids: Some(ids),
        })
    }
}

/// Checks `db` against the state game `game`: explored within `how`'s limit
/// (phase `explore`), each position looked up under `key` (phase `read`),
/// the whole checked with the certificate (phase `verify`).
///
/// # Errors
/// Past the memory limit; a database of another size than the game; a
/// damaged database.
pub fn check_states<G, K>(
    game: G,
    db: &Database,
    how: &How<'_>,
    key: K,
    keep: usize,
) -> Result<Checked, RunError>
where
    G: StateGame,
    K: Fn(&G::Position) -> Option<u64> + Sync,
{
    let explored: Explored<G> = explorer(how, VALUES_BY_KEY_BYTES_PER_POSITION).explore(game)?;
    same_size(db, explored.len() as u64)?;
    let values = how.phase("read", || {
        db.values_by_key(explored.len() as u32, |i| {
            explored.position(i).and_then(|p| key(&p))
        })
    })?;
    let rules = explored.rules();
    let solved = Solved::new(&explored, rules.clone(), values)?;
    let report = how.phase("verify", || crate::verify(&explored, &rules, &solved, keep))?;
    Ok(Checked {
        positions: explored.len() as u64,
        moves: Some(explored.move_count()),
        report,
    })
}

/// Refuses a database whose records are not the game's positions in number.
fn same_size(db: &Database, positions: u64) -> Result<(), RunError> {
    if db.len() != positions {
        return Err(RunError::OtherGame {
            path: db.path().to_path_buf(),
            records: db.len(),
            game: crate::play::describe(db.meta()),
            positions,
        });
    }
    Ok(())
}

/// The key of a numbered game's position in its database: `None` for a
/// game keyed by its numbers.
pub type DenseKey<G> = Option<fn(&G, u32) -> Option<u64>>;

/// A numbered game solved on the lean engine; it holds the game (`&G` for
/// one borrowed).
pub struct DenseSolution<G: Game + Sync> {
    solved: Solved<AsGraph<G>>,
    rules: Rules,
    key: DenseKey<G>,
    start: Option<u32>,
    uncounted: Vec<u32>,
    increasing: bool,
}

/// Solves the numbered game `game` under `rules` on the lean engine (values,
/// no stored best moves: they are found from the values), refused past
/// `how`'s limit; position `i` keyed by `key(i)` in its database (its
/// number if `None`), `start` its start.
///
/// # Errors
/// Past the memory limit; more positions than `u32` ids.
pub fn solve_dense<G: Game + Sync>(
    game: G,
    rules: &Rules,
    how: &How<'_>,
    key: DenseKey<G>,
    start: Option<u32>,
) -> Result<DenseSolution<G>, RunError> {
    let n = game.position_count() as u64;
    let keys = if key.is_some() { 8 } else { 0 };
    how.check(
        || positions_of(n),
        n.saturating_mul(crate::solve::LEAN_BYTES_PER_POSITION + how.reserve + keys),
    )?;
    let values = crate::Solver::new()
        .rules(rules.clone())
        .progress(how.progress)
        .solve_game(&game)?
        .into_values();
    let solved = Solved::new(AsGraph(game), rules.clone(), values)?;
    Ok(DenseSolution {
        solved,
        rules: rules.clone(),
        key,
        start,
        uncounted: Vec::new(),
        increasing: false,
    })
}

impl<G: Game + Sync> DenseSolution<G> {
    /// The game.
    pub fn game(&self) -> &G {
        &self.solved.graph().0
    }

    /// With positions `uncounted` counted as none
    /// ([`GameSolution::uncounted`]).
    pub fn uncounted(mut self, uncounted: impl IntoIterator<Item = u32>) -> Self {
        self.uncounted.extend(uncounted);
        self
    }

    /// With keys that grow with the numbers (a database is written from
    /// them without sorting).
    pub fn increasing_keys(mut self) -> Self {
        self.increasing = true;
        self
    }
}

impl<G: Game + Sync> GameSolution for DenseSolution<G> {
    fn answers(&self) -> &(dyn Answers + Sync) {
        &self.solved
    }

    fn key(&self, i: u32) -> Option<u64> {
        match self.key {
            Some(k) => k(self.game(), i),
            None => Some(u64::from(i)),
        }
    }

    fn start(&self) -> Option<u32> {
        self.start
    }

    fn move_count(&self) -> Option<u64> {
        None
    }

    fn uncounted(&self) -> Vec<u32> {
        self.uncounted.clone()
    }

    fn key_order(&self) -> KeyOrder {
        match (&self.key, self.increasing) {
            (None, _) => KeyOrder::Numbers,
            (Some(_), true) => KeyOrder::Increasing,
            (Some(_), false) => KeyOrder::Any,
        }
    }

    fn verify(&self, keep: usize) -> Result<Report, SolveError> {
        crate::verify(self.solved.graph(), &self.rules, &self.solved, keep)
    }

    fn solved_by(&self) -> Option<super::SolvedBy> {
        Some(super::SolvedBy {
            rung: super::Rung::Dense,
            ids: None,
        })
    }
}

/// Checks `db` against the numbered game `game` under `rules`: every record
/// read back (by `key`, or by number if `None`; phase `read`), then the
/// certificate (phase `verify`).
///
/// # Errors
/// Past the memory limit; a database of another size than the game; a
/// damaged database.
pub fn check_dense<G: Game + Sync + ?Sized>(
    game: &G,
    rules: &Rules,
    db: &Database,
    how: &How<'_>,
    key: Option<&(dyn Fn(u32) -> Option<u64> + Sync)>,
    keep: usize,
) -> Result<Checked, RunError> {
    let n = game.position_count() as u64;
    same_size(db, n)?;
    let per = match key {
        Some(_) => VALUES_BY_KEY_BYTES_PER_POSITION,
        None => VALUES_BYTES_PER_RECORD,
    };
    how.check(
        || format!("reading back {}", positions_of(n)),
        n.saturating_mul(per),
    )?;
    let values = how.phase("read", || match key {
        Some(k) => db.values_by_key(n as u32, k),
        None => db.values(),
    })?;
    let solved = Solved::new(game.as_graph(), rules.clone(), values)?;
    let report = how.phase("verify", || {
        crate::verify(solved.graph(), rules, &solved, keep)
    })?;
    Ok(Checked {
        positions: n,
        moves: None,
        report,
    })
}

/// `the game's 1,234 positions`, for messages.
fn positions_of(n: u64) -> String {
    format!("the game's {n} positions")
}
