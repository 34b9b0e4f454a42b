//! `retrograde grundy GRAPH`: every position's loopy nim value (the
//! generalised Sprague–Grundy function), and sums of tokens answered from
//! the values.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use indicatif::{HumanBytes, HumanCount};
use retrograde::grundy::{self, GrundyCounts, GrundyValues, Loopy, SumMove, Token};
use retrograde::io::Outputs;
use retrograde::io::names::{self, Names};
use retrograde::{Answers, Csr, GameGraph, Graph, NoMoveRule, Rules};

use crate::common::{self, Stdout, Timings};
use crate::grundy_svg::{SVG_LIMIT, svg};
use crate::load::{Budget, GameArgs};
use crate::progress::Bars;
use crate::report;

/// Options of `retrograde grundy`.
#[derive(clap::Args)]
pub struct Args {
    /// The graph: a text edge list (one move `u v` per line) or a binary graph (`-` for standard input).
    pub graph: PathBuf,
    /// The number of vertices (default: the largest id + 1); ids must be below it.
    #[arg(long, value_name = "N", conflicts_with = "names")]
    pub vertices: Option<usize>,
    /// Vertices are names (any words without blanks), numbered in order of
    /// first appearance; tokens and answers use the names.
    #[arg(long)]
    pub names: bool,
    /// Write one line per vertex, `vertex value` (tab-separated): `0`, `3`,
    /// `inf{0,2}`, `inf` (`-` for standard output; the default unless
    /// sums or --json are asked for).
    #[arg(long, short, value_name = "FILE", help_heading = "Output")]
    pub output: Option<PathBuf>,
    /// A sum to answer: tokens on these vertices, separated by commas
    /// (`3,3,7`; repeatable). Prints its value, outcome and a winning move.
    #[arg(long, value_name = "V,V,...", help_heading = "Sums")]
    pub tokens: Vec<String>,
    /// Sums to answer, one a line (tokens separated by commas or blanks;
    /// `#` starts a comment).
    #[arg(long, value_name = "FILE", help_heading = "Sums")]
    pub sums: Option<PathBuf>,
    /// Print one JSON object on standard output: counts, the largest value,
    /// stages, the sums' answers, time and memory (docs/JSON.md).
    #[arg(long, help_heading = "Output")]
    pub json: bool,
    /// Print no summary and no progress bars.
    #[arg(long, short, help_heading = "Output")]
    pub quiet: bool,
    /// Refuse inputs that would need more memory than this (e.g. 8G; default: the machine's memory).
    #[arg(long, value_name = "SIZE", value_parser = common::parse_bytes, help_heading = "Performance")]
    pub max_memory: Option<u64>,
    /// Threads for reading the graph (default: all cores; the values are computed on one).
    #[arg(long, short = 'j', value_name = "N", help_heading = "Performance")]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub save: crate::db::SaveArgs,
    /// Draw the graph with every vertex's value into FILE (SVG; graphs of
    /// up to 100 vertices): vertices coloured by outcome, on a circle.
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    pub svg: Option<PathBuf>,
}

/// The graph, values and names a database saved by `grundy --save` keeps.
fn from_database(path: &Path) -> Result<(Graph, GrundyValues, Option<Names>)> {
    let db = retrograde::db::Database::open(path)?;
    let shown = common::shown(path);
    let Some(codes) = db.grundy_codes()? else {
        anyhow::bail!(
            "{shown}: the database keeps no loopy nim values (`retrograde grundy GRAPH --save FILE` writes one that does)"
        );
    };
    // The moves checked (targets within the graph) and names read.
    retrograde::play::StoredGraph::new(&db)?;
    if let Some(v) = codes.values.iter().position(|&c| c == u32::MAX - 2) {
        anyhow::bail!(
            "{shown}: vertex {v}'s loopy nim value is kept as \"no position\", but every vertex of a graph is one (the file is damaged)"
        );
    }
    let n = db.len();
    let mut edges = Vec::new();
    for v in 0..n {
        for w in db.moves(v)?.unwrap_or_default() {
            edges.push((v as u32, w));
        }
    }
    let graph = Csr::from_edges(n as usize, &edges).with_successors();
    let values = GrundyValues::from_codes(&graph, codes.values, codes.order)
        .with_context(|| format!("{shown}: the loopy nim values kept"))?;
    Ok((graph, values, db.names()?))
}

