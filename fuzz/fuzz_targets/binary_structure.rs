//! The binary graph reader's structural checks, behind a valid checksum.
//!
//! The first bytes make a small graph (up to 16 vertices, 47 edges); its
//! three arrays (out-degrees, reverse offsets, reverse targets) are then
//! changed by the rest of the input, 4 bytes per change (array, index,
//! value), and sealed with a correct header and checksum by
//! `binary::write_parts`. The reader must never panic; it must accept the
//! untouched arrays (as the same graph), and a file it accepts must be a
//! consistent graph: every id below `V`, each out-degree equal to the times
//! the vertex appears as a predecessor, offsets from 0 to `E`; it solves.
#![no_main]

use libfuzzer_sys::fuzz_target;
use retrograde::io::{binary, Input};
use retrograde::Csr;

#[path = "support/check_graph.rs"]
mod check_graph;
use check_graph::check_graph;

/// A changed value: small ones (near the real ids and counts) most of the
/// time, the extremes sometimes.
fn value(b: u8, c: u8) -> u64 {
    match b >> 6 {
        0 => u64::from(c % 20),
        1 => u64::from(u16::from_le_bytes([b, c])) % 64,
        2 => u64::from(u32::MAX) - u64::from(c),
        _ => u64::MAX - u64::from(c),
    }
}

fuzz_target!(|data: &[u8]| {
    let mut bytes = data.iter().copied();
    let n = 1 + u32::from(bytes.next().unwrap_or(0) % 16);
    let k = bytes.next().unwrap_or(0) % 48;
    let mut edges = Vec::new();
    for _ in 0..k {
        match (bytes.next(), bytes.next()) {
            (Some(u), Some(v)) => edges.push((u32::from(u) % n, u32::from(v) % n)),
            _ => break,
        }
    }
    let g = Csr::from_edges(n as usize, &edges);
    let mut out = g.out_degrees().to_vec();
    let mut offsets = g.reverse().offsets().to_vec();
    let mut targets = g.reverse().targets().to_vec();
    let rest: Vec<u8> = bytes.collect();
    let mut changed = false;
    for c in rest.chunks_exact(4) {
        let i = usize::from(c[1]);
        let x = value(c[2], c[3]);
        match c[0] % 8 {
            0 | 1 => {
                let l = out.len();
                out[i % l] = x as u32;
            }
            2 | 3 if !offsets.is_empty() => {
                let l = offsets.len();
                offsets[i % l] = x;
            }
            4..=6 if !targets.is_empty() => {
                let l = targets.len();
                targets[i % l] = x as u32;
            }
            // Lengths that disagree with the header: the size check.
            _ if c[1] & 1 == 0 => {
                offsets.pop();
            }
            _ => targets.push(x as u32),
        }
        changed = true;
    }
    let mut file = Vec::new();
    binary::write_parts(&mut file, &out, &offsets, &targets).unwrap();
    let read = binary::read(&Input::from_bytes("fuzz.rgb", file));
    if !changed {
        assert_eq!(
            read.as_ref().ok(),
            Some(&g),
            "the writer's own arrays read back"
        );
    }
    if let Ok(h) = read {
        check_graph(&h);
    }
});
