//! The oracle the binary-reader targets share: an accepted graph is consistent.

use retrograde::{solve, Answers, Csr, GameGraph, Rules};

/// Asserts that `g` is a consistent graph: every predecessor below `V`, each
/// out-degree equal to the times the vertex appears as a predecessor; that
/// it solves; and that its successors agree with the out-degrees.
pub fn check_graph(g: &Csr) {
    let n = g.vertex_count();
    let mut seen = vec![0u64; n];
    for v in 0..n as u32 {
        for &u in g.predecessors(v) {
            assert!((u as usize) < n, "predecessor {u} of {v} out of range");
            seen[u as usize] += 1;
        }
    }
    for (u, &count) in seen.iter().enumerate() {
        assert_eq!(count, u64::from(g.out_degree(u as u32)), "vertex {u}");
    }
    let s = solve(g, &Rules::normal()).expect("an accepted graph solves");
    assert_eq!(s.len(), n);
    let g = g.clone().with_successors();
    for v in 0..n as u32 {
        assert_eq!(g.successors(v).len() as u64, u64::from(g.out_degree(v)));
        assert!(g.successors(v).iter().all(|&w| (w as usize) < n));
    }
}
