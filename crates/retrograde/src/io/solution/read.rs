//! Reading a solution file back: the layout told from its first line (or
//! given), every line checked.

use super::Format;
use crate::error::{Error, Location, Result};
use crate::graph::NONE;
use crate::io::Input;
use crate::io::names::Names;
use crate::io::text::Scanner;
use crate::outcome::OUTCOME_NAMES;
use crate::{Outcome, Solution};

/// Splits a CSV line into its fields, undoing [`csv_quoted`](super::write::csv_quoted).
fn csv_fields(line: &str) -> Vec<String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    // A quoted field's text once its quote has closed: kept as it is (a
    // name may start or end with whitespace other than a space or tab).
    let mut closed: Option<String> = None;
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    let end = |closed: &mut Option<String>, field: &mut String| {
        let rest = std::mem::take(field);
        closed.take().unwrap_or_default() + rest.trim()
    };
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            '"' if quoted => {
                quoted = false;
                closed = Some(std::mem::take(&mut field));
            }
            '"' if closed.is_none() && field.trim().is_empty() => {
                field.clear();
                quoted = true;
            }
            ',' if !quoted => fields.push(end(&mut closed, &mut field)),
            c => field.push(c),
        }
    }
    fields.push(end(&mut closed, &mut field));
    fields
}

/// The arrays of a solution being read, and the checks every line passes
/// whatever its layout.
struct Collector<'a> {
    path: &'a std::path::Path,
    vertices: Option<usize>,
    state: Vec<u8>,
    remoteness: Vec<u32>,
    best: Vec<u32>,
}

/// The message for a number past what ids and remoteness allow.
fn too_big(what: &'static str) -> impl Fn(u64) -> String {
    move |x: u64| {
        format!(
            "{what} {x} is too large (the largest allowed is {})",
            NONE - 1
        )
    }
}

impl Collector<'_> {
    fn error(&self, line: u64, message: String) -> Error {
        Error::at_line(self.path, line, message)
    }

    /// Refuses a line past the graph's last vertex. `line` is only asked
    /// for an error: finding it may take a scan from the start of the file.
    fn room(&self, line: impl FnOnce() -> u64) -> Result<()> {
        let expected = self.state.len() as u64;
        if self.vertices.is_some_and(|n| expected >= n as u64) {
            return Err(self.error(
                line(),
                format!("the graph has {expected} vertices, but the solution goes on"),
            ));
        }
        Ok(())
    }

    /// Refuses a vertex out of order.
    fn vertex(&self, line: impl FnOnce() -> u64, v: u64) -> Result<()> {
        let expected = self.state.len() as u64;
        if v != expected {
            return Err(self.error(
                line(),
                format!("expected vertex {expected} (one line per vertex, in vertex order), found vertex {v}"),
            ));
        }
        Ok(())
    }

    /// Refuses a remoteness that does not go with the outcome.
    fn remoteness(
        &self,
        line: impl FnOnce() -> u64,
        outcome: Outcome,
        rem: Option<u64>,
    ) -> Result<()> {
        match (outcome, rem) {
            (Outcome::Draw, Some(r)) => Err(self.error(
                line(),
                format!("a draw has no remoteness: expected -, found {r}"),
            )),
            (o @ (Outcome::Win | Outcome::Lose | Outcome::Tie), None) => Err(self.error(
                line(),
                format!("a {o} needs a remoteness (a decimal number), found -"),
            )),
            _ => Ok(()),
        }
    }

    fn push(&mut self, outcome: Outcome, rem: Option<u32>, mv: Option<u32>) {
        self.state.push(outcome as u8);
        self.remoteness.push(rem.unwrap_or(NONE));
        self.best.push(mv.unwrap_or(NONE));
    }

    /// Checks a whole record (from CSV or JSON lines) and keeps it.
    fn record(
        &mut self,
        line: u64,
        v: u64,
        outcome: Outcome,
        rem: Option<u64>,
        mv: Option<u64>,
    ) -> Result<()> {
        self.room(|| line)?;
        for (what, x) in [
            ("vertex id", Some(v)),
            ("remoteness", rem),
            ("vertex id", mv),
        ] {
            if let Some(x) = x.filter(|&x| x >= u64::from(NONE)) {
                return Err(self.error(line, too_big(what)(x)));
            }
        }
        self.vertex(|| line, v)?;
        self.remoteness(|| line, outcome, rem)?;
        self.push(outcome, rem.map(|r| r as u32), mv.map(|m| m as u32));
        Ok(())
    }

    /// Refuses a file that ended early; `next_line` is where the next vertex
    /// was due (asked for only then).
    fn finish(self, next_line: impl FnOnce() -> u64) -> Result<Solution> {
        if let Some(n) = self.vertices
            && self.state.len() < n
        {
            return Err(self.error(
                next_line(),
                format!(
                    "the solution ends after {} vertices, but the graph has {n}",
                    self.state.len()
                ),
            ));
        }
        Ok(Solution::from_parts(self.state, self.remoteness, self.best))
    }
}

