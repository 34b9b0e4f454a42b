//! Three Men's Morris, from its rules to the browser: a game that is not built in, given every
//! tool of the command line. Each player places three men on the nine points of a 3 x 3 board,
//! then moves one a step along a line (across, down or diagonally); three in a line wins. The
//! men can move forever, so a game can loop: a draw. Try it:
//!
//!     cargo run --release --example morris -- game morris --save morris.db
//!     cargo run --release --example morris -- query morris.db "x../.o./... x"
//!     cargo run --release --example morris -- play morris.db
//!     cargo run --release --example morris -- serve morris.db
use retrograde::drawing::{Drawing, Piece};
use retrograde::play::NotationError;
use retrograde::registry::{Entry, Param};
use retrograde::{Player, StateGame};

/// 1. A position: the nine points row by row from the top (0 empty, 1 X, 2 O), then who moves.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
struct Board([u8; 9], u8);

#[rustfmt::skip]
const LINES: [[usize; 3]; 8] =
    [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

/// Whether points `a` and `b` are next to each other on a line: across, down, or diagonally
/// through the centre.
fn adjacent(a: usize, b: usize) -> bool {
    let (rows, columns) = ((a / 3).abs_diff(b / 3), (a % 3).abs_diff(b % 3));
    rows + columns == 1 || (rows == 1 && columns == 1 && (a == 4 || b == 4))
}

/// Point `i`'s name: its column's letter and its row's number from the bottom (`a1`, `b2`).
fn name(i: usize) -> String {
    format!("{}{}", char::from(b'a' + (i % 3) as u8), 3 - i / 3)
}

/// 2. The rules. With `symmetry`, boards equal up to rotations and mirrors are one position.
struct Morris {
    symmetry: bool,
}

impl StateGame for Morris {
    type Position = Board;
    fn starts(&self) -> Vec<Board> {
        vec![Board([0; 9], 1)]
    }
    /// While the mover has men in hand, a man is placed on an empty point; then one is moved.
    fn for_each_move<F: FnMut(Board)>(&self, &Board(points, mover): &Board, mut f: F) {
        let in_hand = points.iter().filter(|&&c| c == mover).count() < 3;
        for to in (0..9).filter(|&to| points[to] == 0) {
            let mut after = points;
            after[to] = mover;
            if in_hand {
                f(Board(after, 3 - mover));
                continue;
            }
            for from in (0..9).filter(|&from| points[from] == mover && adjacent(from, to)) {
                let mut stepped = after;
                stepped[from] = 0;
                f(Board(stepped, 3 - mover));
            }
        }
    }
    /// Three in a line by the player who just moved: the player to move has lost. A player
    /// who cannot move loses too (the default rule).
    fn terminal(&self, Board(points, mover): &Board) -> Option<retrograde::Outcome> {
        let line = |l: &[usize; 3]| l.iter().all(|&i| points[i] == 3 - mover);
        LINES.iter().any(line).then_some(retrograde::Outcome::Lose)
    }
    /// The least of the board's 8 images; values are the mover's, so the mover stays.
    fn canonical(&self, b: Board) -> Board {
        const TURN: [usize; 9] = [6, 3, 0, 7, 4, 1, 8, 5, 2];
        const MIRROR: [usize; 9] = [2, 1, 0, 5, 4, 3, 8, 7, 6];
        let image = |b: Board, by: [usize; 9]| Board(by.map(|i| b.0[i]), b.1);
        let turns = std::iter::successors(Some(b), |&c| Some(image(c, TURN))).take(4);
        let all = turns.flat_map(|c| [c, image(c, MIRROR)]);
        all.filter(|_| self.symmetry).min().unwrap_or(b)
    }

    /// 3. What the tools need: one line of text for a position (`xo./.x./..o o`: the rows from
    ///    the top, then who moves), read back by `parse`; a number for it; a name for each move.
    fn notation(&self, Board(points, mover): &Board) -> String {
        let rows: Vec<String> = points
            .chunks(3)
            .map(|r| r.iter().map(|&c| ['.', 'x', 'o'][c as usize]).collect())
            .collect();
        format!("{} {}", rows.join("/"), ['x', 'o'][*mover as usize - 1])
    }
    fn parse(&self, text: &str) -> Result<Board, NotationError> {
        let invalid = |what: &str| {
            let what =
                format!("{what} (expected rows of x, o and . then who moves: \"x../.o./... x\")");
            NotationError::invalid("morris", text, what)
        };
        let (rows, mover) = text
            .trim()
            .split_once(' ')
            .ok_or_else(|| invalid("no one to move"))?;
        let mover = 1 + "xo"
            .find(mover.trim())
            .ok_or_else(|| invalid("not x or o to move"))? as u8;
        let points: Option<Vec<u8>> = rows
            .chars()
            .filter(|&c| c != '/')
            .map(|c| ".xo".find(c).map(|i| i as u8))
            .collect();
        let points = points.ok_or_else(|| invalid("a point is not x, o or ."))?;
        Ok(Board(
            points.try_into().map_err(|_| invalid("not nine points"))?,
            mover,
        ))
    }
    fn encode(&self, Board(points, mover): &Board) -> Option<u64> {
        Some(
            points
                .iter()
                .fold(u64::from(mover - 1), |n, &c| n * 3 + u64::from(c)),
        )
    }
    fn decode(&self, mut code: u64) -> Option<Board> {
        let mut points = [0; 9];
        for p in points.iter_mut().rev() {
            (*p, code) = ((code % 3) as u8, code / 3);
        }
        (code < 2).then_some(Board(points, code as u8 + 1))
    }
    /// A placement is named by its point (`b2`), a step by both (`a1-b2`).
    fn move_name(&self, Board(before, _): &Board, Board(after, _): &Board) -> String {
        let to = (0..9)
            .find(|&i| before[i] == 0 && after[i] != 0)
            .unwrap_or(0);
        match (0..9).find(|&i| before[i] != 0 && after[i] == 0) {
            Some(from) => format!("{}-{}", name(from), name(to)),
            None => name(to),
        }
    }
    /// The board for the terminal and the web page: a row a line, the points named.
    fn show(&self, Board(points, _): &Board) -> String {
        let row = |(r, row): (usize, &[u8])| {
            let cells: Vec<&str> = row.iter().map(|&c| [".", "X", "O"][c as usize]).collect();
            format!("{} {}\n", 3 - r, cells.join(" "))
        };
        points.chunks(3).enumerate().map(row).collect::<String>() + "  a b c\n"
    }
    fn to_move(&self, b: &Board) -> String {
        ["X", "O"][b.1 as usize - 1].into()
    }
    /// 4. The board the web page draws: nine points, a line between neighbours, a stone a man.
    fn drawing(&self, Board(points, _): &Board) -> Option<Drawing> {
        let mut d = Drawing::new();
        for i in 0..9 {
            d = d.point(name(i), (i % 3) as f32, (i / 3) as f32);
        }
        for (a, b) in (0..9).flat_map(|a| (a + 1..9).map(move |b| (a, b))) {
            d = if adjacent(a, b) { d.line(a, b) } else { d };
        }
        for (i, &man) in points.iter().enumerate().filter(|(_, man)| **man != 0) {
            let (player, symbol) = [(Player::First, "X"), (Player::Second, "O")][man as usize - 1];
            d = d.piece(i, Piece::marked(player, symbol, format!("{symbol}'s man")));
        }
        Some(d)
    }
}

/// 5. Its entry: a name, a line for `game list`, and the parameters its databases keep.
fn entry() -> Entry {
    let about = "Three Men's Morris: place three men, then step; three in a line wins.";
    let apart = "Count boards equal under rotations and mirrors as different positions.";
    Entry::state_game("morris", about, |p| {
        Ok(Morris {
            symmetry: p.flag("symmetry")?,
        })
    })
    .param(Param::flag("symmetry", apart, true))
}

/// 6. The whole command line, this game included.
fn main() -> std::process::ExitCode {
    retrograde_cli::main_with(retrograde_games::registry().with(entry()))
}
