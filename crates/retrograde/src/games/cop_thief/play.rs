//! The cop and the thief as people play them: a position written as both
//! cells (row and column, from 1 at the top left) and who moves, as in
//! `cop 1,2 thief 6,5 cop`; a move is named by the cell reached.

use std::fmt;

use super::{Board, CopThief, Side};
use crate::Game;
use crate::db::{Database, Meta};
use crate::play::{NotationError, Playable};
use crate::registry::{
    self, Checked, Entry, GameSolution, How, Param, Params, RunError, SmallGraph, Solvable,
};

impl CopThief {
    /// Position `p`, if it is one.
    fn checked(&self, p: u64) -> Option<u32> {
        u32::try_from(p)
            .ok()
            .filter(|&p| (p as usize) < self.position_count())
    }
}

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

impl Playable for CopThief {
    /// The game; the board itself is the `board` parameter its database
    /// adds (the file's text).
    fn meta(&self) -> Meta {
        Meta::new("cop-thief")
    }

    fn start(&self) -> Option<u64> {
        Some(u64::from(CopThief::start(self)))
    }

    fn parse(&self, text: &str) -> Result<u64, NotationError> {
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
            .map(u64::from)
            .ok_or_else(|| err(PositionErrorKind::NotFree))
    }

    fn notation(&self, p: u64) -> String {
        let Some(p) = self.checked(p) else {
            return format!("no position ({p})");
        };
        let s = self.state(p);
        let side = match s.to_move {
            Side::Cop => "cop",
            Side::Thief => "thief",
        };
        format!("cop {} thief {} {side}", cell(s.cop), cell(s.thief))
    }

    fn board(&self, p: u64) -> String {
        match self.checked(p) {
            Some(p) => self.render(p),
            None => format!("no position ({p})\n"),
        }
    }

    fn to_move(&self, p: u64) -> String {
        match self.checked(p).map(|p| self.state(p).to_move) {
            Some(Side::Cop) => "the cop".into(),
            Some(Side::Thief) => "the thief".into(),
            None => "nobody".into(),
        }
    }

    fn moves(&self, p: u64) -> Vec<(String, u64)> {
        let Some(p) = self.checked(p) else {
            return Vec::new();
        };
        let before = self.state(p);
        let mut out = Vec::new();
        self.for_each_move(p, |q| {
            let after = self.state(q);
            let (from, to) = match before.to_move {
                Side::Cop => (before.cop, after.cop),
                Side::Thief => (before.thief, after.thief),
            };
            let name = if from == to {
                "stay".to_string()
            } else {
                cell(to)
            };
            out.push((name, u64::from(q)));
        });
        out
    }

    fn key(&self, p: u64) -> Option<u64> {
        self.checked(p).map(u64::from)
    }
}

impl Solvable for CopThief {
    fn solve(&self, how: &How<'_>) -> Result<Box<dyn GameSolution + '_>, RunError> {
        let start = Some(CopThief::start(self));
        Ok(Box::new(registry::solve_dense(
            self,
            &self.rules(),
            how,
            None,
            start,
        )?))
    }

    fn check(&self, db: &Database, how: &How<'_>, keep: usize) -> Result<Checked, RunError> {
        registry::check_dense(self, &self.rules(), db, how, None, keep)
    }

    fn lays_out(&self) -> bool {
        true
    }

    fn small_graph(&self, limit: usize) -> Result<Option<SmallGraph>, RunError> {
        if self.position_count() > limit {
            return Ok(None);
        }
        let m = crate::game::materialise(self, crate::CsrBuilder::new())?;
        Ok(Some(SmallGraph {
            labels: (0..self.position_count() as u64)
                .map(|p| Playable::notation(self, p))
                .collect(),
            edges: m.graph.edges().collect(),
            rules: m.rules(&self.rules()),
            owners: None,
        }))
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
            Ok(Box::new(game) as Box<dyn Solvable>)
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
