//! Integration tests that run the real `retrograde` binary.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_retrograde"))
}

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data")
        .join(name)
}

fn run(args: &[&str], cwd: &Path) -> Output {
    bin().args(args).current_dir(cwd).output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Every `tests/data/NAME.txt` with a `NAME.expected` is solved with the
/// arguments on its `# args:` line and compared byte for byte.
#[test]
fn hand_worked_fixtures_solve_to_their_expected_files() {
    let dir = data("");
    let out_dir = tempfile::tempdir().unwrap();
    let mut checked = 0;
    for entry in fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "txt") {
            continue;
        }
        let expected = path.with_extension("expected");
        if !expected.exists() {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap();
        let extra: Vec<&str> = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("# args:"))
            .map(|a| a.split_whitespace().collect())
            .unwrap_or_default();
        let out = out_dir.path().join("solution.tsv");
        let mut args = vec![
            "solve",
            path.to_str().unwrap(),
            "-q",
            "-o",
            out.to_str().unwrap(),
        ];
        args.extend(extra);
        let o = run(&args, &dir);
        assert!(o.status.success(), "{}: {}", path.display(), stderr(&o));
        assert_eq!(
            fs::read_to_string(&out).unwrap(),
            fs::read_to_string(&expected).unwrap(),
            "{}",
            path.display()
        );
        checked += 1;
    }
    assert!(checked >= 3, "only {checked} fixtures found");
}

#[test]
fn summary_reports_counts_and_longest_remoteness() {
    let o = run(&["solve", "chase.txt"], &data(""));
    assert!(o.status.success(), "{}", stderr(&o));
    let s = stdout(&o);
    assert!(s.contains("10 vertices, 14 edges"), "{s}");
    assert!(
        s.contains("solved: 4 win, 3 lose, 3 draw, longest remoteness 5"),
        "{s}"
    );
    assert!(s.contains("peak memory"), "{s}");
}

#[test]
fn query_and_line_print_to_stdout() {
    let o = run(
        &[
            "solve",
            "chase.txt",
            "-q",
            "--query",
            "3",
            "--line",
            "4",
            "--line",
            "8",
        ],
        &data(""),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let s = stdout(&o);
    assert!(s.starts_with("3\twin\t3\t0\n"), "{s}");
    assert!(
        s.contains("line from 4 (lose in 4 for the player to move)"),
        "{s}"
    );
    assert!(s.contains("game over at 2: lose"), "{s}");
    assert!(s.contains("ply 3 repeats ply 1"), "{s}");
}

#[test]
fn reads_standard_input() {
    let mut child = bin()
        .args(["solve", "-", "-q", "--query", "0"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"0 1\n1 2\n")
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success());
    assert_eq!(stdout(&o), "0\tlose\t2\t1\n");
}

#[test]
fn bad_edge_list_exits_2_naming_file_and_line_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("bad.txt"), "0 1\n# fine\n1 two\n").unwrap();
    let o = run(&["solve", "bad.txt", "-o", "out.tsv"], dir.path());
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("bad.txt:line 3: expected the second vertex id"),
        "{e}"
    );
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(!dir.path().join("out.tsv").exists());
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn missing_input_and_unwritable_output_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(&["solve", "nope.txt"], dir.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("nope.txt"));
    fs::write(dir.path().join("g.txt"), "0 1\n").unwrap();
    let o = run(&["solve", "g.txt", "-o", "no/such/dir/out.tsv"], dir.path());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = run(&["solve", "."], dir.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("directory"), "{}", stderr(&o));
}

#[test]
fn vertex_outside_the_graph_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("g.txt"), "0 1\n").unwrap();
    let o = run(&["solve", "g.txt", "--query", "2"], dir.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("vertex 2 is not in the graph"),
        "{}",
        stderr(&o)
    );
    let o = run(&["solve", "g.txt", "--vertices", "1"], dir.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("g.txt:line 1"), "{}", stderr(&o));
}

#[test]
fn huge_vertex_id_is_refused_without_allocating() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("g.txt"), "0 4294967294\n").unwrap();
    let o = run(&["solve", "g.txt", "--max-memory", "64M"], dir.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("memory"), "{}", stderr(&o));
}

#[test]
fn bad_usage_exits_2() {
    let o = run(&["solve", "x", "--no-move", "maybe"], Path::new("."));
    assert_eq!(o.status.code(), Some(2));
    let o = run(&["frobnicate"], Path::new("."));
    assert_eq!(o.status.code(), Some(2));
}

/// `retrograde verify`: accepts what `solve` writes, rejects tampered files.
mod verify {
    use super::*;

