//! The solution database in the CLI: `--save` for every solve, and the game
//! a database was written for, rebuilt from its header for `query`,
//! `analyze`, `play` and `verify`.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use retrograde::db::{self, Compression, Database, Meta, Source, WriteSummary};
use retrograde::io::Outputs;
use retrograde::play::{NotationError, Playable, StoredGraph};
use retrograde::{Answers, StateGame, Value};

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

    /// [`SaveArgs::stage`] for an explored state game: `n` positions,
    /// position `i` being `position(i)` in `game`'s codes, keyed as `game`
    /// keys it (so that `query` and `play` find it by its notation) and
    /// worth `value(i)`; the header names `game`.
    #[allow(clippy::too_many_arguments)]
    pub fn stage_keyed(
        &self,
        files: &mut Outputs,
        times: &mut Timings,
        game: &dyn Playable,
        n: u32,
        position: impl Fn(u32) -> Option<u64> + Sync,
        value: impl Fn(u32) -> Option<Value> + Sync,
        bars: &Bars,
    ) -> Result<Option<Saved>> {
        let meta = game.meta();
        let key = |i| position(i).and_then(|p| game.key(p)).unwrap_or(u64::MAX);
        let Some(path) = &self.save else {
            return Ok(None);
        };
        let summary = times.time("save", || {
            bars.spin("save", || {
                self.writer(meta).stage_keyed(files, path, n, key, value)
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

/// Bytes a record that reading a whole database back holds
/// (`Database::values`): its outcome, and its remoteness as a `u32` at most.
pub const VALUES_BYTES_PER_RECORD: u64 = 5;

/// Bytes a position that reading a sparse game's database back by key
/// holds at its peak (`Database::values_by_key`): every record read
/// ([`VALUES_BYTES_PER_RECORD`]), each position's value looked up (12),
/// and the values laid out in the game's order (5).
pub const VALUES_BY_KEY_BYTES_PER_POSITION: u64 = VALUES_BYTES_PER_RECORD + 12 + 5;

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

/// Reads a text parameter of the header.
fn param<'m>(db: &'m Database, key: &str) -> Result<&'m str> {
    db.meta()
        .params
        .get(key)
        .map(String::as_str)
        .with_context(|| {
            format!(
                "{}: the header gives no {key:?}, which a {} database needs",
                common::shown(db.path()),
                db.meta().game
            )
        })
}

/// The game a database was written for, rebuilt from its header.
pub fn game(db: &Database) -> Result<Box<dyn Playable + '_>> {
    use retrograde::games::{chess, cop_thief, dobutsu, teeko};
    let meta = db.meta();
    let flag = |key: &str| -> Result<bool> { Ok(param(db, key)? == "true") };
    Ok(match meta.game.as_str() {
        "graph" => Box::new(StoredGraph::new(db)?),
        "chess" => {
            let ending = chess::Ending::from_name(&meta.variant).with_context(|| {
                format!("{}: unknown chess ending {:?}", common::shown(db.path()), meta.variant)
            })?;
            Box::new(chess::Endgame::new(ending, flag("symmetry")?))
        }
        "dobutsu" => {
            let (start, sente) = dobutsu::notation::parse(param(db, "start")?)?;
            let capture = match param(db, "capture")? {
                "terminal" => dobutsu::Capture::Terminal,
                _ => dobutsu::Capture::Played,
            };
            Box::new(dobutsu::Rules::new(start, sente, flag("symmetry")?, capture))
        }
        "teeko" => Box::new(teeko::Teeko::new()),
        "tic-tac-toe" => Box::new(TicTacToe(crate::game::tutorial::TicTacToe {
            symmetry: flag("symmetry")?,
        })),
        "cop-thief" => {
            let name = meta.params.get("path").map_or("board", String::as_str);
            let board = cop_thief::Board::parse(param(db, "board")?.as_bytes(), name)?;
            Box::new(cop_thief::CopThief::new(board)?)
        }
        other => anyhow::bail!(
            "{}: a database of {other:?}, a game this build does not know \
             (a game of the library's users is probed through the library: retrograde::play::Probe)",
            common::shown(db.path())
        ),
    })
}

/// Tic-tac-toe as people play it: the rows from the top (`x`, `o`, `.`)
/// joined by `/`; a move is named by the cell marked, `a1` to `c3` (column,
/// row from the bottom).
pub struct TicTacToe(pub crate::game::tutorial::TicTacToe);

use crate::game::tutorial::Board as Ttt;

impl TicTacToe {
    fn board(p: u64) -> Option<Ttt> {
        if p >= 3u64.pow(9) {
            return None;
        }
        let mut cells = [0u8; 9];
        let mut x = p;
        for c in &mut cells {
            *c = (x % 3) as u8;
            x /= 3;
        }
        Some(Ttt(cells))
    }

    pub fn code(b: &Ttt) -> u64 {
        b.0.iter().rev().fold(0, |n, &c| n * 3 + u64::from(c))
    }

    /// 1 when X is to move, 2 for O.
    fn mover(b: &Ttt) -> u8 {
        let marks = b.0.iter().filter(|&&c| c != 0).count();
        if marks % 2 == 0 {
            1
        } else {
            2
        }
    }
}

impl Playable for TicTacToe {
    fn meta(&self) -> Meta {
        Meta::new("tic-tac-toe").param("symmetry", self.0.symmetry)
    }

    fn start(&self) -> Option<u64> {
        Some(0)
    }

    fn parse(&self, text: &str) -> Result<u64, NotationError> {
        let err = |what: &str| NotationError {
            game: "tic-tac-toe".into(),
            text: text.into(),
            what: format!(
                "{what} (expected three rows of x, o and . from the top, as in \"x../.o./...\")"
            ),
        };
        let rows: Vec<&str> = text.trim().split('/').collect();
        if rows.len() != 3 || rows.iter().any(|r| r.chars().count() != 3) {
            return Err(err("not three rows of three cells"));
        }
        let mut cells = [0u8; 9];
        for (i, ch) in rows.concat().chars().enumerate() {
            cells[i] = match ch.to_ascii_lowercase() {
                '.' => 0,
                'x' => 1,
                'o' => 2,
                _ => return Err(err("a cell is not x, o or .")),
            };
        }
        let (x, o) = (
            cells.iter().filter(|&&c| c == 1).count(),
            cells.iter().filter(|&&c| c == 2).count(),
        );
        if x != o && x != o + 1 {
            return Err(err("X moves first: X has as many marks as O or one more"));
        }
        Ok(TicTacToe::code(&Ttt(cells)))
    }

    fn notation(&self, p: u64) -> String {
        let Some(b) = TicTacToe::board(p) else {
            return format!("no position ({p})");
        };
        let rows: Vec<String> =
            b.0.chunks(3)
                .map(|r| r.iter().map(|&c| ['.', 'x', 'o'][c as usize]).collect())
                .collect();
        rows.join("/")
    }

    fn board(&self, p: u64) -> String {
        let Some(b) = TicTacToe::board(p) else {
            return format!("no position ({p})\n");
        };
        let mut out = String::new();
        for (r, row) in b.0.chunks(3).enumerate() {
            out.push(char::from(b'3' - r as u8));
            for &c in row {
                out.push(' ');
                out.push(['.', 'X', 'O'][c as usize]);
            }
            out.push('\n');
        }
        out.push_str("  a b c\n");
        out
    }

    fn to_move(&self, p: u64) -> String {
        match TicTacToe::board(p).map(|b| TicTacToe::mover(&b)) {
            Some(1) => "X".into(),
            Some(_) => "O".into(),
            None => "nobody".into(),
        }
    }

    fn moves(&self, p: u64) -> Vec<(String, u64)> {
        let Some(b) = TicTacToe::board(p) else {
            return Vec::new();
        };
        if self.0.terminal(&b).is_some() {
            return Vec::new();
        }
        let mut out = Vec::new();
        self.0.for_each_move(&b, |after| {
            let cell = (0..9).find(|&i| b.0[i] != after.0[i]).unwrap_or(0);
            let name = format!("{}{}", char::from(b'a' + (cell % 3) as u8), 3 - cell / 3);
            out.push((name, TicTacToe::code(&after)));
        });
        out
    }

    fn key(&self, p: u64) -> Option<u64> {
        TicTacToe::board(p).map(|b| TicTacToe::code(&self.0.canonical(b)))
    }
}

/// A graph's database as a graph: its moves (checked whole first: offsets
/// in order, every target a vertex) and the rules it was solved under. The
/// terminal labels are not kept, so a graph solved with some is refused.
pub fn graph(db: &Database) -> Result<(Vec<(u32, u32)>, retrograde::Rules)> {
    let param = |k: &str| db.meta().params.get(k).map(String::as_str).unwrap_or("");
    if param("labels") != "0" {
        anyhow::bail!(
            "{} was solved with terminal labels, which it does not keep: give the graph \
             and its labels (retrograde verify {} --terminal {} {})",
            common::shown(db.path()),
            param("graph"),
            if param("terminal").is_empty() {
                "LABELS"
            } else {
                param("terminal")
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
