//! The answers where they are: the counts gathered by worker 0 (Outline),
//! the values it asks the owners for (Remote), and the owners' answers.

use std::sync::atomic::AtomicBool;

use retrograde::graph::NONE;
use retrograde::kernel;
use retrograde::{
    GameGraph, Histogram, HistogramCounter, Line, Outcome, Rules, Successors, Summary, Value,
};
use serde::{Deserialize, Serialize};
use timely::worker::Worker;

use super::Channels;
use super::share::Share;
use crate::channel::{Checked, digest_words};
use crate::error::{Error, Result};

/// One worker's positions counted by outcome and remoteness, for worker 0.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Counts {
    /// The wins, losses and ties of each remoteness some position has.
    rows: Vec<(u32, [u64; 3])>,
    draws: u64,
}

impl Checked for Counts {
    fn digest(&self) -> u32 {
        digest_words(
            self.rows
                .iter()
                .flat_map(|&(r, row)| std::iter::once(u64::from(r)).chain(row))
                .chain([self.draws, self.rows.len() as u64]),
        )
    }
}

/// A question from worker 0: the value of `position` (owned by `to`), or, if
/// `position == NONE`, "no more questions".
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub(crate) struct Ask {
    pub(super) to: u32,
    pub(super) position: u32,
}

impl Checked for Ask {
    fn digest(&self) -> u32 {
        digest_words([u64::from(self.to), u64::from(self.position)])
    }
}

/// What worker 0 knows once the game is solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outline {
    /// All positions counted by outcome and remoteness.
    pub histogram: Histogram,
    /// The number of indices (positions and unused numbers).
    pub indices: u64,
    /// The rounds of message exchange (see [`Gathered::rounds`](crate::Gathered::rounds)).
    pub rounds: u32,
}

impl Outline {
    /// Counts of each outcome and the longest remoteness, over all positions.
    pub fn summary(&self) -> Summary {
        self.histogram.summary()
    }
}

/// The solution, spread over the workers, as worker 0 sees it: the
/// [`Outline`] and the values of any positions, fetched from their owners.
pub struct Remote<'a> {
    pub(super) worker: &'a mut Worker,
    pub(super) ch: &'a mut Channels,
    pub(super) share: &'a Share,
    pub(super) abort: &'a AtomicBool,
    pub(super) outline: Outline,
    pub(super) failed: Option<Error>,
}

