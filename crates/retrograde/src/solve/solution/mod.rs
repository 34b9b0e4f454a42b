//! The results of a solve: the values of every position ([`Values`]), with
//! best moves stored ([`Solution`]) or computed from the game it holds
//! ([`Solved`]), and what every kind answers ([`Answers`]).

mod answers;
mod histogram;
mod line;
mod remoteness;
mod solved;
mod values;

pub use answers::{Answers, Lookup};
pub use histogram::{Histogram, HistogramCounter, Summary};
pub use line::Line;
pub use remoteness::Remoteness;
pub use solved::{IntoParts, MoveValue, Solution, Solved};
pub use values::Values;
