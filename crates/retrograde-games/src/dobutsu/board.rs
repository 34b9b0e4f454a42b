//! The board, the pieces and the rules: moves, reverse moves and the end of the game.
//!
//! A [`Board`] is always seen by the player to move ("us"): our home rank is
//! the bottom row, we move up. Squares are `3 · row + column`, row 0 at the
//! top (the opponent's home rank, our far rank), column 0 at our left.

use retrograde::Outcome;

/// Squares on the board.
pub const SQUARES: usize = 12;

/// The lion: one step in any of the 8 directions.
pub const LION: u8 = 1;
/// The giraffe: one step orthogonally.
pub const GIRAFFE: u8 = 2;
/// The elephant: one step diagonally.
pub const ELEPHANT: u8 = 3;
/// The chick: one step forward; promoted to a hen on the far rank.
pub const CHICK: u8 = 4;
/// The hen: a promoted chick, moving like a gold general (not diagonally back).
pub const HEN: u8 = 5;
/// Set on a cell's code when the piece is the opponent's.
pub const THEIRS: u8 = 8;

/// The kinds a player can hold in hand, in the order of [`Board::hands`].
pub const HAND_KINDS: [u8; 3] = [GIRAFFE, ELEPHANT, CHICK];

/// The steps `(row, column)` of each kind for us (row −1 is forward).
const fn steps(kind: u8) -> &'static [(i8, i8)] {
    match kind {
        LION => &[
            (-1, -1),
            (-1, 0),
            (-1, 1),
            (0, -1),
            (0, 1),
            (1, -1),
            (1, 0),
            (1, 1),
        ],
        GIRAFFE => &[(-1, 0), (0, -1), (0, 1), (1, 0)],
        ELEPHANT => &[(-1, -1), (-1, 1), (1, -1), (1, 1)],
        CHICK => &[(-1, 0)],
        HEN => &[(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, 0)],
        _ => &[],
    }
}

/// `TARGETS[kind][square]`: the squares a piece of ours of `kind` on
/// `square` attacks, as a bit mask.
const TARGETS: [[u16; SQUARES]; 6] = {
    let mut t = [[0u16; SQUARES]; 6];
    let mut kind = 1;
    while kind <= 5 {
        let s = steps(kind as u8);
        let mut sq = 0;
        while sq < SQUARES {
            let (r, c) = ((sq / 3) as i8, (sq % 3) as i8);
            let mut i = 0;
            while i < s.len() {
                let (nr, nc) = (r + s[i].0, c + s[i].1);
                if nr >= 0 && nr < 4 && nc >= 0 && nc < 3 {
                    t[kind][sq] |= 1 << (nr * 3 + nc);
                }
                i += 1;
            }
            sq += 1;
        }
        kind += 1;
    }
    t
};

/// `SOURCES[kind][square]`: the squares from which a piece of ours of
/// `kind` can step onto `square`.
const SOURCES: [[u16; SQUARES]; 6] = {
    let mut s = [[0u16; SQUARES]; 6];
    let mut kind = 1;
    while kind <= 5 {
        let mut from = 0;
        while from < SQUARES {
            let mut to = 0;
            while to < SQUARES {
                if TARGETS[kind][from] & (1 << to) != 0 {
                    s[kind][to] |= 1 << from;
                }
                to += 1;
            }
            from += 1;
        }
        kind += 1;
    }
    s
};

/// The squares a piece of ours of `kind` on `square` attacks.
#[inline]
pub fn targets(kind: u8, square: usize) -> u16 {
    TARGETS[kind as usize][square]
}

/// The row of a square, 0 at the top.
#[inline]
pub const fn row(square: usize) -> usize {
    square / 3
}

/// A position, seen by the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// Each square: 0 if empty, else the kind, plus [`THEIRS`] for the
    /// opponent's pieces.
    pub cells: [u8; SQUARES],
    /// Pieces in hand: `hands[0]` ours, `hands[1]` theirs, each counting
    /// giraffes, elephants and chicks ([`HAND_KINDS`]).
    pub hands: [[u8; 3]; 2],
}

