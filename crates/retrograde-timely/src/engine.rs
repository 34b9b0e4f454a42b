//! The work of one timely worker: read a shard, own a share of the vertices,
//! solve round by round, and send the result to worker 0.
//!
//! Vertex `v` belongs to worker `v % peers`, at local index `v / peers`. The
//! owner keeps the vertex's predecessors (its reverse-adjacency row), its
//! out-degree counter, state, remoteness and best move; nobody else does.
//!
//! Rounds are plies: in round `r`, every position decided with remoteness `r`
//! sends a [`Move`] to the owner of each of its predecessors ("your successor
//! was decided, as this"). The owner applies the rule of
//! [`retrograde::kernel`] to each message; what it decides has remoteness
//! `r + 1` and speaks in round `r + 1`. Wins and losses first, then, if any
//! label is a tie, ties from the terminal ties. The order in which messages
//! arrive within a round changes nothing (the kernel's order of moves breaks
//! ties by id), so outcomes, remoteness and best moves equal the sequential
//! solver's exactly.
//!
//! The steps, one function each: [`read_shard`], [`agree_on_totals`],
//! [`Share::build`], [`solve_rounds`], [`finish_draws`], [`gather`], [`close`].

use std::sync::atomic::AtomicBool;

use retrograde::graph::NONE;
use retrograde::kernel::{self, Bookkeeping, DRAW, Phase, UNDECIDED};
use retrograde::{Outcome, Player, Rules, Solution};
use timely::worker::Worker;

use crate::channel::{Channel, Watch};
use crate::error::{Error, Result};
use crate::input::EdgeShards;
use crate::memory::{BUFFER_BYTES, Limit};
use crate::wire::{CHUNK, Chunk, Move, Report, WireError};

/// What process 0 gets back: the solution gathered from every worker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gathered {
    /// The solution, for every position.
    pub solution: Solution,
    /// The number of edges (moves) read, parallel edges counted.
    pub edges: u64,
    /// The number of rounds of message exchange: for each phase run (wins
    /// and losses; ties when a label is a tie), its longest remoteness + 2
    /// (the last round finds nothing left to decide), 1 if nothing is decided.
    pub rounds: u32,
}

/// The dataflows every worker creates, in the same order.
struct Channels {
    edges: Channel<(u32, u32)>,
    sources: Channel<u32>,
    reports: Channel<Report>,
    moves: Channel<Move>,
    draws: Channel<(u32, u32)>,
    gather: Channel<Chunk>,
}

impl Channels {
    fn new(worker: &mut Worker, watch: Watch) -> Channels {
        Channels {
            edges: Channel::new(worker, "edges", |e: &(u32, u32)| u64::from(e.1), watch),
            sources: Channel::new(worker, "degrees", |&u: &u32| u64::from(u), watch),
            reports: Channel::new(worker, "reports", |r: &Report| u64::from(r.to), watch),
            moves: Channel::new(worker, "moves", |m: &Move| u64::from(m.pred), watch),
            draws: Channel::new(worker, "draws", |d: &(u32, u32)| u64::from(d.0), watch),
            gather: Channel::new(worker, "results", |_: &Chunk| 0, watch),
        }
    }
}

/// Who this worker is: vertex `v` is worker `v % peers`'s, at local index
/// `v / peers` (in both engines).
#[derive(Clone, Copy)]
pub(crate) struct Me {
    pub peers: u32,
    pub me: u32,
}

impl Me {
    #[inline]
    pub fn global(self, t: usize) -> u32 {
        t as u32 * self.peers + self.me
    }

    #[inline]
    pub fn local(self, v: u32) -> usize {
        (v / self.peers) as usize
    }

    /// Whether this worker owns `v`.
    #[inline]
    pub fn owns(self, v: u32) -> bool {
        v % self.peers == self.me
    }

    /// How many of the vertices `0..n` this worker owns.
    pub fn owned(self, n: u64) -> usize {
        let me = u64::from(self.me);
        if n > me {
            ((n - 1 - me) / u64::from(self.peers) + 1) as usize
        } else {
            0
        }
    }
}

