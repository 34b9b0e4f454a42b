//! Connecting the processes of a cluster, with a deadline and a handshake.
//!
//! Process `i` connects to every process `j < i` and accepts a connection from
//! every process `j > i` (the layout timely's networking expects). Each side
//! sends a 40-byte hello — a magic string, its index, the number of processes,
//! the worker threads per process and a fingerprint of the run — and checks
//! the other's, so that a peer started with other arguments is refused with a
//! clear message instead of computing garbage. Everything happens before the
//! deadline, or fails with [`Error::Unreachable`].

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use crate::error::{Error, Result};

const MAGIC: &[u8; 8] = b"RTGRDv01";
const HELLO_LEN: usize = 40;

/// What a process says about itself when it connects: the 40-byte hello of
/// the handshake (a magic string, then four big-endian `u64`s).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hello {
    /// The process's index in the host list.
    pub index: u64,
    /// How many processes the run has.
    pub processes: u64,
    /// Worker threads per process.
    pub threads: u64,
    /// The fingerprint of everything that decides the answer.
    pub fingerprint: u64,
}

/// The length of a [`Hello`] on the wire.
pub const HELLO_BYTES: usize = HELLO_LEN;

impl Hello {
    /// The hello as sent.
    pub fn encode(&self) -> [u8; HELLO_LEN] {
        let mut b = [0u8; HELLO_LEN];
        b[..8].copy_from_slice(MAGIC);
        for (i, x) in [self.index, self.processes, self.threads, self.fingerprint]
            .into_iter()
            .enumerate()
        {
            b[8 + 8 * i..16 + 8 * i].copy_from_slice(&x.to_be_bytes());
        }
        b
    }

    /// The hello in `b`; `None` if it does not start with the magic string.
    pub fn decode(b: &[u8; HELLO_LEN]) -> Option<Hello> {
        if &b[..8] != MAGIC {
            return None;
        }
        let field = |i: usize| u64::from_be_bytes(b[8 + 8 * i..16 + 8 * i].try_into().unwrap());
        Some(Hello {
            index: field(0),
            processes: field(1),
            threads: field(2),
            fingerprint: field(3),
        })
    }

    /// Why `other` cannot join a run described by `self`, if it cannot.
    pub fn mismatch(&self, other: &Hello) -> Option<String> {
        if other.processes != self.processes {
            Some(format!(
                "it runs with {} processes, this one with {}",
                other.processes, self.processes
            ))
        } else if other.threads != self.threads {
            Some(format!(
                "it runs {} worker threads per process, this one {} (every process needs the same --threads)",
                other.threads, self.threads
            ))
        } else if other.fingerprint != self.fingerprint {
            Some(
                "it was started with other options or another input (every process needs the same arguments)"
                    .to_string(),
            )
        } else {
            None
        }
    }
}

/// The run a process takes part in, as far as connecting is concerned.
pub(crate) struct Plan<'a> {
    pub addresses: &'a [String],
    pub process: usize,
    pub threads: usize,
    pub fingerprint: u64,
    pub timeout: Duration,
}

impl Plan<'_> {
    fn hello(&self) -> Hello {
        Hello {
            index: self.process as u64,
            processes: self.addresses.len() as u64,
            threads: self.threads as u64,
            fingerprint: self.fingerprint,
        }
    }

    fn handshake_error(&self, address: impl Into<String>, message: impl Into<String>) -> Error {
        Error::Handshake {
            process: self.process,
            address: address.into(),
            message: message.into(),
        }
    }
}

