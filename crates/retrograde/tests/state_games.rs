//! Games written from their rules alone ([`StateGame`]): tic-tac-toe's known
//! numbers, and on random games the state path, the dense `Game` path and
//! the explicit path agreeing position by position, with and without a
//! symmetry.

use proptest::prelude::*;
use retrograde::explore::{Explorer, explore};
use retrograde::game::Game;
use retrograde::solve_game;
use retrograde::{
    Answers, Csr, Error, GameGraph, Graph, Labels, NoMoveRule, Outcome, Rules, StateGame, Value,
    solve, verify,
};

use crate::tutorial;
use tutorial::{Board, TicTacToe};

use crate::strategy;

const EMPTY: Board = Board([0; 9]);

#[test]
fn tic_tac_toe_has_5478_positions_958_terminal_and_ties_in_9() {
    let s = retrograde::solve_states(TicTacToe { symmetry: false }).unwrap();
    let e = s.explored();
    assert_eq!((e.len(), e.terminal_count()), (5478, 958));
    assert_eq!(e.starts().len(), 1);
    assert_eq!(e.position(e.starts()[0]), Some(EMPTY));
    assert_eq!(s.value(&EMPTY).unwrap(), Value::new(Outcome::Tie, Some(9)));
    let moves = s.moves(&EMPTY).unwrap();
    assert_eq!(moves.len(), 9);
    for m in &moves {
        assert_eq!(m.value, Value::new(Outcome::Tie, Some(9)), "{m:?}");
        assert_eq!(m.delta, Some(0));
    }
    // Only reachable positions count: 958 terminal ones of 5478, and the
    // summary adds up to the positions.
    let sum = s.summary();
    assert_eq!(sum.positions, 5478);
    assert_eq!(sum.wins + sum.losses + sum.ties + sum.draws, 5478);
    assert_eq!(sum.draws, 0, "tic-tac-toe always ends");
    // The solution passes the independent check.
    let report = verify(e, &e.rules(), &s, 5).unwrap();
    assert!(report.is_ok(), "{:?}", report.violations);
    // A line of best play from the empty board ends on a full board, level.
    let line = s.line(&EMPTY, 20).unwrap();
    assert_eq!(line.positions.len(), 10);
    assert!(!line.endless);
    assert_eq!(line.values.last(), Some(&Value::new(Outcome::Tie, Some(0))));
    assert!(
        s.show_line(&line)
            .ends_with("game over: the game ends level\n")
    );
}

#[test]
fn tic_tac_toe_up_to_symmetry_has_765_positions_with_the_same_values() {
    let full = retrograde::solve_states(TicTacToe { symmetry: false }).unwrap();
    let reduced = retrograde::solve_states(TicTacToe { symmetry: true }).unwrap();
    assert_eq!(
        (
            reduced.explored().len(),
            reduced.explored().terminal_count()
        ),
        (765, 138)
    );
    for v in 0..full.explored().len() as u32 {
        let board = full.explored().position(v).unwrap();
        assert_eq!(full.value(&board).unwrap(), reduced.value(&board).unwrap());
        let want: Vec<Value> = full
            .moves(&board)
            .unwrap()
            .iter()
            .map(|m| m.value)
            .collect();
        let got: Vec<Value> = reduced
            .moves(&board)
            .unwrap()
            .iter()
            .map(|m| m.value)
            .collect();
        assert_eq!(got, want, "{board:?}");
    }
}

#[test]
fn a_position_outside_the_game_is_an_error() {
    let s = retrograde::solve_states(TicTacToe { symmetry: false }).unwrap();
    // Three X and no O: never reached from the empty board.
    let impossible = Board([1, 1, 1, 0, 0, 0, 0, 0, 0]);
    let e = s.value(&impossible).unwrap_err();
    assert!(matches!(e, Error::NotAPosition(_)), "{e}");
    assert_eq!(e.to_string(), "xxx/.../... is not a position of the game");
    assert!(s.moves(&impossible).is_err());
    assert!(s.line(&impossible, 5).is_err());
}

