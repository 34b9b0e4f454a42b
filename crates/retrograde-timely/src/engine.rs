//! The work of one timely worker: read a shard, own a share of the vertices,
//! solve round by round, and send the result to worker 0.
//!
//! Vertex `v` belongs to worker `v % peers`, at local index `v / peers`. The
//! owner keeps the vertex's predecessors (its reverse-adjacency row), its
//! out-degree counter, state, remoteness and best move; nobody else does.
//!
//! Rounds are plies: in round `r`, every position decided with remoteness `r`
//! sends a [`Move`] to the owner of each of its predecessors ("your successor
//! became Lose / Win"). The owner applies the sequential solver's rule to each
//! message; what it decides has remoteness `r + 1` and speaks in round
//! `r + 1`. The order in which messages arrive within a round changes nothing
//! (ties go to the smallest id), so outcomes, remoteness and best moves equal
//! the sequential solver's exactly.

use std::sync::atomic::AtomicBool;

use retrograde::graph::NONE;
use retrograde::{Outcome, Rules, Solution};
use serde::{Deserialize, Serialize};
use timely::worker::Worker;

use crate::channel::Channel;
use crate::error::{Error, Result};
use crate::input::EdgeShards;

const WIN: u8 = Outcome::Win as u8;
const LOSE: u8 = Outcome::Lose as u8;
const DRAW: u8 = Outcome::Draw as u8;
const UNDECIDED: u8 = 3;

/// What process 0 gets back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    /// The solution, for every position.
    pub solution: Solution,
    /// The number of edges (moves) read, parallel edges counted.
    pub edges: u64,
    /// The number of rounds of message exchange: the longest remoteness + 2
    /// (the last round finds nothing left to decide), 1 if nothing is decided.
    pub rounds: u32,
}

/// "Your successor `succ` is decided": sent to the owner of `pred`.
/// `succ == NONE` is a heartbeat instead: the sender still had work this round.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
struct Move {
    pred: u32,
    succ: u32,
    lost: bool,
}

/// An input error, in a form that travels between processes.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct WireError {
    path: String,
    line: Option<u64>,
    message: String,
    display: String,
}

impl WireError {
    fn new(e: &retrograde::Error) -> WireError {
        let (path, line, message) = match e {
            retrograde::Error::Parse {
                path,
                position: retrograde::Position::Line(l),
                message,
            } => (path.display().to_string(), Some(*l), message.clone()),
            _ => (String::new(), None, String::new()),
        };
        WireError {
            path,
            line,
            message,
            display: e.to_string(),
        }
    }

    fn into_error(self) -> retrograde::Error {
        match self.line {
            Some(l) => retrograde::Error::at_line(self.path, l, self.message),
            None => retrograde::Error::Invalid(self.display),
        }
    }
}

/// What each worker tells every other once its shard is read.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Report {
    to: u32,
    from: u32,
    /// The largest id seen + 1 (0 if none).
    vertices: u64,
    edges: u64,
    error: Option<WireError>,
    /// A vertex of this worker with too many moves for a `u32` counter.
    overflow: Option<u32>,
}

/// A slice of one worker's results, for worker 0.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Chunk {
    worker: u32,
    start: u32,
    outcomes: Vec<u8>,
    remoteness: Vec<u32>,
    best: Vec<u32>,
}

const CHUNK: usize = 1 << 16;

/// This worker's vertices.
struct Share {
    peers: u32,
    me: u32,
    /// Reverse rows: `preds[offsets[t]..offsets[t + 1]]` move into local vertex `t`.
    offsets: Vec<u64>,
    preds: Vec<u32>,
    counter: Vec<u32>,
    state: Vec<u8>,
    rem: Vec<u32>,
    best: Vec<u32>,
}

impl Share {
    #[inline]
    fn global(&self, t: usize) -> u32 {
        t as u32 * self.peers + self.me
    }

    #[inline]
    fn local(&self, v: u32) -> usize {
        (v / self.peers) as usize
    }

    /// The sequential solver's rule for one move `pred -> succ` in round
    /// `round` (`succ` has remoteness `round`).
    #[inline]
    fn apply(&mut self, m: Move, round: u32, next: &mut Vec<u32>) {
        let t = self.local(m.pred);
        match self.state[t] {
            UNDECIDED if m.lost => {
                self.state[t] = WIN;
                self.rem[t] = round + 1;
                self.best[t] = m.succ;
                next.push(t as u32);
            }
            UNDECIDED => {
                // While undecided, rem and best track the Win successors of
                // greatest remoteness so far (smallest id).
                if self.best[t] == NONE || self.rem[t] != round {
                    self.rem[t] = round;
                    self.best[t] = m.succ;
                } else if m.succ < self.best[t] {
                    self.best[t] = m.succ;
                }
                self.counter[t] -= 1;
                if self.counter[t] == 0 {
                    self.state[t] = LOSE;
                    self.rem[t] = round + 1;
                    next.push(t as u32);
                }
            }
            WIN if m.lost && self.rem[t] == round + 1 && m.succ < self.best[t] => {
                self.best[t] = m.succ;
            }
            _ => {}
        }
    }
}

