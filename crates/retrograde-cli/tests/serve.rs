//! `retrograde serve`'s JSON API over HTTP, without a browser: the same
//! answers as `query`, and bad requests answered 4xx with a message while
//! the server goes on.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Stdio};

use crate::common::*;

/// A running server and its address (`127.0.0.1:PORT`).
struct Server {
    child: Child,
    addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(dir: &Path, file: &str) -> Server {
    let mut command = bin();
    command.stderr(Stdio::null());
    serve_by(command, dir, file)
}

/// Starts `serve` from `command` (its standard error as set there).
fn serve_by(mut command: std::process::Command, dir: &Path, file: &str) -> Server {
    command.args(["serve", file]);
    let (child, addr) = start_server(command, dir);
    Server { child, addr }
}

/// `METHOD path` over HTTP/1.0: the status and the body.
fn request(s: &Server, method: &str, path: &str) -> (u16, String) {
    raw(
        s,
        &format!("{method} {path} HTTP/1.0\r\nHost: {}\r\n\r\n", s.addr),
    )
}

/// Sends `text` as it is: the status and the body of the answer.
fn raw(s: &Server, text: &str) -> (u16, String) {
    let mut c = TcpStream::connect(&s.addr).unwrap();
    c.write_all(text.as_bytes()).unwrap();
    let mut text = String::new();
    c.read_to_string(&mut text).unwrap();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (status, body)
}

fn get(s: &Server, path: &str) -> (u16, serde_json::Value) {
    let (status, body) = request(s, "GET", path);
    (
        status,
        serde_json::from_str(&body).unwrap_or(serde_json::Value::Null),
    )
}

#[test]
fn the_api_answers_as_query_does() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let d = dir.path();
    assert!(
        run(&["game", "chess", "KRK", "--save", "krk.db", "-q"], d)
            .status
            .success()
    );
    let s = serve(d, "krk.db");
    let fen = "8/8/8/8/8/2k5/8/R1K5 w - - 0 1";
    let (status, api) = get(
        &s,
        &format!(
            "/api/query?position={}",
            fen.replace('/', "%2F").replace(' ', "+")
        ),
    );
    assert_eq!(status, 200, "{api}");
    let q = run(&["query", "krk.db", fen, "--json"], d);
    let q: serde_json::Value = serde_json::from_str(stdout(&q).trim()).unwrap();
    for key in ["position", "to_move", "outcome", "remoteness", "moves"] {
        assert_eq!(api[key], q[key], "{key}");
    }
    assert!(api["board"].as_str().unwrap().contains("a b c d e f g h"));
    // A move after the position, in standard or long algebraic notation.
    let encoded = fen.replace('/', "%2F").replace(' ', "+");
    for m in ["Ra4", "Ra1-a4", "Ra4%2B"] {
        let (status, after) = get(&s, &format!("/api/query?position={encoded}&move={m}"));
        assert_eq!(status, 200, "{m}: {after}");
        assert_eq!(after["position"], "8/8/8/8/R7/2k5/8/2K5 b - - 0 1", "{m}");
    }
    let (status, refused) = get(&s, &format!("/api/query?position={encoded}&move=Rb9"));
    assert_eq!(status, 404, "{refused}");
    assert!(
        refused["error"].as_str().unwrap().contains("Ra1-a4"),
        "{refused}"
    );
    // Each move written in SAN, with the board it leads to, in the order of
    // `moves`.
    let after = api["after"].as_array().unwrap();
    assert_eq!(after.len(), api["moves"].as_array().unwrap().len());
    for (m, a) in api["moves"].as_array().unwrap().iter().zip(after) {
        let long = m["move"].as_str().unwrap();
        let written = a["written"].as_str().unwrap();
        // Ra1-a4 is Ra4, Kc1-b1 Kb1: the man and the square it goes to.
        assert_eq!(
            written.trim_end_matches('+'),
            format!("{}{}", &long[..1], &long[long.len() - 2..]),
            "{long}"
        );
        let (_, there) = get(
            &s,
            &format!(
                "/api/query?position={}",
                m["position"]
                    .as_str()
                    .unwrap()
                    .replace('/', "%2F")
                    .replace(' ', "+")
            ),
        );
        assert_eq!(a["board"], there["board"], "{long}");
    }
    let checks: Vec<&str> = after
        .iter()
        .filter_map(|a| a["written"].as_str())
        .filter(|w| w.ends_with('+'))
        .collect();
    assert_eq!(checks, ["Ra3+"]);
    let (status, info) = get(&s, "/api/info");
    assert_eq!((status, info["name"].as_str()), (200, Some("chess KRK")));
    assert_eq!(info["trace"], false);
    // A database alone, in no tier directory.
    assert_eq!(info["tiers"], serde_json::Value::Null);
    // A chess ending is never laid out as one graph: no --trace-limit
    // would animate it, so none is suggested.
    let untraced = info["untraced"].as_str().unwrap();
    assert!(
        untraced.contains("is not laid out as one graph") && !untraced.contains("--trace-limit"),
        "{info}"
    );
    // No start: a position to try instead, a won one.
    assert_eq!(info["start"], serde_json::Value::Null);
    let example = info["example"].as_str().unwrap();
    let q = run(&["query", "krk.db", example, "--json"], d);
    let q: serde_json::Value = serde_json::from_str(stdout(&q).trim()).unwrap();
    assert_eq!(q["outcome"], "win", "{example}");
    // The icon, so that no page load meets a 404.
    for icon in ["/favicon.svg", "/favicon.ico"] {
        let (status, body) = request(&s, "GET", icon);
        assert_eq!(status, 200, "{icon}");
        assert!(body.starts_with("<svg"), "{icon}");
    }
    let (status, page) = request(&s, "GET", "/");
    assert_eq!(status, 200);
    assert!(page.contains("<script src=\"/app.js\">"));
    assert_eq!(request(&s, "GET", "/app.js").0, 200);
}

