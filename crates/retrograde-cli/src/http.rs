//! The HTTP/1.x server under `serve`: one GET a connection, answered and
//! closed. Small on purpose, so that every resource is bounded and every
//! failure handled here: at most [`WORKERS`] connections at once (one
//! thread and one descriptor each), a deadline for reading a request and
//! one for writing the whole answer (a client that reads slowly holds its
//! worker [`WRITE_TIME`] at most), a bounded head and body, answers that
//! share the server's own texts rather than copy them, only the host names
//! the server listens under in `Host:` (a page of another origin cannot
//! reach it by DNS rebinding), and an accept loop that outlives a
//! descriptor limit (it waits for connections to close) and says so on
//! standard error, at most once a minute for each kind of trouble.

use std::borrow::Cow;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// Connections served at once: one thread each. A client that is slow to
/// send holds up only itself, for [`READ_TIME`] at most.
pub const WORKERS: usize = 32;

/// The longest address answered (longer: 414).
pub const MAX_URL: usize = 8192;

/// The largest request head read (request line and headers; longer: 431).
const MAX_HEAD: usize = MAX_URL + 8192;

/// The largest request body read (and ignored); a larger one declared: 413.
const MAX_BODY: u64 = 64 << 10;

/// The time a client has to send its request (longer: 408).
const READ_TIME: Duration = Duration::from_secs(10);

/// The time a client has to read the whole answer; the connection is
/// closed then, however much of it was read.
pub const WRITE_TIME: Duration = Duration::from_secs(10);

/// A request: its method and its target (the path and the query).
pub struct Request<'a> {
    pub method: &'a str,
    pub target: &'a str,
}

/// An answer: status, content type, body (the server's own text, shared,
/// or one made for the request).
pub type Answer<'a> = (u16, &'static str, Cow<'a, str>);

/// What a connection's handler is given: the request, answered.
pub type Handler<'a> = dyn for<'r> Fn(&Request<'r>) -> Answer<'a> + Sync + 'a;

/// Answers connections on `listener` until `requests` have been served
/// (`None`: for ever), each on a thread of its own, with `answer`; a
/// request whose `Host:` is not one of the names the listener is reached
/// by (`127.0.0.1`, `localhost`, `[::1]`, with its port) is refused (403).
pub fn serve(listener: &TcpListener, requests: Option<usize>, answer: &Handler<'_>) {
    let port = listener.local_addr().map_or(0, |a| a.port());
    let active = Active::default();
    let said = Said::default();
    std::thread::scope(|scope| {
        let mut served = 0;
        while requests.is_none_or(|n| served < n) {
            active.wait_below(WORKERS);
            let stream = match listener.accept() {
                Ok((stream, _)) => stream,
                Err(e) => {
                    refused(&e, &said);
                    // Until a connection closes (and frees its descriptor),
                    // or a while: the error would come back at once.
                    active.wait_change(Duration::from_millis(100));
                    continue;
                }
            };
            served += 1;
            active.add();
            let (active_ref, said_ref) = (&active, &said);
            let spawned = std::thread::Builder::new()
                .name("http".into())
                .spawn_scoped(scope, move || {
                    // Freed however the thread ends.
                    let _slot = Slot(active_ref);
                    connection(stream, port, answer);
                });
            if let Err(e) = spawned {
                // The closure, and with it the connection, is dropped.
                active.remove();
                said_ref.once_a_minute(
                    "thread",
                    &format!("cannot start a thread for a connection ({e}): it was closed"),
                );
            }
        }
    });
}

/// Says why a connection could not be accepted, unless it is a
/// connection that went away before it was accepted.
fn refused(e: &std::io::Error, said: &Said) {
    use std::io::ErrorKind::{ConnectionAborted, ConnectionReset, Interrupted, WouldBlock};
    if matches!(
        e.kind(),
        ConnectionAborted | ConnectionReset | Interrupted | WouldBlock
    ) {
        return;
    }
    let limit = if matches!(e.raw_os_error(), Some(libc::EMFILE)) {
        descriptor_limit().map_or(String::new(), |n| {
            format!(" (the limit of open descriptors, ulimit -n, is {n})")
        })
    } else {
        String::new()
    };
    said.once_a_minute(
        "accept",
        &format!("cannot accept a connection: {e}{limit}; connections wait until others close"),
    );
}

/// The soft limit of open descriptors.
fn descriptor_limit() -> Option<libc::rlim_t> {
    let mut r = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit fills the struct it is given.
    let ok = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut r) } == 0;
    (ok && r.rlim_cur != libc::RLIM_INFINITY).then_some(r.rlim_cur)
}

