//! `retrograde cop-thief BOARD`: solve the cop and the thief on a board.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;
use indicatif::HumanBytes;
use retrograde::Solver;
use retrograde::game::{check_game, materialise, sample_positions};
use retrograde::io::Outputs;
use retrograde::{Answers, CsrBuilder, Game, Histogram, Line, Lookup, Outcome, Value};
use retrograde_games::cop_thief::{Board, CopThief, Side, Verdict};

use crate::common::{self, Stdout, Timings};
use crate::db::Saved;
use crate::progress::Bars;

/// Options of `retrograde cop-thief`.
#[derive(clap::Args)]
pub struct Args {
    /// The board: a header `rows columns`, then the rows; `*` wall, `P` cop,
    /// `T` thief, `E` exit, anything else free (`-` for standard input).
    pub board: PathBuf,
    /// Also print, for the cop on its start cell and to move, the verdict for
    /// every thief cell: c police catches, e thief escapes, d draw, * wall, P cop.
    #[arg(long, conflicts_with = "json")]
    pub map: bool,
    /// Draw the board coloured by that map as an SVG picture into FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// In the --svg picture, make each cell paler the longer best play lasts from it.
    #[arg(long, requires = "svg")]
    pub shade: bool,
    /// Also play the game out under best play, one board per move.
    #[arg(long, conflicts_with = "json")]
    pub line: bool,
    /// How many plies of a drawn (endless) game `--line` shows.
    #[arg(long, value_name = "PLIES", default_value_t = 20)]
    pub line_limit: usize,
    /// Print the verdict, remoteness and counts as one JSON object instead.
    #[arg(long)]
    pub json: bool,
    /// Check first that the game's moves and reverse moves agree (all
    /// positions of small boards, a sample of large ones); exit 1 if not.
    #[arg(long)]
    pub check: bool,
    /// Refuse boards whose solve would need more memory than this (e.g. 8G;
    /// default: the machine's memory).
    #[arg(long, value_name = "SIZE", value_parser = common::parse_bytes, help_heading = "Performance")]
    pub max_memory: Option<u64>,
    /// Threads for the start of the solve, and for --explicit's graph (default: all cores; the levels are walked on one).
    #[arg(long, short = 'j', value_name = "N", help_heading = "Performance")]
    pub threads: Option<usize>,

    /// Build the explicit graph first and solve it with the queue engine (for
    /// comparison: 12 bytes per position and 4 per move for the graph, 17 per
    /// position to solve it, against about 3 per position on the fly).
    #[arg(long)]
    pub explicit: bool,
    /// Print the size, counts, time and peak memory on standard error.
    #[arg(long)]
    pub stats: bool,
    /// No progress bars.
    #[arg(long, short)]
    pub quiet: bool,
    #[command(flatten)]
    pub save: crate::db::SaveArgs,
    #[command(flatten)]
    pub engine: crate::cluster::GameClusterArgs,
}

/// Positions checked by `--check` on a board too large to check whole.
const CHECK_SAMPLE: usize = 200_000;

