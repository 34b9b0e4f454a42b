//! Dots and boxes on a board of `rows × cols` boxes: the players draw lines
//! between neighbouring dots in turn; a player who completes a box scores
//! it **and moves again**; when every line is drawn, more boxes win.
//!
//! The first built-in game where a player may move twice in a row: a
//! position names who moves there ([`StateGame::owner`]), and a move that
//! completes a box keeps the turn. Values are for the player to move, as
//! everywhere; remoteness counts lines drawn.
//!
//! A position is one `u64`: the lines drawn (bit `l` for line `l`), player
//! 0's boxes, and who moves. Lines are numbered as OpenSpiel's
//! `dots_and_boxes` numbers its actions: the horizontal lines row by row
//! from the top (`h r,c`: the top side of box `r,c`, `r` up to `rows`),
//! then the vertical ones (`v r,c`: its left side, `c` up to `cols`). The
//! score decides only at the end; a tie is a tie.
//!
//! ```
//! use retrograde_games::dots_boxes::DotsAndBoxes;
//! use retrograde::{solve_states, Outcome};
//! let game = DotsAndBoxes::new(2, 2).unwrap();
//! let start = game.start();
//! let s = solve_states(game).unwrap();
//! // 2 × 2 boxes (3 × 3 dots): a win for the first player.
//! assert_eq!(s.value(&start).unwrap().outcome, Outcome::Win);
//! ```

use retrograde::drawing::{Drawing, Piece, Shape};
use retrograde::play::NotationError;
use retrograde::registry::{Entry, Param};
use retrograde::{Outcome, Player, StateGame};

/// The most lines a board may have: they, the score and the mover fit in
/// a `u64` (5 bits of score, 1 of mover).
pub const MAX_LINES: u32 = 58;

/// The most boxes a board may have (the score's 5 bits).
pub const MAX_BOXES: u32 = 31;

/// Dots and boxes on `rows × cols` boxes.
#[derive(Clone, Debug)]
pub struct DotsAndBoxes {
    rows: u32,
    cols: u32,
    lines: u32,
    /// Each box's four lines, as a mask.
    boxes: Vec<u64>,
    /// The boxes each line is a side of (one or two).
    sides: Vec<Vec<usize>>,
}

/// A board size refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "a board of {rows} x {cols} boxes: expected at least 1 x 1, at most {MAX_BOXES} boxes and {MAX_LINES} lines"
)]
pub struct SizeError {
    /// Rows of boxes.
    pub rows: u32,
    /// Columns of boxes.
    pub cols: u32,
}

/// Why a text is no position, for [`NotationError::kind`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadPosition {
    /// Not three parts.
    #[error(
        "expected the lines drawn (0 or 1 each, in line order), player 0's and player 1's boxes and who moves, as in \"{0}\""
    )]
    Shape(String),
    /// A score the lines do not give.
    #[error("the scores add up to {scores}, but the lines drawn complete {boxes} boxes")]
    Score {
        /// The scores' sum.
        scores: u32,
        /// The boxes complete.
        boxes: u32,
    },
}

impl DotsAndBoxes {
    /// The board of `rows × cols` boxes.
    ///
    /// # Errors
    /// [`SizeError`] for an empty board, or one past [`MAX_BOXES`] boxes or
    /// [`MAX_LINES`] lines.
    pub fn new(rows: u32, cols: u32) -> Result<DotsAndBoxes, SizeError> {
        let (r, c) = (u64::from(rows), u64::from(cols));
        let lines = ((r + 1) * c).saturating_add(r * (c + 1));
        let boxes = r * c;
        if rows == 0 || cols == 0 || boxes > u64::from(MAX_BOXES) || lines > u64::from(MAX_LINES) {
            return Err(SizeError { rows, cols });
        }
        let h = |r: u32, c: u32| r * cols + c;
        let v = |r: u32, c: u32| (rows + 1) * cols + r * (cols + 1) + c;
        let mut masks = Vec::new();
        let mut sides = vec![Vec::new(); lines as usize];
        for r in 0..rows {
            for c in 0..cols {
                let four = [h(r, c), h(r + 1, c), v(r, c), v(r, c + 1)];
                for &l in &four {
                    sides[l as usize].push(masks.len());
                }
                masks.push(four.iter().fold(0u64, |m, &l| m | 1 << l));
            }
        }
        Ok(DotsAndBoxes {
            rows,
            cols,
            lines: lines as u32,
            boxes: masks,
            sides,
        })
    }

    /// The empty board, player 0 to move.
    pub fn start(&self) -> u64 {
        0
    }

