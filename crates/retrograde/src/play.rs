//! Games as people play them: positions in the game's notation, moves by
//! name, a board to look at, and the key under which a [database](crate::db)
//! keeps each position's record. What `query` and `play` need of a game,
//! whatever the game.
//!
//! A position is a `u64` of the game's own choosing: the board as played,
//! before any symmetry is folded (so that moves can be named as played);
//! [`Playable::key`] folds it to the record's key.
//!
//! ```
//! use retrograde::db::Meta;
//! use retrograde::play::{NotationError, Playable};
//! use retrograde::registry::Entry;
//! use retrograde::StateGame;
//!
//! /// Take 1 or 2 counters from a pile; who cannot move loses.
//! struct Pile(u8);
//! impl StateGame for Pile {
//!     type Position = u8;
//!     fn starts(&self) -> Vec<u8> { vec![self.0] }
//!     fn for_each_move<F: FnMut(u8)>(&self, p: &u8, mut f: F) {
//!         (1..=2).filter(|&k| k <= *p).for_each(|k| f(p - k));
//!     }
//!     fn encode(&self, p: &u8) -> Option<u64> { Some(u64::from(*p)) }
//!     fn decode(&self, code: u64) -> Option<u8> { u8::try_from(code).ok().filter(|&p| p <= self.0) }
//!     fn parse(&self, text: &str) -> Result<u8, NotationError> {
//!         text.parse().map_err(|e| NotationError::invalid("pile", text, e))
//!     }
//!     fn move_name(&self, p: &u8, q: &u8) -> String { format!("take {}", p - q) }
//! }
//!
//! let pile = Entry::state_game("pile", "Take 1 or 2.", |_| Ok(Pile(7)))
//!     .open(&Meta::new("pile"))
//!     .unwrap();
//! let p = pile.parse("7").unwrap();
//! assert_eq!(pile.start(), Some(p));
//! assert!(pile.moves(p).iter().any(|(name, _)| name == "take 2"));
//! ```

use std::borrow::Borrow;

use crate::db::{Database, DbError, Meta};
use crate::io::names::Names;
use crate::{Player, Value, kernel};

/// Text that is not a position of the game.
///
/// ```
/// use retrograde::play::NotationError;
/// let e = NotationError::invalid("pile", "x", "x".parse::<u8>().unwrap_err());
/// assert!(e.kind::<std::num::ParseIntError>().is_some());
/// assert_eq!(e.to_string(), "\"x\" is not a position of pile: invalid digit found in string");
/// ```
#[derive(Debug, thiserror::Error)]
#[error("{text:?} is not a position of {game}: {fault}")]
pub struct NotationError {
    /// The game.
    pub game: String,
    /// The text as given.
    pub text: String,
    /// What is wrong with it.
    pub fault: NotationFault,
}

impl NotationError {
    /// `text` is not a position of `game`, for `fault`.
    pub fn new(game: impl Into<String>, text: impl Into<String>, fault: NotationFault) -> Self {
        NotationError {
            game: game.into(),
            text: text.into(),
            fault,
        }
    }

    /// `text` does not spell a position of `game`, for the parser's own
    /// `kind` of fault ([`NotationFault::Invalid`]): an error type with a
    /// variant a fault, or a message (`"expected a number"`).
    pub fn invalid(
        game: impl Into<String>,
        text: impl Into<String>,
        kind: impl Into<Box<dyn std::error::Error + Send + Sync>>,
    ) -> Self {
        NotationError::new(game, text, NotationFault::Invalid(kind.into()))
    }

    /// The parser's fault as its own type `K` (a game's kind of fault, such
    /// as chess's `FenErrorKind` in the `retrograde-games` crate), to
    /// match on; `None` when the text was refused for another reason
    /// ([`NotationFault::Unsupported`], [`NotationFault::Unnumbered`]) or
    /// by a parser whose faults are of another type.
    pub fn kind<K: std::error::Error + 'static>(&self) -> Option<&K> {
        match &self.fault {
            NotationFault::Invalid(kind) => kind.downcast_ref(),
            _ => None,
        }
    }
}

