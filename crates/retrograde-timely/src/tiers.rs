//! A game's tiers shared among the processes of a cluster: the databases
//! each process solves, sent to every other process over the cluster's
//! connections ([`TierRelay`], a [`TierShare`]).
//!
//! The solving stays with the caller ([`TierSolver::solve_shared`]); the
//! relay is one timely worker per process, on a thread of its own, that
//! carries files. Each round it streams the caller's files to every other
//! process in chunks of [`CHUNK_BYTES`], each sealed with a checksum, and
//! writes the chunks that arrive into a temporary file per file, renamed
//! into place once whole. While its caller computes between rounds, it
//! tells the others every few seconds that it is alive, so that a process
//! waiting for a long tier is not taken for one waiting on a hung peer.
//!
//! [`TierSolver::solve_shared`]: retrograde::tier::TierSolver::solve_shared

use std::collections::HashMap;
use std::io::Read;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use retrograde::tier::TierShare;
use serde::{Deserialize, Serialize};
use timely::worker::Worker;

use crate::channel::{Channel, Checked, Watch, digest_bytes, digest_words};
use crate::error::{Error, Result};
use crate::{Config, Timings};

/// The bytes of a file sent in one message.
pub const CHUNK_BYTES: usize = 1 << 20;

/// How often a process between rounds tells the others it is alive.
const HEARTBEAT: Duration = Duration::from_secs(5);

/// What travels between the relays.
#[derive(Clone, Debug, Serialize, Deserialize)]
enum Piece {
    /// Process `from` is alive, computing.
    Beat { to: u32, from: u32 },
    /// `bytes` of `file` at `offset`, of `total` bytes, from process `from`.
    Chunk {
        to: u32,
        from: u32,
        file: String,
        offset: u64,
        total: u64,
        bytes: Vec<u8>,
    },
}

impl Piece {
    fn to(&self) -> u64 {
        match self {
            Piece::Beat { to, .. } | Piece::Chunk { to, .. } => u64::from(*to),
        }
    }
}

impl Checked for Piece {
    fn digest(&self) -> u32 {
        match self {
            Piece::Beat { to, from } => digest_words([0, u64::from(*to), u64::from(*from)]),
            Piece::Chunk {
                to,
                from,
                file,
                offset,
                total,
                bytes,
            } => digest_words([
                1,
                u64::from(*to),
                u64::from(*from),
                u64::from(digest_bytes(file.as_bytes())),
                *offset,
                *total,
                u64::from(digest_bytes(bytes)),
            ]),
        }
    }
}

/// One round asked of the relay.
struct Request {
    dir: PathBuf,
    sent: Vec<PathBuf>,
    last: bool,
}

type Reply = std::result::Result<Vec<(String, usize)>, String>;

/// The relay's thread, and what its run returns.
type Relaying = JoinHandle<Result<(Option<()>, Timings)>>;

/// The relay's ends of the channels to its caller, taken by the one worker.
type Ends = Arc<Mutex<Option<(Receiver<Request>, Sender<Reply>)>>>;

