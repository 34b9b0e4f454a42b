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
    #[arg(long, value_name = "SIZE", value_parser = common::parse_bytes, help_heading = "Performance")]
    pub max_memory: Option<u64>,
    /// Threads for reading the graph and the solution (default: all cores).
    #[arg(long, short = 'j', value_name = "N", help_heading = "Performance")]
    pub threads: Option<usize>,

    /// Print only the violations, no summary.
    #[arg(long, short)]
    pub quiet: bool,
    /// Print one JSON object on standard output: whether it is correct, the
    /// positions checked, the violations (docs/JSON.md).
    #[arg(long)]
    pub json: bool,
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
    let (graph, rules, names) = times.time("read graph", || args.game.load(budget, &bars))?;
    let graph = graph.with_successors();
    let n = graph.vertex_count();
    let sol = times.time("read solution", || -> Result<_> {
        let input = common::open_input(&args.solution, budget.limit, &bars)?;
        Ok(match &names {
            Some(names) => solution::read_named(&input, names)?,
            None => solution::read(&input, Some(n))?,
        })
    })?;
    let report = times.time("verify", || {
        retrograde::verify(&graph, &rules, &sol, args.show)
    })?;

    if args.json {
        #[derive(serde::Serialize)]
        struct ViolationJson {
            position: u32,
            outcome: Option<&'static str>,
            remoteness: Option<u32>,
            name: Option<String>,
            message: String,
        }
        #[derive(serde::Serialize)]
        struct Json {
            command: &'static str,
            graph: String,
            solution: String,
            correct: bool,
            positions: u64,
            moves: u64,
            violations_total: u64,
            violations: Vec<ViolationJson>,
            time: crate::report::Time,
        }
        crate::report::print(&Json {
            command: "verify",
            graph: args.game.graph.display().to_string(),
            solution: args.solution.display().to_string(),
            correct: report.is_ok(),
            positions: report.positions,
            moves: graph.edge_count(),
            violations_total: report.total,
            violations: report
                .violations
                .iter()
                .map(|v| ViolationJson {
                    position: v.vertex,
                    outcome: v.value.map(|x| x.outcome.as_str()),
                    remoteness: v.value.and_then(|x| x.remoteness),
                    name: names
                        .as_ref()
                        .and_then(|n| n.name(v.vertex))
                        .map(String::from),
                    message: v.to_string(),
                })
                .collect(),
            time: crate::report::Time::of(&times),
        })?;
    } else {
        // The violations are the data: standard output.
        let stdout = io::stdout();
        let mut out = stdout.lock();
        for v in &report.violations {
            // With names, the vertex's name before the ids the check speaks in.
            let name = names
                .as_ref()
                .and_then(|n| n.name(v.vertex))
                .map_or_else(String::new, |n| format!("{n:?} is "));
            writeln!(out, "{}: {name}{v}", args.solution.display())?;
        }
        if report.total > report.violations.len() as u64 {
            writeln!(
                out,
                "... and {} more",
                report.total - report.violations.len() as u64
            )?;
        }
        out.flush()?;
    }
    if !args.quiet {
        let mut out = common::talk();
        if report.is_ok() {
            writeln!(
                out,
                "verified: {} solves {} ({}, {})",
                args.solution.display(),
                args.game.graph.display(),
                common::count(n as u64, "position", "positions"),
                common::count(graph.edge_count(), "edge", "edges"),
            )?;
        } else {
            writeln!(
                out,
                "wrong: {} in {} ({})",
                common::count(report.total, "violation", "violations"),
                args.solution.display(),
                common::count(n as u64, "position", "positions"),
            )?;
        }
        writeln!(out, "time: {}", times.line())?;
    }
    Ok(if report.is_ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