#[test]
fn bad_requests_get_a_4xx_with_a_message_and_the_server_goes_on() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let d = dir.path();
    let lions = [
        "game",
        "dobutsu",
        "--start",
        "1l1/3/3/1L1 b -",
        "--save",
        "lions.db",
        "-q",
    ];
    assert!(run(&lions, d).status.success());
    let s = serve(d, "lions.db");
    let cases = [
        (
            "/api/query?position=not+a+board",
            400,
            "is not a position of dobutsu",
        ),
        (
            "/api/query?position=L2%2F3%2F3%2F2l+b+-",
            404,
            "not reachable from where it was solved",
        ),
        ("/api/query", 400, "expected ?position="),
        ("/api/query?position=%zz", 400, "not percent-encoded text"),
        ("/../../etc/passwd", 404, "no such page"),
        ("/api/trace", 404, "no animation for this game"),
    ];
    for (path, want, message) in cases {
        let (status, body) = get(&s, path);
        assert_eq!(status, want, "{path}: {body}");
        assert!(
            body["error"].as_str().unwrap_or("").contains(message),
            "{path}: {body}"
        );
    }
    assert_eq!(request(&s, "POST", "/api/info").0, 405);
    // A body declared far larger than memory, and none sent: 413, nothing
    // allocated for it; the server goes on.
    let (status, body) = raw(
        &s,
        "GET /api/info HTTP/1.0\r\nContent-Length: 100000000000\r\n\r\n",
    );
    assert_eq!(status, 413, "{body}");
    assert!(body.contains("at most 65536 bytes are read"), "{body}");
    assert_eq!(get(&s, "/api/info").0, 200);
    let long = format!("/api/query?position={}", "a".repeat(20_000));
    let (status, body) = get(&s, &long);
    assert_eq!(status, 414, "{body}");
    // Every malformed escape, wherever it is in the query: 400, named.
    for (query, named) in [
        ("position=%C3%28", "not UTF-8"),
        ("position=%4x", "\\\"%4x\\\""),
        ("position=%G1", "\\\"%G1\\\""),
        ("position=%+1", "\\\"%+1\\\""),
        ("position=1%", "\\\"%\\\""),
        ("position=%FF", "not UTF-8"),
        ("x=%G1&position=1l1%2F3%2F3%2F1L1+b+-", "\\\"%G1\\\""),
    ] {
        let (status, body) = request(&s, "GET", &format!("/api/query?{query}"));
        assert_eq!(status, 400, "{query}: {body}");
        assert!(body.contains("not percent-encoded text"), "{query}: {body}");
        assert!(body.contains(named), "{query}: {body}");
    }
    // The position a capture of the lion leads to is one the API answers.
    let (status, body) = get(&s, "/api/query?position=the+lion+captured");
    assert_eq!(
        (status, body["outcome"].as_str()),
        (200, Some("lose")),
        "{body}"
    );
    // A page of another origin that reaches the server by DNS rebinding
    // names its own host: refused, whatever it asks.
    for host in ["evil.example", "evil.example:80", "127.0.0.1:1"] {
        let (status, body) = raw(
            &s,
            &format!("GET /api/info HTTP/1.1\r\nHost: {host}\r\n\r\n"),
        );
        assert_eq!(status, 403, "{host}: {body}");
        assert!(body.contains("names another host"), "{body}");
    }
    let port = s.addr.rsplit(':').next().unwrap();
    let (status, _) = raw(
        &s,
        &format!("GET /api/info HTTP/1.1\r\nHost: localhost:{port}\r\n\r\n"),
    );
    assert_eq!(status, 200);
    // Still serving.
    let (status, start) = get(&s, "/api/query?position=1l1%2F3%2F3%2F1L1+b+-");
    assert_eq!((status, start["outcome"].as_str()), (200, Some("win")));
}

