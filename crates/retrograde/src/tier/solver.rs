//! Solving the tiers of a game one after another into a directory, and
//! taking up a stopped run where it ended.

use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;

use super::dense::{DenseSolution, DenseTier};
use super::directory::{described, file_name, fingerprint, open_listed, open_tier, tier_meta};
use super::plan::at_once;
use super::solution::{Inner, TierSolution, stand_ins};
use super::view::Child;
use super::{Manifest, ManifestTier, Slot, TierError, TierView, TieredGame, plan};
use crate::db::{Compression, Database, Meta, Writer};
use crate::solve::{NoProgress, Progress};
use crate::{Answers, Explorer};

/// How a tiered solve is run, as the registry's callers give it: how many
/// tiers at once, whether tiers on the dense rung have their un-moves
/// checked first, how the databases are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TierOptions {
    /// Tiers solved at once where their children are done
    /// ([`TierSolver::concurrent`]).
    pub at_once: usize,
    /// Check each tier's un-moves before solving it
    /// ([`TierSolver::check_unmoves`]).
    pub check_unmoves: bool,
    /// How the databases are stored; `None`: as
    /// [`TierSolver::compression`] says by default.
    pub compression: Option<Compression>,
}

impl Default for TierOptions {
    fn default() -> TierOptions {
        TierOptions {
            at_once: 1,
            check_unmoves: false,
            compression: None,
        }
    }
}

/// What became of one tier.
#[derive(Clone, Debug)]
pub struct TierDone {
    /// Its name.
    pub name: String,
    /// Its positions (stand-ins not counted).
    pub positions: u64,
    /// Its moves, stand-ins' included; `None` for a tier taken as it was.
    pub moves: Option<u64>,
    /// Its longest remoteness.
    pub longest: Option<u32>,
    /// Seconds spent on it (exploring, solving, writing).
    pub seconds: f64,
    /// Whether it was taken from an earlier run, checked, rather than solved.
    pub resumed: bool,
    /// The process that solved it, where another process of a shared run
    /// did ([`TierSolver::solve_shared`]) and sent it here.
    pub received_from: Option<usize>,
}

/// What a tiered solve did, tier by tier in the order they were taken.
#[derive(Clone, Debug, Default)]
pub struct TierRun {
    /// Every tier, children first.
    pub tiers: Vec<TierDone>,
}

/// Solves a [`TieredGame`] into a directory, tier by tier: see the
/// [module docs](super).
pub struct TierSolver<'p> {
    dir: PathBuf,
    meta: Meta,
    memory_limit: Option<u64>,
    compression: Option<Compression>,
    progress: &'p dyn Progress,
    on_tier: Option<&'p (dyn Fn(&TierDone) + Sync)>,
    concurrent: usize,
    check_unmoves: bool,
    /// The directory's lock, held from the first write until the solver
    /// is dropped (`None` inside: a directory that cannot be written).
    lock: std::sync::OnceLock<Option<std::fs::File>>,
}

/// The lock file a run holds in its tier directory.
pub const LOCK: &str = "tiers.lock";

/// Bytes a number of a tier on the dense rung is estimated to need while
/// the tier is solved: its state byte and `u16` remoteness, an event for
/// a move into another tier, the levels, and the blocks of the children's
/// databases its moves reach (see BENCHMARKS.md for what Nine Men's
/// Morris's tiers took).
pub const DENSE_BYTES_PER_NUMBER: u64 = 8;

impl TierSolver<'static> {
    /// Solves into `dir` (created if need be), the game's databases headed
    /// `tiered` (see [`TierSolver::meta`]), uncompressed, no memory limit.
    pub fn new(dir: &Path) -> TierSolver<'static> {
        TierSolver {
            dir: dir.to_path_buf(),
            meta: Meta::new("tiered"),
            memory_limit: None,
            compression: None,
            progress: &NoProgress,
            on_tier: None,
            concurrent: 1,
            check_unmoves: false,
            lock: std::sync::OnceLock::new(),
        }
    }
}

