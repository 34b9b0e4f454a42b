//! Games solved where their moves are generated (`solve_graph`) agree with
//! the sequential solver, position by position, in and across processes.

use proptest::prelude::*;
use retrograde::{Answers, Csr, GameGraph, Line, Outcome, Rules, Summary, Value};
use retrograde_timely::{Config, solve_graph};

use crate::strategy;

use crate::loopback::{free_addresses, random_edges};

/// A graph whose flagged vertices are not positions (a dense numbering with
/// unused numbers): no move leads to them, but they may still list moves,
/// so they show up among reverse moves, which must be ignored. Some
/// positions end the game with a value of their own (`terminal`), ties
/// among them.
struct Holes {
    csr: Csr,
    absent: Vec<bool>,
    terminal: Vec<Option<Outcome>>,
}

impl Holes {
    fn ending(
        n: usize,
        edges: &[(u32, u32)],
        absent: Vec<bool>,
        terminal: Vec<Option<Outcome>>,
    ) -> Holes {
        let kept: Vec<(u32, u32)> = edges
            .iter()
            .copied()
            .filter(|&(_, v)| !absent[v as usize])
            .collect();
        Holes {
            csr: Csr::from_edges(n, &kept),
            absent,
            terminal,
        }
    }
}

impl GameGraph for Holes {
    fn vertex_count(&self) -> usize {
        self.csr.vertex_count()
    }
    fn out_degree(&self, v: u32) -> u32 {
        self.csr.out_degree(v)
    }
    fn for_each_predecessor<F: FnMut(u32)>(&self, v: u32, f: F) {
        self.csr.for_each_predecessor(v, f)
    }
    fn is_position(&self, v: u32) -> bool {
        !self.absent[v as usize]
    }
    fn terminal(&self, v: u32) -> Option<Outcome> {
        self.terminal[v as usize]
    }
}

/// Solves `g` with `config`, fetching every index's value in batches.
fn solve_all<G: GameGraph + Send + Sync + 'static>(
    config: &Config,
    g: G,
    rules: &Rules,
) -> (Summary, Vec<Option<Value>>) {
    let n = g.vertex_count() as u32;
    let (answer, _) = solve_graph(config, g, rules, move |remote| {
        let mut values = Vec::new();
        let all: Vec<u32> = (0..n + 2).collect(); // two past the end: None
        for batch in all.chunks(5) {
            values.extend(remote.values(batch).unwrap());
        }
        (remote.outline().summary(), values)
    })
    .unwrap();
    answer.expect("a single process is process 0")
}

fn expected<G: GameGraph>(g: &G, rules: &Rules) -> (Summary, Vec<Option<Value>>) {
    let s = retrograde::solve(g, rules).unwrap();
    let n = g.vertex_count() as u32;
    let mut values: Vec<Option<Value>> = (0..n).map(|v| s.value(v)).collect();
    values.extend([None, None]);
    (s.summary(), values)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn generated_moves_give_the_sequential_values(
        (n, edges, rules) in strategy::random_game(0..14, 3),
        holes in prop::collection::vec(any::<bool>(), 14),
        ends in prop::collection::vec(0usize..12, 14),
        threads in 1usize..=3,
    ) {
        let absent: Vec<bool> = holes[..n].iter().map(|&h| h && n > 1).collect();
        // A third of the positions end the game with a value of their own.
        let terminal: Vec<Option<Outcome>> =
            ends[..n].iter().map(|&k| strategy::OUTCOMES.get(k).copied()).collect();
        let g = Holes::ending(n, &edges, absent.clone(), terminal.clone());
        // Labels on indices that are not positions are ignored by every engine.
        let want = expected(&g, &rules);
        let got = solve_all(&Config::threads(threads), Holes::ending(n, &edges, absent, terminal), &rules);
        prop_assert_eq!(got, want);
    }

    #[test]
    fn best_moves_and_lines_fetched_from_the_owners_are_the_sequential_ones(
        (n, edges, rules) in strategy::random_game(1..12, 3),
        threads in 1usize..=3,
    ) {
        let g = Csr::from_edges(n, &edges).with_successors();
        let s = retrograde::solve(&g, &rules).unwrap();
        let want: Vec<(Option<u32>, Line)> =
            (0..n as u32).map(|v| (s.best_move(v), s.line(v, 6))).collect();
        let (got, _) = solve_graph(&Config::threads(threads), g.clone(), &rules.clone(), move |remote| {
            (0..n as u32)
                .map(|v| (remote.best_move(&g, &rules, v).unwrap(), remote.line(&g, &rules, v, 6).unwrap()))
                .collect::<Vec<_>>()
        })
        .unwrap();
        prop_assert_eq!(got.unwrap(), want);
    }
}

