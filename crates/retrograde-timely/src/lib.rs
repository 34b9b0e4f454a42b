//! The retrograde solver on [timely dataflow](https://docs.rs/timely): the
//! same [`Solution`](retrograde::Solution) as [`retrograde::solve()`], computed by workers in one
//! process or in several processes on several machines.
//!
//! Vertices are split among the workers by id (`v % workers`). Each worker
//! reads only its shard of the input ([`EdgeShards`]), and owns the
//! predecessors, move counters and values of its own vertices; nobody holds
//! the whole graph. The solve runs in rounds, one per ply of remoteness:
//! positions decided in round `r` tell the owners of their predecessors, who
//! decide what follows in round `r + 1`. Outcomes, remoteness and best moves
//! equal the sequential solver's exactly (best-move ties go to the smallest
//! id). Worker 0 gathers the solution at the end.
//!
//! ```
//! use retrograde::{Answers, Outcome, Rules};
//! use retrograde_timely::{solve, Config, EdgeArray};
//!
//! // 0 -> 1 -> 2; 2 has no move. 3 <-> 4 and 3 -> 0.
//! let edges = EdgeArray::new(None, vec![(0, 1), (1, 2), (3, 4), (4, 3), (3, 0)]);
//! let solved = solve(&Config::threads(2), edges, &Rules::normal()).unwrap().unwrap();
//! let s = &solved.solution;
//! assert_eq!(s.outcome(3), Outcome::Win);
//! assert_eq!((s.remoteness(3), s.best_move(3)), (Some(3), Some(0)));
//! assert_eq!(solved.edges, 5);
//! ```
//!
//! The pieces:
//! - [`Config`]: worker threads in this process, or a cluster of processes
//!   (addresses, this process's index, a connection timeout).
//! - [`EdgeShards`]: an input read in shards; [`TextEdgeList`] (a text edge
//!   list, split at line boundaries), [`BinaryGraph`] (a binary graph file,
//!   streamed and checked by every worker, which keeps its own rows) and
//!   [`EdgeArray`] (edges in memory).
//! - [`solve`]: runs the workers; process 0 gets [`Gathered`] (the
//!   solution gathered from every worker), the others `None`.
//! - [`solve_graph`]: a game whose moves are generated (any
//!   [`GameGraph`], such as a dense
//!   [`Game`](retrograde::Game)): each worker generates the moves of its own
//!   positions, nothing is stored up front, and the answers stay with their
//!   owners; worker 0 asks for them through a [`Remote`].
//!   [`share_bytes`] estimates a process's memory.
//! - [`TierRelay`]: a game solved tier by tier with its tiers shared out
//!   among the processes ([`retrograde::tier::TierSolver::solve_shared`]),
//!   each tier's database sent to every process.
//! - [`read_hostfile`]: the host list, one `host:port` per process.
//!
//! # Failures
//! A process that cannot reach all its peers within the connection timeout
//! fails with [`Error::Unreachable`]; a peer that answers with other
//! parameters is refused ([`Error::Handshake`]). If a peer dies during the
//! run, the connection to it breaks and every other process stops with
//! [`Error::Failed`] instead of waiting forever. A malformed input is
//! reported by every process with the same [`Error::Input`].
#![deny(missing_docs)]

mod channel;
mod engine;
mod error;
mod hosts;
mod input;
mod memory;
mod net;
mod on_the_fly;
mod tiers;
mod wire;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use retrograde::{GameGraph, Player, Rules};
use timely::communication::allocator::zero_copy::initialize::{
    CommsGuard, initialize_networking_from_sockets,
};
use timely::communication::allocator::{AllocatorBuilder, ProcessBuilder};
use timely::communication::{Hooks, WorkerGuards, initialize_from};
use timely::worker::Worker;
use timely::{CommunicationConfig, WorkerConfig};

pub use engine::{Gathered, graph_share_bytes};
pub use error::{ConfigError, Error, Result};
pub use hosts::read_hostfile;
pub use input::{BinaryGraph, EdgeArray, EdgeShards, TextEdgeList};
pub use memory::BUFFER_BYTES;
pub use net::{HELLO_BYTES, Hello};
pub use on_the_fly::{BYTES_PER_POSITION, Outline, Remote, share_bytes};
pub use tiers::{CHUNK_BYTES, TierRelay};

/// The default time allowed to connect to all peers.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(30);

/// The default time a round may go without any message before the run
/// stops, naming the processes it waits for.
pub const DEFAULT_STALL_TIMEOUT: Duration = Duration::from_secs(120);

