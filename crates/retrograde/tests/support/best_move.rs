//! Whether a best move is acceptable, from the definitions: shared by the
//! property tests and the fuzz targets that tamper with solutions.

use retrograde::{Answers, GameGraph, Graph, Outcome, Rules};

/// Whether `m` is an acceptable best move of `v` in the correct solution
/// `s` of `g` under `rules`: none for a terminal position; else an edge
/// reaching the flipped outcome one ply shorter (any draw for a draw).
pub fn is_best_move<S: Answers>(g: &Graph, rules: &Rules, s: &S, v: u32, m: Option<u32>) -> bool {
    let terminal = rules.labels.get(v).is_some() || g.out_degree(v) == 0;
    match m {
        None => terminal,
        Some(_) if terminal => false,
        Some(m) => {
            g.successors(v).contains(&m)
                && match s.outcome(v) {
                    Outcome::Draw => s.outcome(m) == Outcome::Draw,
                    o => {
                        s.outcome(m) == o.flip()
                            && s.remoteness(m).map(|r| r + 1) == s.remoteness(v)
                    }
                }
        }
    }
}
