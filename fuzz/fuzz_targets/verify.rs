//! The verifier on fuzzed solutions of small fuzzed games.
//!
//! The input's first bytes make a game (up to 16 vertices, 47 edges, a no-move
//! rule, a few terminal labels), which is solved. The rest is either a
//! solution file in raw text (first byte >= 0x80) or a list of tamperings of
//! the solver's answer, 4 bytes each (vertex, outcome, remoteness, move).
//! Oracle: `verify` accepts a solution exactly when its outcomes and
//! remoteness equal the solver's and each best move is a valid one.
#![no_main]

use libfuzzer_sys::fuzz_target;
use retrograde::io::{solution, Input};
use retrograde::{solve, verify, Answers, Csr, Labels, NoMoveRule, Outcome, Rules};

#[path = "../../crates/retrograde/tests/support/best_move.rs"]
mod best_move;
use best_move::is_best_move;

const OUTCOMES: [Outcome; 4] = [Outcome::Win, Outcome::Lose, Outcome::Draw, Outcome::Tie];

fn field(x: Option<u32>) -> String {
    x.map_or_else(|| "-".to_string(), |x| x.to_string())
}

fuzz_target!(|data: &[u8]| {
    let mut bytes = data.iter().copied();
    let Some(head) = bytes.next() else { return };
    let n = 1 + u32::from(head % 16);
    let raw = head >= 0x80;
    let k = bytes.next().unwrap_or(0) % 48;
    let mut edges = Vec::new();
    for _ in 0..k {
        match (bytes.next(), bytes.next()) {
            (Some(u), Some(v)) => edges.push((u32::from(u) % n, u32::from(v) % n)),
            _ => break,
        }
    }
    let mut labels = Vec::new();
    for _ in 0..bytes.next().unwrap_or(0) % 3 {
        if let (Some(v), Some(o)) = (bytes.next(), bytes.next()) {
            labels.push((u32::from(v) % n, OUTCOMES[usize::from(o % 4)]));
        }
    }
    let rules = Rules {
        no_move: if head & 0x10 != 0 {
            NoMoveRule::Win
        } else {
            NoMoveRule::Lose
        },
        labels: Labels::from_pairs(labels),
    };
    let g = Csr::from_edges(n as usize, &edges).with_successors();
    let s = solve(&g, &rules).unwrap();
    let rest: Vec<u8> = bytes.collect();

    let candidate = if raw {
        match solution::read(&Input::from_bytes("fuzz.tsv", rest), Some(n as usize)) {
            Ok(t) => t,
            Err(_) => return,
        }
    } else {
        let mut lines: Vec<String> = (0..n)
            .map(|v| {
                format!(
                    "{v}\t{}\t{}\t{}",
                    s.outcome(v),
                    field(s.remoteness(v)),
                    field(s.best_move(v))
                )
            })
            .collect();
        for c in rest.chunks_exact(4) {
            let v = u32::from(c[0]) % n;
            let o = OUTCOMES[usize::from(c[1] % 4)];
            let r = (o != Outcome::Draw).then_some(u32::from(c[2] % 8));
            let m = (c[3] != 0xff).then_some(u32::from(c[3]) % (n + 2));
            lines[v as usize] = format!("{v}\t{o}\t{}\t{}", field(r), field(m));
        }
        let text = lines.join("\n").into_bytes();
        solution::read(&Input::from_bytes("t.tsv", text), Some(n as usize))
            .expect("tampered lines are well formed")
    };

    let report = verify(&g, &rules, &candidate, 4).unwrap();
    let correct = (0..n).all(|v| {
        candidate.outcome(v) == s.outcome(v)
            && candidate.remoteness(v) == s.remoteness(v)
            && is_best_move(&g, &rules, &s, v, candidate.best_move(v))
    });
    assert_eq!(report.is_ok(), correct, "{:?}", report.violations);
});
