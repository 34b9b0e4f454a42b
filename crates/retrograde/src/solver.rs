//! [`Solver`]: one front door to the engines. It is told the engine (or
//! left to choose), the threads, a memory limit, the rules and where to
//! report progress, in the style of [`Explorer`]; it
//! solves a graph ([`Solver::solve`]), a numbered game on the dense rung
//! ([`Solver::solve_game`]) or a game from its rules
//! ([`Solver::solve_states`]), and says which engine it runs and why
//! ([`Solver::choose`]).

use std::fmt;

use crate::error::{Error, SolveError};
use crate::explore::{Explorer, StateGame, StateSolution};
use crate::game::{AsGraph, Game};
use crate::graph::MAX_VERTICES;
use crate::memory;
use crate::solve::lean::{Walk, solve_lean_walking};
use crate::solve::{
    LEAN_BYTES_PER_POSITION, NoProgress, PARALLEL_BYTES_PER_POSITION, Progress,
    SEQUENTIAL_BYTES_PER_POSITION, Solution, Solved, Values, fits_parallel,
};
use crate::{GameGraph, Rules, Successors};

/// An engine of this crate (the timely engine, across processes, is the
/// `retrograde-timely` crate's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Engine {
    /// Chosen by [`Solver::choose`] from the threads, the memory limit and
    /// what the game gives.
    #[default]
    Auto,
    /// The FIFO engine on one thread ([`solve`](crate::solve::solve())): every best
    /// move stored, 17 bytes a position.
    Sequential,
    /// Level by level on every thread ([`solve_parallel`](crate::solve::solve_parallel)):
    /// every best move stored, 17 bytes a position.
    Parallel,
    /// The lean engine ([`solve_lean`](crate::solve::solve_lean)): 4 bytes a
    /// position, best moves found again from the moves when asked.
    Lean,
}

impl Engine {
    /// Its name: `auto`, `sequential`, `parallel`, `lean`.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Auto => "auto",
            Engine::Sequential => "sequential",
            Engine::Parallel => "parallel",
            Engine::Lean => "lean",
        }
    }

    /// Bytes a position its state takes beyond the graph (0 for `Auto`).
    pub fn bytes_per_position(self) -> u64 {
        match self {
            Engine::Auto => 0,
            Engine::Sequential => SEQUENTIAL_BYTES_PER_POSITION,
            Engine::Parallel => PARALLEL_BYTES_PER_POSITION,
            Engine::Lean => LEAN_BYTES_PER_POSITION,
        }
    }
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why [`Solver::choose`] picked its engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Reason {
    /// It was asked for.
    Asked,
    /// Left to choose with more than one thread: the parallel engine.
    Threads,
    /// Left to choose with one thread: the sequential engine.
    OneThread,
    /// The parallel engine was asked for or would have been chosen, but it
    /// takes at most 2^31 positions: the sequential engine.
    TooManyForParallel,
    /// The engines that store best moves would pass the memory limit: the
    /// lean engine.
    MemoryLimit,
    /// The game numbers its positions (the dense rung, or explored by key,
    /// where ids follow the game's numbers and the lean engine's walk stays
    /// in the cache): the lean engine, measured the fastest there.
    Numbered,
}

impl Reason {
    /// In words, for a summary.
    pub fn describe(self) -> &'static str {
        match self {
            Reason::Asked => "asked for",
            Reason::Threads => "more than one thread",
            Reason::OneThread => "one thread",
            Reason::TooManyForParallel => "more positions than the parallel engine takes",
            Reason::MemoryLimit => "the other engines would pass the memory limit",
            Reason::Numbered => "the game numbers its positions",
        }
    }
}

/// What [`Solver::choose`] decided: the engine that runs (never
/// [`Engine::Auto`]), on how many threads, the memory its state takes and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The engine.
    pub engine: Engine,
    /// Threads it runs on (1 for the sequential engine).
    pub threads: usize,
    /// Bytes its state takes beyond the graph.
    pub bytes: u64,
    /// Why.
    pub reason: Reason,
}

impl fmt::Display for Choice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = if self.threads == 1 { "" } else { "s" };
        write!(
            f,
            "{} engine on {} thread{s} ({})",
            self.engine,
            self.threads,
            self.reason.describe()
        )
    }
}

