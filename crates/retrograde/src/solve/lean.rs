//! The lean engine: retrograde analysis in a few bytes per position, for games
//! generated on the fly whose edges are never stored.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use rayon::prelude::*;

use super::layout::{self, Counters, Packed, Wide};
use super::solution::{Remoteness, Values};
use super::{NoProgress, Progress};
use crate::alloc::{filled, prefetch};
use crate::error::SolveError;
use crate::kernel::{self, DRAW, Effect, Effects, Phase, UNDECIDED};
use crate::{GameGraph, Rules};

/// Bytes a position the lean engine is estimated to need, to refuse games too
/// large for memory before anything is allocated: its state byte and `u16`
/// remoteness, and 1 for its two frontier levels (measured on the open
/// 100 × 100 cop-and-thief board: 594 MiB peak for 2·10⁸ positions, the
/// frontier well under 0.1 byte a position). Not counted: 4 bytes more a
/// position if some out-degree exceeds 250.
pub const LEAN_BYTES_PER_POSITION: u64 = 4;

/// Strongly solves `g` under `rules` like [`solve`](super::solve), in less
/// memory and without best moves.
///
/// Gives exactly the same outcomes and remoteness as [`solve`](super::solve),
/// by the same rule ([`kernel`](crate::kernel)); best moves are not stored:
/// [`Solved`](crate::Solved) computes them on demand from the moves with the
/// same order of moves ([`Solved::into_solution`](crate::Solved::into_solution)
/// fills them all in).
///
/// How it saves memory:
/// - while a position is undecided, its move counter lives in its state byte
///   (when every out-degree is at most 250; otherwise a `u32` counter per
///   position is allocated): the [lean layout](super::layout);
/// - remoteness is stored in a `u16` per position, widened to `u32` only if
///   best play ever lasts 65535 plies or more;
/// - no best-move array and no queue of all positions: positions are decided
///   level by level (all positions of remoteness `r`, then `r + 1`), in the
///   same order as the FIFO queue of [`solve`](super::solve), keeping only the
///   current level and the next.
///
/// It reads `g` only through [`GameGraph`]: the out-degree of every position
/// once, and the predecessors of every decided position once, so a game that
/// generates them on the fly never stores an edge. The out-degrees and
/// terminal positions are found on all threads of the current rayon pool;
/// the levels are walked on one, which on two cores measured faster than
/// sharing a level's updates between them (see BENCHMARKS.md).
///
/// # Complexity
/// Time **O(V + E)**. Memory: 3 bytes per position (state byte and `u16`
/// remoteness, which are the result; 5 if remoteness reaches 65535), plus 4
/// bytes per position of the two largest consecutive levels, plus 4 bytes per
/// position if some out-degree exceeds 250.
///
/// # Errors
/// If a terminal label names a vertex outside the graph.
///
/// # Example
/// ```
/// use retrograde::solve::{solve, solve_lean};
/// use retrograde::{Answers, Csr, Rules, Solved};
/// let g = Csr::from_edges(5, &[(0, 1), (1, 2), (3, 4), (4, 3), (3, 0)]).with_successors();
/// let lean = solve_lean(&g, &Rules::normal()).unwrap();
/// let full = solve(&g, &Rules::normal()).unwrap();
/// let lean = Solved::new(&g, Rules::normal(), lean).unwrap();
/// assert_eq!(lean.best_move(3), full.best_move(3));
/// assert_eq!(lean.into_solution(), full);
/// ```
pub fn solve_lean<G: GameGraph + Sync + ?Sized>(
    g: &G,
    rules: &Rules,
) -> Result<Values, SolveError> {
    solve_lean_with_progress(g, rules, &NoProgress)
}

/// [`solve_lean`], reporting its work to `progress` (phase `"solve"`, two
/// units a position: one when its start is known, one when it is decided or
/// found a draw).
pub(crate) fn solve_lean_with_progress<G: GameGraph + Sync + ?Sized>(
    g: &G,
    rules: &Rules,
    progress: &dyn Progress,
) -> Result<Values, SolveError> {
    solve_lean_walking(g, rules, progress, Walk::OneThread)
}

