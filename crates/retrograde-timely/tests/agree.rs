//! The timely engine agrees with the sequential solver, position by position.

use proptest::prelude::*;
use retrograde::{Csr, Labels, Outcome, Rules};
use retrograde_timely::{BinaryGraph, Config, EdgeArray, Error, solve};

use crate::strategy;

use crate::loopback::{free_addresses, random_edges};

/// A random game of 0 to 13 vertices (see [`strategy::random_game`]).
fn game() -> impl Strategy<Value = (usize, Vec<(u32, u32)>, Rules)> {
    strategy::random_game(0..14, 3)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn timely_equals_sequential((n, edges, rules) in game(), threads in 1usize..=3) {
        let expected = retrograde::solve(&Csr::from_edges(n, &edges), &rules).unwrap();
        let solved = solve(&Config::threads(threads), EdgeArray::new(Some(n), edges.clone()), &rules)
            .unwrap()
            .expect("a single process is process 0");
        prop_assert_eq!(solved.edges, edges.len() as u64);
        prop_assert_eq!(&solved.solution, &expected);
    }

    #[test]
    fn binary_graphs_read_in_shards_equal_sequential((n, edges, rules) in game(), threads in 1usize..=3) {
        let g = Csr::from_edges(n, &edges);
        let expected = retrograde::solve(&g, &rules).unwrap();
        let mut bytes = Vec::new();
        retrograde::io::binary::write_to(&mut bytes, &g).unwrap();
        let input = retrograde::io::Input::from_bytes("g.rgb", bytes);
        let solved = solve(&Config::threads(threads), BinaryGraph::new(input), &rules)
            .unwrap()
            .unwrap();
        prop_assert_eq!(solved.edges, edges.len() as u64);
        prop_assert_eq!(&solved.solution, &expected);
    }

    #[test]
    fn vertex_count_comes_from_edges_and_labels((_n, edges, rules) in game(), threads in 1usize..=3) {
        let from_edges = edges.iter().map(|&(u, v)| u.max(v) as usize + 1).max().unwrap_or(0);
        let n = from_edges.max(rules.labels.max_vertex().map_or(0, |v| v as usize + 1));
        let expected = retrograde::solve(&Csr::from_edges(n, &edges), &rules).unwrap();
        let solved = solve(&Config::threads(threads), EdgeArray::new(None, edges), &rules)
            .unwrap()
            .unwrap();
        prop_assert_eq!(&solved.solution, &expected);
    }
}

#[test]
fn a_long_chain_takes_one_round_per_ply() {
    let n = 2000u32;
    let edges: Vec<(u32, u32)> = (0..n - 1).map(|v| (v, v + 1)).collect();
    let expected =
        retrograde::solve(&Csr::from_edges(n as usize, &edges), &Rules::normal()).unwrap();
    let solved = solve(
        &Config::threads(3),
        EdgeArray::new(None, edges),
        &Rules::normal(),
    )
    .unwrap()
    .unwrap();
    assert_eq!(solved.solution, expected);
    assert_eq!(solved.rounds, n + 1);
}

#[test]
fn bad_input_is_the_same_typed_error_for_every_worker() {
    let text = "0 1\n1 2\n2 0\n3 three\n4 5\n";
    let input = retrograde::io::Input::from_bytes("g.txt", text.as_bytes().to_vec());
    let e = solve(
        &Config::threads(3),
        retrograde_timely::TextEdgeList::new(input, None),
        &Rules::normal(),
    )
    .unwrap_err();
    assert!(
        matches!(e, Error::Input(retrograde::Error::Parse { .. })),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        "g.txt:line 4: expected the second vertex id (a decimal number), found \"three\""
    );
}

/// A word where a line's vertex id goes keeps its kind as it travels
/// between workers: every worker gives the same named-vertex error.
#[test]
fn a_named_vertex_is_the_same_typed_error_for_every_worker() {
    let text = "0 1\n1 2\n2 0\nthree 3\n4 5\n";
    let input = retrograde::io::Input::from_bytes("g.txt", text.as_bytes().to_vec());
    let e = solve(
        &Config::threads(3),
        retrograde_timely::TextEdgeList::new(input, None),
        &Rules::normal(),
    )
    .unwrap_err();
    assert!(
        matches!(
            &e,
            Error::Input(retrograde::Error::NamedVertex { found, location: retrograde::Location::Line(4), .. })
                if found == "three"
        ),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        "g.txt:line 4: expected a vertex id (a decimal number), found \"three\""
    );
}

#[test]
fn a_damaged_binary_graph_is_the_same_error_for_every_worker() {
    let g = Csr::from_edges(
        50,
        &(0..200u32)
            .map(|i| (i % 50, (i * 7) % 50))
            .collect::<Vec<_>>(),
    );
    let mut bytes = Vec::new();
    retrograde::io::binary::write_to(&mut bytes, &g).unwrap();
    let last = bytes.len() - 1;
    for (at, want) in [
        (last - 3, "checksum mismatch"),   // a target, still in range
        (16, "truncated?"),                // the vertex count
        (64 + 4 * 3, "checksum mismatch"), // an out-degree
    ] {
        let mut damaged = bytes.clone();
        damaged[at] ^= 0x01;
        let input = retrograde::io::Input::from_bytes("g.rgb", damaged);
        let e = solve(
            &Config::threads(3),
            BinaryGraph::new(input),
            &Rules::normal(),
        )
        .unwrap_err();
        assert!(matches!(e, Error::Input(_)), "{e:?}");
        assert!(e.to_string().starts_with("g.rgb:"), "{e}");
        assert!(e.to_string().contains(want), "byte {at}: {e}");
    }
}

#[test]
fn labels_outside_a_declared_graph_are_refused() {
    let rules = Rules::normal().with_labels(Labels::from_pairs(vec![(5, Outcome::Win)]));
    let e = solve(
        &Config::threads(2),
        EdgeArray::new(Some(3), vec![(0, 1)]),
        &rules,
    )
    .unwrap_err();
    assert!(
        e.to_string().contains("terminal label names vertex 5"),
        "{e}"
    );
}

#[test]
fn zero_threads_and_bad_process_indices_are_refused() {
    let e = solve(&Config::threads(0), EdgeArray::default(), &Rules::normal()).unwrap_err();
    assert!(matches!(e, Error::Config(_)), "{e:?}");
    let e = solve(
        &Config::cluster(vec!["127.0.0.1:1".into()], 1, 1),
        EdgeArray::default(),
        &Rules::normal(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("out of range"), "{e}");
}

#[test]
fn two_processes_on_loopback_agree_with_the_sequential_solver() {
    let n = 300u32;
    let edges = random_edges(12345, n, 700);
    let rules = Rules::misere().with_labels(Labels::from_pairs(vec![
        (7, Outcome::Draw),
        (8, Outcome::Lose),
    ]));
    let expected = retrograde::solve(&Csr::from_edges(n as usize, &edges), &rules).unwrap();
    let addresses = free_addresses(2);
    let runs: Vec<_> = (0..2)
        .map(|p| {
            let (addresses, edges, rules) = (addresses.clone(), edges.clone(), rules.clone());
            std::thread::spawn(move || {
                let config = Config::cluster(addresses, p, 2)
                    .connect_timeout(std::time::Duration::from_secs(60));
                solve(&config, EdgeArray::new(Some(n as usize), edges), &rules)
            })
        })
        .collect();
    let results: Vec<_> = runs
        .into_iter()
        .map(|h| h.join().unwrap().unwrap())
        .collect();
    assert_eq!(results[0].as_ref().unwrap().solution, expected);
    assert!(results[1].is_none());
}
