//! The binary graph format: a [`Csr`] that can be memory-mapped and used as is.
//!
//! All integers little-endian. Layout (see also `docs/BINARY_FORMAT.md`):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `RETROGR\0` |
//! | 8 | 4 | version (1) |
//! | 12 | 4 | flags (0; readers refuse unknown bits) |
//! | 16 | 8 | `V`, the vertex count |
//! | 24 | 8 | `E`, the edge count |
//! | 32 | 8 | checksum (below) |
//! | 40 | 24 | zero |
//! | 64 | `4V`, padded to 8 | out-degrees, `u32` per vertex |
//! | … | `8(V + 1)` | reverse offsets, `u64`: row `v` is `targets[offsets[v]..offsets[v+1]]` |
//! | … | `4E`, padded to 8 | reverse targets (predecessors), `u32` per edge |
//!
//! Padding bytes are zero. The checksum is XXH3-64 over the header's first 32
//! bytes followed by one XXH3-64 per section, each section's being the XXH3-64
//! of the XXH3-64s of its consecutive 4 MiB blocks (so it is computed in parallel).
//! A reader checks the size, magic, version, flags, checksum and structure
//! (offsets non-decreasing from 0 to `E`, ids below `V`, out-degrees summing
//! to `E`) before the graph is used: a corrupted or truncated file is an
//! error, never a wrong answer.

use std::io::{self, Write};
use std::path::Path;
use std::sync::Arc;

use rayon::prelude::*;
use xxhash_rust::xxh3::xxh3_64;

use super::{write_atomically, Input};
use crate::error::{Error, Result};
use crate::graph::csr::Adjacency;
use crate::store::{Plain, Store};
use crate::{Csr, GameGraph};

/// The first 8 bytes of every binary graph file.
pub const MAGIC: &[u8; 8] = b"RETROGR\0";
/// The format version this library reads and writes.
pub const VERSION: u32 = 1;
const HEADER: usize = 64;
const BLOCK: usize = 4 << 20;

