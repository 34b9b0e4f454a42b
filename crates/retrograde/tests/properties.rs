//! The backbone of correctness: the fast solver agrees with the slow one
//! written from the definitions, on thousands of random multigraphs.

use proptest::prelude::*;
use retrograde::solve::reference::solve_reference;
use retrograde::solve::solve_lean;
use retrograde::{solve, Csr, GameGraph, Labels, NoMoveRule, Outcome, Rules, Solution};

/// A random game: up to 24 vertices, edges with self-loops and parallel edges
/// (drawn from a small range so that both are common), a no-move rule and
/// random terminal labels.
fn game() -> impl Strategy<Value = (Csr, Rules)> {
    (1usize..24)
        .prop_flat_map(|n| {
            let v = 0..n as u32;
            (
                Just(n),
                prop::collection::vec((v.clone(), v.clone()), 0..n * 3),
                any::<bool>(),
                prop::collection::vec((v, 0u8..3), 0..4),
            )
        })
        .prop_map(|(n, edges, misere, labels)| {
            let g = Csr::from_edges(n, &edges).with_successors();
            let labels = labels
                .into_iter()
                .map(|(v, o)| (v, [Outcome::Win, Outcome::Lose, Outcome::Draw][o as usize]))
                .collect();
            let rules = Rules {
                no_move: if misere {
                    NoMoveRule::Win
                } else {
                    NoMoveRule::Lose
                },
                labels: Labels::from_pairs(labels),
            };
            (g, rules)
        })
}

/// Checks the local conditions a solution must satisfy, independently of how
/// best moves were chosen.
fn check_local(g: &Csr, rules: &Rules, s: &Solution) {
    for v in 0..g.vertex_count() as u32 {
        let terminal = rules.labels.get(v).is_some() || g.out_degree(v) == 0;
        let succ = g.successors(v);
        match (s.outcome(v), s.best_move(v)) {
            (_, None) => assert!(terminal, "non-terminal {v} has no best move"),
            (o, Some(m)) => {
                assert!(!terminal, "terminal {v} has a best move");
                assert!(succ.contains(&m), "best move {v}->{m} is not an edge");
                match o {
                    Outcome::Win => {
                        assert_eq!(s.outcome(m), Outcome::Lose);
                        assert_eq!(s.remoteness(m).unwrap() + 1, s.remoteness(v).unwrap());
                    }
                    Outcome::Lose => {
                        assert_eq!(s.remoteness(m).unwrap() + 1, s.remoteness(v).unwrap())
                    }
                    Outcome::Draw => assert_eq!(s.outcome(m), Outcome::Draw),
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn solver_matches_reference_on_random_multigraphs((g, rules) in game()) {
        let fast = solve(&g, &rules).unwrap();
        let slow = solve_reference(&g, &rules);
        check_local(&g, &rules, &slow);
        for v in 0..g.vertex_count() as u32 {
            prop_assert_eq!(
                (fast.outcome(v), fast.remoteness(v), fast.best_move(v)),
                (slow.outcome(v), slow.remoteness(v), slow.best_move(v)),
                "vertex {}", v
            );
        }
        prop_assert_eq!(fast, slow);
    }

    #[test]
    fn lean_solver_matches_reference_with_best_moves_on_demand((g, rules) in game()) {
        let lean = solve_lean(&g, &rules).unwrap();
        let slow = solve_reference(&g, &rules);
        for v in 0..g.vertex_count() as u32 {
            prop_assert_eq!(
                (lean.outcome(v), lean.remoteness(v), lean.best_move_in(&g, &rules, v)),
                (slow.outcome(v), slow.remoteness(v), slow.best_move(v)),
                "vertex {}", v
            );
        }
        prop_assert_eq!(lean.with_best_moves(&g, &rules), slow);
    }

    #[test]
    fn graph_keeps_every_edge_with_multiplicity(
        edges in prop::collection::vec((0u32..16, 0u32..16), 0..64)
    ) {
        let g = Csr::from_edges(16, &edges).with_successors();
        let mut got: Vec<_> = g.edges().collect();
        let mut want = edges.clone();
        got.sort();
        want.sort();
        prop_assert_eq!(got, want);
        for v in 0..16u32 {
            prop_assert_eq!(g.out_degree(v) as usize, edges.iter().filter(|e| e.0 == v).count());
            prop_assert_eq!(g.successors(v).len(), g.out_degree(v) as usize);
        }
    }

    #[test]
    fn flipping_the_no_move_rule_on_a_dag_flips_every_outcome(
        edges in prop::collection::vec((0u32..20, 0u32..20), 0..60)
    ) {
        // Only forward edges: acyclic, so no draws, and misère mirrors normal play.
        let dag: Vec<_> = edges.into_iter().filter(|(u, v)| u < v).collect();
        let g = Csr::from_edges(20, &dag);
        let normal = solve(&g, &Rules::normal()).unwrap();
        let misere = solve(&g, &Rules::misere()).unwrap();
        for v in 0..20 {
            prop_assert_ne!(normal.outcome(v), Outcome::Draw);
            prop_assert_ne!(misere.outcome(v), Outcome::Draw);
        }
        // Terminal positions flip; everything above may change in any way, but
        // each solution must be locally consistent.
        let g = g.with_successors();
        check_local(&g, &Rules::normal(), &normal);
        check_local(&g, &Rules::misere(), &misere);
    }
}
