//! The library's error type: every failure names where it happened.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use crate::memory::human_bytes;

/// A path for a one-line message: as it is, or quoted with Rust's escapes
/// if it holds a control character (a newline in a name would split the
/// message) or is not valid UTF-8.
///
/// ```
/// use std::path::Path;
/// use retrograde::io::paths::shown;
/// assert_eq!(shown(Path::new("g.txt")), "g.txt");
/// assert_eq!(shown(Path::new("a\nb.txt")), "\"a\\nb.txt\"");
/// ```
pub fn shown(path: &Path) -> String {
    match path.to_str() {
        Some(s) if !s.chars().any(char::is_control) => s.to_string(),
        _ => format!("{:?}", path.as_os_str()),
    }
}

/// Where in an input a problem was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// A 1-based line of a text input.
    Line(u64),
    /// A byte offset into a binary input.
    Byte(u64),
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Line(l) => write!(f, "line {l}"),
            Location::Byte(b) => write!(f, "byte {b}"),
        }
    }
}

/// Everything that can go wrong reading input or building a graph.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The file could not be opened, read or written.
    #[error("{}: {source}", shown(path))]
    Io {
        /// The file (`-` for standard input).
        path: PathBuf,
        /// What the operating system said.
        source: io::Error,
    },
    /// The input does not follow its format.
    #[error("{}:{location}: {message}", shown(path))]
    Parse {
        /// The file (`-` for standard input).
        path: PathBuf,
        /// Where the problem is.
        location: Location,
        /// What was expected and what was found.
        message: String,
    },
    /// An owners file ([`io::owners`](crate::io::owners)) without a line
    /// for some vertex.
    #[error(
        "{}: vertex {vertex} has no owner (every vertex needs a line `vertex 0|1`)",
        shown(path)
    )]
    NoOwner {
        /// The owners file.
        path: PathBuf,
        /// The first vertex without an owner (its name, for named vertices).
        vertex: String,
    },
    /// Owners for a graph of another size.
    #[error("{owners} owners for a graph of {vertices} vertices")]
    OwnerCount {
        /// Owners given.
        owners: u64,
        /// The graph's vertices.
        vertices: u64,
    },
    /// A word where a line's vertex id (a number) was expected: the
    /// input names its vertices, and is read as such by
    /// [`io::names`](crate::io::names).
    #[error("{}:{location}: expected {expected}, found {found:?}", shown(path))]
    NamedVertex {
        /// The file (`-` for standard input).
        path: PathBuf,
        /// Where the word is.
        location: Location,
        /// What was expected (`a vertex id (a decimal number)`).
        expected: String,
        /// The word (its first 20 bytes, in a text file's fields).
        found: String,
    },
    /// The run would need more memory than allowed.
    #[error("a graph of {vertices} vertices and {edges} edges would need about {} of memory, more than the {} allowed", human_bytes(*needed), human_bytes(*limit))]
    TooLarge {
        /// The vertices (positions) the run would hold.
        vertices: u64,
        /// The edges (moves) the run would hold.
        edges: u64,
        /// Bytes the run would need.
        needed: u64,
        /// Bytes allowed.
        limit: u64,
    },
    /// A run would need more memory than allowed: `what` says what would
    /// need it (`Teeko's 172,401,726 positions`).
    #[error("{what} would need about {} of memory, more than the {} allowed", human_bytes(*needed), human_bytes(*limit))]
    OverMemory {
        /// What would need it.
        what: String,
        /// Bytes it would need.
        needed: u64,
        /// Bytes allowed.
        limit: u64,
    },
    /// An exploration stopped before it found every position: those found
    /// so far would already need more memory than allowed.
    #[error("exploring the game: the {found} positions and {moves} moves found so far (not all: the game has more) would already need about {} of memory, more than the {} allowed", human_bytes(*needed), human_bytes(*limit))]
    ExplorationTooLarge {
        /// The positions found so far.
        found: u64,
        /// The moves found so far.
        moves: u64,
        /// Bytes they would need.
        needed: u64,
        /// Bytes allowed.
        limit: u64,
    },
    /// More vertices (positions) than `u32` ids can number.
    #[error("{vertices} vertices is more than the {} that u32 ids allow", u32::MAX)]
    TooManyVertices {
        /// How many there would be.
        vertices: u64,
    },
    /// A vertex id at or past the vertex count (or, without one, the id
    /// `u32::MAX`, which numbers no vertex).
    #[error("{}", match vertices {
        Some(n) => format!("{what} names vertex {vertex}, but the graph has {n} vertices"),
        None => format!("{what} names vertex {vertex}, larger than the largest id {}", u32::MAX - 1),
    })]
    VertexOutOfRange {
        /// What named it.
        what: Naming,
        /// The id.
        vertex: u64,
        /// The vertex count, if fixed.
        vertices: Option<u64>,
    },
    /// A position with more moves in or out than a `u32` counter holds.
    #[error("vertex {vertex} has more than {} moves in or out", u32::MAX - 1)]
    TooManyMoves {
        /// The position.
        vertex: u32,
    },
    /// An [`EdgeSource`](crate::EdgeSource) reported different edges on its two passes.
    #[error("the edge source changed between its two passes")]
    SourceChanged,
    /// A stream (standard input, a pipe, a device) holds more than may be read into memory.
    #[error("{}: holds more than the {} that may be read into memory (a stream is read whole; give a file, or raise the limit)", shown(path), human_bytes(*limit))]
    StreamTooLarge {
        /// The stream's name (`-` for standard input).
        path: PathBuf,
        /// Bytes allowed.
        limit: u64,
    },
    /// A game's moves were not the same when generated again (they must
    /// depend on the position only).
    #[error("the game's moves changed when generated again: they must depend on the position only")]
    MovesChanged,
    /// A game that numbers its positions ([`StateGame::encode`]) whose
    /// [`StateGame::decode`] does not give back the position numbered `code`.
    ///
    /// [`StateGame::encode`]: crate::StateGame::encode
    /// [`StateGame::decode`]: crate::StateGame::decode
    #[error(
        "the game's decode does not give back the position its encode numbered {code}: decode(encode(p)) must be p"
    )]
    BadNumber {
        /// The number.
        code: u64,
    },
    /// A game that numbers its start positions ([`StateGame::encode`]) but
    /// not `position`, one its moves reach.
    ///
    /// [`StateGame::encode`]: crate::StateGame::encode
    #[error(
        "the game numbers its starts (encode) but not {position}: it must number every position, or none"
    )]
    NotNumbered {
        /// The position, in the game's notation.
        position: String,
    },
    /// A solve, or a solution checked against a game, whose inputs do not fit together.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// Flat solution arrays that cannot be a solution.
    #[error("{0}")]
    Arrays(#[from] ArraysError),
    /// The binary format is little-endian and this machine is not.
    #[error("the binary format needs a little-endian machine")]
    BigEndian,
    /// A position asked about is not a position of the game.
    #[error("{0} is not a position of the game")]
    NotAPosition(String),
}

