//! The engine's error type: bad input, bad configuration, and the ways a
//! cluster run can fail (peers unreachable, a peer lost mid-run).

use std::time::Duration;

/// Everything that can go wrong in a timely solve.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The input could not be read or does not follow its format. In a cluster
    /// every process reports the same error: the one found first in the input.
    #[error(transparent)]
    Input(#[from] retrograde::Error),
    /// The configuration cannot work.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// Another process found its part of the input bad, in a way that does
    /// not travel as a typed error (an I/O error, say): its message.
    #[error("another process could not read its part of the input: {message}")]
    PeerInput {
        /// What the other process reported.
        message: String,
    },
    /// This process could not listen on its own address.
    #[error("process {process}: cannot listen on {address}: {source}")]
    Listen {
        /// This process's index.
        process: usize,
        /// The address from the host list.
        address: String,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// Some peers did not connect within the connection timeout.
    #[error(
        "process {process}: could not connect to process {} within {:.1} s (last error: {reason}); \
         are all {processes} processes started with the same host list?",
        fmt_list(missing),
        timeout.as_secs_f64()
    )]
    Unreachable {
        /// This process's index.
        process: usize,
        /// How many processes the host list names.
        processes: usize,
        /// The processes that never connected, with their addresses.
        missing: Vec<(usize, String)>,
        /// The timeout that ran out.
        timeout: Duration,
        /// The last error seen while connecting.
        reason: String,
    },
    /// A peer connected but is not a matching process (another program, another
    /// version, or started with different arguments).
    #[error("process {process}: peer at {address} does not match: {message}")]
    Handshake {
        /// This process's index.
        process: usize,
        /// The peer's address (as seen or as listed).
        address: String,
        /// What differed.
        message: String,
    },
    /// A process's share would need more memory than its limit
    /// ([`Config::memory_limit`](crate::Config::memory_limit)): every process
    /// of the run stops with this same error, naming that process.
    #[error("process {process} would need about {} for its share of {positions} positions{}, more than the {} it allows", Bytes(*needed, *limit), edges.map_or(String::new(), |e| format!(" and {e} edges")), Bytes(*limit, *needed))]
    ShareTooLarge {
        /// The refusing process (the first, if several refuse).
        process: usize,
        /// The positions (vertices) of the whole game.
        positions: u64,
        /// The edges of the whole graph (a graph file's), if known.
        edges: Option<u64>,
        /// The estimate for that process.
        needed: u64,
        /// Its limit.
        limit: u64,
    },
    /// A worker could not allocate its share of the positions: the
    /// process's memory limit (an address-space limit, a cgroup) is below
    /// what it needs, though the estimate passed.
    #[error(
        "worker {worker} could not allocate {bytes} bytes for its {positions} positions (the process's memory limit is lower than it needs; run more processes or raise the limit)"
    )]
    OutOfMemory {
        /// The worker's index among all workers.
        worker: usize,
        /// Its positions.
        positions: u64,
        /// The allocation that failed.
        bytes: u64,
    },
    /// Another worker of this process stopped, and this one with it: a
    /// consequence, whose cause is that worker's own error.
    #[error("the run failed: another worker of this process stopped")]
    AnotherWorkerFailed,
    /// The run failed after it started: a worker stopped, or the connection to a
    /// peer was lost (the peer crashed or was killed).
    #[error("the run failed: {message}")]
    Failed {
        /// What happened, as reported by the failing worker or connection.
        message: String,
    },
}

/// Why a [`Config`](crate::Config) cannot work.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// No worker threads.
    #[error("the number of worker threads must be at least 1")]
    NoThreads,
    /// A cluster without processes.
    #[error("the host list is empty")]
    NoHosts,
    /// This process's index is not in the host list.
    #[error("process index {process} is out of range: the host list has {processes} entries (0 to {})", processes - 1)]
    ProcessOutOfRange {
        /// The index given.
        process: usize,
        /// The processes the host list names.
        processes: usize,
    },
    /// More workers than `u32` can number.
    #[error("too many workers: {workers}")]
    TooManyWorkers {
        /// Threads times processes.
        workers: u64,
    },
}

fn fmt_list(missing: &[(usize, String)]) -> String {
    missing
        .iter()
        .map(|(i, a)| format!("{i} ({a})"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The engine's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// A byte count as people read it, exact where the rounded form would equal
/// the one it is compared with.
struct Bytes(u64, u64);

impl std::fmt::Display for Bytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (this, other) = (
            retrograde::memory::human_bytes(self.0),
            retrograde::memory::human_bytes(self.1),
        );
        if this == other && self.0 != self.1 {
            write!(f, "{} bytes", self.0)
        } else {
            f.write_str(&this)
        }
    }
}
