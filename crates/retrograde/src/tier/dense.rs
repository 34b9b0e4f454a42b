//! The dense rung: a tier whose positions fill one range of the game's
//! numbers, and whose un-moves the game gives, solved by the lean engine
//! without exploring it (see the [module docs](super#the-dense-rung)).

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Mutex, OnceLock};

use rayon::prelude::*;

use super::view::Child;
use super::{TierError, TieredGame};
use crate::db::{BlockCodes, Database, BLOCK_RECORDS};
use crate::kernel::{self, Effect, ABSENT, LOSE, TIE, UNDECIDED, WIN};
use crate::solve::layout::{self, Packed, Wide};
use crate::solve::lean::{Events, Walk, Walker, EVENT_KIND};
use crate::solve::{Progress, Remoteness, Values};
use crate::{GameGraph, NoMoveRule, Outcome, Player, Rules, Solved, Successors, Value};

/// The stand-ins' kinds, four a remoteness after the tier's own numbers:
/// a move into another tier is a move to the stand-in of its value (for
/// best moves and checks; the solve itself takes such moves as events).
const KINDS: u32 = 4;
const OUTCOMES: [Outcome; 4] = [Outcome::Win, Outcome::Lose, Outcome::Tie, Outcome::Draw];

fn kind(o: Outcome) -> u32 {
    match o {
        Outcome::Win => 0,
        Outcome::Lose => 1,
        Outcome::Tie => 2,
        Outcome::Draw => 3,
    }
}

/// A child tier's database, its records read a block at a time as the
/// tier's moves reach them, each block once (kept while the tier is
/// solved: the blocks its moves never reach are never read).
struct ChildRecords<T> {
    tier: T,
    name: String,
    db: Database,
    blocks: Vec<OnceLock<BlockCodes>>,
}

impl<T> ChildRecords<T> {
    fn new(child: Child<T>) -> ChildRecords<T> {
        let blocks = if child.db.is_keyed() {
            Vec::new()
        } else {
            (0..child.db.len().div_ceil(BLOCK_RECORDS))
                .map(|_| OnceLock::new())
                .collect()
        };
        ChildRecords {
            tier: child.tier,
            name: child.name,
            db: child.db,
            blocks,
        }
    }

    /// The value under `key`; `None` if the database holds no position
    /// there.
    fn value(&self, key: u64) -> Result<Option<Value>, crate::db::DbError> {
        if self.db.is_keyed() {
            return self.db.value(key);
        }
        let first = self.db.header().first_key;
        let Some(r) = key.checked_sub(first).filter(|&r| r < self.db.len()) else {
            return Ok(None);
        };
        let b = (r / BLOCK_RECORDS) as usize;
        let cell = &self.blocks[b];
        let codes = match cell.get() {
            Some(c) => c,
            None => {
                let codes = self.db.block_codes(b as u64)?;
                cell.get_or_init(|| codes)
            }
        };
        Ok(Database::code_value(
            codes.get((r % BLOCK_RECORDS) as usize),
        ))
    }
}

/// What the moves of a position into other tiers come to, for the player
/// who makes them: the soonest win, the latest loss, the soonest tie, and
/// whether some is not a loss (so never counted down).
#[derive(Clone, Copy, Debug)]
pub(super) struct Outside {
    /// The least remoteness of a move to a loss for the opponent.
    lose: u32,
    /// The greatest remoteness of a move to a win for the opponent.
    win: Option<u32>,
    /// The least remoteness of a move to a tie.
    tie: u32,
    /// Some move does not reach a win for the opponent.
    other: bool,
}

impl Default for Outside {
    fn default() -> Outside {
        Outside {
            lose: u32::MAX,
            win: None,
            tie: u32::MAX,
            other: false,
        }
    }
}

impl Outside {
    /// A move to a position of state code `code` (as the mover sees it)
    /// and remoteness `r`.
    fn add(&mut self, code: u8, r: u32) {
        match code {
            WIN => self.win = Some(self.win.map_or(r, |w| w.max(r))),
            LOSE => {
                self.lose = self.lose.min(r);
                self.other = true;
            }
            TIE => {
                self.tie = self.tie.min(r);
                self.other = true;
            }
            _ => self.other = true,
        }
    }

