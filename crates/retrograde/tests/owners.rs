//! Games where a player may move twice in a row: arenas whose vertices have
//! owners. Every engine against the slow solver written from the
//! definitions, on random multigraphs with owners, self-loops, parallel
//! edges, labels of every value and both no-move rules; `verify` accepts
//! exactly their answers; and the outcomes against an independent
//! construction: every move that keeps the turn split in two by a forced
//! pass of the opponent, which alternates strictly.

use proptest::prelude::*;
use retrograde::graph::Arena;
use retrograde::solve::reference::solve_reference;
use retrograde::solve::{solve_lean, solve_parallel};
use retrograde::{
    Answers, Csr, Game, GameGraph, Graph, NoMoveRule, Outcome, Player, Rules, Solution, Solved,
    StateGame, solve, solve_game, solve_states, verify,
};

use crate::strategy;
use strategy::random_game;

/// A random arena: a random game (see [`random_game`]) and an owner for
/// every vertex.
fn arena() -> impl Strategy<Value = (Arena<Graph>, Rules)> {
    random_game(1..24, 5).prop_flat_map(|(n, edges, rules)| {
        (
            Just(n),
            Just(edges),
            Just(rules),
            prop::collection::vec(any::<bool>(), n),
        )
            .prop_map(|(n, edges, rules, owned)| {
                let owners = owned
                    .iter()
                    .map(|&b| if b { Player::Second } else { Player::First })
                    .collect();
                let g = Csr::from_edges(n, &edges).with_successors();
                (Arena::new(g, owners).unwrap(), rules)
            })
    })
}

/// The local conditions of a solution, from the definitions: a best move
/// leads to a position whose value, for the mover, is the position's own,
/// one ply shorter.
fn check_local(a: &Arena<Graph>, rules: &Rules, s: &Solution) {
    for v in 0..a.vertex_count() as u32 {
        let terminal = rules.labels.get(v).is_some() || a.out_degree(v) == 0;
        let Some(m) = s.best_move(v) else {
            assert!(terminal, "non-terminal {v} has no best move");
            continue;
        };
        assert!(!terminal, "terminal {v} has a best move");
        assert!(a.graph().successors(v).contains(&m), "{v}->{m} is no move");
        let here = s.value(v).unwrap();
        let there = s.value(m).unwrap();
        let same = a.owners()[v as usize] == a.owners()[m as usize];
        let for_mover = if same {
            there.outcome
        } else {
            there.outcome.flip()
        };
        assert_eq!(for_mover, here.outcome, "{v}->{m}");
        if here.outcome != Outcome::Draw {
            assert_eq!(there.remoteness.unwrap() + 1, here.remoteness.unwrap());
        }
    }
}

/// The arena with every move that keeps the turn, `u -> v`, replaced by
/// `u -> x -> v` through a new vertex `x` where the opponent has that one
/// move: a strictly alternating game with the same outcomes at the
/// arena's vertices (plies differ). Parallel moves get a vertex each.
fn with_passes(a: &Arena<Graph>) -> Csr {
    let n = a.vertex_count() as u32;
    let mut edges = Vec::new();
    let mut next = n;
    for u in 0..n {
        for &v in a.graph().successors(u) {
            if a.owners()[u as usize] == a.owners()[v as usize] {
                edges.extend([(u, next), (next, v)]);
                next += 1;
            } else {
                edges.push((u, v));
            }
        }
    }
    Csr::from_edges(next as usize, &edges)
}

/// The arena as a state game (positions are vertices, owners its own)
/// and as a numbered game.
struct ArenaGame<'a> {
    a: &'a Arena<Graph>,
    rules: &'a Rules,
}

impl StateGame for ArenaGame<'_> {
    type Position = u32;
    fn starts(&self) -> Vec<u32> {
        (0..self.a.vertex_count() as u32).collect()
    }
    fn for_each_move<F: FnMut(u32)>(&self, p: &u32, mut f: F) {
        self.a.graph().successors(*p).iter().for_each(|&q| f(q));
    }
    fn terminal(&self, p: &u32) -> Option<Outcome> {
        self.rules.labels.get(*p)
    }
    fn no_move(&self) -> NoMoveRule {
        self.rules.no_move
    }
    fn owner(&self, p: &u32) -> Option<Player> {
        Some(self.a.owners()[*p as usize])
    }
}

