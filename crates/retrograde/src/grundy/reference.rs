//! A slow computation of loopy nim values written straight from Fraenkel's
//! labelling, to test the fast one: no counters, no queue, no escaped sets;
//! round after round every open position is checked against the labels of
//! its options and their options. Time `O(m · V · (V + E) · Δ)` or so; use
//! it on small graphs only.

use super::Loopy;
use crate::{Outcome, Successors};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Label {
    Open,
    Finite(u32),
    Infinite,
    Absent,
}

/// The loopy nim value of every position of `g` (`None` for an index that
/// is no position), by the labelling as published:
///
/// 1. `i = 0`.
/// 2. While some open `u` has no option labelled `i`, and every option of
///    `u` that is open or labelled infinite has an option labelled `i`:
///    label `u` with `i`.
/// 3. Label infinite every open position without an option labelled `i`.
/// 4. If a position is open, `i = i + 1` and go to 2.
/// 5. An infinite `u` is `∞(K)`, `K` the finite labels of its options.
///
/// A position terminal as a loss has no options; any other terminal value
/// panics (the fast [`grundy`](super::grundy) refuses it).
pub fn grundy_reference<G: Successors + ?Sized>(g: &G) -> Vec<Option<Loopy>> {
    let n = g.vertex_count();
    let options: Vec<Vec<u32>> = (0..n as u32)
        .map(|v| {
            let mut out = Vec::new();
            match g.terminal(v) {
                None => g.for_each_successor(v, |w| out.push(w)),
                Some(Outcome::Lose) => {}
                Some(o) => panic!("position {v} is terminal with {o:?}"),
            }
            out
        })
        .collect();
    let mut label: Vec<Label> = (0..n as u32)
        .map(|v| {
            if g.is_position(v) {
                Label::Open
            } else {
                Label::Absent
            }
        })
        .collect();
    let mut i = 0u32;
    while label.contains(&Label::Open) {
        let has_i = |label: &[Label], u: usize| {
            options[u]
                .iter()
                .any(|&w| label[w as usize] == Label::Finite(i))
        };
        loop {
            let mut changed = false;
            for u in 0..n {
                if label[u] != Label::Open || has_i(&label, u) {
                    continue;
                }
                let ok = options[u].iter().all(|&w| {
                    let lw = label[w as usize];
                    !(lw == Label::Open || lw == Label::Infinite) || has_i(&label, w as usize)
                });
                if ok {
                    label[u] = Label::Finite(i);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        for u in 0..n {
            if label[u] == Label::Open && !has_i(&label, u) {
                label[u] = Label::Infinite;
            }
        }
        i += 1;
    }
    (0..n)
        .map(|u| match label[u] {
            Label::Absent | Label::Open => None,
            Label::Finite(a) => Some(Loopy::Finite(a)),
            Label::Infinite => {
                let mut k: Vec<u32> = options[u]
                    .iter()
                    .filter_map(|&w| match label[w as usize] {
                        Label::Finite(a) => Some(a),
                        _ => None,
                    })
                    .collect();
                k.sort_unstable();
                k.dedup();
                Some(Loopy::Infinite(k))
            }
        })
        .collect()
}
