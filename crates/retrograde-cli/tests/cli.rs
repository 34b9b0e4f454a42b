//! Integration tests that run the real `retrograde` binary.

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::common::*;

/// Every `tests/data/NAME.txt` with a `NAME.expected` is solved with the
/// arguments on its `# args:` line and compared byte for byte.
#[test]
fn hand_worked_fixtures_solve_to_their_expected_files() {
    let dir = data("");
    let out_dir = retrograde::io::scratch_dir().unwrap();
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
fn summary_reports_counts_and_longest_remoteness_on_standard_error() {
    let o = run(&["solve", "chase.txt"], &data(""));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "", "no data was asked for");
    let s = stderr(&o);
    assert!(s.contains("10 vertices, 14 edges"), "{s}");
    assert!(
        s.contains("solved: 4 win, 3 lose, 0 tie, 3 draw, longest remoteness 5"),
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
    let dir = retrograde::io::scratch_dir().unwrap();
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
    let dir = retrograde::io::scratch_dir().unwrap();
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
    let dir = retrograde::io::scratch_dir().unwrap();
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
    let dir = retrograde::io::scratch_dir().unwrap();
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
    let dir = retrograde::io::scratch_dir().unwrap();
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
    let dir = retrograde::io::scratch_dir().unwrap();
    let d = dir.path();
    assert!(
        run(&["generate", "-n", "100", "-m", "300", "g.rgb"], d)
            .status
            .success()
    );
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
fn stats_table_lists_every_phase_on_standard_error() {
    let o = run(
        &["solve", "chase.txt", "--stats", "-o", "/dev/null"],
        &data(""),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let s = stderr(&o);
    for phase in ["read", "solve", "write", "total"] {
        assert!(s.lines().any(|l| l.starts_with(phase)), "{phase}: {s}");
    }
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
            assert!(stderr(&o).starts_with("verified: "), "{}", stderr(&o));
            assert_eq!(stdout(&o), "");
            checked += 1;
        }
        assert_eq!(checked, 3);
    }

    #[test]
    fn tampered_solution_exits_1_listing_violations() {
        let dir = retrograde::io::scratch_dir().unwrap();
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
        assert!(!s.contains("wrong:"), "{s}");
        assert!(stderr(&o).contains("wrong: 2 violations"), "{}", stderr(&o));
    }

    #[test]
    fn wrong_rule_exits_1_and_show_limits_the_list() {
        let dir = retrograde::io::scratch_dir().unwrap();
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
        let dir = retrograde::io::scratch_dir().unwrap();
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
        let dir = retrograde::io::scratch_dir().unwrap();
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

/// Interrupting a run: no partial output, exit 130.
mod interrupt {
    use super::*;

    /// Files in `dir` whose name ends in `.tmp`.
    fn temporary_files(dir: &Path) -> Vec<PathBuf> {
        fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "tmp"))
            .collect()
    }

    /// Solves a 2-million-vertex chain with `-o out.tsv` and sends `signal`
    /// as soon as the temporary output file appears. Whenever the signal
    /// lands, no temporary file may remain, and `out.tsv` is either absent
    /// (exit 130) or complete (the run finished first).
    fn interrupt_while_writing(signal: &str) {
        const N: usize = 2_000_000;
        let dir = retrograde::io::scratch_dir().unwrap();
        let mut graph = String::with_capacity(N * 16);
        for v in 0..N - 1 {
            graph.push_str(&format!("{v} {}\n", v + 1));
        }
        fs::write(dir.path().join("chain.txt"), graph).unwrap();
        let mut child = bin()
            .args(["solve", "chain.txt", "-q", "-o", "out.tsv"])
            .current_dir(dir.path())
            .spawn()
            .unwrap();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status; // finished before the temporary file was seen
            }
            if !temporary_files(dir.path()).is_empty() {
                let sent = Command::new("kill")
                    .args([signal, &child.id().to_string()])
                    .status()
                    .unwrap();
                assert!(sent.success());
                break child.wait().unwrap();
            }
            std::thread::yield_now();
        };
        assert_eq!(temporary_files(dir.path()), Vec::<PathBuf>::new());
        let out = dir.path().join("out.tsv");
        match status.code() {
            Some(130) if !out.exists() => {}
            Some(0) | Some(130) => {
                // The rename came first: the file must be whole.
                let text = fs::read_to_string(&out).unwrap();
                assert_eq!(text.lines().count(), N);
                assert!(text.ends_with(&format!("{}\tlose\t0\t-\n", N - 1)));
            }
            other => panic!("unexpected exit {other:?} after {signal}"),
        }
    }

    #[test]
    fn sigint_while_writing_leaves_no_partial_output() {
        interrupt_while_writing("-INT");
    }

    #[test]
    fn sigterm_while_writing_leaves_no_partial_output() {
        interrupt_while_writing("-TERM");
    }
}

/// Bad input of every kind: a one-line message naming the file (and line),
/// exit 2, nothing written. Each test backs a row of docs/BAD_INPUT.md.
mod bad_input {
    use super::*;

    /// Runs `args` in a fresh directory holding `files`; returns the output
    /// and the directory's listing afterwards.
    fn run_in(files: &[(&str, &[u8])], args: &[&str]) -> (Output, Vec<String>) {
        let dir = retrograde::io::scratch_dir().unwrap();
        for (name, content) in files {
            fs::write(dir.path().join(name), content).unwrap();
        }
        let o = run(args, dir.path());
        let mut listing: Vec<String> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        listing.sort();
        (o, listing)
    }

    #[test]
    fn edge_list_id_not_a_number_negative_or_too_large() {
        for (text, want) in [
            (
                "0 1\n1 two\n",
                "g.txt:line 2: expected the second vertex id (a decimal number), found \"two\"",
            ),
            (
                "0 1\n-1 2\n",
                "g.txt:line 2: expected a vertex id (a decimal number), found \"-1\" (negative numbers are not allowed)",
            ),
            (
                "0 4294967295\n",
                "g.txt:line 1: vertex id 4294967295 is too large (the largest allowed is 4294967294)",
            ),
            (
                "0 99999999999999999999999\n",
                "g.txt:line 1: expected the second vertex id (a decimal number), found a number of 23 digits at column 3, too large for any id or count",
            ),
            (
                "0 1.5\n",
                "g.txt:line 1: expected a space, a tab or the end of the line after the second vertex id, found \".5\"",
            ),
            (
                "0x1 2\n",
                "g.txt:line 1: expected a space or tab, then the second vertex id, found \"x1\"",
            ),
        ] {
            let (o, listing) = run_in(
                &[("g.txt", text.as_bytes())],
                &["solve", "g.txt", "-o", "out.tsv"],
            );
            assert_refused(&o, want);
            assert_eq!(listing, ["g.txt"]);
        }
    }

    /// Regression: a Matrix Market file with fewer or more entries than its
    /// size line declares was solved silently, and a size line of u64::MAX
    /// rows made the entry bound wrap.
    #[test]
    fn matrix_market_entries_other_than_declared_or_sizes_past_u32_are_refused() {
        let banner = "%%MatrixMarket matrix coordinate pattern general\n% c\n";
        for (body, want) in [
            (
                "3 3 3\n1 2\n2 3\n",
                "m.mtx:line 6: the size line (line 3) declares 3 entries, but the file ends after 2",
            ),
            (
                "3 3 1\n1 2\n2 3\n",
                "m.mtx:line 5: the size line (line 3) declares 1 entries, but more follow",
            ),
            (
                "18446744073709551615 1 1\n1 1\n",
                "m.mtx:line 3: the matrix has 18446744073709551615 rows or columns, more than the 4294967295 vertices that u32 ids allow",
            ),
        ] {
            let text = format!("{banner}{body}");
            for args in [
                &["solve", "m.mtx", "-o", "s.tsv"][..],
                &["convert", "m.mtx", "m.rgb"],
            ] {
                let (o, listing) = run_in(&[("m.mtx", text.as_bytes())], args);
                assert_refused(&o, want);
                assert_eq!(listing, ["m.mtx"]);
            }
        }
    }