#[test]
fn clients_that_read_their_answers_slowly_hold_their_workers_a_bounded_time() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let d = dir.path();
    // A chain of 20,000 vertices: its solve's animation is megabytes.
    let chain: String = (0..20_000).map(|v| format!("{v} {}\n", v + 1)).collect();
    std::fs::write(d.join("chain.txt"), chain).unwrap();
    let s = serve(d, "chain.txt");
    // Every worker taken by a client that asks for the animation and reads
    // a few bytes of it now and then (its window kept small), for longer
    // than the server gives an answer.
    let slow: Vec<_> = (0..32)
        .map(|_| {
            let c = TcpStream::connect(&s.addr).unwrap();
            let fd = std::os::fd::AsRawFd::as_raw_fd(&c);
            let small: libc::c_int = 2048;
            // SAFETY: a valid socket and an int option of its size.
            unsafe {
                libc::setsockopt(
                    fd,
                    libc::SOL_SOCKET,
                    libc::SO_RCVBUF,
                    (&small as *const libc::c_int).cast(),
                    std::mem::size_of::<libc::c_int>() as libc::socklen_t,
                );
            }
            let mut c = c;
            let ask = format!("GET /api/trace HTTP/1.1\r\nHost: {}\r\n\r\n", s.addr);
            c.write_all(ask.as_bytes()).unwrap();
            std::thread::spawn(move || {
                let mut buf = [0u8; 200];
                for _ in 0..12 {
                    if matches!(c.read(&mut buf), Ok(0) | Err(_)) {
                        break;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(1500));
                }
            })
        })
        .collect();
    // A client that comes after them is answered once their time is up
    // (before, each kept its worker as long as it went on reading).
    let (status, info) = get(&s, "/api/info");
    assert_eq!(status, 200, "{info}");
    for reader in slow {
        reader.join().unwrap();
    }
}

#[test]
fn a_graph_is_solved_and_its_solve_traced() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let d = dir.path();
    std::fs::copy(data("chase.txt"), d.join("chase.txt")).unwrap();
    let s = serve(d, "chase.txt");
    let (status, trace) = get(&s, "/api/trace");
    assert_eq!(status, 200);
    assert_eq!(trace["labels"].as_array().unwrap().len(), 10);
    assert_eq!(trace["edges"].as_array().unwrap().len(), 14);
    let events = trace["events"].as_array().unwrap();
    // The last word on each vertex is its value: 7 wins in 5, 5 draws.
    let last = |v: u64| {
        events
            .iter()
            .rev()
            .find(|e| e["position"] == v && e["event"] != "dequeue")
            .cloned()
            .unwrap()
    };
    assert_eq!(
        (last(7)["outcome"].as_str(), last(7)["remoteness"].as_u64()),
        (Some("win"), Some(5))
    );
    assert_eq!(last(5)["event"], "draw");
    assert_eq!(trace["owners"], serde_json::Value::Null);
    // Over the limit: no steps, and the page is told why.
    let mut command = bin();
    command
        .stderr(Stdio::null())
        .args(["serve", "chase.txt", "--trace-limit", "5"]);
    drop(s);
    let (child, addr) = start_server(command, d);
    let s = Server { child, addr };
    assert_eq!(get(&s, "/api/trace").0, 404);
    let (_, info) = get(&s, "/api/info");
    assert!(
        info["untraced"]
            .as_str()
            .unwrap()
            .contains("up to 5 positions; this one has 10"),
        "{info}"
    );
}