    /// The moves counted down for these: one for all the wins, which are
    /// counted down at once when the last of them is reached, and one for
    /// the rest, never counted down.
    fn counted(&self) -> u32 {
        u32::from(self.win.is_some()) + u32::from(self.other)
    }

    /// The event these give while wins and losses spread: at the level of
    /// the soonest loss, the position wins; else at the level of the latest
    /// win, its wins are counted down.
    fn event(&self) -> Option<(u32, u32)> {
        if self.lose != u32::MAX {
            Some((self.lose, 0))
        } else {
            self.win.map(|w| (w, 1))
        }
    }

    /// The event while ties spread: where no move wins, at the level of
    /// the soonest tie the position ties.
    fn tie_event(&self) -> Option<u32> {
        (self.lose == u32::MAX && self.tie != u32::MAX).then_some(self.tie)
    }
}

/// What one number of the tier is.
pub(super) enum Examined {
    /// No position.
    Absent,
    /// The game is over there.
    Terminal(Outcome),
    /// Play goes on: its moves within the tier (as many as the positions
    /// they reach, listed beside) and into other tiers.
    Open { inside: u32, outside: Outside },
}

/// One tier of a game on the dense rung, as a graph: the tier's numbers
/// `0..n` (its range's, less its first), then the stand-ins of the values
/// its moves into other tiers reach (see [`KINDS`]).
///
/// The solve reads the tier's positions' predecessors (their un-moves);
/// a stand-in's predecessors are not listed (they are the tier's moves
/// into other tiers, taken as events), so this graph is not for other
/// engines. Best moves and checks read its successors, which are whole.
pub(super) struct DenseTier<'g, G: TieredGame> {
    game: &'g G,
    tier: G::Tier,
    name: String,
    numbers: Range<u64>,
    n: u32,
    children: Vec<ChildRecords<G::Tier>>,
    /// The greatest remoteness a stand-in has.
    longest: u32,
    /// Whether some position names its mover.
    owners: AtomicBool,
    failed: AtomicBool,
    fault: Mutex<Option<TierError>>,
}

impl<'g, G: TieredGame> DenseTier<'g, G> {
    /// Tier `tier` of `game`, its numbers `numbers`, its children solved.
    ///
    /// # Errors
    /// A tier of more numbers than `u32` ids allow.
    pub(super) fn new(
        game: &'g G,
        tier: G::Tier,
        numbers: Range<u64>,
        children: Vec<Child<G::Tier>>,
    ) -> Result<Self, TierError> {
        let name = game.tier_name(&tier);
        let longest = children
            .iter()
            .filter_map(|c| c.db.header().longest)
            .max()
            .unwrap_or(0);
        let count = numbers.end.saturating_sub(numbers.start);
        let stand_ins = (u64::from(longest) + 1) * u64::from(KINDS);
        if count + stand_ins >= u64::from(u32::MAX) {
            return Err(TierError::Solve {
                tier: name,
                source: crate::Error::Solve(crate::SolveError::TooManyPositions {
                    positions: count,
                }),
            });
        }
        Ok(DenseTier {
            game,
            tier,
            name,
            n: count as u32,
            numbers,
            children: children.into_iter().map(ChildRecords::new).collect(),
            longest,
            owners: AtomicBool::new(false),
            failed: AtomicBool::new(false),
            fault: Mutex::new(None),
        })
    }

    /// The tier's name.
    pub(super) fn name(&self) -> &str {
        &self.name
    }

    /// The tier.
    pub(super) fn tier(&self) -> &G::Tier {
        &self.tier
    }

