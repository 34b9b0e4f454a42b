//! [`TierSolution`]: one tier solved, explored or on the dense rung, what
//! the tools report and save (the registry's `GameSolution`).

use rayon::prelude::*;

use super::dense::DenseSolution;
use super::{Slot, TierView, TieredGame};
use crate::explore::StateSolution;
use crate::{Answers, Report, SolveError};

/// One tier solved: its positions' answers (the stand-ins uncounted), what
/// the tools report and save (the registry's
/// [`GameSolution`](crate::registry::GameSolution)).
pub struct TierSolution<'g, G: TieredGame>(pub(super) Inner<'g, G>);

/// How a tier was solved.
pub(super) enum Inner<'g, G: TieredGame> {
    /// Explored from its positions, moves into other tiers sent to
    /// stand-ins.
    Explored {
        /// The solution, by position of the tier ([`Slot::In`]).
        solution: Box<StateSolution<TierView<'g, G>>>,
        /// The stand-ins' ids.
        stand_ins: Vec<u32>,
    },
    /// On the dense rung: by number within the tier, stand-ins after them.
    Dense(Box<DenseSolution<'g, G>>),
}

impl<'g, G: TieredGame> TierSolution<'g, G> {
    /// A tier explored, its stand-ins found.
    pub(super) fn explored(solution: StateSolution<TierView<'g, G>>) -> Self {
        let stand_ins = stand_ins(solution.explored());
        TierSolution(Inner::Explored {
            solution: Box::new(solution),
            stand_ins,
        })
    }

    /// The game.
    pub fn game(&self) -> &'g G {
        match &self.0 {
            Inner::Explored { solution, .. } => solution.game().game(),
            Inner::Dense(d) => d.view().game(),
        }
    }

    /// The tier's name.
    pub fn name(&self) -> &str {
        match &self.0 {
            Inner::Explored { solution, .. } => solution.game().name(),
            Inner::Dense(d) => d.view().name(),
        }
    }

    /// The value of `p`, a position of the tier in any form; `None` for
    /// one the tier does not hold.
    pub fn value(&self, p: &G::Position) -> Option<crate::Value> {
        match &self.0 {
            Inner::Explored { solution, .. } => solution.value(&Slot::In(p.clone())).ok(),
            Inner::Dense(d) => {
                let game = d.view().game();
                let code = game.number_of(p)?;
                let i = code.checked_sub(d.view().first())?;
                if i >= u64::from(d.view().len()) {
                    return None;
                }
                d.solved.value(i as u32)
            }
        }
    }

    /// The key in the tier's database of the explored solution's position `i`.
    pub(super) fn key_of(solution: &StateSolution<TierView<'g, G>>, i: u32) -> Option<u64> {
        match solution.explored().position(i)? {
            Slot::In(p) => super::key_of(solution.game().game(), &p),
            Slot::Out(..) => None,
        }
    }
}

impl<G: TieredGame> TierSolution<'_, G> {
    /// Every position's value and best move, by number.
    pub fn answers(&self) -> &(dyn Answers + Sync) {
        match &self.0 {
            Inner::Explored { solution, .. } => solution.solved(),
            Inner::Dense(d) => &d.solved,
        }
    }

    /// The database key of position `i`.
    pub fn key(&self, i: u32) -> Option<u64> {
        match &self.0 {
            Inner::Explored { solution, .. } => TierSolution::key_of(solution, i),
            Inner::Dense(d) => {
                let view = d.view();
                (i < view.len() && d.solved.values().is_position(i))
                    .then(|| view.first() + u64::from(i))
            }
        }
    }

    /// The number of the tier's one position, if it has only one.
    pub fn start(&self) -> Option<u32> {
        match &self.0 {
            Inner::Explored { solution, .. } => match solution.explored().starts() {
                [s] => Some(*s),
                _ => None,
            },
            // As explored: the tier's one position, where it has one.
            Inner::Dense(d) => {
                let values = d.solved.values();
                let mut positions = (0..d.view().len()).filter(|&i| values.is_position(i));
                match (positions.next(), positions.next()) {
                    (Some(s), None) => Some(s),
                    _ => None,
                }
            }
        }
    }

    /// The moves explored, where the tier was explored.
    pub fn move_count(&self) -> Option<u64> {
        match &self.0 {
            Inner::Explored { solution, .. } => Some(solution.explored().move_count()),
            Inner::Dense(_) => None,
        }
    }

    /// The numbers that stand for moves into other tiers: kept so that
    /// such moves are valued, not counted.
    pub fn uncounted(&self) -> Vec<u32> {
        match &self.0 {
            Inner::Explored { stand_ins, .. } => stand_ins.clone(),
            Inner::Dense(d) => (d.view().len()..d.solved.values().len() as u32).collect(),
        }
    }

    /// The keys the tier's numbers stand for, in order, where it was
    /// solved on the dense rung (`first..first + records`); `None` where it
    /// was explored (its keys in any order).
    pub fn key_range(&self) -> Option<std::ops::Range<u64>> {
        match &self.0 {
            Inner::Explored { .. } => None,
            Inner::Dense(d) => Some(d.view().first()..d.view().first() + u64::from(d.view().len())),
        }
    }

    /// Checks the tier's solution with the certificate of every solve,
    /// keeping `keep` violations.
    ///
    /// # Errors
    /// Never for a solution the tier solver made (as [`verify`](fn@crate::verify)).
    pub fn verify(&self, keep: usize) -> Result<Report, SolveError> {
        match &self.0 {
            Inner::Explored { solution, .. } => {
                let explored = solution.explored();
                crate::verify(explored, &explored.rules(), solution.solved(), keep)
            }
            Inner::Dense(d) => crate::verify(d.view(), d.solved.rules(), &d.solved, keep),
        }
    }

    /// How the ids of an explored tier run with the game's numbers;
    /// `None` on the dense rung (the ids are the numbers).
    pub fn id_order(&self) -> Option<crate::explore::IdOrder> {
        match &self.0 {
            Inner::Explored { solution, .. } => Some(solution.explored().id_order()),
            Inner::Dense(_) => None,
        }
    }
}

/// The ids of an explored tier's stand-ins.
pub(super) fn stand_ins<G: TieredGame>(
    explored: &crate::explore::Explored<TierView<'_, G>>,
) -> Vec<u32> {
    (0..explored.len() as u32)
        .into_par_iter()
        .filter(|&i| matches!(explored.position(i), Some(Slot::Out(..))))
        .collect()
}
