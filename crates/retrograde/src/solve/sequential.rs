//! The sequential engine: retrograde analysis with a FIFO queue.

use super::{NoProgress, Progress, Solution};
use crate::alloc::filled;
use crate::error::SolveError;
use crate::graph::NONE;
use crate::kernel::{self, Bookkeeping, Phase, UNDECIDED};
use crate::{GameGraph, Rules};

/// Bytes a position [`solve`] needs beyond the graph, to refuse games too
/// large for memory before anything is allocated: its state byte, and its
/// `u32` remoteness, best move, move counter and queue slot (1 + 4 · 4).
pub const SEQUENTIAL_BYTES_PER_POSITION: u64 = 17;

/// Strongly solves the game `g` under `rules`.
///
/// Starts from the terminal positions and walks moves backwards, keeping for
/// each undecided position the number of its moves not yet known to reach a
/// `Win`. A position reached from a `Lose` is a `Win`; one whose counter drops
/// to zero is a `Lose`. When no more wins or losses follow, the terminal ties
/// spread the same way: an undecided position reached from a `Tie` is a
/// `Tie`. One never decided is a `Draw`. The queue is FIFO, so positions are
/// decided in order of remoteness and the first decision is final: `Win` gets
/// 1 + the least remoteness of its `Lose` successors, `Lose` 1 + the greatest
/// of its `Win` successors, `Tie` 1 + the least of its `Tie` successors. The
/// rule is [`kernel`](crate::kernel)'s. No recursion: any depth is fine.
///
/// # Complexity
/// Time **O(V + E)**: each position is queued at most once and each reverse
/// edge read once (twice for draws, to pick their best move). Memory beyond
/// the graph: [`SEQUENTIAL_BYTES_PER_POSITION`], 17 bytes per position
/// (state, remoteness, best move, counter, queue slot).
///
/// # Errors
/// If a terminal label names a vertex outside the graph.
///
/// # Example
/// ```
/// use retrograde::{solve, Answers, Csr, Outcome, Rules};
/// // 0 -> 1 -> 2, and 3 <-> 4 forever.
/// let g = Csr::from_edges(5, &[(0, 1), (1, 2), (3, 4), (4, 3)]);
/// let s = solve(&g, &Rules::normal()).unwrap();
/// assert_eq!(s.outcome(2), Outcome::Lose); // no move: the player to move loses
/// assert_eq!(s.outcome(1), Outcome::Win);
/// assert_eq!(s.outcome(0), Outcome::Lose);
/// assert_eq!(s.remoteness(0), Some(2));
/// assert_eq!(s.best_move(0), Some(1));
/// assert_eq!(s.outcome(3), Outcome::Draw);
/// ```
pub fn solve<G: GameGraph + ?Sized>(g: &G, rules: &Rules) -> Result<Solution, SolveError> {
    solve_with_progress(g, rules, &NoProgress)
}

/// [`solve`], reporting its work to `progress` (phase `"solve"`, two units a
/// position: one when its start is known, one when it is decided and its
/// moves walked back or, for a draw, when its move is found).
pub(crate) fn solve_with_progress<G: GameGraph + ?Sized>(
    g: &G,
    rules: &Rules,
    progress: &dyn Progress,
) -> Result<Solution, SolveError> {
    run(g, rules, progress, &mut NoTrace)
}

