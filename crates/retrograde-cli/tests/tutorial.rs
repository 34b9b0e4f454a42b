//! The tutorial (`examples/morris.rs`): a game that is not built in goes
//! through the same tools as a built-in one, from its own binary: solved and
//! saved, checked, queried, played and served.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The tutorial's binary, built by `cargo test` beside the tool's.
fn morris_bin() -> PathBuf {
    let bin = Path::new(env!("CARGO_BIN_EXE_retrograde"));
    let path = bin.with_file_name("examples").join("morris");
    assert!(
        path.exists(),
        "{} is not built: `cargo test` builds the examples, a run of this test alone does not \
         (cargo build --release --example morris)",
        path.display()
    );
    path
}

fn morris(args: &[&str], dir: &Path) -> Output {
    Command::new(morris_bin())
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn ok(o: &Output) -> String {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn the_tutorial_game_is_listed_solved_saved_and_checked() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let d = dir.path();
    assert!(ok(&morris(&["game", "list"], d)).contains("morris"));
    let j: serde_json::Value =
        serde_json::from_str(&ok(&morris(&["game", "morris", "--json", "--verify"], d))).unwrap();
    assert_eq!(j["game"], "morris");
    assert_eq!(j["verified"], true);
    let folded = j["positions"].as_u64().unwrap();
    let j: serde_json::Value = serde_json::from_str(&ok(&morris(
        &[
            "game",
            "morris",
            "--no-symmetry",
            "--json",
            "--save",
            "m.db",
        ],
        d,
    )))
    .unwrap();
    // Folding the symmetries merges positions, never adds any.
    assert!(j["positions"].as_u64().unwrap() > folded, "{j}");
    let v = morris(&["verify", "m.db"], d);
    ok(&v);
    let said = String::from_utf8_lossy(&v.stderr);
    assert!(said.contains("solves morris"), "{said}");
    // The built-in tool does not know the game, and says so.
    let o = Command::new(env!("CARGO_BIN_EXE_retrograde"))
        .args(["query", "m.db", "x../.o./... x"])
        .current_dir(d)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("\"morris\""));
}

#[test]
fn the_tutorial_game_is_queried_played_and_served_by_name() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let d = dir.path();
    ok(&morris(&["game", "morris", "--save", "m.db", "-q"], d));
    // Queried by its notation, its moves named as the game names them.
    let q = ok(&morris(&["query", "m.db", "x../.o./... x", "--json"], d));
    let j: serde_json::Value = serde_json::from_str(q.lines().next().unwrap()).unwrap();
    let moves = j["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 7, "{q}");
    assert!(moves.iter().any(|m| m["move"] == "c3"), "{q}");
    let bad = morris(&["query", "m.db", "x../.o./..."], d);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("no one to move"));
    // Played to its end by the perfect player on both sides.
    let play = ok(&morris(
        &["play", "m.db", "--watch", "--max-plies", "12"],
        d,
    ));
    assert!(play.contains("X"), "{play}");
    // Served: the page's API answers from the tutorial's binary.
    let mut serve = Command::new(morris_bin());
    // Small enough to animate its solve, as a built-in game's board is.
    serve
        .args(["serve", "m.db", "--trace-limit", "1000"])
        .stderr(Stdio::null());
    let (mut child, addr) = crate::common::start_server(serve, d);
    let mut c = TcpStream::connect(&addr).unwrap();
    write!(c, "GET /api/info HTTP/1.0\r\nHost: {addr}\r\n\r\n").unwrap();
    let mut text = String::new();
    c.read_to_string(&mut text).unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        text.starts_with("HTTP/1.1 200") || text.starts_with("HTTP/1.0 200"),
        "{text}"
    );
    assert!(text.contains("\"name\":\"morris\""), "{text}");
    assert!(text.contains("\"trace\":true"), "{text}");
    assert!(text.contains("\"start\":\".../.../... x\""), "{text}");
}
