//! A bulk-synchronous exchange over a timely dataflow: records sent in round
//! `r` are routed to their owner, and a round ends once every worker has
//! received everything sent to it in that round.
//!
//! One channel is one small dataflow — an input, an exchange by owner and an
//! inbox — whose timestamps are round numbers; a probe after the inbox tells
//! when a round is complete everywhere.
//!
//! Every record travels sealed with a checksum of its content ([`Checked`]),
//! verified on arrival: a record damaged on the way (a bad link, a broken
//! proxy) stops the run with an error instead of changing the answer. At the
//! end of its part of a round every worker also sends each worker a marker;
//! a round that makes no progress for the stall timeout names the processes
//! whose markers are missing (stopped, or hung) and stops the run.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use timely::ExchangeData;
use timely::container::CapacityContainerBuilder;
use timely::dataflow::channels::pact::Exchange;
use timely::dataflow::operators::{Input, Operator, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};
use timely::worker::Worker;

use crate::error::{Error, Result};

/// How long an idle worker sleeps before it looks at the abort flag again.
const PARK: Duration = Duration::from_millis(20);

/// Records sent between worker calls to [`Channel::pump`] while a round is
/// being filled; bounds the records queued in memory.
pub(crate) const PUMP_EVERY: usize = 1 << 16;

/// A record's checksum: a 32-bit digest of its content, the same on every
/// machine and build.
pub(crate) trait Checked {
    /// The digest of this record.
    fn digest(&self) -> u32;
}

/// Folds 64-bit words into a digest.
pub(crate) fn digest_words(words: impl IntoIterator<Item = u64>) -> u32 {
    let mut h = 0x243F_6A88_85A3_08D3u64;
    for w in words {
        h = retrograde::graph::splitmix64(h ^ w);
    }
    (h >> 32) as u32
}

/// The digest of a byte string.
pub(crate) fn digest_bytes(bytes: &[u8]) -> u32 {
    let h = xxhash_rust::xxh3::xxh3_64(bytes);
    (h ^ (h >> 32)) as u32
}

impl Checked for u32 {
    fn digest(&self) -> u32 {
        digest_words([u64::from(*self)])
    }
}

impl Checked for (u32, u32) {
    fn digest(&self) -> u32 {
        digest_words([u64::from(self.0), u64::from(self.1)])
    }
}

/// What travels: a sealed record, or the end-of-round marker of worker `from`
/// for worker `to`.
#[derive(Clone, Debug, Serialize, Deserialize)]
enum Envelope<D> {
    Record { to: u64, data: D, digest: u32 },
    Done { to: u64, from: u32, digest: u32 },
}

/// Batches of envelopes with the round they were sent in.
type Inbox<D> = Rc<RefCell<Vec<(u64, Vec<Envelope<D>>)>>>;

/// Settings every channel of a run shares.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Watch {
    /// A round without any progress for this long stops the run.
    pub stall: Duration,
    /// Worker threads per process, to name a worker's process.
    pub threads: usize,
}

/// One kind of message, exchanged in rounds.
pub(crate) struct Channel<D: ExchangeData + Clone> {
    name: &'static str,
    input: InputHandle<u64, CapacityContainerBuilder<Vec<Envelope<D>>>>,
    probe: ProbeHandle<u64>,
    /// Envelopes received, with the round they were sent in. A faster worker
    /// may already send in the next round while this one still waits.
    inbox: Inbox<D>,
    route: Box<dyn Fn(&D) -> u64>,
    sent: usize,
    pump_every: usize,
    me: u32,
    peers: u32,
    watch: Watch,
    /// Per round still open here: which workers' markers arrived.
    done: Vec<(u64, Vec<bool>)>,
}

impl<D: ExchangeData + Clone + Checked> Channel<D> {
    /// A channel delivering each record `d` to worker `route(&d) % peers`.
    /// Every worker must create the same channels in the same order.
    pub(crate) fn new<F>(
        worker: &mut Worker,
        name: &'static str,
        route: F,
        watch: Watch,
    ) -> Channel<D>
    where
        F: Fn(&D) -> u64 + 'static,
    {
        let mut input = InputHandle::new();
        let probe = ProbeHandle::new();
        let inbox: Inbox<D> = Rc::new(RefCell::new(Vec::new()));
        let sink = Rc::clone(&inbox);
        worker.dataflow_named::<u64, _, _>(name, |scope| {
            scope
                .input_from(&mut input)
                .unary::<CapacityContainerBuilder<Vec<()>>, _, _, _>(
                    Exchange::new(|e: &Envelope<D>| match e {
                        Envelope::Record { to, .. } | Envelope::Done { to, .. } => *to,
                    }),
                    "Inbox",
                    move |_capability, _info| {
                        move |input, _output| {
                            input.for_each(|capability, data| {
                                if let Some(&round) = capability.least() {
                                    sink.borrow_mut().push((round, std::mem::take(data)));
                                }
                            });
                        }
                    },
                )
                .probe_with(&probe);
        });
        Channel {
            name,
            input,
            probe,
            inbox,
            route: Box::new(route),
            sent: 0,
            pump_every: PUMP_EVERY,
            me: worker.index() as u32,
            peers: worker.peers() as u32,
            watch,
            done: Vec::new(),
        }
    }

    /// Sends `d` in the current round.
    #[inline]
    pub(crate) fn send(&mut self, d: D) {
        let digest = d.digest();
        let to = (self.route)(&d);
        self.input.send(Envelope::Record {
            to,
            data: d,
            digest,
        });
        self.sent += 1;
    }

    /// Whether [`PUMP_EVERY`] records (or as many as
    /// [`Channel::pump_every`] says) went out since the last pump.
    #[inline]
    pub(crate) fn should_pump(&self) -> bool {
        self.sent >= self.pump_every
    }