    /// The game.
    pub(super) fn game(&self) -> &'g G {
        self.game
    }

    /// The tier's own numbers: `0..n` here.
    pub(super) fn len(&self) -> u32 {
        self.n
    }

    /// The first of the tier's numbers.
    pub(super) fn first(&self) -> u64 {
        self.numbers.start
    }

    /// The first fault met while moves were generated.
    pub(super) fn take_fault(&self) -> Option<TierError> {
        if !self.failed.load(Relaxed) {
            return None;
        }
        self.fault.lock().ok().and_then(|mut f| f.take())
    }

    fn fail(&self, e: impl FnOnce() -> TierError) {
        if self.failed.swap(true, Relaxed) {
            return;
        }
        if let Ok(mut f) = self.fault.lock() {
            *f = Some(e());
        }
    }

    /// The position numbered `i` within the tier.
    #[inline]
    pub(super) fn position(&self, i: u32) -> Option<G::Position> {
        if i >= self.n {
            return None;
        }
        self.game.decode(self.numbers.start + u64::from(i))
    }

    /// The tier's number of `q`, a position of the tier in any form.
    #[inline]
    fn index(&self, q: G::Position) -> Option<u32> {
        let q = self.game.canonical(q);
        match self.game.encode(&q) {
            Some(c) if self.numbers.contains(&c) => Some((c - self.numbers.start) as u32),
            code => {
                self.fail(|| TierError::OutsideNumbers {
                    tier: self.name.clone(),
                    position: self.game.notation(&q),
                    number: code,
                    numbers: self.numbers.clone(),
                });
                None
            }
        }
    }

    /// The value of `q`, a position of another tier (canonical), as the
    /// mover of `p` sees it: its state code and remoteness.
    fn probe(&self, p: &G::Position, q: &G::Position) -> (u8, u32) {
        let v = self
            .value_elsewhere(q)
            .unwrap_or(Value::new(Outcome::Draw, None));
        let same = kernel::same_player(self.game.owner(p), self.game.owner(q));
        let code = kernel::seen(v.outcome as u8, same);
        (code, v.remoteness.unwrap_or(0))
    }

    fn value_elsewhere(&self, q: &G::Position) -> Option<Value> {
        let to = self.game.tier(q);
        let Some(child) = self.children.iter().find(|c| c.tier == to) else {
            // A game over needs no tier: its value is the rules'.
            if let Some(o) = self.game.terminal(q) {
                return Some(Value::new(o, (o != Outcome::Draw).then_some(0)));
            }
            self.fail(|| TierError::Undeclared {
                from: self.name.clone(),
                to: self.game.tier_name(&to),
                declared: self
                    .children
                    .iter()
                    .map(|c| c.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            });
            return None;
        };
        let Some(code) = self.game.encode(q) else {
            self.fail(|| TierError::NotNumbered {
                tier: child.name.clone(),
                position: self.game.notation(q),
            });
            return None;
        };
        match child.value(code) {
            Ok(Some(v)) => Some(v),
            Ok(None) => {
                self.fail(|| TierError::NotInTier {
                    from: self.name.clone(),
                    to: child.name.clone(),
                    position: self.game.notation(q),
                });
                None
            }
            Err(e) => {
                self.fail(|| TierError::Db(e));
                None
            }
        }
    }

    /// What number `i` is; its moves within the tier are left in `inside`,
    /// sorted, each position once. Its moves into other tiers are valued
    /// where `outside` says (else left out).
    pub(super) fn examine(&self, i: u32, inside: &mut Vec<u32>, valued: bool) -> Examined {
        inside.clear();
        let Some(p) = self.position(i) else {
            return Examined::Absent;
        };
        if self.game.owner(&p).is_some() {
            self.owners.store(true, Relaxed);
        }
        if let Some(o) = self.game.terminal(&p) {
            return Examined::Terminal(o);
        }
        let mut outside = Outside::default();
        self.game.for_each_move(&p, |q| {
            if self.game.tier(&q) == self.tier {
                if let Some(j) = self.index(q) {
                    inside.push(j);
                }
            } else if valued {
                let q = self.game.canonical(q);
                let (code, r) = self.probe(&p, &q);
                outside.add(code, r);
            }
        });
        inside.sort_unstable();
        inside.dedup();
        Examined::Open {
            inside: inside.len() as u32,
            outside,
        }
    }

    /// The stand-in of value `v`.
    fn stand_in(&self, code: u8, r: u32) -> u32 {
        let o = kernel::outcome(code).unwrap_or(Outcome::Draw);
        let r = if o == Outcome::Draw { 0 } else { r };
        self.n + r * KINDS + kind(o)
    }

    /// The stand-in numbered `v` (at least `n`): its outcome and remoteness.
    pub(super) fn stand_in_value(&self, v: u32) -> (Outcome, u32) {
        let k = v - self.n;
        (OUTCOMES[(k % KINDS) as usize], k / KINDS)
    }

    /// The un-moves of `u`, a position of the tier, each predecessor once.
    fn unmoves(&self, u: u32, f: &mut impl FnMut(u32)) {
        let Some(q) = self.position(u) else { return };
        let mut found = [0u32; 64];
        let mut more: Vec<u32> = Vec::new();
        let mut k = 0;
        self.game.for_each_unmove(&q, |p| {
            if let Some(j) = self.index(p) {
                if k < found.len() {
                    found[k] = j;
                    k += 1;
                } else {
                    more.push(j);
                }
            }
        });
        if more.is_empty() {
            let found = &mut found[..k];
            found.sort_unstable();
            let mut last = u32::MAX;
            for &j in found.iter() {
                if j != last {
                    f(j);
                    last = j;
                }
            }
        } else {
            more.extend_from_slice(&found);
            more.sort_unstable();
            more.dedup();
            more.into_iter().for_each(f);
        }
    }
}