    /// Regression: a size past 2^64 bytes was saturated to u64::MAX, no limit at all.
    #[test]
    fn a_memory_size_past_64_bits_is_refused() {
        for size in ["99999999999999T", "18446744073709551616", "16777216T"] {
            let (o, _) = run_in(
                &[("g.txt", b"0 1\n")],
                &["solve", "g.txt", "--max-memory", size],
            );
            assert_eq!(o.status.code(), Some(2), "{size}: {}", stderr(&o));
            assert!(
                stderr(&o).contains("more bytes than a 64-bit count holds"),
                "{}",
                stderr(&o)
            );
        }
        let (o, _) = run_in(
            &[("g.txt", b"0 1\n")],
            &["solve", "g.txt", "--max-memory", "16777215T"],
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }

    #[test]
    fn edge_list_single_column() {
        let (o, _) = run_in(&[("g.txt", b"0 1\n2\n")], &["solve", "g.txt"]);
        assert_refused(
            &o,
            "g.txt:line 2: expected a space or tab, then the second vertex id, found the end of the line",
        );
    }

    #[test]
    fn edge_list_binary_garbage() {
        let (o, _) = run_in(&[("g.txt", b"0 1\n\x00\xff\xfe 1\n")], &["solve", "g.txt"]);
        assert_refused(
            &o,
            "g.txt:line 2: expected a vertex id (a decimal number), found \"\\0\u{fffd}\u{fffd}\"",
        );
    }

    #[test]
    fn edge_list_id_at_or_past_vertices() {
        let (o, _) = run_in(
            &[("g.txt", b"0 1\n1 3\n")],
            &["solve", "g.txt", "--vertices", "3"],
        );
        assert_refused(
            &o,
            "g.txt:line 2: vertex id 3 is not below the vertex count 3",
        );
    }

    #[test]
    fn vertices_option_too_large() {
        let (o, _) = run_in(
            &[("g.txt", b"0 1\n")],
            &["solve", "g.txt", "--vertices", "5000000000"],
        );
        assert_refused(
            &o,
            "5000000000 vertices is more than the 4294967295 that u32 ids allow",
        );
        let (o, _) = run_in(
            &[("g.txt", b"0 1\n")],
            &[
                "solve",
                "g.txt",
                "--vertices",
                "4294967295",
                "--max-memory",
                "1G",
            ],
        );
        assert_refused(&o, "GiB of memory, more than the 1.0 GiB allowed");
    }

    #[test]
    fn tiny_label_file_naming_a_huge_vertex_does_not_allocate() {
        // Regression: the graph builder allocated room for every vertex up to
        // the largest label before checking the memory limit.
        let (o, _) = run_in(
            &[("g.txt", b"0 1\n"), ("t.labels", b"4294967294 win\n")],
            &[
                "solve",
                "g.txt",
                "--terminal",
                "t.labels",
                "--max-memory",
                "64M",
            ],
        );
        assert_refused(
            &o,
            "a graph of 4294967295 vertices and 0 edges would need about ",
        );
    }

    #[test]
    fn tiny_graph_file_naming_a_huge_vertex_does_not_allocate() {
        let (o, _) = run_in(
            &[("g.txt", b"0 4294967294\n")],
            &["verify", "g.txt", "s.tsv", "--max-memory", "64M"],
        );
        assert_refused(&o, "would need about");
    }

    #[test]
    fn labels_bad_word_conflict_and_range() {
        for (text, extra, want) in [
            (
                "1 win\n2 wins\n",
                None,
                "t.labels:line 2: expected win, lose, tie or draw, found \"wins\"",
            ),
            (
                "1 win\n1 lose\n",
                None,
                "t.labels:line 2: vertex 1 is labelled lose here but win on line 1",
            ),
            (
                "1\n",
                None,
                "t.labels:line 1: expected a space or tab, then win, lose, tie or draw",
            ),
            ("-1 win\n", None, "(negative numbers are not allowed)"),
            (
                "4294967295 win\n",
                None,
                "t.labels:line 1: vertex id 4294967295 is too large",
            ),
            (
                "1 win\n5 draw\n",
                Some("3"),
                "t.labels:line 2: vertex id 5 is not below the vertex count 3",
            ),
        ] {
            let mut args = vec!["solve", "g.txt", "--terminal", "t.labels"];
            if let Some(n) = extra {
                args.extend(["--vertices", n]);
            }
            let (o, _) = run_in(&[("g.txt", b"0 1\n"), ("t.labels", text.as_bytes())], &args);
            assert_refused(&o, want);
        }
    }

    #[test]
    fn solution_file_out_of_order_bad_fields_or_wrong_length() {
        let graph: &[u8] = b"0 1\n1 2\n";
        for (text, want) in [
            (
                "1\twin\t1\t2\n",
                "s.tsv:line 1: expected vertex 0 (one line per vertex, in vertex order), found vertex 1",
            ),
            (
                "0\tlose\t2\t1\n1\twin\t1\t2\n",
                "s.tsv:line 3: the solution ends after 2 vertices, but the graph has 3",
            ),
            (
                "0\tlose\t2\t1\n1\twin\t1\t2\n2\tlose\t0\t-\n3\tlose\t0\t-\n",
                "s.tsv:line 4: the graph has 3 vertices, but the solution goes on",
            ),
            (
                "0\tloss\t2\t1\n",
                "s.tsv:line 1: expected win, lose, tie or draw, found \"loss\"",
            ),
            (
                "0\tlose\t-\t1\n",
                "s.tsv:line 1: a lose needs a remoteness (a decimal number), found -",
            ),
            (
                "0\tdraw\t2\t1\n",
                "s.tsv:line 1: a draw has no remoteness: expected -, found 2",
            ),
            (
                "0\tlose\t2\tone\n",
                "s.tsv:line 1: expected the best move (a vertex id, or - for none), found \"one\"",
            ),
            (
                "0\tlose\t2\n",
                "s.tsv:line 1: expected a space or tab, then the best move",
            ),
            ("0\tlose\t-2\t1\n", "(negative numbers are not allowed)"),
        ] {
            let (o, _) = run_in(
                &[("g.txt", graph), ("s.tsv", text.as_bytes())],
                &["verify", "g.txt", "s.tsv"],
            );
            assert_refused(&o, want);
        }
    }

    #[test]
    fn missing_file_directory_and_path_through_a_file() {
        for args in [
            &["solve", "nope.txt"][..],
            &["solve", "g.txt", "--terminal", "nope.labels"],
            &["verify", "g.txt", "nope.tsv"],
        ] {
            let (o, _) = run_in(&[("g.txt", b"0 1\n")], args);
            assert_refused(&o, "nope.");
            assert!(
                stderr(&o).contains("No such file or directory"),
                "{}",
                stderr(&o)
            );
        }
        for args in [
            &["solve", "."][..],
            &["solve", "g.txt", "--terminal", "."],
            &["verify", "g.txt", "."],
        ] {
            let (o, _) = run_in(&[("g.txt", b"0 1\n")], args);
            assert_refused(&o, ".: is a directory, expected a file");
        }
        let (o, _) = run_in(&[("g.txt", b"0 1\n")], &["solve", "g.txt/x"]);
        assert_refused(&o, "g.txt/x: Not a directory");
    }

    #[cfg(unix)]
    #[test]
    fn unreadable_file() {
        use std::os::unix::fs::PermissionsExt;
        let dir = retrograde::io::scratch_dir().unwrap();
        let path = dir.path().join("g.txt");
        fs::write(&path, "0 1\n").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o000)).unwrap();
        let o = run(&["solve", "g.txt"], dir.path());
        if fs::read(&path).is_ok() {
            // Running as root: permissions do not stop reading, nothing to test.
            assert!(o.status.success(), "{}", stderr(&o));
        } else {
            assert_refused(&o, "g.txt: Permission denied");
        }
    }

    #[test]
    fn standard_input_closed_early_or_empty() {
        let mut child = bin()
            .args(["solve", "-", "-q"])
            .stdin(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The writer stops in the middle of the second line.
        child.stdin.take().unwrap().write_all(b"0 1\n1").unwrap();
        let o = child.wait_with_output().unwrap();
        assert_refused(
            &o,
            "-:line 2: expected a space or tab, then the second vertex id, found the end of the line",
        );
        let o = bin()
            .args(["solve", "-", "--query", "0"])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_refused(&o, "vertex 0 is not in the graph (0 vertices)");
        let o = bin().args(["verify", "-", "-"]).output().unwrap();
        assert_refused(
            &o,
            "- and - are both standard input, which can be read only once",
        );
    }

    #[test]
    fn output_missing_directory_or_a_directory() {
        let (o, listing) = run_in(
            &[("g.txt", b"0 1\n")],
            &["solve", "g.txt", "-o", "no/such/dir/out.tsv"],
        );
        assert_refused(&o, "no/such/dir/out.tsv: No such file or directory");
        assert_eq!(listing, ["g.txt"]);
        let (o, _) = run_in(&[("g.txt", b"0 1\n")], &["solve", "g.txt", "-o", "."]);
        assert_refused(&o, ".: is a directory, expected a file");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn output_to_a_full_device() {
        let graph: String = (0..200_000).map(|v| format!("{v} {}\n", v + 1)).collect();
        let (o, _) = run_in(
            &[("g.txt", graph.as_bytes())],
            &["solve", "g.txt", "-o", "/dev/full"],
        );
        assert_refused(&o, "/dev/full: No space left on device");
        // The device is written in place, never replaced by a regular file.
        assert!(!fs::metadata("/dev/full").unwrap().is_file());
    }

    #[test]
    fn closed_standard_output_is_not_an_error() {
        let mut child = bin()
            .args(["solve", "-", "--line", "0", "-q"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        child
            .stdin
            .take()
            .unwrap()
            .write_all(b"0 1\n1 2\n")
            .unwrap();
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(stderr(&o), "");
    }
}

/// Every class of bad binary graph file, through `solve`: exit 2, one line
/// naming the file and the byte, no output file.
mod bad_binary {
    use super::*;
    use retrograde::Csr;
    use retrograde::io::binary;

    /// 5 vertices, 7 edges: 64 header bytes, out-degrees at 64 (20 bytes and
    /// 4 of padding), offsets at 88 (48 bytes), targets at 136 (28 and 4).
    fn sample() -> Csr {
        Csr::from_edges(5, &[(0, 1), (1, 2), (3, 4), (4, 3), (3, 0), (2, 2), (0, 1)])
    }

    fn good() -> Vec<u8> {
        let mut b = Vec::new();
        binary::write_to(&mut b, &sample()).unwrap();
        b
    }

    /// The sample's arrays after `change`, with a valid header and checksum.
    fn resealed(change: fn(&mut Vec<u32>, &mut Vec<u64>, &mut Vec<u32>)) -> Vec<u8> {
        let g = sample();
        let mut out = g.out_degrees().to_vec();
        let mut offsets = g.reverse().offsets().to_vec();
        let mut targets = g.reverse().targets().to_vec();
        change(&mut out, &mut offsets, &mut targets);
        let mut b = Vec::new();
        binary::write_parts(&mut b, &out, &offsets, &targets).unwrap();
        b
    }

    fn with(change: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
        let mut b = good();
        change(&mut b);
        b
    }

    fn refused(bytes: &[u8], want: &str) {
        let dir = retrograde::io::scratch_dir().unwrap();
        fs::write(dir.path().join("g.rgb"), bytes).unwrap();
        let o = run(&["solve", "g.rgb", "-o", "out.tsv"], dir.path());
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{e}");
        assert_eq!(e, format!("retrograde: error: {want}\n"));
        assert!(!dir.path().join("out.tsv").exists());
    }

    #[test]
    fn header_faults() {
        // Without the magic number the file is read as a text edge list.
        refused(
            &with(|b| b[0] = b'X'),
            "g.rgb:line 1: expected a vertex id (a decimal number), found \"XETROGR\\0\\u{1}\\0\\0\\0\\0\\0\\0\\0\\u{5}\\0\\0\\0\"",
        );
        refused(
            &with(|b| b[8] = 2),
            "g.rgb:byte 8: binary format version 2, this build reads version 1",
        );
        refused(&with(|b| b[12] = 4), "g.rgb:byte 12: unknown flags 0x4");
        refused(
            &with(|b| b[40] = 1),
            "g.rgb:byte 40: reserved header bytes are not zero",
        );
        refused(
            &with(|b| b[20] = 1),
            "g.rgb:byte 16: 4294967301 vertices is more than u32 ids allow",
        );
    }

    #[test]
    fn size_faults() {
        refused(
            &good()[..60],
            "g.rgb:byte 60: file too short for a binary graph header (60 of 64 bytes): truncated?",
        );
        refused(
            &good()[..160],
            "g.rgb:byte 160: file is 160 bytes but a graph of 5 vertices and 7 edges needs 168: truncated?",
        );
        refused(
            &with(|b| b.push(0)),
            "g.rgb:byte 169: file is 169 bytes, expected 168: trailing data",
        );
        // Fuzz finding: an edge count of 2^62 - 1 wrapped the size to the
        // header, out-degrees and offsets alone (a panic, exit 101).
        refused(
            &with(|b| {
                b[24..32].copy_from_slice(&((1u64 << 62) - 1).to_le_bytes());
                b.truncate(136);
            }),
            "g.rgb:byte 136: edge count 4611686018427387903 is impossible",
        );
    }

    #[test]
    fn corruption_faults() {
        refused(
            &with(|b| b[140] ^= 0x10),
            "g.rgb:byte 32: checksum mismatch: the file is corrupted",
        );
        refused(
            &with(|b| b[34] ^= 1),
            "g.rgb:byte 32: checksum mismatch: the file is corrupted",
        );
        // Padding is outside the checksum, and must be zero.
        refused(
            &with(|b| b[85] = 1),
            "g.rgb:byte 88: padding bytes are not zero",
        );
        refused(
            &with(|b| b[166] = 1),
            "g.rgb:byte 88: padding bytes are not zero",
        );
    }

    #[test]
    fn structural_faults_behind_a_valid_checksum() {
        refused(
            &resealed(|_, o, _| o.swap(1, 2)),
            "g.rgb:byte 96: offsets decrease at vertex 1",
        );
        refused(
            &resealed(|_, o, _| o[5] = 6),
            "g.rgb:byte 88: offsets must run from 0 to the edge count",
        );
        refused(
            &resealed(|_, _, t| t[2] = 5),
            "g.rgb:byte 144: edge names vertex 5, but there are 5 vertices",
        );
        refused(
            &resealed(|d, _, _| d[4] += 1),
            "g.rgb:byte 64: out-degrees add up to 8, not the 7 edges",
        );
        // Fuzz finding: the degrees add up, but vertex 4 (out-degree 1) is
        // made the source of a second edge (the 6th) and vertex 0 loses one.
        refused(
            &resealed(|_, _, t| t[1] = 4),
            "g.rgb:byte 156: vertex 4 is the source of more edges than its out-degree 1",
        );
    }

    #[test]
    fn vertices_option_must_match() {
        let dir = retrograde::io::scratch_dir().unwrap();
        fs::write(dir.path().join("g.rgb"), good()).unwrap();
        let o = run(&["solve", "g.rgb", "--vertices", "9"], dir.path());
        assert_eq!(o.status.code(), Some(2));
        assert_eq!(
            stderr(&o),
            "retrograde: error: g.rgb: --vertices 9, but the binary graph has 5 vertices\n"
        );
        let o = run(&["solve", "g.rgb", "--vertices", "5"], dir.path());
        assert!(o.status.success(), "{}", stderr(&o));
    }
}

/// The promises an attacker broke (issue "Keep every promise under attack"),
/// one test each, named after what it protects.
mod promises {
    use super::*;
    use std::fs::OpenOptions;

    fn dir_with_graph() -> tempfile::TempDir {
        let dir = retrograde::io::scratch_dir().unwrap();
        fs::write(dir.path().join("g.txt"), "0 1\n1 2\n").unwrap();
        dir
    }

    const SOLUTION: &str = "0\tlose\t2\t1\n1\twin\t1\t2\n2\tlose\t0\t-\n";

    #[test]
    fn an_output_to_dev_stdout_appends_where_stdout_points_never_replaces_it() {
        let dir = dir_with_graph();
        let log = dir.path().join("log");
        fs::write(&log, "EARLIER\n").unwrap();
        let append = OpenOptions::new().append(true).open(&log).unwrap();
        let o = bin()
            .args(["solve", "g.txt", "-q", "-o", "/dev/stdout"])
            .current_dir(dir.path())
            .stdout(append)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(
            fs::read_to_string(&log).unwrap(),
            format!("EARLIER\n{SOLUTION}")
        );
    }

    #[test]
    fn an_output_to_a_pipe_or_dash_goes_to_standard_output() {
        let dir = dir_with_graph();
        for name in ["/dev/stdout", "-"] {
            let o = run(&["solve", "g.txt", "-q", "-o", name], dir.path());
            assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
            assert_eq!(stdout(&o), SOLUTION, "{name}");
        }
        // With the summary on: it goes to standard error, the data stays clean.
        let o = run(&["solve", "g.txt", "-o", "-"], dir.path());
        assert_eq!(stdout(&o), SOLUTION);
        assert!(
            stderr(&o).contains("solved: 1 win, 2 lose"),
            "{}",
            stderr(&o)
        );
        let o = run(&["generate", "-n", "3", "-m", "2", "-", "-q"], dir.path());
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(
            stdout(&o).lines().filter(|l| !l.starts_with('#')).count(),
            2
        );
        let o = run(&["convert", "g.txt", "-", "--to", "text", "-q"], dir.path());
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(stdout(&o).ends_with("0 1\n1 2\n"), "{}", stdout(&o));
        assert!(!dir.path().join("-").exists());
    }

    #[test]
    fn a_run_with_two_outputs_commits_both_or_neither() {
        let dir = retrograde::io::scratch_dir().unwrap();
        fs::write(dir.path().join("b.txt"), "1 3\nP.T\n").unwrap();
        fs::write(dir.path().join("e.txt"), "EARLIER").unwrap();
        let o = run(
            &[
                "export",
                "cop-thief",
                "b.txt",
                "-o",
                "e.txt",
                "--terminal",
                "nodir/l.txt",
            ],
            dir.path(),
        );
        assert_refused(&o, "nodir/l.txt: No such file or directory");
        assert_eq!(
            fs::read_to_string(dir.path().join("e.txt")).unwrap(),
            "EARLIER"
        );
        let mut names: Vec<String> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["b.txt", "e.txt"]);
    }

    #[test]
    fn two_outputs_or_an_output_and_an_input_that_are_one_file_are_refused() {
        let dir = retrograde::io::scratch_dir().unwrap();
        fs::write(dir.path().join("b.txt"), "1 3\nP.T\n").unwrap();
        let o = run(
            &[
                "export",
                "cop-thief",
                "b.txt",
                "-o",
                "x.txt",
                "--terminal",
                "./x.txt",
            ],
            dir.path(),
        );
        assert_refused(&o, "x.txt and ./x.txt are the same output");
        assert!(!dir.path().join("x.txt").exists());
        fs::write(dir.path().join("g.txt"), "0 1\n").unwrap();
        let o = run(&["solve", "g.txt", "-o", "g.txt"], dir.path());
        assert_refused(&o, "g.txt is both an input and an output");
        assert_eq!(
            fs::read_to_string(dir.path().join("g.txt")).unwrap(),
            "0 1\n"
        );
        let o = run(&["convert", "g.txt", "g.txt"], dir.path());
        assert_refused(&o, "g.txt is both an input and an output");
    }

    #[test]
    fn standard_input_named_twice_is_refused() {
        let o = bin()
            .args(["solve", "-", "--terminal", "-"])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_refused(
            &o,
            "- and - are both standard input, which can be read only once",
        );
        let o = bin()
            .args(["verify", "/dev/stdin", "-"])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_refused(&o, "are both standard input");
    }

    #[test]
    fn an_io_error_names_its_cause_once() {
        let dir = retrograde::io::scratch_dir().unwrap();
        fs::create_dir(dir.path().join("adir")).unwrap();
        let o = run(&["solve", "adir"], dir.path());
        assert_eq!(
            stderr(&o),
            "retrograde: error: adir: is a directory, expected a file\n"
        );
        fs::write(dir.path().join("g.txt"), "0 1\n").unwrap();
        let o = run(&["solve", "g.txt", "-o", "nodir/s.tsv"], dir.path());
        assert_eq!(
            stderr(&o),
            "retrograde: error: nodir/s.tsv: No such file or directory (os error 2)\n"
        );
    }

    #[test]
    fn a_long_output_name_that_the_file_system_takes_is_written() {
        let dir = dir_with_graph();
        let name = "x".repeat(250);
        let o = run(&["solve", "g.txt", "-q", "-o", &name], dir.path());
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(
            fs::read_to_string(dir.path().join(&name)).unwrap(),
            SOLUTION
        );
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 2);
    }

    #[test]
    fn a_file_name_with_a_newline_keeps_the_message_on_one_line() {
        let dir = retrograde::io::scratch_dir().unwrap();
        fs::write(dir.path().join("b\nad.txt"), "0 x\n").unwrap();
        let o = run(&["solve", "b\nad.txt"], dir.path());
        assert_refused(&o, "\"b\\nad.txt\":line 1: expected the second vertex id");
        let o = run(&["solve", "no\nsuch.txt"], dir.path());
        assert_refused(&o, "\"no\\nsuch.txt\": No such file or directory");
    }

    #[test]
    fn a_stream_larger_than_the_memory_limit_is_refused_not_read_whole() {
        let o = run(
            &["solve", "/dev/zero", "--max-memory", "1M"],
            Path::new("."),
        );
        assert_refused(
            &o,
            "/dev/zero: holds more than the 1.0 MiB that may be read into memory",
        );
        let mut child = bin()
            .args(["verify", "-", "nothing.tsv", "--max-memory", "1M"])
            .stdin(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let writer = std::thread::spawn(move || {
            let line = [b'7'; 1 << 16];
            for _ in 0..64 {
                if stdin.write_all(&line).is_err() {
                    break;
                }
            }
        });
        let o = child.wait_with_output().unwrap();
        writer.join().unwrap();
        assert_refused(&o, "-: holds more than the 1.0 MiB");
    }

    /// Runs the binary with the address space limited to `kib`, as `ulimit
    /// -v` does.
    fn under_ulimit(kib: u64, args: &[&str], cwd: &Path) -> Output {
        let mut script = format!("ulimit -v {kib} && exec \"$0\"");
        for (i, _) in args.iter().enumerate() {
            script.push_str(&format!(" \"${}\"", i + 1));
        }
        Command::new("sh")
            .arg("-c")
            .arg(script)
            .arg(env!("CARGO_BIN_EXE_retrograde"))
            .args(args)
            .current_dir(cwd)
            .output()
            .unwrap()
    }

    #[test]
    fn a_run_too_large_for_the_address_space_limit_is_refused_not_aborted() {
        let dir = retrograde::io::scratch_dir().unwrap();
        // 10^8 vertices: below the machine's memory, above the 300 MB allowed.
        fs::write(dir.path().join("g.txt"), "0 99999999\n").unwrap();
        let o = under_ulimit(300_000, &["solve", "g.txt"], dir.path());
        assert_refused(&o, "would need about");
        let mut board = String::from("100 100\nP");
        for r in 0..100 {
            board.push_str(&".".repeat(if r == 0 { 98 } else { 100 }));
            board.push_str(if r == 0 { "T\n" } else { "\n" });
        }
        fs::write(dir.path().join("b.txt"), board).unwrap();
        let o = under_ulimit(60_000, &["cop-thief", "b.txt"], dir.path());
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains("would need about"), "{}", stderr(&o));
        let o = under_ulimit(300_000, &["-j", "5000", "solve", "g.txt"], dir.path());
        assert_refused(&o, "5000 threads would reserve about");
    }

    #[test]
    fn generate_refuses_a_graph_too_large_before_building_it() {
        let dir = retrograde::io::scratch_dir().unwrap();
        let o = run(
            &["generate", "-n", "10", "-m", "10000000000000000", "g.rgb"],
            dir.path(),
        );
        assert_refused(
            &o,
            "a graph of 10 vertices and 10000000000000000 edges would need about",
        );
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
        let o = run(
            &[
                "generate",
                "-n",
                "10",
                "-m",
                "1000",
                "--max-memory",
                "1K",
                "g.rgb",
            ],
            dir.path(),
        );
        assert_refused(&o, "more than the 1.0 KiB allowed");
        // Text streams: a huge graph into a pipe that closes early is fine.
        let mut child = bin()
            .args(["generate", "-n", "10", "-m", "10000000000000000", "-", "-q"])
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut head = [0u8; 4096];
        child.stdout.take().unwrap().read_exact(&mut head).unwrap();
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(0));
    }

    #[test]
    fn timeouts_too_large_for_a_clock_are_usage_errors_not_panics() {
        for t in ["1e20", "1e19", "0", "-1", "nan", "inf"] {
            let flag = format!("--connect-timeout={t}");
            let o = run(
                &["solve", "g.txt", "--engine", "timely", &flag],
                Path::new("."),
            );
            assert_eq!(o.status.code(), Some(2), "{t}: {}", stderr(&o));
            assert!(
                stderr(&o).contains("positive number of seconds"),
                "{t}: {}",
                stderr(&o)
            );
            assert!(!stderr(&o).contains("panicked"), "{t}");
        }
        let o = run(
            &["solve", "g.txt", "--stall-timeout", "1e20"],
            Path::new("."),
        );
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    }

    #[test]
    fn a_memory_refusal_names_the_whole_graph_and_the_memory_reason() {
        let dir = retrograde::io::scratch_dir().unwrap();
        fs::write(dir.path().join("g.txt"), "0 1\n2 7\n9 3\n").unwrap();
        let o = run(&["solve", "g.txt", "--max-memory", "100"], dir.path());
        assert_refused(
            &o,
            "a graph of 10 vertices and 3 edges would need about 462 B of memory, more than the 100 B allowed (see --max-memory)",
        );
    }
}

