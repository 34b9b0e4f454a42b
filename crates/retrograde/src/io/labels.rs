//! Terminal labels: one `vertex win|lose|tie|draw` per line (a `tie` ends the
//! game level; a `draw` declares endless play).
//!
//! Same comment rules as the edge list. A vertex may be listed twice only with
//! the same value.
//!
//! ```text
//! # vertex 7 is a finished game the player to move has won
//! 7 win
//! 12 draw
//! ```

use std::io::Write;

use super::Input;
use super::text::Scanner;
use crate::error::{Error, Result};
use crate::outcome::OUTCOME_NAMES;
use crate::{GameGraph, Labels, Outcome};

/// Reads terminal labels. With `vertices`, every id must be below it.
pub fn read(input: &Input, vertices: Option<usize>) -> Result<Labels> {
    read_labels(input, Vertices::Ids(vertices))
}

/// Reads terminal labels whose vertices are named (`name win`), for a graph
/// read with [`names::read_edges`](super::names::read_edges); every name must
/// be one of the graph's.
///
/// ```
/// use retrograde::io::{labels, names, Input};
/// use retrograde::{CsrBuilder, Outcome};
/// let g = Input::from_bytes("g.txt", b"start end\n".to_vec());
/// let (_, names) = names::read_edges(&g, CsrBuilder::new()).unwrap();
/// let l = labels::read_named(&Input::from_bytes("l.txt", b"end win\n".to_vec()), &names).unwrap();
/// assert_eq!(l.get(1), Some(Outcome::Win));
/// ```
pub fn read_named(input: &Input, names: &super::names::Names) -> Result<Labels> {
    read_labels(input, Vertices::Named(names))
}

fn read_labels(input: &Input, vertices: Vertices<'_>) -> Result<Labels> {
    let words = Words {
        expected: OUTCOME_NAMES,
        noun: "the outcome",
        verb: "labelled",
    };
    let pairs = read_pairs(input, vertices, Outcome::from_bytes, words)?;
    Ok(Labels::from_pairs(pairs))
}

/// How the lines of a `vertex word` file name their vertex.
#[derive(Clone, Copy)]
pub(crate) enum Vertices<'a> {
    /// By id, below the count if given.
    Ids(Option<usize>),
    /// By name, one of a graph's.
    Named(&'a super::names::Names),
}

/// How [`read_pairs`] speaks of the words it reads.
pub(crate) struct Words {
    /// The words it takes (`win, lose, tie or draw`).
    pub expected: &'static str,
    /// The word, after a line's vertex (`the outcome`).
    pub noun: &'static str,
    /// What a line does to its vertex (`vertex 3 is labelled win here but
    /// lose on line 2`).
    pub verb: &'static str,
}

/// Lines `vertex word`, each vertex read by `vertex` and each word by
/// `value`, sorted by vertex, one pair a vertex: a vertex listed twice with
/// different words is refused with both lines. The one reader of such
/// files: terminal labels and owners.
pub(crate) fn read_pairs<T: Copy + PartialEq + std::fmt::Display>(
    input: &Input,
    vertices: Vertices<'_>,
    value: impl Fn(&[u8]) -> Option<T>,
    words: Words,
) -> Result<Vec<(u32, T)>> {
    let (names, count) = match vertices {
        Vertices::Ids(count) => (None, count),
        Vertices::Named(names) => (Some(names), None),
    };
    let (limit, too_big) = super::text::vertex_id_limit(count);
    let vertex = |s: &mut Scanner<'_>| -> Result<u32> {
        let Some(names) = names else {
            return Ok(s.vertex_id("a vertex id (a decimal number)", limit, &too_big)? as u32);
        };
        let text = String::from_utf8_lossy(s.word()).into_owned();
        names
            .id(&text)
            .ok_or_else(|| super::names::unknown(input, s.line(), &text))
    };
    let Words {
        expected,
        noun,
        verb,
    } = words;
    let mut s = Scanner::new(input.bytes(), input.path());
    let mut pairs: Vec<(u32, T, u64)> = Vec::new();
    while s.next_record() {
        let at = s.pos;
        let v = vertex(&mut s)?;
        s.separator(&format!("a space or tab, then {expected}"))?;
        let word_at = s.pos;
        let word = s.word();
        let Some(o) = value(word) else {
            s.pos = word_at;
            return Err(s.error(format!("expected {expected}, found {}", s.found())));
        };
        s.end_record(noun)?;
        pairs.push((v, o, at as u64));
    }
    pairs.sort_by_key(|&(v, _, at)| (v, at));
    for w in pairs.windows(2) {
        if w[0].0 == w[1].0 && w[0].1 != w[1].1 {
            let mut s = Scanner::new(input.bytes(), input.path());
            s.pos = w[0].2 as usize;
            let first = s.line();
            s.pos = w[1].2 as usize;
            return Err(Error::at_line(
                input.path(),
                s.line(),
                format!(
                    "vertex {} is {verb} {} here but {} on line {first}",
                    super::names::shown(names, w[1].0),
                    w[1].1,
                    w[0].1
                ),
            ));
        }
    }
    pairs.dedup_by_key(|p| p.0);
    Ok(pairs.into_iter().map(|(v, o, _)| (v, o)).collect())
}

