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
//! to `E`, each vertex the source of exactly its out-degree's edges) before
//! the graph is used: a corrupted or truncated file is an error, never a
//! wrong answer.

use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

use rayon::prelude::*;
use xxhash_rust::xxh3::xxh3_64;

use super::{Input, write_atomically};
use crate::Csr;
use crate::alloc::filled;
use crate::error::{Error, Result};
use crate::graph::csr::Adjacency;

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

/// Plain integer types that may be viewed as their bytes.
///
/// # Safety
/// Every bit pattern must be a valid value and the type must have no padding.
unsafe trait Plain: Copy + 'static {}
unsafe impl Plain for u32 {}
unsafe impl Plain for u64 {}

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
    checksum_of(head, sections.map(section_hash))
}

fn checksum_of(head: &[u8], section_hashes: [u64; 3]) -> u64 {
    let mut all = head[..32].to_vec();
    for h in section_hashes {
        all.extend_from_slice(&h.to_le_bytes());
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
    write_parts(
        w,
        g.out_degrees(),
        g.reverse().offsets(),
        g.reverse().targets(),
    )
}

/// Writes three arrays as a binary graph file, with the header (`V` =
/// `out_degrees.len()`, `E` = `targets.len()`), padding and checksum that a
/// writer produces, **without checking** that they form a graph. [`write_to`]
/// is this on a graph's own arrays. It exists to test the reader's structural
/// checks (decreasing offsets, ids past `V`, out-degrees that disagree with
/// the edges) behind a valid checksum; [`read`] must refuse what is wrong.
pub fn write_parts(
    w: &mut dyn Write,
    out_degrees: &[u32],
    offsets: &[u64],
    targets: &[u32],
) -> io::Result<()> {
    if cfg!(target_endian = "big") {
        return Err(io::Error::other(
            "the binary format needs a little-endian machine",
        ));
    }
    let out = as_bytes(out_degrees);
    let offs = as_bytes(offsets);
    let tgts = as_bytes(targets);
    let mut h = header(out_degrees.len() as u64, targets.len() as u64);
    let sum = checksum(&h, [out, offs, tgts]);
    h[32..40].copy_from_slice(&sum.to_le_bytes());
    let zeros = [0u8; 8];
    w.write_all(&h)?;
    w.write_all(out)?;
    w.write_all(&zeros[..pad8(out.len()) - out.len()])?;
    w.write_all(offs)?;
    w.write_all(tgts)?;
    w.write_all(&zeros[..pad8(tgts.len()) - tgts.len()])?;
    Ok(())
}

/// Writes `g` to `path` in the binary format, atomically.
pub fn write(path: &Path, g: &Csr) -> Result<()> {
    write_atomically(path, |w| write_to(w, g))
}

/// Reads a binary graph into memory and verifies everything listed in the
/// module docs. A file is read with ordinary reads, never through a memory
/// map, and checked after it is read: a file changed meanwhile is refused (a
/// bad checksum or a short read), never solved.
pub fn read(input: &Input) -> Result<Csr> {
    let fail = |at: u64, msg: String| Error::at_byte(input.path(), at, msg);
    let (head, layout) = read_header(input, &fail)?;
    let key = sources_key(layout.e);
    let (g, digest) = layout.load(input, key)?;
    layout.check_integrity(input, &head, digest.hashes, &fail)?;
    if !digest.structure_holds(layout.v, layout.e as u64) {
        layout.check_structure(&g, &fail)?;
    }
    if digest.by_edges != digest.by_degrees {
        layout.check_sources(&g, &fail)?;
    }
    Ok(g)
}

/// The header, read and checked, and the layout it gives.
fn read_header(
    input: &Input,
    fail: &dyn Fn(u64, String) -> Error,
) -> Result<([u8; HEADER], Layout)> {
    if cfg!(target_endian = "big") {
        return Err(Error::BigEndian);
    }
    let len = input.len();
    if len < HEADER {
        return Err(fail(
            len as u64,
            format!(
                "file too short for a binary graph header ({len} of {HEADER} bytes): truncated?"
            ),
        ));
    }
    let mut head = [0u8; HEADER];
    read_at(input, 0, &mut head)?;
    let layout = Layout::read(&head, len, fail)?;
    Ok((head, layout))
}

/// Reads a binary graph once from start to end with ordinary reads, a
/// block at a time, calling `f(u, v)` for every edge `u -> v` in row order
/// (the predecessors of vertex 0, then of vertex 1, …), and checks all that
/// [`read`] checks: the header, the checksum, the padding, the offsets, the
/// ids and the out-degrees against the rows. Returns `(V, E)`.
///
/// For a reader that keeps only part of the graph (one worker's share of
/// a cluster's): memory is a few blocks, whatever the file's size. The
/// edges are handed over before the whole file is checked, so an error
/// returned at the end means that none of them may be used.
///
/// # Errors
/// As [`read`], naming the file and byte offset; a disagreement between
/// the out-degrees and the rows is reported without naming the vertex.
///
/// # Complexity
/// Time **O(V + E)**; memory **O(1)** (three 4 MiB buffers).
pub fn for_each_edge(input: &Input, mut f: impl FnMut(u32, u32)) -> Result<(u64, u64)> {
    let fail = |at: u64, msg: String| Error::at_byte(input.path(), at, msg);
    let (head, layout) = read_header(input, &fail)?;
    let (v, e) = (layout.v, layout.e as u64);
    let key = sources_key(layout.e);
    let h = |x: u32| source_hash(key, x);

    // The out-degrees: their sum and fingerprint.
    let mut degrees = Blocks::<u32>::new(input, HEADER, v as usize);
    let (mut degree_sum, mut by_degrees) = (0u64, 0u64);
    for x in 0..v as u32 {
        let d = degrees.next()?;
        degree_sum += u64::from(d);
        by_degrees = by_degrees.wrapping_add(u64::from(d).wrapping_mul(h(x)));
    }
    // The rows, walked with two cursors: offsets and targets.
    let mut offsets = Blocks::<u64>::new(input, layout.off_at, v as usize + 1);
    let mut targets = Blocks::<u32>::new(input, layout.tgt_at, layout.e);
    let mut by_edges = 0u64;
    let mut start = offsets.next()?;
    if start != 0 {
        return Err(fail(
            layout.off_at as u64,
            "offsets must run from 0 to the edge count".into(),
        ));
    }
    for x in 0..v as u32 {
        let end = offsets.next()?;
        if end < start || end > e {
            let at = layout.off_at as u64 + 8 * (u64::from(x) + 1);
            return Err(fail(
                at,
                format!(
                    "offset {end} of vertex {} is out of order (the previous is {start}, the edge count {e})",
                    x + 1
                ),
            ));
        }
        for j in start..end {
            let u = targets.next()?;
            if u64::from(u) >= v {
                return Err(fail(
                    layout.tgt_at as u64 + 4 * j,
                    format!("vertex {u} is out of range (the graph has {v} vertices)"),
                ));
            }
            by_edges = by_edges.wrapping_add(h(u));
            f(u, x);
        }
        start = end;
    }
    if start != e {
        return Err(fail(
            layout.off_at as u64,
            "offsets must run from 0 to the edge count".into(),
        ));
    }
    let hashes = [degrees.finish()?, offsets.finish()?, targets.finish()?];
    layout.check_integrity(input, &head, hashes, &fail)?;
    if degree_sum != e || by_edges != by_degrees {
        return Err(fail(
            HEADER as u64,
            "the out-degrees disagree with the rows: some vertex is not the source of as many edges as its out-degree says".into(),
        ));
    }
    Ok((v, e))
}

/// One section read in order, a [`BLOCK`] at a time, each block hashed as
/// the section hash is (see the module docs).
struct Blocks<'a, T: Plain> {
    input: &'a Input,
    /// Where the section starts in the file, and its length in items.
    at: usize,
    items: usize,
    buf: Vec<T>,
    /// Items of the section read into `buf` before it, and the next in it.
    base: usize,
    next: usize,
    hashes: Vec<u64>,
}

