//! Teeko (John Scarne, 1937), as a numbered [`Game`] solved on the fly.
//!
//! # The rules, as read here
//! - A 5 × 5 board; Black (`X`, moving first) and Red (`O`) have four pieces each.
//! - First the players take turns to drop a piece on any empty cell. Once all
//!   eight are down, they take turns to move one of their pieces a step to an
//!   adjacent empty cell, in any of the 8 directions.
//! - Four of a player's pieces in a row (across, down or diagonally) or on
//!   the four cells of a 2 × 2 square win at once: the player to move after
//!   such a move has lost.
//! - Endless play is a draw.
//! - A player who cannot move (every piece walled in; it happens in no
//!   reachable position we know of) loses, by the normal rule.
//!
//! # Numbering
//! A position is the set of `X` cells, the set of `O` cells and the side to
//! move. They are numbered in sections, one for each count of pieces on the
//! board: X to move with 0 + 0, O with 1 + 0, …, O with 4 + 3, then the
//! movement phase, X and O to move with 4 + 4. Within a section, the `X`
//! cells are ranked among the 25 cells and the `O` cells among the cells
//! left (the combinatorial number system), so every index is a position:
//! 2 · C(25,4) · C(21,4) + … = 172,401,726 in all.
//!
//! ```
//! use retrograde_games::teeko::Teeko;
//! use retrograde::Game;
//! let t = Teeko::new();
//! assert_eq!(t.position_count(), 172_401_726);
//! assert_eq!(t.show(t.start_number()).lines().count(), 6);
//! ```

use std::fmt;

use retrograde::drawing::{Drawing, Piece};
use retrograde::{Game, Outcome, Player};

/// Cells on the board.
const CELLS: usize = 25;

/// The sections: pieces of X and of O on the board, and whether X is to move.
const SECTIONS: [(usize, usize, bool); 10] = [
    (0, 0, true),
    (1, 0, false),
    (1, 1, true),
    (2, 1, false),
    (2, 2, true),
    (3, 2, false),
    (3, 3, true),
    (4, 3, false),
    (4, 4, true),
    (4, 4, false),
];

