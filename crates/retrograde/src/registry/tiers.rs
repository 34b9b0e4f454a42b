//! A game solved tier by tier ([`TieredGame`]), as the tools play, solve
//! and check it: the one path every tiered game takes, built-in or not.

use super::{Checked, GameSolution, How, KeyOrder, RunError, Solvable, States};
use crate::db::{Database, Meta};
use crate::play::{NotationError, Playable};
use crate::tier::{TierDirectory, TierShare, TierSolution, TierSolver, TieredGame};
use crate::{Answers, Report, SolveError, StateGame, Value};

/// A [`TieredGame`] made [`Playable`] and [`Solvable`], one tier of it at a
/// time: `root`, the tier the tools solve, query and play (the variant of
/// its databases' headers names it), every tier below it solved first into
/// the tier directory ([`How::tiers`]).
///
/// It plays as [`States`] plays a game written from its rules, and adds
/// what a tier's database needs: the tier of a position
/// ([`Playable::tier_of`], so that a move into another tier is looked up in
/// that tier's database beside this one), and the value of a position
/// where the game is over ([`Playable::settled`]).
#[derive(Debug)]
pub struct Tiers<G: TieredGame> {
    states: States<G>,
    directory: Meta,
    root: G::Tier,
}

impl<G: TieredGame> Tiers<G> {
    /// Tier `root` of `game`, whose tier directory is of `directory` (the
    /// game and its parameters, no variant): each tier's database is headed
    /// `directory` with the tier's name as its variant.
    pub fn new(game: G, directory: Meta, root: G::Tier) -> Tiers<G> {
        let meta = directory.clone().variant(game.tier_name(&root));
        Tiers {
            states: States::new(game, meta),
            directory,
            root,
        }
    }

    /// The game.
    pub fn game(&self) -> &G {
        self.states.game()
    }

    /// The tier solved.
    pub fn root(&self) -> &G::Tier {
        &self.root
    }
}

impl<G: TieredGame> Playable for Tiers<G> {
    fn meta(&self) -> Meta {
        self.states.meta()
    }
    fn start(&self) -> Option<u64> {
        self.states.start()
    }
    fn parse(&self, text: &str) -> Result<u64, NotationError> {
        self.states.parse(text)
    }
    fn notation(&self, p: u64) -> String {
        self.states.notation(p)
    }
    fn board(&self, p: u64) -> String {
        self.states.board(p)
    }
    fn to_move(&self, p: u64) -> String {
        self.states.to_move(p)
    }
    fn ending(&self, p: u64) -> Option<String> {
        self.states.ending(p)
    }
    fn drawing(&self, p: u64) -> Option<crate::drawing::Drawing> {
        self.states.drawing(p)
    }
    fn owner(&self, p: u64) -> Option<crate::Player> {
        self.states.owner(p)
    }
    fn moves(&self, p: u64) -> Vec<(String, u64)> {
        self.states.moves(p)
    }
    /// The key of its tier's database: its dense number where the tier is
    /// on the dense rung ([`key_of`](crate::tier::key_of)).
    fn key(&self, p: u64) -> Option<u64> {
        crate::tier::key_of(self.game(), &self.game().decode(p)?)
    }
    /// The position kept under `key`: its dense number's on the dense rung
    /// ([`position_of_key`](crate::tier::position_of_key)).
    fn position_at(&self, key: u64) -> u64 {
        crate::tier::position_of_key(self.game(), key)
            .and_then(|p| self.game().encode(&p))
            .unwrap_or(key)
    }
    fn tier_of(&self, key: u64) -> Option<String> {
        tier_of(self.game(), key)
    }
    fn settled(&self, p: u64) -> Option<Value> {
        settled(self.game(), &self.game().decode(p)?)
    }
}

impl<G: TieredGame + Send> Solvable for Tiers<G> {
    /// Solves every tier below the root, tier by tier (into `how`'s tier
    /// directory, or a temporary one), then the root.
    fn solve(&self, how: &How<'_>) -> Result<Box<dyn GameSolution + '_>, RunError> {
        solve(self.game(), &self.root, &self.directory, how)
    }

    /// The tiers below solved (or taken from `how`'s tier directory), then
    /// `db` checked as the root's database.
    fn check(&self, db: &Database, how: &How<'_>, keep: usize) -> Result<Checked, RunError> {
        check(self.game(), &self.root, &self.directory, db, how, keep)
    }

    /// The tiers shared out among the processes of `share`; process 0
    /// solves the root.
    fn solve_shared(
        &self,
        how: &How<'_>,
        share: &dyn TierShare,
    ) -> Result<Option<Box<dyn GameSolution + '_>>, RunError> {
        solve_shared(self.game(), &self.root, &self.directory, how, share)
    }
}

/// The name of the tier of the position keyed `key`
/// ([`position_of_key`](crate::tier::position_of_key)).
pub fn tier_of<G: TieredGame>(game: &G, key: u64) -> Option<String> {
    crate::tier::position_of_key(game, key).map(|p| game.tier_name(&game.tier(&p)))
}

/// The value of `p` if the game is over there: its terminal value, or the
/// no-move rule's where it has no move, in 0 plies.
pub fn settled<G: StateGame>(game: &G, p: &G::Position) -> Option<Value> {
    let over = game.terminal(p).or_else(|| {
        let mut moves = 0;
        game.for_each_move(p, |_| moves += 1);
        (moves == 0).then(|| game.no_move().outcome())
    })?;
    Some(Value::new(over, Some(0)))
}

