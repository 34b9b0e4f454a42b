//! The solution file: one line per vertex, in vertex order.
//!
//! `vertex<TAB>outcome<TAB>remoteness<TAB>move`, where outcome is `win`,
//! `lose`, `tie` or `draw`, remoteness is `-` for a draw and move is `-` where
//! there is none (terminal positions). Indices that are no position (a dense
//! numbering's unused ones) have no line.
//!
//! ```text
//! 0<TAB>lose<TAB>2<TAB>1
//! 1<TAB>win<TAB>1<TAB>2
//! 2<TAB>lose<TAB>0<TAB>-
//! 3<TAB>draw<TAB>-<TAB>4
//! ```
//!
//! [`read`] parses the format back (for [`verify`](crate::verify())); it accepts
//! what the other text formats accept (spaces or tabs, comments, blank lines,
//! further ignored columns) and refuses, with file and line, anything that
//! cannot be a solution: vertices out of order or missing, an unknown outcome,
//! a remoteness on a draw or none on a win or loss, a move that is not a number.

use std::io::{self, Write};

use super::text::Scanner;
use super::Input;
use crate::error::{Error, Result};
use crate::graph::NONE;
use crate::outcome::OUTCOME_NAMES;
use crate::{Answers, Outcome, Solution};

/// Writes the line of vertex `v` (with its newline); nothing if `v` is not a position.
pub fn write_line<S: Answers + ?Sized>(w: &mut dyn Write, s: &S, v: u32) -> io::Result<()> {
    let mut buf = [0u8; 48];
    let n = format_line(&mut buf, s, v);
    w.write_all(&buf[..n])
}

/// Formats the line of `v` into `buf`, returns its length (0 if `v` is not
/// a position). 48 bytes always suffice.
fn format_line<S: Answers + ?Sized>(buf: &mut [u8; 48], s: &S, v: u32) -> usize {
    let Some(value) = s.value(v) else {
        return 0;
    };
    let mut itoa = itoa::Buffer::new();
    let mut n = 0;
    let mut put = |bytes: &[u8], n: &mut usize| {
        buf[*n..*n + bytes.len()].copy_from_slice(bytes);
        *n += bytes.len();
    };
    put(itoa.format(v).as_bytes(), &mut n);
    put(b"\t", &mut n);
    put(value.outcome.as_str().as_bytes(), &mut n);
    put(b"\t", &mut n);
    match value.remoteness {
        Some(r) => put(itoa.format(r).as_bytes(), &mut n),
        None => put(b"-", &mut n),
    }
    put(b"\t", &mut n);
    match s.best_move(v) {
        Some(m) => put(itoa.format(m).as_bytes(), &mut n),
        None => put(b"-", &mut n),
    }
    put(b"\n", &mut n);
    n
}

/// Writes every position's line, in vertex order. Takes every kind of
/// solution ([`Answers`]): best moves stored or computed.
pub fn write<S: Answers + ?Sized>(w: &mut dyn Write, s: &S) -> io::Result<()> {
    let mut chunk = Vec::with_capacity(1 << 16);
    let mut buf = [0u8; 48];
    for v in 0..s.len() as u32 {
        let n = format_line(&mut buf, s, v);
        chunk.extend_from_slice(&buf[..n]);
        if chunk.len() > (1 << 16) - 48 {
            w.write_all(&chunk)?;
            chunk.clear();
        }
    }
    w.write_all(&chunk)
}

