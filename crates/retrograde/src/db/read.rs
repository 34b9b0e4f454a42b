//! The reader: a database mapped (or read into memory), its sections
//! checked a block at a time as they are read, probed by key or record.
//! Its layout is checked on opening in `layout.rs`; what it keeps besides
//! records (moves, names, owners, nim values) is read in `graph.rs`.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::Serialize;

use super::layout::{
    grundy_sections, key_sections, move_sections, name_sections, owners_section, record_blocks,
};
use super::section::CheckedSection;
use super::{BLOCK_RECORDS, Compression, DbError, Fault, Header, Meta, decode, keys};
use crate::kernel::{ABSENT, DRAW};
use crate::solve::solution::Remoteness;
use crate::{Outcome, Value, Values};

/// Bytes of decompressed blocks kept for the next probes (the oldest
/// dropped first): 1,024 blocks of 8-bit records.
const CACHE_BYTES: usize = 64 << 20;

/// The blocks decompressed last, by block number.
#[derive(Default)]
struct Cache {
    blocks: std::collections::HashMap<u64, Arc<[u8]>>,
    order: std::collections::VecDeque<u64>,
    bytes: usize,
}

/// A database, opened and mapped (or read into memory); its sections are
/// checked as they are read.
pub struct Database {
    pub(super) path: PathBuf,
    pub(super) header: Header,
    store: Store,
    /// Where the data starts in the file.
    data: usize,
    pub(super) blocks: CheckedSection,
    pub(super) keys: Option<(CheckedSection, CheckedSection, CheckedSection)>,
    pub(super) moves: Option<(CheckedSection, CheckedSection)>,
    pub(super) names: Option<(CheckedSection, CheckedSection)>,
    pub(super) grundy: Option<(CheckedSection, CheckedSection)>,
    pub(super) owners: Option<CheckedSection>,
    cache: Mutex<Cache>,
    /// Where every [`keys::ONES`]-th key lies in the high bits: made on the
    /// first search through a crowded bucket (see [`keys::Keys::rank`]).
    ones: std::sync::OnceLock<Vec<u64>>,
}

/// Where a database's bytes are.
enum Store {
    /// In the file, mapped: the file as it is now.
    Mapped(crate::io::mapped::Mapped),
    /// Read into memory, checked: the file as it was when read.
    Owned(Vec<u8>),
}

impl std::ops::Deref for Store {
    type Target = [u8];
    /// The file's bytes, wherever they are.
    fn deref(&self) -> &[u8] {
        match self {
            Store::Mapped(m) => m,
            Store::Owned(v) => v,
        }
    }
}

impl std::fmt::Debug for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Database")
            .field("path", &self.path)
            .field("header", &self.header.meta)
            .finish()
    }
}

