//! Small helpers shared by the subcommands.

use std::path::Path;

use anyhow::Result;
use indicatif::HumanBytes;

pub use crate::timings::Timings;
pub use retrograde::memory::{address_space_limit, machine_limit, memory_limit, peak_memory};

/// Parses a memory size such as `512M`, `8G`, `1.5GiB` or a plain byte count.
pub fn parse_bytes(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let x: f64 = num
        .parse()
        .map_err(|_| format!("expected a size such as 512M or 8G, found {s:?}"))?;
    let mult = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1u64,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        "t" | "tb" | "tib" => 1 << 40,
        _ => return Err(format!("unknown size unit in {s:?} (use K, M, G or T)")),
    };
    let bytes = x * mult as f64;
    // A float cast saturates: a size past u64 must not become u64::MAX,
    // which would read as no limit at all.
    if bytes >= u64::MAX as f64 {
        return Err(format!(
            "the size {s:?} is more bytes than a 64-bit count holds (at most 16777215T)"
        ));
    }
    Ok(bytes as u64)
}

/// `text` as a terminal shows it safely: control characters (an escape
/// sequence kept in a database's names) written as escapes (`\u{1b}`),
/// line breaks too unless `lines`; other text as it is.
pub fn printable(text: &str, lines: bool) -> std::borrow::Cow<'_, str> {
    let unsafe_char = |c: char| c.is_control() && !(lines && c == '\n');
    if !text.chars().any(unsafe_char) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if unsafe_char(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A refusal for lack of memory: what would need more than the memory
/// allowed (`main` adds the hint `(see --max-memory)`).
#[derive(Debug)]
pub struct OverMemory {
    /// What would need it: `Teeko's 172,401,726 positions`.
    pub what: String,
    /// Bytes it would need.
    pub needed: u64,
    /// Bytes allowed.
    pub limit: u64,
}

impl std::fmt::Display for OverMemory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} would need about {} of memory, more than the {} allowed",
            self.what,
            retrograde::memory::human_bytes(self.needed),
            retrograde::memory::human_bytes(self.limit)
        )
    }
}

impl std::error::Error for OverMemory {}

/// Refuses `what`, which would need `needed` bytes, if that is more than
/// `limit`: checked before anything big is allocated.
pub fn check_memory(what: &str, needed: u64, limit: u64) -> Result<(), OverMemory> {
    if needed > limit {
        return Err(OverMemory {
            what: what.to_string(),
            needed,
            limit,
        });
    }
    Ok(())
}

/// Parses a positive number of seconds, up to a year.
pub fn parse_seconds(s: &str) -> Result<std::time::Duration, String> {
    let x: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("expected a number of seconds, found {s:?}"))?;
    if !(x > 0.0 && x <= 365.0 * 86_400.0) {
        return Err(format!(
            "expected a positive number of seconds up to a year (31536000), found {s}"
        ));
    }
    Ok(std::time::Duration::from_secs_f64(x))
}

/// The address space one worker thread reserves: its stack (rayon's and
/// timely's default, 2 MiB) and the alternate signal stack.
pub const THREAD_BYTES: u64 = (2 << 20) + (64 << 10);

/// Refuses more threads than the memory limit has room for (their stacks),
/// before any is started.
pub fn check_threads(threads: usize, limit: u64) -> Result<()> {
    let needed = (threads as u64).saturating_mul(THREAD_BYTES);
    if needed > limit / 2 {
        anyhow::bail!(
            "{threads} threads would reserve about {} for their stacks, more than half the {} allowed",
            HumanBytes(needed),
            HumanBytes(limit)
        );
    }
    Ok(())
}

/// Opens an input file, with the path in the message on failure. A stream
/// (standard input, a pipe, a device) is read whole, up to `limit` bytes,
/// its progress shown in bytes.
pub fn open_input(
    path: &Path,
    limit: u64,
    bars: &crate::progress::Bars,
) -> Result<retrograde::io::Input> {
    Ok(retrograde::io::Input::open_within_with_progress(
        path, limit, bars,
    )?)
}

