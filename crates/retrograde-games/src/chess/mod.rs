//! Chess endings of up to four men, pawns included, as a [`StateGame`]
//! solved tier by tier ([`TieredGame`]): each ending (its material) is a
//! tier, and a capture or a promotion leads to the ending it leaves.
//!
//! # The rules, as read here
//! - The usual moves of every man; pawns push one square, or two from
//!   their first rank, capture diagonally, capture en passant on the move
//!   right after a double push, and promote on the last rank to a queen,
//!   rook, bishop or knight. No castling (no ending here has rooks and
//!   kings on their first squares with the right), no 50-move rule and no
//!   repetition rule (endless play is a draw).
//! - Checkmate: the side to move is in check and has no move; it loses.
//! - Stalemate: not in check and no move: a tie.
//! - Insufficient material is a tie at once: no pawn, rook or queen on the
//!   board, and at most one minor piece, or only bishops all on squares of
//!   one colour (no sequence of moves can mate). Every other ending plays
//!   on (KNNK and KNKN have mates, if only helped ones).
//! - En passant is a right of the position: a position after a double push
//!   that the opponent can take en passant (legally) differs from the same
//!   men without the right. Positions with the right are reached by moves
//!   only, never the starts.
//!
//! # Positions and tiers
//! An ending is its material: a king each, and at most two other men of
//! either colour. Colours are swapped so that white has the stronger
//! material (more men, then the stronger man first: KRKP, not KPKR); where
//! both sides have the same material, a position and its colour-swapped
//! image are one. A tier is solved strongly: every legal position of its
//! ending (kings not adjacent, no two men on one square, pawns off the
//! first and last ranks, the side not to move not in check) is a start.
//! With `symmetry`, positions equal under the board's symmetries (8 without
//! pawns, the mirror a–h with them) are one, the one whose code is least
//! with the white king in a1–d1–d4 (in files a–d with pawns).
//!
//! Remoteness counts plies, through captures and promotions (depth to mate,
//! as the tablebases count it): a mate in `m` moves for the side to move is
//! a win in `2m - 1` plies.
//!
//! ```
//! use retrograde_games::chess::{Ending, Endgame};
//! use retrograde::{solve_states, Outcome};
//! let game = Endgame::new(Ending::KQK, true);
//! let sol = solve_states(&game).unwrap();
//! // White: Kg6, Qa7; black: Kh8. Qa8 (or Qg7) mates at once.
//! let p = game.from_fen("7k/Q7/6K1/8/8/8/8/8 w - - 0 1").unwrap();
//! let v = sol.value(&p).unwrap();
//! assert_eq!((v.outcome, v.remoteness), (Outcome::Win, Some(1)));
//! ```

mod board;
mod fen;
mod play;
mod san;

use std::fmt;

use rayon::prelude::*;

use retrograde::tier::TieredGame;
use retrograde::{Outcome, StateGame};

use board::Board;
pub use fen::{FenError, FenErrorKind};
pub use play::entry;

/// A man besides the kings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Piece {
    /// A queen (Q).
    Queen = 1,
    /// A rook (R).
    Rook = 2,
    /// A bishop (B).
    Bishop = 3,
    /// A knight (N).
    Knight = 4,
    /// A pawn (P).
    Pawn = 5,
}

impl Piece {
    /// Every kind, strongest first.
    pub const ALL: [Piece; 5] = [
        Piece::Queen,
        Piece::Rook,
        Piece::Bishop,
        Piece::Knight,
        Piece::Pawn,
    ];

    /// The letter (upper case; FEN writes black's in lower case).
    pub fn letter(self) -> char {
        match self {
            Piece::Queen => 'Q',
            Piece::Rook => 'R',
            Piece::Bishop => 'B',
            Piece::Knight => 'N',
            Piece::Pawn => 'P',
        }
    }

    /// The kind a letter (either case) names.
    pub fn from_letter(c: char) -> Option<Piece> {
        Piece::ALL
            .into_iter()
            .find(|p| p.letter() == c.to_ascii_uppercase())
    }