/// The query of X's first move in the corner, and what it answered.
const CORNER: &str = "/api/query?position=x..%2F...%2F...";

#[test]
fn the_server_answers_from_the_database_it_opened_when_the_file_is_replaced_or_cut_short() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let d = dir.path();
    for (game, db) in [("tic-tac-toe", "t.db"), ("chess", "krk.db")] {
        let mut args = vec!["game", game];
        if game == "chess" {
            args.push("KRK");
        }
        args.extend(["--save", db, "-q"]);
        assert!(run(&args, d).status.success());
    }
    let krk = std::fs::read(d.join("krk.db")).unwrap();
    let ttt = std::fs::read(d.join("t.db")).unwrap();
    let mut s = serve(d, "t.db");
    let (status, before) = get(&s, CORNER);
    assert_eq!(status, 200, "{before}");
    // Overwritten in place by another game's database (the same file,
    // truncated and written again, as `cp` does), then cut short.
    let overwrite = |bytes: &[u8]| {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .truncate(true)
            .open(d.join("t.db"))
            .unwrap();
        f.write_all(bytes).unwrap();
    };
    for bytes in [&krk[..], &ttt[..ttt.len() / 2], &ttt[..100], &[][..]] {
        overwrite(bytes);
        let (status, after) = get(&s, CORNER);
        assert_eq!((status, &after), (200, &before));
        assert_eq!(get(&s, "/api/info").1["name"], "tic-tac-toe");
    }
    assert!(s.child.try_wait().unwrap().is_none(), "the server stopped");
}

/// The open descriptors of process `pid`.
fn descriptors(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .unwrap()
        .count()
}

/// Waits (a bounded number of times) for `pid` to hold at most `want`
/// descriptors; the count it holds.
fn settle(pid: u32, want: usize) -> usize {
    for _ in 0..200 {
        if descriptors(pid) <= want {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(25));
    }
    descriptors(pid)
}

#[test]
fn requests_that_announce_a_body_and_close_early_leave_no_descriptor_open() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let d = dir.path();
    assert!(
        run(&["game", "tic-tac-toe", "--save", "t.db", "-q"], d)
            .status
            .success()
    );
    let s = serve(d, "t.db");
    assert_eq!(get(&s, "/api/info").0, 200);
    let pid = s.child.id();
    let level = descriptors(pid);
    for length in [10, 1000, 70_000, 100_000_000_000u64] {
        for _ in 0..20 {
            let mut c = TcpStream::connect(&s.addr).unwrap();
            let head = format!("GET /api/info HTTP/1.1\r\nContent-Length: {length}\r\n\r\nab");
            c.write_all(head.as_bytes()).unwrap();
        }
    }
    let left = settle(pid, level);
    assert!(left <= level, "{left} descriptors open, {level} before");
    assert_eq!(get(&s, "/api/info").0, 200);
}