/// Where the workers run: threads of this process, or a cluster of processes.
#[derive(Clone, Debug)]
pub struct Config {
    threads: usize,
    cluster: Option<Cluster>,
    connect_timeout: Duration,
    stall_timeout: Duration,
    fingerprint: u64,
    memory_limit: Option<u64>,
}

#[derive(Clone, Debug)]
struct Cluster {
    addresses: Vec<String>,
    process: usize,
}

impl Config {
    /// `threads` workers in this process.
    pub fn threads(threads: usize) -> Config {
        Config {
            threads,
            cluster: None,
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            stall_timeout: DEFAULT_STALL_TIMEOUT,
            fingerprint: 0,
            memory_limit: None,
        }
    }

    /// Process `process` of a cluster whose processes listen on `addresses`
    /// (`host:port`, in process order), each running `threads` workers. Every
    /// process is started with the same addresses and threads.
    pub fn cluster(addresses: Vec<String>, process: usize, threads: usize) -> Config {
        Config {
            cluster: Some(Cluster { addresses, process }),
            ..Config::threads(threads)
        }
    }

    /// How long to wait for all peers to connect (default 30 s).
    pub fn connect_timeout(mut self, timeout: Duration) -> Config {
        self.connect_timeout = timeout;
        self
    }

    /// How long a round may go without any message arriving before the run
    /// stops with [`Error::Failed`] naming the processes it waits for (a
    /// peer stopped, hung or cut off while its connection stays open;
    /// default 2 minutes). A peer busy longer than this between messages
    /// (building its share of a huge graph) needs more.
    pub fn stall_timeout(mut self, timeout: Duration) -> Config {
        self.stall_timeout = timeout;
        self
    }

    /// A number that must be equal in every process (for example a hash of the
    /// options and the input's size); a peer with another is refused.
    pub fn fingerprint(mut self, fingerprint: u64) -> Config {
        self.fingerprint = fingerprint;
        self
    }

    /// The memory this process may use (each process may have its own).
    /// [`solve`] estimates its share ([`graph_share_bytes`]) before reading
    /// an input that declares its size, and again once the vertex and edge
    /// counts are known, before building the share; [`solve_graph`]
    /// ([`share_bytes`]) before allocating anything. If a process's share
    /// does not fit, every process stops with the same
    /// [`Error::ShareTooLarge`]. Default: no limit.
    pub fn memory_limit(mut self, bytes: u64) -> Config {
        self.memory_limit = Some(bytes);
        self
    }

    fn limit(&self) -> Option<memory::Limit> {
        self.memory_limit.map(|bytes| memory::Limit {
            bytes,
            processes: self.processes(),
            threads: self.threads,
            process: self.process(),
        })
    }

    /// The number of processes.
    pub fn processes(&self) -> usize {
        self.cluster.as_ref().map_or(1, |c| c.addresses.len())
    }

    /// This process's index.
    pub fn process(&self) -> usize {
        self.cluster.as_ref().map_or(0, |c| c.process)
    }

    /// Worker threads per process.
    pub fn threads_per_process(&self) -> usize {
        self.threads
    }

    /// Workers in all processes together.
    pub fn workers(&self) -> usize {
        self.threads * self.processes()
    }

    fn check(&self) -> Result<()> {
        if self.threads == 0 {
            return Err(ConfigError::NoThreads.into());
        }
        if let Some(c) = &self.cluster {
            if c.addresses.is_empty() {
                return Err(ConfigError::NoHosts.into());
            }
            if c.process >= c.addresses.len() {
                return Err(ConfigError::ProcessOutOfRange {
                    process: c.process,
                    processes: c.addresses.len(),
                }
                .into());
            }
            let workers = (self.threads as u64).saturating_mul(c.addresses.len() as u64);
            if workers > u64::from(u32::MAX) {
                return Err(ConfigError::TooManyWorkers { workers }.into());
            }
        }
        Ok(())
    }
}

/// Times of a [`solve`] in this process.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Timings {
    /// Connecting to the peers (zero without a cluster).
    pub connect: Duration,
    /// Reading, solving and gathering.
    pub solve: Duration,
}

/// Strongly solves the game whose moves `source` lists, under `rules`, with
/// the workers `config` describes. Process 0 returns the whole solution; the
/// other processes of a cluster return `None`.
///
/// Every process of a cluster must call this with the same arguments (each
/// with its own index in `config`); each reads only its workers' shards of
/// `source`.
///
/// # Complexity
/// Total work **O(V + E)** as in the sequential solver, plus one exchange of
/// each edge to its owner and one message per reversed edge; `R + 2` global
/// rounds for a longest remoteness `R`. Memory per worker: its share of the
/// reverse rows and 21 bytes per owned position; worker 0 also holds the
/// gathered solution (9 bytes per position).
///
/// # Errors
/// See [`Error`]: bad configuration, unreachable or mismatched peers, a peer
/// lost during the run, or bad input (reported identically everywhere).
pub fn solve<S>(config: &Config, source: S, rules: &Rules) -> Result<Option<Gathered>>
where
    S: EdgeShards + 'static,
{
    solve_timed(config, source, rules).map(|(s, _)| s)
}