/// Why a text is not a position.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum NotationFault {
    /// The game reads no positions: it does not implement
    /// [`StateGame::parse`](crate::StateGame::parse).
    #[error("the game reads no positions")]
    Unsupported,
    /// The game does not number its positions
    /// ([`StateGame::encode`](crate::StateGame::encode)), so no position
    /// can be looked up in a database.
    #[error("the game does not number its positions")]
    Unnumbered,
    /// The text does not spell a position: the parser's own error, which
    /// says what is wrong and what was expected, one variant a fault (the
    /// built-in games' `FenErrorKind`, `SfenErrorKind`, `TeekoErrorKind`,
    /// `PositionErrorKind` in the `retrograde-games` crate,
    /// a graph's [`GraphErrorKind`]; [`NotationError::kind`] gives it back as
    /// its type). A game of one's own may give any error, or a message.
    #[error("{0}")]
    Invalid(Box<dyn std::error::Error + Send + Sync>),
}

/// Why a text is not a vertex of a graph kept in a database
/// ([`StoredGraph`]'s [`Playable::parse`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GraphErrorKind {
    /// The text is not a number.
    #[error("expected a vertex id (a number)")]
    NotAVertexId,
    /// The text is no position's name, nor a number.
    #[error("expected a position's name or a vertex id (a number)")]
    UnknownName,
}

/// A game that can be read, shown and played by name.
pub trait Playable: Sync {
    /// What the game is, as its database's header names it.
    fn meta(&self) -> Meta;

    /// Where play starts, if the game has one start.
    fn start(&self) -> Option<u64>;

    /// A position from the game's notation.
    ///
    /// # Errors
    /// Text that does not spell a position.
    fn parse(&self, text: &str) -> Result<u64, NotationError>;

    /// `p` in the game's notation (what [`Playable::parse`] reads back).
    fn notation(&self, p: u64) -> String;

    /// `p` drawn for a terminal, as lines of text (the notation by default).
    fn board(&self, p: u64) -> String {
        self.notation(p)
    }

    /// Who is to move at `p`, in the game's words (`white`, `Sente`, `X`).
    fn to_move(&self, p: u64) -> String;

    /// How the game ended at `p`, a position where it is over (terminal,
    /// or without moves), in the game's words: who won and why
    /// (`"checkmate: white wins"`, `"three in a row: X wins"`,
    /// `"the board is full: a tie"`). The tools show it when a game played
    /// reaches `p`. `None` (the default) where the game does not say, or
    /// play goes on.
    fn ending(&self, _p: u64) -> Option<String> {
        None
    }

    /// `p` as a board of places and pieces for the tools that draw it
    /// (the explorer page): see [`Drawing`](crate::drawing::Drawing).
    /// `None` (the default) draws the board from its text.
    fn drawing(&self, _p: u64) -> Option<crate::drawing::Drawing> {
        None
    }

    /// Who moves at `p`, for a game where a player may move twice in a
    /// row (see [`GameGraph::owner`](crate::GameGraph::owner)); `None` (the
    /// default) for one that alternates strictly. A move keeps the turn
    /// when both its positions name the same player.
    fn owner(&self, _p: u64) -> Option<Player> {
        None
    }

    /// The moves of `p`, each named as the game writes moves, with the
    /// position it leads to; none when the game is over at `p`. A move
    /// listed twice is two moves.
    ///
    /// Their order is the game's order of moves: among moves of equal
    /// value the first is the best move ([`Probe::answer`] puts it first).
    /// A game that is also a [`StateGame`](crate::StateGame) lists them in
    /// the order of its `for_each_move`, so that its best lines are those
    /// of its [`StateSolution`](crate::StateSolution); an explicit graph in
    /// increasing vertex id, as the engines' best moves choose (see
    /// [`kernel`] on equal moves).
    fn moves(&self, p: u64) -> Vec<(String, u64)>;

    /// The moves of `p` as a game's record writes them, in the order of
    /// [`Playable::moves`]: by default their names; chess writes standard
    /// algebraic notation (`Rxa2+`, `Nbd7`, `e8=Q#`).
    fn written_moves(&self, p: u64) -> Vec<String> {
        self.moves(p).into_iter().map(|(name, _)| name).collect()
    }

    /// The move of `p` that `text` names, and the position it leads to:
    /// by default a name of [`Playable::moves`], compared without regard to
    /// case; a game may read more (chess reads standard algebraic notation,
    /// `Kb3`, `Rxa2`, beside the long form). `None` if `text` names no move
    /// of `p`, or more than one different move.
    fn find_move(&self, p: u64, text: &str) -> Option<(String, u64)> {
        find_named(self.moves(p), text)
    }