    /// The number of lines.
    pub fn line_count(&self) -> u32 {
        self.lines
    }

    fn drawn(&self, p: u64) -> u64 {
        p & ((1u64 << self.lines) - 1)
    }

    /// Player 0's boxes at `p`.
    pub fn score0(&self, p: u64) -> u32 {
        (p >> self.lines) as u32 & 31
    }

    /// The boxes complete at `p`.
    pub fn complete(&self, p: u64) -> u32 {
        let drawn = self.drawn(p);
        self.boxes.iter().filter(|&&m| drawn & m == m).count() as u32
    }

    /// Who moves at `p`.
    pub fn mover(&self, p: u64) -> Player {
        if p >> (self.lines + 5) & 1 == 0 {
            Player::First
        } else {
            Player::Second
        }
    }

    fn with(&self, drawn: u64, score0: u32, mover: Player) -> u64 {
        drawn | u64::from(score0) << self.lines | u64::from(mover.index()) << (self.lines + 5)
    }

    /// The position after drawing line `l` at `p` (not drawn yet): a box
    /// completed scores for the mover, who moves again.
    pub fn draw(&self, p: u64, l: u32) -> u64 {
        let drawn = self.drawn(p) | 1 << l;
        let gained = self.sides[l as usize]
            .iter()
            .filter(|&&b| drawn & self.boxes[b] == self.boxes[b])
            .count() as u32;
        let mover = self.mover(p);
        let score0 = self.score0(p) + if mover == Player::First { gained } else { 0 };
        let next = if gained > 0 { mover } else { mover.other() };
        self.with(drawn, score0, next)
    }

    /// Line `l`'s name: `h r,c` (the top of box `r,c`) or `v r,c` (its
    /// left side), as OpenSpiel writes its actions.
    pub fn line_name(&self, l: u32) -> String {
        let horizontal = (self.rows + 1) * self.cols;
        if l < horizontal {
            format!("h{},{}", l / self.cols, l % self.cols)
        } else {
            let k = l - horizontal;
            format!("v{},{}", k / (self.cols + 1), k % (self.cols + 1))
        }
    }
}

impl StateGame for DotsAndBoxes {
    type Position = u64;

    fn starts(&self) -> Vec<u64> {
        vec![self.start()]
    }

    fn for_each_move<F: FnMut(u64)>(&self, p: &u64, mut f: F) {
        let drawn = self.drawn(*p);
        for l in (0..self.lines).filter(|&l| drawn >> l & 1 == 0) {
            f(self.draw(*p, l));
        }
    }

