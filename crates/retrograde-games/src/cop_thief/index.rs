//! How positions are numbered: free cells only, the piece that just moved as
//! the minor index, and a fast exact division to decode.

use super::{CopThief, Side, State};
use retrograde::graph::NONE;

/// Exact division of `u32`s by a fixed divisor with one 128-bit multiply
/// (D. Lemire, O. Kaser, N. Kurz, "Faster remainder by direct computation",
/// 2019): decoding a position is the hot path of the solve.
#[derive(Clone, Copy, Debug)]
pub(super) struct Divisor {
    d: u32,
    m: u64,
}

impl Divisor {
    pub(super) fn new(d: u32) -> Divisor {
        assert!(d > 0);
        // For d = 1 the reciprocal 2^64 does not fit; m = 0 is special-cased.
        let m = if d == 1 {
            0
        } else {
            u64::MAX / u64::from(d) + 1
        };
        Divisor { d, m }
    }

    /// `(a / d, a % d)`.
    #[inline]
    pub(super) fn div_rem(self, a: u32) -> (u32, u32) {
        if self.m == 0 {
            return (a, 0);
        }
        let q = ((u128::from(self.m) * u128::from(a)) >> 64) as u32;
        (q, a - q * self.d)
    }
}

/// Neighbour lists of the free cells, in CSR form (each list includes the
/// cell itself: passing).
#[derive(Clone, Debug)]
pub(super) struct Adjacency {
    pub(super) offsets: Vec<u32>,
    pub(super) cells: Vec<u32>,
}

impl Adjacency {
    #[inline]
    pub(super) fn of(&self, cell: u32) -> &[u32] {
        &self.cells[self.offsets[cell as usize] as usize..self.offsets[cell as usize + 1] as usize]
    }
}

impl CopThief {
    /// The position with the cop and the thief on these cells (`(row, column)`)
    /// and `to_move` to move; `None` if a cell is a wall or off the board.
    pub fn position(
        &self,
        cop: (usize, usize),
        thief: (usize, usize),
        to_move: Side,
    ) -> Option<u32> {
        let at = |(r, c): (usize, usize)| {
            (r < self.board.rows() && c < self.board.cols())
                .then(|| self.index[r * self.board.cols() + c])
                .filter(|&i| i != NONE)
        };
        Some(self.encode(at(cop)?, at(thief)?, to_move))
    }

    /// Position `p` spelled out. Panics if `p` is not a position.
    pub fn state(&self, p: u32) -> State {
        let (c, t, side) = self.decode(p);
        let cell = |i: u32| {
            let (r, c) = self.coords[i as usize];
            (r as usize, c as usize)
        };
        State {
            cop: cell(c),
            thief: cell(t),
            to_move: side,
        }
    }

    #[inline]
    pub(super) fn encode(&self, cop: u32, thief: u32, side: Side) -> u32 {
        match side {
            Side::Cop => thief * self.free + cop,
            Side::Thief => self.half + cop * self.free + thief,
        }
    }

    #[inline]
    pub(super) fn decode(&self, p: u32) -> (u32, u32, Side) {
        if p < self.half {
            let (thief, cop) = self.by_free.div_rem(p);
            (cop, thief, Side::Cop)
        } else {
            let (cop, thief) = self.by_free.div_rem(p - self.half);
            (cop, thief, Side::Thief)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_division_is_exact() {
        for d in [1u32, 2, 3, 7, 1368, 8500, 10_000, 46_340, u32::MAX] {
            let div = Divisor::new(d);
            let mut a = 0u32;
            for step in [1u32, 7, 9_999, 1 << 20] {
                for _ in 0..2000 {
                    assert_eq!(div.div_rem(a), (a / d, a % d), "{a} / {d}");
                    a = a.wrapping_add(step);
                }
            }
            for a in [u32::MAX, u32::MAX - 1, d.wrapping_mul(d), d - 1] {
                assert_eq!(div.div_rem(a), (a / d, a % d), "{a} / {d}");
            }
        }
    }
}