impl Database {
    /// Opens and maps the database at `path`, reads its header and checks
    /// its layout against the file's length; the data is checked as it is
    /// read. The map shows the file as it is: a block that no longer
    /// matches its checksum because another program rewrote the file is
    /// reported as [`DbError::Changed`], and a file cut short meanwhile
    /// raises SIGBUS where it is read (see [`crate::io::mapped_path_at`]);
    /// a reader that runs long uses [`Database::read`].
    ///
    /// # Errors
    /// [`DbError`]: not a database, a damaged header, a file cut short.
    pub fn open(path: &Path) -> Result<Database, DbError> {
        let file = Database::file(path)?;
        let map = crate::io::mapped::Mapped::new(file, path).map_err(|source| DbError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Database::from_store(path, Store::Mapped(map))
    }

    /// Reads the database at `path` wholly into memory with ordinary reads
    /// and checks every section against its checksums: nothing another
    /// program does to the file afterwards can reach it. Refused if the file
    /// is larger than `limit` bytes.
    ///
    /// # Errors
    /// [`DbError`]: as [`Database::open`], [`DbError::TooLarge`], and the
    /// first damaged block.
    pub fn read(path: &Path, limit: u64) -> Result<Database, DbError> {
        use std::io::Read;
        let io = |source| DbError::Io {
            path: path.to_path_buf(),
            source,
        };
        let file = Database::file(path)?;
        let bytes = file.metadata().map_err(io)?.len();
        let len = usize::try_from(bytes)
            .ok()
            .filter(|_| bytes <= limit)
            .ok_or_else(|| DbError::TooLarge {
                path: path.to_path_buf(),
                bytes,
                limit,
            })?;
        let mut data = Vec::new();
        // Within the limit, yet the allocation failed: the system is out
        // of memory, which is not the limit's refusal.
        data.try_reserve_exact(len)
            .map_err(|_| io(std::io::ErrorKind::OutOfMemory.into()))?;
        // As long as it was when opened: bytes appended meanwhile are not
        // the database's, and a file cut short reads short (caught below).
        file.take(bytes).read_to_end(&mut data).map_err(io)?;
        let db = Database::from_store(path, Store::Owned(data))?;
        db.check_sums()?;
        Ok(db)
    }

    /// The regular file at `path`, opened (a pipe or a device is refused
    /// before it is opened: opening a pipe waits for a writer).
    fn file(path: &Path) -> Result<std::fs::File, DbError> {
        let io = |source| DbError::Io {
            path: path.to_path_buf(),
            source,
        };
        let not_a_file = || DbError::NotAFile {
            path: path.to_path_buf(),
        };
        if !std::fs::metadata(path).map_err(io)?.is_file() {
            return Err(not_a_file());
        }
        let file = std::fs::File::open(path).map_err(io)?;
        if !file.metadata().map_err(io)?.is_file() {
            return Err(not_a_file());
        }
        Ok(file)
    }

    /// The database whose file's bytes are `store`: its header read, its
    /// layout checked against the file's length.
    fn from_store(path: &Path, store: Store) -> Result<Database, DbError> {
        let map: &[u8] = &store;
        let (header, data) = Header::decode(path, map)?;
        let data_len = map.len() as u64 - data;
        let blocks = record_blocks(&header, data_len, path)?;
        let keys = key_sections(&header, data_len, path)?;
        let moves = move_sections(&header, data_len, path)?;
        let names = name_sections(&header, data_len, path)?;
        let grundy = grundy_sections(&header, data_len, path)?;
        let owners = owners_section(&header, data_len, path)?;
        let data = data as usize;
        Ok(Database {
            path: path.to_path_buf(),
            header,
            store,
            data,
            blocks,
            keys,
            moves,
            names,
            grundy,
            owners,
            cache: Mutex::new(Cache::default()),
            ones: std::sync::OnceLock::new(),
        })
    }

    /// The file it was opened from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// What it is a database of.
    pub fn meta(&self) -> &Meta {
        &self.header.meta
    }

    /// The number of records.
    pub fn len(&self) -> u64 {
        self.header.records
    }

    /// Whether it holds no record.
    pub fn is_empty(&self) -> bool {
        self.header.records == 0
    }

    pub(super) fn bytes(&self) -> &[u8] {
        &self.store[self.data..]
    }

    /// Whether the file is as it was when opened: always, for a database
    /// read into memory; for a mapped one, its length and modification time
    /// are compared (what was read of a file changed meanwhile may mix the
    /// old file and the new).
    ///
    /// # Errors
    /// [`DbError::Changed`].
    pub fn unchanged(&self) -> Result<(), DbError> {
        match &self.store {
            Store::Mapped(m) if m.changed() => Err(DbError::Changed {
                path: self.path.clone(),
            }),
            _ => Ok(()),
        }
    }

    /// `e`, or [`DbError::Changed`] if `e` is a damaged block of a mapped
    /// file that another program changed since it was opened: the bytes
    /// are then not the ones the header describes, and the file is not
    /// damaged.
    pub(super) fn blame(&self, e: DbError) -> DbError {
        match (&self.store, &e) {
            (Store::Mapped(m), DbError::Damaged { .. }) if m.changed() => DbError::Changed {
                path: self.path.clone(),
            },
            _ => e,
        }
    }

    pub(super) fn keys(&self) -> Option<keys::Keys<'_>> {
        let (lows, highs, samples) = self.keys.as_ref()?;
        let h = self.header.keys.as_ref()?;
        let data = self.bytes();
        Some(keys::Keys {
            count: h.count,
            low_bits: h.low_bits,
            base: h.base,
            universe: h.universe,
            lows: lows.on(data),
            highs: highs.on(data),
            samples: samples.on(data),
            ones: &self.ones,
        })
    }

    /// Whether positions are found by key (a sparse numbering) rather than
    /// by record number.
    pub fn is_keyed(&self) -> bool {
        self.header.keys.is_some()
    }

