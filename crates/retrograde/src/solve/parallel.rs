//! The parallel engine: the same analysis, level by level, on all cores.

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU32, AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use super::{NoProgress, Progress, Solution};
use crate::alloc::filled;
use crate::error::SolveError;
use crate::graph::NONE;
use crate::kernel::{self, Effect, LEVEL_DECIDES, LOSE, Phase, TIE, UNDECIDED, WIN};
use crate::shared::{as_atomic_u8, as_atomic_u32, as_atomic_u64};
use crate::{GameGraph, Outcome, Rules};

/// Frontier positions handled per task.
const CHUNK: usize = 1024;

/// Bytes a position [`solve_parallel`] needs beyond the graph and the
/// frontiers, to refuse games too large for memory before anything is
/// allocated: its state byte, `u32` remoteness, `u32` move counter (which
/// becomes its best move) and 64-bit key (1 + 4 + 4 + 8). The same as
/// [`SEQUENTIAL_BYTES_PER_POSITION`](super::SEQUENTIAL_BYTES_PER_POSITION),
/// so a graph too large for [`fits_parallel`], solved sequentially, still
/// fits.
pub const PARALLEL_BYTES_PER_POSITION: u64 = 17;

/// [`solve`](super::solve) on all threads of the current rayon pool, with the
/// same result: identical outcomes, remoteness and best moves.
///
/// Processes one ply of remoteness at a time. Level `r` holds the positions
/// decided with remoteness `r`; walking their moves backwards in parallel, a
/// `Lose` position marks each undecided predecessor as a `Win`, a `Win`
/// position decrements the predecessor's counter (zero: a `Lose`); then the
/// same from the terminal ties, a `Tie` marking its undecided predecessors
/// as ties. The rule is [`kernel`](crate::kernel)'s. Each position is decided
/// once, by whichever thread's atomic update claims it. Best moves do not
/// depend on which thread wins: each undecided position keeps one 64-bit
/// key, raised with `fetch_max`, that orders its candidate moves as
/// [`kernel::rank`] does ([`kernel::level_rank`]). Draws get their moves from
/// one sequential scan of their reverse edges at the end.
///
/// Graphs of more than [`kernel::MAX_LEVEL`] positions (see [`fits_parallel`])
/// are solved by the sequential engine instead.
///
/// # Complexity
/// Time **O(V + E)** work, in `R + 1` parallel rounds for a longest
/// remoteness `R`. Memory: [`PARALLEL_BYTES_PER_POSITION`], 17 bytes per
/// position, plus the frontiers.
///
/// # Errors
/// If a terminal label names a vertex outside the graph.
pub fn solve_parallel<G: GameGraph + Sync + ?Sized>(
    g: &G,
    rules: &Rules,
) -> Result<Solution, SolveError> {
    solve_parallel_with_progress(g, rules, &NoProgress)
}

/// [`solve_parallel`], reporting its work to `progress` as
/// [`solve_with_progress`](super::solve_with_progress) does.
pub(crate) fn solve_parallel_with_progress<G: GameGraph + Sync + ?Sized>(
    g: &G,
    rules: &Rules,
    progress: &dyn Progress,
) -> Result<Solution, SolveError> {
    rules.check(g.vertex_count())?;
    let n = g.vertex_count();
    if !fits_parallel(n) {
        return super::solve_with_progress(g, rules, progress);
    }
    progress.begin("solve", 2 * n as u64);
    let mut state_v = filled(n, UNDECIDED);
    let mut rem_v = filled(n, NONE);
    let mut counter_v = filled(n, 0u32);
    let mut key_v = filled(n, 0u64);
    let a = Shared {
        state: as_atomic_u8(&mut state_v),
        rem: as_atomic_u32(&mut rem_v),
        counter: as_atomic_u32(&mut counter_v),
        key: as_atomic_u64(&mut key_v),
    };

    let any_tie = start_terminals(g, rules, &a);
    progress.advance(n as u64);
    if progress.stop() {
        return Err(SolveError::Stopped);
    }
    let win_lose = terminals(&a, Phase::WinLose);
    let ties = if any_tie {
        terminals(&a, Phase::Tie)
    } else {
        Vec::new()
    };
    for (phase, frontier) in Phase::BOTH.into_iter().zip([win_lose, ties]) {
        if !walk_levels(g, &a, phase, frontier, progress) {
            return Err(SolveError::Stopped);
        }
        // In the tie phase every key left is a Win candidate's, below any
        // deciding key: the first Tie successor claims the position.
    }
    best_moves_from_keys(&a);
    drop(key_v);
    // Draws and their moves: a scan of the draws' reverse edges, in two
    // halves at once (see draws.rs for why not more).
    if rayon::current_num_threads() >= 2 && n >= 1 << 16 {
        super::draws::finish_draws_parallel(g, &mut state_v, &mut rem_v, &mut counter_v, progress);
    } else {
        super::draws::finish_draws(g, &mut state_v, &mut rem_v, &mut counter_v, progress);
    }
    progress.end();
    Ok(Solution::from_parts(state_v, rem_v, counter_v))
}

