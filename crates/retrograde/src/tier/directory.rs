//! A directory of solved tiers: one database a tier and the manifest
//! (`tiers.json`) that lists the complete ones.
//!
//! ```text
//! {"format":"retrograde tiers","version":1,
//!  "game":{"game":"chess","variant":"","params":{"symmetry":"true"}},
//!  "tiers":[{"name":"KK","file":"KK.db","positions":462,"longest":0,
//!            "bytes":8192,"xxh3":"…"}, …]}
//! ```
//!
//! A tier is listed once its database is complete: the database is written
//! atomically (a temporary file renamed into place), then the manifest is
//! written again atomically with the tier added. A tier is trusted on a
//! later run only if its file still has the listed size and XXH3 checksum
//! and its header names this game and the tier.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{TierError, TieredGame};
use crate::Value;
use crate::db::{Database, Meta};

/// The manifest's file name in a tier directory.
pub const MANIFEST: &str = "tiers.json";

const FORMAT: &str = "retrograde tiers";
const VERSION: u32 = 1;

/// What a tier directory holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// Always `retrograde tiers`.
    pub format: String,
    /// The manifest's version (1).
    pub version: u32,
    /// The game: each tier's database has this header, its variant the tier's name.
    pub game: Meta,
    /// The complete tiers, in the order they were solved (children first).
    pub tiers: Vec<ManifestTier>,
}

/// A complete tier.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestTier {
    /// The tier's name.
    pub name: String,
    /// Its database, relative to the directory.
    pub file: String,
    /// Its positions.
    pub positions: u64,
    /// Its longest remoteness (`None`: every position a draw).
    pub longest: Option<u32>,
    /// The database's size in bytes.
    pub bytes: u64,
    /// The database's XXH3-64 checksum, in hexadecimal.
    pub xxh3: String,
}

impl Manifest {
    /// An empty manifest for `game`.
    pub fn new(game: Meta) -> Manifest {
        Manifest {
            format: FORMAT.into(),
            version: VERSION,
            game,
            tiers: Vec::new(),
        }
    }

    /// Reads the manifest of `dir`; `None` if there is none.
    ///
    /// # Errors
    /// A manifest that does not read, or is not one.
    pub fn read(dir: &Path) -> Result<Option<Manifest>, TierError> {
        let path = dir.join(MANIFEST);
        let text = match std::fs::read(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(TierError::Io(crate::Error::io(&path, e))),
        };
        let bad = |why: String| TierError::Manifest {
            path: path.clone(),
            why,
        };
        let m: Manifest = serde_json::from_slice(&text).map_err(|e| {
            bad(format!(
                "not a tier manifest ({e}); remove it to start over"
            ))
        })?;
        if m.format != FORMAT || m.version != VERSION {
            return Err(bad(format!(
                "format {:?} version {}, expected {FORMAT:?} version {VERSION}",
                m.format, m.version
            )));
        }
        if let Some(t) = m.tiers.iter().find(|t| !is_plain_name(&t.file)) {
            return Err(bad(format!(
                "tier {} lists the file {:?}, which is not a file of the directory (a name, no path)",
                t.name, t.file
            )));
        }
        Ok(Some(m))
    }

    /// Writes the manifest into `dir`, atomically.
    ///
    /// # Errors
    /// A failed write.
    pub fn write(&self, dir: &Path) -> Result<(), TierError> {
        let text = serde_json::to_vec_pretty(self).map_err(|e| TierError::Manifest {
            path: dir.join(MANIFEST),
            why: e.to_string(),
        })?;
        crate::io::write_atomically(&dir.join(MANIFEST), |w| {
            w.write_all(&text)?;
            w.write_all(b"\n")
        })?;
        Ok(())
    }

    /// The tier named `name`, if listed.
    pub fn tier(&self, name: &str) -> Option<&ManifestTier> {
        self.tiers.iter().find(|t| t.name == name)
    }
}

/// Whether `file` names a file in the directory itself: one plain
/// component, not `.` or `..`.
fn is_plain_name(file: &str) -> bool {
    let mut parts = Path::new(file).components();
    matches!(
        (parts.next(), parts.next()),
        (Some(std::path::Component::Normal(n)), None) if n == std::ffi::OsStr::new(file)
    ) && !file.contains(['/', '\\'])
}

/// The checksum and size of a file, as the manifest lists them: read in
/// blocks of 1 MiB, never whole (a tier may be larger than memory).
pub(super) fn fingerprint(path: &Path) -> Result<(u64, String), TierError> {
    use std::io::Read;
    let io = |e| crate::Error::io(path, e);
    let mut file = std::fs::File::open(path).map_err(io)?;
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    let mut block = vec![0u8; 1 << 20];
    let mut len = 0u64;
    loop {
        let n = match file.read(&mut block) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(io(e).into()),
        };
        hasher.update(&block[..n]);
        len += n as u64;
    }
    Ok((len, format!("{:016x}", hasher.digest())))
}