/// The engine, telling `trace` each step (a no-op for [`solve`]: the
/// calls compile away).
pub(crate) fn run<G: GameGraph + ?Sized, T: Trace>(
    g: &G,
    rules: &Rules,
    progress: &dyn Progress,
    trace: &mut T,
) -> Result<Solution, SolveError> {
    rules.check(g.vertex_count())?;
    let n = g.vertex_count();
    let mut state = filled(n, UNDECIDED);
    let mut rem = filled(n, NONE);
    let mut best = filled(n, NONE);
    let mut counter = filled(n, 0u32);
    let mut terminals: [Vec<u32>; 2] = [Vec::new(), Vec::new()];
    progress.begin("solve", 2 * n as u64);

    let mut labels = rules.labels.walk();
    for v in 0..n as u32 {
        if (v + 1) % (1 << 16) == 0 {
            progress.advance(1 << 16);
            if progress.stop() {
                return Err(SolveError::Stopped);
            }
        }
        let start = kernel::start_of(g, v, labels.at(v), rules.no_move);
        trace.start(v, start.code, start.moves);
        let vi = v as usize;
        if start.is_open() {
            counter[vi] = start.moves;
            continue;
        }
        state[vi] = start.code;
        if let Some(phase) = kernel::phase(start.code) {
            rem[vi] = 0;
            terminals[phase as usize].push(v);
        }
    }

    progress.advance((n % (1 << 16)) as u64);
    // Walk backwards in FIFO order: remoteness never decreases along the
    // queue. Wins and losses first, then ties from the terminal ties.
    let [mut queue, mut ties] = terminals;
    let mut head = 0;
    for phase in Phase::BOTH {
        if phase == Phase::Tie {
            trace.ties(&ties);
            queue.append(&mut ties);
        }
        while head < queue.len() {
            let u = queue[head];
            head += 1;
            trace.dequeue(u);
            if head % (1 << 16) == 0 {
                progress.advance(1 << 16);
                if progress.stop() {
                    return Err(SolveError::Stopped);
                }
            }
            let (us, ru) = (state[u as usize], rem[u as usize]);
            let owner = g.owner(u);
            g.for_each_predecessor(u, |p| {
                let pi = p as usize;
                let entry = Bookkeeping {
                    state: &mut state[pi],
                    counter: &mut counter[pi],
                    remoteness: &mut rem[pi],
                    best: &mut best[pi],
                };
                let seen = kernel::seen(us, kernel::same_player(g.owner(p), owner));
                let decided = entry.successor_decided(u, seen, ru);
                trace.edge(u, p, state[pi], counter[pi], rem[pi]);
                if decided {
                    queue.push(p);
                }
            });
        }
    }
    progress.advance((head % (1 << 16)) as u64);
    drop(counter);
    drop(queue);
    super::draws::finish_draws(g, &mut state, &mut rem, &mut best, progress);
    trace.draws(&state);
    progress.end();
    Ok(Solution::from_parts(state, rem, best))
}

/// What the engine tells its observer. Positions are vertex ids.
pub(crate) trait Trace {
    /// `v`'s start: its state code and the moves counted.
    fn start(&mut self, _v: u32, _code: u8, _moves: u32) {}
    /// The terminal ties join the queue: the tie phase begins.
    fn ties(&mut self, _ties: &[u32]) {}
    /// `u` is taken from the queue; its reverse moves are read next.
    fn dequeue(&mut self, _u: u32) {}
    /// The move `p -> u` was read backwards; `p` is now in `state` with
    /// `counter` moves left and remoteness `rem`.
    fn edge(&mut self, _u: u32, _p: u32, _state: u8, _counter: u32, _rem: u32) {}
    /// The end: every position's final state (the draws are those left).
    fn draws(&mut self, _state: &[u8]) {}
}

/// The observer that does nothing.
pub(crate) struct NoTrace;