    fn from_code(c: u8) -> Option<Piece> {
        Piece::ALL.into_iter().find(|&p| p as u8 == c)
    }
}

/// A man of an ending: its colour and kind, in 4 bits (bit 3 black).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Man(u8);

impl Man {
    /// A man of colour `black` and kind `piece`.
    pub fn new(black: bool, piece: Piece) -> Man {
        Man(u8::from(black) << 3 | piece as u8)
    }

    /// Whether it is black's.
    pub fn black(self) -> bool {
        self.0 & 8 != 0
    }

    /// Its kind.
    pub fn piece(self) -> Piece {
        Piece::from_code(self.0 & 7).unwrap_or(Piece::Pawn)
    }

    /// The same man of the other colour.
    fn swapped(self) -> Man {
        Man(self.0 ^ 8)
    }

    /// Its FEN letter.
    pub fn letter(self) -> char {
        let c = self.piece().letter();
        if self.black() {
            c.to_ascii_lowercase()
        } else {
            c
        }
    }
}

/// The men of an ending besides the kings (at most two), as a slice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Men {
    men: [Man; 2],
    len: u8,
}

impl std::ops::Deref for Men {
    type Target = [Man];
    fn deref(&self) -> &[Man] {
        &self.men[..usize::from(self.len)]
    }
}

/// An ending: the men besides the kings (at most two, in a fixed order:
/// white's first, the stronger first), white's material the stronger.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Ending(u8);

impl Ending {
    /// Kings alone.
    pub const KK: Ending = Ending(0);
    /// King and queen against king.
    pub const KQK: Ending = Ending(1);
    /// King and rook against king.
    pub const KRK: Ending = Ending(2);
    /// King and pawn against king.
    pub const KPK: Ending = Ending(5);
    /// King and two bishops against king.
    pub const KBBK: Ending = Ending(3 | 3 << 4);
    /// King, bishop and knight against king.
    pub const KBNK: Ending = Ending(3 | 4 << 4);
    /// King and two knights against king.
    pub const KNNK: Ending = Ending(4 | 4 << 4);
    /// King and rook against king and pawn.
    pub const KRKP: Ending = Ending(2 | (8 | 5) << 4);

    /// The ending of `men` (in any order and orientation), as the tiers
    /// hold it: sorted, colours swapped if black's material is the stronger.
    /// `None` for more than two men.
    pub fn of(men: &[Man]) -> Option<Ending> {
        let n = men.len();
        if n > 2 {
            return None;
        }
        let mut m = [Man(0); 2];
        m[..n].copy_from_slice(men);
        // A side's strength: more men first, then its kinds, strongest first.
        let strength = |black: bool| {
            let mut kinds = [u8::MAX; 2];
            let mut count = 0;
            for x in &m[..n] {
                if x.black() == black {
                    kinds[count] = x.piece() as u8;
                    count += 1;
                }
            }
            kinds.sort_unstable();
            (std::cmp::Reverse(count), kinds)
        };
        if strength(true) < strength(false) {
            m[..n].iter_mut().for_each(|x| *x = x.swapped());
        }
        m[..n].sort_unstable();
        Some(Ending::from_sorted(&m[..n]))
    }

    fn from_sorted(m: &[Man]) -> Ending {
        Ending(m.iter().rev().fold(0u8, |acc, x| acc << 4 | x.0))
    }

    /// Its men besides the kings, in order.
    pub fn men(self) -> Men {
        let (a, b) = (self.0 & 15, self.0 >> 4);
        Men {
            men: [Man(a), Man(b)],
            len: u8::from(a != 0) + u8::from(b != 0),
        }
    }

    /// Whether it has a pawn.
    pub fn has_pawns(self) -> bool {
        self.men().iter().any(|m| m.piece() == Piece::Pawn)
    }

