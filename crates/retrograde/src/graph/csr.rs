//! An explicit graph in compressed sparse row (CSR) form.

use super::{GameGraph, Successors};

/// Rows of `u32` ids packed into one array: row `v` is
/// `targets[offsets[v]..offsets[v + 1]]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Adjacency {
    pub(crate) offsets: Vec<u64>,
    pub(crate) targets: Vec<u32>,
}

impl Adjacency {
    /// Row `v`.
    #[inline]
    pub fn row(&self, v: u32) -> &[u32] {
        let v = v as usize;
        &self.targets[self.offsets[v] as usize..self.offsets[v + 1] as usize]
    }

    /// The row offsets (`vertex_count + 1` entries, the last one the edge count).
    pub fn offsets(&self) -> &[u64] {
        &self.offsets
    }

    /// All rows, concatenated.
    pub fn targets(&self) -> &[u32] {
        &self.targets
    }
}

/// An explicit game graph as the solvers read it: out-degrees and the reverse
/// adjacency (predecessors) in CSR form. [`Csr::with_successors`] adds the
/// forward adjacency, for what walks forwards ([`Graph`]).
///
/// Memory: `4V` bytes of out-degrees, `8(V + 1) + 4E` of reverse adjacency.
/// Parallel edges and self-loops are kept.
///
/// ```
/// use retrograde::{Csr, GameGraph};
/// // 0 -> 1, 0 -> 1 (parallel), 1 -> 1 (self-loop)
/// let g = Csr::from_edges(2, &[(0, 1), (0, 1), (1, 1)]);
/// assert_eq!(g.out_degree(0), 2);
/// let mut preds = g.predecessors(1).to_vec();
/// preds.sort();
/// assert_eq!(preds, [0, 0, 1]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Csr {
    pub(crate) out_degree: Vec<u32>,
    pub(crate) reverse: Adjacency,
}

impl Csr {
    /// Builds a graph of `n` vertices from an edge slice. Panics if an id is `>= n`;
    /// use [`CsrBuilder`](super::CsrBuilder) for input that needs checking.
    pub fn from_edges(n: usize, edges: &[(u32, u32)]) -> Csr {
        super::CsrBuilder::new()
            .vertices(n)
            .build(edges)
            .expect("edge ids must be below the vertex count")
    }

    /// The number of edges (moves), parallel edges counted.
    pub fn edge_count(&self) -> u64 {
        self.reverse.targets.len() as u64
    }

    /// The vertices with an edge into `v` (in no particular order), repeated for parallel edges.
    #[inline]
    pub fn predecessors(&self, v: u32) -> &[u32] {
        self.reverse.row(v)
    }

    /// The reverse adjacency.
    pub fn reverse(&self) -> &Adjacency {
        &self.reverse
    }

    /// The out-degrees of all vertices.
    pub fn out_degrees(&self) -> &[u32] {
        &self.out_degree
    }

    /// This graph with its forward adjacency, built from the reverse one in
    /// `O(V + E)` (`8(V + 1) + 4E` bytes more).
    pub fn with_successors(self) -> Graph {
        let forward = transpose(&self.reverse, self.vertex_count());
        Graph { csr: self, forward }
    }

    /// Every edge `(u, v)`, grouped by target `v` in increasing order.
    pub fn edges(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        (0..self.vertex_count() as u32)
            .flat_map(move |v| self.predecessors(v).iter().map(move |&u| (u, v)))
    }
}

/// The transpose of `rows` (`n` columns): row `u` of the result lists the
/// rows that contain `u`, in increasing order, with multiplicity.
fn transpose(rows: &Adjacency, n: usize) -> Adjacency {
    let items = (0..rows.offsets.len().saturating_sub(1) as u32)
        .flat_map(|v| rows.row(v).iter().map(move |&u| (u as usize, v)));
    let (offsets, targets) = super::counting_sort(n, items);
    Adjacency { offsets, targets }
}

/// A graph lists its edges grouped by target, in chunks of vertices, so it
/// can be rebuilt or written out in parallel.
impl super::EdgeSource for Csr {
    fn chunk_count(&self) -> usize {
        super::chunk_count(self.vertex_count())
    }

    fn for_each_edge_in<F: FnMut(u32, u32)>(&self, chunk: usize, mut f: F) -> crate::Result<()> {
        for v in super::chunk_range(chunk, self.vertex_count()) {
            for &u in self.predecessors(v) {
                f(u, v);
            }
        }
        Ok(())
    }