    /// The record number of the position keyed `key`; `None` if no
    /// position has that key.
    ///
    /// # Errors
    /// A damaged section.
    pub fn record_of(&self, key: u64) -> Result<Option<u64>, DbError> {
        match self.keys() {
            None => Ok(key
                .checked_sub(self.header.first_key)
                .filter(|&r| r < self.len())),
            Some(k) => k.rank(key).map_err(|e| self.blame(e)),
        }
    }

    /// The value of the position keyed `key` (its number, for a dense
    /// game); `None` if it is no position.
    ///
    /// # Errors
    /// A damaged section.
    pub fn value(&self, key: u64) -> Result<Option<Value>, DbError> {
        match self.record_of(key)? {
            Some(r) => self.record(r),
            None => Ok(None),
        }
    }

    /// The value in record `r`; `None` for no position (or past the end).
    ///
    /// # Errors
    /// A damaged block.
    pub fn record(&self, r: u64) -> Result<Option<Value>, DbError> {
        if r >= self.len() {
            return Ok(None);
        }
        let bits = self.header.record_bits;
        let code = match self.header.compression {
            Compression::None => {
                keys::get_bits(&self.blocks.on(self.bytes()), r * u64::from(bits), bits)
                    .map_err(|e| self.blame(e))?
            }
            Compression::Zstd => {
                let block = self.block(r / BLOCK_RECORDS).map_err(|e| self.blame(e))?;
                let at = (r % BLOCK_RECORDS) * u64::from(bits);
                let first = (at / 8) as usize;
                let last = ((at + u64::from(bits)).div_ceil(8) as usize).min(block.len());
                keys::unpack(&block[first.min(last)..last], (at % 8) as u32, bits)
            }
        };
        self.decoded(code, r / BLOCK_RECORDS)
            .map_err(|e| self.blame(e))
    }

    /// The value of a record's code: refused if it is none, or its
    /// remoteness is beyond the header's longest.
    pub(super) fn decoded(&self, code: u64, block: u64) -> Result<Option<Value>, DbError> {
        let value = decode(code).ok().filter(|v| {
            v.and_then(|v| v.remoteness)
                .is_none_or(|r| self.header.longest.is_some_and(|l| r <= l))
        });
        value.ok_or_else(|| DbError::Damaged {
            path: self.path.clone(),
            section: "records",
            block,
            fault: Fault::Decode(format!(
                "record code {code} is no value of remoteness at most the header's longest"
            )),
        })
    }

    /// Block `b`'s packed records, decompressed (kept among the last
    /// [`CACHE_BYTES`] decompressed).
    fn block(&self, b: u64) -> Result<Arc<[u8]>, DbError> {
        if let Ok(cache) = self.cache.lock()
            && let Some(bytes) = cache.blocks.get(&b)
        {
            return Ok(bytes.clone());
        }
        let bytes: Arc<[u8]> = self.unpacked_block(b)?.into();
        if let Ok(mut cache) = self.cache.lock() {
            while cache.bytes + bytes.len() > CACHE_BYTES {
                let Some(old) = cache.order.pop_front() else {
                    break;
                };
                if let Some(dropped) = cache.blocks.remove(&old) {
                    cache.bytes -= dropped.len();
                }
            }
            if cache.blocks.insert(b, bytes.clone()).is_none() {
                cache.order.push_back(b);
                cache.bytes += bytes.len();
            }
        }
        Ok(bytes)
    }

    /// Block `b`'s records as their codes, one a record (at most
    /// [`BLOCK_RECORDS`]): checked and decompressed, for a reader that
    /// looks up many records of a block (a tier's moves into another tier);
    /// [`Database::code_value`] gives a code's value. The block is not kept.
    ///
    /// # Errors
    /// A damaged block, or a code that is no value this database can hold.
    pub fn block_codes(&self, b: u64) -> Result<BlockCodes, DbError> {
        let bytes = self.unpacked_block(b).map_err(|e| self.blame(e))?;
        let bits = self.header.record_bits;
        let records = BLOCK_RECORDS.min(self.len().saturating_sub(b * BLOCK_RECORDS));
        let code = |j: u64| {
            let at = j * u64::from(bits);
            let from = (at / 8) as usize;
            let to = ((at + u64::from(bits)).div_ceil(8) as usize).min(bytes.len());
            keys::unpack(&bytes[from.min(to)..to], (at % 8) as u32, bits)
        };
        let most = (0..records).map(code).max().unwrap_or(0);
        self.decoded(most.max(1), b).map_err(|e| self.blame(e))?;
        // Every code up to the largest is a value (the largest's remoteness
        // is within the header's longest, so are the smaller ones').
        Ok(if most <= u64::from(u8::MAX) {
            BlockCodes::Narrow((0..records).map(|j| code(j) as u8).collect())
        } else if most <= u64::from(u16::MAX) {
            BlockCodes::Medium((0..records).map(|j| code(j) as u16).collect())
        } else {
            BlockCodes::Wide((0..records).map(code).collect())
        })
    }

