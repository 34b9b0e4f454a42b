//! `retrograde._retrograde`: the native part of the `retrograde` Python
//! package. Two ways in, both ending in one [`Solved`]:
//!
//! - [`solve_edges`]: a graph as two numpy arrays of move sources and
//!   targets, read in place (never copied) into the solver's own graph;
//! - [`explore`]: a game written in Python (`starts()`, `moves(p)`, and
//!   optionally `terminal(p)` and `canonical(p)`), its positions numbered
//!   in the order first met, Python called once a position.
//!
//! and a third that ends in a directory: [`solve_tiers`], a tiered game
//! written in Python solved by the library's tier solver, each tier a
//! database ([`TieredSolved`] reads them back).
//!
//! The answers go back as numpy arrays (outcome codes, remoteness, best
//! move), never as a Python object a position; the Python side
//! (`retrograde/__init__.py`) adds names and positions.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::OnceLock;

use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1, PyUntypedArrayMethods};
use pyo3::exceptions::{PyKeyError, PyMemoryError, PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList};

use std::sync::Arc;

use retrograde::db::{Compression, Database, Meta, Source, Writer};
use retrograde::graph::Arena;
use retrograde::io::names::Names;
use retrograde::play::{Playable, Probe, ProbeError, StoredGraph};

use retrograde::solver::{Choice, Engine};
use retrograde::{
    Answers, Csr, CsrBuilder, EdgeSource, GameGraph, Graph, Labels, NoMoveRule, Outcome, Player,
    Rules, Solution, SolveError, Solved as Answered, Solver, Successors,
};

/// The outcome codes: what [`Outcome`] is as a byte.
const WIN: u8 = Outcome::Win as u8;
const LOSE: u8 = Outcome::Lose as u8;
const TIE: u8 = Outcome::Tie as u8;
const DRAW: u8 = Outcome::Draw as u8;

/// An outcome from its code or its name.
fn outcome(v: &Bound<'_, PyAny>) -> PyResult<Outcome> {
    if v.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "expected an outcome ('win', 'lose', 'tie', 'draw' or a code), got {}",
            v.repr().map_or_else(|_| "?".into(), |r| r.to_string())
        )));
    }
    if let Ok(code) = v.extract::<u8>() {
        return match code {
            WIN => Ok(Outcome::Win),
            LOSE => Ok(Outcome::Lose),
            TIE => Ok(Outcome::Tie),
            DRAW => Ok(Outcome::Draw),
            _ => Err(PyValueError::new_err(format!(
                "{code} is no outcome code (expected WIN={WIN}, LOSE={LOSE}, TIE={TIE} or DRAW={DRAW})"
            ))),
        };
    }
    let name: String = v.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "expected an outcome ('win', 'lose', 'tie', 'draw' or a code), got {}",
            v.repr().map_or_else(|_| "?".into(), |r| r.to_string())
        ))
    })?;
    match name.to_ascii_lowercase().as_str() {
        "win" => Ok(Outcome::Win),
        "lose" | "loss" => Ok(Outcome::Lose),
        "tie" => Ok(Outcome::Tie),
        "draw" => Ok(Outcome::Draw),
        _ => Err(PyValueError::new_err(format!(
            "{name:?} is no outcome (expected 'win', 'lose', 'tie' or 'draw')"
        ))),
    }
}

fn outcome_name(o: Outcome) -> &'static str {
    match o {
        Outcome::Win => "win",
        Outcome::Lose => "lose",
        Outcome::Tie => "tie",
        Outcome::Draw => "draw",
    }
}

/// What a solve needs besides the graph: the solver's state a position
/// (the larger of the two engines'), and the forward adjacency `moves()`
/// builds, a move.
const SOLVE_BYTES_PER_POSITION: u64 = 32;
const SOLVE_BYTES_PER_MOVE: u64 = 8;

fn no_move_rule(name: &str) -> PyResult<NoMoveRule> {
    match name {
        "lose" => Ok(NoMoveRule::Lose),
        "win" => Ok(NoMoveRule::Win),
        _ => Err(PyValueError::new_err(format!(
            "no_move={name:?}: expected 'lose' (normal play) or 'win' (misère)"
        ))),
    }
}

/// Moves from two arrays, read in place in chunks.
struct Arrays<'a, T> {
    sources: &'a [T],
    targets: &'a [T],
}

const CHUNK: usize = 1 << 20;

impl<T: Id> EdgeSource for Arrays<'_, T> {
    fn chunk_count(&self) -> usize {
        self.sources.len().div_ceil(CHUNK).max(1)
    }

    fn for_each_edge_in<F: FnMut(u32, u32)>(
        &self,
        chunk: usize,
        mut f: F,
    ) -> retrograde::Result<()> {
        let lo = (chunk * CHUNK).min(self.sources.len());
        let hi = (lo + CHUNK).min(self.sources.len());
        for (&u, &v) in self.sources[lo..hi].iter().zip(&self.targets[lo..hi]) {
            // Checked beforehand ([`Id::first_bad`]): every id fits.
            f(u.id(), v.id());
        }
        Ok(())
    }
}

/// Moves as successor lists: position `u`'s moves go to
/// `targets[starts[u]..starts[u + 1]]`; read a chunk of positions at a time.
struct Lists {
    starts: Vec<u32>,
    targets: Vec<u32>,
}

impl EdgeSource for Lists {
    fn chunk_count(&self) -> usize {
        (self.starts.len() - 1).div_ceil(CHUNK).max(1)
    }

    fn for_each_edge_in<F: FnMut(u32, u32)>(
        &self,
        chunk: usize,
        mut f: F,
    ) -> retrograde::Result<()> {
        let n = self.starts.len() - 1;
        let lo = (chunk * CHUNK).min(n);
        let hi = (lo + CHUNK).min(n);
        for u in lo..hi {
            let (a, b) = (self.starts[u] as usize, self.starts[u + 1] as usize);
            for &v in &self.targets[a..b] {
                f(u as u32, v);
            }
        }
        Ok(())
    }
}

/// A numpy array's element that can name a position.
trait Id: numpy::Element + Copy + Sync + std::fmt::Display {
    /// The id, once [`Id::first_bad`] has found none out of range.
    fn id(self) -> u32;
    /// The index of the first element that is no position (below 0, or
    /// `u32::MAX` and above), if any.
    fn first_bad(ids: &[Self]) -> Option<usize>;
}

impl Id for u32 {
    fn id(self) -> u32 {
        self
    }
    fn first_bad(ids: &[u32]) -> Option<usize> {
        ids.iter().position(|&x| x == u32::MAX)
    }
}

impl Id for i32 {
    fn id(self) -> u32 {
        self as u32
    }
    fn first_bad(ids: &[i32]) -> Option<usize> {
        ids.iter().position(|&x| x < 0)
    }
}

impl Id for i64 {
    fn id(self) -> u32 {
        self as u32
    }
    fn first_bad(ids: &[i64]) -> Option<usize> {
        ids.iter()
            .position(|&x| !(0..i64::from(u32::MAX)).contains(&x))
    }
}

/// A move as Python gets it: (position reached, outcome code for the
/// player who moves, plies to the end or None, plies longer than best play
/// or None).
type MoveTuple = (u32, u8, Option<u32>, Option<i64>);

/// A solved game or graph: the graph, its rules and every answer.
#[pyclass(module = "retrograde._retrograde", frozen)]
struct Solved {
    csr: Csr,
    rules: Rules,
    /// Who moves at each position, for a game that names it.
    owners: Option<Vec<Player>>,
    solution: Solution,
    /// The engine that solved it, on how many threads, and why.
    choice: Choice,
    edges: u64,
    /// The answers as numpy arrays, made on first need and kept (read-only).
    arrays: Cached,
    /// Moves with their values, on first need (a copy with successors).
    answered: OnceLock<Answered<Owned>>,
}