/// How a level's reverse moves are generated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Walk {
    /// On one thread, as they are applied: best where generating a reverse
    /// move costs less than storing it (explicit graphs, cheap games).
    OneThread,
    /// On all threads of the current rayon pool, a batch of the level at a
    /// time, while one thread applies the batch before in level order: the
    /// same updates in the same order, so the same result. Pays where the
    /// reverse moves are costly to generate (games that number and unnumber
    /// positions on the fly).
    Batched,
}

/// [`solve_lean_with_progress`], walking the levels as `walk` says.
pub(crate) fn solve_lean_walking<G: GameGraph + Sync + ?Sized>(
    g: &G,
    rules: &Rules,
    progress: &dyn Progress,
    walk_how: Walk,
) -> Result<Values, SolveError> {
    rules.check(g.vertex_count())?;
    let n = g.vertex_count();
    progress.begin("solve", 2 * n as u64);
    let Start {
        mut state,
        counters,
        levels,
    } = start(g, rules);
    progress.advance(n as u64);
    let mut rem = Remoteness::Narrow(filled(n, u16::MAX));
    for &v in levels.iter().flatten() {
        rem.set(v as usize, 0);
    }

    let [win_lose, ties] = levels;
    let none = Events::default();
    let mut w = Walker {
        state: &mut state,
        rem: &mut rem,
        progress,
        how: walk_how,
    };
    match counters {
        None => {
            let mut c = Packed;
            w.walk(g, win_lose, &none, &mut c);
            w.walk(g, ties, &none, &mut c);
        }
        Some(mut c) => {
            w.walk(g, win_lose, &none, &mut c);
            w.walk(g, ties, &none, &mut c);
        }
    }
    // Undecided positions and labelled draws, counted as they are final.
    let draws: usize = state
        .par_iter_mut()
        .with_min_len(CHUNK)
        .map(|s| {
            *s = kernel::undecided_to_draw(*s);
            usize::from(*s == DRAW)
        })
        .sum();
    progress.advance(draws as u64);
    progress.end();
    Ok(Values::new(state, rem))
}

/// Positions started per task.
const CHUNK: usize = 1 << 16;

/// Where the walk starts from.
struct Start {
    /// Terminal codes, and every other position's move counter in its state
    /// byte ([`layout::pack`]), or `UNDECIDED` if `counters` holds them.
    state: Vec<u8>,
    /// The move counters, if some out-degree exceeds
    /// [`PACKED_MAX_DEGREE`](layout::PACKED_MAX_DEGREE).
    counters: Option<Wide>,
    /// Level 0 of each phase: the terminal wins and losses, and the ties.
    levels: [Vec<u32>; 2],
}