/// With `--save`, writes the graph's database: its moves, names, the
/// main solve's values (for `query`, `play` and `serve`) and the loopy
/// nim values (for `grundy DB`).
struct Save<'a> {
    args: &'a Args,
    bars: &'a Bars,
}

impl Save<'_> {
    fn stage(
        &self,
        csr: &Csr,
        values: &GrundyValues,
        names: Option<&Names>,
        times: &mut Timings,
        files: &mut Outputs,
    ) -> Result<()> {
        let args = self.args;
        if args.save.save.is_none() {
            return Ok(());
        }
        let rules = Rules::normal();
        let sol = times.time("solve", || retrograde::solve(csr, &rules))?;
        let (offsets, targets) = retrograde::db::graph_moves(csr, &rules);
        let meta = retrograde::db::Meta::new("graph")
            .param("graph", args.graph.display())
            .param("labels", 0)
            .param("no_move", "lose");
        let source = retrograde::db::Source {
            records: csr.vertex_count() as u64,
            value: |r: u64| sol.value(r as u32),
            keys: None,
            moves: Some((&offsets[..], &targets[..])),
            names,
            grundy: Some(values),
            owners: None,
        };
        args.save.stage(files, times, meta, &source, self.bars)?;
        Ok(())
    }
}

/// Bytes per position the values take: value, counters, escape stage,
/// order, moves alive (`u32` each) and the infinite sets' offsets.
const BYTES_PER_POSITION: u64 = 5 * 4 + 8;
/// Bytes per move: an infinite set's entry at most, and the forward
/// adjacency when sums are answered.
const BYTES_PER_MOVE: u64 = 4;