    /// Pumps after `records` records instead of [`PUMP_EVERY`] (for
    /// records that are batches).
    pub(crate) fn pump_every(mut self, records: usize) -> Channel<D> {
        self.pump_every = records.max(1);
        self
    }

    /// Lets the worker move data (ours out, others' in) and hands what arrived
    /// so far in this round to `take`. Call it now and then while sending a lot.
    pub(crate) fn pump(
        &mut self,
        worker: &mut Worker,
        abort: &AtomicBool,
        take: impl FnMut(D),
    ) -> Result<()> {
        self.sent = 0;
        check(abort)?;
        worker.step();
        let round = *self.input.time();
        self.drain(round, take)?;
        Ok(())
    }

    /// Hands the records received so far in round `round` to `take`, after
    /// checking each; notes the markers. Returns how many envelopes it took.
    fn drain(&mut self, round: u64, mut take: impl FnMut(D)) -> Result<usize> {
        let now: Vec<(u64, Vec<Envelope<D>>)> = {
            let mut inbox = self.inbox.borrow_mut();
            if inbox.iter().all(|(r, _)| *r == round) {
                std::mem::take(&mut *inbox)
            } else {
                let (now, later) = std::mem::take(&mut *inbox)
                    .into_iter()
                    .partition(|(r, _)| *r == round);
                *inbox = later;
                now
            }
        };
        let mut taken = 0;
        for (r, batch) in now {
            for e in batch {
                taken += 1;
                match e {
                    Envelope::Record { data, digest, .. } if data.digest() == digest => take(data),
                    Envelope::Done { from, digest, .. }
                        if from < self.peers && digest == digest_words([u64::from(from), r]) =>
                    {
                        self.marker(r, from)
                    }
                    _ => return Err(self.corrupted()),
                }
            }
        }
        Ok(taken)
    }

    fn marker(&mut self, round: u64, from: u32) {
        let peers = self.peers as usize;
        let at = match self.done.iter().position(|(r, _)| *r == round) {
            Some(at) => at,
            None => {
                self.done.push((round, vec![false; peers]));
                self.done.len() - 1
            }
        };
        self.done[at].1[from as usize] = true;
    }

    fn corrupted(&self) -> Error {
        Error::Failed {
            message: format!(
                "a message of the {} exchange from another process arrived damaged (its checksum \
                 does not match): the network between the processes corrupts data",
                self.name
            ),
        }
    }

    /// Ends this worker's part of the round: nothing more will be sent in it.
    pub(crate) fn close_round(&mut self) {
        let round = *self.input.time();
        for to in 0..self.peers {
            self.input.send(Envelope::Done {
                to: u64::from(to),
                from: self.me,
                digest: digest_words([u64::from(self.me), round]),
            });
        }
        self.input.advance_to(round + 1);
        self.sent = 0;
    }

    /// Waits until every worker has closed the round and everything sent in it
    /// has arrived, handing each record addressed to this worker to `take`.
    ///
    /// # Errors
    /// [`Error::AnotherWorkerFailed`] if another worker of this process
    /// failed meanwhile; [`Error::Failed`] if a record arrived damaged, or
    /// the round made no progress for the stall timeout (naming the
    /// processes it still waits for).
    pub(crate) fn wait_round(
        &mut self,
        worker: &mut Worker,
        abort: &AtomicBool,
        mut take: impl FnMut(D),
    ) -> Result<()> {
        let end = *self.input.time();
        let round = end - 1;
        let mut progress = Instant::now();
        loop {
            if self.drain(round, &mut take)? > 0 {
                progress = Instant::now();
            }
            if !self.probe.less_than(&end) {
                // The probe passed: the last records are in the inbox already.
                self.drain(round, &mut take)?;
                self.done.retain(|(r, _)| *r > round);
                return Ok(());
            }
            check(abort)?;
            if progress.elapsed() > self.watch.stall {
                return Err(self.stalled(round));
            }
            worker.step_or_park(Some(PARK));
        }
    }

    /// The error for a round stuck waiting: the processes whose workers have
    /// not closed it.
    fn stalled(&self, round: u64) -> Error {
        let seen = self
            .done
            .iter()
            .find(|(r, _)| *r == round)
            .map(|(_, s)| s.clone())
            .unwrap_or_else(|| vec![false; self.peers as usize]);
        let threads = self.watch.threads.max(1);
        let mut missing: Vec<usize> = (0..self.peers as usize)
            .filter(|&w| !seen[w])
            .map(|w| w / threads)
            .collect();
        missing.dedup();
        let who = if missing.is_empty() {
            "the others (their last messages did not arrive)".to_string()
        } else {
            format!(
                "process{} {}",
                if missing.len() == 1 { "" } else { "es" },
                missing
                    .iter()
                    .map(|p| p.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        Error::Failed {
            message: format!(
                "no progress for {:.0} s waiting for {who} (stopped, hung or unreachable)",
                self.watch.stall.as_secs_f64()
            ),
        }
    }

    /// [`close_round`](Self::close_round) then [`wait_round`](Self::wait_round).
    pub(crate) fn finish_round(
        &mut self,
        worker: &mut Worker,
        abort: &AtomicBool,
        take: impl FnMut(D),
    ) -> Result<()> {
        self.close_round();
        self.wait_round(worker, abort, take)
    }
}

/// Fails if another worker of this process has failed.
pub(crate) fn check(abort: &AtomicBool) -> Result<()> {
    if abort.load(Ordering::Relaxed) {
        Err(Error::AnotherWorkerFailed)
    } else {
        Ok(())
    }
}