/// Opens a listed tier's database if it is still what the manifest says:
/// `Ok(None)` if it is missing or damaged (to be solved again).
///
/// # Errors
/// A database that is whole but of another game or tier.
pub(super) fn open_listed(
    dir: &Path,
    game: &Meta,
    listed: &ManifestTier,
) -> Result<Option<Database>, TierError> {
    let path = dir.join(&listed.file);
    let Ok((bytes, sum)) = fingerprint(&path) else {
        return Ok(None);
    };
    if bytes != listed.bytes || sum != listed.xxh3 {
        return Ok(None);
    }
    open_tier(&path, game, &listed.name).map(Some)
}

/// Opens `path` as the database of tier `name` of `game`.
///
/// # Errors
/// A database that does not open, or whose header is not the tier's.
pub(super) fn open_tier(path: &Path, game: &Meta, name: &str) -> Result<Database, TierError> {
    let db = Database::open(path)?;
    let expected = tier_meta(game, name);
    if *db.meta() != expected {
        return Err(TierError::Foreign {
            path: path.to_path_buf(),
            why: format!(
                "its header says {}, expected {}",
                described(db.meta()),
                described(&expected)
            ),
        });
    }
    Ok(db)
}

/// A game's header in words, its parameters included: `chess (symmetry=true)`.
pub(super) fn described(meta: &Meta) -> String {
    let mut out = crate::play::describe(meta);
    if !meta.params.is_empty() {
        let params: Vec<String> = meta
            .params
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        out = format!("{out} ({})", params.join(", "));
    }
    out
}

/// The header of tier `name`'s database: the game's, with the tier's name
/// as its variant.
pub(super) fn tier_meta(game: &Meta, name: &str) -> Meta {
    game.clone().variant(name)
}

/// A directory of solved tiers read as one game: any position's value from
/// the database of its tier, each mapped when first asked.
pub struct TierDirectory {
    dir: PathBuf,
    manifest: Manifest,
    open: Vec<std::sync::OnceLock<Database>>,
}

impl TierDirectory {
    /// Opens the tier directory `dir` (its manifest read; the databases are
    /// opened as they are needed).
    ///
    /// # Errors
    /// No manifest, or one that does not read.
    pub fn open(dir: &Path) -> Result<TierDirectory, TierError> {
        let manifest = Manifest::read(dir)?.ok_or_else(|| TierError::Manifest {
            path: dir.join(MANIFEST),
            why: "no such file: not a tier directory (`--tiers DIR` writes one)".into(),
        })?;
        let open = (0..manifest.tiers.len())
            .map(|_| std::sync::OnceLock::new())
            .collect();
        Ok(TierDirectory {
            dir: dir.to_path_buf(),
            manifest,
            open,
        })
    }

    /// The manifest.
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    /// The database of the tier named `name`; `None` if the directory does
    /// not list it.
    ///
    /// # Errors
    /// A database that does not open, or is not the tier's.
    pub fn database(&self, name: &str) -> Result<Option<&Database>, TierError> {
        match self.manifest.tiers.iter().position(|t| t.name == name) {
            Some(i) => self.database_at(i).map(Some),
            None => Ok(None),
        }
    }

