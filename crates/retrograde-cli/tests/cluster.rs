//! The timely engine through the real binary: several processes on loopback
//! give the sequential solver's output byte for byte, and a process whose
//! peers are missing or die stops with an error instead of hanging.

use std::fs;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::*;

/// A pseudo-random multigraph with cycles, self-loops and parallel edges.
fn random_graph(dir: &Path, seed: u64, n: u32, m: usize) -> PathBuf {
    let mut x = seed;
    let mut next = move || {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (x >> 33) as u32
    };
    let mut text = String::from("# random test graph\n");
    for i in 0..m {
        let u = next() % n;
        let v = match i % 10 {
            0 => u,           // a self-loop
            1 => (u + 1) % n, // a cycle through all vertices ...
            _ => next() % n,
        };
        text.push_str(&format!("{u} {v}\n"));
        if i % 17 == 0 {
            text.push_str(&format!("{u} {v}\n")); // ... and parallel edges
        }
    }
    let path = dir.join(format!("g{seed}.txt"));
    fs::write(&path, text).unwrap();
    path
}

fn sequential(graph: &Path, extra: &[&str], out: &Path) {
    let o = bin()
        .args([
            "solve",
            graph.to_str().unwrap(),
            "-q",
            "-o",
            out.to_str().unwrap(),
        ])
        .args(extra)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
}

/// Starts every process of a cluster with the same arguments and its own
/// index; returns their outputs, process 0 first.
fn cluster(
    graph: &Path,
    processes: usize,
    threads: usize,
    extra: &[&str],
    out: &Path,
) -> Vec<Output> {
    let dir = out.parent().unwrap();
    let hosts = write_hostfile(dir, &free_addresses(processes));
    run_all((0..processes).map(|p| {
        let mut c = bin();
        c.args([
            "solve",
            graph.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ])
        .args(["--cluster", hosts.to_str().unwrap()])
        .args([
            "--process",
            &p.to_string(),
            "--threads",
            &threads.to_string(),
        ])
        .args(["--connect-timeout", "120"])
        .args(extra);
        c
    }))
}

fn check_cluster_matches_sequential(seed: u64, processes: usize, threads: usize, extra: &[&str]) {
    let dir = retrograde::io::scratch_dir().unwrap();
    let graph = random_graph(dir.path(), seed, 400, 1100);
    let expected = dir.path().join("sequential.tsv");
    sequential(&graph, extra, &expected);
    let got = dir.path().join("cluster.tsv");
    let outputs = cluster(&graph, processes, threads, extra, &got);
    for (p, o) in outputs.iter().enumerate() {
        assert!(o.status.success(), "process {p}: {}", stderr(o));
    }
    let summary = String::from_utf8_lossy(&outputs[0].stderr);
    assert!(
        summary.contains(&format!("engine: timely, {processes} processes")),
        "{summary}"
    );
    assert!(String::from_utf8_lossy(&outputs[1].stderr).contains("the solution is with process 0"));
    assert_eq!(
        fs::read(&got).unwrap(),
        fs::read(&expected).unwrap(),
        "seed {seed}"
    );
}

