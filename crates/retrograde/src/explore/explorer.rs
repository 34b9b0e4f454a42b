//! The Explorer: breadth first on all cores, moves recorded and reversed
//! (or generated again where holding them would not fit).

use std::fmt;
use std::hash::Hash;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use rayon::prelude::*;

use super::index::{self, Index};
use super::{Explored, OPEN, StateGame};
use crate::Csr;
use crate::error::{Error, Result};
use crate::graph::csr::Adjacency;
use crate::graph::{MAX_VERTICES, NONE};
use crate::shared::{as_atomic_u32, as_atomic_u64};
use crate::solve::{NoProgress, Progress};

/// How to explore: a memory limit and where to report progress.
#[derive(Clone, Copy)]
pub struct Explorer<'p> {
    pub(crate) memory_limit: Option<u64>,
    /// Bytes a position the caller needs besides (counted against the limit).
    pub(super) reserve: u64,
    pub(super) low_memory: bool,
    by_hash: bool,
    pub(crate) progress: &'p dyn Progress,
}

impl fmt::Debug for Explorer<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Explorer")
            .field("memory_limit", &self.memory_limit)
            .field("reserve", &self.reserve)
            .finish_non_exhaustive()
    }
}

impl Default for Explorer<'static> {
    fn default() -> Self {
        Explorer::new()
    }
}

impl Explorer<'static> {
    /// No memory limit, no progress reports.
    pub fn new() -> Explorer<'static> {
        Explorer {
            memory_limit: None,
            reserve: 0,
            low_memory: false,
            by_hash: false,
            progress: &NoProgress,
        }
    }
}

/// Positions expanded per parallel task.
const CHUNK: usize = 1 << 12;

/// Bytes per position outside the index while exploring: out-degree,
/// predecessor count, terminal value.
const EXPLORE_BYTES: u64 = 9;

/// Bytes per position and per move of the reverse graph built afterwards
/// (offsets instead of predecessor counts; predecessors).
const GRAPH_BYTES: (u64, u64) = (4, 4);

