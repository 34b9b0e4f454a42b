//! Chess endings without pawns: a white king and one or two pieces against a
//! lone black king (KQK, KRK, KBBK, KBNK, KNNK), both sides to move, as a
//! [`StateGame`].
//!
//! # The rules, as read here
//! - The usual moves of king, queen, rook, bishop and knight; no castling,
//!   no pawns, no 50-move rule and no repetition rule (endless play is a draw).
//! - Checkmate: the side to move is in check and has no move; it loses.
//! - Stalemate: not in check and no move: a tie.
//! - The black king may capture an undefended piece. In every ending here
//!   that leaves a king and at most one minor piece against a king, a tie by
//!   insufficient material: every capture leads to one terminal tie position
//!   ([`Position::CAPTURED`]).
//! - KBBK: the bishops stand on squares of opposite colours.
//!
//! Endless play would be a draw, but none of these endings has one: where
//! white cannot force mate, either side can steer to a tie (black by taking
//! a piece, white by offering one or by stalemate), and both prefer a tie to
//! a draw. KNNK's only wins are the mates in one already on the board.
//!
//! # Positions
//! All legal positions are the starts, so the solve is strong: kings not on
//! adjacent squares, no two men on one square, the side not to move not in
//! check. With `symmetry`, positions equal under the 8 symmetries of the
//! board (rotations and reflections, which pawnless chess without castling
//! keeps) are one position, the one whose code is least; two pieces of the
//! same kind are interchangeable in every case.
//!
//! Remoteness counts plies: a mate in `m` moves for the side to move is a win
//! in `2m - 1` plies.
//!
//! ```
//! use retrograde::games::chess::{Ending, Endgame};
//! use retrograde::{solve_states, Outcome};
//! let game = Endgame::new(Ending::KQK, true);
//! let sol = solve_states(&game).unwrap();
//! // White: Kg6, Qa7; black: Kh8. Qa8 (or Qg7) mates at once.
//! let p = game.from_fen("7k/Q7/6K1/8/8/8/8/8 w - - 0 1").unwrap();
//! let v = sol.value(&p).unwrap();
//! assert_eq!((v.outcome, v.remoteness), (Outcome::Win, Some(1)));
//! ```

mod fen;
mod play;
mod san;

use std::fmt;

use crate::{Outcome, StateGame};

pub use fen::{FenError, FenErrorKind};
pub use play::entry;

/// Which ending: the white pieces besides the king.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// King and queen against king.
    KQK,
    /// King and rook against king.
    KRK,
    /// King and two bishops (on opposite colours) against king.
    KBBK,
    /// King, bishop and knight against king.
    KBNK,
    /// King and two knights against king.
    KNNK,
}

/// A white piece besides the king.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    /// A queen (Q).
    Queen,
    /// A rook (R).
    Rook,
    /// A bishop (B).
    Bishop,
    /// A knight (N).
    Knight,
}

impl Piece {
    /// The FEN letter (white: upper case).
    pub fn letter(self) -> char {
        match self {
            Piece::Queen => 'Q',
            Piece::Rook => 'R',
            Piece::Bishop => 'B',
            Piece::Knight => 'N',
        }
    }
}

impl Ending {
    /// Every ending, in the order `retrograde game chess` lists them.
    pub const ALL: [Ending; 5] = [
        Ending::KQK,
        Ending::KRK,
        Ending::KBBK,
        Ending::KBNK,
        Ending::KNNK,
    ];

