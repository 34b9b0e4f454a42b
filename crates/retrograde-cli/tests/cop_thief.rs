//! Runs the real binary on the cop and the thief: fixtures, options, bad
//! boards, and the export reproducing the game's solution through `solve`.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn boards() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/boards")
}

use crate::common::*;

/// Runs `cop-thief` on a board given as text, in a fresh directory.
fn on_board(text: &str, extra: &[&str]) -> Output {
    let dir = retrograde::io::scratch_dir().unwrap();
    fs::write(dir.path().join("b.txt"), text).unwrap();
    let mut args = vec!["cop-thief", "b.txt"];
    args.extend(extra);
    run(&args, dir.path())
}

#[test]
fn every_fixture_prints_exactly_its_verdict() {
    let mut checked = 0;
    for entry in fs::read_dir(boards()).unwrap() {
        let path = entry.unwrap().path();
        let text = fs::read_to_string(&path).unwrap();
        let expect = text
            .lines()
            .find_map(|l| l.strip_prefix("# expect: "))
            .unwrap();
        let verdict = expect.rsplit_once(" in ").map_or(expect, |(v, _)| v);
        let o = run(&["cop-thief", path.to_str().unwrap()], Path::new("."));
        assert!(o.status.success(), "{}: {}", path.display(), stderr(&o));
        assert_eq!(stdout(&o), format!("{verdict}\n"), "{}", path.display());
        checked += 1;
    }
    assert!(checked >= 7);
}

#[test]
fn reads_the_board_from_standard_input() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_retrograde"))
        .args(["cop-thief", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"1 5\nP..TE\n").unwrap();
    drop(stdin);
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success());
    assert_eq!(stdout(&o), "The thief escapes\n");
}

#[test]
fn bad_boards_exit_2_with_one_line_naming_file_and_line() {
    let cases: &[(&str, &str)] = &[
        (
            "3\nP.T\n",
            "b.txt:line 1: expected the header: two positive integers",
        ),
        ("2 0\n", "b.txt:line 1: expected the header"),
        (
            "2 3\nP.T\n",
            "b.txt:line 3: the header declares 2 rows, but the input ends after 1",
        ),
        (
            "1 3\nP.T\n...\n",
            "b.txt:line 3: the header declares 1 rows, but more follow",
        ),
        (
            "2 3\nP.T\n..\n",
            "b.txt:line 3: expected a row of 3 characters, found 2",
        ),
        ("1 3\n..T\n", "b.txt: the board has no `P`"),
        ("1 3\nP..\n", "b.txt: the board has no `T`"),
        (
            "1 4\nPT.T\n",
            "b.txt:line 2: a second `T` (the thief's start) (the first is on line 2)",
        ),
        ("", "b.txt:line 1: expected the header"),
    ];
    for (text, message) in cases {
        let o = on_board(text, &[]);
        assert_eq!(o.status.code(), Some(2), "{text:?}");
        let e = stderr(&o);
        assert!(e.contains(message), "{text:?}: {e}");
        assert_eq!(e.lines().count(), 1, "{e}");
        assert!(stdout(&o).is_empty());
    }
}