/// Every position's start ([`kernel::start_of`]), on all threads of the
/// current rayon pool, in blocks of [`CHUNK`] positions.
fn start<G: GameGraph + Sync + ?Sized>(g: &G, rules: &Rules) -> Start {
    let n = g.vertex_count();
    let mut state = filled(n, UNDECIDED);
    let wide = AtomicBool::new(false);
    state
        .par_chunks_mut(CHUNK)
        .enumerate()
        .for_each(|(k, states)| {
            let first = k * CHUNK;
            let mut labels = rules.labels.walk_from(first as u32);
            for (i, s) in states.iter_mut().enumerate() {
                let v = (first + i) as u32;
                let start = kernel::start_of(g, v, labels.at(v), rules.no_move);
                *s = layout::pack(start).unwrap_or_else(|| {
                    wide.store(true, Relaxed);
                    start.code
                });
            }
        });
    // A large degree: every counter moves to a u32 array. The positions left
    // `UNDECIDED` are the open ones too large to pack (an open position has
    // no label): only theirs are counted again.
    let counters = wide.into_inner().then(|| {
        let mut c = filled(n, 0u32);
        c.par_chunks_mut(CHUNK)
            .zip(state.par_chunks_mut(CHUNK))
            .enumerate()
            .for_each(|(k, (c, states))| {
                let first = k * CHUNK;
                for (i, (c, &s)) in c.iter_mut().zip(states.iter()).enumerate() {
                    if s == UNDECIDED {
                        let v = (first + i) as u32;
                        *c = kernel::start_of(g, v, None, rules.no_move).moves;
                    }
                }
                layout::widen(states, c);
            });
        Wide(c)
    });
    let level = |phase: Phase| -> Vec<u32> {
        state
            .par_iter()
            .with_min_len(CHUNK)
            .enumerate()
            .filter(|&(_, &s)| kernel::phase(s) == Some(phase))
            .map(|(v, _)| v as u32)
            .collect()
    };
    let levels = [level(Phase::WinLose), level(Phase::Tie)];
    Start {
        state,
        counters,
        levels,
    }
}

/// A remoteness array element.
trait Plies: Copy {
    fn from_level(r: u32) -> Self;
}

impl Plies for u16 {
    #[inline]
    fn from_level(r: u32) -> u16 {
        r as u16
    }
}

impl Plies for u32 {
    #[inline]
    fn from_level(r: u32) -> u32 {
        r
    }
}

/// Decisions that come from outside the graph, by level: a tier's moves
/// into other tiers, whose values are known before the walk. Event
/// `(r, p, kind)` is applied to `p` while level `r` is walked, as if a
/// successor of `p` had been decided with remoteness `r` with the effect
/// `effects[kind]`.
#[derive(Clone, Debug, Default)]
pub(crate) struct Events {
    /// Where each level's events start in `entries`, and one past the last.
    pub offsets: Vec<usize>,
    /// The positions, each with its kind in the top bit.
    pub entries: Vec<u32>,
    /// The effect of each kind.
    pub effects: [Effect; 2],
}

/// The bit of an event's entry that holds its kind.
pub(crate) const EVENT_KIND: u32 = 1 << 31;

impl Events {
    /// The levels that have events.
    fn levels(&self) -> u32 {
        self.offsets.len().saturating_sub(1) as u32
    }

    /// Level `r`'s events.
    fn at(&self, r: u32) -> &[u32] {
        match (
            self.offsets.get(r as usize),
            self.offsets.get(r as usize + 1),
        ) {
            (Some(&a), Some(&b)) => &self.entries[a..b],
            _ => &[],
        }
    }
}

/// What a walk keeps: the state bytes and remoteness it decides, and where
/// it reports.
pub(crate) struct Walker<'a> {
    pub state: &'a mut [u8],
    pub rem: &'a mut Remoteness,
    pub progress: &'a dyn Progress,
    pub how: Walk,
}

impl Walker<'_> {
    /// Decides positions level by level, from the terminal positions in
    /// `level` and the `events` from outside.
    pub(crate) fn walk<G: GameGraph + Sync + ?Sized, C: Counters + Send>(
        &mut self,
        g: &G,
        mut level: Vec<u32>,
        events: &Events,
        counters: &mut C,
    ) {
        let mut next: Vec<u32> = Vec::new();
        let mut r = 0u32;
        let state = &mut *self.state;
        while !level.is_empty() || r < events.levels() {
            self.rem.fit(r + 1);
            match (&mut *self.rem, self.how) {
                (Remoteness::Narrow(a), Walk::OneThread) => {
                    step(g, state, a, &level, &mut next, counters, r)
                }
                (Remoteness::Wide(a), Walk::OneThread) => {
                    step(g, state, a, &level, &mut next, counters, r)
                }
                (Remoteness::Narrow(a), Walk::Batched) => {
                    step_batched(g, state, a, &level, &mut next, counters, r)
                }
                (Remoteness::Wide(a), Walk::Batched) => {
                    step_batched(g, state, a, &level, &mut next, counters, r)
                }
            }
            let outside = events.at(r);
            if !outside.is_empty() {
                match &mut *self.rem {
                    Remoteness::Narrow(a) => {
                        apply(state, a, outside, events, &mut next, counters, r)
                    }
                    Remoteness::Wide(a) => apply(state, a, outside, events, &mut next, counters, r),
                }
            }
            self.progress.advance(level.len() as u64);
            level.clear();
            std::mem::swap(&mut level, &mut next);
            r += 1;
        }
    }
}

