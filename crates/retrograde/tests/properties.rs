//! The backbone of correctness: every engine agrees with the slow solver
//! written from the definitions, on thousands of random multigraphs with
//! self-loops, parallel edges, terminal labels of every value (ties
//! included), both no-move rules and indices that are no position.

use proptest::prelude::*;
use retrograde::io::{Input, solution};
use retrograde::solve::reference::solve_reference;
use retrograde::solve::{LEAN_BYTES_PER_POSITION, solve_lean, solve_parallel};
use retrograde::solver::{Engine, Reason};
use retrograde::{
    Answers, Csr, GameGraph, Graph, Labels, Outcome, Rules, Solution, SolveError, Solved, Solver,
    Successors, solve, verify,
};

/// A graph in which some indices are no position: moves into them are
/// dropped (moves must lead to positions), moves out of them are kept (a
/// reverse move may name a non-position; the solvers must ignore it).
#[derive(Debug, Clone)]
struct Holey {
    g: Graph,
    absent: Vec<bool>,
}

impl GameGraph for Holey {
    fn vertex_count(&self) -> usize {
        self.g.vertex_count()
    }
    fn out_degree(&self, v: u32) -> u32 {
        self.g.out_degree(v)
    }
    fn for_each_predecessor<F: FnMut(u32)>(&self, v: u32, f: F) {
        self.g.for_each_predecessor(v, f)
    }
    fn is_position(&self, v: u32) -> bool {
        !self.absent[v as usize]
    }
}

impl Successors for Holey {
    fn for_each_successor<F: FnMut(u32)>(&self, v: u32, f: F) {
        self.g.for_each_successor(v, f)
    }
}

use crate::strategy;
use strategy::{OUTCOMES, random_game};

use crate::best_move;
use best_move::is_best_move;

/// A random game of 1 to 23 vertices (see [`random_game`]), as a graph with
/// successors.
fn game() -> impl Strategy<Value = (Graph, Rules)> {
    random_game(1..24, 5)
        .prop_map(|(n, edges, rules)| (Csr::from_edges(n, &edges).with_successors(), rules))
}

/// [`game`], with up to a third of the indices no position (and no label on them).
fn holey_game() -> impl Strategy<Value = (Holey, Rules)> {
    game().prop_flat_map(|(g, rules)| {
        let n = g.vertex_count();
        (Just(g), Just(rules), prop::collection::vec(0u8..6, n)).prop_map(|(g, rules, holes)| {
            let absent: Vec<bool> = holes.iter().map(|&h| h < 2).collect();
            let kept: Vec<(u32, u32)> = g
                .edges()
                .filter(|&(u, v)| absent[u as usize] || !absent[v as usize])
                .collect();
            let g = Csr::from_edges(g.vertex_count(), &kept).with_successors();
            let labels = rules
                .labels
                .iter()
                .filter(|&(v, _)| !absent[v as usize])
                .collect();
            let rules = Rules {
                no_move: rules.no_move,
                labels: Labels::from_pairs(labels),
            };
            (Holey { g, absent }, rules)
        })
    })
}

/// Checks the local conditions a solution must satisfy, independently of how
/// best moves were chosen.
fn check_local<G: Successors>(g: &G, rules: &Rules, s: &Solution) {
    for v in 0..g.vertex_count() as u32 {
        if !g.is_position(v) {
            assert_eq!(s.value(v), None, "{v} is no position");
            continue;
        }
        let terminal = rules.labels.get(v).is_some() || g.out_degree(v) == 0;
        let mut succ = Vec::new();
        g.for_each_successor(v, |w| succ.push(w));
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
                    Outcome::Tie => {
                        assert_eq!(s.outcome(m), Outcome::Tie);
                        assert_eq!(s.remoteness(m).unwrap() + 1, s.remoteness(v).unwrap());
                    }
                    Outcome::Draw => assert_eq!(s.outcome(m), Outcome::Draw),
                }
            }
        }
    }
}

