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

use std::io::{self, Write};
use std::path::Path;

use super::Input;
use super::text::{Scanner, split_lines};
use crate::error::Result;
use crate::graph::{CsrBuilder, EdgeSource};
use crate::{Csr, Successors};

/// An edge list in text form, ready to be read (twice) by [`CsrBuilder`].
/// A Matrix Market coordinate file is read as one: ids from 1, the size
/// line read as such, a symmetric matrix's entries both ways.
pub struct EdgeList<'a> {
    data: &'a [u8],
    path: &'a Path,
    vertices: Option<usize>,
    chunks: Vec<std::ops::Range<usize>>,
    /// A Matrix Market file's header, or the fault in it.
    market: Result<Option<super::matrix_market::Header>, super::matrix_market::Fault>,
}

impl<'a> EdgeList<'a> {
    /// Reads edges from `data`, named `path` in errors. With `vertices`, every id
    /// must be below it.
    pub fn new(data: &'a [u8], path: &'a Path, vertices: Option<usize>) -> EdgeList<'a> {
        EdgeList {
            data,
            path,
            vertices,
            chunks: std::iter::once(0..data.len()).collect(),
            market: super::matrix_market::header(data),
        }
    }

    /// The fewest vertices the file declares: a Matrix Market file's size
    /// line, or a leading comment `# Nodes: N` (as SNAP files and this
    /// library's writer put it), so that isolated vertices past the largest
    /// id survive a round trip. 0 if it declares none.
    pub fn min_vertices(&self) -> usize {
        match &self.market {
            Ok(Some(h)) => h.vertices as usize,
            _ => nodes_comment(self.data).unwrap_or(0),
        }
    }

    /// Splits the input into exactly `parts` chunks at line boundaries (some
    /// may be empty), to be parsed in parallel or by different processes:
    /// chunk `k` is always the same for the same data and `parts`. Errors
    /// name lines of the whole input.
    pub fn split(mut self, parts: usize) -> EdgeList<'a> {
        self.chunks = split_lines(self.data, parts);
        self
    }
}

impl EdgeSource for EdgeList<'_> {
    fn chunk_count(&self) -> usize {
        self.chunks.len()
    }

    fn for_each_edge_in<F: FnMut(u32, u32)>(&self, chunk: usize, f: F) -> Result<()> {
        match &self.market {
            Ok(None) => self.plain(chunk, f),
            Ok(Some(h)) => self.matrix_market(chunk, h, f),
            Err((line, message)) if chunk == 0 => {
                Err(crate::Error::at_line(self.path, *line, message.clone()))
            }
            Err(_) => Ok(()),
        }
    }

    fn declared_vertices(&self) -> Option<usize> {
        self.vertices
    }
}

impl EdgeList<'_> {
    /// A plain edge list's chunk.
    fn plain<F: FnMut(u32, u32)>(&self, chunk: usize, mut f: F) -> Result<()> {
        let (limit, too_big) = super::text::vertex_id_limit(self.vertices);
        let mut s = Scanner::chunk(self.data, self.chunks[chunk].clone(), self.path);
        loop {
            // Plain `u v` lines take the fast path; anything else (comments,
            // blanks, CRLF, errors) goes through the careful scanner below.
            if let Some((u, v, next)) = fast_line(s.data, s.pos, limit) {
                f(u, v);
                s.pos = next;
                continue;
            }
            if !s.next_record() {
                break;
            }
            let u = s.vertex_id("a vertex id (a decimal number)", limit, &too_big)?;
            s.separator("a space or tab, then the second vertex id")?;
            let v = s.number("the second vertex id (a decimal number)", limit, &too_big)?;
            s.end_record("the second vertex id")?;
            f(u as u32, v as u32);
        }
        Ok(())
    }

    /// A Matrix Market file's chunk: entries after the size line, ids from 1.
    fn matrix_market<F: FnMut(u32, u32)>(
        &self,
        chunk: usize,
        h: &super::matrix_market::Header,
        mut f: F,
    ) -> Result<()> {
        // Never past u32 ids, whatever --vertices says: `i - 1` is read into a u32.
        let n = self
            .vertices
            .map_or(h.vertices, |v| v as u64)
            .min(crate::graph::MAX_VERTICES as u64);
        let too_big = |x: u64| format!("entry {x} is past the {n} rows and columns of the matrix");
        let range = self.chunks[chunk].clone();
        let range = range.start.max(h.body)..range.end.max(h.body);
        let mut s = Scanner::chunk(self.data, range, self.path);
        while s.next_record() {
            let at = s.pos;
            let i = s.number("a row number (a decimal number from 1)", n + 1, &too_big)?;
            s.separator("a space or tab, then the column number")?;
            let j = s.number("a column number (a decimal number from 1)", n + 1, &too_big)?;
            s.end_record("the column number")?;
            if i == 0 || j == 0 {
                s.pos = at;
                return Err(s.error(
                    "Matrix Market rows and columns are numbered from 1, found 0".to_string(),
                ));
            }
            let (u, v) = ((i - 1) as u32, (j - 1) as u32);
            f(u, v);
            if h.symmetric && u != v {
                f(v, u);
            }
        }
        Ok(())
    }
}

