//! Owners: one `vertex owner` a line, the owner `0` or `1`: who moves at the
//! vertex, in an arena where a player may move twice in a row
//! ([`Arena`](crate::graph::Arena)).
//!
//! Same comment rules as the edge list. Every vertex needs a line; a vertex
//! may be listed twice only with the same owner.
//!
//! ```text
//! # player 0 moves at 0 and 2, player 1 at 1
//! 0 0
//! 1 1
//! 2 0
//! ```

use super::Input;
use super::labels::{Vertices, Words, read_pairs};
use super::names::Names;
use crate::error::{Error, Result};
use std::io::Write;

use crate::Player;

const WORDS: Words = Words {
    expected: "an owner, 0 or 1",
    noun: "the owner",
    verb: "owned by",
};

fn player(word: &[u8]) -> Option<Player> {
    match word {
        b"0" => Some(Player::First),
        b"1" => Some(Player::Second),
        _ => None,
    }
}

/// Reads the owners of the `vertices` vertices of a graph: every id must
/// be below it, and every vertex must have a line.
///
/// ```
/// use retrograde::io::{owners, Input};
/// use retrograde::Player;
/// let o = owners::read(&Input::from_bytes("o.txt", b"1 1\n0 0\n".to_vec()), 2).unwrap();
/// assert_eq!(o, [Player::First, Player::Second]);
/// let e = owners::read(&Input::from_bytes("o.txt", b"0 0\n".to_vec()), 2).unwrap_err();
/// assert_eq!(e.to_string(), "o.txt: vertex 1 has no owner (every vertex needs a line `vertex 0|1`)");
/// ```
pub fn read(input: &Input, vertices: usize) -> Result<Vec<Player>> {
    let pairs = read_pairs(input, Vertices::Ids(Some(vertices)), player, WORDS)?;
    complete(input, pairs, vertices, None)
}

/// Reads the owners of a graph whose vertex count is not known yet (the
/// timely engine's, which no process reads whole): the vertices are those
/// the file lists, which must be `0` to the largest listed, each once.
///
/// ```
/// use retrograde::io::{owners, Input};
/// let o = owners::read_all(&Input::from_bytes("o.txt", b"0 1\n1 0\n".to_vec())).unwrap();
/// assert_eq!(o.len(), 2);
/// assert!(owners::read_all(&Input::from_bytes("o.txt", b"0 1\n2 0\n".to_vec())).is_err());
/// ```
pub fn read_all(input: &Input) -> Result<Vec<Player>> {
    let pairs = read_pairs(input, Vertices::Ids(None), player, WORDS)?;
    let n = pairs.last().map_or(0, |&(v, _)| v as usize + 1);
    complete(input, pairs, n, None)
}

/// Reads the owners of a graph whose vertices are named (`name 1`), for a
/// graph read with [`names::read_edges`](super::names::read_edges); every
/// name must be one of the graph's, and every vertex must have a line.
pub fn read_named(input: &Input, names: &Names) -> Result<Vec<Player>> {
    let pairs = read_pairs(input, Vertices::Named(names), player, WORDS)?;
    complete(input, pairs, names.len(), Some(names))
}

/// One owner a vertex, from pairs sorted by vertex, one a vertex.
fn complete(
    input: &Input,
    pairs: Vec<(u32, Player)>,
    vertices: usize,
    names: Option<&Names>,
) -> Result<Vec<Player>> {
    // No more than the lines read: a large id alone allocates nothing.
    let mut owners = Vec::with_capacity(pairs.len().min(vertices));
    for (v, p) in pairs {
        if v as usize != owners.len() {
            break;
        }
        owners.push(p);
    }
    if owners.len() < vertices {
        return Err(Error::NoOwner {
            path: input.path().to_path_buf(),
            vertex: super::names::shown(names, owners.len() as u32),
        });
    }
    Ok(owners)
}

/// Writes `owners` as lines `vertex owner`, the vertices named by `names`
/// where given. Time **O(V)**.
pub fn write(
    w: &mut dyn std::io::Write,
    owners: &[Player],
    names: Option<&Names>,
) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(w);
    for (v, p) in owners.iter().enumerate() {
        writeln!(out, "{} {}", super::names::shown(names, v as u32), p)?;
    }
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn owners(text: &str, n: usize) -> Result<Vec<Player>> {
        read(&Input::from_bytes("o.txt", text.as_bytes().to_vec()), n)
    }

    #[test]
    fn a_large_id_alone_is_refused_without_allocating_for_it() {
        let input = Input::from_bytes("o.txt", b"4000000000 1\n".to_vec());
        assert_eq!(
            read_all(&input).unwrap_err().to_string(),
            "o.txt: vertex 0 has no owner (every vertex needs a line `vertex 0|1`)"
        );
    }

    #[test]
    fn owners_are_read_with_comments_and_repeats() {
        let o = owners("# arena\n2 1\n0\t0 # first\n1 0\n2 1\n", 3).unwrap();
        assert_eq!(o, [Player::First, Player::First, Player::Second]);
    }

    #[test]
    fn bad_owner_files_are_refused_with_their_line() {
        let e = |t: &str| owners(t, 3).unwrap_err().to_string();
        assert_eq!(
            e("0 0\n1 2\n"),
            "o.txt:line 2: expected an owner, 0 or 1, found \"2\""
        );
        assert_eq!(
            e("0 0\n0 1\n"),
            "o.txt:line 2: vertex 0 is owned by 1 here but 0 on line 1"
        );
        assert_eq!(
            e("0 0\n3 1\n"),
            "o.txt:line 2: vertex id 3 is not below the vertex count 3"
        );
        assert_eq!(
            e("0 0\n2 1\n"),
            "o.txt: vertex 1 has no owner (every vertex needs a line `vertex 0|1`)"
        );
        assert_eq!(
            e("0\n"),
            "o.txt:line 1: expected a space or tab, then an owner, 0 or 1, found the end of the line"
        );
    }
}
