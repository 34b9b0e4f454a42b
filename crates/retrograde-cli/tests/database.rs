//! The solution database through the binary: `--save` from every kind of
//! solve, then `query`, `analyze`, `play` and `verify` on what was saved;
//! damaged files and positions outside the game are refused with exit 2.

use std::io::Write;
use std::path::Path;
use std::process::{Output, Stdio};

use crate::common::*;

const KRK_FEN: &str = "8/8/8/8/8/2k5/8/R1K5 w - - 0 1";

fn ok(o: &Output) {
    assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
}

fn json(o: &Output) -> serde_json::Value {
    ok(o);
    serde_json::from_str(stdout(o).trim()).unwrap()
}

/// Saves KRK into `dir/krk.db`.
fn krk(dir: &Path) {
    ok(&run(
        &["game", "chess", "KRK", "--save", "krk.db", "-q"],
        dir,
    ));
}

/// Runs `play` with `input` on standard input.
fn play_with(dir: &Path, args: &[&str], input: &[u8]) -> std::process::Output {
    let mut child = bin()
        .arg("play")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

/// Runs `play` with `input` on standard input; returns the transcript.
fn play(dir: &Path, args: &[&str], input: &str) -> String {
    let out = play_with(dir, args, input.as_bytes());
    ok(&out);
    stdout(&out)
}

#[test]
fn a_saved_chess_ending_answers_a_query_as_the_solve_does() {
    let dir = retrograde::io::scratch_dir().unwrap();
    krk(dir.path());
    let q = json(&run(&["query", "krk.db", KRK_FEN, "--json"], dir.path()));
    let g = json(&run(
        &["game", "chess", "KRK", "--position", KRK_FEN, "--json"],
        dir.path(),
    ));
    let g = &g["position"];
    assert_eq!(q["position"], KRK_FEN);
    assert_eq!(q["to_move"], "white");
    assert_eq!(
        (&q["outcome"], &q["remoteness"]),
        (&g["outcome"], &g["remoteness"])
    );
    assert_eq!(q["outcome"], "win");
    let moves = |v: &serde_json::Value, at: &str| -> Vec<(String, String, String, u64)> {
        v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (
                    m["move"].as_str().unwrap().to_string(),
                    m[at].as_str().unwrap().to_string(),
                    m["outcome"].as_str().unwrap().to_string(),
                    m["remoteness"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(moves(&q, "position"), moves(g, "position"));
    // Best first, with the change in remoteness: 0 for the best move.
    assert_eq!(q["moves"][0]["delta"], 0);
    assert!(q["moves"][1]["delta"].as_i64().unwrap() > 0);
}

#[test]
fn query_prints_the_value_then_the_moves_best_first() {
    let dir = retrograde::io::scratch_dir().unwrap();
    krk(dir.path());
    let o = run(&["query", "krk.db", KRK_FEN], dir.path());
    ok(&o);
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], format!("{KRK_FEN}: win in 25 for white to move"));
    assert!(
        lines[1].contains("Ra1-a4") && lines[1].contains("win in 25") && lines[1].contains("+0"),
        "{text}"
    );
    assert!(
        lines[2].contains("win in 29") && lines[2].contains("+4"),
        "{text}"
    );
}

#[test]
fn a_position_not_in_the_game_exits_2_naming_it() {
    let dir = retrograde::io::scratch_dir().unwrap();
    krk(dir.path());
    // Kings side by side.
    let o = run(
        &["query", "krk.db", "8/8/8/8/8/8/8/RKk5 w - - 0 1"],
        dir.path(),
    );
    assert_refused(&o, "8/8/8/8/8/8/8/RKk5 w - - 0 1");
    let o = run(&["query", "krk.db", "not a fen"], dir.path());
    assert_refused(&o, "\"not a fen\" is not a position of chess KRK");
    // A smaller game of Dōbutsu shōgi: a board of its pieces it never reaches.
    ok(&run(
        &[
            "game",
            "dobutsu",
            "--start",
            "1l1/3/3/1L1 b -",
            "--save",
            "lions.db",
            "-q",
        ],
        dir.path(),
    ));
    let o = run(&["query", "lions.db", "L2/3/3/2l b -"], dir.path());
    assert_refused(&o, "not reachable from where it was solved");
    let o = run(&["query", "lions.db", "gle/1c1/1C1/ELG b -"], dir.path());
    assert_refused(&o, "this game has giraffes, elephants and chicks");
}

/// Where the data of a database starts: after the header, at a multiple of 4096.
fn data_start(bytes: &[u8]) -> usize {
    let len = u64::from_le_bytes(bytes[8..16].try_into().unwrap()) as usize;
    (24 + len).div_ceil(4096) * 4096
}

#[test]
fn a_flipped_byte_or_a_file_cut_short_exits_2_naming_the_block() {
    let dir = retrograde::io::scratch_dir().unwrap();
    krk(dir.path());
    let path = dir.path().join("krk.db");
    let good = std::fs::read(&path).unwrap();
    let mut bad = good.clone();
    let at = data_start(&good) + 100;
    bad[at] ^= 0x10;
    std::fs::write(&path, &bad).unwrap();
    for args in [
        &["query", "krk.db", KRK_FEN][..],
        &["analyze", "krk.db"],
        &["verify", "krk.db"],
    ] {
        let o = run(args, dir.path());
        assert_refused(&o, "krk.db: records block 0: checksum mismatch");
    }
    std::fs::write(&path, &good[..good.len() - 1000]).unwrap();
    let o = run(&["query", "krk.db", KRK_FEN], dir.path());
    assert_refused(&o, "the file is cut short");
    std::fs::write(&path, b"0 1\n").unwrap();
    let o = run(&["analyze", "krk.db"], dir.path());
    assert_refused(&o, "not a solution database");
}

#[test]
fn analyze_gives_the_counts_and_histogram_of_the_solve() {
    let dir = retrograde::io::scratch_dir().unwrap();
    krk(dir.path());
    let a = json(&run(
        &["analyze", "krk.db", "--json", "--svg", "krk.svg"],
        dir.path(),
    ));
    let g = json(&run(&["game", "chess", "KRK", "--json"], dir.path()));
    for key in ["positions", "counts", "longest", "histogram"] {
        assert_eq!(a[key], g[key], "{key}");
    }
    assert_eq!(a["game"], "chess");
    assert_eq!(a["variant"], "KRK");
    assert_eq!(a["longest_win"]["remoteness"], 31);
    assert_eq!(a["longest_loss"]["remoteness"], 32);
    // The example is a position of that value.
    let fen = a["longest_loss"]["position"].as_str().unwrap();
    let q = json(&run(&["query", "krk.db", fen, "--json"], dir.path()));
    assert_eq!(
        (q["outcome"].as_str(), q["remoteness"].as_u64()),
        (Some("lose"), Some(32))
    );
    let svg = std::fs::read_to_string(dir.path().join("krk.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("remoteness") && svg.ends_with("</svg>\n"));
    let text = stdout(&run(&["analyze", "krk.db"], dir.path()));
    assert!(text.contains("longest loss: 32 plies: "), "{text}");
}

#[test]
fn play_takes_moves_by_number_and_name_and_takes_them_back() {
    let dir = retrograde::io::scratch_dir().unwrap();
    ok(&run(
        &["game", "tic-tac-toe", "--save", "ttt.db", "-q"],
        dir.path(),
    ));
    let t = play(dir.path(), &["ttt.db"], "b2\nzz\nu\n1\nq\n");
    // Every legal move with its value before the move.
    assert!(t.contains("ply 0: X to move: tie in 9"), "{t}");
    assert!(t.contains("    5. b2         tie in 9"), "{t}");
    assert!(t.contains("your move: b2"), "{t}");
    // The perfect player answers in a corner (the only draw), then an unknown move is refused.
    assert!(t.contains("the perfect player plays a3"), "{t}");
    assert!(t.contains("\"zz\" is not a move here"), "{t}");
    // Taking back returns to the empty board, then move 1 is played.
    let plies: Vec<&str> = t.lines().filter(|l| l.starts_with("ply ")).collect();
    assert_eq!(plies[0], "ply 0: X to move: tie in 9");
    assert_eq!(plies[1], "ply 1: O to move: tie in 8");
    assert_eq!(plies[2], "ply 2: X to move: tie in 7");
    assert_eq!(plies[3], "ply 2: X to move: tie in 7", "{t}");
    assert_eq!(plies[4], "ply 0: X to move: tie in 9", "{t}");
    assert_eq!(plies[5], "ply 1: O to move: tie in 8", "{t}");
}

#[test]
fn play_reads_chess_moves_in_standard_algebraic_notation() {
    let dir = retrograde::io::scratch_dir().unwrap();
    krk(dir.path());
    // Ra4 (standard), a move that is no move, then black's king in the long form.
    let t = play(
        dir.path(),
        &["krk.db", "--position", KRK_FEN, "--you", "both"],
        "Ra4\nRb9\nKc3-d3\nq\n",
    );
    assert!(t.contains("\n4  R . . . . . . .\n"), "{t}");
    assert!(t.contains("\"Rb9\" is not a move here"), "{t}");
    assert!(t.contains("\n3  . . . k . . . .\n"), "{t}");
    let plies: Vec<&str> = t.lines().filter(|l| l.starts_with("ply ")).collect();
    assert_eq!(plies.len(), 4, "{t}");
    assert!(plies[3].starts_with("ply 2: white to move"), "{t}");
}

#[test]
fn every_command_counts_a_chess_ending_alike() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let o = run(
        &["game", "chess", "KRK", "--save", "krk.db", "--json"],
        dir.path(),
    );
    let game = json(&o)["positions"].as_u64().unwrap();
    let analyze = json(&run(&["analyze", "krk.db", "--json"], dir.path()));
    assert_eq!(analyze["positions"].as_u64(), Some(game));
    let v = json(&run(&["verify", "krk.db", "--json"], dir.path()));
    assert_eq!(v["positions"].as_u64(), Some(game), "{v}");
}

#[test]
fn a_move_that_changes_the_outcome_has_no_delta() {
    let dir = retrograde::io::scratch_dir().unwrap();
    krk(dir.path());
    // The rook hangs on b2: moves that leave it end level (a tie in 2).
    let fen = "8/8/8/8/8/2k5/1R6/7K w - - 0 1";
    let q = json(&run(&["query", "krk.db", fen, "--json"], dir.path()));
    let here = q["outcome"].as_str().unwrap();
    for m in q["moves"].as_array().unwrap() {
        let same = m["outcome"].as_str() == Some(here);
        assert_eq!(m["delta"].is_null(), !same, "{m}");
    }
    assert!(
        q["moves"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["delta"].is_null())
    );
}

#[test]
fn watching_plays_best_moves_to_the_end_of_the_game() {
    let dir = retrograde::io::scratch_dir().unwrap();
    ok(&run(
        &["game", "tic-tac-toe", "--save", "ttt.db", "-q"],
        dir.path(),
    ));
    let t = play(dir.path(), &["ttt.db", "--watch"], "");
    let moves = t
        .lines()
        .filter(|l| l.starts_with("the perfect player plays "))
        .count();
    assert_eq!(moves, 9, "{t}");
    assert!(
        t.contains("ply 9: O to move: tie in 0\ngame over: the board is full: a tie"),
        "{t}"
    );
}

#[test]
fn every_kind_of_saved_game_plays_and_verifies() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let d = dir.path();
    let board = data("../../examples/boards/museum.txt");
    let board = board.to_str().unwrap();
    ok(&run(&["cop-thief", board, "--save", "museum.db", "-q"], d));
    ok(&run(
        &[
            "game",
            "chess",
            "KQK",
            "--save",
            "kqk.db",
            "--uncompressed",
            "-q",
        ],
        d,
    ));
    ok(&run(
        &[
            "game",
            "dobutsu",
            "--start",
            "1l1/3/3/1L1 b -",
            "--save",
            "lions.db",
            "-q",
        ],
        d,
    ));
    ok(&run(&["game", "tic-tac-toe", "--save", "ttt.db", "-q"], d));
    let graph = data("chase.txt");
    ok(&run(
        &["solve", graph.to_str().unwrap(), "--save", "chase.db", "-q"],
        d,
    ));
    for (db, start, last) in [
        // Each game says how it ended, in its own words.
        (
            "museum.db",
            None,
            "game over: the thief reaches an exit: the thief wins",
        ),
        (
            "kqk.db",
            Some("8/8/8/8/8/2k5/8/1Q1K4 w - - 0 1"),
            "game over: checkmate: white wins",
        ),
        (
            "lions.db",
            None,
            "game over: Sente's lion reached the far rank safely (the try): Sente wins",
        ),
        ("ttt.db", None, "game over: the board is full: a tie"),
    ] {
        let mut args = vec![db, "--watch"];
        if let Some(s) = start {
            args.extend(["--position", s]);
        }
        let t = play(d, &args, "");
        assert!(t.trim_end().ends_with(last), "{db}: {t}");
        let v = run(&["verify", db], d);
        ok(&v);
        assert!(stderr(&v).contains("verified: "), "{}", stderr(&v));
    }
    // A graph: positions and moves are vertex ids.
    let q = json(&run(&["query", "chase.db", "0", "--json"], d));
    assert!(q["moves"].as_array().is_some());
    let t = play(
        d,
        &["chase.db", "--position", "0", "--you", "both"],
        "1\nq\n",
    );
    assert!(t.contains("ply 1: "), "{t}");
    // The board, a vertex's name, is a line of its own.
    assert!(t.contains("\n0\nply 0: "), "{t}");
    let v = run(&["verify", "chase.db"], d);
    ok(&v);
    ok(&run(&["verify", graph.to_str().unwrap(), "chase.db"], d));
    let o = run(&["query", "chase.db", "99999"], d);
    assert_refused(&o, "99999 is not a position of graph");
}

#[test]
fn verify_refuses_a_database_of_another_game() {
    let dir = retrograde::io::scratch_dir().unwrap();
    krk(dir.path());
    let graph = data("chase.txt");
    let o = run(&["verify", graph.to_str().unwrap(), "krk.db"], dir.path());
    assert_refused(&o, "krk.db is a database of chess KRK, not of a graph");
}

#[test]
fn verify_names_the_rules_a_database_was_solved_under_before_judging_it() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let d = dir.path();
    let graph = data("chase.txt");
    let g = graph.to_str().unwrap();
    ok(&run(
        &["solve", g, "--no-move", "win", "--save", "misere.db"],
        d,
    ));
    // Right under its own rules.
    ok(&run(&["verify", g, "misere.db", "--no-move", "win"], d));
    // Checked under other rules: the difference named, not violations.
    let o = run(&["verify", g, "misere.db"], d);
    assert_refused(
        &o,
        "misere.db was solved with --no-move win, but is checked with --no-move lose",
    );
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    std::fs::write(d.join("labels.txt"), "2 win\n").unwrap();
    ok(&run(
        &[
            "solve",
            g,
            "--terminal",
            "labels.txt",
            "--save",
            "labelled.db",
        ],
        d,
    ));
    ok(&run(
        &["verify", g, "labelled.db", "--terminal", "labels.txt"],
        d,
    ));
    let o = run(&["verify", g, "labelled.db"], d);
    assert_refused(
        &o,
        "labelled.db was solved with 1 terminal label (--terminal labels.txt), but 0 were given",
    );
    // A PGSolver game's reachability target, and who reaches it.
    let arena =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/arenas/charger.gm");
    let a = arena.to_str().unwrap();
    ok(&run(&["solve", a, "--reach", "1", "--save", "reach.db"], d));
    ok(&run(&["verify", a, "reach.db", "--reach", "1"], d));
    let o = run(
        &["verify", a, "reach.db", "--reach", "1", "--reacher", "0"],
        d,
    );
    assert_refused(
        &o,
        "reach.db was solved with --reach 1 --reacher 1, but is checked with --reach 1 --reacher 0",
    );
}

#[test]
fn save_refuses_to_overwrite_its_input() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let graph = dir.path().join("g.txt");
    std::fs::write(&graph, "0 1\n").unwrap();
    let o = run(&["solve", "g.txt", "--save", "g.txt"], dir.path());
    assert_refused(&o, "g.txt is both an input and an output");
    assert_eq!(std::fs::read_to_string(&graph).unwrap(), "0 1\n");
}

