//! The dense rung: a tier whose positions fill one range of the game's
//! numbers, and whose un-moves the game gives, solved by the lean engine
//! without exploring it (see the [module docs](super#the-dense-rung)).
//!
//! `mod.rs` the tier as a graph (its positions' moves numbered, moves into
//! other tiers valued from their databases, un-moves); `child.rs` a child
//! tier's records, read a block at a time; `solve.rs` the solve (the start,
//! the events from other tiers, the walk); `check.rs` the checks of the
//! un-moves and of a database.

mod check;
mod child;
mod solve;

pub use check::{UnmoveCheck, UnmoveMismatch, check_unmoves};
pub(crate) use check::{check_database, keeps_numbers};
pub(crate) use solve::DenseSolution;

use std::ops::Range;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use child::ChildRecords;

/// Positions a task of the start (and of a check) takes.
const CHUNK: usize = 1 << 14;

use super::view::Child;
use super::{TierError, TieredGame};
use crate::kernel::{self, LOSE, TIE, WIN};
use crate::{GameGraph, Outcome, Player, Successors, Value};

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

/// Room for one position's moves, kept from position to position.
pub(super) struct Scratch<P> {
    /// Its moves within the tier.
    pub inside: Vec<u32>,
    /// Its moves into other tiers, with their numbers.
    elsewhere: Vec<(P, Option<u64>)>,
}

