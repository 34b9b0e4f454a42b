//! Random games for property tests, shared by the library's and the timely
//! engine's tests: multigraphs with self-loops and parallel edges (ids drawn
//! from a small range so that both are common), terminal labels of all four
//! values and either no-move rule.

use proptest::prelude::*;
use retrograde::{Labels, NoMoveRule, Outcome, Rules};

/// Every outcome.
pub const OUTCOMES: [Outcome; 4] = Outcome::ALL;

/// `(vertices, edges, rules)`: `vertices` in `sizes`, up to `3 · vertices + 2`
/// edges and up to `labels` labels.
pub fn random_game(
    sizes: std::ops::Range<usize>,
    labels: usize,
) -> impl Strategy<Value = (usize, Vec<(u32, u32)>, Rules)> {
    sizes.prop_flat_map(move |n| {
        let ids = 0..(n.max(1) as u32);
        let edges = if n == 0 {
            Just(Vec::new()).boxed()
        } else {
            prop::collection::vec((ids.clone(), ids.clone()), 0..3 * n + 2).boxed()
        };
        let labels = if n == 0 {
            Just(Vec::new()).boxed()
        } else {
            prop::collection::vec((ids, 0usize..4), 0..labels).boxed()
        };
        (Just(n), edges, labels, any::<bool>()).prop_map(|(n, edges, labels, misere)| {
            let rules = Rules {
                no_move: if misere {
                    NoMoveRule::Win
                } else {
                    NoMoveRule::Lose
                },
                labels: Labels::from_pairs(
                    labels.into_iter().map(|(v, o)| (v, OUTCOMES[o])).collect(),
                ),
            };
            (n, edges, rules)
        })
    })
}
