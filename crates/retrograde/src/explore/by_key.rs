//! Exploring a game that numbers its positions itself
//! ([`StateGame::encode`] and [`StateGame::decode`]): every step on all
//! threads, positions held only as their numbers.
//!
//! 1. **Explore**, a level at a time: the level's moves are generated on all
//!    threads and their numbers inserted into one [`Table`] that every
//!    thread fills at once (one cache miss a move; the position is the
//!    number, so nothing else is read). What a thread inserted first is its
//!    part of the next level. The table grows between steps, never during
//!    one: each batch of moves reserves its room first.
//! 2. **Number**: the table's numbers, sorted, are the [`Keys`]; a
//!    position's id is the rank of its number (in the game's order of
//!    numbers where they spread evenly, so that close positions get close
//!    ids; else in scrambled order). The ids therefore do not depend on the
//!    thread count, nor on the order positions were found.
//! 3. **Reverse**: the moves generated again, position by position in id
//!    order, looked up by rank: out-degrees, terminal values and each
//!    position's count of predecessors; then the predecessors placed, from
//!    the recorded moves (4 bytes a move more while they are placed) or, past
//!    the memory limit or with [`Explorer::low_memory`], from the moves
//!    generated once more.
//!
//! Time **O(V + E)** expected, and a sort of the numbers; memory 8 bytes a
//! slot of table while exploring (a slot for 1.33 to 2 positions; 1.5
//! times that while it grows), then per position 8 of number and under 1
//! of directory, 1 of terminal value, 4 of out-degree and 8 of reverse
//! offsets, and 4 a move (8 while recorded moves are placed).
//!
//! [`Explorer::low_memory`]: super::Explorer::low_memory

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};

use rayon::prelude::*;

use super::keys::{Filling, Guess, Keys, Table, mix, unmix};
use super::{Explored, Explorer, Numbering, OPEN, StateGame};
use crate::Csr;
use crate::error::{Error, Result};
use crate::graph::csr::Adjacency;
use crate::graph::{MAX_VERTICES, NONE};
use crate::shared::{as_atomic_u32, as_atomic_u64};

/// Positions expanded per batch.
const CHUNK: usize = 1 << 10;

/// How far ahead a batch's lookups are prefetched.
const AHEAD: usize = 12;

/// Bytes a position the explored game keeps beside its number: terminal
/// value, out-degree, reverse offsets.
const KEPT_BYTES: u64 = 1 + 4 + 8;

/// The scrambled numbers of the game's starts (canonical), each once, in
/// order; `None` if the game does not number them.
pub(super) fn numbered_starts<G: StateGame>(game: &G) -> Option<Vec<u64>> {
    let mut starts: Vec<u64> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for s in game.starts() {
        let h = mix(game.encode(&game.canonical(s))?);
        if seen.insert(h) {
            starts.push(h);
        }
    }
    Some(starts)
}

/// Explores `game`, whose starts are numbered `starts` (scrambled).
pub(super) fn explore<G: StateGame>(
    e: &Explorer<'_>,
    game: G,
    starts: Vec<u64>,
    reserve: u64,
) -> Result<Explored<G>> {
    // Room for the starts from the first (a game may start anywhere).
    let mut table = Table::with_slots((starts.len() * 2).max(1 << 12));
    let mut frontier = starts.clone();
    table.fill(|t| {
        for &h in &starts {
            t.insert(h);
        }
    });
    let mut found = Found {
        positions: frontier.len(),
        moves: 0,
    };
    e.progress.begin("explore", 0);
    while !frontier.is_empty() {
        e.progress.advance(frontier.len() as u64);
        frontier = found.expand_level(e, &game, &mut table, &frontier, reserve)?;
        let exploring = Table::bytes_for(table.slots()).saturating_add(frontier.len() as u64 * 8);
        found.check(e, exploring, frontier.is_empty(), reserve)?;
    }
    e.progress.end();
    if found.positions > MAX_VERTICES {
        return Err(Error::TooManyVertices {
            vertices: found.positions as u64,
        });
    }
    e.progress.begin("number", 0);
    let keys = Keys::new(table.into_numbers());
    e.progress.end();
    let starts = starts.iter().filter_map(|&h| keys.rank(unmix(h))).collect();
    e.progress.begin("reverse", 0);
    let record = !e.low_memory && found.fits_recorded(e, reserve);
    let (terminal, graph) = reverse(&game, &keys, found.moves, record)?;
    e.progress.end();
    Ok(Explored {
        game,
        numbering: Numbering::Keys(keys),
        terminal,
        graph,
        starts,
        owners: None,
    }
    .with_owners())
}