/// The engine's arrays, one entry a position, seen as atomics: the state
/// byte, the remoteness, the move counter (the best move at the end) and
/// the key that orders the candidate moves.
struct Shared<'a> {
    state: &'a [AtomicU8],
    rem: &'a [AtomicU32],
    counter: &'a [AtomicU32],
    key: &'a [AtomicU64],
}

/// Starts every position by the kernel's precedence: a terminal one gets its
/// state code, an open one its move counter. Returns whether a terminal
/// position is a tie.
#[inline]
fn start_terminals<G: GameGraph + Sync + ?Sized>(g: &G, rules: &Rules, a: &Shared<'_>) -> bool {
    let n = a.state.len();
    let Shared { state, counter, .. } = *a;
    let any_tie = AtomicBool::new(false);
    let start_one = |v: usize, label: Option<Outcome>| {
        let start = kernel::start_of(g, v as u32, label, rules.no_move);
        if start.is_open() {
            counter[v].store(start.moves, Relaxed);
        } else {
            state[v].store(start.code, Relaxed);
            if start.code == TIE {
                any_tie.store(true, Relaxed);
            }
        }
    };
    if rules.labels.is_empty() {
        (0..n)
            .into_par_iter()
            .with_min_len(4096)
            .for_each(|v| start_one(v, None));
    } else {
        // Labels are sparse and sorted: each task looks up its range's first
        // label once, then walks.
        (0..n).into_par_iter().with_min_len(4096).for_each_init(
            || (usize::MAX, rules.labels.walk()),
            |(last, walk), v| {
                if *last == usize::MAX || v < *last {
                    *walk = rules.labels.walk_from(v as u32);
                }
                *last = v;
                start_one(v, walk.at(v as u32));
            },
        );
    }
    any_tie.load(Relaxed)
}

/// The terminal positions of `phase`, their remoteness set to 0.
#[inline]
fn terminals(a: &Shared<'_>, phase: Phase) -> Vec<u32> {
    let Shared { state, rem, .. } = *a;
    let f: Vec<u32> = (0..state.len() as u32)
        .into_par_iter()
        .with_min_len(4096)
        .filter(|&v| kernel::phase(state[v as usize].load(Relaxed)) == Some(phase))
        .collect();
    f.par_iter()
        .for_each(|&v| rem[v as usize].store(0, Relaxed));
    f
}

/// Decides the positions of `phase` level by level, from its terminal
/// positions `frontier`, until a level decides nothing; `false` if
/// `progress` asked it to stop first.
#[inline]
fn walk_levels<G: GameGraph + Sync + ?Sized>(
    g: &G,
    a: &Shared<'_>,
    phase: Phase,
    mut frontier: Vec<u32>,
    progress: &dyn Progress,
) -> bool {
    let mut level: u32 = 0;
    while !frontier.is_empty() {
        progress.advance(frontier.len() as u64);
        if progress.stop() {
            return false;
        }
        let next = claim_predecessors(g, a, &frontier, level);
        decide_claimed(a, &next, phase, level);
        frontier = next;
        level += 1;
    }
    true
}