/// A move, as the player to move plays it (squares in that player's view).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    /// The square left, or `None` for a drop.
    pub from: Option<u8>,
    /// The square reached.
    pub to: u8,
    /// The kind moved or dropped (before promotion).
    pub kind: u8,
    /// Whether a chick became a hen.
    pub promotes: bool,
    /// The kind captured on `to`, if any.
    pub captures: Option<u8>,
}

/// The hand slot of a kind that can be held: a captured hen is held as a chick.
#[inline]
fn hand_slot(kind: u8) -> usize {
    match kind {
        GIRAFFE => 0,
        ELEPHANT => 1,
        _ => 2,
    }
}

impl Board {
    /// The opening position: each side's elephant, lion and giraffe on its
    /// home rank (from its own left), its chick in front of the lion.
    pub fn start() -> Board {
        let mut cells = [0u8; SQUARES];
        cells[..3].copy_from_slice(&[GIRAFFE | THEIRS, LION | THEIRS, ELEPHANT | THEIRS]);
        cells[4] = CHICK | THEIRS;
        cells[7] = CHICK;
        cells[9..].copy_from_slice(&[ELEPHANT, LION, GIRAFFE]);
        Board {
            cells,
            hands: [[0; 3]; 2],
        }
    }

    /// The same position seen by the other player: the board turned 180°,
    /// the colours and the hands swapped.
    #[inline]
    pub fn flipped(&self) -> Board {
        let mut cells = [0u8; SQUARES];
        for (i, &c) in self.cells.iter().enumerate() {
            cells[SQUARES - 1 - i] = if c == 0 { 0 } else { c ^ THEIRS };
        }
        Board {
            cells,
            hands: [self.hands[1], self.hands[0]],
        }
    }

    /// The left–right mirror image.
    #[inline]
    pub fn mirrored(&self) -> Board {
        let mut cells = self.cells;
        for r in 0..4 {
            cells.swap(3 * r, 3 * r + 2);
        }
        Board {
            cells,
            hands: self.hands,
        }
    }

    /// How this board's cells compare with its mirror image's, read in
    /// order: `Equal` for a symmetric board. Of two mirror images, the one
    /// that reads `Less` stands for both.
    #[inline]
    pub fn mirror_order(&self) -> std::cmp::Ordering {
        for r in 0..4 {
            let (a, b) = (self.cells[3 * r], self.cells[3 * r + 2]);
            if a != b {
                return a.cmp(&b);
            }
        }
        std::cmp::Ordering::Equal
    }

    /// The square of our lion (`theirs == false`) or theirs, if on the board.
    #[inline]
    pub fn lion(&self, theirs: bool) -> Option<usize> {
        let code = LION | if theirs { THEIRS } else { 0 };
        self.cells.iter().position(|&c| c == code)
    }

    /// The value for the player to move if the game is over: `Win` if we
    /// can capture their lion; `Lose` if their lion stands on our home rank
    /// and we cannot (their "try" succeeded); `None` if play goes on.
    #[inline]
    pub fn terminal(&self) -> Option<Outcome> {
        let mut theirs = SQUARES;
        let mut attacks = 0u16;
        for (sq, &c) in self.cells.iter().enumerate() {
            if c == LION | THEIRS {
                theirs = sq;
            } else if c != 0 && c & THEIRS == 0 {
                attacks |= TARGETS[c as usize][sq];
            }
        }
        if theirs == SQUARES {
            // No lion to capture: not a position of the game.
            return Some(Outcome::Win);
        }
        if attacks & (1 << theirs) != 0 {
            Some(Outcome::Win)
        } else if row(theirs) == 3 {
            Some(Outcome::Lose)
        } else {
            None
        }
    }

    /// Calls `f` with every move of the player to move and the board after
    /// it, seen by the opponent (who moves next). A finished game has no
    /// moves.
    pub fn for_each_move(&self, mut f: impl FnMut(Move, Board)) {
        if self.terminal().is_some() {
            return;
        }
        self.moves_unchecked(&mut f);
    }

