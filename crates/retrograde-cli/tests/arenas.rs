//! Arenas: graphs whose vertices have owners (`solve --owners`) and
//! PGSolver games solved for reachability (`solve --reach`), through every
//! engine, `verify`, the database and `query`; bad input refused naming
//! the file and line.

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::*;

/// A file of `examples/arenas`.
fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/arenas")
        .join(name)
}

/// The lines of a fixture, comments left out.
fn fixture(name: &str) -> String {
    fs::read_to_string(data(name))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect()
}

fn ok(o: &std::process::Output) -> String {
    assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
    stdout(o)
}

#[test]
fn a_pgsolver_game_gives_the_hand_worked_winners_and_strategies() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let gm = example("charger.gm");
    let gm = gm.to_str().unwrap();
    let o = run(
        &["solve", gm, "--reach", "2", "--pgsolver", "charger.sol"],
        dir.path(),
    );
    let said = stderr(&o);
    ok(&o);
    assert_eq!(
        fs::read_to_string(dir.path().join("charger.sol")).unwrap(),
        fixture("charger.sol")
    );
    assert!(
        said.contains("player 0 wins from 7 vertices, player 1 from 1"),
        "{said}"
    );
    let o = run(&["solve", gm, "--reach", "2", "--json", "-q"], dir.path());
    let j: serde_json::Value = serde_json::from_str(&ok(&o)).unwrap();
    assert_eq!(j["owners"], serde_json::json!({"player0": 4, "player1": 4}));
    assert_eq!(
        j["reach"],
        serde_json::json!({"priority": 2, "reacher": 0, "wins": {"player0": 7, "player1": 1}})
    );
    // The other player reaching it: the same target, the roles swapped.
    let o = run(
        &[
            "solve",
            gm,
            "--reach",
            "2",
            "--reacher",
            "1",
            "--pgsolver",
            "-",
            "-q",
        ],
        dir.path(),
    );
    let swapped = ok(&o);
    assert!(swapped.starts_with("paritysol 7;\n"), "{swapped}");
    assert!(
        swapped.contains("\n3 1;\n"),
        "the charger is reached by 1 at once: {swapped}"
    );
}

#[test]
fn an_edge_list_with_owners_solves_as_its_pgsolver_game_on_every_engine() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let d = dir.path();
    let gm = example("charger.gm");
    let want = ok(&run(
        &[
            "solve",
            gm.to_str().unwrap(),
            "--reach",
            "2",
            "-o",
            "-",
            "-q",
        ],
        d,
    ));
    let (txt, owners, labels) = (
        example("charger.txt"),
        example("charger.owners"),
        example("charger.labels"),
    );
    let base = [
        "solve",
        txt.to_str().unwrap(),
        "--owners",
        owners.to_str().unwrap(),
        "--terminal",
        labels.to_str().unwrap(),
        "-o",
        "-",
        "-q",
    ];
    for engine in [
        &["--engine", "sequential"][..],
        &["--engine", "parallel", "-j", "2"],
        &["--engine", "timely", "-j", "3"],
    ] {
        let mut args = base.to_vec();
        args.extend_from_slice(engine);
        let got = ok(&run(&args, d));
        assert_eq!(got, want, "{engine:?}");
    }
    // Without the owners, the players alternate: another game.
    let alternating = ok(&run(
        &[
            "solve",
            txt.to_str().unwrap(),
            "--terminal",
            labels.to_str().unwrap(),
            "-o",
            "-",
            "-q",
        ],
        d,
    ));
    assert_ne!(alternating, want);
}

#[test]
fn verify_checks_a_solution_against_the_owners() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let d = dir.path();
    let gm = example("charger.gm");
    let gm = gm.to_str().unwrap();
    ok(&run(
        &[
            "solve",
            gm,
            "--reach",
            "2",
            "-o",
            "sol.tsv",
            "--save",
            "charger.db",
            "-q",
        ],
        d,
    ));
    let o = run(&["verify", gm, "sol.tsv", "--reach", "2"], d);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run(&["verify", gm, "charger.db", "--reach", "2"], d);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // The same solution checked as if the players alternated is wrong.
    let (txt, labels) = (example("charger.txt"), example("charger.labels"));
    let o = run(
        &[
            "verify",
            txt.to_str().unwrap(),
            "sol.tsv",
            "--terminal",
            labels.to_str().unwrap(),
        ],
        d,
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
}

