//! `retrograde solve GRAPH`: solve an explicit game graph.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use retrograde::io::{solution, write_atomically};
use retrograde::{human_bytes, solve, GameGraph, NoMoveRule, Outcome, Solution};

use crate::common::{self, Timings};
use crate::progress::Bars;

/// Options of `retrograde solve`.
#[derive(clap::Args)]
pub struct Args {
    /// The graph: a text edge list (one move `u v` per line) or a binary graph (`-` for standard input).
    pub graph: PathBuf,
    /// Who wins when the player to move has no move: `lose` (normal play) or `win` (misère).
    #[arg(long, value_name = "lose|win", default_value = "lose")]
    pub no_move: NoMoveRule,
    /// Terminal labels: lines `vertex win|lose|draw` (value for the player to move there).
    #[arg(long, value_name = "FILE")]
    pub terminal: Option<PathBuf>,
    /// The number of vertices (default: the largest id + 1); ids must be below it.
    #[arg(long, value_name = "N")]
    pub vertices: Option<usize>,
    /// Write one line per vertex: vertex, outcome, remoteness, best move (tab-separated).
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Print the line of this vertex (repeatable).
    #[arg(long, value_name = "V")]
    pub query: Vec<u32>,
    /// Print the line of best play from this vertex (repeatable).
    #[arg(long, value_name = "V")]
    pub line: Vec<u32>,
    /// How many plies of an endless (drawn) line to print.
    #[arg(long, value_name = "PLIES", default_value_t = 20)]
    pub line_limit: usize,
    /// Refuse inputs that would need more memory than this (e.g. 8G; default: the machine's memory).
    #[arg(long, value_name = "SIZE", value_parser = common::parse_bytes)]
    pub max_memory: Option<u64>,
    /// Which solver runs: `auto` (parallel when there is more than one thread; timely with --cluster), `sequential`, `parallel`, `timely`.
    #[arg(long, value_enum, default_value = "auto")]
    pub engine: Engine,
    /// Print a table of time, edges per second and peak memory per phase.
    #[arg(long)]
    pub stats: bool,
    /// Print no summary and no progress bars.
    #[arg(long, short)]
    pub quiet: bool,
    /// The timely engine and cluster options.
    #[command(flatten)]
    pub cluster: crate::cluster::ClusterArgs,
}

/// The solver engines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Engine {
    /// Parallel when more than one thread is available, else sequential.
    Auto,
    /// The FIFO solver on one thread.
    Sequential,
    /// The level-by-level solver on all threads.
    Parallel,
    /// The timely-dataflow engine: workers own shares of the vertices and
    /// exchange messages, in one process (`--threads` workers) or a cluster.
    Timely,
}

pub fn run(args: Args) -> Result<ExitCode> {
    if args.cluster.wants_timely(args.engine)? {
        return crate::cluster::run(args);
    }
    let bars = Bars::new(args.quiet);
    let mut times = Timings::default();
    let limit = common::memory_limit(args.max_memory);

    let (graph, rules) = times.time("read", || {
        common::load_game(
            &args.graph,
            args.terminal.as_deref(),
            args.vertices,
            args.no_move,
            limit,
            (common::SOLVE_BYTES_PER_POSITION, 0),
            &bars,
        )
    })?;
    let n = graph.vertex_count();
    for &v in args.query.iter().chain(&args.line) {
        if v as usize >= n {
            anyhow::bail!("vertex {v} is not in the graph ({n} vertices)");
        }
    }

    let engine = match args.engine {
        Engine::Auto if rayon::current_num_threads() > 1 => Engine::Parallel,
        Engine::Auto => Engine::Sequential,
        e => e,
    };
    let sol = times.time("solve", || match engine {
        Engine::Parallel => solve::solve_parallel_with_progress(&graph, &rules, &bars),
        _ => solve::solve_with_progress(&graph, &rules, &bars),
    })?;

    if let Some(path) = &args.output {
        times.time("write", || {
            bars.spin("write", || {
                write_atomically(path, |w| solution::write(w, &sol))
            })
        })?;
    }

    let stdout = io::stdout();
    let mut out = stdout.lock();
    if !args.quiet {
        let s = sol.summary();
        writeln!(
            out,
            "graph: {}: {} vertices, {} edges{}",
            args.graph.display(),
            n,
            graph.edge_count(),
            if rules.labels.is_empty() {
                String::new()
            } else {
                format!(", {} terminal labels", rules.labels.len())
            }
        )?;
        writeln!(out, "solved: {s}")?;
        let peak = times
            .peak()
            .map_or_else(String::new, |b| format!("; peak memory {}", human_bytes(b)));
        writeln!(
            out,
            "time: {}{peak} ({} engine, {} threads)",
            times.line(),
            if engine == Engine::Parallel {
                "parallel"
            } else {
                "sequential"
            },
            if engine == Engine::Parallel {
                rayon::current_num_threads()
            } else {
                1
            },
        )?;
        if let Some(path) = &args.output {
            writeln!(out, "wrote: {}", path.display())?;
        }
    }
    if args.stats {
        write!(out, "{}", times.table(graph.edge_count()))?;
    }
    for &v in &args.query {
        solution::write_line(&mut out, &sol, v)?;
    }
    for &v in &args.line {
        print_line(&mut out, &sol, v, args.line_limit)?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

pub fn print_line(out: &mut dyn Write, sol: &Solution, v: u32, limit: usize) -> io::Result<()> {
    let line = sol.line(v, limit);
    let verdict = match (sol.outcome(v), sol.remoteness(v)) {
        (Outcome::Draw, _) => "draw".to_string(),
        (o, Some(r)) => format!("{o} in {r}"),
        (o, None) => o.to_string(),
    };
    writeln!(out, "line from {v} ({verdict} for the player to move):")?;
    for (ply, &p) in line.positions.iter().enumerate() {
        let rem = sol
            .remoteness(p)
            .map_or_else(|| "-".to_string(), |r| r.to_string());
        writeln!(out, "  {ply}\t{p}\t{}\t{rem}", sol.outcome(p))?;
    }
    let last = line.positions.last().copied().unwrap_or(v);
    match common::endless_note(&line, limit) {
        Some(note) => writeln!(out, "  {note}")?,
        None => writeln!(
            out,
            "  game over at {last}: {} for the player to move",
            sol.outcome(last)
        )?,
    }
    Ok(())
}