/// Counts while exploring.
struct Found {
    positions: usize,
    moves: u64,
}

/// What a batch of a level did.
enum Batch {
    /// Its moves were inserted: the numbers it inserted first, its moves.
    Done(Vec<u64>, u64),
    /// Its moves (this many) did not fit the table: to do again once it
    /// has grown.
    Deferred(usize),
}

impl Found {
    /// Expands the level `frontier`; returns the next.
    fn expand_level<G: StateGame>(
        &mut self,
        e: &Explorer<'_>,
        game: &G,
        table: &mut Table,
        frontier: &[u64],
        reserve: u64,
    ) -> Result<Vec<u64>> {
        let mut pending: Vec<&[u64]> = frontier.chunks(CHUNK).collect();
        let mut next = Vec::new();
        loop {
            let (room, used) = (table.room(), AtomicUsize::new(self.positions));
            let batches: Vec<Result<Batch>> = table.fill(|t| {
                pending
                    .par_iter()
                    .map_init(Vec::new, |buf, c| expand(game, t, c, buf, &used, room))
                    .collect()
            });
            self.positions = used.into_inner();
            let mut deferred = Vec::new();
            let mut most = 0;
            for (c, b) in pending.iter().zip(batches) {
                match b? {
                    Batch::Done(fresh, moves) => {
                        next.extend_from_slice(&fresh);
                        self.moves += moves;
                    }
                    Batch::Deferred(moves) => {
                        deferred.push(*c);
                        most = most.max(moves);
                    }
                }
            }
            if deferred.is_empty() {
                return Ok(next);
            }
            let mut slots = table.slots() / 2 * 3;
            while Table::room_of(slots) < self.positions + most {
                slots = slots / 2 * 3;
            }
            // The old table and the new, and the levels' numbers.
            let growing = (Table::bytes_for(table.slots()) + Table::bytes_for(slots))
                .saturating_add((frontier.len() + next.len()) as u64 * 8);
            self.check(e, growing, false, reserve)?;
            table.grow(slots);
            pending = deferred;
        }
    }

    /// The bytes the explored game needs (moves held `times`), besides the
    /// solver's `reserve` and the caller's.
    fn needed(&self, e: &Explorer<'_>, reserve: u64, times: u64) -> u64 {
        let per_position = (KEPT_BYTES + reserve).saturating_add(e.reserve);
        Keys::bytes_for(self.positions)
            .saturating_add((self.positions as u64).saturating_mul(per_position))
            .saturating_add(self.moves.saturating_mul(4 * times))
    }

    /// Whether the moves may be recorded while reversing (held twice).
    fn fits_recorded(&self, e: &Explorer<'_>, reserve: u64) -> bool {
        e.memory_limit
            .is_none_or(|limit| self.needed(e, reserve, 2) <= limit)
    }

    /// Refuses what would exceed the limit: `exploring` bytes now (the
    /// table and the levels), or the explored game. `done`: every position
    /// has been found (else the counts are partial).
    fn check(&self, e: &Explorer<'_>, exploring: u64, done: bool, reserve: u64) -> Result<()> {
        let Some(limit) = e.memory_limit else {
            return Ok(());
        };
        let needed = self.needed(e, reserve, 1).max(exploring);
        match (needed > limit, done) {
            (false, _) => Ok(()),
            (true, true) => Err(Error::TooLarge {
                vertices: self.positions as u64,
                edges: self.moves,
                needed,
                limit,
            }),
            (true, false) => Err(Error::ExplorationTooLarge {
                found: self.positions as u64,
                moves: self.moves,
                needed,
                limit,
            }),
        }
    }
}