impl<'a, T: Plain + Default> Blocks<'a, T> {
    fn new(input: &'a Input, at: usize, items: usize) -> Blocks<'a, T> {
        Blocks {
            input,
            at,
            items,
            buf: Vec::new(),
            base: 0,
            next: 0,
            hashes: Vec::new(),
        }
    }

    /// The next item; the caller never asks for more than the section holds.
    #[inline]
    fn next(&mut self) -> Result<T> {
        if self.next == self.buf.len() {
            self.fill()?;
        }
        let x = self.buf[self.next];
        self.next += 1;
        Ok(x)
    }

    fn fill(&mut self) -> Result<()> {
        self.base += self.buf.len();
        let per_block = BLOCK / std::mem::size_of::<T>();
        let n = per_block.min(self.items - self.base);
        self.buf.clear();
        self.buf.resize(n, T::default());
        let offset = self.at + self.base * std::mem::size_of::<T>();
        read_at(self.input, offset, as_bytes_mut(&mut self.buf))?;
        self.hashes.push(xxh3_64(as_bytes(&self.buf)));
        self.next = 0;
        Ok(())
    }

    /// The section's hash, reading (and hashing) what was not read yet.
    fn finish(mut self) -> Result<u64> {
        while self.base + self.buf.len() < self.items {
            self.fill()?;
        }
        Ok(xxh3_64(as_bytes(&self.hashes)))
    }
}

/// Fills `buf` from `input` at `offset`; a short read means the file
/// shrank while it was read.
fn read_at(input: &Input, offset: usize, buf: &mut [u8]) -> Result<()> {
    input
        .read_at(offset as u64, buf)
        .map_err(|e| match e.kind() {
            io::ErrorKind::UnexpectedEof => Error::at_byte(
                input.path(),
                offset as u64,
                "the file ended early: it changed while it was read".to_string(),
            ),
            _ => Error::io(input.path(), e),
        })
}

fn as_bytes_mut<T: Plain>(s: &mut [T]) -> &mut [u8] {
    // SAFETY: T is a plain integer without padding, every bit pattern valid.
    unsafe { std::slice::from_raw_parts_mut(s.as_mut_ptr() as *mut u8, std::mem::size_of_val(s)) }
}

/// Where the sections of a binary graph file lie, from its header.
struct Layout {
    v: u64,
    e: usize,
    /// The offsets section's start.
    off_at: usize,
    /// The targets section's start.
    tgt_at: usize,
}

impl Layout {
    /// The header's fields, checked, and the file's size against them.
    fn read(b: &[u8; HEADER], len: usize, fail: &dyn Fn(u64, String) -> Error) -> Result<Layout> {
        if !is_binary(b) {
            return Err(fail(0, "not a binary graph (wrong magic number)".into()));
        }
        let version = u32_at(b, 8);
        if version != VERSION {
            return Err(fail(
                8,
                format!("binary format version {version}, this build reads version {VERSION}"),
            ));
        }
        let flags = u32_at(b, 12);
        if flags != 0 {
            return Err(fail(12, format!("unknown flags {flags:#x}")));
        }
        let (v, e) = (u64_at(b, 16), u64_at(b, 24));
        if v > crate::graph::MAX_VERTICES as u64 {
            return Err(fail(16, format!("{v} vertices is more than u32 ids allow")));
        }
        if b[40..HEADER].iter().any(|&x| x != 0) {
            return Err(fail(40, "reserved header bytes are not zero".into()));
        }
        let off_at = HEADER + pad8(v as usize * 4);
        let tgt_at = off_at + (v as usize + 1) * 8;
        // Checked all the way: an edge count near 2^62 must not wrap around to a
        // small size (and then slice out of range).
        let expected = e
            .checked_mul(4)
            .and_then(|t| t.checked_next_multiple_of(8))
            .and_then(|t| (tgt_at as u64).checked_add(t));
        if expected != Some(len as u64) {
            return Err(fail(
                len as u64,
                match expected {
                    Some(x) if x > len as u64 => format!(
                        "file is {len} bytes but a graph of {v} vertices and {e} edges needs {x}: truncated?"
                    ),
                    Some(x) => format!("file is {len} bytes, expected {x}: trailing data"),
                    None => format!("edge count {e} is impossible"),
                },
            ));
        }
        Ok(Layout {
            v,
            e: e as usize,
            off_at,
            tgt_at,
        })
    }

