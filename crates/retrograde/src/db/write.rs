//! Writing a database: records counted, packed and compressed a block at a
//! time on all threads, then the file written atomically in one pass (alone,
//! or staged with a run's other outputs and committed with them).

use std::io::Write;
use std::path::Path;

use rayon::prelude::*;

use super::keys::{self, packed_bytes, put_bits};
use super::section::Section;
use super::{
    ALIGN, BLOCK_RECORDS, Compression, Counts, DbError, GrundyHeader, Header, KeysHeader, MAGIC,
    Meta, MovesHeader, NamesHeader, OwnersHeader, VERSION, encode,
};
use crate::grundy::GrundyValues;
use crate::io::Outputs;
use crate::io::names::Names;
use crate::{Answers, Outcome, Player, Value};

/// What a database is written from: the value of each record, in record
/// order, and for a sparse game the key of each record (strictly
/// increasing), for an explicit graph its moves.
pub struct Source<'a, F> {
    /// How many records.
    pub records: u64,
    /// The value of record `r`; `None` for no position.
    pub value: F,
    /// The key of each record, strictly increasing; `None`: a dense game,
    /// keyed by record number.
    pub keys: Option<&'a [u64]>,
    /// An explicit graph's moves: `offsets` (one per record and one more)
    /// into `targets`, each record's in increasing target (as
    /// [`Graph::successors`](crate::Graph::successors) lists them): their
    /// order is the order of moves a [`Probe`](crate::play::Probe) breaks
    /// ties by, and in this order it picks the engines' best moves.
    pub moves: Option<(&'a [u64], &'a [u32])>,
    /// The positions' names, kept for a graph whose vertices have them:
    /// record `v` is named `names.name(v)` (a record past the names, with
    /// no name, is shown by its number).
    pub names: Option<&'a Names>,
    /// Loopy nim values, one a record, kept for a graph (with its moves,
    /// from which an infinite value's set is read back).
    pub grundy: Option<&'a GrundyValues>,
    /// Who moves at each record, for an arena (see
    /// [`GameGraph::owner`](crate::GameGraph::owner)): one a record.
    pub owners: Option<&'a [Player]>,
}

/// The source of a dense game's database: record `v` is position `v`'s
/// value in `answers`.
pub fn dense<A: Answers + Sync + ?Sized>(
    answers: &A,
) -> Source<'static, impl Fn(u64) -> Option<Value> + Sync + '_> {
    Source {
        records: answers.len() as u64,
        value: move |r: u64| answers.value(r as u32),
        keys: None,
        moves: None,
        names: None,
        grundy: None,
        owners: None,
    }
}

/// What was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct WriteSummary {
    /// Records.
    pub records: u64,
    /// Positions.
    pub positions: u64,
    /// Bits a record.
    pub record_bits: u32,
    /// How the blocks are stored.
    pub compression: Compression,
    /// The file.
    pub bytes: u64,
    /// The record blocks as stored (compressed or not).
    pub record_bytes: u64,
    /// The record blocks packed but not compressed.
    pub raw_record_bytes: u64,
    /// The keys' arrays.
    pub key_bytes: u64,
    /// The moves' arrays.
    pub move_bytes: u64,
    /// The names' arrays.
    pub name_bytes: u64,
}

/// Writes databases of one game.
#[derive(Clone, Debug)]
pub struct Writer {
    meta: Meta,
    compression: Compression,
    level: i32,
    first_key: u64,
}

impl Writer {
    /// A writer for `meta`'s game: Zstandard blocks at level 3.
    pub fn new(meta: Meta) -> Writer {
        Writer {
            meta,
            compression: Compression::Zstd,
            level: 3,
            first_key: 0,
        }
    }

    /// Records keyed from `key` on (record `r` under key `key + r`) where
    /// the source has no keys of its own: a range of a game's numbers, such
    /// as one tier's. Ignored for a source with keys.
    pub fn first_key(mut self, key: u64) -> Writer {
        self.first_key = key;
        self
    }

