//! Loopy nim values against the slow labelling written from the
//! publication, and sums of 2 and 3 tokens against the product game solved
//! by the main engine: on random multigraphs with cycles, self-loops and
//! parallel edges.

use proptest::prelude::*;
use retrograde::grundy::{self, Loopy, Token, grundy, reference::grundy_reference};
use retrograde::{Answers, Csr, GameGraph, Graph, Outcome, Rules};

/// `(vertices, edges)`: up to `3 · vertices + 2` edges among `vertices`.
fn random_graph(sizes: std::ops::Range<usize>) -> impl Strategy<Value = (usize, Vec<(u32, u32)>)> {
    sizes.prop_flat_map(|n| {
        let ids = 0..n as u32;
        (
            Just(n),
            prop::collection::vec((ids.clone(), ids), 0..3 * n + 2),
        )
    })
}

fn graph(n: usize, edges: &[(u32, u32)]) -> Graph {
    Csr::from_edges(n, edges).with_successors()
}

/// The game of one token on each of `parts` (a move moves one token): its
/// positions numbered in mixed radix, the first token's place the lowest.
fn product(parts: &[&Graph]) -> Csr {
    let sizes: Vec<usize> = parts.iter().map(|g| g.vertex_count()).collect();
    let total: usize = sizes.iter().product();
    let mut edges = Vec::new();
    for p in 0..total {
        let at = unrank(p, &sizes);
        for (i, g) in parts.iter().enumerate() {
            for &w in g.successors(at[i]) {
                let mut to = at.clone();
                to[i] = w;
                edges.push((p as u32, rank(&to, &sizes) as u32));
            }
        }
    }
    Csr::from_edges(total, &edges)
}

fn unrank(mut p: usize, sizes: &[usize]) -> Vec<u32> {
    sizes
        .iter()
        .map(|&s| {
            let v = (p % s) as u32;
            p /= s;
            v
        })
        .collect()
}

fn rank(at: &[u32], sizes: &[usize]) -> usize {
    at.iter()
        .zip(sizes)
        .rev()
        .fold(0, |acc, (&v, &s)| acc * s + v as usize)
}

