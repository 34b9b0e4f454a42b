//! Dōbutsu shōgi as people play it: the rules without the numbering of the
//! reachable positions (cheap to build), positions in the SFEN-style
//! notation, moves named from the first player's side.

use super::board::{Board, CHICK, ELEPHANT, GIRAFFE, HAND_KINDS, LION, THEIRS};
use super::index::Numbering;
use super::{Capture, SfenErrorKind, canonical, notation};
use retrograde::db::{Database, Meta};
use retrograde::drawing::{Drawing, Piece, Shape};
use retrograde::play::{NotationError, Playable};
use retrograde::registry::{
    self, Checked, Entry, GameSolution, How, Param, Params, RunError, Solvable,
};
use retrograde::{Outcome, Player};

/// The name of the square in row `r` from the top and column `c` from the
/// left, as the text board labels them (`a1` at the top left).
fn square_name(r: usize, c: usize) -> String {
    format!("{}{}", char::from(b'a' + c as u8), r + 1)
}

/// The animal of a piece's kind.
fn animal(kind: u8) -> &'static str {
    match kind {
        LION => "lion",
        GIRAFFE => "giraffe",
        ELEPHANT => "elephant",
        CHICK => "chick",
        _ => "hen",
    }
}

/// A piece of `kind`, Gote's or Sente's (who moves first), marked with its
/// letter in the notation.
fn piece(kind: u8, gote: bool) -> Piece {
    let (player, side) = if gote {
        (Player::Second, "Gote's")
    } else {
        (Player::First, "Sente's")
    };
    Piece::marked(
        player,
        notation::letter(kind).to_string(),
        format!("{side} {}", animal(kind)),
    )
}

/// The position after a lion is captured (with [`Capture::Played`]).
pub const CAPTURED: u64 = u64::MAX;

/// The setup of a game of Dōbutsu shōgi played from `start`: which pieces
/// are in it, whether mirror images are one position and how the capture
/// of a lion counts. A position (for [`Playable`]) is the board's number,
/// seen by its player to move, times two, plus one when that player is
/// Sente; a code of its own, above every board's, after a lion is taken.
#[derive(Clone, Debug)]
pub struct Setup {
    numbering: Numbering,
    mirror: bool,
    capture: Capture,
    start: Board,
    sente: bool,
}

impl Setup {
    /// The game from `start` (Sente to move if `sente`).
    pub fn new(start: Board, sente: bool, mirror: bool, capture: Capture) -> Setup {
        Setup {
            numbering: Numbering::new(start.piece_counts()),
            mirror,
            capture,
            start,
            sente,
        }
    }

    /// The game from its opening.
    pub fn opening(mirror: bool, capture: Capture) -> Setup {
        Setup::new(Board::start(), true, mirror, capture)
    }

    /// The key under which a database keeps the captured lion: one past
    /// every board number.
    pub fn captured_key(&self) -> u64 {
        self.numbering.total()
    }

    /// The code of a board seen by its player to move.
    fn code(&self, b: &Board, sente: bool) -> u64 {
        self.numbering.number(b) * 2 + u64::from(sente)
    }

    /// The board and side of a code.
    fn board(&self, p: u64) -> Option<(Board, bool)> {
        if p == CAPTURED {
            return None;
        }
        self.numbering.board(p / 2).map(|b| (b, p % 2 == 1))
    }
}

impl Playable for Setup {
    fn meta(&self) -> Meta {
        Meta::new("dobutsu")
            .param("start", notation::write(&self.start, self.sente))
            .param("symmetry", self.mirror)
            .param(
                "capture",
                match self.capture {
                    Capture::Played => "played",
                    Capture::Terminal => "terminal",
                },
            )
    }

    fn start(&self) -> Option<u64> {
        Some(self.code(&self.start, self.sente))
    }

    fn parse(&self, text: &str) -> Result<u64, NotationError> {
        let err = |kind: SfenErrorKind| NotationError::invalid("dobutsu", text, kind);
        if text.trim() == "the lion captured" && self.capture == Capture::Played {
            return Ok(CAPTURED);
        }
        let (b, sente) = notation::parse(text).map_err(|e| err(e.kind))?;
        if b.piece_counts() != self.numbering.counts() {
            return Err(err(SfenErrorKind::OtherPieces {
                game: self.numbering.counts(),
                board: b.piece_counts(),
            }));
        }
        Ok(self.code(&b, sente))
    }

