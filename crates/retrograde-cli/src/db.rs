//! The solution database in the CLI: `--save` for every solve, and the game
//! a database was written for, rebuilt from its header for `query`,
//! `analyze`, `play` and `verify`.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use retrograde::db::{self, Compression, Database, Meta, Source, WriteSummary};
use retrograde::io::Outputs;
use retrograde::play::{Playable, StoredGraph};
use retrograde::{Answers, Value};

use crate::common::{self, Timings};
use crate::progress::Bars;

/// `--save` and how.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct SaveArgs {
    /// Keep the solution as a database in FILE, for `query`, `analyze`, `play` and `verify`
    /// (docs/DATABASE.md).
    #[arg(long, value_name = "FILE", help_heading = "Database")]
    pub save: Option<PathBuf>,
    /// Store the database's records uncompressed (larger, probed in place, fastest) instead of
    /// in Zstandard blocks.
    #[arg(long, requires = "save", help_heading = "Database")]
    pub uncompressed: bool,
}

impl SaveArgs {
    /// The output it names, for the check that no output is an input.
    pub fn outputs(&self) -> Vec<&Path> {
        self.save.iter().map(|p| p.as_path()).collect()
    }

    /// The most memory writing the database of `records` records holds
    /// (keys below `universe` for a sparse game, `edges` moves kept for a
    /// graph): nothing without `--save`.
    pub fn bytes(&self, records: u64, universe: Option<u64>, edges: Option<u64>) -> u64 {
        if self.save.is_none() {
            return 0;
        }
        db::Writer::memory_bound(records, universe, edges)
    }

    /// Bytes a position that writing a state game's database (keyed by
    /// keys of any size) may hold, for an exploration that counts them
    /// before it knows how many positions there are: the steepest the
    /// writer's bound grows with the positions over the sizes a game can
    /// have (its fixed part, the write buffer, is in the allocator's slack).
    pub fn keyed_bytes_per_position(&self) -> u64 {
        self.per_position(|n| db::Writer::keyed_memory_bound(n, u64::MAX))
    }

    /// [`SaveArgs::keyed_bytes_per_position`] for a dense game's database.
    pub fn dense_bytes_per_position(&self) -> u64 {
        self.per_position(|n| db::Writer::memory_bound(n, None, None))
    }

    /// Bytes a vertex and an edge that writing a graph's database (its
    /// moves kept) may hold besides the solve: the writer's, and the moves
    /// laid out for it (offsets and their cursors, 16 a vertex; targets, 4
    /// an edge).
    pub fn graph_bytes(&self) -> (u64, u64) {
        if self.save.is_none() {
            return (0, 0);
        }
        graph_save_bytes()
    }

    fn per_position(&self, bound: impl Fn(u64) -> u64) -> u64 {
        if self.save.is_none() {
            return 0;
        }
        per_position(bound)
    }

    fn writer(&self, meta: Meta) -> db::Writer {
        db::Writer::new(meta).compression(if self.uncompressed {
            Compression::None
        } else {
            Compression::Zstd
        })
    }

    /// Stages the database of `source` among the run's `files`, if `--save`
    /// was given, timed as the phase `save` (no phase without `--save`): it
    /// appears when the files are committed, with the run's other outputs.
    pub fn stage<F>(
        &self,
        files: &mut Outputs,
        times: &mut Timings,
        meta: Meta,
        source: &Source<'_, F>,
        bars: &Bars,
    ) -> Result<Option<Saved>>
    where
        F: Fn(u64) -> Option<Value> + Sync,
    {
        let Some(path) = &self.save else {
            return Ok(None);
        };
        let summary = times.time("save", || {
            bars.spin("save", || self.writer(meta).stage(files, path, source))
        })?;
        Ok(Some(Saved {
            path: path.clone(),
            summary,
        }))
    }
}

