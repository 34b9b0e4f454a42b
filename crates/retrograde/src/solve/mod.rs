//! The solvers: one contract ([`Solution`]), several engines.
//!
//! - [`solve`]: the sequential retrograde analysis, `O(V + E)`.
//! - [`solve_parallel`]: the same on all cores, level by level, same answers.
//! - [`solve_lean`]: the same analysis in 3 bytes per position, without stored
//!   best moves ([`Values`]; [`Solved`] computes them on demand), for games
//!   generated on the fly. Its [`layout`] (the move counter packed into the
//!   state byte) is the timely engine's for games too.
//!
//! All of them decide positions by the one rule of [`kernel`](crate::kernel).
//! - [`reference::solve_reference`]: a slow fixed-point iteration straight from
//!   the definitions, the yardstick every engine is tested against.

mod draws;
pub mod layout;
pub(crate) mod lean;
mod parallel;
pub mod reference;
mod sequential;
pub(crate) mod solution;
pub mod trace;

pub use lean::{LEAN_BYTES_PER_POSITION, solve_lean};
pub(crate) use parallel::solve_parallel_with_progress;
pub use parallel::{PARALLEL_BYTES_PER_POSITION, fits_parallel, solve_parallel};
pub(crate) use sequential::solve_with_progress;
pub use sequential::{SEQUENTIAL_BYTES_PER_POSITION, solve};
pub use solution::{
    Answers, Histogram, HistogramCounter, IntoParts, Line, Lookup, MoveValue, Remoteness, Solution,
    Solved, Summary, Values,
};

/// Receives progress reports from long-running work. All methods default to no-ops.
pub trait Progress: Sync {
    /// A phase (`"solve"`, `"read"`, …) starts with `total` units of work (0 if unknown).
    fn begin(&self, _phase: &'static str, _total: u64) {}
    /// A phase whose units are bytes (reading a stream: `total` 0 when its
    /// length is unknown). By default, [`Progress::begin`].
    fn begin_bytes(&self, phase: &'static str, total: u64) {
        self.begin(phase, total)
    }
    /// `n` more units are done.
    fn advance(&self, _n: u64) {}
    /// The phase is over.
    fn end(&self) {}
    /// Whether the caller asks the solve to stop (an interrupt): looked at
    /// where work is told, every 65,536 positions or every level, after
    /// which a [`Solver`](crate::Solver) given this progress returns
    /// [`SolveError::Stopped`](crate::SolveError::Stopped). `false` by
    /// default.
    fn stop(&self) -> bool {
        false
    }
}

/// Reports nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoProgress;

impl Progress for NoProgress {}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

    use super::*;
    use crate::{Csr, Labels, Outcome, Rules, SolveError};

    /// Adds up what a solve reports.
    #[derive(Default)]
    struct Tally {
        total: AtomicU64,
        done: AtomicU64,
    }

    impl Progress for Tally {
        fn begin(&self, _phase: &'static str, total: u64) {
            self.total.store(total, Relaxed);
        }
        fn advance(&self, n: u64) {
            self.done.fetch_add(n, Relaxed);
        }
    }

    #[test]
    fn progress_counts_every_position_twice_draws_included() {
        // 200,000 positions, mostly draws (a long cycle), some decided, a
        // labelled draw and a tie: the bar must fill, not stop at the decided.
        let n = 200_000u32;
        let mut edges: Vec<(u32, u32)> = (0..n - 1000).map(|v| (v, (v + 1) % (n - 1000))).collect();
        edges.extend((n - 1000..n - 1).map(|v| (v, v + 1)));
        let g = Csr::from_edges(n as usize, &edges);
        let rules = Rules::normal().with_labels(Labels::from_pairs(vec![
            (5, Outcome::Draw),
            (n - 500, Outcome::Tie),
        ]));
        let check = |name: &str, run: &dyn Fn(&Tally)| {
            let t = Tally::default();
            run(&t);
            let total = t.total.load(Relaxed);
            assert_eq!(total, 2 * u64::from(n), "{name}");
            assert_eq!(t.done.load(Relaxed), total, "{name}");
        };
        check("sequential", &|t| {
            solve_with_progress(&g, &rules, t).unwrap();
        });
        check("parallel", &|t| {
            solve_parallel_with_progress(&g, &rules, t).unwrap();
        });
        check("lean", &|t| {
            lean::solve_lean_with_progress(&g, &rules, t).unwrap();
        });
    }

    /// Asks to stop once `after` units are done.
    struct StopAfter {
        done: AtomicU64,
        after: u64,
    }

    impl Progress for StopAfter {
        fn advance(&self, n: u64) {
            self.done.fetch_add(n, Relaxed);
        }
        fn stop(&self) -> bool {
            self.done.load(Relaxed) >= self.after
        }
    }

    #[test]
    fn a_solve_asked_to_stop_stops_and_says_so() {
        // A chain of 300,000: its levels are many, its positions too.
        let n = 300_000u32;
        let edges: Vec<(u32, u32)> = (0..n - 1).map(|v| (v, v + 1)).collect();
        let g = Csr::from_edges(n as usize, &edges);
        let rules = Rules::normal();
        for after in [0, 1, 100_000, 400_000] {
            let stop = || StopAfter {
                done: AtomicU64::new(0),
                after,
            };
            let s = solve_with_progress(&g, &rules, &stop());
            assert_eq!(s.err(), Some(SolveError::Stopped), "sequential, {after}");
            let s = solve_parallel_with_progress(&g, &rules, &stop());
            assert_eq!(s.err(), Some(SolveError::Stopped), "parallel, {after}");
        }
        // Never asked: the same solve as without.
        let never = StopAfter {
            done: AtomicU64::new(0),
            after: u64::MAX,
        };
        assert_eq!(
            solve_with_progress(&g, &rules, &never).unwrap(),
            solve(&g, &rules).unwrap()
        );
    }
}