/// One connection: read one request, answer it, close.
fn connection(mut stream: TcpStream, port: u16, answer: &Handler<'_>) {
    let deadline = Instant::now() + READ_TIME;
    let reply = match read_request(&mut stream, deadline) {
        Got::Gone => return,
        Got::Refused(reply) => reply,
        Got::Request(head) => match parse(&head) {
            Ok(_) if !host_allowed(&head, port) => error(
                403,
                "the Host header names another host: only 127.0.0.1, localhost and [::1] are answered",
            ),
            Ok(request) => answer(&request),
            Err(reply) => reply,
        },
    };
    let (status, kind, body) = reply;
    let head = response_head(status, kind, body.len());
    // The whole answer by its deadline; a client that went away, or reads
    // too slowly, is not our failure.
    let deadline = Instant::now() + WRITE_TIME;
    if write_by(&mut stream, head.as_bytes(), deadline).is_ok() {
        let _ = write_by(&mut stream, body.as_bytes(), deadline);
    }
    finish(stream);
}

/// Whether the request's `Host:` (if it has one) is a name the server is
/// reached by on this machine, with the listener's port or none.
fn host_allowed(head: &[u8], port: u16) -> bool {
    let mut hosts = head
        .split(|&b| b == b'\n')
        .skip(1)
        .filter_map(|line| line.split_once_byte(b':'))
        .filter(|(name, _)| name.trim_ascii().eq_ignore_ascii_case(b"host"))
        .map(|(_, value)| value.trim_ascii());
    let Some(host) = hosts.next() else {
        // HTTP/1.0 has none; a browser always sends one.
        return true;
    };
    if hosts.next().is_some() {
        return false;
    }
    let Ok(host) = std::str::from_utf8(host) else {
        return false;
    };
    let host = host.to_ascii_lowercase();
    let name = match host.rsplit_once(':') {
        Some((name, p)) if !name.ends_with(':') && !p.contains(']') => {
            if p != port.to_string() {
                return false;
            }
            name
        }
        _ => host.as_str(),
    };
    matches!(name, "127.0.0.1" | "localhost" | "[::1]")
}

/// Writes all of `bytes` by `deadline`, however slowly the client reads:
/// a piece at a time, so that the deadline is looked at between.
fn write_by(stream: &mut TcpStream, mut bytes: &[u8], deadline: Instant) -> Result<(), Stop> {
    while !bytes.is_empty() {
        let piece = &bytes[..bytes.len().min(64 << 10)];
        match by_deadline(stream, deadline, TcpStream::set_write_timeout, |s| {
            s.write(piece)
        })? {
            0 => return Err(Stop::Gone),
            n => bytes = &bytes[n..],
        }
    }
    Ok(())
}

/// What reading a request came to.
enum Got {
    /// The head (its body read and dropped).
    Request(Vec<u8>),
    /// An answer without reading further.
    Refused(Answer<'static>),
    /// The client closed or broke the connection: nobody to answer.
    Gone,
}

/// Reads the head, then the body it declares (dropped), by `deadline`.
fn read_request(stream: &mut TcpStream, deadline: Instant) -> Got {
    let mut head = Vec::new();
    let mut buf = [0u8; 4096];
    let end = loop {
        if let Some(end) = head_end(&head) {
            break end;
        }
        if head.len() > MAX_HEAD {
            return Got::Refused(too_long(&head));
        }
        match read_by(stream, &mut buf, deadline) {
            Ok(0) | Err(Stop::Gone) => return Got::Gone,
            Ok(n) => head.extend_from_slice(&buf[..n]),
            Err(Stop::Late) => return Got::Refused(late()),
        }
    };
    let extra = (head.len() - end) as u64;
    head.truncate(end);
    let length = match content_length(&head) {
        Ok(n) => n,
        Err(reply) => return Got::Refused(reply),
    };
    if length > MAX_BODY {
        return Got::Refused(error(
            413,
            &format!(
                "the request declares a body of {length} bytes: at most {MAX_BODY} bytes are read (and none is needed)"
            ),
        ));
    }
    let mut left = length.saturating_sub(extra);
    while left > 0 {
        let want = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
        match read_by(stream, &mut buf[..want], deadline) {
            Ok(0) | Err(Stop::Gone) => return Got::Gone,
            Ok(n) => left -= n as u64,
            Err(Stop::Late) => return Got::Refused(late()),
        }
    }
    Got::Request(head)
}

/// Why a read stopped.
enum Stop {
    /// The deadline passed.
    Late,
    /// The connection failed.
    Gone,
}

/// One read, waiting until `deadline` at most.
fn read_by(stream: &mut TcpStream, buf: &mut [u8], deadline: Instant) -> Result<usize, Stop> {
    by_deadline(stream, deadline, TcpStream::set_read_timeout, |s| {
        s.read(buf)
    })
}

/// One `io` on `stream` (a read or a write), its timeout set by `timeout`
/// to the time left until `deadline`, tried again when interrupted or
/// timed out until the deadline passes.
fn by_deadline<T>(
    stream: &mut TcpStream,
    deadline: Instant,
    timeout: fn(&TcpStream, Option<Duration>) -> std::io::Result<()>,
    mut io: impl FnMut(&mut TcpStream) -> std::io::Result<T>,
) -> Result<T, Stop> {
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(Stop::Late);
        }
        timeout(stream, Some(left)).map_err(|_| Stop::Gone)?;
        match io(stream) {
            Ok(n) => return Ok(n),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::Interrupted
                        | std::io::ErrorKind::WouldBlock
                        | std::io::ErrorKind::TimedOut
                ) => {}
            Err(_) => return Err(Stop::Gone),
        }
    }
}

