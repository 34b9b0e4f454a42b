//! `retrograde solve GRAPH`: solve an explicit game graph.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Result;
use indicatif::HumanBytes;
use retrograde::graph::Arena;
use retrograde::io::Outputs;
use retrograde::io::names::Names;
use retrograde::io::pgsolver::{self, Reach};
use retrograde::solver::{self, Choice};
use retrograde::{Answers, Csr, GameGraph, Player, Rules, Solution, Solver};

use crate::Global;
use crate::answers::OutputArgs;
use crate::cluster::{self, ClusterArgs};
use crate::common::{self, Stdout, Timings};
use crate::db::Saved;
use crate::load::{Budget, GameArgs, Loaded};
use crate::progress::Bars;
use crate::solve_report::{Report, owned, regions, report};

/// Options of `retrograde solve`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten, next_help_heading = "Input")]
    pub game: GameArgs,
    #[command(flatten, next_help_heading = "Output")]
    pub outputs: OutputArgs,
    /// Print a table of time, edges per second and peak memory per phase (on standard error).
    #[arg(long, help_heading = "Output")]
    pub stats: bool,
    /// Print one JSON object on standard output: counts, longest remoteness,
    /// histogram, the --query and --line answers, engine, time and memory (docs/JSON.md).
    #[arg(long, help_heading = "Output")]
    pub json: bool,
    /// Print no summary and no progress bars.
    #[arg(long, short, help_heading = "Output")]
    pub quiet: bool,
    /// Which solver runs: `auto` (parallel when there is more than one thread; timely with --cluster), `sequential`, `parallel`, `timely`.
    #[arg(long, value_enum, default_value = "auto", help_heading = "Performance")]
    pub engine: Engine,
    /// Refuse inputs that would need more memory than this (e.g. 8G; default: the machine's memory;
    /// with the timely engine, this process's share).
    #[arg(long, value_name = "SIZE", value_parser = common::parse_bytes, help_heading = "Performance")]
    pub max_memory: Option<u64>,
    /// Threads for parsing, building and solving (default: all cores; the timely engine: workers per process, default 1).
    #[arg(long, short = 'j', value_name = "N", help_heading = "Performance")]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub save: crate::db::SaveArgs,
    /// Write the graph for Graphviz into FILE: vertices coloured by outcome and labelled with
    /// their remoteness, best moves bold (graphs of up to 10,000 vertices).
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    pub dot: Option<std::path::PathBuf>,
    /// For a PGSolver game (--reach): write the winner of every vertex and the winner's
    /// strategy in PGSolver's solution format (`paritysol N;` then `vertex winner move;`).
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    pub pgsolver: Option<std::path::PathBuf>,
    /// The timely engine and cluster options.
    #[command(flatten, next_help_heading = "Cluster")]
    pub cluster: ClusterArgs,
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

impl Engine {
    /// The library's engine (the timely engine is not the library's: `None`).
    fn library(self) -> Option<solver::Engine> {
        match self {
            Engine::Auto => Some(solver::Engine::Auto),
            Engine::Sequential => Some(solver::Engine::Sequential),
            Engine::Parallel => Some(solver::Engine::Parallel),
            Engine::Timely => None,
        }
    }
}

/// Bytes per position the solvers need beyond the graph: the larger of the
/// sequential and parallel engines' estimates.
pub const SOLVE_BYTES_PER_POSITION: u64 = {
    use retrograde::solve::{PARALLEL_BYTES_PER_POSITION, SEQUENTIAL_BYTES_PER_POSITION};
    if PARALLEL_BYTES_PER_POSITION > SEQUENTIAL_BYTES_PER_POSITION {
        PARALLEL_BYTES_PER_POSITION
    } else {
        SEQUENTIAL_BYTES_PER_POSITION
    }
};

