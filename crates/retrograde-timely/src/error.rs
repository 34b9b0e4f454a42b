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
    /// The configuration cannot work (no workers, process index out of range, ...).
    #[error("{0}")]
    Config(String),
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
    /// The run failed after it started: a worker stopped, or the connection to a
    /// peer was lost (the peer crashed or was killed).
    #[error("the run failed: {message}")]
    Failed {
        /// What happened, as reported by the failing worker or connection.
        message: String,
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