#[test]
fn verify_refuses_a_database_checked_against_other_owners_than_it_keeps() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let d = dir.path();
    let (txt, owners, labels) = (
        example("charger.txt"),
        example("charger.owners"),
        example("charger.labels"),
    );
    let (txt, owners, labels) = (
        txt.to_str().unwrap(),
        owners.to_str().unwrap(),
        labels.to_str().unwrap(),
    );
    ok(&run(
        &[
            "solve",
            txt,
            "--owners",
            owners,
            "--terminal",
            labels,
            "--save",
            "a.db",
            "-q",
        ],
        d,
    ));
    assert_refused(
        &run(&["verify", "a.db"], d),
        "charger.labels --owners OWNERS a.db",
    );
    assert_refused(
        &run(&["verify", txt, "--terminal", labels, "a.db"], d),
        "a.db keeps the owners of an arena: give them with --owners FILE",
    );
    let flipped: String = fs::read_to_string(owners)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let (v, o) = l.split_once(' ').unwrap();
            format!("{v} {}\n", 1 - o.parse::<u8>().unwrap())
        })
        .collect();
    fs::write(d.join("flipped.owners"), flipped).unwrap();
    assert_refused(
        &run(
            &[
                "verify",
                txt,
                "--terminal",
                labels,
                "--owners",
                "flipped.owners",
                "a.db",
            ],
            d,
        ),
        "a.db says player 0 moves at vertex 0, but the owners given say player 1",
    );
    let o = run(
        &[
            "verify",
            txt,
            "--terminal",
            labels,
            "--owners",
            owners,
            "a.db",
        ],
        d,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    ok(&run(
        &[
            "solve",
            txt,
            "--terminal",
            labels,
            "--save",
            "plain.db",
            "-q",
        ],
        d,
    ));
    assert_refused(
        &run(
            &[
                "verify",
                txt,
                "--terminal",
                labels,
                "--owners",
                owners,
                "plain.db",
            ],
            d,
        ),
        "plain.db keeps no owners",
    );
}

#[test]
fn a_saved_arena_says_who_moves_and_values_moves_that_keep_the_turn() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let d = dir.path();
    let gm = example("charger.gm");
    ok(&run(
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
    ));
    // 0 (player 0) may move to 7 (player 0 again): a win in 3 for the mover
    // whose value at 7 is not flipped.
    let o = run(&["query", "charger.db", "0", "--json"], d);
    let j: serde_json::Value = serde_json::from_str(&ok(&o)).unwrap();
    assert_eq!(j["to_move"], "player 0");
    let moves = j["moves"].as_array().unwrap();
    let to = |p: &str| moves.iter().find(|m| m["position"] == p).unwrap();
    assert_eq!(
        (to("7")["outcome"].as_str(), to("7")["remoteness"].as_u64()),
        (Some("win"), Some(3))
    );
    assert_eq!(
        (to("1")["outcome"].as_str(), to("1")["remoteness"].as_u64()),
        (Some("win"), Some(3))
    );
    assert_eq!(to("4")["outcome"], "draw");
    // The game's `start 0;` is where query, play and the page start.
    let o = run(&["query", "charger.db"], d);
    assert_eq!(
        ok(&o),
        "0: win in 3 for player 0 to move\n  1  win in 3        +0  1\n  7  win in 3        +0  7\n  4  draw             -  4\n"
    );
    let o = run(&["query", "charger.db", "5"], d);
    assert!(
        ok(&o).starts_with("5: lose in 4 for player 1 to move"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn bad_arenas_are_refused_naming_the_file_and_line() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let d = dir.path();
    let gm = example("charger.gm");
    let gm = gm.to_str().unwrap();
    assert_refused(
        &run(&["solve", gm], d),
        "is a PGSolver game: --reach PRIORITY names its target",
    );
    assert_refused(
        &run(&["solve", gm, "--reach", "2", "--names"], d),
        "drop --names, --terminal, --owners and --vertices",
    );
    assert_refused(&run(&["grundy", gm], d), "is a PGSolver game");
    fs::write(d.join("bad.gm"), "parity 1;\n0 0 0 1;\n1 0 2 0;\n").unwrap();
    assert_refused(
        &run(&["solve", "bad.gm", "--reach", "0"], d),
        "bad.gm:line 3: expected an owner, 0 or 1, found 2",
    );
    fs::write(d.join("g.txt"), "0 1\n1 2\n").unwrap();
    fs::write(d.join("o.txt"), "0 0\n1 1\n").unwrap();
    assert_refused(
        &run(&["solve", "g.txt", "--owners", "o.txt"], d),
        "o.txt: vertex 2 has no owner",
    );
    fs::write(d.join("o.txt"), "0 0\n1 1\n2 3\n").unwrap();
    assert_refused(
        &run(&["solve", "g.txt", "--owners", "o.txt"], d),
        "o.txt:line 3: expected an owner, 0 or 1, found \"3\"",
    );
    assert_refused(
        &run(&["solve", "g.txt", "--reach", "1"], d),
        "--reach applies to PGSolver games",
    );
    assert_refused(
        &run(&["solve", "-", "--reach", "1"], d),
        "--reach reads a PGSolver game from a file",
    );
    assert_refused(
        &run(&["solve", "g.txt", "--pgsolver", "x.sol"], d),
        "--pgsolver writes the solution of a PGSolver game",
    );
}

#[test]
fn dots_and_boxes_is_solved_queried_and_played_with_the_extra_turn() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let d = dir.path();
    let o = run(
        &[
            "game",
            "dots-and-boxes",
            "--rows",
            "2",
            "--cols",
            "2",
            "--save",
            "db.db",
        ],
        d,
    );
    let said = stderr(&o);
    let start = ok(&o);
    // 3 x 3 dots: a first-player win (Berlekamp, The Dots-and-Boxes Game).
    assert_eq!(start, "000000000000/0-0/0: win in 12 for player 0\n");
    assert!(said.contains("5,349 positions"), "{said}");
    let o = run(
        &[
            "game",
            "dots-and-boxes",
            "--rows",
            "1",
            "--cols",
            "2",
            "--save",
            "db12.db",
            "-q",
        ],
        d,
    );
    ok(&o);
    // Lines h0,0 h1,0 v0,0 drawn, player 1 to move: v0,1 closes the left
    // box, and player 1 moves again.
    let o = run(&["query", "db12.db", "1010100/0-0/1", "--json"], d);
    let j: serde_json::Value = serde_json::from_str(&ok(&o)).unwrap();
    let close = j["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] == "v0,1")
        .unwrap();
    assert_eq!(
        (close["position"].as_str(), close["outcome"].as_str()),
        (Some("1010110/0-1/1"), Some("win"))
    );
    let o = bin()
        .args(["play", "db12.db", "--position", "1010100/0-0/1"])
        .current_dir(d)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(b"v0,1\nq\n")?;
            child.wait_with_output()
        })
        .unwrap();
    let shown = stdout(&o);
    assert_eq!(
        shown.matches("your move:").count(),
        2,
        "the box gives another move: {shown}"
    );
    assert!(shown.contains("ply 1: player 1 to move"), "{shown}");
    assert_refused(
        &run(&["game", "dots-and-boxes", "--rows", "0"], d),
        "a board of 0 x 2 boxes",
    );
}

