//! The library's own games: each is its module and one line here.

use super::Registry;
use crate::games::{chess, cop_thief, dobutsu, dots_boxes, nine_mens_morris, teeko, tic_tac_toe};

/// Every built-in game, in the order `game list` names them.
pub(super) fn all() -> Registry {
    Registry::new()
        .with(chess::entry())
        .with(cop_thief::entry())
        .with(tic_tac_toe::entry())
        .with(teeko::entry())
        .with(dobutsu::entry())
        .with(nine_mens_morris::entry())
        .with(dots_boxes::entry())
}