    fn notation(&self, p: u64) -> String {
        match self.board(p) {
            Some((b, sente)) => notation::write(&b, sente),
            None if p == CAPTURED => "the lion captured".into(),
            None => format!("no position ({p})"),
        }
    }

    fn board(&self, p: u64) -> String {
        let Some((b, sente)) = self.board(p) else {
            return format!("{}\n", self.notation(p));
        };
        let text = notation::write(&b, sente);
        let mut fields = text.split(' ');
        let rows = fields.next().unwrap_or("");
        fields.next();
        let hands = fields.next().unwrap_or("-");
        let mut out = retrograde::play::draw_rows(rows, |r| char::from(b'1' + r as u8), "a b c");
        out.push_str(&format!(
            "in hand: {hands} (upper case Sente's, lower case Gote's)\n"
        ));
        out
    }

    /// The 3 x 4 board (rank 1 at the top, as the text board), Sente's
    /// pieces light and Gote's dark, each marked with its animal's letter;
    /// the hands as places beside it, Gote's at the top left and Sente's
    /// at the bottom right, two a kind (the game has two of each), so that
    /// a drop moves a piece from a hand to the board.
    fn drawing(&self, p: u64) -> Option<Drawing> {
        let (b, sente) = self.board(p)?;
        // Seen from Sente's side, as the notation writes it.
        let view = if sente { b } else { b.flipped() };
        let mut d = Drawing::new();
        // Gote's hand: columns left of the board, rows 1 to 3 from the top;
        // Sente's: right of it, rows 2 to 4.
        for (gote, x, y) in [(true, -2.25, 0.0), (false, 3.25, 1.0)] {
            let side = if gote { "Gote's" } else { "Sente's" };
            for (row, kind) in HAND_KINDS.into_iter().enumerate() {
                for copy in 0..2 {
                    let at = d.places().len();
                    let name = format!("{side} hand, {} {}", animal(kind), copy + 1);
                    d = d.place(name, x + f32::from(copy), y + row as f32, Shape::Slot);
                    if copy < view.hands[usize::from(gote)][row] {
                        d = d.piece(at, piece(kind, gote));
                    }
                }
            }
        }
        for (i, &code) in view.cells.iter().enumerate() {
            let (r, c, at) = (i / 3, i % 3, d.places().len());
            d = d.square(square_name(r, c), c as f32, r as f32);
            if code != 0 {
                d = d.piece(at, piece(code & !THEIRS, code & THEIRS != 0));
            }
        }
        Some(d.note("Gote's hand at the top left, Sente's at the bottom right"))
    }

    fn to_move(&self, p: u64) -> String {
        match self.board(p) {
            Some((_, true)) => "Sente".into(),
            Some((_, false)) => "Gote".into(),
            None => "nobody".into(),
        }
    }

    /// A lion captured, or one that reached the far rank and stays (the
    /// try); or a side with no move, which loses.
    fn ending(&self, p: u64) -> Option<String> {
        let Some((b, sente)) = self.board(p) else {
            return (p == CAPTURED).then(|| "a lion is captured: its captor wins".into());
        };
        let (mover, other) = if sente {
            ("Sente", "Gote")
        } else {
            ("Gote", "Sente")
        };
        match b.terminal() {
            Some(Outcome::Win) if self.capture == Capture::Terminal => {
                Some(format!("{mover} can capture the lion: {mover} wins"))
            }
            Some(Outcome::Lose) => Some(format!(
                "{other}'s lion reached the far rank safely (the try): {other} wins"
            )),
            _ if self.moves(p).is_empty() => Some(format!("{mover} cannot move: {other} wins")),
            _ => None,
        }
    }