/// The position numbered `code`, checked to be numbered so.
fn position<G: StateGame>(game: &G, code: u64) -> Result<G::Position> {
    match game.decode(code) {
        Some(p) if game.encode(&p) == Some(code) => Ok(p),
        _ => Err(Error::BadNumber { code }),
    }
}

/// The moves of the positions `batch` (scrambled numbers), into `buf`;
/// the first that is not numbered is an error.
fn moves_of<G: StateGame>(game: &G, batch: &[u64], buf: &mut Vec<u64>) -> Result<()> {
    buf.clear();
    let mut unnumbered = None;
    for &h in batch {
        let p = position(game, unmix(h))?;
        if game.terminal(&p).is_some() {
            continue;
        }
        game.for_each_move(&p, |q| {
            let q = game.canonical(q);
            match game.encode(&q) {
                Some(code) => buf.push(mix(code)),
                None => {
                    unnumbered.get_or_insert_with(|| game.notation(&q));
                }
            }
        });
    }
    match unnumbered {
        Some(position) => Err(Error::NotNumbered { position }),
        None => Ok(()),
    }
}

/// Expands one batch of a level: its moves, inserted if they fit the
/// table's `room` (`used` counts what the batches hold or have reserved).
fn expand<G: StateGame>(
    game: &G,
    table: &Filling<'_>,
    batch: &[u64],
    buf: &mut Vec<u64>,
    used: &AtomicUsize,
    room: usize,
) -> Result<Batch> {
    moves_of(game, batch, buf)?;
    let k = buf.len();
    if used.fetch_add(k, Relaxed) + k > room {
        used.fetch_sub(k, Relaxed);
        return Ok(Batch::Deferred(k));
    }
    let mut fresh = Vec::new();
    for (i, &h) in buf.iter().enumerate() {
        if let Some(&ahead) = buf.get(i + AHEAD) {
            table.prefetch(ahead);
        }
        if table.insert(h) {
            fresh.push(h);
        }
    }
    used.fetch_sub(k - fresh.len(), Relaxed);
    Ok(Batch::Done(fresh, k as u64))
}

/// The ids of the game's numbers `buf` into `ids`; false if one is not
/// a position. A block of numbers at a time: the next block's directory
/// entries and this block's numbers are prefetched before any is needed.
fn ranks(keys: &Keys, buf: &[u64], ids: &mut Vec<u32>) -> bool {
    const BLOCK: usize = 16;
    ids.clear();
    let mut guess = [Guess::default(); BLOCK];
    for (b, block) in buf.chunks(BLOCK).enumerate() {
        let next = (b + 1) * BLOCK;
        for &h in buf.get(next..(next + BLOCK).min(buf.len())).unwrap_or(&[]) {
            keys.prefetch(h);
        }
        for (g, &h) in guess.iter_mut().zip(block) {
            *g = keys.guess(h);
            keys.prefetch_numbers(g);
        }
        for &g in &guess[..block.len()] {
            match keys.rank_near(g) {
                Some(j) => ids.push(j),
                None => return false,
            }
        }
    }
    true
}

/// The moves of the positions with ids `range`, as ids (into `ids`, with
/// scratch `buf`); their out-degrees and terminal values into `degree`
/// and `terminal` when given.
fn moves_by_id<G: StateGame>(
    game: &G,
    keys: &Keys,
    range: std::ops::Range<usize>,
    buf: &mut Vec<u64>,
    ids: &mut Vec<u32>,
    mut out: Option<(&mut [u32], &mut [u8])>,
) -> Result<()> {
    buf.clear();
    for (k, i) in range.clone().enumerate() {
        let p = position(game, keys.code(i as u32).ok_or(Error::MovesChanged)?)?;
        let t = game.terminal(&p).map_or(OPEN, |o| o as u8);
        let before = buf.len();
        let mut unnumbered = false;
        if t == OPEN {
            game.for_each_move(&p, |q| match game.encode(&game.canonical(q)) {
                Some(code) => buf.push(code),
                None => unnumbered = true,
            });
        }
        if unnumbered {
            return Err(Error::MovesChanged);
        }
        let d = buf.len() - before;
        if d >= u32::MAX as usize {
            return Err(Error::TooManyMoves { vertex: i as u32 });
        }
        if let Some((degree, terminal)) = &mut out {
            degree[k] = d as u32;
            terminal[k] = t;
        }
    }
    if !ranks(keys, buf, ids) {
        return Err(Error::MovesChanged);
    }
    Ok(())
}