    /// The number of moves (0 when the game is over), without building the boards.
    pub fn move_count(&self) -> u32 {
        if self.terminal().is_some() {
            return 0;
        }
        self.count_moves()
    }

    /// The number of moves if the game goes on.
    pub(super) fn count_moves(&self) -> u32 {
        let mut ours = 0u16;
        let mut empty = 0u16;
        for (sq, &c) in self.cells.iter().enumerate() {
            if c == 0 {
                empty |= 1 << sq;
            } else if c & THEIRS == 0 {
                ours |= 1 << sq;
            }
        }
        let mut n = 0;
        for (sq, &c) in self.cells.iter().enumerate() {
            if c != 0 && c & THEIRS == 0 {
                n += (TARGETS[c as usize][sq] & !ours).count_ones();
            }
        }
        let kinds = self.hands[0].iter().filter(|&&k| k > 0).count() as u32;
        n + kinds * empty.count_ones()
    }

    fn moves_unchecked(&self, f: &mut impl FnMut(Move, Board)) {
        for (from, &c) in self.cells.iter().enumerate() {
            if c == 0 || c & THEIRS != 0 {
                continue;
            }
            let mut t = TARGETS[c as usize][from];
            while t != 0 {
                let to = t.trailing_zeros() as usize;
                t &= t - 1;
                let target = self.cells[to];
                if target != 0 && target & THEIRS == 0 {
                    continue;
                }
                let mut b = *self;
                let captures = (target != 0).then_some(target & !THEIRS);
                if let Some(k) = captures {
                    b.hands[0][hand_slot(k)] += 1;
                }
                let promotes = c == CHICK && row(to) == 0;
                b.cells[from] = 0;
                b.cells[to] = if promotes { HEN } else { c };
                let m = Move {
                    from: Some(from as u8),
                    to: to as u8,
                    kind: c,
                    promotes,
                    captures,
                };
                f(m, b.flipped());
            }
        }
        for (slot, &kind) in HAND_KINDS.iter().enumerate() {
            if self.hands[0][slot] == 0 {
                continue;
            }
            for to in 0..SQUARES {
                if self.cells[to] != 0 {
                    continue;
                }
                let mut b = *self;
                b.hands[0][slot] -= 1;
                b.cells[to] = kind;
                let m = Move {
                    from: None,
                    to: to as u8,
                    kind,
                    promotes: false,
                    captures: None,
                };
                f(m, b.flipped());
            }
        }
    }

    /// Calls `f` with every board (seen by its player to move) from which a
    /// move leads to this one: the opponent's last move taken back, a
    /// capture given back, a promotion undone, a drop returned to the hand.
    /// Finished games are left out (they have no moves). Each is listed as
    /// often as moves from it lead here.
    pub fn for_each_unmove(&self, mut f: impl FnMut(Board)) {
        // Seen by the player who just moved.
        let after = self.flipped();
        // Whether a board before is over depends only on what attacks their
        // lion, which the reverse move does not move: over if it stands on
        // our home rank (then every board before is over) or if one of our
        // pieces attacks it.
        let Some(lion) = after.lion(true) else {
            return;
        };
        if row(lion) == 3 {
            return;
        }
        let lion_bit = 1u16 << lion;
        let mut attackers = 0u16;
        for (sq, &c) in after.cells.iter().enumerate() {
            if c != 0 && c & THEIRS == 0 && TARGETS[c as usize][sq] & lion_bit != 0 {
                attackers |= 1 << sq;
            }
        }
        for (to, &c) in after.cells.iter().enumerate() {
            if c == 0 || c & THEIRS != 0 || attackers & !(1 << to) != 0 {
                // Not ours, or another of our pieces attacks their lion
                // whatever this one did.
                continue;
            }
            // The kinds this piece could have had before the move: a hen on
            // the far rank may be a chick just promoted; a chick on the far
            // rank can only have been dropped there.
            let before: &[u8] = match c {
                HEN if row(to) == 0 => &[HEN, CHICK],
                CHICK if row(to) == 0 => &[],
                _ => std::slice::from_ref(&after.cells[to]),
            };
            for &kind in before {
                let mut s = SOURCES[kind as usize][to];
                while s != 0 {
                    let from = s.trailing_zeros() as usize;
                    s &= s - 1;
                    if after.cells[from] != 0 || TARGETS[kind as usize][from] & lion_bit != 0 {
                        // Taken, or the piece attacked their lion from there.
                        continue;
                    }
                    let mut b = after;
                    b.cells[to] = 0;
                    b.cells[from] = kind;
                    // Nothing was captured...
                    debug_assert!(b.terminal().is_none());
                    f(b);
                    // ...or a piece now in our hand stood on `to`.
                    for (slot, &held) in HAND_KINDS.iter().enumerate() {
                        if after.hands[0][slot] == 0 {
                            continue;
                        }
                        let mut u = b;
                        u.hands[0][slot] -= 1;
                        u.cells[to] = held | THEIRS;
                        f(u);
                        if held == CHICK {
                            u.cells[to] = HEN | THEIRS;
                            f(u);
                        }
                    }
                }
            }
            if matches!(c, GIRAFFE | ELEPHANT | CHICK) {
                let mut b = after;
                b.cells[to] = 0;
                b.hands[0][hand_slot(c)] += 1;
                debug_assert!(b.terminal().is_none());
                f(b);
            }
        }
    }

