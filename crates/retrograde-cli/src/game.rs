//! `retrograde game NAME ...`: solve a built-in game and summarise it.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use retrograde::games::chess::{Endgame, Ending, Position};
use retrograde::{Answers, Explorer, Outcome, StateGame};

use crate::common::{self, Timings};
use crate::progress::Bars;
use crate::report;

/// Options of `retrograde game`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub game: GameName,
    /// Threads for exploring and solving (default: all cores).
    #[arg(
        long,
        short = 'j',
        value_name = "N",
        help_heading = "Performance",
        global = true
    )]
    pub threads: Option<usize>,
}

/// The built-in games.
#[derive(clap::Subcommand)]
pub enum GameName {
    /// Name the built-in games, one line each.
    List,
    /// A pawnless chess ending: KQK, KRK, KBBK (opposite-coloured bishops), KBNK or KNNK.
    #[command(
        after_help = "Examples:\n  retrograde game chess KRK\n  retrograde game chess KBNK --json | jq .white_to_move\n  retrograde game chess KQK --position '7k/Q7/6K1/8/8/8/8/8 w - - 0 1'"
    )]
    Chess(ChessArgs),
    /// The cop and the thief on a board: the same as `retrograde cop-thief BOARD`.
    CopThief(crate::cop_thief::Args),
    /// Tic-tac-toe, the state-game tutorial (crates/retrograde/examples/tic_tac_toe.rs).
    TicTacToe(TicTacToeArgs),
    /// Teeko (Scarne): drop four pieces each on a 5 x 5 board, then step; four in a row or a square wins.
    Teeko(TeekoArgs),
}