    /// The `# args:` line of a fixture.
    fn fixture_args(path: &Path) -> Vec<String> {
        let text = fs::read_to_string(path).unwrap();
        text.lines()
            .next()
            .and_then(|l| l.strip_prefix("# args:"))
            .map(|a| a.split_whitespace().map(String::from).collect())
            .unwrap_or_default()
    }

    #[test]
    fn accepts_every_expected_fixture_solution() {
        let dir = data("");
        let mut checked = 0;
        for name in ["chase", "labelled", "misere"] {
            let graph = format!("{name}.txt");
            let expected = format!("{name}.expected");
            let mut args = vec!["verify".to_string(), graph, expected];
            args.extend(fixture_args(&dir.join(format!("{name}.txt"))));
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let o = run(&args, &dir);
            assert_eq!(
                o.status.code(),
                Some(0),
                "{name}: {}{}",
                stdout(&o),
                stderr(&o)
            );
            assert!(stdout(&o).starts_with("verified: "), "{}", stdout(&o));
            checked += 1;
        }
        assert_eq!(checked, 3);
    }

    #[test]
    fn tampered_solution_exits_1_listing_violations() {
        let dir = tempfile::tempdir().unwrap();
        let good = fs::read_to_string(data("chase.expected")).unwrap();
        // 7 is a win in 5 via 4; claim a win in 3.
        let bad = good.replace("7\twin\t5\t4", "7\twin\t3\t4");
        assert_ne!(good, bad);
        fs::write(dir.path().join("bad.tsv"), bad).unwrap();
        let o = run(
            &["verify", data("chase.txt").to_str().unwrap(), "bad.tsv"],
            dir.path(),
        );
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        let s = stdout(&o);
        assert!(
            s.contains("bad.tsv: vertex 7 (win in 3): a win must take 1 + the least remoteness of its lose successors = 5 plies"),
            "{s}"
        );
        assert!(s.contains("wrong: 2 violations"), "{s}");
    }

    #[test]
    fn wrong_rule_exits_1_and_show_limits_the_list() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("g.txt"), "0 1\n").unwrap();
        let o = run(
            &["solve", "g.txt", "--vertices", "5", "-q", "-o", "s.tsv"],
            dir.path(),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        // Under the misère rule the four stuck vertices 1..=4 are wins.
        let o = run(
            &[
                "verify",
                "g.txt",
                "s.tsv",
                "--vertices",
                "5",
                "--no-move",
                "win",
                "--show",
                "1",
                "-q",
            ],
            dir.path(),
        );
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        let s = stdout(&o);
        assert_eq!(s.lines().count(), 2, "{s}");
        assert_eq!(s.lines().nth(1), Some("... and 3 more"), "{s}");
    }

    #[test]
    fn malformed_solution_exits_2_naming_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("g.txt"), "0 1\n1 2\n").unwrap();
        fs::write(dir.path().join("s.tsv"), "0\tlose\t2\t1\n1\twin\t-\t2\n").unwrap();
        let o = run(&["verify", "g.txt", "s.tsv"], dir.path());
        assert_eq!(o.status.code(), Some(2));
        assert_eq!(
            stderr(&o),
            "retrograde: error: s.tsv:line 2: a win needs a remoteness (a decimal number), found -\n"
        );
        fs::write(dir.path().join("s.tsv"), "0\tlose\t2\t1\n1\twin\t1\t2\n").unwrap();
        let o = run(&["verify", "g.txt", "s.tsv"], dir.path());
        assert_eq!(o.status.code(), Some(2));
        assert!(
            stderr(&o)
                .contains("s.tsv:line 3: the solution ends after 2 vertices, but the graph has 3"),
            "{}",
            stderr(&o)
        );
    }

    #[test]
    fn solve_then_verify_round_trip_through_standard_input() {
        let dir = tempfile::tempdir().unwrap();
        let graph: String = (0..500u32)
            .map(|v| format!("{v} {}\n{v} {}\n", (v * 7 + 3) % 500, (v * v + 1) % 500))
            .collect();
        fs::write(dir.path().join("g.txt"), &graph).unwrap();
        let o = run(&["solve", "g.txt", "-q", "-o", "s.tsv"], dir.path());
        assert!(o.status.success(), "{}", stderr(&o));
        let mut child = bin()
            .args(["verify", "g.txt", "-", "-q"])
            .current_dir(dir.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let text = fs::read(dir.path().join("s.tsv")).unwrap();
        child.stdin.take().unwrap().write_all(&text).unwrap();
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(0));
        assert_eq!(stdout(&o), "");
    }
}