impl Trace for NoTrace {}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Answers, Csr, Labels, NoMoveRule, Outcome};

    #[test]
    fn single_self_loop_is_a_draw() {
        let g = Csr::from_edges(1, &[(0, 0)]);
        let s = solve(&g, &Rules::normal()).unwrap();
        assert_eq!(s.outcome(0), Outcome::Draw);
        assert_eq!(s.remoteness(0), None);
        assert_eq!(s.best_move(0), Some(0));
    }

    #[test]
    fn graph_without_edges_is_all_terminal() {
        let g = Csr::from_edges(3, &[]);
        let s = solve(&g, &Rules::normal()).unwrap();
        assert!((0..3).all(|v| s.outcome(v) == Outcome::Lose && s.remoteness(v) == Some(0)));
        let s = solve(&g, &Rules::misere()).unwrap();
        assert!((0..3).all(|v| s.outcome(v) == Outcome::Win && s.best_move(v).is_none()));
    }

    #[test]
    fn empty_graph_solves() {
        let s = solve(&Csr::from_edges(0, &[]), &Rules::normal()).unwrap();
        assert!(s.is_empty());
        assert_eq!(s.summary().max_remoteness, None);
    }

    #[test]
    fn loser_holds_out_and_winner_hurries() {
        // 0 can go to 1 (lose in 0) or 2 (lose in 2): win in 1 via 1.
        // 3's moves both reach wins of remoteness 1: lose in 2, the tie going to
        // the smaller id.
        let g = Csr::from_edges(7, &[(0, 2), (0, 1), (2, 5), (5, 6), (3, 0), (3, 4), (4, 1)]);
        let s = solve(&g, &Rules::normal()).unwrap();
        assert_eq!(
            (s.outcome(0), s.remoteness(0), s.best_move(0)),
            (Outcome::Win, Some(1), Some(1))
        );
        assert_eq!((s.outcome(2), s.remoteness(2)), (Outcome::Lose, Some(2)));
        assert_eq!(
            (s.outcome(3), s.remoteness(3), s.best_move(3)),
            (Outcome::Lose, Some(2), Some(0))
        );
    }

    #[test]
    fn parallel_edges_count_as_separate_moves() {
        // 0 has two moves to 1 and one to 2; 1 is a win, 2 a draw: 0 draws.
        let g = Csr::from_edges(4, &[(0, 1), (0, 1), (0, 2), (1, 3), (2, 2)]);
        let s = solve(&g, &Rules::normal()).unwrap();
        assert_eq!(s.outcome(0), Outcome::Draw);
        assert_eq!(s.best_move(0), Some(2));
    }

    #[test]
    fn labels_override_moves() {
        let g = Csr::from_edges(2, &[(0, 1), (1, 0)]);
        let rules = Rules {
            no_move: NoMoveRule::Lose,
            labels: Labels::from_pairs(vec![(1, Outcome::Win)]),
        };
        let s = solve(&g, &rules).unwrap();
        assert_eq!(s.outcome(1), Outcome::Win);
        assert_eq!(s.best_move(1), None);
        assert_eq!((s.outcome(0), s.remoteness(0)), (Outcome::Lose, Some(1)));
        let bad = Rules::normal().with_labels(Labels::from_pairs(vec![(2, Outcome::Win)]));
        assert!(solve(&g, &bad).is_err());
    }

    #[test]
    fn ties_beat_draws_and_spread_through_undecided_positions() {
        // 0 -> 1 (tie, terminal), 0 -> 2 <-> 3 (a draw loop): 0 ties in 1.
        // 4 -> 0 and 4 -> 5 (a win in 1 for the opponent): 4 ties in 2.
        // 6 -> 1 and 6 -> 7 (a loss, terminal): a win beats a tie.
        // 8 -> 2 only: a draw. 9 -> 1 and 9 -> 9: ties in 1, the loop ignored.
        let g = Csr::from_edges(
            11,
            &[
                (0, 1),
                (0, 2),
                (2, 3),
                (3, 2),
                (4, 0),
                (4, 5),
                (5, 10),
                (6, 1),
                (6, 7),
                (8, 2),
                (9, 1),
                (9, 9),
            ],
        );
        let rules = Rules::normal().with_labels(Labels::from_pairs(vec![(1, Outcome::Tie)]));
        let s = solve(&g, &rules).unwrap();
        let at = |v| (s.outcome(v), s.remoteness(v), s.best_move(v));
        assert_eq!(at(1), (Outcome::Tie, Some(0), None));
        assert_eq!(at(0), (Outcome::Tie, Some(1), Some(1)));
        assert_eq!(at(4), (Outcome::Tie, Some(2), Some(0)));
        assert_eq!(at(6), (Outcome::Win, Some(1), Some(7)));
        assert_eq!(at(8), (Outcome::Draw, None, Some(2)));
        assert_eq!(at(9), (Outcome::Tie, Some(1), Some(1)));
        let sum = s.summary();
        assert_eq!((sum.ties, sum.draws), (4, 3));
        // A line that ends on a tie is not endless.
        let line = s.line(4, 10);
        assert_eq!(line.positions, vec![4, 0, 1]);
        assert!(!line.endless);
    }

    #[test]
    fn ten_million_vertex_chain_does_not_overflow_the_stack() {
        let n = 10_000_000u32;
        let edges: Vec<(u32, u32)> = (0..n - 1).map(|v| (v, v + 1)).collect();
        let g = Csr::from_edges(n as usize, &edges);
        drop(edges);
        let s = solve(&g, &Rules::normal()).unwrap();
        assert_eq!(s.remoteness(0), Some(n - 1));
        // n - 1 plies from 0: odd, so the player to move at 0 wins.
        assert_eq!(s.outcome(0), Outcome::Win);
        assert_eq!(s.line(0, 10).positions.len(), n as usize);
    }
}
