//! An ending as people play it: FEN in and out, moves named in long
//! algebraic notation and read in it or in standard algebraic notation, the
//! board drawn rank 8 first.

use super::{Endgame, Ending, Position};
use crate::db::Database;
use crate::db::Meta;
use crate::play::{NotationError, Playable};
use crate::registry::{self, Checked, Entry, GameSolution, How, Param, Params, RunError, Solvable};
use crate::StateGame;

/// The key of [`Position::CAPTURED`]: one above every position's code.
const CAPTURED_KEY: u64 = 1 << 25;

impl Endgame {
    /// Whether the board's symmetries are folded.
    pub fn folds_symmetries(&self) -> bool {
        self.symmetry
    }

    /// The position a code of [`Playable`] stands for.
    fn at(p: u64) -> Option<Position> {
        u32::try_from(p).ok().map(Position)
    }
}

impl Playable for Endgame {
    fn meta(&self) -> Meta {
        Meta::new("chess")
            .variant(self.ending.name())
            .param("symmetry", self.symmetry)
    }

    fn start(&self) -> Option<u64> {
        None
    }

    fn parse(&self, text: &str) -> Result<u64, NotationError> {
        if text.trim() == "a piece captured" {
            return Ok(u64::from(Position::CAPTURED.0));
        }
        self.parse_fen(text).map(|p| u64::from(p.0)).map_err(|e| {
            NotationError::invalid(format!("chess {}", self.ending.name()), text, e.kind)
        })
    }

    fn notation(&self, p: u64) -> String {
        match Endgame::at(p) {
            Some(Position::CAPTURED) => "a piece captured".into(),
            Some(p) => self.fen(p),
            None => format!("no position ({p})"),
        }
    }

    fn board(&self, p: u64) -> String {
        let Some(pos) = Endgame::at(p).filter(|&q| q != Position::CAPTURED) else {
            return format!("{}\n", Playable::notation(self, p));
        };
        let fen = self.fen(pos);
        let rows = fen.split(' ').next().unwrap_or("");
        crate::play::draw_rows(rows, |r| char::from(b'8' - r as u8), "a b c d e f g h")
    }

    fn to_move(&self, p: u64) -> String {
        match Endgame::at(p) {
            Some(Position::CAPTURED) | None => "nobody".into(),
            Some(p) if p.black_to_move() => "black".into(),
            Some(_) => "white".into(),
        }
    }

    fn moves(&self, p: u64) -> Vec<(String, u64)> {
        let mut out = Vec::new();
        if let Some(p) = Endgame::at(p) {
            self.for_each_raw_move(p, |m| out.push((m.to_string(), u64::from(m.to.0))));
        }
        out
    }

    /// A move in the long form the game names moves with (`Ra1-a8`), or in
    /// standard algebraic notation (`Ra8`, `Kxh7`, `Rxa2+`).
    fn find_move(&self, p: u64, text: &str) -> Option<(String, u64)> {
        crate::play::find_named(self.moves(p), text).or_else(|| {
            let mut moves = Vec::new();
            self.for_each_raw_move(Endgame::at(p)?, |m| moves.push(m));
            super::san::find(text.trim(), &moves).map(|m| (m.to_string(), u64::from(m.to.0)))
        })
    }

    /// The canonical position's code; the capture's tie, whose code is
    /// `u32::MAX`, is keyed just above every position (bit 25), so that
    /// the keys' range stays that of the positions.
    fn key(&self, p: u64) -> Option<u64> {
        match Endgame::at(p)? {
            Position::CAPTURED => Some(CAPTURED_KEY),
            p => Some(u64::from(self.canonical(p).0)),
        }
    }

    fn uncounted(&self) -> Vec<u64> {
        vec![CAPTURED_KEY]
    }

    fn position_at(&self, key: u64) -> u64 {
        if key == CAPTURED_KEY {
            u64::from(Position::CAPTURED.0)
        } else {
            key
        }
    }
}

impl Solvable for Endgame {
    fn solve(&self, how: &How<'_>) -> Result<Box<dyn GameSolution + '_>, RunError> {
        let key = |p: &Position| Playable::key(self, u64::from(p.0));
        let solved = registry::solve_states(self, how, key)?.uncounted(&Position::CAPTURED);
        Ok(Box::new(solved))
    }

    fn check(&self, db: &Database, how: &How<'_>, keep: usize) -> Result<Checked, RunError> {
        let key = |p: &Position| Playable::key(self, u64::from(p.0));
        registry::check_states(self, db, how, key, keep)
    }

    fn counts_by_side(&self) -> bool {
        true
    }
}

/// The registry's entry: `chess KRK`, its symmetries folded unless
/// `symmetry` is false.
pub fn entry() -> Entry {
    let mut entry = Entry::new(
        "chess",
        "A pawnless chess ending: KQK, KRK, KBBK (opposite-coloured bishops), KBNK or KNNK.",
        |p: &Params<'_>| {
            let ending = Ending::from_name(p.variant())
                .ok_or_else(|| p.bad("variant", p.variant(), "a chess ending"))?;
            Ok(Box::new(Endgame::new(ending, p.flag("symmetry")?)) as Box<dyn Solvable>)
        },
    )
    .help(
        "\
Positions are written in FEN; moves are named in long algebraic notation \
(Ra1-a8) and read in it or in standard algebraic notation (Ra8, Kxb2).

Examples:
  retrograde game chess KRK
  retrograde game chess KBNK --json | jq .by_side
  retrograde game chess KQK --position '7k/Q7/6K1/8/8/8/8/8 w - - 0 1'",
    )
    .param(Param::flag(
        "symmetry",
        "Solve every position as it is, without folding the board's 8 symmetries.",
        true,
    ));
    for ending in Ending::ALL {
        entry = entry.variant(ending.name(), ending.name());
    }
    entry
}