/// Refuses files that would clash: two outputs to the same file or
/// descriptor, an output that would overwrite an input, or two inputs read
/// from the same stream (standard input can be read only once); and any
/// output that cannot be written (a missing directory, a directory), before
/// any work.
pub fn check_files(inputs: &[&Path], outputs: &[&Path]) -> Result<()> {
    use retrograde::io::paths::{output_is_input, same_output, same_stream};
    for (i, a) in outputs.iter().enumerate() {
        retrograde::io::check_output(a)?;
        for b in &outputs[i + 1..] {
            if same_output(a, b) {
                anyhow::bail!(
                    "{} and {} are the same output: give each output its own file",
                    shown(a),
                    shown(b)
                );
            }
        }
        for input in inputs {
            if output_is_input(a, input) {
                anyhow::bail!(
                    "{} is both an input and an output: write the output to another file",
                    shown(a)
                );
            }
        }
    }
    for (i, a) in inputs.iter().enumerate() {
        for b in &inputs[i + 1..] {
            if same_stream(a, b) {
                anyhow::bail!(
                    "{} and {} are both standard input, which can be read only once",
                    shown(a),
                    shown(b)
                );
            }
        }
    }
    Ok(())
}

/// Where summaries, tables and notes go: standard error, always, so that
/// standard output carries only data (solutions, answers, JSON).
pub fn talk() -> std::io::StderrLock<'static> {
    std::io::stderr().lock()
}

/// `1 vertex`, `2,500 vertices`: a count with thousands separators and the
/// word that goes with it.
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!(
        "{} {}",
        indicatif::HumanCount(n),
        if n == 1 { one } else { many }
    )
}

/// `graph: FILE: V vertices, E edges[, L terminal labels]`.
pub fn graph_line(path: &Path, vertices: u64, edges: u64, labels: u64) -> String {
    let labels = if labels == 0 {
        String::new()
    } else {
        format!(", {}", count(labels, "terminal label", "terminal labels"))
    };
    format!(
        "graph: {}: {}, {}{labels}",
        shown(path),
        count(vertices, "vertex", "vertices"),
        count(edges, "edge", "edges")
    )
}

/// A solution's totals on one line, with thousands separators:
/// `4 win, 3 lose, 0 tie, 3 draw, longest remoteness 5`.
pub fn summary_line(s: &retrograde::Summary) -> String {
    use indicatif::HumanCount;
    format!(
        "{} win, {} lose, {} tie, {} draw, longest remoteness {}",
        HumanCount(s.wins),
        HumanCount(s.losses),
        HumanCount(s.ties),
        HumanCount(s.draws),
        s.max_remoteness
            .map_or_else(|| "-".to_string(), |r| r.to_string())
    )
}

/// A path for a one-line message: as it is, or quoted with escapes if it
/// holds a control character (a newline would split the line).
pub fn shown(path: &Path) -> String {
    retrograde::io::paths::shown(path)
}

/// What `convert` and `generate` wrote, for the summary or `--json`.
pub struct Written<'a> {
    pub command: &'static str,
    pub input: Option<&'a Path>,
    pub output: &'a Path,
    pub vertices: u64,
    pub edges: u64,
    pub binary: bool,
}

/// Refuses `--json` with an output (`what`: "graph", "solution") on
/// standard output: both would be on it.
pub fn check_json_output(json: bool, output: &Path, what: &'static str) -> Result<()> {
    let json = json.then_some(Stdout::Text("--json"));
    check_stdout(json.into_iter().chain([Stdout::File(what, output)]))
}

/// Something a run writes on standard output.
#[derive(Clone, Copy)]
pub enum Stdout<'a> {
    /// Text an option asks for (`--json`, `--query`): give it only when asked.
    Text(&'static str),
    /// An output file (what it holds, its name): on standard output when
    /// its name says so (`-`, `/dev/stdout`).
    File(&'static str, &'a Path),
}

impl Stdout<'_> {
    fn is_on_stdout(&self) -> bool {
        match self {
            Stdout::Text(_) => true,
            Stdout::File(_, path) => is_stdout(path),
        }
    }

    fn name(&self) -> String {
        match self {
            Stdout::Text(option) => (*option).to_string(),
            Stdout::File(what, path) => format!("the {what} {}", shown(path)),
        }
    }
}

/// Whether an output's name is standard output.
pub fn is_stdout(path: &Path) -> bool {
    retrograde::io::paths::output_descriptor(path) == Some(1)
}