#[test]
fn a_board_too_large_for_memory_says_how_much_it_needs() {
    let row = ".".repeat(98);
    let o = on_board(&format!("1 100\nP{row}T\n"), &["--max-memory", "64K"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("b.txt: 100 free cells make 20000 positions, which would need about 78.1 KiB of memory to solve, more than the 64.0 KiB allowed"),
        "{e}"
    );
}

#[test]
fn map_line_and_json() {
    let o = on_board("1 5\nP.*TE\n", &["--map", "--line"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let s = stdout(&o);
    assert!(
        s.starts_with(
            "The thief escapes\n\nPc*ee\n\nply 0: start (The thief escapes in 2)\nP.*TE\n"
        ),
        "{s}"
    );
    assert!(
        s.ends_with("The thief stands on an exit: escaped.\n"),
        "{s}"
    );

    // Both stuck behind a wall: best play passes forever.
    let o = on_board("1 3\nP*T\n", &["--line"]);
    let s = stdout(&o);
    assert!(s.starts_with("Draw\n"), "{s}");
    assert!(
        s.ends_with("... a draw: ply 2 repeats ply 0, and play cycles from there forever\n"),
        "{s}"
    );
    // A draw that never repeats within the limit is cut there.
    let o = on_board(
        "3 5\nP.*..\n..*.T\n..*..\n",
        &["--line", "--line-limit", "2"],
    );
    let s = stdout(&o);
    assert_eq!(s.matches("\nply ").count(), 3, "{s}");
    assert!(s.ends_with("(first 2 plies shown)\n"), "{s}");

    // 8 positions: 4 over (same cell: 2 won, 2 lost for the side to move); the
    // cop to move next to the thief wins in 1 (2 of them); the thief to move
    // next to the cop loses in 2 (2 of them).
    let o = on_board("1 2\nPT\n", &["--json"]);
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(j["command"], "cop-thief");
    assert_eq!(
        j["board"],
        serde_json::json!({"path": "b.txt", "rows": 1, "columns": 2, "free_cells": 2})
    );
    assert_eq!(j["positions"], 8);
    assert_eq!(
        j["start"],
        serde_json::json!({"position": j["start"]["position"], "to_move": "cop",
            "outcome": "win", "remoteness": 1, "best_move": j["start"]["best_move"],
            "verdict": "Police catches the thief"})
    );
    assert_eq!(
        j["counts"],
        serde_json::json!({"win": 4, "lose": 4, "tie": 0, "draw": 0})
    );
    assert_eq!(
        j["longest"],
        serde_json::json!({"win": 1, "lose": 2, "tie": null})
    );
    assert_eq!(
        j["histogram"],
        serde_json::json!([
            {"remoteness": 0, "win": 2, "lose": 2, "tie": 0},
            {"remoteness": 1, "win": 2, "lose": 0, "tie": 0},
            {"remoteness": 2, "win": 0, "lose": 2, "tie": 0}
        ])
    );
    assert!(j["time"]["total_seconds"].is_number());
}

#[test]
fn svg_is_written_atomically() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let board = boards().join("walled_apart.txt");
    let svg = dir.path().join("map.svg");
    let o = run(
        &[
            "cop-thief",
            board.to_str().unwrap(),
            "--svg",
            svg.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "Draw\n");
    let text = fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") && text.ends_with("</svg>\n"));
    assert!(text.contains(">P</text>") && text.contains(">T</text>"));
    let o = run(
        &[
            "cop-thief",
            board.to_str().unwrap(),
            "--svg",
            "no/such/dir/map.svg",
        ],
        dir.path(),
    );
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn check_reports_agreement() {
    let o = on_board("3 4\nP.*E\n.*..\nE..T\n", &["--check"]);
    assert!(o.status.success());
    assert!(stderr(&o).contains("checked 200 positions: moves and reverse moves agree"));
}

/// The exported edge list and labels, solved by `retrograde solve`, give the
/// same outcome and remoteness for the start as `cop-thief --json`.
#[test]
fn export_then_solve_reproduces_the_game() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let d = dir.path();
    for name in ["corridor.txt", "walled_apart.txt", "one_step_from_exit.txt"] {
        let board = boards().join(name);
        let board = board.to_str().unwrap();
        let o = run(
            &[
                "export",
                "cop-thief",
                board,
                "-o",
                "e.txt",
                "--terminal",
                "l.txt",
            ],
            d,
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let edges = fs::read_to_string(d.join("e.txt")).unwrap();
        let field = |key: &str| {
            let at = edges.find(key).unwrap() + key.len();
            edges[at..]
                .split(|c: char| !c.is_ascii_digit())
                .next()
                .unwrap()
                .to_string()
        };
        let (n, start) = (field("--vertices "), field("The start position is "));
        let o = run(
            &[
                "solve",
                "e.txt",
                "--terminal",
                "l.txt",
                "--vertices",
                &n,
                "-q",
                "--query",
                &start,
            ],
            d,
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let solved: Vec<String> = stdout(&o).trim().split('\t').map(String::from).collect();
        let json = stdout(&run(&["cop-thief", board, "--json"], d));
        let j: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(
            j["start"]["outcome"],
            solved[1].as_str(),
            "{json} {solved:?}"
        );
        let rem = if solved[2] == "-" {
            serde_json::Value::Null
        } else {
            serde_json::json!(solved[2].parse::<u32>().unwrap())
        };
        assert_eq!(j["start"]["remoteness"], rem, "{json} {solved:?}");
    }
}

#[test]
fn more_bad_boards_exit_2_with_their_message() {
    let header =
        "b.txt:line 1: expected the header: two positive integers, the rows and the columns, found";
    let too_many = format!("1 46342\nP{}T\n", ".".repeat(46340));
    let cases: &[(&str, String)] = &[
        ("2 x\nP.\n.T\n", format!("{header} \"2 x\"")),
        ("2 2 2\nP.\n.T\n", format!("{header} \"2 2 2\"")),
        ("-2 2\nP.\n.T\n", format!("{header} \"-2 2\"")),
        (
            "99999999999999999999999 2\nPT\n",
            format!("{header} \"99999999999999999999999 2\""),
        ),
        (
            "2 3\nP.T\nP..\n",
            "b.txt:line 3: a second `P` (the cop's start) (the first is on line 2); the board needs exactly one".into(),
        ),
        (
            &too_many,
            "b.txt: 46342 free cells make 4295161928 positions, more than the 4294967295 that u32 ids allow".into(),
        ),
    ];
    for (text, message) in cases {
        let o = on_board(text, &[]);
        assert_eq!(o.status.code(), Some(2), "{message}");
        assert_eq!(stderr(&o), format!("retrograde: error: {message}\n"));
        assert!(stdout(&o).is_empty());
    }
}

#[test]
fn the_picture_explains_itself() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let board = boards().join("corridor.txt");
    let o = run(
        &[
            "cop-thief",
            board.to_str().unwrap(),
            "--svg",
            "c.svg",
            "--shade",
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = fs::read_to_string(dir.path().join("c.svg")).unwrap();
    // A visible title with the verdict and who moves, an opaque background.
    assert!(
        text.contains("corridor.txt: Police catches the thief (the cop moves first)</text>"),
        "{text}"
    );
    assert!(text.contains(r#"<rect width="100%" height="100%" fill="white"/>"#));
    // The legend names what is on the board and nothing else: no exit, no escape, no draw here.
    for shown in [
        "police catches</text>",
        "wall</text>",
        "cop (start)</text>",
        "thief (start)</text>",
    ] {
        assert!(text.contains(shown), "{shown}");
    }
    for absent in ["thief escapes</text>", "draw</text>", "exit</text>"] {
        assert!(!text.contains(absent), "{absent}");
    }
    // The colour-blind-safe palette, shaded by remoteness: longer games paler.
    assert!(text.contains(r##"fill="#D55E00""##));
    assert!(
        text.contains(r#"fill-opacity="0.35""#),
        "the longest game at 35%"
    );
    assert!(text.contains(r#"fill-opacity="1.00""#));
}
