//! `retrograde serve DB|GRAPH`: a local web explorer on 127.0.0.1. One page
//! (embedded in the binary: no network, no build step) and a JSON API with
//! the answers of `query`; for a small graph or board, the steps of the
//! solve to watch.
//!
//! The HTTP server is our own (`http.rs`): one GET a connection, every
//! resource bounded, which is all a local explorer serving one person needs.
//!
//! The database is read into memory and checked when the server starts, so
//! that another program rewriting or cutting short the file meanwhile
//! cannot change an answer or stop the server.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;
use retrograde::db::Database;
use retrograde::drawing::{Drawing, Piece};
use retrograde::play::{Playable, Probe, ProbeError};
use retrograde::solve::trace::{Event, solve_traced};
use retrograde::{Answers, GameGraph};

use crate::common;
use crate::http::{self, Answer, Request, error};
use crate::progress::Bars;

/// Options of `retrograde serve`.
#[derive(clap::Args)]
pub struct Args {
    /// A database (`--save` writes one), or a graph (edge list or binary), solved first.
    pub input: PathBuf,
    /// The port on 127.0.0.1 (0: any free one; the address is printed on standard output).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Animate solves of games up to this many positions (a graph of more than 200
    /// is shown around each step, not whole).
    #[arg(long, value_name = "N", default_value_t = 50_000)]
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
const ICON: &str = include_str!("web/icon.svg");

/// The steps of a small game's solve, for the page's animation.
#[derive(serde::Serialize)]
struct Trace {
    /// Each position's label, in the game's notation.
    labels: Vec<String>,
    /// Every move, `[from, to]`.
    edges: Vec<[u32; 2]>,
    /// The solve's steps, in order.
    events: Vec<Event>,
    /// Who moves at each position (0 or 1), for a game that names it.
    owners: Option<Vec<u8>>,
}

pub fn run(args: Args) -> Result<ExitCode> {
    // A graph is solved into a database first, in a directory removed at exit.
    let temp = tempfile::tempdir()?;
    let path = if retrograde::db::is_database(&args.input) {
        args.input.clone()
    } else {
        let db = temp.path().join("graph.db");
        solve_graph(&args.input, &db, common::memory_limit(args.max_memory))?;
        // The server runs on: a graph that changed while it was read is
        // refused now, not at exit.
        crate::mapped::none_changed()?;
        db
    };
    let db = crate::db::read(&path, args.max_memory)?;
    let game = crate::db::game(&db)?;
    let game: &dyn Playable = &*game;
    let trace = trace(&db, args.trace_limit)?;
    let listener = std::net::TcpListener::bind(("127.0.0.1", args.port))
        .map_err(|e| anyhow::anyhow!("cannot listen on 127.0.0.1:{}: {e}", args.port))?;
    let port = listener.local_addr().map_or(args.port, |a| a.port());
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
    let records = retrograde::tier::WithTiers::beside(&db, game);
    let probe = Probe { game, db: &records };
    let info = info(&db, game, records.tiers(), trace.as_ref(), args.trace_limit)?;
    let trace_json = trace.as_ref().map(serde_json::to_string).transpose()?;
    drop(trace);
    // The animation is kept as its text, answered without a copy: counted
    // against the memory allowed with the database.
    if let Some(t) = &trace_json {
        common::check_memory(
            "the animation of the solve (see --trace-limit)",
            t.len() as u64,
            common::memory_limit(args.max_memory),
        )?;
    }
    let trace = trace_json.as_deref();
    http::serve(&listener, args.requests, &|request| {
        answer(request, &probe, &info, trace)
    });
    Ok(ExitCode::SUCCESS)
}

/// Solves the graph at `input` and keeps it as a database at `db`.
fn solve_graph(input: &Path, db: &Path, limit: u64) -> Result<()> {
    let bars = Bars::new(true);
    let file = crate::load::GraphFile {
        path: input,
        vertices: None,
        min_vertices: 0,
    };
    // The solve, and the database written with the graph's moves (their
    // targets counted there), as `solve --save` counts them.
    let (save_per_vertex, save_per_edge) = crate::db::graph_save_bytes();
    let budget = crate::load::Budget {
        limit,
        per_vertex: crate::solve::SOLVE_BYTES_PER_POSITION + save_per_vertex,
        per_edge: save_per_edge,
    };
    let graph = file.load(budget, &bars)?;
    let rules = retrograde::Rules::normal();
    let sol = retrograde::solve(&graph, &rules)?;
    let (offsets, targets) = retrograde::db::graph_moves(&graph, &rules);
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
            names: None,
            grundy: None,
            owners: None,
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
            let owners = db.owners()?;
            let bytes = owner_bytes(owners.as_deref());
            let (_, events) = traced(graph, owners, &rules)?;
            // A named graph's vertices by name, as the rest of the page shows them.
            let names = db.names()?;
            Ok(Some(Trace {
                labels: (0..n)
                    .map(|v| retrograde::io::names::shown(names.as_ref(), v))
                    .collect(),
                edges: edges.iter().map(|&(a, b)| [a, b]).collect(),
                events,
                owners: bytes,
            }))
        }
        "graph" => Ok(None),
        _ => {
            let Some(g) = crate::db::solvable(db)?.small_graph(limit)? else {
                return Ok(None);
            };
            let graph = retrograde::Csr::from_edges(g.labels.len(), &g.edges);
            let owners = owner_bytes(g.owners.as_deref());
            let (_, events) = traced(graph, g.owners, &g.rules)?;
            Ok(Some(Trace {
                labels: g.labels,
                edges: g.edges.iter().map(|&(a, b)| [a, b]).collect(),
                events,
                owners,
            }))
        }
    }
}