/// Writes the terminal value of every position of `g` that has one
/// ([`GameGraph::terminal`]) as a line `vertex outcome`, in vertex order, after
/// `header` written as `# ` comment lines. Time **O(V)**, memory O(1).
///
/// ```
/// use retrograde::game::Game;
/// use retrograde::io::labels;
/// use retrograde::Outcome;
/// struct Two; // 0 -> 1, and 1 is a won end
/// impl Game for Two {
///     fn position_count(&self) -> usize { 2 }
///     fn for_each_move<F: FnMut(u32)>(&self, p: u32, mut f: F) { if p == 0 { f(1) } }
///     fn for_each_unmove<F: FnMut(u32)>(&self, q: u32, mut f: F) { if q == 1 { f(0) } }
///     fn terminal(&self, p: u32) -> Option<Outcome> { (p == 1).then_some(Outcome::Win) }
/// }
/// let mut out = Vec::new();
/// labels::write_terminals(&mut out, &Two.as_graph(), "").unwrap();
/// assert_eq!(out, b"1 win\n");
/// ```
pub fn write_terminals<G: GameGraph + ?Sized>(
    w: &mut dyn Write,
    g: &G,
    header: &str,
) -> std::io::Result<()> {
    super::text::write_header(w, header)?;
    let mut chunk = Vec::with_capacity(1 << 16);
    let mut buf = itoa::Buffer::new();
    for v in 0..g.vertex_count() as u32 {
        if let Some(o) = g.terminal(v).filter(|_| g.is_position(v)) {
            chunk.extend_from_slice(buf.format(v).as_bytes());
            chunk.push(b' ');
            chunk.extend_from_slice(o.as_str().as_bytes());
            chunk.push(b'\n');
            if chunk.len() > 1 << 15 {
                w.write_all(&chunk)?;
                chunk.clear();
            }
        }
    }
    w.write_all(&chunk)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(text: &str) -> Result<Labels> {
        read(
            &Input::from_bytes("t.txt", text.as_bytes().to_vec()),
            Some(10),
        )
    }

    #[test]
    fn a_word_for_a_vertex_id_is_a_named_vertex() {
        let e = labels("0 win\nstart lose\n").unwrap_err();
        assert!(
            matches!(&e, Error::NamedVertex { found, .. } if found == "start"),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            "t.txt:line 2: expected a vertex id (a decimal number), found \"start\""
        );
    }

    #[test]
    fn reads_labels_with_comments() {
        let l = labels("# labels\n3 win\n1\tdraw extra\n3 win\n").unwrap();
        assert_eq!(
            l.iter().collect::<Vec<_>>(),
            vec![(1, Outcome::Draw), (3, Outcome::Win)]
        );
    }

    /// Regression: with a vertex count past u32 ids, an id past them was
    /// below the count and wrapped by `as u32` (4294967296 labelled vertex 0).
    #[test]
    fn an_id_past_u32_is_refused_whatever_the_vertex_count() {
        let input = Input::from_bytes("t.txt", b"4294967296 win\n".to_vec());
        let e = read(&input, Some(6_000_000_000)).unwrap_err().to_string();
        assert_eq!(
            e,
            "t.txt:line 1: vertex id 4294967296 is too large (the largest allowed is 4294967294)"
        );
        let mut edges = Vec::new();
        let list = crate::io::edge_list::EdgeList::new(
            b"0 4294967296\n",
            std::path::Path::new("g"),
            Some(6_000_000_000),
        );
        let e = crate::graph::EdgeSource::for_each_edge(&list, |u, v| edges.push((u, v)));
        assert!(
            e.unwrap_err()
                .to_string()
                .contains("vertex id 4294967296 is too large")
        );
        assert!(edges.is_empty());
    }

    #[test]
    fn bad_labels_are_refused_with_their_line() {
        assert_eq!(
            labels("1 win\n2 wins\n").unwrap_err().to_string(),
            "t.txt:line 2: expected win, lose, tie or draw, found \"wins\""
        );
        assert_eq!(
            labels("1 win\n\n1 lose\n").unwrap_err().to_string(),
            "t.txt:line 3: vertex 1 is labelled lose here but win on line 1"
        );
        assert!(
            labels("10 win\n")
                .unwrap_err()
                .to_string()
                .contains("line 1")
        );
        assert!(
            labels("4\n")
                .unwrap_err()
                .to_string()
                .contains("expected a space or tab")
        );
    }
}
