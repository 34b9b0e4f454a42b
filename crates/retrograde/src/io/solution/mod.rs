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
//! [`write_as`] also writes it for other tools ([`Format`]): with a header
//! line (`vertex<TAB>outcome<TAB>remoteness<TAB>best_move`), as CSV (comma
//! separated, an empty field where there is none, so that a data frame reads
//! numbers as numbers), or as JSON lines (`{"position":0,"outcome":"lose",
//! "remoteness":2,"best_move":1}`, `null` where there is none).
//!
//! [`read`] parses all of them back (for [`verify`](crate::verify())), telling
//! them apart by their first line holding data, by what no vertex name can
//! change: a whole JSON object is JSON lines; otherwise the second field is
//! an outcome (or `outcome` on a header line) when the line is split at
//! blanks (TSV) or else at commas (CSV). [`read_as`] takes the layout given
//! instead. It accepts what the other text formats
//! accept (spaces or tabs, comments, blank lines, further ignored columns) and
//! refuses, with file and line, anything that cannot be a solution: vertices
//! out of order or missing, an unknown outcome, a remoteness on a draw or none
//! on a win or loss, a move that is not a number.

mod read;
mod write;

pub use read::{read, read_as, read_named};
pub use write::{write, write_as, write_line, write_line_named};

/// The layouts of a solution file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Format {
    /// Tab-separated, `-` where there is none (the default).
    #[default]
    Tsv,
    /// Comma-separated, an empty field where there is none.
    Csv,
    /// One JSON object per line, `null` where there is none.
    Jsonl,
}

#[cfg(test)]
mod tests {
    use super::read::detect;
    use super::*;
    use crate::error::{Error, Location, Result};
    use crate::io::Input;
    use crate::{Answers, Csr, Rules, Solution, solve};

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