/// Owners as the page reads them: 0 or 1 a position.
fn owner_bytes(owners: Option<&[retrograde::Player]>) -> Option<Vec<u8>> {
    owners.map(|o| o.iter().map(|&p| p as u8).collect())
}

/// The traced solve of `graph`, an arena if it has `owners`.
fn traced(
    graph: retrograde::Csr,
    owners: Option<Vec<retrograde::Player>>,
    rules: &retrograde::Rules,
) -> Result<(retrograde::Solution, Vec<retrograde::solve::trace::Event>)> {
    Ok(match owners {
        None => solve_traced(&graph, rules)?,
        Some(owners) => solve_traced(&retrograde::graph::Arena::new(graph, owners)?, rules)?,
    })
}

/// What `/api/info` says: the game, its start (or a position to try), the
/// positions solved (with those of the tier directory `db` lies in), what
/// the page can do, and why it cannot animate the solve where it cannot.
fn info(
    db: &Database,
    game: &dyn Playable,
    tiers: Option<&retrograde::tier::TierDirectory>,
    trace: Option<&Trace>,
    limit: usize,
) -> Result<String> {
    #[derive(serde::Serialize)]
    struct Info {
        game: String,
        variant: String,
        name: String,
        start: Option<String>,
        example: Option<String>,
        positions: u64,
        tiers: Option<usize>,
        graph: bool,
        trace: bool,
        trace_limit: usize,
        untraced: Option<String>,
    }
    let probe = retrograde::play::Probe { game, db };
    // As the game's report counts them: less the records that only stand
    // for a finished game.
    let positions = probe.positions()?;
    let lays_out = match db.meta().game.as_str() {
        "graph" => db.meta().params.get("labels").is_none_or(|l| l == "0"),
        _ => crate::db::solvable(db)?.lays_out(),
    };
    let untraced = match trace {
        Some(_) => None,
        None if positions as usize > limit && lays_out => Some(format!(
            "The solve is animated for games of up to {limit} positions; this one has {positions}. \
             Where it can be laid out as one graph, `retrograde serve FILE --trace-limit {positions}` \
             animates it (the page then needs memory and time in proportion)."
        )),
        // A graph's database keeps no terminal labels or PGSolver targets:
        // its solve cannot be replayed from it.
        None if db.meta().game == "graph" => Some(
            "This graph was solved with terminal labels or a PGSolver game's targets, which its \
             database does not keep, so its solve is not animated."
                .into(),
        ),
        None => Some(format!(
            "{} is not laid out as one graph of positions (it is solved in parts or by formula), \
             so its solve is not animated.",
            retrograde::play::describe(db.meta())
        )),
    };
    serde_json::to_string(&Info {
        game: db.meta().game.clone(),
        variant: db.meta().variant.clone(),
        name: retrograde::play::describe(db.meta()),
        start: game.start().map(|s| game.notation(s)),
        example: match game.start() {
            Some(_) => None,
            None => example(db, game)?.map(|p| game.notation(p)),
        },
        // A tier's database answers with its directory's: the whole
        // directory's positions are the ones played on.
        positions: tiers.map_or(positions, |t| {
            t.manifest().tiers.iter().map(|t| t.positions).sum()
        }),
        tiers: tiers.map(|t| t.manifest().tiers.len()),
        graph: db.meta().game == "graph",
        trace: trace.is_some(),
        trace_limit: limit,
        untraced,
    })
    .map_err(Into::into)
}

