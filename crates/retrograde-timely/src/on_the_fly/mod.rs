//! A game solved where its moves are generated: every worker asks the game
//! (any [`GameGraph`]: a dense [`Game`](retrograde::Game) through
//! [`AsGraph`](retrograde::game::AsGraph), or a mapped binary graph) for the
//! out-degrees and reverse moves of its own positions only. No edge is stored
//! or exchanged up front; nobody holds the whole game.
//!
//! Position `v` belongs to worker `v % peers`, at local index `v / peers`.
//! The owner keeps, in the lean engine's layout
//! ([`retrograde::solve::layout`]), a state byte (the move counter packed
//! into it while undecided, when every out-degree is at most 250; a `u32`
//! counter beside it otherwise) and a `u16` remoteness (widened
//! to `u32` if best play reaches 65535 plies): 3 bytes a position, plus the
//! local indices of the current and the next ply.
//!
//! Rounds are plies, as in the edge-list engine: the positions decided with
//! remoteness `r` generate their reverse moves and send each predecessor's
//! owner the predecessor with their state, in batches of 4096 a worker; the owner applies the rule of
//! [`retrograde::kernel`]. A predecessor this worker owns is updated at once,
//! without a message. Best moves are not stored (as in the lean engine); the
//! values equal the sequential solver's exactly.
//!
//! After the solve the answers stay where they are. Worker 0 merges the
//! [`Summary`](retrograde::Summary) and then runs the caller's closure with a [`Remote`], which
//! fetches the values of any positions from their owners (two rounds of
//! messages a batch) while the other workers answer.

mod remote;
mod share;

pub use remote::{Outline, Remote};
pub use share::{BYTES_PER_POSITION, share_bytes};

use std::sync::atomic::AtomicBool;

use retrograde::graph::NONE;
use retrograde::kernel::{self, Effects, Phase};
use retrograde::{GameGraph, Rules};
use serde::{Deserialize, Serialize};
use timely::worker::Worker;

use crate::channel::{Channel, Checked, PUMP_EVERY, Watch, check, digest_bytes, digest_words};
use crate::engine::Me;
use crate::error::Result;
use remote::{Ask, Counts, outline, serve};
use share::{Reply, Share};

/// "These positions of yours have a successor decided, with these state
/// codes": a batch of reverse moves for worker `to`. A batch with
/// `active` set (and perhaps nothing else) is a heartbeat: the sender still
/// had positions to spread this round.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(crate) struct Hits {
    to: u32,
    active: bool,
    /// In the first round: the sender has terminal ties, so the tie phase
    /// must run everywhere.
    ties: bool,
    preds: Vec<u32>,
    codes: Vec<u8>,
}

impl Checked for Hits {
    fn digest(&self) -> u32 {
        let mut bytes: Vec<u8> = Vec::with_capacity(self.preds.len() * 4 + self.codes.len());
        for p in &self.preds {
            bytes.extend_from_slice(&p.to_le_bytes());
        }
        bytes.extend_from_slice(&self.codes);
        digest_words([
            u64::from(self.to),
            u64::from(self.active),
            u64::from(self.ties),
            self.preds.len() as u64,
            u64::from(digest_bytes(&bytes)),
        ])
    }
}

impl Hits {
    /// An empty batch for worker `to`.
    fn empty(to: u32) -> Hits {
        Hits {
            to,
            ..Hits::default()
        }
    }
}

/// Reverse moves per batch: large enough that a batch's envelope and
/// checksum cost little per move, small enough to keep workers busy.
const BATCH: usize = 4096;

/// The batches being filled, one per worker.
struct Outbox {
    batches: Vec<Hits>,
}

impl Outbox {
    fn new(peers: u32) -> Outbox {
        Outbox {
            batches: (0..peers).map(Hits::empty).collect(),
        }
    }