    /// The key of `p`'s record in the game's database; `None` if `p` can be
    /// no position of the game.
    fn key(&self, p: u64) -> Option<u64>;

    /// Whether the record under `key` counts as a position of the game: a
    /// record that only stands for a finished game (the captured lion, the
    /// chess ending's capture) is kept, so that moves to it can be valued,
    /// but not counted: those of [`Playable::uncounted`].
    fn is_counted(&self, key: u64) -> bool {
        !self.uncounted().contains(&key)
    }

    /// The keys of the records that are not counted (see
    /// [`Playable::is_counted`]); none by default.
    fn uncounted(&self) -> Vec<u64> {
        Vec::new()
    }

    /// A position whose record is kept under `key` (the key itself by
    /// default: games whose keys are positions in canonical form).
    fn position_at(&self, key: u64) -> u64 {
        key
    }

    /// The value of `p` where the rules alone give it, the game being over
    /// there (a chess ending's mate, stalemate or bare kings), for a
    /// position its database does not hold (one of another tier); `None`
    /// by default.
    fn settled(&self, _p: u64) -> Option<Value> {
        None
    }

    /// For a game solved tier by tier: the name of the tier the record
    /// under `key` belongs to (its database's variant in a tier directory);
    /// `None` by default.
    fn tier_of(&self, _key: u64) -> Option<String> {
        None
    }
}

/// The move of `moves` named `text`, compared without regard to case (the
/// rule of [`Playable::find_move`]); names that differ only in case are
/// different moves (`Bc4`, `bc4`), and an exact match decides between them.
pub fn find_named(moves: Vec<(String, u64)>, text: &str) -> Option<(String, u64)> {
    let text = text.trim();
    let mut found = moves
        .into_iter()
        .filter(|(name, _)| name.eq_ignore_ascii_case(text));
    let first = found.next()?;
    match found.next() {
        None => Some(first),
        Some(second) => std::iter::once(first)
            .chain(std::iter::once(second))
            .chain(found)
            .find(|(name, _)| name == text),
    }
}

/// A board written as rows of cells (a digit counts empty cells, as FEN
/// writes them) drawn for a terminal: each row on its line after its rank
/// `rank(row)`, cells spaced, `.` for empty, then the `files` line.
pub fn draw_rows(rows: &str, rank: impl Fn(usize) -> char, files: &str) -> String {
    let mut out = String::new();
    for (r, row) in rows.split('/').enumerate() {
        out.push(rank(r));
        out.push(' ');
        for c in row.chars() {
            match c.to_digit(10) {
                Some(n) => (0..n).for_each(|_| out.push_str(" .")),
                None => {
                    out.push(' ');
                    out.push(c);
                }
            }
        }
        out.push('\n');
    }
    out.push_str("   ");
    out.push_str(files);
    out.push('\n');
    out
}

/// A move with what it is worth for the player who makes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveAnswer {
    /// The move, as the game names it.
    pub name: String,
    /// The position it leads to.
    pub to: u64,
    /// Its value for the mover: the outcome there flipped (kept where the
    /// mover moves again), one ply more.
    pub value: Value,
    /// How many plies longer (positive) or shorter (negative) the game
    /// lasts after this move than under best play, when the move keeps the
    /// position's outcome: 0 for a best move, positive for a slower win or
    /// tie, negative for a loss that comes sooner. `None` when the move
    /// changes the outcome (a tie thrown away into a loss, a win into a
    /// draw) or the outcome is a draw: plies of different outcomes do not
    /// compare.
    pub delta: Option<i64>,
}

impl MoveAnswer {
    /// The move `name` to `to` (whose value, for its player to move, is
    /// `after`) played from a position of value `here`: its value for the
    /// mover is [`Value::after`] (`same_player`: whether the mover moves
    /// again at `to`), its delta [`Value::delta`].
    pub fn new(name: String, to: u64, after: Value, same_player: bool, here: Value) -> MoveAnswer {
        let value = after.after(same_player);
        MoveAnswer {
            name,
            to,
            value,
            delta: value.delta(here),
        }
    }
}

/// A position's value and its moves, best first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The position.
    pub position: u64,
    /// Its value for the player to move.
    pub value: Value,
    /// Its moves with their values for the mover, best first: a win
    /// soonest, a tie soonest, a draw, a loss latest; equal moves in the
    /// game's order ([`Playable::moves`]), the rule of
    /// [`kernel::best_first`]. The first is the best move.
    pub moves: Vec<MoveAnswer>,
}

