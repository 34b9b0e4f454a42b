//! The last step of the engines that store best moves: every position still
//! undecided is a draw, and each draw with moves gets its best move, the
//! draw successor of greatest [`rank`](crate::kernel::rank): the one of
//! smallest id.
//!
//! The engines keep reverse edges only, so the draws are scanned in
//! increasing id and each hands itself to its predecessors still without a
//! move: the first to reach a position is its best move. What is read per
//! edge is one bit, of a bitset of the positions still without a move (an
//! eighth of the state array, so it stays in cache where the state would
//! not), and the test is branch-free: hits are appended to a small buffer
//! and written out in batches.
//!
//! On two threads or more the draws are split in two halves of ids, scanned
//! at once, each against its own copy of the bitset. The lower half writes
//! its moves in place, the upper half into the draws' remoteness (unused
//! until the end); the lower half's move is final, and where it found none
//! the upper half's counts. Same answer as one scan: the smallest draw
//! successor.
//!
//! Time **O(V + E)**. Memory: `V / 8` bytes per bitset, one per half.

use rayon::prelude::*;

use crate::graph::NONE;
use crate::kernel::{self, DRAW, UNDECIDED};
use crate::{GameGraph, Progress};

/// Hits buffered before they are written out.
const BATCH: usize = 4096;

/// Marks undecided positions as draws and gives each its best move, in one
/// scan.
pub(crate) fn finish_draws<G: GameGraph + ?Sized>(
    g: &G,
    state: &mut [u8],
    rem: &mut [u32],
    best: &mut [u32],
    progress: &dyn Progress,
) {
    let mut need = prepare(state, rem, best);
    scan(g, 0..state.len(), state, &mut need, progress, |hits| {
        write(best, hits)
    });
    mark_draws(state);
}

/// [`finish_draws`], the scan split in two halves scanned at once (see the
/// module docs).
pub(crate) fn finish_draws_parallel<G: GameGraph + Sync + ?Sized>(
    g: &G,
    state: &mut [u8],
    rem: &mut [u32],
    best: &mut [u32],
    progress: &dyn Progress,
) {
    let n = state.len();
    let mut need = prepare(state, rem, best);
    let mut upper_need = need.clone();
    let mid = n / 2;
    let st = &*state;
    // The upper half's moves go where the draws' remoteness will be: unused
    // until the end, and written by that half alone.
    rayon::join(
        || scan(g, 0..mid, st, &mut need, progress, |hits| write(best, hits)),
        || {
            scan(g, mid..n, st, &mut upper_need, progress, |hits| {
                write(rem, hits)
            })
        },
    );
    drop((need, upper_need));
    for_each_undecided(state, rem, best, |rem, best| {
        if *best == NONE {
            *best = *rem;
        }
        *rem = NONE;
    });
    mark_draws(state);
}

/// Clears the remoteness and move of the undecided positions; returns
/// their bitset.
fn prepare(state: &[u8], rem: &mut [u32], best: &mut [u32]) -> Vec<u64> {
    for_each_undecided(state, rem, best, |rem, best| {
        *rem = NONE;
        *best = NONE;
    });
    undecided_bits(state)
}

/// Runs `f` on the remoteness and move of every undecided position, on all threads.
fn for_each_undecided(
    state: &[u8],
    rem: &mut [u32],
    best: &mut [u32],
    f: impl Fn(&mut u32, &mut u32) + Sync,
) {
    rem.par_chunks_mut(1 << 16)
        .zip(best.par_chunks_mut(1 << 16))
        .zip(state.par_chunks(1 << 16))
        .for_each(|((rem, best), state)| {
            for ((r, b), &s) in rem.iter_mut().zip(best.iter_mut()).zip(state) {
                if s == UNDECIDED {
                    f(r, b);
                }
            }
        });
}

/// Every undecided position is a draw ([`kernel::undecided_to_draw`]).
fn mark_draws(state: &mut [u8]) {
    state
        .par_iter_mut()
        .with_min_len(1 << 16)
        .for_each(|s| *s = kernel::undecided_to_draw(*s));
}