    /// The three arrays, read out of the file on all threads, block by
    /// block, each block hashed and summarised for the checks while it is
    /// still in cache.
    fn load(&self, input: &Input, key: u64) -> Result<(Csr, Digest)> {
        let n = self.v as usize;
        let mut out_degree = filled(n, 0u32);
        let mut offsets = filled(n + 1, 0u64);
        let mut targets = filled(self.e, 0u32);
        let h = |v: u32| source_hash(key, v);
        let (out_hash, degrees) = read_section(input, HEADER, &mut out_degree, |first, b| {
            b.iter()
                .enumerate()
                .fold((0u64, 0u64), |(sum, by), (i, &d)| {
                    let by_degree = u64::from(d).wrapping_mul(h((first + i) as u32));
                    (sum + u64::from(d), by.wrapping_add(by_degree))
                })
        })?;
        let (off_hash, rows) = read_section(input, self.off_at, &mut offsets, |_, b| {
            (b[0], b[b.len() - 1], b.windows(2).all(|w| w[0] <= w[1]))
        })?;
        let (tgt_hash, edges) = read_section(input, self.tgt_at, &mut targets, |_, b| {
            b.iter().fold((0u32, 0u64), |(max, by), &u| {
                (max.max(u), by.wrapping_add(h(u)))
            })
        })?;
        let digest = Digest {
            hashes: [out_hash, off_hash, tgt_hash],
            degree_sum: degrees.iter().map(|d| d.0).sum(),
            by_degrees: degrees.iter().fold(0, |a, d| a.wrapping_add(d.1)),
            by_edges: edges.iter().fold(0, |a, e| a.wrapping_add(e.1)),
            max_target: edges.iter().map(|e| e.0).max(),
            offsets_first_last: (offsets[0], offsets[n]),
            offsets_ordered: rows.iter().all(|r| r.2) && rows.windows(2).all(|w| w[0].1 <= w[1].0),
        };
        let g = Csr {
            out_degree,
            reverse: Adjacency { offsets, targets },
        };
        Ok((g, digest))
    }