/// Every output of a run appears together or not at all, a write that fails
/// for any reason is an exit 2 that leaves nothing behind, and standard
/// output carries one thing (issue "Every promise under attack, round three").
mod outputs {
    use super::*;

    /// The names in `dir`, sorted.
    fn listing(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    /// A directory holding the hand-worked graph `g.txt`, the board `b.txt`
    /// and `out.tsv` with the content `EARLIER`.
    fn workspace() -> tempfile::TempDir {
        let dir = retrograde::io::scratch_dir().unwrap();
        fs::copy(data("chase.txt"), dir.path().join("g.txt")).unwrap();
        fs::write(dir.path().join("b.txt"), "1 3\nP.T\n").unwrap();
        fs::write(dir.path().join("out.tsv"), "EARLIER").unwrap();
        dir
    }

    const BEFORE: [&str; 3] = ["b.txt", "g.txt", "out.tsv"];

    /// Runs the binary with `args` in `cwd` under a file-size limit of
    /// `kib` KiB, as `ulimit -f` sets it.
    fn under_file_limit(kib: u64, args: &[&str], cwd: &Path) -> Output {
        Command::new("bash")
            .arg("-c")
            .arg(format!("ulimit -f {kib} && exec \"$0\" \"$@\""))
            .arg(env!("CARGO_BIN_EXE_retrograde"))
            .args(args)
            .current_dir(cwd)
            .output()
            .unwrap()
    }

    #[test]
    fn an_output_that_cannot_be_written_is_refused_before_any_other_is_touched() {
        let dir = workspace();
        for args in [
            &["solve", "g.txt", "-o", "out.tsv", "--save", "nodir/x.db"][..],
            &["solve", "g.txt", "-o", "out.tsv", "--dot", "nodir/g.dot"],
            &[
                "cop-thief",
                "b.txt",
                "--svg",
                "x.svg",
                "--save",
                "nodir/x.db",
            ],
            &["game", "tic-tac-toe", "--save", "nodir/t.db"],
            &["game", "cop-thief", "b.txt", "--save", "out.tsv/x.db"],
        ] {
            let o = run(args, dir.path());
            let e = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
            assert!(
                e.contains("No such file or directory") || e.contains("Not a directory"),
                "{args:?}: {e}"
            );
            assert!(!e.contains("solved"), "refused before the solve: {e}");
            assert_eq!(listing(dir.path()), BEFORE, "{args:?}");
            assert_eq!(
                fs::read_to_string(dir.path().join("out.tsv")).unwrap(),
                "EARLIER"
            );
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_failed_output_leaves_every_other_output_of_the_run_untouched() {
        let dir = workspace();
        // /dev/full accepts the name and fails the write, after the outputs
        // before it were staged.
        for args in [
            &["solve", "g.txt", "-o", "out.tsv", "--save", "/dev/full"][..],
            &[
                "solve",
                "g.txt",
                "-o",
                "out.tsv",
                "--save",
                "x.db",
                "--dot",
                "/dev/full",
            ],
            &["cop-thief", "b.txt", "--save", "x.db", "--svg", "/dev/full"],
            &[
                "game",
                "cop-thief",
                "b.txt",
                "--save",
                "x.db",
                "--svg",
                "/dev/full",
            ],
        ] {
            let o = run(args, dir.path());
            assert_refused(&o, "/dev/full: No space left on device");
            assert_eq!(listing(dir.path()), BEFORE, "{args:?}");
            assert_eq!(
                fs::read_to_string(dir.path().join("out.tsv")).unwrap(),
                "EARLIER"
            );
        }
        // Without the failing output, all of them appear.
        let o = run(
            &[
                "solve", "g.txt", "-o", "out.tsv", "--save", "x.db", "--dot", "g.dot",
            ],
            dir.path(),
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(
            listing(dir.path()),
            ["b.txt", "g.dot", "g.txt", "out.tsv", "x.db"]
        );
    }

    #[test]
    fn a_write_past_the_file_size_limit_is_exit_2_with_no_temporary_file_left() {
        let dir = workspace();
        let chain: String = (0..1999).map(|v| format!("{v} {}\n", v + 1)).collect();
        fs::write(dir.path().join("chain.txt"), chain).unwrap();
        let o = run(
            &["solve", "chain.txt", "-q", "--save", "chain.db"],
            dir.path(),
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let before = listing(dir.path());
        // Each output is over 30 KB, the limit 8 KiB.
        for (args, output) in [
            (&["solve", "chain.txt", "-o", "out.tsv"][..], "out.tsv"),
            (&["solve", "chain.txt", "--save", "s.db"], "s.db"),
            (&["convert", "chain.txt", "c.rgb"], "c.rgb"),
            (&["convert", "chain.txt", "c.txt"], "c.txt"),
            (&["generate", "-n", "2000", "-m", "4000", "r.txt"], "r.txt"),
            (&["generate", "-n", "2000", "-m", "4000", "r.rgb"], "r.rgb"),
            (&["analyze", "chain.db", "--svg", "a.svg"], "a.svg"),
        ] {
            let o = under_file_limit(8, args, dir.path());
            assert_refused(&o, &format!("{output}: File too large"));
            assert_eq!(listing(dir.path()), before, "{args:?}");
        }
        // Under 2 KiB the small solution is staged, the database (4 KiB) is
        // too large: neither appears.
        let o = under_file_limit(
            2,
            &["solve", "g.txt", "-o", "out.tsv", "--save", "s.db"],
            dir.path(),
        );
        assert_refused(&o, "s.db: File too large");
        assert_eq!(listing(dir.path()), before);
        let o = under_file_limit(2, &["game", "tic-tac-toe", "--save", "t.db"], dir.path());
        assert_refused(&o, "t.db: File too large");
        assert_eq!(listing(dir.path()), before);
        assert_eq!(
            fs::read_to_string(dir.path().join("out.tsv")).unwrap(),
            "EARLIER"
        );
    }

    #[test]
    fn two_things_never_share_standard_output() {
        let dir = workspace();
        for (args, want) in [
            (
                &["solve", "g.txt", "--save", "-", "--json"][..],
                "--json and the database -",
            ),
            (
                &["solve", "g.txt", "--save", "-", "--query", "0"],
                "--query and the database -",
            ),
            (
                &["solve", "g.txt", "--save", "-", "--line", "0"],
                "--line and the database -",
            ),
            (
                &["solve", "g.txt", "-o", "-", "--save", "/dev/stdout"],
                "the solution - and the database /dev/stdout",
            ),
            (
                &["solve", "g.txt", "-o", "-", "--query", "0"],
                "--query and the solution -",
            ),
            (
                &["solve", "g.txt", "--dot", "-", "--json"],
                "--json and the Graphviz graph -",
            ),
            (
                &["solve", "g.txt", "--dot", "-", "-o", "-"],
                "the solution - and the Graphviz graph -",
            ),
            (
                &["cop-thief", "b.txt", "--svg", "-", "--json"],
                "--json and the picture -",
            ),
            (
                &["cop-thief", "b.txt", "--svg", "-", "--save", "-"],
                "the picture - and the database -",
            ),
            (
                &["game", "tic-tac-toe", "--save", "-", "--json"],
                "--json and the database -",
            ),
            (
                &[
                    "game",
                    "chess",
                    "KRK",
                    "--save",
                    "-",
                    "--position",
                    "8/8/8/8/8/2k5/8/R1K5 w - - 0 1",
                ],
                "--position and the database -",
            ),
        ] {
            let o = run(args, dir.path());
            assert_refused(&o, &format!("{want} both write to standard output"));
            assert_eq!(stdout(&o), "", "{args:?}");
        }
        assert_eq!(listing(dir.path()), BEFORE);
    }

    #[test]
    fn a_database_on_standard_output_is_the_database_alone() {
        let dir = workspace();
        for (args, said) in [
            (
                &["game", "tic-tac-toe", "--save", "-"][..],
                ".../.../...: tie in 9 for X",
            ),
            (
                &["cop-thief", "b.txt", "--save", "-"],
                "Police catches the thief",
            ),
            (&["solve", "g.txt", "--save", "-"], "solved: 4 win"),
        ] {
            let o = run(args, dir.path());
            assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
            // What is said goes to standard error; the bytes read back.
            assert!(stderr(&o).contains(said), "{args:?}: {}", stderr(&o));
            let copy = dir.path().join("copy.db");
            fs::write(&copy, &o.stdout).unwrap();
            retrograde::db::Database::open(&copy)
                .unwrap()
                .check()
                .unwrap();
            fs::remove_file(copy).unwrap();
        }
    }

    #[test]
    fn a_position_that_fails_is_answered_before_the_database_is_written() {
        let dir = workspace();
        let o = run(
            &[
                "game",
                "dobutsu",
                "--start",
                "1l1/1c1/1C1/1L1 b -",
                "--position",
                "1L1/1c1/1C1/1l1 b -",
                "--save",
                "d.db",
            ],
            dir.path(),
        );
        assert_refused(&o, "not reachable from where it was solved");
        assert_eq!(listing(dir.path()), BEFORE);
    }

    #[test]
    fn an_empty_game_saves_a_database_that_every_command_reads() {
        let dir = workspace();
        fs::write(dir.path().join("empty.txt"), "").unwrap();
        let o = run(&["solve", "empty.txt", "--save", "e.db"], dir.path());
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let o = run(&["query", "e.db", "0"], dir.path());
        assert_refused(&o, "0 is not a position of graph");
        let o = run(&["analyze", "e.db", "--json"], dir.path());
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(j["positions"], 0);
        let o = run(&["verify", "e.db"], dir.path());
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(stderr(&o).contains("verified: e.db"), "{}", stderr(&o));
    }

    #[test]
    fn the_time_line_names_only_the_phases_that_ran() {
        let dir = workspace();
        let time_line = |args: &[&str]| -> String {
            let o = run(args, dir.path());
            assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
            let e = stderr(&o);
            e.lines()
                .find(|l| l.starts_with("time:"))
                .unwrap_or_default()
                .to_string()
        };
        for args in [
            &["game", "tic-tac-toe"][..],
            &["cop-thief", "b.txt", "--stats"],
            &["solve", "g.txt"],
        ] {
            let line = time_line(args);
            assert!(line.contains("solve"), "{args:?}: {line}");
            assert!(
                !line.contains("save") && !line.contains("write"),
                "{args:?}: {line}"
            );
        }
        let line = time_line(&["game", "tic-tac-toe", "--save", "t.db"]);
        assert!(line.contains("save"), "{line}");
    }

    #[test]
    fn analyze_says_where_it_wrote_the_chart() {
        let dir = workspace();
        let o = run(&["solve", "g.txt", "-q", "--save", "x.db"], dir.path());
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let o = run(&["analyze", "x.db", "--svg", "a.svg"], dir.path());
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(stderr(&o), "wrote: a.svg\n");
        assert!(stdout(&o).contains("longest win"), "{}", stdout(&o));
        // The chart on standard output: the table goes to standard error.
        let o = run(&["analyze", "x.db", "--svg", "-"], dir.path());
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(stdout(&o).starts_with("<svg"), "{}", stdout(&o));
        assert!(stdout(&o).trim_end().ends_with("</svg>"));
        assert!(stderr(&o).contains("longest win"), "{}", stderr(&o));
    }
}

/// Standard output carries data only, and every summary has a JSON form.
mod pipeline {
    use super::*;

    fn json(o: &Output) -> serde_json::Value {
        assert!(o.status.success(), "{}", stderr(o));
        serde_json::from_str(&stdout(o)).unwrap_or_else(|e| panic!("{e}: {}", stdout(o)))
    }

    #[test]
    fn solution_to_standard_output_is_the_solution_alone() {
        let o = run(&["solve", "chase.txt", "-o", "-"], &data(""));
        assert!(o.status.success(), "{}", stderr(&o));
        let expected = fs::read_to_string(data("chase.expected")).unwrap();
        assert_eq!(stdout(&o), expected);
        assert!(stderr(&o).contains("solved: 4 win"), "{}", stderr(&o));
    }

    #[test]
    fn queries_alone_reach_standard_output() {
        let o = run(&["solve", "chase.txt", "--query", "3"], &data(""));
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(stdout(&o), "3\twin\t3\t0\n");
    }

    #[test]
    fn solve_json_has_counts_longest_histogram_and_answers() {
        let j = json(&run(
            &[
                "solve",
                "chase.txt",
                "--json",
                "--query",
                "7",
                "--line",
                "5",
            ],
            &data(""),
        ));
        assert_eq!(j["command"], "solve");
        assert_eq!(j["positions"], 10);
        assert_eq!(j["moves"], 14);
        assert_eq!(
            j["counts"],
            serde_json::json!({"win": 4, "lose": 3, "tie": 0, "draw": 3})
        );
        assert_eq!(
            j["longest"],
            serde_json::json!({"win": 5, "lose": 4, "tie": null})
        );
        let levels = j["histogram"].as_array().unwrap();
        let total: u64 = levels
            .iter()
            .map(|l| l["win"].as_u64().unwrap() + l["lose"].as_u64().unwrap())
            .sum();
        assert_eq!(total, 7);
        assert_eq!(
            j["queries"],
            serde_json::json!([{"position": 7, "outcome": "win", "remoteness": 5, "best_move": 4}])
        );
        assert_eq!(j["lines"][0]["from"], 5);
        assert_eq!(j["lines"][0]["endless"], true);
        assert!(j["engine"].is_string() && j["threads"].is_number());
        assert!(
            j["time"]["phases"]
                .as_array()
                .unwrap()
                .iter()
                .any(|p| p["name"] == "solve")
        );
    }

    #[test]
    fn json_and_the_solution_cannot_share_standard_output() {
        let o = run(&["solve", "chase.txt", "--json", "-o", "-"], &data(""));
        assert_eq!(o.status.code(), Some(2));
        assert!(
            stderr(&o).contains("both write to standard output"),
            "{}",
            stderr(&o)
        );
        assert_eq!(stdout(&o), "");
    }

    #[test]
    fn verify_json_says_correct_or_lists_violations() {
        let j = json(&run(
            &["verify", "chase.txt", "chase.expected", "--json"],
            &data(""),
        ));
        assert_eq!(j["correct"], true);
        assert_eq!(j["positions"], 10);
        assert_eq!(j["violations_total"], 0);

        let dir = retrograde::io::scratch_dir().unwrap();
        let good = fs::read_to_string(data("chase.expected")).unwrap();
        fs::write(
            dir.path().join("bad.tsv"),
            good.replace("7\twin\t5\t4", "7\twin\t3\t4"),
        )
        .unwrap();
        let o = run(
            &[
                "verify",
                data("chase.txt").to_str().unwrap(),
                "bad.tsv",
                "--json",
            ],
            dir.path(),
        );
        assert_eq!(o.status.code(), Some(1));
        let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(j["correct"], false);
        assert_eq!(j["violations_total"], 2);
        assert_eq!(j["violations"][0]["position"], 7);
        assert_eq!(j["violations"][0]["outcome"], "win");
    }

    #[test]
    fn convert_and_generate_json_say_what_was_written() {
        let dir = retrograde::io::scratch_dir().unwrap();
        let d = dir.path();
        let j = json(&run(
            &["generate", "-n", "50", "-m", "200", "g.rgb", "--json"],
            d,
        ));
        assert_eq!(j["command"], "generate");
        assert_eq!(
            (j["vertices"].as_u64(), j["moves"].as_u64()),
            (Some(50), Some(200))
        );
        assert_eq!(j["format"], "binary");
        assert_eq!(
            j["bytes"].as_u64(),
            Some(fs::metadata(d.join("g.rgb")).unwrap().len())
        );
        let j = json(&run(&["convert", "g.rgb", "g.txt", "--json"], d));
        assert_eq!(j["command"], "convert");
        assert_eq!(j["input"], "g.rgb");
        assert_eq!(j["format"], "text");
        assert_eq!(j["moves"], 200);
    }

    #[test]
    fn graphs_to_standard_output_keep_it_clean() {
        let dir = retrograde::io::scratch_dir().unwrap();
        let o = run(&["generate", "-n", "5", "-m", "7", "-"], dir.path());
        assert!(o.status.success(), "{}", stderr(&o));
        let edges = stdout(&o).lines().filter(|l| !l.starts_with('#')).count();
        assert_eq!(edges, 7, "{}", stdout(&o));
        assert!(
            stderr(&o).contains("wrote -: 5 vertices, 7 edges"),
            "{}",
            stderr(&o)
        );
        let o = run(
            &["convert", data("chase.txt").to_str().unwrap(), "-"],
            dir.path(),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(
            stdout(&o).lines().filter(|l| !l.starts_with('#')).count(),
            14
        );
    }

    #[test]
    fn every_solution_format_verifies() {
        let dir = retrograde::io::scratch_dir().unwrap();
        let graph = data("chase.txt");
        let graph = graph.to_str().unwrap();
        for (format, header, first) in [
            ("tsv", true, "vertex\toutcome\tremoteness\tbest_move"),
            ("csv", false, "0,lose,2,1"),
            ("csv", true, "vertex,outcome,remoteness,best_move"),
            (
                "jsonl",
                false,
                "{\"position\":0,\"outcome\":\"lose\",\"remoteness\":2,\"best_move\":1}",
            ),
        ] {
            let mut args = vec!["solve", graph, "-q", "-o", "s.out", "--format", format];
            if header {
                args.push("--header");
            }
            let o = run(&args, dir.path());
            assert!(o.status.success(), "{}", stderr(&o));
            let text = fs::read_to_string(dir.path().join("s.out")).unwrap();
            assert_eq!(text.lines().next(), Some(first), "{format}");
            let o = run(&["verify", graph, "s.out"], dir.path());
            assert_eq!(
                o.status.code(),
                Some(0),
                "{format} {header}: {}",
                stderr(&o)
            );
        }
        let o = run(
            &[
                "solve", graph, "-o", "s.out", "--format", "jsonl", "--header",
            ],
            dir.path(),
        );
        assert_eq!(o.status.code(), Some(2));
        assert!(
            stderr(&o).contains("--header applies to tsv and csv"),
            "{}",
            stderr(&o)
        );
    }

    #[test]
    fn counts_are_singular_for_one() {
        let dir = retrograde::io::scratch_dir().unwrap();
        fs::write(dir.path().join("g.txt"), "0 1\n").unwrap();
        let o = run(&["-j", "1", "solve", "g.txt"], dir.path());
        let s = stderr(&o);
        assert!(s.contains("2 vertices, 1 edge\n"), "{s}");
        assert!(s.contains("1 thread)"), "{s}");
    }

    #[test]
    fn summaries_separate_thousands() {
        let dir = retrograde::io::scratch_dir().unwrap();
        let o = run(
            &["generate", "-n", "2500", "-m", "12000", "g.txt"],
            dir.path(),
        );
        assert!(
            stderr(&o).contains("2,500 vertices, 12,000 edges"),
            "{}",
            stderr(&o)
        );
    }
}

/// Help, completions and the manual page come from the same definitions.
mod help {
    use super::*;

    #[test]
    fn help_groups_options_and_shows_examples() {
        let o = run(&["solve", "--help"], &data(""));
        assert!(o.status.success());
        let s = stdout(&o);
        for heading in ["Input:", "Output:", "Performance:", "Cluster:", "Examples:"] {
            assert!(s.contains(heading), "{heading}: {s}");
        }
        let o = run(&["convert", "--help"], &data(""));
        assert!(stdout(&o).contains("--to <FORMAT>"), "{}", stdout(&o));
    }

    #[test]
    fn each_subcommand_says_what_its_threads_do_and_takes_them_after_its_name() {
        let o = run(&["verify", "--help"], &data(""));
        assert!(stdout(&o).contains("Threads for reading the graph and the solution"));
        let o = run(&["solve", "chase.txt", "-j", "1"], &data(""));
        assert!(
            stderr(&o).contains("(sequential engine, 1 thread)"),
            "{}",
            stderr(&o)
        );
        let o = run(&["-j", "1", "solve", "chase.txt"], &data(""));
        assert!(
            stderr(&o).contains("(sequential engine, 1 thread)"),
            "{}",
            stderr(&o)
        );
    }

    #[test]
    fn completions_into_a_closed_pipe_are_no_failure() {
        use std::os::fd::{FromRawFd, OwnedFd};
        // A pipe whose reading end is closed before the command starts, as
        // under `| head -3` once head has read its lines: every write fails.
        let mut fds = [0; 2];
        // SAFETY: `fds` has room for the two descriptors pipe() writes.
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
        // SAFETY: both descriptors were just opened and are owned here alone.
        let (reader, writer) =
            unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
        drop(reader);
        let out = bin()
            .args(["completions", "zsh"])
            .stdout(std::process::Stdio::from(writer))
            .stderr(std::process::Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    }

    #[test]
    fn completions_and_the_man_page_are_generated() {
        let o = run(&["completions", "bash"], &data(""));
        assert!(o.status.success());
        assert!(
            stdout(&o).contains("solve") && stdout(&o).contains("--max-memory"),
            "bash completion names the subcommands and options"
        );
        let o = run(&["man"], &data(""));
        assert!(o.status.success());
        let s = stdout(&o);
        assert!(
            s.starts_with(".ie") || s.contains(".TH retrograde"),
            "{}",
            &s[..200.min(s.len())]
        );
        assert!(
            s.contains("RETROGRADE SOLVE") && s.contains("max\\-memory"),
            "every subcommand's options"
        );
        let o = run(&["completions", "tcsh"], &data(""));
        assert_eq!(o.status.code(), Some(2));
    }
}

/// `generate` shapes: acyclic graphs have no draws; a fixed out-degree.
mod generate {
    use super::*;

    #[test]
    fn acyclic_graphs_solve_without_draws() {
        let dir = retrograde::io::scratch_dir().unwrap();
        let o = run(
            &[
                "generate",
                "-n",
                "3000",
                "-m",
                "9000",
                "--acyclic",
                "dag.txt",
            ],
            dir.path(),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let o = run(&["solve", "dag.txt", "--json"], dir.path());
        let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(j["counts"]["draw"], 0);
        assert_eq!(j["moves"], 9000);
        assert!(j["longest"]["win"].as_u64().unwrap() > 2);
    }

    #[test]
    fn out_degree_gives_every_vertex_that_many_moves() {
        let dir = retrograde::io::scratch_dir().unwrap();
        let o = run(
            &["generate", "-n", "700", "--out-degree", "4", "g.txt"],
            dir.path(),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let text = fs::read_to_string(dir.path().join("g.txt")).unwrap();
        let mut deg = [0u32; 700];
        for l in text.lines().filter(|l| !l.starts_with('#')) {
            deg[l
                .split_whitespace()
                .next()
                .unwrap()
                .parse::<usize>()
                .unwrap()] += 1;
        }
        assert!(deg.iter().all(|&d| d == 4));
        let o = run(
            &[
                "generate",
                "-n",
                "7",
                "--out-degree",
                "2",
                "-m",
                "3",
                "x.txt",
            ],
            dir.path(),
        );
        assert_eq!(o.status.code(), Some(2));
    }
}

/// Vertices given by name: numbered inside, shown by name in every answer.
mod names {
    use super::*;

    #[test]
    fn named_vertices_are_solved_and_answered_by_name() {
        let o = run(
            &[
                "solve",
                "named.txt",
                "--names",
                "--query",
                "loop",
                "--line",
                "start",
                "-q",
            ],
            &data(""),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(
            stdout(&o),
            "loop\twin\t3\tstart\n\
             line from start (lose in 2 for the player to move):\n  \
             0\tstart\tlose\t2\n  1\tmiddle\twin\t1\n  2\tend\tlose\t0\n  \
             game over at end: lose for the player to move\n"
        );
    }

    #[test]
    fn named_solution_files_verify_in_every_format() {
        let dir = retrograde::io::scratch_dir().unwrap();
        let graph = data("named.txt");
        let graph = graph.to_str().unwrap();
        for format in ["tsv", "csv", "jsonl"] {
            let o = run(
                &[
                    "solve", graph, "--names", "-q", "-o", "s.out", "--format", format,
                ],
                dir.path(),
            );
            assert!(o.status.success(), "{}", stderr(&o));
            let text = fs::read_to_string(dir.path().join("s.out")).unwrap();
            assert!(text.contains("start") && text.contains("middle"), "{text}");
            let o = run(&["verify", graph, "s.out", "--names"], dir.path());
            assert_eq!(o.status.code(), Some(0), "{format}: {}", stderr(&o));
        }
        // A lie about "start", named in the violation.
        let text = fs::read_to_string(dir.path().join("s.out")).unwrap();
        let tsv =
            "start\twin\t1\tmiddle\nmiddle\twin\t1\tend\nend\tlose\t0\t-\nloop\twin\t3\tstart\n";
        assert!(text.contains("\"start\""));
        fs::write(dir.path().join("bad.tsv"), tsv).unwrap();
        let o = run(&["verify", graph, "bad.tsv", "--names"], dir.path());
        assert_eq!(o.status.code(), Some(1));
        assert!(
            stdout(&o).starts_with("bad.tsv: \"start\" is vertex 0 (win in 1)"),
            "{}",
            stdout(&o)
        );
    }

    #[test]
    fn named_labels_and_json_answers_use_names() {
        let dir = retrograde::io::scratch_dir().unwrap();
        fs::write(dir.path().join("l.txt"), "end win\n").unwrap();
        let graph = data("named.txt");
        let o = run(
            &[
                "solve",
                graph.to_str().unwrap(),
                "--names",
                "--terminal",
                "l.txt",
                "--json",
                "--query",
                "middle",
            ],
            dir.path(),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(
            j["queries"][0],
            serde_json::json!({"position": "middle", "outcome": "lose", "remoteness": 1, "best_move": "end"})
        );
        fs::write(dir.path().join("l2.txt"), "nowhere win\n").unwrap();
        let o = run(
            &[
                "solve",
                graph.to_str().unwrap(),
                "--names",
                "--terminal",
                "l2.txt",
            ],
            dir.path(),
        );
        assert_eq!(o.status.code(), Some(2));
        assert!(
            stderr(&o).contains("l2.txt:line 1: no vertex of the graph is named \"nowhere\""),
            "{}",
            stderr(&o)
        );
    }

    #[test]
    fn names_without_the_option_get_a_hint_and_numbers_still_work() {
        let o = run(&["solve", "named.txt"], &data(""));
        assert_eq!(o.status.code(), Some(2));
        assert!(
            stderr(&o).contains("found \"start\" (vertices that are names need --names)"),
            "{}",
            stderr(&o)
        );
        let o = run(
            &["solve", "named.txt", "--names", "--query", "nowhere"],
            &data(""),
        );
        assert_eq!(o.status.code(), Some(2));
        assert!(
            stderr(&o).contains("no vertex is named \"nowhere\""),
            "{}",
            stderr(&o)
        );
        let o = run(&["solve", "chase.txt", "--query", "x"], &data(""));
        assert_eq!(o.status.code(), Some(2));
        assert!(
            stderr(&o).contains("for vertex names, give --names"),
            "{}",
            stderr(&o)
        );
    }

    /// Regression: `verify` told the layout by a comma or a brace anywhere on
    /// the first line and a header by its first word, so a solution `solve
    /// --names` wrote was refused when its first name was `a,b`, `{x}` or
    /// `vertex`. Every file our own solve writes verifies, the layout told
    /// or given.
    #[test]
    fn a_named_solution_verifies_whatever_its_first_name_looks_like() {
        let dir = retrograde::io::scratch_dir().unwrap();
        for first in [
            "a,b",
            "{x}",
            "vertex",
            "\"q\",win,1,x",
            "{\"position\":\"p\"}",
        ] {
            fs::write(
                dir.path().join("g.txt"),
                format!("{first} m\nm end\nend {first}\nz z\n"),
            )
            .unwrap();
            for (format, header) in [
                ("tsv", false),
                ("tsv", true),
                ("csv", false),
                ("csv", true),
                ("jsonl", false),
            ] {
                let mut args = vec![
                    "solve", "g.txt", "--names", "-q", "-o", "s.out", "--format", format,
                ];
                if header {
                    args.push("--header");
                }
                let o = run(&args, dir.path());
                assert!(o.status.success(), "{}", stderr(&o));
                for given in [None, Some(format)] {
                    let mut args = vec!["verify", "g.txt", "s.out", "--names"];
                    args.extend(given.map(|f| ["--format", f]).into_iter().flatten());
                    let o = run(&args, dir.path());
                    assert_eq!(
                        o.status.code(),
                        Some(0),
                        "{first} {format} {header} {given:?}: {}",
                        stderr(&o)
                    );
                }
            }
        }
        // A layout given is read as given: a CSV file is not TSV.
        let o = run(
            &["verify", "g.txt", "s.out", "--names", "--format", "tsv"],
            dir.path(),
        );
        assert_refused(&o, "s.out:line 1: expected 4 blank-separated fields");
    }

    /// Names a solution or labels file would read back as a comment or as no
    /// vertex are refused where the graph names them.
    #[test]
    fn names_that_cannot_be_written_back_are_refused_with_line_and_column() {
        let dir = retrograde::io::scratch_dir().unwrap();
        for (text, want) in [
            (
                "a b\nb #c\n",
                "g.txt:line 2: the name \"#c\" at column 3 starts with # or %",
            ),
            (
                "a -\n",
                "g.txt:line 1: the name \"-\" at column 3 is -, which means no vertex",
            ),
            (
                "a\x0cz b\n",
                "g.txt:line 1: the name \"a\\u{c}z\" at column 1 holds a control character",
            ),
        ] {
            fs::write(dir.path().join("g.txt"), text).unwrap();
            assert_refused(&run(&["solve", "g.txt", "--names"], dir.path()), want);
        }
    }

    /// Regression: with --names, a Matrix Market file's size line was read as a move.
    #[test]
    fn a_matrix_market_file_is_refused_with_names() {
        let dir = retrograde::io::scratch_dir().unwrap();
        let text = "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2\n";
        fs::write(dir.path().join("m.mtx"), text).unwrap();
        let o = run(&["solve", "m.mtx", "--names"], dir.path());
        assert_refused(
            &o,
            "m.mtx:line 1: a Matrix Market file: its vertices are numbered rows and columns, not names",
        );
        assert!(run(&["solve", "m.mtx"], dir.path()).status.success());
    }

    #[test]
    fn names_are_refused_where_vertices_are_numbers() {
        let dir = retrograde::io::scratch_dir().unwrap();
        let o = run(
            &[
                "convert",
                data("chase.txt").to_str().unwrap(),
                "g.rgb",
                "-q",
            ],
            dir.path(),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let o = run(&["solve", "g.rgb", "--names"], dir.path());
        assert_eq!(o.status.code(), Some(2));
        assert!(
            stderr(&o).contains("--names reads text edge lists"),
            "{}",
            stderr(&o)
        );
        let named = data("named.txt");
        let named = named.to_str().unwrap();
        let o = run(&["solve", named, "--names", "--vertices", "9"], dir.path());
        assert_eq!(o.status.code(), Some(2));
        let o = run(
            &["solve", named, "--names", "--engine", "timely"],
            dir.path(),
        );
        assert_eq!(o.status.code(), Some(2));
        assert!(
            stderr(&o).contains("--names applies to the sequential and parallel engines only"),
            "{}",
            stderr(&o)
        );
    }
}

/// Progress on a terminal (a pseudo-terminal from util-linux's `script`).
mod progress {
    use super::*;

    #[test]
    fn a_terminal_sees_bytes_read_from_a_pipe_and_the_solve_bar() {
        let dir = retrograde::io::scratch_dir().unwrap();
        let o = run(
            &["generate", "-q", "-n", "200000", "-m", "2000000", "big.txt"],
            dir.path(),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        // Half the input, a pause long enough for the bar to be drawn, the rest.
        let command = format!(
            "( head -c 8000000 big.txt; sleep 0.6; tail -c +8000001 big.txt ) | {} solve -",
            env!("CARGO_BIN_EXE_retrograde")
        );
        let o = Command::new("script")
            .args(["-qec", &command, "/dev/null"])
            .current_dir(dir.path())
            .output()
            .expect("script (util-linux) runs the binary on a pseudo-terminal");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let screen = String::from_utf8_lossy(&o.stdout);
        assert!(
            screen.contains(" MiB (") && screen.contains("read "),
            "bytes read so far: {screen}"
        );
        assert!(screen.contains(" solve ["), "the solve bar: {screen}");
        assert!(
            screen.contains("/400,000"),
            "two units a position: {screen}"
        );
        assert!(screen.contains("solved: "), "{screen}");
    }
}

/// `retrograde game`: the built-in games, their published figures.
mod game {
    use super::*;

    #[test]
    fn the_list_names_every_game() {
        let o = run(&["game", "list"], &data(""));
        assert!(o.status.success());
        for name in [
            "chess ",
            "cop-thief ",
            "dobutsu",
            "teeko",
            "tic-tac-toe",
            "nine-mens-morris ",
        ] {
            assert!(stdout(&o).contains(name), "{name}: {}", stdout(&o));
        }
    }

    #[test]
    fn dobutsu_from_a_start_of_lions_and_chicks_verifies_and_values_its_moves() {
        let start = "1l1/1c1/1C1/1L1 b -";
        let o = run(
            &[
                "game",
                "dobutsu",
                "--start",
                start,
                "--position",
                start,
                "--verify",
                "--json",
            ],
            &data(""),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(j["game"], "dobutsu");
        assert_eq!(j["verified"], true);
        assert_eq!(j["params"]["capture"], "played");
        let c = &j["counts"];
        let sum: u64 = ["win", "lose", "tie", "draw"]
            .iter()
            .map(|k| c[k].as_u64().unwrap())
            .sum();
        assert_eq!(j["positions"].as_u64(), Some(sum));
        // The start's value is that of the position asked about, and its
        // best move's value agrees with it.
        let p = &j["position"];
        assert_eq!(p["position"], start);
        assert_eq!(j["start"]["outcome"], p["outcome"]);
        assert_eq!(j["start"]["remoteness"], p["remoteness"]);
        let best = &p["moves"][0];
        assert_eq!(best["outcome"], p["outcome"]);
        assert_eq!(best["remoteness"], p["remoteness"]);
        // Sente's chick takes Gote's: named from Sente's side.
        let names: Vec<&str> = p["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["move"].as_str().unwrap())
            .collect();
        assert!(names.contains(&"Cb3xb2"), "{names:?}");
    }

    #[test]
    fn dobutsu_bad_notation_exits_2_before_any_work() {
        for (args, what) in [
            (vec!["--position", "gle/1c1/1C1 b"], "3 rows"),
            (vec!["--start", "gle/1c1/1C1/ELQ b"], "'Q' is no piece"),
        ] {
            let mut a = vec!["game", "dobutsu"];
            a.extend(args);
            let o = run(&a, &data(""));
            assert_eq!(o.status.code(), Some(2));
            assert!(stderr(&o).contains(what), "{}", stderr(&o));
        }
        // A position the start cannot reach (Sente's lion on the far rank
        // with Sente to move: Gote would have lost already) is refused.
        let o = run(
            &[
                "game",
                "dobutsu",
                "--start",
                "1l1/1c1/1C1/1L1 b -",
                "--position",
                "1L1/1c1/1C1/1l1 b -",
            ],
            &data(""),
        );
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains("not reachable"), "{}", stderr(&o));
    }

    #[test]
    fn krk_mates_in_16_and_verifies() {
        let o = run(&["game", "chess", "KRK", "--json", "--verify"], &data(""));
        assert!(o.status.success(), "{}", stderr(&o));
        let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(j["game"], "chess KRK");
        let sides = j["by_side"].as_array().unwrap();
        let white = sides.iter().find(|s| s["to_move"] == "white").unwrap();
        assert_eq!(white["longest_win_moves"], 16);
        assert_eq!(white["longest"]["win"], 31);
        assert_eq!(j["verified"], true);
        let c = &j["counts"];
        let sum: u64 = ["win", "lose", "tie", "draw"]
            .iter()
            .map(|k| c[k].as_u64().unwrap())
            .sum();
        assert_eq!(j["positions"].as_u64(), Some(sum));
    }

    #[test]
    fn a_position_lists_its_moves_best_first_as_played() {
        let o = run(
            &[
                "game",
                "chess",
                "KQK",
                "-q",
                "--position",
                "7k/Q7/6K1/8/8/8/8/8 w - - 0 1",
            ],
            &data(""),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let s = stdout(&o);
        let mut lines = s.lines();
        assert_eq!(
            lines.next(),
            Some("7k/Q7/6K1/8/8/8/8/8 w - - 0 1: win in 1 for white to move")
        );
        let first: Vec<&str> = lines.by_ref().take(4).collect();
        for mate in ["Qa7-g7", "Qa7-h7", "Qa7-a8", "Qa7-b8"] {
            assert!(
                first.iter().any(|l| l.trim_start().starts_with(mate)),
                "{mate}: {s}"
            );
        }
        assert!(first.iter().all(|l| l.contains(" win in 1 ")), "{s}");
        // Wins before ties: the stalemates (Qa2, Qf7) come last.
        let all: Vec<&str> = s.lines().skip(1).collect();
        let tie = all.iter().position(|l| l.contains(" tie in 1 "));
        let last_win = all.iter().rposition(|l| l.contains(" win in "));
        assert!(tie.is_some() && last_win < tie, "{s}");
    }

    #[test]
    fn bad_notation_and_unknown_endings_exit_2() {
        let o = run(&["game", "chess", "KQK", "--position", "8/8 w"], &data(""));
        assert_eq!(o.status.code(), Some(2));
        assert!(
            stderr(&o).contains("not a position of chess KQK: expected 8 ranks"),
            "{}",
            stderr(&o)
        );
        let o = run(
            &[
                "game",
                "chess",
                "KQK",
                "--position",
                "7k/6Q1/6K1/8/8/8/8/8 w",
            ],
            &data(""),
        );
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains("illegal"), "{}", stderr(&o));
        let o = run(&["game", "chess", "KXK"], &data(""));
        assert_eq!(o.status.code(), Some(2));
        assert!(
            stderr(&o).contains("[possible values: KQK, KRK, KBK, KNK, KPK, KQQK,"),
            "{}",
            stderr(&o)
        );
    }
}

#[test]
fn game_cop_thief_is_the_cop_thief_command() {
    let board = data("boards/corridor.txt");
    let a = run(
        &["game", "cop-thief", board.to_str().unwrap(), "--json"],
        &data(""),
    );
    let b = run(&["cop-thief", board.to_str().unwrap(), "--json"], &data(""));
    assert!(a.status.success(), "{}", stderr(&a));
    let strip = |o: &Output| {
        let mut j: serde_json::Value = serde_json::from_str(&stdout(o)).unwrap();
        j["time"] = serde_json::Value::Null;
        j
    };
    assert_eq!(strip(&a), strip(&b));
}

#[test]
fn game_tic_tac_toe_has_its_known_counts_and_ties() {
    let o = run(
        &["game", "tic-tac-toe", "--no-symmetry", "--json"],
        &data(""),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(j["positions"], 5478);
    assert_eq!(
        j["start"],
        serde_json::json!({"position": ".../.../...", "to_move": "X", "outcome": "tie", "remoteness": 9})
    );
    let o = run(&["game", "tic-tac-toe", "--json", "--verify"], &data(""));
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(j["positions"], 765);
    assert_eq!(j["verified"], true);
    // Which rung it climbed to, and the order of its ids, with the reason.
    assert_eq!(j["solved_by"]["rung"], "numbers", "{j}");
    assert_eq!(j["solved_by"]["ids"], "numbers", "{j}");
    assert!(j["solved_by"]["crowding"].as_f64().unwrap() <= 4.0, "{j}");
    let o = run(&["game", "tic-tac-toe"], &data(""));
    assert!(
        stderr(&o)
            .contains("rung: numbers, explored by number; ids in the order of the game's numbers"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn by_hash_takes_the_other_path_to_the_same_answers() {
    let by_key = run(&["game", "tic-tac-toe", "--json"], &data(""));
    let by_hash = run(&["game", "tic-tac-toe", "--by-hash", "--json"], &data(""));
    assert!(by_hash.status.success(), "{}", stderr(&by_hash));
    let k: serde_json::Value = serde_json::from_str(&stdout(&by_key)).unwrap();
    let h: serde_json::Value = serde_json::from_str(&stdout(&by_hash)).unwrap();
    for field in ["positions", "counts", "longest", "histogram", "start"] {
        assert_eq!(k[field], h[field], "{field}");
    }
    assert_eq!(h["solved_by"]["rung"], "rules", "{h}");
    assert_eq!(h["solved_by"]["ids"], "found", "{h}");
    // Only a game explored from its rules takes it.
    let o = run(&["game", "teeko", "--by-hash"], &data(""));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

/// Makes a named pipe at `path`.
fn fifo(path: &Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

#[test]
fn a_graph_rewritten_while_it_was_read_ends_in_an_error_naming_it() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let d = dir.path();
    fs::write(d.join("g.txt"), "a b\nb c\n").unwrap();
    fifo(&d.join("labels"));
    // With --names the graph is read, then the labels: from a pipe, so the
    // graph is rewritten in place while it is still mapped.
    let child = bin()
        .args([
            "solve",
            "g.txt",
            "--names",
            "--terminal",
            "labels",
            "-o",
            "out.tsv",
            "-q",
        ])
        .current_dir(d)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut labels = fs::OpenOptions::new()
        .write(true)
        .open(d.join("labels"))
        .unwrap();
    fs::write(d.join("g.txt"), "a b\nb c\nc a\n").unwrap();
    labels.write_all(b"c lose\n").unwrap();
    drop(labels);
    let out = child.wait_with_output().unwrap();
    assert_refused(&out, "g.txt: the file changed while it was read");
}

#[test]
fn a_graph_cut_short_while_it_was_read_exits_2_naming_it_never_by_a_signal() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let d = dir.path();
    // Large enough (64 MB) that it is still being read when it is cut.
    let mut text = Vec::with_capacity(64 << 20);
    for i in 0..4_000_000u32 {
        writeln!(text, "{i} {}", i + 1).unwrap();
    }
    fs::write(d.join("big.txt"), &text).unwrap();
    drop(text);
    let mut child = bin()
        .args(["solve", "big.txt", "-j", "1", "-o", "out.tsv", "-q"])
        .current_dir(d)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Cut it short as soon as it is mapped.
    let maps = format!("/proc/{}/maps", child.id());
    while child.try_wait().unwrap().is_none() {
        if fs::read_to_string(&maps).is_ok_and(|m| m.contains("big.txt")) {
            break;
        }
    }
    fs::OpenOptions::new()
        .write(true)
        .open(d.join("big.txt"))
        .unwrap()
        .set_len(0)
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let e = stderr(&out);
    assert!(
        e.contains("big.txt: the file was cut short by another program while it was read")
            || e.contains("big.txt: the file changed while it was read"),
        "{e}"
    );
    assert_refused(&out, "big.txt");
    // No output, and no temporary file left behind.
    let left: Vec<_> = fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["big.txt"]);
}

/// Every command under an address-space cap (`prlimit --as`, what `ulimit
/// -v` sets): it estimates what it needs before it allocates, and either
/// completes or refuses with exit 2 and the memory hint; never an abort
/// (134) or a panic (101).
mod memory {
    use super::*;

    /// `retrograde ARGS` in `dir` under `prlimit --as` of `mib` MiB (in
    /// bytes: prlimit takes no suffix), with `env` set; `None` (said on
    /// standard error) where prlimit is not installed.
    fn capped(mib: u64, args: &[&str], env: &[(&str, &str)], dir: &Path) -> Option<Output> {
        if Command::new("prlimit").arg("--version").output().is_err() {
            eprintln!("skipped: prlimit (util-linux) is not installed");
            return None;
        }
        let mut c = Command::new("prlimit");
        c.arg(format!("--as={}", mib << 20))
            .arg(env!("CARGO_BIN_EXE_retrograde"))
            .args(args)
            .current_dir(dir);
        for (k, v) in env {
            c.env(k, v);
        }
        Some(c.output().unwrap())
    }

    /// Exit 0, or exit 2 with the memory hint.
    fn completes_or_refuses_for_memory(o: &Output, what: &str) {
        match o.status.code() {
            Some(0) => {}
            Some(2) => assert!(
                stderr(o).contains("(see --max-memory)"),
                "{what}: {}",
                stderr(o)
            ),
            _ => panic!("{what}: {:?}: {}", o.status, stderr(o)),
        }
    }

    #[test]
    fn every_command_under_an_address_space_cap_completes_or_refuses_with_exit_2() {
        let dir = retrograde::io::scratch_dir().unwrap();
        let d = dir.path();
        let boards = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/boards");
        let (pillar, walls) = (boards.join("pillar.txt"), boards.join("walls100.txt"));
        let (pillar, walls) = (pillar.to_str().unwrap(), walls.to_str().unwrap());
        let chase = data("chase.txt");
        // Databases to read back, written without a cap.
        for args in [
            &["game", "tic-tac-toe", "--save", "ttt.db", "-q"][..],
            &["game", "chess", "KRK", "--save", "krk.db", "-q"],
            &["solve", chase.to_str().unwrap(), "--save", "chase.db", "-q"],
        ] {
            let o = run(args, d);
            assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        }
        // One ending that some caps refuse (KBBK), smaller ones for the rest.
        let commands: &[&[&str]] = &[
            &["game", "chess", "KBBK", "-q"],
            &["game", "chess", "KQK", "--save", "out.db", "-q"],
            &["game", "dobutsu", "-q"],
            &["game", "teeko", "--save", "out.db", "-q"],
            &["game", "tic-tac-toe", "--save", "out.db", "-q"],
            &["game", "cop-thief", pillar, "--save", "out.db", "-q"],
            &["game", "cop-thief", walls, "-q"],
            &["export", "cop-thief", pillar, "-o", "out.txt"],
            &["solve", chase.to_str().unwrap(), "--save", "out.db", "-q"],
            &["verify", "ttt.db", "-q"],
            &["verify", "krk.db", "-q"],
            &["verify", "chase.db", "-q"],
            &["analyze", "krk.db"],
            &["query", "ttt.db", "x../.o./..."],
        ];
        for mib in [64, 160, 256] {
            for args in commands {
                if let Some(o) = capped(mib, args, &[], d) {
                    completes_or_refuses_for_memory(&o, &format!("{mib} MiB: {args:?}"));
                }
            }
        }
    }

    #[test]
    fn threads_that_do_not_fit_under_a_cap_are_fewer_with_a_note_not_a_panic() {
        let dir = retrograde::io::scratch_dir().unwrap();
        // 500 stacks of 2 MiB are more than a 300 MiB cap holds.
        let Some(o) = capped(
            300,
            &["game", "tic-tac-toe", "--json"],
            &[("RAYON_NUM_THREADS", "500")],
            dir.path(),
        ) else {
            return;
        };
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(
            stderr(&o).contains("retrograde: note: starting ")
                && stderr(&o).contains(" instead of 500: the memory limit has no room"),
            "{}",
            stderr(&o)
        );
        let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(j["positions"], 765);
        // Asked for with -j, they are refused instead.
        let Some(o) = capped(300, &["game", "tic-tac-toe", "-j", "500"], &[], dir.path()) else {
            return;
        };
        assert_refused(&o, "500 threads would reserve about");
    }

    #[test]
    fn export_and_verify_of_a_database_honour_max_memory() {
        let dir = retrograde::io::scratch_dir().unwrap();
        let d = dir.path();
        let pillar = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/boards/pillar.txt");
        let o = run(
            &[
                "export",
                "cop-thief",
                pillar.to_str().unwrap(),
                "--max-memory",
                "1K",
            ],
            d,
        );
        assert_refused(&o, "listing the moves of ");
        assert_refused(&o, "allowed (see --max-memory)");
        let o = run(&["game", "tic-tac-toe", "--save", "ttt.db", "-q"], d);
        assert!(o.status.success(), "{}", stderr(&o));
        let o = run(&["verify", "ttt.db", "--max-memory", "1K"], d);
        assert_refused(&o, "more than the 1.0 KiB allowed (see --max-memory)");
        for game in [
            &["tic-tac-toe"][..],
            &["chess", "KRK"],
            &["teeko"],
            &["dobutsu"],
        ] {
            let mut args = vec!["game"];
            args.extend_from_slice(game);
            args.extend(["--max-memory", "1K", "-q"]);
            let o = run(&args, d);
            assert_refused(&o, "more than the 1.0 KiB allowed (see --max-memory)");
        }
    }
}