/// A solution's answers as read-only numpy arrays, each made on first need.
#[derive(Default)]
struct Cached {
    outcome: OnceLock<Py<PyArray1<u8>>>,
    remoteness: OnceLock<Py<PyArray1<i64>>>,
    best_move: OnceLock<Py<PyArray1<i64>>>,
}

/// The array `cell` keeps, made by `make` and marked read-only the first
/// time: every later access is the same array, at no cost.
fn cached<'py, T: numpy::Element>(
    py: Python<'py>,
    cell: &OnceLock<Py<PyArray1<T>>>,
    make: impl FnOnce() -> Vec<T>,
) -> PyResult<Bound<'py, PyArray1<T>>> {
    if let Some(a) = cell.get() {
        return Ok(a.bind(py).clone());
    }
    let a = make().into_pyarray(py);
    let flags = PyDict::new(py);
    flags.set_item("write", false)?;
    a.call_method("setflags", (), Some(&flags))?;
    // Another thread may have been first (the call above can let it run):
    // its array is the one kept.
    let _ = cell.set(a.clone().unbind());
    Ok(cell.get().map_or(a, |kept| kept.bind(py).clone()))
}

/// A graph with successors, and its owners if it has them: what answering
/// moves reads.
struct Owned {
    graph: Graph,
    owners: Option<Vec<Player>>,
}

impl GameGraph for Owned {
    fn vertex_count(&self) -> usize {
        self.graph.vertex_count()
    }
    fn out_degree(&self, v: u32) -> u32 {
        self.graph.out_degree(v)
    }
    fn for_each_predecessor<F: FnMut(u32)>(&self, v: u32, f: F) {
        self.graph.for_each_predecessor(v, f)
    }
    fn owner(&self, v: u32) -> Option<Player> {
        self.owners.as_ref()?.get(v as usize).copied()
    }
}

impl Successors for Owned {
    fn for_each_successor<F: FnMut(u32)>(&self, v: u32, f: F) {
        self.graph.for_each_successor(v, f)
    }
}

/// How a solve runs, as Python asks: the [`retrograde::Solver`]'s engine,
/// threads and memory limit.
#[derive(Clone, Copy, Debug)]
struct Options {
    engine: Engine,
    threads: Option<usize>,
    max_memory: Option<u64>,
}

impl Options {
    /// The options from their Python arguments: `engine` one of `auto`,
    /// `sequential` and `parallel`; `threads` at least 1.
    fn new(engine: &str, threads: Option<usize>, max_memory: Option<u64>) -> PyResult<Options> {
        let engine = match engine {
            "auto" => Engine::Auto,
            "sequential" => Engine::Sequential,
            "parallel" => Engine::Parallel,
            other => {
                return Err(PyValueError::new_err(format!(
                    "engine='{other}': expected 'auto', 'sequential' or 'parallel'"
                )));
            }
        };
        if threads == Some(0) {
            return Err(PyValueError::new_err("threads=0: expected at least 1"));
        }
        Ok(Options {
            engine,
            threads,
            max_memory,
        })
    }

    /// The solver these options make, reporting to `progress`.
    fn solver<'p>(
        &self,
        rules: &Rules,
        progress: &'p dyn retrograde::solve::Progress,
    ) -> Solver<'p> {
        let mut solver = Solver::new().engine(self.engine).rules(rules.clone());
        if let Some(t) = self.threads {
            solver = solver.threads(t);
        }
        if let Some(m) = self.max_memory {
            solver = solver.max_memory(m);
        }
        solver.progress(progress)
    }
}

/// A solve's error as Python's: over the memory limit a `MemoryError`,
/// anything else a `ValueError`.
fn solve_error(e: SolveError) -> PyErr {
    match e {
        SolveError::OverMemory { .. } => PyMemoryError::new_err(e.to_string()),
        e => PyValueError::new_err(e.to_string()),
    }
}

/// Solves `g` as `options` say.
fn solve_any<G: GameGraph + Sync>(
    g: &G,
    rules: &Rules,
    options: &Options,
    stop: &Stop,
) -> Result<Solution, SolveError> {
    options.solver(rules, stop).solve_stored(g)
}

/// A solve's progress as the waiting thread reads it (the phase's units
/// done and its total), and the word to stop (the caller was interrupted,
/// or its progress callback raised).
#[derive(Default)]
struct Stop {
    stop: AtomicBool,
    done: AtomicU64,
    total: AtomicU64,
}

impl Stop {
    /// (units done, total) of the phase under way.
    fn read(&self) -> (u64, u64) {
        (self.done.load(Relaxed), self.total.load(Relaxed))
    }
}

impl retrograde::solve::Progress for Stop {
    fn begin(&self, _phase: &'static str, total: u64) {
        self.done.store(0, Relaxed);
        self.total.store(total, Relaxed);
    }

    fn advance(&self, n: u64) {
        self.done.fetch_add(n, Relaxed);
    }

    fn stop(&self) -> bool {
        self.stop.load(Relaxed)
    }
}

impl Solved {
    /// Solves `csr` (with `owners`, an arena), on all threads where there
    /// are several.
    ///
    /// The solve runs on a thread of its own while this one waits, the
    /// GIL released, and looks at Python's signals every 50 ms: Ctrl-C
    /// raises `KeyboardInterrupt` at once, and the solve is told to stop
    /// (it does within 65,536 positions or a level). `progress`, if given,
    /// is called as `progress(done, total)` with the solve's units of work
    /// every 50 ms while it runs and once at its end; an exception it
    /// raises stops the solve and comes through.
    fn new(
        py: Python<'_>,
        csr: Csr,
        rules: Rules,
        owners: Option<Vec<Player>>,
        options: Options,
        progress: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Solved> {
        let edges = csr.edge_count();
        // Chosen here, and refused before a thread starts if it cannot run;
        // the solve makes the same choice.
        let choice = options
            .solver(&rules, &retrograde::solve::NoProgress)
            .choose_stored(csr.vertex_count())
            .map_err(solve_error)?;
        if let Some(o) = &owners {
            // Checked here, so that a wrong arena is an error, not a thread's.
            Arena::new(&csr, o.clone()).map_err(|e| PyValueError::new_err(e.to_string()))?;
        }
        let (send, receive) = std::sync::mpsc::channel();
        let stop = std::sync::Arc::new(Stop::default());
        let stopped = std::sync::Arc::clone(&stop);
        std::thread::Builder::new()
            .name("retrograde-solve".into())
            .spawn(move || {
                let solution = match &owners {
                    None => solve_any(&csr, &rules, &options, &stopped).map_err(solve_error),
                    Some(o) => Arena::new(&csr, o.clone())
                        .map_err(|e| PyValueError::new_err(e.to_string()))
                        .and_then(|arena| {
                            solve_any(&arena, &rules, &options, &stopped).map_err(solve_error)
                        }),
                };
                // Nobody listening: the caller was interrupted.
                let _ = send.send((solution, csr, rules, owners));
            })
            .map_err(|e| PyOSError::new_err(format!("cannot start the solve's thread: {e}")))?;
        let mut receive = receive;
        let (solution, csr, rules, owners) = loop {
            // The receiver goes into the wait and comes back (it is Send, not Sync).
            let (got, back) = py.detach(move || {
                let got = receive.recv_timeout(std::time::Duration::from_millis(50));
                (got, receive)
            });
            receive = back;
            match got {
                Ok(done) => break done,
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                    let told = match progress {
                        Some(f) => f.call1(stop.read()).map(drop),
                        None => Ok(()),
                    };
                    if let Err(e) = told.and_then(|()| py.check_signals()) {
                        stop.stop.store(true, Relaxed);
                        return Err(e);
                    }
                }
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(PyOSError::new_err(
                        "the solve's thread ended without an answer",
                    ));
                }
            }
        };
        let solution = solution?;
        if let Some(f) = progress {
            f.call1(stop.read())?;
        }
        Ok(Solved {
            csr,
            rules,
            owners,
            solution,
            choice,
            edges,
            arrays: Cached::default(),
            answered: OnceLock::new(),
        })
    }

    /// The smallest predecessor of `v` numbered below it.
    fn first_parent(&self, v: u32) -> Option<u32> {
        let mut best: Option<u32> = None;
        self.csr.for_each_predecessor(v, |u| {
            if u < v && best.is_none_or(|b| u < b) {
                best = Some(u);
            }
        });
        best
    }

    /// `v` as a position, if it is one: any other integer, negative or
    /// past the graph, is a `ValueError` naming it.
    fn check(&self, v: i64) -> PyResult<u32> {
        match u32::try_from(v) {
            Ok(p) if (p as usize) < self.solution.len() => Ok(p),
            _ => Err(PyValueError::new_err(format!(
                "position {v} is not in the graph (it has {} positions, 0 to {})",
                self.solution.len(),
                self.solution.len() as i64 - 1
            ))),
        }
    }
}

