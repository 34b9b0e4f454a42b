//! A position unpacked: the squares of the kings and men, the side to move
//! and the en passant right; legality, attacks, moves and symmetries.

use super::{Ending, Man, Move, Piece, Position};

/// A position laid out for move generation.
#[derive(Clone, Copy, Debug)]
pub(super) struct Board {
    wk: u8,
    bk: u8,
    men: [Man; 2],
    squares: [u8; 2],
    n: usize,
    black: bool,
    ep: Option<u8>,
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

/// The 8 symmetries of the board, as maps of (file, rank): bit 0 mirrors
/// the files, bit 1 the ranks, bit 2 swaps files and ranks.
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

/// Whether the white king's square is one every position can be turned
/// into: the triangle a1–d1–d4 without pawns, files a–d with them.
pub(super) fn in_fold(s: u8, pawns: bool) -> bool {
    let (f, r) = (file(s), rank(s));
    if pawns { f <= 3 } else { f <= 3 && r <= f }
}

/// Whether a slider from `from` along `dirs` reaches `target`, stopping at
/// the first occupied square.
fn slides(from: u8, target: u8, dirs: &[(i8, i8)], occ: u64) -> bool {
    let (df, dr) = (file(target) - file(from), rank(target) - rank(from));
    for &(f, r) in dirs {
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

/// What moves: a king or man `i`.
#[derive(Clone, Copy, PartialEq)]
enum Mover {
    King,
    Man(usize),
}

impl Board {
    /// The kings on `wk` and `bk`, `men[i]` on `squares[i]`.
    pub(super) fn new(
        wk: u8,
        bk: u8,
        men: &[Man],
        squares: &[u8],
        black: bool,
        ep: Option<u8>,
    ) -> Board {
        let mut b = Board {
            wk,
            bk,
            men: [Man(0); 2],
            squares: [0; 2],
            n: men.len().min(2),
            black,
            ep,
        };
        b.men[..b.n].copy_from_slice(&men[..b.n]);
        b.squares[..b.n].copy_from_slice(&squares[..b.n]);
        b
    }

    /// `p` unpacked.
    pub(super) fn of(p: Position) -> Board {
        let men = p.ending().men();
        let squares = [p.man(0), p.man(1)];
        Board::new(
            p.white_king(),
            p.black_king(),
            &men,
            &squares,
            p.black_to_move(),
            p.en_passant(),
        )
    }

    /// Packed, the men in their fixed order (by man, then square).
    pub(super) fn position(&self) -> Position {
        let mut men = [
            (self.men[0], self.squares[0]),
            (self.men[1], self.squares[1]),
        ];
        if self.n == 2 && men[1] < men[0] {
            men.swap(0, 1);
        }
        let kinds = [men[0].0, men[1].0];
        let ending = Ending::from_sorted(&kinds[..self.n]);
        let mut code = u64::from(self.wk) | u64::from(self.bk) << 6;
        for (i, &(_, s)) in men[..self.n].iter().enumerate() {
            code |= u64::from(s) << (12 + 6 * i);
        }
        code |= u64::from(self.black) << 24;
        code |= u64::from(self.ep.map_or(0, |f| f + 1)) << 25;
        code |= u64::from(ending.0) << 32;
        Position(code)
    }

    fn occupied(&self) -> u64 {
        (0..self.n).fold(1u64 << self.wk | 1u64 << self.bk, |o, i| {
            o | 1u64 << self.squares[i]
        })
    }

    /// The man standing on `s`, if any (kings aside).
    fn man_on(&self, s: u8) -> Option<usize> {
        (0..self.n).find(|&i| self.squares[i] == s)
    }

    /// Whether side `by_black` attacks `target`, the occupied squares `occ`.
    fn attacked(&self, target: u8, by_black: bool, occ: u64) -> bool {
        let king = if by_black { self.bk } else { self.wk };
        if king != target && adjacent(king, target) {
            return true;
        }
        (0..self.n).any(|i| {
            let (man, from) = (self.men[i], self.squares[i]);
            if man.black() != by_black || from == target {
                return false;
            }
            match man.piece() {
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
                Piece::Pawn => {
                    let ahead = if by_black { -1 } else { 1 };
                    rank(target) == rank(from) + ahead && (file(target) - file(from)).abs() == 1
                }
            }
        })
    }

    /// Whether the side to move is in check.
    pub(super) fn in_check(&self) -> bool {
        let king = if self.black { self.bk } else { self.wk };
        self.attacked(king, !self.black, self.occupied())
    }

    /// Whether the side that just moved left its king attacked.
    fn mover_in_check(&self) -> bool {
        let king = if self.black { self.wk } else { self.bk };
        self.attacked(king, self.black, self.occupied())
    }

    /// Kings apart, one man a square, pawns off the first and last ranks,
    /// the side not to move not in check, and an en passant right only
    /// where a pawn can use it.
    pub(super) fn is_legal(&self) -> bool {
        if self.occupied().count_ones() as usize != 2 + self.n || adjacent(self.wk, self.bk) {
            return false;
        }
        let pawn_off_its_ranks = (0..self.n).any(|i| {
            self.men[i].piece() == Piece::Pawn && !(1..7).contains(&rank(self.squares[i]))
        });
        if pawn_off_its_ranks || self.mover_in_check() {
            return false;
        }
        match self.ep {
            None => true,
            Some(f) => {
                // The pawn that just moved two squares, the squares it crossed empty.
                let (at, crossed, start) = if self.black { (3, 2, 1) } else { (4, 5, 6) };
                let pawn = Man::new(!self.black, Piece::Pawn);
                let stands = square(f as i8, at)
                    .and_then(|s| self.man_on(s))
                    .is_some_and(|i| self.men[i] == pawn);
                let occ = self.occupied();
                let clear = [crossed, start]
                    .iter()
                    .all(|&r| square(f as i8, r).is_some_and(|s| occ >> s & 1 == 0));
                stands && clear && self.en_passant_captures().next().is_some()
            }
        }
    }

    /// The legal en passant captures of the side to move.
    fn en_passant_captures(&self) -> impl Iterator<Item = Move> + '_ {
        let pawns = (0..self.n).filter(|&i| self.men[i] == Man::new(self.black, Piece::Pawn));
        pawns.filter_map(move |i| self.en_passant(i))
    }

    /// Man `i`'s capture en passant, if it has a legal one.
    fn en_passant(&self, i: usize) -> Option<Move> {
        let f = self.ep? as i8;
        let from = self.squares[i];
        let (on, ahead) = if self.black { (3, -1) } else { (4, 1) };
        if rank(from) != on || (file(from) - f).abs() != 1 {
            return None;
        }
        let to = square(f, on + ahead)?;
        let taken = self.man_on(square(f, on)?)?;
        self.play(Mover::Man(i), to, Some(taken), None)
    }

    /// The move of `mover` to `to`, taking man `taken`, a pawn becoming
    /// `promotion`: `None` if it leaves the mover's king attacked.
    fn play(
        &self,
        mover: Mover,
        to: u8,
        taken: Option<usize>,
        promotion: Option<Piece>,
    ) -> Option<Move> {
        let mut b = *self;
        let (man, from) = match mover {
            Mover::King if self.black => {
                b.bk = to;
                ('k', self.bk)
            }
            Mover::King => {
                b.wk = to;
                ('K', self.wk)
            }
            Mover::Man(i) => {
                b.squares[i] = to;
                if let Some(p) = promotion {
                    b.men[i] = Man::new(self.black, p);
                }
                (self.men[i].letter(), self.squares[i])
            }
        };
        if let Some(j) = taken {
            b.men[j] = b.men[b.n - 1];
            b.squares[j] = b.squares[b.n - 1];
            b.n -= 1;
        }
        b.black = !self.black;
        b.ep = None;
        if b.mover_in_check() {
            return None;
        }
        if let Mover::Man(i) = mover {
            let double = self.men[i].piece() == Piece::Pawn && (rank(to) - rank(from)).abs() == 2;
            if double {
                b.ep = Some(to & 7);
                if b.en_passant_captures().next().is_none() {
                    b.ep = None;
                }
            }
        }
        Some(Move {
            man,
            from,
            to_square: to,
            capture: taken.is_some(),
            promotion,
            to: b.position(),
        })
    }

    /// Every legal move of the side to move.
    pub(super) fn for_each_move(&self, mut f: impl FnMut(Move)) {
        let me = self.black;
        let occ = self.occupied();
        let (own_king, their_king) = if me {
            (self.bk, self.wk)
        } else {
            (self.wk, self.bk)
        };
        // A target: `None` if the mover's own man or the other king is
        // there, else the man it takes (if any).
        let target = |to: u8| -> Option<Option<usize>> {
            if to == their_king || to == own_king {
                return None;
            }
            match self.man_on(to) {
                Some(j) if self.men[j].black() == me => None,
                taken => Some(taken),
            }
        };
        for (df, dr) in KING {
            if let Some(to) = square(file(own_king) + df, rank(own_king) + dr)
                && let Some(taken) = target(to)
            {
                self.play(Mover::King, to, taken, None).map(&mut f);
            }
        }
        for i in 0..self.n {
            let man = self.men[i];
            if man.black() != me {
                continue;
            }
            let from = self.squares[i];
            match man.piece() {
                Piece::Pawn => self.pawn_moves(i, occ, &target, &mut f),
                Piece::Knight => {
                    for (df, dr) in KNIGHT {
                        if let Some(to) = square(file(from) + df, rank(from) + dr)
                            && let Some(taken) = target(to)
                        {
                            self.play(Mover::Man(i), to, taken, None).map(&mut f);
                        }
                    }
                }
                kind => {
                    let dirs: &[(i8, i8)] = match kind {
                        Piece::Rook => &ROOK,
                        Piece::Bishop => &BISHOP,
                        _ => &QUEEN,
                    };
                    for &(df, dr) in dirs {
                        let mut step = 1;
                        while let Some(to) = square(file(from) + df * step, rank(from) + dr * step)
                        {
                            if let Some(taken) = target(to) {
                                self.play(Mover::Man(i), to, taken, None).map(&mut f);
                            }
                            if occ >> to & 1 == 1 {
                                break;
                            }
                            step += 1;
                        }
                    }
                }
            }
        }
    }

    /// Pawn `i`'s pushes, captures (promoting on the last rank) and capture
    /// en passant.
    fn pawn_moves(
        &self,
        i: usize,
        occ: u64,
        target: &dyn Fn(u8) -> Option<Option<usize>>,
        f: &mut dyn FnMut(Move),
    ) {
        let from = self.squares[i];
        let (ahead, start, last) = if self.black { (-1, 6, 0) } else { (1, 1, 7) };
        let mut emit = |to: u8, taken: Option<usize>| {
            if rank(to) == last {
                for p in [Piece::Queen, Piece::Rook, Piece::Bishop, Piece::Knight] {
                    self.play(Mover::Man(i), to, taken, Some(p)).map(&mut *f);
                }
            } else {
                self.play(Mover::Man(i), to, taken, None).map(&mut *f);
            }
        };
        if let Some(one) = square(file(from), rank(from) + ahead)
            && occ >> one & 1 == 0
        {
            emit(one, None);
            if rank(from) == start
                && let Some(two) = square(file(from), rank(from) + 2 * ahead)
                && occ >> two & 1 == 0
            {
                emit(two, None);
            }
        }
        for side in [-1, 1] {
            if let Some(to) = square(file(from) + side, rank(from) + ahead)
                && let Some(Some(taken)) = target(to)
            {
                emit(to, Some(taken));
            }
        }
        if let Some(m) = self.en_passant(i) {
            f(m);
        }
    }

    /// The board with colours swapped: ranks mirrored, white's men black's.
    fn swapped(&self) -> Board {
        let flip = |s: u8| s ^ 56;
        let mut b = *self;
        b.wk = flip(self.bk);
        b.bk = flip(self.wk);
        for i in 0..self.n {
            b.men[i] = self.men[i].swapped();
            b.squares[i] = flip(self.squares[i]);
        }
        b.black = !self.black;
        b
    }

    /// The board under symmetry `t`.
    fn transformed(&self, t: u8) -> Board {
        let mut b = *self;
        b.wk = transform(t, self.wk);
        b.bk = transform(t, self.bk);
        for i in 0..self.n {
            b.squares[i] = transform(t, self.squares[i]);
        }
        b.ep = self.ep.map(|f| if t & 1 != 0 { 7 - f } else { f });
        b
    }

    /// The canonical position: colours swapped where black's material is
    /// the stronger (either way where they are equal, with `symmetry`),
    /// then, with `symmetry`, the least code of the board's images with the
    /// white king in its fold.
    pub(super) fn canonical(&self, symmetry: bool) -> Position {
        let men = &self.men[..self.n];
        let Some(ending) = Ending::of(men) else {
            return self.position();
        };
        let sort = |mut m: [Man; 2]| {
            if self.n == 2 && m[1] < m[0] {
                m.swap(0, 1);
            }
            m
        };
        let sorted = sort(self.men);
        let turned_men = sort([self.men[0].swapped(), self.men[1].swapped()]);
        let as_is = sorted[..self.n] == *ending.men();
        let turned = turned_men[..self.n] == *ending.men();
        let mut boards = [None, None];
        if as_is {
            boards[0] = Some(*self);
        }
        if turned && (symmetry || !as_is) {
            boards[1] = Some(self.swapped());
        }
        let boards = boards.iter().flatten();
        if !symmetry {
            return boards
                .map(Board::position)
                .next()
                .unwrap_or_else(|| self.position());
        }
        let pawns = ending.has_pawns();
        let transforms: &[u8] = if pawns {
            &[0, 1]
        } else {
            &[0, 1, 2, 3, 4, 5, 6, 7]
        };
        boards
            .flat_map(|b| {
                transforms
                    .iter()
                    .filter(move |&&t| in_fold(transform(t, b.wk), pawns))
                    .map(move |&t| b.transformed(t).position())
            })
            .min()
            .unwrap_or_else(|| self.position())
    }
}