pub fn run(args: Args) -> Result<ExitCode> {
    let outputs = args.outputs();
    let json = args.json.then_some(Stdout::Text("--json"));
    let svg = args.svg.iter().map(|p| Stdout::File("picture", p));
    let save = args.save.save.iter().map(|p| Stdout::File("database", p));
    common::check_stdout(json.into_iter().chain(svg).chain(save))?;
    common::check_files(&[&args.board], &outputs)?;
    let timely = args.engine.timely();
    if timely && args.explicit {
        anyhow::bail!(
            "--explicit builds the graph for the queue engine; drop it with --engine timely or --cluster"
        );
    }
    if timely && args.save.save.is_some() {
        anyhow::bail!(
            "--save needs the whole solution in one process; with --engine timely or --cluster the answers stay spread over the workers"
        );
    }
    let bars = Bars::new(args.quiet);
    let mut times = Timings::default();
    let limit = common::memory_limit(args.max_memory);
    let threads = args.threads.unwrap_or(if timely { 1 } else { 0 });
    let processes = if timely { args.engine.processes()? } else { 1 };
    let (game, text) = times.time("read", || {
        let (game, text) = load_text(&args.board, None)?;
        if args.engine.cluster.is_cluster() {
            // Each machine has its own limit: the processes agree once
            // connected, and refuse together (the engine checks).
        } else if timely {
            CopThief::check_share(game.board(), limit, processes as u64, |positions| {
                retrograde_timely::share_bytes(positions, processes, threads)
            })?;
        } else {
            // The lean engine's solve, and the database --save writes.
            CopThief::check_share(game.board(), limit, 1, |positions| {
                positions
                    .saturating_mul(retrograde_games::cop_thief::BYTES_PER_POSITION)
                    .saturating_add(args.save.bytes(positions, None, None))
            })?;
        }
        anyhow::Ok((game, text))
    })?;

    if args.check {
        let n = game.position_count();
        let sample = sample_positions(n, CHECK_SAMPLE, 1);
        let report = times.time("check", || {
            bars.spin("check", || check_game(&game, sample.iter().copied(), 10))
        });
        eprintln!("{}", report.show(&game));
        if !report.is_ok() {
            return Ok(ExitCode::from(1));
        }
    }

    if timely {
        return run_timely(&args, game, &text, threads, limit, times);
    }
    let sol: Box<dyn Answers + Sync + '_> = if args.explicit {
        // The solver's state and the database --save writes, besides the graph.
        let builder = CsrBuilder::new().memory_limit(limit).reserve(
            crate::solve::SOLVE_BYTES_PER_POSITION + args.save.dense_bytes_per_position(),
            0,
        );
        let m = times.time("materialise", || {
            bars.spin("materialise", || materialise(&game, builder))
        })?;
        let rules = m.rules(&game.rules());
        let solver = Solver::new().rules(rules).progress(&bars);
        Box::new(times.time("solve", || solver.solve_stored(&m.graph))?)
    } else {
        let solver = Solver::new().rules(game.rules()).progress(&bars);
        Box::new(times.time("solve", || solver.solve_game(&game))?)
    };
    let sol = &*sol;
    let mut files = Outputs::new();
    let meta = retrograde::db::Meta::new("cop-thief")
        .param("board", &text)
        .param("path", args.board.display());
    let saved = args
        .save
        .stage(&mut files, &mut times, meta, &crate::db::dense(sol), &bars)?;
    let start = game.start();
    let local = Local(sol);
    let answered = Answered {
        look: &local,
        best_start: sol.best_move(start),
        line: args.line.then(|| sol.line(start, args.line_limit)),
        histogram: (args.json || args.stats).then(|| sol.values().histogram()),
        engine: None,
    };
    show(&args, &game, &answered, (files, saved), &times)
}

impl Args {
    /// The output files named: the picture and the database.
    fn outputs(&self) -> Vec<&Path> {
        let mut outputs: Vec<&Path> = self.svg.iter().map(|p| p.as_path()).collect();
        outputs.extend(self.save.outputs());
        outputs
    }
}

/// What the printing needs from a solve, wherever the answers are.
struct Answered<'a> {
    look: &'a dyn Lookup,
    best_start: Option<u32>,
    line: Option<Line>,
    histogram: Option<Histogram>,
    /// How the timely engine ran, for --stats.
    engine: Option<String>,
}

/// A solution in this process, seen through [`Lookup`].
struct Local<'a>(&'a (dyn Answers + Sync + 'a));

impl Lookup for Local<'_> {
    fn lookup(&self, v: u32) -> Option<Value> {
        self.0.value(v)
    }
}

/// The values the timely engine's process 0 fetched from the workers: the
/// start, and the map's positions when a map or picture is asked for.
struct Fetched(HashMap<u32, Option<Value>>);

impl Lookup for Fetched {
    fn lookup(&self, v: u32) -> Option<Value> {
        self.0.get(&v).copied().flatten()
    }
}