/// Refuses, before any work, a file output on standard output together with
/// anything else there (another file, `--json`, `--query` answers): the two
/// would be mixed into one stream. Several texts asked for may share it.
pub fn check_stdout<'a>(claims: impl IntoIterator<Item = Stdout<'a>>) -> Result<()> {
    let on: Vec<Stdout<'a>> = claims.into_iter().filter(Stdout::is_on_stdout).collect();
    let Some(file) = on.iter().position(|c| matches!(c, Stdout::File(..))) else {
        return Ok(());
    };
    let Some(other) = (0..on.len()).find(|&i| i != file) else {
        return Ok(());
    };
    let remedy = match (on[file], on[other]) {
        (_, Stdout::File(..)) => "write one of them to a file".to_string(),
        // `file` was found as a file: text can only be the other.
        (Stdout::File(what, _) | Stdout::Text(what), _) => format!("write the {what} to a file"),
    };
    let (first, second) = (&on[file.min(other)], &on[file.max(other)]);
    anyhow::bail!(
        "{} and {} both write to standard output: {remedy}",
        first.name(),
        second.name()
    )
}

/// Where a command's text answers go: standard output, or standard error
/// when an output file takes standard output (`--svg -`, `--save -`), so
/// that the file's bytes stay clean.
pub fn data_out(outputs: &[&Path]) -> Box<dyn std::io::Write> {
    if outputs.iter().any(|p| is_stdout(p)) {
        Box::new(talk())
    } else {
        Box::new(std::io::stdout().lock())
    }
}

/// Says on standard error that `path` was written: `wrote: FILE`.
pub fn wrote(path: &Path) -> Result<()> {
    use std::io::Write;
    writeln!(talk(), "wrote: {}", shown(path))?;
    Ok(())
}

/// Reports what `convert` or `generate` wrote: the line
/// `wrote FILE: V vertices, E edges, SIZE (FORMAT)` and the phase times on
/// standard error (unless `quiet`), or the JSON report on standard output.
pub fn print_written(w: &Written<'_>, times: &Timings, quiet: bool, json: bool) -> Result<()> {
    use std::io::Write;
    let bytes = std::fs::metadata(w.output)
        .ok()
        .filter(|m| m.is_file())
        .map(|m| m.len());
    if json {
        #[derive(serde::Serialize)]
        struct Json {
            command: &'static str,
            input: Option<String>,
            output: String,
            format: &'static str,
            vertices: u64,
            moves: u64,
            bytes: Option<u64>,
            time: crate::report::Time,
        }
        return crate::report::print(&Json {
            command: w.command,
            input: w.input.map(|p| p.display().to_string()),
            output: w.output.display().to_string(),
            format: if w.binary { "binary" } else { "text" },
            vertices: w.vertices,
            moves: w.edges,
            bytes,
            time: crate::report::Time::of(times),
        });
    }
    if quiet {
        return Ok(());
    }
    let mut out = talk();
    let size = bytes.map_or_else(String::new, |b| format!(", {}", HumanBytes(b)));
    writeln!(
        out,
        "wrote {}: {}, {}{size} ({})",
        shown(w.output),
        count(w.vertices, "vertex", "vertices"),
        count(w.edges, "edge", "edges"),
        if w.binary { "binary" } else { "text" }
    )?;
    writeln!(out, "time: {}", times.line())?;
    Ok(())
}

/// How a drawn line of best play ends, for `--line`: where it starts cycling,
/// or that only its first `limit` plies are shown. `None` for a decided line.
pub fn endless_note(line: &retrograde::Line, limit: usize) -> Option<String> {
    match (line.endless, line.repeats_from) {
        (true, Some(k)) => Some(format!(
            "... a draw: ply {} repeats ply {k}, and play cycles from there forever",
            line.positions.len() - 1
        )),
        (true, None) => Some(format!(
            "... a draw: best play goes on forever (first {limit} plies shown)"
        )),
        (false, _) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::printable;

    #[test]
    fn control_characters_from_a_database_reach_the_terminal_escaped() {
        assert_eq!(printable("a1-b2", false), "a1-b2");
        assert_eq!(printable("e\u{1b}[31m", false), "e\\u{1b}[31m");
        assert_eq!(printable("row\nrow\u{7}", true), "row\nrow\\u{7}");
        assert_eq!(printable("row\nrow", false), "row\\nrow");
        assert_eq!(printable("dōbutsu", false), "dōbutsu");
    }
}
