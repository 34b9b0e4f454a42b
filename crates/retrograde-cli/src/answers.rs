//! What `solve` does with a solution, whichever engine made it: write it,
//! answer queries, print lines of best play.

use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::Result;
use retrograde::io::{solution, write_atomically};
use retrograde::{Answers, Outcome};

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
    /// Print the line of this vertex (repeatable).
    #[arg(long, value_name = "V")]
    pub query: Vec<u32>,
    /// Print the line of best play from this vertex (repeatable).
    #[arg(long, value_name = "V")]
    pub line: Vec<u32>,
    /// How many plies of an endless (drawn) line to print.
    #[arg(long, value_name = "PLIES", default_value_t = 20)]
    pub line_limit: usize,
}

impl OutputArgs {
    /// Refuses queries and lines of vertices outside a graph of `n`.
    pub fn check_vertices(&self, n: usize) -> Result<()> {
        for &v in self.query.iter().chain(&self.line) {
            if v as usize >= n {
                anyhow::bail!("vertex {v} is not in the graph ({n} vertices)");
            }
        }
        Ok(())
    }

    /// Refuses `--json` with the solution written to standard output: both
    /// would be on it.
    pub fn check_json(&self, json: bool) -> Result<()> {
        if self.header && self.format == SolutionFormat::Jsonl {
            anyhow::bail!("--header applies to tsv and csv: each JSON line names its fields");
        }
        if let Some(path) = &self.output {
            if json && retrograde::io::paths::output_descriptor(path) == Some(1) {
                anyhow::bail!(
                    "--json and --output {} both write to standard output: write the solution to a file",
                    crate::common::shown(path)
                );
            }
        }
        Ok(())
    }

    /// Writes the solution file, if one was asked for.
    pub fn write<S: Answers>(&self, sol: &S, bars: &Bars) -> Result<()> {
        if let Some(path) = &self.output {
            bars.spin("write", || {
                write_atomically(path, |w| {
                    solution::write_as(w, sol, self.format.into(), self.header)
                })
            })?;
        }
        Ok(())
    }

    /// Prints the queried vertices' lines and the lines of best play.
    pub fn print<S: Answers>(&self, out: &mut dyn Write, sol: &S) -> io::Result<()> {
        for &v in &self.query {
            solution::write_line(out, sol, v)?;
        }
        for &v in &self.line {
            print_line(out, sol, v, self.line_limit)?;
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
) -> io::Result<()> {
    let line = sol.line(v, limit);
    let verdict = sol.value(v).map_or_else(String::new, |x| x.to_string());
    writeln!(out, "line from {v} ({verdict} for the player to move):")?;
    for (ply, &p) in line.positions.iter().enumerate() {
        let rem = sol
            .remoteness(p)
            .map_or_else(|| "-".to_string(), |r| r.to_string());
        writeln!(out, "  {ply}\t{p}\t{}\t{rem}", sol.outcome(p))?;
    }
    let last = line.positions.last().copied().unwrap_or(v);
    match crate::common::endless_note(&line, limit) {
        Some(note) => writeln!(out, "  {note}"),
        None => {
            let how = match sol.outcome(last) {
                Outcome::Tie => "the game ends level".to_string(),
                o => format!("{o} for the player to move"),
            };
            writeln!(out, "  game over at {last}: {how}")
        }
    }
}