    /// Every tier the manifest lists, in its order (children first), with
    /// its database, opened as it is reached.
    pub fn each(&self) -> impl Iterator<Item = (&ManifestTier, Result<&Database, TierError>)> + '_ {
        (0..self.manifest.tiers.len()).map(|i| (&self.manifest.tiers[i], self.database_at(i)))
    }

    /// Every tier the manifest lists, in its order (children first), with
    /// its database opened for the caller alone: a pass over every tier
    /// that drops each database before the next keeps only one mapped
    /// (where [`TierDirectory::each`] keeps every one it opened).
    pub fn each_alone(
        &self,
    ) -> impl Iterator<Item = (&ManifestTier, Result<Database, TierError>)> + '_ {
        (0..self.manifest.tiers.len()).map(|i| (&self.manifest.tiers[i], self.open_at(i)))
    }

    /// The database of the `i`-th tier listed, opened on first use.
    fn database_at(&self, i: usize) -> Result<&Database, TierError> {
        if let Some(db) = self.open[i].get() {
            return Ok(db);
        }
        let db = self.open_at(i)?;
        Ok(self.open[i].get_or_init(|| db))
    }

    /// The database of the `i`-th tier listed, opened and checked against
    /// the manifest.
    fn open_at(&self, i: usize) -> Result<Database, TierError> {
        let listed = &self.manifest.tiers[i];
        let path = self.dir.join(&listed.file);
        // The size and the header's figures are checked here, the contents
        // block by block as they are read (the whole file's checksum, which
        // `verify` and a resumed run read, would cost a pass over it).
        let differs = |why: String| TierError::Foreign {
            path: path.clone(),
            why: format!("{why}, not what {MANIFEST} lists for tier {}", listed.name),
        };
        let bytes = std::fs::metadata(&path)
            .map_err(|e| crate::Error::io(&path, e))?
            .len();
        if bytes != listed.bytes {
            return Err(differs(format!("{bytes} bytes")));
        }
        let db = open_tier(&path, &self.manifest.game, &listed.name)?;
        let h = db.header();
        if (h.positions, h.longest) != (listed.positions, listed.longest) {
            return Err(differs(format!(
                "{} positions, longest {:?}",
                h.positions, h.longest
            )));
        }
        Ok(db)
    }

    /// Whether tier `name`'s database has the size and checksum the
    /// manifest lists (read whole); `false` for a tier it does not list.
    pub fn unchanged(&self, name: &str) -> bool {
        let Some(listed) = self.manifest.tier(name) else {
            return false;
        };
        fingerprint(&self.dir.join(&listed.file))
            .is_ok_and(|(bytes, sum)| bytes == listed.bytes && sum == listed.xxh3)
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The value of `p` (any position of the game, canonical or not).
    ///
    /// # Errors
    /// Its tier not in the directory; a position its tier does not hold; a
    /// damaged database.
    pub fn value<G: TieredGame>(&self, game: &G, p: &G::Position) -> Result<Value, TierError> {
        let q = game.canonical(p.clone());
        let tier = game.tier_name(&game.tier(&q));
        let missing = |tier: String| TierError::NoSuchTier {
            tier,
            position: game.notation(p),
        };
        let db = self.database(&tier)?.ok_or_else(|| missing(tier.clone()))?;
        let code = super::key_of(game, &q).ok_or_else(|| TierError::NotNumbered {
            tier: tier.clone(),
            position: game.notation(p),
        })?;
        db.value(code)?.ok_or_else(|| TierError::NotHeld {
            tier: tier.clone(),
            position: game.notation(p),
        })
    }
}

/// A tier's database read with the rest of its directory: a key it does
/// not hold (a move into another tier) is looked up in its own tier's
/// database, found by [`Playable::tier_of`](crate::play::Playable::tier_of).
/// What `query`, `play` and `serve` read, so that a tier's database in its
/// directory answers for the whole game.
pub struct WithTiers<'a> {
    db: &'a Database,
    game: &'a dyn crate::play::Playable,
    dir: Option<TierDirectory>,
}

impl<'a> WithTiers<'a> {
    /// `db` with the tiers of the directory it lies in, if that directory
    /// has a manifest of the same game; `db` alone otherwise.
    pub fn beside(db: &'a Database, game: &'a dyn crate::play::Playable) -> WithTiers<'a> {
        let dir = db
            .path()
            .parent()
            .map(|d| {
                if d.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    d
                }
            })
            .and_then(|d| TierDirectory::open(d).ok())
            .filter(|t| tier_meta(&t.manifest.game, &db.meta().variant) == *db.meta());
        WithTiers { db, game, dir }
    }

    /// The tier directory `db` lies in, if it was found beside it.
    pub fn tiers(&self) -> Option<&TierDirectory> {
        self.dir.as_ref()
    }
}

impl crate::play::Records for WithTiers<'_> {
    fn value(&self, key: u64) -> Result<Option<Value>, crate::db::DbError> {
        if let Some(v) = self.db.value(key)? {
            return Ok(Some(v));
        }
        let (Some(dir), Some(tier)) = (&self.dir, self.game.tier_of(key)) else {
            return Ok(None);
        };
        match dir.database(&tier) {
            Ok(Some(db)) => db.value(key),
            Ok(None) => Ok(None),
            Err(TierError::Db(e)) => Err(e),
            // Another file where the tier should be: said, not taken for a
            // position the tier does not hold.
            Err(e) => Err(crate::db::DbError::Beside {
                path: dir.dir().join(file_name(&tier)),
                why: e.to_string(),
            }),
        }
    }

    fn len(&self) -> u64 {
        self.db.len()
    }
}
/// The database file of tier `name`.
pub(super) fn file_name(name: &str) -> String {
    format!("{name}.db")
}