/// Checks the sums of one token on each of `parts` three ways: the
/// product's own values are the sums of the parts' values; the main
/// engine's outcome of every product position is the sum's; a winning
/// move derived from the values reaches a position the engine finds lost.
fn check_sums(parts: &[&Graph]) -> Result<(), TestCaseError> {
    let values: Vec<_> = parts.iter().map(|g| grundy(*g).unwrap()).collect();
    let sizes: Vec<usize> = parts.iter().map(|g| g.vertex_count()).collect();
    let prod = product(parts);
    let solved = retrograde::solve(&prod, &Rules::normal()).unwrap();
    let prod_values = grundy(&prod).unwrap();
    for p in 0..sizes.iter().product::<usize>() {
        let at = unrank(p, &sizes);
        let each: Vec<Loopy> = at
            .iter()
            .zip(&values)
            .map(|(&v, vals)| vals.value(v).unwrap())
            .collect();
        let total = grundy::sum(&each);
        prop_assert_eq!(
            Some(total.clone()),
            prod_values.value(p as u32),
            "at {:?}",
            at
        );
        prop_assert_eq!(
            total.outcome(),
            solved.outcome(p as u32),
            "at {:?}: {}",
            at,
            total
        );
        let tokens: Vec<Token<'_, Graph>> = at
            .iter()
            .zip(parts.iter().zip(&values))
            .map(|(&v, (g, vals))| Token {
                graph: *g,
                values: vals,
                at: v,
            })
            .collect();
        match grundy::winning_move(&tokens) {
            Some(m) => {
                prop_assert_eq!(total.outcome(), Outcome::Win);
                prop_assert!(parts[m.token].successors(at[m.token]).contains(&m.to));
                let mut to = at.clone();
                to[m.token] = m.to;
                prop_assert_eq!(solved.outcome(rank(&to, &sizes) as u32), Outcome::Lose);
            }
            None => prop_assert_ne!(total.outcome(), Outcome::Win, "at {:?}", at),
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn values_are_the_published_labelling_s((n, edges) in random_graph(1..14)) {
        let g = graph(n, &edges);
        let fast = grundy(&g).unwrap();
        let slow = grundy_reference(&g);
        for v in 0..n as u32 {
            prop_assert_eq!(fast.value(v), slow[v as usize].clone(), "vertex {}", v);
        }
        // Kept as codes and read back (as a database does): the same.
        let (codes, order) = fast.codes();
        let back = grundy::GrundyValues::from_codes(&g, codes.to_vec(), order.to_vec()).unwrap();
        prop_assert_eq!(&back, &fast);
        // One token: the values' outcomes are the main engine's.
        let solved = retrograde::solve(&g, &Rules::normal()).unwrap();
        for v in 0..n as u32 {
            prop_assert_eq!(fast.outcome(v), Some(solved.outcome(v)), "vertex {}", v);
        }
    }

    #[test]
    fn two_tokens_on_one_graph_agree_with_the_product((n, edges) in random_graph(1..8)) {
        let g = graph(n, &edges);
        check_sums(&[&g, &g])?;
    }

    #[test]
    fn two_tokens_on_two_graphs_agree_with_the_product(
        (n, edges) in random_graph(1..7),
        (m, more) in random_graph(1..7),
    ) {
        check_sums(&[&graph(n, &edges), &graph(m, &more)])?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn three_tokens_agree_with_the_product((n, edges) in random_graph(1..5)) {
        let g = graph(n, &edges);
        check_sums(&[&g, &g, &g])?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Without cycles the values are the classical Sprague–Grundy numbers:
    /// the least value no option has.
    #[test]
    fn on_acyclic_graphs_values_are_the_mex_of_the_options((n, edges) in random_graph(1..16)) {
        let forward: Vec<(u32, u32)> = edges
            .iter()
            .filter(|(u, v)| u > v)
            .copied()
            .collect();
        let g = graph(n, &forward);
        let values = grundy(&g).unwrap();
        let mut mex = vec![0u32; n];
        for v in 0..n {
            let options: Vec<u32> = g.successors(v as u32).iter().map(|&w| mex[w as usize]).collect();
            mex[v] = (0..).find(|a| !options.contains(a)).unwrap();
        }
        for v in 0..n as u32 {
            prop_assert_eq!(values.value(v), Some(Loopy::Finite(mex[v as usize])));
        }
    }
}

#[test]
fn values_print_as_grundy_writes_them() {
    assert_eq!(Loopy::Finite(3).to_string(), "3");
    assert_eq!(Loopy::Infinite(vec![0, 2]).to_string(), "inf{0,2}");
    assert_eq!(Loopy::Infinite(vec![]).to_string(), "inf");
    assert_eq!(Loopy::Infinite(vec![1]).outcome(), Outcome::Draw);
    assert_eq!(Loopy::Infinite(vec![0, 1]).outcome(), Outcome::Win);
}

#[test]
fn sums_follow_smith_s_rules() {
    let f = Loopy::Finite;
    let inf = Loopy::Infinite;
    assert_eq!(grundy::sum(&[f(3), f(5)]), f(6));
    assert_eq!(grundy::sum(&[f(3), inf(vec![0, 3]), f(1)]), inf(vec![1, 2]));
    assert_eq!(grundy::sum(&[inf(vec![0]), inf(vec![0])]), inf(vec![]));
    assert_eq!(grundy::sum(std::iter::empty()), f(0));
}

/// A graph whose vertex `at` is terminal with `outcome`, its moves ignored.
struct Ending<'a> {
    graph: &'a Csr,
    at: u32,
    outcome: Outcome,
}

impl GameGraph for Ending<'_> {
    fn vertex_count(&self) -> usize {
        self.graph.vertex_count()
    }
    fn out_degree(&self, v: u32) -> u32 {
        self.graph.out_degree(v)
    }
    fn for_each_predecessor<F: FnMut(u32)>(&self, v: u32, f: F) {
        self.graph.for_each_predecessor(v, f)
    }
    fn terminal(&self, v: u32) -> Option<Outcome> {
        (v == self.at).then_some(self.outcome)
    }
}

#[test]
fn a_terminal_win_is_refused_and_a_terminal_loss_is_value_zero() {
    let g = Csr::from_edges(2, &[(0, 1), (1, 0)]);
    let lost = Ending {
        graph: &g,
        at: 1,
        outcome: Outcome::Lose,
    };
    let values = grundy(&lost).unwrap();
    assert_eq!(values.value(1), Some(Loopy::Finite(0)));
    assert_eq!(values.value(0), Some(Loopy::Finite(1)));
    let won = Ending {
        graph: &g,
        at: 1,
        outcome: Outcome::Win,
    };
    let e = grundy(&won).unwrap_err();
    assert!(e.to_string().contains("position 1 is terminal"), "{e}");
}

/// A pile of 0 to 20 counters: take 1 or 2, or put one back on a pile of
/// 10 to 19 (so play can loop); facing exactly 13 loses on the spot.
struct Pile;

const MAX: u32 = 20;

impl retrograde::Game for Pile {
    fn position_count(&self) -> usize {
        MAX as usize + 1
    }
    fn for_each_move<F: FnMut(u32)>(&self, p: u32, mut f: F) {
        for take in 1..=2 {
            if take <= p {
                f(p - take);
            }
        }
        if (10..MAX).contains(&p) {
            f(p + 1);
        }
    }
    fn for_each_unmove<F: FnMut(u32)>(&self, q: u32, mut f: F) {
        for take in 1..=2 {
            if q + take <= MAX {
                f(q + take);
            }
        }
        if q >= 11 {
            f(q - 1);
        }
    }
    fn terminal(&self, p: u32) -> Option<Outcome> {
        (p == 13).then_some(Outcome::Lose)
    }
}

/// The same game by its rules alone, from a pile of 20.
struct PileRules;

impl retrograde::StateGame for PileRules {
    type Position = u32;
    fn starts(&self) -> Vec<u32> {
        vec![MAX]
    }
    fn for_each_move<F: FnMut(u32)>(&self, p: &u32, f: F) {
        retrograde::Game::for_each_move(&Pile, *p, f)
    }
    fn terminal(&self, p: &u32) -> Option<Outcome> {
        retrograde::Game::terminal(&Pile, *p)
    }
}

#[test]
fn numbered_and_rules_alone_games_get_the_values_of_their_graph() {
    // The explicit graph, a terminal position keeping no moves.
    let mut edges = Vec::new();
    for p in 0..=MAX {
        if p != 13 {
            retrograde::Game::for_each_move(&Pile, p, |q| edges.push((p, q)));
        }
    }
    let explicit = grundy(&graph(MAX as usize + 1, &edges)).unwrap();
    let numbered = grundy(&retrograde::game::AsGraph(Pile)).unwrap();
    let explored = retrograde::explore::explore(PileRules).unwrap();
    let by_rules = grundy(&explored).unwrap();
    for p in 0..=MAX {
        assert_eq!(numbered.value(p), explicit.value(p), "pile {p}");
        let i = explored.index(&p).unwrap();
        assert_eq!(by_rules.value(i), explicit.value(p), "pile {p}");
    }
    // 13 is lost on the spot, 14 and 15 move to it: 0, then 1 and 2 ...
    assert_eq!(explicit.value(13), Some(Loopy::Finite(0)));
    assert_eq!(explicit.value(0), Some(Loopy::Finite(0)));
    assert_eq!(explicit.value(2), Some(Loopy::Finite(2)));
}