/// Where the head ends (after its blank line), if it has.
fn head_end(bytes: &[u8]) -> Option<usize> {
    let crlf = bytes
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|i| i + 4);
    let lf = bytes.windows(2).position(|w| w == b"\n\n").map(|i| i + 2);
    match (crlf, lf) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The answer to a head longer than [`MAX_HEAD`]: 414 if its address is
/// too long, 431 otherwise.
fn too_long(head: &[u8]) -> Answer<'static> {
    let line = head.split(|&b| b == b'\n').next().unwrap_or(head);
    if line.len() > MAX_URL {
        error(414, &format!("the address is longer than {MAX_URL} bytes"))
    } else {
        error(
            431,
            &format!("the request's headers are longer than {MAX_HEAD} bytes"),
        )
    }
}

fn late() -> Answer<'static> {
    error(
        408,
        &format!(
            "the request was not sent within {} seconds",
            READ_TIME.as_secs()
        ),
    )
}

/// The body's length the head declares (0 if none).
fn content_length(head: &[u8]) -> Result<u64, Answer<'static>> {
    let mut length = None;
    for line in head.split(|&b| b == b'\n').skip(1) {
        let Some((name, value)) = line.split_once_byte(b':') else {
            continue;
        };
        let name = name.trim_ascii();
        if name.eq_ignore_ascii_case(b"transfer-encoding") {
            return Err(error(
                411,
                "a request body must be sent with Content-Length (none is needed)",
            ));
        }
        if !name.eq_ignore_ascii_case(b"content-length") {
            continue;
        }
        let n = std::str::from_utf8(value.trim_ascii())
            .ok()
            .filter(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|v| v.parse::<u64>().ok())
            .ok_or_else(|| error(400, "Content-Length is not a number of bytes"))?;
        if length.is_some_and(|l| l != n) {
            return Err(error(400, "two different Content-Length headers"));
        }
        length = Some(n);
    }
    Ok(length.unwrap_or(0))
}

/// Splitting a byte string at the first `sep`.
trait SplitOnce {
    fn split_once_byte(&self, sep: u8) -> Option<(&[u8], &[u8])>;
}

impl SplitOnce for [u8] {
    fn split_once_byte(&self, sep: u8) -> Option<(&[u8], &[u8])> {
        let i = self.iter().position(|&b| b == sep)?;
        Some((&self[..i], &self[i + 1..]))
    }
}

/// The request line of `head`: `METHOD TARGET HTTP/1.x`.
fn parse(head: &[u8]) -> Result<Request<'_>, Answer<'static>> {
    let line = head.split(|&b| b == b'\n').next().unwrap_or(head);
    let bad = || error(400, "not an HTTP request (expected GET /path HTTP/1.1)");
    let line = std::str::from_utf8(line.trim_ascii_end()).map_err(|_| bad())?;
    let mut parts = line.split(' ');
    match (parts.next(), parts.next(), parts.next(), parts.next()) {
        (Some(method), Some(target), Some(version), None)
            if !method.is_empty() && !target.is_empty() && version.starts_with("HTTP/1.") =>
        {
            if target.len() > MAX_URL {
                return Err(error(
                    414,
                    &format!("the address is longer than {MAX_URL} bytes"),
                ));
            }
            Ok(Request { method, target })
        }
        _ => Err(bad()),
    }
}

/// An error as the API gives it: `{"error": "..."}`, the message cut to
/// 300 characters (it may quote what the client sent).
pub fn error(status: u16, message: &str) -> Answer<'static> {
    let message: String = if message.chars().count() > 300 {
        message.chars().take(300).chain("…".chars()).collect()
    } else {
        message.to_string()
    };
    (
        status,
        "application/json",
        Cow::Owned(serde_json::json!({ "error": message }).to_string()),
    )
}