    /// Adds a reverse move for worker `to`; sends the batch when full.
    #[inline]
    fn push(&mut self, ch: &mut Channel<Hits>, to: u32, pred: u32, code: u8) {
        let b = &mut self.batches[to as usize];
        b.preds.push(pred);
        b.codes.push(code);
        if b.preds.len() >= BATCH {
            self.send(ch, to, false);
        }
    }

    /// Sends worker `to`'s batch, marked `active` or not, and starts an
    /// empty one (kept out of the loop that fills the batches).
    #[cold]
    #[inline(never)]
    fn send(&mut self, ch: &mut Channel<Hits>, to: u32, active: bool) {
        let full = std::mem::replace(&mut self.batches[to as usize], Hits::empty(to));
        ch.send(Hits { active, ..full });
    }

    /// Sends every batch that holds something, or to every worker if
    /// `active` (the heartbeat).
    fn flush(&mut self, ch: &mut Channel<Hits>, active: bool) {
        for to in 0..self.batches.len() as u32 {
            if active || !self.batches[to as usize].preds.is_empty() {
                self.send(ch, to, active);
            }
        }
    }
}

/// The dataflows every worker creates, in the same order.
pub(crate) struct Channels {
    hits: Channel<Hits>,
    counts: Channel<Counts>,
    asks: Channel<Ask>,
    replies: Channel<Reply>,
}

impl Channels {
    fn new(worker: &mut Worker, watch: Watch) -> Channels {
        Channels {
            hits: Channel::new(worker, "moves", |h: &Hits| u64::from(h.to), watch)
                .pump_every(PUMP_EVERY / BATCH),
            counts: Channel::new(worker, "counts", |_: &Counts| 0, watch),
            asks: Channel::new(worker, "questions", |a: &Ask| u64::from(a.to), watch),
            replies: Channel::new(worker, "answers", |_: &Reply| 0, watch),
        }
    }
}

