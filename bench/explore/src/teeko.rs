//! Teeko written from its rules alone, as a [`StateGame`] over `u64`
//! positions: the same game as the library's hand-numbered
//! [`retrograde_games::teeko::Teeko`], position for position, for timing
//! the explorer on a board game with small fixed-size positions.
//!
//! # The rules
//! A 5 × 5 board; X (moving first) and O have four pieces each. While a
//! player has fewer than four pieces on the board, a move drops one on any
//! empty cell; once all eight are down, a move steps one of the mover's
//! pieces to one of the (up to 8) adjacent empty cells. Four of a player's
//! pieces in a row (across, down or diagonally) or on a 2 × 2 square win at
//! once: the player to move after such a move has lost. A player who cannot
//! move loses (the normal rule); endless play is a draw.
//!
//! # Positions
//! A position is a `u64`:
//! - bits 0–24: X's cells, cell `5 · row + column` with row 0 at the top
//!   (the built-in game's [`Board`](retrograde_games::teeko::Board) layout);
//! - bits 25–49: O's cells, the same way;
//! - bit 50: set when O is to move;
//! - every other bit clear.
//!
//! So the empty board with X to move is `0`, and a position is its own
//! database number ([`StateGame::encode`]). No symmetry is folded: positions
//! are the built-in game's boards one to one.
//!
//! # Notation
//! The built-in game's: the five rows from the top, `x`, `o` or `.` a cell,
//! separated by `/`, then who moves, as in `...../..x../...../..o../..... x`.
//! [`StateGame::parse`] also reads the 25 cells without the slashes.

use retrograde::Outcome;
use retrograde::explore::StateGame;
use retrograde::play::NotationError;

/// Cells on the board.
const CELLS: u32 = 25;

/// All the cells, as a mask.
const ALL: u32 = (1 << CELLS) - 1;

/// Where O's cells start in a position.
const O_SHIFT: u32 = 25;

/// The bit of a position set when O is to move.
const O_TO_MOVE: u64 = 1 << 50;

/// Every bit a position may use.
const USED: u64 = (1 << 51) - 1;

/// The neighbours of each cell (the 8 directions, within the board); 32
/// rows, so that any bit's index is in range.
const NEIGHBOURS: [u32; 32] = neighbours();

const fn neighbours() -> [u32; 32] {
    let mut n = [0u32; 32];
    let mut c = 0;
    while c < CELLS as i32 {
        let (r, col) = (c / 5, c % 5);
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (nr, nc) = (r + dr, col + dc);
                if (dr != 0 || dc != 0) && nr >= 0 && nr < 5 && nc >= 0 && nc < 5 {
                    n[c as usize] |= 1 << (nr * 5 + nc);
                }
                dc += 1;
            }
            dr += 1;
        }
        c += 1;
    }
    n
}

/// A slot of [`WINS_BY_LOW`] that holds no winning set: not a set of
/// cells, so no four pieces ever equal it.
const NONE: u32 = u32::MAX;

/// The 44 winning sets (10 rows of four, 10 columns, 8 diagonals, 16
/// squares), filed under their lowest cell, at most 4 a cell, the rest of
/// each row [`NONE`] (and rows 25 to 31 all [`NONE`], so that any bit's
/// index is in range). Four pieces win exactly when they equal one of the
/// sets filed under their lowest cell.
const WINS_BY_LOW: [[u32; 4]; 32] = wins_by_low();

const fn wins_by_low() -> [[u32; 4]; 32] {
    let mut t = [[NONE; 4]; 32];
    let mut c = 0;
    while c < CELLS as i32 {
        let (r, col) = (c / 5, c % 5);
        let mut k = 0;
        // Lines of four going right, down, down-right and down-left: the
        // lowest cell is the first.
        let dirs = [(0, 1), (1, 0), (1, 1), (1, -1)];
        let mut d = 0;
        while d < 4 {
            let (dr, dc) = dirs[d];
            let (er, ec) = (r + 3 * dr, col + 3 * dc);
            if er >= 0 && er < 5 && ec >= 0 && ec < 5 {
                let mut set = 0u32;
                let mut i = 0;
                while i < 4 {
                    set |= 1 << ((r + i * dr) * 5 + col + i * dc);
                    i += 1;
                }
                t[c as usize][k] = set;
                k += 1;
            }
            d += 1;
        }
        // The square with this cell at its top left.
        if r < 4 && col < 4 {
            t[c as usize][k] = 0b11 << c | 0b11 << (c + 5);
        }
        c += 1;
    }
    t
}