impl<'p> Explorer<'p> {
    /// Refuses, with [`Error::TooLarge`] (or [`Error::ExplorationTooLarge`]
    /// while positions are still being found), an exploration whose positions,
    /// hash table and graph (and, for [`Explorer::solve`], the solver's
    /// state) would need more than `bytes`; checked after every level and
    /// before the graph is built.
    pub fn memory_limit(self, bytes: u64) -> Explorer<'p> {
        Explorer {
            memory_limit: Some(bytes),
            ..self
        }
    }

    /// Counts `bytes` a position more against the memory limit: what the
    /// caller holds beside the exploration and the solve (a database
    /// written from the solution, say).
    pub fn reserve(self, bytes: u64) -> Explorer<'p> {
        Explorer {
            reserve: bytes,
            ..self
        }
    }

    /// Generates the moves twice more to build the reverse graph instead of
    /// recording them while exploring: 4 bytes a move less at the peak (the
    /// moves are never held twice), for more time. Without it, this happens
    /// by itself once recording would pass the memory limit.
    pub fn low_memory(self) -> Explorer<'p> {
        Explorer {
            low_memory: true,
            ..self
        }
    }

    /// Explores with the hash table of positions even when the game numbers
    /// its positions ([`StateGame::encode`]): numbers in the order found,
    /// the starts first, and each move generated once (by key, every move
    /// is generated once more after the positions are numbered, twice with
    /// [`Explorer::low_memory`]). Larger, and slower where moves are cheap
    /// (see the [module documentation](super)); for a game whose moves are
    /// costly to generate (the chess endings: by key, KBNK explored in 2.3 s
    /// instead of 5.2 s but reversed in 4.6 s instead of 0.8 s), or whose
    /// `encode` is.
    pub fn by_hash(self) -> Explorer<'p> {
        Explorer {
            by_hash: true,
            ..self
        }
    }

    /// Reports progress to `progress`: phase `"explore"` (positions found,
    /// the total unknown), `"reverse"`, then the solver's `"solve"`.
    pub fn progress<'q>(self, progress: &'q dyn Progress) -> Explorer<'q> {
        Explorer {
            memory_limit: self.memory_limit,
            reserve: self.reserve,
            low_memory: self.low_memory,
            by_hash: self.by_hash,
            progress,
        }
    }

    /// Explores `game` from its starts and builds its reverse graph.
    ///
    /// # Complexity
    /// Time **O(V + E)** expected (hash lookups), moves generated twice, on
    /// all threads of the current rayon pool. Memory: see the
    /// [module documentation](super).
    ///
    /// # Errors
    /// [`Error::TooLarge`] past the memory limit; [`Error::TooManyVertices`]
    /// past `u32` ids; [`Error::TooManyMoves`] for a position with more than
    /// `u32::MAX - 1` moves in or out; [`Error::MovesChanged`] if the game's
    /// moves are not the same when generated again.
    pub fn explore<G: StateGame>(&self, game: G) -> Result<Explored<G>> {
        self.explore_reserving(game, 0)
    }

    /// Bytes the caller reserved for `n` positions ([`Explorer::reserve`]).
    pub(crate) fn reserved(&self, n: usize) -> u64 {
        (n as u64).saturating_mul(self.reserve)
    }

    pub(crate) fn explore_reserving<G: StateGame>(
        &self,
        game: G,
        reserve: u64,
    ) -> Result<Explored<G>> {
        if !self.by_hash
            && let Some(starts) = super::by_key::numbered_starts(&game)
        {
            return super::by_key::explore(self, game, starts, reserve);
        }
        let mut found = self.discover(&game, reserve)?;
        self.progress.begin("reverse", 0);
        let reverse = match found.forward.take() {
            // The moves were recorded: sort them by target.
            Some(forward) => transpose(&found.out_degree, forward),
            // Not enough memory to hold them twice: generate them again.
            None => regenerate(&game, &found)?,
        };
        self.progress.end();
        let Found {
            index,
            terminal,
            starts,
            out_degree,
            ..
        } = found;
        Ok(Explored {
            game,
            numbering: super::Numbering::Found(index),
            terminal,
            graph: Csr {
                out_degree,
                reverse,
            },
            starts,
            owners: None,
        }
        .with_owners())
    }

    /// The bytes exploring and building the graph need for `positions` and
    /// `moves` (and `reserve` bytes a position more, besides what the
    /// caller reserves), and the moves held `times` (once in the graph;
    /// twice while recorded moves are sorted).
    fn needed<P>(&self, positions: usize, moves: u64, times: u64, reserve: u64) -> u64 {
        let n = positions as u64;
        let per_position = (std::mem::size_of::<P>() as u64 + EXPLORE_BYTES)
            .saturating_add(reserve)
            .saturating_add(self.reserve);
        index::table_bytes_for(positions)
            .saturating_add(n.saturating_mul(per_position + GRAPH_BYTES.0))
            .saturating_add(moves.saturating_mul(GRAPH_BYTES.1 * times))
    }

    /// Refuses what would exceed the memory limit once the graph is built;
    /// tells whether the recorded moves may be kept (they need as much again).
    /// `done`: every position has been found (else the counts are the
    /// positions found so far, and the game has more).
    fn check_memory<P>(&self, found: &Found<P>, reserve: u64, done: bool) -> Result<bool> {
        let Some(limit) = self.memory_limit else {
            return Ok(true);
        };
        let (n, moves) = (found.index.len(), found.moves);
        let needed = self.needed::<P>(n, moves, 1, reserve);
        if needed > limit && done {
            return Err(Error::TooLarge {
                vertices: n as u64,
                edges: moves,
                needed,
                limit,
            });
        }
        if needed > limit {
            return Err(Error::ExplorationTooLarge {
                found: n as u64,
                moves,
                needed,
                limit,
            });
        }
        Ok(self.needed::<P>(n, moves, 2, reserve) <= limit)
    }

    /// Step 1: every position reachable from the starts, level by level.
    fn discover<G: StateGame>(&self, game: &G, reserve: u64) -> Result<Found<G::Position>> {
        let mut found = Found {
            index: Index::new(),
            terminal: Vec::new(),
            out_degree: Vec::new(),
            forward: (!self.low_memory).then(Vec::new),
            starts: Vec::new(),
            moves: 0,
        };
        for s in game.starts() {
            let s = game.canonical(s);
            let h = found.index.hash(&s);
            // Only starts are in the index yet: a new one is a new start.
            let (i, new) = found.index.insert(h, s);
            if new {
                found.starts.push(i);
            }
        }
        self.progress.begin("explore", 0);
        let mut lo = 0;
        while lo < found.index.len() {
            let hi = found.index.len();
            self.progress.advance((hi - lo) as u64);
            found.expand_level(game, lo, hi)?;
            if !self.check_memory(&found, reserve, found.index.len() == hi)? {
                found.forward = None;
            }
            lo = hi;
        }
        self.progress.end();
        Ok(found)
    }
}

