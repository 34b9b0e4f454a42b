//! A number for every board: a dense but not exact numbering, the index
//! space the reachable positions are picked from.
//!
//! The two lions first: our lion's square (12) and theirs among the 11 left,
//! 132 pairs. The other squares, 10, are then renumbered in order (a piece's
//! *free square*). Each piece of another kind has a state: for a giraffe or
//! an elephant, ours or theirs on one of 10 free squares or in our hand or
//! theirs (22 states); for a chick, the same with chick or hen on the board
//! (42 states). Two pieces of a kind are interchangeable, so the pair is
//! numbered as a multiset (`C(s + 1, 2)` pairs of `s` states). The number of
//! a board is the mixed-radix number of its lion pair, giraffes, elephants
//! and chicks: 132 · 253 · 253 · 903 = 7,629,616,764 numbers for the full
//! set of pieces, of which some are not boards (two pieces on one square).

use super::board::{Board, CHICK, ELEPHANT, GIRAFFE, HAND_KINDS, HEN, LION, SQUARES, THEIRS};

/// States of a giraffe or an elephant, and of a chick.
const STATES: [u64; 3] = [22, 22, 42];

/// The slot of each cell code: 0 giraffes, 1 elephants, 2 chicks and hens,
/// 3 anything else (empty, lions, codes that are no piece).
const SLOT: [u8; 16] = {
    let mut t = [3u8; 16];
    let mut c = 0;
    while c < 16 {
        t[c] = match (c as u8) & !THEIRS {
            GIRAFFE => 0,
            ELEPHANT => 1,
            CHICK | HEN => 2,
            _ => 3,
        };
        c += 1;
    }
    t
};

/// The state of a piece of each cell code on free square 0: ours, theirs,
/// and for chicks, chick or hen.
const BASE: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut c = 0;
    while c < 16 {
        let theirs = (c as u8) & THEIRS != 0;
        t[c] = match (c as u8) & !THEIRS {
            GIRAFFE | ELEPHANT => 10 * theirs as u8,
            CHICK => 20 * theirs as u8,
            HEN => 10 + 20 * theirs as u8,
            _ => 0,
        };
        c += 1;
    }
    t
};

/// `FREE[lions]`: the 10 squares without a lion, for each pair of lion
/// squares numbered as in the module docs.
const FREE: [[u8; 10]; 132] = {
    let mut t = [[0u8; 10]; 132];
    let mut ours = 0;
    while ours < 12 {
        let mut theirs = 0;
        while theirs < 12 {
            if theirs != ours {
                let i = ours * 11 + theirs - (theirs > ours) as usize;
                let mut k = 0;
                let mut sq = 0;
                while sq < 12 {
                    if sq != ours && sq != theirs {
                        t[i][k] = sq as u8;
                        k += 1;
                    }
                    sq += 1;
                }
            }
            theirs += 1;
        }
        ours += 1;
    }
    t
};

/// The squares of a board read left–right mirrored.
pub const MIRROR: [u8; SQUARES] = [2, 1, 0, 5, 4, 3, 8, 7, 6, 11, 10, 9];
/// The squares as they are.
pub const IDENTITY: [u8; SQUARES] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];

/// The numbering for a set of pieces: how many giraffes, elephants and
/// chicks (0, 1 or 2 of each) the game has besides the two lions.
#[derive(Clone, Debug)]
pub struct Numbering {
    counts: [u8; 3],
    /// The number of multisets of each kind.
    sizes: [u64; 3],
    /// The numbers for each lion pair: the product of `sizes`.
    inner: u64,
    total: u64,
    /// The pairs `(a, b)`, `a <= b`, in the order of their numbers, for 22
    /// and 42 states.
    pairs: [Vec<(u8, u8)>; 2],
}

fn multisets(states: u64, k: u8) -> u64 {
    match k {
        0 => 1,
        1 => states,
        _ => states * (states + 1) / 2,
    }
}

impl Numbering {
    /// The numbering for `counts` giraffes, elephants and chicks (each at most 2).
    pub fn new(counts: [u8; 3]) -> Numbering {
        let sizes = [0, 1, 2].map(|k| multisets(STATES[k], counts[k].min(2)));
        let inner = sizes.iter().product::<u64>();
        let total = 132 * inner;
        let pairs_of = |s: u8| {
            (0..s)
                .flat_map(|b| (0..=b).map(move |a| (a, b)))
                .collect::<Vec<_>>()
        };
        Numbering {
            counts,
            sizes,
            inner,
            total,
            pairs: [pairs_of(22), pairs_of(42)],
        }
    }

    /// Giraffes, elephants and chicks in the game.
    pub fn counts(&self) -> [u8; 3] {
        self.counts
    }

