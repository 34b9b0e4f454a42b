//! How the solver sees a game: small access traits over dense `u32` vertex ids.
//!
//! The solver only needs, for every position, how many moves it has and which
//! positions move into it ([`GameGraph`]). Features that walk forwards (checking a
//! game, exporting it, verifying a solution) also ask for [`Successors`].
//! Both an explicit graph ([`Csr`]) and a game generated on the fly implement them.

mod build;
pub(crate) mod csr;
mod random;

pub use build::{CsrBuilder, EdgeSource};
pub use csr::{Adjacency, Csr};
pub use random::RandomEdges;

use crate::Outcome;

/// A vertex id that never names a vertex; used as "none" in flat arrays.
pub const NONE: u32 = u32::MAX;

/// The largest number of vertices a graph may have (ids `0..=u32::MAX - 1`).
pub const MAX_VERTICES: usize = u32::MAX as usize;

/// Read access to a game graph, backwards: what the solver needs.
///
/// Vertices are `0..vertex_count()`. Parallel edges are distinct moves: a vertex
/// with two edges to `w` has out-degree 2 and appears twice among the
/// predecessors of `w`. A self-loop is an ordinary move.
pub trait GameGraph {
    /// The number of positions.
    fn vertex_count(&self) -> usize;

    /// The number of moves out of `v`, counting parallel edges.
    fn out_degree(&self, v: u32) -> u32;

    /// Calls `f(u)` once for every move `u -> v` (so `u` repeats for parallel edges).
    fn for_each_predecessor<F: FnMut(u32)>(&self, v: u32, f: F);

    /// A fixed value for `v`, making it terminal whatever its moves
    /// (the moves are then ignored). The default: no position is labelled.
    fn terminal(&self, _v: u32) -> Option<Outcome> {
        None
    }
}

/// Forward access: the moves out of a position.
pub trait Successors: GameGraph {
    /// Calls `f(w)` once for every move `v -> w`, as many times as the move occurs.
    fn for_each_successor<F: FnMut(u32)>(&self, v: u32, f: F);
}

impl<G: GameGraph + ?Sized> GameGraph for &G {
    fn vertex_count(&self) -> usize {
        (**self).vertex_count()
    }
    fn out_degree(&self, v: u32) -> u32 {
        (**self).out_degree(v)
    }
    fn for_each_predecessor<F: FnMut(u32)>(&self, v: u32, f: F) {
        (**self).for_each_predecessor(v, f)
    }
    fn terminal(&self, v: u32) -> Option<Outcome> {
        (**self).terminal(v)
    }
}

impl<G: Successors + ?Sized> Successors for &G {
    fn for_each_successor<F: FnMut(u32)>(&self, v: u32, f: F) {
        (**self).for_each_successor(v, f)
    }
}