/// Binomial coefficients `C(n, k)` for `n <= 25`, `k <= 4`.
const fn binomials() -> [[u32; 5]; 26] {
    let mut c = [[0u32; 5]; 26];
    let mut n = 0;
    while n <= 25 {
        c[n][0] = 1;
        let mut k = 1;
        while k <= 4 {
            c[n][k] = if n == 0 {
                0
            } else {
                c[n - 1][k - 1] + c[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    c
}

const C: [[u32; 5]; 26] = binomials();

/// The 44 winning sets: 10 rows, 10 columns, 8 diagonals of four, 16 squares.
fn winning_sets() -> Vec<u32> {
    let cell = |r: i32, c: i32| 1u32 << (r * 5 + c);
    let mut sets = Vec::new();
    for r in 0..5 {
        for c in 0..5 {
            for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                let (er, ec) = (r + 3 * dr, c + 3 * dc);
                if (0..5).contains(&er) && (0..5).contains(&ec) {
                    sets.push((0..4).fold(0, |m, k| m | cell(r + k * dr, c + k * dc)));
                }
            }
            if r < 4 && c < 4 {
                sets.push(cell(r, c) | cell(r, c + 1) | cell(r + 1, c) | cell(r + 1, c + 1));
            }
        }
    }
    sets
}

/// The game; see the [module docs](self).
#[derive(Clone, Debug)]
pub struct Teeko {
    /// Where each section starts, and the total at the end.
    offsets: [u32; 11],
    wins: Vec<u32>,
    /// The neighbours of each cell, as a bitmask.
    neighbours: [u32; CELLS],
}

impl Default for Teeko {
    fn default() -> Teeko {
        Teeko::new()
    }
}

/// A position spelled out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    /// X's cells (bit `5 · row + column`).
    pub x: u32,
    /// O's cells.
    pub o: u32,
    /// Whether X is to move.
    pub x_to_move: bool,
}

/// The rank of a set of cells among the cells that `free` keeps (the
/// combinatorial number system over the cells of `free`, in order): the
/// `k`-th chosen cell, `i`-th of the free ones, adds `C(i, k)`.
#[inline]
fn rank(set: u32, free: u32) -> u32 {
    let mut r = 0;
    let mut s = set;
    let mut k = 1;
    while s != 0 {
        let cell = s.trailing_zeros();
        s &= s - 1;
        let i = (free & ((1u32 << cell) - 1)).count_ones() as usize;
        r += C[i][k];
        k += 1;
    }
    r
}

/// The set of `k` cells of rank `r` among the cells of `free` (inverse of
/// [`rank`]): from the highest free cell down, take a cell whenever the
/// rank left reaches its binomial.
#[inline]
fn unrank(mut r: u32, mut k: usize, free: u32) -> u32 {
    let mut set = 0;
    let mut f = free;
    let mut i = free.count_ones() as usize;
    while k > 0 && f != 0 {
        let cell = 31 - f.leading_zeros();
        f &= !(1 << cell);
        i -= 1;
        if C[i][k] <= r {
            r -= C[i][k];
            set |= 1 << cell;
            k -= 1;
        }
    }
    set
}

const ALL: u32 = (1 << CELLS) - 1;

impl Teeko {
    /// The game, with its numbering.
    pub fn new() -> Teeko {
        let mut offsets = [0u32; 11];
        for (s, &(a, b, _)) in SECTIONS.iter().enumerate() {
            offsets[s + 1] = offsets[s] + C[CELLS][a] * C[CELLS - a][b];
        }
        let mut neighbours = [0u32; CELLS];
        for (c, n) in neighbours.iter_mut().enumerate() {
            let (r, col) = ((c / 5) as i32, (c % 5) as i32);
            for dr in -1..=1 {
                for dc in -1..=1 {
                    let (nr, nc) = (r + dr, col + dc);
                    if (dr, dc) != (0, 0) && (0..5).contains(&nr) && (0..5).contains(&nc) {
                        *n |= 1 << (nr * 5 + nc);
                    }
                }
            }
        }
        let mut wins = winning_sets();
        wins.sort_unstable();
        Teeko {
            offsets,
            wins,
            neighbours,
        }
    }

    /// The empty board, X to move.
    pub fn start_number(&self) -> u32 {
        0
    }

    /// The position numbered `p`.
    pub fn board_at(&self, p: u32) -> Board {
        let s = self.offsets.partition_point(|&o| o <= p) - 1;
        let (a, b, x_to_move) = SECTIONS[s];
        let i = p - self.offsets[s];
        let per_x = C[CELLS - a][b];
        let x = unrank(i / per_x, a, ALL);
        let o = unrank(i % per_x, b, ALL & !x);
        Board { x, o, x_to_move }
    }

    /// The number of a board, if it is a position (four pieces or fewer each,
    /// in turn).
    pub fn number(&self, b: Board) -> Option<u32> {
        let (a, n) = (b.x.count_ones() as usize, b.o.count_ones() as usize);
        let s = SECTIONS
            .iter()
            .position(|&(sa, sb, x)| (sa, sb, x) == (a, n, b.x_to_move))?;
        if b.x & b.o != 0 || (b.x | b.o) & !ALL != 0 {
            return None;
        }
        let per_x = C[CELLS - a][n];
        Some(self.offsets[s] + rank(b.x, ALL) * per_x + rank(b.o, ALL & !b.x))
    }

    /// Whether four pieces (`cells`) stand on a winning set: with four
    /// pieces a side, they must be one of the 44 exactly (sorted: a binary
    /// search).
    #[inline]
    fn won(&self, cells: u32) -> bool {
        cells.count_ones() == 4 && self.wins.binary_search(&cells).is_ok()
    }

    /// Whether the player who just moved has won: the player to move lost.
    fn over(&self, b: Board) -> bool {
        self.won(if b.x_to_move { b.o } else { b.x })
    }

    /// The boards a move of `b` leads to.
    fn for_each_board_move(&self, b: Board, mut f: impl FnMut(Board)) {
        if self.over(b) {
            return;
        }
        let (mine, theirs) = if b.x_to_move { (b.x, b.o) } else { (b.o, b.x) };
        let empty = ALL & !(mine | theirs);
        let next = |mine: u32| {
            if b.x_to_move {
                Board {
                    x: mine,
                    o: theirs,
                    x_to_move: false,
                }
            } else {
                Board {
                    x: theirs,
                    o: mine,
                    x_to_move: true,
                }
            }
        };
        if mine.count_ones() < 4 {
            let mut e = empty;
            while e != 0 {
                let c = e.trailing_zeros();
                e &= e - 1;
                f(next(mine | 1 << c));
            }
            return;
        }
        let mut m = mine;
        while m != 0 {
            let from = m.trailing_zeros();
            m &= m - 1;
            let mut to = self.neighbours[from as usize] & empty;
            while to != 0 {
                let c = to.trailing_zeros();
                to &= to - 1;
                f(next(mine & !(1 << from) | 1 << c));
            }
        }
    }

    /// The boards that move into `b`: the other player's last drop taken
    /// back, or a step taken back; never from a finished game.
    fn unmoves(&self, b: Board, mut f: impl FnMut(Board)) {
        // The player who just moved.
        let (mine, theirs) = if b.x_to_move { (b.o, b.x) } else { (b.x, b.o) };
        let empty = ALL & !(mine | theirs);
        let before = |mine: u32| {
            if b.x_to_move {
                Board {
                    x: theirs,
                    o: mine,
                    x_to_move: false,
                }
            } else {
                Board {
                    x: mine,
                    o: theirs,
                    x_to_move: true,
                }
            }
        };
        let mut emit = |p: Board| {
            if !self.over(p) {
                f(p);
            }
        };
        let (n_mine, n_theirs) = (mine.count_ones(), theirs.count_ones());
        // A drop taken back: X drops first, so X's drops run one ahead.
        let dropped = if b.x_to_move {
            n_mine == n_theirs
        } else {
            n_mine == n_theirs + 1
        };
        if dropped && n_mine > 0 {
            let mut m = mine;
            while m != 0 {
                let c = m.trailing_zeros();
                m &= m - 1;
                emit(before(mine & !(1 << c)));
            }
        }
        // A step taken back, once all eight are down.
        if n_mine == 4 && n_theirs == 4 {
            let mut m = mine;
            while m != 0 {
                let to = m.trailing_zeros();
                m &= m - 1;
                let mut from = self.neighbours[to as usize] & empty;
                while from != 0 {
                    let c = from.trailing_zeros();
                    from &= from - 1;
                    emit(before(mine & !(1 << to) | 1 << c));
                }
            }
        }
    }
}

impl Game for Teeko {
    fn position_count(&self) -> usize {
        self.offsets[10] as usize
    }

    fn for_each_move<F: FnMut(u32)>(&self, p: u32, mut f: F) {
        self.for_each_board_move(self.board_at(p), |b| {
            if let Some(q) = self.number(b) {
                f(q)
            }
        });
    }

    fn for_each_unmove<F: FnMut(u32)>(&self, q: u32, mut f: F) {
        self.unmoves(self.board_at(q), |b| {
            if let Some(p) = self.number(b) {
                f(p)
            }
        });
    }

    fn terminal(&self, p: u32) -> Option<Outcome> {
        self.over(self.board_at(p)).then_some(Outcome::Lose)
    }

    /// One unnumbering for both.
    fn terminal_and_degree(&self, p: u32) -> (Option<Outcome>, u32) {
        let b = self.board_at(p);
        if self.over(b) {
            return (Some(Outcome::Lose), 0);
        }
        let mut n = 0;
        self.for_each_board_move(b, |_| n += 1);
        (None, n)
    }

    /// Counted without numbering the positions the moves lead to.
    fn out_degree(&self, p: u32) -> u32 {
        let mut n = 0;
        self.for_each_board_move(self.board_at(p), |_| n += 1);
        n
    }

    /// The board, rank 5 at the top, files a to e.
    fn show(&self, p: u32) -> String {
        let text = self.notation(p);
        let Some((rows, _)) = text.split_once(' ') else {
            return format!("{text}\n");
        };
        let mut out = String::new();
        for (r, row) in rows.split('/').enumerate() {
            out.push(char::from(b'5' - r as u8));
            for c in row.chars() {
                out.push(' ');
                out.push(c.to_ascii_uppercase());
            }
            out.push('\n');
        }
        out.push_str("  a b c d e\n");
        out
    }

    fn starts(&self) -> Vec<u32> {
        vec![self.start_number()]
    }

    /// The five rows from the top (`x`, `o`, `.`), then who moves, as in
    /// `...../..x../...../..o../..... x`.
    fn notation(&self, p: u32) -> String {
        let b = self.board_at(p);
        let mut s = String::new();
        for r in 0..5 {
            for c in 0..5 {
                let bit = 1 << (r * 5 + c);
                s.push(if b.x & bit != 0 {
                    'x'
                } else if b.o & bit != 0 {
                    'o'
                } else {
                    '.'
                });
            }
            s.push(if r < 4 { '/' } else { ' ' });
        }
        s.push(if b.x_to_move { 'x' } else { 'o' });
        s
    }

    fn parse(&self, text: &str) -> Result<u32, retrograde::play::NotationError> {
        let err =
            |kind: TeekoErrorKind| retrograde::play::NotationError::invalid("teeko", text, kind);
        let mut fields = text.split_whitespace();
        let rows: Vec<&str> = fields.next().unwrap_or("").split('/').collect();
        if rows.len() != 5 || rows.iter().any(|r| r.chars().count() != 5) {
            return Err(err(TeekoErrorKind::Shape));
        }
        let (mut x, mut o) = (0u32, 0u32);
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                let bit = 1 << (r * 5 + c);
                match ch.to_ascii_lowercase() {
                    'x' => x |= bit,
                    'o' => o |= bit,
                    '.' => {}
                    _ => return Err(err(TeekoErrorKind::Cell { found: ch })),
                }
            }
        }
        let x_to_move = match fields.next() {
            Some(w) if w.eq_ignore_ascii_case("x") => true,
            Some(w) if w.eq_ignore_ascii_case("o") => false,
            Some(w) => return Err(err(TeekoErrorKind::Side { found: w.into() })),
            None => return Err(err(TeekoErrorKind::NoSide)),
        };
        if let Some(w) = fields.next() {
            return Err(err(TeekoErrorKind::Trailing { found: w.into() }));
        }
        self.number(Board { x, o, x_to_move })
            .ok_or_else(|| err(TeekoErrorKind::Unreachable))
    }

    /// A drop by its cell (`c3`), a step by both (`c3-d4`).
    fn move_name(&self, p: u32, q: u32) -> String {
        let (b, after) = (self.board_at(p), self.board_at(q));
        let (mine, now) = if b.x_to_move {
            (b.x, after.x)
        } else {
            (b.o, after.o)
        };
        let (added, removed) = (now & !mine, mine & !now);
        if removed == 0 {
            cell_name(added.trailing_zeros())
        } else {
            format!(
                "{}-{}",
                cell_name(removed.trailing_zeros()),
                cell_name(added.trailing_zeros())
            )
        }
    }

    fn to_move(&self, p: u32) -> String {
        if self.board_at(p).x_to_move { "X" } else { "O" }.into()
    }

    /// The 25 points named as moves name them, a line to each neighbour (a
    /// piece steps along one), X's pieces (who moves first) light and O's
    /// dark.
    fn drawing(&self, p: u32) -> Option<Drawing> {
        let b = self.board_at(p);
        let mut d = Drawing::new();
        for i in 0..25u32 {
            d = d.point(cell_name(i), (i % 5) as f32, (i / 5) as f32);
        }
        for i in 0..25usize {
            let (r, c) = (i / 5, i % 5);
            for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                let (r2, c2) = (r + dr, c as isize + dc);
                if r2 < 5 && (0..5).contains(&c2) {
                    d = d.line(i, r2 * 5 + c2 as usize);
                }
            }
        }
        for i in 0..25 {
            if b.x & 1 << i != 0 {
                d = d.piece(i, Piece::marked(Player::First, "X", "X's piece"));
            } else if b.o & 1 << i != 0 {
                d = d.piece(i, Piece::marked(Player::Second, "O", "O's piece"));
            }
        }
        Some(d)
    }

    /// Four in a row or a square by the player who just moved; or a player
    /// with no step, who loses.
    fn ending(&self, p: u32) -> Option<String> {
        let b = self.board_at(p);
        let (mover, other) = if b.x_to_move { ("X", "O") } else { ("O", "X") };
        if self.over(b) {
            return Some(format!("four in a row or a square: {other} wins"));
        }
        let mut moves = 0;
        self.for_each_board_move(b, |_| moves += 1);
        (moves == 0).then(|| format!("{mover} cannot move: {other} wins"))
    }
}