    fn moves(&self, p: u64) -> Vec<(String, u64)> {
        let Some((b, sente)) = self.board(p) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        match b.terminal() {
            Some(Outcome::Win) if self.capture == Capture::Played => {
                b.for_each_lion_capture(|m| out.push((notation::move_name(&m, sente), CAPTURED)));
            }
            Some(_) => {}
            None => b.for_each_move(|m, after| {
                out.push((notation::move_name(&m, sente), self.code(&after, !sente)));
            }),
        }
        out
    }

    fn uncounted(&self) -> Vec<u64> {
        vec![self.captured_key()]
    }

    /// The board of a key is seen by its player to move, who is written
    /// as Sente.
    fn position_at(&self, key: u64) -> u64 {
        if key == self.captured_key() {
            CAPTURED
        } else {
            key * 2 + 1
        }
    }

    fn key(&self, p: u64) -> Option<u64> {
        if p == CAPTURED {
            return (self.capture == Capture::Played).then(|| self.captured_key());
        }
        let (b, _) = self.board(p)?;
        Some(canonical(&self.numbering, self.mirror, &b))
    }
}

impl Setup {
    /// The game of the positions reachable from the start, numbered,
    /// refused past `how`'s limit before it is explored.
    fn explore(&self, how: &How<'_>) -> Result<super::Dobutsu, RunError> {
        how.check(
            || {
                format!(
                    "exploring Dōbutsu shōgi from {}",
                    notation::write(&self.start, self.sente)
                )
            },
            super::Dobutsu::explore_bytes(&self.start),
        )?;
        // Its phase `explore` is reported by the exploration itself.
        super::Dobutsu::from_start(self.start, self.mirror, self.capture, how.progress)
            .map_err(|e| RunError::Game(Box::new(e)))
    }
}

impl Solvable for Setup {
    fn solve(&self, how: &How<'_>) -> Result<Box<dyn GameSolution + '_>, RunError> {
        let game = self.explore(how)?;
        let start = Some(game.start());
        let rules = retrograde::Rules::normal();
        let key = Some(super::Dobutsu::key as fn(&super::Dobutsu, u32) -> Option<u64>);
        let captured = game.captured();
        let solved = registry::solve_dense(game, &rules, how, key, start)?
            .uncounted(captured)
            .increasing_keys();
        Ok(Box::new(solved))
    }

    fn check(&self, db: &Database, how: &How<'_>, keep: usize) -> Result<Checked, RunError> {
        let game = self.explore(how)?;
        let key = |i: u32| game.key(i);
        registry::check_dense(
            &game,
            &retrograde::Rules::normal(),
            db,
            how,
            Some(&key),
            keep,
        )
    }
}

/// The registry's entry: Dōbutsu shōgi from its start, or from `start`.
pub fn entry() -> Entry {
    Entry::new(
        "dobutsu",
        "Dōbutsu shōgi (\"Let's Catch the Lion!\"): shogi for children on 3 x 4 squares, from its start.",
        |p: &Params<'_>| {
            let text = p.text("start")?;
            let (start, sente) = notation::parse(text).map_err(|e| p.refused(e))?;
            let capture = match p.text("capture")? {
                "played" => Capture::Played,
                "terminal" => Capture::Terminal,
                other => return Err(p.bad("capture", other, "played or terminal")),
            };
            let setup = Setup::new(start, sente, p.flag("symmetry")?, capture);
            Ok(Box::new(setup) as Box<dyn Solvable>)
        },
    )
    .help(
        "Positions are written as in shogi's SFEN: rows from the top, upper case for \
the first player, the side to move (b first, w second), the hands; the start \
is \"gle/1c1/1C1/ELG b -\".

Examples:
  retrograde game dobutsu
  retrograde game dobutsu --json | jq .start
  retrograde game dobutsu --position 'gle/1c1/1C1/ELG b -'",
    )
    .param(Param::text(
        "start",
        "Solve the positions reachable from this one instead of the opening.",
        "SFEN",
        Some("gle/1c1/1C1/ELG b -"),
    ))
    .param(Param::flag("symmetry", "Count a position and its mirror image as two.", true))
    .param(Param::text(
        "capture",
        "How a capture of the lion is scored: played (won by the capture, in 1) or terminal (over, in 0).",
        "HOW",
        Some("played"),
    ))
}
