//! A worker's share of the positions in the lean engine's layout, and
//! what it costs (share_bytes, the estimate each process checks).

use retrograde::graph::NONE;
use retrograde::kernel::{self, Effect, UNDECIDED};
use retrograde::solve::Remoteness;
use retrograde::solve::layout::{self, Counters, Packed, Wide};
use retrograde::{GameGraph, Rules};
use serde::{Deserialize, Serialize};

use crate::channel::{Checked, digest_words};
use crate::engine::Me;
use crate::error::{Error, Result};
use crate::memory::BUFFER_BYTES;

/// Estimated bytes a position costs its owner: the lean engine's layout, so
/// its estimate ([`retrograde::solve::LEAN_BYTES_PER_POSITION`]).
pub const BYTES_PER_POSITION: u64 = retrograde::solve::LEAN_BYTES_PER_POSITION;

/// The memory one process of `processes`, each running `threads` workers,
/// needs for its share of a game of `positions` positions (see
/// [`BYTES_PER_POSITION`], [`BUFFER_BYTES`]): what `--max-memory` and a
/// machine's limit are compared with before anything is allocated. Not
/// counted, because not known before the share is started: 4 bytes more a
/// position when some position has more than 250 moves (its counter no
/// longer fits in the state byte), and ply lists longer than a quarter of
/// the share.
pub fn share_bytes(positions: u64, processes: usize, threads: usize) -> u64 {
    let workers = (processes.max(1) as u64).saturating_mul(threads.max(1) as u64);
    let per_worker = positions.div_ceil(workers);
    (threads.max(1) as u64)
        .saturating_mul(per_worker.saturating_mul(BYTES_PER_POSITION) + BUFFER_BYTES)
}

/// This worker's positions.
pub(super) struct Share {
    pub(super) me: Me,
    /// Final codes; while undecided, the move counter packed
    /// ([`layout::pack`]), or `UNDECIDED` with the count in `counters`.
    pub(super) state: Vec<u8>,
    pub(super) counters: Option<Wide>,
    pub(super) plies: Remoteness,
}

/// `m` copies of `x`, or [`Error::OutOfMemory`] if they cannot be allocated.
fn filled<T: Clone>(m: usize, x: T, worker: u32) -> Result<Vec<T>> {
    let mut v = Vec::new();
    // Fallibly: the binary's allocator leaves this failure to the error.
    retrograde::fallibly(|| v.try_reserve_exact(m)).map_err(|_| Error::OutOfMemory {
        worker: worker as usize,
        positions: m as u64,
        bytes: (m * std::mem::size_of::<T>()) as u64,
    })?;
    v.resize(m, x);
    Ok(v)
}

impl Share {
    /// Step 1: every owned position's start by the kernel's precedence;
    /// returns the share and the local terminal positions of each phase.
    pub(super) fn start<G: GameGraph + ?Sized>(
        g: &G,
        rules: &Rules,
        me: Me,
    ) -> Result<(Share, [Vec<u32>; 2])> {
        let m = me.owned(g.vertex_count() as u64);
        let mut share = Share {
            me,
            state: filled(m, UNDECIDED, me.me)?,
            counters: None,
            plies: Remoteness::Narrow(filled(m, u16::MAX, me.me)?),
        };
        let mut levels: [Vec<u32>; 2] = [Vec::new(), Vec::new()];
        let mut labels = rules.labels.iter().filter(|&(v, _)| me.owns(v)).peekable();
        for t in 0..m {
            let v = me.global(t);
            let label = labels.next_if(|&(l, _)| l == v).map(|(_, o)| o);
            let start = kernel::start_of(g, v, label, rules.no_move);
            share.state[t] = start.code;
            if !start.is_open() {
                if let Some(phase) = kernel::phase(start.code) {
                    share.plies.set(t, 0);
                    levels[phase as usize].push(t as u32);
                }
                continue;
            }
            if share.counters.is_none() {
                if let Some(code) = layout::pack(start) {
                    share.state[t] = code;
                    continue;
                }
                // A counter too large for the state byte: from here on every
                // counter lives in its own array, the packed ones moved there.
                let mut counters = filled(m, 0u32, me.me)?;
                layout::widen(&mut share.state[..t], &mut counters);
                share.counters = Some(Wide(counters));
            }
            if let Some(Wide(c)) = share.counters.as_mut() {
                c[t] = start.moves;
            }
        }
        Ok((share, levels))
    }

    /// One decided successor of the local position `t`, of remoteness
    /// `round`, its state code having `effect` ([`kernel::effect`]): true if
    /// it decides `t` (with `round + 1`).
    #[inline]
    pub(super) fn hit(&mut self, t: usize, effect: Effect, round: u32) -> bool {
        // The counter to count down is in the state byte, or beside it.
        let s = &mut self.state[t];
        let decided = match &mut self.counters {
            None => Packed.apply(s, t, effect),
            Some(wide) => wide.apply(s, t, effect),
        };
        if decided {
            self.plies.set(t, round + 1);
        }
        decided
    }

    /// The value of owned position `t`, as a state code and remoteness.
    pub(super) fn reply(&self, position: u32) -> Reply {
        let t = self.me.local(position);
        match self.state.get(t) {
            Some(&code) => Reply {
                position,
                code,
                remoteness: self.plies.get(t).unwrap_or(NONE),
            },
            None => Reply {
                position,
                code: kernel::ABSENT,
                remoteness: NONE,
            },
        }
    }
}

/// The owner's answer: `position`'s state code and remoteness (`NONE` if none).
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub(crate) struct Reply {
    pub(super) position: u32,
    pub(super) code: u8,
    pub(super) remoteness: u32,
}

impl Checked for Reply {
    fn digest(&self) -> u32 {
        digest_words([
            u64::from(self.position),
            u64::from(self.code),
            u64::from(self.remoteness),
        ])
    }
}
