//! Hosts, not just ports: the processes of a cluster run in network
//! namespaces of their own, joined by virtual links through a bridge, with
//! latency added on every link (`tc netem`), and give the same answers byte
//! for byte as one process. Needs root (namespaces, links and queueing
//! disciplines); elsewhere it says so and passes.

use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::common::*;

/// Namespaces created for one test, deleted (with their links) when dropped.
struct Hosts {
    names: Vec<String>,
    hub: String,
}

impl Hosts {
    /// `n` namespaces with addresses 10.77.0.1 ... 10.77.0.n, each linked
    /// to a bridge in a hub namespace, every link delayed by `delay` (as
    /// `tc netem` reads it, such as `2ms`; where the kernel has no netem,
    /// the test says so and the links are not delayed). `None` if
    /// namespaces cannot be made here (not root, or no `ip`).
    fn new(tag: &str, n: usize, delay: &str) -> Option<Hosts> {
        let id = format!("rg{}{tag}", std::process::id());
        let hosts = Hosts {
            names: (0..n).map(|k| format!("{id}h{k}")).collect(),
            hub: format!("{id}hub"),
        };
        if !ip(&["netns", "add", &hosts.hub]) {
            return None;
        }
        let hub = hosts.hub.clone();
        let in_hub = |args: &[&str]| {
            let mut all = vec!["netns", "exec", &hub, "ip"];
            all.extend_from_slice(args);
            ip(&all)
        };
        assert!(in_hub(&["link", "add", "br0", "type", "bridge"]));
        assert!(in_hub(&["link", "set", "br0", "up"]));
        for (k, name) in hosts.names.iter().enumerate() {
            let (inner, outer) = (format!("v{k}"), format!("b{k}"));
            assert!(ip(&["netns", "add", name]));
            assert!(in_hub(&[
                "link", "add", &outer, "type", "veth", "peer", "name", &inner, "netns", name,
            ]));
            assert!(in_hub(&["link", "set", &outer, "master", "br0", "up"]));
            let address = format!("10.77.0.{}/24", k + 1);
            assert!(ip(&["-n", name, "addr", "add", &address, "dev", &inner]));
            assert!(ip(&["-n", name, "link", "set", &inner, "up"]));
            assert!(ip(&["-n", name, "link", "set", "lo", "up"]));
            let tc = Command::new("ip")
                .args(["netns", "exec", name, "tc", "qdisc", "add", "dev", &inner])
                .args(["root", "netem", "delay", delay])
                .stderr(Stdio::null())
                .status()
                .map(|s| s.success())
                .unwrap_or(false);
            if !tc && k == 0 {
                eprintln!(
                    "tc netem is not available here (the kernel lacks sch_netem): the links between the namespaces carry no added latency"
                );
            }
        }
        Some(hosts)
    }

    /// The host list: one address per namespace, all on one port.
    fn hostfile(&self, dir: &Path) -> std::path::PathBuf {
        let addresses: Vec<String> = (0..self.names.len())
            .map(|k| format!("10.77.0.{}:47300", k + 1))
            .collect();
        write_hostfile(dir, &addresses)
    }

    /// Runs `retrograde ARGS --cluster HOSTS --process K` in namespace K,
    /// for every K; returns their outputs, process 0 first.
    fn run(&self, args: &[&str], hostfile: &Path) -> Vec<Output> {
        run_all(self.names.iter().enumerate().map(|(k, name)| {
            let mut c = Command::new("ip");
            c.args(["netns", "exec", name, env!("CARGO_BIN_EXE_retrograde")])
                .args(args)
                .args(["--cluster", hostfile.to_str().unwrap()])
                .args(["--process", &k.to_string(), "--connect-timeout", "60"]);
            c
        }))
    }
}

impl Drop for Hosts {
    fn drop(&mut self) {
        for name in self.names.iter().chain([&self.hub]) {
            ip(&["netns", "del", name]);
        }
    }
}

/// Runs `ip ARGS` quietly; whether it succeeded.
fn ip(args: &[&str]) -> bool {
    Command::new("ip")
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
}

fn skip() {
    skipped(
        "the network namespace test",
        "namespaces cannot be made here (this needs root and iproute2's `ip` and `tc`)",
    );
}

fn ok(o: &Output) -> String {
    assert!(o.status.success(), "{}", stderr(o));
    stdout(o)
}

#[test]
fn a_graph_solved_across_namespaces_with_latency_matches_byte_for_byte() {
    let Some(hosts) = Hosts::new("g", 3, "2ms") else {
        return skip();
    };
    let dir = retrograde::io::scratch_dir().unwrap();
    let graph = dir.path().join("g.txt");
    let o = bin()
        .args(["generate", "-q", "-n", "3000", "-m", "12000", "-s", "5"])
        .arg(&graph)
        .output()
        .unwrap();
    ok(&o);
    let want = dir.path().join("want.tsv");
    ok(&bin()
        .args(["solve", "-q", "--engine", "sequential", "-o"])
        .arg(&want)
        .arg(&graph)
        .output()
        .unwrap());
    let got = dir.path().join("got.tsv");
    let hostfile = hosts.hostfile(dir.path());
    let outputs = hosts.run(
        &[
            "solve",
            graph.to_str().unwrap(),
            "-o",
            got.to_str().unwrap(),
            "--threads",
            "2",
        ],
        &hostfile,
    );
    for o in &outputs {
        ok(o);
    }
    assert!(
        stderr(&outputs[0]).contains("engine: timely, 3 processes"),
        "{}",
        stderr(&outputs[0])
    );
    assert_eq!(fs::read(&got).unwrap(), fs::read(&want).unwrap());
}

#[test]
fn a_board_solved_across_namespaces_with_latency_gives_the_same_report() {
    let Some(hosts) = Hosts::new("c", 4, "1ms") else {
        return skip();
    };
    let dir = retrograde::io::scratch_dir().unwrap();
    let board = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/boards/museum.txt");
    let board = board.to_str().unwrap();
    let want = ok(&bin()
        .args(["cop-thief", board, "--map", "--line"])
        .output()
        .unwrap());
    let hostfile = hosts.hostfile(dir.path());
    let outputs = hosts.run(&["cop-thief", board, "--map", "--line"], &hostfile);
    assert_eq!(ok(&outputs[0]), want);
    for o in &outputs[1..] {
        assert_eq!(ok(o), "");
    }
}