#[pymethods]
impl Solved {
    /// The number of positions.
    fn __len__(&self) -> usize {
        self.solution.len()
    }

    /// The number of moves.
    #[getter]
    fn edges(&self) -> u64 {
        self.edges
    }

    /// The engine that solved it: `'sequential'` or `'parallel'`.
    #[getter]
    fn engine(&self) -> &'static str {
        self.choice.engine.name()
    }

    /// The threads it ran on.
    #[getter]
    fn threads(&self) -> usize {
        self.choice.threads
    }

    /// Why that engine ran, in words (`'asked for'`, `'one thread'`,
    /// `'more than one thread'`, …).
    #[getter]
    fn engine_reason(&self) -> &'static str {
        self.choice.reason.describe()
    }

    /// Every position's outcome code for the player to move (WIN, LOSE,
    /// TIE, DRAW), as a numpy uint8 array.
    #[getter]
    fn outcome<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<u8>>> {
        cached(py, &self.arrays.outcome, || {
            let n = self.solution.len() as u32;
            (0..n)
                .map(|v| self.solution.value(v).map_or(DRAW, |x| x.outcome as u8))
                .collect()
        })
    }

    /// Every position's remoteness (plies to the end under best play), -1
    /// for a draw, as a numpy int64 array.
    #[getter]
    fn remoteness<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        cached(py, &self.arrays.remoteness, || {
            let n = self.solution.len() as u32;
            (0..n)
                .map(|v| self.solution.remoteness(v).map_or(-1, i64::from))
                .collect()
        })
    }

    /// Every position's best move (the position it leads to), -1 for none,
    /// as a numpy int64 array.
    #[getter]
    fn best_move<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        cached(py, &self.arrays.best_move, || {
            let n = self.solution.len() as u32;
            (0..n)
                .map(|v| self.solution.best_move(v).map_or(-1, i64::from))
                .collect()
        })
    }

    /// Pickled as its graph and rules: unpickling solves again (linear
    /// time), to the same answers. The moves are listed by target, each
    /// target's in the order the solver holds them, so the graph built
    /// again is the same, best moves included.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(
        Bound<'py, PyAny>,
        (
            Bound<'py, PyArray1<u32>>,
            Bound<'py, PyArray1<u32>>,
            usize,
            (Vec<u32>, Vec<u8>),
            &'static str,
            Option<Vec<u8>>,
        ),
    )> {
        let n = self.csr.vertex_count();
        let mut sources = Vec::with_capacity(self.edges as usize);
        let mut targets = Vec::with_capacity(self.edges as usize);
        for v in 0..n as u32 {
            for &u in self.csr.predecessors(v) {
                sources.push(u);
                targets.push(v);
            }
        }
        let (positions, codes) = self.rules.labels.iter().map(|(v, o)| (v, o as u8)).unzip();
        let no_move = match self.rules.no_move {
            NoMoveRule::Win => "win",
            _ => "lose",
        };
        let owners = self
            .owners
            .as_ref()
            .map(|o| o.iter().map(|p| p.index()).collect());
        let again = py
            .import("retrograde._retrograde")?
            .getattr("solve_edges")?;
        Ok((
            again,
            (
                sources.into_pyarray(py),
                targets.into_pyarray(py),
                n,
                (positions, codes),
                no_move,
                owners,
            ),
        ))
    }

    /// A solution never changes: a copy is itself.
    fn __copy__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    /// A solution never changes: a deep copy is itself.
    fn __deepcopy__(slf: Py<Self>, _memo: &Bound<'_, PyAny>) -> Py<Self> {
        slf
    }

    /// `Solved(5 positions, 4 moves: 1 win, 2 lose, 0 tie, 2 draw; the
    /// sequential engine on 1 thread)`.
    fn __repr__(&self) -> String {
        let mut c = [0u64; 5];
        for v in 0..self.solution.len() as u32 {
            c[self.solution.value(v).map_or(DRAW, |x| x.outcome as u8) as usize] += 1;
        }
        let s = if self.choice.threads == 1 { "" } else { "s" };
        format!(
            "Solved({} positions, {} moves: {} win, {} lose, {} tie, {} draw; the {} engine on {} thread{s})",
            self.solution.len(),
            self.edges,
            c[WIN as usize],
            c[LOSE as usize],
            c[TIE as usize],
            c[DRAW as usize],
            self.choice.engine.name(),
            self.choice.threads
        )
    }

    /// The value of `v`: (outcome code, remoteness or None for a draw).
    fn value(&self, v: i64) -> PyResult<(u8, Option<u32>)> {
        let v = self.check(v)?;
        let x = self.solution.value(v);
        Ok(x.map_or((DRAW, None), |x| (x.outcome as u8, x.remoteness)))
    }

    /// The moves of `v`, best first: (position reached, outcome code for
    /// the player who moves, plies to the end counting this move or None,
    /// plies longer than best play or None where the outcome changes).
    fn moves(&self, v: i64) -> PyResult<Vec<MoveTuple>> {
        let v = self.check(v)?;
        let answered = self.answered.get_or_init(|| {
            Answered::new(
                Owned {
                    graph: self.csr.clone().with_successors(),
                    owners: self.owners.clone(),
                },
                self.rules.clone(),
                self.solution.clone(),
            )
            .expect("the solution is this graph's")
        });
        let from = self.solution.value(v);
        Ok(answered
            .moves(v)
            .into_iter()
            .map(|m| {
                let delta = from.and_then(|f| m.delta(f));
                (m.to, m.value.outcome as u8, m.value.remoteness, delta)
            })
            .collect())
    }

    /// The line of best play from `v`: the positions, `v` first; a draw's
    /// stops where it repeats or after `max_plies`.
    #[pyo3(signature = (v, max_plies = 1000))]
    fn line(&self, v: i64, max_plies: usize) -> PyResult<Vec<u32>> {
        let v = self.check(v)?;
        Ok(self.solution.line(v, max_plies).positions)
    }

    /// The smallest position that moves to `v` and is numbered below it,
    /// or None: in a game explored from its starts (`explore`), the
    /// position `v` was first met from, None for a start. Following it
    /// back from any position reaches a start.
    fn parent(&self, v: i64) -> PyResult<Option<u32>> {
        let v = self.check(v)?;
        Ok(self.first_parent(v))
    }

    /// Every position's [`Solved::parent`], -1 for none, as one array.
    fn parents<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let n = self.solution.len() as u32;
        let out: Vec<i64> = py.detach(|| {
            (0..n)
                .map(|v| self.first_parent(v).map_or(-1, i64::from))
                .collect()
        });
        out.into_pyarray(py)
    }

    /// The counts: {"win": .., "lose": .., "tie": .., "draw": .., "longest": ..}.
    fn counts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = self.solution.summary();
        let d = PyDict::new(py);
        d.set_item("win", s.wins)?;
        d.set_item("lose", s.losses)?;
        d.set_item("tie", s.ties)?;
        d.set_item("draw", s.draws)?;
        d.set_item("longest", s.max_remoteness)?;
        Ok(d)
    }

    /// Writes the solution as a database of a graph (with its moves, as
    /// `retrograde solve GRAPH --save` writes one, so that the command line
    /// and the web page play it), atomically; `params` go into its header.
    /// `names`, one line of text for each position, each its own, are kept
    /// so that the command line and the page show and read positions by
    /// name; `start` is where they start play. Returns its size in bytes.
    #[pyo3(signature = (path, params = Vec::new(), compress = true, names = None, start = None))]
    fn save(
        &self,
        py: Python<'_>,
        path: std::path::PathBuf,
        params: Vec<(String, String)>,
        compress: bool,
        names: Option<Vec<String>>,
        start: Option<u32>,
    ) -> PyResult<u64> {
        let mut meta = Meta::new("graph")
            .param("labels", self.rules.labels.len())
            .param(
                "no_move",
                match self.rules.no_move {
                    NoMoveRule::Lose => "lose",
                    NoMoveRule::Win => "win",
                },
            );
        for (k, v) in params {
            meta = meta.param(k, v);
        }
        if let Some(start) = start {
            self.check(i64::from(start))?;
            meta = meta.param("start", start);
        }
        let names = match names {
            None => None,
            Some(list) => Some(named(list, self.solution.len())?),
        };
        let written = py.detach(|| {
            let (offsets, targets) = retrograde::db::graph_moves(&self.csr, &self.rules);
            let source = Source {
                records: self.solution.len() as u64,
                value: |r: u64| self.solution.value(r as u32),
                keys: None,
                moves: Some((&offsets[..], &targets[..])),
                names: names.as_ref(),
                grundy: None,
                owners: self.owners.as_deref(),
            };
            Writer::new(meta)
                .compression(if compress {
                    Compression::Zstd
                } else {
                    Compression::None
                })
                .write(&path, &source)
        });
        written
            .map(|w| w.bytes)
            .map_err(|e| PyOSError::new_err(e.to_string()))
    }
}

