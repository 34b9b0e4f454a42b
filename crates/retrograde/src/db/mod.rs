//! The solution database: every position's outcome and remoteness kept in
//! one file, probed where it lies (memory-mapped) without reading the rest.
//!
//! ```
//! use retrograde::db::{self, Database, Meta};
//! use retrograde::{solve, Csr, Outcome, Rules};
//! // 0 -> 1 -> 2: 2 has no move and loses, 1 wins in 1, 0 loses in 2.
//! let g = Csr::from_edges(3, &[(0, 1), (1, 2)]);
//! let s = solve(&g, &Rules::normal()).unwrap();
//! let dir = tempfile::tempdir().unwrap();
//! let path = dir.path().join("line.db");
//! db::Writer::new(Meta::new("graph")).write(&path, &db::dense(&s)).unwrap();
//! let d = Database::open(&path).unwrap();
//! let v = d.value(0).unwrap().unwrap();
//! assert_eq!((v.outcome, v.remoteness), (Outcome::Lose, Some(2)));
//! assert_eq!(d.value(3).unwrap(), None); // no such position
//! ```
//!
//! # The file
//!
//! ```text
//! "RETRODB1"  u64 header length  u64 XXH3 of the header  header (JSON)
//! zero bytes to the next multiple of 4096, then the data: the sections
//! ```
//!
//! The header ([`Header`]) names the game, its variant and what it takes to
//! rebuild its rules, gives the counts, and places every section of the
//! data with a checksum per block or chunk. Each section is checked the
//! first time it is read, a block at a time: a flipped byte is refused,
//! naming the section and the block, and so is a file cut short.
//!
//! **Records.** A position's record is a code of [`Header::record_bits`]
//! bits: 0 no position, 1 a draw, `2 + 3r` a win in `r`, `3 + 3r` a loss
//! in `r`, `4 + 3r` a tie in `r`. The width is the least that holds the
//! largest code, so there is no cap on remoteness: 8 bits while the longest
//! game is under 84 plies, 10 bits under 340. Records are packed in blocks of
//! [`BLOCK_RECORDS`]; each block is stored as it is (`none`, probed in
//! place) or compressed with Zstandard (`zstd`, decompressed a block at a
//! time, the last 64 MiB of blocks kept).
//!
//! **Keys.** A dense game (vertex ids, a [`Game`](crate::Game)'s numbers)
//! finds a record at its position's number. A game whose positions are
//! keyed sparsely (a state game, a game numbered within a larger space)
//! keeps its sorted keys in the Elias–Fano encoding (`db/keys.rs`): a key's
//! record is at its rank among them, found in a few reads.
//!
//! **Moves.** An explicit graph has no rules to replay: its database keeps
//! the moves of every position (offsets and targets), so that it can be
//! queried and played on its own.

mod keys;
mod section;
mod write;

pub use section::Section;
pub use write::{dense, Source, WriteSummary, Writer};

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

use crate::kernel::{ABSENT, DRAW};
use crate::solve::solution::Remoteness;
use crate::{Outcome, Value, Values};
use section::Checked;

/// The first bytes of every database.
pub const MAGIC: &[u8; 8] = b"RETRODB1";

/// Where the data starts: the header is padded to a multiple of this.
pub const ALIGN: u64 = 4096;

/// Records in a block.
pub const BLOCK_RECORDS: u64 = 1 << 16;

/// The format's version, in the header.
pub const VERSION: u32 = 1;

/// What a database is of: the game, its variant and what else it takes to
/// rebuild its rules (a board, a start, a reading of the rules).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meta {
    /// The game: `graph`, `chess`, `dobutsu`, ..., or a user game's name.
    pub game: String,
    /// Its variant (a chess ending's name), empty if none.
    #[serde(default)]
    pub variant: String,
    /// Everything else that defines the game, as text.
    #[serde(default)]
    pub params: BTreeMap<String, String>,
}

impl Meta {
    /// The game `game`, no variant, no parameters.
    pub fn new(game: impl Into<String>) -> Meta {
        Meta {
            game: game.into(),
            ..Meta::default()
        }
    }

    /// With variant `variant`.
    pub fn variant(mut self, variant: impl Into<String>) -> Meta {
        self.variant = variant.into();
        self
    }