/// What exploring has found so far.
struct Found<P> {
    index: Index<P>,
    /// Per position: its terminal value's code, or [`OPEN`].
    terminal: Vec<u8>,
    out_degree: Vec<u32>,
    /// The moves of the positions expanded so far, row after row (the
    /// forward adjacency), while memory allows: one block per task, so that
    /// nothing is copied as it grows.
    forward: Option<Vec<Vec<u32>>>,
    starts: Vec<u32>,
    /// Moves seen so far.
    moves: u64,
}

/// What one task found: the out-degrees of its positions; its moves (the
/// targets, new positions named by their place in `fresh`, at the places
/// `pending` lists); the new positions in the order it found them, each
/// with its hash.
struct Fresh<P> {
    out_degree: Vec<u32>,
    targets: Vec<u32>,
    pending: Vec<u32>,
    fresh: Vec<(P, u64)>,
    overflow: bool,
}

impl<P: Clone + Eq + Hash + Send + Sync> Found<P> {
    /// Expands the positions `lo..hi` (the last level): their terminal
    /// values, their moves, and the positions their moves reach first.
    fn expand_level<G: StateGame<Position = P>>(
        &mut self,
        game: &G,
        lo: usize,
        hi: usize,
    ) -> Result<()> {
        if hi > MAX_VERTICES {
            return Err(Error::TooManyVertices {
                vertices: hi as u64,
            });
        }
        let level = &self.index.positions()[lo..hi];
        self.terminal.par_extend(
            level
                .par_iter()
                .with_min_len(256)
                .map(|p| game.terminal(p).map_or(OPEN, |o| o as u8)),
        );
        let starts: Vec<usize> = (lo..hi).step_by(CHUNK).collect();
        let record = self.forward.is_some();
        let tasks: Vec<Fresh<P>> = {
            let (index, terminal) = (&self.index, &self.terminal);
            starts
                .into_par_iter()
                .map(|start| {
                    let range = start..(start + CHUNK).min(hi);
                    expand_chunk(game, index, terminal, range, record)
                })
                .collect()
        };
        // Number the new positions in the order one thread would find them.
        // About half the candidates are new and distinct (measured on a
        // pursuit game): room for them at once saves growing step by step.
        let fresh: usize = tasks.iter().map(|t| t.fresh.len()).sum();
        self.index.reserve(fresh / 2);
        for mut task in tasks {
            if task.overflow {
                let at = task
                    .out_degree
                    .iter()
                    .position(|&d| d == u32::MAX)
                    .unwrap_or(0);
                return Err(Error::TooManyMoves {
                    vertex: (self.out_degree.len() + at) as u32,
                });
            }
            self.moves += task.out_degree.iter().map(|&d| u64::from(d)).sum::<u64>();
            self.out_degree.extend_from_slice(&task.out_degree);
            let numbers: Vec<u32> = task
                .fresh
                .into_iter()
                .map(|(p, h)| self.index.insert(h, p).0)
                .collect();
            if let Some(forward) = &mut self.forward {
                for &at in &task.pending {
                    let t = &mut task.targets[at as usize];
                    *t = numbers[*t as usize];
                }
                task.targets.shrink_to_fit();
                forward.push(task.targets);
            }
        }
        Ok(())
    }
}