/// The fields of a TSV line: split at spaces and tabs, as every text reader
/// splits (a name may hold any other character, other whitespace included).
fn blank_fields(line: &str) -> impl Iterator<Item = &str> {
    line.split([' ', '\t']).filter(|f| !f.is_empty())
}

/// The first line of `data` holding data (not blank, not a comment).
fn first_data_line(data: &[u8]) -> &[u8] {
    data.split(|&b| b == b'\n')
        .map(|l| l.trim_ascii())
        .find(|l| !l.is_empty() && !l.starts_with(b"#") && !l.starts_with(b"%"))
        .unwrap_or(b"")
}

/// The second field of `line` read in `format`: where every record holds
/// its outcome and a header the word `outcome`. `None` for JSON lines.
fn second_field(line: &str, format: Format) -> Option<String> {
    match format {
        Format::Tsv => blank_fields(line).nth(1).map(String::from),
        Format::Csv => csv_fields(line).into_iter().nth(1),
        Format::Jsonl => None,
    }
}

/// Whether `line`, read in `format`, is a header: its second field is the
/// column name `outcome`, which no record can hold there.
fn is_header(line: &str, format: Format) -> bool {
    second_field(line, format).is_some_and(|f| f.eq_ignore_ascii_case("outcome"))
}

/// The layout of a solution file, from its first line holding data, and
/// whether that line is a header.
///
/// Decided by what no vertex (number or name) can change: a JSON line is one
/// whole JSON object; otherwise the second field is an outcome (or, on a
/// header, `outcome`), and is found there only when the line is split as its
/// layout says: at blanks for TSV (a name holds no blank, so a name with a
/// comma, a brace or the word `vertex` stays one field), at commas outside
/// quotes for CSV. A line that fits none is read by its look (a brace, a
/// comma), so that its error names what is wrong with it.
pub(super) fn detect(data: &[u8]) -> (Format, bool) {
    let first = String::from_utf8_lossy(first_data_line(data));
    let fits = |format| {
        second_field(&first, format).is_some_and(|f| {
            Outcome::from_bytes(f.as_bytes()).is_some() || f.eq_ignore_ascii_case("outcome")
        })
    };
    let format =
        if serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(&first).is_ok() {
            Format::Jsonl
        } else if fits(Format::Tsv) {
            Format::Tsv
        } else if fits(Format::Csv) {
            Format::Csv
        } else if first.starts_with('{') {
            Format::Jsonl
        } else if first.contains(',') {
            Format::Csv
        } else {
            Format::Tsv
        };
    (format, is_header(&first, format))
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
    read_maybe_named(input, vertices, None)
}

/// Reads a solution whose vertices are shown by name (as [`write_as`](super::write_as) writes
/// them with names, in any layout): one line per vertex of `names`, in id
/// order.
///
/// ```
/// use retrograde::io::{names, solution, Input};
/// use retrograde::{Answers, CsrBuilder, Outcome};
/// let g = Input::from_bytes("g.txt", b"start end\n".to_vec());
/// let (_, names) = names::read_edges(&g, CsrBuilder::new()).unwrap();
/// let s = Input::from_bytes("s.tsv", b"start\twin\t1\tend\nend\tlose\t0\t-\n".to_vec());
/// let s = solution::read_named(&s, &names).unwrap();
/// assert_eq!((s.outcome(0), s.best_move(0)), (Outcome::Win, Some(1)));
/// ```
pub fn read_named(input: &Input, names: &Names) -> Result<Solution> {
    read_maybe_named(input, Some(names.len()), Some(names))
}

/// [`read`] (without `names`) or [`read_named`] (with), the layout given
/// rather than told from the file: `None` tells it, as they do. A first line
/// whose second field is `outcome` is a header either way (JSON lines have
/// none).
///
/// ```
/// use retrograde::io::{solution, Input};
/// use retrograde::Answers;
/// let input = Input::from_bytes("s.csv", b"0,win,1,1\n1,lose,0,\n".to_vec());
/// let s = solution::read_as(&input, Some(2), None, Some(solution::Format::Csv)).unwrap();
/// assert_eq!(s.best_move(0), Some(1));
/// let tsv = solution::read_as(&input, Some(2), None, Some(solution::Format::Tsv));
/// assert!(tsv.unwrap_err().to_string().starts_with("s.csv:line 1: expected a space or tab"));
/// ```
pub fn read_as(
    input: &Input,
    vertices: Option<usize>,
    names: Option<&Names>,
    format: Option<Format>,
) -> Result<Solution> {
    let vertices = names.map_or(vertices, |n| Some(n.len()));
    let layout = format.map(|f| {
        (
            f,
            is_header(&String::from_utf8_lossy(first_data_line(input.bytes())), f),
        )
    });
    read_layout(input, vertices, names, layout)
}