    /// How many of our pieces attack their lion: the captures that end the
    /// game (0 if their lion is out of reach).
    pub fn lion_captures(&self) -> u32 {
        let Some(lion) = self.lion(true) else {
            return 0;
        };
        let mut n = 0;
        for (sq, &c) in self.cells.iter().enumerate() {
            if c != 0 && c & THEIRS == 0 && TARGETS[c as usize][sq] & (1 << lion) != 0 {
                n += 1;
            }
        }
        n
    }

    /// Calls `f` with every capture of their lion (the moves that end the
    /// game, [`Board::lion_captures`] of them).
    pub fn for_each_lion_capture(&self, mut f: impl FnMut(Move)) {
        let Some(lion) = self.lion(true) else {
            return;
        };
        for (sq, &c) in self.cells.iter().enumerate() {
            if c != 0 && c & THEIRS == 0 && TARGETS[c as usize][sq] & (1 << lion) != 0 {
                f(Move {
                    from: Some(sq as u8),
                    to: lion as u8,
                    kind: c,
                    promotes: c == CHICK && row(lion) == 0,
                    captures: Some(LION),
                });
            }
        }
    }

    /// Whether the board is a position of the game: one lion each, no more
    /// than two of any other kind in all, and the pieces in hand held as
    /// giraffes, elephants and chicks.
    pub fn is_valid(&self) -> bool {
        let mut lions = [0; 2];
        let mut kinds = [0u8; 3];
        for &c in &self.cells {
            match c & !THEIRS {
                0 => {}
                LION => lions[usize::from(c & THEIRS != 0)] += 1,
                k @ (GIRAFFE | ELEPHANT | CHICK | HEN) => kinds[hand_slot(k)] += 1,
                _ => return false,
            }
        }
        for h in &self.hands {
            for (k, &n) in kinds.iter_mut().zip(h) {
                *k = k.saturating_add(n);
            }
        }
        let no_stray = self.cells.iter().all(|&c| c & !(THEIRS | 7) == 0);
        lions == [1, 1] && kinds.iter().all(|&k| k <= 2) && no_stray
    }

    /// How many pieces of each holdable kind (giraffes, elephants, chicks
    /// and hens) the board has, on it and in hand.
    pub fn piece_counts(&self) -> [u8; 3] {
        let mut kinds = [0u8; 3];
        for &c in &self.cells {
            if matches!(c & !THEIRS, GIRAFFE | ELEPHANT | CHICK | HEN) {
                kinds[hand_slot(c & !THEIRS)] += 1;
            }
        }
        for h in &self.hands {
            for (k, &n) in kinds.iter_mut().zip(h) {
                *k += n;
            }
        }
        kinds
    }
}
