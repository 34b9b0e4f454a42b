//! Building a [`Csr`] from edges in `O(V + E)`: two passes and a counting sort,
//! in parallel over chunks of the input.

use rayon::prelude::*;

use super::{Csr, MAX_VERTICES, NONE, csr::Adjacency};
use crate::alloc::{filled, prefetch};
use crate::error::{Error, Naming, Result};

/// Anything that can list its edges, as often as asked, in the same order,
/// optionally split into chunks that can be read in parallel.
///
/// The builder reads the edges twice — once to count degrees, once to place
/// them — so the raw edge list is never held in memory next to the graph.
pub trait EdgeSource: Sync {
    /// How many chunks the edges come in (read in parallel when threads allow).
    fn chunk_count(&self) -> usize {
        1
    }

    /// Calls `f(u, v)` for every edge `u -> v` of chunk `chunk`. Must report the
    /// same edges on every call.
    fn for_each_edge_in<F: FnMut(u32, u32)>(&self, chunk: usize, f: F) -> Result<()>;

    /// Calls `f(u, v)` for every edge, chunk after chunk.
    fn for_each_edge<F: FnMut(u32, u32)>(&self, mut f: F) -> Result<()> {
        for c in 0..self.chunk_count() {
            self.for_each_edge_in(c, &mut f)?;
        }
        Ok(())
    }

    /// The number of vertices the source itself declares, if any.
    fn declared_vertices(&self) -> Option<usize> {
        None
    }
}

impl EdgeSource for [(u32, u32)] {
    fn for_each_edge_in<F: FnMut(u32, u32)>(&self, _chunk: usize, mut f: F) -> Result<()> {
        for &(u, v) in self {
            f(u, v);
        }
        Ok(())
    }
}

impl EdgeSource for Vec<(u32, u32)> {
    fn for_each_edge_in<F: FnMut(u32, u32)>(&self, chunk: usize, f: F) -> Result<()> {
        self.as_slice().for_each_edge_in(chunk, f)
    }
}

impl<const N: usize> EdgeSource for [(u32, u32); N] {
    fn for_each_edge_in<F: FnMut(u32, u32)>(&self, chunk: usize, f: F) -> Result<()> {
        self.as_slice().for_each_edge_in(chunk, f)
    }
}

/// Builds a [`Csr`] from an [`EdgeSource`].
///
/// Time `O(V + E)`, in parallel over the source's chunks. Rows list the
/// predecessors in input order, whatever the number of threads. Memory: the
/// final graph, plus 4 bytes per vertex per chunk while counting when there is
/// more than one chunk.
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

/// Degree counts of one chunk.
struct Counts {
    out: Vec<u32>,
    into: Vec<u32>,
    edges: u64,
    /// Every edge read and the largest id, counted even past a refusal, so
    /// that a refusal names the whole graph and not the part that fitted.
    seen: u64,
    largest: u32,
    /// The first id that did not fit (past the fixed count or the memory limit).
    too_big: Option<u32>,
    /// A vertex whose degree overflowed `u32`.
    overflow: Option<u32>,
}

/// A pointer that may be shared between threads writing disjoint indices.
#[derive(Clone, Copy)]
struct SharedMut(*mut u32);
unsafe impl Send for SharedMut {}
unsafe impl Sync for SharedMut {}

impl SharedMut {
    /// # Safety
    /// `i` must be in bounds and written by no other thread.
    unsafe fn write(&self, i: usize, value: u32) {
        unsafe {
            *self.0.add(i) = value;
        }
    }
}

/// Edges buffered so that their scattered memory accesses can be prefetched
/// ahead of use: parsing one edge at a time leaves the processor waiting on
/// one cache miss after another.
struct Batch {
    u: Vec<u32>,
    v: Vec<u32>,
}

const BATCH: usize = 1024;
/// How many edges ahead the prefetches run.
const AHEAD: usize = 16;

impl Batch {
    fn new() -> Batch {
        Batch {
            u: Vec::with_capacity(BATCH),
            v: Vec::with_capacity(BATCH),
        }
    }

    /// Adds an edge; true when the batch is full.
    #[inline(always)]
    fn push(&mut self, u: u32, v: u32) -> bool {
        self.u.push(u);
        self.v.push(v);
        self.u.len() == BATCH
    }

    /// Counts the batch's edges into the degree arrays (ids already checked).
    fn count(&mut self, out: &mut [u32], into: &mut [u32], overflow: &mut Option<u32>) {
        let len = self.u.len();
        for i in 0..len {
            if i + AHEAD < len {
                prefetch(out.as_ptr().wrapping_add(self.u[i + AHEAD] as usize));
                prefetch(into.as_ptr().wrapping_add(self.v[i + AHEAD] as usize));
            }
            let (u, v) = (self.u[i], self.v[i]);
            let d = &mut out[u as usize];
            *d = d.wrapping_add(1);
            if *d == u32::MAX {
                overflow.get_or_insert(u);
            }
            let d = &mut into[v as usize];
            *d = d.wrapping_add(1);
            if *d == u32::MAX {
                overflow.get_or_insert(v);
            }
        }
        self.u.clear();
        self.v.clear();
    }

