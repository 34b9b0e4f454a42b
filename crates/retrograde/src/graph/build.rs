//! Building a [`Csr`] from edges in `O(V + E)`: two passes and a counting sort.

use super::{csr::Adjacency, Csr, MAX_VERTICES, NONE};
use crate::error::{Error, Result};

/// Anything that can list its edges, as often as asked, in the same order.
///
/// The builder reads the edges twice — once to count degrees, once to place
/// them — so the raw edge list is never held in memory next to the graph.
pub trait EdgeSource {
    /// Calls `f(u, v)` for every edge `u -> v`. Must report the same edges on
    /// every call. Ids must be below the builder's vertex count if one was set.
    fn for_each_edge<F: FnMut(u32, u32)>(&self, f: F) -> Result<()>;

    /// The number of vertices the source itself declares, if any.
    fn declared_vertices(&self) -> Option<usize> {
        None
    }
}

impl EdgeSource for [(u32, u32)] {
    fn for_each_edge<F: FnMut(u32, u32)>(&self, mut f: F) -> Result<()> {
        for &(u, v) in self {
            f(u, v);
        }
        Ok(())
    }
}

impl EdgeSource for Vec<(u32, u32)> {
    fn for_each_edge<F: FnMut(u32, u32)>(&self, f: F) -> Result<()> {
        self.as_slice().for_each_edge(f)
    }
}

impl<const N: usize> EdgeSource for [(u32, u32); N] {
    fn for_each_edge<F: FnMut(u32, u32)>(&self, f: F) -> Result<()> {
        self.as_slice().for_each_edge(f)
    }
}

/// Builds a [`Csr`] from an [`EdgeSource`].
///
/// Time `O(V + E)`; memory: exactly the final graph (degrees are counted in
/// the offset array itself), nothing per edge besides the graph.
///
/// ```
/// use retrograde::{CsrBuilder, GameGraph};
/// let g = CsrBuilder::new().vertices(5).build(&[(0, 1), (1, 0)]).unwrap();
/// assert_eq!(g.vertex_count(), 5);
/// ```
#[derive(Clone, Debug, Default)]
pub struct CsrBuilder {
    vertices: Option<usize>,
    min_vertices: usize,
    memory_limit: Option<u64>,
    reserve_per_vertex: u64,
    reserve_per_edge: u64,
}

/// Bytes per vertex and per edge of a reverse-only [`Csr`].
pub(crate) const CSR_BYTES_PER_VERTEX: u64 = 12;
pub(crate) const CSR_BYTES_PER_EDGE: u64 = 4;

impl CsrBuilder {
    /// A builder that takes the vertex count from the largest id seen.
    pub fn new() -> CsrBuilder {
        CsrBuilder::default()
    }

    /// Fixes the vertex count: isolated vertices past the largest id are kept.
    pub fn vertices(mut self, n: usize) -> CsrBuilder {
        self.vertices = Some(n);
        self
    }

    /// Ensures at least `n` vertices (used when labels name vertices without edges).
    pub fn min_vertices(mut self, n: usize) -> CsrBuilder {
        self.min_vertices = n;
        self
    }

    /// Refuses, before allocating, a graph whose arrays would exceed `bytes`.
    pub fn memory_limit(mut self, bytes: u64) -> CsrBuilder {
        self.memory_limit = Some(bytes);
        self
    }

    /// Counts against the memory limit, besides the graph itself, memory the
    /// caller will need per vertex and per edge once the graph is built (a
    /// solver's state, the forward adjacency), so that a run too large for
    /// the limit is refused before anything big is allocated.
    pub fn reserve(mut self, bytes_per_vertex: u64, bytes_per_edge: u64) -> CsrBuilder {
        self.reserve_per_vertex = bytes_per_vertex;
        self.reserve_per_edge = bytes_per_edge;
        self
    }

    fn check_memory(&self, vertices: u64, edges: u64) -> Result<()> {
        if let Some(limit) = self.memory_limit {
            let per_vertex = CSR_BYTES_PER_VERTEX.saturating_add(self.reserve_per_vertex);
            let per_edge = CSR_BYTES_PER_EDGE.saturating_add(self.reserve_per_edge);
            let needed = vertices
                .saturating_mul(per_vertex)
                .saturating_add(edges.saturating_mul(per_edge));
            if needed > limit {
                return Err(Error::TooLarge {
                    what: format!("a graph of {vertices} vertices and {edges} edges"),
                    needed,
                    limit,
                });
            }
        }
        Ok(())
    }