/// `text` converted to the binary format, beside it as `g.rgb`.
fn to_binary(text: &Path) -> PathBuf {
    let binary = text.with_file_name("g.rgb");
    let o = bin()
        .args([
            "convert",
            "-q",
            text.to_str().unwrap(),
            binary.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    binary
}

#[test]
fn a_binary_graph_on_three_processes_matches_byte_for_byte() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let text = random_graph(dir.path(), 7, 400, 1100);
    let binary = to_binary(&text);
    let expected = dir.path().join("sequential.tsv");
    sequential(&text, &[], &expected);
    let got = dir.path().join("cluster.tsv");
    let outputs = cluster(&binary, 3, 2, &[], &got);
    for (p, o) in outputs.iter().enumerate() {
        assert!(o.status.success(), "process {p}: {}", stderr(o));
    }
    assert_eq!(fs::read(&got).unwrap(), fs::read(&expected).unwrap());

    // One id changed to another in range (the low bit of the first
    // predecessor, after 64 header bytes, 400 out-degrees and 401 offsets):
    // every process refuses the file, naming it.
    let mut bytes = fs::read(&binary).unwrap();
    bytes[64 + 4 * 400 + 8 * 401] ^= 1;
    fs::write(&binary, bytes).unwrap();
    fs::remove_file(&got).unwrap();
    for o in cluster(&binary, 2, 1, &[], &got) {
        assert_refused(&o, "checksum mismatch: the file is corrupted");
        assert!(stderr(&o).contains("g.rgb"), "{}", stderr(&o));
    }
    assert!(!got.exists());
}

#[test]
fn a_share_over_max_memory_is_refused_in_every_process() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let text = random_graph(dir.path(), 8, 400, 1100);
    let binary = to_binary(&text);
    let got = dir.path().join("cluster.tsv");
    // 48 MiB of buffers a worker: 40M is too little for any share.
    for input in [&binary, &text] {
        let outputs = cluster(input, 2, 1, &["--max-memory", "40M"], &got);
        for o in &outputs {
            assert_refused(
                o,
                "process 0 would need about 48.0 MiB for its share of 400 positions and ",
            );
            assert!(
                stderr(o).contains("more than the 40.0 MiB it allows (see --max-memory)"),
                "{}",
                stderr(o)
            );
        }
        assert!(!got.exists());
        // Enough: solved.
        let outputs = cluster(input, 2, 1, &["--max-memory", "1G"], &got);
        for o in &outputs {
            assert!(o.status.success(), "{}", stderr(o));
        }
        fs::remove_file(&got).unwrap();
    }
}

#[test]
fn two_processes_match_the_sequential_solver_byte_for_byte() {
    check_cluster_matches_sequential(1, 2, 1, &[]);
}

#[test]
fn three_processes_with_labels_and_misere_match_byte_for_byte() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let labels = dir.path().join("labels.txt");
    fs::write(
        &labels,
        "# fixed values\n3 win\n10 draw\n11 lose\n450 lose\n",
    )
    .unwrap();
    let labels = labels.to_str().unwrap();
    check_cluster_matches_sequential(2, 3, 2, &["--terminal", labels, "--no-move", "win"]);
    check_cluster_matches_sequential(3, 3, 1, &["--terminal", labels, "--vertices", "500"]);
}

#[test]
fn engine_timely_in_one_process_matches_byte_for_byte() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let graph = random_graph(dir.path(), 4, 300, 900);
    let expected = dir.path().join("sequential.tsv");
    sequential(&graph, &["--no-move", "win"], &expected);
    for threads in ["1", "3"] {
        let got = dir.path().join(format!("timely{threads}.tsv"));
        let o = bin()
            .args([
                "solve",
                graph.to_str().unwrap(),
                "--engine",
                "timely",
                "--threads",
                threads,
            ])
            .args([
                "--no-move",
                "win",
                "-o",
                got.to_str().unwrap(),
                "--query",
                "5",
            ])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(fs::read(&got).unwrap(), fs::read(&expected).unwrap());
        let line5 = fs::read_to_string(&expected)
            .unwrap()
            .lines()
            .nth(5)
            .unwrap()
            .to_string();
        assert!(String::from_utf8_lossy(&o.stdout).contains(&line5));
    }
}

#[test]
fn bad_input_fails_the_same_way_in_every_process() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let graph = dir.path().join("bad.txt");
    fs::write(&graph, "0 1\n1 2\n2 0\n3 three\n4 5\n").unwrap();
    let out = dir.path().join("out.tsv");
    for o in cluster(&graph, 2, 2, &[], &out) {
        assert_eq!(o.status.code(), Some(2));
        assert!(
            stderr(&o).contains("bad.txt:line 4: expected the second vertex id"),
            "{}",
            stderr(&o)
        );
    }
    assert!(!out.exists());
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["--process", "0"][..],
        &["--threads", "2"][..],
        &["--engine", "sequential", "--cluster", "h", "--process", "0"][..],
        &["--engine", "timely", "--threads", "0"][..],
    ] {
        let o = bin().args(["solve", "g.txt"]).args(args).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    }
}

