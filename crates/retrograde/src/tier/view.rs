//! One tier as a game of its own: its positions, and for every move into a
//! child tier a stand-in of the value found in that tier's database.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use super::{TierError, TieredGame};
use crate::db::Database;
use crate::{NoMoveRule, Outcome, Player, StateGame, Value, kernel};

/// A position of a [`TierView`]: one of the tier's own, or a stand-in for a
/// value of a child tier (a win, loss or tie in `r` plies, or a draw).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Slot<P> {
    /// A position of the tier.
    In(P),
    /// A stand-in: worth exactly this outcome in this many plies
    /// (`Draw` with 0).
    Out(Outcome, u32),
}

/// The stand-ins' numbers: four a remoteness, below the tier's own.
const KINDS: u64 = 4;

fn kind(o: Outcome) -> u64 {
    match o {
        Outcome::Win => 0,
        Outcome::Lose => 1,
        Outcome::Tie => 2,
        Outcome::Draw => 3,
    }
}

const OUTCOMES: [Outcome; 4] = [Outcome::Win, Outcome::Lose, Outcome::Tie, Outcome::Draw];

/// A child tier, solved: its name and its database.
pub(super) struct Child<T> {
    pub tier: T,
    pub name: String,
    pub db: Database,
}

/// One tier of a [`TieredGame`] as a [`StateGame`]: explored from the
/// tier's positions, each move that leaves the tier sent to the stand-in
/// of the value it reaches (see the [module docs](super)).
pub struct TierView<'g, G: TieredGame> {
    game: &'g G,
    tier: G::Tier,
    name: String,
    children: Vec<Child<G::Tier>>,
    /// The stand-ins' numbers lie below this; the tier's own are shifted up by it.
    offset: u64,
    failed: AtomicBool,
    fault: Mutex<Option<TierError>>,
}

impl<'g, G: TieredGame> TierView<'g, G> {
    pub(super) fn new(game: &'g G, tier: G::Tier, children: Vec<Child<G::Tier>>) -> Self {
        let longest = children
            .iter()
            .filter_map(|c| c.db.header().longest)
            .max()
            .unwrap_or(0);
        TierView {
            name: game.tier_name(&tier),
            game,
            tier,
            children,
            offset: (u64::from(longest) + 1) * KINDS,
            failed: AtomicBool::new(false),
            fault: Mutex::new(None),
        }
    }

    /// The tier's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The first fault met while moves were generated, if any: a move to an
    /// undeclared tier, or to a position a child's database does not hold.
    pub(super) fn take_fault(&self) -> Option<TierError> {
        if !self.failed.load(Ordering::Relaxed) {
            return None;
        }
        self.fault.lock().ok().and_then(|mut f| f.take())
    }

    fn fail(&self, e: impl FnOnce() -> TierError) {
        if self.failed.swap(true, Ordering::Relaxed) {
            return;
        }
        if let Ok(mut f) = self.fault.lock() {
            *f = Some(e());
        }
    }

    /// The value of `q`, a position of another tier (canonical).
    fn probe(&self, q: &G::Position) -> Option<Value> {
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
        let Some(code) = super::key_of(self.game, q) else {
            self.fail(|| TierError::NotNumbered {
                tier: child.name.clone(),
                position: self.game.notation(q),
            });
            return None;
        };
        match child.db.value(code) {
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

    /// The game.
    pub fn game(&self) -> &'g G {
        self.game
    }

    /// The tier.
    pub fn tier(&self) -> &G::Tier {
        &self.tier
    }
}

impl<G: TieredGame> StateGame for TierView<'_, G> {
    type Position = Slot<G::Position>;

    fn starts(&self) -> Vec<Self::Position> {
        self.game
            .tier_positions(&self.tier)
            .into_iter()
            .map(Slot::In)
            .collect()
    }

    fn for_each_move<F: FnMut(Self::Position)>(&self, p: &Self::Position, mut f: F) {
        match p {
            Slot::In(p) => self.game.for_each_move(p, |q| {
                if self.game.tier(&q) == self.tier {
                    f(Slot::In(q));
                } else {
                    let q = self.game.canonical(q);
                    let v = self.probe(&q).unwrap_or(Value::new(Outcome::Draw, None));
                    // A stand-in names no mover, so the move into it passes
                    // the turn: where it keeps it, the stand-in holds the
                    // value the other way round.
                    let v = match kernel::same_player(self.game.owner(p), self.game.owner(&q)) {
                        true => Value::new(flip(v.outcome), v.remoteness),
                        false => v,
                    };
                    f(stand_in(v));
                }
            }),
            Slot::Out(Outcome::Draw, _) => f(p.clone()),
            Slot::Out(_, 0) => {}
            Slot::Out(o, r) => f(Slot::Out(flip(*o), r - 1)),
        }
    }

    fn terminal(&self, p: &Self::Position) -> Option<Outcome> {
        match p {
            Slot::In(p) => self.game.terminal(p),
            Slot::Out(Outcome::Draw, _) => None,
            Slot::Out(o, 0) => Some(*o),
            Slot::Out(..) => None,
        }
    }

    fn canonical(&self, p: Self::Position) -> Self::Position {
        match p {
            Slot::In(p) => Slot::In(self.game.canonical(p)),
            out => out,
        }
    }

    /// The game's own owner of a position of the tier; a stand-in names none.
    fn owner(&self, p: &Self::Position) -> Option<Player> {
        match p {
            Slot::In(p) => self.game.owner(p),
            Slot::Out(..) => None,
        }
    }

    fn notation(&self, p: &Self::Position) -> String {
        match p {
            Slot::In(p) => self.game.notation(p),
            Slot::Out(o, r) => format!("a position of a child tier ({o:?} in {r})"),
        }
    }

    fn encode(&self, p: &Self::Position) -> Option<u64> {
        match p {
            Slot::In(p) => self.game.encode(p)?.checked_add(self.offset),
            Slot::Out(o, r) => Some(u64::from(*r) * KINDS + kind(*o)),
        }
    }

    fn decode(&self, code: u64) -> Option<Self::Position> {
        if code >= self.offset {
            return self.game.decode(code - self.offset).map(Slot::In);
        }
        let o = OUTCOMES[(code % KINDS) as usize];
        let r = u32::try_from(code / KINDS).ok()?;
        (o != Outcome::Draw || r == 0).then_some(Slot::Out(o, r))
    }

    fn no_move(&self) -> NoMoveRule {
        self.game.no_move()
    }
}

/// The stand-in of value `v`.
fn stand_in<P>(v: Value) -> Slot<P> {
    match v.remoteness {
        Some(r) if v.outcome != Outcome::Draw => Slot::Out(v.outcome, r),
        _ => Slot::Out(Outcome::Draw, 0),
    }
}

/// The value one ply before: a loss in `r` comes before a win in `r - 1`.
fn flip(o: Outcome) -> Outcome {
    match o {
        Outcome::Win => Outcome::Lose,
        Outcome::Lose => Outcome::Win,
        other => other,
    }
}
