//! The lean layout: how the lean engine ([`solve_lean`](super::solve_lean))
//! and the timely engine's games (`retrograde_timely::solve_graph`) keep a
//! position in one state byte while it is undecided, written once for both.
//!
//! A decided position's byte is its final code ([`WIN`](crate::kernel::WIN),
//! [`LOSE`], [`TIE`](crate::kernel::TIE), [`DRAW`](crate::kernel::DRAW) for a labelled
//! draw, [`ABSENT`](crate::kernel::ABSENT)). An undecided one keeps its move
//! counter (its moves not yet known to reach a win for the opponent) in one
//! of two ways, chosen once for the whole solve:
//!
//! - **[`Packed`]**, when every out-degree is at most [`PACKED_MAX_DEGREE`]:
//!   the byte is `UNDECIDED + c` for `c` moves left ([`pack`], [`unpack`]).
//!   The codes above [`UNDECIDED`] are the ones the
//!   [`kernel`](crate::kernel) leaves free for this.
//! - **[`Wide`]**, otherwise: the byte is [`UNDECIDED`] and the counters are
//!   `u32`s beside it, 4 bytes more a position. [`widen`] moves counters
//!   already packed there when a large degree turns up.
//!
//! Both are [`Counters`], whose [`Counters::apply`] is the kernel's rule
//! ([`kernel::effect`](crate::kernel::effect)) for one position. What is still undecided at the end,
//! packed or not, is a draw: [`kernel::undecided_to_draw`](crate::kernel::undecided_to_draw).
//!
//! ```
//! use retrograde::kernel::{self, Start, LOSE, WIN};
//! use retrograde::solve::layout::{pack, Counters, Packed};
//! // An open position of two moves: both must reach a win before it loses.
//! let mut s = pack(Start::open(2)).unwrap();
//! assert!(!Packed.apply(&mut s, 0, kernel::effect(WIN)));
//! assert!(Packed.apply(&mut s, 0, kernel::effect(WIN)));
//! assert_eq!(s, LOSE);
//! // Decided positions are not touched again.
//! assert!(!Packed.apply(&mut s, 0, kernel::effect(LOSE)));
//! ```

use crate::kernel::{Effect, LOSE, Start, UNDECIDED};

/// The largest out-degree whose move counter fits in the state byte: codes
/// `UNDECIDED + 1 ..= 255` hold the counters `1..=250`.
pub const PACKED_MAX_DEGREE: u32 = (u8::MAX - UNDECIDED) as u32;

/// The state byte a position starts with, its counter packed: `start.code`
/// for a terminal or absent position, `UNDECIDED + moves` for an open one;
/// `None` for an open one of more than [`PACKED_MAX_DEGREE`] moves (the solve
/// then needs [`Wide`] counters).
///
/// ```
/// use retrograde::kernel::{Start, UNDECIDED};
/// use retrograde::solve::layout::{pack, unpack, PACKED_MAX_DEGREE};
/// use retrograde::Outcome;
/// assert_eq!(pack(Start::terminal(Outcome::Win)), Some(Outcome::Win as u8));
/// assert_eq!(pack(Start::open(3)), Some(UNDECIDED + 3));
/// assert_eq!(pack(Start::open(PACKED_MAX_DEGREE)).and_then(unpack), Some(PACKED_MAX_DEGREE));
/// assert_eq!(pack(Start::open(PACKED_MAX_DEGREE + 1)), None);
/// ```
#[inline]
pub fn pack(start: Start) -> Option<u8> {
    if !start.is_open() {
        Some(start.code)
    } else if start.moves <= PACKED_MAX_DEGREE {
        Some(UNDECIDED + start.moves as u8)
    } else {
        None
    }
}

/// The moves left of an undecided position whose byte `code` packs its
/// counter; `None` for any other code (decided, or [`UNDECIDED`] with the
/// counter held elsewhere).
#[inline]
pub fn unpack(code: u8) -> Option<u32> {
    (code > UNDECIDED).then(|| u32::from(code - UNDECIDED))
}

/// Moves the packed counters of `state` into `counters`, position by
/// position, leaving their bytes [`UNDECIDED`]: the [`Wide`] layout, once
/// some degree exceeds [`PACKED_MAX_DEGREE`]. The counters of other
/// positions, and positions past the shorter slice, are left as they are.
pub fn widen(state: &mut [u8], counters: &mut [u32]) {
    for (s, c) in state.iter_mut().zip(counters) {
        if let Some(moves) = unpack(*s) {
            *c = moves;
            *s = UNDECIDED;
        }
    }
}

/// Where the move counters of undecided positions live: in the state byte
/// ([`Packed`]) or beside it ([`Wide`]). Position `v`'s byte is passed
/// alone, so that an engine keeps its bytes however it likes.
pub trait Counters {
    /// Whether a position whose state byte is `code` is undecided.
    fn is_open(&self, code: u8) -> bool;

    /// Counts down one move of undecided position `v`, whose state byte is
    /// `state`: true when it was its last (the position then loses).
    /// Nothing happens to a position that is not undecided (false).
    fn count_down(&mut self, state: &mut u8, v: usize) -> bool;