/// Whether `cells` are exactly four pieces on a winning set.
#[inline(always)]
fn won(cells: u32) -> bool {
    // No pieces (32 trailing zeros): cell 0's row, where no set is empty.
    let w = &WINS_BY_LOW[cells.trailing_zeros() as usize & 31];
    (cells == w[0]) | (cells == w[1]) | (cells == w[2]) | (cells == w[3])
}

/// X's cells of position `p`.
#[inline(always)]
fn x_cells(p: u64) -> u32 {
    p as u32 & ALL
}

/// O's cells of position `p`.
#[inline(always)]
fn o_cells(p: u64) -> u32 {
    (p >> O_SHIFT) as u32 & ALL
}

/// Whether X is to move at `p`.
#[inline(always)]
fn x_to_move(p: u64) -> bool {
    p & O_TO_MOVE == 0
}

/// The position of X's cells `x`, O's cells `o`, with X to move or not.
#[inline(always)]
fn position(x: u32, o: u32, x_to_move: bool) -> u64 {
    u64::from(x) | u64::from(o) << O_SHIFT | if x_to_move { 0 } else { O_TO_MOVE }
}

/// Whether these cells and side to move are a position of the game:
/// disjoint sets on the board, X dropping first (as many pieces as O with X
/// to move, one more with O to move, four at most), or four each with
/// either to move.
fn valid(x: u32, o: u32, x_to_move: bool) -> bool {
    let (a, b) = (x.count_ones(), o.count_ones());
    x & o == 0
        && (x | o) & !ALL == 0
        && a <= 4
        && ((x_to_move && a == b) || (!x_to_move && a == b + 1) || (a == 4 && b == 4))
}

/// The name of a cell: its column `a`–`e`, its row `1`–`5` from the bottom.
fn cell_name(cell: u32) -> String {
    format!("{}{}", char::from(b'a' + (cell % 5) as u8), 5 - cell / 5)
}

/// Teeko; see the [module docs](self).
#[derive(Clone, Copy, Debug, Default)]
pub struct TeekoState;

impl TeekoState {
    /// The game.
    pub fn new() -> TeekoState {
        TeekoState
    }

    /// Whether the game is over at `p`: the player who just moved has four
    /// in a row or a square (what the player to move holds is not looked at).
    #[inline(always)]
    pub fn over(&self, p: u64) -> bool {
        won(if x_to_move(p) { o_cells(p) } else { x_cells(p) })
    }
}

impl StateGame for TeekoState {
    type Position = u64;

    fn starts(&self) -> Vec<u64> {
        vec![0]
    }

    /// Drops while the mover has fewer than four pieces down, steps after;
    /// none once the game is over.
    #[inline]
    fn for_each_move<F: FnMut(u64)>(&self, p: &u64, mut f: F) {
        let p = *p;
        // The mover's pieces sit `shift` bits up, the other's `25 - shift`.
        let shift = if x_to_move(p) { 0 } else { O_SHIFT };
        let mine = (p >> shift) as u32 & ALL;
        let theirs = (p >> (O_SHIFT - shift)) as u32 & ALL;
        if won(theirs) {
            return;
        }
        let empty = ALL & !(mine | theirs);
        let next = p ^ O_TO_MOVE;
        if mine.count_ones() < 4 {
            let mut e = empty;
            while e != 0 {
                let to = e.trailing_zeros();
                e &= e - 1;
                f(next | 1 << (to + shift));
            }
            return;
        }
        let mut m = mine;
        while m != 0 {
            let from = m.trailing_zeros();
            m &= m - 1;
            let lifted = next ^ 1 << (from + shift);
            let mut to = NEIGHBOURS[from as usize & 31] & empty;
            while to != 0 {
                let t = to.trailing_zeros();
                to &= to - 1;
                f(lifted | 1 << (t + shift));
            }
        }
    }

    #[inline]
    fn terminal(&self, p: &u64) -> Option<Outcome> {
        self.over(*p).then_some(Outcome::Lose)
    }