/// Solves tier `root` of `game` and every tier below it (into `how`'s tier
/// directory, or a temporary one kept as long as the solution), the tier
/// directory being of `directory` (see [`Tiers::new`]).
///
/// # Errors
/// As [`TierSolver::solve_root`]; a temporary directory that cannot be made.
pub fn solve<'g, G: TieredGame>(
    game: &'g G,
    root: &G::Tier,
    directory: &Meta,
    how: &How<'_>,
) -> Result<Box<dyn GameSolution + 'g>, RunError> {
    let (solver, temporary) = solver(directory, how)?;
    let (_, solution) = solver.solve_root(game, root)?;
    Ok(Box::new(Solved {
        solution,
        tiers: TierDirectory::open(solver.dir()).ok(),
        _temporary: temporary,
    }))
}

/// [`solve`] as one of the processes of `share`, which share out the
/// tiers ([`TierSolver::solve_shared`]): process 0 gets the solution, the
/// others `None`.
///
/// # Errors
/// As [`TierSolver::solve_shared`].
pub fn solve_shared<'g, G: TieredGame>(
    game: &'g G,
    root: &G::Tier,
    directory: &Meta,
    how: &How<'_>,
    share: &dyn TierShare,
) -> Result<Option<Box<dyn GameSolution + 'g>>, RunError> {
    let (solver, temporary) = solver(directory, how)?;
    let (_, solution) = solver.solve_shared(game, root, share)?;
    Ok(solution.map(|solution| {
        Box::new(Solved {
            solution,
            tiers: TierDirectory::open(solver.dir()).ok(),
            _temporary: temporary,
        }) as Box<dyn GameSolution + 'g>
    }))
}

/// Checks `db` as tier `root`'s database: the tiers below solved (or taken
/// from `how`'s tier directory), then `db` checked with the certificate.
///
/// # Errors
/// As [`TierSolver::check_root`].
pub fn check<G: TieredGame>(
    game: &G,
    root: &G::Tier,
    directory: &Meta,
    db: &Database,
    how: &How<'_>,
    keep: usize,
) -> Result<Checked, RunError> {
    let (solver, _temporary) = solver(directory, how)?;
    Ok(solver.check_root(game, root, db, keep)?)
}

/// A solver into `how`'s tier directory, or into a temporary one (returned,
/// to be kept while the solution is used).
fn solver<'p>(
    directory: &Meta,
    how: &How<'p>,
) -> Result<(TierSolver<'p>, Option<tempfile::TempDir>), RunError> {
    let (dir, temporary) = match how.tiers {
        Some(dir) => (dir.to_path_buf(), None),
        None => {
            let t = tempfile::tempdir()
                .map_err(|e| RunError::Solve(crate::Error::io(std::env::temp_dir(), e)))?;
            (t.path().to_path_buf(), Some(t))
        }
    };
    let mut solver = TierSolver::new(&dir)
        .meta(directory.clone())
        .options(&how.tier_options)
        .progress(how.progress);
    if let Some(limit) = how.memory_limit {
        solver = solver.memory_limit(limit);
    }
    if let Some(f) = how.on_tier {
        solver = solver.on_tier(f);
    }
    Ok((solver, temporary))
}

/// A tier's solution, with the databases of the tiers below (for the
/// positions a move into them reaches) and the temporary directory they lie
/// in when no directory was given.
struct Solved<'g, G: TieredGame> {
    solution: TierSolution<'g, G>,
    tiers: Option<TierDirectory>,
    _temporary: Option<tempfile::TempDir>,
}

impl<G: TieredGame> GameSolution for Solved<'_, G> {
    fn answers(&self) -> &(dyn Answers + Sync) {
        self.solution.answers()
    }
    fn key(&self, i: u32) -> Option<u64> {
        self.solution.key(i)
    }
    fn start(&self) -> Option<u32> {
        self.solution.start()
    }
    fn move_count(&self) -> Option<u64> {
        self.solution.move_count()
    }
    fn uncounted(&self) -> Vec<u32> {
        self.solution.uncounted()
    }
    fn key_order(&self) -> KeyOrder {
        self.solution.key_order()
    }
    fn verify(&self, keep: usize) -> Result<Report, SolveError> {
        self.solution.verify(keep)
    }
    fn solved_by(&self) -> Option<super::SolvedBy> {
        self.solution.solved_by()
    }
    /// A position of another tier, from that tier's database; a position
    /// where the game is over, from the rules.
    fn elsewhere(&self, key: u64) -> Option<Value> {
        let game = self.solution.game();
        let held = || {
            let tier = tier_of(game, key)?;
            self.tiers
                .as_ref()?
                .database(&tier)
                .ok()??
                .value(key)
                .ok()?
        };
        held().or_else(|| settled(game, &crate::tier::position_of_key(game, key)?))
    }
}

/// A tier solved, as the tools report and save it: what
/// [`TierSolution`] says of itself.
impl<G: TieredGame> GameSolution for TierSolution<'_, G> {
    fn answers(&self) -> &(dyn Answers + Sync) {
        TierSolution::answers(self)
    }

    fn key(&self, i: u32) -> Option<u64> {
        TierSolution::key(self, i)
    }

    fn start(&self) -> Option<u32> {
        TierSolution::start(self)
    }

    fn move_count(&self) -> Option<u64> {
        TierSolution::move_count(self)
    }

    fn verify(&self, keep: usize) -> Result<Report, SolveError> {
        TierSolution::verify(self, keep)
    }

    fn uncounted(&self) -> Vec<u32> {
        TierSolution::uncounted(self)
    }

    fn key_order(&self) -> KeyOrder {
        match self.key_range() {
            Some(keys) => KeyOrder::Range {
                first: keys.start,
                records: keys.end - keys.start,
            },
            None => KeyOrder::Any,
        }
    }

    fn solved_by(&self) -> Option<super::SolvedBy> {
        Some(super::SolvedBy {
            rung: super::Rung::Tiers,
            ids: self.id_order(),
        })
    }
}