/// An explicit graph seen as a state game: positions are vertices, moves
/// its edges, labels terminal. With `half`, vertex `x` and `x + half` are
/// the same position (the graph is built so that this is a symmetry). With
/// `keyed`, the game numbers its positions (vertex `x` as `x · KEY`), so it
/// is explored by number unless told otherwise.
#[derive(Debug)]
struct GraphGame {
    g: Graph,
    rules: Rules,
    starts: Vec<u32>,
    half: Option<u32>,
    keyed: bool,
}

/// What a keyed [`GraphGame`] multiplies a vertex by to number it (vertex 0
/// is number 0, which the explorer keeps aside).
const KEY: u64 = 0x1_0000_0001;

impl StateGame for GraphGame {
    type Position = u32;
    fn starts(&self) -> Vec<u32> {
        self.starts.clone()
    }
    fn for_each_move<F: FnMut(u32)>(&self, p: &u32, mut f: F) {
        self.g.successors(*p).iter().for_each(|&q| f(q));
    }
    fn terminal(&self, p: &u32) -> Option<Outcome> {
        self.rules.labels.get(*p)
    }
    fn canonical(&self, p: u32) -> u32 {
        self.half.map_or(p, |h| p % h)
    }
    fn no_move(&self) -> NoMoveRule {
        self.rules.no_move
    }
    fn encode(&self, p: &u32) -> Option<u64> {
        self.keyed.then_some(u64::from(*p) * KEY)
    }
    fn decode(&self, code: u64) -> Option<u32> {
        let p = u32::try_from(code / KEY).ok()?;
        (self.keyed && code.is_multiple_of(KEY) && (p as usize) < self.g.vertex_count())
            .then_some(p)
    }
}

/// The same graph as a dense [`Game`] with reverse moves.
impl Game for GraphGame {
    fn position_count(&self) -> usize {
        self.g.vertex_count()
    }
    fn for_each_move<F: FnMut(u32)>(&self, p: u32, f: F) {
        self.g.successors(p).iter().copied().for_each(f);
    }
    fn for_each_unmove<F: FnMut(u32)>(&self, q: u32, f: F) {
        self.g.predecessors(q).iter().copied().for_each(f);
    }
    fn terminal(&self, p: u32) -> Option<Outcome> {
        self.rules.labels.get(p)
    }
}