/// Whether `bytes` start like a binary graph file.
pub fn is_binary(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

fn pad8(n: usize) -> usize {
    n.div_ceil(8) * 8
}

fn as_bytes<T: Plain>(s: &[T]) -> &[u8] {
    // SAFETY: T is a plain integer without padding; u8 has no alignment needs.
    unsafe { std::slice::from_raw_parts(s.as_ptr() as *const u8, std::mem::size_of_val(s)) }
}

/// The hash of one section: hashes of its 4 MiB blocks, hashed again.
fn section_hash(bytes: &[u8]) -> u64 {
    let blocks: Vec<u64> = bytes.par_chunks(BLOCK).map(xxh3_64).collect();
    xxh3_64(as_bytes(&blocks))
}

fn checksum(head: &[u8], sections: [&[u8]; 3]) -> u64 {
    let mut all = head[..32].to_vec();
    for s in sections {
        all.extend_from_slice(&section_hash(s).to_le_bytes());
    }
    xxh3_64(&all)
}

fn header(v: u64, e: u64) -> [u8; HEADER] {
    let mut h = [0u8; HEADER];
    h[..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[12..16].copy_from_slice(&0u32.to_le_bytes());
    h[16..24].copy_from_slice(&v.to_le_bytes());
    h[24..32].copy_from_slice(&e.to_le_bytes());
    h
}

/// Writes `g` in the binary format to `w`.
pub fn write_to(w: &mut dyn Write, g: &Csr) -> io::Result<()> {
    if cfg!(target_endian = "big") {
        return Err(io::Error::other(
            "the binary format needs a little-endian machine",
        ));
    }
    let out = as_bytes(g.out_degrees());
    let offsets = as_bytes(g.reverse().offsets());
    let targets = as_bytes(g.reverse().targets());
    let mut h = header(g.vertex_count() as u64, g.edge_count());
    let sum = checksum(&h, [out, offsets, targets]);
    h[32..40].copy_from_slice(&sum.to_le_bytes());
    let zeros = [0u8; 8];
    w.write_all(&h)?;
    w.write_all(out)?;
    w.write_all(&zeros[..pad8(out.len()) - out.len()])?;
    w.write_all(offsets)?;
    w.write_all(targets)?;
    w.write_all(&zeros[..pad8(targets.len()) - targets.len()])?;
    Ok(())
}

/// Writes `g` to `path` in the binary format, atomically.
pub fn write(path: &Path, g: &Csr) -> Result<()> {
    write_atomically(path, |w| write_to(w, g))
}

/// Reads a binary graph. A mapped file is used in place (no copy); standard
/// input is copied into memory. Verifies everything listed in the module docs.
pub fn read(input: &Input) -> Result<Csr> {
    let path = input.path();
    let b = input.bytes();
    let err = |at: u64, msg: String| Error::at_byte(path, at, msg);
    if cfg!(target_endian = "big") {
        return Err(Error::Invalid(
            "the binary format needs a little-endian machine".into(),
        ));
    }
    if b.len() < HEADER {
        return Err(err(
            b.len() as u64,
            format!(
                "file too short for a binary graph header ({} of {HEADER} bytes): truncated?",
                b.len()
            ),
        ));
    }
    if !is_binary(b) {
        return Err(err(0, "not a binary graph (wrong magic number)".into()));
    }
    let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap());
    let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap());
    let version = u32_at(8);
    if version != VERSION {
        return Err(err(
            8,
            format!("binary format version {version}, this build reads version {VERSION}"),
        ));
    }
    let flags = u32_at(12);
    if flags != 0 {
        return Err(err(12, format!("unknown flags {flags:#x}")));
    }
    let (v, e) = (u64_at(16), u64_at(24));
    if v > crate::graph::MAX_VERTICES as u64 {
        return Err(err(16, format!("{v} vertices is more than u32 ids allow")));
    }
    if b[40..HEADER].iter().any(|&x| x != 0) {
        return Err(err(40, "reserved header bytes are not zero".into()));
    }
    let out_len = v as usize * 4;
    let off_at = HEADER + pad8(out_len);
    let tgt_at = off_at + (v as usize + 1) * 8;
    let expected = e
        .checked_mul(4)
        .and_then(|t| (tgt_at as u64).checked_add(t.div_ceil(8) * 8));
    if expected != Some(b.len() as u64) {
        return Err(err(
            b.len() as u64,
            match expected {
                Some(x) if x > b.len() as u64 => format!(
                    "file is {} bytes but a graph of {v} vertices and {e} edges needs {x}: truncated?",
                    b.len()
                ),
                Some(x) => format!("file is {} bytes, expected {x}: trailing data", b.len()),
                None => format!("edge count {e} is impossible"),
            },
        ));
    }
    let e = e as usize;
    let sections = [
        &b[HEADER..HEADER + out_len],
        &b[off_at..off_at + (v as usize + 1) * 8],
        &b[tgt_at..tgt_at + e * 4],
    ];
    let stored = u64_at(32);
    if checksum(b, sections) != stored {
        return Err(err(32, "checksum mismatch: the file is corrupted".into()));
    }
    if b[HEADER + out_len..off_at]
        .iter()
        .chain(&b[tgt_at + e * 4..])
        .any(|&x| x != 0)
    {
        return Err(err(off_at as u64, "padding bytes are not zero".into()));
    }
    let (out, offsets, targets): (Store<u32>, Store<u64>, Store<u32>) = match input.map() {
        Some(map) => (
            mapped(map, HEADER, v as usize, path)?,
            mapped(map, off_at, v as usize + 1, path)?,
            mapped(map, tgt_at, e, path)?,
        ),
        None => (
            Store::Owned(
                sections[0]
                    .chunks_exact(4)
                    .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
                    .collect(),
            ),
            Store::Owned(
                sections[1]
                    .chunks_exact(8)
                    .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
                    .collect(),
            ),
            Store::Owned(
                sections[2]
                    .chunks_exact(4)
                    .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
                    .collect(),
            ),
        ),
    };
    // Structure: a file with a valid checksum can still have been written wrong.
    if offsets[0] != 0 || offsets[v as usize] != e as u64 {
        return Err(err(
            off_at as u64,
            "offsets must run from 0 to the edge count".into(),
        ));
    }
    if let Some(i) = offsets.par_windows(2).position_any(|w| w[0] > w[1]) {
        return Err(err(
            (off_at + 8 * i) as u64,
            format!("offsets decrease at vertex {i}"),
        ));
    }
    if let Some(i) = targets.par_iter().position_any(|&t| u64::from(t) >= v) {
        return Err(err(
            (tgt_at + 4 * i) as u64,
            format!(
                "edge names vertex {}, but there are {v} vertices",
                targets[i]
            ),
        ));
    }
    let degrees: u64 = out.par_iter().map(|&d| u64::from(d)).sum();
    if degrees != e as u64 {
        return Err(err(
            HEADER as u64,
            format!("out-degrees add up to {degrees}, not the {e} edges"),
        ));
    }
    Ok(Csr {
        out_degree: out,
        reverse: Adjacency { offsets, targets },
        forward: None,
    })
}

