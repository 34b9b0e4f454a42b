//! The cop and the thief: a pursuit on a board with walls and exits.
//!
//! The board (see [`Board`] for the file format) has walls `*`, exits `E`,
//! the cop's start `P` and the thief's start `T`. The cop moves first. On
//! each turn the cop steps to one of the 8 neighbouring cells, the thief to
//! one of the 4 orthogonal ones, or either passes (stays). No one leaves the
//! board or enters a wall. If both stand on the same cell, the cop wins; if
//! the thief stands on an exit and the cop is not on it, the thief wins; a
//! game that never ends is a draw.
//!
//! [`CopThief`] implements [`Game`]: a position is (cop cell, thief cell,
//! side to move), only free cells (not walls) are numbered, so a board of `F`
//! free cells has `2F²` positions — 2·10⁸ for an open 100 × 100 board — and
//! [`solve_game`](retrograde::solve_game) solves it in about 3 bytes per position.
//!
//! The pieces: the rules here, the numbering of positions in `index.rs`, how
//! the game shows itself (verdict, map, board) in `display.rs` and `svg.rs`,
//! the board file in `board.rs`.
//!
//! ```
//! use retrograde_games::cop_thief::{Board, CopThief, Verdict};
//! use retrograde::{solve_game, Answers, Rules};
//!
//! // The thief stands next to an exit, the cop is too far to stop it.
//! let board = Board::parse(b"1 5\nP..TE\n", "corridor.txt").unwrap();
//! let game = CopThief::new(board).unwrap();
//! let solution = solve_game(&game, &Rules::normal()).unwrap();
//! assert_eq!(game.verdict(&solution), Verdict::ThiefEscapes);
//! assert_eq!(game.verdict(&solution).to_string(), "The thief escapes");
//! // Cop passes or steps, thief steps onto the exit: 2 plies.
//! assert_eq!(solution.remoteness(game.start()), Some(2));
//! ```

mod board;
mod display;
mod index;
mod play;
mod svg;

pub use board::{Board, BoardError, BoardErrorKind, Cell, Piece};
pub use display::{State, Verdict};
pub use play::{PositionErrorKind, entry};

use index::{Adjacency, Divisor};

use retrograde::graph::{MAX_VERTICES, NONE};
use retrograde::{Game, Outcome, Rules};

/// Bytes per position a solve needs, used to refuse boards too large for memory:
/// the lean engine's [`LEAN_BYTES_PER_POSITION`](retrograde::solve::LEAN_BYTES_PER_POSITION).
pub const BYTES_PER_POSITION: u64 = retrograde::solve::LEAN_BYTES_PER_POSITION;

/// Whose turn it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The cop moves.
    Cop = 0,
    /// The thief moves.
    Thief = 1,
}

/// The cop and the thief on one board, as a [`Game`].
///
/// Free cells are numbered `0..F` row by row. With the cop to move, the
/// position is `thief · F + cop`; with the thief to move, `F² + cop · F + thief`:
/// the piece that just moved is the minor index, so the positions a move can
/// come from (one step of that piece) lie close together in memory, which
/// makes the solve several times faster than the plain `2(cop · F + thief) +
/// side`. Terminal positions (same cell, or thief on an exit) have no moves.
/// Memory: a few words per free cell.
#[derive(Clone, Debug)]
pub struct CopThief {
    board: Board,
    free: u32,
    half: u32,
    by_free: Divisor,
    index: Vec<u32>,
    coords: Vec<(u32, u32)>,
    exit: Vec<bool>,
    cop_moves: Adjacency,
    thief_moves: Adjacency,
    start: u32,
}

impl CopThief {
    /// Refuses a board whose solve would need more than `limit` bytes
    /// ([`BYTES_PER_POSITION`] a position), before anything is allocated.
    ///
    /// # Errors
    /// [`BoardErrorKind::TooLarge`].
    pub fn check_memory(board: &Board, limit: u64) -> Result<(), BoardError> {
        Self::check_share(board, limit, 1, |positions| {
            positions.saturating_mul(BYTES_PER_POSITION)
        })
    }

    /// Refuses a board whose solve would need more than `limit` bytes in
    /// each of `processes` processes sharing its positions, `needed(positions)`
    /// estimating one process, before anything is allocated.
    ///
    /// # Errors
    /// [`BoardErrorKind::TooLarge`].
    pub fn check_share(
        board: &Board,
        limit: u64,
        processes: u64,
        needed: impl FnOnce(u64) -> u64,
    ) -> Result<(), BoardError> {
        let f = board.free_cells() as u64;
        let positions = 2 * f * f;
        let needed = needed(positions);
        if needed > limit {
            return Err(BoardError {
                path: board.path().to_path_buf(),
                line: None,
                kind: BoardErrorKind::TooLarge {
                    free_cells: f,
                    positions,
                    needed,
                    processes,
                    limit,
                },
            });
        }
        Ok(())
    }