/// `s` written out, one line changed to `v <outcome> <remoteness> <move>`,
/// and read back: tampering through the file format, as a user would.
fn tampered(s: &Solution, v: u32, o: Outcome, r: Option<u32>, m: Option<u32>) -> Solution {
    let mut text = Vec::new();
    solution::write(&mut text, s).unwrap();
    let text = String::from_utf8(text).unwrap();
    let dash = |x: Option<u32>| x.map_or_else(|| "-".to_string(), |x| x.to_string());
    let r = if o == Outcome::Draw {
        None
    } else {
        r.or(Some(0))
    };
    let lines: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == v as usize {
                format!("{v}\t{o}\t{}\t{}", dash(r), dash(m))
            } else {
                l.to_string()
            }
        })
        .collect();
    let input = Input::from_bytes("t.tsv", (lines.join("\n") + "\n").into_bytes());
    solution::read(&input, Some(s.len())).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn verify_accepts_the_solvers_answer((g, rules) in holey_game()) {
        let s = solve(&g, &rules).unwrap();
        let report = verify(&g, &rules, &s, 10).unwrap();
        prop_assert!(report.is_ok(), "{:?}", report.violations);
    }

    /// Any change to one line is caught unless it is harmless: same outcome
    /// and remoteness, and a best move that is as good.
    #[test]
    fn verify_rejects_exactly_the_wrong_tamperings(
        (g, rules) in game(),
        pick in any::<prop::sample::Index>(),
        o in 0u8..4,
        r in prop::option::of(0u32..8),
        m in prop::option::of(0u32..26),
    ) {
        let s = solve(&g, &rules).unwrap();
        let v = pick.index(g.vertex_count()) as u32;
        let o = OUTCOMES[o as usize];
        let t = tampered(&s, v, o, r, m);
        let harmless = t.outcome(v) == s.outcome(v)
            && t.remoteness(v) == s.remoteness(v)
            && is_best_move(&g, &rules, &s, v, t.best_move(v));
        let report = verify(&g, &rules, &t, 10).unwrap();
        prop_assert_eq!(report.is_ok(), harmless, "{:?}", report.violations);
    }

    /// Without stored best moves (a `Solved`, which derives them from its
    /// values when asked), any change to one value is caught unless it
    /// changes nothing.
    #[test]
    fn verify_of_values_alone_rejects_exactly_the_wrong_values(
        (g, rules) in game(),
        pick in any::<prop::sample::Index>(),
        o in 0u8..4,
        r in prop::option::of(0u32..8),
    ) {
        use retrograde::Answers;
        let s = solve(&g, &rules).unwrap();
        let v = pick.index(g.vertex_count()) as u32;
        let t = tampered(&s, v, OUTCOMES[o as usize], r, None);
        let solved = retrograde::Solved::new(&g, rules.clone(), t.values().clone()).unwrap();
        prop_assert!(!solved.best_moves_stored());
        let harmless = t.value(v) == s.value(v);
        let report = verify(&g, &rules, &solved, 10).unwrap();
        prop_assert_eq!(report.is_ok(), harmless, "{:?}", report.violations);
    }

    #[test]
    fn solver_matches_reference_on_random_multigraphs((g, rules) in holey_game()) {
        let fast = solve(&g, &rules).unwrap();
        let slow = solve_reference(&g, &rules);
        check_local(&g, &rules, &slow);
        for v in 0..g.vertex_count() as u32 {
            prop_assert_eq!(
                (fast.value(v), fast.best_move(v)),
                (slow.value(v), slow.best_move(v)),
                "vertex {}", v
            );
        }
        prop_assert_eq!(fast, slow);
    }

    #[test]
    fn parallel_engine_matches_sequential_on_random_multigraphs((g, rules) in holey_game()) {
        let seq = solve(&g, &rules).unwrap();
        let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
        let par = pool.install(|| solve_parallel(&g, &rules).unwrap());
        prop_assert_eq!(par, seq);
    }

    #[test]
    fn the_traced_solve_tells_every_value_once((g, rules) in holey_game()) {
        use retrograde::solve::trace::{solve_traced, Event};
        let (s, events) = solve_traced(&g, &rules).unwrap();
        prop_assert_eq!(&s, &solve(&g, &rules).unwrap());
        // Replaying the events gives every position's value, each told once.
        let n = g.vertex_count();
        let mut told: Vec<Option<(Outcome, Option<u32>)>> = vec![None; n];
        let mut queued = 0usize;
        let mut dequeued = 0usize;
        for e in &events {
            let (v, value) = match *e {
                Event::Start { position, outcome: Some(o), .. } => (position, (o, (o != Outcome::Draw).then_some(0))),
                Event::Decided { position, outcome, remoteness } => { queued += 1; (position, (outcome, Some(remoteness))) }
                Event::Draw { position } => (position, (Outcome::Draw, None)),
                Event::Dequeue { .. } => { dequeued += 1; continue; }
                _ => continue,
            };
            prop_assert!(told[v as usize].is_none(), "{} told twice", v);
            told[v as usize] = Some(value);
        }
        for v in 0..n as u32 {
            prop_assert_eq!(told[v as usize], s.value(v).map(|x| (x.outcome, x.remoteness)), "vertex {}", v);
        }
        prop_assert!(dequeued >= queued, "every decided position is taken from the queue");
    }

    #[test]
    fn lean_solver_matches_reference_with_best_moves_on_demand((g, rules) in holey_game()) {
        let lean = Solved::new(&g, rules.clone(), solve_lean(&g, &rules).unwrap()).unwrap();
        let slow = solve_reference(&g, &rules);
        for v in 0..g.vertex_count() as u32 {
            prop_assert_eq!(
                (lean.value(v), lean.best_move(v)),
                (slow.value(v), slow.best_move(v)),
                "vertex {}", v
            );
        }
        prop_assert_eq!(lean.into_solution(), slow);
    }

    /// Every engine the `Solver` runs, chosen or asked for, on one thread or
    /// three, under a memory limit that leaves only the lean engine, gives
    /// the reference's answers, best moves included.
    #[test]
    fn the_solver_gives_the_same_answers_whichever_engine_runs(
        (g, rules) in holey_game(),
        engine in prop_oneof![
            Just(Engine::Auto), Just(Engine::Sequential), Just(Engine::Parallel), Just(Engine::Lean)
        ],
        threads in 1usize..4,
        tight in any::<bool>(),
    ) {
        let slow = solve_reference(&g, &rules);
        let n = g.vertex_count() as u64;
        let mut solver = Solver::new().engine(engine).threads(threads).rules(rules.clone());
        if tight {
            // Room for the lean engine's state alone.
            solver = solver.max_memory(n * LEAN_BYTES_PER_POSITION);
        }
        let choice = match solver.choose(g.vertex_count()) {
            Ok(choice) => choice,
            Err(SolveError::OverMemory { engine: e, .. }) => {
                // An engine asked for that does not fit is refused, never run.
                prop_assert!(tight && matches!(engine, Engine::Sequential | Engine::Parallel), "{} refused", e);
                prop_assert!(solver.solve(&g).is_err());
                return Ok(());
            }
            Err(e) => panic!("{e}"),
        };
        match (engine, tight) {
            (Engine::Auto, true) => prop_assert_eq!((choice.engine, choice.reason), (Engine::Lean, Reason::MemoryLimit)),
            (Engine::Auto, false) if threads > 1 => prop_assert_eq!(choice.engine, Engine::Parallel),
            (Engine::Auto, false) => prop_assert_eq!(choice.engine, Engine::Sequential),
            (asked, _) => prop_assert_eq!(choice.engine, asked),
        }
        let s = solver.solve(&g).unwrap();
        for v in 0..g.vertex_count() as u32 {
            prop_assert_eq!(
                (s.value(v), s.best_move(v)),
                (slow.value(v), slow.best_move(v)),
                "vertex {}", v
            );
        }
        prop_assert_eq!(s.into_solution(), slow);
    }

    /// The moves of a position, best first, start with its best move and
    /// each gives the value the mover gets.
    #[test]
    fn moves_are_sorted_best_first((g, rules) in game()) {
        let s = Solved::new(&g, rules.clone(), solve(&g, &rules).unwrap()).unwrap();
        for v in 0..g.vertex_count() as u32 {
            let moves = s.moves(v);
            prop_assert_eq!(moves.first().map(|m| m.to), s.best_move(v), "vertex {}", v);
            if let Some(best) = moves.first() {
                prop_assert_eq!(Some(best.value), s.value(v));
                prop_assert_eq!(best.delta(best.value), best.value.remoteness.map(|_| 0));
            }
            for m in &moves {
                let child = s.value(m.to).unwrap();
                prop_assert_eq!(m.value.outcome, child.outcome.flip());
                prop_assert_eq!(m.value.remoteness, child.remoteness.map(|r| r + 1));
            }
        }
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

/// A larger graph, where many threads race for the same positions.
#[test]
fn parallel_engine_matches_sequential_on_a_large_random_graph() {
    let n = 200_000u32;
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % u64::from(n)) as u32
    };
    // Sparse enough that many positions have no move, so all outcomes occur;
    // one vertex in 50 is a terminal tie.
    let edges: Vec<(u32, u32)> = (0..n as usize * 3 / 2).map(|_| (next(), next())).collect();
    let g = Csr::from_edges(n as usize, &edges);
    let ties = Labels::from_pairs((0..n).step_by(50).map(|v| (v, Outcome::Tie)).collect());
    let seq = solve(&g, &Rules::normal()).unwrap();
    let s = seq.summary();
    assert!(s.wins > 0 && s.losses > 0 && s.draws > 0, "{s}");
    let tied = Rules::normal().with_labels(ties);
    let seq_tied = solve(&g, &tied).unwrap();
    assert!(
        seq_tied.summary().ties > n as u64 / 50,
        "{}",
        seq_tied.summary()
    );
    for threads in [2, 4] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let par = pool.install(|| solve_parallel(&g, &Rules::misere()).unwrap());
        assert_eq!(par, solve(&g, &Rules::misere()).unwrap());
        let par = pool.install(|| solve_parallel(&g, &Rules::normal()).unwrap());
        assert_eq!(par, seq, "{threads} threads");
        let par = pool.install(|| solve_parallel(&g, &tied).unwrap());
        assert_eq!(par, seq_tied, "{threads} threads, ties");
    }
}
