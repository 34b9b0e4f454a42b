//! Built-in games, each written against the [`Game`](crate::Game) trait.
//!
//! - [`cop_thief`]: the cop and the thief on a rectangular board with walls and exits.

pub mod cop_thief;
