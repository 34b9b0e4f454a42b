//! Random graphs for benchmarks and trials: `m` edges with uniform endpoints,
//! every move to a larger id (acyclic), or the same out-degree everywhere.

use super::EdgeSource;
use crate::error::Result;

/// Edges per chunk: chunks are generated independently, in parallel.
const CHUNK_EDGES: u64 = 1 << 20;

/// A reproducible random multigraph: `edges` moves whose two ends are drawn
/// uniformly from `0..vertices` (so self-loops and parallel edges occur, as in
/// real inputs). The same seed gives the same edges on any number of threads.
///
/// ```
/// use retrograde::graph::RandomEdges;
/// use retrograde::{CsrBuilder, GameGraph};
/// let g = CsrBuilder::new().build(&RandomEdges::new(1000, 6000, 7)).unwrap();
/// assert_eq!((g.vertex_count(), g.edge_count()), (1000, 6000));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct RandomEdges {
    vertices: u32,
    edges: u64,
    seed: u64,
    shape: Shape,
}

/// How the ends of the random edges are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// Both ends uniform.
    Uniform,
    /// The source uniform below the last vertex, the target uniform above it.
    Acyclic,
    /// Edge `i` leaves vertex `i / k`; the target uniform.
    OutDegree(u32),
}

impl RandomEdges {
    /// `edges` random edges over `vertices` vertices (at least 1), from `seed`.
    pub fn new(vertices: u32, edges: u64, seed: u64) -> RandomEdges {
        RandomEdges {
            vertices: vertices.max(1),
            edges,
            seed,
            shape: Shape::Uniform,
        }
    }

    /// `edges` random edges, each from a smaller id to a larger one, so that
    /// every line of play ends: no position is a draw. (With one vertex there
    /// is no such edge: the graph has none.)
    ///
    /// ```
    /// use retrograde::graph::RandomEdges;
    /// use retrograde::EdgeSource;
    /// RandomEdges::acyclic(100, 1000, 1).for_each_edge(|u, v| assert!(u < v)).unwrap();
    /// ```
    pub fn acyclic(vertices: u32, edges: u64, seed: u64) -> RandomEdges {
        let vertices = vertices.max(1);
        RandomEdges {
            vertices,
            edges: if vertices < 2 { 0 } else { edges },
            seed,
            shape: Shape::Acyclic,
        }
    }

    /// Exactly `out_degree` random moves from every vertex (`vertices ·
    /// out_degree` edges), their targets uniform.
    ///
    /// ```
    /// use retrograde::graph::RandomEdges;
    /// use retrograde::{CsrBuilder, GameGraph};
    /// let g = CsrBuilder::new().build(&RandomEdges::with_out_degree(100, 3, 1)).unwrap();
    /// assert!((0..100).all(|v| g.out_degree(v) == 3));
    /// ```
    pub fn with_out_degree(vertices: u32, out_degree: u32, seed: u64) -> RandomEdges {
        let vertices = vertices.max(1);
        RandomEdges {
            vertices,
            edges: u64::from(vertices) * u64::from(out_degree),
            seed,
            shape: if out_degree == 0 {
                Shape::Uniform
            } else {
                Shape::OutDegree(out_degree)
            },
        }
    }

    /// The number of edges.
    pub fn edge_count(&self) -> u64 {
        self.edges
    }

    /// The edges of chunk `c`, in order.
    pub fn chunk(&self, c: usize) -> impl Iterator<Item = (u32, u32)> + use<> {
        let start = c as u64 * CHUNK_EDGES;
        let len = CHUNK_EDGES.min(self.edges.saturating_sub(start));
        let mut state = splitmix64(self.seed ^ splitmix64(c as u64 + 1));
        let n = u64::from(self.vertices);
        let shape = self.shape;
        (start..start + len).map(move |i| {
            state = state.wrapping_add(GOLDEN);
            let x = splitmix64(state);
            // Two 32-bit halves, each mapped onto a range by a multiply-shift.
            let (lo, hi) = (x & 0xFFFF_FFFF, x >> 32);
            let (u, v) = match shape {
                Shape::Uniform => ((lo * n) >> 32, (hi * n) >> 32),
                Shape::Acyclic => {
                    let u = (lo * (n - 1)) >> 32;
                    (u, u + 1 + ((hi * (n - 1 - u)) >> 32))
                }
                Shape::OutDegree(k) => (i / u64::from(k), (hi * n) >> 32),
            };
            (u as u32, v as u32)
        })
    }
}

/// The increment of SplitMix64's state (the golden ratio in 64 bits).
pub(crate) const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64 (Steele, Lea and Flood, 2014): the output for state `z`, a
/// 64-bit mix in which every bit depends on every bit. The one random
/// number and hash finaliser of the library.
pub fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(GOLDEN);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl EdgeSource for RandomEdges {
    fn chunk_count(&self) -> usize {
        self.edges.div_ceil(CHUNK_EDGES) as usize
    }

    fn for_each_edge_in<F: FnMut(u32, u32)>(&self, chunk: usize, mut f: F) -> Result<()> {
        for (u, v) in self.chunk(chunk) {
            f(u, v);
        }
        Ok(())
    }

    fn declared_vertices(&self) -> Option<usize> {
        Some(self.vertices as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_edges_and_ids_in_range() {
        let a = RandomEdges::new(10, 3_000_000, 1);
        let mut count = 0;
        a.for_each_edge(|u, v| {
            assert!(u < 10 && v < 10);
            count += 1;
        })
        .unwrap();
        assert_eq!(count, 3_000_000);
        let first: Vec<_> = a.chunk(2).take(5).collect();
        assert_eq!(
            first,
            RandomEdges::new(10, 3_000_000, 1)
                .chunk(2)
                .take(5)
                .collect::<Vec<_>>()
        );
        assert_ne!(
            first,
            RandomEdges::new(10, 3_000_000, 2)
                .chunk(2)
                .take(5)
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn acyclic_edges_go_up_and_reach_the_last_vertex() {
        let mut top = 0;
        let mut count = 0;
        RandomEdges::acyclic(5, 10_000, 3)
            .for_each_edge(|u, v| {
                assert!(u < v && v < 5, "{u} {v}");
                top = top.max(v);
                count += 1;
            })
            .unwrap();
        assert_eq!((top, count), (4, 10_000));
        assert_eq!(RandomEdges::acyclic(1, 10, 3).edge_count(), 0);
    }

    #[test]
    fn out_degree_is_exact_across_chunks() {
        // 3 moves each from 500,000 vertices: chunks of 2^20 edges split rows.
        let mut deg = vec![0u32; 500_000];
        RandomEdges::with_out_degree(500_000, 3, 9)
            .for_each_edge(|u, v| {
                assert!(v < 500_000);
                deg[u as usize] += 1;
            })
            .unwrap();
        assert!(deg.iter().all(|&d| d == 3));
    }
}
