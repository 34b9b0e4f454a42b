//! `retrograde cop-thief BOARD`: solve the cop and the thief on a board.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;
use indicatif::HumanBytes;
use retrograde::game::{check_game, materialise, sample_positions, solve_game_with_progress};
use retrograde::games::cop_thief::{Board, CopThief, Side, Verdict};
use retrograde::io::write_atomically;
use retrograde::solve::solve_with_progress;
use retrograde::{Answers, CsrBuilder, Game, Outcome};

use crate::common::{self, Timings};
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
}

/// Positions checked by `--check` on a board too large to check whole.
const CHECK_SAMPLE: usize = 200_000;

pub fn run(args: Args) -> Result<ExitCode> {
    let mut outputs: Vec<&Path> = args.svg.iter().map(|p| p.as_path()).collect();
    outputs.extend(args.save.outputs());
    common::check_files(&[&args.board], &outputs)?;
    let bars = Bars::new(args.quiet);
    let mut times = Timings::default();
    let limit = common::memory_limit(args.max_memory);
    let (game, text) = times.time("read", || load_text(&args.board, Some(limit)))?;

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

    let sol: Box<dyn Answers + Sync + '_> = if args.explicit {
        let builder = CsrBuilder::new().memory_limit(limit);
        let m = times.time("materialise", || {
            bars.spin("materialise", || materialise(&game, builder))
        })?;
        let rules = m.rules(&game.rules());
        Box::new(times.time("solve", || solve_with_progress(&m.graph, &rules, &bars))?)
    } else {
        Box::new(times.time("solve", || {
            solve_game_with_progress(&game, &game.rules(), &bars)
        })?)
    };
    let sol = &*sol;
    times.time("save", || {
        let meta = retrograde::play::Playable::meta(&game)
            .param("board", &text)
            .param("path", args.board.display());
        args.save
            .save(meta, &crate::db::dense(sol), &bars, args.quiet || args.json)
    })?;

    if let Some(path) = &args.svg {
        let picture = if args.shade {
            game.svg_shaded(sol)
        } else {
            game.svg(sol)
        };
        write_atomically(path, |w| w.write_all(picture.as_bytes()))?;
    }

    if args.json {
        return report(&args.board, &game, sol, &times);
    }
    // The verdict, map and line are the data: standard output, unless the
    // picture goes there.
    let svg_to_stdout = outputs
        .iter()
        .any(|p| retrograde::io::paths::output_descriptor(p) == Some(1));
    let mut out: Box<dyn Write> = if svg_to_stdout {
        Box::new(common::talk())
    } else {
        Box::new(std::io::stdout().lock())
    };
    writeln!(out, "{}", game.verdict(sol))?;
    if args.map {
        writeln!(out)?;
        out.write_all(game.map(sol).as_bytes())?;
    }
    if args.line {
        writeln!(out)?;
        print_line(&mut out, &game, sol, args.line_limit)?;
    }
    out.flush()?;

    if args.stats {
        let b = game.board();
        let peak = common::peak_memory()
            .map_or_else(String::new, |b| format!("; peak memory {}", HumanBytes(b)));
        eprintln!(
            "board: {}: {} x {}, {}, {}\nsolved: {}\ntime: {}{peak}",
            args.board.display(),
            b.rows(),
            b.cols(),
            common::count(game.free_cells() as u64, "free cell", "free cells"),
            common::count(game.position_count() as u64, "position", "positions"),
            common::summary_line(&sol.summary()),
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

fn print_line(out: &mut dyn Write, game: &CopThief, sol: &dyn Answers, limit: usize) -> Result<()> {
    let start = game.start();
    let line = sol.line(start, limit);
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
        let value = match (sol.outcome(p), sol.remoteness(p)) {
            (Outcome::Draw, _) => "draw".to_string(),
            (o, Some(0)) => format!("game over: {}", Verdict::of(o, s.to_move)),
            (o, r) => format!("{} in {}", Verdict::of(o, s.to_move), r.unwrap_or_default()),
        };
        writeln!(out, "ply {ply}: {what} ({value})")?;
        out.write_all(game.render(p).as_bytes())?;
    }
    match crate::common::endless_note(&line, limit) {
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
fn report(path: &Path, game: &CopThief, sol: &dyn Answers, times: &Timings) -> Result<ExitCode> {
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
            outcome: sol.outcome(start).as_str(),
            remoteness: sol.remoteness(start),
            best_move: sol.best_move(start),
            verdict: game.verdict(sol).to_string(),
        },
        outcomes: crate::report::Outcomes::of(sol),
        time: crate::report::Time::of(times),
    })?;
    Ok(ExitCode::SUCCESS)
}