/// The moves of the positions `range`, looked up; the positions not known
/// yet are collected once each, and with `record` every move is kept.
fn expand_chunk<G: StateGame>(
    game: &G,
    index: &Index<G::Position>,
    terminal: &[u8],
    range: std::ops::Range<usize>,
    record: bool,
) -> Fresh<G::Position> {
    let mut task = Fresh {
        out_degree: Vec::with_capacity(range.len()),
        targets: Vec::new(),
        pending: Vec::new(),
        fresh: Vec::new(),
        overflow: false,
    };
    let mut local: hashbrown::HashTable<u32> = hashbrown::HashTable::new();
    for i in range {
        if terminal[i] != OPEN {
            task.out_degree.push(0);
            continue;
        }
        let p = &index.positions()[i];
        let mut d = 0u32;
        game.for_each_move(p, |q| {
            d = d.saturating_add(1);
            let q = game.canonical(q);
            let h = index.hash(&q);
            let target = match index.find_hashed(h, &q) {
                Some(j) => j,
                None => {
                    let fresh = &mut task.fresh;
                    let k = match local.find(h, |&k| fresh[k as usize].0 == q) {
                        Some(&k) => k,
                        None => {
                            let k = fresh.len() as u32;
                            local.insert_unique(h, k, |&k| fresh[k as usize].1);
                            fresh.push((q, h));
                            k
                        }
                    };
                    if record {
                        task.pending.push(task.targets.len() as u32);
                    }
                    k
                }
            };
            if record {
                task.targets.push(target);
            }
        });
        task.overflow |= d == u32::MAX;
        task.out_degree.push(d);
    }
    task
}

/// Step 2, with the moves recorded: the reverse adjacency by a counting sort
/// of the forward one. Time **O(V + E)**; the moves are held twice meanwhile.
fn transpose(out_degree: &[u32], forward: Vec<Vec<u32>>) -> Adjacency {
    let n = out_degree.len();
    let sources = out_degree
        .iter()
        .enumerate()
        .flat_map(|(p, &d)| std::iter::repeat_n(p as u32, d as usize));
    let items = forward
        .iter()
        .flatten()
        .zip(sources)
        .map(|(&q, p)| (q as usize, p));
    let (offsets, targets) = crate::graph::counting_sort(n, items);
    Adjacency { offsets, targets }
}

/// Step 2, without the moves: generated twice more, once to count each
/// position's predecessors, once to place them.
fn regenerate<G: StateGame>(game: &G, found: &Found<G::Position>) -> Result<Adjacency> {
    let n = found.index.len();
    let changed = AtomicBool::new(false);
    // Calls `f(p, q)` for every move, on all threads; flags a change if a
    // move leads outside what was found or a position's moves are not as many.
    let each_move = |f: &(dyn Fn(u32, u32) + Sync)| {
        let starts: Vec<usize> = (0..n).step_by(CHUNK).collect();
        starts.into_par_iter().for_each(|start| {
            for i in start..(start + CHUNK).min(n) {
                if found.terminal[i] != OPEN {
                    continue;
                }
                let mut d = 0u32;
                game.for_each_move(&found.index.positions()[i], |q| {
                    d = d.saturating_add(1);
                    match found.index.find(&game.canonical(q)) {
                        Some(j) => f(i as u32, j),
                        None => changed.store(true, Relaxed),
                    }
                });
                if d != found.out_degree[i] {
                    changed.store(true, Relaxed);
                }
            }
        });
    };
    let mut in_degree = vec![0u32; n];
    {
        let count = as_atomic_u32(&mut in_degree);
        each_move(&|_, j| {
            count[j as usize].fetch_add(1, Relaxed);
        });
    }
    let mut offsets: Vec<u64> = Vec::with_capacity(n + 1);
    let mut sum = 0u64;
    for d in in_degree {
        offsets.push(sum);
        sum += u64::from(d);
    }
    offsets.push(sum);
    if changed.load(Relaxed) || sum != found.moves {
        return Err(Error::MovesChanged);
    }
    let mut targets = vec![NONE; sum as usize];
    {
        let cursor = as_atomic_u64(&mut offsets[..n]);
        let slot = as_atomic_u32(&mut targets);
        each_move(
            &|i, j| match slot.get(cursor[j as usize].fetch_add(1, Relaxed) as usize) {
                Some(s) => s.store(i, Relaxed),
                None => changed.store(true, Relaxed),
            },
        );
    }
    // Each cursor now ends its row, where the next row starts.
    offsets.copy_within(0..n, 1);
    offsets[0] = 0;
    if changed.load(Relaxed) || targets.par_iter().any(|&t| t == NONE) {
        return Err(Error::MovesChanged);
    }
    Ok(Adjacency { offsets, targets })
}
