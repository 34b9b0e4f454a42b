//! A slow solver written straight from the definitions, to test the fast ones.
//!
//! No queue and no counters: round after round, every undecided position is
//! checked against the values its successors had at the end of the previous
//! round, until nothing changes; first for wins and losses, then for ties.
//! Time `O(R · (V + E))` for `R` rounds (at most `V + 1` per phase), so use
//! it on small graphs only.
//!
//! It deliberately shares nothing with the engines' rule in
//! [`kernel`](crate::kernel): not the terminal precedence, not the update,
//! not the order of moves. It is what that rule is checked against.

use super::Solution;
use crate::{Outcome, Rules, Successors};

/// Solves `g` by fixed-point iteration over the definitions:
///
/// - an index that is not a position ([`GameGraph::is_position`](crate::GameGraph::is_position))
///   stays out of everything;
/// - a terminal position (labelled, terminal by the game, or with no move) has
///   its label's, the game's or the no-move rule's value, in that order, and
///   remoteness 0 (none for a draw);
/// - a position with a `Lose` successor is a `Win`, remoteness 1 + the least
///   remoteness among its `Lose` successors, best move the `Lose` successor of
///   least remoteness (smallest id on ties);
/// - a position whose successors are all `Win` is a `Lose`, remoteness 1 + the
///   greatest of theirs, best move the one of greatest remoteness (smallest id);
/// - once no more wins or losses follow, a position still undecided with a
///   `Tie` successor is a `Tie` (for the player to move a tie beats a draw,
///   and the other successors are wins for the opponent or undecided),
///   remoteness 1 + the least remoteness among its `Tie` successors, best move
///   the `Tie` successor of least remoteness (smallest id);
/// - everything never decided is a `Draw`, best move its smallest `Draw` successor.
///
/// Where a move keeps the turn ([`GameGraph::same_player`](crate::GameGraph::same_player):
/// the mover moves again there), the successor's value is already the
/// mover's: it counts above with `Win` and `Lose` swapped (a successor won
/// by the mover himself is as good as one lost by the opponent).
///
/// # Panics
/// If a label names a vertex outside the graph.
pub fn solve_reference<G: Successors + ?Sized>(g: &G, rules: &Rules) -> Solution {
    let n = g.vertex_count();
    for (v, _) in rules.labels.iter() {
        assert!((v as usize) < n, "label names vertex {v} outside the graph");
    }
    let exists: Vec<bool> = (0..n as u32).map(|v| g.is_position(v)).collect();
    let (mut value, terminal) = terminal_values(g, rules, &exists);
    // A successor's value as the opponent of v's mover would hold it.
    let as_opponent = |v: u32, w: u32, x: Decided| {
        x.map(|(o, r)| match g.same_player(v, w) {
            true => (o.flip(), r),
            false => (o, r),
        })
    };

    // Wins and losses.
    fixed_point(n, &exists, &mut value, |v, before| {
        let succ: Vec<_> = successors(g, v)
            .iter()
            .map(|&w| as_opponent(v, w, before[w as usize]))
            .collect();
        let lose_min = succ
            .iter()
            .filter_map(|s| match s {
                Some((Outcome::Lose, r)) => *r,
                _ => None,
            })
            .min();
        if let Some(r) = lose_min {
            Some((Outcome::Win, Some(r + 1)))
        } else if succ.iter().all(|s| matches!(s, Some((Outcome::Win, _)))) {
            let r = succ.iter().filter_map(|s| s.and_then(|s| s.1)).max()?;
            Some((Outcome::Lose, Some(r + 1)))
        } else {
            None
        }
    });
    // Ties, among the positions left.
    fixed_point(n, &exists, &mut value, |v, before| {
        successors(g, v)
            .iter()
            .filter_map(|&w| match before[w as usize] {
                Some((Outcome::Tie, r)) => r,
                _ => None,
            })
            .min()
            .map(|r| (Outcome::Tie, Some(r + 1)))
    });

    values_and_best_moves(g, &exists, &terminal, &value)
}

/// A position's value while solving: `None` while undecided,
/// `Some((outcome, remoteness))` once decided.
type Decided = Option<(Outcome, Option<u32>)>;

/// The moves of `v`: the successors it has, in the graph's order.
fn successors<G: Successors + ?Sized>(g: &G, v: u32) -> Vec<u32> {
    let mut succ = Vec::new();
    g.for_each_successor(v, |w| succ.push(w));
    succ
}

/// The terminal positions' values (label, game, then no-move rule), and which are terminal.
fn terminal_values<G: Successors + ?Sized>(
    g: &G,
    rules: &Rules,
    exists: &[bool],
) -> (Vec<Decided>, Vec<bool>) {
    let n = exists.len();
    let mut value: Vec<Decided> = vec![None; n];
    let mut terminal = vec![false; n];
    for v in 0..n as u32 {
        if !exists[v as usize] {
            continue;
        }
        let t = rules
            .labels
            .get(v)
            .or_else(|| g.terminal(v))
            .or_else(|| (g.out_degree(v) == 0).then(|| rules.no_move.outcome()));
        if let Some(o) = t {
            terminal[v as usize] = true;
            value[v as usize] = Some((o, (o != Outcome::Draw).then_some(0)));
        }
    }
    (value, terminal)
}

/// Every position's value (a `Draw` if never decided) and best move, as the definitions pick it.
fn values_and_best_moves<G: Successors + ?Sized>(
    g: &G,
    exists: &[bool],
    terminal: &[bool],
    value: &[Decided],
) -> Solution {
    let n = exists.len();
    let outcome_of = |w: u32| value[w as usize].map_or(Outcome::Draw, |x| x.0);
    let rem_of = |w: u32| value[w as usize].and_then(|x| x.1);
    let opponent_outcome = |v: u32, w: u32| match g.same_player(v, w) {
        true => outcome_of(w).flip(),
        false => outcome_of(w),
    };
    let mut values = Vec::with_capacity(n);
    let mut best = Vec::with_capacity(n);
    for v in 0..n as u32 {
        if !exists[v as usize] {
            values.push(None);
            best.push(None);
            continue;
        }
        values.push(Some((outcome_of(v), rem_of(v))));
        if terminal[v as usize] {
            best.push(None);
            continue;
        }
        let succ = successors(g, v);
        let with = |o: Outcome| {
            succ.iter()
                .copied()
                .filter(move |&w| opponent_outcome(v, w) == o)
        };
        let pick = match outcome_of(v) {
            Outcome::Win => with(Outcome::Lose).min_by_key(|&w| (rem_of(w), w)),
            Outcome::Lose => succ
                .iter()
                .copied()
                .min_by_key(|&w| (std::cmp::Reverse(rem_of(w)), w)),
            Outcome::Tie => with(Outcome::Tie).min_by_key(|&w| (rem_of(w), w)),
            Outcome::Draw => with(Outcome::Draw).min(),
        };
        best.push(pick);
    }
    Solution::from_options(values, best)
}

/// Decides undecided positions with `decide(v, values of the last round)`
/// until a round decides nothing.
fn fixed_point(
    n: usize,
    exists: &[bool],
    value: &mut [Decided],
    decide: impl Fn(u32, &[Decided]) -> Decided,
) {
    loop {
        let before = value.to_vec();
        let mut changed = false;
        for v in 0..n as u32 {
            if !exists[v as usize] || before[v as usize].is_some() {
                continue;
            }
            if let Some(x) = decide(v, &before) {
                value[v as usize] = Some(x);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
}