    /// The checksum over what was read, and the zero padding.
    fn check_integrity(
        &self,
        input: &Input,
        head: &[u8; HEADER],
        section_hashes: [u64; 3],
        fail: &dyn Fn(u64, String) -> Error,
    ) -> Result<()> {
        if checksum_of(head, section_hashes) != u64_at(head, 32) {
            return Err(fail(32, "checksum mismatch: the file is corrupted".into()));
        }
        let out_end = HEADER + self.v as usize * 4;
        let tgt_end = self.tgt_at + self.e * 4;
        let mut pads = [0u8; 16];
        let (first, second) = pads.split_at_mut(8);
        let first = &mut first[..self.off_at - out_end];
        let second = &mut second[..pad8(self.e * 4) - self.e * 4];
        read_at(input, out_end, first)?;
        read_at(input, tgt_end, second)?;
        if first.iter().chain(second.iter()).any(|&x| x != 0) {
            return Err(fail(
                self.off_at as u64,
                "padding bytes are not zero".into(),
            ));
        }
        Ok(())
    }

    /// Offsets from 0 to `E` without decreasing, ids below `V`, out-degrees
    /// adding up to `E`: a file with a valid checksum can still have been
    /// written wrong.
    fn check_structure(&self, g: &Csr, fail: &dyn Fn(u64, String) -> Error) -> Result<()> {
        let (v, e) = (self.v, self.e as u64);
        let offsets = g.reverse().offsets();
        let targets = g.reverse().targets();
        if offsets[0] != 0 || offsets[v as usize] != e {
            return Err(fail(
                self.off_at as u64,
                "offsets must run from 0 to the edge count".into(),
            ));
        }
        if let Some(i) = offsets.par_windows(2).position_any(|w| w[0] > w[1]) {
            return Err(fail(
                (self.off_at + 8 * i) as u64,
                format!("offsets decrease at vertex {i}"),
            ));
        }
        if let Some(i) = targets.par_iter().position_any(|&t| u64::from(t) >= v) {
            return Err(fail(
                (self.tgt_at + 4 * i) as u64,
                format!(
                    "edge names vertex {}, but there are {v} vertices",
                    targets[i]
                ),
            ));
        }
        let degrees: u64 = g.out_degrees().par_iter().map(|&d| u64::from(d)).sum();
        if degrees != e {
            return Err(fail(
                HEADER as u64,
                format!("out-degrees add up to {degrees}, not the {e} edges"),
            ));
        }
        Ok(())
    }