    /// Blocks stored as `compression` says.
    pub fn compression(mut self, compression: Compression) -> Writer {
        self.compression = compression;
        self
    }

    /// The Zstandard level (1 fastest to 22 smallest).
    pub fn level(mut self, level: i32) -> Writer {
        self.level = level;
        self
    }

    /// Writes the database of `source` to `path`, atomically (a file
    /// appears complete or not at all; `-` and devices are written in place).
    ///
    /// # Errors
    /// Keys not strictly increasing, arrays of the wrong length, or a
    /// failed write.
    ///
    /// # Complexity
    /// Time **O(records + keys + moves)**, on all threads; memory: the
    /// file's data, held until it is written.
    pub fn write<F>(&self, path: &Path, source: &Source<'_, F>) -> Result<WriteSummary, DbError>
    where
        F: Fn(u64) -> Option<Value> + Sync,
    {
        let mut outputs = Outputs::new();
        let summary = self.stage(&mut outputs, path, source)?;
        outputs.commit()?;
        Ok(summary)
    }

    /// [`Writer::write`] as one of a run's `outputs`: the file is written
    /// to its temporary file now and appears only when `outputs` are
    /// committed, together with the run's other files.
    ///
    /// # Errors
    /// As [`Writer::write`]; nothing appears under `path`.
    pub fn stage<F>(
        &self,
        outputs: &mut Outputs,
        path: &Path,
        source: &Source<'_, F>,
    ) -> Result<WriteSummary, DbError>
    where
        F: Fn(u64) -> Option<Value> + Sync,
    {
        let n = source.records;
        check_source(source)?;
        let tally = tally_records(source);
        let bits = (64 - tally.max_code.leading_zeros()).max(1);
        let stored = self.pack_blocks(path, source, bits)?;

        // The data: sections one after another, each at a multiple of 64.
        let mut data: Vec<u8> = Vec::new();
        let blocks_section = self.place_blocks(&stored, bits, &mut data);
        drop(stored);
        let keys = source.keys.map(|k| place_keys(k, &mut data));
        let moves = source
            .moves
            .map(|(offsets, targets)| place_moves(offsets, targets, &mut data));
        let names = source.names.map(|names| place_names(names, n, &mut data));
        let grundy = source.grundy.map(|values| place_grundy(values, &mut data));
        let owners = source.owners.map(|owners| {
            let bytes: Vec<u8> = owners.iter().map(|o| o.index()).collect();
            let at = place(&bytes, &mut data);
            OwnersHeader {
                owners: Section::of(&bytes, at),
            }
        });

        let header = Header {
            format: "retrograde solution database".into(),
            version: VERSION,
            meta: self.meta.clone(),
            records: n,
            positions: tally.positions(),
            counts: tally.counts,
            longest: tally.longest,
            record_bits: bits,
            block_records: BLOCK_RECORDS,
            compression: self.compression,
            first_key: if keys.is_none() { self.first_key } else { 0 },
            keys,
            moves,
            names,
            grundy,
            owners,
            blocks: blocks_section,
        };
        let start = write_file(outputs, path, &header, &data)?;
        let h = &header;
        Ok(WriteSummary {
            records: n,
            positions: h.positions,
            record_bits: bits,
            compression: self.compression,
            bytes: start + data.len() as u64,
            record_bytes: h.blocks.bytes,
            raw_record_bytes: packed_bytes(n, bits) as u64,
            key_bytes: h.key_bytes(),
            move_bytes: h.move_bytes(),
            name_bytes: h.name_bytes(),
        })
    }

    /// The records' blocks, each packed in `bits` bits a record and stored
    /// as the writer's compression says, on all threads.
    fn pack_blocks<F>(
        &self,
        path: &Path,
        source: &Source<'_, F>,
        bits: u32,
    ) -> Result<Vec<Vec<u8>>, DbError>
    where
        F: Fn(u64) -> Option<Value> + Sync,
    {
        blocks(source.records)
            .map(|r| {
                let mut packed = vec![0u8; packed_bytes(r.end - r.start, bits)];
                for (j, rec) in r.enumerate() {
                    put_bits(
                        &mut packed,
                        j as u64 * u64::from(bits),
                        bits,
                        encode((source.value)(rec)),
                    );
                }
                match self.compression {
                    Compression::None => Ok(packed),
                    Compression::Zstd => zstd::bulk::compress(&packed, self.level),
                }
            })
            .collect::<std::io::Result<_>>()
            .map_err(|e| DbError::Write(crate::Error::io(path, e)))
    }

    /// Appends the `stored` blocks to `data` (at its start) and describes
    /// them: raw blocks have a fixed size; compressed ones list their ends.
    fn place_blocks(&self, stored: &[Vec<u8>], bits: u32, data: &mut Vec<u8>) -> Section {
        let mut sums = Vec::with_capacity(stored.len());
        let mut ends = Vec::with_capacity(stored.len());
        let mut total = 0u64;
        for block in stored {
            data.extend_from_slice(block);
            total += block.len() as u64;
            sums.push(xxhash_rust::xxh3::xxh3_64(block));
            ends.push(total);
        }
        let raw = self.compression == Compression::None;
        Section {
            offset: 0,
            bytes: total,
            chunk: if raw {
                packed_bytes(BLOCK_RECORDS, bits) as u64
            } else {
                0
            },
            ends: if raw { Vec::new() } else { ends },
            checksums: sums,
        }
    }
}

/// The blocks of `n` records, each its range of records, in order on all
/// threads.
fn blocks(n: u64) -> impl ParallelIterator<Item = std::ops::Range<u64>> {
    (0..n.div_ceil(BLOCK_RECORDS))
        .into_par_iter()
        .map(move |b| b * BLOCK_RECORDS..((b + 1) * BLOCK_RECORDS).min(n))
}

/// The counts, the longest remoteness and the largest code of `source`'s
/// records, a block a task.
fn tally_records<F>(source: &Source<'_, F>) -> Tally
where
    F: Fn(u64) -> Option<Value> + Sync,
{
    blocks(source.records)
        .map(|records| {
            let mut t = Tally::default();
            for r in records {
                t.add((source.value)(r));
            }
            t
        })
        .reduce(Tally::default, Tally::join)
}

/// Appends `bytes` to `data` at the next multiple of 64, returning where.
fn place(bytes: &[u8], data: &mut Vec<u8>) -> u64 {
    let at = (data.len() as u64).div_ceil(64) * 64;
    data.resize(at as usize, 0);
    data.extend_from_slice(bytes);
    at
}

/// Appends the Elias–Fano encoding of the sorted keys `k` to `data`.
fn place_keys(k: &[u64], data: &mut Vec<u8>) -> KeysHeader {
    let built = keys::build(k);
    let lows = place(&built.lows, data);
    let highs = place(&built.highs, data);
    let samples = place(&built.samples, data);
    KeysHeader {
        count: k.len() as u64,
        low_bits: built.low_bits,
        base: built.base,
        universe: built.universe,
        lows: Section::of(&built.lows, lows),
        highs: Section::of(&built.highs, highs),
        samples: Section::of(&built.samples, samples),
    }
}

/// Appends the moves' `offsets` and `targets` to `data`, little-endian.
fn place_moves(offsets: &[u64], targets: &[u32], data: &mut Vec<u8>) -> MovesHeader {
    let o: Vec<u8> = offsets.iter().flat_map(|x| x.to_le_bytes()).collect();
    let t: Vec<u8> = targets.iter().flat_map(|x| x.to_le_bytes()).collect();
    let (oa, ta) = (place(&o, data), place(&t, data));
    MovesHeader {
        count: targets.len() as u64,
        offsets: Section::of(&o, oa),
        targets: Section::of(&t, ta),
    }
}

/// Appends the names of records `0..records` to `data`: offsets
/// (little-endian `u64`s, one per record and one more) into their text.
fn place_names(names: &Names, records: u64, data: &mut Vec<u8>) -> NamesHeader {
    let mut text = Vec::new();
    let mut offsets = Vec::with_capacity((records as usize + 1) * 8);
    offsets.extend_from_slice(&0u64.to_le_bytes());
    for v in 0..records {
        // Checked by `check_source`: the names fit in `u32` ids.
        if let Some(name) = u32::try_from(v).ok().and_then(|v| names.name(v)) {
            text.extend_from_slice(name.as_bytes());
        }
        offsets.extend_from_slice(&(text.len() as u64).to_le_bytes());
    }
    let (oa, ta) = (place(&offsets, data), place(&text, data));
    NamesHeader {
        offsets: Section::of(&offsets, oa),
        text: Section::of(&text, ta),
    }
}

/// Appends loopy nim values and their order to `data`.
fn place_grundy(values: &GrundyValues, data: &mut Vec<u8>) -> GrundyHeader {
    let (codes, order) = values.codes();
    let v: Vec<u8> = codes.iter().flat_map(|x| x.to_le_bytes()).collect();
    let o: Vec<u8> = order.iter().flat_map(|x| x.to_le_bytes()).collect();
    let (va, oa) = (place(&v, data), place(&o, data));
    GrundyHeader {
        values: Section::of(&v, va),
        order: Section::of(&o, oa),
    }
}

/// Stages the file at `path` in `outputs`: the magic, the header's length,
/// checksum and text, padding to [`ALIGN`], then `data`. Returns where the
/// data starts.
fn write_file(
    outputs: &mut Outputs,
    path: &Path,
    header: &Header,
    data: &[u8],
) -> Result<u64, DbError> {
    let text = serde_json::to_vec(header).map_err(|e| DbError::Header {
        path: path.to_path_buf(),
        what: e.to_string(),
    })?;
    let start = (24 + text.len() as u64).div_ceil(ALIGN) * ALIGN;
    let pad = start as usize - 24 - text.len();
    outputs.write(path, |w: &mut dyn Write| {
        let mut w = std::io::BufWriter::with_capacity(WRITE_BUFFER_BYTES as usize, w);
        w.write_all(MAGIC)?;
        w.write_all(&(text.len() as u64).to_le_bytes())?;
        w.write_all(&xxhash_rust::xxh3::xxh3_64(&text).to_le_bytes())?;
        w.write_all(&text)?;
        w.write_all(&vec![0u8; pad])?;
        w.write_all(data)?;
        w.flush()
    })?;
    Ok(start)
}

impl Writer {
    /// Writes the database of `n` positions keyed sparsely: position `i`'s
    /// record is kept under `key(i)` (distinct keys, in any order: they are
    /// sorted here) with value `value(i)`; a position whose key is `None`
    /// is left out. What a state game's solution
    /// needs, whatever the order it was explored in.
    ///
    /// # Errors
    /// Two positions with one key; a failed write.
    ///
    /// # Complexity
    /// Time **O(n log n)** for the sort, on all threads; 12 bytes a
    /// position on top of [`Writer::write`].
    pub fn write_keyed<K, V>(
        &self,
        path: &Path,
        n: u32,
        key: K,
        value: V,
    ) -> Result<WriteSummary, DbError>
    where
        K: Fn(u32) -> Option<u64> + Sync,
        V: Fn(u32) -> Option<Value> + Sync,
    {
        let mut outputs = Outputs::new();
        let summary = self.stage_keyed(&mut outputs, path, n, key, value)?;
        outputs.commit()?;
        Ok(summary)
    }

    /// [`Writer::write_keyed`] as one of a run's `outputs` (see
    /// [`Writer::stage`]).
    ///
    /// # Errors
    /// As [`Writer::write_keyed`]; nothing appears under `path`.
    pub fn stage_keyed<K, V>(
        &self,
        outputs: &mut Outputs,
        path: &Path,
        n: u32,
        key: K,
        value: V,
    ) -> Result<WriteSummary, DbError>
    where
        K: Fn(u32) -> Option<u64> + Sync,
        V: Fn(u32) -> Option<Value> + Sync,
    {
        let mut order: Vec<(u64, u32)> = (0..n)
            .into_par_iter()
            .filter_map(|i| Some((key(i)?, i)))
            .collect();
        order.par_sort_unstable();
        let keys: Vec<u64> = order.par_iter().map(|&(k, _)| k).collect();
        let index: Vec<u32> = order.par_iter().map(|&(_, i)| i).collect();
        drop(order);
        self.stage(
            outputs,
            path,
            &Source {
                records: keys.len() as u64,
                value: |r: u64| value(index[r as usize]),
                keys: Some(&keys),
                moves: None,
                names: None,
                grundy: None,
                owners: None,
            },
        )
    }
}

impl Writer {
    /// The most memory [`Writer::write`] holds for `records` records whose
    /// remoteness is below `records` (every solve's is: a line of best play
    /// visits no position twice), keyed by keys below `universe` (`None`:
    /// dense), with `edges` moves if the graph's moves are kept: what a
    /// caller checks against its memory limit before solving.
    ///
    /// The packed blocks are held while they are copied into the file's
    /// data, which grows as a vector does (up to twice its length); the
    /// keys' and moves' arrays are built, then copied into the data too.
    pub fn memory_bound(records: u64, universe: Option<u64>, edges: Option<u64>) -> u64 {
        let longest_code = records.saturating_mul(3).saturating_add(4);
        let bits = 64 - longest_code.leading_zeros();
        let packed = records.saturating_mul(u64::from(bits)).div_ceil(8);
        // Each block's compressed bound (Zstandard's: a little over its
        // size), its checksum and its end.
        let blocks = records.div_ceil(BLOCK_RECORDS);
        let stored = packed
            .saturating_add(packed / 128)
            .saturating_add(blocks.saturating_mul(128));
        let keys = universe.filter(|_| records > 0).map_or(0, |u| {
            keys::sizes(records, u).map_or(u64::MAX, |(lows, highs, samples)| {
                lows.saturating_add(highs).saturating_add(samples)
            })
        });
        let moves = edges.map_or(0, |e| {
            records
                .saturating_add(1)
                .saturating_mul(8)
                .saturating_add(e.saturating_mul(4))
        });
        // The data (twice its length at most), and beside it the largest
        // of what is copied into it: the blocks, the keys or the moves
        // (twice, as built and as bytes).
        let data = stored.saturating_add(keys).saturating_add(moves);
        let beside = stored.max(keys).max(moves.saturating_mul(2));
        data.saturating_mul(2)
            .saturating_add(beside)
            .saturating_add(WRITE_BUFFER_BYTES)
    }

    /// The most memory [`Writer::write_keyed`] holds for `n` positions
    /// whose keys are below `universe`: the keys sorted with their
    /// positions (16 bytes a position), then the keys and the order (12)
    /// beside what [`Writer::memory_bound`] counts.
    pub fn keyed_memory_bound(n: u64, universe: u64) -> u64 {
        let sorting = n.saturating_mul(28);
        let writing =
            n.saturating_mul(12)
                .saturating_add(Writer::memory_bound(n, Some(universe), None));
        sorting.max(writing)
    }
}

/// The buffer the file is written through.
const WRITE_BUFFER_BYTES: u64 = 1 << 20;

/// Refuses keys and moves that do not match the records.
fn check_source<F>(source: &Source<'_, F>) -> Result<(), DbError> {
    let n = source.records;
    if let Some(k) = source.keys {
        if k.len() as u64 != n {
            return Err(DbError::SourceMismatch {
                records: n,
                other: k.len() as u64,
                what: "keys",
            });
        }
        if let Some(i) = (1..k.len()).find(|&i| k[i] <= k[i - 1]) {
            return Err(DbError::UnsortedKeys {
                index: i as u64,
                key: k[i],
            });
        }
    }
    if let Some((offsets, targets)) = source.moves {
        if offsets.len() as u64 != n + 1 {
            return Err(DbError::SourceMismatch {
                records: n,
                other: offsets.len() as u64,
                what: "move offsets (one more than records expected)",
            });
        }
        let bad = offsets.windows(2).any(|w| w[0] > w[1])
            || offsets.last() != Some(&(targets.len() as u64))
            || offsets.first() != Some(&0);
        if bad {
            return Err(DbError::SourceMismatch {
                records: n,
                other: targets.len() as u64,
                what: "moves, with offsets that do not index them in order",
            });
        }
    }
    if let Some(values) = source.grundy
        && (values.len() as u64 != n || source.moves.is_none())
    {
        return Err(DbError::SourceMismatch {
            records: n,
            other: values.len() as u64,
            what: "loopy nim values (one a record, with the moves, expected)",
        });
    }
    if let Some(owners) = source.owners
        && owners.len() as u64 != n
    {
        return Err(DbError::SourceMismatch {
            records: n,
            other: owners.len() as u64,
            what: "owners (one a record expected)",
        });
    }
    if let Some(names) = source.names
        && names.len() as u64 > n
    {
        return Err(DbError::SourceMismatch {
            records: n,
            other: names.len() as u64,
            what: "names (at most one a record expected)",
        });
    }
    Ok(())
}

/// The counts of a range of records.
#[derive(Clone, Copy, Default)]
struct Tally {
    counts: Counts,
    longest: Option<u32>,
    max_code: u64,
}

impl Tally {
    fn add(&mut self, v: Option<Value>) {
        self.max_code = self.max_code.max(encode(v));
        let Some(v) = v else { return };
        match v.outcome {
            Outcome::Win => self.counts.win += 1,
            Outcome::Lose => self.counts.lose += 1,
            Outcome::Tie => self.counts.tie += 1,
            Outcome::Draw => self.counts.draw += 1,
        }
        self.longest = self.longest.max(v.remoteness);
    }

    fn join(a: Tally, b: Tally) -> Tally {
        let (x, y) = (a.counts, b.counts);
        Tally {
            counts: Counts {
                win: x.win + y.win,
                lose: x.lose + y.lose,
                tie: x.tie + y.tie,
                draw: x.draw + y.draw,
            },
            longest: a.longest.max(b.longest),
            max_code: a.max_code.max(b.max_code),
        }
    }

    fn positions(&self) -> u64 {
        let c = self.counts;
        c.win + c.lose + c.tie + c.draw
    }
}

/// An explicit graph's moves as its database keeps them: offsets (one per
/// position and one more) into targets, each row ordered by target; a
/// labelled position keeps none (it is over). What [`Source::moves`] takes
/// for a graph.
///
/// # Complexity
/// Time and memory **O(V + E)**: the reverse adjacency read once.
pub fn graph_moves(graph: &crate::Csr, rules: &crate::Rules) -> (Vec<u64>, Vec<u32>) {
    let n = crate::GameGraph::vertex_count(graph);
    let degree = |v: usize| {
        if rules.labels.get(v as u32).is_some() {
            0
        } else {
            u64::from(graph.out_degrees()[v])
        }
    };
    let mut offsets = vec![0u64; n + 1];
    for v in 0..n {
        offsets[v + 1] = offsets[v] + degree(v);
    }
    let mut targets = vec![0u32; offsets[n] as usize];
    let mut next: Vec<u64> = offsets[..n].to_vec();
    // The reverse adjacency read once: each move u -> v lands in u's row,
    // rows ordered by target.
    for v in 0..n as u32 {
        for &u in graph.predecessors(v) {
            if degree(u as usize) > 0 {
                targets[next[u as usize] as usize] = v;
                next[u as usize] += 1;
            }
        }
    }
    (offsets, targets)
}