    /// Places the batch's edges at their rows' cursors (`offsets[v]`, moved
    /// on). True if an edge does not fit: the source changed between passes.
    fn place(&mut self, offsets: &mut [u64], targets: &mut [u32], n: usize) -> bool {
        let len = self.u.len();
        let mut bad = false;
        for i in 0..len {
            // Two stages: the row cursor far ahead, then (its cursor now
            // cached) the slot it points to.
            if i + 2 * AHEAD < len {
                prefetch(
                    offsets
                        .as_ptr()
                        .wrapping_add(self.v[i + 2 * AHEAD] as usize),
                );
            }
            if i + AHEAD < len {
                let vi = (self.v[i + AHEAD] as usize).min(n);
                prefetch(targets.as_ptr().wrapping_add(offsets[vi] as usize));
            }
            let (u, v) = (self.u[i], self.v[i]);
            let vi = v as usize;
            if vi >= n || (u as usize) >= n || offsets[vi] >= offsets[vi + 1] {
                bad = true;
                continue;
            }
            targets[offsets[vi] as usize] = u;
            offsets[vi] += 1;
        }
        self.u.clear();
        self.v.clear();
        bad
    }
}

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
        self.min_vertices = self.min_vertices.max(n);
        self
    }

    /// The memory limit, if one was set.
    pub fn limit(&self) -> Option<u64> {
        self.memory_limit
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

    fn check_memory(&self, vertices: u64, edges: u64, chunks: u64) -> Result<()> {
        if let Some(limit) = self.memory_limit {
            let counts = if chunks > 1 { 8 * chunks } else { 0 };
            let per_vertex =
                (CSR_BYTES_PER_VERTEX + counts).saturating_add(self.reserve_per_vertex);
            let per_edge = CSR_BYTES_PER_EDGE.saturating_add(self.reserve_per_edge);
            let needed = vertices
                .saturating_mul(per_vertex)
                .saturating_add(edges.saturating_mul(per_edge));
            if needed > limit {
                return Err(Error::TooLarge {
                    vertices,
                    edges,
                    needed,
                    limit,
                });
            }
        }
        Ok(())
    }

    /// Pass 1 over a group of chunks: out- and in-degrees, growing the arrays as ids appear.
    fn count<S: EdgeSource + ?Sized>(
        &self,
        source: &S,
        group: std::ops::Range<usize>,
        fixed: Option<usize>,
        n0: usize,
        chunks: u64,
    ) -> Result<Counts> {
        let mut c = Counts {
            out: filled(n0, 0),
            into: filled(n0, 0),
            edges: 0,
            seen: 0,
            largest: 0,
            too_big: None,
            overflow: None,
        };
        let mut batch = Batch::new();
        let mut count_one = |u: u32, v: u32| {
            let hi = u.max(v) as usize;
            c.seen += 1;
            c.largest = c.largest.max(hi as u32);
            if hi >= c.out.len() {
                if fixed.is_some() || u == NONE || v == NONE || c.too_big.is_some() {
                    c.too_big.get_or_insert(hi as u32);
                    return;
                }
                if self.check_memory(hi as u64 + 1, c.edges, chunks).is_err() {
                    c.too_big.get_or_insert(hi as u32);
                    return;
                }
                c.out.resize(hi + 1, 0);
                c.into.resize(hi + 1, 0);
            }
            c.edges += 1;
            if batch.push(u, v) {
                batch.count(&mut c.out, &mut c.into, &mut c.overflow);
            }
        };
        for ch in group {
            source.for_each_edge_in(ch, &mut count_one)?;
        }
        batch.count(&mut c.out, &mut c.into, &mut c.overflow);
        Ok(c)
    }

    /// Reads `source` twice and builds the graph, in parallel over its chunks
    /// (on the current rayon pool) when it has more than one.
    pub fn build<S: EdgeSource + ?Sized>(&self, source: &S) -> Result<Csr> {
        let plan = self.plan(source)?;
        let counts = self.count_all(source, &plan)?;
        let Merged {
            out_degree,
            mut offsets,
            cursors,
        } = merge(counts)?;
        let n = out_degree.len();
        let edges = offsets[n];
        let mut targets: Vec<u32> = filled(edges as usize, NONE);
        let changed = match cursors {
            None => place_one(source, &mut offsets, &mut targets)?,
            Some(cursors) => place_groups(source, &plan, &offsets, &mut targets, cursors)?,
        };
        // Every slot filled exactly once, or the source changed between passes.
        if changed || targets.par_iter().with_min_len(1 << 16).any(|&t| t == NONE) {
            return Err(Error::SourceChanged);
        }
        Ok(Csr {
            out_degree,
            reverse: Adjacency { offsets, targets },
        })
    }

    /// The vertex count if fixed, the chunk groups, and the memory checks that
    /// can be made before reading anything.
    fn plan<S: EdgeSource + ?Sized>(&self, source: &S) -> Result<Plan> {
        let fixed = self.vertices.or(source.declared_vertices());
        // Chunks are read in contiguous groups, one per thread, each with its own counts.
        let total_chunks = source.chunk_count().max(1);
        let groups = total_chunks.min(rayon::current_num_threads()).max(1);
        if let Some(n) = fixed {
            if n > MAX_VERTICES {
                return Err(Error::TooManyVertices { vertices: n as u64 });
            }
            self.check_memory(n as u64, 0, groups as u64)?;
        }
        let n0 = fixed.unwrap_or(0).max(self.min_vertices);
        // `min_vertices` comes from labels, which may name any id: check it
        // before allocating, as a fixed count is checked above.
        self.check_memory(n0 as u64, 0, groups as u64)?;
        Ok(Plan {
            fixed,
            n0,
            total_chunks,
            groups,
        })
    }

    /// Pass 1: the degrees of every group of chunks (in parallel), checked:
    /// ids in range, within the memory limit.
    fn count_all<S: EdgeSource + ?Sized>(&self, source: &S, plan: &Plan) -> Result<Vec<Counts>> {
        let g = plan.groups;
        let counts: Vec<Counts> = if g == 1 {
            vec![self.count(source, plan.group(0), plan.fixed, plan.n0, 1)?]
        } else {
            (0..g)
                .into_par_iter()
                .map(|c| self.count(source, plan.group(c), plan.fixed, plan.n0, g as u64))
                .collect::<Result<_>>()?
        };
        let edges: u64 = counts.iter().map(|c| c.edges).sum();
        if let Some(hi) = counts.iter().filter_map(|c| c.too_big).max() {
            if plan.fixed.is_none() && hi != NONE {
                // Refused for memory: name the whole graph.
                let seen: u64 = counts.iter().map(|c| c.seen).sum();
                let largest = counts.iter().map(|c| c.largest).max().unwrap_or(0);
                self.check_memory(u64::from(largest) + 1, seen, g as u64)?;
            }
            return Err(Error::VertexOutOfRange {
                what: Naming::Edge,
                vertex: u64::from(hi),
                vertices: plan.fixed.map(|n| n as u64),
            });
        }
        let n = counts.iter().map(|c| c.out.len()).max().unwrap_or(plan.n0);
        self.check_memory(n as u64, edges, g as u64)?;
        Ok(counts)
    }
}