/// The names of `positions` positions, one each, told apart, each one line.
fn named(list: Vec<String>, positions: usize) -> PyResult<Names> {
    if list.len() != positions {
        return Err(PyValueError::new_err(format!(
            "names: {} given for {positions} positions",
            list.len()
        )));
    }
    if let Some(i) = list.iter().position(|n| n.chars().any(char::is_control)) {
        return Err(PyValueError::new_err(format!(
            "names[{i}] = {:?}: a name is one line of text without control characters",
            list[i]
        )));
    }
    Names::from_list(&list).map_err(|i| {
        let first = list.iter().position(|n| *n == list[i]).unwrap_or(i);
        PyValueError::new_err(format!(
            "positions {first} and {i} are both named {:?}: each position needs its own name",
            list[i]
        ))
    })
}

/// The rules of `no_move` with `labels`, given as two arrays or sequences:
/// positions and their outcomes.
fn rules(no_move: &str, terminal: Option<(Vec<u32>, Vec<Bound<'_, PyAny>>)>) -> PyResult<Rules> {
    let mut pairs = Vec::new();
    if let Some((positions, outcomes)) = terminal {
        if positions.len() != outcomes.len() {
            return Err(PyValueError::new_err(format!(
                "terminal: {} positions but {} outcomes",
                positions.len(),
                outcomes.len()
            )));
        }
        let mut given = std::collections::HashMap::new();
        for (p, o) in positions.into_iter().zip(&outcomes) {
            let o = outcome(o)?;
            if let Some(&before) = given.get(&p) {
                if before != o {
                    return Err(PyValueError::new_err(format!(
                        "terminal: position {p} is labelled both {} and {}",
                        outcome_name(before),
                        outcome_name(o)
                    )));
                }
                continue;
            }
            given.insert(p, o);
            pairs.push((p, o));
        }
    }
    Ok(Rules {
        no_move: no_move_rule(no_move)?,
        labels: Labels::from_pairs(pairs),
    })
}

/// Solves the graph whose moves are `sources[i] -> targets[i]` (numpy
/// arrays of uint32, int32 or int64, read in place), of `n` positions (default:
/// one more than the largest id), under `no_move` ('lose' or 'win') with
/// `terminal`, a pair (positions, outcomes) of labelled positions, and
/// `owners`, if given, the player (0 or 1) who moves at each position (an
/// arena: a move between two positions of one owner keeps the turn).
#[pyfunction]
#[pyo3(signature = (sources, targets, n = None, terminal = None, no_move = "lose", owners = None,
                    engine = "auto", threads = None, max_memory = None, progress = None))]