/// How to solve: the engine (or [`Engine::Auto`]), threads, a memory limit,
/// the rules and where to report progress. Every answer is the same
/// whichever engine runs: the engines are checked against one another and
/// against [`solve_reference`](crate::solve::reference::solve_reference).
///
/// ```
/// use retrograde::solver::{Engine, Reason};
/// use retrograde::{Answers, Csr, Outcome, Solver};
///
/// // With its successors, so that the lean engine can find best moves again.
/// let g = Csr::from_edges(5, &[(0, 1), (1, 2), (3, 4), (4, 3), (3, 0)]).with_successors();
/// let solver = Solver::new().threads(2);
/// let choice = solver.choose(g.vertex_count()).unwrap();
/// assert_eq!((choice.engine, choice.reason), (Engine::Parallel, Reason::Threads));
///
/// let s = solver.solve(&g).unwrap();
/// assert_eq!(s.outcome(3), Outcome::Win);
/// assert_eq!(s.best_move(3), Some(0));
///
/// // The lean engine: the same answers in 4 bytes a position.
/// let lean = Solver::new().engine(Engine::Lean).solve(&g).unwrap();
/// assert_eq!(lean.into_solution(), s.into_solution());
///
/// // A graph with its predecessors alone: every best move stored.
/// let g = Csr::from_edges(5, &[(0, 1), (1, 2), (3, 4), (4, 3), (3, 0)]);
/// let stored = Solver::new().solve_stored(&g).unwrap();
/// assert_eq!(stored.best_move(3), Some(0));
/// # use retrograde::GameGraph;
/// ```
#[derive(Clone)]
pub struct Solver<'p> {
    engine: Engine,
    threads: Option<usize>,
    max_memory: Option<u64>,
    rules: Rules,
    progress: &'p dyn Progress,
}

impl fmt::Debug for Solver<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Solver")
            .field("engine", &self.engine)
            .field("threads", &self.threads)
            .field("max_memory", &self.max_memory)
            .field("rules", &self.rules)
            .finish_non_exhaustive()
    }
}

impl Default for Solver<'static> {
    fn default() -> Self {
        Solver::new()
    }
}

impl Solver<'static> {
    /// The engine chosen, every thread of the current rayon pool, the
    /// machine's memory as the limit ([`memory::machine_limit`]), the
    /// normal rules ([`Rules::normal`]), no progress reports.
    pub fn new() -> Solver<'static> {
        Solver {
            engine: Engine::Auto,
            threads: None,
            max_memory: None,
            rules: Rules::normal(),
            progress: &NoProgress,
        }
    }
}

