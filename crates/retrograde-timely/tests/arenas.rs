//! Arenas (graphs whose vertices have owners: a move between two vertices
//! of the same owner keeps the turn) solved by the timely engines, from
//! stored edges and from generated moves, agree with the sequential solver
//! on the same arena, position by position.

use proptest::prelude::*;
use retrograde::graph::Arena;
use retrograde::{Answers, Csr, Player, Rules};
use retrograde_timely::{Config, EdgeArray, solve_arena, solve_graph};

use crate::strategy;

fn owners(bits: &[bool]) -> Vec<Player> {
    bits.iter()
        .map(|&b| if b { Player::Second } else { Player::First })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn stored_edges_with_owners_give_the_sequential_solution(
        (n, edges, rules) in strategy::random_game(1..16, 3),
        bits in prop::collection::vec(any::<bool>(), 16),
        threads in 1usize..=3,
    ) {
        let owners = owners(&bits[..n]);
        let arena = Arena::new(Csr::from_edges(n, &edges), owners.clone()).unwrap();
        let expected = retrograde::solve(&arena, &rules).unwrap();
        let solved = solve_arena(&Config::threads(threads), EdgeArray::new(Some(n), edges), owners, &rules)
            .unwrap()
            .expect("a single process is process 0");
        prop_assert_eq!(&solved.solution, &expected);
    }

    #[test]
    fn generated_moves_with_owners_give_the_sequential_values_and_best_moves(
        (n, edges, rules) in strategy::random_game(1..14, 3),
        bits in prop::collection::vec(any::<bool>(), 14),
        threads in 1usize..=3,
    ) {
        let arena = Arena::new(Csr::from_edges(n, &edges).with_successors(), owners(&bits[..n])).unwrap();
        let s = retrograde::solve(&arena, &rules).unwrap();
        let want: Vec<_> = (0..n as u32).map(|v| (s.value(v), s.best_move(v))).collect();
        let game = arena.clone();
        let (got, _) = solve_graph(&Config::threads(threads), arena, &rules.clone(), move |remote| {
            (0..n as u32)
                .map(|v| (remote.value(v).unwrap(), remote.best_move(&game, &rules, v).unwrap()))
                .collect::<Vec<_>>()
        })
        .unwrap();
        prop_assert_eq!(got.unwrap(), want);
    }
}

#[test]
fn owners_for_another_graph_are_refused() {
    let e = solve_arena(
        &Config::threads(2),
        EdgeArray::new(Some(3), vec![(0, 1)]),
        vec![Player::First],
        &Rules::normal(),
    )
    .unwrap_err();
    assert_eq!(e.to_string(), "1 owners for a graph of 3 vertices");
}

#[test]
fn dots_and_boxes_solves_where_its_moves_are_generated_as_in_one_process() {
    use retrograde_games::dots_boxes::DotsAndBoxes;
    let explore = || retrograde::explore::explore(DotsAndBoxes::new(2, 2).unwrap()).unwrap();
    let explored = explore();
    let rules = explored.rules();
    let s = retrograde::solve(&explored, &rules).unwrap();
    let n = explored.len() as u32;
    let want: Vec<_> = (0..n).map(|v| s.value(v)).collect();
    for threads in [1, 3] {
        let (got, _) = solve_graph(
            &Config::threads(threads),
            explore(),
            &rules,
            move |remote| (0..n).map(|v| remote.value(v).unwrap()).collect::<Vec<_>>(),
        )
        .unwrap();
        assert_eq!(got.unwrap(), want, "{threads} threads");
    }
}
