//! Vertex names: edge lists whose vertices are words, not numbers, as
//! networkx's `write_edgelist` and most hand-written files have them.
//!
//! A line holds two names separated by spaces or tabs; further columns (the
//! `{}` of networkx's edge data, a weight) are ignored; `#` and `%` lines are
//! comments. A name is any run of characters without a blank (UTF-8). Names
//! are numbered `0, 1, 2, …` in the order they first appear, so the solvers
//! see the same dense ids as for a numeric file, and [`Names`] turns ids
//! back into names for every answer.
//!
//! ```text
//! # the chase, with names
//! start middle {}
//! middle end {}
//! ```
//!
//! The numeric reader ([`edge_list`](super::edge_list)) stays the fast path:
//! this one hashes every name once per occurrence.

use std::collections::HashMap;

use super::Input;
use super::text::Scanner;
use crate::error::{Error, Result};
use crate::graph::NONE;
use crate::{Csr, CsrBuilder};

/// The names of a graph's vertices, by id, and the ids by name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Names {
    names: Vec<Box<str>>,
    ids: HashMap<Box<str>, u32, foldhash::fast::FixedState>,
}

impl Names {
    /// How many vertices are named.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether no vertex is named.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The name of vertex `v`, if it has one.
    pub fn name(&self, v: u32) -> Option<&str> {
        self.names.get(v as usize).map(|n| &**n)
    }

    /// The vertex named `name`, if any.
    pub fn id(&self, name: &str) -> Option<u32> {
        self.ids.get(name).copied()
    }

    /// The names of vertices `0, 1, ...` in order.
    ///
    /// ```
    /// use retrograde::io::names::Names;
    /// let names = Names::from_list(["start", "end"]).unwrap();
    /// assert_eq!((names.id("end"), names.name(0)), (Some(1), Some("start")));
    /// assert_eq!(Names::from_list(["a", "b", "a"]), Err(2));
    /// ```
    ///
    /// # Errors
    /// The index of the first name given before (names are told apart), or
    /// of the first past the ids `u32` holds.
    pub fn from_list<S: AsRef<str>>(
        list: impl IntoIterator<Item = S>,
    ) -> std::result::Result<Names, usize> {
        let mut names = Names::default();
        for (i, name) in list.into_iter().enumerate() {
            let name = name.as_ref();
            if names.ids.contains_key(name) || names.intern(name).is_none() {
                return Err(i);
            }
        }
        Ok(names)
    }

    /// The id of `name`, numbering it next if it is new; `None` once ids
    /// run out.
    fn intern(&mut self, name: &str) -> Option<u32> {
        if let Some(&v) = self.ids.get(name) {
            return Some(v);
        }
        let v = u32::try_from(self.names.len()).ok().filter(|&v| v < NONE)?;
        self.names.push(name.into());
        self.ids.insert(name.into(), v);
        Some(v)
    }
}

/// Reads an edge list of named vertices: the graph over ids `0..names`,
/// built by `builder` (its memory limit applies), and the names.
///
/// ```
/// use retrograde::io::{names, Input};
/// use retrograde::{CsrBuilder, GameGraph};
/// let input = Input::from_bytes("g.txt", b"start middle {}\nmiddle end {}\n".to_vec());
/// let (g, names) = names::read_edges(&input, CsrBuilder::new()).unwrap();
/// assert_eq!((g.vertex_count(), g.edge_count()), (3, 2));
/// assert_eq!((names.id("end"), names.name(1)), (Some(2), Some("middle")));
/// ```
///
/// # Errors
/// A line with fewer than two names, a name that is not UTF-8, more names
/// than `u32` ids, or a graph over the builder's memory limit.
pub fn read_edges(input: &Input, builder: CsrBuilder) -> Result<(Csr, Names)> {
    if super::matrix_market::is_matrix_market(input.bytes()) {
        // Its size line would be read as a move, its numbers as names.
        return Err(Error::at_line(
            input.path(),
            1,
            "a Matrix Market file: its vertices are numbered rows and columns, not names; read it as a numbered graph".to_string(),
        ));
    }
    let mut names = Names::default();
    let mut edges: Vec<(u32, u32)> = Vec::new();
    let mut s = Scanner::new(input.bytes(), input.path());
    while s.next_record() {
        let u = name(&mut s, &mut names, "a vertex name")?;
        s.separator("a space or tab, then the second vertex's name")?;
        let v = name(&mut s, &mut names, "the second vertex's name")?;
        s.skip_line();
        edges.push((u, v));
    }
    let g = builder.min_vertices(names.len()).build(&edges)?;
    Ok((g, names))
}

