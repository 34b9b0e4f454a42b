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

use std::io::{self, Write};

use super::names::Names;
use super::text::Scanner;
use super::Input;
use crate::error::{Error, Location, Result};
use crate::graph::NONE;
use crate::outcome::OUTCOME_NAMES;
use crate::{Answers, Outcome, Solution};

/// Writes the line of vertex `v` (with its newline); nothing if `v` is not a position.
pub fn write_line<S: Answers + ?Sized>(w: &mut dyn Write, s: &S, v: u32) -> io::Result<()> {
    let mut buf = [0u8; 48];
    let n = format_line(&mut buf, s, v);
    w.write_all(&buf[..n])
}

/// [`write_line`], vertices shown by their `names` if given.
pub fn write_line_named<S: Answers + ?Sized>(
    w: &mut dyn Write,
    s: &S,
    v: u32,
    names: Option<&Names>,
) -> io::Result<()> {
    match names {
        None => write_line(w, s, v),
        Some(_) => {
            let mut line = String::new();
            record(&mut line, s, v, Format::Tsv, names);
            w.write_all(line.as_bytes())
        }
    }
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

/// The header line of the TSV and CSV layouts.
const COLUMNS: [&str; 4] = ["vertex", "outcome", "remoteness", "best_move"];

/// Writes every position's line, in vertex order. Takes every kind of
/// solution ([`Answers`]): best moves stored or computed.
pub fn write<S: Answers + ?Sized>(w: &mut dyn Write, s: &S) -> io::Result<()> {
    write_as(w, s, Format::Tsv, false, None)
}

/// Writes every position's line in `format`, after a header line of column
/// names if `header` (JSON lines have none: each object names its fields),
/// with vertices shown by their `names` if given (quoted where CSV needs it).
pub fn write_as<S: Answers + ?Sized>(
    w: &mut dyn Write,
    s: &S,
    format: Format,
    header: bool,
    names: Option<&Names>,
) -> io::Result<()> {
    if header && format != Format::Jsonl {
        let sep = if format == Format::Csv { "," } else { "\t" };
        writeln!(w, "{}", COLUMNS.join(sep))?;
    }
    if format != Format::Tsv || names.is_some() {
        return write_records(w, s, format, names);
    }
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

/// The records of the CSV and JSON-lines layouts, and of any layout with names.
fn write_records<S: Answers + ?Sized>(
    w: &mut dyn Write,
    s: &S,
    format: Format,
    names: Option<&Names>,
) -> io::Result<()> {
    let mut chunk = String::with_capacity(1 << 16);
    for v in 0..s.len() as u32 {
        record(&mut chunk, s, v, format, names);
        if chunk.len() > (1 << 16) - 256 {
            w.write_all(chunk.as_bytes())?;
            chunk.clear();
        }
    }
    w.write_all(chunk.as_bytes())
}

/// Appends the record of `v` (nothing if it is no position).
fn record<S: Answers + ?Sized>(
    out: &mut String,
    s: &S,
    v: u32,
    format: Format,
    names: Option<&Names>,
) {
    use std::fmt::Write as _;
    let Some(value) = s.value(v) else { return };
    let (o, r, m) = (value.outcome.as_str(), value.remoteness, s.best_move(v));
    let id = |x: u32| -> String {
        let shown = super::names::shown(names, x);
        match (format, names.is_some()) {
            (Format::Jsonl, true) => serde_json::to_string(&shown).unwrap_or_default(),
            (Format::Csv, true) => csv_quoted(&shown),
            _ => shown,
        }
    };
    let opt = |x: Option<String>, none: &str| x.unwrap_or_else(|| none.to_string());
    let r = r.map(|r| r.to_string());
    let m = m.map(id);
    let _ = match format {
        Format::Tsv => writeln!(out, "{}\t{o}\t{}\t{}", id(v), opt(r, "-"), opt(m, "-")),
        Format::Csv => writeln!(out, "{},{o},{},{}", id(v), opt(r, ""), opt(m, "")),
        Format::Jsonl => writeln!(
            out,
            "{{\"position\":{},\"outcome\":\"{o}\",\"remoteness\":{},\"best_move\":{}}}",
            id(v),
            opt(r, "null"),
            opt(m, "null")
        ),
    };
}

/// A CSV field: quoted (with doubled quotes) if it holds a comma, a quote or
/// a blank at either end.
fn csv_quoted(field: &str) -> String {
    if field.contains([',', '"']) || field.trim() != field {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}

/// Splits a CSV line into its fields, undoing [`csv_quoted`].
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
        if let Some(n) = self.vertices {
            if self.state.len() < n {
                return Err(self.error(
                    next_line(),
                    format!(
                        "the solution ends after {} vertices, but the graph has {n}",
                        self.state.len()
                    ),
                ));
            }
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
fn detect(data: &[u8]) -> (Format, bool) {
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

/// Reads a solution whose vertices are shown by name (as [`write_as`] writes
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
        // A vertex as written: a number, or with names a name.
        let vertex = |what: &str, f: Id| -> Result<u64> {
            match (f, names) {
                (Id::Number(v), None) => Ok(v),
                (Id::Name(n), Some(names)) => names
                    .id(&n)
                    .map(u64::from)
                    .ok_or_else(|| c.error(line, format!("no vertex of the graph is named {n:?}"))),
                (Id::Number(v), Some(names)) => {
                    names.id(&v.to_string()).map(u64::from).ok_or_else(|| {
                        c.error(line, format!("no vertex of the graph is named \"{v}\""))
                    })
                }
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
        let (v, outcome, rem, mv) = if format == Format::Jsonl {
            let r: Record = serde_json::from_str(text).map_err(|e| {
                c.error(
                    line,
                    format!("expected a JSON object with position, outcome, remoteness and best_move: {e}"),
                )
            })?;
            let v = line_vertex(r.position)?;
            let mv = match r.best_move {
                Some(m) => Some(vertex("the best move (a vertex id, or null for none)", m)?),
                None => None,
            };
            (v, r.outcome, r.remoteness, mv)
        } else {
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
        };
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
            assert!(e
                .to_string()
                .ends_with("expected a vertex id (a decimal number), found \"x\""));
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
        assert!(String::from_utf8(out)
            .unwrap()
            .starts_with("vertex\toutcome\tremoteness\tbest_move\n0\tlose"));
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
        assert!(String::from_utf8(out)
            .unwrap()
            .contains("\n\"\"\"c,d\"\"\",draw,,a\n"));
        let wrong = read_named(&Input::from_bytes("s", b"b\tdraw\t-\ta\n".to_vec()), &names);
        assert_eq!(
            wrong.unwrap_err().to_string(),
            "s:line 1: expected vertex \"a\" (one line per vertex, in the order the graph names them), found \"b\""
        );
        let unknown = read_named(
            &Input::from_bytes("s", b"zz\tdraw\t-\ta\n".to_vec()),
            &names,
        );
        assert!(unknown
            .unwrap_err()
            .to_string()
            .contains("no vertex of the graph is named \"zz\""));
    }

    #[test]
    fn bad_csv_and_json_lines_name_their_line() {
        assert_eq!(
            error("vertex,outcome,remoteness,best_move\n0,lose,0,\n2,lose,0,\n", None),
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
        assert!(error(
            "{\"position\":0,\"outcome\":\"win\"}\n{\"position\":1}\n",
            None
        )
        .starts_with("s.tsv:line 1: a win needs a remoteness"));
        let e = error("{\"position\":0,\"outcome\":\"lose\",\"remoteness\":0,\"best_move\":null}\n{\"position\":1,\"outcome\":\"lose\",\"remoteness\":0,\"best_move\":null,\"x\":1}\n", None);
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
