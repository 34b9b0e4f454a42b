//! The solve of a tier on the dense rung: every number's start (its moves
//! within the tier counted, its moves into other tiers valued and kept as
//! an event at their level), then the lean engine's walk over the
//! un-moves with those events, or, where no move stays in the tier, every
//! value at once.

use std::sync::atomic::Ordering::Relaxed;

use rayon::prelude::*;

use super::{CHUNK, DenseTier, Examined, Scratch};
use crate::kernel::{self, ABSENT, Effect, LOSE, TIE, UNDECIDED, WIN};
use crate::solve::layout::{self, Packed, Wide};
use crate::solve::lean::{EVENT_KIND, Events, Walk, Walker};
use crate::solve::{Progress, Remoteness, Values};
use crate::tier::{TierError, TieredGame};
use crate::{GameGraph, NoMoveRule, Outcome, Rules, Solved};

/// A remoteness slot, which holds a position's pending event (its level
/// and kind) until the events are laid out.
trait Slot: Copy + Send + Sync {
    const NONE: Self;
    fn of(x: u32) -> Self;
    fn get(self) -> u32;
}

impl Slot for u16 {
    const NONE: u16 = u16::MAX;
    fn of(x: u32) -> u16 {
        x as u16
    }
    fn get(self) -> u32 {
        u32::from(self)
    }
}

impl Slot for u32 {
    const NONE: u32 = u32::MAX;
    fn of(x: u32) -> u32 {
        x
    }
    fn get(self) -> u32 {
        self
    }
}

/// What the start found.
struct Started {
    /// Moves within the tier, all positions together.
    inside: u64,
    /// Some position has more moves than its state byte can count.
    wide: bool,
    /// The tie events: level, position.
    ties: Vec<(u32, u32)>,
}

/// Solves the tier: its values, the stand-ins' after the tier's own.
///
/// # Complexity
/// Time **O(V + E)** in the tier's numbers and moves: every position's
/// moves generated once (each move into another tier one lookup in that
/// tier's database, a block of which is read once; a child whose records
/// take 9 to 16 bits has every block read once more beforehand, to learn
/// which codes occur), the un-moves of every
/// position decided once. Memory: 3 bytes a number (5 if some remoteness
/// reaches 65535), 4 a position with a move into another tier while
/// others are decided in the tier (none where no move stays in it), the
/// two largest levels, and while the moves are first generated the blocks
/// of the children's databases they reach (a byte a record where a child
/// has no more than 256 different records, else two), given back before
/// the walk.
pub(super) fn solve<G: TieredGame>(
    view: &mut DenseTier<'_, G>,
    no_move: NoMoveRule,
    progress: &dyn Progress,
) -> Result<Values, TierError> {
    let n = view.n as usize;
    let total = view.vertex_count();
    progress.begin("solve", 2 * n as u64);
    let mut state = crate::alloc::filled(total, ABSENT);
    // The pending events are kept in the remoteness slots: 2 level + kind.
    let narrow = 2 * u64::from(view.longest) + 1 < u64::from(u16::MAX) - 1;
    let mut rem = if narrow {
        Remoteness::Narrow(crate::alloc::filled(total, u16::MAX))
    } else {
        Remoteness::Wide(crate::alloc::filled(total, u32::MAX))
    };
    let started = match &mut rem {
        Remoteness::Narrow(r) => start(view, no_move, &mut state[..n], &mut r[..n]),
        Remoteness::Wide(r) => start(view, no_move, &mut state[..n], &mut r[..n]),
    };
    progress.advance(n as u64);
    if let Some(fault) = view.take_fault() {
        return Err(fault);
    }
    let counters = started
        .wide
        .then(|| wide_counters(view, no_move, &mut state[..n]));
    if let Some(fault) = view.take_fault() {
        return Err(fault);
    }
    // The moves into other tiers are all valued: what was read of the
    // children is not needed again until best moves are asked for.
    view.release_children();
    let view = &*view;
    if started.inside == 0 {
        // No move stays in the tier: every value follows from the other
        // tiers' at once.
        match &mut rem {
            Remoteness::Narrow(r) => settle(&mut state[..n], &mut r[..n], &counters, &started.ties),
            Remoteness::Wide(r) => settle(&mut state[..n], &mut r[..n], &counters, &started.ties),
        }
    } else {
        let events = match &mut rem {
            Remoteness::Narrow(r) => lay_out(&state[..n], &mut r[..n]),
            Remoteness::Wide(r) => lay_out(&state[..n], &mut r[..n]),
        };
        let ties = tie_events(started.ties);
        let level = |phase: kernel::Phase| -> Vec<u32> {
            state[..n]
                .par_iter()
                .with_min_len(CHUNK)
                .enumerate()
                .filter(|&(_, &s)| kernel::phase(s) == Some(phase))
                .map(|(v, _)| v as u32)
                .collect()
        };
        let (win_lose, tie) = (level(kernel::Phase::WinLose), level(kernel::Phase::Tie));
        let how = if rayon::current_num_threads() > 1 {
            Walk::Batched
        } else {
            Walk::OneThread
        };
        let mut w = Walker {
            state: &mut state,
            rem: &mut rem,
            progress,
            how,
        };
        match counters {
            None => {
                let mut c = Packed;
                w.walk(view, win_lose, &events, &mut c);
                w.walk(view, tie, &ties, &mut c);
            }
            Some(mut c) => {
                w.walk(view, win_lose, &events, &mut c);
                w.walk(view, tie, &ties, &mut c);
            }
        }
        if let Some(fault) = view.take_fault() {
            return Err(fault);
        }
    }
    Ok(finish(view, state, rem, progress))
}