pub fn run(args: Args, global: Global) -> Result<ExitCode> {
    let timely = wants_timely(&args)?;
    check_stdout(&args)?;
    if timely {
        return run_timely(&args, &global);
    }
    check_files(&args)?;
    let bars = Bars::new(args.quiet);
    let mut times = Timings::default();
    let Loaded {
        graph,
        rules,
        names,
        owners,
        reach,
        start,
    } = load(&args, &bars, &mut times)?;
    let n = graph.vertex_count();
    let asked = args.outputs.resolve(n, names.as_ref())?;
    if args.dot.is_some() {
        check_dot(n)?;
    }
    if args.pgsolver.is_some() && reach.is_none() {
        anyhow::bail!("--pgsolver writes the solution of a PGSolver game solved with --reach");
    }

    let mut solver = Solver::new()
        .engine(args.engine.library().unwrap_or_default())
        .rules(rules.clone())
        .progress(&bars);
    if let Some(limit) = args.max_memory {
        solver = solver.max_memory(limit);
    }
    let choice = choose_engine(&solver, args.engine, n)?;
    let arena = owners.map(|o| Arena::new(&graph, o)).transpose()?;
    let sol = times.time("solve", || -> Result<Solution> {
        Ok(match &arena {
            None => solver.solve_stored(&graph)?,
            Some(a) => solver.solve_stored(a)?,
        })
    })?;
    let game = Solving {
        graph: &graph,
        rules: &rules,
        names: names.as_ref(),
        arena: arena.as_ref(),
        reach,
        start,
    };
    let saved = write_files(&args, &game, &sol, &bars, &mut times)?;
    Saved::say(saved.as_ref(), args.quiet || args.json)?;

    let mut out = common::talk();
    if !args.quiet {
        let run = SolveRun {
            graph: &graph,
            rules: &rules,
            owners: arena.as_ref().map(|a| a.owners()),
            reach,
            choice,
        };
        print_summary(&mut out, &args, &run, &sol, &times)?;
    }
    if args.stats {
        write!(out, "{}", times.table(graph.edge_count()))?;
    }
    out.flush()?;
    if args.json {
        return report(
            &Report {
                graph: &args.game.graph,
                moves: graph.edge_count(),
                labels: rules.labels.len() as u64,
                engine: choice.engine.name(),
                threads: choice.threads,
                processes: 1,
                times: &times,
                arena: arena.as_ref().map(|a| (a.owners(), reach)),
            },
            &args.outputs,
            &asked,
            &sol,
        );
    }
    let stdout = io::stdout();
    let mut out = stdout.lock();
    asked.print(&mut out, &sol)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Whether the timely engine runs: asked for, or implied by `--cluster`
/// (which no other engine takes).
fn wants_timely(args: &Args) -> Result<bool> {
    Ok(match (args.engine, args.cluster.cluster.is_some()) {
        (Engine::Timely, _) | (Engine::Auto, true) => true,
        (_, true) => anyhow::bail!("--cluster runs the timely engine; drop --engine"),
        _ => false,
    })
}

/// Refuses, before any work and on every engine, outputs that would share
/// standard output with one another.
fn check_stdout(args: &Args) -> Result<()> {
    let files_to_stdout: Vec<Stdout<'_>> = args
        .save
        .save
        .iter()
        .map(|p| Stdout::File("database", p))
        .chain(args.dot.iter().map(|p| Stdout::File("Graphviz graph", p)))
        .chain(
            args.pgsolver
                .iter()
                .map(|p| Stdout::File("PGSolver solution", p)),
        )
        .collect();
    args.outputs.check(args.json, &files_to_stdout)
}

/// Solves with the timely engine (in one process or a cluster), refusing
/// the options it does not take.
fn run_timely(args: &Args, global: &Global) -> Result<ExitCode> {
    if args.game.names {
        anyhow::bail!("--names applies to the sequential and parallel engines only");
    }
    if args.save.save.is_some() || args.dot.is_some() {
        anyhow::bail!("--save and --dot apply to the sequential and parallel engines only");
    }
    crate::cluster::run(&cluster::Run {
        game: &args.game,
        outputs: &args.outputs,
        cluster: &args.cluster,
        quiet: args.quiet,
        json: args.json,
        threads: global.threads.unwrap_or(1),
        max_memory: args.max_memory,
        pgsolver: args.pgsolver.as_deref(),
    })
}

/// Refuses outputs that would overwrite an input or one another.
fn check_files(args: &Args) -> Result<()> {
    let mut outputs: Vec<&std::path::Path> =
        args.outputs.output.iter().map(|p| p.as_path()).collect();
    outputs.extend(args.save.outputs());
    outputs.extend(args.dot.iter().map(|p| p.as_path()));
    outputs.extend(args.pgsolver.iter().map(|p| p.as_path()));
    common::check_files(&args.game.inputs(), &outputs)
}

/// Reads the graph, its rules, names and owners, refused if the graph, the
/// solver's state and what writing the database `--save` keeps holds do
/// not fit the memory limit.
fn load(args: &Args, bars: &Bars, times: &mut Timings) -> Result<Loaded> {
    let (save_per_vertex, save_per_edge) = args.save.graph_bytes();
    let budget = Budget {
        limit: common::memory_limit(args.max_memory),
        per_vertex: SOLVE_BYTES_PER_POSITION + save_per_vertex,
        per_edge: save_per_edge,
    };
    times.time("read", || args.game.load_game(budget, bars))
}

/// The engine that solves `n` positions, with a note when the parallel
/// engine was asked for and cannot take them.
fn choose_engine(solver: &Solver<'_>, asked: Engine, n: usize) -> Result<Choice> {
    let choice = solver.choose_stored(n)?;
    if asked == Engine::Parallel && choice.engine != solver::Engine::Parallel {
        eprintln!(
            "retrograde: note: {n} positions are more than the parallel engine takes; \
             solving with the sequential engine"
        );
    }
    Ok(choice)
}

/// What was solved: the graph, its rules and names, and, for an arena, its
/// owners and a PGSolver game's target.
struct Solving<'a> {
    graph: &'a Csr,
    rules: &'a Rules,
    names: Option<&'a Names>,
    arena: Option<&'a Arena<&'a Csr>>,
    reach: Option<Reach>,
    /// Where play starts (a PGSolver game's `start`).
    start: Option<u32>,
}

