//! The cop and the thief as people play them: a position written as both
//! cells (row and column, from 1 at the top left) and who moves, as in
//! `cop 1,2 thief 6,5 cop`; a move is named by the cell reached.

use std::fmt;

use super::{Board, CopThief, Side};
use retrograde::db::Meta;
use retrograde::play::NotationError;
use retrograde::registry::{Entry, Numbered, Param, Params, Solvable};

fn cell((r, c): (usize, usize)) -> String {
    format!("{},{}", r + 1, c + 1)
}

/// Why a text is not a position of the cop and the thief, one variant a
/// fault; the message says what is wrong and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PositionErrorKind {
    /// Not five words.
    Words {
        /// The words found.
        found: usize,
    },
    /// The words are not `cop`, a cell, `thief`, a cell.
    Order,
    /// A cell that is not `ROW,COLUMN` (each from 1).
    Cell {
        /// The word found.
        found: String,
    },
    /// The last word is not `cop` or `thief`.
    Side {
        /// The word found.
        found: String,
    },
    /// A cell is a wall or off the board.
    NotFree,
}

impl fmt::Display for PositionErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionErrorKind::Words { found } => write!(f, "{found} words, not five")?,
            PositionErrorKind::Order => f.write_str("the cop's cell first, then the thief's")?,
            PositionErrorKind::Cell { found } => write!(f, "the cell {found:?} is not ROW,COLUMN")?,
            PositionErrorKind::Side { found } => write!(
                f,
                "the last word says who moves: cop or thief, not {found:?}"
            )?,
            PositionErrorKind::NotFree => f.write_str("a cell is a wall or off the board")?,
        }
        f.write_str(" (expected \"cop ROW,COLUMN thief ROW,COLUMN cop|thief\", counting from 1 at the top left)")
    }
}

impl std::error::Error for PositionErrorKind {}

impl CopThief {
    /// The position `text` writes: `cop ROW,COLUMN thief ROW,COLUMN
    /// cop|thief`, counting from 1 at the top left.
    pub(super) fn parse_position(&self, text: &str) -> Result<u32, NotationError> {
        let err = |kind: PositionErrorKind| NotationError::invalid("cop-thief", text, kind);
        let words: Vec<&str> = text.split_whitespace().collect();
        let [c, cop, t, thief, side] = words[..] else {
            return Err(err(PositionErrorKind::Words { found: words.len() }));
        };
        if !c.eq_ignore_ascii_case("cop") || !t.eq_ignore_ascii_case("thief") {
            return Err(err(PositionErrorKind::Order));
        }
        let at = |w: &str| -> Result<(usize, usize), NotationError> {
            let cell = || -> Option<(usize, usize)> {
                let (r, c) = w.split_once(',')?;
                let (r, c): (usize, usize) = (r.trim().parse().ok()?, c.trim().parse().ok()?);
                (r >= 1 && c >= 1).then(|| (r - 1, c - 1))
            };
            cell().ok_or_else(|| err(PositionErrorKind::Cell { found: w.into() }))
        };
        let side = match side.to_ascii_lowercase().as_str() {
            "cop" => Side::Cop,
            "thief" => Side::Thief,
            _ => return Err(err(PositionErrorKind::Side { found: side.into() })),
        };
        let (cop, thief) = (at(cop)?, at(thief)?);
        self.position(cop, thief, side)
            .ok_or_else(|| err(PositionErrorKind::NotFree))
    }

    /// `cop ROW,COLUMN thief ROW,COLUMN cop|thief`.
    pub(super) fn write_position(&self, p: u32) -> String {
        let s = self.state(p);
        let side = match s.to_move {
            Side::Cop => "cop",
            Side::Thief => "thief",
        };
        format!("cop {} thief {} {side}", cell(s.cop), cell(s.thief))
    }

    /// The cell the mover reaches, or `stay`.
    pub(super) fn name_move(&self, p: u32, q: u32) -> String {
        let (before, after) = (self.state(p), self.state(q));
        let (from, to) = match before.to_move {
            Side::Cop => (before.cop, after.cop),
            Side::Thief => (before.thief, after.thief),
        };
        if from == to {
            "stay".to_string()
        } else {
            cell(to)
        }
    }

    /// Who moves, in the game's words.
    pub(super) fn mover(&self, p: u32) -> String {
        match self.state(p).to_move {
            Side::Cop => "the cop".into(),
            Side::Thief => "the thief".into(),
        }
    }
}

/// The registry's entry: the board is the text of a board file (its
/// databases keep it whole), `path` where it was read from.
pub fn entry() -> Entry {
    Entry::new(
        "cop-thief",
        "The cop and the thief on a board: the same as `retrograde cop-thief BOARD`.",
        |p: &Params<'_>| {
            let board = Board::parse(p.text("board")?.as_bytes(), p.text("path")?)
                .map_err(|e| p.refused(e))?;
            let game = CopThief::new(board).map_err(|e| p.refused(e))?;
            // The board is the `board` parameter its databases add (the
            // file's text), not part of the game's name.
            let meta = Meta::new("cop-thief");
            Ok(Box::new(Numbered::new(game, meta)) as Box<dyn Solvable>)
        },
    )
    .param(Param::text("board", "The board file's text.", "TEXT", None))
    .param(Param::text(
        "path",
        "Where the board was read from, for messages.",
        "FILE",
        Some("board"),
    ))
}
