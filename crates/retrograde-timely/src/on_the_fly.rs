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
//! [`Summary`] and then runs the caller's closure with a [`Remote`], which
//! fetches the values of any positions from their owners (two rounds of
//! messages a batch) while the other workers answer.

use std::sync::atomic::AtomicBool;

use retrograde::graph::NONE;
use retrograde::kernel::{self, Effect, Phase, UNDECIDED};
use retrograde::solve::layout::{self, Counters, Packed, Wide};
use retrograde::solve::Remoteness;
use retrograde::{
    GameGraph, Histogram, HistogramCounter, Line, Outcome, Rules, Successors, Summary, Value,
};
use serde::{Deserialize, Serialize};
use timely::worker::Worker;

use crate::channel::{check, digest_bytes, digest_words, Channel, Checked, Watch, PUMP_EVERY};
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
    to: u32,
    position: u32,
}

impl Checked for Ask {
    fn digest(&self) -> u32 {
        digest_words([u64::from(self.to), u64::from(self.position)])
    }
}

/// The owner's answer: `position`'s state code and remoteness (`NONE` if none).
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub(crate) struct Reply {
    position: u32,
    code: u8,
    remoteness: u32,
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

/// This worker's positions.
struct Share {
    me: Me,
    /// Final codes; while undecided, the move counter packed
    /// ([`layout::pack`]), or `UNDECIDED` with the count in `counters`.
    state: Vec<u8>,
    counters: Option<Wide>,
    plies: Remoteness,
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
    fn start<G: GameGraph + ?Sized>(
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
    fn hit(&mut self, t: usize, effect: Effect, round: u32) -> bool {
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
    fn reply(&self, position: u32) -> Reply {
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
    worker: &'a mut Worker,
    ch: &'a mut Channels,
    share: &'a Share,
    abort: &'a AtomicBool,
    outline: Outline,
    failed: Option<Error>,
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
                    Some(x) => (x.outcome as u8, x.remoteness.unwrap_or(NONE)),
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
                    let effect = kernel::effect(share.state[t as usize]);
                    g.for_each_predecessor(t, |p| {
                        if share.hit(p as usize, effect, round) {
                            next.push(p);
                        }
                    });
                }
            } else {
                for &t in &level {
                    let t = t as usize;
                    let (u, code) = (me.global(t), share.state[t]);
                    let effect = kernel::effect(code);
                    g.for_each_predecessor(u, |p| {
                        if me.owns(p) {
                            let pt = p / peers;
                            if share.hit(pt as usize, effect, round) {
                                next.push(pt);
                            }
                        } else {
                            outbox.push(&mut ch.hits, p % peers, p, code);
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

/// Step 3: every worker's counts to worker 0, which returns the outline.
fn outline(
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
fn serve(worker: &mut Worker, ch: &mut Channels, share: &Share, abort: &AtomicBool) -> Result<()> {
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
