//! The text edge list reader on arbitrary bytes: never a panic, never more
//! memory than the limit, and a graph read without `--vertices` reads the
//! same with its own vertex count.
#![no_main]

use libfuzzer_sys::fuzz_target;
use retrograde::io::{edge_list, Input};
use retrograde::{CsrBuilder, GameGraph};

fuzz_target!(|data: &[u8]| {
    let input = || Input::from_bytes("fuzz.txt", data.to_vec());
    let builder = CsrBuilder::new().memory_limit(64 << 20).reserve(17, 4);
    if let Ok(g) = edge_list::read(input(), None, builder.clone()) {
        let again = edge_list::read(input(), Some(g.vertex_count()), builder)
            .expect("a graph that reads must read with its own vertex count");
        assert_eq!(g, again);
        let g = g.with_successors();
        let forward: u64 = (0..g.vertex_count() as u32)
            .map(|v| g.successors(v).len() as u64)
            .sum();
        assert_eq!(forward, g.edge_count());
    }
});
