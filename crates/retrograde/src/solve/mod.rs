//! The solvers: one contract ([`Solution`]), several engines.
//!
//! - [`solve`]: the sequential retrograde analysis, `O(V + E)`.
//! - [`solve_parallel`]: the same on all cores, level by level, same answers.
//! - [`solve_lean`]: the same analysis in 3 bytes per position, without stored
//!   best moves ([`Values`]; [`Solved`] computes them on demand), for games
//!   generated on the fly.
//!
//! All of them decide positions by the one rule of [`kernel`](crate::kernel).
//! - [`reference::solve_reference`]: a slow fixed-point iteration straight from
//!   the definitions, the yardstick every engine is tested against.

mod draws;
mod lean;
mod parallel;
pub mod reference;
mod sequential;
mod solution;

pub use lean::{solve_lean, solve_lean_with_progress};
pub use parallel::{fits_parallel, solve_parallel, solve_parallel_with_progress};
pub use sequential::{solve, solve_with_progress};
pub use solution::{
    Answers, Histogram, IntoParts, Line, MoveValue, Solution, Solved, Summary, Values,
};

/// Receives progress reports from long-running work. All methods default to no-ops.
pub trait Progress: Sync {
    /// A phase (`"solve"`, `"read"`, …) starts with `total` units of work (0 if unknown).
    fn begin(&self, _phase: &'static str, _total: u64) {}
    /// `n` more units are done.
    fn advance(&self, _n: u64) {}
    /// The phase is over.
    fn end(&self) {}
}

/// Reports nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoProgress;

impl Progress for NoProgress {}