/// The head of the response to send, before a body of `length` bytes.
fn response_head(status: u16, kind: &str, length: usize) -> String {
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Content Too Large",
        414 => "URI Too Long",
        431 => "Request Header Fields Too Large",
        _ => "Internal Server Error",
    };
    let allow = if status == 405 { "Allow: GET\r\n" } else { "" };
    format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: {kind}\r\nContent-Length: {length}\r\n\
         Cache-Control: no-store\r\n{allow}Connection: close\r\n\r\n"
    )
}

/// Closes the connection so that the client reads the whole answer: what
/// it still sends (a body not read) is read and dropped for a moment, as a
/// close with unread bytes would reset the connection and lose the answer.
fn finish(mut stream: TcpStream) {
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let deadline = Instant::now() + Duration::from_millis(500);
    let mut buf = [0u8; 4096];
    let mut drained = 0usize;
    while drained < (1 << 20) {
        match read_by(&mut stream, &mut buf, deadline) {
            Ok(0) | Err(_) => break,
            Ok(n) => drained += n,
        }
    }
}

/// The connections being served, and a way to wait for one to end.
#[derive(Default)]
struct Active {
    count: Mutex<usize>,
    changed: Condvar,
}

impl Active {
    fn add(&self) {
        if let Ok(mut c) = self.count.lock() {
            *c += 1;
        }
    }

    fn remove(&self) {
        if let Ok(mut c) = self.count.lock() {
            *c = c.saturating_sub(1);
        }
        self.changed.notify_all();
    }

    /// Waits until fewer than `n` are served.
    fn wait_below(&self, n: usize) {
        let Ok(mut c) = self.count.lock() else {
            return;
        };
        while *c >= n {
            match self.changed.wait(c) {
                Ok(g) => c = g,
                Err(_) => return,
            }
        }
    }

    /// Waits until one ends, or `most`.
    fn wait_change(&self, most: Duration) {
        if let Ok(c) = self.count.lock() {
            let _ = self.changed.wait_timeout(c, most);
        }
    }
}

/// A connection counted in [`Active`] until it is dropped.
struct Slot<'a>(&'a Active);

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        self.0.remove();
    }
}

/// Warnings already given, by kind, and when.
#[derive(Default)]
struct Said {
    last: Mutex<Vec<(&'static str, Instant)>>,
}

impl Said {
    /// `retrograde: warning: MESSAGE` on standard error, unless a warning
    /// of this `kind` was given in the last minute: a limit hit for a while
    /// is said, not repeated for every connection.
    fn once_a_minute(&self, kind: &'static str, message: &str) {
        let Ok(mut last) = self.last.lock() else {
            return;
        };
        let now = Instant::now();
        match last.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, at)) if now.duration_since(*at) < Duration::from_secs(60) => return,
            Some((_, at)) => *at = now,
            None => last.push((kind, now)),
        }
        let _ = writeln!(
            crate::common::talk(),
            "retrograde: warning: {message} (said once a minute at most)"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_declared_body_is_read_as_a_length_or_refused() {
        let head = |h: &str| content_length(h.as_bytes()).map_err(|e| e.0);
        assert_eq!(head("GET / HTTP/1.1\r\nContent-Length: 12\r\n\r\n"), Ok(12));
        assert_eq!(head("GET / HTTP/1.1\r\nHost: x\r\n\r\n"), Ok(0));
        assert_eq!(
            head("GET / HTTP/1.1\r\ncontent-length: +1\r\n\r\n"),
            Err(400)
        );
        assert_eq!(
            head("GET / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n"),
            Err(400)
        );
        assert_eq!(
            head("GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"),
            Err(411)
        );
    }

    #[test]
    fn only_the_names_of_this_machine_are_answered_as_host() {
        let ok = |host: &str| {
            let head = format!("GET / HTTP/1.1\r\n{host}\r\n\r\n");
            host_allowed(head.as_bytes(), 8080)
        };
        for good in [
            "Host: 127.0.0.1:8080",
            "host: LOCALHOST:8080",
            "Host: localhost",
            "Host: [::1]:8080",
            "Accept: */*",
        ] {
            assert!(ok(good), "{good}");
        }
        for bad in [
            "Host: evil.example:8080",
            "Host: evil.example",
            "Host: 127.0.0.1:9090",
            "Host: 127.0.0.1.evil.example:8080",
            "Host: localhost:8080\r\nHost: evil.example",
            "Host: ",
        ] {
            assert!(!ok(bad), "{bad}");
        }
    }

    #[test]
    fn only_a_request_line_of_three_parts_is_a_request() {
        assert!(parse(b"GET /api/info HTTP/1.0\r\n\r\n").is_ok());
        for bad in [
            "GET /api/info\r\n\r\n",
            "GET  /x HTTP/1.1\r\n\r\n",
            "\r\n\r\n",
        ] {
            assert_eq!(parse(bad.as_bytes()).err().map(|e| e.0), Some(400), "{bad}");
        }
    }
}