    fn notation(&self, p: &u64) -> String {
        let (x, o) = (x_cells(*p), o_cells(*p));
        let mut s = String::with_capacity(31);
        for c in 0..CELLS {
            let bit = 1 << c;
            s.push(if x & bit != 0 {
                'x'
            } else if o & bit != 0 {
                'o'
            } else {
                '.'
            });
            if c % 5 == 4 {
                s.push(if c < CELLS - 1 { '/' } else { ' ' });
            }
        }
        s.push(if x_to_move(*p) { 'x' } else { 'o' });
        s
    }

    fn parse(&self, text: &str) -> Result<u64, NotationError> {
        const EXPECTED: &str = "expected five rows of x, o and . from the top, \
            then x or o to move, as in \"...../...../..x../...../..... o\"";
        let err =
            |what: &str| NotationError::invalid("teeko", text, format!("{what} ({EXPECTED})"));
        let mut fields = text.split_whitespace();
        let board = fields.next().unwrap_or("");
        let rows: Vec<&str> = board.split('/').collect();
        let shaped = match rows.len() {
            5 => rows.iter().all(|r| r.chars().count() == 5),
            1 => board.chars().count() == 25,
            _ => false,
        };
        if !shaped {
            return Err(err("the board is not five rows of five cells"));
        }
        let (mut x, mut o) = (0u32, 0u32);
        for (c, ch) in rows.concat().chars().enumerate() {
            match ch.to_ascii_lowercase() {
                'x' => x |= 1 << c,
                'o' => o |= 1 << c,
                '.' => {}
                _ => return Err(err(&format!("{ch:?} is not x, o or ."))),
            }
        }
        let x_to_move = match fields.next() {
            Some(w) if w.eq_ignore_ascii_case("x") => true,
            Some(w) if w.eq_ignore_ascii_case("o") => false,
            Some(w) => return Err(err(&format!("{w:?} is not a side to move"))),
            None => return Err(err("no side to move")),
        };
        if let Some(w) = fields.next() {
            return Err(err(&format!("{w:?} after the side to move")));
        }
        if !valid(x, o, x_to_move) {
            return Err(err(
                "not a position of the game: X drops first, four pieces each at most",
            ));
        }
        Ok(position(x, o, x_to_move))
    }