/// The `N` of a leading comment line holding `Nodes: N` (SNAP's header).
fn nodes_comment(data: &[u8]) -> Option<usize> {
    for line in data.split(|&b| b == b'\n').take(64) {
        let t = String::from_utf8_lossy(line);
        let t = t.trim();
        if t.is_empty() {
            continue;
        }
        let rest = t.strip_prefix('#').or_else(|| t.strip_prefix('%'))?;
        let mut words = rest.split_whitespace();
        while let Some(w) = words.next() {
            if w == "Nodes:" {
                return words.next()?.parse().ok();
            }
        }
    }
    None
}

/// Parses a line `u v\n` (or `u v` followed by blanks and ignored columns)
/// starting at `i`, returning the ids and where the next line starts.
/// `None` for anything else, which the careful scanner then handles.
#[inline(always)]
fn fast_line(d: &[u8], mut i: usize, limit: u64) -> Option<(u32, u32, usize)> {
    #[inline(always)]
    fn number(d: &[u8], i: &mut usize) -> Option<u64> {
        let start = *i;
        let mut x = 0u64;
        while let Some(&b) = d.get(*i) {
            let digit = b.wrapping_sub(b'0');
            if digit > 9 {
                break;
            }
            if *i - start == 10 {
                return None;
            }
            x = x * 10 + u64::from(digit);
            *i += 1;
        }
        // At most 10 digits, so no overflow.
        (*i > start && *i - start <= 10).then_some(x)
    }
    let u = number(d, &mut i)?;
    match d.get(i) {
        Some(b' ' | b'\t') => i += 1,
        _ => return None,
    }
    while let Some(b' ' | b'\t') = d.get(i) {
        i += 1;
    }
    let v = number(d, &mut i)?;
    if u >= limit || v >= limit {
        return None;
    }
    match d.get(i) {
        Some(b'\n') => Some((u as u32, v as u32, i + 1)),
        None => Some((u as u32, v as u32, i)),
        Some(b' ' | b'\t') => {
            let next = d[i..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(d.len(), |j| i + j + 1);
            Some((u as u32, v as u32, next))
        }
        _ => None,
    }
}

/// Writes the edges of `source` as a text edge list, after `header` lines
/// (written as `#` comments). Chunks are formatted in parallel and written in order.
///
/// # Errors
/// A write error, or the first error of the source (an [`EdgeList`] with a
/// bad line, say), carried inside the `io::Error`; [`write_atomically`]
/// unwraps it again, so the caller sees the source's own error and no output
/// is left behind.
///
/// [`write_atomically`]: super::write_atomically
pub fn write<S: EdgeSource + ?Sized>(
    w: &mut dyn Write,
    source: &S,
    header: &str,
) -> io::Result<()> {
    use rayon::prelude::*;
    // The vertex count first, as SNAP's header gives it, so that vertices
    // without moves past the largest id survive a round trip.
    if let Some(n) = source.declared_vertices() {
        writeln!(w, "# Nodes: {n}")?;
    }
    super::text::write_header(w, header)?;
    // Chunks in groups of a few per thread, never all their numbers at once
    // (a source may have billions of chunks).
    let (chunks, batch) = (source.chunk_count(), 2 * rayon::current_num_threads());
    for first in (0..chunks).step_by(batch) {
        let texts: Vec<Result<Vec<u8>>> = (first..(first + batch).min(chunks))
            .into_par_iter()
            .map(|c| {
                let mut buf = Vec::new();
                let mut itoa = itoa::Buffer::new();
                source.for_each_edge_in(c, |u, v| {
                    buf.extend_from_slice(itoa.format(u).as_bytes());
                    buf.push(b' ');
                    buf.extend_from_slice(itoa.format(v).as_bytes());
                    buf.push(b'\n');
                })?;
                Ok(buf)
            })
            .collect();
        for t in texts {
            w.write_all(&t.map_err(io::Error::other)?)?;
        }
    }
    Ok(())
}

/// The most memory [`write()`] holds on `threads` threads for a source of
/// `vertices` vertices with at most `max_degree` edges each: the text of
/// two chunks a thread (22 bytes a line at most: two 10-digit ids, a
/// space, a newline), each buffer up to twice its length as it grows.
pub fn write_bytes(threads: usize, vertices: u64, max_degree: u64) -> u64 {
    let chunk = crate::graph::CHUNK as u64;
    let held = (2 * threads.max(1) as u64).min(vertices.div_ceil(chunk).max(1));
    let text = vertices
        .min(chunk)
        .saturating_mul(max_degree)
        .saturating_mul(22 * 2);
    held.saturating_mul(text)
}

/// Reads a text edge list into a graph, parsing in parallel on the current
/// rayon pool (one chunk per thread). See [`CsrBuilder`] for the options.
///
/// When the parsed edges fit comfortably in the builder's memory limit (8
/// bytes per edge, at most twice the input's size), the text is parsed once
/// into per-thread edge buffers, the input is released, and the graph is built
/// from the buffers, which is faster than parsing twice. Otherwise the text is
/// streamed twice (count, then fill) and no edge list is ever held.
///
/// ```
/// use retrograde::io::{edge_list, Input};
/// use retrograde::{CsrBuilder, GameGraph};
/// let input = Input::from_bytes("example.txt", b"# header\n0 1\n1 2 7.5\n".to_vec());
/// let g = edge_list::read(input, None, CsrBuilder::new()).unwrap();
/// assert_eq!((g.vertex_count(), g.edge_count()), (3, 2));
/// ```
pub fn read(input: Input, vertices: Option<usize>, builder: CsrBuilder) -> Result<Csr> {
    use rayon::prelude::*;
    let parts = rayon::current_num_threads();
    let path = input.path().to_path_buf();
    let list = EdgeList::new(input.bytes(), &path, vertices).split(parts);
    let builder = match vertices {
        None => builder.min_vertices(list.min_vertices()),
        Some(_) => builder,
    };
    // Parsed edges take at most 2 bytes per input byte (a line holds at least 4).
    let buffered_bytes = (input.len() as u64).saturating_mul(3);
    let fits = builder
        .limit()
        .is_none_or(|limit| buffered_bytes <= limit / 2);
    if !fits {
        return builder.build(&list);
    }
    let parsed: Vec<Result<Vec<(u32, u32)>>> = (0..list.chunk_count())
        .into_par_iter()
        .map(|c| {
            let range = &list.chunks[c];
            input.prefault(range.clone());
            let mut edges = crate::alloc::with_capacity((range.end - range.start) / 12);
            list.for_each_edge_in(c, |u, v| edges.push((u, v)))?;
            Ok(edges)
        })
        .collect();
    let mut buffers = Vec::with_capacity(parsed.len());
    for p in parsed {
        buffers.push(p?); // the first error in file order
    }
    drop(list);
    drop(input);
    // Group each buffer's edges by target range (keeping their order within a
    // range): the builder then counts and places one range at a time, with the
    // arrays it scatters into staying in cache.
    let buffers = buffers.into_par_iter().map(group_by_target).collect();
    builder.build(&Buffers { buffers, vertices })
}

/// Targets per group in [`group_by_target`]: 2^16 vertices, whose offsets
/// (512 KiB) and cursors (256 KiB) fit in cache while their edges are placed.
const GROUP_SHIFT: u32 = 16;

/// A stable counting sort of `edges` by `target >> GROUP_SHIFT`.
fn group_by_target(edges: Vec<(u32, u32)>) -> Vec<(u32, u32)> {
    let groups = edges
        .iter()
        .map(|&(_, v)| v >> GROUP_SHIFT)
        .max()
        .map_or(0, |g| g as usize + 1);
    if groups <= 1 {
        return edges;
    }
    let items = edges
        .iter()
        .map(|&(u, v)| ((v >> GROUP_SHIFT) as usize, (u, v)));
    crate::graph::counting_sort(groups, items).1
}

/// Edges already parsed, one buffer per chunk.
struct Buffers {
    buffers: Vec<Vec<(u32, u32)>>,
    vertices: Option<usize>,
}

impl EdgeSource for Buffers {
    fn chunk_count(&self) -> usize {
        self.buffers.len()
    }

    fn for_each_edge_in<F: FnMut(u32, u32)>(&self, chunk: usize, mut f: F) -> Result<()> {
        for &(u, v) in &self.buffers[chunk] {
            f(u, v);
        }
        Ok(())
    }

    fn declared_vertices(&self) -> Option<usize> {
        self.vertices
    }
}

/// Writes every edge of `g` as a line `u v`, grouped by `u` in increasing
/// order, after `header` written as `# ` comment lines. Reading the result back
/// (with the vertex count, since trailing vertices without edges leave no
/// trace) gives the same graph. Time **O(V + E)**, formatted in parallel like [`write()`]; memory: the text of
/// two chunks of 65,536 sources per thread.
///
/// ```
/// use retrograde::io::edge_list;
/// use retrograde::Csr;
/// let g = Csr::from_edges(3, &[(2, 0), (0, 1), (0, 1)]).with_successors();
/// let mut out = Vec::new();
/// edge_list::write_forward(&mut out, &g, "a small graph").unwrap();
/// assert_eq!(String::from_utf8(out).unwrap(), "# Nodes: 3\n# a small graph\n0 1\n0 1\n2 0\n");
/// ```
pub fn write_forward<G: Successors + Sync + ?Sized>(
    w: &mut dyn Write,
    g: &G,
    header: &str,
) -> io::Result<()> {
    write(w, &crate::graph::Forward(g), header)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GameGraph;
    use proptest::prelude::*;

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
    fn the_writers_memory_bound_covers_the_text_of_its_chunks() {
        // One chunk of vertices, each with three moves to the largest ids.
        let n = crate::graph::CHUNK as u32;
        let edges: Vec<(u32, u32)> = (0..n)
            .flat_map(|u| (1..=3).map(move |k| (u, n - k)))
            .collect();
        let g = crate::Csr::from_edges(n as usize, &edges).with_successors();
        let mut out = Vec::new();
        write_forward(&mut out, &g, "").unwrap();
        let text = out.len() as u64;
        // The chunk's text, twice (as it grows), for each chunk held (one).
        assert!(write_bytes(4, u64::from(n), 3) >= 2 * text);
        assert!(write_bytes(4, u64::from(n), 3) <= 2 * 2 * text);
        // Threads hold two chunks each, as many as there are.
        assert_eq!(
            write_bytes(4, 100 * u64::from(n), 3),
            8 * write_bytes(4, u64::from(n), 3)
        );
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

    /// A word where a line's first vertex id goes is its own kind of error
    /// (the graph names its vertices), with the same message; anything else
    /// found there, or a word in the second field, stays a parse error.
    #[test]
    fn a_word_for_a_vertex_id_is_a_named_vertex() {
        use crate::Error;
        let e = parse("0 1\nstart 2\n", None).unwrap_err();
        assert_eq!(
            e.to_string(),
            "g.txt:line 2: expected a vertex id (a decimal number), found \"start\""
        );
        match e {
            Error::NamedVertex {
                path,
                location,
                expected,
                found,
            } => {
                assert_eq!(path, Path::new("g.txt"));
                assert_eq!(location, crate::Location::Line(2));
                assert_eq!(expected, "a vertex id (a decimal number)");
                assert_eq!(found, "start");
            }
            other => panic!("{other:?}"),
        }
        for not_a_word in ["-1 2\n", "\u{1}a 2\n", "_a 2\n", "a\\b 2\n", "0 x\n"] {
            let e = parse(not_a_word, None).unwrap_err();
            assert!(matches!(e, Error::Parse { .. }), "{not_a_word:?}: {e:?}");
        }
    }

    /// Regression: with a vertex count past u32 ids, an entry past them was
    /// below the count and wrapped by `as u32`.
    #[test]
    fn a_matrix_market_entry_past_u32_is_refused_whatever_the_vertex_count() {
        let text = "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n4294967297 1\n";
        let e = parse(text, Some(6_000_000_000)).unwrap_err().to_string();
        assert_eq!(
            e,
            "g.txt:line 3: entry 4294967297 is past the 4294967295 rows and columns of the matrix"
        );
    }

    #[test]
    fn writing_a_bad_source_fails_with_its_error_and_leaves_no_file() {
        let dir = crate::io::scratch_dir().unwrap();
        let out = dir.path().join("out.txt");
        let bad = EdgeList::new(b"0 1\n1 x\n2 3\n", Path::new("g.txt"), None);
        let e = super::super::write_atomically(&out, |w| write(w, &bad, "")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "g.txt:line 2: expected the second vertex id (a decimal number), found \"x\""
        );
        assert!(!out.exists());
        let mut buf = Vec::new();
        assert!(write(&mut buf, &bad, "").is_err());
    }

    #[test]
    fn chunked_parsing_gives_the_same_graph_and_error_lines() {
        let text: String = (0..500)
            .map(|i| format!("{} {}\n# c\n", i % 37, i * 3 % 41))
            .collect();
        let one = CsrBuilder::new()
            .build(&EdgeList::new(text.as_bytes(), Path::new("g"), None))
            .unwrap();
        for parts in [2, 3, 8] {
            let list = EdgeList::new(text.as_bytes(), Path::new("g"), None).split(parts);
            assert_eq!(CsrBuilder::new().build(&list).unwrap(), one);
        }
        let bad = format!("{text}7 y\n");
        let list = EdgeList::new(bad.as_bytes(), Path::new("g"), None).split(4);
        let e = CsrBuilder::new().build(&list).unwrap_err().to_string();
        assert!(e.starts_with("g:line 1001:"), "{e}");
    }

    /// The definition of the format, written plainly: what the fast and careful
    /// paths together must agree with.
    fn reference_parse(text: &str) -> Option<Vec<(u32, u32)>> {
        let mut edges = Vec::new();
        for line in text.split('\n') {
            let line = line.strip_suffix('\r').unwrap_or(line);
            let line = line.trim_start_matches([' ', '\t']);
            if line.is_empty() || line.starts_with('#') || line.starts_with('%') {
                continue;
            }
            let mut fields = line.split([' ', '\t']).filter(|f| !f.is_empty());
            let mut id = || -> Option<u32> {
                let f = fields.next()?;
                if !f.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                f.parse::<u32>().ok().filter(|&x| x != u32::MAX)
            };
            edges.push((id()?, id()?));
        }
        Some(edges)
    }

    proptest! {
        #[test]
        fn parser_agrees_with_the_plain_definition(
            lines in prop::collection::vec(
                prop_oneof![
                    (0u32..50, 0u32..50).prop_map(|(u, v)| format!("{u} {v}")),
                    (0u32..50, 0u32..50).prop_map(|(u, v)| format!("\t{u}\t\t{v}  1.5 x")),
                    (0u32..50, 0u32..50).prop_map(|(u, v)| format!("{u} {v}\r")),
                    Just("# comment 1 2".to_string()),
                    Just("% header".to_string()),
                    Just("   ".to_string()),
                    Just("4294967295 1".to_string()),
                    Just("4294967294 0".to_string()),
                    Just("12345678901 1".to_string()),
                    Just("7".to_string()),
                    Just("7 8x".to_string()),
                    Just("-1 2".to_string()),
                    Just("1 2\r3".to_string()),
                ],
                0..30,
            ),
            parts in 1usize..5,
        ) {
            let text = lines.join("\n");
            let mut got = Vec::new();
            let list = EdgeList::new(text.as_bytes(), Path::new("p"), None).split(parts);
            let result = list.for_each_edge(|u, v| got.push((u, v)));
            match reference_parse(&text) {
                Some(want) => {
                    prop_assert!(result.is_ok(), "{:?}: {:?}", text, result);
                    prop_assert_eq!(got, want);
                }
                None => prop_assert!(result.is_err(), "{:?} accepted", text),
            }
        }
    }

    #[test]
    fn buffered_and_streamed_reading_agree_on_graphs_and_errors() {
        let text: String = (0..1000)
            .map(|i| format!("{} {}\n", i % 47, i * 7 % 53))
            .collect();
        let read_with = |text: &str, limit: u64| {
            read(
                Input::from_bytes("g", text.as_bytes().to_vec()),
                None,
                CsrBuilder::new().memory_limit(limit),
            )
        };
        // 1 GiB allows the buffers; 20 KiB only the graph, so the text is streamed.
        let buffered = read_with(&text, 1 << 30).unwrap();
        let streamed = read_with(&text, 20 << 10).unwrap();
        assert_eq!(buffered, streamed);
        let bad = format!("{text}1 2\nx\n3 4\n");
        for limit in [1 << 30, 20 << 10] {
            let e = read_with(&bad, limit).unwrap_err().to_string();
            assert!(e.starts_with("g:line 1002:"), "{e}");
        }
    }

    #[test]
    fn builds_a_graph_with_isolated_vertices() {
        let input = Input::from_bytes("g.txt", b"0 1\n".to_vec());
        let g = read(input, Some(4), CsrBuilder::new()).unwrap();
        assert_eq!(g.vertex_count(), 4);
        let g = read(
            Input::from_bytes("e.txt", Vec::new()),
            None,
            CsrBuilder::new(),
        )
        .unwrap();
        assert_eq!(g.vertex_count(), 0);
    }
}