/// Stages every output (`--output`, `--save`, `--dot`, `--pgsolver`), then
/// commits them so that all appear together (or none does). Returns the
/// database saved.
fn write_files(
    args: &Args,
    game: &Solving<'_>,
    sol: &Solution,
    bars: &Bars,
    times: &mut Timings,
) -> Result<Option<Saved>> {
    let mut files = Outputs::new();
    if args.outputs.output.is_some() {
        times.time("write", || {
            args.outputs.stage(&mut files, sol, game.names, bars)
        })?;
    }
    let saved = save(args, game, sol, bars, &mut files, times)?;
    if let Some(path) = &args.dot {
        let text = dot(game.graph, sol, game.names, game.arena.map(|a| a.owners()));
        files.write(path, |w| w.write_all(text.as_bytes()))?;
    }
    if let (Some(path), Some(arena), Some(reach)) = (&args.pgsolver, game.arena, game.reach) {
        files.write(path, |w| pgsolver::write_solution(w, arena, reach, sol))?;
    }
    files.commit()?;
    Ok(saved)
}

/// What was solved, and how: for the summary.
struct SolveRun<'a> {
    graph: &'a Csr,
    rules: &'a Rules,
    /// An arena's owners.
    owners: Option<&'a [Player]>,
    /// A PGSolver game's target.
    reach: Option<Reach>,
    /// The engine that ran, on how many threads.
    choice: Choice,
}

/// Prints the summary on `out`: the graph, the counts, the time and
/// memory, the engine, and the files written.
fn print_summary(
    out: &mut impl Write,
    args: &Args,
    run: &SolveRun<'_>,
    sol: &Solution,
    times: &Timings,
) -> Result<()> {
    writeln!(
        out,
        "{}",
        common::graph_line(
            &args.game.graph,
            run.graph.vertex_count() as u64,
            run.graph.edge_count(),
            run.rules.labels.len() as u64
        )
    )?;
    if let Some(owners) = run.owners {
        let [first, second] = owned(owners);
        writeln!(
            out,
            "owners: player 0 moves at {}, player 1 at {second}",
            common::count(first, "vertex", "vertices"),
        )?;
    }
    writeln!(out, "solved: {}", common::summary_line(&sol.summary()))?;
    if let (Some(owners), Some(reach)) = (run.owners, run.reach) {
        let [first, second] = regions(owners, reach, sol);
        writeln!(
            out,
            "reach priority {} by player {}: player 0 wins from {}, player 1 from {second}",
            reach.priority,
            reach.reacher,
            common::count(first, "vertex", "vertices"),
        )?;
    }
    let peak = times
        .peak()
        .map_or_else(String::new, |b| format!("; peak memory {}", HumanBytes(b)));
    writeln!(
        out,
        "time: {}{peak} ({} engine, {})",
        times.line(),
        run.choice.engine.name(),
        common::count(run.choice.threads as u64, "thread", "threads"),
    )?;
    for path in args
        .outputs
        .output
        .iter()
        .chain(&args.dot)
        .chain(&args.pgsolver)
    {
        writeln!(out, "wrote: {}", common::shown(path))?;
    }
    Ok(())
}

