//! The text edge list: one edge `u v` per line.
//!
//! Decimal ids separated by spaces or tabs; further columns (weights,
//! timestamps) are ignored; blank lines and lines starting with `#` or `%`
//! (SNAP and Matrix Market headers) are skipped. Ids go up to `u32::MAX - 1`.
//!
//! ```text
//! # a 3-cycle with a tail
//! 0 1
//! 1 2   0.5
//! 2 0
//! 3 0
//! ```

use std::io::Write;
use std::path::Path;

use super::text::Scanner;
use super::Input;
use crate::error::Result;
use crate::graph::{CsrBuilder, EdgeSource, NONE};
use crate::{Csr, Successors};

/// An edge list in text form, ready to be read (twice) by [`CsrBuilder`].
pub struct EdgeList<'a> {
    data: &'a [u8],
    path: &'a Path,
    vertices: Option<usize>,
}

impl<'a> EdgeList<'a> {
    /// Reads edges from `data`, named `path` in errors. With `vertices`, every id
    /// must be below it.
    pub fn new(data: &'a [u8], path: &'a Path, vertices: Option<usize>) -> EdgeList<'a> {
        EdgeList {
            data,
            path,
            vertices,
        }
    }
}

impl EdgeSource for EdgeList<'_> {
    fn for_each_edge<F: FnMut(u32, u32)>(&self, mut f: F) -> Result<()> {
        let limit = self.vertices.map_or(u64::from(NONE), |n| n as u64);
        let too_big = |x: u64| match self.vertices {
            Some(n) => format!("vertex id {x} is not below the vertex count {n}"),
            None => format!(
                "vertex id {x} is too large (the largest allowed is {})",
                NONE - 1
            ),
        };
        let mut s = Scanner::new(self.data, self.path);
        while s.next_record() {
            let u = s.number("a vertex id (a decimal number)", limit, &too_big)?;
            s.separator("a space or tab, then the second vertex id")?;
            let v = s.number("the second vertex id (a decimal number)", limit, &too_big)?;
            s.end_record("the second vertex id")?;
            f(u as u32, v as u32);
        }
        Ok(())
    }

    fn declared_vertices(&self) -> Option<usize> {
        self.vertices
    }
}

/// Reads a text edge list into a graph. See [`CsrBuilder`] for the options.
///
/// ```
/// use retrograde::io::{edge_list, Input};
/// use retrograde::{CsrBuilder, GameGraph};
/// let input = Input::from_bytes("example.txt", b"# header\n0 1\n1 2 7.5\n".to_vec());
/// let g = edge_list::read(&input, None, CsrBuilder::new()).unwrap();
/// assert_eq!((g.vertex_count(), g.edge_count()), (3, 2));
/// ```
pub fn read(input: &Input, vertices: Option<usize>, builder: CsrBuilder) -> Result<Csr> {
    builder.build(&EdgeList::new(input.bytes(), input.path(), vertices))
}

/// Writes every edge of `g` as a line `u v`, grouped by `u` in increasing
/// order, after `header` written as `# ` comment lines. Reading the result back
/// (with the vertex count, since trailing vertices without edges leave no
/// trace) gives the same graph. Time **O(V + E)**, memory O(1).
///
/// ```
/// use retrograde::io::edge_list;
/// use retrograde::Csr;
/// let g = Csr::from_edges(3, &[(2, 0), (0, 1), (0, 1)]).with_successors();
/// let mut out = Vec::new();
/// edge_list::write(&mut out, &g, "a small graph").unwrap();
/// assert_eq!(String::from_utf8(out).unwrap(), "# a small graph\n0 1\n0 1\n2 0\n");
/// ```
pub fn write<G: Successors + ?Sized>(
    w: &mut dyn Write,
    g: &G,
    header: &str,
) -> std::io::Result<()> {
    for line in header.lines() {
        writeln!(w, "# {line}")?;
    }
    let mut chunk = Vec::with_capacity(1 << 16);
    let (mut a, mut b) = (itoa::Buffer::new(), itoa::Buffer::new());
    for u in 0..g.vertex_count() as u32 {
        let su = a.format(u);
        g.for_each_successor(u, |v| {
            chunk.extend_from_slice(su.as_bytes());
            chunk.push(b' ');
            chunk.extend_from_slice(b.format(v).as_bytes());
            chunk.push(b'\n');
        });
        if chunk.len() > 1 << 15 {
            w.write_all(&chunk)?;
            chunk.clear();
        }
    }
    w.write_all(&chunk)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GameGraph;

    fn parse(text: &str, vertices: Option<usize>) -> Result<Vec<(u32, u32)>> {
        let mut edges = Vec::new();
        EdgeList::new(text.as_bytes(), Path::new("g.txt"), vertices)
            .for_each_edge(|u, v| edges.push((u, v)))?;
        Ok(edges)
    }

    fn error(text: &str) -> String {
        parse(text, None).unwrap_err().to_string()
    }

    #[test]
    fn comments_blanks_extra_columns_and_crlf_are_accepted() {
        let text = "# SNAP header\n% matrix market\n\n  \n0 1\n1\t2 0.25 x\r\n2  0\r\n   3 3";
        assert_eq!(
            parse(text, None).unwrap(),
            vec![(0, 1), (1, 2), (2, 0), (3, 3)]
        );
    }

    #[test]
    fn errors_name_file_line_and_expectation() {
        assert_eq!(
            error("0 1\n1 x\n"),
            "g.txt:line 2: expected the second vertex id (a decimal number), found \"x\""
        );
        assert!(error("0 1\n\n5\n").starts_with("g.txt:line 3: expected a space or tab"));
        assert!(error("-1 2\n").contains("negative"));
        assert!(error("1 2x\n").contains("line 1"));
        assert!(error("0 4294967295\n").contains("too large"));
        assert!(error("0 99999999999999999999999\n").contains("too large"));
        let e = parse("0 1\n1 5\n", Some(5)).unwrap_err().to_string();
        assert_eq!(
            e,
            "g.txt:line 2: vertex id 5 is not below the vertex count 5"
        );
    }

    #[test]
    fn builds_a_graph_with_isolated_vertices() {
        let input = Input::from_bytes("g.txt", b"0 1\n".to_vec());
        let g = read(&input, Some(4), CsrBuilder::new()).unwrap();
        assert_eq!(g.vertex_count(), 4);
        let g = read(
            &Input::from_bytes("e.txt", Vec::new()),
            None,
            CsrBuilder::new(),
        )
        .unwrap();
        assert_eq!(g.vertex_count(), 0);
    }
}