/// How a build reads its source.
struct Plan {
    /// The vertex count, if fixed in advance.
    fixed: Option<usize>,
    /// The vertex count to start counting with.
    n0: usize,
    total_chunks: usize,
    /// Groups of consecutive chunks, one per thread.
    groups: usize,
}

impl Plan {
    /// The chunks of group `g`.
    fn group(&self, g: usize) -> std::ops::Range<usize> {
        (g * self.total_chunks / self.groups)..((g + 1) * self.total_chunks / self.groups)
    }
}

/// Merges the groups' counts: the total out-degrees; the row offsets
/// (exclusive prefix sums of the in-degrees, the last one the edge count);
/// with more than one group, each group's cursor within every row (the edges
/// of earlier groups come first).
fn merge(mut counts: Vec<Counts>) -> Result<Merged> {
    let n = counts.iter().map(|c| c.out.len()).max().unwrap_or(0);
    for c in counts.iter_mut() {
        c.out.resize(n, 0);
        c.into.resize(n, 0);
    }
    let mut overflow = counts.iter().find_map(|c| c.overflow);
    let mut offsets: Vec<u64> = filled(n + 1, 0);
    let (first, rest) = counts.split_first_mut().expect("one group at least");
    let mut out_degree = std::mem::take(&mut first.out);
    let cursors = if rest.is_empty() {
        for (o, &d) in offsets.iter_mut().zip(&first.into) {
            *o = u64::from(d);
        }
        None
    } else {
        let mut cursors: Vec<Vec<u32>> = std::iter::once(std::mem::take(&mut first.into))
            .chain(rest.iter_mut().map(|c| std::mem::take(&mut c.into)))
            .collect();
        for v in 0..n {
            let mut row = 0u64;
            for into in cursors.iter_mut() {
                let d = into[v];
                into[v] = row as u32;
                row += u64::from(d);
            }
            if row >= u64::from(u32::MAX) {
                overflow.get_or_insert(v as u32);
            }
            offsets[v] = row;
        }
        for c in rest.iter_mut() {
            for (u, (o, &d)) in out_degree.iter_mut().zip(&c.out).enumerate() {
                let (s, over) = o.overflowing_add(d);
                *o = s;
                if over || s == u32::MAX {
                    overflow.get_or_insert(u as u32);
                }
            }
            c.out = Vec::new();
        }
        Some(cursors)
    };
    if let Some(v) = overflow {
        return Err(Error::TooManyMoves { vertex: v });
    }
    // Exclusive prefix sums: offsets[v] = start of row v, offsets[n] = E.
    let mut sum = 0u64;
    for o in offsets.iter_mut() {
        let d = *o;
        *o = sum;
        sum += d;
    }
    Ok(Merged {
        out_degree,
        offsets,
        cursors,
    })
}