    /// A word where a line's vertex goes is a named vertex in every layout;
    /// a word for the best move stays a parse error.
    #[test]
    fn a_word_for_a_line_s_vertex_is_a_named_vertex() {
        for text in [
            "x\twin\t1\t1\n",
            "x,win,1,1\n",
            "{\"position\":\"x\",\"outcome\":\"win\",\"remoteness\":1,\"best_move\":1}\n",
        ] {
            let e = read_text(text, None).unwrap_err();
            assert!(
                matches!(&e, Error::NamedVertex { found, location: Location::Line(1), .. } if found == "x"),
                "{text:?}: {e:?}"
            );
            assert!(
                e.to_string()
                    .ends_with("expected a vertex id (a decimal number), found \"x\"")
            );
        }
        for text in ["0\twin\t1\tx\n", "0,win,1,x\n", "-1\twin\t1\t1\n"] {
            let e = read_text(text, None).unwrap_err();
            assert!(matches!(e, Error::Parse { .. }), "{text:?}: {e:?}");
        }
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
    fn every_format_reads_back_what_it_writes() {
        let g = Csr::from_edges(6, &[(0, 1), (1, 2), (3, 4), (4, 3), (5, 5), (5, 0)]);
        let s = solve(&g, &Rules::normal()).unwrap();
        for format in [Format::Tsv, Format::Csv, Format::Jsonl] {
            for header in [false, true] {
                let mut out = Vec::new();
                write_as(&mut out, &s, format, header, None).unwrap();
                let text = String::from_utf8(out).unwrap();
                assert_eq!(
                    read_text(&text, Some(6)).unwrap(),
                    s,
                    "{format:?} {header}\n{text}"
                );
            }
        }
        let mut out = Vec::new();
        write_as(&mut out, &s, Format::Csv, true, None).unwrap();
        assert!(String::from_utf8(out).unwrap().starts_with(
            "vertex,outcome,remoteness,best_move\n0,lose,2,1\n1,win,1,2\n2,lose,0,\n3,draw,,4\n"
        ));
        let mut out = Vec::new();
        write_as(&mut out, &s, Format::Jsonl, true, None).unwrap();
        assert!(String::from_utf8(out).unwrap().starts_with(
            "{\"position\":0,\"outcome\":\"lose\",\"remoteness\":2,\"best_move\":1}\n"
        ));
        let mut out = Vec::new();
        write_as(&mut out, &s, Format::Tsv, true, None).unwrap();
        assert!(
            String::from_utf8(out)
                .unwrap()
                .starts_with("vertex\toutcome\tremoteness\tbest_move\n0\tlose")
        );
    }

    /// Solves the named edge list `graph` and checks that its solution,
    /// written in every layout with and without a header, reads back the
    /// same, the layout told and the layout given.
    fn round_trips_in_every_layout(graph: &str) -> (Solution, super::super::names::Names) {
        let input = Input::from_bytes("g.txt", graph.as_bytes().to_vec());
        let (g, names) = super::super::names::read_edges(&input, crate::CsrBuilder::new()).unwrap();
        let s = solve(&g, &Rules::normal()).unwrap();
        for format in [Format::Tsv, Format::Csv, Format::Jsonl] {
            for header in [false, format != Format::Jsonl] {
                let mut out = Vec::new();
                write_as(&mut out, &s, format, header, Some(&names)).unwrap();
                let text = String::from_utf8(out).unwrap();
                let input = Input::from_bytes("s", text.clone().into_bytes());
                let back = read_named(&input, &names);
                assert_eq!(back.unwrap(), s, "{graph:?} {format:?} {header}\n{text}");
                let given = read_as(&input, None, Some(&names), Some(format));
                assert_eq!(given.unwrap(), s, "{graph:?} {format:?} {header} given");
            }
        }
        (s, names)
    }

    #[test]
    fn named_solutions_read_back_in_every_format() {
        let (s, names) = round_trips_in_every_layout("a b\nb \"c,d\"\n\"c,d\" a\nx y\ny x\n");
        let mut out = Vec::new();
        write_as(&mut out, &s, Format::Csv, false, Some(&names)).unwrap();
        assert!(
            String::from_utf8(out)
                .unwrap()
                .contains("\n\"\"\"c,d\"\"\",draw,,a\n")
        );
        let wrong = read_named(&Input::from_bytes("s", b"b\tdraw\t-\ta\n".to_vec()), &names);
        assert_eq!(
            wrong.unwrap_err().to_string(),
            "s:line 1: expected vertex \"a\" (one line per vertex, in the order the graph names them), found \"b\""
        );
        let unknown = read_named(
            &Input::from_bytes("s", b"zz\tdraw\t-\ta\n".to_vec()),
            &names,
        );
        assert!(
            unknown
                .unwrap_err()
                .to_string()
                .contains("no vertex of the graph is named \"zz\"")
        );
    }

    #[test]
    fn bad_csv_and_json_lines_name_their_line() {
        assert_eq!(
            error(
                "vertex,outcome,remoteness,best_move\n0,lose,0,\n2,lose,0,\n",
                None
            ),
            "s.tsv:line 3: expected vertex 1 (one line per vertex, in vertex order), found vertex 2"
        );
        assert_eq!(
            error("0,draw,3,0\n", None),
            "s.tsv:line 1: a draw has no remoteness: expected -, found 3"
        );
        assert!(error("0,win,1\n", None).contains("expected 4 comma-separated fields"));
        assert!(error("0,won,1,0\n", None).contains("expected win, lose, tie or draw"));
        assert!(error("0,win,x,0\n", None).contains("expected the remoteness"));
        assert!(error("0,win,1,4294967295\n", None).contains("vertex id 4294967295 is too large"));
        assert!(
            error(
                "{\"position\":0,\"outcome\":\"win\"}\n{\"position\":1}\n",
                None
            )
            .starts_with("s.tsv:line 1: a win needs a remoteness")
        );
        let e = error(
            "{\"position\":0,\"outcome\":\"lose\",\"remoteness\":0,\"best_move\":null}\n{\"position\":1,\"outcome\":\"lose\",\"remoteness\":0,\"best_move\":null,\"x\":1}\n",
            None,
        );
        assert!(e.starts_with("s.tsv:line 2: expected a JSON object"), "{e}");
        assert_eq!(
            error(
                "{\"position\":0,\"outcome\":\"lose\",\"remoteness\":0,\"best_move\":null}",
                Some(2)
            ),
            "s.tsv:line 2: the solution ends after 1 vertices, but the graph has 2"
        );
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

    /// Regression: every line asked the scanner for its line number, which
    /// counts newlines from the start of the file: 16.7 s for 25,000 lines.
    /// Line numbers are now found only for an error, in one scan.
    #[test]
    fn reading_a_solution_scans_for_line_numbers_only_on_an_error() {
        use crate::io::text::LINE_SCAN_BYTES;
        let text: String = (0..2000).map(|v| format!("{v}\tlose\t0\t-\n")).collect();
        let scanned = |text: &str, n: usize| {
            LINE_SCAN_BYTES.with(|c| c.set(0));
            let result = read_text(text, Some(n));
            (result.is_ok(), LINE_SCAN_BYTES.with(|c| c.get()))
        };
        assert_eq!(scanned(&text, 2000), (true, 0));
        let (ok, bytes) = scanned(&text, 2001);
        assert!(!ok && bytes <= text.len() as u64, "{bytes} bytes scanned");
        let bad = format!("{text}2000\twin\t-\t1\n");
        let (ok, bytes) = scanned(&bad, 2001);
        assert!(!ok && bytes <= bad.len() as u64, "{bytes} bytes scanned");
    }

    /// Regression: the layout was told by a brace or a comma anywhere on the
    /// first line, and a header by its first word, so a solution written
    /// with names such as `a,b`, `{x}` or `vertex` was read as the wrong
    /// layout and refused.
    #[test]
    fn a_named_solution_reads_back_whatever_its_first_name_looks_like() {
        for first in [
            "a,b",
            "{x}",
            "{\"position\":0,\"outcome\":\"lose\",\"remoteness\":0,\"best_move\":null}",
            "vertex",
            "position",
            "outcome",
            "\"q\"",
            "win",
            "\u{3000}wide\u{a0}space",
        ] {
            round_trips_in_every_layout(&format!("{first} b\nb c\nc {first}\nd d\n"));
        }
    }

    #[test]
    fn the_layout_is_told_by_the_outcome_field_and_a_header_by_its_name() {
        assert_eq!(detect(b"0\twin\t1\t1\n"), (Format::Tsv, false));
        assert_eq!(detect(b"# c\n\n0 win 1 1\n"), (Format::Tsv, false));
        assert_eq!(detect(b"0,win,1,1\n"), (Format::Csv, false));
        assert_eq!(detect(b"0, win, 1, 1\n"), (Format::Csv, false));
        assert_eq!(detect(b"a,b\twin\t1\tc\n"), (Format::Tsv, false));
        assert_eq!(
            detect(b"{\"position\": 0, \"outcome\": \"win\"}\n"),
            (Format::Jsonl, false)
        );
        assert_eq!(detect(b"{x}\twin\t1\tc\n"), (Format::Tsv, false));
        assert_eq!(detect(b"vertex\twin\t1\tc\n"), (Format::Tsv, false));
        assert_eq!(
            detect(b"vertex\toutcome\tremoteness\tbest_move\n"),
            (Format::Tsv, true)
        );
        assert_eq!(
            detect(b"position,outcome,remoteness,best_move\n"),
            (Format::Csv, true)
        );
        assert_eq!(detect(b"id,Outcome,r,m\n"), (Format::Csv, true));
        // What fits no layout is read by its look, for its error.
        assert_eq!(detect(b"{\"position\":0\n"), (Format::Jsonl, false));
        assert_eq!(detect(b"0,won,1,1\n"), (Format::Csv, false));
        assert_eq!(detect(b"0 won 1 1\n"), (Format::Tsv, false));
    }

    #[test]
    fn a_layout_given_is_read_as_given() {
        let csv = "vertex,outcome,remoteness,best_move\n0,lose,0,\n";
        let input = Input::from_bytes("s", csv.as_bytes().to_vec());
        assert_eq!(
            read_as(&input, Some(1), None, Some(Format::Csv))
                .unwrap()
                .len(),
            1
        );
        let e = read_as(&input, Some(1), None, Some(Format::Tsv)).unwrap_err();
        assert!(
            e.to_string().starts_with("s:line 1: expected a vertex id"),
            "{e}"
        );
        let e = read_as(&input, Some(1), None, Some(Format::Jsonl)).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("s:line 1: expected a JSON object"),
            "{e}"
        );
    }

    #[test]
    fn a_tiny_file_cannot_make_the_reader_allocate_much() {
        // The graph may claim 4 billion vertices: the reader only allocates
        // for the lines it reads, and stops at the first missing one.
        let e = error("0 lose 0 -\n", Some(u32::MAX as usize));
        assert!(e.contains("ends after 1 vertices"), "{e}");
    }
}