/// The tier's numbers left undecided are draws; the stand-ins take the
/// values of the positions they stand for, after the tier's own.
fn finish<G: TieredGame>(
    view: &DenseTier<'_, G>,
    mut state: Vec<u8>,
    mut rem: Remoteness,
    progress: &dyn Progress,
) -> Values {
    let n = view.n as usize;
    let draws: usize = state[..n]
        .par_iter_mut()
        .with_min_len(CHUNK)
        .map(|s| {
            *s = kernel::undecided_to_draw(*s);
            usize::from(*s == kernel::DRAW)
        })
        .sum();
    progress.advance(draws as u64);
    rem.fit(view.longest + 1);
    for (v, s) in state.iter_mut().enumerate().skip(n) {
        let (o, r) = view.stand_in_value(v as u32);
        *s = o as u8;
        if o != Outcome::Draw {
            rem.set(v, r);
        }
    }
    progress.end();
    Values::new(state, rem)
}

/// Every number's start, on all threads: its state byte (a terminal code,
/// or its moves to count down packed, or [`UNDECIDED`] where they do not
/// fit), its pending event in its remoteness slot.
fn start<G: TieredGame, R: Slot>(
    view: &DenseTier<'_, G>,
    no_move: NoMoveRule,
    state: &mut [u8],
    rem: &mut [R],
) -> Started {
    let parts: Vec<Started> = state
        .par_chunks_mut(CHUNK)
        .zip(rem.par_chunks_mut(CHUNK))
        .enumerate()
        .map(|(k, (states, rems))| {
            let mut scratch = Scratch::default();
            let mut out = Started {
                inside: 0,
                wide: false,
                ties: Vec::new(),
            };
            for (j, (s, r)) in states.iter_mut().zip(rems.iter_mut()).enumerate() {
                let i = (k * CHUNK + j) as u32;
                match view.examine(i, &mut scratch, true) {
                    Examined::Absent => *s = ABSENT,
                    Examined::Terminal(o) => {
                        *s = o as u8;
                        if o != Outcome::Draw {
                            *r = R::of(0);
                        }
                    }
                    Examined::Open { inside, outside } => {
                        out.inside += u64::from(inside);
                        let moves = inside + outside.counted();
                        if moves == 0 {
                            *s = no_move.outcome() as u8;
                            *r = R::of(0);
                            continue;
                        }
                        *s = layout::pack(kernel::Start::open(moves)).unwrap_or_else(|| {
                            out.wide = true;
                            UNDECIDED
                        });
                        if let Some((level, kind)) = outside.event() {
                            *r = R::of(2 * level + kind);
                        }
                        if let Some(t) = outside.tie_event() {
                            out.ties.push((t, i));
                        }
                    }
                }
            }
            out
        })
        .collect();
    let mut all = Started {
        inside: 0,
        wide: false,
        ties: Vec::new(),
    };
    for p in parts {
        all.inside += p.inside;
        all.wide |= p.wide;
        all.ties.extend(p.ties);
    }
    all
}