    /// The value of record code `code` (see [`Database::block_codes`]).
    #[inline]
    pub fn code_value(code: u64) -> Option<Value> {
        decode(code).ok().flatten()
    }

    /// Block `b`'s packed records, checked and decompressed if need be.
    pub(super) fn unpacked_block(&self, b: u64) -> Result<Vec<u8>, DbError> {
        let blocks = self.blocks.on(self.bytes());
        let records = BLOCK_RECORDS.min(self.len() - b * BLOCK_RECORDS);
        let size = keys::packed_bytes(records, self.header.record_bits);
        let stored = blocks.chunk(b)?;
        let damaged = |what: String| DbError::Damaged {
            path: self.path.clone(),
            section: "records",
            block: b,
            fault: Fault::Decode(what),
        };
        let out = match self.header.compression {
            Compression::None => stored.to_vec(),
            Compression::Zstd => {
                zstd::bulk::decompress(stored, size).map_err(|e| damaged(e.to_string()))?
            }
        };
        if out.len() != size {
            return Err(damaged(format!(
                "{} bytes where {size} were expected",
                out.len()
            )));
        }
        Ok(out)
    }

    /// Calls `f(record, value)` for every record of block `b`, in order.
    fn for_each_in_block(
        &self,
        b: u64,
        mut f: impl FnMut(u64, Option<Value>),
    ) -> Result<(), DbError> {
        self.each_in_block(b, &mut f).map_err(|e| self.blame(e))
    }

    /// [`Database::for_each_in_block`], its faults not yet blamed.
    fn each_in_block(&self, b: u64, f: &mut impl FnMut(u64, Option<Value>)) -> Result<(), DbError> {
        let bytes = self.unpacked_block(b)?;
        let bits = self.header.record_bits;
        let first = b * BLOCK_RECORDS;
        let records = BLOCK_RECORDS.min(self.len() - first);
        for j in 0..records {
            let at = j * u64::from(bits);
            let from = (at / 8) as usize;
            let to = ((at + u64::from(bits)).div_ceil(8) as usize).min(bytes.len());
            let code = keys::unpack(&bytes[from..to], (at % 8) as u32, bits);
            f(first + j, self.decoded(code, b)?);
        }
        Ok(())
    }

    /// Every record, in order: the values of a dense game (record `r` is
    /// position `r`), decoded on all threads; every block is checked.
    ///
    /// # Errors
    /// A damaged block.
    pub fn values(&self) -> Result<Values, DbError> {
        use rayon::prelude::*;
        let n = self.len() as usize;
        let mut state = vec![ABSENT; n];
        let wide = self
            .header
            .longest
            .is_some_and(|l| l >= u32::from(u16::MAX));
        let mut narrow = if wide { Vec::new() } else { vec![u16::MAX; n] };
        let mut long = if wide { vec![u32::MAX; n] } else { Vec::new() };
        let b = BLOCK_RECORDS as usize;
        let fill =
            |i: usize, s: &mut [u8], mut nr: Option<&mut [u16]>, mut wr: Option<&mut [u32]>| {
                self.for_each_in_block(i as u64, |r, v| {
                    let j = (r as usize) % b;
                    s[j] = match v {
                        None => ABSENT,
                        Some(v) if v.outcome == Outcome::Draw => DRAW,
                        Some(v) => v.outcome as u8,
                    };
                    if let Some(rem) = v.and_then(|v| v.remoteness) {
                        if let Some(nr) = nr.as_deref_mut() {
                            nr[j] = rem as u16;
                        }
                        if let Some(wr) = wr.as_deref_mut() {
                            wr[j] = rem;
                        }
                    }
                })
            };
        if wide {
            state
                .par_chunks_mut(b)
                .zip(long.par_chunks_mut(b))
                .enumerate()
                .try_for_each(|(i, (s, w))| fill(i, s, None, Some(w)))?;
        } else {
            state
                .par_chunks_mut(b)
                .zip(narrow.par_chunks_mut(b))
                .enumerate()
                .try_for_each(|(i, (s, r))| fill(i, s, Some(r), None))?;
        }
        let remoteness = if wide {
            Remoteness::Wide(long)
        } else {
            Remoteness::Narrow(narrow)
        };
        Ok(Values::new(state, remoteness))
    }