/// Step 3: terminal values, out-degrees and the reverse adjacency, from
/// the moves generated again by id and each position's predecessors
/// counted; the moves recorded, then placed target range by target range,
/// one range a thread (nothing shared, so no atomics, and each row lists
/// its predecessors in increasing order); or, unless `record`, placed from
/// the moves generated once more.
fn reverse<G: StateGame>(
    game: &G,
    keys: &Keys,
    moves: u64,
    record: bool,
) -> Result<(Vec<u8>, Csr)> {
    let n = keys.len();
    let mut terminal = vec![0u8; n];
    let mut out_degree = vec![0u32; n];
    let mut offsets = crate::alloc::filled(n + 1, 0u64);
    let forward = first_pass(
        game,
        keys,
        &mut terminal,
        &mut out_degree,
        &mut offsets,
        record,
    )?;
    sum_up(&mut offsets, moves)?;
    let mut targets = crate::alloc::filled(moves as usize, NONE);
    match forward {
        Some(forward) => place_recorded(&forward, &out_degree, &mut offsets, &mut targets),
        None => place_generated(game, keys, &out_degree, &mut offsets, &mut targets)?,
    }
    // Each cursor now ends its row, where the next row starts.
    offsets.copy_within(0..n, 1);
    offsets[0] = 0;
    if targets.par_iter().any(|&t| t == NONE) {
        return Err(Error::MovesChanged);
    }
    Ok((
        terminal,
        Csr {
            out_degree,
            reverse: Adjacency { offsets, targets },
        },
    ))
}

/// The moves of every position, by id: terminal values and out-degrees
/// filled in, each position's predecessors counted at `offsets[id + 1]`;
/// the moves recorded (batch by batch, in order) if `record`.
fn first_pass<G: StateGame>(
    game: &G,
    keys: &Keys,
    terminal: &mut [u8],
    out_degree: &mut [u32],
    offsets: &mut [u64],
    record: bool,
) -> Result<Option<Vec<Vec<u32>>>> {
    let forward: Mutex<Vec<(usize, Vec<u32>)>> = Mutex::new(Vec::new());
    let count = as_atomic_u64(&mut offsets[1..]);
    terminal
        .par_chunks_mut(CHUNK)
        .zip(out_degree.par_chunks_mut(CHUNK))
        .enumerate()
        .try_for_each_init(
            || (Vec::new(), Vec::new()),
            |(buf, ids), (k, (t, d))| -> Result<()> {
                let range = k * CHUNK..k * CHUNK + t.len();
                moves_by_id(game, keys, range, buf, ids, Some((d, t)))?;
                for (i, &j) in ids.iter().enumerate() {
                    if let Some(&ahead) = ids.get(i + AHEAD) {
                        crate::alloc::prefetch(&count[ahead as usize]);
                    }
                    count[j as usize].fetch_add(1, Relaxed);
                }
                if record {
                    forward.lock().unwrap().push((k, ids.clone()));
                }
                Ok(())
            },
        )?;
    if !record {
        return Ok(None);
    }
    let mut forward = forward.into_inner().unwrap();
    forward.sort_unstable_by_key(|&(k, _)| k);
    Ok(Some(forward.into_iter().map(|(_, ids)| ids).collect()))
}

/// The ranges of targets, one a thread: `(first, count)`.
fn target_ranges(n: usize) -> Vec<(usize, usize)> {
    let span = n.div_ceil(rayon::current_num_threads()).max(1);
    (0..n).step_by(span).map(|a| (a, span.min(n - a))).collect()
}

