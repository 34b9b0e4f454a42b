//! The checks of a tier on the dense rung: its un-moves against its
//! moves, and a database against its tier.

use std::ops::Range;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use rayon::prelude::*;

use super::{CHUNK, DenseTier, Examined, Scratch};
use crate::db::Database;
use crate::tier::{TierError, TieredGame};
use crate::{Rules, Solved};

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
            || (Sums::default(), Scratch::default()),
            |(mut sums, mut scratch), i| {
                match view.examine(i, &mut scratch, false) {
                    Examined::Absent => return (sums, scratch),
                    Examined::Terminal(_) => {}
                    Examined::Open { .. } => {
                        for &j in &scratch.inside {
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
                (sums, scratch)
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
        .for_each_init(Scratch::default, |scratch, i| {
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
            if let Examined::Open { .. } = view.examine(i, scratch, false) {
                for &j in scratch.inside.clone().iter() {
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
                let open = matches!(view.examine(k, scratch, false), Examined::Open { .. });
                if !open || scratch.inside.binary_search(&i).is_err() {
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
pub(crate) fn check_database<G: TieredGame>(
    view: &DenseTier<'_, G>,
    db: &Database,
    keep: usize,
) -> Result<crate::db::Checked, TierError> {
    view.find_owners();
    let n = view.len();
    let values = super::solve::stored_values(view, db)?;
    // A value exactly where the tier has a position: checked with the
    // rest, a violation where not.
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
    Ok(crate::db::Checked {
        positions,
        moves: None,
        report,
    })
}

/// Refuses a database that does not keep the numbers `numbers` of tier
/// `name`, one record each, from the first: one written by another
/// numbering of the game (an earlier version's).
pub(crate) fn keeps_numbers(
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
