//! How a registered game is solved or checked ([`How`]: a memory limit,
//! where progress goes, the tier directory) and why that fails
//! ([`RunError`]).

use std::fmt;

use crate::SolveError;
use crate::db::DbError;
use crate::solve::{NoProgress, Progress};

/// How to run a solve or a check: a memory limit and where progress goes.
#[derive(Clone, Copy)]
pub struct How<'p> {
    /// Refuse what would need more bytes than this.
    pub memory_limit: Option<u64>,
    /// Bytes a position the caller holds besides (a database written from
    /// the solution, say), counted against the limit.
    pub reserve: u64,
    /// Where progress goes: phases (`explore`, `reverse`, `solve`, `read`,
    /// `verify`) begin and end there.
    pub progress: &'p dyn Progress,
    /// For a game solved tier by tier: the directory its tiers are kept in
    /// (and taken from, where an earlier run left them); `None`: a
    /// temporary one.
    pub tiers: Option<&'p std::path::Path>,
    /// For a game solved tier by tier: told as each tier is done.
    pub on_tier: Option<&'p (dyn Fn(&crate::tier::TierDone) + Sync)>,
    /// For a game solved tier by tier: how its tiers are solved and kept.
    pub tier_options: crate::tier::TierOptions,
    /// For a game explored from its rules: by hash even where it numbers
    /// its positions ([`Explorer::by_hash`](crate::Explorer::by_hash)), to
    /// compare the two paths (the answers are the same).
    pub by_hash: bool,
}

impl Default for How<'static> {
    fn default() -> Self {
        How {
            memory_limit: None,
            reserve: 0,
            progress: &NoProgress,
            tiers: None,
            on_tier: None,
            tier_options: crate::tier::TierOptions::default(),
            by_hash: false,
        }
    }
}

impl fmt::Debug for How<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("How")
            .field("memory_limit", &self.memory_limit)
            .field("reserve", &self.reserve)
            .finish_non_exhaustive()
    }
}

impl How<'_> {
    /// Refuses `what`, which would need `needed` bytes, past the limit.
    pub fn check(&self, what: impl FnOnce() -> String, needed: u64) -> Result<(), crate::Error> {
        match self.memory_limit {
            Some(limit) if needed > limit => Err(crate::Error::OverMemory {
                what: what(),
                needed,
                limit,
            }),
            _ => Ok(()),
        }
    }

    /// Runs `f` as phase `phase` of the progress (begun and ended).
    pub(crate) fn phase<T>(&self, phase: &'static str, f: impl FnOnce() -> T) -> T {
        self.progress.begin(phase, 0);
        let out = f();
        self.progress.end();
        out
    }
}

/// Why a solve or a check of a registered game failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RunError {
    /// The solve failed (too large for the memory limit, say).
    #[error(transparent)]
    Solve(#[from] crate::Error),
    /// The database could not be read.
    #[error(transparent)]
    Db(#[from] DbError),
    /// The database is not this game's: it has another number of records.
    #[error("{path}: {records} records, but {game} has {positions} positions: it is not this game's database", path = crate::io::paths::shown(path))]
    OtherGame {
        /// The database.
        path: std::path::PathBuf,
        /// Its records.
        records: u64,
        /// The game.
        game: String,
        /// Its positions.
        positions: u64,
    },
    /// The game cannot be built as given (a start that is no position).
    #[error(transparent)]
    Game(Box<dyn std::error::Error + Send + Sync>),
    /// A solve tier by tier failed.
    #[error(transparent)]
    Tier(#[from] crate::tier::TierError),
    /// Processes can share only a game solved tier by tier.
    #[error(
        "{game} is not solved tier by tier: only a tiered game's tiers are shared among processes"
    )]
    NotTiered {
        /// The game, in words.
        game: String,
    },
}

impl From<SolveError> for RunError {
    fn from(e: SolveError) -> Self {
        RunError::Solve(e.into())
    }
}