impl<G: TieredGame> GameGraph for DenseTier<'_, G> {
    fn vertex_count(&self) -> usize {
        self.n as usize + ((self.longest as usize + 1) * KINDS as usize)
    }

    fn out_degree(&self, v: u32) -> u32 {
        let mut d = 0;
        self.for_each_successor(v, |_| d += 1);
        d
    }

    /// A position of the tier: its un-moves. A stand-in: none listed (see
    /// the type's docs).
    fn for_each_predecessor<F: FnMut(u32)>(&self, v: u32, mut f: F) {
        if v < self.n {
            self.unmoves(v, &mut f);
        }
    }

    fn terminal(&self, v: u32) -> Option<Outcome> {
        if v < self.n {
            return self.position(v).and_then(|p| self.game.terminal(&p));
        }
        match self.stand_in_value(v) {
            (Outcome::Draw, _) => None,
            (o, 0) => Some(o),
            _ => None,
        }
    }

    fn is_position(&self, v: u32) -> bool {
        v >= self.n || self.position(v).is_some()
    }

    fn owner(&self, v: u32) -> Option<Player> {
        if v >= self.n || !self.owners.load(Relaxed) {
            return None;
        }
        self.position(v).and_then(|p| self.game.owner(&p))
    }
}

impl<G: TieredGame> Successors for DenseTier<'_, G> {
    fn for_each_successor<F: FnMut(u32)>(&self, v: u32, mut f: F) {
        if v >= self.n {
            match self.stand_in_value(v) {
                (Outcome::Draw, _) => f(v),
                (_, 0) => {}
                (o, r) => f(self.stand_in(flip(o) as u8, r - 1)),
            }
            return;
        }
        let Some(p) = self.position(v) else { return };
        self.game.for_each_move(&p, |q| {
            if self.game.tier(&q) == self.tier {
                if let Some(j) = self.index(q) {
                    f(j);
                }
            } else {
                let q = self.game.canonical(q);
                let (code, r) = self.probe(&p, &q);
                f(self.stand_in(code, r));
            }
        });
    }
}

fn flip(o: Outcome) -> Outcome {
    match o {
        Outcome::Win => Outcome::Lose,
        Outcome::Lose => Outcome::Win,
        o => o,
    }
}

