//! The built-in games of [retrograde], each written as a user's
//! game is, on the rung of the
//! [ladder](retrograde#one-ladder-from-rules-to-speed) its size needs, and
//! registered by one line in [`registry`], as the command line and the
//! Python package take them.
//!
//! ```
//! use retrograde::db::Meta;
//!
//! let games = retrograde_games::registry();
//! let ttt = games.open(&Meta::new("tic-tac-toe")).unwrap();
//! let solved = ttt.solve(&Default::default()).unwrap();
//! // Best play from the empty board: a tie.
//! assert_eq!(solved.start_value().unwrap().outcome, retrograde::Outcome::Tie);
//! ```
//!
//! - [`dobutsu`]: Dōbutsu shōgi, the 3 × 4 shogi for children, from its start.
//! - [`cop_thief`]: the cop and the thief on a rectangular board with walls and exits.
//! - [`dots_boxes`]: dots and boxes on small boards, where a player who
//!   completes a box moves again (a [`StateGame`](retrograde::StateGame) with owners).
//! - [`chess`]: pawnless chess endings, king and pieces against a lone king
//!   (a [`StateGame`](retrograde::StateGame)).
//! - [`nine_mens_morris`]: Nine Men's Morris by Gasser's rules, tier by
//!   tier by the stones on the board and in hand.
//! - [`teeko`]: Scarne's Teeko, drops then steps on a 5 × 5 board.
//! - [`tic_tac_toe`]: tic-tac-toe from its rules alone, the tutorial.
//!
//! Each has an `entry()`, its line in the [registry](retrograde::registry).
#![deny(missing_docs)]

use retrograde::registry::Registry;

pub mod chess;
pub mod cop_thief;
pub mod dobutsu;
pub mod dots_boxes;
pub mod nine_mens_morris;
pub mod teeko;
/// Tic-tac-toe, from its rules alone: the tutorial
/// (`crates/retrograde/examples/tic_tac_toe.rs`), compiled here as it is.
#[allow(dead_code)]
#[path = "../../retrograde/examples/tic_tac_toe.rs"]
pub mod tic_tac_toe;

/// Every built-in game, in the order `retrograde game list` names them:
/// each game's `entry()`, one line each. A program of one's own adds its
/// games with [`Registry::with`].
pub fn registry() -> Registry {
    Registry::new()
        .with(chess::entry())
        .with(cop_thief::entry())
        .with(tic_tac_toe::entry())
        .with(teeko::entry())
        .with(dobutsu::entry())
        .with(nine_mens_morris::entry())
        .with(dots_boxes::entry())
}