    /// The game on `board`.
    ///
    /// # Errors
    /// [`BoardErrorKind::TooManyPositions`] if the board has more positions
    /// than `u32` ids allow.
    ///
    /// # Complexity
    /// Time and memory **O(rows × columns)**.
    pub fn new(board: Board) -> Result<CopThief, BoardError> {
        let f = board.free_cells() as u64;
        let positions = 2 * f * f;
        if positions > MAX_VERTICES as u64 {
            return Err(BoardError {
                path: board.path().to_path_buf(),
                line: None,
                kind: BoardErrorKind::TooManyPositions {
                    free_cells: f,
                    positions,
                },
            });
        }
        let (rows, cols) = (board.rows(), board.cols());
        let mut index = vec![NONE; rows * cols];
        let mut coords = Vec::with_capacity(f as usize);
        let mut exit = Vec::with_capacity(f as usize);
        for r in 0..rows {
            for c in 0..cols {
                let cell = board.cell(r, c);
                if cell != Cell::Wall {
                    index[r * cols + c] = coords.len() as u32;
                    coords.push((r as u32, c as u32));
                    exit.push(cell == Cell::Exit);
                }
            }
        }
        let adjacency = |steps: &[(isize, isize)]| {
            let mut offsets = vec![0u32];
            let mut cells = Vec::new();
            for &(r, c) in &coords {
                let start = cells.len();
                for &(dr, dc) in steps {
                    let (nr, nc) = (r as isize + dr, c as isize + dc);
                    if nr >= 0 && nc >= 0 && (nr as usize) < rows && (nc as usize) < cols {
                        let i = index[nr as usize * cols + nc as usize];
                        if i != NONE {
                            cells.push(i);
                        }
                    }
                }
                cells[start..].sort_unstable();
                offsets.push(cells.len() as u32);
            }
            Adjacency { offsets, cells }
        };
        let king: Vec<(isize, isize)> = (-1..=1)
            .flat_map(|dr| (-1..=1).map(move |dc| (dr, dc)))
            .collect();
        let cop_moves = adjacency(&king);
        let thief_moves = adjacency(&[(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)]);
        let at = |(r, c): (usize, usize)| index[r * cols + c];
        let (cop, thief) = (at(board.cop()), at(board.thief()));
        let mut game = CopThief {
            board,
            free: f as u32,
            half: (f * f) as u32,
            by_free: Divisor::new(f as u32),
            index,
            coords,
            exit,
            cop_moves,
            thief_moves,
            start: 0,
        };
        game.start = game.encode(cop, thief, Side::Cop);
        Ok(game)
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The number of free cells `F` (the game has `2F²` positions).
    pub fn free_cells(&self) -> usize {
        self.free as usize
    }

    /// The most moves a position has: a step of the piece to move to a
    /// neighbouring cell, or passing.
    pub fn max_moves(&self) -> usize {
        [&self.cop_moves, &self.thief_moves]
            .iter()
            .flat_map(|a| a.offsets.windows(2).map(|w| (w[1] - w[0]) as usize))
            .max()
            .unwrap_or(0)
    }

    /// The start position: both on their start cells, the cop to move.
    pub fn start(&self) -> u32 {
        self.start
    }

    /// The rules to solve with: the normal ones (no position lacks a move but
    /// the terminal ones, so the no-move rule never applies).
    pub fn rules(&self) -> Rules {
        Rules::normal()
    }

    #[inline]
    fn is_over(&self, cop: u32, thief: u32) -> bool {
        self.winner(cop, thief).is_some()
    }

    /// Who has won with the cop on `cop` and the thief on `thief`: the cop
    /// where they meet, the thief on an exit; `None` while play goes on.
    #[inline]
    fn winner(&self, cop: u32, thief: u32) -> Option<Side> {
        if cop == thief {
            Some(Side::Cop)
        } else if self.exit[thief as usize] {
            Some(Side::Thief)
        } else {
            None
        }
    }
}

impl Game for CopThief {
    fn position_count(&self) -> usize {
        2 * self.free as usize * self.free as usize
    }

    #[inline]
    fn for_each_move<F: FnMut(u32)>(&self, p: u32, mut f: F) {
        let (c, t, side) = self.decode(p);
        if self.is_over(c, t) {
            return;
        }
        match side {
            Side::Cop => {
                for &c2 in self.cop_moves.of(c) {
                    f(self.encode(c2, t, Side::Thief));
                }
            }
            Side::Thief => {
                for &t2 in self.thief_moves.of(t) {
                    f(self.encode(c, t2, Side::Cop));
                }
            }
        }
    }

    #[inline]
    fn for_each_unmove<F: FnMut(u32)>(&self, q: u32, mut f: F) {
        let (c, t, side) = self.decode(q);
        match side {
            // The cop just moved to c, from a neighbour where the game was not over.
            Side::Thief => {
                if self.exit[t as usize] {
                    return;
                }
                for &c2 in self.cop_moves.of(c) {
                    if c2 != t {
                        f(self.encode(c2, t, Side::Cop));
                    }
                }
            }
            // The thief just moved to t.
            Side::Cop => {
                for &t2 in self.thief_moves.of(t) {
                    if !self.is_over(c, t2) {
                        f(self.encode(c, t2, Side::Thief));
                    }
                }
            }
        }
    }