    /// The kernel's rule for position `v`, whose state byte is `state`: a
    /// successor has been decided, with `effect` ([`kernel::effect`] of its
    /// code). True if this decides `v`: its byte is then final (a win or tie
    /// at once, or a loss once its last move is counted down), its
    /// remoteness one more than the successor's. A position already decided
    /// is left as it is.
    ///
    /// [`kernel::effect`]: crate::kernel::effect
    #[inline(always)]
    fn apply(&mut self, state: &mut u8, v: usize, effect: Effect) -> bool {
        if !self.is_open(*state) {
            return false;
        }
        match effect {
            Effect::Decide(to) => *state = to,
            Effect::CountDown if self.count_down(state, v) => *state = LOSE,
            _ => return false,
        }
        true
    }
}

/// Counters in the state byte: code `UNDECIDED + c` for `c` moves left.
#[derive(Clone, Copy, Debug, Default)]
pub struct Packed;

impl Counters for Packed {
    #[inline(always)]
    fn is_open(&self, code: u8) -> bool {
        code > UNDECIDED
    }

    #[inline(always)]
    fn count_down(&mut self, state: &mut u8, _v: usize) -> bool {
        if !self.is_open(*state) {
            return false;
        }
        *state -= 1;
        *state == UNDECIDED
    }
}

/// Counters in their own `u32` array, indexed by position; the state byte of
/// an undecided position is [`UNDECIDED`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Wide(pub Vec<u32>);

impl Counters for Wide {
    #[inline(always)]
    fn is_open(&self, code: u8) -> bool {
        code == UNDECIDED
    }

    /// As the trait says; a position past the counters is not counted down
    /// (false).
    #[inline(always)]
    fn count_down(&mut self, state: &mut u8, v: usize) -> bool {
        if !self.is_open(*state) {
            return false;
        }
        match self.0.get_mut(v) {
            Some(c) => {
                *c = c.saturating_sub(1);
                *c == 0
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Outcome;
    use crate::kernel::{self, ABSENT, DRAW, Start, TIE, WIN};

    #[test]
    fn every_packable_degree_round_trips_and_one_more_does_not() {
        for moves in 1..=PACKED_MAX_DEGREE {
            let code = pack(Start::open(moves)).unwrap();
            assert!(Packed.is_open(code));
            assert_eq!(unpack(code), Some(moves));
        }
        assert_eq!(pack(Start::open(PACKED_MAX_DEGREE + 1)), None);
        for code in [WIN, LOSE, TIE, ABSENT, DRAW, UNDECIDED] {
            assert_eq!(unpack(code), None, "{code}");
            assert!(!Packed.is_open(code), "{code}");
        }
        assert_eq!(pack(Start::ABSENT), Some(ABSENT));
        assert_eq!(pack(Start::terminal(Outcome::Tie)), Some(TIE));
    }

    #[test]
    fn packed_and_wide_counters_decide_alike() {
        // The same reports to a position of three moves, in both layouts.
        let reports = [WIN, DRAW, WIN, WIN, LOSE];
        let mut packed = pack(Start::open(3)).unwrap();
        let mut wide_state = UNDECIDED;
        let mut wide = Wide(vec![0, 3]);
        for (k, &code) in reports.iter().enumerate() {
            let effect = kernel::effect(code);
            let a = Packed.apply(&mut packed, 1, effect);
            let b = wide.apply(&mut wide_state, 1, effect);
            assert_eq!(a, b, "report {k}");
            assert_eq!(a, k == 3, "report {k}");
        }
        assert_eq!((packed, wide_state), (LOSE, LOSE));
        // A win decides at once, a tie too.
        for (code, to) in [(LOSE, WIN), (TIE, TIE)] {
            let mut s = pack(Start::open(7)).unwrap();
            assert!(Packed.apply(&mut s, 0, kernel::effect(code)));
            assert_eq!(s, to);
        }
    }

    #[test]
    fn widen_moves_only_packed_counters() {
        let mut state = [
            pack(Start::open(4)).unwrap(),
            WIN,
            UNDECIDED,
            pack(Start::open(PACKED_MAX_DEGREE)).unwrap(),
        ];
        let mut counters = [0, 0, 300, 0];
        widen(&mut state, &mut counters);
        assert_eq!(state, [UNDECIDED, WIN, UNDECIDED, UNDECIDED]);
        assert_eq!(counters, [4, 0, 300, PACKED_MAX_DEGREE]);
    }

    #[test]
    fn counting_down_what_is_not_open_changes_nothing() {
        let mut s = WIN;
        assert!(!Packed.count_down(&mut s, 0));
        assert_eq!(s, WIN);
        let mut wide = Wide(vec![2]);
        let mut s = UNDECIDED;
        assert!(!wide.count_down(&mut s, 5));
        let mut s = LOSE;
        assert!(!wide.count_down(&mut s, 0));
        assert_eq!(wide.0, [2]);
    }
}