/// Options of `retrograde game teeko`.
#[derive(clap::Args)]
pub struct TeekoArgs {
    /// Print one JSON object on standard output (docs/JSON.md).
    #[arg(long)]
    pub json: bool,
    /// No summary, no progress bars.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Options of `retrograde game tic-tac-toe`.
#[derive(clap::Args)]
pub struct TicTacToeArgs {
    /// Count boards equal under rotations and mirrors as different positions.
    #[arg(long)]
    pub no_symmetry: bool,
    /// Print one JSON object on standard output (docs/JSON.md).
    #[arg(long)]
    pub json: bool,
    /// No summary.
    #[arg(long, short)]
    pub quiet: bool,
}

/// The tutorial's game, compiled from the tutorial itself: one source.
#[allow(dead_code)]
#[path = "../../retrograde/examples/tic_tac_toe.rs"]
mod tutorial;

/// Options of `retrograde game chess`.
#[derive(clap::Args)]
pub struct ChessArgs {
    /// The ending.
    #[arg(value_parser = parse_ending)]
    pub ending: Ending,
    /// Print this position's value and its moves with their values, best first (FEN).
    #[arg(long, value_name = "FEN")]
    pub position: Option<String>,
    /// Solve every position as it is, without folding the board's 8 symmetries.
    #[arg(long)]
    pub no_symmetry: bool,
    /// Check the whole solution with `verify`'s independent certificate; exit 1 if wrong.
    #[arg(long)]
    pub verify: bool,
    /// Print one JSON object on standard output (docs/JSON.md).
    #[arg(long)]
    pub json: bool,
    /// No summary, no progress bars.
    #[arg(long, short)]
    pub quiet: bool,
}

fn parse_ending(s: &str) -> Result<Ending, String> {
    Ending::from_name(s).ok_or_else(|| {
        let names: Vec<&str> = Ending::ALL.iter().map(|e| e.name()).collect();
        format!("unknown ending {s:?}: expected one of {}", names.join(", "))
    })
}

/// The built-in games, for `game list`.
const LIST: &[(&str, &str)] = &[
    (
        "chess ENDING",
        "pawnless chess endings against a lone king: KQK, KRK, KBBK, KBNK, KNNK",
    ),
    (
        "cop-thief BOARD",
        "the cop and the thief on a board of walls and exits (`retrograde cop-thief`)",
    ),
];

pub fn run(args: Args) -> Result<ExitCode> {
    match args.game {
        GameName::List => {
            let mut out = std::io::stdout().lock();
            for (name, what) in LIST {
                writeln!(out, "{name:<16} {what}")?;
            }
            Ok(ExitCode::SUCCESS)
        }
        GameName::Chess(a) => chess(a),
        GameName::CopThief(a) => crate::cop_thief::run(a),
        GameName::TicTacToe(a) => tic_tac_toe(a),
        GameName::Teeko(a) => teeko(a),
    }
}

fn chess(args: ChessArgs) -> Result<ExitCode> {
    let game = Endgame::new(args.ending, !args.no_symmetry);
    // Read the position first: bad notation is an error before any work.
    let asked = args
        .position
        .as_deref()
        .map(|fen| game.parse_fen(fen))
        .transpose()?;
    let bars = Bars::new(args.quiet || args.json);
    let mut times = Timings::default();
    let sol = times.time("solve", || Explorer::new().progress(&bars).solve(&game))?;
    let explored = sol.explored();
    let solved = sol.solved();
    let verified = if args.verify {
        let report = times.time("verify", || {
            retrograde::verify(explored, &explored.rules(), solved, 5)
        })?;
        for v in &report.violations {
            eprintln!("retrograde: wrong: {v}");
        }
        Some(report.is_ok())
    } else {
        None
    };

    // Positions of the ending: every one explored but the capture's tie.
    let positions: Vec<u32> = (0..explored.len() as u32)
        .filter(|&i| {
            explored
                .position(i)
                .is_some_and(|p| *p != Position::CAPTURED)
        })
        .collect();
    let mut by_side = [report::Counts::default(); 2];
    let mut longest = [report::Longest::default(); 2];
    for &i in &positions {
        let side = usize::from(explored.position(i).is_some_and(|p| p.black_to_move()));
        let (c, l) = (&mut by_side[side], &mut longest[side]);
        let r = solved.remoteness(i);
        let slot = match solved.outcome(i) {
            Outcome::Win => {
                c.win += 1;
                &mut l.win
            }
            Outcome::Lose => {
                c.lose += 1;
                &mut l.lose
            }
            Outcome::Tie => {
                c.tie += 1;
                &mut l.tie
            }
            Outcome::Draw => {
                c.draw += 1;
                continue;
            }
        };
        *slot = (*slot).max(r);
    }
    // Both sides together, in the vocabulary of every report: the solve's
    // histogram less the capture's tie (remoteness 0), which is no position
    // of the ending.
    let mut histogram = solved.values().histogram();
    if explored.index(&Position::CAPTURED).is_some() {
        if let Some(level) = histogram.by_remoteness.first_mut() {
            level[2] -= 1;
        }
    }
    let outcomes = report::Outcomes::from_histogram(&histogram);
    let mate = |plies: Option<u32>| plies.map(|p| p.div_ceil(2));

    // The position asked about as given (not turned into canonical form),
    // its value, and its moves as played there with their values, best first.
    let moves = asked
        .map(|p| -> Result<_> {
            let v = sol.value(&game.canonical(p))?;
            let mut moves = Vec::new();
            game.for_each_raw_move(p, |m| moves.push(m));
            let mut valued = Vec::new();
            for m in moves {
                let after = sol.value(&game.canonical(m.to))?;
                let value =
                    retrograde::Value::new(after.outcome.flip(), after.remoteness.map(|r| r + 1));
                valued.push((m, value));
            }
            valued.sort_by_key(|(_, v)| {
                let r = i64::from(v.remoteness.unwrap_or(0));
                match v.outcome {
                    Outcome::Win => (0, r),
                    Outcome::Tie => (1, r),
                    Outcome::Draw => (2, 0),
                    Outcome::Lose => (3, -r),
                }
            });
            Ok((p, v, valued))
        })
        .transpose()?;

    if args.json {
        #[derive(serde::Serialize)]
        struct Side {
            counts: report::Counts,
            longest: report::Longest,
            longest_mate_moves: Option<u32>,
        }
        #[derive(serde::Serialize)]
        struct MoveJson {
            r#move: String,
            fen: String,
            outcome: &'static str,
            remoteness: Option<u32>,
        }
        #[derive(serde::Serialize)]
        struct Asked {
            fen: String,
            outcome: &'static str,
            remoteness: Option<u32>,
            moves: Vec<MoveJson>,
        }
        #[derive(serde::Serialize)]
        struct Json {
            command: &'static str,
            game: String,
            symmetry: bool,
            #[serde(flatten)]
            outcomes: report::Outcomes,
            white_to_move: Side,
            black_to_move: Side,
            position: Option<Asked>,
            verified: Option<bool>,
            time: report::Time,
        }
        let side = |s: usize| Side {
            counts: by_side[s],
            longest: longest[s],
            longest_mate_moves: mate(longest[s].win),
        };
        report::print(&Json {
            command: "game",
            game: format!("chess {}", args.ending),
            symmetry: !args.no_symmetry,
            outcomes,
            white_to_move: side(0),
            black_to_move: side(1),
            position: moves.map(|(p, v, moves)| Asked {
                fen: game.fen(p),
                outcome: v.outcome.as_str(),
                remoteness: v.remoteness,
                moves: moves
                    .into_iter()
                    .map(|(m, v)| MoveJson {
                        r#move: m.to_string(),
                        fen: game.show(&m.to),
                        outcome: v.outcome.as_str(),
                        remoteness: v.remoteness,
                    })
                    .collect(),
            }),
            verified,
            time: report::Time::of(&times),
        })?;
        return Ok(exit(verified));
    }

    if let Some((p, v, moves)) = &moves {
        let mut out = std::io::stdout().lock();
        writeln!(out, "{}: {v} for the side to move", game.fen(*p))?;
        for (m, v) in moves {
            writeln!(out, "  {m}\t{v}")?;
        }
        out.flush()?;
    }
    if !args.quiet {
        let mut err = common::talk();
        writeln!(
            err,
            "game: chess {}{}: {}",
            args.ending,
            if args.no_symmetry {
                ""
            } else {
                " (symmetries folded)"
            },
            common::count(positions.len() as u64, "position", "positions")
        )?;
        for (s, name) in ["white", "black"].iter().enumerate() {
            let c = by_side[s];
            let mut line = format!(
                "{name} to move: {} win, {} lose, {} tie, {} draw",
                indicatif::HumanCount(c.win),
                indicatif::HumanCount(c.lose),
                indicatif::HumanCount(c.tie),
                indicatif::HumanCount(c.draw),
            );
            if let Some(w) = longest[s].win {
                line += &format!("; longest win {w} plies (mate in {})", w.div_ceil(2));
            }
            if let Some(l) = longest[s].lose {
                line += &format!("; longest loss {l} plies");
            }
            writeln!(err, "{line}")?;
        }
        if let Some(ok) = verified {
            writeln!(
                err,
                "verify: {}",
                if ok {
                    "the solution is correct"
                } else {
                    "the solution is WRONG"
                }
            )?;
        }
        let peak = times.peak().map_or_else(String::new, |b| {
            format!("; peak memory {}", indicatif::HumanBytes(b))
        });
        writeln!(err, "time: {}{peak}", times.line())?;
    }
    Ok(exit(verified))
}

/// 1 when `--verify` found the solution wrong.
fn exit(verified: Option<bool>) -> ExitCode {
    match verified {
        Some(false) => ExitCode::from(1),
        _ => ExitCode::SUCCESS,
    }
}

/// What a game with a start reports: its name, how its positions were
/// counted, the totals and the start's value.
struct WithStart<'a> {
    game: &'static str,
    /// `Some(folded)` for a game with symmetries.
    symmetry: Option<bool>,
    /// How `positions` were counted, for the summary.
    counted: &'static str,
    outcomes: report::Outcomes,
    summary: retrograde::Summary,
    start: retrograde::Value,
    /// The start, for the line on standard output.
    start_name: &'static str,
    times: &'a Timings,
    json: bool,
    quiet: bool,
}