/// Why a solve (or a solution held against a game) cannot go on: the inputs
/// are each valid but do not fit together. The only errors a solver returns.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SolveError {
    /// A terminal label names a vertex the graph does not have.
    #[error("terminal label names vertex {vertex}, but the graph has {vertices} vertices")]
    LabelOutOfRange {
        /// The largest labelled vertex.
        vertex: u32,
        /// The graph's vertex count.
        vertices: u64,
    },
    /// A game with more positions than `u32` ids can number.
    #[error(
        "{positions} positions is more than the {} that u32 ids allow",
        u32::MAX
    )]
    TooManyPositions {
        /// How many positions the game has.
        positions: u64,
    },
    /// A solution without one entry per position of the game it is checked or used with.
    #[error("the solution has {solution} positions, but the graph has {graph}")]
    SizeMismatch {
        /// Positions in the solution.
        solution: u64,
        /// Positions in the graph.
        graph: u64,
    },
    /// The caller asked the solve to stop ([`Progress::stop`](crate::solve::Progress::stop)).
    #[error("the solve was stopped before it ended")]
    Stopped,
    /// The engine's state would need more memory than the limit allows
    /// ([`Solver::max_memory`](crate::Solver::max_memory)).
    #[error("the {engine} engine would need about {} for {positions} positions, more than the {} allowed", human_bytes(*needed), human_bytes(*limit))]
    OverMemory {
        /// The engine.
        engine: &'static str,
        /// Positions to solve.
        positions: u64,
        /// Bytes it would need.
        needed: u64,
        /// Bytes allowed.
        limit: u64,
    },
    /// The threads asked for could not be started.
    #[error("could not start {threads} threads")]
    Threads {
        /// Threads asked for.
        threads: usize,
    },
    /// The lean engine was asked to solve a graph that gives only its
    /// predecessors: it finds best moves again from the successors.
    #[error(
        "the lean engine needs the graph's successors to find best moves (Csr::with_successors)"
    )]
    LeanNeedsSuccessors,
    /// An engine that needs the moves stored was asked to solve a game on
    /// the dense rung, which stores none.
    #[error(
        "the {engine} engine needs the moves stored; a numbered game is solved by the lean engine"
    )]
    EngineNotForGame {
        /// The engine asked for.
        engine: &'static str,
    },
}

