//! `retrograde verify GRAPH SOLUTION`: check a solution file against the game,
//! without solving it.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use retrograde::io::solution;
use retrograde::GameGraph;

use crate::common::{self, Timings};
use crate::load::{Budget, GameArgs};
use crate::progress::Bars;

/// Options of `retrograde verify`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub game: GameArgs,
    /// The solution to check, as `solve --output` writes it (`-` for standard input).
    pub solution: PathBuf,
    /// How many violations to print (all are counted).
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub show: usize,
    /// Refuse inputs that would need more memory than this (e.g. 8G; default: the machine's memory).
    #[arg(long, value_name = "SIZE", value_parser = common::parse_bytes)]
    pub max_memory: Option<u64>,
    /// Print only the violations, no summary.
    #[arg(long, short)]
    pub quiet: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let mut inputs = args.game.inputs();
    inputs.push(&args.solution);
    common::check_files(&inputs, &[])?;
    let bars = Bars::new(args.quiet);
    let mut times = Timings::default();
    // On top of the graph: its forward adjacency (8 bytes per vertex, 4 per
    // edge) and the solution read back (9 bytes per vertex).
    let budget = Budget {
        limit: common::memory_limit(args.max_memory),
        per_vertex: 17,
        per_edge: 4,
    };
    let (graph, rules) = times.time("read graph", || args.game.load(budget, &bars))?;
    let graph = graph.with_successors();
    let n = graph.vertex_count();
    let sol = times.time("read solution", || -> Result<_> {
        let input = common::open_input(&args.solution, budget.limit)?;
        Ok(solution::read(&input, Some(n))?)
    })?;
    let report = times.time("verify", || {
        retrograde::verify(&graph, &rules, &sol, args.show)
    })?;

    let stdout = io::stdout();
    let mut out = stdout.lock();
    for v in &report.violations {
        writeln!(out, "{}: {v}", args.solution.display())?;
    }
    if report.total > report.violations.len() as u64 {
        writeln!(
            out,
            "... and {} more",
            report.total - report.violations.len() as u64
        )?;
    }
    if !args.quiet {
        if report.is_ok() {
            writeln!(
                out,
                "verified: {} solves {} ({n} positions, {} edges)",
                args.solution.display(),
                args.game.graph.display(),
                graph.edge_count()
            )?;
        } else {
            writeln!(
                out,
                "wrong: {} violation{} in {} ({n} positions)",
                report.total,
                if report.total == 1 { "" } else { "s" },
                args.solution.display()
            )?;
        }
        writeln!(out, "time: {}", times.line())?;
    }
    out.flush()?;
    Ok(if report.is_ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
