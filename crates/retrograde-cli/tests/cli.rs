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

fn solve_to(dir: &Path, graph: &str, threads: &str, out: &str, extra: &[&str]) -> String {
    let mut args = vec!["-j", threads, "solve", graph, "-q", "-o", out];
    args.extend_from_slice(extra);
    let o = run(&args, dir);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    fs::read_to_string(dir.join(out)).unwrap()
}

#[test]
fn text_binary_and_thread_counts_give_identical_solutions() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for args in [
        ["generate", "-n", "3000", "-m", "4500", "-s", "7", "g.txt"],
        ["generate", "-n", "3000", "-m", "4500", "-s", "7", "g.rgb"],
    ] {
        let o = run(&args, d);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let o = run(&["convert", "g.txt", "c.rgb"], d);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run(&["convert", "g.rgb", "back.txt"], d);
    assert!(o.status.success(), "{}", stderr(&o));
    let reference = solve_to(d, "g.txt", "1", "ref.tsv", &[]);
    assert_eq!(reference.lines().count(), 3000);
    for graph in ["g.txt", "g.rgb", "c.rgb", "back.txt"] {
        for threads in ["1", "2", "3"] {
            assert_eq!(
                solve_to(d, graph, threads, "s.tsv", &[]),
                reference,
                "{graph} -j {threads}"
            );
        }
    }
    // The binary files from generate and from convert are the same bytes.
    assert_eq!(
        fs::read(d.join("g.rgb")).unwrap(),
        fs::read(d.join("c.rgb")).unwrap()
    );
    let misere = solve_to(d, "g.txt", "1", "m1.tsv", &["--no-move", "win"]);
    assert_eq!(
        solve_to(
            d,
            "g.rgb",
            "2",
            "m2.tsv",
            &["--no-move", "win", "--engine", "parallel"]
        ),
        misere
    );
}

#[test]
fn corrupted_or_truncated_binary_graph_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    assert!(run(&["generate", "-n", "100", "-m", "300", "g.rgb"], d)
        .status
        .success());
    let good = fs::read(d.join("g.rgb")).unwrap();
    let mut flipped = good.clone();
    flipped[200] ^= 0x10;
    fs::write(d.join("flipped.rgb"), &flipped).unwrap();
    fs::write(d.join("short.rgb"), &good[..good.len() - 8]).unwrap();
    for (file, message) in [("flipped.rgb", "checksum"), ("short.rgb", "truncated")] {
        let o = run(&["solve", file, "-o", "out.tsv"], d);
        assert_eq!(o.status.code(), Some(2), "{file}");
        assert!(
            stderr(&o).contains(file) && stderr(&o).contains(message),
            "{}",
            stderr(&o)
        );
        assert!(!d.join("out.tsv").exists());
    }
}

#[test]
fn stats_table_lists_every_phase() {
    let o = run(
        &["solve", "chase.txt", "--stats", "-o", "/dev/null"],
        &data(""),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let s = stdout(&o);
    for phase in ["read", "solve", "write", "total"] {
        assert!(s.lines().any(|l| l.starts_with(phase)), "{phase}: {s}");
    }
}
