//! How the game shows itself: the verdict, the map of verdicts, a position
//! drawn as the board.

use std::fmt;

use super::{Cell, CopThief, Side};
use retrograde::{Lookup, Outcome};

/// The result of the game for the start position, as printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// `Police catches the thief`.
    PoliceCatches,
    /// `The thief escapes`.
    ThiefEscapes,
    /// `Draw`.
    Draw,
}

impl Verdict {
    /// The verdict of a position where `to_move` moves and has `outcome`.
    pub fn of(outcome: Outcome, to_move: Side) -> Verdict {
        match (outcome, to_move) {
            (Outcome::Draw, _) => Verdict::Draw,
            (Outcome::Win, Side::Cop) | (Outcome::Lose, Side::Thief) => Verdict::PoliceCatches,
            _ => Verdict::ThiefEscapes,
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::PoliceCatches => "Police catches the thief",
            Verdict::ThiefEscapes => "The thief escapes",
            Verdict::Draw => "Draw",
        })
    }
}

/// A position spelled out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// The cop's cell, `(row, column)`.
    pub cop: (usize, usize),
    /// The thief's cell, `(row, column)`.
    pub thief: (usize, usize),
    /// Whose turn it is.
    pub to_move: Side,
}

impl CopThief {
    /// The verdict for the start position.
    pub fn verdict(&self, solution: &(impl Lookup + ?Sized)) -> Verdict {
        Verdict::of(solution.outcome_of(self.start), Side::Cop)
    }

    /// For the cop on its start cell and to move, the verdict for every thief
    /// cell as a character grid, one line per row: `c` the police catches the
    /// thief, `e` the thief escapes, `d` draw, `*` a wall, `P` the cop's cell.
    pub fn map(&self, solution: &(impl Lookup + ?Sized)) -> String {
        let mut out = String::new();
        for r in 0..self.board.rows() {
            for c in 0..self.board.cols() {
                out.push(match self.map_cell(solution, (r, c)) {
                    None => '*',
                    Some(_) if (r, c) == self.board.cop() => 'P',
                    Some(Verdict::PoliceCatches) => 'c',
                    Some(Verdict::ThiefEscapes) => 'e',
                    Some(Verdict::Draw) => 'd',
                });
            }
            out.push('\n');
        }
        out
    }

    /// The verdict with the cop on its start cell, to move, and the thief on
    /// `cell`; `None` for a wall.
    pub fn map_cell(
        &self,
        solution: &(impl Lookup + ?Sized),
        cell: (usize, usize),
    ) -> Option<Verdict> {
        let p = self.position(self.board.cop(), cell, Side::Cop)?;
        Some(Verdict::of(solution.outcome_of(p), Side::Cop))
    }

    /// Position `p` drawn as the board: `P` the cop, `T` the thief, `X` both on
    /// one cell, `*` walls, `E` exits, `.` free cells; one line per row.
    pub fn render(&self, p: u32) -> String {
        let s = self.state(p);
        let mut out = String::new();
        for r in 0..self.board.rows() {
            for c in 0..self.board.cols() {
                out.push(match ((r, c) == s.cop, (r, c) == s.thief) {
                    (true, true) => 'X',
                    (true, false) => 'P',
                    (false, true) => 'T',
                    _ => match self.board.cell(r, c) {
                        Cell::Wall => '*',
                        Cell::Exit => 'E',
                        Cell::Free => '.',
                    },
                });
            }
            out.push('\n');
        }
        out
    }

    /// The board as an SVG picture: each free cell coloured by [`CopThief::map`]
    /// (vermillion: the police catches the thief, bluish green: the thief
    /// escapes, orange: draw; colours told apart with colour-blindness),
    /// walls dark, exits outlined, the start cells marked `P` and `T`; a
    /// title with the verdict and who moves, a legend of what is shown, an
    /// opaque background.
    pub fn svg(&self, solution: &(impl Lookup + ?Sized)) -> String {
        super::svg::draw(self, solution, false)
    }

    /// [`CopThief::svg`], each cell paler the longer best play lasts from it.
    pub fn svg_shaded(&self, solution: &(impl Lookup + ?Sized)) -> String {
        super::svg::draw(self, solution, true)
    }
}