/// Turns counts at `offsets[id + 1]` into where each row starts; refuses
/// a total other than the moves found while exploring.
fn sum_up(offsets: &mut [u64], moves: u64) -> Result<()> {
    let n = offsets.len() - 1;
    for i in 0..n {
        offsets[i + 1] += offsets[i];
    }
    if offsets[n] != moves {
        return Err(Error::MovesChanged);
    }
    Ok(())
}

/// Places the recorded moves' sources in their targets' rows: each thread
/// reads every move in order and places those into its range of targets,
/// whose rows are one stretch of `targets`. `offsets[id]` ends at its row's
/// end.
fn place_recorded(
    forward: &[Vec<u32>],
    out_degree: &[u32],
    offsets: &mut [u64],
    targets: &mut [u32],
) {
    let n = out_degree.len();
    let ranges = target_ranges(n);
    // Each range's cursors and its stretch of targets, apart.
    let mut parts = Vec::new();
    let (mut cursors, mut rest) = (&mut offsets[..n], targets);
    let mut taken = 0u64;
    for &(_, len) in &ranges {
        let (c, more) = cursors.split_at_mut(len);
        let end = more.first().map_or(taken + rest.len() as u64, |&e| e);
        let (t, after) = rest.split_at_mut((end - taken) as usize);
        parts.push((c, t, taken));
        (cursors, rest, taken) = (more, after, end);
    }
    parts
        .into_par_iter()
        .zip(ranges)
        .for_each(|((cursor, stretch, first), (base, _))| {
            let mut rows = out_degree.iter().enumerate();
            for ids in forward {
                let mut at = 0;
                for (i, &d) in rows.by_ref().take(CHUNK) {
                    for &j in &ids[at..at + d as usize] {
                        if let Some(c) = (j as usize)
                            .checked_sub(base)
                            .and_then(|x| cursor.get_mut(x))
                        {
                            stretch[(*c - first) as usize] = i as u32;
                            *c += 1;
                        }
                    }
                    at += d as usize;
                }
            }
        });
}

/// Places each move's source in its target's row, the moves generated
/// again on all threads, cursors shared as atomics; a move that was not
/// there before is [`Error::MovesChanged`].
fn place_generated<G: StateGame>(
    game: &G,
    keys: &Keys,
    out_degree: &[u32],
    offsets: &mut [u64],
    targets: &mut [u32],
) -> Result<()> {
    let n = out_degree.len();
    let changed = AtomicBool::new(false);
    let cursor = as_atomic_u64(&mut offsets[..n]);
    let slot = as_atomic_u32(targets);
    (0..n.div_ceil(CHUNK)).into_par_iter().try_for_each_init(
        || (Vec::new(), Vec::new()),
        |(buf, ids), k| -> Result<()> {
            let range = k * CHUNK..(k * CHUNK + CHUNK).min(n);
            moves_by_id(game, keys, range.clone(), buf, ids, None)?;
            let mut at = 0;
            for i in range {
                let Some(row) = ids.get(at..at + out_degree[i] as usize) else {
                    return Err(Error::MovesChanged);
                };
                for (r, &j) in row.iter().enumerate() {
                    let r = at + r;
                    if let Some(&ahead) = ids.get(r + 2 * AHEAD) {
                        crate::alloc::prefetch(&cursor[ahead as usize]);
                    }
                    if let Some(&ahead) = ids.get(r + AHEAD) {
                        let c = cursor[ahead as usize].load(Relaxed) as usize;
                        if let Some(s) = slot.get(c) {
                            crate::alloc::prefetch(s);
                        }
                    }
                    match slot.get(cursor[j as usize].fetch_add(1, Relaxed) as usize) {
                        Some(s) => s.store(i as u32, Relaxed),
                        None => changed.store(true, Relaxed),
                    }
                }
                at += out_degree[i] as usize;
            }
            if at != ids.len() {
                return Err(Error::MovesChanged);
            }
            Ok(())
        },
    )?;
    if changed.load(Relaxed) {
        return Err(Error::MovesChanged);
    }
    Ok(())
}