#[allow(clippy::too_many_arguments)]
fn solve_edges(
    py: Python<'_>,
    sources: &Bound<'_, PyAny>,
    targets: &Bound<'_, PyAny>,
    n: Option<usize>,
    terminal: Option<(Vec<u32>, Vec<Bound<'_, PyAny>>)>,
    no_move: &str,
    owners: Option<Vec<u8>>,
    engine: &str,
    threads: Option<usize>,
    max_memory: Option<u64>,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<Solved> {
    let options = Options::new(engine, threads, max_memory)?;
    let rules = rules(no_move, terminal)?;
    let min = rules.labels.max_vertex().map_or(0, |v| v as usize + 1);
    let builder = |vertices: Option<usize>| {
        let mut b = CsrBuilder::new().min_vertices(min);
        let limit = retrograde::memory::machine_limit();
        if limit < u64::MAX {
            // Counted before anything big is allocated: a graph naming
            // position 4294967294 is refused, not an abort.
            b = b
                .memory_limit(limit)
                .reserve(SOLVE_BYTES_PER_POSITION, SOLVE_BYTES_PER_MOVE);
        }
        match vertices {
            Some(n) => b.vertices(n),
            None => b,
        }
    };
    let csr = if let (Ok(s), Ok(t)) = (
        sources.extract::<PyReadonlyArray1<'_, u32>>(),
        targets.extract::<PyReadonlyArray1<'_, u32>>(),
    ) {
        build(py, &s, &t, builder(n))?
    } else if let (Ok(s), Ok(t)) = (
        sources.extract::<PyReadonlyArray1<'_, i64>>(),
        targets.extract::<PyReadonlyArray1<'_, i64>>(),
    ) {
        build(py, &s, &t, builder(n))?
    } else if let (Ok(s), Ok(t)) = (
        sources.extract::<PyReadonlyArray1<'_, i32>>(),
        targets.extract::<PyReadonlyArray1<'_, i32>>(),
    ) {
        build(py, &s, &t, builder(n))?
    } else {
        return Err(PyTypeError::new_err(
            "sources and targets: expected two one-dimensional numpy arrays of one dtype, uint32, int32 or int64",
        ));
    };
    if let Some(n) = n {
        if csr.vertex_count() != n {
            return Err(PyValueError::new_err(format!(
                "n={n}, but the moves and labels name {} positions",
                csr.vertex_count()
            )));
        }
    }
    let owners = match owners {
        None => None,
        Some(list) => Some(
            list.iter()
                .enumerate()
                .map(|(v, &o)| {
                    Player::from_index(u64::from(o)).ok_or_else(|| {
                        PyValueError::new_err(format!(
                            "owners[{v}] = {o}: expected 0 or 1, the player who moves there"
                        ))
                    })
                })
                .collect::<PyResult<Vec<Player>>>()?,
        ),
    };
    Solved::new(py, csr, rules, owners, options, progress.as_ref())
}

fn build<T: Id>(
    py: Python<'_>,
    s: &PyReadonlyArray1<'_, T>,
    t: &PyReadonlyArray1<'_, T>,
    builder: CsrBuilder,
) -> PyResult<Csr> {
    if s.len() != t.len() {
        return Err(PyValueError::new_err(format!(
            "sources has {} moves, targets {}",
            s.len(),
            t.len()
        )));
    }
    let (s, t) = (s.as_slice()?, t.as_slice()?);
    for (name, ids) in [("sources", s), ("targets", t)] {
        if let Some(i) = T::first_bad(ids) {
            return Err(PyValueError::new_err(format!(
                "{name}[{i}] = {}: a position is a number from 0 to {}",
                ids[i],
                u32::MAX - 1
            )));
        }
    }
    let arrays = Arrays {
        sources: s,
        targets: t,
    };
    py.detach(|| builder.build(&arrays)).map_err(|e| match e {
        retrograde::Error::TooLarge { .. } => PyMemoryError::new_err(e.to_string()),
        e => PyValueError::new_err(e.to_string()),
    })
}

/// Explores the game `game` (an object with `starts()` and `moves(p)`, and
/// optionally `terminal(p)`, an outcome for the player to move or None,
/// `canonical(p)`, and `owner(p)`, 0 or 1, the player who moves at `p`
/// in a game where a player may move twice in a row), numbering its positions in the order first met from
/// the starts, and solves it under `no_move`. `progress`, if given, is
/// called with the positions found so far every `every` positions. Returns
/// the solution and the positions, by number.
#[pyfunction]
#[pyo3(signature = (game, no_move = "lose", max_positions = None, progress = None, every = 100_000,
                    engine = "auto", threads = None, max_memory = None))]
#[allow(clippy::too_many_arguments)]
fn explore<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    no_move: &str,
    max_positions: Option<usize>,
    progress: Option<Bound<'py, PyAny>>,
    every: usize,
    engine: &str,
    threads: Option<usize>,
    max_memory: Option<u64>,
) -> PyResult<(Solved, Bound<'py, PyList>, Index)> {
    let options = Options::new(engine, threads, max_memory)?;
    let no_move = no_move_rule(no_move)?;
    let terminal = game.getattr_opt("terminal")?.filter(|t| t.is_callable());
    let canonical = game.getattr_opt("canonical")?.filter(|c| c.is_callable());
    let owner = game.getattr_opt("owner")?.filter(|o| o.is_callable());
    let moves = game.getattr("moves")?;
    let positions = PyList::empty(py);
    let mut index = Index::new(positions.clone());
    let mut labels: Vec<(u32, Outcome)> = Vec::new();
    // Each position's moves, as successor lists: position u's targets are
    // `targets[starts[u]..starts[u + 1]]` (4 bytes a move; positions are
    // expanded in number order).
    let mut starts: Vec<u32> = vec![0];
    let mut targets: Vec<u32> = Vec::new();
    let limit = max_positions.unwrap_or(u32::MAX as usize - 1);
    let every = every.max(1);
    // The number of `p`, given it a number if it has none.
    let mut number = |p: Bound<'py, PyAny>| -> PyResult<u32> {
        let p = match &canonical {
            Some(c) => c.call1((p,))?,
            None => p,
        };
        let h = hash32(&p)?;
        if let Some(i) = index.find(py, &p, h)? {
            return Ok(i);
        }
        if index.len() >= limit {
            return Err(PyValueError::new_err(format!(
                "the game has more than {limit} positions (max_positions)"
            )));
        }
        index.insert(py, p, h)
    };
    for s in game.call_method0("starts")?.try_iter()? {
        number(s?)?;
    }
    let mut next = 0usize;
    while next < positions.len() {
        let p = positions.get_item(next)?;
        next += 1;
        if let Some(f) = progress.as_ref().filter(|_| next.is_multiple_of(every)) {
            f.call1((next, positions.len()))?;
        }
        if let Some(t) = &terminal {
            if let Some(o) = game_over(&t.call1((&p,))?)? {
                labels.push(((next - 1) as u32, o));
                starts.push(targets.len() as u32);
                continue;
            }
        }
        for q in moves.call1((&p,))?.try_iter()? {
            targets.push(number(q?)?);
        }
        let end = u32::try_from(targets.len()).map_err(|_| {
            PyMemoryError::new_err(format!("the game has more than {} moves", u32::MAX))
        })?;
        starts.push(end);
    }
    let n = positions.len();
    let owners = match &owner {
        None => None,
        Some(f) => {
            let mut owners = Vec::with_capacity(n);
            for p in positions.iter() {
                let o = f.call1((&p,))?;
                let player = o.extract::<u64>().ok().and_then(Player::from_index);
                owners.push(player.ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "owner({}) is {}: expected 0 or 1, the player who moves there",
                        p.repr().map_or_else(|_| "?".into(), |r| r.to_string()),
                        o.repr().map_or_else(|_| "?".into(), |r| r.to_string())
                    ))
                })?);
            }
            Some(owners)
        }
    };
    let rules = Rules {
        no_move,
        labels: Labels::from_pairs(labels),
    };
    let lists = Lists { starts, targets };
    let csr = py
        .detach(|| CsrBuilder::new().vertices(n).build(&lists))
        .map_err(|e| PyMemoryError::new_err(e.to_string()))?;
    drop(lists);
    Ok((
        Solved::new(py, csr, rules, owners, options, None)?,
        positions,
        index,
    ))
}

/// What a game's `terminal(p)` says: `None` or `False`, not over (`p == 0
/// and "lose"` is False elsewhere); else the outcome for the player to move
/// (`True` says over but not how: an error).
fn game_over(over: &Bound<'_, PyAny>) -> PyResult<Option<Outcome>> {
    if over.is_none() || (over.is_instance_of::<PyBool>() && !over.is_truthy()?) {
        return Ok(None);
    }
    outcome(over).map(Some)
}

/// `f` of each item of the iterable `items`.
fn each<'py, T>(
    items: Bound<'py, PyAny>,
    mut f: impl FnMut(Bound<'py, PyAny>) -> PyResult<T>,
) -> PyResult<Vec<T>> {
    items.try_iter()?.map(|x| f(x?)).collect()
}