/// A [`TierShare`] over a cluster: this process's relay, connected to the
/// relays of the others. Start one in every process with the same host
/// list ([`TierRelay::start`]), hand it to
/// [`TierSolver::solve_shared`](retrograde::tier::TierSolver::solve_shared),
/// then [`TierRelay::finish`].
///
/// ```
/// use retrograde::tier::{TierSolver, TieredGame};
/// use retrograde::StateGame;
/// use retrograde_timely::{Config, TierRelay};
///
/// /// Take 1 or 2 from a pile of up to 9; a tier is a third of the pile.
/// struct Pile;
/// impl StateGame for Pile {
///     type Position = u8;
///     fn starts(&self) -> Vec<u8> { vec![9] }
///     fn for_each_move<F: FnMut(u8)>(&self, p: &u8, mut f: F) {
///         (1..=2).filter(|&k| k <= *p).for_each(|k| f(p - k));
///     }
///     fn encode(&self, p: &u8) -> Option<u64> { Some(u64::from(*p)) }
///     fn decode(&self, c: u64) -> Option<u8> { u8::try_from(c).ok().filter(|&p| p <= 9) }
/// }
/// impl TieredGame for Pile {
///     type Tier = u8;
///     fn tier(&self, p: &u8) -> u8 { p / 3 }
///     fn child_tiers(&self, t: &u8) -> Vec<u8> { (t.saturating_sub(1)..*t).collect() }
///     fn tier_positions(&self, t: &u8) -> Vec<u8> { (t * 3..t * 3 + 3).filter(|&p| p <= 9).collect() }
///     fn tier_name(&self, t: &u8) -> String { format!("third{t}") }
/// }
///
/// // Two processes of a cluster on this machine, each a thread here.
/// let ports: Vec<String> = (0..2)
///     .map(|_| std::net::TcpListener::bind("127.0.0.1:0").unwrap())
///     .map(|l| format!("127.0.0.1:{}", l.local_addr().unwrap().port()))
///     .collect();
/// let runs: Vec<_> = (0..2)
///     .map(|process| {
///         let ports = ports.clone();
///         std::thread::spawn(move || {
///             let relay = TierRelay::start(&Config::cluster(ports, process, 1)).unwrap();
///             let dir = tempfile::tempdir().unwrap();
///             let (run, root) = TierSolver::new(dir.path())
///                 .solve_shared(&Pile, &3, &relay)
///                 .unwrap();
///             relay.finish().unwrap();
///             let value = root.map(|r| r.value(&9).unwrap());
///             (run.tiers.len(), value)
///         })
///     })
///     .collect();
/// let done: Vec<_> = runs.into_iter().map(|r| r.join().unwrap()).collect();
/// // Process 0 holds the three tiers below and the root, and 9 loses in 6.
/// assert_eq!(done[0].0, 4);
/// assert_eq!(done[0].1.unwrap().remoteness, Some(6));
/// // Process 1 holds the three tiers below.
/// assert_eq!((done[1].0, done[1].1), (3, None));
/// ```
pub struct TierRelay {
    processes: usize,
    process: usize,
    requests: Mutex<Option<Sender<Request>>>,
    replies: Mutex<Receiver<Reply>>,
    thread: Mutex<Option<Relaying>>,
}

impl TierRelay {
    /// Starts this process's relay, one worker thread connecting to the
    /// other processes of `config` (its threads per process are ignored:
    /// a relay is one worker).
    ///
    /// # Errors
    /// A bad configuration (no hosts, a process out of range); a thread
    /// that cannot be started. Peers that cannot be reached fail the first
    /// [`TierShare::exchange`].
    pub fn start(config: &Config) -> Result<TierRelay> {
        let config = Config {
            threads: 1,
            ..config.clone()
        };
        config.check()?;
        let (request_tx, request_rx) = mpsc::channel::<Request>();
        let (reply_tx, reply_rx) = mpsc::channel::<Reply>();
        let ends: Ends = Arc::new(Mutex::new(Some((request_rx, reply_tx))));
        let (processes, process) = (config.processes(), config.process());
        let thread = std::thread::Builder::new()
            .name("retrograde:tier-relay".into())
            .spawn(move || {
                crate::run(&config, move |worker, watch, abort| {
                    let taken = ends.lock().ok().and_then(|mut e| e.take());
                    match taken {
                        Some((requests, replies)) => {
                            relay(worker, watch, abort, &requests, &replies).map(Some)
                        }
                        None => Ok(None),
                    }
                })
            })
            .map_err(|e| Error::Failed {
                message: format!("starting the tier relay: {e}"),
            })?;
        Ok(TierRelay {
            processes,
            process,
            requests: Mutex::new(Some(request_tx)),
            replies: Mutex::new(reply_rx),
            thread: Mutex::new(Some(thread)),
        })
    }

    /// Waits for the relay to end (after the last round) and returns how
    /// long connecting and the rounds took.
    ///
    /// # Errors
    /// Whatever stopped the relay.
    pub fn finish(self) -> Result<Timings> {
        drop(self.requests.lock().map(|mut r| r.take()));
        self.join().map(|(_, t)| t)
    }