/// [`solve`], also returning how long connecting and solving took.
pub fn solve_timed<S>(
    config: &Config,
    source: S,
    rules: &Rules,
) -> Result<(Option<Gathered>, Timings)>
where
    S: EdgeShards + 'static,
{
    solve_arena_timed(config, source, None, rules)
}

/// [`solve`] for an arena: the graph `source` lists, whose vertex `v` is
/// owned by `owners[v]` (see [`retrograde::graph::Arena`]: a move between
/// two vertices of the same owner keeps the turn). Every process holds the
/// owners (a byte a vertex) and must be given the same. The solution equals
/// [`retrograde::solve()`]'s on the [`Arena`](retrograde::graph::Arena).
///
/// # Errors
/// As [`solve`]; [`retrograde::Error::OwnerCount`] unless there is one owner
/// a vertex.
pub fn solve_arena<S>(
    config: &Config,
    source: S,
    owners: Vec<Player>,
    rules: &Rules,
) -> Result<Option<Gathered>>
where
    S: EdgeShards + 'static,
{
    solve_arena_timed(config, source, Some(owners), rules).map(|(s, _)| s)
}

/// [`solve_arena`] (or [`solve`], without owners), also returning how long
/// connecting and solving took.
pub fn solve_arena_timed<S>(
    config: &Config,
    source: S,
    owners: Option<Vec<Player>>,
    rules: &Rules,
) -> Result<(Option<Gathered>, Timings)>
where
    S: EdgeShards + 'static,
{
    let limit = config.limit();
    let shared = Arc::new((source, owners, rules.clone()));
    run(config, move |worker, watch, abort| {
        let (source, owners, rules) = &*shared;
        engine::run_worker(
            worker,
            source,
            owners.as_deref(),
            rules,
            watch,
            abort,
            limit,
        )
    })
}