    /// Each vertex must be the source of exactly as many edges as its
    /// out-degree says (the sum alone lets one vertex gain what another
    /// loses, and the solver and `with_successors` trust each degree).
    /// Counting per vertex costs a random access per edge, so the load
    /// compares two fingerprints read in order ([`Digest`]) and only a
    /// mismatch pays for this exact count, which names the first edge too
    /// many.
    fn check_sources(&self, g: &Csr, fail: &dyn Fn(u64, String) -> Error) -> Result<()> {
        let out = g.out_degrees();
        let targets = g.reverse().targets();
        let left: Vec<AtomicU32> = out.par_iter().map(|&d| AtomicU32::new(d)).collect();
        let any = targets
            .par_iter()
            .position_any(|&u| left[u as usize].fetch_sub(1, Relaxed) == 0)
            .unwrap_or(usize::MAX);
        if any == usize::MAX {
            return Ok(());
        }
        // Again in order, for a message that names the first such edge.
        let mut left = out.to_vec();
        let i = targets
            .iter()
            .position(|&u| match &mut left[u as usize] {
                0 => true,
                l => {
                    *l -= 1;
                    false
                }
            })
            .unwrap_or(any);
        let u = targets[i];
        Err(fail(
            (self.tgt_at + 4 * i) as u64,
            format!(
                "vertex {u} is the source of more edges than its out-degree {}",
                out[u as usize]
            ),
        ))
    }
}

/// What the checks need to know of the three sections, gathered while they
/// are read. The source fingerprints: the sum over edges of h(source) and
/// the sum over vertices of out-degree × h(vertex), for a hash h keyed
/// afresh on every read (wrapping arithmetic). They differ for any
/// disagreement between edges and out-degrees but with probability about
/// 2^-63, which no file can arrange without knowing the key.
struct Digest {
    hashes: [u64; 3],
    degree_sum: u64,
    by_degrees: u64,
    by_edges: u64,
    max_target: Option<u32>,
    offsets_first_last: (u64, u64),
    offsets_ordered: bool,
}

impl Digest {
    /// Offsets from 0 to `e` without decreasing, ids below `v`, out-degrees
    /// adding up to `e`.
    fn structure_holds(&self, v: u64, e: u64) -> bool {
        self.offsets_first_last == (0, e)
            && self.offsets_ordered
            && self.max_target.is_none_or(|t| u64::from(t) < v)
            && self.degree_sum == e
    }
}

/// The key of this read's source fingerprints.
fn sources_key(e: usize) -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(e as u64);
    h.finish()
}

/// SplitMix64's finaliser on the keyed id: every bit depends on every bit.
fn source_hash(key: u64, v: u32) -> u64 {
    crate::graph::splitmix64(u64::from(v) ^ key)
}

