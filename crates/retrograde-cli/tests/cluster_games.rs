//! Numbered games on the timely engine through the real binary: every
//! process generates the moves of its own positions, process 0 prints what
//! the queue engine prints, and a board one capped process is refused is
//! solved by four processes under the same cap.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::*;

fn board(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(name)
}

/// Starts `processes` processes of `retrograde ARGS --cluster HOSTS
/// --process I --threads T`, each under `prefix` (a command that runs the
/// rest, such as `prlimit --as=N`; empty for none). Process 0 first.
fn cluster(args: &[&str], processes: usize, threads: usize, prefix: &[&str]) -> Vec<Output> {
    let dir = retrograde::io::scratch_dir().unwrap();
    let hosts = write_hostfile(dir.path(), &free_addresses(processes));
    run_all((0..processes).map(|p| {
        let mut c = match prefix.split_first() {
            Some((first, rest)) => {
                let mut c = Command::new(first);
                c.args(rest).arg(env!("CARGO_BIN_EXE_retrograde"));
                c
            }
            None => bin(),
        };
        c.args(args)
            .args(["--cluster", hosts.to_str().unwrap()])
            .args(["--process", &p.to_string()])
            .args(["--threads", &threads.to_string()])
            .args(["--connect-timeout", "120"]);
        c
    }))
}

fn ok(o: &Output) -> String {
    assert!(o.status.success(), "{}", stderr(o));
    stdout(o)
}

#[test]
fn cop_thief_on_a_cluster_prints_what_the_queue_engine_prints() {
    let dir = retrograde::io::scratch_dir().unwrap();
    for name in [
        "examples/boards/museum.txt", // draws
        "examples/boards/pillar.txt", // the police catches the thief
        "tests/data/boards/corridor_exit_ahead.txt",
        "tests/data/boards/walled_apart.txt",
    ] {
        let b = board(name);
        let b = b.to_str().unwrap();
        let want_svg = dir.path().join("want.svg");
        let want = ok(&bin()
            .args(["cop-thief", b, "--explicit", "--map", "--line", "--shade"])
            .args(["--svg", want_svg.to_str().unwrap()])
            .output()
            .unwrap());
        let got_svg = dir.path().join("got.svg");
        let outputs = cluster(
            &[
                "cop-thief",
                b,
                "--map",
                "--line",
                "--shade",
                "--svg",
                got_svg.to_str().unwrap(),
            ],
            3,
            2,
            &[],
        );
        assert_eq!(ok(&outputs[0]), want, "{name}");
        for o in &outputs[1..] {
            assert_eq!(ok(o), "", "{name}");
            assert!(
                stderr(o).contains("the answers are with process 0"),
                "{}",
                stderr(o)
            );
        }
        assert_eq!(
            fs::read(&got_svg).unwrap(),
            fs::read(&want_svg).unwrap(),
            "{name}"
        );

        // In one process, and through `retrograde game`, as JSON.
        let one = ok(&bin()
            .args([
                "cop-thief",
                b,
                "--engine",
                "timely",
                "--threads",
                "3",
                "--map",
                "--line",
            ])
            .output()
            .unwrap());
        assert_eq!(one, want, "{name}");
        let want = ok(&bin()
            .args(["cop-thief", b, "--explicit", "--json"])
            .output()
            .unwrap());
        let got = cluster(&["game", "cop-thief", b, "--json"], 2, 1, &[]);
        assert_eq!(timeless(&ok(&got[0])), timeless(&want), "{name}");
    }
}

#[test]
fn stats_name_the_engine_and_every_process_reports() {
    let b = board("examples/boards/museum.txt");
    let outputs = cluster(&["cop-thief", b.to_str().unwrap(), "--stats"], 2, 2, &[]);
    let summary = stderr(&outputs[0]);
    assert!(
        summary.contains("engine: timely, 2 processes x 2 worker threads"),
        "{summary}"
    );
    assert!(
        summary.contains("solved: 693 win, 477 lose, 0 tie, 288 draw, longest remoteness 25"),
        "{summary}"
    );
    assert!(
        stderr(&outputs[1]).contains("process 1 of 2: done"),
        "{}",
        stderr(&outputs[1])
    );
}

