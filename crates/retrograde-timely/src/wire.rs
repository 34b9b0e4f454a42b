//! What the engine's workers send one another, and how each message is
//! checked on arrival: [`Move`] (a decided successor, to its predecessor's
//! owner), [`Report`] (a shard read), [`Chunk`] (results for worker 0) and
//! [`WireError`] (an input error as the other workers learn it).

use serde::{Deserialize, Serialize};

use crate::channel::{Checked, digest_bytes, digest_words};
use crate::error::Error;

/// "Your successor `succ` is decided, with state code `code`": sent to the
/// owner of `pred`. `succ == NONE` is a heartbeat instead: the sender still
/// had work this round.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub(crate) struct Move {
    pub(crate) pred: u32,
    pub(crate) succ: u32,
    pub(crate) code: u8,
}

impl Checked for Move {
    fn digest(&self) -> u32 {
        digest_words([
            u64::from(self.pred),
            u64::from(self.succ),
            u64::from(self.code),
        ])
    }
}

impl Checked for Report {
    fn digest(&self) -> u32 {
        let error = self
            .error
            .as_ref()
            .map_or(0, |e| u64::from(digest_bytes(format!("{e:?}").as_bytes())));
        digest_words([
            u64::from(self.to),
            u64::from(self.from),
            self.vertices,
            self.edges,
            error,
            self.overflow.map_or(u64::MAX, u64::from),
        ])
    }
}

impl Checked for Chunk {
    fn digest(&self) -> u32 {
        let words = |v: &[u32]| {
            let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
            u64::from(digest_bytes(&bytes))
        };
        digest_words([
            u64::from(self.worker),
            u64::from(self.start),
            u64::from(digest_bytes(&self.outcomes)),
            words(&self.remoteness),
            words(&self.best),
        ])
    }
}

/// An input error, in a form that travels between processes.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) enum WireError {
    /// A parse error at a line: rebuilt as the same error.
    Parse {
        path: String,
        line: u64,
        message: String,
    },
    /// A parse error at a byte of a binary input: rebuilt as the same error.
    Byte {
        path: String,
        byte: u64,
        message: String,
    },
    /// A word where a vertex id was expected: rebuilt as the same error.
    Named {
        path: String,
        line: u64,
        expected: String,
        found: String,
    },
    /// An edge naming a vertex out of range: rebuilt as the same error.
    Vertex { vertex: u64, vertices: Option<u64> },
    /// Anything else, as its message.
    Other(String),
}

impl WireError {
    pub(crate) fn new(e: &retrograde::Error) -> WireError {
        match e {
            retrograde::Error::Parse {
                path,
                location: retrograde::Location::Line(line),
                message,
            } => WireError::Parse {
                path: path.display().to_string(),
                line: *line,
                message: message.clone(),
            },
            retrograde::Error::Parse {
                path,
                location: retrograde::Location::Byte(byte),
                message,
            } => WireError::Byte {
                path: path.display().to_string(),
                byte: *byte,
                message: message.clone(),
            },
            retrograde::Error::NamedVertex {
                path,
                location: retrograde::Location::Line(line),
                expected,
                found,
            } => WireError::Named {
                path: path.display().to_string(),
                line: *line,
                expected: expected.clone(),
                found: found.clone(),
            },
            retrograde::Error::VertexOutOfRange {
                vertex, vertices, ..
            } => WireError::Vertex {
                vertex: *vertex,
                vertices: *vertices,
            },
            other => WireError::Other(other.to_string()),
        }
    }

    pub(crate) fn into_error(self) -> Error {
        match self {
            WireError::Parse {
                path,
                line,
                message,
            } => Error::Input(retrograde::Error::at_line(path, line, message)),
            WireError::Byte {
                path,
                byte,
                message,
            } => Error::Input(retrograde::Error::at_byte(path, byte, message)),
            WireError::Named {
                path,
                line,
                expected,
                found,
            } => Error::Input(retrograde::Error::NamedVertex {
                path: path.into(),
                location: retrograde::Location::Line(line),
                expected,
                found,
            }),
            WireError::Vertex { vertex, vertices } => {
                Error::Input(retrograde::Error::VertexOutOfRange {
                    what: retrograde::Naming::Edge,
                    vertex,
                    vertices,
                })
            }
            WireError::Other(message) => Error::PeerInput { message },
        }
    }
}

/// What each worker tells every other once its shard is read.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Report {
    pub(crate) to: u32,
    pub(crate) from: u32,
    /// The largest id seen + 1 (0 if none).
    pub(crate) vertices: u64,
    pub(crate) edges: u64,
    pub(crate) error: Option<WireError>,
    /// A vertex of this worker with too many moves for a `u32` counter.
    pub(crate) overflow: Option<u32>,
}

/// A slice of one worker's results, for worker 0.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Chunk {
    pub(crate) worker: u32,
    pub(crate) start: u32,
    pub(crate) outcomes: Vec<u8>,
    pub(crate) remoteness: Vec<u32>,
    pub(crate) best: Vec<u32>,
}

pub(crate) const CHUNK: usize = 1 << 16;