/// What a probe can fail on.
#[derive(Debug, thiserror::Error)]
pub enum ProbeError {
    /// The position is not in the database: not a position of the game, or
    /// not reachable from where the game was solved.
    #[error("{position} is not a position of {game}{why}")]
    NotInGame {
        /// The position, in the game's notation.
        position: String,
        /// The game.
        game: String,
        /// Why, when known.
        why: String,
    },
    /// The database is damaged.
    #[error(transparent)]
    Db(#[from] DbError),
}

/// Where a [`Probe`] finds each position's value by its key: a
/// [database](Database), or a solution just made ([`Keyed`]).
pub trait Records: Sync {
    /// The value kept under `key`; `None` if there is none.
    ///
    /// # Errors
    /// A damaged database.
    fn value(&self, key: u64) -> Result<Option<Value>, DbError>;

    /// How many records there are.
    fn len(&self) -> u64;

    /// Whether there are none.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Records for Database {
    fn value(&self, key: u64) -> Result<Option<Value>, DbError> {
        Database::value(self, key)
    }

    fn len(&self) -> u64 {
        self.header().positions
    }
}

/// A solution's values found by their keys: the keys of positions
/// `0..n` sorted once (12 bytes a position), then searched.
#[derive(Debug)]
pub struct Keyed<F> {
    keys: Vec<(u64, u32)>,
    value: F,
}

impl<F: Fn(u32) -> Option<Value> + Sync> Keyed<F> {
    /// Positions `0..n`, position `i` under `key(i)` (none if `None`) and
    /// worth `value(i)`.
    pub fn new(n: u32, key: impl Fn(u32) -> Option<u64>, value: F) -> Keyed<F> {
        let mut keys: Vec<(u64, u32)> = (0..n).filter_map(|i| key(i).map(|k| (k, i))).collect();
        keys.sort_unstable();
        Keyed { keys, value }
    }
}

impl<F: Fn(u32) -> Option<Value> + Sync> Records for Keyed<F> {
    fn value(&self, key: u64) -> Result<Option<Value>, DbError> {
        Ok(self
            .keys
            .binary_search_by_key(&key, |&(k, _)| k)
            .ok()
            .and_then(|j| (self.value)(self.keys[j].1)))
    }

    fn len(&self) -> u64 {
        self.keys.len() as u64
    }
}

/// A game and its records (a database), answering questions about
/// positions.
pub struct Probe<'a> {
    /// The game.
    pub game: &'a dyn Playable,
    /// Its records.
    pub db: &'a dyn Records,
}

impl Probe<'_> {
    /// The positions of the game the database holds, as the game's own
    /// report counts them: its records less those that only stand for a
    /// finished game ([`Playable::uncounted`]).
    ///
    /// # Errors
    /// A damaged database (the record of an uncounted key cannot be read).
    pub fn positions(&self) -> Result<u64, DbError> {
        let mut uncounted = 0u64;
        for k in self.game.uncounted() {
            if self.db.value(k)?.is_some() {
                uncounted += 1;
            }
        }
        Ok(self.db.len().saturating_sub(uncounted))
    }

    /// The value of `p`; `None` if it is no position in the database.
    ///
    /// # Errors
    /// A damaged database.
    pub fn value(&self, p: u64) -> Result<Option<Value>, DbError> {
        let held = match self.game.key(p) {
            Some(k) => self.db.value(k)?,
            None => None,
        };
        Ok(held.or_else(|| self.game.settled(p)))
    }

    /// The value of `p` and of every move, best first; equal moves in the
    /// order of [`Playable::moves`] (see [`kernel`] on equal
    /// moves): the line that follows the first move from each position is
    /// the line of [`StateSolution::line`](crate::StateSolution::line) of a
    /// state game whose moves come in the same order.
    ///
    /// # Errors
    /// [`ProbeError::NotInGame`] if `p` or a position a move reaches has no
    /// record; a damaged database.
    pub fn answer(&self, p: u64) -> Result<Answer, ProbeError> {
        let here = self.known(p)?;
        let owner = self.game.owner(p);
        let mut moves = Vec::new();
        for (name, to) in self.game.moves(p) {
            let same = kernel::same_player(owner, self.game.owner(to));
            moves.push(MoveAnswer::new(name, to, self.known(to)?, same, here));
        }
        kernel::best_first(&mut moves, |m| m.value);
        Ok(Answer {
            position: p,
            value: here,
            moves,
        })
    }

    fn known(&self, p: u64) -> Result<Value, ProbeError> {
        let meta = self.game.meta();
        let key = self.game.key(p);
        let other_tier = key
            .and_then(|k| self.game.tier_of(k))
            .filter(|t| *t != meta.variant);
        self.value(p)?.ok_or_else(|| ProbeError::NotInGame {
            position: self.game.notation(p),
            game: describe(&meta),
            why: match (key, other_tier) {
                (None, _) => String::new(),
                (Some(_), Some(tier)) => format!(
                    " (a position of {tier}, whose database is not beside this one: \
                     query the database in the directory `--tiers DIR` keeps)"
                ),
                (Some(_), None) => " (not reachable from where it was solved)".into(),
            },
        })
    }
}