#[test]
fn what_needs_the_whole_solution_is_refused_on_the_timely_engine() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let b = board("examples/boards/museum.txt");
    let b = b.to_str().unwrap();
    let db = dir.path().join("m.db");
    let o = bin()
        .args([
            "cop-thief",
            b,
            "--engine",
            "timely",
            "--save",
            db.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_refused(&o, "--save needs the whole solution in one process");
    assert!(!db.exists());
    let o = bin()
        .args(["cop-thief", b, "--engine", "timely", "--explicit"])
        .output()
        .unwrap();
    assert_refused(&o, "--explicit builds the graph for the queue engine");
    let o = bin()
        .args(["game", "teeko", "--engine", "timely", "--verify"])
        .output()
        .unwrap();
    assert_refused(&o, "--verify and --save need the whole solution");
}

/// An open board of `side` x `side` cells, the cop and the thief in
/// opposite corners.
fn open_board(dir: &Path, side: usize) -> PathBuf {
    let mut text = format!("# an open board\n{side} {side}\n");
    for r in 0..side {
        for c in 0..side {
            text.push(match (r, c) {
                (0, 0) => 'P',
                _ if r == side - 1 && c == side - 1 => 'T',
                _ => '.',
            });
        }
        text.push('\n');
    }
    let path = dir.join(format!("open{side}.txt"));
    fs::write(&path, text).unwrap();
    path
}

/// The address-space cap (`prlimit --as`, the limit `ulimit -v` sets): one
/// process's estimate for the 75 x 75 board (63.3 million positions, 4
/// bytes each: 241 MiB) is over it, a quarter share's (with buffers,
/// 108 MiB) is under it, and so is what a process of four really maps.
const CAP: &str = "--as=220000000";

#[test]
fn a_board_one_capped_process_is_refused_four_capped_processes_solve() {
    if Command::new("prlimit").arg("--version").output().is_err() {
        skipped(
            "the address-space cap test",
            "prlimit (util-linux) is not installed",
        );
        return;
    }
    let dir = retrograde::io::scratch_dir().unwrap();
    let b = open_board(dir.path(), 75);
    let b = b.to_str().unwrap();
    let one = Command::new("prlimit")
        .args([
            CAP,
            env!("CARGO_BIN_EXE_retrograde"),
            "cop-thief",
            b,
            "--json",
        ])
        .output()
        .unwrap();
    assert_refused(
        &one,
        "5625 free cells make 63281250 positions, which would need about",
    );
    // The address space left under the cap: less than the cap itself (the
    // program, its threads and the allocator's arenas are mapped already).
    let allowed = stderr(&one)
        .split("more than the ")
        .nth(1)
        .and_then(|rest| rest.strip_suffix(" MiB allowed (see --max-memory)\n"))
        .and_then(|mib| mib.parse::<f64>().ok());
    assert!(
        allowed.is_some_and(|mib| mib > 100.0 && mib < 209.8),
        "{}",
        stderr(&one)
    );
    // The same cap, four processes: each checks its own share.
    let four = cluster(&["cop-thief", b, "--json"], 4, 1, &["prlimit", CAP]);
    for o in &four[1..] {
        ok(o);
    }
    let want = ok(&bin().args(["cop-thief", b, "--json"]).output().unwrap());
    assert_eq!(timeless(&ok(&four[0])), timeless(&want));
    // A share that does not fit is refused in every process, naming the first.
    let two = cluster(
        &["cop-thief", b, "--json", "--max-memory", "80M"],
        2,
        1,
        &[],
    );
    for o in &two {
        assert_refused(
            o,
            "process 0 would need about 168.7 MiB for its share of 63281250 positions, more than the 80.0 MiB it allows (see --max-memory)",
        );
    }
}

/// Regression: each process checked its share against its own limit before
/// connecting, so where only one refused, the others waited for it until
/// the connection timeout and then blamed the network.
#[test]
fn a_share_only_one_process_refuses_stops_every_process_at_once() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let b = open_board(dir.path(), 40);
    let hosts = write_hostfile(dir.path(), &free_addresses(3));
    let outputs = run_all((0..3).map(|p| {
        let mut c = bin();
        c.args(["cop-thief", b.to_str().unwrap(), "-q"])
            .args([
                "--cluster",
                hosts.to_str().unwrap(),
                "--process",
                &p.to_string(),
            ])
            .args(["--connect-timeout", "120", "--stall-timeout", "600"])
            .args(["--max-memory", if p == 1 { "50M" } else { "1G" }]);
        c
    }));
    for o in &outputs {
        assert_refused(o, "process 1 would need about ");
        assert!(
            stderr(o).contains("more than the 50.0 MiB it allows"),
            "{}",
            stderr(o)
        );
    }
}