impl<'p> Solver<'p> {
    /// Runs `engine` ([`Engine::Auto`]: chosen, see [`Solver::choose`]).
    pub fn engine(self, engine: Engine) -> Solver<'p> {
        Solver { engine, ..self }
    }

    /// Runs on `threads` threads (a pool of its own; at least 1) instead
    /// of the current rayon pool.
    pub fn threads(self, threads: usize) -> Solver<'p> {
        Solver {
            threads: Some(threads.max(1)),
            ..self
        }
    }

    /// Refuses, before allocating, a solve whose state (and, for
    /// [`Solver::solve_states`], exploration) would need more than `bytes`;
    /// [`Engine::Auto`] turns to the lean engine where the others would not
    /// fit. Never more than the address space left ([`memory::memory_limit`]).
    pub fn max_memory(self, bytes: u64) -> Solver<'p> {
        Solver {
            max_memory: Some(bytes),
            ..self
        }
    }

    /// Solves under `rules` (for [`Solver::solve_states`], the game's own
    /// terminal values take the place of their labels).
    pub fn rules(self, rules: Rules) -> Solver<'p> {
        Solver { rules, ..self }
    }

    /// Reports progress to `progress` (and stops when it asks,
    /// [`Progress::stop`]).
    pub fn progress<'q>(self, progress: &'q dyn Progress) -> Solver<'q> {
        Solver {
            engine: self.engine,
            threads: self.threads,
            max_memory: self.max_memory,
            rules: self.rules,
            progress,
        }
    }

    /// The threads a solve runs on.
    pub fn thread_count(&self) -> usize {
        self.threads.unwrap_or_else(rayon::current_num_threads)
    }

    /// The memory limit in bytes.
    pub fn memory_limit(&self) -> u64 {
        memory::memory_limit(self.max_memory)
    }

    /// The engine that solves a graph of `positions` positions, on how
    /// many threads, and why. Left to choose ([`Engine::Auto`]): the
    /// parallel engine on more than one thread, else the sequential one;
    /// the sequential one where the parallel one cannot take so many
    /// positions; the lean one where neither fits the memory limit. An
    /// engine asked for runs as asked, except the parallel one past its
    /// size, which gives way to the sequential one.
    ///
    /// # Errors
    /// [`SolveError::TooManyPositions`] past `u32` ids;
    /// [`SolveError::OverMemory`] if the engine's state (the lean one's,
    /// when left to choose) would pass the memory limit.
    pub fn choose(&self, positions: usize) -> Result<Choice, SolveError> {
        self.choose_holding(positions, 0, Gives::Successors)
    }

    /// [`Solver::choose`] for a graph that `gives` what it gives, beside
    /// which `held` bytes are already counted against the limit.
    fn choose_holding(
        &self,
        positions: usize,
        held: u64,
        gives: Gives,
    ) -> Result<Choice, SolveError> {
        if gives == Gives::Predecessors && self.engine == Engine::Lean {
            return Err(SolveError::LeanNeedsSuccessors);
        }
        if positions > MAX_VERTICES {
            return Err(SolveError::TooManyPositions {
                positions: positions as u64,
            });
        }
        let threads = self.thread_count();
        let limit = self.memory_limit();
        let needs = |e: Engine| held.saturating_add((positions as u64) * e.bytes_per_position());
        let fits = |e: Engine| needs(e) <= limit;
        let (engine, reason) = match self.engine {
            Engine::Auto if gives == Gives::Numbers => (Engine::Lean, Reason::Numbered),
            Engine::Auto | Engine::Parallel if !fits_parallel(positions) => {
                (Engine::Sequential, Reason::TooManyForParallel)
            }
            Engine::Auto if !fits(Engine::Parallel) => (Engine::Lean, Reason::MemoryLimit),
            Engine::Auto if threads > 1 => (Engine::Parallel, Reason::Threads),
            Engine::Auto => (Engine::Sequential, Reason::OneThread),
            asked => (asked, Reason::Asked),
        };
        let (engine, reason) = match (engine, reason) {
            (Engine::Sequential, Reason::TooManyForParallel)
                if !fits(engine) && gives != Gives::Predecessors =>
            {
                (Engine::Lean, Reason::MemoryLimit)
            }
            (Engine::Lean, Reason::MemoryLimit) if gives == Gives::Predecessors => {
                (Engine::Sequential, Reason::MemoryLimit)
            }
            chosen => chosen,
        };
        if !fits(engine) {
            return Err(SolveError::OverMemory {
                engine: engine.name(),
                positions: positions as u64,
                needed: needs(engine),
                limit,
            });
        }
        Ok(Choice {
            engine,
            threads: if engine == Engine::Sequential {
                1
            } else {
                threads
            },
            bytes: needs(engine) - held,
            reason,
        })
    }

    /// Runs `work` on the threads asked for.
    fn on_threads<T: Send>(&self, work: impl FnOnce() -> T + Send) -> Result<T, SolveError> {
        match self.threads {
            Some(n) if n != rayon::current_num_threads() => {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .build()
                    .map_err(|_| SolveError::Threads { threads: n })?;
                Ok(pool.install(work))
            }
            _ => Ok(work()),
        }
    }

    /// Strongly solves `graph` with the engine [`Solver::choose`] picks.
    /// The result answers everything: best moves stored (sequential and
    /// parallel engines) or found again from the moves (lean engine).
    ///
    /// # Complexity
    /// Time **O(V + E)**; memory: the chosen engine's state,
    /// [`Choice::bytes`].
    ///
    /// # Errors
    /// Those of [`Solver::choose`]; [`SolveError::LabelOutOfRange`] if a
    /// label of the rules names no position; [`SolveError::Stopped`] if the
    /// progress asked to stop; [`SolveError::Threads`] if the threads could
    /// not be started.
    pub fn solve<G: GameGraph + Successors + Sync>(
        &self,
        graph: G,
    ) -> Result<Solved<G>, SolveError> {
        let choice = self.choose(graph.vertex_count())?;
        let parts = self.on_threads(|| self.run(&graph, choice.engine, Walk::OneThread))??;
        Solved::new(graph, self.rules.clone(), parts)
    }

    /// Strongly solves a graph that gives only its predecessors (a [`Csr`](crate::Csr)
    /// as read or built, without [`Csr::with_successors`](crate::Csr::with_successors)),
    /// every best move stored: with the sequential or the parallel engine,
    /// as [`Solver::choose`] picks them (never the lean engine, which
    /// finds best moves again from the successors).
    ///
    /// # Errors
    /// As [`Solver::solve`]; [`SolveError::LeanNeedsSuccessors`] if the lean
    /// engine was asked for.
    pub fn solve_stored<G: GameGraph + Sync + ?Sized>(
        &self,
        graph: &G,
    ) -> Result<Solution, SolveError> {
        let choice = self.choose_holding(graph.vertex_count(), 0, Gives::Predecessors)?;
        let (rules, progress) = (&self.rules, self.progress);
        self.on_threads(|| match choice.engine {
            Engine::Parallel => crate::solve::solve_parallel_with_progress(graph, rules, progress),
            _ => crate::solve::solve_with_progress(graph, rules, progress),
        })?
    }

    /// [`Solver::choose`] for [`Solver::solve_stored`]: never the lean engine.
    ///
    /// # Errors
    /// As [`Solver::choose`]; [`SolveError::LeanNeedsSuccessors`] if the
    /// lean engine was asked for.
    pub fn choose_stored(&self, positions: usize) -> Result<Choice, SolveError> {
        self.choose_holding(positions, 0, Gives::Predecessors)
    }

    /// Strongly solves a game on the dense rung (numbered positions with
    /// un-moves) without storing any move: the lean engine on
    /// [`AsGraph`], the reverse moves generated on every thread while one
    /// applies them. Best moves, moves and lines are computed on demand.
    ///
    /// # Complexity
    /// Time **O(V + E)**. Memory: 3 bytes a position (5 if best play lasts
    /// 65,535 plies or more) plus 4 a position of the two largest
    /// consecutive remoteness levels.
    ///
    /// # Errors
    /// As [`Solver::solve`]; an engine other than the lean one is refused
    /// ([`SolveError::EngineNotForGame`]): the dense rung stores no move to
    /// run them on.
    pub fn solve_game<'g, G: Game + Sync + ?Sized>(
        &self,
        game: &'g G,
    ) -> Result<Solved<AsGraph<&'g G>>, SolveError> {
        let n = game.position_count();
        if !matches!(self.engine, Engine::Auto | Engine::Lean) {
            return Err(SolveError::EngineNotForGame {
                engine: self.engine.name(),
            });
        }
        self.choose_holding(n, 0, Gives::Numbers)?;
        let graph = game.as_graph();
        let values = self.on_threads(|| {
            // Generating reverse moves costs: on more than one thread,
            // generate them on all while one applies them.
            let walk = if rayon::current_num_threads() > 1 {
                Walk::Batched
            } else {
                Walk::OneThread
            };
            solve_lean_walking(&graph, &self.rules, self.progress, walk)
        })??;
        Solved::new(graph, self.rules.clone(), values)
    }

    /// Explores a game from its rules ([`Explorer`], under the same memory
    /// limit and progress) and solves it: by key, with the lean engine
    /// (ids follow the game's numbers); by hash, with the engine
    /// [`Solver::choose`] picks, the exploration's memory counted. The
    /// game's terminal values are its labels ([`Explored::rules`](crate::explore::Explored::rules)).
    ///
    /// # Errors
    /// Those of [`Explorer::explore`] and [`Solver::solve`].
    pub fn solve_states<G: StateGame + Send>(&self, game: G) -> Result<StateSolution<G>, Error> {
        let explorer = Explorer::new()
            .memory_limit(self.memory_limit())
            .progress(self.progress);
        self.on_threads(|| self.solve_explored_with(&explorer, game))?
    }

    /// Explores `game` with `explorer` and solves it, reserving the lean
    /// engine's state while exploring.
    pub(crate) fn solve_explored_with<G: StateGame>(
        &self,
        explorer: &Explorer<'_>,
        game: G,
    ) -> Result<StateSolution<G>, Error> {
        let explored = explorer.explore_reserving(game, LEAN_BYTES_PER_POSITION)?;
        let held = explored
            .bytes()
            .saturating_add(explorer.reserved(explored.len()));
        let gives = if explored.numbered_by_key() {
            Gives::Numbers
        } else {
            Gives::Successors
        };
        let choice = self.choose_holding(explored.len(), held, gives)?;
        let rules = explored.rules();
        let solver = self.clone().rules(rules);
        let parts = solver.run(&explored, choice.engine, Walk::OneThread)?;
        StateSolution::new(explored, parts)
    }

    /// Runs `engine` on `graph` under this solver's rules and progress.
    fn run<G: GameGraph + Sync + ?Sized>(
        &self,
        graph: &G,
        engine: Engine,
        walk: Walk,
    ) -> Result<Parts, SolveError> {
        let (rules, progress) = (&self.rules, self.progress);
        Ok(match engine {
            Engine::Parallel => Parts::Full(crate::solve::solve_parallel_with_progress(
                graph, rules, progress,
            )?),
            Engine::Lean => Parts::Values(solve_lean_walking(graph, rules, progress, walk)?),
            Engine::Sequential | Engine::Auto => {
                Parts::Full(crate::solve::solve_with_progress(graph, rules, progress)?)
            }
        })
    }
}