/// Where some position has more moves than a state byte counts: every
/// counter in a `u32` array (the open positions' moves counted again).
fn wide_counters<G: TieredGame>(
    view: &DenseTier<'_, G>,
    no_move: NoMoveRule,
    state: &mut [u8],
) -> Wide {
    let mut c = crate::alloc::filled(state.len(), 0u32);
    c.par_chunks_mut(CHUNK)
        .zip(state.par_chunks_mut(CHUNK))
        .enumerate()
        .for_each(|(k, (c, states))| {
            let mut scratch = Scratch::default();
            for (j, (c, &s)) in c.iter_mut().zip(states.iter()).enumerate() {
                if s == UNDECIDED
                    && let Examined::Open { inside, outside } =
                        view.examine((k * CHUNK + j) as u32, &mut scratch, true)
                {
                    *c = inside + outside.counted();
                }
            }
            layout::widen(states, c);
        });
    let _ = no_move;
    Wide(c)
}

/// Whether a position whose state byte is `s` has exactly one move left.
fn one_left(s: u8, i: usize, counters: &Option<Wide>) -> bool {
    match counters {
        None => layout::unpack(s) == Some(1),
        Some(Wide(c)) => s == UNDECIDED && c.get(i) == Some(&1),
    }
}

/// Every value at once, where no move stays in the tier: a position's
/// pending event decides it (a win, or a loss where its wins were its only
/// moves), then its tie.
fn settle<R: Slot>(state: &mut [u8], rem: &mut [R], counters: &Option<Wide>, ties: &[(u32, u32)]) {
    state
        .par_chunks_mut(CHUNK)
        .zip(rem.par_chunks_mut(CHUNK))
        .enumerate()
        .for_each(|(k, (states, rems))| {
            for (j, (s, r)) in states.iter_mut().zip(rems.iter_mut()).enumerate() {
                if *s < UNDECIDED || r.get() == R::NONE.get() {
                    continue;
                }
                let (level, kind) = (r.get() / 2, r.get() % 2);
                if kind == 0 {
                    *s = WIN;
                    *r = R::of(level + 1);
                } else if one_left(*s, k * CHUNK + j, counters) {
                    *s = LOSE;
                    *r = R::of(level + 1);
                } else {
                    *r = R::NONE;
                }
            }
        });
    for &(t, i) in ties {
        let i = i as usize;
        if state[i] >= UNDECIDED {
            state[i] = TIE;
            rem[i] = R::of(t + 1);
        }
    }
}

/// The pending events of the open positions, laid out by level (their
/// slots emptied): a count of each level's in each part of the tier, then
/// each part placed on its own thread.
fn lay_out<R: Slot>(state: &[u8], rem: &mut [R]) -> Events {
    let parts = (rayon::current_num_threads() * 4).max(1);
    let part = rem.len().div_ceil(parts).max(1);
    let pending = |s: u8, r: R| s >= UNDECIDED && r.get() != R::NONE.get();
    let counts: Vec<Vec<usize>> = rem
        .par_chunks(part)
        .zip(state.par_chunks(part))
        .map(|(chunk, states)| {
            let mut count = Vec::new();
            for (r, &s) in chunk.iter().zip(states) {
                if pending(s, *r) {
                    let level = (r.get() / 2) as usize;
                    if count.len() <= level {
                        count.resize(level + 1, 0);
                    }
                    count[level] += 1;
                }
            }
            count
        })
        .collect();
    let levels = counts.iter().map(Vec::len).max().unwrap_or(0);
    // Where each part's events of each level start.
    let mut offsets = vec![0usize; levels + 1];
    let mut at: Vec<Vec<usize>> = vec![vec![0; levels]; counts.len()];
    let mut total = 0;
    for level in 0..levels {
        offsets[level] = total;
        for (p, c) in counts.iter().enumerate() {
            at[p][level] = total;
            total += c.get(level).copied().unwrap_or(0);
        }
    }
    offsets[levels] = total;
    let mut entries = vec![0u32; total];
    let shared = crate::shared::as_atomic_u32(&mut entries);
    rem.par_chunks_mut(part)
        .zip(state.par_chunks(part))
        .zip(at.into_par_iter())
        .enumerate()
        .for_each(|(p, ((chunk, states), mut at))| {
            for (j, (r, &s)) in chunk.iter_mut().zip(states).enumerate() {
                if !pending(s, *r) {
                    continue;
                }
                let (level, kind) = ((r.get() / 2) as usize, r.get() % 2);
                let i = (p * part + j) as u32;
                let entry = i | if kind == 1 { EVENT_KIND } else { 0 };
                shared[at[level]].store(entry, Relaxed);
                at[level] += 1;
                *r = R::NONE;
            }
        });
    Events {
        offsets,
        entries,
        effects: [Effect::Decide(WIN), Effect::CountDown],
    }
}

