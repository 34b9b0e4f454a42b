//! Inputs that workers read in shares: each worker parses only its own part.

use std::path::Path;

use retrograde::EdgeSource;
use retrograde::io::Input;
use retrograde::io::edge_list::EdgeList;

/// An edge source that can be read in shards: worker `k` of `n` reads shard
/// `k` of `n`, and together the shards list every edge exactly once.
///
/// Every process of a cluster opens the same input (a shared file system or a
/// copy on each machine) but parses only the shards of its own workers.
pub trait EdgeShards: Send + Sync {
    /// Calls `f(u, v)` for every edge `u -> v` of shard `shard` (of `shards`).
    ///
    /// # Errors
    /// If the shard is malformed; the error names the file and line as if the
    /// whole input had been read.
    fn for_each_edge_in_shard<F: FnMut(u32, u32)>(
        &self,
        shard: usize,
        shards: usize,
        f: F,
    ) -> retrograde::Result<()>;

    /// The number of vertices the source declares (ids must be below it), or
    /// `None` for "the largest id + 1".
    fn declared_vertices(&self) -> Option<usize> {
        None
    }

    /// The number of edges the source declares before it is read (a binary
    /// graph's header), if any: with [`EdgeShards::declared_vertices`], a
    /// memory limit is checked before reading.
    fn declared_edges(&self) -> Option<u64> {
        None
    }

    /// The fewest vertices the source declares, beyond its largest id (a
    /// text file's `# Nodes: N` or Matrix Market size line). The default: 0.
    fn min_vertices(&self) -> usize {
        0
    }
}

/// A text edge list (see [`retrograde::io::edge_list`]), split at line
/// boundaries into shards of about equal size in bytes.
#[derive(Debug)]
pub struct TextEdgeList {
    input: Input,
    vertices: Option<usize>,
}

impl TextEdgeList {
    /// Reads edges from `input`; with `vertices`, every id must be below it.
    pub fn new(input: Input, vertices: Option<usize>) -> TextEdgeList {
        TextEdgeList { input, vertices }
    }

    /// The input's name, for messages.
    pub fn path(&self) -> &Path {
        self.input.path()
    }

    /// The input's size in bytes.
    pub fn len(&self) -> usize {
        self.input.bytes().len()
    }

    /// Whether the input is empty.
    pub fn is_empty(&self) -> bool {
        self.input.bytes().is_empty()
    }
}

impl EdgeShards for TextEdgeList {
    fn for_each_edge_in_shard<F: FnMut(u32, u32)>(
        &self,
        shard: usize,
        shards: usize,
        f: F,
    ) -> retrograde::Result<()> {
        EdgeList::new(self.input.bytes(), self.input.path(), self.vertices)
            .split(shards)
            .for_each_edge_in(shard, f)
    }

    fn declared_vertices(&self) -> Option<usize> {
        self.vertices
    }

    fn min_vertices(&self) -> usize {
        EdgeList::new(self.input.bytes(), self.input.path(), self.vertices).min_vertices()
    }
}

/// Edges already in memory, split into shards of about equal length.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EdgeArray {
    vertices: Option<usize>,
    edges: Vec<(u32, u32)>,
}

impl EdgeArray {
    /// The edges `u -> v` of a graph with `vertices` vertices (or, with `None`,
    /// the largest id + 1).
    pub fn new(vertices: Option<usize>, edges: Vec<(u32, u32)>) -> EdgeArray {
        EdgeArray { vertices, edges }
    }
}

impl EdgeShards for EdgeArray {
    fn for_each_edge_in_shard<F: FnMut(u32, u32)>(
        &self,
        shard: usize,
        shards: usize,
        mut f: F,
    ) -> retrograde::Result<()> {
        let len = self.edges.len();
        let (start, end) = (len * shard / shards, len * (shard + 1) / shards);
        for &(u, v) in &self.edges[start..end] {
            let hi = u.max(v);
            let too_big = match self.vertices {
                Some(n) => hi as usize >= n,
                None => hi == retrograde::graph::NONE,
            };
            if too_big {
                return Err(retrograde::Error::VertexOutOfRange {
                    what: retrograde::Naming::Edge,
                    vertex: u64::from(hi),
                    vertices: self.vertices.map(|n| n as u64),
                });
            }
            f(u, v);
        }
        Ok(())
    }