/// Waits for `child` at most `limit`; kills it and fails if it is still running.
fn wait_bounded(mut child: Child, limit: Duration) -> Output {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            child.kill().unwrap();
            panic!("the process was still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

/// The one test with a clock: a process whose peer never comes up gives up
/// after --connect-timeout (1 s here; the bound checked is generous).
#[test]
fn a_process_whose_peer_never_comes_up_fails_within_the_timeout() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let graph = random_graph(dir.path(), 5, 50, 100);
    let hosts = write_hostfile(dir.path(), &free_addresses(2));
    let out = dir.path().join("out.tsv");
    let child = bin()
        .args([
            "solve",
            graph.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ])
        .args(["--cluster", hosts.to_str().unwrap(), "--process", "1"])
        .args(["--connect-timeout", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let o = wait_bounded(child, Duration::from_secs(60));
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("could not connect to process 0"), "{e}");
    assert!(e.contains("within 1.0 s"), "{e}");
    assert!(!out.exists());
}

/// A peer that connects and then dies (here: a fake process 0 that answers
/// the handshake and hangs up) makes the other process stop with an error.
#[test]
fn a_peer_that_dies_makes_the_others_stop_with_an_error() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let graph = random_graph(dir.path(), 6, 50, 100);
    let fake = TcpListener::bind("127.0.0.1:0").unwrap();
    let mut addresses = free_addresses(1);
    addresses.insert(0, fake.local_addr().unwrap().to_string());
    let hosts = write_hostfile(dir.path(), &addresses);
    let child = bin()
        .args(["solve", graph.to_str().unwrap()])
        .args(["--cluster", hosts.to_str().unwrap(), "--process", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (mut peer, _) = fake.accept().unwrap();
    let mut hello = [0u8; 40];
    peer.read_exact(&mut hello).unwrap();
    // Answer as process 0 of the same run, then die.
    hello[8..16].copy_from_slice(&0u64.to_be_bytes());
    peer.write_all(&hello).unwrap();
    drop::<TcpStream>(peer);
    let o = wait_bounded(child, Duration::from_secs(120));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("lost the connection to process 0"), "{e}");
    assert!(!e.contains("panicked"), "{e}");
}

/// Regression: the handshake compared the graph files' sizes, so peers with
/// different graphs of one size joined and process 0 wrote a solution wrong
/// for both.
#[test]
fn peers_whose_graphs_differ_in_content_but_not_in_size_are_refused() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let a = dir.path().join("a.txt");
    let b = dir.path().join("b.txt");
    fs::write(&a, "0 1\n1 2\n").unwrap();
    fs::write(&b, "0 2\n2 1\n").unwrap();
    let hosts = write_hostfile(dir.path(), &free_addresses(2));
    let children: Vec<Child> = [&a, &b]
        .iter()
        .enumerate()
        .map(|(p, graph)| {
            bin()
                .args(["solve", graph.to_str().unwrap(), "-q"])
                .args(["--cluster", hosts.to_str().unwrap()])
                .args(["--process", &p.to_string(), "--connect-timeout", "60"])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for (p, c) in children.into_iter().enumerate() {
        let o = wait_bounded(c, Duration::from_secs(90));
        assert_eq!(o.status.code(), Some(2), "process {p}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("another input"),
            "process {p}: {}",
            stderr(&o)
        );
    }
}

/// Regression: a peer that answers the handshake and then stays silent with
/// its connection open (stopped, hung) made the other process wait for ever.
#[test]
fn a_peer_that_stays_connected_but_silent_is_named_after_the_stall_timeout() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let graph = random_graph(dir.path(), 7, 50, 100);
    let fake = TcpListener::bind("127.0.0.1:0").unwrap();
    let mut addresses = free_addresses(1);
    addresses.insert(0, fake.local_addr().unwrap().to_string());
    let hosts = write_hostfile(dir.path(), &addresses);
    let child = bin()
        .args(["solve", graph.to_str().unwrap()])
        .args(["--cluster", hosts.to_str().unwrap(), "--process", "1"])
        .args(["--stall-timeout", "2"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (mut peer, _) = fake.accept().unwrap();
    let mut hello = [0u8; 40];
    peer.read_exact(&mut hello).unwrap();
    hello[8..16].copy_from_slice(&0u64.to_be_bytes());
    peer.write_all(&hello).unwrap();
    // Silent from now on, the connection kept open until the child is done.
    let o = wait_bounded(child, Duration::from_secs(60));
    drop(peer);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains("no progress for 2 s waiting for process 0"),
        "{e}"
    );
    assert_eq!(e.lines().count(), 1, "{e}");
}

/// Relays a connection from process 1 to process 0, flipping one byte of
/// what process 1 sends at `flip` (counted from the first byte after the
/// 40-byte handshake).
fn corrupting_proxy(listener: TcpListener, to: String, flip: usize) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let Ok((from_1, _)) = listener.accept() else {
            return;
        };
        let Ok(to_0) = TcpStream::connect(&to) else {
            return;
        };
        let relay = |mut a: TcpStream, mut b: TcpStream, flip: Option<usize>| {
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                let mut seen = 0usize;
                loop {
                    let n = match a.read(&mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => n,
                    };
                    if let Some(at) = flip.map(|f| f + 40)
                        && (seen..seen + n).contains(&at)
                    {
                        buf[at - seen] ^= 0x10;
                    }
                    seen += n;
                    if b.write_all(&buf[..n]).is_err() {
                        break;
                    }
                }
                let _ = b.shutdown(std::net::Shutdown::Both);
            })
        };
        let up = relay(
            from_1.try_clone().unwrap(),
            to_0.try_clone().unwrap(),
            Some(flip),
        );
        let down = relay(to_0, from_1, None);
        let _ = up.join();
        let _ = down.join();
    })
}