    /// Reads `source` twice and builds the graph.
    pub fn build<S: EdgeSource + ?Sized>(&self, source: &S) -> Result<Csr> {
        let fixed = self.vertices.or(source.declared_vertices());
        if let Some(n) = fixed {
            if n > MAX_VERTICES {
                return Err(Error::Invalid(format!(
                    "{n} vertices is more than the {MAX_VERTICES} that u32 ids allow"
                )));
            }
            self.check_memory(n as u64, 0)?;
        }
        let n0 = fixed.unwrap_or(0).max(self.min_vertices);
        // `min_vertices` comes from labels, which may name any id: check it
        // before allocating, as a fixed count is checked above.
        self.check_memory(n0 as u64, 0)?;
        // Pass 1: out-degrees and in-degrees (in-degrees counted into the offsets).
        let mut out_degree: Vec<u32> = vec![0; n0];
        let mut offsets: Vec<u64> = vec![0; n0 + 1];
        let mut overflow = None;
        let mut too_big = None;
        let mut edges = 0u64;
        source.for_each_edge(|u, v| {
            let hi = u.max(v) as usize;
            if hi >= out_degree.len() {
                if fixed.is_some() || u == NONE || v == NONE || too_big.is_some() {
                    too_big.get_or_insert(hi);
                    return;
                }
                let want = (hi + 1).max(out_degree.len().saturating_mul(3) / 2);
                if self.check_memory(want as u64, edges).is_err() {
                    too_big.get_or_insert(hi);
                    return;
                }
                out_degree.resize(hi + 1, 0);
                offsets.resize(hi + 2, 0);
            }
            edges += 1;
            let d = &mut out_degree[u as usize];
            *d = d.wrapping_add(1);
            if *d == u32::MAX {
                overflow.get_or_insert(u);
            }
            offsets[v as usize] += 1;
        })?;
        if let Some(hi) = too_big {
            return Err(match fixed {
                Some(n) => Error::Invalid(format!(
                    "edge names vertex {hi}, but the graph has {n} vertices"
                )),
                None => {
                    self.check_memory(hi as u64 + 1, edges)?;
                    Error::Invalid(format!("vertex id {hi} is too large"))
                }
            });
        }
        if let Some(u) = overflow {
            return Err(Error::Invalid(format!(
                "vertex {u} has more than {} moves",
                u32::MAX - 1
            )));
        }
        let n = out_degree.len();
        self.check_memory(n as u64, edges)?;
        // Inclusive prefix sums: offsets[v] = end of row v, offsets[n] = E.
        let mut sum = 0u64;
        for o in offsets.iter_mut().take(n) {
            sum += *o;
            *o = sum;
        }
        offsets[n] = sum;
        // Pass 2: place each edge at the end of its row, moving the cursor down;
        // when done, offsets[v] is the start of row v.
        let mut targets: Vec<u32> = vec![NONE; sum as usize];
        let mut mismatch = false;
        source.for_each_edge(|u, v| {
            let c = &mut offsets[v as usize];
            if (v as usize) < n && (u as usize) < n && *c > 0 {
                *c -= 1;
                targets[*c as usize] = u;
            } else {
                mismatch = true;
            }
        })?;
        let consistent =
            !mismatch && (0..n).all(|v| offsets[v] <= offsets[v + 1]) && offsets[0] == 0;
        if !consistent {
            return Err(Error::Invalid(
                "the edge source changed between its two passes".into(),
            ));
        }
        Ok(Csr {
            out_degree,
            reverse: Adjacency { offsets, targets },
            forward: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GameGraph;

    #[test]
    fn vertex_count_is_largest_id_plus_one() {
        let g = CsrBuilder::new().build(&[(3, 7), (7, 3)]).unwrap();
        assert_eq!(g.vertex_count(), 8);
        assert_eq!(g.edge_count(), 2);
    }

    #[test]
    fn fixed_vertex_count_rejects_larger_ids() {
        let e = CsrBuilder::new().vertices(3).build(&[(0, 3)]).unwrap_err();
        assert!(e.to_string().contains("vertex 3"), "{e}");
    }

    #[test]
    fn memory_limit_refuses_huge_ids_before_allocating() {
        let e = CsrBuilder::new()
            .memory_limit(1 << 20)
            .build(&[(0, 4_000_000_000)])
            .unwrap_err();
        assert!(matches!(e, Error::TooLarge { .. }), "{e}");
    }

    #[test]
    fn labels_naming_a_huge_vertex_are_refused_before_allocating() {
        // Regression: `min_vertices` (from a label file naming vertex
        // 4294967294) was allocated without a memory check.
        let e = CsrBuilder::new()
            .memory_limit(1 << 20)
            .min_vertices(u32::MAX as usize)
            .build(&[(0, 1)])
            .unwrap_err();
        assert!(matches!(e, Error::TooLarge { .. }), "{e}");
    }

    #[test]
    fn reserved_memory_counts_against_the_limit() {
        let b = CsrBuilder::new().vertices(1000).memory_limit(20_000);
        assert!(b.clone().build(&[(0, 1)]).is_ok());
        let e = b.reserve(17, 0).build(&[(0, 1)]).unwrap_err();
        assert!(matches!(e, Error::TooLarge { needed: 29_000, .. }), "{e}");
    }

    #[test]
    fn sentinel_id_is_refused() {
        assert!(CsrBuilder::new().build(&[(0, u32::MAX)]).is_err());
    }
}