    /// The values of a game's positions `0..n` in the game's own order,
    /// position `i` found under `key(i)` (`None`: no position): every record
    /// is read once, then each key is looked up, on all threads.
    ///
    /// # Errors
    /// A damaged section.
    pub fn values_by_key(
        &self,
        n: u32,
        key: impl Fn(u32) -> Option<u64> + Sync,
    ) -> Result<Values, DbError> {
        use rayon::prelude::*;
        let all = self.values()?;
        let found: Vec<Option<Value>> = (0..n)
            .into_par_iter()
            .map(|i| match key(i) {
                Some(k) => Ok(self.record_of(k)?.and_then(|r| all.value(r as u32))),
                None => Ok(None),
            })
            .collect::<Result<_, DbError>>()?;
        drop(all);
        Ok(Values::from_values(&found))
    }

    /// Calls `f(record, key, value)` for every record in order (the key is
    /// the record number for a dense game); every block is checked.
    ///
    /// # Errors
    /// A damaged section.
    pub fn for_each(&self, mut f: impl FnMut(u64, u64, Option<Value>)) -> Result<(), DbError> {
        let Some(keys) = self.keys() else {
            let first = self.header.first_key;
            for b in 0..self.len().div_ceil(BLOCK_RECORDS) {
                self.for_each_in_block(b, |r, v| f(r, first + r, v))?;
            }
            return Ok(());
        };
        // The keys in one scan, the records a block at a time beside them.
        let mut block = Vec::new();
        let mut current = u64::MAX;
        let mut failed = None;
        keys.for_each(|r, key| {
            if failed.is_some() {
                return;
            }
            let b = r / BLOCK_RECORDS;
            if b != current {
                block.clear();
                if let Err(e) = self.for_each_in_block(b, |_, v| block.push(v)) {
                    failed = Some(e);
                    return;
                }
                current = b;
            }
            f(r, key, block[(r % BLOCK_RECORDS) as usize]);
        })
        .map_err(|e| self.blame(e))?;
        failed.map_or(Ok(()), Err)
    }

    /// Bytes of each part of the file: header, records, keys, moves, names.
    pub fn sizes(&self) -> Sizes {
        let h = &self.header;
        Sizes {
            file: self.store.len() as u64,
            header: self.data as u64,
            records: h.blocks.bytes,
            keys: h.key_bytes(),
            moves: h.move_bytes(),
            names: h.name_bytes(),
        }
    }
}

/// Bytes of each part of a database file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Sizes {
    /// The whole file.
    pub file: u64,
    /// The header with its padding.
    pub header: u64,
    /// The record blocks.
    pub records: u64,
    /// The keys' arrays.
    pub keys: u64,
    /// The moves' arrays.
    pub moves: u64,
    /// The names' arrays.
    pub names: u64,
}

/// One block's record codes (see [`Database::block_codes`]).
#[derive(Clone, Debug)]
pub enum BlockCodes {
    /// Every code below 256.
    Narrow(Box<[u8]>),
    /// Every code below 65,536.
    Medium(Box<[u16]>),
    /// Some code of 65,536 or more.
    Wide(Box<[u64]>),
}

impl BlockCodes {
    /// Record `j`'s code; 0 (no position) past the block.
    #[inline]
    pub fn get(&self, j: usize) -> u64 {
        match self {
            BlockCodes::Narrow(c) => c.get(j).map_or(0, |&c| u64::from(c)),
            BlockCodes::Medium(c) => c.get(j).map_or(0, |&c| u64::from(c)),
            BlockCodes::Wide(c) => c.get(j).copied().unwrap_or(0),
        }
    }
}