/// The next field as a vertex name, numbered.
fn name(s: &mut Scanner<'_>, names: &mut Names, what: &str) -> Result<u32> {
    let at = s.pos;
    let word = s.word();
    let Ok(text) = std::str::from_utf8(word) else {
        s.pos = at;
        return Err(s.error(format!("expected {what} (UTF-8 text), found other bytes")));
    };
    if let Some(why) = unwritable(text) {
        s.pos = at;
        return Err(s.error(format!("the name {text:?} at column {} {why}", s.column())));
    }
    names.intern(text).ok_or_else(|| {
        s.error(format!(
            "more than {} distinct vertex names: ids run out",
            NONE - 1
        ))
    })
}

/// Why `name` cannot be written back and read as itself in every file that
/// shows names (labels, solutions), if it cannot: those files read a line
/// starting with `#` or `%` as a comment, `-` as no vertex, and split lines
/// at control characters (a carriage return, a form feed).
fn unwritable(name: &str) -> Option<&'static str> {
    if name.starts_with(['#', '%']) {
        Some("starts with # or %, which starts a comment in the labels and solution files")
    } else if name == "-" {
        Some("is -, which means no vertex in a solution file")
    } else if name.chars().any(char::is_control) {
        Some("holds a control character")
    } else {
        None
    }
}

/// `v`'s name where there are names, else its number: how answers show it.
pub fn shown(names: Option<&Names>, v: u32) -> String {
    match names.and_then(|n| n.name(v)) {
        Some(name) => name.to_string(),
        None => v.to_string(),
    }
}

/// Finds a vertex given by name (with `names`) or number (without); the
/// error says what was expected.
pub fn resolve(names: Option<&Names>, text: &str) -> std::result::Result<u32, String> {
    match names {
        Some(n) => n
            .id(text)
            .ok_or_else(|| format!("no vertex is named {text:?}")),
        None => text
            .parse::<u32>()
            .map_err(|_| format!("expected a vertex id (a decimal number), found {text:?}")),
    }
}

/// An error naming the file and line: `name` is no vertex of the graph.
pub(crate) fn unknown(input: &Input, line: u64, name: &str) -> Error {
    Error::at_line(
        input.path(),
        line,
        format!("no vertex of the graph is named {name:?}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GameGraph;

    fn read(text: &str) -> Result<(Csr, Names)> {
        read_edges(
            &Input::from_bytes("g.txt", text.as_bytes().to_vec()),
            CsrBuilder::new(),
        )
    }

    #[test]
    fn names_are_numbered_in_order_of_first_appearance() {
        let (g, names) = read("# networkx\nb a {}\n\na c {'weight': 2}\nc c\n").unwrap();
        assert_eq!((g.vertex_count(), g.edge_count()), (3, 3));
        assert_eq!(
            (names.id("b"), names.id("a"), names.id("c"), names.id("d")),
            (Some(0), Some(1), Some(2), None)
        );
        assert_eq!(g.out_degree(1), 1);
        assert_eq!(shown(Some(&names), 2), "c");
        assert_eq!(shown(None, 2), "2");
        assert_eq!(resolve(Some(&names), "a"), Ok(1));
        assert!(
            resolve(Some(&names), "z")
                .unwrap_err()
                .contains("no vertex is named \"z\"")
        );
        assert!(
            resolve(None, "a")
                .unwrap_err()
                .contains("expected a vertex id")
        );
    }

    #[test]
    fn a_line_with_one_name_is_refused_with_its_line() {
        assert_eq!(
            read("a b\nc\n").unwrap_err().to_string(),
            "g.txt:line 2: expected a space or tab, then the second vertex's name, found the end of the line"
        );
        let bad = read_edges(
            &Input::from_bytes("g.txt", b"a \xff\n".to_vec()),
            CsrBuilder::new(),
        );
        assert!(bad.unwrap_err().to_string().contains("UTF-8"));
    }

    #[test]
    fn names_that_would_read_back_as_something_else_are_refused_with_line_and_column() {
        let e = |text: &str| read(text).unwrap_err().to_string();
        assert_eq!(
            e("a b\nc #d\n"),
            "g.txt:line 2: the name \"#d\" at column 3 starts with # or %, which starts a comment in the labels and solution files"
        );
        assert!(e("a %b\n").contains("column 3 starts with # or %"));
        assert!(e("a -\n").contains("\"-\" at column 3 is -, which means no vertex"));
        assert!(e("a b\x0cc\n").contains("at column 3 holds a control character"));
        assert!(e("a b\rc\n").starts_with("g.txt:line 1: the name \"b\\rc\""));
        // A name may hold them where they mean nothing.
        assert!(read("a# b-c -d\n").is_ok());
    }

    #[test]
    fn a_matrix_market_file_is_not_read_as_names() {
        let e = read("%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("g.txt:line 1: a Matrix Market file"),
            "{e}"
        );
    }
}