/// What reading this worker's shard gave it.
struct Read {
    /// Edges `(local target, predecessor)` of the vertices it owns.
    pairs: Vec<(u32, u32)>,
    /// The out-degrees of the vertices it owns.
    degree: Vec<u32>,
    /// What it tells the others.
    report: Report,
}

/// This worker's vertices.
struct Share {
    me: Me,
    /// Reverse rows: `preds[offsets[t]..offsets[t + 1]]` move into local vertex `t`.
    offsets: Vec<u64>,
    preds: Vec<u32>,
    counter: Vec<u32>,
    state: Vec<u8>,
    rem: Vec<u32>,
    best: Vec<u32>,
}

/// The memory process `process` of `processes` (each of `threads` workers)
/// needs for its share of a graph of `vertices` and `edges`, at its peak:
/// per worker, its edges as pairs while its reverse rows are built (12
/// bytes an edge), 21 bytes a vertex it owns (offsets, counter, state,
/// remoteness, best move), buffers; process 0 also gathers the solution (9
/// bytes a vertex). Edges are taken to be spread evenly over the targets.
pub fn graph_share_bytes(
    vertices: u64,
    edges: u64,
    processes: usize,
    threads: usize,
    process: usize,
) -> u64 {
    let workers = (processes.max(1) as u64).saturating_mul(threads.max(1) as u64);
    let per_worker = edges
        .div_ceil(workers)
        .saturating_mul(12)
        .saturating_add(vertices.div_ceil(workers).saturating_mul(21))
        .saturating_add(BUFFER_BYTES);
    let gather = if process == 0 {
        vertices.saturating_mul(9)
    } else {
        0
    };
    (threads.max(1) as u64)
        .saturating_mul(per_worker)
        .saturating_add(gather)
}

/// Runs one worker to the end. Worker 0 returns the solution, the others `None`.
/// Every worker must call this (it creates the same dataflows everywhere).
pub(crate) fn run_worker<S: EdgeShards + ?Sized>(
    worker: &mut Worker,
    source: &S,
    owners: Option<&[Player]>,
    rules: &Rules,
    watch: Watch,
    abort: &AtomicBool,
    limit: Option<Limit>,
) -> Result<Option<Gathered>> {
    let mut memory = crate::memory::channel(worker, watch);
    let need =
        |v: u64, e: u64| move |l: Limit| graph_share_bytes(v, e, l.processes, l.threads, l.process);
    // A source that declares its size is checked before anything is read.
    if let (Some(v), Some(e)) = (source.declared_vertices(), source.declared_edges()) {
        let v = v as u64;
        crate::memory::agree(worker, &mut memory, abort, limit, need(v, e), v, Some(e))?;
    }
    let me = Me {
        peers: worker.peers() as u32,
        me: worker.index() as u32,
    };
    let mut ch = Channels::new(worker, watch);
    let read = read_shard(worker, &mut ch, source, me, abort)?;
    let (n, edges) = agree_on_totals(worker, &mut ch, source, rules, read.report.clone(), abort)?;
    crate::memory::agree(
        worker,
        &mut memory,
        abort,
        limit,
        need(n, edges),
        n,
        Some(edges),
    )?;
    drop(memory);
    if let Some(owners) = owners {
        // Every process has the same owners: all agree on this.
        if owners.len() as u64 != n {
            return Err(retrograde::Error::OwnerCount {
                owners: owners.len() as u64,
                vertices: n,
            }
            .into());
        }
    }
    let (mut share, terminals) = Share::build(me, n, read, rules);
    let any_tie = rules.labels.iter().any(|(_, o)| o == Outcome::Tie);
    let rounds = solve_rounds(
        worker, &mut ch, &mut share, terminals, any_tie, owners, abort,
    )?;
    finish_draws(worker, &mut ch, &mut share, abort)?;
    let full = gather(worker, &mut ch, share, n, abort)?;
    close(worker, ch, abort)?;
    match full {
        Some((s, r, b)) => Ok(Some(Gathered {
            solution: Solution::try_from_arrays(s, r, b).map_err(retrograde::Error::from)?,
            edges,
            rounds,
        })),
        None => Ok(None),
    }
}

