//! Three Men's Morris, from its rules to the browser: a game that is not built in, given every
//! tool of the command line. Each player places three men on the nine points of a 3 x 3 board,
//! then moves one a step along a line (across, down or diagonally); three in a line wins. The
//! men can move forever, so a game can loop: a draw. Try it:
//!
//!     cargo run --release --example morris -- game morris --save morris.db
//!     cargo run --release --example morris -- query morris.db "x../.o./... x"
//!     cargo run --release --example morris -- play morris.db
//!     cargo run --release --example morris -- serve morris.db
use retrograde::play::{NotationError, NotationFault};
use retrograde::registry::{Entry, Param, Registry};
use retrograde::StateGame;

/// 1. A position: the nine points row by row from the top (0 empty, 1 X, 2 O) and who moves.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
struct Board {
    points: [u8; 9],
    mover: u8,
}

#[rustfmt::skip]
const LINES: [[usize; 3]; 8] =
    [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

/// Whether points `a` and `b` are next to each other on a line.
fn adjacent(a: usize, b: usize) -> bool {
    LINES.iter().any(|l| {
        l.windows(2)
            .any(|w| (w[0], w[1]) == (a, b) || (w[0], w[1]) == (b, a))
    })
}

/// 2. The rules. With `symmetry`, boards equal up to rotations and mirrors are one position.
struct Morris {
    symmetry: bool,
}

impl StateGame for Morris {
    type Position = Board;
    fn starts(&self) -> Vec<Board> {
        vec![Board {
            points: [0; 9],
            mover: 1,
        }]
    }
    /// While the mover has men in hand, a man is placed on an empty point; then one is moved.
    fn for_each_move<F: FnMut(Board)>(&self, b: &Board, mut f: F) {
        let next = |points| Board {
            points,
            mover: 3 - b.mover,
        };
        let placed = b.points.iter().filter(|&&c| c == b.mover).count();
        for to in (0..9).filter(|&to| b.points[to] == 0) {
            if placed < 3 {
                let mut points = b.points;
                points[to] = b.mover;
                f(next(points));
                continue;
            }
            for from in (0..9).filter(|&from| b.points[from] == b.mover && adjacent(from, to)) {
                let mut points = b.points;
                (points[from], points[to]) = (0, b.mover);
                f(next(points));
            }
        }
    }
    /// Three in a line by the player who just moved: the player to move has lost. A player
    /// who cannot move loses too (the default rule).
    fn terminal(&self, b: &Board) -> Option<retrograde::Outcome> {
        let last = 3 - b.mover;
        LINES
            .iter()
            .any(|l| l.iter().all(|&i| b.points[i] == last))
            .then_some(retrograde::Outcome::Lose)
    }
    /// The least of the board's 8 images; values are the mover's, so the mover stays.
    fn canonical(&self, b: Board) -> Board {
        const TURN: [usize; 9] = [6, 3, 0, 7, 4, 1, 8, 5, 2];
        const MIRROR: [usize; 9] = [2, 1, 0, 5, 4, 3, 8, 7, 6];
        let image = |b: Board, by: [usize; 9]| Board {
            points: by.map(|i| b.points[i]),
            ..b
        };
        let turns = std::iter::successors(Some(b), |&c| Some(image(c, TURN))).take(4);
        let all = turns.flat_map(|c| [c, image(c, MIRROR)]);
        if self.symmetry {
            all.min().unwrap_or(b)
        } else {
            b
        }
    }

    /// 3. What the tools need: one line of text for a position (`xo./.x./..o o`: the rows from
    ///    the top, then who moves), read back by `parse`; a number for it; a name for each move.
    fn notation(&self, b: &Board) -> String {
        let rows: Vec<String> = b
            .points
            .chunks(3)
            .map(|r| r.iter().map(|&c| ['.', 'x', 'o'][c as usize]).collect())
            .collect();
        format!("{} {}", rows.join("/"), ['x', 'o'][b.mover as usize - 1])
    }
    fn parse(&self, text: &str) -> Result<Board, NotationError> {
        let invalid = |what: &str| {
            let what = format!("{what} (expected three rows of x, o and . then x or o to move, as in \"x../.o./... x\")");
            NotationError::new("morris", text, NotationFault::Invalid(what))
        };
        let (rows, mover) = text
            .trim()
            .split_once(' ')
            .ok_or_else(|| invalid("no one to move"))?;
        let mover = match mover.trim() {
            "x" | "X" => 1,
            "o" | "O" => 2,
            _ => return Err(invalid("the player to move is not x or o")),
        };
        let cells: Vec<char> = rows.split('/').flat_map(str::chars).collect();
        if rows.split('/').count() != 3 || cells.len() != 9 {
            return Err(invalid("not three rows of three points"));
        }
        let mut points = [0; 9];
        for (p, c) in points.iter_mut().zip(cells) {
            *p = ".xo"
                .find(c.to_ascii_lowercase())
                .ok_or_else(|| invalid("a point is not x, o or ."))? as u8;
        }
        Ok(Board { points, mover })
    }
    fn encode(&self, b: &Board) -> Option<u64> {
        Some(
            b.points
                .iter()
                .fold(u64::from(b.mover - 1), |n, &c| n * 3 + u64::from(c)),
        )
    }
    fn decode(&self, mut code: u64) -> Option<Board> {
        let mut points = [0; 9];
        for p in points.iter_mut().rev() {
            (*p, code) = ((code % 3) as u8, code / 3);
        }
        (code < 2).then_some(Board {
            points,
            mover: code as u8 + 1,
        })
    }
    /// A placement is named by its point (`b2`), a step by both (`a1-b2`).
    fn move_name(&self, b: &Board, after: &Board) -> String {
        let name = |i: usize| format!("{}{}", char::from(b'a' + (i % 3) as u8), 3 - i / 3);
        let from = (0..9).find(|&i| b.points[i] == b.mover && after.points[i] == 0);
        let to = (0..9)
            .find(|&i| b.points[i] == 0 && after.points[i] != 0)
            .unwrap_or(0);
        from.map_or_else(|| name(to), |from| format!("{}-{}", name(from), name(to)))
    }
    fn to_move(&self, b: &Board) -> String {
        ["X", "O"][b.mover as usize - 1].into()
    }
}

/// 4. Its entry: a name, a line for `game list`, and the parameters its databases keep.
fn entry() -> Entry {
    let symmetry = Param::flag(
        "symmetry",
        "Count boards equal under rotations and mirrors as different positions.",
        true,
    );
    Entry::state_game(
        "morris",
        "Three Men's Morris: place three men, then step; three in a line wins.",
        |p| {
            Ok(Morris {
                symmetry: p.flag("symmetry")?,
            })
        },
    )
    .param(symmetry)
}

/// 5. The whole command line, this game included.
fn main() -> std::process::ExitCode {
    retrograde_cli::main_with(Registry::builtin().with(entry()))
}