/// What [`merge`] gives: out-degrees, row offsets, per-group cursors.
struct Merged {
    out_degree: Vec<u32>,
    offsets: Vec<u64>,
    cursors: Option<Vec<Vec<u32>>>,
}

/// Pass 2 from one group: `offsets[v]` is row `v`'s cursor; afterwards it is
/// the end of row `v`, so everything shifts one place right. True if an edge
/// did not fit (the source changed).
fn place_one<S: EdgeSource + ?Sized>(
    source: &S,
    offsets: &mut [u64],
    targets: &mut [u32],
) -> Result<bool> {
    let n = offsets.len() - 1;
    let mut batch = Batch::new();
    let mut bad = false;
    source.for_each_edge(|u, v| {
        if batch.push(u, v) {
            bad |= batch.place(offsets, targets, n);
        }
    })?;
    bad |= batch.place(offsets, targets, n);
    offsets.copy_within(0..n, 1);
    offsets[0] = 0;
    Ok(bad)
}

/// Pass 2 from several groups in parallel, each placing its edges at its own
/// cursors within every row. True if an edge did not fit (the source changed).
fn place_groups<S: EdgeSource + ?Sized>(
    source: &S,
    plan: &Plan,
    offsets: &[u64],
    targets: &mut [u32],
    mut cursors: Vec<Vec<u32>>,
) -> Result<bool> {
    let n = offsets.len() - 1;
    let mismatch = std::sync::atomic::AtomicBool::new(false);
    let ptr = SharedMut(targets.as_mut_ptr());
    cursors
        .par_iter_mut()
        .enumerate()
        .try_for_each(|(g, cursor)| {
            plan.group(g).try_for_each(|chunk| {
                source.for_each_edge_in(chunk, |u, v| {
                    let vi = v as usize;
                    if vi >= n || (u as usize) >= n {
                        mismatch.store(true, std::sync::atomic::Ordering::Relaxed);
                        return;
                    }
                    let at = offsets[vi] + u64::from(cursor[vi]);
                    if at >= offsets[vi + 1] {
                        mismatch.store(true, std::sync::atomic::Ordering::Relaxed);
                        return;
                    }
                    cursor[vi] += 1;
                    // SAFETY: `at` is inside row v, in this group's own range
                    // of it (the cursors of different groups cover disjoint
                    // ranges), and below the edge count.
                    unsafe { ptr.write(at as usize, u) };
                })
            })
        })?;
    Ok(mismatch.load(std::sync::atomic::Ordering::Relaxed))
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

    /// Edges split into chunks, to exercise the parallel path.
    struct Chunked(Vec<Vec<(u32, u32)>>);
    impl EdgeSource for Chunked {
        fn chunk_count(&self) -> usize {
            self.0.len()
        }
        fn for_each_edge_in<F: FnMut(u32, u32)>(&self, c: usize, f: F) -> Result<()> {
            self.0[c].for_each_edge_in(0, f)
        }
    }

    #[test]
    fn rows_keep_input_order_whatever_the_chunking() {
        let edges: Vec<(u32, u32)> = (0..200u32).map(|i| (i * 7 % 13, i * 5 % 11)).collect();
        let one = CsrBuilder::new().build(&edges).unwrap();
        for k in [2, 3, 7, 200] {
            let chunks = Chunked(edges.chunks(200 / k).map(|c| c.to_vec()).collect());
            let many = CsrBuilder::new().build(&chunks).unwrap();
            assert_eq!(one, many, "{k} chunks");
        }
        for v in 0..11 {
            let want: Vec<u32> = edges.iter().filter(|e| e.1 == v).map(|e| e.0).collect();
            assert_eq!(one.predecessors(v), &want[..]);
        }
    }
}