pub fn run(args: Args) -> Result<ExitCode> {
    let asks_sums = !args.tokens.is_empty() || args.sums.is_some();
    let output = check_outputs(&args, asks_sums)?;
    let bars = Bars::new(args.quiet);
    let mut times = Timings::default();
    let budget = Budget {
        limit: common::memory_limit(args.max_memory),
        per_vertex: BYTES_PER_POSITION,
        per_edge: BYTES_PER_MOVE * if asks_sums { 2 } else { 1 },
    };
    // The database and the values appear together, when the run is done.
    let mut files = Outputs::new();
    let (values, graph, names, edges) = if retrograde::db::is_database(&args.graph) {
        read_database(&args, &mut times)?
    } else {
        read_graph(&args, asks_sums, budget, &bars, &mut times, &mut files)?
    };
    if args.svg.is_some() && values.len() > SVG_LIMIT {
        anyhow::bail!(
            "--svg draws graphs of up to {SVG_LIMIT} vertices; this one has {}",
            values.len()
        );
    }
    let answers = match &graph {
        Some(graph) => {
            let left = budget.limit.saturating_sub(
                (values.len() as u64)
                    .saturating_mul(budget.per_vertex)
                    .saturating_add(edges.saturating_mul(budget.per_edge)),
            );
            answer_sums(&args, graph, &values, names.as_ref(), left, &mut times)?
        }
        None => Vec::new(),
    };
    if let Some(path) = &output {
        times.time("write", || {
            write_values(&mut files, path, &values, names.as_ref())
        })?;
    }
    // The forward graph is kept when --svg is given.
    if let (Some(path), Some(graph)) = (&args.svg, &graph) {
        let picture = svg(graph, &values, names.as_ref());
        files.write(path, |w| w.write_all(picture.as_bytes()))?;
    }
    files.commit()?;
    let counts = values.counts();
    if args.json {
        print_json(
            &args,
            &values,
            counts,
            &answers,
            names.as_ref(),
            output.as_deref(),
            &times,
        )?;
    } else if !args.quiet {
        print_summary(&args, &values, counts, edges, output.as_deref(), &times)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// What the input gives: the values, the forward graph (where kept), the
/// names and the number of moves.
type Input = (GrundyValues, Option<Graph>, Option<Names>, u64);

/// Where the values go (standard output when nothing else is asked for
/// there), with every output checked against standard output and the inputs.
fn check_outputs(args: &Args, asks_sums: bool) -> Result<Option<PathBuf>> {
    // Values go to standard output when nothing else is asked for there.
    let output = match &args.output {
        Some(p) => Some(p.clone()),
        None if !asks_sums && !args.json => Some(PathBuf::from("-")),
        None => None,
    };
    let json = args.json.then_some(Stdout::Text("--json"));
    let sums = asks_sums.then_some(Stdout::Text(if args.tokens.is_empty() {
        "--sums"
    } else {
        "--tokens"
    }));
    common::check_stdout(
        json.into_iter()
            .chain(sums)
            .chain(output.iter().map(|p| Stdout::File("values", p)))
            .chain(args.save.save.iter().map(|p| Stdout::File("database", p)))
            .chain(args.svg.iter().map(|p| Stdout::File("picture", p))),
    )?;
    let inputs: Vec<&Path> = std::iter::once(args.graph.as_path())
        .chain(args.sums.as_deref())
        .collect();
    let outputs: Vec<&Path> = output
        .iter()
        .map(PathBuf::as_path)
        .chain(args.save.outputs())
        .chain(args.svg.as_deref())
        .collect();
    common::check_files(&inputs, &outputs)?;
    Ok(output)
}

/// The values, graph, names and move count a database saved by `grundy
/// --save` keeps, refusing the options that read a graph.
fn read_database(args: &Args, times: &mut Timings) -> Result<Input> {
    let graph_options = [
        (args.vertices.is_some(), "--vertices"),
        (args.names, "--names"),
    ];
    if let Some((_, option)) = graph_options.iter().find(|o| o.0) {
        anyhow::bail!(
            "{}: {option} reads a graph; a database keeps its vertices and names",
            common::shown(&args.graph)
        );
    }
    if args.save.save.is_some() {
        anyhow::bail!(
            "{}: a database already keeps the values (--save writes one from a graph)",
            common::shown(&args.graph)
        );
    }
    let (graph, values, names) = times.time("read", || from_database(&args.graph))?;
    let edges = graph.edge_count();
    Ok((values, Some(graph), names, edges))
}

/// The graph read and its values computed (and staged into `files` with
/// `--save`); the forward graph is kept only when sums or `--svg` need it.
fn read_graph(
    args: &Args,
    asks_sums: bool,
    budget: Budget,
    bars: &Bars,
    times: &mut Timings,
    files: &mut Outputs,
) -> Result<Input> {
    let game = GameArgs {
        graph: args.graph.clone(),
        no_move: NoMoveRule::Lose,
        terminal: None,
        vertices: args.vertices,
        names: args.names,
        owners: None,
        reach: None,
        reacher: None,
    };
    let (csr, _, names) = times.time("read", || game.load(budget, bars))?;
    let values = times.time("grundy", || bars.spin("grundy", || grundy::grundy(&csr)))?;
    let save = Save { args, bars };
    save.stage(&csr, &values, names.as_ref(), times, files)?;
    let edges = csr.edge_count();
    let forward = asks_sums || args.svg.is_some();
    Ok((values, forward.then(|| csr.with_successors()), names, edges))
}

/// Answers the sums asked for: printed at once, or returned for `--json`.
fn answer_sums(
    args: &Args,
    graph: &Graph,
    values: &GrundyValues,
    names: Option<&Names>,
    left: u64,
    times: &mut Timings,
) -> Result<Vec<Answer>> {
    // Each sum answered as it is read, and printed at once; only --json
    // holds the answers (its one object lists them), within the memory
    // the graph left.
    let mut answers = Vec::new();
    let mut held = 0u64;
    let mut out = std::io::stdout().lock();
    times.time("sums", || {
        for_each_sum(args, values.len(), names, |asked| {
            let a = answer(graph, values, asked);
            if args.json {
                held += ANSWER_BYTES + 12 * a.tokens.len() as u64;
                common::check_memory("the answers --json holds", held, left)?;
                answers.push(a);
            } else {
                print_sum(&mut out, &a, names)?;
            }
            Ok(())
        })
    })?;
    out.flush()?;
    Ok(answers)
}

/// The summary on standard error: the graph, the values' counts, the time
/// and the files written.
fn print_summary(
    args: &Args,
    values: &GrundyValues,
    counts: GrundyCounts,
    edges: u64,
    output: Option<&Path>,
    times: &Timings,
) -> Result<()> {
    let vertices = values.len() as u64;
    let mut out = common::talk();
    writeln!(
        out,
        "{}",
        common::graph_line(&args.graph, vertices, edges, 0)
    )?;
    writeln!(out, "values: {}", counts_line(counts, values.stages()))?;
    let peak = times
        .peak()
        .map_or_else(String::new, |b| format!("; peak memory {}", HumanBytes(b)));
    writeln!(out, "time: {}{peak}", times.line())?;
    let written = output.filter(|p| !common::is_stdout(p));
    let others = args.save.save.iter().chain(&args.svg);
    for p in written.into_iter().chain(others.map(PathBuf::as_path)) {
        writeln!(out, "wrote: {}", common::shown(p))?;
    }
    Ok(())
}

/// `N zero, N positive (largest M), N infinite (N win, N draw); S stages`.
fn counts_line(c: GrundyCounts, stages: u32) -> String {
    let largest = c
        .largest
        .filter(|_| c.positive > 0)
        .map_or_else(String::new, |m| format!(", largest {m}"));
    format!(
        "{} zero (lose), {} positive (win{largest}), {} infinite ({} win, {} draw); {}",
        HumanCount(c.zero),
        HumanCount(c.positive),
        HumanCount(c.infinite_win + c.infinite_draw),
        HumanCount(c.infinite_win),
        HumanCount(c.infinite_draw),
        common::count(u64::from(stages), "stage", "stages")
    )
}

/// A sum asked for: its tokens.
struct Asked {
    tokens: Vec<u32>,
}

/// The longest line of a sums file read: a sum of some hundred thousand
/// tokens. A longer one (`/dev/zero` has no line break) is refused.
const MAX_SUM_LINE: usize = 1 << 20;

/// What an answer held for `--json` costs besides its tokens (12 bytes
/// each: the token and its value).
const ANSWER_BYTES: u64 = 96;

/// Calls `each` with the sums of `--tokens`, then of `--sums FILE`, one
/// at a time as the file is read (a stream: nothing held but the line),
/// each token a vertex of the graph (by name with `--names`): an error
/// names the file and line.
fn for_each_sum(
    args: &Args,
    n: usize,
    names: Option<&Names>,
    mut each: impl FnMut(&Asked) -> Result<()>,
) -> Result<()> {
    use std::io::BufRead;
    let vertex = |text: &str| -> Result<u32, String> {
        let v = names::resolve(names, text)?;
        if v as usize >= n {
            return Err(format!("vertex {v} is not in the graph ({n} vertices)"));
        }
        Ok(v)
    };
    for t in &args.tokens {
        let tokens = t
            .split(',')
            .map(|w| vertex(w.trim()))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| anyhow::anyhow!("--tokens {t}: {e}"))?;
        each(&Asked { tokens })?;
    }
    let Some(path) = &args.sums else {
        return Ok(());
    };
    let shown = common::shown(path);
    let cannot = |e: std::io::Error| anyhow::anyhow!("{shown}: cannot read the sums: {e}");
    let mut input: Box<dyn BufRead> = if path.as_os_str() == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(std::io::BufReader::new(
            std::fs::File::open(path).map_err(cannot)?,
        ))
    };
    let expected = "expected tokens: vertices separated by commas or blanks";
    let mut bytes = Vec::new();
    for number in 1.. {
        bytes.clear();
        let read = std::io::Read::take(&mut input, MAX_SUM_LINE as u64 + 1)
            .read_until(b'\n', &mut bytes)
            .map_err(cannot)?;
        if read == 0 {
            break;
        }
        if bytes.len() > MAX_SUM_LINE {
            anyhow::bail!(
                "{shown}:{number}: a line of more than {MAX_SUM_LINE} bytes ({expected}, a sum a line)"
            );
        }
        let line = std::str::from_utf8(&bytes)
            .map_err(|_| anyhow::anyhow!("{shown}:{number}: not UTF-8 text ({expected})"))?;
        let line = line.split('#').next().unwrap_or("");
        let words: Vec<&str> = line
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|w| !w.is_empty())
            .collect();
        if words.is_empty() {
            continue;
        }
        let tokens = words
            .into_iter()
            .map(vertex)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| anyhow::anyhow!("{shown}:{number}: {e} ({expected})"))?;
        each(&Asked { tokens })?;
    }
    Ok(())
}