/// Strongly solves `graph` under `rules` with the workers `config`
/// describes, each generating the out-degrees and reverse moves of its own
/// positions only (3 bytes a position, as in the lean engine, and the
/// current and next ply: [`BYTES_PER_POSITION`] in the estimate); then runs
/// `answer` on worker 0 with the solution, which stays spread over the
/// workers. Process 0 returns what `answer` returned; the other processes
/// of a cluster return `None`.
///
/// `graph` is typically a dense [`Game`](retrograde::Game) seen through
/// [`AsGraph`](retrograde::game::AsGraph), or a mapped binary graph
/// ([`retrograde::io::binary::read`]). Every process must call this with the
/// same game and rules.
///
/// ```
/// use retrograde::game::{AsGraph, Game};
/// use retrograde::{Outcome, Rules};
/// use retrograde_timely::{solve_graph, Config};
///
/// /// A token on squares 0..10 moves one or two squares left; on 0 the
/// /// player to move has lost.
/// struct Slide;
/// impl Game for Slide {
///     fn position_count(&self) -> usize { 10 }
///     fn for_each_move<F: FnMut(u32)>(&self, p: u32, mut f: F) {
///         (1..=2).filter(|&k| k <= p).for_each(|k| f(p - k));
///     }
///     fn for_each_unmove<F: FnMut(u32)>(&self, p: u32, mut f: F) {
///         (1..=2).filter(|&k| p + k < 10).for_each(|k| f(p + k));
///     }
/// }
///
/// let (answer, _) = solve_graph(&Config::threads(2), AsGraph(Slide), &Rules::normal(), |remote| {
///     let summary = remote.outline().summary();
///     (summary, remote.values(&[9, 4]))
/// })
/// .unwrap();
/// let (summary, values) = answer.unwrap();
/// assert_eq!((summary.wins, summary.losses), (6, 4)); // multiples of 3 lose
/// let values = values.unwrap();
/// assert_eq!(values[0].unwrap().outcome, Outcome::Lose);
/// assert_eq!(values[1].unwrap().remoteness, Some(3));
/// ```
///
/// # Complexity
/// Total work **O(V + E)** as in the lean engine, with one message per
/// reverse move whose predecessor another worker owns; `R + 2` global rounds
/// for a longest remoteness `R`, and two per batch of
/// [`Remote::values`]. Memory per worker: about [`BYTES_PER_POSITION`] a
/// position it owns, plus message buffers ([`share_bytes`] estimates a
/// process).
///
/// # Errors
/// As [`solve`]; also if a terminal label names a position outside the game.
/// While `answer` runs, the other workers wait for its questions: if it
/// computes for longer than the stall timeout between two of them, they
/// stop ([`Config::stall_timeout`]).
pub fn solve_graph<G, T, F>(
    config: &Config,
    graph: G,
    rules: &Rules,
    answer: F,
) -> Result<(Option<T>, Timings)>
where
    G: GameGraph + Send + Sync + 'static,
    T: Send + 'static,
    F: FnOnce(&mut Remote<'_>) -> T + Send + 'static,
{
    let limit = config.limit();
    let shared = Arc::new((graph, rules.clone(), Mutex::new(Some(answer))));
    run(config, move |worker, watch, abort| {
        let (graph, rules, answer) = &*shared;
        let answer = if worker.index() == 0 {
            answer.lock().ok().and_then(|mut a| a.take())
        } else {
            None
        };
        on_the_fly::run_worker(worker, graph, rules, watch, abort, limit, answer)
    })
}

/// Starts the workers `config` describes, runs `work` on each, and returns
/// what worker 0 (or whichever worker returned something) gave back.
fn run<R, W>(config: &Config, work: W) -> Result<(Option<R>, Timings)>
where
    R: Send + 'static,
    W: Fn(&mut Worker, channel::Watch, &AtomicBool) -> Result<Option<R>> + Send + Sync + 'static,
{
    config.check()?;
    let started = Instant::now();
    let (builders, comms) = match &config.cluster {
        None => (local_builders(config.threads)?, None),
        Some(c) => {
            let (builders, guard) = cluster_builders(config, c)?;
            (builders, Some(guard))
        }
    };
    let connect = started.elapsed();
    let guards = start_workers(config, builders, work)?;
    let mut joined = Joined::of(guards);
    if let Some(guard) = comms {
        joined.shut_down(guard)?;
    }
    let solved = joined.result()?;
    let timings = Timings {
        connect,
        solve: started.elapsed() - connect,
    };
    Ok((solved, timings))
}

/// The allocators of `threads` workers in this process alone.
fn local_builders(threads: usize) -> Result<Vec<AllocatorBuilder>> {
    let comm = if threads == 1 {
        CommunicationConfig::Thread
    } else {
        CommunicationConfig::Process(threads)
    };
    let (builders, _) = comm
        .try_build()
        .map_err(|message| Error::Failed { message })?;
    Ok(builders)
}

/// The allocators of this process's workers in cluster `c`, connected to
/// the other processes, and the guard of the network threads.
fn cluster_builders(config: &Config, c: &Cluster) -> Result<(Vec<AllocatorBuilder>, CommsGuard)> {
    let sockets = net::connect(&net::Plan {
        addresses: &c.addresses,
        process: c.process,
        threads: config.threads,
        fingerprint: config.fingerprint,
        timeout: config.connect_timeout,
    })?;
    let hooks = Hooks::default();
    let local =
        ProcessBuilder::new_typed_vector(config.threads, hooks.refill.clone(), hooks.spill.clone());
    let (builders, guard) =
        initialize_networking_from_sockets(local, sockets, c.process, config.threads, hooks)
            .map_err(|e| Error::Failed {
                message: format!("starting the network threads: {e}"),
            })?;
    Ok((
        builders.into_iter().map(AllocatorBuilder::Tcp).collect(),
        guard,
    ))
}

/// Starts one worker thread per allocator, each running `work`; a worker
/// that fails or panics sets the abort flag the others watch.
fn start_workers<R, W>(
    config: &Config,
    builders: Vec<AllocatorBuilder>,
    work: W,
) -> Result<WorkerGuards<Result<Option<R>>>>
where
    R: Send + 'static,
    W: Fn(&mut Worker, channel::Watch, &AtomicBool) -> Result<Option<R>> + Send + Sync + 'static,
{
    let watch = channel::Watch {
        stall: config.stall_timeout,
        threads: config.threads,
    };
    let abort = Arc::new(AtomicBool::new(false));
    initialize_from(builders, Box::new(()), move |allocator| {
        let _flag = AbortOnPanic(&abort);
        let mut worker = Worker::new(WorkerConfig::default(), allocator, Some(Instant::now()));
        let result = work(&mut worker, watch, &abort);
        if result.is_err() {
            abort.store(true, Ordering::Relaxed);
        }
        result
    })
    .map_err(|message| Error::Failed { message })
}

/// What the workers returned, once all were joined.
struct Joined<R> {
    /// The first answer a worker gave back.
    solved: Option<R>,
    /// The error that caused the others ([`keep_cause`]).
    first_error: Option<Error>,
    /// The first panic's message.
    panicked: Option<String>,
}

impl<R: Send + 'static> Joined<R> {
    /// Joins the workers of `guards`.
    fn of(guards: WorkerGuards<Result<Option<R>>>) -> Joined<R> {
        let mut joined = Joined {
            solved: None,
            first_error: None,
            panicked: None,
        };
        for r in guards.join() {
            match r {
                Ok(Ok(s)) => joined.solved = joined.solved.or(s),
                Ok(Err(e)) => keep_cause(&mut joined.first_error, e),
                Err(p) => {
                    joined.panicked.get_or_insert(p);
                }
            }
        }
        joined
    }

    /// Shuts the network threads of `guard` down if the run ended cleanly.
    ///
    /// An input error is agreed on by every worker at the same point: the
    /// run shuts down cleanly. Any other failure may leave the network
    /// threads stuck on a dead peer: they are not waited for.
    fn shut_down(&mut self, guard: CommsGuard) -> Result<()> {
        let clean = self.panicked.is_none()
            && matches!(
                self.first_error,
                None | Some(Error::Input(_)) | Some(Error::ShareTooLarge { .. })
            );
        if !clean {
            std::mem::forget(guard);
            return Ok(());
        }
        // Joining the network threads panics if a connection broke.
        let shutdown = std::thread::Builder::new()
            .name("timely:shutdown".into())
            .spawn(move || drop(guard))
            .map_err(|e| Error::Failed {
                message: format!("shutting down the network threads: {e}"),
            })?;
        if shutdown.join().is_err() && self.first_error.is_none() {
            self.panicked = Some("timely communication error: at shutdown".into());
        }
        Ok(())
    }

    /// The answer, or the panic or error that stopped the run.
    fn result(self) -> Result<Option<R>> {
        if let Some(p) = self.panicked {
            return Err(Error::Failed {
                message: describe_panic(&p),
            });
        }
        if let Some(e) = self.first_error {
            return Err(e);
        }
        Ok(self.solved)
    }
}