    /// A drop by its cell (`c3`), a step by both (`c3-d4`).
    fn move_name(&self, p: &u64, q: &u64) -> String {
        let shift = if x_to_move(*p) { 0 } else { O_SHIFT };
        let before = (p >> shift) as u32 & ALL;
        let after = (q >> shift) as u32 & ALL;
        let (added, removed) = (after & !before, before & !after);
        if added.count_ones() != 1 || removed.count_ones() > 1 {
            return self.notation(q);
        }
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

    fn to_move(&self, p: &u64) -> String {
        if x_to_move(*p) { "X" } else { "O" }.into()
    }

    fn encode(&self, p: &u64) -> Option<u64> {
        Some(*p)
    }

    fn decode(&self, code: u64) -> Option<u64> {
        (code & !USED == 0 && valid(x_cells(code), o_cells(code), x_to_move(code))).then_some(code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use retrograde::Game;
    use retrograde::graph::splitmix64;
    use retrograde_games::teeko::{Board, Teeko};

    /// A small random number generator (splitmix64 over a counter).
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            splitmix64(self.0)
        }
        fn below(&mut self, n: usize) -> usize {
            (((self.next() >> 32) * n as u64) >> 32) as usize
        }
    }

    fn board(p: u64) -> Board {
        Board {
            x: x_cells(p),
            o: o_cells(p),
            x_to_move: x_to_move(p),
        }
    }

    fn from_board(b: Board) -> u64 {
        position(b.x, b.o, b.x_to_move)
    }

    fn moves(g: &TeekoState, p: u64) -> Vec<u64> {
        let mut out = Vec::new();
        g.for_each_move(&p, |q| out.push(q));
        out
    }

    /// Checks `p` against the built-in game's board of the same cells:
    /// numbered, the same terminal value, the same moves (as a multiset,
    /// compared by the built-in's numbers), and its codes and notation
    /// read back.
    fn check_against_builtin(g: &TeekoState, t: &Teeko, p: u64) {
        let n = t
            .number(board(p))
            .unwrap_or_else(|| panic!("not numbered by the built-in game: {}", g.notation(&p)));
        assert_eq!(from_board(t.board_at(n)), p);
        assert_eq!(
            StateGame::terminal(g, &p),
            Game::terminal(t, n),
            "{}",
            g.show(&p)
        );
        let mut mine: Vec<u32> = moves(g, p)
            .into_iter()
            .map(|q| t.number(board(q)).expect("a move to a numbered board"))
            .collect();
        let mut theirs = Vec::new();
        Game::for_each_move(t, n, |q| theirs.push(q));
        mine.sort_unstable();
        theirs.sort_unstable();
        assert_eq!(mine, theirs, "{}", g.show(&p));
        assert_eq!(g.encode(&p), Some(p));
        assert_eq!(g.decode(p), Some(p));
        let text = g.notation(&p);
        assert_eq!(g.parse(&text).ok(), Some(p), "{text}");
        assert_eq!(
            text,
            retrograde::Game::notation(t, n),
            "the built-in game's notation"
        );
    }

    #[test]
    fn the_winning_sets_are_the_44() {
        let mut sets: Vec<u32> = WINS_BY_LOW
            .iter()
            .flatten()
            .copied()
            .filter(|&w| w != NONE)
            .collect();
        assert_eq!(sets.len(), 44);
        sets.sort_unstable();
        sets.dedup();
        assert_eq!(sets.len(), 44);
        assert!(sets.iter().all(|&w| w.count_ones() == 4 && w & !ALL == 0));
        for (c, row) in WINS_BY_LOW.iter().enumerate() {
            assert!(
                row.iter()
                    .all(|&w| w == NONE || w.trailing_zeros() as usize == c)
            );
        }
        // Rows, columns, diagonals and squares, by their counts.
        let row = sets.iter().filter(|&&w| w >> w.trailing_zeros() == 0b1111);
        assert_eq!(row.count(), 10);
        let squares = sets
            .iter()
            .filter(|&&w| w >> w.trailing_zeros() == (0b11 | 0b11 << 5));
        assert_eq!(squares.count(), 16);
        assert!(!won(0));
        assert!(!won(0b111));
        assert!(!won(0b11111));
        assert!(won(0b1111 << 1));
        assert!(!won(0b1111 << 2)); // wraps round to the next row
        assert_eq!(NEIGHBOURS[0], 1 << 1 | 1 << 5 | 1 << 6);
        assert_eq!(NEIGHBOURS[12].count_ones(), 8);
        assert_eq!(NEIGHBOURS.iter().map(|n| n.count_ones()).sum::<u32>(), 144);
    }

    #[test]
    fn the_start_and_a_few_positions() {
        let g = TeekoState::new();
        assert_eq!(g.starts(), vec![0]);
        assert_eq!(moves(&g, 0).len(), 25);
        assert_eq!(g.to_move(&0), "X");
        assert_eq!(g.notation(&0), "...../...../...../...../..... x");
        // X has the top row's first four: O to move has lost.
        let p = position(0b1111, 0b11 << 10 | 0b11 << 20, false);
        assert_eq!(g.terminal(&p), Some(Outcome::Lose));
        assert!(moves(&g, p).is_empty());
        // A square.
        let p = position(0b11 | 0b11 << 5, 0b1111 << 20, false);
        assert_eq!(g.terminal(&p), Some(Outcome::Lose));
        // O's four in a row with O to move: not over (only the player who
        // just moved is looked at).
        let p = position(1 | 1 << 2 | 1 << 4 | 1 << 12, 0b1111 << 20, false);
        assert_eq!(g.terminal(&p), None);
        assert!(!moves(&g, p).is_empty());
        // Corners for X: 12 steps, none blocked.
        let p = position(
            1 | 1 << 4 | 1 << 20 | 1 << 24,
            1 << 12 | 1 << 2 | 1 << 10 | 1 << 14,
            true,
        );
        assert_eq!(moves(&g, p).len(), 12);
        assert_eq!(g.move_name(&p, &(p ^ O_TO_MOVE ^ 1 ^ 1 << 1)), "a5-b5");
        let q = 1 << 12 | O_TO_MOVE;
        assert_eq!(g.move_name(&0, &q), "c3");
        assert_eq!(g.to_move(&q), "O");
    }

    #[test]
    fn random_games_agree_with_the_builtin_game() {
        let (g, t) = (TeekoState::new(), Teeko::new());
        let mut rng = Rng(7);
        let (mut drops, mut steps, mut over, mut blocked) = (0, 0, 0, 0);
        for _ in 0..1500 {
            let mut p = 0u64;
            for _ in 0..80 {
                check_against_builtin(&g, &t, p);
                if (x_cells(p) | o_cells(p)).count_ones() < 8 {
                    drops += 1;
                } else {
                    steps += 1;
                }
                if g.terminal(&p).is_some() {
                    over += 1;
                    break;
                }
                let next = moves(&g, p);
                if next.is_empty() {
                    blocked += 1;
                    break;
                }
                p = next[rng.below(next.len())];
            }
        }
        assert!(
            drops > 10_000 && steps > 50_000 && over > 100,
            "{drops} {steps} {over}"
        );
        assert_eq!(blocked, 0);
    }

    /// Every number of the built-in game, reachable or not (both players
    /// with a winning set, say): the same board, value and moves.
    #[test]
    fn random_numbered_boards_agree_with_the_builtin_game() {
        let (g, t) = (TeekoState::new(), Teeko::new());
        let count = t.position_count();
        let mut rng = Rng(11);
        for i in 0..30_000 {
            // The first numbers (the drop phase's first sections) and a
            // spread of the rest.
            let n = if i < 2_000 { i } else { rng.below(count) } as u32;
            let p = from_board(t.board_at(n));
            assert_eq!(g.decode(p), Some(p));
            check_against_builtin(&g, &t, p);
        }
    }

    /// A code decodes exactly when the built-in game numbers its board.
    #[test]
    fn decode_takes_exactly_the_positions() {
        let (g, t) = (TeekoState::new(), Teeko::new());
        let mut rng = Rng(13);
        let cells = |rng: &mut Rng| {
            let mut m = 0u32;
            for _ in 0..rng.below(6) {
                m |= 1 << rng.below(25);
            }
            m
        };
        let mut taken = 0;
        for _ in 0..100_000 {
            let (x, o, xm) = (cells(&mut rng), cells(&mut rng), rng.next() & 1 == 0);
            let p = position(x, o, xm);
            let numbered = t
                .number(Board {
                    x,
                    o,
                    x_to_move: xm,
                })
                .is_some();
            assert_eq!(g.decode(p).is_some(), numbered, "{}", g.notation(&p));
            if x & o == 0 {
                // (The notation of overlapping sets shows X on both.)
                assert_eq!(g.parse(&g.notation(&p)).is_ok(), numbered);
            }
            taken += usize::from(numbered);
            // Stray bits anywhere else: never a position.
            let stray = p | 1 << (51 + rng.below(13));
            assert_eq!(g.decode(stray), None);
        }
        assert!(taken > 1_000, "{taken}");
        assert_eq!(g.decode(1 | 1 << O_SHIFT | O_TO_MOVE), None); // overlapping
        assert_eq!(g.decode(O_TO_MOVE), None); // O to move on an empty board
        assert_eq!(g.decode(1), None); // X to move, one piece ahead
        assert_eq!(g.decode(1 | O_TO_MOVE), Some(1 | O_TO_MOVE));
    }

    #[test]
    fn bad_notation_is_refused() {
        let g = TeekoState::new();
        let empty = "...../...../...../...../.....";
        for text in [
            "..../...../...../...../..... x".to_string(),
            "...../...../..#../...../..... x".to_string(),
            empty.to_string(),
            format!("{empty} z"),
            format!("{empty} x 1"),
            format!("{empty} o"),
            "xxxxx/...../...../...../..... o".to_string(),
        ] {
            let e = g.parse(&text).unwrap_err();
            assert!(e.to_string().contains("(expected five rows"), "{e}");
        }
        assert_eq!(g.parse(&format!("{empty} X")).ok(), Some(0));
        assert_eq!(
            g.parse("..x..oo...........x.x.... o").ok(),
            g.parse("..x../oo.../...../...x./x.... o").ok()
        );
        assert!(g.parse("..x..oo...........x.x.... o").is_ok());
    }
}