    /// The white pieces besides the king.
    pub fn pieces(self) -> &'static [Piece] {
        match self {
            Ending::KQK => &[Piece::Queen],
            Ending::KRK => &[Piece::Rook],
            Ending::KBBK => &[Piece::Bishop, Piece::Bishop],
            Ending::KBNK => &[Piece::Bishop, Piece::Knight],
            Ending::KNNK => &[Piece::Knight, Piece::Knight],
        }
    }

    /// Its name, as `KBNK`.
    pub fn name(self) -> &'static str {
        match self {
            Ending::KQK => "KQK",
            Ending::KRK => "KRK",
            Ending::KBBK => "KBBK",
            Ending::KBNK => "KBNK",
            Ending::KNNK => "KNNK",
        }
    }

    /// The ending named `name` (any case).
    pub fn from_name(name: &str) -> Option<Ending> {
        Ending::ALL
            .into_iter()
            .find(|e| e.name().eq_ignore_ascii_case(name))
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A position: the squares (0 = a1, 7 = h1, 63 = h8) of the white king, the
/// black king and the pieces, and the side to move, in one `u32`:
/// bits 0–5 white king, 6–11 black king, 12–17 and 18–23 the pieces (0 when
/// absent), bit 24 set when black is to move.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Position(pub u32);

impl Position {
    /// The terminal tie every capture leads to.
    pub const CAPTURED: Position = Position(u32::MAX);

    fn new(wk: u8, bk: u8, pieces: [u8; 2], black: bool) -> Position {
        Position(
            u32::from(wk)
                | u32::from(bk) << 6
                | u32::from(pieces[0]) << 12
                | u32::from(pieces[1]) << 18
                | u32::from(black) << 24,
        )
    }

    /// The white king's square.
    pub fn white_king(self) -> u8 {
        (self.0 & 63) as u8
    }

    /// The black king's square.
    pub fn black_king(self) -> u8 {
        (self.0 >> 6 & 63) as u8
    }

    /// The square of piece `i` (0 or 1).
    pub fn piece(self, i: usize) -> u8 {
        (self.0 >> (12 + 6 * i) & 63) as u8
    }

    /// Whether black is to move.
    pub fn black_to_move(self) -> bool {
        self.0 >> 24 & 1 == 1
    }
}

/// A move as played on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    /// The man that moves, as a FEN letter (`K`, `Q`, `R`, `B`, `N`, `k`).
    pub man: char,
    /// Its square before the move.
    pub from: u8,
    /// Its square after the move.
    pub to_square: u8,
    /// Whether it captures a piece.
    pub capture: bool,
    /// The position after the move, as played ([`Position::CAPTURED`] after a capture).
    pub to: Position,
}

impl fmt::Display for Move {
    /// Long algebraic notation: `Qa7-a8`, `Kg8xh7`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sq = |s: u8| format!("{}{}", char::from(b'a' + (s & 7)), (s >> 3) + 1);
        let sep = if self.capture { 'x' } else { '-' };
        write!(
            f,
            "{}{}{sep}{}",
            self.man.to_ascii_uppercase(),
            sq(self.from),
            sq(self.to_square)
        )
    }
}

/// An ending as a game; see the [module docs](self).
#[derive(Clone, Copy, Debug)]
pub struct Endgame {
    ending: Ending,
    symmetry: bool,
}

fn file(s: u8) -> i8 {
    (s & 7) as i8
}

fn rank(s: u8) -> i8 {
    (s >> 3) as i8
}

fn square(f: i8, r: i8) -> Option<u8> {
    ((0..8).contains(&f) && (0..8).contains(&r)).then(|| (r * 8 + f) as u8)
}

fn adjacent(a: u8, b: u8) -> bool {
    (file(a) - file(b)).abs() <= 1 && (rank(a) - rank(b)).abs() <= 1
}

const KING: [(i8, i8); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];
const KNIGHT: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const ROOK: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
/// The queen slides in every direction a king steps.
const QUEEN: [(i8, i8); 8] = KING;

/// The 8 symmetries of the board, as maps of (file, rank).
fn transform(t: u8, s: u8) -> u8 {
    let (mut f, mut r) = (file(s), rank(s));
    if t & 1 != 0 {
        f = 7 - f;
    }
    if t & 2 != 0 {
        r = 7 - r;
    }
    if t & 4 != 0 {
        std::mem::swap(&mut f, &mut r);
    }
    (r * 8 + f) as u8
}

/// Whether a square is in the triangle a1–d1–d4 every position can be turned into.
fn in_triangle(s: u8) -> bool {
    let (f, r) = (file(s), rank(s));
    f <= 3 && r <= f
}

impl Endgame {
    /// The ending, with or without the board's symmetries folded.
    pub fn new(ending: Ending, symmetry: bool) -> Endgame {
        Endgame { ending, symmetry }
    }

    /// The ending.
    pub fn ending(&self) -> Ending {
        self.ending
    }

    fn piece_count(&self) -> usize {
        self.ending.pieces().len()
    }

    /// The men on the board: squares occupied, as a bitboard.
    fn occupied(&self, p: Position) -> u64 {
        let mut occ = 1u64 << p.white_king() | 1u64 << p.black_king();
        for i in 0..self.piece_count() {
            occ |= 1u64 << p.piece(i);
        }
        occ
    }

