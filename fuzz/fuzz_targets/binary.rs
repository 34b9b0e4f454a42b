//! The binary graph reader on arbitrary bytes: never a panic, and a file it
//! accepts is a real graph (each vertex's out-degree is the number of times
//! it appears as a predecessor, every id below `V`), solves, has in-range
//! successors and predecessors, and writes back to the very same bytes (the
//! format is canonical).
#![no_main]

use libfuzzer_sys::fuzz_target;
use retrograde::io::{binary, Input};

#[path = "support/check_graph.rs"]
mod check_graph;
use check_graph::check_graph;

fuzz_target!(|data: &[u8]| {
    let input = Input::from_bytes("fuzz.rgb", data.to_vec());
    if let Ok(g) = binary::read(&input) {
        let mut again = Vec::new();
        binary::write_to(&mut again, &g).unwrap();
        assert_eq!(again, data, "an accepted file writes back the same");
        check_graph(&g);
    }
});
