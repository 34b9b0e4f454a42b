//! `retrograde serve DB|GRAPH`: a local web explorer on 127.0.0.1. One page
//! (embedded in the binary: no network, no build step) and a JSON API with
//! the answers of `query`; for a small graph or board, the steps of the
//! solve to watch.
//!
//! The HTTP server is `tiny_http`: a small, synchronous, well-kept server
//! with no async runtime, which is all a local explorer serving one person
//! needs.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::Result;
use retrograde::db::Database;
use retrograde::play::{Playable, Probe, ProbeError};
use retrograde::solve::trace::{solve_traced, Event};
use retrograde::{Answers, Game, GameGraph};

use crate::common;
use crate::progress::Bars;

/// Options of `retrograde serve`.
#[derive(clap::Args)]
pub struct Args {
    /// A database (`--save` writes one), or a graph (edge list or binary), solved first.
    pub input: PathBuf,
    /// The port on 127.0.0.1 (0: any free one; the address is printed on standard output).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Animate solves of games up to this many positions.
    #[arg(long, value_name = "N", default_value_t = 200)]
    pub trace_limit: usize,
    /// Answer this many requests, then stop (for tests; default: until interrupted).
    #[arg(long, value_name = "N", hide = true)]
    pub requests: Option<usize>,
    /// Refuse a graph whose solve and database would need more memory than this (e.g. 8G;
    /// default: the machine's memory).
    #[arg(long, value_name = "SIZE", value_parser = common::parse_bytes)]
    pub max_memory: Option<u64>,
}

const INDEX: &str = include_str!("web/index.html");
const APP: &str = include_str!("web/app.js");
const STYLE: &str = include_str!("web/style.css");

/// The steps of a small game's solve, for the page's animation.
#[derive(serde::Serialize)]
struct Trace {
    /// Each position's label, in the game's notation.
    labels: Vec<String>,
    /// Every move, `[from, to]`.
    edges: Vec<[u32; 2]>,
    /// The solve's steps, in order.
    events: Vec<Event>,
}

pub fn run(args: Args) -> Result<ExitCode> {
    // A graph is solved into a database first, in a directory removed at exit.
    let temp = tempfile::tempdir()?;
    let path = if is_database(&args.input) {
        args.input.clone()
    } else {
        let db = temp.path().join("graph.db");
        solve_graph(&args.input, &db, common::memory_limit(args.max_memory))?;
        db
    };
    let db = crate::db::open(&path)?;
    let game = crate::db::game(&db)?;
    let game: &dyn Playable = &*game;
    let trace = trace(&db, args.trace_limit)?;
    let server = tiny_http::Server::http(("127.0.0.1", args.port))
        .map_err(|e| anyhow::anyhow!("cannot listen on 127.0.0.1:{}: {e}", args.port))?;
    let port = server.server_addr().to_ip().map_or(args.port, |a| a.port());
    // The address is the data: standard output, so that a script can read it.
    let mut out = std::io::stdout().lock();
    writeln!(out, "http://127.0.0.1:{port}/")?;
    out.flush()?;
    drop(out);
    writeln!(
        common::talk(),
        "serving {} ({}) at http://127.0.0.1:{port}/; Ctrl-C stops",
        common::shown(&args.input),
        retrograde::play::describe(db.meta())
    )?;
    let probe = Probe { game, db: &db };
    let info = info(&db, game, trace.is_some());
    let trace_json = trace.as_ref().map(serde_json::to_string).transpose()?;
    // Each request on a thread of its own, at most WORKERS at once: a client
    // that is slow to send or to read holds up only itself.
    let in_flight = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for (served, request) in server.incoming_requests().enumerate() {
            while in_flight.load(Ordering::Acquire) >= WORKERS {
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
            in_flight.fetch_add(1, Ordering::AcqRel);
            let (probe, info, trace, in_flight) =
                (&probe, &info, trace_json.as_deref(), &in_flight);
            scope.spawn(move || {
                handle(request, probe, info, trace);
                in_flight.fetch_sub(1, Ordering::AcqRel);
            });
            if args.requests.is_some_and(|n| served + 1 >= n) {
                break;
            }
        }
    });
    Ok(ExitCode::SUCCESS)
}

/// Requests answered at once.
const WORKERS: usize = 32;

/// The largest request body read (and ignored); a request that declares a
/// larger one gets no answer.
const MAX_BODY: usize = 64 << 10;

/// The longest address answered (longer: 414).
const MAX_URL: usize = 8192;

