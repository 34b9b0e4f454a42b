//! What `solve` does with a solution, whichever engine made it: write it,
//! answer queries, print lines of best play.

use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::Result;
use retrograde::io::names::{self, Names};
use retrograde::io::{Outputs, solution};
use retrograde::{Answers, Outcome};

use crate::common::{self, Stdout};
use crate::progress::Bars;

/// The layouts of the solution file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SolutionFormat {
    Tsv,
    Csv,
    Jsonl,
}

impl From<SolutionFormat> for solution::Format {
    fn from(f: SolutionFormat) -> solution::Format {
        match f {
            SolutionFormat::Tsv => solution::Format::Tsv,
            SolutionFormat::Csv => solution::Format::Csv,
            SolutionFormat::Jsonl => solution::Format::Jsonl,
        }
    }
}

/// The outputs of `solve`.
#[derive(clap::Args, Debug)]
pub struct OutputArgs {
    /// Write one line per vertex: vertex, outcome, remoteness, best move (`-` for standard output).
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// The layout of --output: `tsv` (tab-separated, `-` for none), `csv`
    /// (empty for none) or `jsonl` (one JSON object a line, null for none).
    #[arg(
        long,
        value_enum,
        value_name = "FORMAT",
        default_value = "tsv",
        requires = "output"
    )]
    pub format: SolutionFormat,
    /// Start --output with a line of column names (tsv and csv).
    #[arg(long, requires = "output")]
    pub header: bool,
    /// Print the line of this vertex, an id or with --names a name (repeatable).
    #[arg(long, value_name = "V")]
    pub query: Vec<String>,
    /// Print the line of best play from this vertex (repeatable).
    #[arg(long, value_name = "V")]
    pub line: Vec<String>,
    /// How many plies of an endless (drawn) line to print.
    #[arg(long, value_name = "PLIES", default_value_t = 20)]
    pub line_limit: usize,
}

impl OutputArgs {
    /// The vertices asked about, by id: names looked up where the graph has
    /// them; refuses those outside a graph of `n`.
    pub fn resolve<'n>(&self, n: usize, names: Option<&'n Names>) -> Result<Asked<'n>> {
        let find = |text: &String| -> Result<u32> {
            let v = names::resolve(names, text).map_err(|e| match names {
                None => anyhow::anyhow!("{e} (for vertex names, give --names)"),
                Some(_) => anyhow::Error::msg(e),
            })?;
            if v as usize >= n {
                anyhow::bail!("vertex {v} is not in the graph ({n} vertices)");
            }
            Ok(v)
        };
        Ok(Asked {
            query: self.query.iter().map(find).collect::<Result<_>>()?,
            line: self.line.iter().map(find).collect::<Result<_>>()?,
            limit: self.line_limit,
            names,
        })
    }

    /// Refuses options that do not go together: `--header` with JSON lines;
    /// the solution on standard output with anything else there (`--json`,
    /// `--query`, `--line`, or one of the run's `other` outputs).
    pub fn check(&self, json: bool, other: &[Stdout<'_>]) -> Result<()> {
        if self.header && self.format == SolutionFormat::Jsonl {
            anyhow::bail!("--header applies to tsv and csv: each JSON line names its fields");
        }
        let asked = [
            (json, "--json"),
            (!self.query.is_empty(), "--query"),
            (!self.line.is_empty(), "--line"),
        ];
        let texts = asked
            .into_iter()
            .filter(|&(given, _)| given)
            .map(|(_, option)| Stdout::Text(option));
        let solution = self.output.iter().map(|p| Stdout::File("solution", p));
        common::check_stdout(texts.chain(solution).chain(other.iter().copied()))
    }

    /// Stages the solution file among the run's `files`, if one was asked
    /// for: it appears when they are committed.
    pub fn stage<S: Answers>(
        &self,
        files: &mut Outputs,
        sol: &S,
        names: Option<&Names>,
        bars: &Bars,
    ) -> Result<()> {
        if let Some(path) = &self.output {
            bars.spin("write", || {
                files.write(path, |w| {
                    solution::write_as(w, sol, self.format.into(), self.header, names)
                })
            })?;
        }
        Ok(())
    }
}

/// The vertices `--query` and `--line` asked about, by id, and how to show them.
pub struct Asked<'n> {
    pub query: Vec<u32>,
    pub line: Vec<u32>,
    /// `--line-limit`.
    pub limit: usize,
    pub names: Option<&'n Names>,
}

impl Asked<'_> {
    /// Prints the queried vertices' lines and the lines of best play.
    pub fn print<S: Answers>(&self, out: &mut dyn Write, sol: &S) -> io::Result<()> {
        for &v in &self.query {
            solution::write_line_named(out, sol, v, self.names)?;
        }
        for &v in &self.line {
            print_line(out, sol, v, self.limit, self.names)?;
        }
        Ok(())
    }
}

/// Prints the line of best play from `v`, at most `limit` plies of an endless one.
pub fn print_line<S: Answers>(
    out: &mut dyn Write,
    sol: &S,
    v: u32,
    limit: usize,
    names: Option<&Names>,
) -> io::Result<()> {
    let line = sol.line(v, limit);
    let verdict = sol.value(v).map_or_else(String::new, |x| x.to_string());
    let show = |p: u32| names::shown(names, p);
    writeln!(
        out,
        "line from {} ({verdict} for the player to move):",
        show(v)
    )?;
    for (ply, &p) in line.positions.iter().enumerate() {
        let rem = sol
            .remoteness(p)
            .map_or_else(|| "-".to_string(), |r| r.to_string());
        writeln!(out, "  {ply}\t{}\t{}\t{rem}", show(p), sol.outcome(p))?;
    }
    let last = line.positions.last().copied().unwrap_or(v);
    match crate::common::endless_note(&line, limit) {
        Some(note) => writeln!(out, "  {note}"),
        None => {
            let how = match sol.outcome(last) {
                Outcome::Tie => "the game ends level".to_string(),
                o => format!("{o} for the player to move"),
            };
            writeln!(out, "  game over at {}: {how}", show(last))
        }
    }
}