    fn join(&self) -> Result<(Option<()>, Timings)> {
        let thread = self.thread.lock().ok().and_then(|mut t| t.take());
        match thread.map(JoinHandle::join) {
            Some(Ok(r)) => r,
            Some(Err(_)) => Err(Error::Failed {
                message: "the tier relay stopped".into(),
            }),
            None => Err(Error::Failed {
                message: "the tier relay has already ended".into(),
            }),
        }
    }
}

impl TierShare for TierRelay {
    fn processes(&self) -> usize {
        self.processes
    }

    fn process(&self) -> usize {
        self.process
    }

    fn exchange(
        &self,
        dir: &Path,
        sent: &[PathBuf],
        last: bool,
    ) -> std::result::Result<Vec<(String, usize)>, Box<dyn std::error::Error + Send + Sync>> {
        let request = Request {
            dir: dir.to_path_buf(),
            sent: sent.to_vec(),
            last,
        };
        let asked = self
            .requests
            .lock()
            .ok()
            .and_then(|r| r.as_ref().map(|r| r.send(request).is_ok()))
            .unwrap_or(false);
        let reply = if asked {
            self.replies.lock().ok().and_then(|r| r.recv().ok())
        } else {
            None
        };
        match reply {
            Some(Ok(got)) => Ok(got),
            Some(Err(message)) => Err(Box::new(Error::Failed { message })),
            // The relay ended without answering: its own error says why.
            None => Err(Box::new(self.join().err().unwrap_or(Error::Failed {
                message: "the tier relay ended early".into(),
            }))),
        }
    }
}

/// The relay's loop: a round per request, heartbeats between them, until
/// the last round.
fn relay(
    worker: &mut Worker,
    watch: Watch,
    abort: &AtomicBool,
    requests: &Receiver<Request>,
    replies: &Sender<Reply>,
) -> Result<()> {
    let me = worker.index() as u32;
    let peers = worker.peers() as u32;
    let mut channel: Channel<Piece> = Channel::new(worker, "tiers", Piece::to, watch).pump_every(4);
    let mut incoming = Incoming::default();
    loop {
        match requests.recv_timeout(HEARTBEAT) {
            Ok(request) => {
                let round = exchange(worker, &mut channel, abort, &mut incoming, &request);
                let reply = round.as_ref().map_err(|e| e.to_string()).cloned();
                let _ = replies.send(reply);
                round?;
                if request.last {
                    return Ok(());
                }
            }
            Err(RecvTimeoutError::Timeout) => {
                for to in (0..peers).filter(|&p| p != me) {
                    channel.send(Piece::Beat { to, from: me });
                }
                channel.pump(worker, abort, |p| incoming.take(p))?;
                incoming.failure()?;
            }
            // The caller stopped without a last round (an error of its
            // own): the others see this process go.
            Err(RecvTimeoutError::Disconnected) => {
                return Err(Error::Failed {
                    message: "this process stopped before the last round".into(),
                });
            }
        }
    }
}

/// One round: every file of `request` to every other process, and theirs
/// written into the request's directory.
fn exchange(
    worker: &mut Worker,
    channel: &mut Channel<Piece>,
    abort: &AtomicBool,
    incoming: &mut Incoming,
    request: &Request,
) -> Result<Vec<(String, usize)>> {
    let me = worker.index() as u32;
    let peers = worker.peers() as u32;
    incoming.dir = Some(request.dir.clone());
    for path in &request.sent {
        let file = path
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default();
        let read = |e: std::io::Error| Error::Failed {
            message: format!("reading {}: {e}", path.display()),
        };
        let mut f = std::fs::File::open(path).map_err(read)?;
        let total = f.metadata().map_err(read)?.len();
        let mut offset = 0u64;
        loop {
            let mut bytes = vec![0u8; CHUNK_BYTES.min((total - offset) as usize)];
            f.read_exact(&mut bytes).map_err(read)?;
            let len = bytes.len() as u64;
            for to in (0..peers).filter(|&p| p != me) {
                channel.send(Piece::Chunk {
                    to,
                    from: me,
                    file: file.clone(),
                    offset,
                    total,
                    bytes: bytes.clone(),
                });
            }
            offset += len;
            if channel.should_pump() {
                channel.pump(worker, abort, |p| incoming.take(p))?;
                incoming.failure()?;
            }
            if offset >= total {
                break;
            }
        }
    }
    channel.finish_round(worker, abort, |p| incoming.take(p))?;
    incoming.failure()?;
    incoming.round()
}