fn read_maybe_named(
    input: &Input,
    vertices: Option<usize>,
    names: Option<&Names>,
) -> Result<Solution> {
    read_layout(input, vertices, names, None)
}

/// Reads in `layout` (the format and whether a header comes first), told
/// from the file if `None`.
fn read_layout(
    input: &Input,
    vertices: Option<usize>,
    names: Option<&Names>,
    layout: Option<(Format, bool)>,
) -> Result<Solution> {
    let data = input.bytes();
    // Every line takes at least 8 bytes ("0 win 0 -" has 9), so this bounds
    // the allocation by the input's size.
    let cap = vertices.unwrap_or(0).min(data.len() / 8 + 1);
    let mut c = Collector {
        path: input.path(),
        vertices,
        state: Vec::with_capacity(cap),
        remoteness: Vec::with_capacity(cap),
        best: Vec::with_capacity(cap),
    };
    let (format, header) = layout.unwrap_or_else(|| detect(data));
    if format != Format::Tsv || names.is_some() {
        return read_records(data, c, format, header, names);
    }
    let mut s = Scanner::new(data, input.path());
    if header && s.next_record() {
        s.skip_line();
    }
    while s.next_record() {
        // Line numbers are found by counting from the start of the file:
        // only for an error, or reading would be quadratic.
        c.room(|| s.line())?;
        let v = s.vertex_id(
            "a vertex id (a decimal number)",
            u64::from(NONE),
            &too_big("vertex id"),
        )?;
        c.vertex(|| s.line(), v)?;
        s.separator("a space or tab, then win, lose, tie or draw")?;
        let word_at = s.pos;
        let Some(outcome) = Outcome::from_bytes(s.word()) else {
            s.pos = word_at;
            return Err(s.error(format!("expected {OUTCOME_NAMES}, found {}", s.found())));
        };
        s.separator("a space or tab, then the remoteness (a number, or - for a draw)")?;
        let rem = if s.dash() {
            None
        } else {
            Some(s.number(
                "the remoteness (a decimal number, or - for a draw)",
                u64::from(NONE),
                &too_big("remoteness"),
            )?)
        };
        c.remoteness(|| s.line(), outcome, rem)?;
        s.separator("a space or tab, then the best move (a vertex id, or - for none)")?;
        let mv = if s.dash() {
            None
        } else {
            Some(s.number(
                "the best move (a vertex id, or - for none)",
                u64::from(NONE),
                &too_big("vertex id"),
            )? as u32)
        };
        s.end_record("the best move")?;
        c.push(outcome, rem.map(|r| r as u32), mv);
    }
    // The line where the next vertex was due.
    c.finish(|| {
        if data.is_empty() || data.ends_with(b"\n") {
            s.line()
        } else {
            s.line() + 1
        }
    })
}

/// One line of JSON lines.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Record {
    #[serde(alias = "vertex")]
    position: Id,
    outcome: String,
    remoteness: Option<u64>,
    best_move: Option<Id>,
}

/// A vertex in JSON: its number, or its name.
#[derive(serde::Deserialize)]
#[serde(untagged)]
enum Id {
    Number(u64),
    Name(String),
}

/// Reads the CSV and JSON-lines layouts, and any layout with names, line by line.
fn read_records(
    data: &[u8],
    mut c: Collector<'_>,
    format: Format,
    header: bool,
    names: Option<&Names>,
) -> Result<Solution> {
    let mut skip_header = header;
    let mut lines = 0u64;
    for (i, raw) in data.split(|&b| b == b'\n').enumerate() {
        let line = i as u64 + 1;
        lines = line;
        let text = raw.trim_ascii();
        if text.is_empty() || text.starts_with(b"#") || text.starts_with(b"%") {
            continue;
        }
        if std::mem::take(&mut skip_header) {
            continue;
        }
        let text = std::str::from_utf8(text)
            .map_err(|_| c.error(line, "expected text (UTF-8), found other bytes".into()))?;
        let (v, outcome, rem, mv) = line_fields(&c, line, text, format, names)?;
        let Some(outcome) = Outcome::from_bytes(outcome.as_bytes()) else {
            return Err(c.error(line, format!("expected {OUTCOME_NAMES}, found {outcome:?}")));
        };
        if let Some(names) = names {
            // Say which vertex was due by its name.
            let expected = c.state.len() as u32;
            if v != u64::from(expected) && c.vertices.is_none_or(|n| (expected as usize) < n) {
                return Err(c.error(
                    line,
                    format!(
                        "expected vertex {:?} (one line per vertex, in the order the graph names them), found {:?}",
                        names.name(expected).unwrap_or("?"),
                        names.name(v as u32).unwrap_or("?")
                    ),
                ));
            }
        }
        c.record(line, v, outcome, rem, mv)?;
    }
    let next_line = if data.is_empty() || data.ends_with(b"\n") {
        lines
    } else {
        lines + 1
    };
    c.finish(|| next_line.max(1))
}

