//! The solvers: one contract ([`Solution`]), several engines.
//!
//! - [`solve`]: the sequential retrograde analysis, `O(V + E)`.
//! - [`solve_parallel`]: the same on all cores, level by level, same answers.
//! - [`solve_lean`]: the same analysis in 3 bytes per position, without stored
//!   best moves (computed on demand), for games generated on the fly.
//! - [`reference::solve_reference`]: a slow fixed-point iteration straight from
//!   the definitions, the yardstick every engine is tested against.

mod lean;
mod parallel;
pub mod reference;
mod sequential;
mod solution;

pub use lean::{solve_lean, solve_lean_with_progress};
pub use parallel::{solve_parallel, solve_parallel_with_progress};
pub use sequential::{solve, solve_with_progress};
pub use solution::{Line, Solution, Summary};

use crate::error::{Error, Result};
use crate::{GameGraph, Rules};

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

/// Checks that every label names a vertex of `g`.
pub(crate) fn check_labels<G: GameGraph + ?Sized>(g: &G, rules: &Rules) -> Result<()> {
    match rules.labels.max_vertex() {
        Some(v) if v as usize >= g.vertex_count() => Err(Error::Invalid(format!(
            "terminal label names vertex {v}, but the graph has {} vertices",
            g.vertex_count()
        ))),
        _ => Ok(()),
    }
}

/// Internal per-vertex state codes: the three outcomes, then "not decided yet".
pub(crate) const WIN: u8 = crate::Outcome::Win as u8;
pub(crate) const LOSE: u8 = crate::Outcome::Lose as u8;
pub(crate) const DRAW: u8 = crate::Outcome::Draw as u8;
pub(crate) const UNDECIDED: u8 = 3;