/// How many of the vertices `0..n` worker `me` of `peers` owns.
fn owned(n: u64, me: u32, peers: u32) -> usize {
    if n > u64::from(me) {
        ((n - 1 - u64::from(me)) / u64::from(peers) + 1) as usize
    } else {
        0
    }
}

/// Runs one worker to the end. Worker 0 returns the solution, the others `None`.
/// Every worker must call this (it creates the same dataflows everywhere).
pub(crate) fn run_worker<S: EdgeShards + ?Sized>(
    worker: &mut Worker,
    source: &S,
    rules: &Rules,
    abort: &AtomicBool,
) -> Result<Option<Solved>> {
    let peers = worker.peers() as u32;
    let me = worker.index() as u32;
    let p64 = u64::from(peers);
    let mut edges = Channel::<(u32, u32)>::new(worker, "Edges", |e| u64::from(e.1));
    let mut sources = Channel::<u32>::new(worker, "Degrees", |&u| u64::from(u));
    let mut reports = Channel::<Report>::new(worker, "Reports", |r| u64::from(r.to));
    let mut moves = Channel::<Move>::new(worker, "Moves", |m| u64::from(m.pred));
    let mut draws = Channel::<(u32, u32)>::new(worker, "Draws", |d| u64::from(d.0));
    let mut gather = Channel::<Chunk>::new(worker, "Gather", |_| 0);

    // 1. Read this worker's shard; edges go to the owner of their target
    //    (for its reverse row), sources to the owner of the source (its degree).
    let mut pairs: Vec<(u32, u32)> = Vec::new(); // (local target, predecessor)
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
    let read = source.for_each_edge_in_shard(me as usize, peers as usize, |u, v| {
        if failure.is_some() {
            return;
        }
        edges.send((u, v));
        sources.send(u);
        largest = Some(largest.map_or(u.max(v), |l| l.max(u).max(v)));
        count += 1;
        if edges.should_pump() {
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

    // 2. Everybody tells everybody how its shard went: the vertex count, the
    //    edge count and the first error are then known to all.
    let report = Report {
        to: 0,
        from: me,
        vertices: largest.map_or(0, |l| u64::from(l) + 1),
        edges: count,
        error: read.as_ref().err().map(WireError::new),
        overflow,
    };
    for k in 0..peers {
        reports.send(Report {
            to: k,
            ..report.clone()
        });
    }
    let mut all: Vec<Report> = Vec::with_capacity(peers as usize);
    reports.finish_round(worker, abort, |r| all.push(r))?;
    all.sort_by_key(|r| r.from);
    if let Some(e) = all.iter().find_map(|r| r.error.clone()) {
        return Err(Error::Input(e.into_error()));
    }
    if let Some(u) = all.iter().filter_map(|r| r.overflow).min() {
        return Err(Error::Input(retrograde::Error::Invalid(format!(
            "vertex {u} has more than {} moves",
            u32::MAX - 1
        ))));
    }
    let total_edges: u64 = all.iter().map(|r| r.edges).sum();
    let n: u64 = match source.declared_vertices() {
        Some(n) => n as u64,
        None => {
            let from_edges = all.iter().map(|r| r.vertices).max().unwrap_or(0);
            let from_labels = rules.labels.max_vertex().map_or(0, |v| u64::from(v) + 1);
            from_edges.max(from_labels)
        }
    };
    if let Some(v) = rules.labels.max_vertex() {
        if u64::from(v) >= n {
            return Err(Error::Input(retrograde::Error::Invalid(format!(
                "terminal label names vertex {v}, but the graph has {n} vertices"
            ))));
        }
    }

    // 3. Build this worker's share: reverse rows by counting sort, counters,
    //    terminal positions.
    let m = owned(n, me, peers);
    let mut offsets = vec![0u64; m + 1];
    for &(t, _) in &pairs {
        offsets[t as usize + 1] += 1;
    }
    for t in 0..m {
        offsets[t + 1] += offsets[t];
    }
    let mut cursor: Vec<u64> = offsets[..m].to_vec();
    let mut preds = vec![NONE; pairs.len()];
    for &(t, u) in &pairs {
        let c = &mut cursor[t as usize];
        preds[*c as usize] = u;
        *c += 1;
    }
    drop(cursor);
    drop(pairs);
    degree.resize(m, 0);
    let mut share = Share {
        peers,
        me,
        offsets,
        preds,
        counter: degree,
        state: vec![UNDECIDED; m],
        rem: vec![NONE; m],
        best: vec![NONE; m],
    };
    let mut frontier: Vec<u32> = Vec::new();
    let mut labels = rules
        .labels
        .iter()
        .filter(|&(v, _)| v % peers == me)
        .peekable();
    for t in 0..m {
        let v = share.global(t);
        let label = match labels.peek() {
            Some(&(l, o)) if l == v => {
                labels.next();
                Some(o)
            }
            _ => None,
        };
        let terminal = label.or_else(|| (share.counter[t] == 0).then(|| rules.no_move.outcome()));
        if let Some(o) = terminal {
            share.state[t] = o as u8;
            if o != Outcome::Draw {
                share.rem[t] = 0;
                frontier.push(t as u32);
            }
        }
    }

    // 4. One round per ply. Positions decided with remoteness `round` tell
    //    their predecessors; a heartbeat to every worker says "not done yet".
    let mut round: u32 = 0;
    loop {
        let mut next: Vec<u32> = Vec::new();
        let mut active = false;
        for &t in &frontier {
            let t = t as usize;
            let (succ, lost) = (share.global(t), share.state[t] == LOSE);
            for j in share.offsets[t]..share.offsets[t + 1] {
                moves.send(Move {
                    pred: share.preds[j as usize],
                    succ,
                    lost,
                });
                if moves.should_pump() {
                    moves.pump(worker, abort, |m| {
                        take_move(&mut share, m, round, &mut next, &mut active)
                    })?;
                }
            }
        }
        if !frontier.is_empty() {
            for k in 0..peers {
                moves.send(Move {
                    pred: k,
                    succ: NONE,
                    lost: false,
                });
            }
        }
        moves.finish_round(worker, abort, |m| {
            take_move(&mut share, m, round, &mut next, &mut active)
        })?;
        if !active {
            break;
        }
        frontier = next;
        round += 1;
    }
    drop(frontier);

    // 5. What is left undecided is a draw; its best move is its smallest draw
    //    successor, which only the successor's owner knows: each draw tells
    //    its predecessors.
    for t in 0..m {
        if share.state[t] == UNDECIDED {
            share.rem[t] = NONE;
            share.best[t] = NONE;
        }
    }
    let take_draw = |share: &mut Share, (p, w): (u32, u32)| {
        let t = share.local(p);
        if share.state[t] == UNDECIDED && (share.best[t] == NONE || w < share.best[t]) {
            share.best[t] = w;
        }
    };
    for t in 0..m {
        if share.state[t] >= DRAW {
            let w = share.global(t);
            for j in share.offsets[t]..share.offsets[t + 1] {
                draws.send((share.preds[j as usize], w));
                if draws.should_pump() {
                    draws.pump(worker, abort, |d| take_draw(&mut share, d))?;
                }
            }
        }
    }
    draws.finish_round(worker, abort, |d| take_draw(&mut share, d))?;
    for s in share.state.iter_mut() {
        if *s == UNDECIDED {
            *s = DRAW;
        }
    }

    // 6. Results go to worker 0, in chunks.
    let Share {
        state, rem, best, ..
    } = share;
    let mut full = (me == 0).then(|| {
        (
            vec![DRAW; n as usize],
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
    for start in (0..m).step_by(CHUNK) {
        let end = (start + CHUNK).min(m);
        gather.send(Chunk {
            worker: me,
            start: start as u32,
            outcomes: state[start..end].to_vec(),
            remoteness: rem[start..end].to_vec(),
            best: best[start..end].to_vec(),
        });
        gather.pump(worker, abort, &mut take_chunk)?;
    }
    drop((state, rem, best));
    gather.finish_round(worker, abort, &mut take_chunk)?;

    // 7. Close every input and let the dataflows finish everywhere.
    drop((edges, sources, reports, moves, draws, gather));
    while worker.has_dataflows() {
        crate::channel::check(abort)?;
        worker.step_or_park(Some(std::time::Duration::from_millis(20)));
    }

    match full {
        Some((s, r, b)) => Ok(Some(Solved {
            solution: Solution::try_from_arrays(s, r, b)?,
            edges: total_edges,
            rounds: round + 1,
        })),
        None => Ok(None),
    }
}

#[inline]
fn take_move(share: &mut Share, m: Move, round: u32, next: &mut Vec<u32>, active: &mut bool) {
    if m.succ == NONE {
        *active = true;
    } else {
        share.apply(m, round, next);
    }
}
