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
//! queried and played on its own. A graph whose vertices have names (an
//! edge list of names, a game written in Python) may keep them too: the
//! command line and the web page then show and read positions by name.

mod check;
mod count;
mod graph;
mod header;
mod keys;
mod layout;
mod read;
mod section;
mod write;

pub use check::Checked;
pub use count::Counted;
pub use header::{
    Compression, Counts, GrundyHeader, Header, KeysHeader, Meta, MovesHeader, NamesHeader,
    OwnersHeader,
};
pub use read::{BlockCodes, Database, Sizes};
pub use section::Section;
pub use write::{Source, WriteSummary, Writer, dense, graph_moves};

use std::path::PathBuf;

use crate::{Outcome, Value};

/// The first bytes of every database.
pub const MAGIC: &[u8; 8] = b"RETRODB1";

/// Whether `path` names a database: a regular file (a database is
/// mapped, so a pipe or standard input never is one, and is not read from
/// here) that starts with [`MAGIC`].
pub fn is_database(path: &std::path::Path) -> bool {
    use std::io::Read;
    let mut magic = [0u8; 8];
    std::fs::metadata(path).is_ok_and(|m| m.is_file())
        && std::fs::File::open(path)
            .and_then(|mut f| f.read_exact(&mut magic))
            .is_ok_and(|()| &magic == MAGIC)
}

/// Where the data starts: the header is padded to a multiple of this.
pub const ALIGN: u64 = 4096;

/// Records in a block.
pub const BLOCK_RECORDS: u64 = 1 << 16;

/// The format's version, in the header.
pub const VERSION: u32 = 1;
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
        crate::memory::human_bytes(*bytes),
        crate::memory::human_bytes(*limit)
    )]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size.
        bytes: u64,
        /// Bytes allowed.
        limit: u64,
    },
    /// A database read beside this one (another tier of its directory)
    /// is not what the directory's manifest lists.
    #[error("{}: {why}", crate::io::paths::shown(path))]
    Beside {
        /// The other database.
        path: PathBuf,
        /// What is wrong with it.
        why: String,
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