    /// How many numbers there are: every board of these pieces has one below.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The number of `b` read through `map` (a square of the board read is
    /// `map[square]`): [`IDENTITY`] or [`MIRROR`]. `b` must have this
    /// numbering's pieces.
    #[inline]
    pub fn number_mapped(&self, b: &Board, map: &[u8; SQUARES]) -> u64 {
        // One pass over the squares, free of branches: the lions' squares,
        // and each piece's state with its square as read (slot 3 takes what
        // is not a piece of a kind: empty squares, lions).
        let mut ours = 0usize;
        let mut theirs = 0usize;
        let mut states = [[0u8; 2]; 4];
        let mut squares = [[0u8; 2]; 4];
        let mut found = [0usize; 4];
        for (sq, &c) in b.cells.iter().enumerate() {
            let m = map[sq];
            ours = if c == LION { m as usize } else { ours };
            theirs = if c == LION | THEIRS {
                m as usize
            } else {
                theirs
            };
            let slot = SLOT[c as usize] as usize;
            let k = found[slot] & 1;
            states[slot][k] = BASE[c as usize];
            squares[slot][k] = m;
            found[slot] += 1;
        }
        let lions = ours * 11 + theirs - usize::from(theirs > ours);
        // The squares become free squares: less one for each lion before.
        for slot in 0..3 {
            for k in 0..found[slot].min(2) {
                let m = squares[slot][k] as usize;
                states[slot][k] += (m - usize::from(ours < m) - usize::from(theirs < m)) as u8;
            }
        }
        for (slot, &size) in STATES.iter().enumerate() {
            let hand_state = (size - 2) as u8;
            for (side, &held) in [b.hands[0][slot], b.hands[1][slot]].iter().enumerate() {
                for _ in 0..held {
                    states[slot][found[slot] & 1] = hand_state + side as u8;
                    found[slot] += 1;
                }
            }
        }
        let mut n = lions as u64;
        for (slot, &[a, c]) in states[..3].iter().enumerate() {
            let i = match self.counts[slot] {
                0 => 0,
                1 => a as u64,
                _ => {
                    let (lo, hi) = (a.min(c) as u64, a.max(c) as u64);
                    hi * (hi + 1) / 2 + lo
                }
            };
            n = n * self.sizes[slot] + i;
        }
        n
    }

    /// The number of `b` as it stands.
    #[inline]
    pub fn number(&self, b: &Board) -> u64 {
        self.number_mapped(b, &IDENTITY)
    }

    /// The board numbered `n`, if `n` is a board (below [`Numbering::total`],
    /// no two pieces on a square).
    pub fn board(&self, n: u64) -> Option<Board> {
        if n >= self.total {
            return None;
        }
        // The lion pair, then the rest in 32 bits (57,800,127 at most).
        let lions = (n / self.inner) as usize;
        let mut rest = (n % self.inner) as u32;
        let mut states = [[0u8; 2]; 3];
        for slot in (0..3).rev() {
            let size = self.sizes[slot] as u32;
            let i = rest % size;
            rest /= size;
            states[slot] = match self.counts[slot] {
                0 => [0, 0],
                1 => [i as u8, 0],
                _ => {
                    let (a, b) = self.pairs[usize::from(slot == 2)][i as usize];
                    [a, b]
                }
            };
        }
        let ours = lions / 11;
        let t = lions % 11;
        let theirs = t + usize::from(t >= ours);
        let free = &FREE[lions];
        let mut b = Board {
            cells: [0; SQUARES],
            hands: [[0; 3]; 2],
        };
        b.cells[ours] = LION;
        b.cells[theirs] = LION | THEIRS;
        for slot in 0..3 {
            let hand_state = (STATES[slot] - 2) as u8;
            for &s in &states[slot][..self.counts[slot] as usize] {
                if s >= hand_state {
                    b.hands[usize::from(s > hand_state)][slot] += 1;
                    continue;
                }
                let sq = free[(s % 10) as usize] as usize;
                if b.cells[sq] != 0 {
                    return None;
                }
                let group = s / 10;
                b.cells[sq] = if slot < 2 {
                    HAND_KINDS[slot] | if group == 1 { THEIRS } else { 0 }
                } else {
                    let kind = if group % 2 == 1 { HEN } else { CHICK };
                    kind | if group >= 2 { THEIRS } else { 0 }
                };
            }
        }
        Some(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_full_set_has_the_documented_number_of_numbers() {
        assert_eq!(Numbering::new([2, 2, 2]).total(), 7_629_616_764);
        assert_eq!(Numbering::new([0, 0, 2]).total(), 132 * 903);
        assert_eq!(Numbering::new([1, 0, 0]).total(), 132 * 22);
    }

    #[test]
    fn numbers_and_boards_are_inverse() {
        for counts in [[2, 2, 2], [0, 1, 2], [1, 0, 1], [0, 0, 0]] {
            let nb = Numbering::new(counts);
            let step = (nb.total() / 100_003).max(1);
            let mut boards = 0;
            for n in (0..nb.total()).step_by(step as usize) {
                if let Some(b) = nb.board(n) {
                    boards += 1;
                    assert!(b.is_valid(), "{b:?}");
                    assert_eq!(b.piece_counts(), counts);
                    assert_eq!(nb.number(&b), n, "{b:?}");
                }
            }
            assert!(boards > 0);
        }
        let nb = Numbering::new([2, 2, 2]);
        let start = Board::start();
        assert_eq!(nb.board(nb.number(&start)), Some(start));
        let m = start.mirrored();
        assert_eq!(nb.number_mapped(&start, &MIRROR), nb.number(&m));
    }
}