/// A sum answered.
struct Answer {
    tokens: Vec<u32>,
    values: Vec<Loopy>,
    value: Loopy,
    best: Option<SumMove>,
}

fn answer(graph: &Graph, values: &GrundyValues, a: &Asked) -> Answer {
    // Every token was checked to be a vertex; a vertex of a graph is a
    // position.
    let each: Vec<Loopy> = a
        .tokens
        .iter()
        .map(|&v| values.value(v).unwrap_or(Loopy::Finite(0)))
        .collect();
    let tokens: Vec<Token<'_, Graph>> = a
        .tokens
        .iter()
        .map(|&at| Token { graph, values, at })
        .collect();
    Answer {
        tokens: a.tokens.clone(),
        value: grundy::sum(&each),
        values: each,
        best: grundy::winning_move(&tokens),
    }
}

/// One line a sum: `3,3,7: inf{0} (win): move the token on 7 to 2`.
fn print_sum(out: &mut impl Write, a: &Answer, names: Option<&Names>) -> Result<()> {
    let tokens: Vec<String> = a.tokens.iter().map(|&v| names::shown(names, v)).collect();
    write!(
        out,
        "{}: {} ({})",
        tokens.join(","),
        a.value,
        a.value.outcome().as_str()
    )?;
    if let Some(m) = a.best {
        write!(
            out,
            ": move the token on {} to {}",
            tokens[m.token],
            names::shown(names, m.to)
        )?;
    }
    writeln!(out)?;
    Ok(())
}

