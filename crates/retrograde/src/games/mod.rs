//! Built-in games, each written as a user's game is, on the rung of the
//! [ladder](crate#one-ladder-from-rules-to-speed) its size needs.
//!
//! - [`dobutsu`]: Dōbutsu shōgi, the 3 × 4 shogi for children, from its start.
//! - [`cop_thief`]: the cop and the thief on a rectangular board with walls and exits.
//! - [`dots_boxes`]: dots and boxes on small boards, where a player who
//!   completes a box moves again (a [`StateGame`](crate::StateGame) with owners).
//! - [`chess`]: pawnless chess endings, king and pieces against a lone king
//!   (a [`StateGame`](crate::StateGame)).
//! - [`nine_mens_morris`]: Nine Men's Morris by Gasser's rules, tier by
//!   tier by the stones on the board and in hand.
//! - [`teeko`]: Scarne's Teeko, drops then steps on a 5 × 5 board.
//! - [`tic_tac_toe`]: tic-tac-toe from its rules alone, the tutorial.
//!
//! Each has an `entry()`, its line in the [registry](crate::registry).

pub mod chess;
pub mod cop_thief;
pub mod dobutsu;
pub mod dots_boxes;
pub mod nine_mens_morris;
pub mod teeko;
/// Tic-tac-toe, from its rules alone: the tutorial
/// (`crates/retrograde/examples/tic_tac_toe.rs`), compiled here as it is.
#[allow(dead_code)]
#[path = "../../examples/tic_tac_toe.rs"]
pub mod tic_tac_toe;
