//! Writing a solution file, in every layout.

use std::io::{self, Write};

use super::Format;
use crate::Answers;
use crate::io::names::Names;

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
        let shown = crate::io::names::shown(names, x);
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