/// The timely engine on `game`: in this process, or as one process of a
/// cluster; process 0 fetches what it prints.
fn run_timely(
    args: &Args,
    game: CopThief,
    text: &str,
    threads: usize,
    limit: u64,
    mut times: Timings,
) -> Result<ExitCode> {
    let rules = game.rules();
    let config = args
        .engine
        .cluster
        .config(
            threads,
            crate::cluster::game_fingerprint("cop-thief", text.as_bytes(), &rules),
        )?
        .memory_limit(limit);
    let start = game.start();
    let mut wanted = vec![start];
    if args.map || args.svg.is_some() {
        let b = game.board();
        for r in 0..b.rows() {
            for c in 0..b.cols() {
                wanted.extend(game.position(b.cop(), (r, c), Side::Cop));
            }
        }
    }
    let (line, limit) = (args.line, args.line_limit);
    let here = game.clone();
    let asked_rules = rules.clone();
    let solved = crate::cluster::solve_game(
        &config,
        retrograde::game::AsGraph(game.clone()),
        &rules,
        args.quiet || args.json,
        move |remote| -> retrograde_timely::Result<_> {
            let graph = retrograde::game::AsGraph(&here);
            let best = remote.best_move(&graph, &asked_rules, start)?;
            let line = if line {
                Some(remote.line(&graph, &asked_rules, start, limit)?)
            } else {
                None
            };
            // The line's positions are printed with their values too.
            wanted.extend(line.iter().flat_map(|l| l.positions.iter().copied()));
            let values = remote.values(&wanted)?;
            let outline = remote.outline().clone();
            Ok((
                wanted.into_iter().zip(values).collect(),
                best,
                line,
                outline,
            ))
        },
    )?;
    let Some((answer, timings)) = solved else {
        return Ok(ExitCode::SUCCESS);
    };
    let (values, best_start, line, outline) = answer?;
    times.record("connect", timings.connect.as_secs_f64());
    times.record("solve", timings.solve.as_secs_f64());
    let fetched = Fetched(values);
    let answered = Answered {
        look: &fetched,
        best_start,
        line,
        histogram: Some(outline.histogram),
        engine: Some(crate::cluster::engine_line(&config, outline.rounds)),
    };
    show(args, &game, &answered, (Outputs::new(), None), &times)
}