/// Positions a task of the start takes.
const CHUNK: usize = 1 << 14;

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
/// tier's database, a block of which is read once), the un-moves of every
/// position decided once. Memory: 3 bytes a number (5 if some remoteness
/// reaches 65535), 4 a position with a move into another tier while
/// others are decided in the tier (none where no move stays in it), the
/// blocks of the children's databases its moves reach, and the two largest
/// levels.
pub(super) fn solve<G: TieredGame>(
    view: &DenseTier<'_, G>,
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
    let draws: usize = state[..n]
        .par_iter_mut()
        .with_min_len(CHUNK)
        .map(|s| {
            *s = kernel::undecided_to_draw(*s);
            usize::from(*s == kernel::DRAW)
        })
        .sum();
    progress.advance(draws as u64);
    // The stand-ins.
    rem.fit(view.longest + 1);
    for v in view.n as usize..total {
        let (o, r) = view.stand_in_value(v as u32);
        state[v] = o as u8;
        if o != Outcome::Draw {
            rem.set(v, r);
        }
    }
    progress.end();
    Ok(Values::new(state, rem))
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
            let mut inside = Vec::new();
            let mut out = Started {
                inside: 0,
                wide: false,
                ties: Vec::new(),
            };
            for (j, (s, r)) in states.iter_mut().zip(rems.iter_mut()).enumerate() {
                let i = (k * CHUNK + j) as u32;
                match view.examine(i, &mut inside, true) {
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
            let mut inside = Vec::new();
            for (j, (c, &s)) in c.iter_mut().zip(states.iter()).enumerate() {
                if s == UNDECIDED {
                    if let Examined::Open { inside, outside } =
                        view.examine((k * CHUNK + j) as u32, &mut inside, true)
                    {
                        *c = inside + outside.counted();
                    }
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
pub(super) struct DenseSolution<'g, G: TieredGame> {
    pub(super) solved: Solved<DenseTier<'g, G>>,
}

impl<'g, G: TieredGame> DenseSolution<'g, G> {
    /// Solves `view` under the game's rule for a position without moves.
    pub(super) fn solve(
        view: DenseTier<'g, G>,
        progress: &dyn Progress,
    ) -> Result<DenseSolution<'g, G>, TierError> {
        let rules = Rules {
            no_move: view.game.no_move(),
            labels: crate::Labels::default(),
        };
        let values = solve(&view, rules.no_move, progress)?;
        let name = view.name.clone();
        let solved = Solved::new(view, rules, values).map_err(|e| TierError::Solve {
            tier: name,
            source: e.into(),
        })?;
        Ok(DenseSolution { solved })
    }

    /// The tier as a graph.
    pub(super) fn view(&self) -> &DenseTier<'g, G> {
        self.solved.graph()
    }
}

/// What [`check_unmoves`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UnmoveCheck {
    /// The tier's positions.
    pub positions: u64,
    /// Its moves within the tier, each pair of positions once.
    pub moves: u64,
    /// The same pairs, as the un-moves give them.
    pub unmoves: u64,
    /// Some of the pairs found one way and not the other (at most the
    /// number asked for).
    pub mismatches: Vec<UnmoveMismatch>,
}

impl UnmoveCheck {
    /// Whether the un-moves are the moves reversed.
    pub fn is_ok(&self) -> bool {
        self.moves == self.unmoves && self.mismatches.is_empty()
    }
}

/// A move within a tier that its un-moves do not give back, or the
/// reverse, in the game's notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnmoveMismatch {
    /// The position moved from.
    pub from: String,
    /// The position reached.
    pub to: String,
    /// True: a move the un-moves of `to` miss; false: an un-move of `to`
    /// that is no move of `from`.
    pub missed: bool,
}