impl SaveArgs {
    /// [`SaveArgs::stage`] for a registered game's solution: each position
    /// under its key, the header `meta`.
    pub fn stage_solution(
        &self,
        files: &mut Outputs,
        times: &mut Timings,
        meta: Meta,
        solution: &dyn retrograde::registry::GameSolution,
        bars: &Bars,
    ) -> Result<Option<Saved>> {
        let Some(path) = &self.save else {
            return Ok(None);
        };
        use rayon::prelude::*;
        use retrograde::registry::KeyOrder;
        let answers = solution.answers();
        let n = answers.len() as u32;
        let key = |i| solution.key(i).unwrap_or(u64::MAX);
        let value = |r: u64| answers.value(r as u32);
        let writer = self.writer(meta);
        let summary = times.time("save", || {
            bars.spin("save", || match solution.key_order() {
                KeyOrder::Numbers => writer.stage(
                    files,
                    path,
                    &Source {
                        records: u64::from(n),
                        value,
                        keys: None,
                        moves: None,
                        names: None,
                        grundy: None,
                        owners: None,
                    },
                ),
                // Already in order: no sort, no second copy.
                KeyOrder::Increasing => {
                    let keys: Vec<u64> = (0..n).into_par_iter().map(key).collect();
                    writer.stage(
                        files,
                        path,
                        &Source {
                            records: u64::from(n),
                            value,
                            keys: Some(&keys),
                            moves: None,
                            names: None,
                            grundy: None,
                            owners: None,
                        },
                    )
                }
                KeyOrder::Range { first, records } => writer.first_key(first).stage(
                    files,
                    path,
                    &Source {
                        records,
                        value,
                        keys: None,
                        moves: None,
                        names: None,
                        grundy: None,
                        owners: None,
                    },
                ),
                KeyOrder::Any => {
                    writer.stage_keyed(files, path, n, |i| solution.key(i), |i| answers.value(i))
                }
            })
        })?;
        Ok(Some(Saved {
            path: path.clone(),
            summary,
        }))
    }
}

/// A database staged by `--save`, to be reported once the run's outputs
/// are committed.
pub struct Saved {
    path: PathBuf,
    summary: WriteSummary,
}

impl Saved {
    /// Says what was saved, on standard error, unless `quiet` (or there was
    /// nothing to save).
    pub fn say(saved: Option<&Saved>, quiet: bool) -> Result<()> {
        match saved {
            Some(s) if !quiet => say(&s.path, &s.summary),
            _ => Ok(()),
        }
    }
}

/// Bytes a vertex and an edge that writing a graph's database with its
/// moves may hold besides the solve (see [`SaveArgs::graph_bytes`]).
pub fn graph_save_bytes() -> (u64, u64) {
    let per_vertex = per_position(|n| db::Writer::memory_bound(n, None, Some(0))) + 16;
    let edges = 1u64 << 30;
    let with = |e: u64| db::Writer::memory_bound(1, None, Some(e));
    let per_edge = with(edges).saturating_sub(with(0)).div_ceil(edges) + 4;
    (per_vertex, per_edge)
}

/// The steepest a bound grows a position over the sizes a game can have
/// (its fixed part, the write buffer, is in the allocator's slack).
fn per_position(bound: impl Fn(u64) -> u64) -> u64 {
    [1u64 << 12, 1 << 20, 1 << 28, 1 << 31]
        .into_iter()
        .map(|n| bound(2 * n).saturating_sub(bound(n)).div_ceil(n))
        .max()
        .unwrap_or(0)
}