/// Python's hash of `p` folded to 32 bits: what [`Index`] keeps a
/// position by.
fn hash32(p: &Bound<'_, PyAny>) -> PyResult<u32> {
    // Mixed before it is cut: a small int's hash is the int itself, and
    // numbers that differ only in their high bits must not collide.
    let h = p.hash()? as u64;
    Ok((h.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as u32)
}

/// Whether `a == b` in Python, as a dict compares keys: the same object
/// is equal without asking (`PyObject_RichCompareBool`, no result object
/// made).
fn equal(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<bool> {
    // SAFETY: both pointers are live objects, held by the bounds for the
    // call; the GIL is held (the bounds carry it).
    match unsafe { pyo3::ffi::PyObject_RichCompareBool(a.as_ptr(), b.as_ptr(), pyo3::ffi::Py_EQ) } {
        -1 => Err(PyErr::fetch(a.py())),
        r => Ok(r == 1),
    }
}

/// A 32-bit hash spread over 64 bits for the table (its top bits and its
/// low bits both vary).
fn spread(h: u32) -> u64 {
    u64::from(h).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Positions numbered in the order first met (a list), found again by
/// Python's own hash and equality through a table of their numbers: about
/// 10 bytes a position, where a dict of numbers costs some 80 (its entry
/// and an int object a number). Read as a mapping: `index[p]` is `p`'s
/// number (`KeyError` if it has none), `p in index`, `index.get(p)`,
/// `len(index)`, and iterating gives the positions by number. The list of
/// positions is shared with the solution's `names`, which must not be
/// changed.
#[pyclass(module = "retrograde._retrograde", frozen)]
struct Index {
    positions: Py<PyList>,
    /// Each position's number and hash.
    table: hashbrown::HashTable<(u32, u32)>,
}

impl Index {
    fn new(positions: Bound<'_, PyList>) -> Index {
        Index {
            positions: positions.unbind(),
            table: hashbrown::HashTable::new(),
        }
    }

    fn len(&self) -> usize {
        self.table.len()
    }

    /// The number of `p`, whose hash is `h`, if it has one.
    fn find(&self, py: Python<'_>, p: &Bound<'_, PyAny>, h: u32) -> PyResult<Option<u32>> {
        let positions = self.positions.bind(py);
        let mut failed = None;
        let found = self.table.find(spread(h), |&(i, hi)| {
            if hi != h || failed.is_some() {
                return false;
            }
            match positions.get_item(i as usize).and_then(|q| equal(&q, p)) {
                Ok(same) => same,
                Err(e) => {
                    failed = Some(e);
                    false
                }
            }
        });
        match failed {
            Some(e) => Err(e),
            None => Ok(found.map(|&(i, _)| i)),
        }
    }

    /// Gives `p` (whose hash is `h`, and which has no number) the next
    /// number.
    fn insert(&mut self, py: Python<'_>, p: Bound<'_, PyAny>, h: u32) -> PyResult<u32> {
        let i = self.table.len() as u32;
        self.positions.bind(py).append(p)?;
        self.table
            .insert_unique(spread(h), (i, h), |&(_, hh)| spread(hh));
        Ok(i)
    }
}

#[pymethods]
impl Index {
    /// The index of the positions of `positions`, numbered in its order
    /// (a position met twice keeps its first number).
    #[new]
    fn from_positions(py: Python<'_>, positions: &Bound<'_, PyAny>) -> PyResult<Index> {
        let mut index = Index::new(PyList::empty(py));
        for p in positions.try_iter()? {
            let p = p?;
            let h = hash32(&p)?;
            if index.find(py, &p, h)?.is_none() {
                index.insert(py, p, h)?;
            }
        }
        Ok(index)
    }

    fn __len__(&self) -> usize {
        self.len()
    }

    fn __contains__(&self, py: Python<'_>, p: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.find(py, p, hash32(p)?)?.is_some())
    }

    fn __getitem__(&self, py: Python<'_>, p: &Bound<'_, PyAny>) -> PyResult<u32> {
        self.find(py, p, hash32(p)?)?
            .ok_or_else(|| PyKeyError::new_err(p.clone().unbind()))
    }

    /// The number of `p`, or `default` if it has none.
    #[pyo3(signature = (p, default = None))]
    fn get<'py>(
        &self,
        py: Python<'py>,
        p: &Bound<'py, PyAny>,
        default: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        match self.find(py, p, hash32(p)?)? {
            Some(i) => Ok(Some(i.into_pyobject(py)?.into_any())),
            None => Ok(default),
        }
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.positions.bind(py).try_iter().map(|it| it.into_any())
    }

    fn __repr__(&self) -> String {
        format!("Index({} positions)", self.len())
    }

    /// What it holds, for Python's cycle collector.
    fn __traverse__(&self, visit: pyo3::PyVisit<'_>) -> Result<(), pyo3::PyTraverseError> {
        visit.call(&self.positions)
    }

    /// Pickled as its positions, numbered again in their order.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (Py<PyList>,))> {
        let cls = py.get_type::<Index>().into_any();
        Ok((cls, (self.positions.clone_ref(py),)))
    }
}

/// A tiered game written in Python, as the library's tier solver takes
/// one: a position is the game's own number for it (`encode(p)`), made a
/// position again (`decode(n)`) where Python is asked about it; a tier is
/// its name (`tier_name(t)`, else `str(t)`), the Python value kept beside
/// it. Python is called with the GIL taken on whatever thread the solver
/// asks from; the first exception (Ctrl-C included, seen on the main
/// thread) stops the solve and comes through.
struct PyTiered {
    game: Py<PyAny>,
    no_move: NoMoveRule,
    canonical: bool,
    terminal: bool,
    named: bool,
    notation: bool,
    /// Each tier met, by name.
    tiers: std::sync::Mutex<std::collections::HashMap<String, Py<PyAny>>>,
    /// The first error a call raised.
    failed: std::sync::Mutex<Option<PyErr>>,
    stop: Stop,
}

impl PyTiered {
    fn new(game: &Bound<'_, PyAny>, no_move: NoMoveRule) -> PyResult<PyTiered> {
        let has = |name: &str| -> PyResult<bool> {
            Ok(game.getattr_opt(name)?.is_some_and(|f| f.is_callable()))
        };
        for needed in [
            "moves",
            "tier",
            "child_tiers",
            "tier_positions",
            "encode",
            "decode",
        ] {
            if !has(needed)? {
                return Err(PyTypeError::new_err(format!(
                    "a tiered game needs {needed}(): moves(p), tier(p), child_tiers(t), \
                     tier_positions(t), encode(p) and decode(n)"
                )));
            }
        }
        Ok(PyTiered {
            game: game.clone().unbind(),
            no_move,
            canonical: has("canonical")?,
            terminal: has("terminal")?,
            named: has("tier_name")?,
            notation: has("notation")?,
            tiers: Default::default(),
            failed: Default::default(),
            stop: Stop::default(),
        })
    }

    /// `f` called with the GIL and the game; `None` once a call has failed
    /// (its error kept, the solve told to stop).
    fn call<T>(&self, f: impl FnOnce(Python<'_>, &Bound<'_, PyAny>) -> PyResult<T>) -> Option<T> {
        if self.stop.stop.load(Relaxed) {
            return None;
        }
        Python::attach(
            |py| match py.check_signals().and_then(|()| f(py, self.game.bind(py))) {
                Ok(t) => Some(t),
                Err(e) => {
                    let mut failed = self.failed.lock().unwrap_or_else(|e| e.into_inner());
                    failed.get_or_insert(e);
                    self.stop.stop.store(true, Relaxed);
                    None
                }
            },
        )
    }

    /// The error a call raised, if one did.
    fn take_error(&self) -> Option<PyErr> {
        self.failed.lock().unwrap_or_else(|e| e.into_inner()).take()
    }

    /// The position numbered `n`.
    fn position<'py>(game: &Bound<'py, PyAny>, n: u64) -> PyResult<Bound<'py, PyAny>> {
        let p = game.call_method1("decode", (n,))?;
        if p.is_none() {
            return Err(PyValueError::new_err(format!(
                "decode({n}) is None: the number of a position met while solving"
            )));
        }
        Ok(p)
    }

    /// The number of position `p`.
    fn number(game: &Bound<'_, PyAny>, p: &Bound<'_, PyAny>) -> PyResult<u64> {
        game.call_method1("encode", (p,))?
            .extract::<u64>()
            .map_err(|_| {
                PyValueError::new_err(format!(
                    "encode({}) is not a number from 0 to 2**64 - 1",
                    p.repr().map_or_else(|_| "?".into(), |r| r.to_string())
                ))
            })
    }

    /// The name of tier `t`, kept with it.
    fn tier_of(&self, game: &Bound<'_, PyAny>, t: Bound<'_, PyAny>) -> PyResult<String> {
        let name = if self.named {
            game.call_method1("tier_name", (&t,))?.extract::<String>()?
        } else {
            t.str()?.to_string()
        };
        self.tiers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(name.clone())
            .or_insert_with(|| t.unbind());
        Ok(name)
    }

    /// The tier named `name`, as Python gave it.
    fn tier_value<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        self.tiers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(name)
            .map(|t| t.bind(py).clone())
            .ok_or_else(|| PyKeyError::new_err(format!("no tier named {name:?} was met")))
    }
}