/// Stages `vertex value` lines into `path` among `files` (written
/// atomically when they are committed; `-` in place).
fn write_values(
    files: &mut Outputs,
    path: &Path,
    values: &GrundyValues,
    names: Option<&Names>,
) -> Result<()> {
    files.write(path, |w| {
        let mut w = std::io::BufWriter::with_capacity(1 << 20, w);
        for v in 0..values.len() as u32 {
            if let Some(value) = values.value(v) {
                writeln!(w, "{}\t{value}", names::shown(names, v))?;
            }
        }
        w.flush()
    })?;
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn print_json(
    args: &Args,
    values: &GrundyValues,
    counts: GrundyCounts,
    answers: &[Answer],
    names: Option<&Names>,
    output: Option<&Path>,
    times: &Timings,
) -> Result<()> {
    #[derive(serde::Serialize)]
    struct Move {
        token: usize,
        from: report::Vertex,
        to: report::Vertex,
    }
    #[derive(serde::Serialize)]
    struct Sum {
        tokens: Vec<report::Vertex>,
        values: Vec<String>,
        value: String,
        outcome: &'static str,
        #[serde(rename = "move")]
        best: Option<Move>,
    }
    #[derive(serde::Serialize)]
    struct Json {
        command: &'static str,
        graph: String,
        positions: u64,
        counts: GrundyCounts,
        stages: u32,
        sums: Vec<Sum>,
        output: Option<String>,
        time: report::Time,
    }
    let sums = answers
        .iter()
        .map(|a| Sum {
            tokens: a
                .tokens
                .iter()
                .map(|&v| report::Vertex::of(v, names))
                .collect(),
            values: a.values.iter().map(ToString::to_string).collect(),
            value: a.value.to_string(),
            outcome: a.value.outcome().as_str(),
            best: a.best.map(|m| Move {
                token: m.token,
                from: report::Vertex::of(a.tokens[m.token], names),
                to: report::Vertex::of(m.to, names),
            }),
        })
        .collect();
    report::print(&Json {
        command: "grundy",
        graph: args.graph.display().to_string(),
        positions: values.len() as u64,
        counts,
        stages: values.stages(),
        sums,
        output: output.map(|p| p.display().to_string()),
        time: report::Time::of(times),
    })
}