#[test]
fn dot_colours_vertices_by_outcome_and_draws_best_moves_bold() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let graph = data("chase.txt");
    ok(&run(
        &["solve", graph.to_str().unwrap(), "--dot", "g.dot", "-q"],
        dir.path(),
    ));
    let text = std::fs::read_to_string(dir.path().join("g.dot")).unwrap();
    assert!(text.starts_with("// retrograde solve --dot") && text.contains("digraph game {"));
    // chase.txt: 7 wins in 5, 5 draws, 2 loses at once.
    assert!(
        text.contains("  7 [label=\"7\\nwin in 5\", fillcolor=\"#009E73\", fontcolor=black];"),
        "{text}"
    );
    assert!(
        text.contains("  5 [label=\"5\\ndraw\", fillcolor=\"#E69F00\", fontcolor=black];"),
        "{text}"
    );
    assert!(
        text.contains("  2 [label=\"2\\nlose in 0\", fillcolor=\"#D55E00\", fontcolor=black];"),
        "{text}"
    );
    assert!(text.contains("  7 -> 4 [penwidth=3];"), "{text}");
    assert!(text.contains("  7 -> 7;"), "{text}");
    assert_eq!(text.matches("->").count(), 14);
}

#[test]
fn play_stops_naming_the_line_of_standard_input_that_is_not_utf8() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let d = dir.path();
    ok(&run(&["game", "tic-tac-toe", "--save", "t.db", "-q"], d));
    let out = play_with(d, &["t.db", "--you", "both"], b"5\nb2\xff\n1\n");
    assert_refused(
        &out,
        "standard input, line 2: not UTF-8 text (expected a move's number or name, u or q)",
    );
    // The first line was played.
    assert!(stdout(&out).contains("ply 1"), "{}", stdout(&out));
}

