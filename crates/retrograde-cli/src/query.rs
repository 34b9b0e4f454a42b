//! `retrograde query DB POSITION...`: the value of each position and of
//! each of its moves, best first, read from a database.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use crate::common::printable;
use retrograde::play::{Answer, Playable, Probe};

/// Options of `retrograde query`.
#[derive(clap::Args)]
pub struct Args {
    /// The database (`--save` writes one).
    pub db: PathBuf,
    /// Positions in the game's notation: vertex ids for a graph, FEN for chess, SFEN for
    /// Dōbutsu shōgi, as `retrograde play` shows them (none: the game's start).
    pub positions: Vec<String>,
    /// One JSON object a line, one per position: value, remoteness, and the moves (docs/JSON.md).
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let db = crate::db::open(&args.db)?;
    let game = crate::db::game(&db)?;
    let game = &*game;
    let positions: Vec<u64> = if args.positions.is_empty() {
        match game.start() {
            Some(s) => vec![s],
            None => anyhow::bail!(
                "{} has no single start: give the positions to query",
                retrograde::play::describe(db.meta())
            ),
        }
    } else {
        args.positions
            .iter()
            .map(|t| crate::db::parse(game, t))
            .collect::<Result<_>>()?
    };
    let records = retrograde::tier::WithTiers::beside(&db, game);
    let probe = Probe { game, db: &records };
    let answers = positions
        .into_iter()
        .map(|p| probe.answer(p))
        .collect::<Result<Vec<_>, _>>()?;
    // Nothing is printed from a file that changed while it was read.
    db.unchanged()?;
    let mut out = std::io::stdout().lock();
    for answer in answers {
        if args.json {
            serde_json::to_writer(&mut out, &json(game, &answer))?;
            writeln!(out)?;
        } else {
            text(&mut out, game, &answer)?;
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// One position's answer as JSON: what a front end draws from.
#[derive(serde::Serialize)]
pub struct AnswerJson {
    pub position: String,
    pub to_move: String,
    pub outcome: &'static str,
    pub remoteness: Option<u32>,
    /// How the game ended, where it is over and the game says
    /// ([`Playable::ending`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ending: Option<String>,
    pub moves: Vec<MoveJson>,
}

/// A move in [`AnswerJson`]: its value is for the player who makes it.
#[derive(serde::Serialize)]
pub struct MoveJson {
    pub r#move: String,
    pub position: String,
    pub outcome: &'static str,
    pub remoteness: Option<u32>,
    pub delta: Option<i64>,
}

pub fn json(game: &dyn Playable, a: &Answer) -> AnswerJson {
    AnswerJson {
        position: game.notation(a.position),
        to_move: game.to_move(a.position),
        outcome: a.value.outcome.as_str(),
        remoteness: a.value.remoteness,
        ending: a
            .moves
            .is_empty()
            .then(|| game.ending(a.position))
            .flatten(),
        moves: a
            .moves
            .iter()
            .map(|m| MoveJson {
                r#move: m.name.clone(),
                position: game.notation(m.to),
                outcome: m.value.outcome.as_str(),
                remoteness: m.value.remoteness,
                delta: m.delta,
            })
            .collect(),
    }
}

/// The position, its value for the side to move, and its moves.
pub fn text(out: &mut dyn Write, game: &dyn Playable, a: &Answer) -> std::io::Result<()> {
    writeln!(
        out,
        "{}: {} for {} to move",
        printable(&game.notation(a.position), false),
        a.value,
        printable(&game.to_move(a.position), false)
    )?;
    if a.moves.is_empty() {
        match game.ending(a.position) {
            Some(how) => writeln!(out, "  the game is over: {}", printable(&how, false))?,
            None => writeln!(out, "  no moves: the game is over")?,
        }
    }
    let names: Vec<_> = a.moves.iter().map(|m| printable(&m.name, false)).collect();
    let width = names.iter().map(|n| n.len()).max().unwrap_or(0);
    for (m, name) in a.moves.iter().zip(&names) {
        writeln!(
            out,
            "  {:<width$}  {:<12} {:>5}  {}",
            name,
            m.value.to_string(),
            delta(m.delta),
            printable(&game.notation(m.to), false)
        )?;
    }
    Ok(())
}

/// A move's change in remoteness against best play: `+0` for a best move.
pub fn delta(d: Option<i64>) -> String {
    d.map_or_else(|| "-".to_string(), |d| format!("{d:+}"))
}