/// Answers one request. Its body, if any (up to [`MAX_BODY`]), is read
/// first through a small buffer: `tiny_http` would otherwise discard it
/// into one buffer of the size the client declared.
fn handle(mut request: tiny_http::Request, probe: &Probe<'_>, info: &str, trace: Option<&str>) {
    if request.body_length().is_some_and(|n| n > MAX_BODY) {
        // No answer: `tiny_http` would allocate the whole declared body
        // when the request is dropped. The connection is left as it is.
        std::mem::forget(request);
        return;
    }
    let mut buf = [0u8; 4096];
    let body = request.as_reader();
    while let Ok(n) = body.read(&mut buf) {
        if n == 0 {
            break;
        }
    }
    let (status, kind, body) = answer(&request, probe, info, trace);
    let response = tiny_http::Response::from_string(body).with_status_code(status);
    let response = with_header(response, "Content-Type", kind);
    let response = with_header(response, "Cache-Control", "no-store");
    let response = if status == 405 {
        with_header(response, "Allow", "GET")
    } else {
        response
    };
    // A browser that went away is not our failure.
    let _ = request.respond(response);
}

/// Adds a header (the names and values here are constant ASCII, which
/// `tiny_http` always accepts).
fn with_header<R: std::io::Read>(
    response: tiny_http::Response<R>,
    name: &str,
    value: &str,
) -> tiny_http::Response<R> {
    match tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes()) {
        Ok(h) => response.with_header(h),
        Err(()) => response,
    }
}

/// Whether `path` is a database.
fn is_database(path: &Path) -> bool {
    use std::io::Read;
    let mut magic = [0u8; 8];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut magic))
        .is_ok()
        && &magic == retrograde::db::MAGIC
}

/// Solves the graph at `input` and keeps it as a database at `db`.
fn solve_graph(input: &Path, db: &Path, limit: u64) -> Result<()> {
    let bars = Bars::new(true);
    let file = crate::load::GraphFile {
        path: input,
        vertices: None,
        min_vertices: 0,
    };
    // The solve, and the database written with the graph's moves.
    let (save_per_vertex, save_per_edge) = crate::db::graph_save_bytes();
    let budget = crate::load::Budget {
        limit,
        per_vertex: 17 + save_per_vertex,
        per_edge: 4 + save_per_edge,
    };
    let graph = file.load(budget, &bars)?;
    let rules = retrograde::Rules::normal();
    let sol = retrograde::solve(&graph, &rules)?;
    let (offsets, targets) = crate::solve::moves(&graph, &rules);
    let meta = retrograde::db::Meta::new("graph")
        .param("graph", input.display())
        .param("labels", 0)
        .param("no_move", "lose");
    retrograde::db::Writer::new(meta).write(
        db,
        &retrograde::db::Source {
            records: graph.vertex_count() as u64,
            value: |r: u64| sol.value(r as u32),
            keys: None,
            moves: Some((&offsets[..], &targets[..])),
        },
    )?;
    Ok(())
}

/// The solve's steps, if the game is small enough to watch: a graph (its
/// moves from the database) or a board of the cop and the thief.
fn trace(db: &Database, limit: usize) -> Result<Option<Trace>> {
    let meta = db.meta();
    let param = |k: &str| meta.params.get(k).map(String::as_str).unwrap_or("");
    match meta.game.as_str() {
        "graph" if param("labels") == "0" && db.len() as usize <= limit => {
            let n = db.len() as u32;
            let (edges, rules) = crate::db::graph(db)?;
            let graph = retrograde::Csr::from_edges(n as usize, &edges);
            let (_, events) = solve_traced(&graph, &rules)?;
            Ok(Some(Trace {
                labels: (0..n).map(|v| v.to_string()).collect(),
                edges: edges.iter().map(|&(a, b)| [a, b]).collect(),
                events,
            }))
        }
        "cop-thief" => {
            let board =
                retrograde::games::cop_thief::Board::parse(param("board").as_bytes(), "board")?;
            let game = retrograde::games::cop_thief::CopThief::new(board)?;
            if game.position_count() > limit {
                return Ok(None);
            }
            let m = retrograde::game::materialise(&game, retrograde::CsrBuilder::new())?;
            let rules = m.rules(&game.rules());
            let (_, events) = solve_traced(&m.graph, &rules)?;
            let edges: Vec<[u32; 2]> = m.graph.edges().map(|(a, b)| [a, b]).collect();
            Ok(Some(Trace {
                labels: (0..game.position_count() as u64)
                    .map(|p| game.notation(p))
                    .collect(),
                edges,
                events,
            }))
        }
        _ => Ok(None),
    }
}