/// Connects to every peer. Returns one stream per process, `None` at this
/// process's own index, blocking and without timeouts, ready for timely.
pub(crate) fn connect(plan: &Plan) -> Result<Vec<Option<TcpStream>>> {
    let n = plan.addresses.len();
    // A timeout past what an instant can hold means no deadline to speak of.
    let now = Instant::now();
    let deadline = now
        .checked_add(plan.timeout)
        .unwrap_or_else(|| now + Duration::from_secs(365 * 86_400));
    let listener = if plan.process + 1 < n {
        let address = &plan.addresses[plan.process];
        let listen = |source| Error::Listen {
            process: plan.process,
            address: address.clone(),
            source,
        };
        let l = TcpListener::bind(address.as_str()).map_err(listen)?;
        l.set_nonblocking(true).map_err(listen)?;
        Some(l)
    } else {
        None
    };

    let (lower, higher) = std::thread::scope(|s| {
        let lower = s.spawn(|| connect_lower(plan, deadline));
        let higher = match &listener {
            Some(l) => accept_higher(plan, l, deadline),
            None => Ok(Vec::new()),
        };
        (lower.join().unwrap_or_else(|_| panic_error()), higher)
    });
    let (lower, higher) = (lower?, higher?);
    let mut sockets: Vec<Option<TcpStream>> = lower.into_iter().map(Some).collect();
    sockets.push(None);
    sockets.extend(higher.into_iter().map(Some));
    for s in sockets.iter().flatten() {
        s.set_read_timeout(None).map_err(|e| io_failed(plan, e))?;
        s.set_write_timeout(None).map_err(|e| io_failed(plan, e))?;
        s.set_nonblocking(false).map_err(|e| io_failed(plan, e))?;
        s.set_nodelay(true).map_err(|e| io_failed(plan, e))?;
    }
    Ok(sockets)
}

fn panic_error() -> Result<Vec<TcpStream>> {
    Err(Error::Failed {
        message: "the connecting thread panicked".into(),
    })
}

fn io_failed(plan: &Plan, e: std::io::Error) -> Error {
    Error::Failed {
        message: format!("process {}: setting up a connection: {e}", plan.process),
    }
}

fn remaining(deadline: Instant) -> Option<Duration> {
    deadline
        .checked_duration_since(Instant::now())
        .filter(|d| !d.is_zero())
}

fn unreachable(plan: &Plan, missing: Vec<usize>, reason: String) -> Error {
    Error::Unreachable {
        process: plan.process,
        processes: plan.addresses.len(),
        missing: missing
            .into_iter()
            .map(|j| (j, plan.addresses[j].clone()))
            .collect(),
        timeout: plan.timeout,
        reason,
    }
}

/// Connects to processes `0..plan.process`, retrying until the deadline.
fn connect_lower(plan: &Plan, deadline: Instant) -> Result<Vec<TcpStream>> {
    let mine = plan.hello();
    let mut streams = Vec::with_capacity(plan.process);
    for j in 0..plan.process {
        let address = &plan.addresses[j];
        let mut last_error = String::from("no attempt finished");
        let stream = loop {
            let Some(left) = remaining(deadline) else {
                return Err(unreachable(plan, (j..plan.process).collect(), last_error));
            };
            match try_connect(address, left, &mine) {
                Ok((stream, theirs)) => {
                    if theirs.index != j as u64 {
                        return Err(plan.handshake_error(
                            address,
                            format!(
                                "it says it is process {}, the host list says {j}",
                                theirs.index
                            ),
                        ));
                    }
                    if let Some(m) = mine.mismatch(&theirs) {
                        return Err(plan.handshake_error(address, m));
                    }
                    break stream;
                }
                Err(Attempt::Refused(e)) => {
                    last_error = e;
                    std::thread::sleep(Duration::from_millis(100).min(left));
                }
                Err(Attempt::Foreign(m)) => return Err(plan.handshake_error(address, m)),
            }
        };
        streams.push(stream);
    }
    Ok(streams)
}

enum Attempt {
    /// Worth retrying: the peer may not be up yet.
    Refused(String),
    /// Something answered that is not a retrograde process.
    Foreign(String),
}