    /// With parameter `key` set to `value`.
    pub fn param(mut self, key: impl Into<String>, value: impl ToString) -> Meta {
        self.params.insert(key.into(), value.to_string());
        self
    }
}

/// How the record blocks are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Compression {
    /// As they are: probed in place.
    None,
    /// Each block compressed with Zstandard.
    Zstd,
}

/// Positions by outcome.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Won for the player to move.
    pub win: u64,
    /// Lost.
    pub lose: u64,
    /// Tied.
    pub tie: u64,
    /// Drawn (endless).
    pub draw: u64,
}

/// The sorted keys' arrays, in the Elias–Fano encoding (`db/keys.rs`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeysHeader {
    /// How many keys (one per record).
    pub count: u64,
    /// Bits of each key's low part.
    pub low_bits: u32,
    /// One more than the largest key.
    pub universe: u64,
    /// The low parts, packed.
    pub lows: Section,
    /// The high parts in unary (`u64` words).
    pub highs: Section,
    /// Where every 256th bucket starts (`u64`s).
    pub samples: Section,
}

/// An explicit graph's moves: `offsets[v]..offsets[v + 1]` index `targets`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MovesHeader {
    /// How many moves.
    pub count: u64,
    /// `u64` little-endian, one per record and one more.
    pub offsets: Section,
    /// `u32` little-endian, one per move.
    pub targets: Section,
}

/// The header: what the database holds and where.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// Always `retrograde solution database`.
    pub format: String,
    /// [`VERSION`].
    pub version: u32,
    /// The game.
    #[serde(flatten)]
    pub meta: Meta,
    /// Records (positions and unused numbers).
    pub records: u64,
    /// Positions.
    pub positions: u64,
    /// Positions by outcome.
    pub counts: Counts,
    /// The longest remoteness; `None` if every position is a draw.
    pub longest: Option<u32>,
    /// Bits a record.
    pub record_bits: u32,
    /// Records a block.
    pub block_records: u64,
    /// How the blocks are stored.
    pub compression: Compression,
    /// The map from keys to records; `None`: keys are record numbers.
    pub keys: Option<KeysHeader>,
    /// The moves, for an explicit graph.
    pub moves: Option<MovesHeader>,
    /// The record blocks (chunks: one per block).
    pub blocks: Section,
}

/// What is wrong with a database file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DbError {
    /// The file could not be opened, read or written.
    #[error("{}: {source}", crate::io::paths::shown(path))]
    Io {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// The file does not start as a database does.
    #[error(
        "{}: not a solution database (expected it to start with \"RETRODB1\", as `--save` writes)",
        crate::io::paths::shown(path)
    )]
    NotADatabase {
        /// The file.
        path: PathBuf,
    },
    /// The path is not a regular file (a database is mapped from one).
    #[error(
        "{}: not a regular file (a database is mapped from a file)",
        crate::io::paths::shown(path)
    )]
    NotAFile {
        /// The path.
        path: PathBuf,
    },
    /// The header does not read.
    #[error("{}: the header is damaged: {what}", crate::io::paths::shown(path))]
    Header {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
    /// A section is damaged.
    #[error("{}: {section} block {block}: {fault}", crate::io::paths::shown(path))]
    Damaged {
        /// The file.
        path: PathBuf,
        /// `records`, `keys' low parts`, ...
        section: &'static str,
        /// The block (or chunk) at fault, from 0.
        block: u64,
        /// What is wrong with it.
        fault: Fault,
    },
    /// A mapped file changed (another program wrote to it) since it was
    /// opened: what was read of it no longer matches its header.
    #[error(
        "{}: the file changed since it was opened (another program wrote to it while it was read): stopped",
        crate::io::paths::shown(path)
    )]
    Changed {
        /// The file.
        path: PathBuf,
    },
    /// The file is larger than the memory a reader that keeps it in memory may use.
    #[error(
        "{}: reading the database into memory needs {}, more than the {} allowed",
        crate::io::paths::shown(path),
        crate::error::human_bytes(*bytes),
        crate::error::human_bytes(*limit)
    )]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size.
        bytes: u64,
        /// Bytes allowed.
        limit: u64,
    },
    /// The keys given to the writer are not strictly increasing.
    #[error("keys must be strictly increasing: key {index} ({key}) is not above the one before")]
    UnsortedKeys {
        /// Where.
        index: u64,
        /// The key.
        key: u64,
    },
    /// The database could not be written.
    #[error(transparent)]
    Write(#[from] crate::Error),
    /// The writer's source does not add up.
    #[error("the source has {records} records but {other} {what}")]
    SourceMismatch {
        /// Records.
        records: u64,
        /// How many of the other.
        other: u64,
        /// The other.
        what: &'static str,
    },
}