/// Step A of a level: walks the moves of the level's positions `frontier`
/// backwards, raising their undecided predecessors' keys and counting down
/// their counters; returns the predecessors claimed (decided by this level).
/// The state is only read here.
#[inline]
fn claim_predecessors<G: GameGraph + Sync + ?Sized>(
    g: &G,
    a: &Shared<'_>,
    frontier: &[u32],
    level: u32,
) -> Vec<u32> {
    let Shared {
        state,
        counter,
        key,
        ..
    } = *a;
    let claim = |chunk: &[u32]| {
        let mut claimed = Vec::new();
        for &u in chunk {
            let us = state[u as usize].load(Relaxed);
            let owner = g.owner(u);
            g.for_each_predecessor(u, |p| {
                let pi = p as usize;
                if state[pi].load(Relaxed) != UNDECIDED {
                    return;
                }
                match kernel::effect(kernel::seen(us, kernel::same_player(g.owner(p), owner))) {
                    Effect::Decide(_) => {
                        let k = kernel::level_rank(true, level, u);
                        if key[pi].load(Relaxed) < k {
                            let before = key[pi].fetch_max(k, Relaxed);
                            if before & LEVEL_DECIDES == 0 {
                                claimed.push(p);
                            }
                        }
                    }
                    Effect::CountDown => {
                        let k = kernel::level_rank(false, level, u);
                        if key[pi].load(Relaxed) < k {
                            key[pi].fetch_max(k, Relaxed);
                        }
                        if counter[pi].fetch_sub(1, Relaxed) == 1 {
                            claimed.push(p);
                        }
                    }
                    Effect::Nothing => {}
                }
            });
        }
        claimed
    };
    // A level of one chunk is walked here: handing it to the pool would
    // cost more than its work, a level at a time (a game a million plies
    // deep and one position wide took 3.9 s so, 0.02 s sequentially).
    if frontier.len() <= CHUNK {
        return claim(frontier);
    }
    frontier.par_chunks(CHUNK).flat_map_iter(claim).collect()
}

/// Step B of a level: decides the `claimed` positions, each with
/// remoteness `level + 1`: won (or tied, in the tie phase) if a deciding
/// move claimed it, else lost.
#[inline]
fn decide_claimed(a: &Shared<'_>, claimed: &[u32], phase: Phase, level: u32) {
    let Shared {
        state, rem, key, ..
    } = *a;
    let decided = match phase {
        Phase::WinLose => WIN,
        Phase::Tie => TIE,
    };
    let decide = |&p: &u32| {
        let pi = p as usize;
        let decides = key[pi].load(Relaxed) & LEVEL_DECIDES != 0;
        state[pi].store(if decides { decided } else { LOSE }, Relaxed);
        rem[pi].store(level + 1, Relaxed);
    };
    // As in `claim_predecessors`: a small level here.
    if claimed.len() <= CHUNK {
        claimed.iter().for_each(decide);
    } else {
        claimed.par_iter().for_each(decide);
    }
}

/// Best moves of decided positions: decoded from their keys, into the
/// counter array (no longer needed).
#[inline]
fn best_moves_from_keys(a: &Shared<'_>) {
    let Shared {
        state,
        counter,
        key,
        ..
    } = *a;
    (0..state.len())
        .into_par_iter()
        .with_min_len(4096)
        .for_each(|v| {
            // Only undecided positions' keys were raised (never to 0), so a
            // decided position with a key was decided by a move.
            let k = key[v].load(Relaxed);
            let best = if k != 0 && matches!(state[v].load(Relaxed), WIN | LOSE | TIE) {
                kernel::level_rank_id(k)
            } else {
                NONE
            };
            counter[v].store(best, Relaxed);
        });
}

/// Whether the parallel engine takes a graph of `n` positions: its keys hold
/// a level in 31 bits ([`kernel::MAX_LEVEL`]), and no remoteness reaches `n`.
/// Larger graphs are solved by the sequential engine, with the same answers.
pub fn fits_parallel(n: usize) -> bool {
    n <= kernel::MAX_LEVEL as usize
}