/// A small database (written with the library, as any user's program
/// may) whose records and header claim a remoteness of four billion.
fn far_database(path: &Path) {
    use retrograde::{Outcome, Value};
    let value = |r: u64| {
        let outcome = if r.is_multiple_of(2) {
            Outcome::Win
        } else {
            Outcome::Lose
        };
        Some(Value::new(outcome, Some(4_000_000_000 + r as u32)))
    };
    retrograde::db::Writer::new(retrograde::db::Meta::new("far"))
        .write(
            path,
            &retrograde::db::Source {
                records: 3,
                value,
                keys: None,
                moves: None,
                names: None,
                grundy: None,
                owners: None,
            },
        )
        .unwrap();
}

#[test]
fn analyze_of_a_database_claiming_a_huge_remoteness_allocates_by_its_records() {
    let dir = retrograde::io::scratch_dir().unwrap();
    far_database(&dir.path().join("far.db"));
    // A histogram indexed by remoteness would ask for 96 GB here.
    let j = json(&run(
        &["analyze", "far.db", "--json", "--svg", "far.svg"],
        dir.path(),
    ));
    assert_eq!(j["positions"], 3);
    assert_eq!(j["longest_win"]["remoteness"], 4_000_000_002u64);
    let levels: Vec<u64> = j["histogram"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["remoteness"].as_u64().unwrap())
        .collect();
    assert_eq!(levels, [4_000_000_000, 4_000_000_001, 4_000_000_002]);
    let svg = std::fs::read_to_string(dir.path().join("far.svg")).unwrap();
    assert_eq!(svg.matches("<title>remoteness ").count(), 3);
    // Its histogram is counted before it is made.
    let o = run(&["analyze", "far.db", "--max-memory", "100"], dir.path());
    assert_refused(&o, "a histogram of up to 3 remotenesses would need about");
}