/// Checks a tier's un-moves against its moves: every pair of positions
/// `p -> q` within tier `tier` that the moves give, the un-moves of `q`
/// give, and nothing else; a number the un-moves reach outside the tier's
/// range is a fault too. Keeps up to `keep` mismatches, in the game's
/// notation.
///
/// The un-moves' contract (see [`TieredGame::for_each_unmove`]) counts
/// each pair once, however many moves join them or in whatever form the
/// un-moves give `p`: so does this check.
///
/// # Errors
/// A tier not on the dense rung ([`TierError::NotDense`]), one too large
/// for `u32` ids, or a number that falls outside the tier.
///
/// # Complexity
/// Time **O(V + E)**: the moves and the un-moves of every position
/// generated once each, and once more for the positions of a mismatch.
/// Memory **O(1)** beyond the game's own: the pairs are compared by
/// count and by a sum of their hashes, then searched only if those differ.
pub fn check_unmoves<G: TieredGame>(
    game: &G,
    tier: &G::Tier,
    keep: usize,
) -> Result<UnmoveCheck, TierError> {
    let name = game.tier_name(tier);
    let Some(numbers) = game.tier_numbers(tier) else {
        return Err(TierError::NotDense { tier: name });
    };
    let view = DenseTier::new(game, tier.clone(), numbers, Vec::new())?;
    let n = view.n;
    let pair = |p: u32, q: u32| crate::graph::splitmix64(u64::from(p) << 32 | u64::from(q));
    let sums = (0..n)
        .into_par_iter()
        .with_min_len(CHUNK)
        .fold(
            || (Sums::default(), Vec::new()),
            |(mut sums, mut inside), i| {
                match view.examine(i, &mut inside, false) {
                    Examined::Absent => return (sums, inside),
                    Examined::Terminal(_) => {}
                    Examined::Open { .. } => {
                        for &j in &inside {
                            sums.moves += 1;
                            sums.move_hashes = sums.move_hashes.wrapping_add(pair(i, j));
                        }
                    }
                }
                sums.positions += 1;
                view.unmoves(i, &mut |j| {
                    sums.unmoves += 1;
                    sums.unmove_hashes = sums.unmove_hashes.wrapping_add(pair(j, i));
                });
                (sums, inside)
            },
        )
        .map(|(sums, _)| sums)
        .reduce(Sums::default, Sums::add);
    if let Some(fault) = view.take_fault() {
        return Err(fault);
    }
    let mut check = UnmoveCheck {
        positions: sums.positions,
        moves: sums.moves,
        unmoves: sums.unmoves,
        mismatches: Vec::new(),
    };
    if sums.moves != sums.unmoves || sums.move_hashes != sums.unmove_hashes {
        check.mismatches = mismatches(&view, keep.max(1));
    }
    if let Some(fault) = view.take_fault() {
        return Err(fault);
    }
    Ok(check)
}

/// The pairs counted and hashed one way and the other.
#[derive(Clone, Copy, Debug, Default)]
struct Sums {
    positions: u64,
    moves: u64,
    move_hashes: u64,
    unmoves: u64,
    unmove_hashes: u64,
}

impl Sums {
    fn add(self, o: Sums) -> Sums {
        Sums {
            positions: self.positions + o.positions,
            moves: self.moves + o.moves,
            move_hashes: self.move_hashes.wrapping_add(o.move_hashes),
            unmoves: self.unmoves + o.unmoves,
            unmove_hashes: self.unmove_hashes.wrapping_add(o.unmove_hashes),
        }
    }
}

/// Up to `keep` pairs found one way and not the other.
fn mismatches<G: TieredGame>(view: &DenseTier<'_, G>, keep: usize) -> Vec<UnmoveMismatch> {
    let game = view.game;
    let found = Mutex::new(Vec::new());
    let full = AtomicBool::new(false);
    let show = |i: u32| {
        view.position(i)
            .map_or_else(|| i.to_string(), |p| game.notation(&p))
    };
    (0..view.n)
        .into_par_iter()
        .with_min_len(CHUNK)
        .for_each_init(Vec::new, |inside, i| {
            if full.load(Relaxed) {
                return;
            }
            let add = |m: UnmoveMismatch| {
                if let Ok(mut f) = found.lock() {
                    if f.len() < keep {
                        f.push(m);
                    }
                    if f.len() >= keep {
                        full.store(true, Relaxed);
                    }
                }
            };
            // The moves of i, each in the un-moves of where it lands.
            if let Examined::Open { .. } = view.examine(i, inside, false) {
                for &j in inside.iter() {
                    let mut back = false;
                    view.unmoves(j, &mut |k| back |= k == i);
                    if !back {
                        add(UnmoveMismatch {
                            from: show(i),
                            to: show(j),
                            missed: true,
                        });
                    }
                }
            }
            // The un-moves of i, each a move to i.
            let mut from = Vec::new();
            view.unmoves(i, &mut |k| from.push(k));
            for k in from {
                let mut moves = Vec::new();
                let open = matches!(view.examine(k, &mut moves, false), Examined::Open { .. });
                if !open || moves.binary_search(&i).is_err() {
                    add(UnmoveMismatch {
                        from: show(k),
                        to: show(i),
                        missed: false,
                    });
                }
            }
        });
    found.into_inner().unwrap_or_default()
}