/// The vertex, outcome, remoteness and best move a line of `format` holds
/// (CSV, JSON lines, or TSV with names), the vertices read as numbers or as
/// `names`.
fn line_fields(
    c: &Collector<'_>,
    line: u64,
    text: &str,
    format: Format,
    names: Option<&Names>,
) -> Result<(u64, String, Option<u64>, Option<u64>)> {
    // A vertex as written: a number, or with names a name.
    let vertex = |what: &str, f: Id| -> Result<u64> {
        match (f, names) {
            (Id::Number(v), None) => Ok(v),
            (Id::Name(n), Some(names)) => names
                .id(&n)
                .map(u64::from)
                .ok_or_else(|| c.error(line, format!("no vertex of the graph is named {n:?}"))),
            (Id::Number(v), Some(names)) => names
                .id(&v.to_string())
                .map(u64::from)
                .ok_or_else(|| c.error(line, format!("no vertex of the graph is named \"{v}\""))),
            (Id::Name(n), None) => Err(c.error(line, format!("expected {what}, found {n:?}"))),
        }
    };
    // The line's own vertex: a word where its id was expected is a
    // named vertex.
    let line_vertex = |f: Id| -> Result<u64> {
        const WHAT: &str = "a vertex id (a decimal number)";
        match (&f, names) {
            (Id::Name(n), None) => {
                let otherwise = || c.error(line, format!("expected {WHAT}, found {n:?}"));
                Err(Error::expected_vertex(
                    c.path,
                    Location::Line(line),
                    WHAT,
                    n,
                    otherwise,
                ))
            }
            _ => vertex(WHAT, f),
        }
    };
    let field = |f: &str| -> Id {
        match (names, f.parse::<u64>()) {
            (None, Ok(v)) => Id::Number(v),
            _ => Id::Name(f.to_string()),
        }
    };
    Ok(if format == Format::Jsonl {
        let r: Record = serde_json::from_str(text).map_err(|e| {
            c.error(
                line,
                format!(
                    "expected a JSON object with position, outcome, remoteness and best_move: {e}"
                ),
            )
        })?;
        let v = line_vertex(r.position)?;
        let mv = match r.best_move {
            Some(m) => Some(vertex("the best move (a vertex id, or null for none)", m)?),
            None => None,
        };
        (v, r.outcome, r.remoteness, mv)
    } else {
        let fields = split_fields(c, line, text, format)?;
        let none = |f: &str| f.is_empty() || f == "-";
        let v = line_vertex(field(&fields[0]))?;
        let rem = if none(&fields[2]) {
            None
        } else {
            Some(fields[2].parse::<u64>().map_err(|_| {
                c.error(
                    line,
                    format!(
                        "expected the remoteness (a decimal number, or empty for a draw), found {:?}",
                        fields[2]
                    ),
                )
            })?)
        };
        let mv = if none(&fields[3]) {
            None
        } else {
            Some(vertex(
                "the best move (a vertex id, or empty for none)",
                field(&fields[3]),
            )?)
        };
        (v, fields[1].clone(), rem, mv)
    })
}

/// The fields of a CSV line, or of a TSV line with names: at least four.
fn split_fields(c: &Collector<'_>, line: u64, text: &str, format: Format) -> Result<Vec<String>> {
    let fields: Vec<String> = if format == Format::Csv {
        csv_fields(text)
    } else {
        blank_fields(text).map(String::from).collect()
    };
    if fields.len() < 4 {
        let sep = if format == Format::Csv {
            "comma"
        } else {
            "blank"
        };
        return Err(c.error(
            line,
            format!(
                "expected 4 {sep}-separated fields (vertex, outcome, remoteness, best move), found {}",
                fields.len()
            ),
        ));
    }
    Ok(fields)
}
