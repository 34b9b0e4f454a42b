//! Memory limits, agreed by every process: each process knows only its own
//! limit (its machine's memory, `--max-memory`), so a share that fits in one
//! process may not in another. One round of messages tells every worker of
//! every refusal, and all stop with the same error; none waits for a peer
//! that has given up.

use std::sync::atomic::AtomicBool;

use serde::{Deserialize, Serialize};
use timely::worker::Worker;

use crate::channel::{Channel, Checked, Watch, digest_words};
use crate::error::{Error, Result};

/// Estimated bytes of message buffers and timely's own state, per worker,
/// in both engines' estimates ([`graph_share_bytes`](crate::graph_share_bytes),
/// [`share_bytes`](crate::share_bytes)).
pub const BUFFER_BYTES: u64 = 48 << 20;

/// A process's memory limit, and what its share is computed from.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limit {
    /// Bytes this process may use.
    pub bytes: u64,
    pub processes: usize,
    pub threads: usize,
    pub process: usize,
}

/// "Process `process` needs `needed` bytes for its share but allows only
/// `limit`": sent to worker `to`.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub(crate) struct Refusal {
    to: u32,
    process: u32,
    needed: u64,
    limit: u64,
}

impl Checked for Refusal {
    fn digest(&self) -> u32 {
        digest_words([
            u64::from(self.to),
            u64::from(self.process),
            self.needed,
            self.limit,
        ])
    }
}

/// The channel the agreement travels on.
pub(crate) fn channel(worker: &mut Worker, watch: Watch) -> Channel<Refusal> {
    Channel::new(worker, "memory", |r: &Refusal| u64::from(r.to), watch)
}

/// One round, which every worker of every process must run at the same
/// point: this process's share needs `needed(limit)` bytes; if that is over
/// its limit, every worker is told. Then every worker returns the same
/// [`Error::ShareTooLarge`] (the refusing process of lowest index), or `Ok`.
/// `positions` and `edges` name the share in the message.
pub(crate) fn agree(
    worker: &mut Worker,
    ch: &mut Channel<Refusal>,
    abort: &AtomicBool,
    limit: Option<Limit>,
    needed: impl FnOnce(Limit) -> u64,
    positions: u64,
    edges: Option<u64>,
) -> Result<()> {
    if let Some(limit) = limit {
        let needed = needed(limit);
        if needed > limit.bytes {
            for to in 0..worker.peers() as u32 {
                ch.send(Refusal {
                    to,
                    process: limit.process as u32,
                    needed,
                    limit: limit.bytes,
                });
            }
        }
    }
    let mut first: Option<Refusal> = None;
    ch.finish_round(worker, abort, |r| {
        if first.is_none_or(|f| r.process < f.process) {
            first = Some(r);
        }
    })?;
    match first {
        Some(r) => Err(Error::ShareTooLarge {
            process: r.process as usize,
            positions,
            edges,
            needed: r.needed,
            limit: r.limit,
        }),
        None => Ok(()),
    }
}