    #[inline]
    fn terminal(&self, p: u32) -> Option<Outcome> {
        let (c, t, side) = self.decode(p);
        let winner = self.winner(c, t)?;
        Some(if winner == side {
            Outcome::Win
        } else {
            Outcome::Lose
        })
    }

    fn starts(&self) -> Vec<u32> {
        vec![self.start]
    }

    /// `cop ROW,COLUMN thief ROW,COLUMN cop|thief`, counting from 1 at the
    /// top left.
    fn notation(&self, p: u32) -> String {
        self.write_position(p)
    }

    fn parse(&self, text: &str) -> Result<u32, retrograde::play::NotationError> {
        self.parse_position(text)
    }

    /// The cell the mover reaches, or `stay`.
    fn move_name(&self, p: u32, q: u32) -> String {
        self.name_move(p, q)
    }

    fn to_move(&self, p: u32) -> String {
        self.mover(p)
    }

    /// The thief caught, or out by an exit; or a side with no move, which
    /// loses.
    fn ending(&self, p: u32) -> Option<String> {
        let (c, t, side) = self.decode(p);
        match self.winner(c, t) {
            Some(Side::Cop) => return Some("the cop catches the thief: the cop wins".into()),
            Some(Side::Thief) => return Some("the thief reaches an exit: the thief wins".into()),
            None => {}
        }
        let mut moves = 0;
        self.for_each_move(p, |_| moves += 1);
        (moves == 0).then(|| match side {
            Side::Cop => "the cop cannot move: the thief wins".into(),
            Side::Thief => "the thief cannot move: the cop wins".into(),
        })
    }

    /// The board with the pieces, and who moves.
    fn show(&self, p: u32) -> String {
        let to_move = match self.state(p).to_move {
            Side::Cop => "the cop",
            Side::Thief => "the thief",
        };
        format!("{}{to_move} to move", self.render(p))
    }

    #[inline]
    fn out_degree(&self, p: u32) -> u32 {
        let (c, t, side) = self.decode(p);
        if self.is_over(c, t) {
            return 0;
        }
        let adj = match side {
            Side::Cop => (&self.cop_moves, c),
            Side::Thief => (&self.thief_moves, t),
        };
        adj.0.offsets[adj.1 as usize + 1] - adj.0.offsets[adj.1 as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use retrograde::game::check_game;
    use retrograde::{Answers, solve_game};

    fn game(text: &str) -> CopThief {
        CopThief::new(Board::parse(text.as_bytes(), "t.txt").unwrap()).unwrap()
    }

    fn verdict(text: &str) -> (Verdict, Option<u32>) {
        let g = game(text);
        let s = solve_game(&g, &g.rules()).unwrap();
        (g.verdict(&s), s.remoteness(g.start()))
    }

    #[test]
    fn positions_round_trip_and_moves_agree_with_reverse_moves() {
        let g = game("3 4\nP.*E\n.*..\nE..T\n");
        assert_eq!(g.free_cells(), 10);
        assert_eq!(g.position_count(), 200);
        for p in 0..200 {
            let s = g.state(p);
            assert_eq!(g.position(s.cop, s.thief, s.to_move), Some(p));
        }
        assert_eq!(g.position((0, 2), (0, 0), Side::Cop), None);
        assert_eq!(g.position((0, 9), (0, 0), Side::Cop), None);
        let r = check_game(&g, 0..200, 5);
        assert!(r.is_ok(), "{r}");
    }

    #[test]
    fn small_verdicts() {
        // Cop next to the thief: caught in 1.
        assert_eq!(verdict("1 2\nPT\n"), (Verdict::PoliceCatches, Some(1)));
        // In a corridor without exit the cop corners the thief.
        assert_eq!(verdict("1 3\nP.T\n").0, Verdict::PoliceCatches);
        // Walled apart, no exit: a draw.
        assert_eq!(verdict("1 3\nP*T\n"), (Verdict::Draw, None));
        // One step from an exit, cop far away.
        assert_eq!(verdict("1 5\nP..TE\n"), (Verdict::ThiefEscapes, Some(2)));
    }

    #[test]
    fn map_and_render() {
        let g = game("1 5\nP.*TE\n");
        let s = solve_game(&g, &g.rules()).unwrap();
        assert_eq!(g.map(&s), "Pc*ee\n");
        assert_eq!(g.render(g.start()), "P.*TE\n");
        let svg = g.svg(&s);
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    }

    #[test]
    fn boards_too_large_are_refused_with_what_they_need() {
        let b = Board::parse(b"1 100\nP..................................................................................................T\n", "big.txt").unwrap();
        let e = CopThief::check_memory(&b, 1000).unwrap_err();
        assert!(
            matches!(
                e.kind,
                BoardErrorKind::TooLarge {
                    positions: 20000,
                    needed: 80000,
                    ..
                }
            ),
            "{e}"
        );
        assert!(
            e.to_string().starts_with(
                "big.txt: 100 free cells make 20000 positions, which would need about 78.1 KiB"
            ),
            "{e}"
        );
    }
}