/// Level `r`'s events from outside, applied.
fn apply<C: Counters, R: Plies>(
    state: &mut [u8],
    rem: &mut [R],
    outside: &[u32],
    events: &Events,
    next: &mut Vec<u32>,
    counters: &mut C,
    r: u32,
) {
    let plies = R::from_level(r + 1);
    for (k, &e) in outside.iter().enumerate() {
        if let Some(&ahead) = outside.get(k + AHEAD) {
            prefetch(state.as_ptr().wrapping_add((ahead & !EVENT_KIND) as usize));
        }
        let effect = events.effects[usize::from(e & EVENT_KIND != 0)];
        update(state, rem, next, counters, e & !EVENT_KIND, effect, plies);
    }
}

/// Decides the positions of remoteness `r + 1` from those of remoteness `r`.
#[inline]
fn step<G: GameGraph + ?Sized, C: Counters + Send, R: Plies>(
    g: &G,
    state: &mut [u8],
    rem: &mut [R],
    level: &[u32],
    next: &mut Vec<u32>,
    counters: &mut C,
    r: u32,
) {
    let plies = R::from_level(r + 1);
    for &u in level {
        let code = state[u as usize];
        match g.owner(u) {
            // No owner (every position of a strictly alternating game): every
            // move into u passes the turn.
            None => {
                let effect = kernel::effect(code);
                g.for_each_predecessor(u, |p| update(state, rem, next, counters, p, effect, plies));
            }
            owner => {
                let effects = Effects::of(code, owner);
                g.for_each_predecessor(u, |p| {
                    update(state, rem, next, counters, p, effects.on(g.owner(p)), plies)
                });
            }
        }
    }
}

/// One reverse move `p -> u` read, `effect` being what `u`'s value does to
/// its predecessors: `p`, if undecided, is decided (then gets `plies` and
/// joins the next level) or has one move fewer left ([`Counters::apply`]).
#[inline(always)]
fn update<C: Counters, R: Plies>(
    state: &mut [u8],
    rem: &mut [R],
    next: &mut Vec<u32>,
    counters: &mut C,
    p: u32,
    effect: Effect,
    plies: R,
) {
    let pi = p as usize;
    if counters.apply(&mut state[pi], pi, effect) {
        rem[pi] = plies;
        next.push(p);
    }
}

/// Positions of a level whose reverse moves are generated together (a few
/// in tests, so that small graphs cross batches).
const BATCH: usize = if cfg!(test) { 3 } else { 1 << 13 };

/// Positions per generating task.
const TASK: usize = if cfg!(test) { 2 } else { 256 };

/// How many reverse moves ahead the applying thread prefetches states.
const AHEAD: usize = 16;

/// Ends the reverse moves of one position in a generated batch (no vertex
/// id: ids are below `u32::MAX`).
const END: u32 = u32::MAX;

/// The reverse moves of `level`'s positions in order, each position's
/// closed by [`END`], generated on all threads.
fn generate<G: GameGraph + Sync + ?Sized>(g: &G, level: &[u32]) -> Vec<Vec<u32>> {
    level
        .par_chunks(TASK)
        .map(|c| {
            let mut out = Vec::with_capacity(c.len() * 16);
            for &u in c {
                g.for_each_predecessor(u, |p| out.push(p));
                out.push(END);
            }
            out
        })
        .collect()
}

