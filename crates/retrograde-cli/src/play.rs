//! `retrograde play DB`: play against the perfect player in the terminal,
//! or watch it play both sides. Before each move every legal move is shown
//! with its value; `u` takes a move back. Reads commands a line at a time
//! from standard input, so it can be scripted (`printf '1\nq\n' | ...`).

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use retrograde::play::{Playable, Probe};
use retrograde::Outcome;

/// Who the person at the keyboard plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum You {
    /// The side to move at the start.
    First,
    /// The other side.
    Second,
    /// Both sides (the values guide every move).
    Both,
    /// Neither: watch the perfect player play both sides.
    None,
}

/// Options of `retrograde play`.
#[derive(clap::Args)]
pub struct Args {
    /// The database (`--save` writes one).
    pub db: PathBuf,
    /// Start here instead of the game's start (in the game's notation; needed for games
    /// without one start: graphs and chess endings).
    #[arg(long, value_name = "POSITION")]
    pub position: Option<String>,
    /// Which side you play.
    #[arg(long, value_enum, default_value = "first")]
    pub you: You,
    /// Watch the perfect player play both sides (the same as --you none).
    #[arg(long, conflicts_with = "you")]
    pub watch: bool,
    /// Stop a game that has not ended after this many plies (a drawn game never ends).
    #[arg(long, value_name = "PLIES", default_value_t = 200)]
    pub max_plies: usize,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let db = crate::db::read(&args.db, None)?;
    let game = crate::db::game(&db)?;
    let game: &dyn Playable = &*game;
    let start = match &args.position {
        Some(text) => crate::db::parse(game, text)?,
        None => game.start().ok_or_else(|| {
            anyhow::anyhow!(
                "{} has no single start: give one with --position",
                retrograde::play::describe(db.meta())
            )
        })?,
    };
    let you = if args.watch { You::None } else { args.you };
    let probe = Probe { game, db: &db };
    // Refuse a start that is not in the game before anything is printed.
    probe.answer(start)?;
    let human = |ply: usize| match you {
        You::First => ply % 2 == 0,
        You::Second => ply % 2 == 1,
        You::Both => true,
        You::None => false,
    };
    let mut input = std::io::stdin().lock();
    // Commands read from a pipe are echoed, so that the transcript reads as a game.
    let echo = !std::io::IsTerminal::is_terminal(&std::io::stdin());
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{}: {}. Moves: a number or a name; u takes back, q quits.",
        retrograde::play::describe(db.meta()),
        match you {
            You::First => "you play the side to move first",
            You::Second => "you play the side moving second",
            You::Both => "you play both sides",
            You::None => "the perfect player plays both sides",
        }
    )?;
    let mut history = vec![start];
    let mut line = Vec::new();
    // Lines read from standard input, for messages.
    let mut read = 0u64;
    loop {
        let ply = history.len() - 1;
        let p = history[ply];
        let a = probe.answer(p)?;
        writeln!(out)?;
        out.write_all(game.board(p).as_bytes())?;
        writeln!(out, "ply {ply}: {} to move: {}", game.to_move(p), a.value)?;
        if a.moves.is_empty() {
            let result = match a.value.outcome {
                Outcome::Win => "wins",
                Outcome::Lose => "loses",
                Outcome::Tie => "ties",
                Outcome::Draw => "draws",
            };
            writeln!(out, "game over: {} {result}", game.to_move(p))?;
        }
        for (i, m) in a.moves.iter().enumerate() {
            writeln!(
                out,
                "  {:>3}. {:<10} {:<12} {:>5}",
                i + 1,
                m.name,
                m.value.to_string(),
                crate::query::delta(m.delta)
            )?;
        }
        let over = a.moves.is_empty();
        if !over && !human(ply) {
            if ply >= args.max_plies {
                writeln!(out, "stopped after {ply} plies (see --max-plies)")?;
                break;
            }
            let best = &a.moves[0];
            writeln!(out, "the perfect player plays {}", best.name)?;
            history.push(best.to);
            continue;
        }
        if over && you == You::None {
            break;
        }
        write!(
            out,
            "{}",
            if over {
                "u to take back, q to quit: "
            } else {
                "your move: "
            }
        )?;
        out.flush()?;
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            writeln!(out)?;
            break;
        }
        read += 1;
        let Ok(said) = std::str::from_utf8(&line) else {
            writeln!(out)?;
            out.flush()?;
            anyhow::bail!(
                "standard input, line {read}: not UTF-8 text (expected a move's number or name, u or q)"
            );
        };
        let said = said.trim();
        if echo {
            writeln!(out, "{said}")?;
        }
        match said {
            "q" | "quit" => break,
            "u" | "undo" => {
                // Back to the last position where it was your move.
                if history.len() > 1 {
                    history.pop();
                    while history.len() > 1 && !human(history.len() - 1) {
                        history.pop();
                    }
                } else {
                    writeln!(out, "nothing to take back")?;
                }
            }
            "" => {}
            _ if over => writeln!(out, "the game is over: u or q")?,
            _ => {
                let chosen = said
                    .parse::<usize>()
                    .ok()
                    .filter(|&k| (1..=a.moves.len()).contains(&k))
                    .map(|k| &a.moves[k - 1])
                    .or_else(|| {
                        let (name, to) = game.find_move(a.position, said)?;
                        a.moves.iter().find(|m| m.name == name && m.to == to)
                    });
                match chosen {
                    Some(m) => history.push(m.to),
                    None => writeln!(
                        out,
                        "{said:?} is not a move here: give its number (1 to {}) or its name",
                        a.moves.len()
                    )?,
                }
            }
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