    fn declared_vertices(&self) -> Option<usize> {
        self.vertices
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shards_of(text: &str, shards: usize) -> Vec<Vec<(u32, u32)>> {
        let input = TextEdgeList::new(Input::from_bytes("g.txt", text.as_bytes().to_vec()), None);
        (0..shards)
            .map(|k| {
                let mut edges = Vec::new();
                input
                    .for_each_edge_in_shard(k, shards, |u, v| edges.push((u, v)))
                    .unwrap();
                edges
            })
            .collect()
    }

    #[test]
    fn text_shards_tile_the_input_at_line_boundaries() {
        let text = "# header\n0 1\n1 2\n\n22 33\n4 5\n6 7";
        let all: Vec<(u32, u32)> = vec![(0, 1), (1, 2), (22, 33), (4, 5), (6, 7)];
        for shards in 1..=12 {
            let got: Vec<(u32, u32)> = shards_of(text, shards).into_iter().flatten().collect();
            assert_eq!(got, all, "{shards} shards");
        }
    }

    #[test]
    fn errors_in_a_later_shard_name_the_line_in_the_whole_file() {
        let text = "0 1\n1 2\n2 3\n3 x\n";
        let input = TextEdgeList::new(Input::from_bytes("g.txt", text.as_bytes().to_vec()), None);
        let errors: Vec<String> = (0..2)
            .filter_map(|k| {
                input
                    .for_each_edge_in_shard(k, 2, |_, _| {})
                    .err()
                    .map(|e| e.to_string())
            })
            .collect();
        assert_eq!(
            errors,
            ["g.txt:line 4: expected the second vertex id (a decimal number), found \"x\""]
        );
    }

    #[test]
    fn edge_array_checks_ids_against_the_vertex_count() {
        let a = EdgeArray::new(Some(2), vec![(0, 1), (1, 2)]);
        let e = a.for_each_edge_in_shard(0, 1, |_, _| {}).unwrap_err();
        assert!(e.to_string().contains("vertex 2"), "{e}");
        let mut seen = Vec::new();
        for k in 0..3 {
            EdgeArray::new(None, vec![(0, 1), (1, 2)])
                .for_each_edge_in_shard(k, 3, |u, v| seen.push((u, v)))
                .unwrap();
        }
        assert_eq!(seen, [(0, 1), (1, 2)]);
    }
}

/// A binary graph file (see `docs/BINARY_FORMAT.md`): every worker reads
/// the file once from start to end with ordinary reads, checking all of it
/// ([`retrograde::io::binary::for_each_edge`]), and keeps the rows of the
/// vertices it owns. Memory per worker is its share, whatever the file's size.
#[derive(Debug)]
pub struct BinaryGraph {
    input: Input,
}

impl BinaryGraph {
    /// Reads the graph in `input` (which should start with the binary magic).
    pub fn new(input: Input) -> BinaryGraph {
        BinaryGraph { input }
    }

    /// The vertex count the header declares, if it can be read.
    fn header_vertices(&self) -> Option<u64> {
        let b = self.input.bytes().get(16..24)?;
        Some(u64::from_le_bytes(b.try_into().ok()?))
    }
}

impl EdgeShards for BinaryGraph {
    /// Shard `k` of `n` is the rows of the vertices `v` with `v % n == k`:
    /// exactly the vertices worker `k` owns.
    fn for_each_edge_in_shard<F: FnMut(u32, u32)>(
        &self,
        shard: usize,
        shards: usize,
        mut f: F,
    ) -> retrograde::Result<()> {
        let (shard, shards) = (shard as u32, shards.max(1) as u32);
        retrograde::io::binary::for_each_edge(&self.input, |u, v| {
            if v % shards == shard {
                f(u, v)
            }
        })
        .map(|_| ())
    }

    fn declared_vertices(&self) -> Option<usize> {
        self.header_vertices()
            .filter(|&v| v <= retrograde::graph::MAX_VERTICES as u64)
            .map(|v| v as usize)
    }

    /// The header's edge count, if the file's size agrees with it (else
    /// the reader's error comes first).
    fn declared_edges(&self) -> Option<u64> {
        let b = self.input.bytes().get(24..32)?;
        let e = u64::from_le_bytes(b.try_into().ok()?);
        let v = self.header_vertices()?;
        let pad8 = |x: u64| x.checked_next_multiple_of(8);
        let size = pad8(v.checked_mul(4)?)?
            .checked_add(v.checked_add(1)?.checked_mul(8)?)?
            .checked_add(pad8(e.checked_mul(4)?)?)?
            .checked_add(64)?;
        (size == self.input.len() as u64).then_some(e)
    }
}
