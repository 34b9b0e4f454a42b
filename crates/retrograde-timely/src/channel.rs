//! A bulk-synchronous exchange over a timely dataflow: records sent in round
//! `r` are routed to their owner, and a round ends once every worker has
//! received everything sent to it in that round.
//!
//! One channel is one small dataflow — an input, an exchange by owner and an
//! inbox — whose timestamps are round numbers; a probe after the inbox tells
//! when a round is complete everywhere.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use timely::container::CapacityContainerBuilder;
use timely::dataflow::channels::pact::Exchange;
use timely::dataflow::operators::{Input, Operator, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};
use timely::worker::Worker;
use timely::ExchangeData;

use crate::error::{Error, Result};

/// How long an idle worker sleeps before it looks at the abort flag again.
const PARK: Duration = Duration::from_millis(20);

/// Records sent between worker calls to [`Channel::pump`] while a round is
/// being filled; bounds the records queued in memory.
pub(crate) const PUMP_EVERY: usize = 1 << 16;

/// Batches of records with the round they were sent in.
type Inbox<D> = Rc<RefCell<Vec<(u64, Vec<D>)>>>;

/// One kind of message, exchanged in rounds.
pub(crate) struct Channel<D: ExchangeData + Clone> {
    input: InputHandle<u64, CapacityContainerBuilder<Vec<D>>>,
    probe: ProbeHandle<u64>,
    /// Batches received, with the round they were sent in. A faster worker
    /// may already send in the next round while this one still waits.
    inbox: Inbox<D>,
    sent: usize,
}

impl<D: ExchangeData + Clone> Channel<D> {
    /// A channel delivering each record `d` to worker `route(&d) % peers`.
    /// Every worker must create the same channels in the same order.
    pub(crate) fn new<F>(worker: &mut Worker, name: &str, route: F) -> Channel<D>
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
                    Exchange::new(move |d: &D| route(d)),
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
            input,
            probe,
            inbox,
            sent: 0,
        }
    }

    /// Sends `d` in the current round.
    #[inline]
    pub(crate) fn send(&mut self, d: D) {
        self.input.send(d);
        self.sent += 1;
    }

    /// Whether [`PUMP_EVERY`] records went out since the last pump.
    #[inline]
    pub(crate) fn should_pump(&self) -> bool {
        self.sent >= PUMP_EVERY
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
        self.drain(round, take);
        Ok(())
    }

    /// Hands the records received so far in round `round` to `take`.
    fn drain(&mut self, round: u64, mut take: impl FnMut(D)) {
        let mut inbox = self.inbox.borrow_mut();
        if inbox.iter().all(|(r, _)| *r == round) {
            for (_, batch) in std::mem::take(&mut *inbox) {
                batch.into_iter().for_each(&mut take);
            }
        } else {
            let (now, later): (Vec<_>, Vec<_>) = std::mem::take(&mut *inbox)
                .into_iter()
                .partition(|(r, _)| *r == round);
            *inbox = later;
            drop(inbox);
            for (_, batch) in now {
                batch.into_iter().for_each(&mut take);
            }
        }
    }

    /// Ends this worker's part of the round: nothing more will be sent in it.
    pub(crate) fn close_round(&mut self) {
        let next = *self.input.time() + 1;
        self.input.advance_to(next);
        self.sent = 0;
    }

    /// Waits until every worker has closed the round and everything sent in it
    /// has arrived, handing each record addressed to this worker to `take`.
    ///
    /// # Errors
    /// [`Error::Failed`] if another worker of this process failed meanwhile.
    pub(crate) fn wait_round(
        &mut self,
        worker: &mut Worker,
        abort: &AtomicBool,
        mut take: impl FnMut(D),
    ) -> Result<()> {
        let end = *self.input.time();
        let round = end - 1;
        loop {
            self.drain(round, &mut take);
            if !self.probe.less_than(&end) {
                // The probe passed: the last records are in the inbox already.
                self.drain(round, &mut take);
                return Ok(());
            }
            check(abort)?;
            worker.step_or_park(Some(PARK));
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
        Err(Error::Failed {
            message: "another worker of this process stopped".into(),
        })
    } else {
        Ok(())
    }
}