/// Stages the database of an explicit graph's solution, if `--save` was
/// given, with its moves (a labelled position keeps none: it is over), so
/// that it can be queried and played without the graph, and its vertices'
/// names if they have names (then read and shown by name).
fn save<S: Answers + Sync>(
    args: &Args,
    game: &Solving<'_>,
    sol: &S,
    bars: &Bars,
    files: &mut Outputs,
    times: &mut Timings,
) -> Result<Option<Saved>> {
    if args.save.save.is_none() {
        return Ok(None);
    }
    let (graph, rules, names) = (game.graph, game.rules, game.names);
    let (offsets, targets) = retrograde::db::graph_moves(graph, rules);
    let mut meta = retrograde::db::Meta::new("graph")
        .param("graph", args.game.graph.display())
        .param("labels", rules.labels.len())
        .param(
            "no_move",
            match rules.no_move {
                retrograde::NoMoveRule::Lose => "lose",
                retrograde::NoMoveRule::Win => "win",
            },
        );
    if let Some(t) = &args.game.terminal {
        meta = meta.param("terminal", t.display());
    }
    if let Some(reach) = game.reach {
        meta = meta
            .param("reach", reach.priority)
            .param("reacher", reach.reacher);
    }
    if let Some(start) = game.start {
        meta = meta.param("start", start);
    }
    let source = retrograde::db::Source {
        records: graph.vertex_count() as u64,
        value: |r: u64| sol.value(r as u32),
        keys: None,
        moves: Some((&offsets[..], &targets[..])),
        names,
        grundy: None,
        owners: game.arena.map(|a| a.owners()),
    };
    args.save.stage(files, times, meta, &source, bars)
}

/// The largest graph `--dot` draws.
const DOT_LIMIT: usize = 10_000;

/// Refuses `--dot` for a graph of `n` vertices too large to draw, before
/// the solve.
fn check_dot(n: usize) -> Result<()> {
    if n > DOT_LIMIT {
        anyhow::bail!(
            "--dot draws graphs of up to {DOT_LIMIT} vertices; this one has {n} (Graphviz would not lay it out readably)"
        );
    }
    Ok(())
}

/// The graph in Graphviz's language: each vertex filled with its outcome's
/// colour (the Okabe–Ito palette) and labelled with its id (or name) and
/// value; each move an arrow, best moves bold.
fn dot<S: Answers>(
    graph: &retrograde::Csr,
    sol: &S,
    names: Option<&retrograde::io::names::Names>,
    owners: Option<&[Player]>,
) -> String {
    let n = graph.vertex_count();
    // Each fill with the text colour that reads on it at 4.5:1 or more
    // (WCAG AA): black, or white on blue.
    let fill = |o: retrograde::Outcome| match o {
        retrograde::Outcome::Win => ("#009E73", "black"),
        retrograde::Outcome::Lose => ("#D55E00", "black"),
        retrograde::Outcome::Tie => ("#0072B2", "white"),
        retrograde::Outcome::Draw => ("#E69F00", "black"),
    };
    let mut s = String::from(
        "// retrograde solve --dot: green win, vermillion lose, blue tie, orange draw; best moves bold\ndigraph game {\n  node [style=filled, fontname=\"sans-serif\"];\n",
    );
    for v in 0..n as u32 {
        let Some(value) = sol.value(v) else { continue };
        let name = names
            .and_then(|m| m.name(v))
            .map_or_else(|| v.to_string(), String::from)
            .replace('\\', "\\\\")
            .replace('"', "\\\"");
        // An arena's owners as PGSolver draws them: player 0 round, 1 a box.
        let shape = match owners.map(|o| o[v as usize]) {
            Some(Player::First) => ", shape=ellipse",
            Some(Player::Second) => ", shape=box",
            None => "",
        };
        let (fill, text) = fill(value.outcome);
        s += &format!(
            "  {v} [label=\"{name}\\n{value}\", fillcolor=\"{fill}\", fontcolor={text}{shape}];\n"
        );
    }
    for (u, v) in graph.edges() {
        let bold = if sol.best_move(u) == Some(v) {
            " [penwidth=3]"
        } else {
            ""
        };
        s += &format!("  {u} -> {v}{bold};\n");
    }
    s += "}\n";
    s
}