    /// Every line drawn: more boxes than the other player wins, as many ties.
    fn terminal(&self, p: &u64) -> Option<Outcome> {
        if self.drawn(*p).count_ones() < self.lines {
            return None;
        }
        let s0 = self.score0(*p);
        let s1 = self.rows * self.cols - s0;
        let (mine, theirs) = match self.mover(*p) {
            Player::First => (s0, s1),
            Player::Second => (s1, s0),
        };
        Some(match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => Outcome::Win,
            std::cmp::Ordering::Less => Outcome::Lose,
            std::cmp::Ordering::Equal => Outcome::Tie,
        })
    }

    fn owner(&self, p: &u64) -> Option<Player> {
        Some(self.mover(*p))
    }

    /// `LINES/A-B/P`: a 0 or 1 for each line in line order, player 0's and
    /// player 1's boxes, who moves (0 or 1): the start of 2 × 2 is
    /// `000000000000/0-0/0`.
    fn notation(&self, p: &u64) -> String {
        let drawn = self.drawn(*p);
        let bits: String = (0..self.lines)
            .map(|l| if drawn >> l & 1 == 1 { '1' } else { '0' })
            .collect();
        let s0 = self.score0(*p);
        let s1 = self.complete(*p).saturating_sub(s0);
        format!("{bits}/{s0}-{s1}/{}", self.mover(*p))
    }

    fn parse(&self, text: &str) -> Result<u64, NotationError> {
        let example = self.notation(&self.start());
        let shape =
            || NotationError::invalid("dots-and-boxes", text, BadPosition::Shape(example.clone()));
        let parts: Vec<&str> = text.trim().split('/').collect();
        let [bits, score, mover] = parts[..] else {
            return Err(shape());
        };
        if bits.len() != self.lines as usize || !bits.bytes().all(|b| b == b'0' || b == b'1') {
            return Err(shape());
        }
        let drawn = bits
            .bytes()
            .enumerate()
            .fold(0u64, |m, (l, b)| m | u64::from(b - b'0') << l);
        let (s0, s1) = score.split_once('-').ok_or_else(shape)?;
        let (s0, s1): (u32, u32) = match (s0.parse(), s1.parse()) {
            (Ok(a), Ok(b)) => (a, b),
            _ => return Err(shape()),
        };
        let mover = match mover {
            "0" => Player::First,
            "1" => Player::Second,
            _ => return Err(shape()),
        };
        let boxes = self.complete(drawn);
        if s0.checked_add(s1) != Some(boxes) {
            return Err(NotationError::invalid(
                "dots-and-boxes",
                text,
                BadPosition::Score {
                    scores: s0.saturating_add(s1),
                    boxes,
                },
            ));
        }
        Ok(self.with(drawn, s0, mover))
    }

    /// The line drawn, `h0,1` or `v1,0`.
    fn move_name(&self, p: &u64, q: &u64) -> String {
        let l = (self.drawn(*p) ^ self.drawn(*q)).trailing_zeros();
        self.line_name(l)
    }

    fn to_move(&self, p: &u64) -> String {
        format!("player {}", self.mover(*p))
    }

    /// Every line drawn: the boxes counted.
    fn ending(&self, p: &u64) -> Option<String> {
        self.terminal(p)?;
        let s0 = self.score0(*p);
        let s1 = self.rows * self.cols - s0;
        Some(match s0.cmp(&s1) {
            std::cmp::Ordering::Greater => format!("every box taken, {s0} to {s1}: player 0 wins"),
            std::cmp::Ordering::Less => format!("every box taken, {s1} to {s0}: player 1 wins"),
            std::cmp::Ordering::Equal => format!("every box taken, {s0} each: a tie"),
        })
    }

    /// The dots, the sides between them (a drawn one a line), the boxes
    /// taken filled, and the score.
    fn drawing(&self, p: &u64) -> Option<Drawing> {
        let drawn = self.drawn(*p);
        let (rows, cols) = (self.rows, self.cols);
        let horizontal = (rows + 1) * cols;
        // The sides first (place l is line l: a move fills its side first),
        // then the boxes, then the dots.
        let mut d = Drawing::new();
        for l in 0..self.lines {
            let name = self.line_name(l);
            d = if l < horizontal {
                let (r, c) = (l / cols, l % cols);
                d.place(name, c as f32 + 0.5, r as f32, Shape::Across)
            } else {
                let k = l - horizontal;
                let (r, c) = (k / (cols + 1), k % (cols + 1));
                d.place(name, c as f32, r as f32 + 0.5, Shape::Down)
            };
            if drawn >> l & 1 == 1 {
                d = d.piece(l as usize, Piece::neutral("a line"));
            }
        }
        for (b, &mask) in self.boxes.iter().enumerate() {
            let (r, c) = (b as u32 / cols, b as u32 % cols);
            let at = d.places().len();
            d = d.square(format!("box {r},{c}"), c as f32 + 0.5, r as f32 + 0.5);
            if drawn & mask == mask {
                d = d.piece(at, Piece::neutral("a box taken"));
            }
        }
        for r in 0..=rows {
            for c in 0..=cols {
                d = d.point(format!("dot {r},{c}"), c as f32, r as f32);
            }
        }
        let s0 = self.score0(*p);
        Some(d.note(format!(
            "boxes {s0}-{}, player {} to move",
            self.complete(*p) - s0,
            self.mover(*p)
        )))
    }

    /// The board: dots `+`, lines `---` and `|`, then the score.
    fn show(&self, p: &u64) -> String {
        let drawn = self.drawn(*p);
        let (rows, cols) = (self.rows, self.cols);
        let is = |l: u32| drawn >> l & 1 == 1;
        let mut out = String::new();
        for r in 0..=rows {
            for c in 0..cols {
                out += if is(r * cols + c) { "+---" } else { "+   " };
            }
            out += "+\n";
            if r < rows {
                for c in 0..=cols {
                    out += if is((rows + 1) * cols + r * (cols + 1) + c) {
                        "|"
                    } else {
                        " "
                    };
                    if c < cols {
                        out += "   ";
                    }
                }
                out += "\n";
            }
        }
        let s0 = self.score0(*p);
        out + &format!(
            "boxes {s0}-{}, player {} to move\n",
            self.complete(*p) - s0,
            self.mover(*p)
        )
    }

    /// The position itself: a number below 2^(lines + 6).
    fn encode(&self, p: &u64) -> Option<u64> {
        Some(*p)
    }

    /// Any number with no bit past the mover's, a score no larger than the
    /// boxes complete.
    fn decode(&self, code: u64) -> Option<u64> {
        let past = code.checked_shr(self.lines + 6).unwrap_or(0);
        if past != 0 || self.score0(code) > self.complete(code) {
            return None;
        }
        Some(code)
    }
}