/// One bit per position, set for the undecided ones.
fn undecided_bits(state: &[u8]) -> Vec<u64> {
    state
        .par_chunks(64)
        .with_min_len(1 << 10)
        .map(|c| {
            c.iter()
                .enumerate()
                .fold(0u64, |w, (i, &s)| w | u64::from(s == UNDECIDED) << i)
        })
        .collect()
}

fn write(best: &mut [u32], hits: &[(u32, u32)]) {
    for &(p, d) in hits {
        best[p as usize] = d;
    }
}

/// Hands each draw in `range` (labelled or undecided) (in increasing id) to its predecessors whose
/// bit in `need` is set, clearing the bit; `sink` gets the `(position,
/// move)` pairs in batches, in the order they were found. Reports each
/// draw to `progress` as it goes.
fn scan<G: GameGraph + ?Sized>(
    g: &G,
    range: std::ops::Range<usize>,
    state: &[u8],
    need: &mut [u64],
    progress: &dyn Progress,
    mut sink: impl FnMut(&[(u32, u32)]),
) {
    let mut buf = vec![(0u32, 0u32); BATCH];
    let mut k = 0;
    let mut draws = 0u64;
    for d in range {
        if d % (1 << 16) == 0 {
            progress.advance(draws);
            draws = 0;
        }
        if state[d] < DRAW {
            continue;
        }
        draws += 1;
        g.for_each_predecessor(d as u32, |p| {
            let (w, shift) = (p as usize >> 6, p & 63);
            let word = need[w];
            let hit = (word >> shift) & 1;
            need[w] = word & !(hit << shift);
            buf[k] = (p, d as u32);
            k += hit as usize;
            if k == BATCH {
                sink(&buf);
                k = 0;
            }
        });
    }
    sink(&buf[..k]);
    progress.advance(draws);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Csr;
    use crate::kernel::{ABSENT, LOSE, TIE, WIN};
    use proptest::prelude::*;

    /// Edges and a state per position, some undecided, with garbage in the
    /// remoteness and moves of the undecided ones (the engines leave some).
    fn case() -> impl Strategy<Value = (usize, Vec<(u32, u32)>, Vec<u8>)> {
        (1usize..200).prop_flat_map(|n| {
            let edge = (0..n as u32, 0..n as u32);
            let code = prop_oneof![
                4 => Just(UNDECIDED),
                1 => Just(DRAW),
                1 => Just(WIN),
                1 => Just(LOSE),
                1 => Just(TIE),
                1 => Just(ABSENT),
            ];
            (
                Just(n),
                proptest::collection::vec(edge, 0..n * 4),
                proptest::collection::vec(code, n),
            )
        })
    }

    fn run(split: bool, g: &Csr, state: &[u8]) -> (Vec<u8>, Vec<u32>, Vec<u32>) {
        let (mut s, mut rem, mut best) =
            (state.to_vec(), vec![7; state.len()], vec![9; state.len()]);
        if split {
            finish_draws_parallel(g, &mut s, &mut rem, &mut best, &crate::NoProgress);
        } else {
            finish_draws(g, &mut s, &mut rem, &mut best, &crate::NoProgress);
        }
        (s, rem, best)
    }

    proptest! {
        #[test]
        fn draws_get_their_smallest_draw_successor_split_or_not((n, edges, state) in case()) {
            let g = Csr::from_edges(n, &edges);
            let (s, rem, best) = run(false, &g, &state);
            for v in 0..n {
                if state[v] == UNDECIDED {
                    let want = edges
                        .iter()
                        .filter(|&&(u, d)| u as usize == v && state[d as usize] >= DRAW)
                        .map(|&(_, d)| d)
                        .min()
                        .unwrap_or(NONE);
                    prop_assert_eq!(s[v], DRAW);
                    prop_assert_eq!(rem[v], NONE);
                    prop_assert_eq!(best[v], want, "position {}", v);
                } else {
                    prop_assert_eq!((s[v], rem[v], best[v]), (state[v], 7, 9));
                }
            }
            prop_assert_eq!(run(true, &g, &state), (s, rem, best));
        }
    }
}
