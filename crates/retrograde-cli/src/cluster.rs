//! `retrograde solve --engine timely` and `--cluster`: the timely engine, in
//! this process or as one process of a cluster.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Once;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use indicatif::HumanBytes;
use retrograde::io::Input;
use retrograde::{Answers, Fingerprint, GameGraph, Rules};
use retrograde_timely::{BinaryGraph, Config, Gathered, TextEdgeList};

use crate::answers::OutputArgs;
use crate::common;
use crate::load::GameArgs;
use crate::progress::Bars;

/// Options of the timely engine.
#[derive(clap::Args, Debug)]
pub struct ClusterArgs {
    /// Run as one process of a cluster; HOSTFILE has one `host:port` line per process, process 0 first.
    #[arg(long, value_name = "HOSTFILE", requires = "process")]
    pub cluster: Option<PathBuf>,
    /// This process's index in the host list (0 writes the output and the summary).
    #[arg(long, value_name = "I", requires = "cluster")]
    pub process: Option<usize>,
    /// Seconds to wait for all processes of the cluster to connect.
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = common::parse_seconds)]
    pub connect_timeout: Duration,
    /// Seconds a round may go without any message before the run stops,
    /// naming the processes it waits for (a peer stopped or hung).
    #[arg(long, value_name = "SECONDS", default_value = "120", value_parser = common::parse_seconds)]
    pub stall_timeout: Duration,
}

impl ClusterArgs {
    /// Whether `--cluster` was given.
    pub fn is_cluster(&self) -> bool {
        self.cluster.is_some()
    }

    /// The timely configuration: process `--process` of the cluster in
    /// `--cluster`'s host list, or `threads` workers in this process.
    pub fn config(&self, threads: usize, fingerprint: u64) -> Result<Config> {
        let config = match (&self.cluster, self.process) {
            (Some(hostfile), Some(process)) => {
                let hosts = retrograde_timely::read_hostfile(&Input::open(hostfile)?)?;
                Config::cluster(hosts, process, threads)
            }
            _ => Config::threads(threads),
        };
        Ok(config
            .connect_timeout(self.connect_timeout)
            .stall_timeout(self.stall_timeout)
            .fingerprint(fingerprint))
    }
}

/// Which engine solves a numbered game.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GameEngine {
    /// The lean engine in this process: about 3 bytes a position.
    #[default]
    Lean,
    /// The timely engine: workers own shares of the positions and generate
    /// their moves (`--threads` workers here, 1 by default; with
    /// `--cluster`, one process of a cluster).
    Timely,
}

/// The engine and cluster options of a numbered game's command.
#[derive(clap::Args, Debug)]
pub struct GameClusterArgs {
    /// Which solver runs (`timely` with --cluster).
    #[arg(long, value_enum, default_value_t, help_heading = "Cluster")]
    pub engine: GameEngine,
    #[command(flatten, next_help_heading = "Cluster")]
    pub cluster: ClusterArgs,
}

impl GameClusterArgs {
    /// Whether the timely engine runs.
    pub fn timely(&self) -> bool {
        self.engine == GameEngine::Timely || self.cluster.is_cluster()
    }

    /// The number of processes sharing the positions (1 without
    /// `--cluster`), read from the host list.
    pub fn processes(&self) -> Result<usize> {
        match &self.cluster.cluster {
            Some(hostfile) => Ok(retrograde_timely::read_hostfile(&Input::open(hostfile)?)?.len()),
            None => Ok(1),
        }
    }
}

/// Solves a numbered game with the timely engine: every worker generates
/// the moves of its own positions, and the answers stay with their owners.
/// Process 0 runs `answer` and returns what it gave with the outline; every
/// other process says it is done on standard error and returns `None`.
pub fn solve_game<G, T, F>(
    config: &Config,
    game: G,
    rules: &Rules,
    quiet: bool,
    answer: F,
) -> Result<Option<(T, retrograde_timely::Timings)>>
where
    G: retrograde::GameGraph + Send + Sync + 'static,
    T: Send + 'static,
    F: FnOnce(&mut retrograde_timely::Remote<'_>) -> T + Send + 'static,
{
    let started = Instant::now();
    exit_on_timely_panic();
    let bars = Bars::new(quiet);
    let (answer, times) = bars.spin("solve", || {
        retrograde_timely::solve_graph(config, game, rules, answer)
    })?;
    match answer {
        Some(t) => Ok(Some((t, times))),
        None => {
            if !quiet {
                say_done(config, "the answers are", None, times, started)?;
            }
            Ok(None)
        }
    }
}

/// Solves a tiered game as process `--process` of `cluster`, the tiers
/// shared out among the processes
/// ([`Solvable::solve_shared`](retrograde::registry::Solvable::solve_shared)): process 0
/// gets the solution; the others say they are done and get `None`.
pub fn solve_tiers<'g>(
    game: &'g dyn retrograde::registry::Solvable,
    how: &retrograde::registry::How<'_>,
    cluster: &ClusterArgs,
    quiet: bool,
) -> Result<Option<Box<dyn retrograde::registry::GameSolution + 'g>>> {
    let started = Instant::now();
    let header = format!("{:?}", game.meta());
    let config = cluster.config(
        1,
        game_fingerprint("tiers", header.as_bytes(), &Rules::normal()),
    )?;
    exit_on_timely_panic();
    let relay = retrograde_timely::TierRelay::start(&config)?;
    let solution = game.solve_shared(how, &relay)?;
    let relayed = relay.finish()?;
    if solution.is_none() && !quiet {
        say_done(&config, "the root tier is solved", None, relayed, started)?;
    }
    Ok(solution)
}