/// Regression: cluster traffic had no integrity check, so one flipped byte
/// through a proxy gave a wrong solution with exit 0 (or a hang). Now every
/// run either fails (exit 2, within the stall timeout) or gives the right
/// answer.
#[test]
fn a_byte_flipped_between_processes_never_gives_a_wrong_answer() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let graph = random_graph(dir.path(), 8, 300, 900);
    let expected = dir.path().join("sequential.tsv");
    sequential(&graph, &[], &expected);
    let expected = fs::read(&expected).unwrap();
    // The trials run at once (each mostly waits out a stall timeout), on
    // addresses taken together so that no two trials share one.
    let flips = [3, 17, 64, 200, 513, 1500, 4000, 9000];
    let addresses = free_addresses(2 * flips.len());
    let trial = |flip: usize, real: &[String]| -> bool {
        let proxy = TcpListener::bind("127.0.0.1:0").unwrap();
        let proxied = vec![proxy.local_addr().unwrap().to_string(), real[1].clone()];
        let relay = corrupting_proxy(proxy, real[0].clone(), flip);
        let out = dir.path().join(format!("out{flip}.tsv"));
        let spawn = |p: usize, hosts: &[String]| {
            let file = dir.path().join(format!("hosts{flip}-{p}.txt"));
            let hostfile = write_hostfile_at(&file, hosts);
            bin()
                .args([
                    "solve",
                    graph.to_str().unwrap(),
                    "-q",
                    "-o",
                    out.to_str().unwrap(),
                ])
                .args([
                    "--cluster",
                    hostfile.to_str().unwrap(),
                    "--process",
                    &p.to_string(),
                ])
                // A damaged greeting leaves a process waiting for its peer
                // until the connect timeout.
                .args(["--stall-timeout", "3", "--connect-timeout", "10"])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        };
        let zero = spawn(0, real);
        let one = spawn(1, &proxied);
        let o0 = wait_bounded(zero, Duration::from_secs(60));
        let o1 = wait_bounded(one, Duration::from_secs(60));
        let _ = relay.join();
        let detected = match o0.status.code() {
            Some(0) => {
                assert_eq!(fs::read(&out).unwrap(), expected, "flip at {flip}");
                false
            }
            Some(2) => {
                assert!(!out.exists(), "flip at {flip}: output left behind");
                assert_eq!(stderr(&o0).lines().count(), 1, "{}", stderr(&o0));
                true
            }
            other => panic!("flip at {flip}: exit {other:?}: {}", stderr(&o0)),
        };
        assert!(
            matches!(o1.status.code(), Some(0 | 2)),
            "flip at {flip}: {}",
            stderr(&o1)
        );
        detected
    };
    let trial = &trial;
    let failed = std::thread::scope(|s| {
        let trials: Vec<_> = flips
            .iter()
            .zip(addresses.chunks(2))
            .map(|(&flip, real)| s.spawn(move || trial(flip, real)))
            .collect();
        trials
            .into_iter()
            .map(|t| t.join().expect("a trial failed"))
            .filter(|&detected| detected)
            .count()
    });
    assert!(failed > 0, "no flip was detected at all");
}

fn write_hostfile_at(path: &Path, addresses: &[String]) -> PathBuf {
    let text: String = addresses.iter().map(|a| format!("{a}\n")).collect();
    fs::write(path, text).unwrap();
    path.to_path_buf()
}
