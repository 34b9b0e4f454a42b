//! The library's tests through its public interface, in one binary: each
//! file a module (one link for all of them).

#[path = "support/best_move.rs"]
mod best_move;
#[path = "support/strategy.rs"]
mod strategy;
#[path = "../examples/tic_tac_toe.rs"]
#[allow(dead_code)]
mod tutorial;

mod best_line;
mod database;
mod formats;
mod grundy;
mod owners;
mod properties;
mod state_games;
mod tiers;