/// What a process other than 0 says at the end: that `what` with process 0,
/// and its times and peak memory.
fn say_done(
    config: &Config,
    what: &str,
    read: Option<Duration>,
    times: retrograde_timely::Timings,
    started: Instant,
) -> io::Result<()> {
    let peak = common::peak_memory()
        .map_or_else(String::new, |b| format!("; peak memory {}", HumanBytes(b)));
    let read = read.map_or_else(String::new, |r| format!("read {:.3} s, ", r.as_secs_f64()));
    let mut out = common::talk();
    writeln!(
        out,
        "process {} of {}: done, {what} with process 0",
        config.process(),
        config.processes()
    )?;
    writeln!(
        out,
        "time: {read}connect {:.3} s, solve {:.3} s, total {:.3} s{peak}",
        times.connect.as_secs_f64(),
        times.solve.as_secs_f64(),
        started.elapsed().as_secs_f64()
    )
}

/// The line saying how the timely engine ran.
pub fn engine_line(config: &Config, rounds: u32) -> String {
    let (p, t) = (config.processes(), config.threads_per_process());
    format!(
        "engine: timely, {p} process{} x {t} worker thread{}, {rounds} rounds",
        if p == 1 { "" } else { "es" },
        if t == 1 { "" } else { "s" },
    )
}

/// A fingerprint of a game that is not a graph file: its kind, its
/// parameters' text (a board file's content) and its rules.
pub fn game_fingerprint(kind: &str, text: &[u8], rules: &Rules) -> u64 {
    Fingerprint::new()
        .text(kind)
        .bytes(text)
        .rules(rules)
        .finish()
}

/// What a timely run is given.
pub struct Run<'a> {
    /// The game to solve.
    pub game: &'a GameArgs,
    /// What to do with the solution (process 0).
    pub outputs: &'a OutputArgs,
    /// The cluster, if any.
    pub cluster: &'a ClusterArgs,
    /// No summary, no progress.
    pub quiet: bool,
    /// The JSON report on standard output (process 0).
    pub json: bool,
    /// Worker threads per process (every process must agree).
    pub threads: usize,
    /// `--max-memory`: this process's limit (default: the machine's).
    pub max_memory: Option<u64>,
    /// `--pgsolver`: a PGSolver game's solution in its format (process 0).
    pub pgsolver: Option<&'a std::path::Path>,
}

/// Solves with the timely engine. Process 0 (or the only process) writes the
/// output and prints the summary, queries and lines.
pub fn run(run: &Run) -> Result<ExitCode> {
    let threads = run.threads;
    common::check_threads(threads, common::machine_limit())?;
    let started = Instant::now();
    let bars = Bars::new(run.quiet);

    let outputs: Vec<&std::path::Path> = run.outputs.output.iter().map(|p| p.as_path()).collect();
    common::check_files(&run.game.inputs(), &outputs)?;
    let limit = common::memory_limit(run.max_memory);
    if run.game.is_pgsolver() {
        return run_pgsolver(run, started, limit);
    }
    if run.pgsolver.is_some() {
        bail!("--pgsolver writes the solution of a PGSolver game solved with --reach");
    }
    let rules = run.game.rules(limit)?;
    let owners = match &run.game.owners {
        Some(path) => Some(retrograde::io::owners::read_all(&common::open_input(
            path,
            limit,
            &Bars::new(true),
        )?)?),
        None => None,
    };
    let kept = owners.clone();
    let (input, binary) = open_graph(run, limit, &bars)?;
    // The owners are part of the game every process must agree on.
    let mut graph = Fingerprint::new().number(graph_hash(&input, binary));
    for chunk in owners.as_deref().unwrap_or_default().chunks(1 << 16) {
        let bytes: Vec<u8> = chunk.iter().map(|o| o.index()).collect();
        graph = graph.bytes(&bytes);
    }
    let graph = graph.finish();
    let config = run
        .cluster
        .config(threads, fingerprint(run.game.vertices, &rules, graph))?
        .memory_limit(limit);
    let read = started.elapsed();

    exit_on_timely_panic();
    let (solved, times) = bars.spin("solve", || match binary {
        true => {
            retrograde_timely::solve_arena_timed(&config, BinaryGraph::new(input), owners, &rules)
        }
        false => retrograde_timely::solve_arena_timed(
            &config,
            TextEdgeList::new(input, run.game.vertices),
            owners,
            &rules,
        ),
    })?;
    let ran = Ran {
        config: &config,
        rules: &rules,
        read,
        times,
        started,
        arena: kept.as_deref().map(|o| (o, None)),
    };
    finish(run, solved, &ran, |_, _| Ok(()))
}