#[test]
fn under_a_low_descriptor_limit_the_server_goes_on_and_says_so_once() {
    use std::os::unix::process::CommandExt;
    let dir = retrograde::io::scratch_dir().unwrap();
    let d = dir.path();
    assert!(
        run(&["game", "tic-tac-toe", "--save", "t.db", "-q"], d)
            .status
            .success()
    );
    let mut command = bin();
    command.stderr(Stdio::piped());
    // SAFETY: setrlimit is async-signal-safe, as pre_exec requires.
    unsafe {
        command.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 20,
                rlim_max: 20,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut s = serve_by(command, d, "t.db");
    let (status, before) = get(&s, CORNER);
    assert_eq!(status, 200);
    // Far more connections than descriptors, all held open at once, twice.
    for _ in 0..2 {
        let mut held: Vec<TcpStream> = (0..60)
            .map(|_| TcpStream::connect(&s.addr).unwrap())
            .collect();
        // While they are held, the ones accepted are answered.
        let first = &mut held[0];
        first
            .write_all(format!("GET {CORNER} HTTP/1.0\r\n\r\n").as_bytes())
            .unwrap();
        let mut answer = String::new();
        first.read_to_string(&mut answer).unwrap();
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    }
    let (status, after) = get(&s, CORNER);
    assert_eq!((status, after), (200, before));
    assert!(s.child.try_wait().unwrap().is_none(), "the server stopped");
    s.child.kill().unwrap();
    let mut err = String::new();
    s.child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let warnings: Vec<&str> = err.lines().filter(|l| l.contains("warning")).collect();
    assert_eq!(warnings.len(), 1, "{err}");
    assert!(
        warnings[0].contains("cannot accept a connection: Too many open files")
            && warnings[0].contains("ulimit -n, is 20"),
        "{err}"
    );
}

#[test]
fn the_api_says_who_moves_in_an_arena_and_in_dots_and_boxes() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let d = dir.path();
    let gm = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/arenas/charger.gm");
    let o = run(
        &[
            "solve",
            gm.to_str().unwrap(),
            "--reach",
            "2",
            "--save",
            "charger.db",
            "-q",
        ],
        d,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let s = serve(d, "charger.db");
    // 7 belongs to the robot, who moves again at 2: a win in 2 for him.
    let (status, api) = get(&s, "/api/query?position=7");
    assert_eq!(status, 200, "{api}");
    assert_eq!(
        (api["to_move"].as_str(), api["outcome"].as_str()),
        (Some("player 0"), Some("win"))
    );
    let (_, api) = get(&s, "/api/query?position=0&move=7");
    assert_eq!(
        (api["position"].as_str(), api["to_move"].as_str()),
        (Some("7"), Some("player 0"))
    );
    drop(s);
    // The animation of a small arena follows its owners: 0 and 1 are player
    // 0's, who moves twice and leaves player 1 stuck at 2: 0 wins in 2.
    std::fs::write(d.join("ag.txt"), "0 1\n1 2\n").unwrap();
    std::fs::write(d.join("ag.own"), "0 0\n1 0\n2 1\n").unwrap();
    let o = run(
        &[
            "solve", "ag.txt", "--owners", "ag.own", "--save", "ag.db", "-q",
        ],
        d,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let s = serve(d, "ag.db");
    let (status, trace) = get(&s, "/api/trace");
    assert_eq!(status, 200, "{trace}");
    let decided: Vec<_> = trace["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["event"] == "decided")
        .map(|e| {
            (
                e["position"].as_u64(),
                e["outcome"].as_str(),
                e["remoteness"].as_u64(),
            )
        })
        .collect();
    assert_eq!(
        decided,
        [
            (Some(1), Some("win"), Some(1)),
            (Some(0), Some("win"), Some(2))
        ]
    );
    drop(s);
    let o = run(
        &[
            "game",
            "dots-and-boxes",
            "--rows",
            "1",
            "--cols",
            "2",
            "--save",
            "dab.db",
            "-q",
        ],
        d,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let s = serve(d, "dab.db");
    let (status, api) = get(&s, "/api/query?position=1010100/0-0/1&move=v0,1");
    assert_eq!(status, 200, "{api}");
    assert_eq!(
        (api["position"].as_str(), api["to_move"].as_str()),
        (Some("1010110/0-1/1"), Some("player 1"))
    );
}

/// The root tier's database in its tier directory is served as the whole
/// game: the page counts every tier's positions, and every move from the
/// start, into the tiers below, is valued.
#[test]
fn a_tier_database_is_served_with_its_directory() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let d = dir.path();
    let o = run(
        &[
            "game",
            "nine-mens-morris",
            "0.3-0.3",
            "--tiers",
            "m",
            "--json",
        ],
        d,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("m/tiers.json")).unwrap()).unwrap();
    let listed = manifest["tiers"].as_array().unwrap();
    let all: u64 = listed
        .iter()
        .map(|t| t["positions"].as_u64().unwrap())
        .sum();
    let s = serve(d, "m/0.3-0.3.db");
    let (status, info) = get(&s, "/api/info");
    assert_eq!(status, 200);
    assert_eq!(info["positions"], all, "{info}");
    assert_eq!(info["tiers"], listed.len(), "{info}");
    let start = info["start"]
        .as_str()
        .unwrap()
        .replace('/', "%2F")
        .replace(' ', "+");
    let (status, q) = get(&s, &format!("/api/query?position={start}"));
    assert_eq!(status, 200, "{q}");
    let moves = q["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 24, "{q}");
    assert!(moves.iter().all(|m| m["outcome"].is_string()), "{q}");
}