/// The name of a cell: its column `a`–`e`, its row `1`–`5` from the bottom.
fn cell_name(cell: u32) -> String {
    format!("{}{}", char::from(b'a' + (cell % 5) as u8), 5 - cell / 5)
}

/// Why a text is not a Teeko position, one variant a fault; the message
/// says what is wrong and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TeekoErrorKind {
    /// The board is not five rows of five cells.
    Shape,
    /// A cell that is not `x`, `o` or `.`.
    Cell {
        /// The character found.
        found: char,
    },
    /// No side to move after the board.
    NoSide,
    /// A side to move that is not `x` or `o`.
    Side {
        /// The word found.
        found: String,
    },
    /// A word after the side to move.
    Trailing {
        /// The word.
        found: String,
    },
    /// A board no game reaches: X drops first, four pieces each at most.
    Unreachable,
}

impl fmt::Display for TeekoErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TeekoErrorKind::Shape => f.write_str("the board is not five rows of five cells")?,
            TeekoErrorKind::Cell { found } => write!(f, "{found:?} is not x, o or .")?,
            TeekoErrorKind::NoSide => f.write_str("no side to move")?,
            TeekoErrorKind::Side { found } => write!(f, "{found:?} is not a side to move")?,
            TeekoErrorKind::Trailing { found } => write!(f, "{found:?} after the side to move")?,
            TeekoErrorKind::Unreachable => {
                f.write_str("not a position of the game: X drops first, four pieces each at most")?
            }
        }
        f.write_str(" (expected five rows of x, o and . from the top, then x or o to move, as in \"...../...../..x../...../..... o\")")
    }
}