    /// Whether a white man other than piece `skip` attacks `target`, with
    /// `occ` the occupied squares (sliding pieces stop at the first one).
    fn white_attacks(&self, p: Position, target: u8, occ: u64, skip: Option<usize>) -> bool {
        if adjacent(p.white_king(), target) && p.white_king() != target {
            return true;
        }
        for (i, &kind) in self.ending.pieces().iter().enumerate() {
            if Some(i) == skip {
                continue;
            }
            let from = p.piece(i);
            if from == target {
                continue;
            }
            let hit = match kind {
                Piece::Knight => {
                    let (df, dr) = (
                        (file(target) - file(from)).abs(),
                        (rank(target) - rank(from)).abs(),
                    );
                    (df == 1 && dr == 2) || (df == 2 && dr == 1)
                }
                Piece::Rook => slides(from, target, &ROOK, occ),
                Piece::Bishop => slides(from, target, &BISHOP, occ),
                Piece::Queen => {
                    slides(from, target, &ROOK, occ) || slides(from, target, &BISHOP, occ)
                }
            };
            if hit {
                return true;
            }
        }
        false
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self, p: Position) -> bool {
        p != Position::CAPTURED
            && p.black_to_move()
            && self.white_attacks(p, p.black_king(), self.occupied(p), None)
    }

    /// Whether `p` is a legal position of this ending (see the module docs).
    pub fn is_legal(&self, p: Position) -> bool {
        if p == Position::CAPTURED {
            return true;
        }
        let k = self.piece_count();
        if p.0 >> 25 != 0 || (k < 2 && p.piece(1) != 0) || (k < 1 && p.piece(0) != 0) {
            return false;
        }
        // No two men on one square.
        if self.occupied(p).count_ones() as usize != 2 + k
            || adjacent(p.white_king(), p.black_king())
        {
            return false;
        }
        if self.ending == Ending::KBBK
            && (file(p.piece(0)) + rank(p.piece(0))) % 2
                == (file(p.piece(1)) + rank(p.piece(1))) % 2
        {
            return false;
        }
        // White to move: black, who just moved, is not in check.
        p.black_to_move() || !self.white_attacks(p, p.black_king(), self.occupied(p), None)
    }

    /// Two pieces of one kind in a fixed order, so that swapping them gives
    /// the same position.
    fn sorted(&self, mut pieces: [u8; 2]) -> [u8; 2] {
        let same = matches!(self.ending, Ending::KBBK | Ending::KNNK);
        if same && pieces[0] > pieces[1] {
            pieces.swap(0, 1);
        }
        pieces
    }

    fn image(&self, p: Position, t: u8) -> Position {
        let k = self.piece_count();
        let mut pieces = [0u8; 2];
        for (i, s) in pieces.iter_mut().enumerate().take(k) {
            *s = transform(t, p.piece(i));
        }
        Position::new(
            transform(t, p.white_king()),
            transform(t, p.black_king()),
            self.sorted(pieces),
            p.black_to_move(),
        )
    }

    /// Every legal move of `p`, as played on its board (not turned into
    /// canonical form): what moved, from where to where, and the position it
    /// leads to ([`Position::CAPTURED`] for a capture).
    pub fn for_each_raw_move(&self, p: Position, mut f: impl FnMut(Move)) {
        if p == Position::CAPTURED {
            return;
        }
        let k = self.piece_count();
        let occ = self.occupied(p);
        let (wk, bk) = (p.white_king(), p.black_king());
        let mut pieces = [p.piece(0), p.piece(1)];
        if p.black_to_move() {
            let without_king = occ & !(1u64 << bk);
            for (df, dr) in KING {
                let Some(to) = square(file(bk) + df, rank(bk) + dr) else {
                    continue;
                };
                if adjacent(to, wk) {
                    continue;
                }
                let captured = (0..k).find(|&i| pieces[i] == to);
                if self.white_attacks(p, to, without_king, captured) {
                    continue;
                }
                f(Move {
                    man: 'k',
                    from: bk,
                    to_square: to,
                    capture: captured.is_some(),
                    to: match captured {
                        Some(_) => Position::CAPTURED,
                        None => Position::new(wk, to, pieces, false),
                    },
                });
            }
            return;
        }
        // White: the king, then each piece, to empty squares (black has
        // nothing else to capture, and a king is never captured).
        for (df, dr) in KING {
            if let Some(to) = square(file(wk) + df, rank(wk) + dr) {
                if occ >> to & 1 == 0 && !adjacent(to, bk) {
                    f(Move {
                        man: 'K',
                        from: wk,
                        to_square: to,
                        capture: false,
                        to: Position::new(to, bk, pieces, true),
                    });
                }
            }
        }
        for i in 0..k {
            let from = pieces[i];
            let kind = self.ending.pieces()[i];
            let mut emit = |to: u8, pieces: &mut [u8; 2]| {
                pieces[i] = to;
                f(Move {
                    man: kind.letter(),
                    from,
                    to_square: to,
                    capture: false,
                    to: Position::new(wk, bk, self.sorted(*pieces), true),
                });
                pieces[i] = from;
            };
            if kind == Piece::Knight {
                for (df, dr) in KNIGHT {
                    if let Some(to) = square(file(from) + df, rank(from) + dr) {
                        if occ >> to & 1 == 0 {
                            emit(to, &mut pieces);
                        }
                    }
                }
                continue;
            }
            let dirs: &[(i8, i8)] = match kind {
                Piece::Rook => &ROOK,
                Piece::Bishop => &BISHOP,
                _ => &QUEEN,
            };
            for &(df, dr) in dirs {
                let mut step = 1;
                while let Some(to) = square(file(from) + df * step, rank(from) + dr * step) {
                    if occ >> to & 1 == 1 {
                        break;
                    }
                    emit(to, &mut pieces);
                    step += 1;
                }
            }
        }
    }