impl retrograde::StateGame for PyTiered {
    type Position = u64;

    fn starts(&self) -> Vec<u64> {
        self.call(
            |_, g| match g.getattr_opt("starts")?.filter(|f| f.is_callable()) {
                Some(starts) => each(starts.call0()?, |p| PyTiered::number(g, &p)),
                None => Ok(Vec::new()),
            },
        )
        .unwrap_or_default()
    }

    fn for_each_move<F: FnMut(u64)>(&self, p: &u64, mut f: F) {
        let moves = self.call(|_, g| {
            let ps = g.call_method1("moves", (PyTiered::position(g, *p)?,))?;
            each(ps, |q| PyTiered::number(g, &q))
        });
        moves.unwrap_or_default().into_iter().for_each(&mut f);
    }

    fn terminal(&self, p: &u64) -> Option<Outcome> {
        if !self.terminal {
            return None;
        }
        self.call(|_, g| game_over(&g.call_method1("terminal", (PyTiered::position(g, *p)?,))?))
            .flatten()
    }

    fn canonical(&self, p: u64) -> u64 {
        if !self.canonical {
            return p;
        }
        self.call(|_, g| {
            let c = g.call_method1("canonical", (PyTiered::position(g, p)?,))?;
            PyTiered::number(g, &c)
        })
        .unwrap_or(p)
    }

    fn notation(&self, p: &u64) -> String {
        let named = self.notation;
        // Asked for messages too: after a failure, the number.
        self.call(|_, g| {
            let q = PyTiered::position(g, *p)?;
            Ok(if named {
                g.call_method1("notation", (q,))?.extract::<String>()?
            } else {
                q.str()?.to_string()
            })
        })
        .unwrap_or_else(|| format!("position number {p}"))
    }

    fn encode(&self, p: &u64) -> Option<u64> {
        Some(*p)
    }

    fn decode(&self, code: u64) -> Option<u64> {
        Some(code)
    }

    fn no_move(&self) -> NoMoveRule {
        self.no_move
    }
}

impl retrograde::tier::TieredGame for PyTiered {
    type Tier = String;

    fn tier(&self, p: &u64) -> String {
        self.call(|_, g| {
            let t = g.call_method1("tier", (PyTiered::position(g, *p)?,))?;
            self.tier_of(g, t)
        })
        .unwrap_or_default()
    }

    fn child_tiers(&self, tier: &String) -> Vec<String> {
        self.call(|py, g| {
            let t = self.tier_value(py, tier)?;
            each(g.call_method1("child_tiers", (t,))?, |c| self.tier_of(g, c))
        })
        .unwrap_or_default()
    }

    fn tier_positions(&self, tier: &String) -> Vec<u64> {
        self.call(|py, g| {
            let t = self.tier_value(py, tier)?;
            each(g.call_method1("tier_positions", (t,))?, |p| {
                PyTiered::number(g, &p)
            })
        })
        .unwrap_or_default()
    }

    fn tier_name(&self, tier: &String) -> String {
        tier.clone()
    }
}

/// A tier's solve as Python gets it: (name, positions, longest remoteness
/// or None, seconds, taken as an earlier run left it).
type TierTuple = (String, u64, Option<u32>, f64, bool);

/// A tiered game written in Python solved into a directory, read back
/// from it: every value comes from the tiers' databases, mapped.
#[pyclass(module = "retrograde._retrograde", frozen)]
struct TieredSolved {
    game: PyTiered,
    dir: retrograde::tier::TierDirectory,
    run: Vec<TierTuple>,
}

impl TieredSolved {
    /// The value of position `p`, read from its tier's database: a
    /// `KeyError` where no tier holds it, the game's own error first.
    fn probe(&self, py: Python<'_>, p: &Bound<'_, PyAny>) -> PyResult<retrograde::Value> {
        use retrograde::tier::TierError;
        let n = PyTiered::number(self.game.game.bind(py), p)?;
        let v = py.detach(|| self.dir.value(&self.game, &n));
        // The game's own error first (its flag cleared for the next call).
        let failed = self.game.take_error();
        self.game.stop.stop.store(false, Relaxed);
        if let Some(e) = failed {
            return Err(e);
        }
        v.map_err(|e| match e {
            TierError::NotHeld { .. } | TierError::NoSuchTier { .. } => {
                PyKeyError::new_err(e.to_string())
            }
            e => PyValueError::new_err(e.to_string()),
        })
    }
}

#[pymethods]
impl TieredSolved {
    /// The value of position `p`: (outcome code, remoteness or None).
    fn value(&self, py: Python<'_>, p: &Bound<'_, PyAny>) -> PyResult<(u8, Option<u32>)> {
        let v = self.probe(py, p)?;
        Ok((v.outcome as u8, v.remoteness))
    }

    /// The moves of `p` (the game's `moves(p)`; none where it is over),
    /// best first, each valued for its mover as every answer values moves
    /// (`Value::after_move`, `kernel::best_first`, `Value::delta`): (the
    /// position reached, outcome code, remoteness or None, plies longer
    /// than best play or None).
    #[allow(clippy::type_complexity)]
    fn moves<'py>(
        &self,
        py: Python<'py>,
        p: &Bound<'py, PyAny>,
    ) -> PyResult<Vec<(Bound<'py, PyAny>, u8, Option<u32>, Option<i64>)>> {
        let g = self.game.game.bind(py);
        if self.game.terminal && game_over(&g.call_method1("terminal", (p,))?)?.is_some() {
            return Ok(Vec::new());
        }
        let from = self.probe(py, p)?;
        let mut moves = each(g.call_method1("moves", (p,))?, |q| {
            let v = self.probe(py, &q)?.after_move();
            Ok((q, v))
        })?;
        retrograde::kernel::best_first(&mut moves, |m| m.1);
        Ok(moves
            .into_iter()
            .map(|(q, v)| (q, v.outcome as u8, v.remoteness, v.delta(from)))
            .collect())
    }

    /// Every tier, children first: (name, positions, longest, seconds,
    /// resumed).
    #[getter]
    fn tiers(&self) -> Vec<TierTuple> {
        self.run.clone()
    }

    /// The directory.
    #[getter]
    fn directory(&self) -> String {
        self.dir.dir().display().to_string()
    }

    /// What it holds, for Python's cycle collector: the game and its tiers.
    fn __traverse__(&self, visit: pyo3::PyVisit<'_>) -> Result<(), pyo3::PyTraverseError> {
        visit.call(&self.game.game)?;
        let tiers = self.game.tiers.lock().unwrap_or_else(|e| e.into_inner());
        for t in tiers.values() {
            visit.call(t)?;
        }
        Ok(())
    }
}