/// What named an out-of-range vertex, for [`Error::VertexOutOfRange`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Naming {
    /// An edge (a move).
    Edge,
    /// A terminal label.
    Label,
    /// A question about one vertex (a query, a line).
    Query,
}

impl fmt::Display for Naming {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Naming::Edge => "edge",
            Naming::Label => "terminal label",
            Naming::Query => "the query",
        })
    }
}

/// Why flat arrays are not a solution ([`Solution::try_from_arrays`](crate::Solution::try_from_arrays)).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ArraysError {
    /// The arrays differ in length.
    #[error(
        "solution arrays differ in length: {outcomes} outcomes, {remoteness} remoteness values, {best} best moves"
    )]
    Lengths {
        /// Entries of the outcome array.
        outcomes: usize,
        /// Entries of the remoteness array.
        remoteness: usize,
        /// Entries of the best-move array.
        best: usize,
    },
    /// An outcome code that names no outcome.
    #[error("solution entry of vertex {vertex}: outcome code {code} is not 0, 1, 2 or 4")]
    Code {
        /// The vertex.
        vertex: u32,
        /// The code.
        code: u8,
    },
    /// A draw with a remoteness, or a decided position without one.
    #[error(
        "solution entry of vertex {vertex}: a draw has no remoteness and every other position has one"
    )]
    Remoteness {
        /// The vertex.
        vertex: u32,
    },
    /// A best move that names no position.
    #[error("solution entry of vertex {vertex}: best move {to} is not a position")]
    Move {
        /// The vertex.
        vertex: u32,
        /// The move's target.
        to: u32,
    },
}

impl Error {
    /// Shorthand for a [`Error::Parse`] at a line.
    pub fn at_line(path: impl Into<PathBuf>, line: u64, message: impl Into<String>) -> Error {
        Error::Parse {
            path: path.into(),
            location: Location::Line(line),
            message: message.into(),
        }
    }

    /// Shorthand for a [`Error::Parse`] at a byte offset.
    pub fn at_byte(path: impl Into<PathBuf>, byte: u64, message: impl Into<String>) -> Error {
        Error::Parse {
            path: path.into(),
            location: Location::Byte(byte),
            message: message.into(),
        }
    }

    /// Shorthand for an [`Error::Io`].
    pub fn io(path: impl Into<PathBuf>, source: io::Error) -> Error {
        Error::Io {
            path: path.into(),
            source,
        }
    }

    /// Where the problem is, for parse errors.
    pub fn location(&self) -> Option<&Location> {
        match self {
            Error::Parse { location, .. } | Error::NamedVertex { location, .. } => Some(location),
            _ => None,
        }
    }

    /// A line's vertex id was expected and `found` was there instead: an
    /// [`Error::NamedVertex`] if it is a word (a letter first, nothing a
    /// message would escape: a name, not binary data or a negative
    /// number), `otherwise` if not.
    pub(crate) fn expected_vertex(
        path: impl Into<PathBuf>,
        location: Location,
        expected: &str,
        found: &str,
        otherwise: impl FnOnce() -> Error,
    ) -> Error {
        let word = found.chars().next().is_some_and(char::is_alphabetic)
            && !format!("{found:?}").contains('\\');
        if word {
            Error::NamedVertex {
                path: path.into(),
                location,
                expected: expected.into(),
                found: found.into(),
            }
        } else {
            otherwise()
        }
    }
}

/// The library's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
