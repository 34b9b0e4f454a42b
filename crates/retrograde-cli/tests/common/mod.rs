//! What every test of the binary needs: run it, read what it printed, find
//! the fixtures.
#![allow(dead_code)] // each test file uses its own part

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `retrograde` binary under test.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_retrograde"))
}

/// A fixture under `tests/data`.
pub fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data")
        .join(name)
}

/// Runs the binary with `args` in `cwd` and waits for it.
pub fn run(args: &[&str], cwd: &Path) -> Output {
    bin().args(args).current_dir(cwd).output().unwrap()
}

/// What it wrote on standard error.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// What it wrote on standard output.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Starts `command` (a `serve` command line: `--port 0` is added) in
/// `dir` and reads the address it prints first (`127.0.0.1:PORT`).
pub fn start_server(mut command: Command, dir: &Path) -> (std::process::Child, String) {
    use std::io::BufRead;
    let mut child = command
        .args(["--port", "0"])
        .current_dir(dir)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    (child, addr)
}

/// Asserts exit 2 with exactly one line on standard error containing `want`.
pub fn assert_refused(o: &Output, want: &str) {
    let e = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(e.starts_with("retrograde: error: "), "{e}");
    assert!(e.contains(want), "expected {want:?} in {e:?}");
    assert_eq!(e.lines().count(), 1, "{e}");
}

#[path = "../../../retrograde-timely/tests/loopback/mod.rs"]
mod loopback;

#[allow(unused_imports)] // each test file uses its own part
pub use loopback::free_addresses;

pub fn write_hostfile(dir: &Path, addresses: &[String]) -> PathBuf {
    let path = dir.join("hosts.txt");
    let mut text = String::from("# one host:port per process\n");
    for a in addresses {
        text.push_str(a);
        text.push('\n');
    }
    std::fs::write(&path, text).unwrap();
    path
}

/// Starts every command at once (the processes of a cluster), then waits
/// for them all; their outputs, in order.
pub fn run_all(commands: impl IntoIterator<Item = Command>) -> Vec<Output> {
    let children: Vec<std::process::Child> = commands
        .into_iter()
        .map(|mut c| {
            c.stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    children
        .into_iter()
        .map(|c| c.wait_with_output().unwrap())
        .collect()
}

/// Says that a test did not run and why, where the test's normal output
/// shows it: straight to the process's standard error, which the test
/// harness does not capture (it captures `eprintln!`), so a skipped test
/// never reads as a silent `ok`.
#[allow(dead_code)]
pub fn skipped(test: &str, why: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "SKIPPED {test}: {why}");
}

/// A JSON report without its times (which differ from run to run).
#[allow(dead_code)] // each test file uses its own part
pub fn timeless(text: &str) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_str(text).unwrap();
    v.as_object_mut().unwrap().remove("time");
    v
}