    /// Whether no sequence of moves can mate: no pawn, rook or queen, and
    /// at most one minor piece (or bishops only, all on one colour, which
    /// the caller checks on the board).
    fn minor_only(self) -> bool {
        self.men()
            .iter()
            .all(|m| matches!(m.piece(), Piece::Bishop | Piece::Knight))
    }

    /// Its name, as `KRKP`: white's king and men, then black's.
    pub fn name(self) -> String {
        let men = self.men();
        let side = |black: bool| -> String {
            std::iter::once('K')
                .chain(
                    men.iter()
                        .filter(|m| m.black() == black)
                        .map(|m| m.piece().letter()),
                )
                .collect()
        };
        side(false) + &side(true)
    }

    /// The ending named `name` (any case), as it is named: `KPKR` is not a
    /// name (`KRKP` is).
    pub fn from_name(name: &str) -> Option<Ending> {
        let upper = name.to_ascii_uppercase();
        let rest = upper.strip_prefix('K')?;
        let (white, black) = rest.split_once('K')?;
        let mut men = Vec::new();
        for (text, is_black) in [(white, false), (black, true)] {
            for c in text.chars() {
                men.push(Man::new(is_black, Piece::from_letter(c)?));
            }
        }
        let e = Ending::of(&men)?;
        (e.name() == upper).then_some(e)
    }

    /// Every ending of three or four men (35), by men and then strength:
    /// what `retrograde game chess` offers.
    pub fn all() -> Vec<Ending> {
        let mut out = Vec::new();
        for a in Piece::ALL {
            out.push(Ending::of(&[Man::new(false, a)]));
        }
        for a in Piece::ALL {
            for b in Piece::ALL {
                if a <= b {
                    out.push(Ending::of(&[Man::new(false, a), Man::new(false, b)]));
                }
            }
        }
        for a in Piece::ALL {
            for b in Piece::ALL {
                if a <= b {
                    out.push(Ending::of(&[Man::new(false, a), Man::new(true, b)]));
                }
            }
        }
        out.into_iter().flatten().collect()
    }

    /// The endings a capture or a promotion leads to (not this one).
    pub fn children(self) -> Vec<Ending> {
        let men = self.men().to_vec();
        let mut out = Vec::new();
        let mut add = |m: Vec<Man>| {
            if let Some(e) = Ending::of(&m)
                && e != self
                && !out.contains(&e)
            {
                out.push(e);
            }
        };
        for i in 0..men.len() {
            let mut without = men.clone();
            without.remove(i);
            add(without);
        }
        for i in 0..men.len() {
            if men[i].piece() != Piece::Pawn {
                continue;
            }
            for to in [Piece::Queen, Piece::Rook, Piece::Bishop, Piece::Knight] {
                let mut promoted = men.clone();
                promoted[i] = Man::new(men[i].black(), to);
                add(promoted.clone());
                for j in 0..men.len() {
                    if j != i && men[j].black() != men[i].black() {
                        let mut taken = promoted.clone();
                        taken.remove(j);
                        add(taken);
                    }
                }
            }
        }
        out.sort_unstable();
        out
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl fmt::Debug for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// A position, in one `u64`: bits 0–5 the white king's square (0 = a1,
/// 7 = h1, 63 = h8), 6–11 the black king's, 12–17 and 18–23 the men's in
/// the ending's order (0 when absent), bit 24 set when black is to move,
/// 25–28 the file of an en passant capture plus one (0: none), 32–39 the
/// ending.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Position(pub u64);

impl Position {
    /// The white king's square.
    pub fn white_king(self) -> u8 {
        (self.0 & 63) as u8
    }

    /// The black king's square.
    pub fn black_king(self) -> u8 {
        (self.0 >> 6 & 63) as u8
    }

    /// The square of man `i` (0 or 1) of the ending.
    pub fn man(self, i: usize) -> u8 {
        (self.0 >> (12 + 6 * i) & 63) as u8
    }

    /// Whether black is to move.
    pub fn black_to_move(self) -> bool {
        self.0 >> 24 & 1 == 1
    }

    /// The file (0 = a) where a pawn may be taken en passant.
    pub fn en_passant(self) -> Option<u8> {
        match (self.0 >> 25 & 15) as u8 {
            0 => None,
            f => Some(f - 1),
        }
    }

    /// The ending (as on the board: before colours are swapped).
    pub fn ending(self) -> Ending {
        Ending((self.0 >> 32 & 0xff) as u8)
    }
}

/// A move as played on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    /// The man that moves, as a FEN letter (`K`, `Q`, `P`, `k`, `p`).
    pub man: char,
    /// Its square before the move.
    pub from: u8,
    /// Its square after the move.
    pub to_square: u8,
    /// Whether it captures (en passant included).
    pub capture: bool,
    /// What a pawn becomes on the last rank.
    pub promotion: Option<Piece>,
    /// The position after the move, as played (not in canonical form).
    pub to: Position,
}

impl fmt::Display for Move {
    /// Long algebraic notation: `Qa7-a8`, `Kg8xh7`, `e2-e4`, `e7xd8=N`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sq = |s: u8| format!("{}{}", char::from(b'a' + (s & 7)), (s >> 3) + 1);
        let sep = if self.capture { 'x' } else { '-' };
        let man = self.man.to_ascii_uppercase();
        if man != 'P' {
            write!(f, "{man}")?;
        }
        write!(f, "{}{sep}{}", sq(self.from), sq(self.to_square))?;
        if let Some(p) = self.promotion {
            write!(f, "={}", p.letter())?;
        }
        Ok(())
    }
}