/// Runs one worker to the end. Worker 0 runs `answer` with the solution
/// and returns what it returns; the others `None`.
pub(crate) fn run_worker<G, T, F>(
    worker: &mut Worker,
    g: &G,
    rules: &Rules,
    watch: Watch,
    abort: &AtomicBool,
    limit: Option<crate::memory::Limit>,
    answer: Option<F>,
) -> Result<Option<T>>
where
    G: GameGraph + ?Sized,
    F: FnOnce(&mut Remote<'_>) -> T,
{
    let me = Me {
        peers: worker.peers() as u32,
        me: worker.index() as u32,
    };
    let mut ch = Channels::new(worker, watch);
    let mut memory = crate::memory::channel(worker, watch);
    rules
        .check(g.vertex_count())
        .map_err(retrograde::Error::from)?;
    let positions = g.vertex_count() as u64;
    crate::memory::agree(
        worker,
        &mut memory,
        abort,
        limit,
        |l| share_bytes(positions, l.processes, l.threads),
        positions,
        None,
    )?;
    drop(memory);
    let (mut share, levels) = Share::start(g, rules, me)?;
    let rounds = solve_rounds(worker, &mut ch, g, &mut share, levels, abort)?;
    for s in share.state.iter_mut() {
        *s = kernel::undecided_to_draw(*s);
    }
    share.counters = None;
    let outline = outline(
        worker,
        &mut ch,
        &share,
        g.vertex_count() as u64,
        rounds,
        abort,
    )?;
    let result = match (outline, answer) {
        (Some(outline), Some(answer)) => {
            let mut remote = Remote {
                worker,
                ch: &mut ch,
                share: &share,
                abort,
                outline,
                failed: None,
            };
            let t = answer(&mut remote);
            if let Some(e) = remote.failed.take() {
                return Err(e);
            }
            // No more questions.
            for k in 0..me.peers {
                remote.ch.asks.send(Ask {
                    to: k,
                    position: NONE,
                });
            }
            remote.ch.asks.finish_round(remote.worker, abort, |_| {})?;
            Some(t)
        }
        _ => {
            serve(worker, &mut ch, &share, abort)?;
            None
        }
    };
    drop(ch);
    while worker.has_dataflows() {
        check(abort)?;
        worker.step_or_park(Some(std::time::Duration::from_millis(20)));
    }
    Ok(result)
}

/// Step 2: one round per ply in each phase, as in the edge-list engine; a
/// heartbeat to every worker says "not done yet", a round without any ends
/// the phase everywhere. The tie phase runs if any worker has a terminal tie
/// (a label's or the game's own), which each says in the first round.
/// Returns the number of rounds.
fn solve_rounds<G: GameGraph + ?Sized>(
    worker: &mut Worker,
    ch: &mut Channels,
    g: &G,
    share: &mut Share,
    levels: [Vec<u32>; 2],
    abort: &AtomicBool,
) -> Result<u32> {
    let me = share.me;
    let peers = me.peers;
    let mut rounds = 0;
    let [win_lose, ties] = levels;
    let mut heard = Heard {
        active: false,
        ties: !ties.is_empty(),
    };
    let has_ties = heard.ties;
    let mut next: Vec<u32> = Vec::new();
    let mut outbox = Outbox::new(peers);
    for (phase, mut level) in Phase::BOTH.into_iter().zip([win_lose, ties]) {
        if phase == Phase::Tie && !heard.ties {
            break;
        }
        let mut round: u32 = 0;
        loop {
            share.plies.fit(round + 1);
            heard.active = false;
            if phase == Phase::WinLose && round == 0 && has_ties {
                for to in 0..peers {
                    ch.hits.send(Hits {
                        ties: true,
                        ..Hits::empty(to)
                    });
                }
            }
            if peers == 1 {
                // One worker owns everything: the lean engine's loop.
                for &t in &level {
                    let effects = Effects::of(share.state[t as usize], g.owner(t));
                    g.for_each_predecessor(t, |p| {
                        if share.hit(p as usize, effects.on(g.owner(p)), round) {
                            next.push(p);
                        }
                    });
                }
            } else {
                for &t in &level {
                    let t = t as usize;
                    let (u, code) = (me.global(t), share.state[t]);
                    let owner = g.owner(u);
                    let effects = Effects::of(code, owner);
                    g.for_each_predecessor(u, |p| {
                        let p_owner = g.owner(p);
                        if me.owns(p) {
                            let pt = p / peers;
                            if share.hit(pt as usize, effects.on(p_owner), round) {
                                next.push(pt);
                            }
                        } else {
                            // The code as p's mover sees it: the receiver
                            // applies it as it comes.
                            let seen = kernel::seen(code, kernel::same_player(p_owner, owner));
                            outbox.push(&mut ch.hits, p % peers, p, seen);
                        }
                    });
                    if ch.hits.should_pump() {
                        ch.hits.pump(worker, abort, |h| {
                            absorb(share, &mut next, &mut heard, h, round)
                        })?;
                    }
                }
            }
            outbox.flush(&mut ch.hits, !level.is_empty());
            ch.hits.finish_round(worker, abort, |h| {
                absorb(share, &mut next, &mut heard, h, round)
            })?;
            rounds += 1;
            if !heard.active {
                break;
            }
            level.clear();
            std::mem::swap(&mut level, &mut next);
            round += 1;
        }
        next.clear();
    }
    Ok(rounds)
}

/// What the batches of a round said besides their moves.
struct Heard {
    /// Some worker still had positions to spread.
    active: bool,
    /// Some worker has terminal ties.
    ties: bool,
}

/// A batch received in round `round`: its reverse moves, and what it says.
#[inline]
fn absorb(share: &mut Share, next: &mut Vec<u32>, heard: &mut Heard, h: Hits, round: u32) {
    heard.active |= h.active;
    heard.ties |= h.ties;
    for (&p, &code) in h.preds.iter().zip(&h.codes) {
        let t = p / share.me.peers;
        if share.hit(t as usize, kernel::effect(code), round) {
            next.push(t);
        }
    }
}