impl Remote<'_> {
    /// What the solve found, over all positions.
    pub fn outline(&self) -> &Outline {
        &self.outline
    }

    /// The values of `positions`, in order (`None` for an index that is not
    /// a position, or is out of range): one batch of questions to the
    /// owners and their answers, two rounds of messages.
    ///
    /// # Errors
    /// If a peer is lost meanwhile ([`Error::Failed`]); the solve then
    /// returns the same error.
    pub fn values(&mut self, positions: &[u32]) -> Result<Vec<Option<Value>>> {
        if self.failed.is_some() {
            return Err(Error::Failed {
                message: "the cluster was lost while answering an earlier question".into(),
            });
        }
        self.ask(positions).map_err(|e| {
            let said = Error::Failed {
                message: e.to_string(),
            };
            self.failed = Some(e);
            said
        })
    }

    /// [`Remote::values`] of one position.
    pub fn value(&mut self, position: u32) -> Result<Option<Value>> {
        Ok(self.values(&[position])?.pop().flatten())
    }

    /// The best move from `v` in `game` (the same game the workers solve,
    /// under the same `rules`), by the order of moves of every engine
    /// ([`kernel::best_of`]): `v`'s moves are generated here and their values
    /// fetched in one batch. `None` for a terminal position or an index that
    /// is not a position.
    ///
    /// # Errors
    /// As [`Remote::values`].
    pub fn best_move<G>(&mut self, game: &G, rules: &Rules, v: u32) -> Result<Option<u32>>
    where
        G: GameGraph + Successors + ?Sized,
    {
        // Out of range, not a position, or terminal: no move to make. The
        // game says so itself; only the moves' values are asked for.
        if u64::from(v) >= self.outline.indices
            || !kernel::start_of(game, v, rules.labels.get(v), rules.no_move).is_open()
        {
            return Ok(None);
        }
        let mut moves: Vec<u32> = Vec::new();
        game.for_each_successor(v, |w| moves.push(w));
        let values = self.values(&moves)?;
        Ok(kernel::best_of(|report| {
            for (&w, value) in moves.iter().zip(&values) {
                let (code, rem) = match value {
                    Some(x) => (
                        kernel::seen(x.outcome as u8, game.same_player(v, w)),
                        x.remoteness.unwrap_or(NONE),
                    ),
                    None => (kernel::ABSENT, NONE),
                };
                report(w, code, rem);
            }
        }))
    }

    /// The line of best play from `v` (see [`retrograde::Answers::line`]):
    /// two rounds of messages a ply (its moves' values).
    ///
    /// # Errors
    /// As [`Remote::values`].
    pub fn line<G>(&mut self, game: &G, rules: &Rules, v: u32, max_plies: usize) -> Result<Line>
    where
        G: GameGraph + Successors + ?Sized,
    {
        let mut failed: Option<Error> = None;
        let cell = std::cell::RefCell::new(self);
        let line = Line::follow(
            v,
            max_plies,
            |w| match cell.borrow_mut().value(w) {
                Ok(x) => x,
                Err(e) => {
                    failed.get_or_insert(e);
                    None
                }
            },
            // A failure is kept in `failed` by `values`, and reported below.
            |w| {
                cell.borrow_mut()
                    .best_move(game, rules, w)
                    .unwrap_or_default()
            },
        );
        let me = cell.into_inner();
        match failed.or_else(|| {
            me.failed.as_ref().map(|e| Error::Failed {
                message: e.to_string(),
            })
        }) {
            Some(e) => Err(e),
            None => Ok(line),
        }
    }

    fn ask(&mut self, positions: &[u32]) -> Result<Vec<Option<Value>>> {
        let peers = self.share.me.peers;
        let n = self.outline.indices;
        for &p in positions {
            if u64::from(p) < n {
                self.ch.asks.send(Ask {
                    to: p % peers,
                    position: p,
                });
            }
        }
        let mut mine: Vec<u32> = Vec::new();
        self.ch
            .asks
            .finish_round(self.worker, self.abort, |a| mine.push(a.position))?;
        for p in mine {
            self.ch.replies.send(self.share.reply(p));
        }
        let mut got: std::collections::HashMap<u32, Option<Value>> =
            std::collections::HashMap::with_capacity(positions.len());
        self.ch.replies.finish_round(self.worker, self.abort, |r| {
            let value = kernel::outcome(r.code).map(|outcome| Value {
                outcome,
                remoteness: (outcome != Outcome::Draw && r.remoteness != NONE)
                    .then_some(r.remoteness),
            });
            got.insert(r.position, value);
        })?;
        Ok(positions
            .iter()
            .map(|p| got.get(p).copied().flatten())
            .collect())
    }
}

/// Step 3: every worker's counts to worker 0, which returns the outline.
pub(super) fn outline(
    worker: &mut Worker,
    ch: &mut Channels,
    share: &Share,
    indices: u64,
    rounds: u32,
    abort: &AtomicBool,
) -> Result<Option<Outline>> {
    let mut mine = HistogramCounter::default();
    for (t, &s) in share.state.iter().enumerate() {
        let Some(o) = kernel::outcome(s) else {
            continue;
        };
        mine.count(Value::new(o, share.plies.get(t)));
    }
    let mine = mine.finish();
    ch.counts.send(Counts {
        rows: mine.by_remoteness.into_iter().collect(),
        draws: mine.draws,
    });
    let mut all = Histogram::default();
    ch.counts.finish_round(worker, abort, |c| {
        all.add(&Histogram {
            by_remoteness: c.rows.into_iter().collect(),
            draws: c.draws,
        })
    })?;
    Ok((worker.index() == 0).then_some(Outline {
        histogram: all,
        indices,
        rounds,
    }))
}

/// Step 4, on every worker but worker 0: answer questions until told to stop.
pub(super) fn serve(
    worker: &mut Worker,
    ch: &mut Channels,
    share: &Share,
    abort: &AtomicBool,
) -> Result<()> {
    loop {
        let mut asked: Vec<u32> = Vec::new();
        let mut stop = false;
        ch.asks.finish_round(worker, abort, |a| {
            if a.position == NONE {
                stop = true;
            } else {
                asked.push(a.position);
            }
        })?;
        if stop {
            return Ok(());
        }
        for p in asked {
            ch.replies.send(share.reply(p));
        }
        ch.replies.finish_round(worker, abort, |_| {})?;
    }
}