    /// Every legal position, each once (canonical under the symmetries if
    /// they are folded).
    pub fn positions(&self) -> Vec<Position> {
        let k = self.piece_count();
        let mut out = Vec::new();
        let piece_range = |i: usize| if i < k { 0..64u8 } else { 0..1u8 };
        for black in [false, true] {
            for wk in 0..64u8 {
                if self.symmetry && !in_triangle(wk) {
                    continue;
                }
                for bk in 0..64u8 {
                    for a in piece_range(0) {
                        for b in piece_range(1) {
                            let p = Position::new(wk, bk, [a, b], black);
                            let unsorted = k == 2 && a > b && self.sorted([a, b])[0] == b;
                            if unsorted || !self.is_legal(p) {
                                continue;
                            }
                            if self.canonical(p) == p {
                                out.push(p);
                            }
                        }
                    }
                }
            }
        }
        out
    }
}

/// Whether a slider from `from` along `dirs` reaches `target`, stopping at
/// the first occupied square.
fn slides(from: u8, target: u8, dirs: &[(i8, i8)], occ: u64) -> bool {
    let (df, dr) = (file(target) - file(from), rank(target) - rank(from));
    for &(f, r) in dirs {
        // Is target on this ray?
        let steps = if f != 0 { df / f } else { dr / r };
        if steps <= 0 || df != f * steps || dr != r * steps {
            continue;
        }
        for k in 1..steps {
            let s = square(file(from) + f * k, rank(from) + r * k).unwrap_or(0);
            if occ >> s & 1 == 1 {
                return false;
            }
        }
        return true;
    }
    false
}

impl StateGame for Endgame {
    type Position = Position;

    fn starts(&self) -> Vec<Position> {
        self.positions()
    }

    fn for_each_move<F: FnMut(Position)>(&self, p: &Position, mut f: F) {
        self.for_each_raw_move(*p, |m| f(self.canonical(m.to)));
    }

    fn terminal(&self, p: &Position) -> Option<Outcome> {
        if *p == Position::CAPTURED {
            return Some(Outcome::Tie);
        }
        let mut moves = 0;
        self.for_each_move(p, |_| moves += 1);
        // No move: mate loses (the normal rule), stalemate is a tie.
        (moves == 0 && !self.in_check(*p)).then_some(Outcome::Tie)
    }

    fn canonical(&self, p: Position) -> Position {
        if p == Position::CAPTURED {
            return p;
        }
        let base = Position::new(
            p.white_king(),
            p.black_king(),
            self.sorted([p.piece(0), p.piece(1)]),
            p.black_to_move(),
        );
        if !self.symmetry {
            return base;
        }
        (0..8u8)
            .filter(|&t| in_triangle(transform(t, p.white_king())))
            .map(|t| self.image(p, t))
            .min()
            .unwrap_or(base)
    }

    fn show(&self, p: &Position) -> String {
        if *p == Position::CAPTURED {
            return "a piece captured: a tie by insufficient material".to_string();
        }
        self.fen(*p)
    }
}

#[cfg(test)]
mod tests;