/// A random game doubled into two copies, `x` and `x + m`, so that swapping
/// the copies is a symmetry: each edge of the base graph goes within both
/// copies or across both ways, and labels are the same in both.
fn symmetric_game() -> impl Strategy<Value = (GraphGame, u32)> {
    (strategy::random_game(1..14, 4), any::<u64>()).prop_map(|((m, edges, rules), cross)| {
        let m = m as u32;
        let mut doubled = Vec::new();
        for (k, &(u, v)) in edges.iter().enumerate() {
            if cross >> (k % 64) & 1 == 1 {
                doubled.extend([(u, v + m), (u + m, v)]);
            } else {
                doubled.extend([(u, v), (u + m, v + m)]);
            }
        }
        let labels = rules.labels.iter().flat_map(|(v, o)| [(v, o), (v + m, o)]);
        let rules = Rules {
            no_move: rules.no_move,
            labels: Labels::from_pairs(labels.collect()),
        };
        let g = Csr::from_edges(2 * m as usize, &doubled).with_successors();
        let game = GraphGame {
            g,
            rules,
            starts: vec![0],
            half: None,
            keyed: cross & 1 == 1,
        };
        (game, m)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// The state path explores what is reachable from the starts and gives
    /// every position the value the explicit solve gives its vertex; its best
    /// moves are the explicit ones (the first best in the game's order, which
    /// lists a vertex's moves in increasing id, is the smallest id the
    /// engines pick, whatever the explorer's numbers); the dense path equals
    /// the explicit one exactly.
    #[test]
    fn state_dense_and_explicit_paths_agree(
        (n, edges, rules) in strategy::random_game(1..20, 5),
        starts in prop::collection::vec(0u32..20, 1..3),
        keyed in any::<bool>(),
    ) {
        let g = Csr::from_edges(n, &edges).with_successors();
        let starts: Vec<u32> = starts.into_iter().map(|s| s % n as u32).collect();
        let explicit = solve(&g, &rules).unwrap();
        let game = GraphGame { g, rules: rules.clone(), starts: starts.clone(), half: None, keyed };

        let state = Explorer::new().solve(&game).unwrap();
        let low = Explorer::new().low_memory().explore(&game).unwrap();
        prop_assert_eq!(low.graph().out_degrees(), state.explored().graph().out_degrees());
        for v in 0..low.len() as u32 {
            let mut a = low.graph().predecessors(v).to_vec();
            let mut b = state.explored().graph().predecessors(v).to_vec();
            a.sort_unstable();
            b.sort_unstable();
            prop_assert_eq!(a, b);
        }
        let e = state.explored();
        prop_assert_eq!(state.summary().positions as usize, e.len());
        for v in 0..e.len() as u32 {
            let vertex = e.position(v).unwrap();
            prop_assert_eq!(state.value(&vertex).unwrap(), explicit.value(vertex).unwrap());
            let best = state.best_move(&vertex).unwrap();
            prop_assert_eq!(best, explicit.best_move(vertex));
            let by_number = Answers::best_move(&state, v).map(|w| e.position(w).unwrap());
            prop_assert_eq!(by_number, best);
        }
        for s in &starts {
            prop_assert!(e.index(s).is_some());
        }
        let report = verify(e, &e.rules(), &state, 5).unwrap();
        prop_assert!(report.is_ok(), "{:?}", report.violations);

        let dense = solve_game(&game, &rules).unwrap();
        prop_assert_eq!(dense.into_solution(), explicit);
    }

    /// A game that numbers its positions is explored by number: the same
    /// positions, moves and predecessors (by position), values and best
    /// moves as explored by hash, recorded or generated again.
    #[test]
    fn by_number_and_by_hash_agree(
        (n, edges, rules) in strategy::random_game(1..20, 5),
        starts in prop::collection::vec(0u32..20, 1..3),
    ) {
        let g = Csr::from_edges(n, &edges).with_successors();
        let starts: Vec<u32> = starts.into_iter().map(|s| s % n as u32).collect();
        let game = GraphGame { g, rules, starts, half: None, keyed: true };
        let by_key = Explorer::new().solve(&game).unwrap();
        let by_hash = Explorer::new().by_hash().solve(&game).unwrap();
        let low = Explorer::new().low_memory().explore(&game).unwrap();
        let (k, h) = (by_key.explored(), by_hash.explored());
        prop_assert!(k.numbered_by_key() && low.numbered_by_key() && !h.numbered_by_key());
        prop_assert_eq!((k.len(), k.move_count(), k.terminal_count()), (h.len(), h.move_count(), h.terminal_count()));
        prop_assert_eq!(low.graph().out_degrees(), k.graph().out_degrees());
        let starts = |e: &retrograde::explore::Explored<&GraphGame>| -> Vec<u32> {
            e.starts().iter().map(|&s| e.position(s).unwrap()).collect()
        };
        prop_assert_eq!(starts(k), starts(h));
        for v in 0..k.len() as u32 {
            let x = k.position(v).unwrap();
            prop_assert_eq!(k.index(&x), Some(v));
            let w = h.index(&x).unwrap();
            let by_position = |e: &retrograde::explore::Explored<&GraphGame>, v: u32| {
                let mut p: Vec<u32> = e.graph().predecessors(v).iter().map(|&u| e.position(u).unwrap()).collect();
                p.sort_unstable();
                p
            };
            prop_assert_eq!(by_position(k, v), by_position(h, w));
            prop_assert_eq!(by_position(&low, v), by_position(k, v));
            prop_assert_eq!(k.graph().out_degree(v), h.graph().out_degree(w));
            prop_assert_eq!(by_key.value(&x).unwrap(), by_hash.value(&x).unwrap());
            prop_assert_eq!(by_key.best_move(&x).unwrap(), by_hash.best_move(&x).unwrap());
            prop_assert_eq!(by_key.moves(&x).unwrap(), by_hash.moves(&x).unwrap());
        }
        let report = verify(k, &k.rules(), &by_key, 5).unwrap();
        prop_assert!(report.is_ok(), "{:?}", report.violations);
    }

    /// Reduced by a symmetry, the game gives every position the value of the
    /// unreduced one, moves counted with multiplicity.
    #[test]
    fn a_symmetry_keeps_every_value((game, m) in symmetric_game()) {
        let full = Explorer::new().solve(&game).unwrap();
        let reduced_game = GraphGame {
            g: game.g.clone(),
            rules: game.rules.clone(),
            starts: game.starts.clone(),
            half: Some(m),
            keyed: game.keyed,
        };
        let reduced = Explorer::new().solve(&reduced_game).unwrap();
        prop_assert!(reduced.explored().len() <= full.explored().len());
        for v in 0..full.explored().len() as u32 {
            let x = full.explored().position(v).unwrap();
            prop_assert_eq!(reduced.value(&x).unwrap(), full.value(&x).unwrap(), "vertex {}", x);
            let want: Vec<Value> = full.moves(&x).unwrap().iter().map(|m| m.value).collect();
            let got: Vec<Value> = reduced.moves(&x).unwrap().iter().map(|m| m.value).collect();
            prop_assert_eq!(got, want);
        }
    }
}

/// A game whose start gains a move after its first expansion: moves that
/// differ each time they are generated. With `keyed`, it numbers its
/// positions (explored by key).
struct Fickle {
    calls: std::sync::atomic::AtomicU32,
    keyed: bool,
}

impl Fickle {
    fn new(keyed: bool) -> Fickle {
        Fickle {
            calls: Default::default(),
            keyed,
        }
    }
}

impl StateGame for Fickle {
    type Position = u32;
    fn starts(&self) -> Vec<u32> {
        vec![0]
    }
    fn for_each_move<F: FnMut(u32)>(&self, p: &u32, mut f: F) {
        let calls = self
            .calls
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if *p < 3 {
            f(p + 1);
        }
        if *p == 0 && calls > 0 {
            f(2);
        }
    }
    fn encode(&self, p: &u32) -> Option<u64> {
        self.keyed.then_some(u64::from(*p))
    }
    fn decode(&self, code: u64) -> Option<u32> {
        u32::try_from(code).ok()
    }
}

/// Moves that differ each time they are generated are caught, not solved.
#[test]
fn moves_that_change_between_passes_are_refused() {
    // Recorded moves are generated once; generated again, they must agree.
    assert!(Explorer::new().explore(Fickle::new(false)).is_ok());
    let e = Explorer::new()
        .low_memory()
        .explore(Fickle::new(false))
        .unwrap_err();
    assert!(matches!(e, Error::MovesChanged), "{e}");
}

/// A game numbered by key whose moves change is caught as well: its moves
/// are always generated again once the positions are numbered.
#[test]
fn moves_that_change_are_refused_when_numbered_by_key() {
    for e in [Explorer::new(), Explorer::new().low_memory()] {
        let e = e.explore(Fickle::new(true)).unwrap_err();
        assert!(matches!(e, Error::MovesChanged), "{e}");
    }
}

/// A game that numbers some positions but not all, or whose decode does not
/// undo its encode, is refused with what is wrong.
#[test]
fn a_numbering_that_misses_positions_or_does_not_decode_is_refused() {
    struct Counter {
        unnumbered: u32,
        off_by_one: bool,
    }
    impl StateGame for Counter {
        type Position = u32;
        fn starts(&self) -> Vec<u32> {
            vec![0]
        }
        fn for_each_move<F: FnMut(u32)>(&self, p: &u32, mut f: F) {
            if *p < 10 {
                f(p + 1);
            }
        }
        fn encode(&self, p: &u32) -> Option<u64> {
            (*p != self.unnumbered).then_some(u64::from(*p))
        }
        fn decode(&self, code: u64) -> Option<u32> {
            let p = u32::try_from(code).ok()?;
            Some(if self.off_by_one && p == 4 { 5 } else { p })
        }
    }
    let e = explore(Counter {
        unnumbered: 6,
        off_by_one: false,
    })
    .unwrap_err();
    assert!(matches!(e, Error::NotNumbered { .. }), "{e}");
    assert_eq!(
        e.to_string(),
        "the game numbers its starts (encode) but not 6: it must number every position, or none"
    );
    let e = explore(Counter {
        unnumbered: 99,
        off_by_one: true,
    })
    .unwrap_err();
    assert!(matches!(e, Error::BadNumber { code: 4 }), "{e}");
    // Without a number for the start, the game is explored by hash.
    let x = explore(Counter {
        unnumbered: 0,
        off_by_one: true,
    })
    .unwrap();
    assert!(!x.numbered_by_key());
    assert_eq!(x.len(), 11);
}

/// A game large enough for the explorer's table to grow many times, with
/// batches deferred while it does: the same positions, moves and values by
/// number as by hash; numbers spread evenly give ids in the game's order,
/// numbers bunched at a few places ids in a scrambled order.
#[test]
fn a_large_game_by_number_is_the_same_game_as_by_hash() {
    struct Spiral {
        n: u32,
        bunched: bool,
    }
    impl StateGame for Spiral {
        type Position = u32;
        fn starts(&self) -> Vec<u32> {
            vec![1]
        }
        fn for_each_move<F: FnMut(u32)>(&self, p: &u32, mut f: F) {
            let n = u64::from(self.n);
            for (a, b) in [(7, 1), (13, 5), (2, 0), (1, 1)] {
                f(((u64::from(*p) * a + b) % n) as u32);
            }
        }
        fn terminal(&self, p: &u32) -> Option<Outcome> {
            p.is_multiple_of(97).then_some(Outcome::Lose)
        }
        fn encode(&self, p: &u32) -> Option<u64> {
            let (q, r) = (u64::from(*p / 7), u64::from(*p % 7));
            Some(match self.bunched {
                // Each remainder its own scale: 2^0, 2^6, ..., 2^36.
                true => r << 61 | q << (6 * r),
                false => u64::from(*p) << 20,
            })
        }
        fn decode(&self, code: u64) -> Option<u32> {
            let p = match self.bunched {
                true => {
                    let r = code >> 61;
                    let q = (code & ((1 << 61) - 1)) >> (6 * r);
                    (q << (6 * r) == code & ((1 << 61) - 1)).then_some(q * 7 + r)?
                }
                false => code >> 20,
            };
            u32::try_from(p).ok().filter(|&p| p < self.n)
        }
    }
    for bunched in [false, true] {
        let game = Spiral {
            n: 200_003,
            bunched,
        };
        let by_key = Explorer::new().solve(&game).unwrap();
        let by_hash = Explorer::new().by_hash().solve(&game).unwrap();
        let (k, h) = (by_key.explored(), by_hash.explored());
        assert!(k.numbered_by_key());
        assert_eq!((k.len(), k.move_count()), (h.len(), h.move_count()));
        assert!(k.len() > 100_000, "{}", k.len());
        for v in (0..k.len() as u32).step_by(7) {
            let x = k.position(v).unwrap();
            assert_eq!(k.index(&x), Some(v));
            assert_eq!(by_key.value(&x).unwrap(), by_hash.value(&x).unwrap());
        }
        assert_eq!(by_key.summary(), by_hash.summary());
        let codes: Vec<u64> = (0..k.len() as u32)
            .map(|v| game.encode(&k.position(v).unwrap()).unwrap())
            .collect();
        assert_eq!(codes.is_sorted(), !bunched, "ids in the game's order");
    }
}

/// A game numbered by key may start anywhere: 100,000 starts (each given
/// twice) fit the explorer's first table and are each a start once.
#[test]
fn a_game_that_starts_everywhere_is_explored_by_key() {
    struct Everywhere;
    impl StateGame for Everywhere {
        type Position = u32;
        fn starts(&self) -> Vec<u32> {
            (0..200_000).map(|k| k / 2).collect()
        }
        fn for_each_move<F: FnMut(u32)>(&self, p: &u32, mut f: F) {
            if *p > 0 {
                f(p / 2);
            }
        }
        fn encode(&self, p: &u32) -> Option<u64> {
            Some(u64::from(*p))
        }
        fn decode(&self, code: u64) -> Option<u32> {
            u32::try_from(code).ok()
        }
    }
    let s = Explorer::new().solve(Everywhere).unwrap();
    let e = s.explored();
    assert!(e.numbered_by_key());
    assert_eq!((e.len(), e.starts().len()), (100_000, 100_000));
    // 0 has no move: lost; 1 moves to 0: won; 2 and 3 move to 1: lost.
    assert_eq!(s.value(&3).unwrap(), Value::new(Outcome::Lose, Some(2)));
}

#[test]
fn a_memory_limit_refuses_a_large_exploration() {
    let e = Explorer::new()
        .memory_limit(10_000)
        .explore(TicTacToe { symmetry: false })
        .unwrap_err();
    // Refused while exploring: the message says the count is partial.
    assert!(matches!(e, Error::ExplorationTooLarge { .. }), "{e}");
    assert!(e.to_string().contains("found so far"), "{e}");
}

/// The explored graph holds only reachable positions and exactly their
/// moves, counted here by a plain depth-first search over the rules.
#[test]
fn the_explored_graph_holds_exactly_the_reachable_moves() {
    fn walk(game: &TicTacToe, b: Board, seen: &mut std::collections::HashSet<Board>) -> u64 {
        if !seen.insert(b) || game.terminal(&b).is_some() {
            return 0;
        }
        let mut next = Vec::new();
        game.for_each_move(&b, |q| next.push(q));
        next.len() as u64 + next.into_iter().map(|q| walk(game, q, seen)).sum::<u64>()
    }
    let game = TicTacToe { symmetry: false };
    let mut seen = std::collections::HashSet::new();
    let moves = walk(&game, EMPTY, &mut seen);
    let x = explore(&game).unwrap();
    assert_eq!(x.graph().vertex_count(), seen.len());
    assert_eq!(x.move_count(), moves);
    assert_eq!(
        x.move_count(),
        x.graph()
            .out_degrees()
            .iter()
            .map(|&d| u64::from(d))
            .sum::<u64>()
    );
}

#[test]
fn what_the_caller_reserves_a_position_counts_against_the_memory_limit() {
    let game = || TicTacToe { symmetry: false };
    let needed = Explorer::new().explore(game()).unwrap().bytes();
    // Room for the exploration alone, not for a kilobyte a position more.
    let limit = 4 * needed;
    assert!(Explorer::new().memory_limit(limit).explore(game()).is_ok());
    let e = Explorer::new()
        .memory_limit(limit)
        .reserve(1024)
        .explore(game())
        .unwrap_err();
    assert!(
        matches!(
            e,
            Error::TooLarge { .. } | Error::ExplorationTooLarge { .. }
        ),
        "{e}"
    );
}