fn mapped<T: Plain>(
    map: &Arc<memmap2::Mmap>,
    at: usize,
    len: usize,
    path: &Path,
) -> Result<Store<T>> {
    Store::mapped(map, at, len).ok_or_else(|| Error::at_byte(path, at as u64, "misaligned section"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{solve, Rules};

    fn sample() -> Csr {
        Csr::from_edges(5, &[(0, 1), (1, 2), (3, 4), (4, 3), (3, 0), (2, 2), (0, 1)])
    }

    fn bytes(g: &Csr) -> Vec<u8> {
        let mut v = Vec::new();
        write_to(&mut v, g).unwrap();
        v
    }

    fn read_bytes(b: Vec<u8>) -> Result<Csr> {
        read(&Input::from_bytes("g.bin", b))
    }

    #[test]
    fn round_trips_in_memory_and_through_a_mapped_file() {
        let g = sample();
        assert_eq!(read_bytes(bytes(&g)).unwrap(), g);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.bin");
        write(&path, &g).unwrap();
        let mapped = read(&Input::open(&path).unwrap()).unwrap();
        assert_eq!(mapped, g);
        assert_eq!(
            solve(&mapped, &Rules::normal()).unwrap(),
            solve(&g, &Rules::normal()).unwrap()
        );
    }

    #[test]
    fn every_truncation_is_an_error() {
        let b = bytes(&sample());
        for len in 0..b.len() {
            let e = read_bytes(b[..len].to_vec()).unwrap_err().to_string();
            assert!(e.contains("truncated") || e.contains("magic"), "{len}: {e}");
        }
    }

    #[test]
    fn every_flipped_bit_is_an_error() {
        let b = bytes(&sample());
        for i in 0..b.len() {
            for bit in [0, 3, 7] {
                let mut c = b.clone();
                c[i] ^= 1 << bit;
                assert!(read_bytes(c).is_err(), "byte {i} bit {bit}");
            }
        }
    }

    #[test]
    fn wrong_magic_and_version_are_named() {
        let mut b = bytes(&sample());
        b[9] = 7;
        assert!(read_bytes(b).unwrap_err().to_string().contains("version"));
        let e = read_bytes(b"0 1\n1 2\n".repeat(20))
            .unwrap_err()
            .to_string();
        assert!(e.contains("magic"), "{e}");
    }

    #[test]
    fn empty_graph_round_trips() {
        let g = Csr::from_edges(0, &[]);
        assert_eq!(read_bytes(bytes(&g)).unwrap(), g);
    }
}
