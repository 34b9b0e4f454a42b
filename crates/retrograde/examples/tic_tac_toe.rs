//! Tic-tac-toe from its rules alone, the `StateGame` tutorial: `cargo run --example tic_tac_toe`.
use retrograde::play::NotationError;
use retrograde::registry::{Entry, Param};
use retrograde::{Outcome, StateGame, solve_states};
/// 1. A position of your own type: 9 cells row by row, 0 empty, 1 X, 2 O.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Board(pub [u8; 9]);

#[rustfmt::skip]
const LINES: [[usize; 3]; 8] =
    [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];
/// Whose turn: 1 (X) when both have as many marks, else 2 (O).
fn to_move(b: &Board) -> u8 {
    1 + (b.0.iter().filter(|&&c| c != 0).count() % 2) as u8
}

/// 2. The rules. With `symmetry`, boards equal up to rotations and mirrors are one position.
pub struct TicTacToe {
    /// Whether boards equal up to rotations and mirrors are one position.
    pub symmetry: bool,
}

/// Why `parse` (3. below) finds a text no board, a variant a fault: the message for people,
/// the variant for a program to match (`NotationError::kind::<BadBoard>()`).
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadBoard {
    /// Not three rows of three cells.
    #[error(r#"expected three rows of x, o and . from the top, as in "x../.o./...""#)]
    Shape,
    /// A cell that is not `x`, `o` or `.`.
    #[error("expected x, o or . in every cell, found {0:?}")]
    Cell(char),
    /// Marks no game reaches.
    #[error("X moves first: X has as many marks as O or one more")]
    Marks,
}