/// [`step`] with the reverse moves generated on all threads, a batch ahead
/// of the thread applying them (see [`Walk::Batched`]).
fn step_batched<G: GameGraph + Sync + ?Sized, C: Counters + Send, R: Plies + Send + Sync>(
    g: &G,
    state: &mut [u8],
    rem: &mut [R],
    level: &[u32],
    next: &mut Vec<u32>,
    counters: &mut C,
    r: u32,
) {
    let plies = R::from_level(r + 1);
    let mut batches = level.chunks(BATCH);
    let mut pending = batches.next().map(|b| (b, generate(g, b)));
    while let Some((batch, generated)) = pending.take() {
        let ahead = batches.next();
        let ((), after) = rayon::join(
            || {
                let mut us = batch.iter();
                let mut effects = us
                    .next()
                    .map(|&u| Effects::of(state[u as usize], g.owner(u)));
                for buffer in &generated {
                    for (k, &p) in buffer.iter().enumerate() {
                        if let Some(&ahead) = buffer.get(k + AHEAD) {
                            prefetch(state.as_ptr().wrapping_add(ahead as usize));
                        }
                        if p == END {
                            effects = us
                                .next()
                                .map(|&u| Effects::of(state[u as usize], g.owner(u)));
                            continue;
                        }
                        if let Some(effects) = effects {
                            let effect = effects.on(g.owner(p));
                            update(state, rem, next, counters, p, effect, plies);
                        }
                    }
                }
            },
            || ahead.map(|b| (b, generate(g, b))),
        );
        pending = after;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::solve;
    use crate::{Answers, Csr, Graph, Labels, Outcome, Solved};

    fn agree(g: &Graph, rules: &Rules) {
        let full = solve(g, rules).unwrap();
        let lean = solve_lean(g, rules).unwrap();
        assert_eq!(lean.outcome_codes(), full.values().outcome_codes());
        let lean = Solved::new(g, rules.clone(), lean).unwrap();
        for v in 0..g.vertex_count() as u32 {
            assert_eq!(lean.remoteness(v), full.remoteness(v), "vertex {v}");
            assert_eq!(lean.best_move(v), full.best_move(v), "{v}");
        }
        assert_eq!(lean.into_solution(), full);
    }

    #[test]
    fn starts_split_across_threads_and_blocks_agree() {
        // Three blocks of CHUNK positions: labels, ties, terminals and a
        // position of 300 moves (wide counters) in the later ones.
        let n = 2 * CHUNK as u32 + 1000;
        let mut x = 7u64;
        let mut edges = Vec::new();
        for v in 0..n {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            if x >> 62 != 0 {
                edges.push((v, (x >> 33) as u32 % n));
                edges.push((v, (x >> 13) as u32 % n));
            }
        }
        let big = CHUNK as u32 + 5;
        edges.extend((0..300).map(|i| (big, (big + 1 + i) % n)));
        let g = Csr::from_edges(n as usize, &edges).with_successors();
        let labels = Labels::from_pairs(
            (0..n)
                .step_by(997)
                .map(|v| {
                    (
                        v,
                        [Outcome::Win, Outcome::Tie, Outcome::Draw][v as usize % 3],
                    )
                })
                .collect(),
        );
        let rules = Rules::normal().with_labels(labels);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        pool.install(|| agree(&g, &rules));
        edges.truncate(edges.len() - 300);
        let g = Csr::from_edges(n as usize, &edges).with_successors();
        pool.install(|| agree(&g, &rules));
    }

    proptest::proptest! {
        /// The batched walk, on several threads and across many batches,
        /// gives exactly what the walk on one thread gives.
        #[test]
        fn the_batched_walk_matches_the_walk_on_one_thread(
            n in 1usize..60,
            edges in proptest::collection::vec((0u32..60, 0u32..60), 0..200),
            labels in proptest::collection::vec((0u32..60, 0usize..4), 0..8),
            misere in proptest::bool::ANY,
        ) {
            let edges: Vec<(u32, u32)> = edges
                .into_iter()
                .map(|(u, v)| (u % n as u32, v % n as u32))
                .collect();
            let g = Csr::from_edges(n, &edges).with_successors();
            let outcomes = [Outcome::Win, Outcome::Lose, Outcome::Tie, Outcome::Draw];
            let labels = Labels::from_pairs(
                labels.into_iter().map(|(v, o)| (v % n as u32, outcomes[o])).collect(),
            );
            let base = if misere { Rules::misere() } else { Rules::normal() };
            let rules = base.with_labels(labels);
            let one = solve_lean_walking(&g, &rules, &NoProgress, Walk::OneThread).unwrap();
            let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
            let batched = pool
                .install(|| solve_lean_walking(&g, &rules, &NoProgress, Walk::Batched))
                .unwrap();
            proptest::prop_assert_eq!(&batched, &one);
            proptest::prop_assert_eq!(batched, solve(&g, &rules).unwrap().into_values());
        }
    }

    #[test]
    fn agrees_with_the_queue_solver_on_a_mixed_graph() {
        let g = Csr::from_edges(
            10,
            &[
                (0, 1),
                (1, 2),
                (3, 0),
                (3, 4),
                (4, 3),
                (5, 6),
                (6, 5),
                (6, 1),
                (7, 7),
                (7, 4),
                (8, 5),
                (8, 9),
                (9, 2),
                (9, 2),
            ],
        )
        .with_successors();
        agree(&g, &Rules::normal());
        agree(&g, &Rules::misere());
        let labels = Labels::from_pairs(vec![(5, Outcome::Draw), (2, Outcome::Win)]);
        agree(&g, &Rules::normal().with_labels(labels));
    }

    #[test]
    fn degrees_above_the_packed_limit_use_wide_counters() {
        // 0 has 300 moves to wins; a few small-degree positions come before it
        // so their packed counters must be moved over.
        let mut edges = vec![(1, 2), (3, 2), (3, 4)];
        edges.extend((0..300).map(|i| (0, 5 + i % 2)));
        edges.extend([(5, 7), (6, 8), (9, 0), (9, 9)]);
        let g = Csr::from_edges(10, &edges).with_successors();
        let s = solve_lean(&g, &Rules::normal()).unwrap();
        assert_eq!((s.outcome(0), s.remoteness(0)), (Outcome::Lose, Some(2)));
        agree(&g, &Rules::normal());
    }

    #[test]
    fn remoteness_past_65534_widens_to_u32() {
        // A chain 0 -> 1 -> ... -> 69_999, and a draw loop hanging off 0.
        let n = 70_000u32;
        let mut edges: Vec<(u32, u32)> = (0..n - 1).map(|v| (v, v + 1)).collect();
        edges.extend([(n, n), (n, 4)]); // 4 is a win: n draws by looping
        let g = Csr::from_edges(n as usize + 1, &edges).with_successors();
        let s = solve_lean(&g, &Rules::normal()).unwrap();
        assert!(matches!(s.remoteness, Remoteness::Wide(_)));
        assert_eq!(s.remoteness(0), Some(n - 1));
        assert_eq!(s.remoteness(n), None);
        assert_eq!(s, solve(&g, &Rules::normal()).unwrap().into_values());
        let short = Csr::from_edges(3, &[(0, 1), (1, 2)]);
        let s = solve_lean(&short, &Rules::normal()).unwrap();
        assert!(matches!(s.remoteness, Remoteness::Narrow(_)));
    }

    #[test]
    fn exactly_the_packed_limit_stays_packed() {
        let mut edges: Vec<(u32, u32)> = (0..layout::PACKED_MAX_DEGREE).map(|_| (0, 1)).collect();
        edges.push((1, 2));
        let g = Csr::from_edges(3, &edges).with_successors();
        agree(&g, &Rules::normal());
    }
}
