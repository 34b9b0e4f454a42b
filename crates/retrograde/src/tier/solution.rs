//! [`TierSolution`]: one tier solved, explored or on the dense rung, as a
//! [`GameSolution`] the tools report and save.

use rayon::prelude::*;

use super::dense::DenseSolution;
use super::{Slot, TierView, TieredGame};
use crate::explore::StateSolution;
use crate::registry::{GameSolution, KeyOrder};
use crate::{Answers, Report, SolveError};

/// One tier solved: its positions' answers (the stand-ins uncounted), as a
/// [`GameSolution`] the tools report and save.
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

impl<G: TieredGame> GameSolution for TierSolution<'_, G> {
    fn answers(&self) -> &(dyn Answers + Sync) {
        match &self.0 {
            Inner::Explored { solution, .. } => solution.solved(),
            Inner::Dense(d) => &d.solved,
        }
    }

    fn key(&self, i: u32) -> Option<u64> {
        match &self.0 {
            Inner::Explored { solution, .. } => TierSolution::key_of(solution, i),
            Inner::Dense(d) => {
                let view = d.view();
                (i < view.len() && d.solved.values().is_position(i))
                    .then(|| view.first() + u64::from(i))
            }
        }
    }

    fn start(&self) -> Option<u32> {
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

    fn move_count(&self) -> Option<u64> {
        match &self.0 {
            Inner::Explored { solution, .. } => Some(solution.explored().move_count()),
            Inner::Dense(_) => None,
        }
    }

    fn uncounted(&self) -> Vec<u32> {
        match &self.0 {
            Inner::Explored { stand_ins, .. } => stand_ins.clone(),
            Inner::Dense(d) => (d.view().len()..d.solved.values().len() as u32).collect(),
        }
    }

    fn key_order(&self) -> KeyOrder {
        match &self.0 {
            Inner::Explored { .. } => KeyOrder::Any,
            Inner::Dense(d) => KeyOrder::Range {
                first: d.view().first(),
                records: u64::from(d.view().len()),
            },
        }
    }

    fn verify(&self, keep: usize) -> Result<Report, SolveError> {
        match &self.0 {
            Inner::Explored { solution, .. } => {
                let explored = solution.explored();
                crate::verify(explored, &explored.rules(), solution.solved(), keep)
            }
            Inner::Dense(d) => crate::verify(d.view(), d.solved.rules(), &d.solved, keep),
        }
    }

    fn solved_by(&self) -> Option<crate::registry::SolvedBy> {
        Some(crate::registry::SolvedBy {
            rung: crate::registry::Rung::Tiers,
            ids: match &self.0 {
                Inner::Explored { solution, .. } => Some(solution.explored().id_order()),
                Inner::Dense(_) => None,
            },
        })
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