#[test]
fn a_pgsolver_game_and_an_arena_solve_on_a_cluster_of_processes() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let d = dir.path();
    let hosts = write_hostfile(d, &free_addresses(2));
    let gm = example("charger.gm");
    let outputs = run_all((0..2).map(|p| {
        let mut c = bin();
        c.args([
            "solve",
            gm.to_str().unwrap(),
            "--reach",
            "2",
            "--pgsolver",
            "cluster.sol",
        ])
        .args([
            "--cluster",
            hosts.to_str().unwrap(),
            "--process",
            &p.to_string(),
        ])
        .args(["--threads", "2", "--connect-timeout", "120", "-q"])
        .current_dir(d);
        c
    }));
    for (p, o) in outputs.iter().enumerate() {
        assert!(o.status.success(), "process {p}: {}", stderr(o));
    }
    assert_eq!(
        fs::read_to_string(d.join("cluster.sol")).unwrap(),
        fixture("charger.sol")
    );
    // The arena as an edge list and an owners file, which every process reads.
    let want = ok(&run(
        &[
            "solve",
            gm.to_str().unwrap(),
            "--reach",
            "2",
            "-o",
            "-",
            "-q",
        ],
        d,
    ));
    let (txt, owners, labels) = (
        example("charger.txt"),
        example("charger.owners"),
        example("charger.labels"),
    );
    let hosts = write_hostfile(d, &free_addresses(2));
    let outputs = run_all((0..2).map(|p| {
        let mut c = bin();
        c.args([
            "solve",
            txt.to_str().unwrap(),
            "--owners",
            owners.to_str().unwrap(),
        ])
        .args(["--terminal", labels.to_str().unwrap(), "-o", "arena.tsv"])
        .args([
            "--cluster",
            hosts.to_str().unwrap(),
            "--process",
            &p.to_string(),
        ])
        .args(["--connect-timeout", "120", "-q"])
        .current_dir(d);
        c
    }));
    for (p, o) in outputs.iter().enumerate() {
        assert!(o.status.success(), "process {p}: {}", stderr(o));
    }
    assert_eq!(fs::read_to_string(d.join("arena.tsv")).unwrap(), want);
}