/// A position to try in a game without a start: among the first records,
/// the won one whose win takes longest (a lesson in the ending), else the
/// first one with moves. A database of more than 20 million records is not
/// scanned for one.
fn example(db: &Database, game: &dyn Playable) -> Result<Option<u64>> {
    const SCANNED: u64 = 200_000;
    if db.len() > 20_000_000 {
        return Ok(None);
    }
    let mut best: Option<(u32, u64)> = None;
    let mut any = None;
    db.for_each(|r, key, v| {
        let Some(v) = v.filter(|_| r < SCANNED && game.is_counted(key)) else {
            return;
        };
        let p = game.position_at(key);
        if game.parse(&game.notation(p)).is_err() || game.moves(p).is_empty() {
            return;
        }
        any.get_or_insert(p);
        if let (retrograde::Outcome::Win, Some(r)) = (v.outcome, v.remoteness)
            && best.is_none_or(|(b, _)| r > b)
        {
            best = Some((r, p));
        }
    })?;
    Ok(best.map(|b| b.1).or(any))
}

/// The response to one request: status, content type, body.
fn answer<'a>(
    request: &Request<'_>,
    probe: &Probe<'_>,
    info: &'a str,
    trace: Option<&'a str>,
) -> Answer<'a> {
    if request.method != "GET" {
        return error(405, "only GET is served");
    }
    let url = request.target;
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    match path {
        "/" | "/index.html" => (200, "text/html; charset=utf-8", INDEX.into()),
        "/app.js" => (200, "text/javascript; charset=utf-8", APP.into()),
        "/style.css" => (200, "text/css; charset=utf-8", STYLE.into()),
        "/favicon.svg" | "/favicon.ico" => (200, "image/svg+xml", ICON.into()),
        "/api/info" => (200, "application/json", info.into()),
        "/api/trace" => match trace {
            Some(t) => (200, "application/json", t.into()),
            None => error(
                404,
                "no animation for this game: it has more than --trace-limit positions, or none can be laid out",
            ),
        },
        "/api/query" => query_answer(probe, query),
        _ => error(
            404,
            &format!(
                "no such page: {path} (the API is /api/info, /api/query?position=...[&move=...], /api/trace; the page is /)"
            ),
        ),
    }
}