/// Solves a PGSolver game with the timely engine: every process reads the
/// whole file (owners, priorities and moves), and the workers share its
/// moves out as any edge list's; process 0 writes `--output` and
/// `--pgsolver`.
fn run_pgsolver(run: &Run, started: Instant, limit: u64) -> Result<ExitCode> {
    let bars = Bars::new(run.quiet);
    let budget = crate::load::Budget {
        limit,
        per_vertex: 0,
        per_edge: 0,
    };
    let loaded = run.game.load_game(budget, &bars)?;
    let (Some(owners), Some(reach)) = (loaded.owners, loaded.reach) else {
        bail!("{}: not a PGSolver game", run.game.graph.display());
    };
    let rules = loaded.rules;
    let n = loaded.graph.vertex_count();
    let edges: Vec<(u32, u32)> = loaded.graph.edges().collect();
    let hash = common::open_input(&run.game.graph, limit, &Bars::new(true))?.content_hash();
    let config = run
        .cluster
        .config(
            run.threads,
            fingerprint(Some(n), &rules, hash ^ reach.priority),
        )?
        .memory_limit(limit);
    let read = started.elapsed();
    exit_on_timely_panic();
    let source = retrograde_timely::EdgeArray::new(Some(n), edges);
    let (solved, times) = bars.spin("solve", || {
        retrograde_timely::solve_arena_timed(&config, source, Some(owners.clone()), &rules)
    })?;
    let ran = Ran {
        config: &config,
        rules: &rules,
        read,
        times,
        started,
        arena: Some((&owners, Some(reach))),
    };
    finish(run, solved, &ran, |files, sol| {
        if let Some(path) = run.pgsolver {
            let arena = retrograde::graph::Arena::new(&loaded.graph, owners.clone())?;
            files.write(path, |w| {
                retrograde::io::pgsolver::write_solution(w, &arena, reach, sol)
            })?;
        }
        Ok(())
    })
}

/// What a timely run did, for [`finish`].
struct Ran<'a> {
    config: &'a Config,
    rules: &'a Rules,
    /// How long reading took.
    read: std::time::Duration,
    times: retrograde_timely::Timings,
    started: Instant,
    /// An arena's owners, and a PGSolver game's target.
    arena: Option<(
        &'a [retrograde::Player],
        Option<retrograde::io::pgsolver::Reach>,
    )>,
}

