//! Small helpers shared by the subcommands.

use std::path::Path;
use std::time::Instant;

use anyhow::Result;

/// The machine's physical memory in bytes, if it can be read.
pub fn physical_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The process's peak resident memory in bytes, if it can be read.
pub fn peak_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = text.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

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
    Ok((x * mult as f64) as u64)
}

/// The memory a run may use: `--max-memory`, else the machine's memory.
pub fn memory_limit(max_memory: Option<u64>) -> u64 {
    max_memory.or_else(physical_memory).unwrap_or(u64::MAX)
}

/// Wall-clock phases for the summary.
#[derive(Default)]
pub struct Timings {
    phases: Vec<(&'static str, f64)>,
}

impl Timings {
    /// Runs `f`, recording its time under `name`.
    pub fn time<T>(&mut self, name: &'static str, f: impl FnOnce() -> T) -> T {
        let t = Instant::now();
        let out = f();
        self.phases.push((name, t.elapsed().as_secs_f64()));
        out
    }

    /// `read 0.012 s, solve 0.003 s, total 0.015 s`.
    pub fn line(&self) -> String {
        let mut parts: Vec<String> = self
            .phases
            .iter()
            .map(|(n, s)| format!("{n} {s:.3} s"))
            .collect();
        let total: f64 = self.phases.iter().map(|p| p.1).sum();
        parts.push(format!("total {total:.3} s"));
        parts.join(", ")
    }
}

/// Opens an input file, with the path in the message on failure.
pub fn open_input(path: &Path) -> Result<retrograde::io::Input> {
    Ok(retrograde::io::Input::open(path)?)
}