/// An ending as a game; see the [module docs](self).
#[derive(Clone, Copy, Debug)]
pub struct Endgame {
    ending: Ending,
    symmetry: bool,
}

impl Endgame {
    /// The ending (named as [`Ending::of`] names it), with or without the
    /// board's symmetries folded.
    pub fn new(ending: Ending, symmetry: bool) -> Endgame {
        Endgame { ending, symmetry }
    }

    /// The ending.
    pub fn ending(&self) -> Ending {
        self.ending
    }

    /// Whether `p` is the side to move's check.
    pub fn in_check(&self, p: Position) -> bool {
        Board::of(p).in_check()
    }

    /// Whether `p` is a legal position of its ending (see the module docs);
    /// an en passant right must have a pawn to take.
    pub fn is_legal(&self, p: Position) -> bool {
        p.0 >> 40 == 0 && p.ending().men().len() <= 2 && {
            let b = Board::of(p);
            b.position() == p && b.is_legal()
        }
    }

    /// Every legal move of `p`, as played on its board (not turned into
    /// canonical form).
    pub fn for_each_raw_move(&self, p: Position, f: impl FnMut(Move)) {
        Board::of(p).for_each_move(f);
    }

    /// Every legal position of the ending without an en passant right, each
    /// once (canonical under the symmetries if they are folded).
    pub fn positions(&self) -> Vec<Position> {
        self.positions_of(self.ending)
    }

    fn positions_of(&self, ending: Ending) -> Vec<Position> {
        let men = ending.men();
        let pawns = ending.has_pawns();
        let kings: Vec<(bool, u8)> = [false, true]
            .into_iter()
            .flat_map(|black| (0..64u8).map(move |wk| (black, wk)))
            .filter(|&(_, wk)| !self.symmetry || board::in_fold(wk, pawns))
            .collect();
        kings
            .into_par_iter()
            .flat_map_iter(|(black, wk)| {
                let mut out = Vec::new();
                let range = |i: usize| -> std::ops::Range<u8> {
                    match men.get(i) {
                        None => 0..1,
                        Some(m) if m.piece() == Piece::Pawn => 8..56,
                        Some(_) => 0..64,
                    }
                };
                for bk in 0..64u8 {
                    for a in range(0) {
                        for b in range(1) {
                            if men.len() == 2 && men[0] == men[1] && b <= a {
                                continue;
                            }
                            let squares = [a, b];
                            let board = Board::new(wk, bk, &men, &squares, black, None);
                            if !board.is_legal() {
                                continue;
                            }
                            let p = board.position();
                            if self.canonical(p) == p {
                                out.push(p);
                            }
                        }
                    }
                }
                out.into_iter()
            })
            .collect()
    }