impl StateGame for TicTacToe {
    type Position = Board;
    fn starts(&self) -> Vec<Board> {
        vec![Board([0; 9])]
    }
    /// Forward moves only (no reverse moves, no numbering): a mark on any empty cell.
    fn for_each_move<F: FnMut(Board)>(&self, b: &Board, mut f: F) {
        for i in (0..9).filter(|&i| b.0[i] == 0) {
            let mut next = *b;
            next.0[i] = to_move(b);
            f(next);
        }
    }
    /// A line by the player who just moved: the player to move lost. A full board: a tie.
    fn terminal(&self, b: &Board) -> Option<Outcome> {
        let last = 3 - to_move(b);
        if LINES.iter().any(|l| l.iter().all(|&i| b.0[i] == last)) {
            Some(Outcome::Lose)
        } else {
            b.0.iter().all(|&c| c != 0).then_some(Outcome::Tie)
        }
    }
    /// The least of the board's 8 images: 4 rotations, each also mirrored.
    fn canonical(&self, b: Board) -> Board {
        const TURN: [usize; 9] = [6, 3, 0, 7, 4, 1, 8, 5, 2];
        const MIRROR: [usize; 9] = [2, 1, 0, 5, 4, 3, 8, 7, 6];
        if !self.symmetry {
            return b;
        }
        let image = |b: Board, by: [usize; 9]| Board(by.map(|i| b.0[i]));
        let turns = std::iter::successors(Some(b), |&c| Some(image(c, TURN))).take(4);
        turns.flat_map(|c| [c, image(c, MIRROR)]).min().unwrap_or(b)
    }
    /// 3. For the tools (`query`, `play`, `serve`): the board as one line, `x../.o./...`, read
    ///    back by `parse`; a number for each board (base 3) to key its database record.
    fn notation(&self, b: &Board) -> String {
        let rows: Vec<String> =
            b.0.chunks(3)
                .map(|r| r.iter().map(|&c| ['.', 'x', 'o'][c as usize]).collect())
                .collect();
        rows.join("/")
    }
    fn parse(&self, text: &str) -> Result<Board, NotationError> {
        let invalid = |fault: BadBoard| NotationError::invalid("tic-tac-toe", text, fault);
        let rows: Vec<&str> = text.trim().split('/').collect();
        if rows.len() != 3 || rows.iter().any(|r| r.chars().count() != 3) {
            return Err(invalid(BadBoard::Shape));
        }
        let mut b = Board([0; 9]);
        for (cell, ch) in b.0.iter_mut().zip(rows.concat().chars()) {
            *cell = match ch.to_ascii_lowercase() {
                '.' => 0,
                'x' => 1,
                'o' => 2,
                _ => return Err(invalid(BadBoard::Cell(ch))),
            };
        }
        let (x, o) = (
            b.0.iter().filter(|&&c| c == 1).count(),
            b.0.iter().filter(|&&c| c == 2).count(),
        );
        if x != o && x != o + 1 {
            return Err(invalid(BadBoard::Marks));
        }
        Ok(b)
    }
    fn encode(&self, b: &Board) -> Option<u64> {
        Some(b.0.iter().rev().fold(0, |n, &c| n * 3 + u64::from(c)))
    }
    fn decode(&self, mut code: u64) -> Option<Board> {
        let mut b = Board([0; 9]);
        for c in &mut b.0 {
            *c = (code % 3) as u8;
            code /= 3;
        }
        (code == 0).then_some(b)
    }
    /// A move is named by its cell, `a1` to `c3` (column, then row from the bottom).
    fn move_name(&self, b: &Board, after: &Board) -> String {
        let cell = (0..9).find(|&i| b.0[i] != after.0[i]).unwrap_or(0);
        format!("{}{}", char::from(b'a' + (cell % 3) as u8), 3 - cell / 3)
    }
    fn to_move(&self, b: &Board) -> String {
        ["X", "O"][usize::from(to_move(b) - 1)].into()
    }
    /// How a finished game ended, for the tools to say: who won and why.
    fn ending(&self, b: &Board) -> Option<String> {
        match self.terminal(b)? {
            Outcome::Lose => Some(format!(
                "three in a row: {} wins",
                ["O", "X"][usize::from(to_move(b) - 1)]
            )),
            _ => Some("the board is full: a tie".into()),
        }
    }
    /// The board for a terminal, with its coordinates.
    fn show(&self, b: &Board) -> String {
        let mut out = String::new();
        for (r, row) in b.0.chunks(3).enumerate() {
            out += &format!(
                "{} {}\n",
                3 - r,
                row.iter()
                    .map(|&c| ['.', 'X', 'O'][c as usize].to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            );
        }
        out + "  a b c\n"
    }
}

/// 4. The entry the tools find it by (`retrograde game tic-tac-toe`, `query`, `serve`): a name,
///    a line, and the parameters a database's header keeps.
pub fn entry() -> Entry {
    let symmetry = Param::flag(
        "symmetry",
        "Count boards equal under rotations and mirrors as different positions.",
        true,
    );
    Entry::state_game(
        "tic-tac-toe",
        "Tic-tac-toe, the state-game tutorial.",
        |p| {
            Ok(TicTacToe {
                symmetry: p.flag("symmetry")?,
            })
        },
    )
    .param(symmetry)
}

/// 5. Solve, and ask by position.
fn main() {
    let empty = Board([0; 9]);
    for symmetry in [false, true] {
        let s = solve_states(TicTacToe { symmetry }).expect("tic-tac-toe fits in memory");
        let (n, t) = (s.explored().len(), s.explored().terminal_count());
        println!("symmetry {symmetry}: {n} positions, {t} terminal"); // 5478/958, 765/138
        println!("the empty board: {} for X", s.value(&empty).unwrap());
        let moves = s.moves(&empty).unwrap();
        let tie = moves
            .iter()
            .filter(|m| m.value.to_string() == "tie in 9")
            .count();
        println!("X's first moves that tie in 9: {tie} of {}", moves.len());
        if symmetry {
            print!("{}", s.show_line(&s.line(&empty, 9).unwrap()));
        }
    }
}