impl<'p> TierSolver<'p> {
    /// The game as its databases' headers name it: each tier's database
    /// gets `meta` with the tier's name as its variant, and the manifest
    /// records it, so that a directory of another game is refused.
    pub fn meta(mut self, meta: Meta) -> Self {
        self.meta = meta;
        self
    }

    /// Refuse a tier whose solve would need more than `bytes`.
    pub fn memory_limit(mut self, bytes: u64) -> Self {
        self.memory_limit = Some(bytes);
        self
    }

    /// How each tier's records are stored. By default a tier on the dense
    /// rung is compressed (Zstandard: its parents read a block at a time),
    /// an explored one not (probed in place, the fastest for the tiers
    /// above, which probe one position at a time).
    pub fn compression(mut self, compression: Compression) -> Self {
        self.compression = Some(compression);
        self
    }

    /// The options of a tiered solve, as a caller of the registry gives
    /// them ([`TierOptions`]).
    pub fn options(self, o: &TierOptions) -> Self {
        let s = self.concurrent(o.at_once).check_unmoves(o.check_unmoves);
        match o.compression {
            Some(c) => s.compression(c),
            None => s,
        }
    }

    /// Solves up to `n` tiers at once where their children are done (1,
    /// the default: one tier at a time, each on all threads). Each tier
    /// holds its own memory: `n` tiers need up to `n` times the largest.
    pub fn concurrent(mut self, n: usize) -> Self {
        self.concurrent = n.max(1);
        self
    }

    /// Checks each tier on the dense rung's un-moves against its moves
    /// ([`check_unmoves`](super::check_unmoves)) before solving it, and
    /// refuses a tier where they differ ([`TierError::Unmoves`]). Off by
    /// default: it costs about what the tier's solve does.
    pub fn check_unmoves(mut self, check: bool) -> Self {
        self.check_unmoves = check;
        self
    }

