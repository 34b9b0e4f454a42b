//! The parallel engine: the same analysis, level by level, on all cores.

use std::sync::atomic::{AtomicU32, AtomicU64, AtomicU8, Ordering::Relaxed};

use rayon::prelude::*;

use super::{check_labels, NoProgress, Progress, Solution, DRAW, LOSE, UNDECIDED, WIN};
use crate::error::Result;
use crate::graph::NONE;
use crate::{GameGraph, Rules};

/// Set in a position's key once a `Lose` successor has been found: it is a `Win`.
const WIN_BIT: u64 = 1 << 63;
/// Frontier positions handled per task.
const CHUNK: usize = 1024;

/// [`solve`](super::solve) on all threads of the current rayon pool, with the
/// same result: identical outcomes, remoteness and best moves.
///
/// Processes one ply of remoteness at a time. Level `r` holds the positions
/// decided with remoteness `r`; walking their moves backwards in parallel, a
/// `Lose` position marks each undecided predecessor as a `Win`, a `Win`
/// position decrements the predecessor's counter (zero: a `Lose`). Each
/// position is decided once, by whichever thread's atomic update claims it.
/// Best moves do not depend on which thread wins: each undecided position
/// keeps one 64-bit key, raised with `fetch_max`, that orders its candidate
/// moves exactly as the tie rules of [`Solution`] do: any `Lose` successor
/// beats every `Win` one, then greater remoteness, then smaller id. Draws
/// get their moves from one sequential scan of their reverse edges at the end.
///
/// # Complexity
/// Time **O(V + E)** work, in `R + 1` parallel rounds for a longest
/// remoteness `R`. Memory: 17 bytes per position plus the frontiers.
///
/// # Errors
/// If a terminal label names a vertex outside the graph.
pub fn solve_parallel<G: GameGraph + Sync + ?Sized>(g: &G, rules: &Rules) -> Result<Solution> {
    solve_parallel_with_progress(g, rules, &NoProgress)
}

fn as_atomic_u8(v: &mut [u8]) -> &[AtomicU8] {
    // SAFETY: AtomicU8 has the same size, alignment and bit validity as u8,
    // and the exclusive borrow guarantees no other access meanwhile.
    unsafe { &*(v as *mut [u8] as *const [AtomicU8]) }
}

fn as_atomic_u32(v: &mut [u32]) -> &[AtomicU32] {
    // SAFETY: as above, for u32 and AtomicU32.
    unsafe { &*(v as *mut [u32] as *const [AtomicU32]) }
}

fn as_atomic_u64(v: &mut [u64]) -> &[AtomicU64] {
    // SAFETY: as above, for u64 and AtomicU64 (same alignment on 64-bit targets).
    unsafe { &*(v as *mut [u64] as *const [AtomicU64]) }
}

/// [`solve_parallel`], reporting the positions decided to `progress`.
pub fn solve_parallel_with_progress<G: GameGraph + Sync + ?Sized>(
    g: &G,
    rules: &Rules,
    progress: &dyn Progress,
) -> Result<Solution> {
    check_labels(g, rules)?;
    let n = g.vertex_count();
    if n >= 1 << 31 {
        // Keys hold the remoteness in 31 bits; so many positions go sequential.
        return super::solve_with_progress(g, rules, progress);
    }
    progress.begin("solve", n as u64);
    let mut state_v = vec![UNDECIDED; n];
    let mut rem_v = vec![NONE; n];
    let mut counter_v = vec![0u32; n];
    let mut key_v = vec![0u64; n];
    let state = as_atomic_u8(&mut state_v);
    let rem = as_atomic_u32(&mut rem_v);
    let counter = as_atomic_u32(&mut counter_v);
    let key = as_atomic_u64(&mut key_v);

    // Terminal positions: the game's own and those without moves, then labels.
    let no_move = rules.no_move.outcome();
    (0..n).into_par_iter().with_min_len(4096).for_each(|v| {
        let d = g.out_degree(v as u32);
        counter[v].store(d, Relaxed);
        if let Some(o) = g.terminal(v as u32).or((d == 0).then_some(no_move)) {
            state[v].store(o as u8, Relaxed);
        }
    });
    for (v, o) in rules.labels.iter() {
        state[v as usize].store(o as u8, Relaxed);
    }
    let mut frontier: Vec<u32> = (0..n as u32)
        .into_par_iter()
        .with_min_len(4096)
        .filter(|&v| matches!(state[v as usize].load(Relaxed), WIN | LOSE))
        .collect();
    frontier
        .par_iter()
        .for_each(|&v| rem[v as usize].store(0, Relaxed));

    let mut level: u64 = 0;
    while !frontier.is_empty() {
        progress.advance(frontier.len() as u64);
        // Phase A: walk the level's moves backwards; state is only read here.
        let next: Vec<u32> = frontier
            .par_chunks(CHUNK)
            .flat_map_iter(|chunk| {
                let mut claimed = Vec::new();
                for &u in chunk {
                    let u_lost = state[u as usize].load(Relaxed) == LOSE;
                    g.for_each_predecessor(u, |p| {
                        let pi = p as usize;
                        if state[pi].load(Relaxed) != UNDECIDED {
                            return;
                        }
                        if u_lost {
                            let k = WIN_BIT | u64::from(NONE - u);
                            if key[pi].load(Relaxed) < k {
                                let before = key[pi].fetch_max(k, Relaxed);
                                if before & WIN_BIT == 0 {
                                    claimed.push(p);
                                }
                            }
                        } else {
                            let k = (level << 32) | u64::from(NONE - u);
                            if key[pi].load(Relaxed) < k {
                                key[pi].fetch_max(k, Relaxed);
                            }
                            if counter[pi].fetch_sub(1, Relaxed) == 1 {
                                claimed.push(p);
                            }
                        }
                    });
                }
                claimed
            })
            .collect();
        // Phase B: decide the claimed positions.
        next.par_iter().for_each(|&p| {
            let pi = p as usize;
            let won = key[pi].load(Relaxed) & WIN_BIT != 0;
            state[pi].store(if won { WIN } else { LOSE }, Relaxed);
            rem[pi].store(level as u32 + 1, Relaxed);
        });
        frontier = next;
        level += 1;
    }

    // Best moves of decided positions: decoded from their keys, into the
    // counter array (no longer needed).
    (0..n).into_par_iter().with_min_len(4096).for_each(|v| {
        let s = state[v].load(Relaxed);
        let best = match s {
            UNDECIDED | DRAW => NONE,
            _ if rem[v].load(Relaxed) == 0 => NONE,
            _ => NONE - key[v].load(Relaxed) as u32,
        };
        counter[v].store(best, Relaxed);
    });
    drop(key_v);
    // Draws and their moves: one sequential scan over the draws' reverse
    // edges, reading one byte of state per edge and writing each draw's move
    // once. (Done in parallel, the atomic updates it needs cost more than the
    // scan on machines with few cores.)
    super::sequential::finish_draws(g, &mut state_v, &mut rem_v, &mut counter_v);
    progress.end();
    Ok(Solution::from_parts(state_v, rem_v, counter_v))
}