#[test]
fn a_graph_of_names_is_saved_with_them_and_queried_and_played_by_name() {
    let dir = retrograde::io::scratch_dir().unwrap();
    std::fs::write(
        dir.path().join("walk.txt"),
        "# home -> away -> pit; pit has no move\nhome away\naway pit\n",
    )
    .unwrap();
    ok(&run(
        &["solve", "walk.txt", "--names", "--save", "walk.db", "-q"],
        dir.path(),
    ));
    let q = json(&run(&["query", "walk.db", "home", "--json"], dir.path()));
    assert_eq!(q["position"], "home");
    assert_eq!(
        (&q["outcome"], &q["remoteness"]),
        (&"lose".into(), &2.into())
    );
    assert_eq!(q["moves"][0]["position"], "away");
    // A number still names a vertex; an unknown name is refused, exit 2.
    let q = json(&run(&["query", "walk.db", "2", "--json"], dir.path()));
    assert_eq!(q["position"], "pit");
    let o = run(&["query", "walk.db", "nowhere"], dir.path());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("expected a position's name"),
        "{}",
        stderr(&o)
    );
    let t = play(dir.path(), &["walk.db", "--position", "home"], "away\nq\n");
    assert!(t.contains("your move: away"), "{t}");
}

#[test]
fn in_play_a_move_named_by_a_number_is_that_move() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let d = dir.path();
    // At "a" the moves go to "2" and to "b", both losses for the mover
    // there: "2" names the move to vertex 2, whatever its place in the
    // list (as the page's &move=2 does); "#2" is the second in the list.
    std::fs::write(d.join("g.txt"), "a 2\na b\nb c\n2 c\nc e\n").unwrap();
    ok(&run(&["solve", "g.txt", "--names", "--save", "g.db"], d));
    let t = play(d, &["g.db", "--position", "a", "--you", "both"], "2\nq\n");
    assert!(t.contains("\n2\nply 1: "), "{t}");
    let t = play(d, &["g.db", "--position", "a", "--you", "both"], "#2\nq\n");
    let second = t
        .lines()
        .find(|l| l.trim_start().starts_with("2. "))
        .and_then(|l| l.split_whitespace().nth(1))
        .unwrap()
        .to_string();
    assert!(t.contains(&format!("\n{second}\nply 1: ")), "{t}");
}