/// Checks `db` as the database of `view`'s tier without trusting it: each
/// of the tier's numbers holds a value exactly where it is a position, and
/// every value agrees with its moves' (within the tier, and into the other
/// tiers' databases), by the certificate of every solve
/// ([`verify`](crate::verify())), keeping `keep` violations.
///
/// # Errors
/// A database that is not laid out as the tier's numbers, a position it
/// does not hold, a damaged database.
pub(super) fn check_database<G: TieredGame>(
    view: &DenseTier<'_, G>,
    db: &Database,
    keep: usize,
) -> Result<crate::registry::Checked, TierError> {
    laid_out(view, db)?;
    let n = view.len();
    let held = |i: u32| TierError::NotHeld {
        tier: view.name.clone(),
        position: view
            .position(i)
            .map_or_else(|| i.to_string(), |p| view.game.notation(&p)),
    };
    let values: Result<Vec<Option<Value>>, TierError> = (0..view.vertex_count() as u32)
        .into_par_iter()
        .map(|i| {
            if i >= n {
                let (o, r) = view.stand_in_value(i);
                return Ok(Some(Value::new(o, (o != Outcome::Draw).then_some(r))));
            }
            let stored = db.value(view.first() + u64::from(i))?;
            match (view.position(i).is_some(), stored) {
                (true, Some(v)) => Ok(Some(v)),
                (false, None) => Ok(None),
                _ => Err(held(i)),
            }
        })
        .collect();
    let values = Values::from_values(&values?);
    let positions = (0..n).filter(|&i| values.is_position(i)).count() as u64;
    let rules = Rules {
        no_move: view.game.no_move(),
        labels: crate::Labels::default(),
    };
    let solve_error = |e: crate::SolveError| TierError::Solve {
        tier: view.name.clone(),
        source: e.into(),
    };
    let solved = Solved::new(view, rules.clone(), values).map_err(solve_error)?;
    let report = crate::verify(view, &rules, &solved, keep).map_err(solve_error)?;
    if let Some(fault) = view.take_fault() {
        return Err(fault);
    }
    Ok(crate::registry::Checked {
        positions,
        moves: None,
        report,
    })
}

/// Refuses a database that does not keep `view`'s tier's numbers, one
/// record each, from its first.
fn laid_out<G: TieredGame>(view: &DenseTier<'_, G>, db: &Database) -> Result<(), TierError> {
    let numbers = view.first()..view.first() + u64::from(view.len());
    keeps_numbers(db, &view.name, &numbers)
}

/// Refuses a database that does not keep the numbers `numbers` of tier
/// `name`, one record each, from the first: one written by another
/// numbering of the game (an earlier version's).
pub(super) fn keeps_numbers(
    db: &Database,
    name: &str,
    numbers: &Range<u64>,
) -> Result<(), TierError> {
    let h = db.header();
    if h.keys.is_some() || h.first_key != numbers.start || h.records != numbers.end - numbers.start
    {
        return Err(TierError::Foreign {
            path: db.path().to_path_buf(),
            why: format!(
                "it keeps {} records from number {}{}, but tier {name} is numbered {}..{} (a database of another numbering of the game)",
                h.records,
                h.first_key,
                if h.keys.is_some() { " by key" } else { "" },
                numbers.start,
                numbers.end
            ),
        });
    }
    Ok(())
}