/// Stages the picture with the run's other `files` (and the database
/// staged among them), commits them all, then prints the verdict, map, line
/// and statistics (or the JSON report).
fn show(
    args: &Args,
    game: &CopThief,
    sol: &Answered,
    (mut files, saved): (Outputs, Option<Saved>),
    times: &Timings,
) -> Result<ExitCode> {
    if let Some(path) = &args.svg {
        let picture = if args.shade {
            game.svg_shaded(sol.look)
        } else {
            game.svg(sol.look)
        };
        files.write(path, |w| w.write_all(picture.as_bytes()))?;
    }
    files.commit()?;
    let quiet = args.quiet || args.json;
    Saved::say(saved.as_ref(), quiet)?;
    if let (Some(path), false) = (&args.svg, quiet) {
        common::wrote(path)?;
    }

    if args.json {
        return report(&args.board, game, sol, times);
    }
    // The verdict, map and line are the data: standard output, unless a
    // file goes there.
    let mut out = common::data_out(&args.outputs());
    writeln!(out, "{}", game.verdict(sol.look))?;
    if args.map {
        writeln!(out)?;
        out.write_all(game.map(sol.look).as_bytes())?;
    }
    if let Some(line) = &sol.line {
        writeln!(out)?;
        print_line(&mut out, game, sol.look, line, args.line_limit)?;
    }
    out.flush()?;

    if args.stats {
        let b = game.board();
        let peak = common::peak_memory()
            .map_or_else(String::new, |b| format!("; peak memory {}", HumanBytes(b)));
        let summary = sol
            .histogram
            .as_ref()
            .map(Histogram::summary)
            .unwrap_or_default();
        eprintln!(
            "board: {}: {} x {}, {}, {}",
            args.board.display(),
            b.rows(),
            b.cols(),
            common::count(game.free_cells() as u64, "free cell", "free cells"),
            common::count(game.position_count() as u64, "position", "positions"),
        );
        if let Some(engine) = &sol.engine {
            eprintln!("{engine}");
        }
        eprintln!(
            "solved: {}\ntime: {}{peak}",
            common::summary_line(&summary),
            times.line()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Reads and checks a board, refusing those whose solve needs more than `limit` bytes.
pub fn load(path: &Path, limit: Option<u64>) -> Result<CopThief> {
    Ok(load_text(path, limit)?.0)
}

/// [`load`], with the board file's text.
pub fn load_text(path: &Path, limit: Option<u64>) -> Result<(CopThief, String)> {
    let input = common::open_input(
        path,
        limit.unwrap_or_else(|| common::memory_limit(None)),
        &Bars::new(true),
    )?;
    let board = Board::parse(input.bytes(), path)?;
    if let Some(limit) = limit {
        CopThief::check_memory(&board, limit)?;
    }
    let text = String::from_utf8_lossy(input.bytes()).into_owned();
    Ok((CopThief::new(board)?, text))
}

fn print_line(
    out: &mut dyn Write,
    game: &CopThief,
    sol: &dyn Lookup,
    line: &Line,
    limit: usize,
) -> Result<()> {
    let start = game.start();
    let mut prev = game.state(start);
    for (ply, &p) in line.positions.iter().enumerate() {
        let s = game.state(p);
        let what = if ply == 0 {
            "start".to_string()
        } else {
            // The side to move now is the one that did not just move. Rows
            // and columns are counted from 1 here, for people.
            let ((r, c), before, who) = match s.to_move {
                Side::Thief => (s.cop, prev.cop, "cop"),
                Side::Cop => (s.thief, prev.thief, "thief"),
            };
            let verb = if (r, c) == before {
                "stays at"
            } else {
                "moves to"
            };
            format!("the {who} {verb} row {}, column {}", r + 1, c + 1)
        };
        prev = s;
        let value = match (sol.outcome_of(p), sol.remoteness_of(p)) {
            (Outcome::Draw, _) => "draw".to_string(),
            (o, Some(0)) => format!("game over: {}", Verdict::of(o, s.to_move)),
            (o, r) => format!("{} in {}", Verdict::of(o, s.to_move), r.unwrap_or_default()),
        };
        writeln!(out, "ply {ply}: {what} ({value})")?;
        out.write_all(game.render(p).as_bytes())?;
    }
    match crate::common::endless_note(line, limit) {
        Some(note) => writeln!(out, "{note}")?,
        None => {
            let last = *line.positions.last().unwrap_or(&start);
            let s = game.state(last);
            writeln!(
                out,
                "{}",
                if s.cop == s.thief {
                    "The cop stands on the thief's cell: caught."
                } else {
                    "The thief stands on an exit: escaped."
                }
            )?
        }
    }
    Ok(())
}

/// The JSON report (docs/JSON.md): the board, the start position's value for
/// the cop, who moves there, the verdict, and the report of every solve.
fn report(path: &Path, game: &CopThief, sol: &Answered, times: &Timings) -> Result<ExitCode> {
    #[derive(serde::Serialize)]
    struct BoardJson {
        path: String,
        rows: u32,
        columns: u32,
        free_cells: usize,
    }
    #[derive(serde::Serialize)]
    struct Start {
        position: u32,
        to_move: &'static str,
        outcome: &'static str,
        remoteness: Option<u32>,
        best_move: Option<u32>,
        verdict: String,
    }
    #[derive(serde::Serialize)]
    struct Json {
        command: &'static str,
        game: &'static str,
        board: BoardJson,
        start: Start,
        #[serde(flatten)]
        outcomes: crate::report::Outcomes,
        time: crate::report::Time,
    }
    let b = game.board();
    let start = game.start();
    crate::report::print(&Json {
        command: "cop-thief",
        game: "cop-thief",
        board: BoardJson {
            path: path.display().to_string(),
            rows: b.rows() as u32,
            columns: b.cols() as u32,
            free_cells: game.free_cells(),
        },
        start: Start {
            position: start,
            to_move: "cop",
            outcome: sol.look.outcome_of(start).as_str(),
            remoteness: sol.look.remoteness_of(start),
            best_move: sol.best_start,
            verdict: game.verdict(sol.look).to_string(),
        },
        outcomes: crate::report::Outcomes::from_histogram(
            sol.histogram.as_ref().unwrap_or(&Histogram::default()),
        ),
        time: crate::report::Time::of(times),
    })?;
    Ok(ExitCode::SUCCESS)
}
