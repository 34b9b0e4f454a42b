//! Lines of best play, followed from any source of values.

use std::collections::HashMap;

use crate::{Outcome, Value};

/// A line of best play.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// The positions, starting with the one asked for.
    pub positions: Vec<u32>,
    /// True for a draw: best play goes on forever and only a prefix is shown.
    pub endless: bool,
    /// For a draw whose line came back to an earlier position: the ply of that
    /// position's first visit (the last entry of `positions` repeats it), after
    /// which play cycles forever.
    pub repeats_from: Option<usize>,
}

impl Line {
    /// The line of best play from `v` (see [`Answers::line`](crate::Answers::line)), asking
    /// `value` for values and `best_move` for best moves: for answers held
    /// anywhere (in memory, in a database, on other machines).
    pub fn follow(
        v: u32,
        max_plies: usize,
        mut value: impl FnMut(u32) -> Option<Value>,
        mut best_move: impl FnMut(u32) -> Option<u32>,
    ) -> Line {
        let Some(first) = value(v) else {
            return Line::default();
        };
        let endless = first.outcome == Outcome::Draw && best_move(v).is_some();
        let mut positions = vec![v];
        let mut seen = HashMap::new();
        let mut repeats_from = None;
        let mut cur = v;
        while let Some(next) = best_move(cur) {
            if endless {
                seen.insert(cur, positions.len() - 1);
                if positions.len() > max_plies {
                    break;
                }
                if let Some(&at) = seen.get(&next) {
                    positions.push(next);
                    repeats_from = Some(at);
                    break;
                }
            }
            positions.push(next);
            cur = next;
        }
        Line {
            positions,
            endless,
            repeats_from,
        }
    }
}
