//! Sums of tokens: the value of several tokens from each one's value, and
//! a winning move derived from the values.

use super::{GrundyValues, Loopy};
use crate::Successors;

/// The value of a sum of tokens (a move moves one of them): the xor of
/// the finite values; `∞(K ⊕ y)` when one token is `∞(K)` and the others'
/// xor is `y`; `∞(∅)` (a draw) when two or more are infinite. The sum of
/// no token is 0.
///
/// Time `O(k + |K|·log|K|)` for `k` tokens.
pub fn sum<'a>(parts: impl IntoIterator<Item = &'a Loopy>) -> Loopy {
    let mut x = 0u32;
    let mut infinite: Option<&[u32]> = None;
    let mut infinities = 0;
    for p in parts {
        match p {
            Loopy::Finite(a) => x ^= a,
            Loopy::Infinite(k) => {
                infinities += 1;
                infinite = Some(k);
            }
        }
    }
    match (infinities, infinite) {
        (0, _) | (_, None) => Loopy::Finite(x),
        (1, Some(k)) => {
            let mut shifted: Vec<u32> = k.iter().map(|a| a ^ x).collect();
            shifted.sort_unstable();
            Loopy::Infinite(shifted)
        }
        _ => Loopy::Infinite(Vec::new()),
    }
}

/// A token: the graph it moves on, that graph's values, and where it is.
#[derive(Clone, Copy, Debug)]
pub struct Token<'a, G: ?Sized> {
    /// The graph.
    pub graph: &'a G,
    /// Its values ([`grundy`](super::grundy) of `graph`).
    pub values: &'a GrundyValues,
    /// The position of the token.
    pub at: u32,
}

/// A move of a sum: which token goes where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SumMove {
    /// The index of the token moved, in the order given.
    pub token: usize,
    /// The position it moves to.
    pub to: u32,
}

/// A winning move of the sum of `tokens`, derived from the values: one
/// that leaves a sum of value 0, lost for the opponent. `None` when the
/// sum is lost or drawn (or a token is on no position).
///
/// - All values finite, xor `s ≠ 0`: a token of value `a` with
///   `a ⊕ s < a` moves to an option of value `a ⊕ s` (one exists: a finite
///   value has options of every smaller value).
/// - One token `∞(K)`, the others' xor `y ∈ K`: it moves to an option of
///   value `y`.
///
/// Among such moves, the one to the option whose value was given first
/// ([`GrundyValues::order`]), then the first token, then the first move.
/// To win from there, answer every move of the opponent with a move to a
/// sum of value 0 again: after a move that raised a token's value (or made
/// it infinite), move that token back down to its old value, to an option
/// given before the position it left; the counter function guarantees
/// that the game ends. What is not given here: remoteness (how many moves
/// the win takes) for sums; the theory decides the outcome of a sum, not
/// the length of its best play.
///
/// Time: the moves of the tokens moved from.
pub fn winning_move<G: Successors + ?Sized>(tokens: &[Token<'_, G>]) -> Option<SumMove> {
    let values: Vec<Loopy> = tokens
        .iter()
        .map(|t| t.values.value(t.at))
        .collect::<Option<_>>()?;
    let total = sum(&values);
    // (token, the value its move must reach)
    let aims: Vec<(usize, u32)> = match &total {
        Loopy::Finite(0) => return None,
        Loopy::Finite(s) => values
            .iter()
            .enumerate()
            .filter_map(|(i, v)| {
                let a = v.finite()?;
                (a ^ s < a).then_some((i, a ^ s))
            })
            .collect(),
        Loopy::Infinite(k) if k.first() == Some(&0) => {
            let (j, _) = values
                .iter()
                .enumerate()
                .find(|(_, v)| v.finite().is_none())?;
            let others = sum(values
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != j)
                .map(|(_, v)| v));
            vec![(j, others.finite()?)]
        }
        Loopy::Infinite(_) => return None,
    };
    let mut best: Option<(u32, SumMove)> = None;
    for (i, aim) in aims {
        let t = &tokens[i];
        t.graph.for_each_successor(t.at, |w| {
            if t.values.finite(w) == Some(aim) {
                let order = t.values.order(w).unwrap_or(u32::MAX);
                if best.is_none_or(|(o, _)| order < o) {
                    best = Some((order, SumMove { token: i, to: w }));
                }
            }
        });
    }
    best.map(|(_, m)| m)
}