/// How a block is damaged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Fault {
    /// Its checksum does not match.
    #[error("checksum mismatch (the file is damaged)")]
    Checksum,
    /// The file ends before it does.
    #[error("the file is cut short: it needs {needed} bytes of data, it has {found}")]
    CutShort {
        /// Bytes of data the header places.
        needed: u64,
        /// Bytes of data the file has.
        found: u64,
    },
    /// It does not decompress or decode.
    #[error("does not decode: {0}")]
    Decode(String),
    /// The header places it impossibly.
    #[error("the header's layout is impossible")]
    Layout,
}

/// The code of a record (see the module docs).
#[inline]
pub(crate) fn encode(v: Option<Value>) -> u64 {
    match v {
        None => 0,
        Some(Value {
            outcome: Outcome::Draw,
            ..
        }) => 1,
        Some(Value {
            outcome,
            remoteness,
        }) => {
            let column = match outcome {
                Outcome::Win => 0,
                Outcome::Lose => 1,
                _ => 2,
            };
            2 + 3 * u64::from(remoteness.unwrap_or(0)) + column
        }
    }
}

/// The value of a record code; `Err` for a code no value has.
#[inline]
pub(crate) fn decode(code: u64) -> Result<Option<Value>, u64> {
    Ok(match code {
        0 => None,
        1 => Some(Value::new(Outcome::Draw, None)),
        c => {
            let r = u32::try_from((c - 2) / 3).map_err(|_| c)?;
            let outcome = [Outcome::Win, Outcome::Lose, Outcome::Tie][((c - 2) % 3) as usize];
            Some(Value::new(outcome, Some(r)))
        }
    })
}

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
    path: PathBuf,
    header: Header,
    store: Store,
    /// Where the data starts in the file.
    data: usize,
    blocks: Checked,
    keys: Option<(Checked, Checked, Checked)>,
    moves: Option<(Checked, Checked)>,
    cache: Mutex<Cache>,
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
        let bad = |what: String| DbError::Header {
            path: path.to_path_buf(),
            what,
        };
        if map.len() < 24 || &map[..8] != MAGIC {
            return Err(DbError::NotADatabase {
                path: path.to_path_buf(),
            });
        }
        let word = |at: usize| u64::from_le_bytes(map[at..at + 8].try_into().unwrap_or([0; 8]));
        let (len, sum) = (word(8), word(16));
        let end = 24u64.saturating_add(len);
        if end > map.len() as u64 {
            return Err(bad(format!(
                "the file is cut short: the header needs {end} bytes, the file has {}",
                map.len()
            )));
        }
        let text = &map[24..end as usize];
        if xxhash_rust::xxh3::xxh3_64(text) != sum {
            return Err(bad("checksum mismatch (the file is damaged)".into()));
        }
        let header: Header = serde_json::from_slice(text).map_err(|e| bad(format!("{e}")))?;
        if header.version != VERSION {
            return Err(bad(format!(
                "format version {} (this build reads version {VERSION})",
                header.version
            )));
        }
        let data = end.div_ceil(ALIGN) * ALIGN;
        if data > map.len() as u64 {
            return Err(bad(format!(
                "the file is cut short: its data starts at byte {data}, the file has {}",
                map.len()
            )));
        }
        let data_len = map.len() as u64 - data;
        if header.records > 1 << 32 {
            return Err(bad(format!(
                "{} records is more than the 2^32 that positions are numbered with",
                header.records
            )));
        }
        let zstd = header.compression == Compression::Zstd;
        let blocks = Checked::new("records", &header.blocks, zstd, data_len, path)?;
        let expected_blocks = header.records.div_ceil(BLOCK_RECORDS);
        if header.block_records != BLOCK_RECORDS
            || blocks.chunks() != expected_blocks
            || header.record_bits == 0
            || header.record_bits > 40
        {
            return Err(bad("the record blocks do not match the record count".into()));
        }
        if header.compression == Compression::None
            && (header.blocks.bytes
                != keys::packed_bytes(header.records, header.record_bits) as u64
                || header.blocks.chunk
                    != keys::packed_bytes(BLOCK_RECORDS, header.record_bits) as u64)
        {
            return Err(bad("the record blocks do not match the record count".into()));
        }
        let keys = match &header.keys {
            None => None,
            Some(k) => {
                let sizes = keys::sizes(k.count, k.universe);
                let laid_out = sizes == Some((k.lows.bytes, k.highs.bytes, k.samples.bytes))
                    && k.low_bits == keys::low_bits(k.count, k.universe);
                if k.count != header.records || !laid_out {
                    return Err(bad("the keys do not match the record count".into()));
                }
                Some((
                    Checked::new("keys' low parts", &k.lows, false, data_len, path)?,
                    Checked::new("keys' high parts", &k.highs, false, data_len, path)?,
                    Checked::new("keys' samples", &k.samples, false, data_len, path)?,
                ))
            }
        };
        let moves = match &header.moves {
            None => None,
            Some(m) => {
                let offsets = (header.records + 1).checked_mul(8);
                let targets = m.count.checked_mul(4);
                if offsets != Some(m.offsets.bytes) || targets != Some(m.targets.bytes) {
                    return Err(bad("the moves do not match the record count".into()));
                }
                Some((
                    Checked::new("moves' offsets", &m.offsets, false, data_len, path)?,
                    Checked::new("moves' targets", &m.targets, false, data_len, path)?,
                ))
            }
        };
        let data = data as usize;
        Ok(Database {
            path: path.to_path_buf(),
            header,
            store,
            data,
            blocks,
            keys,
            moves,
            cache: Mutex::new(Cache::default()),
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

    fn bytes(&self) -> &[u8] {
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
    fn blame(&self, e: DbError) -> DbError {
        match (&self.store, &e) {
            (Store::Mapped(m), DbError::Damaged { .. }) if m.changed() => DbError::Changed {
                path: self.path.clone(),
            },
            _ => e,
        }
    }

    fn keys(&self) -> Option<keys::Keys<'_>> {
        let (lows, highs, samples) = self.keys.as_ref()?;
        let h = self.header.keys.as_ref()?;
        let data = self.bytes();
        Some(keys::Keys {
            count: h.count,
            low_bits: h.low_bits,
            universe: h.universe,
            lows: lows.on(data),
            highs: highs.on(data),
            samples: samples.on(data),
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
            None => Ok((key < self.len()).then_some(key)),
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
    fn decoded(&self, code: u64, block: u64) -> Result<Option<Value>, DbError> {
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
        if let Ok(cache) = self.cache.lock() {
            if let Some(bytes) = cache.blocks.get(&b) {
                return Ok(bytes.clone());
            }
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

    /// Block `b`'s packed records, checked and decompressed if need be.
    fn unpacked_block(&self, b: u64) -> Result<Vec<u8>, DbError> {
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
        let state = found
            .par_iter()
            .map(|v| match v {
                None => ABSENT,
                Some(v) if v.outcome == Outcome::Draw => DRAW,
                Some(v) => v.outcome as u8,
            })
            .collect();
        let remoteness = found
            .par_iter()
            .map(|v| v.and_then(|v| v.remoteness).unwrap_or(u32::MAX))
            .collect();
        Ok(Values::new(state, Remoteness::Wide(remoteness)))
    }

    /// Calls `f(record, key, value)` for every record in order (the key is
    /// the record number for a dense game); every block is checked.
    ///
    /// # Errors
    /// A damaged section.
    pub fn for_each(&self, mut f: impl FnMut(u64, u64, Option<Value>)) -> Result<(), DbError> {
        let Some(keys) = self.keys() else {
            for b in 0..self.len().div_ceil(BLOCK_RECORDS) {
                self.for_each_in_block(b, |r, v| f(r, r, v))?;
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

    /// The moves of position `v` of an explicit graph (the positions they
    /// lead to); `None` if the database keeps no moves or `v` is out of range.
    ///
    /// # Errors
    /// A damaged section.
    pub fn moves(&self, v: u64) -> Result<Option<Vec<u32>>, DbError> {
        self.moves_of(v).map_err(|e| self.blame(e))
    }

    /// [`Database::moves`], its faults not yet blamed.
    fn moves_of(&self, v: u64) -> Result<Option<Vec<u32>>, DbError> {
        let Some((offsets, targets)) = &self.moves else {
            return Ok(None);
        };
        if v >= self.len() {
            return Ok(None);
        }
        let data = self.bytes();
        let (offsets, targets) = (offsets.on(data), targets.on(data));
        let (from, to) = (offsets.u64_at(v)?, offsets.u64_at(v + 1)?);
        let count = self.header.moves.as_ref().map_or(0, |m| m.count);
        if from > to || to > count {
            return Err(DbError::Damaged {
                path: self.path.clone(),
                section: "moves' offsets",
                block: v * 8 / section::CHUNK,
                fault: Fault::Decode(format!("position {v}'s moves run from {from} to {to}")),
            });
        }
        (from..to)
            .map(|i| targets.u32_at(i))
            .collect::<Result<_, _>>()
            .map(Some)
    }

    /// Checks the moves' sections (an explicit graph's) against their checksums.
    ///
    /// # Errors
    /// The first damaged chunk found.
    pub fn check_moves(&self) -> Result<(), DbError> {
        self.check_moves_unblamed().map_err(|e| self.blame(e))
    }

    /// [`Database::check_moves`], its faults not yet blamed.
    fn check_moves_unblamed(&self) -> Result<(), DbError> {
        let data = self.bytes();
        for c in self.moves.iter().flat_map(|(a, b)| [a, b]) {
            c.on(data).check_all()?;
        }
        let Some((offsets, targets)) = &self.moves else {
            return Ok(());
        };
        let (offsets, targets) = (offsets.on(data), targets.on(data));
        let count = self.header.moves.as_ref().map_or(0, |m| m.count);
        let fault = |section: &'static str, at: u64, what: String| DbError::Damaged {
            path: self.path.clone(),
            section,
            block: at / section::CHUNK,
            fault: Fault::Decode(what),
        };
        let mut last = 0;
        for v in 0..=self.len() {
            let o = offsets.u64_at(v)?;
            let first_ok = v > 0 || o == 0;
            let last_ok = v < self.len() || o == count;
            if o < last || o > count || !first_ok || !last_ok {
                return Err(fault(
                    "moves' offsets",
                    v * 8,
                    format!("position {v}'s moves start at {o}, out of order"),
                ));
            }
            last = o;
        }
        for i in 0..count {
            let w = targets.u32_at(i)?;
            if u64::from(w) >= self.len() {
                return Err(fault(
                    "moves' targets",
                    i * 4,
                    format!("move {i} leads to {w}, past the {} positions", self.len()),
                ));
            }
        }
        Ok(())
    }

    /// Checks every block of every section against its checksum.
    ///
    /// # Errors
    /// The first damaged block found.
    pub fn check(&self) -> Result<(), DbError> {
        self.check_sums().map_err(|e| self.blame(e))?;
        // Zstandard blocks must also decompress.
        if self.header.compression == Compression::Zstd {
            use rayon::prelude::*;
            (0..self.blocks.chunks())
                .into_par_iter()
                .try_for_each(|b| self.unpacked_block(b).map(drop))
                .map_err(|e| self.blame(e))?;
        }
        Ok(())
    }

    /// Checks every chunk of every section against its checksum (on all
    /// threads); each is then not checked again.
    fn check_sums(&self) -> Result<(), DbError> {
        let data = self.bytes();
        self.blocks.on(data).check_all()?;
        for c in self.keys.iter().flat_map(|(a, b, c)| [a, b, c]) {
            c.on(data).check_all()?;
        }
        for c in self.moves.iter().flat_map(|(a, b)| [a, b]) {
            c.on(data).check_all()?;
        }
        Ok(())
    }

    /// Bytes of each part of the file: header, records, keys, moves.
    pub fn sizes(&self) -> Sizes {
        let h = &self.header;
        Sizes {
            file: self.store.len() as u64,
            header: self.data as u64,
            records: h.blocks.bytes,
            keys: h
                .keys
                .as_ref()
                .map_or(0, |k| k.lows.bytes + k.highs.bytes + k.samples.bytes),
            moves: h
                .moves
                .as_ref()
                .map_or(0, |m| m.offsets.bytes + m.targets.bytes),
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
}