impl<P> Default for Scratch<P> {
    fn default() -> Self {
        Scratch {
            inside: Vec::new(),
            elsewhere: Vec::new(),
        }
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
pub(crate) struct DenseTier<'g, G: TieredGame> {
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
    /// A tier of more numbers than `u32` ids allow; a child's database
    /// whose blocks cannot be read.
    pub(crate) fn new(
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
            children: children
                .into_iter()
                .map(ChildRecords::new)
                .collect::<Result<_, _>>()
                .map_err(TierError::Db)?,
            longest,
            owners: AtomicBool::new(false),
            failed: AtomicBool::new(false),
            fault: Mutex::new(None),
        })
    }

    /// Asks the game who moves at each position from now on, rather than
    /// only where a solve's start found some position naming its mover:
    /// for answers read back or checked, which have no start.
    pub(crate) fn ask_owners(&self) {
        self.owners.store(true, Relaxed);
    }

    /// Asks the game who moves at each position only if some position of
    /// the tier names its mover (every position looked at, on all threads,
    /// until one does): for a check of every position, whose moves would
    /// otherwise each be unnumbered to learn that no one is named.
    pub(crate) fn find_owners(&self) {
        use rayon::prelude::*;
        let named = (0..self.n).into_par_iter().with_min_len(CHUNK).any(|i| {
            self.position(i)
                .is_some_and(|p| self.game.owner(&p).is_some())
        });
        self.owners.store(named, Relaxed);
    }

    /// Gives back the memory of the children's records read so far: a
    /// later move into a child reads its block again.
    pub(crate) fn release_children(&mut self) {
        self.children.iter_mut().for_each(ChildRecords::release);
    }

    /// The tier's name.
    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    /// The game.
    pub(crate) fn game(&self) -> &'g G {
        self.game
    }

    /// The tier's own numbers: `0..n` here.
    pub(crate) fn len(&self) -> u32 {
        self.n
    }

    /// The first of the tier's numbers.
    pub(crate) fn first(&self) -> u64 {
        self.numbers.start
    }

    /// The first fault met while moves were generated.
    pub(crate) fn take_fault(&self) -> Option<TierError> {
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
    pub(crate) fn position(&self, i: u32) -> Option<G::Position> {
        if i >= self.n {
            return None;
        }
        self.game.position_of(self.numbers.start + u64::from(i))
    }

    /// The tier's number of `q`, a position of the tier in any form.
    #[inline]
    fn index(&self, q: G::Position) -> Option<u32> {
        match self.game.number_of(&q) {
            Some(c) if self.numbers.contains(&c) => Some((c - self.numbers.start) as u32),
            code => {
                self.fail(|| TierError::OutsideNumbers {
                    tier: self.name.clone(),
                    position: self.game.notation(&self.game.canonical(q)),
                    number: code,
                    numbers: self.numbers.clone(),
                });
                None
            }
        }
    }

    /// The value of `q`, a position of another tier (in any form: its
    /// canonical form has its mover and value), as the mover of `p` sees
    /// it: its state code and remoteness.
    fn probe(&self, p: &G::Position, q: &G::Position, number: Option<u64>) -> (u8, u32) {
        let v = self
            .value_elsewhere(q, number)
            .unwrap_or(Value::new(Outcome::Draw, None));
        let same = kernel::same_player(self.game.owner(p), self.game.owner(q));
        let code = kernel::seen(v.outcome as u8, same);
        (code, v.remoteness.unwrap_or(0))
    }

    fn value_elsewhere(&self, q: &G::Position, number: Option<u64>) -> Option<Value> {
        // By its number, in the child tier whose numbers hold it.
        if let Some(code) = number
            && let Some(child) = self.children.iter().find(|c| c.holds(code))
        {
            return self.held(child, q, code);
        }
        let to = self.game.tier(q);
        if to == self.tier {
            self.fail(|| TierError::OutsideNumbers {
                tier: self.name.clone(),
                position: self.game.notation(&self.game.canonical(q.clone())),
                number,
                numbers: self.numbers.clone(),
            });
            return None;
        }
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
        let Some(code) = number.or_else(|| self.game.number_of(q)) else {
            self.fail(|| TierError::NotNumbered {
                tier: child.name.clone(),
                position: self.game.notation(q),
            });
            return None;
        };
        self.held(child, q, code)
    }

    /// The value `child`'s database holds for `q`, numbered `code`.
    fn held(&self, child: &ChildRecords<G::Tier>, q: &G::Position, code: u64) -> Option<Value> {
        match child.value(code) {
            Ok(Some(v)) => Some(v),
            Ok(None) => {
                self.fail(|| TierError::NotInTier {
                    from: self.name.clone(),
                    to: child.name.clone(),
                    position: self.game.notation(&self.game.canonical(q.clone())),
                });
                None
            }
            Err(e) => {
                self.fail(|| TierError::Db(e));
                None
            }
        }
    }

    /// What number `i` is; its moves within the tier are left in
    /// `scratch.inside`, sorted, each position once. Its moves into other
    /// tiers are valued where `valued` says (else left out): numbered
    /// first, their records asked for ahead, then looked up.
    pub(crate) fn examine(
        &self,
        i: u32,
        scratch: &mut Scratch<G::Position>,
        valued: bool,
    ) -> Examined {
        let Scratch { inside, elsewhere } = scratch;
        inside.clear();
        elsewhere.clear();
        let Some(p) = self.position(i) else {
            return Examined::Absent;
        };
        if self.game.owner(&p).is_some() {
            self.owners.store(true, Relaxed);
        }
        if let Some(o) = self.game.terminal(&p) {
            return Examined::Terminal(o);
        }
        let numbers = &self.numbers;
        self.game.for_each_numbered_move(&p, |q, c| match c {
            Some(c) if numbers.contains(&c) => inside.push((c - numbers.start) as u32),
            _ if valued => {
                if let Some(c) = c
                    && let Some(child) = self.children.iter().find(|k| k.holds(c))
                {
                    child.prefetch(c);
                }
                elsewhere.push((q, c));
            }
            _ => {
                if self.game.tier(&q) == self.tier {
                    self.index(q);
                }
            }
        });
        let mut outside = Outside::default();
        for (q, c) in elsewhere.iter() {
            let (code, r) = self.probe(&p, q, *c);
            outside.add(code, r);
        }
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
    pub(crate) fn stand_in_value(&self, v: u32) -> (Outcome, u32) {
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
        let numbers = &self.numbers;
        self.game.for_each_numbered_move(&p, |q, c| match c {
            Some(c) if numbers.contains(&c) => f((c - numbers.start) as u32),
            _ => {
                let (code, r) = self.probe(&p, &q, c);
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