/// The line that says what was saved.
fn say(path: &Path, s: &WriteSummary) -> Result<()> {
    let per = |bytes: u64| bytes as f64 / s.positions.max(1) as f64;
    let compressed = match s.compression {
        Compression::Zstd => format!(
            ", {:.3} compressed ({:.3} raw)",
            per(s.record_bytes),
            per(s.raw_record_bytes)
        ),
        Compression::None => String::new(),
    };
    let mut extra = String::new();
    if s.key_bytes > 0 {
        extra += &format!(", keys {:.3}", per(s.key_bytes));
    }
    if s.move_bytes > 0 {
        extra += &format!(", moves {:.3}", per(s.move_bytes));
    }
    writeln!(
        common::talk(),
        "saved: {}: {}, {} bits a record; bytes a position: {:.3} in all{compressed}{extra}",
        common::shown(path),
        indicatif::HumanBytes(s.bytes),
        s.record_bits,
        per(s.bytes),
    )?;
    Ok(())
}

pub use retrograde::registry::VALUES_BYTES_PER_RECORD;

/// The source of a dense game's database.
pub fn dense<A: Answers + Sync + ?Sized>(
    answers: &A,
) -> Source<'static, impl Fn(u64) -> Option<Value> + Sync + '_> {
    db::dense(answers)
}

/// Opens a database, naming the file in any error.
pub fn open(path: &Path) -> Result<Database> {
    Ok(Database::open(path)?)
}

/// Reads a database wholly into memory, checked (for the readers that run
/// long: what another program does to the file afterwards cannot reach
/// them); refused if it does not fit the memory limit.
pub fn read(path: &Path, max_memory: Option<u64>) -> Result<Database> {
    Ok(Database::read(path, common::memory_limit(max_memory))?)
}

/// The game a database was written for, rebuilt from its header: an
/// explicit graph from its own moves, any other game from the registry.
pub fn game(db: &Database) -> Result<Box<dyn Playable + '_>> {
    if db.meta().game == "graph" {
        return Ok(Box::new(StoredGraph::new(db)?));
    }
    Ok(solvable(db)?)
}

/// The registered game a database was written for (not a graph).
pub fn solvable(db: &Database) -> Result<Box<dyn retrograde::registry::Solvable>> {
    crate::games()
        .open(db.meta())
        .with_context(|| format!("{}: the game its header names", common::shown(db.path())))
}

/// A graph's database as a graph: its moves (checked whole first: offsets
/// in order, every target a vertex) and the rules it was solved under. The
/// terminal labels are not kept, so a graph solved with some is refused.
pub fn graph(db: &Database) -> Result<(Vec<(u32, u32)>, retrograde::Rules)> {
    let param = |k: &str| match db.meta().params.get(k).map(String::as_str) {
        // A database saved from Python or a library names no graph file.
        None | Some("") if k == "graph" => "GRAPH",
        p => p.unwrap_or(""),
    };
    if !param("reach").is_empty() {
        anyhow::bail!(
            "{} was solved from a PGSolver game, whose targets it does not keep: give the game \
             (retrograde verify {} {} --reach {} --reacher {})",
            common::shown(db.path()),
            param("graph"),
            common::shown(db.path()),
            param("reach"),
            param("reacher")
        );
    }
    if param("labels") != "0" {
        anyhow::bail!(
            "{} was solved with terminal labels, which it does not keep: give the graph \
             and its labels (retrograde verify {} --terminal {}{} {})",
            common::shown(db.path()),
            param("graph"),
            if param("terminal").is_empty() {
                "LABELS"
            } else {
                param("terminal")
            },
            if db.header().owners.is_some() {
                " --owners OWNERS"
            } else {
                ""
            },
            common::shown(db.path())
        );
    }
    db.check_moves()?;
    let mut edges = Vec::new();
    for v in 0..db.len() {
        for w in db.moves(v)?.unwrap_or_default() {
            edges.push((v as u32, w));
        }
    }
    let rules = match param("no_move") {
        "win" => retrograde::Rules::misere(),
        _ => retrograde::Rules::normal(),
    };
    Ok((edges, rules))
}

/// The position a text names in `game`: a notation error names the text.
pub fn parse(game: &dyn Playable, text: &str) -> Result<u64> {
    Ok(game.parse(text)?)
}