/// A game's name and variant, for messages: `chess KRK`; the parameter
/// `name` where the header gives one (a graph saved with its game's name).
pub fn describe(meta: &Meta) -> String {
    if let Some(name) = meta.params.get("name").filter(|n| !n.is_empty()) {
        name.clone()
    } else if meta.variant.is_empty() {
        meta.game.clone()
    } else {
        format!("{} {}", meta.game, meta.variant)
    }
}

/// An explicit graph as its database keeps it: positions are vertex ids,
/// or their names where the database keeps names; a move is named by the
/// position it leads to. Its start, if any, is the header's parameter
/// `start` (a vertex id). It borrows its database (`&Database`) or holds
/// it (an `Arc<Database>`, for a caller that keeps the two together).
pub struct StoredGraph<D> {
    db: D,
    names: Option<Names>,
    owners: Option<Vec<Player>>,
}

impl<D: Borrow<Database>> StoredGraph<D> {
    /// The graph kept in `db`, its moves and names checked once here.
    ///
    /// # Errors
    /// `db` keeps no moves, or they or its names are damaged.
    pub fn new(db: D) -> Result<StoredGraph<D>, DbError> {
        let d: &Database = db.borrow();
        if d.header().moves.is_none() {
            return Err(DbError::Header {
                path: d.path().to_path_buf(),
                what: "it keeps no moves (written for a game with rules, not a graph)".into(),
            });
        }
        d.check_moves()?;
        let names = d.names()?;
        let owners = d.owners()?;
        Ok(StoredGraph { db, names, owners })
    }
}

impl<D: Borrow<Database> + Sync> Playable for StoredGraph<D> {
    fn meta(&self) -> Meta {
        self.db.borrow().meta().clone()
    }

    fn start(&self) -> Option<u64> {
        let start = self.db.borrow().meta().params.get("start")?.parse().ok()?;
        (start < self.db.borrow().len()).then_some(start)
    }

    fn parse(&self, text: &str) -> Result<u64, NotationError> {
        let text = text.trim();
        if let Some(v) = self.names.as_ref().and_then(|n| n.id(text)) {
            return Ok(u64::from(v));
        }
        // A number past the graph is read, and found in no record.
        text.parse().map_err(|_| {
            let kind = if self.names.is_some() {
                GraphErrorKind::UnknownName
            } else {
                GraphErrorKind::NotAVertexId
            };
            NotationError::invalid("the graph", text, kind)
        })
    }

    fn notation(&self, p: u64) -> String {
        u32::try_from(p)
            .ok()
            .and_then(|v| self.names.as_ref()?.name(v))
            .filter(|name| !name.is_empty())
            .map_or_else(|| p.to_string(), str::to_string)
    }

    fn to_move(&self, p: u64) -> String {
        match self.owner(p) {
            Some(o) => format!("player {o}"),
            None => "the player".into(),
        }
    }

    fn owner(&self, p: u64) -> Option<Player> {
        self.owners.as_ref()?.get(usize::try_from(p).ok()?).copied()
    }

    fn moves(&self, p: u64) -> Vec<(String, u64)> {
        // Checked in `new`: reading them again cannot fail.
        self.db
            .borrow()
            .moves(p)
            .ok()
            .flatten()
            .unwrap_or_default()
            .into_iter()
            .map(|w| (self.notation(u64::from(w)), u64::from(w)))
            .collect()
    }

    fn key(&self, p: u64) -> Option<u64> {
        (p < self.db.borrow().len()).then_some(p)
    }
}