/// Reads a solution file. With `vertices`, it must hold exactly that many
/// lines, vertices `0..vertices` in order; without, it holds as many as it has.
///
/// Memory grows with the lines actually read (9 bytes per vertex), never with
/// `vertices` alone, so a short file cannot make the reader allocate much.
///
/// ```
/// use retrograde::io::{solution, Input};
/// use retrograde::{Answers, Outcome};
/// let input = Input::from_bytes("s.tsv", b"0\twin\t1\t1\n1\tlose\t0\t-\n".to_vec());
/// let s = solution::read(&input, Some(2)).unwrap();
/// assert_eq!((s.outcome(0), s.remoteness(0), s.best_move(0)), (Outcome::Win, Some(1), Some(1)));
/// let short = solution::read(&input, Some(3)).unwrap_err();
/// assert_eq!(short.to_string(), "s.tsv:line 3: the solution ends after 2 vertices, but the graph has 3");
/// ```
pub fn read(input: &Input, vertices: Option<usize>) -> Result<Solution> {
    let data = input.bytes();
    // Every line takes at least 8 bytes ("0 win 0 -" has 9), so this bounds
    // the allocation by the input's size.
    let cap = vertices.unwrap_or(0).min(data.len() / 8 + 1);
    let mut state: Vec<u8> = Vec::with_capacity(cap);
    let mut remoteness: Vec<u32> = Vec::with_capacity(cap);
    let mut best: Vec<u32> = Vec::with_capacity(cap);
    let too_big = |what: &'static str| {
        move |x: u64| {
            format!(
                "{what} {x} is too large (the largest allowed is {})",
                NONE - 1
            )
        }
    };
    let mut s = Scanner::new(data, input.path());
    while s.next_record() {
        let expected = state.len() as u64;
        if vertices.is_some_and(|n| expected >= n as u64) {
            return Err(s.error(format!(
                "the graph has {expected} vertices, but the solution goes on"
            )));
        }
        let v_at = s.pos;
        let v = s.number(
            "a vertex id (a decimal number)",
            u64::from(NONE),
            &too_big("vertex id"),
        )?;
        if v != expected {
            s.pos = v_at;
            return Err(s.error(format!(
                "expected vertex {expected} (one line per vertex, in vertex order), found vertex {v}"
            )));
        }
        s.separator("a space or tab, then win, lose, tie or draw")?;
        let word_at = s.pos;
        let Some(outcome) = Outcome::from_bytes(s.word()) else {
            s.pos = word_at;
            return Err(s.error(format!("expected {OUTCOME_NAMES}, found {}", s.found())));
        };
        s.separator("a space or tab, then the remoteness (a number, or - for a draw)")?;
        let rem_at = s.pos;
        let rem = if s.dash() {
            None
        } else {
            Some(s.number(
                "the remoteness (a decimal number, or - for a draw)",
                u64::from(NONE),
                &too_big("remoteness"),
            )? as u32)
        };
        match (outcome, rem) {
            (Outcome::Draw, Some(r)) => {
                s.pos = rem_at;
                return Err(s.error(format!("a draw has no remoteness: expected -, found {r}")));
            }
            (o @ (Outcome::Win | Outcome::Lose | Outcome::Tie), None) => {
                s.pos = rem_at;
                return Err(s.error(format!(
                    "a {o} needs a remoteness (a decimal number), found -"
                )));
            }
            _ => {}
        }
        s.separator("a space or tab, then the best move (a vertex id, or - for none)")?;
        let mv = if s.dash() {
            NONE
        } else {
            s.number(
                "the best move (a vertex id, or - for none)",
                u64::from(NONE),
                &too_big("vertex id"),
            )? as u32
        };
        s.end_record("the best move")?;
        state.push(outcome as u8);
        remoteness.push(rem.unwrap_or(NONE));
        best.push(mv);
    }
    if let Some(n) = vertices {
        if state.len() < n {
            // The line where the next vertex was due.
            let next_line = if data.is_empty() || data.ends_with(b"\n") {
                s.line()
            } else {
                s.line() + 1
            };
            return Err(Error::at_line(
                input.path(),
                next_line,
                format!(
                    "the solution ends after {} vertices, but the graph has {n}",
                    state.len()
                ),
            ));
        }
    }
    Ok(Solution::from_parts(state, remoteness, best))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{solve, Csr, Rules};

    #[test]
    fn writes_the_documented_format() {
        let g = Csr::from_edges(5, &[(0, 1), (1, 2), (3, 4), (4, 3)]);
        let s = solve(&g, &Rules::normal()).unwrap();
        let mut out = Vec::new();
        write(&mut out, &s).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "0\tlose\t2\t1\n1\twin\t1\t2\n2\tlose\t0\t-\n3\tdraw\t-\t4\n4\tdraw\t-\t3\n"
        );
    }

    fn read_text(text: &str, n: Option<usize>) -> Result<Solution> {
        read(&Input::from_bytes("s.tsv", text.as_bytes().to_vec()), n)
    }

    fn error(text: &str, n: Option<usize>) -> String {
        read_text(text, n).unwrap_err().to_string()
    }

    #[test]
    fn reads_back_what_it_writes() {
        let g = Csr::from_edges(6, &[(0, 1), (1, 2), (3, 4), (4, 3), (5, 5), (5, 0)]);
        for rules in [Rules::normal(), Rules::misere()] {
            let s = solve(&g, &rules).unwrap();
            let mut out = Vec::new();
            write(&mut out, &s).unwrap();
            let text = String::from_utf8(out).unwrap();
            assert_eq!(read_text(&text, Some(6)).unwrap(), s);
            assert_eq!(read_text(&text, None).unwrap(), s);
        }
        let commented = "# a comment\n0 lose 0 -\n\n1  win\t1 0 extra\r\n";
        assert_eq!(read_text(commented, Some(2)).unwrap().len(), 2);
        assert!(read_text("", Some(0)).unwrap().is_empty());
    }

    #[test]
    fn vertices_out_of_order_or_missing_are_refused() {
        assert_eq!(
            error("0\tlose\t0\t-\n2\tlose\t0\t-\n", None),
            "s.tsv:line 2: expected vertex 1 (one line per vertex, in vertex order), found vertex 2"
        );
        assert_eq!(
            error("0\tlose\t0\t-\n", Some(3)),
            "s.tsv:line 2: the solution ends after 1 vertices, but the graph has 3"
        );
        assert_eq!(
            error("0\tlose\t0\t-", Some(2)),
            "s.tsv:line 2: the solution ends after 1 vertices, but the graph has 2"
        );
        assert_eq!(
            error("0 lose 0 -\n1 lose 0 -\n", Some(1)),
            "s.tsv:line 2: the graph has 1 vertices, but the solution goes on"
        );
    }

    #[test]
    fn bad_fields_are_refused_with_their_line() {
        assert_eq!(
            error("0 lose 0 -\n1 won 1 0\n", None),
            "s.tsv:line 2: expected win, lose, tie or draw, found \"won\""
        );
        assert_eq!(
            error("0 win - 1\n", None),
            "s.tsv:line 1: a win needs a remoteness (a decimal number), found -"
        );
        assert_eq!(
            error("0 draw 3 0\n", None),
            "s.tsv:line 1: a draw has no remoteness: expected -, found 3"
        );
        assert_eq!(
            error("0 win 1 x\n", None),
            "s.tsv:line 1: expected the best move (a vertex id, or - for none), found \"x\""
        );
        assert!(error("0 win -1 0\n", None).contains("negative numbers are not allowed"));
        assert!(error("0 win 1 -5\n", None).contains("negative numbers are not allowed"));
        assert!(error("0 win 4294967295 0\n", None).contains("remoteness 4294967295 is too large"));
        assert!(error("0 win 1 99999999999999999999\n", None).contains("too large"));
        assert!(error("0 win 1\n", None).starts_with("s.tsv:line 1: expected a space or tab"));
        assert!(error("0\n", None).starts_with("s.tsv:line 1: expected a space or tab"));
        assert!(error("0 win 1 1x\n", None).contains("after the best move"));
        assert!(error("x win 1 1\n", None).contains("expected a vertex id"));
        assert!(error("0 win 1 --\n", None).contains("found \"--\""));
    }

    #[test]
    fn a_tiny_file_cannot_make_the_reader_allocate_much() {
        // The graph may claim 4 billion vertices: the reader only allocates
        // for the lines it reads, and stops at the first missing one.
        let e = error("0 lose 0 -\n", Some(u32::MAX as usize));
        assert!(e.contains("ends after 1 vertices"), "{e}");
    }
}