impl Game for ArenaGame<'_> {
    fn position_count(&self) -> usize {
        self.a.vertex_count()
    }
    fn for_each_move<F: FnMut(u32)>(&self, p: u32, f: F) {
        self.a.graph().successors(p).iter().copied().for_each(f);
    }
    fn for_each_unmove<F: FnMut(u32)>(&self, q: u32, f: F) {
        self.a.graph().predecessors(q).iter().copied().for_each(f);
    }
    fn terminal(&self, p: u32) -> Option<Outcome> {
        self.rules.labels.get(p)
    }
    fn owner(&self, p: u32) -> Option<Player> {
        Some(self.a.owners()[p as usize])
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn every_engine_matches_the_reference_on_random_arenas((a, rules) in arena()) {
        let slow = solve_reference(&a, &rules);
        check_local(&a, &rules, &slow);
        let seq = solve(&a, &rules).unwrap();
        for v in 0..a.vertex_count() as u32 {
            prop_assert_eq!(
                (seq.value(v), seq.best_move(v)),
                (slow.value(v), slow.best_move(v)),
                "vertex {}", v
            );
        }
        prop_assert_eq!(&seq, &slow);
        let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
        let par = pool.install(|| solve_parallel(&a, &rules).unwrap());
        prop_assert_eq!(&par, &seq);
        let lean = Solved::new(&a, rules.clone(), solve_lean(&a, &rules).unwrap()).unwrap();
        prop_assert_eq!(lean.into_solution(), seq);
    }

    #[test]
    fn verify_accepts_the_answer_and_refuses_a_changed_value(
        (a, rules) in arena(),
        pick in any::<prop::sample::Index>(),
        change in 1u8..4,
    ) {
        let s = solve(&a, &rules).unwrap();
        let report = verify(&a, &rules, &s, 10).unwrap();
        prop_assert!(report.is_ok(), "{:?}", report.violations);
        // Another outcome at one vertex, the rest kept: refused.
        let v = pick.index(a.vertex_count()) as u32;
        let x = s.value(v).unwrap();
        let o = Outcome::ALL[(Outcome::ALL.iter().position(|&o| o == x.outcome).unwrap() + change as usize) % 4];
        let r = if o == Outcome::Draw { None } else { Some(x.remoteness.unwrap_or(0)) };
        let n = a.vertex_count() as u32;
        let mut outcomes: Vec<u8> = (0..n).map(|w| s.outcome(w) as u8).collect();
        let mut rem: Vec<u32> = (0..n).map(|w| s.remoteness(w).unwrap_or(u32::MAX)).collect();
        let best: Vec<u32> = (0..n).map(|w| s.best_move(w).unwrap_or(u32::MAX)).collect();
        outcomes[v as usize] = o as u8;
        rem[v as usize] = r.unwrap_or(u32::MAX);
        let t = Solution::try_from_arrays(outcomes, rem, best).unwrap();
        let report = verify(&a, &rules, &t, 10).unwrap();
        prop_assert!(!report.is_ok(), "vertex {} changed to {} was accepted", v, o);
    }

    #[test]
    fn outcomes_match_the_game_with_forced_passes((a, rules) in arena()) {
        let s = solve(&a, &rules).unwrap();
        let passes = solve(&with_passes(&a), &rules).unwrap();
        for v in 0..a.vertex_count() as u32 {
            prop_assert_eq!(s.outcome(v), passes.outcome(v), "vertex {}", v);
        }
    }

    #[test]
    fn a_state_game_and_a_numbered_game_with_owners_solve_as_their_arena((a, rules) in arena()) {
        let s = solve(&a, &rules).unwrap();
        let game = ArenaGame { a: &a, rules: &rules };
        let states = solve_states(&game).unwrap();
        for v in 0..a.vertex_count() as u32 {
            prop_assert_eq!(states.value(&v).unwrap(), s.value(v).unwrap(), "vertex {}", v);
            let moves = states.moves(&v).unwrap();
            let mine = Solved::new(&a, rules.clone(), s.values().clone()).unwrap().moves(v);
            let mut a_values: Vec<_> = moves.iter().map(|m| m.value).collect();
            let mut b_values: Vec<_> = mine.iter().map(|m| m.value).collect();
            a_values.sort_by_key(|x| format!("{x}"));
            b_values.sort_by_key(|x| format!("{x}"));
            prop_assert_eq!(a_values, b_values, "moves of {}", v);
            if let Some(first) = moves.first() {
                prop_assert_eq!(first.value, s.value(v).unwrap(), "best move of {}", v);
            }
        }
        let numbered = solve_game(&game, &rules).unwrap();
        for v in 0..a.vertex_count() as u32 {
            prop_assert_eq!(numbered.value(v), s.value(v), "vertex {}", v);
            prop_assert_eq!(numbered.best_move(v), s.best_move(v), "vertex {}", v);
        }
    }
}

#[test]
fn an_arena_where_every_move_passes_the_turn_is_the_plain_graph() {
    // Owners alternate along every move of a bipartite graph.
    let edges = [(0, 1), (1, 2), (2, 3), (3, 0), (1, 4), (2, 5), (5, 5 - 1)];
    let g = Csr::from_edges(6, &edges).with_successors();
    let owners = [0, 1, 0, 1, 0, 1]
        .map(|i| Player::from_index(i).unwrap())
        .to_vec();
    let a = Arena::new(g.clone(), owners).unwrap();
    assert_eq!(
        solve(&a, &Rules::normal()).unwrap(),
        solve(&g, &Rules::normal()).unwrap()
    );
}

#[test]
fn a_player_who_moves_again_keeps_the_value_for_himself() {
    // 0 (player 0) -> 1 (player 0) -> 2 (player 1, stuck): player 0 wins
    // in 2, moving twice; from 1 he wins in 1.
    let g = Csr::from_edges(3, &[(0, 1), (1, 2)]).with_successors();
    let a = Arena::new(g, vec![Player::First, Player::First, Player::Second]).unwrap();
    let s = solve(&a, &Rules::normal()).unwrap();
    let shown: Vec<String> = (0..3).map(|v| s.value(v).unwrap().to_string()).collect();
    assert_eq!(shown, ["win in 2", "win in 1", "lose in 0"]);
    let moves = Solved::new(&a, Rules::normal(), s.values().clone())
        .unwrap()
        .moves(0);
    assert_eq!(moves[0].value.to_string(), "win in 2");
    assert_eq!(
        Arena::new(Csr::from_edges(2, &[]), vec![Player::First])
            .unwrap_err()
            .to_string(),
        "1 owners for a graph of 2 vertices"
    );
}
