//! The JSON reports (`--json`): one object on standard output per run, in
//! one vocabulary for every subcommand (docs/JSON.md). Outcomes are always
//! `win`, `lose`, `tie` and `draw`, for the player to move; times are in
//! seconds, memory in bytes; a value that does not exist is `null`.

use std::io::Write;

use anyhow::Result;
use retrograde::io::names::Names;
use retrograde::{Answers, Histogram};
use serde::Serialize;

use crate::timings::Timings;

/// Positions by outcome.
#[derive(Serialize, Debug, Default, Clone, Copy)]
pub struct Counts {
    pub win: u64,
    pub lose: u64,
    pub tie: u64,
    pub draw: u64,
}

/// The greatest remoteness of each outcome that has one (`null` if no
/// position has that outcome).
#[derive(Serialize, Debug, Default, Clone, Copy)]
pub struct Longest {
    pub win: Option<u32>,
    pub lose: Option<u32>,
    pub tie: Option<u32>,
}

/// The positions of one remoteness, by outcome (draws have none).
#[derive(Serialize, Debug)]
pub struct Level {
    pub remoteness: u32,
    pub win: u64,
    pub lose: u64,
    pub tie: u64,
}

/// What a solution says as a whole: counts, longest remoteness, histogram.
#[derive(Serialize, Debug)]
pub struct Outcomes {
    pub positions: u64,
    pub counts: Counts,
    pub longest: Longest,
    pub histogram: Vec<Level>,
}

impl Outcomes {
    /// The totals of `sol`.
    pub fn of<S: Answers + ?Sized>(sol: &S) -> Outcomes {
        Outcomes::from_histogram(&sol.values().histogram())
    }

    pub fn from_histogram(h: &Histogram) -> Outcomes {
        let mut counts = Counts {
            draw: h.draws,
            ..Counts::default()
        };
        let mut longest = Longest::default();
        let mut histogram = Vec::new();
        for (&r, row) in &h.by_remoteness {
            if row.iter().all(|&c| c == 0) {
                continue;
            }
            counts.win += row[0];
            counts.lose += row[1];
            counts.tie += row[2];
            for (slot, &c) in [&mut longest.win, &mut longest.lose, &mut longest.tie]
                .into_iter()
                .zip(row)
            {
                if c > 0 {
                    *slot = Some(r);
                }
            }
            histogram.push(Level {
                remoteness: r,
                win: row[0],
                lose: row[1],
                tie: row[2],
            });
        }
        Outcomes {
            positions: counts.win + counts.lose + counts.tie + counts.draw,
            counts,
            longest,
            histogram,
        }
    }
}

/// A vertex in a report: its id, or its name where the graph has names.
#[derive(Serialize, Debug)]
#[serde(untagged)]
pub enum Vertex {
    Id(u32),
    Name(String),
}

impl Vertex {
    pub fn of(v: u32, names: Option<&Names>) -> Vertex {
        match names.and_then(|n| n.name(v)) {
            Some(name) => Vertex::Name(name.to_string()),
            None => Vertex::Id(v),
        }
    }
}

/// One position's value and best move.
#[derive(Serialize, Debug)]
pub struct PositionValue {
    pub position: Vertex,
    pub outcome: &'static str,
    pub remoteness: Option<u32>,
    pub best_move: Option<Vertex>,
}

impl PositionValue {
    pub fn of<S: Answers + ?Sized>(sol: &S, v: u32, names: Option<&Names>) -> PositionValue {
        PositionValue {
            position: Vertex::of(v, names),
            outcome: sol.outcome(v).as_str(),
            remoteness: sol.remoteness(v),
            best_move: sol.best_move(v).map(|m| Vertex::of(m, names)),
        }
    }
}

/// A line of best play.
#[derive(Serialize, Debug)]
pub struct LineReport {
    pub from: Vertex,
    /// The positions, the start first, with their values.
    pub positions: Vec<PositionValue>,
    /// Whether best play goes on forever (a draw).
    pub endless: bool,
    /// For an endless line that was seen to cycle: the ply the last one repeats.
    pub repeats_from: Option<usize>,
}

impl LineReport {
    pub fn of<S: Answers + ?Sized>(
        sol: &S,
        v: u32,
        limit: usize,
        names: Option<&Names>,
    ) -> LineReport {
        let line = sol.line(v, limit);
        LineReport {
            from: Vertex::of(v, names),
            positions: line
                .positions
                .iter()
                .map(|&p| PositionValue::of(sol, p, names))
                .collect(),
            endless: line.endless,
            repeats_from: line.repeats_from,
        }
    }
}

/// One timed phase.
#[derive(Serialize, Debug)]
pub struct PhaseTime {
    pub name: &'static str,
    pub seconds: f64,
}

/// The time a run took, by phase, and its peak memory.
#[derive(Serialize, Debug)]
pub struct Time {
    pub phases: Vec<PhaseTime>,
    pub total_seconds: f64,
    pub peak_memory_bytes: Option<u64>,
}

impl Time {
    pub fn of(times: &Timings) -> Time {
        Time {
            phases: times
                .phases()
                .iter()
                .map(|p| PhaseTime {
                    name: p.name,
                    seconds: p.seconds,
                })
                .collect(),
            total_seconds: times.total(),
            peak_memory_bytes: times.peak(),
        }
    }
}

/// Prints `value` as one line of JSON on standard output.
pub fn print<T: Serialize>(value: &T) -> Result<()> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    serde_json::to_writer(&mut out, value)?;
    writeln!(out)?;
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn longest_and_counts_come_from_the_histogram() {
        let h = Histogram {
            by_remoteness: [[0, 2, 0], [3, 0, 0], [0, 0, 0], [0, 1, 4]]
                .into_iter()
                .enumerate()
                .map(|(r, row)| (r as u32, row))
                .collect(),
            draws: 5,
        };
        let o = Outcomes::from_histogram(&h);
        assert_eq!(
            (o.counts.win, o.counts.lose, o.counts.tie, o.counts.draw),
            (3, 3, 4, 5)
        );
        assert_eq!(o.positions, 15);
        assert_eq!(
            (o.longest.win, o.longest.lose, o.longest.tie),
            (Some(1), Some(3), Some(3))
        );
        assert_eq!(o.histogram.len(), 3, "empty levels are left out");
    }
}