/// The entry the tools find it by: `retrograde game dots-and-boxes --rows 2 --cols 2`.
pub fn entry() -> Entry {
    Entry::state_game(
        "dots-and-boxes",
        "Dots and boxes on rows x cols boxes: a player who completes a box moves again.",
        |p| {
            let size = |name: &'static str| -> Result<u32, retrograde::registry::GameError> {
                let text = p.text(name)?;
                text.parse()
                    .map_err(|_| p.bad(name, text, "a whole number"))
            };
            DotsAndBoxes::new(size("rows")?, size("cols")?).map_err(|e| p.refused(e))
        },
    )
    .help(
        "Positions are written LINES/A-B/P: a 0 or 1 for each line (the horizontal \
lines row by row from the top, then the vertical ones, OpenSpiel's order), \
player 0's and player 1's boxes, who moves; moves are named by their line, \
h0,1 (the top of box 0,1) or v1,0 (the left side of box 1,0).

Examples:
  retrograde game dots-and-boxes --rows 2 --cols 2
  retrograde game dots-and-boxes --rows 2 --cols 3 --save db23.db",
    )
    .param(Param::text("rows", "Rows of boxes.", "N", Some("2")))
    .param(Param::text("cols", "Columns of boxes.", "N", Some("2")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completing_a_box_scores_and_keeps_the_turn() {
        let g = DotsAndBoxes::new(1, 1).unwrap();
        // h0,0 h1,0 v0,0 by players 0, 1, 0: player 1 closes the box.
        let p = [0u32, 1, 2].iter().fold(g.start(), |p, &l| g.draw(p, l));
        assert_eq!(g.mover(p), Player::Second);
        let q = g.draw(p, 3);
        assert_eq!(
            (g.mover(q), g.score0(q), g.complete(q)),
            (Player::Second, 0, 1)
        );
        assert_eq!(g.terminal(&q), Some(Outcome::Win));
        assert_eq!(g.notation(&q), "1111/0-1/1");
        assert_eq!(g.parse("1111/0-1/1").unwrap(), q);
    }

    #[test]
    fn the_drawing_has_a_place_a_side_then_the_boxes_and_the_dots() {
        let g = DotsAndBoxes::new(1, 1).unwrap();
        let p = [0u32, 1, 2, 3].iter().fold(g.start(), |p, &l| g.draw(p, l));
        let d = g.drawing(&g.draw(g.start(), 2)).unwrap();
        // 4 sides, 1 box, 4 dots; side 2 (v0,0) drawn.
        assert_eq!(d.places().len(), 9);
        let drawn: Vec<&str> = d.pieces().map(|(at, _)| at.name.as_str()).collect();
        assert_eq!(drawn, ["v0,0"]);
        assert_eq!(d.places()[2].shape, Shape::Down);
        assert_eq!(d.places()[0].shape, Shape::Across);
        let done = g.drawing(&p).unwrap();
        assert!(done.places()[4].piece.is_some(), "the box taken");
        assert_eq!(done.notes(), ["boxes 0-1, player 1 to move"]);
    }

    #[test]
    fn bad_positions_and_sizes_are_refused() {
        let g = DotsAndBoxes::new(2, 2).unwrap();
        assert_eq!(g.notation(&g.start()), "000000000000/0-0/0");
        assert!(g.parse("00000000000/0-0/0").is_err());
        let e = g.parse("000000000000/1-0/0").unwrap_err().to_string();
        assert!(
            e.contains("the scores add up to 1, but the lines drawn complete 0 boxes"),
            "{e}"
        );
        assert_eq!(g.line_name(0), "h0,0");
        assert_eq!(g.line_name(6), "v0,0");
        assert_eq!(g.line_name(11), "v1,2");
        assert!(DotsAndBoxes::new(0, 3).is_err());
        assert!(DotsAndBoxes::new(5, 7).is_err());
        assert!(DotsAndBoxes::new(u32::MAX, u32::MAX).is_err());
        // The largest board: 58 lines, a number of 64 bits.
        let wide = DotsAndBoxes::new(1, 19).unwrap();
        assert_eq!(wide.line_count(), 58);
        assert_eq!(wide.decode(u64::MAX), None);
        assert_eq!(wide.decode(1), Some(1));
        assert!(DotsAndBoxes::new(3, 3).is_ok());
        assert_eq!(g.decode(1 << 20), None);
    }
}