/// The answer of `/api/query`: the position of `?position=...` (after
/// `&move=...` if given), its value and its moves, as the page shows them.
fn query_answer(probe: &Probe<'_>, query: &str) -> Answer<'static> {
    let text = match parameter(query, "position") {
        Some(Ok(text)) => text,
        Some(Err(what)) => {
            return error(
                400,
                &format!("the address is not percent-encoded text: {what}"),
            );
        }
        None => {
            return error(
                400,
                "expected ?position=... (the position in the game's notation)",
            );
        }
    };
    let game = probe.game;
    let mut p = match game.parse(&text) {
        Ok(p) => p,
        Err(e) => return error(400, &e.to_string()),
    };
    // `&move=M`: the position after move M, named as the game
    // names moves or as it reads them (chess: `Ra1-a4` or `Ra4`).
    // A malformed escape anywhere was refused with `position` above.
    match parameter(query, "move").and_then(Result::ok) {
        None => {}
        Some(m) => match game.find_move(p, &m) {
            Some((_, to)) => p = to,
            None => {
                let names: Vec<String> = game.moves(p).into_iter().map(|(n, _)| n).collect();
                return error(
                    404,
                    &format!(
                        "{m:?} is not a move of {text}: its moves are {}",
                        names.join(", ")
                    ),
                );
            }
        },
    }
    match probe.answer(p) {
        Ok(a) => page(game, p, &a),
        Err(e @ ProbeError::NotInGame { .. }) => error(404, &e.to_string()),
        Err(e) => error(500, &e.to_string()),
    }
}

/// Position `p`'s answer `a` as the page shows it: the answer of `query`,
/// the board, and each move written as a game's record writes it with
/// the board it leads to.
fn page(game: &dyn Playable, p: u64, a: &retrograde::play::Answer) -> Answer<'static> {
    /// A move as the page shows it: written as a game's record
    /// writes it, and the board it leads to (the squares it
    /// changes are the ones to click).
    #[derive(serde::Serialize)]
    struct After {
        written: String,
        board: String,
        /// What stands on each place of the game's drawing after the
        /// move (`None`: nothing), for a game that draws its board.
        #[serde(skip_serializing_if = "Option::is_none")]
        pieces: Option<Vec<Option<Piece>>>,
    }
    #[derive(serde::Serialize)]
    struct Page {
        #[serde(flatten)]
        answer: crate::query::AnswerJson,
        board: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        drawing: Option<Drawing>,
        after: Vec<After>,
    }
    let drawing = game.drawing(p);
    let pieces = |q: u64| {
        drawing.as_ref()?;
        let after = game.drawing(q)?;
        Some(after.places().iter().map(|pl| pl.piece.clone()).collect())
    };
    let mut named: Vec<Option<(String, u64, String)>> = game
        .moves(p)
        .into_iter()
        .zip(game.written_moves(p))
        .map(|((name, to), written)| Some((name, to, written)))
        .collect();
    let after = a
        .moves
        .iter()
        .map(|m| {
            let written = named
                .iter_mut()
                .find(|n| n.as_ref().is_some_and(|n| n.0 == m.name && n.1 == m.to))
                .and_then(Option::take)
                .map_or_else(|| m.name.clone(), |n| n.2);
            After {
                written,
                board: game.board(m.to),
                pieces: pieces(m.to),
            }
        })
        .collect();
    let page = Page {
        answer: crate::query::json(game, a),
        board: game.board(p),
        drawing,
        after,
    };
    match serde_json::to_string(&page) {
        Ok(body) => (200, "application/json", body.into()),
        Err(e) => error(500, &e.to_string()),
    }
}

/// The value of `key` in a query string (the first), percent-decoded
/// (`+` is a space); `Err` saying what does not decode if any name or value
/// of the query does not: a malformed escape is refused wherever it is,
/// never skipped or half decoded.
fn parameter(query: &str, key: &str) -> Option<Result<String, String>> {
    let mut found = None;
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let (k, v) = match (decode(k), decode(v)) {
            (Ok(k), Ok(v)) => (k, v),
            (Err(e), _) | (_, Err(e)) => return Some(Err(e)),
        };
        if k == key && found.is_none() {
            found = Some(v);
        }
    }
    found.map(Ok)
}

/// Percent-decoding: every `%` followed by two hexadecimal digits, and the
/// bytes decoded UTF-8; `Err` saying which escape is malformed otherwise.
fn decode(s: &str) -> Result<String, String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let digits = bytes
                    .get(i + 1..i + 3)
                    .and_then(|h| Some((hex(h[0])?, hex(h[1])?)));
                let Some((high, low)) = digits else {
                    let escape: String = s[i..].chars().take(3).collect();
                    return Err(format!(
                        "the malformed escape {escape:?} (expected % and two hexadecimal digits)"
                    ));
                };
                out.push(high << 4 | low);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).map_err(|_| format!("{s:?} decodes to bytes that are not UTF-8 text"))
}

/// The value of a hexadecimal digit.
fn hex(b: u8) -> Option<u8> {
    char::from(b).to_digit(16).map(|d| d as u8)
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
        assert_eq!(decoded("position=%C3%A9"), Some(Ok("é".into())));
        assert_eq!(decoded("position=%41%4a%4A"), Some(Ok("AJJ".into())));
    }

    #[test]
    fn every_malformed_escape_is_refused_wherever_it_is() {
        let malformed = [
            "position=%zz&position=3",
            "position=%4x",
            "position=%G1",
            "position=%+1",
            "position=%-1",
            "position=%",
            "position=1%",
            "position=%4",
            "position=%C3%28",
            "position=%FF",
            "position=%%41",
            "position=%é1",
            "x=%G1&position=1",
            "position=1&x=%",
            "pos%G1ition=1",
        ];
        for q in malformed {
            let got = parameter(q, "position");
            assert!(matches!(got, Some(Err(_))), "{q}: {got:?}");
        }
    }
}
