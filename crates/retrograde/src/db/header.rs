//! The header: what a database is of and where its sections lie, and its
//! decoding from the first bytes of the file.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{ALIGN, DbError, MAGIC, Section, VERSION};

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
    /// The least key; the arrays encode each key less it (0 if absent).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub base: u64,
    /// One more than the largest key, less `base`.
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

/// The positions' names, for a graph whose vertices have names (an edge
/// list of names, a game written in Python): position `v`'s name is the
/// UTF-8 text `text[offsets[v]..offsets[v + 1]]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NamesHeader {
    /// `u64` little-endian, one per record and one more.
    pub offsets: Section,
    /// The names one after another, UTF-8.
    pub text: Section,
}

/// Loopy nim values ([`grundy`](crate::grundy)), kept beside a graph's
/// moves: `values` holds each record's finite value, `u32::MAX - 1` for
/// an infinite one (its set is read from the moves) and `u32::MAX - 2` for
/// no position; `order` when each finite value was given (the counter
/// function a winning move is chosen by). Both `u32` little-endian, one a
/// record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GrundyHeader {
    /// The values.
    pub values: Section,
    /// The order they were given in.
    pub order: Section,
}

/// Who moves at each position, for an arena (a graph whose vertices have
/// owners, where a move between two of one owner keeps the turn): one
/// byte a record, 0 or 1.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OwnersHeader {
    /// The owners.
    pub owners: Section,
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
    /// The map from keys to records; `None`: keys are record numbers
    /// (from [`Header::first_key`]).
    pub keys: Option<KeysHeader>,
    /// The key of record 0 where the keys are record numbers: a tier whose
    /// positions are one range of its game's numbers keeps that range,
    /// key `k` in record `k - first_key`. 0 for every other database.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub first_key: u64,
    /// The moves, for an explicit graph.
    pub moves: Option<MovesHeader>,
    /// The positions' names, for a graph whose vertices have them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub names: Option<NamesHeader>,
    /// Loopy nim values, for a graph saved by `retrograde grundy --save`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grundy: Option<GrundyHeader>,
    /// Who moves at each position, for an arena.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owners: Option<OwnersHeader>,
    /// The record blocks (chunks: one per block).
    pub blocks: Section,
}

impl Header {
    /// The bytes of the sorted keys' sections (none for a dense game).
    pub fn key_bytes(&self) -> u64 {
        self.keys
            .as_ref()
            .map_or(0, |k| k.lows.bytes + k.highs.bytes + k.samples.bytes)
    }

    /// The bytes of the moves' sections (none for a game with rules).
    pub fn move_bytes(&self) -> u64 {
        self.moves
            .as_ref()
            .map_or(0, |m| m.offsets.bytes + m.targets.bytes)
    }

    /// The bytes of the names' sections (none if the positions have no names).
    pub fn name_bytes(&self) -> u64 {
        self.names
            .as_ref()
            .map_or(0, |m| m.offsets.bytes + m.text.bytes)
    }

    /// The header of the database whose file's bytes are `map`, and where
    /// its data starts: refused if the file is no database, the header is
    /// damaged or the file is cut short before the data.
    pub(super) fn decode(path: &Path, map: &[u8]) -> Result<(Header, u64), DbError> {
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
        if header.records > 1 << 32 {
            return Err(bad(format!(
                "{} records is more than the 2^32 that positions are numbered with",
                header.records
            )));
        }
        Ok((header, data))
    }
}

fn is_zero(x: &u64) -> bool {
    *x == 0
}