/// What `/api/info` says: the game, its start, what the page can do.
fn info(db: &Database, game: &dyn Playable, traced: bool) -> String {
    #[derive(serde::Serialize)]
    struct Info {
        game: String,
        variant: String,
        name: String,
        start: Option<String>,
        positions: u64,
        graph: bool,
        trace: bool,
    }
    serde_json::to_string(&Info {
        game: db.meta().game.clone(),
        variant: db.meta().variant.clone(),
        name: retrograde::play::describe(db.meta()),
        start: game.start().map(|s| game.notation(s)),
        // As the game's report counts them: less the records that only
        // stand for a finished game.
        positions: db.header().positions
            - game
                .uncounted()
                .into_iter()
                .filter(|&k| db.value(k).is_ok_and(|v| v.is_some()))
                .count() as u64,
        graph: db.meta().game == "graph",
        trace: traced,
    })
    .unwrap_or_else(|_| "{}".into())
}

/// An error as the API gives it: `{"error": "..."}`, the message cut to
/// 300 characters (it may quote what the client sent).
fn error(status: u16, message: &str) -> (u16, &'static str, String) {
    let message: String = if message.chars().count() > 300 {
        message.chars().take(300).chain("…".chars()).collect()
    } else {
        message.to_string()
    };
    (
        status,
        "application/json",
        serde_json::json!({ "error": message }).to_string(),
    )
}

/// The response to one request: status, content type, body.
fn answer(
    request: &tiny_http::Request,
    probe: &Probe<'_>,
    info: &str,
    trace: Option<&str>,
) -> (u16, &'static str, String) {
    if *request.method() != tiny_http::Method::Get {
        return error(405, "only GET is served");
    }
    let url = request.url();
    if url.len() > MAX_URL {
        return error(414, &format!("the address is longer than {MAX_URL} bytes"));
    }
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    match path {
        "/" | "/index.html" => (200, "text/html; charset=utf-8", INDEX.into()),
        "/app.js" => (200, "text/javascript; charset=utf-8", APP.into()),
        "/style.css" => (200, "text/css; charset=utf-8", STYLE.into()),
        "/api/info" => (200, "application/json", info.into()),
        "/api/trace" => match trace {
            Some(t) => (200, "application/json", t.into()),
            None => error(404, "no animation for this game: it is not a graph or a board of the cop and the thief of at most --trace-limit positions"),
        },
        "/api/query" => {
            let text = match parameter(query, "position") {
                Some(Ok(text)) => text,
                Some(Err(())) => {
                    return error(400, "the position is not percent-encoded text (a malformed %-escape, or bytes that are not UTF-8)")
                }
                None => {
                    return error(400, "expected ?position=... (the position in the game's notation)")
                }
            };
            let game = probe.game;
            let p = match game.parse(&text) {
                Ok(p) => p,
                Err(e) => return error(400, &e.to_string()),
            };
            match probe.answer(p) {
                Ok(a) => {
                    #[derive(serde::Serialize)]
                    struct Page {
                        #[serde(flatten)]
                        answer: crate::query::AnswerJson,
                        board: String,
                    }
                    let page = Page {
                        answer: crate::query::json(game, &a),
                        board: game.board(p),
                    };
                    match serde_json::to_string(&page) {
                        Ok(body) => (200, "application/json", body),
                        Err(e) => error(500, &e.to_string()),
                    }
                }
                Err(e @ ProbeError::NotInGame { .. }) => error(404, &e.to_string()),
                Err(e) => error(500, &e.to_string()),
            }
        }
        _ => error(404, &format!("no such page: {path} (the API is /api/info, /api/query?position=..., /api/trace)")),
    }
}

/// The value of `key` in a query string (the first), percent-decoded
/// (`+` is a space); `Err` if it does not decode.
fn parameter(query: &str, key: &str) -> Option<Result<String, ()>> {
    query.split('&').find_map(|pair| {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        (decode(k).as_deref() == Some(key)).then(|| decode(v).ok_or(()))
    })
}

/// Percent-decoding; `None` for a malformed escape or bytes that are not UTF-8.
fn decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_strings_are_percent_decoded() {
        let decoded = |q: &str| parameter(q, "position");
        assert_eq!(
            decoded("position=8%2F8%2F8+w&x=1"),
            Some(Ok("8/8/8 w".into()))
        );
        assert_eq!(decoded("a=1"), None);
        // The first is taken, and a malformed one is an error, not absent.
        assert_eq!(decoded("position=%zz&position=3"), Some(Err(())));
        assert_eq!(decoded("position=%C3%A9"), Some(Ok("é".into())));
        assert_eq!(decoded("position=%C3%28"), Some(Err(())));
    }
}