    /// Reports each tier's phases to `progress`.
    pub fn progress<'q>(self, progress: &'q dyn Progress) -> TierSolver<'q>
    where
        'p: 'q,
    {
        TierSolver { progress, ..self }
    }

    /// Calls `f` as each tier is done (solved or taken from an earlier run).
    pub fn on_tier<'q>(self, f: &'q (dyn Fn(&TierDone) + Sync)) -> TierSolver<'q>
    where
        'p: 'q,
    {
        TierSolver {
            on_tier: Some(f),
            ..self
        }
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Solves `roots` and every tier below them, each tier kept in the
    /// directory; tiers the directory already holds, complete and
    /// unchanged, are taken as they are.
    ///
    /// # Errors
    /// See [`TierError`]: the tiers' plan, a tier's solve, a foreign
    /// directory, a failed write.
    pub fn solve<G: TieredGame>(&self, game: &G, roots: &[G::Tier]) -> Result<TierRun, TierError> {
        let plan = plan(game, roots)?;
        let names: Vec<String> = plan.tiers.iter().map(|t| game.tier_name(t)).collect();
        let mut manifest = self.manifest()?;
        let mut done: Vec<Option<TierDone>> = vec![None; plan.tiers.len()];
        for (i, tier) in plan.tiers.iter().enumerate() {
            done[i] = self.resume(game, tier, &mut manifest)?;
        }
        let manifest = std::sync::Mutex::new(manifest);
        loop {
            // The tiers whose children are all done, at most `concurrent` at once.
            let ready: Vec<usize> = (0..plan.tiers.len())
                .filter(|&i| {
                    done[i].is_none() && plan.children[i].iter().all(|&c| done[c].is_some())
                })
                .take(self.concurrent.max(1))
                .collect();
            if ready.is_empty() {
                break;
            }
            let results = at_once(&ready, |i| {
                let (_, done) = self.solve_kept(game, &plan.tiers[i], &manifest, &names)?;
                Ok(done)
            });
            for (i, r) in ready.into_iter().zip(results) {
                done[i] = Some(r?);
            }
        }
        Ok(TierRun {
            tiers: done.into_iter().flatten().collect(),
        })
    }

    /// Solves every tier below `root` into the directory (as
    /// [`TierSolver::solve`]), then `root` itself, whose solution is
    /// returned (and kept in the directory too).
    ///
    /// # Errors
    /// As [`TierSolver::solve`].
    pub fn solve_root<'g, G: TieredGame>(
        &self,
        game: &'g G,
        root: &G::Tier,
    ) -> Result<(TierRun, TierSolution<'g, G>), TierError> {
        let plan = plan(game, std::slice::from_ref(root))?;
        let names: Vec<String> = plan.tiers.iter().map(|t| game.tier_name(t)).collect();
        let mut run = self.solve(game, &plan.children_of_root())?;
        let mut manifest = self.manifest()?;
        // A root the directory holds, whole, is not solved again: on the
        // dense rung its values are read back; explored, it is explored
        // again (its answers are by position) but its file is left as it is.
        if let Some(done) = self.resume(game, root, &mut manifest)? {
            let solution = match game.tier_numbers(root) {
                Some(numbers) => {
                    let path = self.dir.join(file_name(&game.tier_name(root)));
                    let db = open_tier(&path, &self.meta, &game.tier_name(root))?;
                    let view =
                        DenseTier::new(game, root.clone(), numbers, self.children(game, root)?)?;
                    TierSolution(Inner::Dense(Box::new(DenseSolution::stored(view, &db)?)))
                }
                None => self.solve_one(game, root)?,
            };
            run.tiers.push(done);
            return Ok((run, solution));
        }
        let manifest = std::sync::Mutex::new(manifest);
        let (solution, done) = self.solve_kept(game, root, &manifest, &names)?;
        run.tiers.push(done);
        Ok((run, solution))
    }

    /// Checks `db` as tier `root`'s database without trusting it: the
    /// tiers below solved (or taken from the directory), `root` explored
    /// again, every position's value read from `db` under its number, and
    /// the whole checked with the certificate of every solve
    /// ([`verify`](crate::verify())), keeping `keep` violations.
    ///
    /// # Errors
    /// As [`TierSolver::solve`]; a position `db` does not hold
    /// ([`TierError::NotHeld`]); a damaged database.
    pub fn check_root<G: TieredGame>(
        &self,
        game: &G,
        root: &G::Tier,
        db: &Database,
        keep: usize,
    ) -> Result<crate::db::Checked, TierError> {
        // The tiers below solved first, unless every child is listed in
        // the directory already: then those are taken as they are (each
        // block checked as it is read), and the ones further down, which the
        // check does not read, are not opened again.
        let listed = self.manifest()?;
        let children_listed = game
            .child_tiers(root)
            .iter()
            .all(|c| listed.tier(&game.tier_name(c)).is_some());
        if !children_listed {
            let plan = plan(game, std::slice::from_ref(root))?;
            self.solve(game, &plan.children_of_root())?;
        }
        let name = game.tier_name(root);
        if let Some(numbers) = game.tier_numbers(root) {
            let view = DenseTier::new(game, root.clone(), numbers, self.children(game, root)?)?;
            self.progress.begin("verify", 0);
            let checked = super::dense::check_database(&view, db, keep);
            self.progress.end();
            return checked;
        }
        let view = TierView::new(game, root.clone(), self.children(game, root)?);
        let solve_error = |source| TierError::Solve {
            tier: name.clone(),
            source,
        };
        let explored = self.explorer().explore(view).map_err(solve_error)?;
        if let Some(fault) = explored.game().take_fault() {
            return Err(fault);
        }
        let n = explored.len() as u32;
        self.progress.begin("read", 0);
        let values: Result<Vec<Option<crate::Value>>, TierError> = (0..n)
            .into_par_iter()
            .map(|i| match explored.position(i) {
                Some(Slot::In(p)) => {
                    let held = |position: String| TierError::NotHeld {
                        tier: name.clone(),
                        position,
                    };
                    let code = super::key_of(game, &p).ok_or_else(|| held(game.notation(&p)))?;
                    db.value(code)?
                        .map(Some)
                        .ok_or_else(|| held(game.notation(&p)))
                }
                Some(Slot::Out(o, r)) => Ok(Some(crate::Value::new(
                    o,
                    (o != crate::Outcome::Draw).then_some(r),
                ))),
                None => Ok(None),
            })
            .collect();
        self.progress.end();
        let values = values?;
        let positions = values.len() as u64 - stand_ins(&explored).len() as u64;
        if positions != db.len() {
            return Err(TierError::Foreign {
                path: db.path().to_path_buf(),
                why: format!(
                    "{} records, but tier {name} has {positions} positions",
                    db.len()
                ),
            });
        }
        let values = crate::solve::Values::from_values(&values);
        let rules = explored.rules();
        let solved = crate::Solved::new(&explored, rules.clone(), values)
            .map_err(|e| solve_error(e.into()))?;
        self.progress.begin("verify", 0);
        let report = crate::verify(&explored, &rules, &solved, keep);
        self.progress.end();
        let report = report.map_err(|e| solve_error(e.into()))?;
        Ok(crate::db::Checked {
            positions,
            moves: Some(explored.move_count()),
            report,
        })
    }

    /// An explorer within the memory limit, reporting to the progress.
    fn explorer(&self) -> Explorer<'p> {
        let explorer = Explorer::new().progress(self.progress);
        match self.memory_limit {
            Some(limit) => explorer.memory_limit(limit),
            None => explorer,
        }
    }

    /// The databases of `tier`'s children, from the directory.
    fn children<G: TieredGame>(
        &self,
        game: &G,
        tier: &G::Tier,
    ) -> Result<Vec<Child<G::Tier>>, TierError> {
        let mut children = Vec::new();
        for child in game.child_tiers(tier) {
            let name = game.tier_name(&child);
            let db = open_tier(&self.dir.join(file_name(&name)), &self.meta, &name)?;
            if let Some(numbers) = game.tier_numbers(&child) {
                super::dense::keeps_numbers(&db, &name, &numbers)?;
            }
            children.push(Child {
                tier: child,
                name,
                db,
            });
        }
        Ok(children)
    }

    pub(super) fn tell(&self, done: &TierDone) {
        if let Some(f) = self.on_tier {
            f(done);
        }
    }

    /// The directory's manifest (a new one if it has none), refused if it
    /// is another game's.
    pub(super) fn manifest(&self) -> Result<Manifest, TierError> {
        if self.dir.exists() && !self.dir.is_dir() {
            return Err(TierError::Manifest {
                path: self.dir.clone(),
                why: "not a directory (tiers are kept in a directory, created if need be)".into(),
            });
        }
        std::fs::create_dir_all(&self.dir).map_err(|e| crate::Error::io(&self.dir, e))?;
        self.hold()?;
        match Manifest::read(&self.dir)? {
            None => Ok(Manifest::new(self.meta.clone())),
            Some(m) if m.game == self.meta => Ok(m),
            Some(m) => Err(TierError::Manifest {
                path: self.dir.join(super::MANIFEST),
                why: format!(
                    "the tiers of {}, not of {}: use another directory",
                    described(&m.game),
                    described(&self.meta)
                ),
            }),
        }
    }

    /// Takes the directory's lock for this solver's lifetime (once): one
    /// run at a time writes a directory. Then clears the temporary files an
    /// earlier run stopped without the chance to remove (a tier half
    /// written, or half received from another process). A directory that
    /// cannot be written is read without a lock.
    ///
    /// # Errors
    /// Another run holds the lock ([`TierError::Busy`]).
    fn hold(&self) -> Result<(), TierError> {
        if self.lock.get().is_some() {
            return Ok(());
        }
        let path = self.dir.join(LOCK);
        let file = match std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
        {
            Ok(f) => f,
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::ReadOnlyFilesystem | std::io::ErrorKind::PermissionDenied
                ) =>
            {
                let _ = self.lock.set(None);
                return Ok(());
            }
            Err(e) => return Err(crate::Error::io(&path, e).into()),
        };
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(TierError::Busy {
                    dir: self.dir.clone(),
                });
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(crate::Error::io(&path, e).into()),
        }
        if let Ok(entries) = std::fs::read_dir(&self.dir) {
            for e in entries.flatten() {
                let name = e.file_name();
                if name.to_str().is_some_and(crate::io::is_temporary_name) {
                    let _ = std::fs::remove_file(e.path());
                }
            }
        }
        let _ = self.lock.set(Some(file));
        Ok(())
    }

    /// The tier as an earlier run left it, if it is listed, whole and
    /// unchanged; a listed tier that is not is struck from the manifest.
    pub(super) fn resume<G: TieredGame>(
        &self,
        game: &G,
        tier: &G::Tier,
        manifest: &mut Manifest,
    ) -> Result<Option<TierDone>, TierError> {
        let name = game.tier_name(tier);
        let Some(listed) = manifest.tier(&name).cloned() else {
            return Ok(None);
        };
        let started = Instant::now();
        match open_listed(&self.dir, &self.meta, &listed)? {
            Some(db) => {
                if let Some(numbers) = game.tier_numbers(tier) {
                    super::dense::keeps_numbers(&db, &name, &numbers)?;
                }
                db.check()?;
                // What is told is read from the database just checked; a
                // database whose figures are not the manifest's is not taken.
                let h = db.header();
                if (h.positions, h.longest) != (listed.positions, listed.longest) {
                    return Ok(None);
                }
                let done = TierDone {
                    name,
                    positions: h.positions,
                    moves: None,
                    longest: h.longest,
                    seconds: started.elapsed().as_secs_f64(),
                    resumed: true,
                    received_from: None,
                };
                self.tell(&done);
                Ok(Some(done))
            }
            // Solved again, and listed again in its place.
            None => Ok(None),
        }
    }

    /// Solves one tier, its children's databases probed: on the dense
    /// rung by the lean engine, else explored.
    fn solve_one<'g, G: TieredGame>(
        &self,
        game: &'g G,
        tier: &G::Tier,
    ) -> Result<TierSolution<'g, G>, TierError> {
        let name = game.tier_name(tier);
        let children = self.children(game, tier)?;
        if let Some(numbers) = game.tier_numbers(tier) {
            if self.check_unmoves {
                let check = super::check_unmoves(game, tier, 5)?;
                if !check.is_ok() {
                    return Err(TierError::Unmoves {
                        tier: name,
                        check: Box::new(check),
                    });
                }
            }
            self.memory_check(game, tier, &numbers)?;
            let view = DenseTier::new(game, tier.clone(), numbers, children)?;
            let solution = DenseSolution::solve(view, self.progress)?;
            return Ok(TierSolution(Inner::Dense(Box::new(solution))));
        }
        let view = TierView::new(game, tier.clone(), children);
        let solution = self
            .explorer()
            .solve(view)
            .map_err(|source| TierError::Solve {
                tier: name.clone(),
                source,
            })?;
        if let Some(fault) = solution.game().take_fault() {
            return Err(fault);
        }
        Ok(TierSolution::explored(solution))
    }

    /// Refuses a tier on the dense rung whose solve would pass the memory
    /// limit: its numbers at [`DENSE_BYTES_PER_NUMBER`] each.
    fn memory_check<G: TieredGame>(
        &self,
        game: &G,
        tier: &G::Tier,
        numbers: &std::ops::Range<u64>,
    ) -> Result<(), TierError> {
        let Some(limit) = self.memory_limit else {
            return Ok(());
        };
        let needed = (numbers.end - numbers.start).saturating_mul(DENSE_BYTES_PER_NUMBER);
        if needed > limit {
            return Err(TierError::Solve {
                tier: game.tier_name(tier),
                source: crate::Error::OverMemory {
                    what: format!(
                        "solving tier {} on the dense rung ({} numbers)",
                        game.tier_name(tier),
                        numbers.end - numbers.start
                    ),
                    needed,
                    limit,
                },
            });
        }
        Ok(())
    }

    /// Explores, solves and keeps `tier` (its database written and listed
    /// in the manifest, its tiers in `order`), and tells of it.
    pub(super) fn solve_kept<'g, G: TieredGame>(
        &self,
        game: &'g G,
        tier: &G::Tier,
        manifest: &std::sync::Mutex<Manifest>,
        order: &[String],
    ) -> Result<(TierSolution<'g, G>, TierDone), TierError> {
        let started = Instant::now();
        let solution = self.solve_one(game, tier)?;
        // Asked to stop while the tier was solved (the caller's game may
        // have failed, giving no moves from then on): nothing is kept, so
        // that the next run solves the tier again.
        if self.progress.stop() {
            return Err(TierError::Stopped {
                tier: game.tier_name(tier),
            });
        }
        let done = self.keep(&solution, manifest, order, started)?;
        self.tell(&done);
        Ok((solution, done))
    }

    /// Writes a solved tier's database and lists it in the manifest.
    fn keep<G: TieredGame>(
        &self,
        solution: &TierSolution<'_, G>,
        manifest: &std::sync::Mutex<Manifest>,
        order: &[String],
        started: Instant,
    ) -> Result<TierDone, TierError> {
        let name = solution.name().to_string();
        let file = file_name(&name);
        let path = self.dir.join(&file);
        let dense = matches!(solution.0, Inner::Dense(_));
        let compression = self.compression.unwrap_or(if dense {
            Compression::Zstd
        } else {
            Compression::None
        });
        let writer = Writer::new(tier_meta(&self.meta, &name)).compression(compression);
        match &solution.0 {
            Inner::Explored { solution, .. } => {
                let answers = solution.solved();
                writer.write_keyed(
                    &path,
                    answers.len() as u32,
                    |i| TierSolution::key_of(solution, i),
                    |i| answers.value(i),
                )?;
            }
            Inner::Dense(d) => {
                let view = d.view();
                let values = d.solved.values();
                writer.first_key(view.first()).write(
                    &path,
                    &crate::db::Source {
                        records: u64::from(view.len()),
                        value: |r: u64| values.value(r as u32),
                        keys: None,
                        moves: None,
                        names: None,
                        grundy: None,
                        owners: None,
                    },
                )?;
            }
        }
        let (bytes, xxh3) = fingerprint(&path)?;
        let header = Database::open(&path)?.header().clone();
        let longest = header.longest;
        let listed = ManifestTier {
            name: name.clone(),
            file,
            positions: header.positions,
            longest,
            bytes,
            xxh3,
        };
        self.list(manifest, listed, order)?;
        Ok(TierDone {
            name,
            positions: header.positions,
            moves: solution.move_count(),
            longest,
            seconds: started.elapsed().as_secs_f64(),
            resumed: false,
            received_from: None,
        })
    }

    /// Lists `listed` in the manifest (in place of an earlier entry of its
    /// name) and writes the manifest, its tiers in `order`.
    pub(super) fn list(
        &self,
        manifest: &std::sync::Mutex<Manifest>,
        listed: ManifestTier,
        order: &[String],
    ) -> Result<(), TierError> {
        let mut manifest = manifest.lock().unwrap_or_else(|e| e.into_inner());
        match manifest.tiers.iter_mut().find(|t| t.name == listed.name) {
            Some(t) => *t = listed,
            None => manifest.tiers.push(listed),
        }
        // In the plan's order, whatever order concurrent tiers finish in:
        // the same run writes the same manifest.
        let rank = |n: &str| order.iter().position(|o| o == n).unwrap_or(usize::MAX);
        manifest.tiers.sort_by_key(|t| rank(&t.name));
        manifest.write(&self.dir)
    }

    /// How many tiers may be solved at once.
    pub(super) fn concurrent_tiers(&self) -> usize {
        self.concurrent.max(1)
    }

    /// The game of the directory, as its manifest names it.
    pub(super) fn meta_of_directory(&self) -> &Meta {
        &self.meta
    }
}