impl std::error::Error for TeekoErrorKind {}

/// The registry's entry.
pub fn entry() -> retrograde::registry::Entry {
    retrograde::registry::Entry::numbered_game(
        "teeko",
        "Teeko (Scarne): drop four pieces each on a 5 x 5 board, then step; four in a row or a square wins.",
        |_| Ok(Teeko::new()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use retrograde::game::{check_game, sample_positions};

    #[test]
    fn numbers_and_boards_are_inverse() {
        let t = Teeko::new();
        for p in sample_positions(t.position_count(), 20_000, 3) {
            assert_eq!(t.number(t.board_at(p)), Some(p), "{}", t.show(p));
        }
        assert_eq!(
            t.board_at(t.start_number()),
            Board {
                x: 0,
                o: 0,
                x_to_move: true
            }
        );
        assert_eq!(t.position_count(), t.offsets[10] as usize);
    }

    #[test]
    fn the_drawing_has_the_points_a_line_to_each_neighbour_and_the_pieces() {
        let t = Teeko::new();
        let p = t.parse("x..../...../..o../...../..... x").unwrap();
        let d = t.drawing(p).unwrap();
        assert_eq!(d.places().len(), 25);
        // 20 across, 20 down, 16 + 16 diagonals.
        assert_eq!(d.lines().len(), 72);
        let pieces: Vec<(&str, &str)> = d
            .pieces()
            .map(|(at, pc)| (at.name.as_str(), pc.symbol.as_str()))
            .collect();
        assert_eq!(pieces, [("a5", "X"), ("c3", "O")]);
    }

    #[test]
    fn moves_and_reverse_moves_agree() {
        let t = Teeko::new();
        // A sample of all, every position with up to 2 + 2 pieces, and the
        // first positions of the movement phase (reached by drops and steps).
        let first_moves = t.offsets[8]..t.offsets[8] + 20_000;
        let positions = sample_positions(t.position_count(), 50_000, 5)
            .into_iter()
            .chain(0..t.offsets[5])
            .chain(first_moves);
        let report = check_game(&t, positions, 5);
        assert!(report.is_ok(), "{}", report.show(&t));
    }

    /// Each fault of a position's text is its own kind, with its data: a
    /// caller matches on it, never on the message.
    #[test]
    fn bad_notation_is_refused_with_its_kind() {
        let t = Teeko::new();
        let empty = "...../...../...../...../.....";
        for (text, kind) in [
            (
                "..../...../...../...../..... x".to_string(),
                TeekoErrorKind::Shape,
            ),
            (
                "...../...../..#../...../..... x".to_string(),
                TeekoErrorKind::Cell { found: '#' },
            ),
            (empty.to_string(), TeekoErrorKind::NoSide),
            (
                format!("{empty} z"),
                TeekoErrorKind::Side { found: "z".into() },
            ),
            (
                format!("{empty} x 1"),
                TeekoErrorKind::Trailing { found: "1".into() },
            ),
            (format!("{empty} o"), TeekoErrorKind::Unreachable),
        ] {
            let e = t.parse(&text).unwrap_err();
            assert_eq!(e.kind::<TeekoErrorKind>(), Some(&kind), "{e}");
            assert!(e.to_string().contains("(expected five rows"), "{e}");
        }
        assert_eq!(t.parse(&format!("{empty} X")).ok(), Some(t.start_number()));
    }

    #[test]
    fn four_in_a_row_or_a_square_ends_the_game() {
        let t = Teeko::new();
        assert_eq!(t.wins.len(), 44);
        // X has the top row's first four; O to move has lost.
        let b = Board {
            x: 0b1111,
            o: 0b11 << 10 | 0b11 << 20,
            x_to_move: false,
        };
        let p = t.number(b).unwrap();
        assert_eq!(t.terminal(p), Some(Outcome::Lose));
        assert_eq!(t.out_degree(p), 0);
        // A 2 x 2 square: cells 0, 1, 5, 6.
        let b = Board {
            x: 0b11 | 0b11 << 5,
            o: 0b1111 << 20,
            x_to_move: false,
        };
        assert_eq!(t.terminal(t.number(b).unwrap()), Some(Outcome::Lose));
        // Drops: 25 first moves; in the movement phase, steps to empty neighbours.
        assert_eq!(t.out_degree(t.start_number()), 25);
        let b = Board {
            x: 1 | 1 << 4 | 1 << 20 | 1 << 24,
            o: 1 << 12 | 1 << 2 | 1 << 10 | 1 << 14,
            x_to_move: true,
        };
        // Corners: 3 neighbours each, all empty but none taken by O? 0's are 1, 5, 6.
        assert_eq!(t.out_degree(t.number(b).unwrap()), 12);
    }
}