/// The tie events, by level.
fn tie_events(mut ties: Vec<(u32, u32)>) -> Events {
    ties.sort_unstable();
    let levels = ties.last().map_or(0, |t| t.0 as usize + 1);
    let mut offsets = vec![0usize; levels + 1];
    for &(t, _) in &ties {
        offsets[t as usize + 1] += 1;
    }
    for l in 0..levels {
        offsets[l + 1] += offsets[l];
    }
    Events {
        offsets,
        entries: ties.into_iter().map(|(_, i)| i).collect(),
        effects: [Effect::Decide(TIE), Effect::Decide(TIE)],
    }
}

/// A tier's solution on the dense rung: its values (the stand-ins' after
/// the tier's own), best moves computed from the moves.
pub(crate) struct DenseSolution<'g, G: TieredGame> {
    pub(crate) solved: Solved<DenseTier<'g, G>>,
}

impl<'g, G: TieredGame> DenseSolution<'g, G> {
    /// Solves `view` under the game's rule for a position without moves.
    pub(crate) fn solve(
        mut view: DenseTier<'g, G>,
        progress: &dyn Progress,
    ) -> Result<DenseSolution<'g, G>, TierError> {
        let no_move = view.game.no_move();
        let values = solve(&mut view, no_move, progress)?;
        DenseSolution::of(view, values)
    }

    /// `view`'s tier as its database `db` holds it (the values read back,
    /// checked against the tier's numbers).
    pub(crate) fn stored(
        view: DenseTier<'g, G>,
        db: &crate::db::Database,
    ) -> Result<DenseSolution<'g, G>, TierError> {
        view.ask_owners();
        let values = stored_values(&view, db)?;
        DenseSolution::of(view, values)
    }

    /// `view`'s solution of `values`, under the game's rule for a position
    /// without moves (no labels: a tier's terminal positions are in its
    /// values).
    fn of(view: DenseTier<'g, G>, values: Values) -> Result<DenseSolution<'g, G>, TierError> {
        let rules = Rules {
            no_move: view.game.no_move(),
            labels: crate::Labels::default(),
        };
        let name = view.name.clone();
        let solved = Solved::new(view, rules, values).map_err(|e| TierError::Solve {
            tier: name,
            source: e.into(),
        })?;
        Ok(DenseSolution { solved })
    }

    /// The tier as a graph.
    pub(crate) fn view(&self) -> &DenseTier<'g, G> {
        self.solved.graph()
    }
}

/// The values `db` holds for `view`'s tier, the stand-ins' after them,
/// every block decoded on all threads: a database not laid out as the
/// tier's numbers is refused.
pub(crate) fn stored_values<G: TieredGame>(
    view: &DenseTier<'_, G>,
    db: &crate::db::Database,
) -> Result<Values, TierError> {
    let numbers = view.first()..view.first() + u64::from(view.len());
    super::keeps_numbers(db, &view.name, &numbers)?;
    let mut values = db.values()?;
    values.remoteness.fit(view.longest + 1);
    for v in values.len() as u32..view.vertex_count() as u32 {
        let (o, r) = view.stand_in_value(v);
        values.state.push(o as u8);
        let draw = o == Outcome::Draw;
        match &mut values.remoteness {
            Remoteness::Narrow(a) => a.push(if draw { u16::MAX } else { r as u16 }),
            Remoteness::Wide(a) => a.push(if draw { u32::MAX } else { r }),
        }
    }
    Ok(values)
}