/// Ends a timely run: on process 0, the files (`--output`, and what
/// `files` stages beside it), the summary, the JSON report or the answers
/// asked; on the others, a line saying where the solution went.
fn finish(
    run: &Run,
    solved: Option<Gathered>,
    ran: &Ran<'_>,
    files: impl FnOnce(&mut retrograde::io::Outputs, &retrograde::Solution) -> Result<()>,
) -> Result<ExitCode> {
    let Some(solved) = solved else {
        if !run.quiet {
            say_done(
                ran.config,
                "the solution is",
                Some(ran.read),
                ran.times,
                ran.started,
            )?;
        }
        return Ok(ExitCode::SUCCESS);
    };
    let sol = &solved.solution;
    let asked = run.outputs.resolve(sol.len(), None)?;
    // Only the phases that ran are shown.
    let mut t = common::Timings::default();
    t.record("read", ran.read.as_secs_f64());
    t.record("connect", ran.times.connect.as_secs_f64());
    t.record("solve", ran.times.solve.as_secs_f64());
    let mut staged = retrograde::io::Outputs::new();
    if run.outputs.output.is_some() {
        t.time("write", || {
            run.outputs
                .stage(&mut staged, sol, None, &Bars::new(run.quiet))
        })?;
    }
    files(&mut staged, sol)?;
    staged.commit()?;
    let mut out = common::talk();
    if !run.quiet {
        print_summary(&mut out, run, ran.config, &solved, ran.rules, &t)?;
    }
    out.flush()?;
    if run.json {
        let report = crate::solve_report::Report {
            graph: &run.game.graph,
            moves: solved.edges,
            labels: ran.rules.labels.len() as u64,
            engine: "timely",
            threads: run.threads,
            processes: ran.config.processes(),
            times: &t,
            arena: ran.arena,
        };
        return crate::solve_report::report(&report, run.outputs, &asked, sol);
    }
    let stdout = io::stdout();
    let mut data = stdout.lock();
    asked.print(&mut data, sol)?;
    data.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Opens the graph file, and tells whether it is binary (which declares
/// its vertex count: `--vertices` is refused for it).
fn open_graph(run: &Run, limit: u64, bars: &Bars) -> Result<(Input, bool)> {
    let input = common::open_input(&run.game.graph, limit, bars)?;
    let binary = retrograde::io::binary::is_binary(input.bytes());
    if binary && run.game.vertices.is_some() {
        bail!(
            "{}: a binary graph declares its vertex count; --vertices applies to text edge lists",
            run.game.graph.display()
        );
    }
    Ok((input, binary))
}

/// The hash of the graph's content: a binary graph's checksum fingerprints
/// its content without reading it (each worker checks it against the
/// content as it reads); a text graph's content is hashed.
fn graph_hash(input: &Input, binary: bool) -> u64 {
    let checksum = input
        .bytes()
        .get(32..40)
        .filter(|_| binary)
        .and_then(|b| b.try_into().ok())
        .map(u64::from_le_bytes);
    checksum.unwrap_or_else(|| input.content_hash())
}

/// Prints the summary of a solved run: the graph, the engine, the counts,
/// the phases' times and memory, and the file written.
fn print_summary(
    out: &mut impl Write,
    run: &Run,
    config: &Config,
    solved: &Gathered,
    rules: &Rules,
    t: &common::Timings,
) -> Result<()> {
    let sol = &solved.solution;
    writeln!(
        out,
        "{}",
        common::graph_line(
            &run.game.graph,
            sol.len() as u64,
            solved.edges,
            rules.labels.len() as u64
        )
    )?;
    writeln!(out, "{}", engine_line(config, solved.rounds))?;
    writeln!(out, "solved: {}", common::summary_line(&sol.summary()))?;
    let peak = common::peak_memory().map_or_else(String::new, |b| {
        format!("; peak memory {} (this process)", HumanBytes(b))
    });
    writeln!(out, "time: {}{peak}", t.line())?;
    if let Some(path) = &run.outputs.output {
        writeln!(out, "wrote: {}", common::shown(path))?;
    }
    Ok(())
}

/// A fingerprint of everything that decides the answer, which the processes
/// of a cluster must agree on: the version, the graph's content (its hash),
/// the no-move rule, `--vertices` and every label ([`Fingerprint`]: the
/// same on every machine and build).
fn fingerprint(vertices: Option<usize>, rules: &Rules, graph_hash: u64) -> u64 {
    Fingerprint::new()
        .number(graph_hash)
        .number(vertices.map_or(u64::MAX, |v| v as u64))
        .rules(rules)
        .finish()
}

/// Installs a panic hook for timely's threads. A panic there means the run
/// cannot finish: usually a broken connection to a peer (timely's network
/// threads panic when a socket closes), after which other threads may panic
/// again or even abort. So the first such panic ends the process at once
/// with one line naming the cause and exit code 2. Panics elsewhere keep the
/// default report.
fn exit_on_timely_panic() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let thread = std::thread::current();
            let name = thread.name().unwrap_or("");
            if !name.starts_with("timely:") {
                return default(info);
            }
            let payload = info
                .payload()
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| info.payload().downcast_ref::<&str>().copied())
                .unwrap_or("a panic");
            let peer = name
                .strip_prefix("timely:recv-")
                .or_else(|| name.strip_prefix("timely:send-"));
            let cause = match peer {
                Some(p) => format!(
                    "lost the connection to process {p}, which stopped or crashed ({})",
                    payload.trim_start_matches("timely communication error: ")
                ),
                None => format!("a worker stopped: {payload}"),
            };
            crate::report_error(&format!("the run failed: {cause}"));
            std::process::exit(2);
        }));
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprint_changes_with_the_rules_and_the_input() {
        let a = fingerprint(None, &Rules::normal(), 10);
        assert_eq!(a, fingerprint(None, &Rules::normal(), 10));
        assert_ne!(a, fingerprint(None, &Rules::misere(), 10));
        assert_ne!(a, fingerprint(None, &Rules::normal(), 11));
        assert_ne!(a, fingerprint(Some(5), &Rules::normal(), 10));
    }
}