    fn declared_vertices(&self) -> Option<usize> {
        Some(self.vertex_count())
    }
}

impl GameGraph for Csr {
    #[inline]
    fn vertex_count(&self) -> usize {
        self.out_degree.len()
    }
    #[inline]
    fn out_degree(&self, v: u32) -> u32 {
        self.out_degree[v as usize]
    }
    #[inline]
    fn for_each_predecessor<F: FnMut(u32)>(&self, v: u32, f: F) {
        self.predecessors(v).iter().copied().for_each(f)
    }
}

/// An explicit game graph in both directions: a [`Csr`] and its forward
/// adjacency, for what walks forwards (verifying, exporting, listing moves).
///
/// ```
/// use retrograde::Csr;
/// let g = Csr::from_edges(3, &[(2, 0), (0, 1), (0, 1)]).with_successors();
/// assert_eq!(g.successors(0), &[1, 1]);
/// assert_eq!(g.predecessors(0), &[2]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Graph {
    csr: Csr,
    forward: Adjacency,
}

impl Graph {
    /// The vertices `v` moves to, in increasing order, repeated for parallel edges.
    #[inline]
    pub fn successors(&self, v: u32) -> &[u32] {
        self.forward.row(v)
    }

    /// The vertices with an edge into `v` (see [`Csr::predecessors`]).
    #[inline]
    pub fn predecessors(&self, v: u32) -> &[u32] {
        self.csr.predecessors(v)
    }

    /// The number of edges (moves), parallel edges counted.
    pub fn edge_count(&self) -> u64 {
        self.csr.edge_count()
    }

    /// Every edge `(u, v)`, grouped by target (see [`Csr::edges`]).
    pub fn edges(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.csr.edges()
    }

    /// The forward adjacency.
    pub fn forward(&self) -> &Adjacency {
        &self.forward
    }

    /// The solvers' view: out-degrees and predecessors.
    pub fn csr(&self) -> &Csr {
        &self.csr
    }

    /// The solvers' view alone, without the forward adjacency.
    pub fn into_csr(self) -> Csr {
        self.csr
    }
}

impl GameGraph for Graph {
    #[inline]
    fn vertex_count(&self) -> usize {
        self.csr.vertex_count()
    }
    #[inline]
    fn out_degree(&self, v: u32) -> u32 {
        self.csr.out_degree(v)
    }
    #[inline]
    fn for_each_predecessor<F: FnMut(u32)>(&self, v: u32, f: F) {
        self.csr.for_each_predecessor(v, f)
    }
}

impl Successors for Graph {
    #[inline]
    fn for_each_successor<F: FnMut(u32)>(&self, v: u32, f: F) {
        self.successors(v).iter().copied().for_each(f)
    }
}

impl super::EdgeSource for Graph {
    fn chunk_count(&self) -> usize {
        self.csr.chunk_count()
    }
    fn for_each_edge_in<F: FnMut(u32, u32)>(&self, chunk: usize, f: F) -> crate::Result<()> {
        self.csr.for_each_edge_in(chunk, f)
    }
    fn declared_vertices(&self) -> Option<usize> {
        Some(self.vertex_count())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn successors_are_the_transpose_with_multiplicity() {
        let g = Csr::from_edges(3, &[(2, 0), (0, 1), (0, 1), (1, 1), (0, 2)]).with_successors();
        assert_eq!(g.successors(0), &[1, 1, 2]);
        assert_eq!(g.successors(1), &[1]);
        assert_eq!(g.successors(2), &[0]);
        let mut preds = g.predecessors(1).to_vec();
        preds.sort();
        assert_eq!(preds, [0, 0, 1]);
        assert_eq!(g.edge_count(), 5);
        let mut e: Vec<_> = g.edges().collect();
        e.sort();
        assert_eq!(e, vec![(0, 1), (0, 1), (0, 2), (1, 1), (2, 0)]);
    }

    #[test]
    fn graph_without_edges_has_empty_rows() {
        let g = Csr::from_edges(4, &[]).with_successors();
        assert_eq!(g.vertex_count(), 4);
        assert_eq!(g.edge_count(), 0);
        assert!(g.predecessors(3).is_empty() && g.successors(3).is_empty());
    }
}