    /// Whether the men of `p` cannot mate whatever is played.
    fn insufficient(&self, p: Position) -> bool {
        let e = p.ending();
        if !e.minor_only() {
            return false;
        }
        let men = e.men();
        if men.len() <= 1 {
            return true;
        }
        let colour = |i: usize| {
            let s = p.man(i);
            ((s & 7) + (s >> 3)) % 2
        };
        men.iter().all(|m| m.piece() == Piece::Bishop)
            && (0..men.len()).all(|i| colour(i) == colour(0))
    }
}

impl StateGame for Endgame {
    type Position = Position;

    fn starts(&self) -> Vec<Position> {
        self.positions()
    }

    fn for_each_move<F: FnMut(Position)>(&self, p: &Position, mut f: F) {
        self.for_each_raw_move(*p, |m| f(m.to));
    }

    fn terminal(&self, p: &Position) -> Option<Outcome> {
        match self.over(*p)? {
            Over::Insufficient | Over::Stalemate => Some(Outcome::Tie),
            // No move: mate loses, by the normal rule.
            Over::Checkmate => None,
        }
    }

    fn canonical(&self, p: Position) -> Position {
        Board::of(p).canonical(self.symmetry)
    }

    fn show(&self, p: &Position) -> String {
        self.fen(*p)
    }

    fn notation(&self, p: &Position) -> String {
        self.fen(*p)
    }

    fn encode(&self, p: &Position) -> Option<u64> {
        Some(p.0)
    }

    fn decode(&self, code: u64) -> Option<Position> {
        let p = Position(code);
        self.is_legal(p).then_some(p)
    }

    fn to_move(&self, p: &Position) -> String {
        if p.black_to_move() { "black" } else { "white" }.into()
    }

    /// Checkmate, stalemate, or too little material left to mate.
    fn ending(&self, p: &Position) -> Option<String> {
        Some(match self.over(*p)? {
            Over::Insufficient => "insufficient material: a draw".into(),
            Over::Stalemate => "stalemate: a draw".into(),
            Over::Checkmate if p.black_to_move() => "checkmate: white wins".into(),
            Over::Checkmate => "checkmate: black wins".into(),
        })
    }
}

/// How a chess game is over at a position.
enum Over {
    /// Too little material left to mate: a draw.
    Insufficient,
    /// No move, not in check: a draw.
    Stalemate,
    /// No move, in check: the side to move loses.
    Checkmate,
}

impl Endgame {
    /// Whether, and how, the game is over at `p`: the one rule both
    /// [`StateGame::terminal`] and [`StateGame::ending`] read.
    fn over(&self, p: Position) -> Option<Over> {
        if self.insufficient(p) {
            return Some(Over::Insufficient);
        }
        let mut moves = 0;
        self.for_each_raw_move(p, |_| moves += 1);
        match moves {
            0 if self.in_check(p) => Some(Over::Checkmate),
            0 => Some(Over::Stalemate),
            _ => None,
        }
    }
}

impl TieredGame for Endgame {
    type Tier = Ending;

    fn tier(&self, p: &Position) -> Ending {
        Ending::of(&p.ending().men()).unwrap_or(Ending::KK)
    }

    fn child_tiers(&self, tier: &Ending) -> Vec<Ending> {
        tier.children()
    }

    fn tier_positions(&self, tier: &Ending) -> Vec<Position> {
        self.positions_of(*tier)
    }

    fn tier_name(&self, tier: &Ending) -> String {
        tier.name()
    }

    /// 64 squares a man, kings included, for either side to move.
    fn tier_size(&self, tier: &Ending) -> Option<u64> {
        Some(2 * 64u64.pow(tier.men().len() as u32 + 2))
    }
}

#[cfg(test)]
mod tests;
