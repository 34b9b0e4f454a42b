//! How the solver sees a game: small access traits over dense `u32` vertex ids.
//!
//! The solver only needs, for every position, how many moves it has and which
//! positions move into it ([`GameGraph`]). Features that walk forwards (checking a
//! game, exporting it, verifying a solution, listing moves) also ask for
//! [`Successors`]. An explicit graph is a [`Csr`] (what the solvers read) or
//! a [`Graph`] (both directions); a game generated on the fly implements both traits.

mod arena;
mod build;
pub(crate) mod csr;
mod random;

pub use arena::Arena;
pub use build::{CsrBuilder, EdgeSource};
pub use csr::{Adjacency, Csr, Graph};
pub(crate) use random::GOLDEN;
pub use random::{RandomEdges, splitmix64};

use crate::{Outcome, Player};

/// Vertices per chunk when a graph's edges are read in parallel.
pub(crate) const CHUNK: usize = 1 << 16;

/// The vertices of chunk `chunk` of a graph of `n` (see [`CHUNK`]).
pub(crate) fn chunk_range(chunk: usize, n: usize) -> std::ops::Range<u32> {
    (chunk * CHUNK).min(n) as u32..((chunk + 1) * CHUNK).min(n) as u32
}

/// How many chunks a graph of `n` vertices has (at least one).
pub(crate) fn chunk_count(n: usize) -> usize {
    n.div_ceil(CHUNK).max(1)
}

/// The moves of a graph read forwards, as an [`EdgeSource`]: grouped by
/// source in increasing order, in chunks of sources that can be read in
/// parallel. Indices that are not positions contribute no edge.
#[derive(Clone, Copy, Debug)]
pub struct Forward<'a, G: ?Sized>(pub &'a G);

impl<G: Successors + Sync + ?Sized> EdgeSource for Forward<'_, G> {
    fn chunk_count(&self) -> usize {
        chunk_count(self.0.vertex_count())
    }

    fn for_each_edge_in<F: FnMut(u32, u32)>(&self, chunk: usize, mut f: F) -> crate::Result<()> {
        for u in chunk_range(chunk, self.0.vertex_count()) {
            if self.0.is_position(u) {
                self.0.for_each_successor(u, |v| f(u, v));
            }
        }
        Ok(())
    }

    fn declared_vertices(&self) -> Option<usize> {
        Some(self.0.vertex_count())
    }
}

/// A stable counting sort: the values of `items` (pairs `(bucket, value)`,
/// every bucket below `buckets`) grouped by bucket, keeping their order
/// within a bucket. Returns the `buckets + 1` group starts (the last one the
/// number of items) and the values. `items` is walked twice (count, then
/// place), so no copy of it is held. Time **O(buckets + items)**; memory
/// the result.
///
/// ```
/// use retrograde::graph::counting_sort;
/// let (starts, values) = counting_sort(3, [(2, 'a'), (0, 'b'), (2, 'c')].into_iter());
/// assert_eq!(starts, [0, 1, 1, 3]);
/// assert_eq!(values, ['b', 'a', 'c']);
/// ```
pub fn counting_sort<V: Copy + Default + Send + Sync>(
    buckets: usize,
    items: impl Iterator<Item = (usize, V)> + Clone,
) -> (Vec<u64>, Vec<V>) {
    let mut starts = vec![0u64; buckets + 1];
    for (b, _) in items.clone() {
        starts[b + 1] += 1;
    }
    for b in 0..buckets {
        starts[b + 1] += starts[b];
    }
    let mut cursor = starts[..buckets].to_vec();
    let mut values = crate::alloc::filled(starts[buckets] as usize, V::default());
    for (b, v) in items {
        // An iterator that yields more the second time only loses the excess.
        let c = &mut cursor[b];
        if *c < starts[b + 1] {
            values[*c as usize] = v;
            *c += 1;
        }
    }
    (starts, values)
}

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

    /// Whether `v` is a position at all. A dense numbering may leave indices
    /// unused; they are never decided, counted or written. The default: every
    /// index is a position.
    fn is_position(&self, _v: u32) -> bool {
        true
    }

    /// Who moves at `v`, in a game where a player may move twice in a row
    /// (an arena's owners, dots and boxes' extra turn). The default: no one
    /// is named, and every move passes the turn (strict alternation).
    ///
    /// Values are always for the player to move. A move from `u` to `v`
    /// keeps the turn when both name the same player
    /// ([`GameGraph::same_player`]); then `v`'s value is the mover's own and
    /// is not flipped: a win there is a win for them.
    #[inline]
    fn owner(&self, _v: u32) -> Option<Player> {
        None
    }

    /// Whether the player who moves at `from` also moves at `to`: both
    /// have an owner ([`GameGraph::owner`]) and it is the same. The rule
    /// every engine, the reference and `verify` apply to a move.
    #[inline]
    fn same_player(&self, from: u32, to: u32) -> bool {
        Player::keeps_turn(self.owner(from), self.owner(to))
    }

    /// [`GameGraph::terminal`], and [`GameGraph::out_degree`] if `v` is not
    /// terminal (0 if it is): what a solve asks of every position to start
    /// it. Override it where both come from the same costly work (a game
    /// that unnumbers its positions). The default calls the two.
    #[inline]
    fn terminal_and_degree(&self, v: u32) -> (Option<Outcome>, u32) {
        match self.terminal(v) {
            Some(o) => (Some(o), 0),
            None => (None, self.out_degree(v)),
        }
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
    fn is_position(&self, v: u32) -> bool {
        (**self).is_position(v)
    }
    fn terminal_and_degree(&self, v: u32) -> (Option<Outcome>, u32) {
        (**self).terminal_and_degree(v)
    }
    #[inline]
    fn owner(&self, v: u32) -> Option<Player> {
        (**self).owner(v)
    }
    #[inline]
    fn same_player(&self, from: u32, to: u32) -> bool {
        (**self).same_player(from, to)
    }
}

impl<G: Successors + ?Sized> Successors for &G {
    fn for_each_successor<F: FnMut(u32)>(&self, v: u32, f: F) {
        (**self).for_each_successor(v, f)
    }
}