fn try_connect(
    address: &str,
    left: Duration,
    mine: &Hello,
) -> std::result::Result<(TcpStream, Hello), Attempt> {
    let addrs: Vec<SocketAddr> = address
        .to_socket_addrs()
        .map_err(|e| Attempt::Refused(format!("{address}: {e}")))?
        .collect();
    let mut last = format!("{address}: no address");
    for addr in addrs {
        let mut stream = match TcpStream::connect_timeout(&addr, left) {
            Ok(s) => s,
            Err(e) => {
                last = format!("{address}: {e}");
                continue;
            }
        };
        let io = |e: std::io::Error| Attempt::Refused(format!("{address}: {e}"));
        stream.set_nodelay(true).map_err(io)?;
        stream.set_read_timeout(Some(left)).map_err(io)?;
        stream.set_write_timeout(Some(left)).map_err(io)?;
        stream.write_all(&mine.encode()).map_err(io)?;
        let mut buf = [0u8; HELLO_LEN];
        stream.read_exact(&mut buf).map_err(io)?;
        return match Hello::decode(&buf) {
            Some(h) => Ok((stream, h)),
            None => Err(Attempt::Foreign(
                "it did not answer like a retrograde process".to_string(),
            )),
        };
    }
    Err(Attempt::Refused(last))
}

/// Accepts processes `plan.process + 1 ..`, until the deadline.
fn accept_higher(plan: &Plan, listener: &TcpListener, deadline: Instant) -> Result<Vec<TcpStream>> {
    let n = plan.addresses.len();
    let mine = plan.hello();
    let mut slots: Vec<Option<TcpStream>> = (plan.process + 1..n).map(|_| None).collect();
    let mut last_error = String::from("no connection came in");
    while slots.iter().any(Option::is_none) {
        let Some(left) = remaining(deadline) else {
            let missing = (plan.process + 1..n)
                .filter(|&j| slots[j - plan.process - 1].is_none())
                .collect();
            return Err(unreachable(plan, missing, last_error));
        };
        match listener.accept() {
            Ok((mut stream, peer)) => {
                let io = |e: std::io::Error| format!("{peer}: {e}");
                let hello = (|| -> std::result::Result<[u8; HELLO_LEN], String> {
                    stream.set_nonblocking(false).map_err(io)?;
                    stream.set_read_timeout(Some(left)).map_err(io)?;
                    stream.set_write_timeout(Some(left)).map_err(io)?;
                    let mut buf = [0u8; HELLO_LEN];
                    stream.read_exact(&mut buf).map_err(io)?;
                    stream.write_all(&mine.encode()).map_err(io)?;
                    Ok(buf)
                })();
                let buf = match hello {
                    Ok(b) => b,
                    Err(e) => {
                        last_error = e;
                        continue;
                    }
                };
                let Some(theirs) = Hello::decode(&buf) else {
                    return Err(plan.handshake_error(
                        peer.to_string(),
                        "it did not introduce itself like a retrograde process",
                    ));
                };
                if let Some(m) = mine.mismatch(&theirs) {
                    return Err(plan.handshake_error(peer.to_string(), m));
                }
                let j = theirs.index as usize;
                if j <= plan.process || j >= n || slots[j - plan.process - 1].is_some() {
                    return Err(plan.handshake_error(
                        peer.to_string(),
                        format!("it says it is process {j}, which should not connect here (twice, or an index out of range)"),
                    ));
                }
                slots[j - plan.process - 1] = Some(stream);
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(20).min(left));
            }
            Err(e) => last_error = format!("accepting on {}: {e}", plan.addresses[plan.process]),
        }
    }
    Ok(slots.into_iter().flatten().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hello_round_trips_and_mismatches_are_explained() {
        let h = Hello {
            index: 2,
            processes: 3,
            threads: 4,
            fingerprint: 99,
        };
        assert_eq!(Hello::decode(&h.encode()), Some(h));
        let mut bad = h.encode();
        bad[0] = b'X';
        assert_eq!(Hello::decode(&bad), None);
        let other = Hello { threads: 1, ..h };
        assert!(h.mismatch(&other).unwrap().contains("--threads"));
        let other = Hello {
            fingerprint: 1,
            ..h
        };
        assert!(h.mismatch(&other).unwrap().contains("same arguments"));
        assert_eq!(h.mismatch(&Hello { index: 0, ..h }), None);
    }
}
