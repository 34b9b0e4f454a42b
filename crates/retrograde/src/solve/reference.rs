//! A slow solver written straight from the definitions, to test the fast ones.
//!
//! No queue and no counters: round after round, every undecided position is
//! checked against the values its successors had at the end of the previous
//! round, until nothing changes. Time `O(R · (V + E))` for `R` rounds
//! (at most `V + 1`), so use it on small graphs only.

use super::Solution;
use crate::graph::NONE;
use crate::{Outcome, Rules, Successors};

/// Solves `g` by fixed-point iteration over the definitions:
///
/// - a terminal position (labelled, or with no move) has its rule's value and remoteness 0;
/// - a position with a `Lose` successor is a `Win`, remoteness 1 + the least
///   remoteness among its `Lose` successors, best move the `Lose` successor of
///   least remoteness (smallest id on ties);
/// - a position whose successors are all `Win` is a `Lose`, remoteness 1 + the
///   greatest of theirs, best move the one of greatest remoteness (smallest id);
/// - everything never decided is a `Draw`, best move its smallest `Draw` successor.
///
/// # Panics
/// If a label names a vertex outside the graph.
pub fn solve_reference<G: Successors + ?Sized>(g: &G, rules: &Rules) -> Solution {
    let n = g.vertex_count();
    // value[v]: None while undecided, Some((outcome, remoteness)) once decided.
    let mut value: Vec<Option<(Outcome, u32)>> = vec![None; n];
    let mut terminal = vec![false; n];
    for v in 0..n as u32 {
        let t = rules
            .labels
            .get(v)
            .or_else(|| g.terminal(v))
            .or_else(|| (g.out_degree(v) == 0).then(|| rules.no_move.outcome()));
        if let Some(o) = t {
            terminal[v as usize] = true;
            value[v as usize] = Some((o, 0));
        }
    }
    for (v, _) in rules.labels.iter() {
        assert!((v as usize) < n, "label names vertex {v} outside the graph");
    }
    loop {
        let before = value.clone();
        let mut changed = false;
        for v in 0..n as u32 {
            if before[v as usize].is_some() {
                continue;
            }
            let mut succ = Vec::new();
            g.for_each_successor(v, |w| succ.push(before[w as usize]));
            let lose_min = succ
                .iter()
                .filter_map(|s| match s {
                    Some((Outcome::Lose, r)) => Some(*r),
                    _ => None,
                })
                .min();
            if let Some(r) = lose_min {
                value[v as usize] = Some((Outcome::Win, r + 1));
                changed = true;
            } else if succ.iter().all(|s| matches!(s, Some((Outcome::Win, _)))) {
                let r = succ.iter().map(|s| s.unwrap().1).max().unwrap();
                value[v as usize] = Some((Outcome::Lose, r + 1));
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }

    let mut state = vec![0u8; n];
    let mut rem = vec![NONE; n];
    let mut best = vec![NONE; n];
    for v in 0..n {
        match value[v] {
            Some((o, r)) if o != Outcome::Draw => {
                state[v] = o as u8;
                rem[v] = r;
            }
            _ => state[v] = Outcome::Draw as u8,
        }
    }
    for v in 0..n {
        if terminal[v] {
            continue;
        }
        let mut succ = Vec::new();
        g.for_each_successor(v as u32, |w| succ.push(w));
        let outcome_of = |w: u32| Outcome::from_u8(state[w as usize]);
        let pick = match outcome_of(v as u32) {
            Outcome::Win => succ
                .iter()
                .copied()
                .filter(|&w| outcome_of(w) == Outcome::Lose)
                .min_by_key(|&w| (rem[w as usize], w)),
            Outcome::Lose => succ
                .iter()
                .copied()
                .min_by_key(|&w| (std::cmp::Reverse(rem[w as usize]), w)),
            Outcome::Draw => succ
                .iter()
                .copied()
                .filter(|&w| outcome_of(w) == Outcome::Draw)
                .min(),
        };
        best[v] = pick.unwrap_or(NONE);
    }
    Solution::from_parts(state, rem, best)
}
