//! The binary graph reader on arbitrary bytes: never a panic, and a file it
//! accepts is a real graph (each vertex's out-degree is the number of times
//! it appears as a predecessor, every id below `V`), solves, has in-range
//! successors and predecessors, and writes back to the very same bytes (the
//! format is canonical).
#![no_main]

use libfuzzer_sys::fuzz_target;
use retrograde::io::{binary, Input};
use retrograde::{solve, Answers, Csr, GameGraph, Rules};

/// The oracle shared with `binary_structure`: `g` is a consistent graph.
fn check_graph(g: Csr) {
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
    let s = solve(&g, &Rules::normal()).expect("an accepted graph solves");
    assert_eq!(s.len(), n);
    let g = g.with_successors();
    for v in 0..n as u32 {
        assert_eq!(g.successors(v).len() as u64, u64::from(g.out_degree(v)));
        assert!(g.successors(v).iter().all(|&w| (w as usize) < n));
    }
}

fuzz_target!(|data: &[u8]| {
    let input = Input::from_bytes("fuzz.rgb", data.to_vec());
    if let Ok(g) = binary::read(&input) {
        let mut again = Vec::new();
        binary::write_to(&mut again, &g).unwrap();
        assert_eq!(again, data, "an accepted file writes back the same");
        check_graph(g);
    }
});