/// Solves the tiered game `game` into `directory`, tier by tier from the
/// tiers `roots` down (the library's tier solver: each tier a database of
/// its own and a manifest, `tiers.json`; a run stopped is taken up again
/// from the tiers it finished).
#[pyfunction]
#[pyo3(signature = (game, directory, roots, no_move = "lose", name = "python", at_once = 1))]
fn solve_tiers(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    directory: std::path::PathBuf,
    roots: &Bound<'_, PyAny>,
    no_move: &str,
    name: &str,
    at_once: usize,
) -> PyResult<TieredSolved> {
    let tiered = PyTiered::new(game, no_move_rule(no_move)?)?;
    let mut root_names = Vec::new();
    for t in roots.try_iter()? {
        root_names.push(tiered.tier_of(game, t?)?);
    }
    let meta = Meta::new(name);
    let run = py.detach(|| {
        retrograde::tier::TierSolver::new(&directory)
            .meta(meta)
            .concurrent(at_once)
            .progress(&tiered.stop)
            .solve(&tiered, &root_names)
    });
    if let Some(e) = tiered.take_error() {
        return Err(e);
    }
    let run = run.map_err(|e| PyValueError::new_err(e.to_string()))?;
    let dir = retrograde::tier::TierDirectory::open(&directory)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(TieredSolved {
        game: tiered,
        dir,
        run: run
            .tiers
            .into_iter()
            .map(|t| (t.name, t.positions, t.longest, t.seconds, t.resumed))
            .collect(),
    })
}

/// A database read back: a graph's (saved by `save` or `retrograde solve
/// --save`, its positions by number or name) or a registered game's
/// (`retrograde game NAME --save`, its positions in the game's notation).
/// Answers come from the file, mapped: nothing is solved again.
#[pyclass(module = "retrograde._retrograde", frozen, name = "Database")]
struct Loaded {
    db: Arc<Database>,
    game: Box<dyn Playable + Send>,
    path: String,
}

impl Loaded {
    /// The position `p` names: a number (a graph's vertex, a game's
    /// position number) or a text in the game's notation (a graph's name).
    fn position(&self, p: &Bound<'_, PyAny>) -> PyResult<u64> {
        if let Ok(text) = p.extract::<String>() {
            return self
                .game
                .parse(&text)
                .map_err(|e| PyValueError::new_err(e.to_string()));
        }
        p.extract::<u64>().map_err(|_| {
            PyTypeError::new_err(format!(
                "expected a position (a number or its notation), got {}",
                p.repr().map_or_else(|_| "?".into(), |r| r.to_string())
            ))
        })
    }

    fn probe(&self) -> Probe<'_> {
        Probe {
            game: &*self.game,
            db: &*self.db,
        }
    }
}

/// An error of a probe as Python's: a position that is not in the
/// database a `KeyError`, a damaged file an `OSError`.
fn probe_error(e: ProbeError) -> PyErr {
    match e {
        ProbeError::NotInGame { .. } => PyKeyError::new_err(e.to_string()),
        ProbeError::Db(e) => PyOSError::new_err(e.to_string()),
    }
}

#[pymethods]
impl Loaded {
    /// The number of positions it keeps.
    fn __len__(&self) -> usize {
        usize::try_from(self.db.len()).unwrap_or(usize::MAX)
    }

    fn __repr__(&self) -> String {
        format!(
            "Database({:?}: {}, {} positions)",
            self.path,
            retrograde::play::describe(&self.game.meta()),
            self.db.len()
        )
    }

    /// The game it was solved for: `graph`, or a registered game's name.
    #[getter]
    fn game(&self) -> String {
        self.db.meta().game.clone()
    }

    /// The game's variant (a chess ending, a Morris tier), `''` if none.
    #[getter]
    fn variant(&self) -> String {
        self.db.meta().variant.clone()
    }

    /// Everything else that defines the game, as its header keeps it.
    #[getter]
    fn params(&self) -> std::collections::BTreeMap<String, String> {
        self.db.meta().params.clone()
    }

    /// Where play starts, in the game's notation (`None` if it names none).
    #[getter]
    fn start(&self) -> Option<String> {
        self.game.start().map(|p| self.game.notation(p))
    }

    /// The position `p` names, as a number.
    fn number(&self, p: &Bound<'_, PyAny>) -> PyResult<u64> {
        self.position(p)
    }

    /// Position `p` in the game's notation.
    fn notation(&self, p: &Bound<'_, PyAny>) -> PyResult<String> {
        Ok(self.game.notation(self.position(p)?))
    }

    /// The value of `p` for the player to move: (outcome code, remoteness
    /// or None for a draw). A position the database does not hold raises
    /// `KeyError`.
    fn value(&self, p: &Bound<'_, PyAny>) -> PyResult<(u8, Option<u32>)> {
        let v = self.position(p)?;
        match self.probe().value(v) {
            Ok(Some(x)) => Ok((x.outcome as u8, x.remoteness)),
            Ok(None) => Err(PyKeyError::new_err(format!(
                "{} is not a position of {}",
                self.game.notation(v),
                retrograde::play::describe(&self.game.meta())
            ))),
            Err(e) => Err(PyOSError::new_err(e.to_string())),
        }
    }

    /// The moves of `p`, best first: (move, position it leads to in the
    /// game's notation, outcome code for the mover, remoteness or None,
    /// plies longer than best play or None).
    #[allow(clippy::type_complexity)]
    fn moves(
        &self,
        p: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<(String, String, u8, Option<u32>, Option<i64>)>> {
        let v = self.position(p)?;
        let answer = self.probe().answer(v).map_err(probe_error)?;
        Ok(answer
            .moves
            .into_iter()
            .map(|m| {
                (
                    m.name,
                    self.game.notation(m.to),
                    m.value.outcome as u8,
                    m.value.remoteness,
                    m.delta,
                )
            })
            .collect())
    }
}

/// Opens the database at `path` (mapped, its header checked; each block
/// checked as it is read).
#[pyfunction]
fn load(path: std::path::PathBuf) -> PyResult<Loaded> {
    let db = Arc::new(Database::open(&path).map_err(|e| PyOSError::new_err(e.to_string()))?);
    let game: Box<dyn Playable + Send> = if db.meta().game == "graph" {
        Box::new(StoredGraph::new(Arc::clone(&db)).map_err(|e| PyOSError::new_err(e.to_string()))?)
    } else {
        let game: Box<dyn retrograde::registry::Solvable> = retrograde_games::registry()
            .open(db.meta())
            .map_err(|e| PyValueError::new_err(format!("{}: {e}", path.display())))?;
        game
    };
    Ok(Loaded {
        db,
        game,
        path: path.display().to_string(),
    })
}

/// The native part of the `retrograde` package.
#[pymodule]
fn _retrograde(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("WIN", WIN)?;
    m.add("LOSE", LOSE)?;
    m.add("TIE", TIE)?;
    m.add("DRAW", DRAW)?;
    m.add_class::<Solved>()?;
    m.add_class::<Loaded>()?;
    m.add_class::<Index>()?;
    m.add_class::<TieredSolved>()?;
    m.add_function(wrap_pyfunction!(solve_tiers, m)?)?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(solve_edges, m)?)?;
    m.add_function(wrap_pyfunction!(explore, m)?)?;
    Ok(())
}