/// Keeps in `first` the error that caused the others, of those the workers
/// return: input errors are the same everywhere, and another worker's
/// stopping ([`Error::AnotherWorkerFailed`]) is a consequence, which gives
/// way to any other error (as does a failure, for an error that may be its
/// cause).
fn keep_cause(first: &mut Option<Error>, e: Error) {
    let consequence = matches!(e, Error::AnotherWorkerFailed);
    let replaceable = matches!(
        first,
        Some(Error::Failed { .. } | Error::AnotherWorkerFailed)
    );
    if first.is_none() || (!consequence && replaceable) {
        *first = Some(e);
    }
}

/// Sets the abort flag if the worker thread unwinds, so that the other
/// workers of this process stop instead of waiting for it.
struct AbortOnPanic<'a>(&'a AtomicBool);

impl Drop for AbortOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.store(true, Ordering::Relaxed);
        }
    }
}

fn describe_panic(p: &str) -> String {
    if p.contains("MergeQueue poisoned") || p.contains("timely communication error") {
        "the connection to another process broke (it stopped or crashed)".to_string()
    } else {
        format!("a worker stopped: {p}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The run reports the worker's own error, not the others' stopping
    /// because of it, in whatever order the workers are joined.
    #[test]
    fn the_cause_is_kept_over_another_worker_s_stopping() {
        let input = || Error::Input(retrograde::Error::SourceChanged);
        for order in [[0, 1, 2], [1, 0, 2], [1, 2, 0], [2, 1, 0]] {
            let mut first = None;
            for i in order {
                keep_cause(
                    &mut first,
                    match i {
                        0 => input(),
                        _ => Error::AnotherWorkerFailed,
                    },
                );
            }
            assert!(
                matches!(first, Some(Error::Input(retrograde::Error::SourceChanged))),
                "{order:?}: {first:?}"
            );
        }
        // A failure gives way to a later error that may be its cause; two
        // consequences keep the first.
        let mut first = Some(Error::Failed {
            message: "a record arrived damaged".into(),
        });
        keep_cause(&mut first, input());
        assert!(matches!(first, Some(Error::Input(_))), "{first:?}");
        let mut first = Some(Error::AnotherWorkerFailed);
        keep_cause(&mut first, Error::AnotherWorkerFailed);
        assert!(matches!(first, Some(Error::AnotherWorkerFailed)));
    }
}
