//! The library's error type: every failure names where it happened.

use std::fmt;
use std::io;
use std::path::PathBuf;

/// Where in an input a problem was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Position {
    /// A 1-based line of a text input.
    Line(u64),
    /// A byte offset into a binary input.
    Byte(u64),
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Position::Line(l) => write!(f, "line {l}"),
            Position::Byte(b) => write!(f, "byte {b}"),
        }
    }
}

/// Everything that can go wrong reading input or building a graph.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The file could not be opened, read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file (`-` for standard input).
        path: PathBuf,
        /// What the operating system said.
        source: io::Error,
    },
    /// The input does not follow its format.
    #[error("{path}:{position}: {message}")]
    Parse {
        /// The file (`-` for standard input).
        path: PathBuf,
        /// Where the problem is.
        position: Position,
        /// What was expected and what was found.
        message: String,
    },
    /// The run would need more memory than allowed.
    #[error("{what} would need about {} of memory, more than the {} allowed (see --max-memory)", human_bytes(*needed), human_bytes(*limit))]
    TooLarge {
        /// What was being built.
        what: String,
        /// Bytes the run would need.
        needed: u64,
        /// Bytes allowed.
        limit: u64,
    },
    /// The inputs are individually valid but do not fit together.
    #[error("{0}")]
    Invalid(String),
}

impl Error {
    /// Shorthand for a [`Error::Parse`] at a line.
    pub fn at_line(path: impl Into<PathBuf>, line: u64, message: impl Into<String>) -> Error {
        Error::Parse {
            path: path.into(),
            position: Position::Line(line),
            message: message.into(),
        }
    }

    /// Shorthand for a [`Error::Parse`] at a byte offset.
    pub fn at_byte(path: impl Into<PathBuf>, byte: u64, message: impl Into<String>) -> Error {
        Error::Parse {
            path: path.into(),
            position: Position::Byte(byte),
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
    pub fn position(&self) -> Option<&Position> {
        match self {
            Error::Parse { position, .. } => Some(position),
            _ => None,
        }
    }
}

/// A byte count for people: `1.5 GiB`.
pub fn human_bytes(b: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut x = b as f64;
    let mut i = 0;
    while x >= 1024.0 && i + 1 < UNITS.len() {
        x /= 1024.0;
        i += 1;
    }
    if i == 0 {
        format!("{b} B")
    } else {
        format!("{x:.1} {}", UNITS[i])
    }
}

/// The library's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