/// Reads the section at `at` into `v` on all threads, one [`BLOCK`] at a
/// time; returns the section's hash and `summarise(first index, block)`
/// of every block, in order.
fn read_section<T, S>(
    input: &Input,
    at: usize,
    v: &mut [T],
    summarise: impl Fn(usize, &[T]) -> S + Sync,
) -> Result<(u64, Vec<S>)>
where
    T: Plain + Send + Sync,
    S: Send,
{
    let per_block = BLOCK / std::mem::size_of::<T>();
    let blocks: Vec<(u64, S)> = v
        .par_chunks_mut(per_block)
        .enumerate()
        .map(|(i, block)| {
            read_at(input, at + i * BLOCK, as_bytes_mut(block))?;
            Ok((xxh3_64(as_bytes(block)), summarise(i * per_block, block)))
        })
        .collect::<Result<_>>()?;
    let hashes: Vec<u64> = blocks.iter().map(|b| b.0).collect();
    Ok((
        xxh3_64(as_bytes(&hashes)),
        blocks.into_iter().map(|b| b.1).collect(),
    ))
}

fn u32_at(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes"))
}

fn u64_at(b: &[u8], i: usize) -> u64 {
    u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Rules, solve};

    fn sample() -> Csr {
        Csr::from_edges(5, &[(0, 1), (1, 2), (3, 4), (4, 3), (3, 0), (2, 2), (0, 1)])
    }

    fn bytes(g: &Csr) -> Vec<u8> {
        let mut v = Vec::new();
        write_to(&mut v, g).unwrap();
        v
    }

    #[test]
    fn streaming_gives_every_edge_in_row_order_and_checks_as_read_does() {
        let g = sample();
        let input = Input::from_bytes("g.rgb", bytes(&g));
        let mut edges = Vec::new();
        assert_eq!(
            for_each_edge(&input, |u, v| edges.push((u, v))).unwrap(),
            (5, 7)
        );
        let want: Vec<(u32, u32)> = (0..5u32)
            .flat_map(|v| g.predecessors(v).iter().map(move |&u| (u, v)))
            .collect();
        assert_eq!(edges, want);
        // Every single-byte change is refused by both readers, alike.
        let good = bytes(&g);
        for at in 0..good.len() {
            let mut bad = good.clone();
            bad[at] ^= 0x10;
            let bad = Input::from_bytes("g.rgb", bad);
            let streamed = for_each_edge(&bad, |_, _| {});
            assert!(streamed.is_err(), "byte {at} changed, accepted");
            assert!(read(&bad).is_err(), "byte {at}");
        }
    }

    fn read_bytes(b: Vec<u8>) -> Result<Csr> {
        read(&Input::from_bytes("g.bin", b))
    }

    /// Regression: the graph was used in place from its memory map, so a
    /// file rewritten during the solve changed the answer (or panicked).
    #[test]
    fn a_file_changed_after_it_was_read_does_not_change_the_graph() {
        let g = sample();
        let dir = crate::io::scratch_dir().unwrap();
        let path = dir.path().join("g.bin");
        std::fs::write(&path, bytes(&g)).unwrap();
        let input = Input::open(&path).unwrap();
        let read_back = read(&input).unwrap();
        // Rewrite the predecessors in place: same size, other content.
        let mut other = bytes(&Csr::from_edges(
            5,
            &[(1, 0), (2, 1), (4, 3), (3, 4), (0, 3), (2, 2), (1, 0)],
        ));
        other.truncate(std::fs::metadata(&path).unwrap().len() as usize);
        std::fs::write(&path, &other).unwrap();
        assert_eq!(read_back, g);
        assert_eq!(
            solve(&read_back, &Rules::normal()).unwrap(),
            solve(&g, &Rules::normal()).unwrap()
        );
    }

    /// Regression: a file truncated after it was opened was read through its
    /// mapping, which ends the process with SIGBUS.
    #[test]
    fn a_file_truncated_after_it_was_opened_is_an_error_not_a_crash() {
        let dir = crate::io::scratch_dir().unwrap();
        let path = dir.path().join("g.bin");
        std::fs::write(&path, bytes(&sample())).unwrap();
        let input = Input::open(&path).unwrap();
        std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(70)
            .unwrap();
        let e = read(&input).unwrap_err().to_string();
        assert!(e.contains("changed while it was read"), "{e}");
    }

    #[test]
    fn round_trips_in_memory_and_through_a_file() {
        let g = sample();
        assert_eq!(read_bytes(bytes(&g)).unwrap(), g);
        let dir = crate::io::scratch_dir().unwrap();
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

    /// The file `write_parts` makes of `g`'s arrays after `change`.
    fn tampered(
        g: &Csr,
        change: impl FnOnce(&mut Vec<u32>, &mut Vec<u64>, &mut Vec<u32>),
    ) -> Result<Csr> {
        let mut out = g.out_degrees().to_vec();
        let mut offsets = g.reverse().offsets().to_vec();
        let mut targets = g.reverse().targets().to_vec();
        change(&mut out, &mut offsets, &mut targets);
        let mut b = Vec::new();
        write_parts(&mut b, &out, &offsets, &targets).unwrap();
        read_bytes(b)
    }

    #[test]
    fn write_parts_of_a_graph_is_write_to() {
        let g = sample();
        assert_eq!(tampered(&g, |_, _, _| {}).unwrap(), g);
    }

    #[test]
    fn header_faults_are_named_with_their_offset() {
        let good = bytes(&sample());
        let mut b = good.clone();
        b[12] = 4;
        assert_eq!(
            read_bytes(b).unwrap_err().to_string(),
            "g.bin:byte 12: unknown flags 0x4"
        );
        let mut b = good.clone();
        b[0] = b'X';
        assert_eq!(
            read_bytes(b).unwrap_err().to_string(),
            "g.bin:byte 0: not a binary graph (wrong magic number)"
        );
        let mut b = good.clone();
        b[8] = 2;
        assert_eq!(
            read_bytes(b).unwrap_err().to_string(),
            "g.bin:byte 8: binary format version 2, this build reads version 1"
        );
        let mut b = good.clone();
        b.extend_from_slice(&[0; 8]);
        assert_eq!(
            read_bytes(b).unwrap_err().to_string(),
            "g.bin:byte 176: file is 176 bytes, expected 168: trailing data"
        );
        let mut b = good.clone();
        b[50] = 1;
        assert_eq!(
            read_bytes(b).unwrap_err().to_string(),
            "g.bin:byte 40: reserved header bytes are not zero"
        );
        let mut b = good.clone();
        b[16] = 0xff;
        b[20] = 0xff;
        assert!(
            read_bytes(b)
                .unwrap_err()
                .to_string()
                .contains("vertices is more than u32 ids allow")
        );
    }

    #[test]
    fn nonzero_padding_is_refused_though_the_checksum_holds() {
        // 5 out-degrees take 20 bytes, padded to 24: bytes 84..88 are padding.
        let mut b = bytes(&sample());
        b[86] = 1;
        assert_eq!(
            read_bytes(b).unwrap_err().to_string(),
            "g.bin:byte 88: padding bytes are not zero"
        );
    }

    #[test]
    fn structural_faults_behind_a_valid_checksum_are_refused() {
        let g = sample();
        let e = |change: fn(&mut Vec<u32>, &mut Vec<u64>, &mut Vec<u32>)| {
            tampered(&g, change).unwrap_err().to_string()
        };
        // Offsets at byte 88, targets at 88 + 6 * 8 = 136.
        assert_eq!(
            e(|_, o, _| o.swap(1, 2)),
            "g.bin:byte 96: offsets decrease at vertex 1"
        );
        assert_eq!(
            e(|_, o, _| o[0] = 1),
            "g.bin:byte 88: offsets must run from 0 to the edge count"
        );
        assert_eq!(
            e(|_, o, _| o[5] = 6),
            "g.bin:byte 88: offsets must run from 0 to the edge count"
        );
        assert_eq!(
            e(|_, _, t| t[2] = 5),
            "g.bin:byte 144: edge names vertex 5, but there are 5 vertices"
        );
        assert_eq!(
            e(|d, _, _| d[4] += 1),
            "g.bin:byte 64: out-degrees add up to 8, not the 7 edges"
        );
        // One more or one less than the header's counts: a size error.
        assert!(
            e(|_, o, _| {
                o.pop();
            })
            .contains("truncated")
        );
    }

    /// The checks run block by block as the file is read: a fault that
    /// straddles two blocks, or lies in a later one, must still be seen.
    #[test]
    fn faults_across_and_beyond_the_first_block_are_refused() {
        let n = 1_100_000u32; // offsets: 3 blocks; targets: 2 blocks
        let edges: Vec<(u32, u32)> = (0..n).map(|v| (v, (v + 1) % n)).collect();
        let g = Csr::from_edges(n as usize, &edges);
        assert_eq!(tampered(&g, |_, _, _| {}).unwrap(), g);
        let e = |change: fn(&mut Vec<u32>, &mut Vec<u64>, &mut Vec<u32>)| {
            tampered(&g, change).unwrap_err().to_string()
        };
        let first = BLOCK / 8; // the second block's first offset
        assert!(
            e(|_, o, _| o.swap(BLOCK / 8 - 1, BLOCK / 8))
                .ends_with(&format!("offsets decrease at vertex {}", first - 1))
        );
        assert!(
            e(|_, _, t| t[1_099_999] = 1_100_000)
                .ends_with("edge names vertex 1100000, but there are 1100000 vertices")
        );
        assert!(e(|_, _, t| t[1_099_999] = 0).contains("source of more edges"));
    }

    /// Fuzz finding (`binary_structure`): out-degrees that add up to `E` but
    /// disagree with the edges vertex by vertex were accepted; the solver
    /// then trusted the wrong degrees (a wrong answer) and `with_successors`
    /// could index past its array (a panic).
    #[test]
    fn out_degrees_that_disagree_with_the_edges_are_refused() {
        // The fuzzer's input: 6 vertices, edges 0 -> 1 and 2 -> 1, the
        // predecessors of 1 changed to [2, 4]: vertex 0 keeps out-degree 1
        // with no edge, vertex 4 gains an edge with out-degree 0.
        let g = Csr::from_edges(6, &[(0, 1), (2, 1)]);
        let e = tampered(&g, |_, _, t| *t = vec![2, 4]).unwrap_err();
        // Out-degrees at 64 (24 bytes with padding), offsets at 88 (56),
        // targets at 144: the second target.
        assert_eq!(
            e.to_string(),
            "g.bin:byte 148: vertex 4 is the source of more edges than its out-degree 0"
        );
        // A vertex listed twice with out-degree 1, the other out-degree unused.
        let e = tampered(&g, |_, _, t| *t = vec![2, 2]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "g.bin:byte 148: vertex 2 is the source of more edges than its out-degree 1"
        );
    }

    /// Fuzz finding (`binary`): an edge count of 2^62 - 1 made the padded
    /// size of the targets wrap around to 0, so a file of exactly the
    /// header, out-degrees and offsets passed the size check and slicing the
    /// targets panicked (`retrograde solve` exited 101).
    #[test]
    fn an_edge_count_whose_size_overflows_is_refused() {
        let g = Csr::from_edges(2, &[(0, 1)]);
        let mut b = bytes(&g);
        let e = (1u64 << 62) - 1;
        b[24..32].copy_from_slice(&e.to_le_bytes());
        // 64 + 8 out-degrees + 24 offsets: where the targets would start.
        b.truncate(96);
        assert_eq!(
            read_bytes(b).unwrap_err().to_string(),
            format!("g.bin:byte 96: edge count {e} is impossible")
        );
    }

    #[test]
    fn empty_graph_round_trips() {
        let g = Csr::from_edges(0, &[]);
        assert_eq!(read_bytes(bytes(&g)).unwrap(), g);
    }
}