/// What a graph gives the solver beyond its predecessors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Gives {
    /// Nothing more: only engines that store best moves can answer them.
    Predecessors,
    /// Its successors: best moves can be found again.
    Successors,
    /// Positions numbered by the game: the lean engine walks them in order.
    Numbers,
}

/// What an engine returned: values with every best move, or values alone.
pub(crate) enum Parts {
    Full(Solution),
    Values(Values),
}

impl crate::solve::IntoParts for Parts {
    fn into_parts(self) -> (Values, Option<Vec<u32>>) {
        match self {
            Parts::Full(s) => s.into_parts(),
            Parts::Values(v) => v.into_parts(),
        }
    }
}

/// Strongly solves `game` without storing any edge.
///
/// The lean engine ([`solve_lean`](crate::solve::solve_lean)) on [`AsGraph`]: the same outcomes and
/// remoteness as [`solve`](crate::solve()) on the [`materialise`](crate::game::materialise)d graph.
/// The result holds the game and the rules, so it answers best moves, moves
/// and lines too, computed on demand from the game's moves by the same rule.
///
/// # Complexity
/// Time **O(V + E)**: the out-degree of every position once, the reverse
/// moves of every decided position once. Memory: 3 bytes per position (5 if
/// best play lasts 65535 plies or more) plus 4 per position of the two largest
/// consecutive remoteness levels (plus 4 per position if some position has
/// more than 250 moves).
///
/// # Errors
/// If a terminal label of `rules` names a position outside the game, or the
/// game has more positions than `u32` ids allow.
pub fn solve_game<'g, G: Game + Sync + ?Sized>(
    game: &'g G,
    rules: &Rules,
) -> Result<Solved<AsGraph<&'g G>>, SolveError> {
    crate::Solver::new().rules(rules.clone()).solve_game(game)
}

/// Explores and solves `game` (see [`Explorer::solve`]).
///
/// # Errors
/// See [`Explorer::explore`].
pub fn solve_states<G: StateGame>(game: G) -> Result<StateSolution<G>, Error> {
    Explorer::new().solve(game)
}

// `Explorer::solve` lives beside the solver it hands the exploration to, so
// that exploring needs nothing of solving.
impl Explorer<'_> {
    /// Explores `game` and solves it with the lean engine (4 bytes a
    /// position; best moves found again on demand, by the same rule) when
    /// explored by key, where ids follow the game's numbers and the lean
    /// engine's walk stays in the cache (measured faster than the parallel
    /// engine there, BENCHMARKS.md); explored by hash, with the parallel
    /// engine on the current rayon pool (every best move stored; the
    /// sequential engine on one thread) where its 17 bytes a position fit
    /// the memory limit, else the lean engine.
    ///
    /// # Errors
    /// See [`Explorer::explore`].
    pub fn solve<G: StateGame>(&self, game: G) -> Result<StateSolution<G>, Error> {
        crate::Solver::new()
            .max_memory(self.memory_limit.unwrap_or(u64::MAX))
            .progress(self.progress)
            .solve_explored_with(self, game)
    }
}