/// Step 1: reads this worker's shard. Each edge goes to the owner of its
/// target (for its reverse row), its source to the owner of the source (its
/// out-degree).
fn read_shard<S: EdgeShards + ?Sized>(
    worker: &mut Worker,
    ch: &mut Channels,
    source: &S,
    me: Me,
    abort: &AtomicBool,
) -> Result<Read> {
    let peers = me.peers;
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    let mut degree: Vec<u32> = Vec::new();
    let mut overflow: Option<u32> = None;
    let mut take_edge = |(u, v): (u32, u32)| pairs.push((v / peers, u));
    let mut take_source = |u: u32| {
        let t = (u / peers) as usize;
        if t >= degree.len() {
            degree.resize(t + 1, 0);
        }
        degree[t] = degree[t].saturating_add(1);
        if degree[t] == u32::MAX {
            overflow = Some(overflow.map_or(u, |o| o.min(u)));
        }
    };
    let mut largest: Option<u32> = None;
    let mut count = 0u64;
    let mut failure: Option<Error> = None;
    let Channels { edges, sources, .. } = ch;
    let read = source.for_each_edge_in_shard(me.me as usize, peers as usize, |u, v| {
        if failure.is_some() {
            return;
        }
        // What this worker owns needs no message.
        if me.owns(v) {
            take_edge((u, v));
        } else {
            edges.send((u, v));
        }
        if me.owns(u) {
            take_source(u);
        } else {
            sources.send(u);
        }
        largest = Some(largest.map_or(u.max(v), |l| l.max(u).max(v)));
        count += 1;
        if edges.should_pump() || sources.should_pump() {
            let r = edges
                .pump(worker, abort, &mut take_edge)
                .and_then(|()| sources.pump(worker, abort, &mut take_source));
            failure = r.err();
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    edges.close_round();
    sources.close_round();
    edges.wait_round(worker, abort, &mut take_edge)?;
    sources.wait_round(worker, abort, &mut take_source)?;
    let report = Report {
        to: 0,
        from: me.me,
        vertices: largest.map_or(0, |l| u64::from(l) + 1),
        edges: count,
        error: read.as_ref().err().map(WireError::new),
        overflow,
    };
    Ok(Read {
        pairs,
        degree,
        report,
    })
}

/// Step 2: every worker tells every other how its shard went, so that all
/// know the vertex count, the edge count and the first error (the same typed
/// error in every process). Returns the vertex and edge counts.
fn agree_on_totals<S: EdgeShards + ?Sized>(
    worker: &mut Worker,
    ch: &mut Channels,
    source: &S,
    rules: &Rules,
    report: Report,
    abort: &AtomicBool,
) -> Result<(u64, u64)> {
    for k in 0..worker.peers() as u32 {
        ch.reports.send(Report {
            to: k,
            ..report.clone()
        });
    }
    let mut all: Vec<Report> = Vec::with_capacity(worker.peers());
    ch.reports.finish_round(worker, abort, |r| all.push(r))?;
    all.sort_by_key(|r| r.from);
    if let Some(e) = all.iter().find_map(|r| r.error.clone()) {
        return Err(e.into_error());
    }
    if let Some(u) = all.iter().filter_map(|r| r.overflow).min() {
        return Err(Error::Input(retrograde::Error::TooManyMoves { vertex: u }));
    }
    let edges: u64 = all.iter().map(|r| r.edges).sum();
    let n: u64 = match source.declared_vertices() {
        Some(n) => n as u64,
        None => {
            let from_edges = all.iter().map(|r| r.vertices).max().unwrap_or(0);
            let from_labels = rules.labels.max_vertex().map_or(0, |v| u64::from(v) + 1);
            from_edges
                .max(from_labels)
                .max(source.min_vertices() as u64)
        }
    };
    rules.check(n as usize).map_err(retrograde::Error::from)?;
    Ok((n, edges))
}

impl Share {
    /// Step 3: this worker's share: reverse rows by counting sort, counters,
    /// and the terminal positions by the kernel's precedence. Returns the
    /// share and the local terminal positions of each phase.
    fn build(me: Me, n: u64, read: Read, rules: &Rules) -> (Share, [Vec<u32>; 2]) {
        let Read {
            pairs, mut degree, ..
        } = read;
        let m = me.owned(n);
        let (offsets, preds) =
            retrograde::graph::counting_sort(m, pairs.iter().map(|&(t, u)| (t as usize, u)));
        drop(pairs);
        degree.resize(m, 0);
        let mut share = Share {
            me,
            offsets,
            preds,
            counter: degree,
            state: vec![UNDECIDED; m],
            rem: vec![NONE; m],
            best: vec![NONE; m],
        };
        let mut terminals: [Vec<u32>; 2] = [Vec::new(), Vec::new()];
        let mut labels = rules
            .labels
            .iter()
            .filter(|&(v, _)| v % me.peers == me.me)
            .peekable();
        for t in 0..m {
            let v = me.global(t);
            let label = labels.next_if(|&(l, _)| l == v).map(|(_, o)| o);
            let start = kernel::start(true, label, None, || share.counter[t], rules.no_move);
            share.state[t] = start.code;
            if let Some(phase) = kernel::phase(start.code) {
                share.rem[t] = 0;
                terminals[phase as usize].push(t as u32);
            }
        }
        (share, terminals)
    }

    /// The kernel's rule for one move `pred -> succ` in round `round`
    /// (`succ` has remoteness `round`); true if it decides `pred`.
    #[inline]
    fn apply(&mut self, m: Move, round: u32) -> bool {
        let t = self.me.local(m.pred);
        Bookkeeping {
            state: &mut self.state[t],
            counter: &mut self.counter[t],
            remoteness: &mut self.rem[t],
            best: &mut self.best[t],
        }
        .successor_decided(m.succ, m.code, round)
    }
}

/// Step 4: one round per ply, in each phase. Positions decided with
/// remoteness `round` tell their predecessors; a heartbeat to every worker
/// says "not done yet"; a round without heartbeats ends the phase everywhere.
/// The tie phase runs only if a label is a tie (every process has the same
/// labels, so all agree). Returns the number of rounds.
fn solve_rounds(
    worker: &mut Worker,
    ch: &mut Channels,
    share: &mut Share,
    terminals: [Vec<u32>; 2],
    any_tie: bool,
    owners: Option<&[Player]>,
    abort: &AtomicBool,
) -> Result<u32> {
    let peers = share.me.peers;
    let mut rounds = 0;
    let [win_lose, ties] = terminals;
    for (phase, mut frontier) in Phase::BOTH.into_iter().zip([win_lose, ties]) {
        if phase == Phase::Tie && !any_tie {
            break;
        }
        let mut round: u32 = 0;
        loop {
            let mut next: Vec<u32> = Vec::new();
            let mut active = false;
            let mut take = |share: &mut Share, m: Move| {
                if m.succ == NONE {
                    active = true;
                } else if share.apply(m, round) {
                    next.push(share.me.local(m.pred) as u32);
                }
            };
            for &t in &frontier {
                let t = t as usize;
                let (succ, code) = (share.me.global(t), share.state[t]);
                for j in share.offsets[t]..share.offsets[t + 1] {
                    let pred = share.preds[j as usize];
                    // The code as pred's mover sees it (see kernel::seen).
                    let code = match owners {
                        Some(o) => kernel::seen(code, o[pred as usize] == o[succ as usize]),
                        None => code,
                    };
                    let m = Move { pred, succ, code };
                    // A predecessor of this worker's needs no message.
                    if share.me.owns(m.pred) {
                        take(share, m);
                        continue;
                    }
                    ch.moves.send(m);
                    if ch.moves.should_pump() {
                        ch.moves.pump(worker, abort, |m| take(share, m))?;
                    }
                }
            }
            if !frontier.is_empty() {
                for k in 0..peers {
                    ch.moves.send(Move {
                        pred: k,
                        succ: NONE,
                        code: 0,
                    });
                }
            }
            ch.moves.finish_round(worker, abort, |m| take(share, m))?;
            rounds += 1;
            if !active {
                break;
            }
            frontier = next;
            round += 1;
        }
    }
    Ok(rounds)
}

/// Step 5: what is left undecided is a draw; its best move is its smallest
/// draw successor (the kernel's order among draws), which only the
/// successor's owner knows: each draw tells its predecessors.
fn finish_draws(
    worker: &mut Worker,
    ch: &mut Channels,
    share: &mut Share,
    abort: &AtomicBool,
) -> Result<()> {
    for t in 0..share.state.len() {
        if share.state[t] == UNDECIDED {
            share.rem[t] = NONE;
            share.best[t] = NONE;
        }
    }
    let take_draw = |share: &mut Share, (p, w): (u32, u32)| {
        let t = share.me.local(p);
        if share.state[t] == UNDECIDED && (share.best[t] == NONE || w < share.best[t]) {
            share.best[t] = w;
        }
    };
    for t in 0..share.state.len() {
        if share.state[t] == DRAW || share.state[t] == UNDECIDED {
            let w = share.me.global(t);
            for j in share.offsets[t]..share.offsets[t + 1] {
                let p = share.preds[j as usize];
                if share.me.owns(p) {
                    take_draw(share, (p, w));
                    continue;
                }
                ch.draws.send((p, w));
                if ch.draws.should_pump() {
                    ch.draws.pump(worker, abort, |d| take_draw(share, d))?;
                }
            }
        }
    }
    ch.draws
        .finish_round(worker, abort, |d| take_draw(share, d))?;
    for s in share.state.iter_mut() {
        *s = kernel::undecided_to_draw(*s);
    }
    Ok(())
}

/// The arrays worker 0 assembles: outcome codes, remoteness, best moves.
type Arrays = (Vec<u8>, Vec<u32>, Vec<u32>);

/// Step 6: every worker sends its results to worker 0, in chunks; worker 0
/// returns the whole arrays.
fn gather(
    worker: &mut Worker,
    ch: &mut Channels,
    share: Share,
    n: u64,
    abort: &AtomicBool,
) -> Result<Option<Arrays>> {
    let Share {
        me,
        state,
        rem,
        best,
        ..
    } = share;
    let p64 = u64::from(me.peers);
    let mut full = (me.me == 0).then(|| {
        (
            vec![Outcome::Draw as u8; n as usize],
            vec![NONE; n as usize],
            vec![NONE; n as usize],
        )
    });
    let mut take_chunk = |c: Chunk| {
        if let Some((fs, fr, fb)) = full.as_mut() {
            let (w, start) = (u64::from(c.worker), u64::from(c.start));
            for j in 0..c.outcomes.len() {
                let v = ((start + j as u64) * p64 + w) as usize;
                fs[v] = c.outcomes[j];
                fr[v] = c.remoteness[j];
                fb[v] = c.best[j];
            }
        }
    };
    for start in (0..state.len()).step_by(CHUNK) {
        let end = (start + CHUNK).min(state.len());
        ch.gather.send(Chunk {
            worker: me.me,
            start: start as u32,
            outcomes: state[start..end].to_vec(),
            remoteness: rem[start..end].to_vec(),
            best: best[start..end].to_vec(),
        });
        ch.gather.pump(worker, abort, &mut take_chunk)?;
    }
    drop((state, rem, best));
    ch.gather.finish_round(worker, abort, &mut take_chunk)?;
    Ok(full)
}

/// Step 7: closes every input and lets the dataflows finish everywhere.
fn close(worker: &mut Worker, ch: Channels, abort: &AtomicBool) -> Result<()> {
    drop(ch);
    while worker.has_dataflows() {
        crate::channel::check(abort)?;
        worker.step_or_park(Some(std::time::Duration::from_millis(20)));
    }
    Ok(())
}