/// Prints the JSON report, or the start's value on standard output and the
/// summary on standard error.
fn report_with_start(r: WithStart<'_>) -> Result<ExitCode> {
    if r.json {
        #[derive(serde::Serialize)]
        struct Start {
            to_move: &'static str,
            outcome: &'static str,
            remoteness: Option<u32>,
        }
        #[derive(serde::Serialize)]
        struct Json {
            command: &'static str,
            game: &'static str,
            #[serde(skip_serializing_if = "Option::is_none")]
            symmetry: Option<bool>,
            #[serde(flatten)]
            outcomes: report::Outcomes,
            start: Start,
            time: report::Time,
        }
        report::print(&Json {
            command: "game",
            game: r.game,
            symmetry: r.symmetry,
            outcomes: r.outcomes,
            start: Start {
                to_move: "X",
                outcome: r.start.outcome.as_str(),
                remoteness: r.start.remoteness,
            },
            time: report::Time::of(r.times),
        })?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        std::io::stdout().lock(),
        "{}: {} for X",
        r.start_name,
        r.start
    )?;
    if !r.quiet {
        let mut err = common::talk();
        let folded = if r.symmetry == Some(true) {
            " (symmetries folded)"
        } else {
            ""
        };
        writeln!(
            err,
            "game: {}{folded}: {}{}",
            r.game,
            common::count(r.outcomes.positions, "position", "positions"),
            r.counted
        )?;
        writeln!(err, "solved: {}", common::summary_line(&r.summary))?;
        let peak = r.times.peak().map_or_else(String::new, |b| {
            format!("; peak memory {}", indicatif::HumanBytes(b))
        });
        writeln!(err, "time: {}{peak}", r.times.line())?;
    }
    Ok(ExitCode::SUCCESS)
}

fn tic_tac_toe(args: TicTacToeArgs) -> Result<ExitCode> {
    let game = tutorial::TicTacToe {
        symmetry: !args.no_symmetry,
    };
    let mut times = Timings::default();
    let sol = times.time("solve", || retrograde::solve_states(game))?;
    report_with_start(WithStart {
        game: "tic-tac-toe",
        symmetry: Some(!args.no_symmetry),
        counted: ", reachable from the empty board",
        outcomes: report::Outcomes::of(sol.solved()),
        summary: sol.solved().summary(),
        start: sol.value(&tutorial::Board([0; 9]))?,
        start_name: "the empty board",
        times: &times,
        json: args.json,
        quiet: args.quiet,
    })
}

fn teeko(args: TeekoArgs) -> Result<ExitCode> {
    use retrograde::games::teeko::Teeko;
    let game = Teeko::new();
    let bars = Bars::new(args.quiet || args.json);
    let mut times = Timings::default();
    let sol = times.time("solve", || {
        retrograde::game::solve_game_with_progress(&game, &retrograde::Rules::normal(), &bars)
    })?;
    let start = sol
        .value(game.start())
        .ok_or_else(|| anyhow::anyhow!("the start is no position"))?;
    report_with_start(WithStart {
        game: "teeko",
        symmetry: None,
        counted: ", every placement of up to four pieces each",
        outcomes: report::Outcomes::of(&sol),
        summary: sol.summary(),
        start,
        start_name: "the empty board, X dropping first",
        times: &times,
        json: args.json,
        quiet: args.quiet,
    })
}
