//! The web explorer in a real browser: `tests/browser/test.mjs` (Debian's
//! Chromium driven by playwright-core) against `retrograde serve`. Needs
//! `node`, Chromium (`/usr/bin/chromium`, or `CHROMIUM`) and
//! `npm ci --prefix tests/browser`; `.ci/run` installs them and sets
//! `RETROGRADE_BROWSER=required`. Elsewhere, without them, the test says
//! what is missing and passes.

use std::path::Path;
use std::process::Command;

use crate::common::*;

#[test]
fn the_page_plays_moves_and_animates_the_solve_in_a_browser() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let script = root.join("tests/browser/test.mjs");
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let missing = [
        (
            Command::new("node").arg("--version").output().is_err(),
            "node",
        ),
        (
            !Path::new(&chromium).exists(),
            "Chromium (/usr/bin/chromium)",
        ),
        (
            !root
                .join("tests/browser/node_modules/playwright-core")
                .exists(),
            "playwright-core (npm ci --prefix tests/browser)",
        ),
    ];
    let missing: Vec<&str> = missing.iter().filter(|m| m.0).map(|m| m.1).collect();
    if !missing.is_empty() {
        // CI sets RETROGRADE_BROWSER=required: there the test must run.
        let required = std::env::var("RETROGRADE_BROWSER").is_ok_and(|v| v == "required");
        assert!(!required, "the browser test needs {}", missing.join(", "));
        skipped(
            "the browser test",
            &format!("it needs {}", missing.join(", ")),
        );
        return;
    }
    let dir = retrograde::io::scratch_dir().unwrap();
    let d = dir.path();
    let ok = |args: &[&str]| {
        let o = run(args, d);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    };
    ok(&["game", "tic-tac-toe", "--save", "ttt.db", "-q"]);
    ok(&["game", "chess", "KRK", "--save", "krk.db", "-q"]);
    ok(&[
        "game",
        "dobutsu",
        "--start",
        "1l1/3/3/1L1 b -",
        "--save",
        "lions.db",
        "-q",
    ]);
    // The lions with an elephant and a chick in Sente's hand: drops.
    ok(&[
        "game",
        "dobutsu",
        "--start",
        "1l1/3/3/1L1 b EC",
        "--save",
        "hand.db",
        "-q",
    ]);
    std::fs::copy(root.join("examples/graphs/chase.txt"), d.join("chase.txt")).unwrap();
    ok(&["solve", "chase.txt", "--save", "chase.db", "-q"]);
    // A graph of names, one with a character an address escapes.
    std::fs::write(d.join("walk.txt"), "home away/far\naway/far pit\n").unwrap();
    ok(&["solve", "walk.txt", "--names", "--save", "walk.db", "-q"]);
    let corridor = data("boards/corridor.txt");
    ok(&[
        "cop-thief",
        corridor.to_str().unwrap(),
        "--save",
        "corridor.db",
        "-q",
    ]);
    ok(&[
        "game",
        "dots-and-boxes",
        "--rows",
        "1",
        "--cols",
        "2",
        "--save",
        "dots.db",
        "-q",
    ]);
    // A board with draws (a wall between the cop and the thief), and an open
    // 12 x 12 board: the lesson's largest.
    let apart = data("boards/walled_apart.txt");
    ok(&[
        "cop-thief",
        apart.to_str().unwrap(),
        "--save",
        "apart.db",
        "-q",
    ]);
    let mut open = String::from("# An open board, 12 x 12.\n12 12\nP...........\n");
    for _ in 0..10 {
        open.push_str("............\n");
    }
    open.push_str("...........T\n");
    std::fs::write(d.join("open12.txt"), open).unwrap();
    ok(&["cop-thief", "open12.txt", "--save", "open12.db", "-q"]);
    // Nine Men's Morris with three stones each, from the empty board: its
    // placement and moving tiers, each a database.
    ok(&[
        "game",
        "nine-mens-morris",
        "0.3-0.3",
        "--tiers",
        "morris3",
        "-q",
    ]);
    // The tutorial's game, saved by its own binary (built beside the tool's).
    let morris = Path::new(env!("CARGO_BIN_EXE_retrograde"))
        .with_file_name("examples")
        .join("morris");
    let o = Command::new(&morris)
        .args(["game", "morris", "--save", "morris.db", "-q"])
        .current_dir(d)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let artifacts = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser");
    std::fs::create_dir_all(&artifacts).unwrap();
    let out = Command::new("node")
        .arg(&script)
        .env("RETROGRADE_BIN", env!("CARGO_BIN_EXE_retrograde"))
        .env("MORRIS_BIN", &morris)
        .env("WORK", d)
        .env("ARTIFACTS", &artifacts)
        .env("CHROMIUM", &chromium)
        .output()
        .unwrap();
    let (o, e) = (stdout(&out), stderr(&out));
    assert!(out.status.success(), "{o}\n{e}");
    assert!(o.contains("checks passed"), "{o}\n{e}");
    for shot in [
        "tic-tac-toe.png",
        "tic-tac-toe-phone.png",
        "chess-krk.png",
        "chess-krk-phone.png",
        "chase-solved.png",
        "chase-phone.png",
        "cop-thief-lesson.png",
        "cop-thief-lesson-phone.png",
        "morris.png",
        "nine-mens-morris.png",
        "nine-mens-morris-phone.png",
    ] {
        let len = std::fs::metadata(artifacts.join(shot))
            .map(|m| m.len())
            .unwrap_or(0);
        assert!(len > 1000, "{shot}: {len} bytes");
    }
}
