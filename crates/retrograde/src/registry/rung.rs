//! How a registered game was solved: the rung of the ladder it reached
//! and the order its positions' ids took ([`GameSolution::solved_by`](super::GameSolution::solved_by)).

use std::fmt;

/// The rungs of the ladder (see the [crate docs](crate#one-ladder-from-rules-to-speed)):
/// what a game gives decides how it is solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Rung {
    /// Rules alone ([`StateGame`](crate::StateGame) without numbers): explored by hash.
    Rules,
    /// Numbers ([`StateGame::encode`](crate::StateGame::encode)): explored by number.
    Numbers,
    /// Dense numbers and un-moves ([`Game`](crate::Game)): the lean engine,
    /// nothing explored.
    Dense,
    /// Tiers ([`TieredGame`](crate::tier::TieredGame)): a tier at a time.
    Tiers,
}

impl Rung {
    /// The rung's name: `rules`, `numbers`, `dense` or `tiers`.
    pub fn name(self) -> &'static str {
        match self {
            Rung::Rules => "rules",
            Rung::Numbers => "numbers",
            Rung::Dense => "dense",
            Rung::Tiers => "tiers",
        }
    }
}

/// How a registered game was solved ([`GameSolution::solved_by`](super::GameSolution::solved_by)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolvedBy {
    /// The rung its capabilities reached.
    pub rung: Rung,
    /// The order of its positions' ids, where it was explored.
    pub ids: Option<crate::explore::IdOrder>,
}

impl fmt::Display for SolvedBy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.rung {
            Rung::Rules => f.write_str("rules alone, explored by hash")?,
            Rung::Numbers => f.write_str("numbers, explored by number")?,
            Rung::Dense => f.write_str(
                "dense numbers and un-moves, the lean engine (nothing explored; ids are the game's numbers)",
            )?,
            Rung::Tiers => {
                f.write_str("tiers, a tier at a time")?;
                return match self.ids {
                    Some(ids) => write!(f, ", each explored; {ids}"),
                    None => f.write_str(
                        ", each on the dense rung (the lean engine, nothing explored)",
                    ),
                };
            }
        }
        match self.ids {
            Some(ids) => write!(f, "; {ids}"),
            None => Ok(()),
        }
    }
}