/// Regression: the tie phase ran only when a label was a tie, so positions
/// that reach a game's own terminal tie were called draws.
#[test]
fn ties_spread_from_the_games_own_terminal_ties() {
    let edges = [(1, 0), (2, 1)];
    for threads in [1, 2] {
        let g = Holes::ending(
            3,
            &edges,
            vec![false; 3],
            vec![Some(Outcome::Tie), None, None],
        );
        let (summary, values) = solve_all(&Config::threads(threads), g, &Rules::normal());
        assert_eq!(summary.ties, 3, "{threads} threads");
        assert_eq!(
            values[2].map(|v| (v.outcome, v.remoteness)),
            Some((Outcome::Tie, Some(2)))
        );
        let g = Holes::ending(
            3,
            &edges,
            vec![false; 3],
            vec![Some(Outcome::Tie), None, None],
        );
        assert_eq!((summary, values), expected(&g, &Rules::normal()));
    }
}

#[test]
fn counters_too_wide_for_the_state_byte_are_kept_apart() {
    // Vertex 0 has 300 moves (parallel edges to a win, then one loss): its
    // counter cannot live in the state byte.
    let mut edges: Vec<(u32, u32)> = vec![(0, 1); 299];
    edges.push((0, 2));
    edges.extend([(1, 3), (2, 2), (4, 0), (5, 4)]);
    let g = Csr::from_edges(6, &edges);
    for threads in [1, 2] {
        let got = solve_all(&Config::threads(threads), g.clone(), &Rules::normal());
        assert_eq!(got, expected(&g, &Rules::normal()), "{threads} threads");
    }
}

#[test]
fn remoteness_past_65535_plies_widens() {
    let n = 70_000u32;
    let edges: Vec<(u32, u32)> = (1..n).map(|v| (v, v - 1)).collect();
    let g = Csr::from_edges(n as usize, &edges);
    let got = solve_all(&Config::threads(1), g.clone(), &Rules::normal());
    assert_eq!(got.0.max_remoteness, Some(n - 1));
    assert_eq!(got, expected(&g, &Rules::normal()));
}

#[test]
fn three_processes_on_loopback_give_the_sequential_values() {
    let n = 500u32;
    let edges = random_edges(99, n, 1500);
    let rules = Rules::normal().with_labels(retrograde::Labels::from_pairs(vec![
        (3, Outcome::Tie),
        (9, Outcome::Draw),
    ]));
    let g = Csr::from_edges(n as usize, &edges);
    let want = expected(&g, &rules);
    let addresses = free_addresses(3);
    let runs: Vec<_> = (0..3)
        .map(|p| {
            let (addresses, g, rules) = (addresses.clone(), g.clone(), rules.clone());
            std::thread::spawn(move || {
                let config = Config::cluster(addresses, p, 2)
                    .connect_timeout(std::time::Duration::from_secs(60));
                let (answer, _) = solve_graph(&config, g, &rules, move |remote| {
                    let all: Vec<u32> = (0..n + 2).collect();
                    (remote.outline().summary(), remote.values(&all).unwrap())
                })
                .unwrap();
                answer
            })
        })
        .collect();
    let results: Vec<_> = runs.into_iter().map(|h| h.join().unwrap()).collect();
    assert_eq!(results[0].as_ref(), Some(&want));
    assert!(results[1].is_none() && results[2].is_none());
}
