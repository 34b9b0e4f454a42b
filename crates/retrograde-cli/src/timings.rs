//! Wall-clock phases of a run and the peak memory at the end of each, for
//! the summary, `--stats` and the JSON reports.

use std::time::Instant;

use indicatif::HumanBytes;
use retrograde::memory::peak_memory;

/// One timed phase of a run.
pub struct Phase {
    /// Its name: read, solve, write, ...
    pub name: &'static str,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Peak resident memory of the process up to the end of the phase, if known.
    pub peak: Option<u64>,
}

/// Wall-clock phases for the summary.
#[derive(Default)]
pub struct Timings {
    phases: Vec<Phase>,
}

impl Timings {
    /// Runs `f`, recording its time and the peak memory so far under `name`.
    pub fn time<T>(&mut self, name: &'static str, f: impl FnOnce() -> T) -> T {
        let t = Instant::now();
        let out = f();
        self.record(name, t.elapsed().as_secs_f64());
        out
    }

    /// Records a phase timed elsewhere; a phase met again (each tier of a
    /// game solved tier by tier explores) adds to the time it has.
    pub fn record(&mut self, name: &'static str, seconds: f64) {
        let peak = peak_memory();
        match self.phases.iter_mut().find(|p| p.name == name) {
            Some(p) => {
                p.seconds += seconds;
                p.peak = p.peak.max(peak);
            }
            None => self.phases.push(Phase {
                name,
                seconds,
                peak,
            }),
        }
    }

    /// The phases so far.
    pub fn phases(&self) -> &[Phase] {
        &self.phases
    }

    /// The total of all phases, in seconds.
    pub fn total(&self) -> f64 {
        self.phases.iter().map(|p| p.seconds).sum()
    }

    /// The largest per-phase peak memory.
    pub fn peak(&self) -> Option<u64> {
        self.phases.iter().filter_map(|p| p.peak).max()
    }

    /// A table of the phases: time, edges per second, peak memory.
    pub fn table(&self, edges: u64) -> String {
        let mut s = format!(
            "{:<8} {:>10} {:>14} {:>12}\n",
            "phase", "time", "edges/s", "peak so far"
        );
        let row = |name: &str, secs: f64, peak: Option<u64>| {
            format!(
                "{:<8} {:>8.3} s {:>12.1} M {:>12}\n",
                name,
                secs,
                edges as f64 / secs.max(1e-9) / 1e6,
                peak.map_or_else(|| "-".into(), |b| HumanBytes(b).to_string())
            )
        };
        for p in &self.phases {
            s.push_str(&row(p.name, p.seconds, p.peak));
        }
        s.push_str(&row("total", self.total(), self.peak()));
        s
    }

    /// `read 0.012 s, solve 0.003 s, total 0.015 s`.
    pub fn line(&self) -> String {
        let mut parts: Vec<String> = self
            .phases
            .iter()
            .map(|p| format!("{} {:.3} s", p.name, p.seconds))
            .collect();
        parts.push(format!("total {:.3} s", self.total()));
        parts.join(", ")
    }
}