/// Files arriving: each written at its chunks' offsets into a temporary
/// file in the directory, renamed into place once whole.
#[derive(Default)]
struct Incoming {
    dir: Option<PathBuf>,
    partial: HashMap<(u32, String), Partial>,
    whole: Vec<(String, usize)>,
    failed: Option<Error>,
}

struct Partial {
    file: tempfile::NamedTempFile,
    received: u64,
    total: u64,
}

impl Incoming {
    /// Takes one piece (the first failure is kept for [`Incoming::failure`]).
    fn take(&mut self, piece: Piece) {
        if self.failed.is_some() {
            return;
        }
        if let Err(e) = self.chunk(piece) {
            self.failed = Some(e);
        }
    }

    fn chunk(&mut self, piece: Piece) -> Result<()> {
        let Piece::Chunk {
            from,
            file,
            offset,
            total,
            bytes,
            ..
        } = piece
        else {
            return Ok(());
        };
        if !is_tier_file(&file) {
            return Err(Error::Failed {
                message: format!("process {from} sent a file named {file:?}, which is no tier's"),
            });
        }
        let dir = self.dir.clone().ok_or_else(|| Error::Failed {
            message: format!("process {from} sent {file} before the first round"),
        })?;
        let io = |e: std::io::Error| Error::Failed {
            message: format!(
                "writing {file} from process {from} into {}: {e}",
                dir.display()
            ),
        };
        let key = (from, file.clone());
        if !self.partial.contains_key(&key) {
            // Registered, so that an interrupt removes it; a run stopped
            // harder leaves it for the next run on the directory to clear.
            let f = retrograde::io::temporary_file(&dir, &file).map_err(|e| Error::Failed {
                message: format!("receiving {file} from process {from}: {e}"),
            })?;
            self.partial.insert(
                key.clone(),
                Partial {
                    file: f,
                    received: 0,
                    total,
                },
            );
        }
        let Some(p) = self.partial.get_mut(&key) else {
            return Ok(());
        };
        let end = offset.checked_add(bytes.len() as u64);
        if p.total != total || end.is_none_or(|e| e > total) {
            return Err(Error::Failed {
                message: format!("process {from} sent pieces of {file} that do not fit together"),
            });
        }
        p.file.as_file().write_all_at(&bytes, offset).map_err(io)?;
        p.received += bytes.len() as u64;
        if p.received >= p.total
            && let Some(p) = self.partial.remove(&key)
        {
            p.file.as_file().sync_all().map_err(io)?;
            retrograde::io::persist_temporary(p.file, &dir.join(&file)).map_err(|e| {
                Error::Failed {
                    message: format!("receiving {file} from process {from}: {e}"),
                }
            })?;
            self.whole.push((file, from as usize));
        }
        Ok(())
    }

    fn failure(&mut self) -> Result<()> {
        match self.failed.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// The files made whole this round; an error if any is still partial.
    fn round(&mut self) -> Result<Vec<(String, usize)>> {
        if let Some(((from, file), p)) = self.partial.iter().next() {
            return Err(Error::Failed {
                message: format!(
                    "{file} from process {from} arrived incomplete ({} of {} bytes)",
                    p.received, p.total
                ),
            });
        }
        let mut whole = std::mem::take(&mut self.whole);
        whole.sort();
        Ok(whole)
    }
}

/// Whether `name` can be a tier's database file: letters, digits, `-`,
/// `_` and `.`, not starting with a dot, ending in `.db`.
fn is_tier_file(name: &str) -> bool {
    name.len() <= 255
        && name.ends_with(".db")
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_tier_files_are_written() {
        assert!(is_tier_file("KRKP.db"));
        assert!(is_tier_file("0.4-0.4.db"));
        for bad in ["../x.db", "/etc/x.db", ".db", "x", "a b.db", ".hidden.db"] {
            assert!(!is_tier_file(bad), "{bad}");
        }
    }
}
