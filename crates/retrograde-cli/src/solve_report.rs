//! The JSON report of `solve` (docs/JSON.md), written the same by a run in
//! one process and by the timely engine's runs.

use std::process::ExitCode;

use anyhow::Result;
use retrograde::io::pgsolver::Reach;
use retrograde::{Answers, Player};

use crate::answers::{Asked, OutputArgs};
use crate::timings::Timings;

/// What the JSON report of a solve says besides the solution.
pub struct Report<'a> {
    pub graph: &'a std::path::Path,
    pub moves: u64,
    pub labels: u64,
    pub engine: &'static str,
    pub threads: usize,
    pub processes: usize,
    pub times: &'a Timings,
    /// An arena's owners, and a PGSolver game's target.
    pub arena: Option<(&'a [Player], Option<Reach>)>,
}

/// How many vertices each player owns.
pub fn owned(owners: &[Player]) -> [u64; 2] {
    let second = owners.iter().filter(|&&o| o == Player::Second).count() as u64;
    [owners.len() as u64 - second, second]
}

/// How many vertices each player wins from, in the reachability game `reach`.
pub fn regions<S: Answers + ?Sized>(owners: &[Player], reach: Reach, sol: &S) -> [u64; 2] {
    let first = (0..owners.len() as u32)
        .filter_map(|v| Some(reach.winner(owners[v as usize], sol.value(v)?.outcome)))
        .filter(|&w| w == Player::First)
        .count() as u64;
    [first, owners.len() as u64 - first]
}

/// Prints the JSON report of a solve (docs/JSON.md) on standard output.
pub fn report<S: Answers + ?Sized>(
    r: &Report<'_>,
    outputs: &OutputArgs,
    asked: &Asked<'_>,
    sol: &S,
) -> Result<ExitCode> {
    #[derive(serde::Serialize)]
    struct Json {
        command: &'static str,
        graph: String,
        #[serde(flatten)]
        outcomes: crate::report::Outcomes,
        moves: u64,
        labels: u64,
        queries: Vec<crate::report::PositionValue>,
        lines: Vec<crate::report::LineReport>,
        output: Option<String>,
        engine: &'static str,
        threads: usize,
        processes: usize,
        time: crate::report::Time,
        #[serde(skip_serializing_if = "Option::is_none")]
        owners: Option<Players>,
        #[serde(skip_serializing_if = "Option::is_none")]
        reach: Option<ReachJson>,
    }
    /// A count for each player.
    #[derive(serde::Serialize)]
    struct Players {
        player0: u64,
        player1: u64,
    }
    #[derive(serde::Serialize)]
    struct ReachJson {
        priority: u64,
        reacher: u8,
        wins: Players,
    }
    let players = |[player0, player1]: [u64; 2]| Players { player0, player1 };
    crate::report::print(&Json {
        command: "solve",
        graph: r.graph.display().to_string(),
        outcomes: crate::report::Outcomes::of(sol),
        moves: r.moves,
        labels: r.labels,
        queries: asked
            .query
            .iter()
            .map(|&v| crate::report::PositionValue::of(sol, v, asked.names))
            .collect(),
        lines: asked
            .line
            .iter()
            .map(|&v| crate::report::LineReport::of(sol, v, asked.limit, asked.names))
            .collect(),
        output: outputs.output.as_ref().map(|p| p.display().to_string()),
        engine: r.engine,
        threads: r.threads,
        processes: r.processes,
        time: crate::report::Time::of(r.times),
        owners: r.arena.map(|(o, _)| players(owned(o))),
        reach: r.arena.and_then(|(o, reach)| {
            let reach = reach?;
            Some(ReachJson {
                priority: reach.priority,
                reacher: reach.reacher.index(),
                wins: players(regions(o, reach, sol)),
            })
        }),
    })?;
    Ok(ExitCode::SUCCESS)
}
