//! `retrograde grundy`: loopy nim values of every graph format, and sums
//! of tokens answered from them; bad tokens refused naming what and where.

use std::fs;

use crate::common::*;

/// The lines of a fixture, comments and blank lines left out.
fn fixture(name: &str) -> String {
    fs::read_to_string(data(name))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| format!("{l}\n"))
        .collect()
}

/// Runs the binary with `args` in `dir`, `input` on its standard input.
fn with_stdin(args: &[&str], dir: &std::path::Path, input: &[u8]) -> std::process::Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = bin()
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

#[test]
fn values_of_chase_are_the_hand_worked_ones_from_text_binary_and_matrix_market() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let d = dir.path();
    let chase = data("chase.txt");
    let chase = chase.to_str().unwrap();
    let o = run(&["grundy", chase, "-q"], d);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), fixture("chase.grundy"));
    // The same graph in binary, and as a Matrix Market file (ids from 1).
    let o = run(&["convert", chase, "chase.rgb", "-q"], d);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run(&["grundy", "chase.rgb", "-o", "values.txt"], d);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        fs::read_to_string(d.join("values.txt")).unwrap(),
        fixture("chase.grundy")
    );
    assert!(
        stderr(&o).contains(
            "3 zero (lose), 3 positive (win, largest 1), 4 infinite (1 win, 3 draw); 2 stages"
        ),
        "{}",
        stderr(&o)
    );
    let edges: Vec<(u32, u32)> = fs::read_to_string(data("chase.txt"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let mut w = l.split_whitespace().map(|x| x.parse::<u32>().unwrap());
            (w.next().unwrap(), w.next().unwrap())
        })
        .collect();
    let mut mtx = format!(
        "%%MatrixMarket matrix coordinate pattern general\n10 10 {}\n",
        edges.len()
    );
    for (u, v) in edges {
        mtx += &format!("{} {}\n", u + 1, v + 1);
    }
    fs::write(d.join("chase.mtx"), mtx).unwrap();
    let o = run(&["grundy", "chase.mtx", "-q"], d);
    assert_eq!(stdout(&o), fixture("chase.grundy"), "{}", stderr(&o));
}

#[test]
fn sums_are_answered_with_a_winning_move_in_text_and_json() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let chase = data("chase.txt");
    let chase = chase.to_str().unwrap();
    let o = run(
        &[
            "grundy", chase, "--tokens", "1,6", "--tokens", "3, 9", "--tokens", "3,7", "-q",
        ],
        dir.path(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "1,6: inf{0} (win): move the token on 6 to 1\n3,9: 0 (lose)\n3,7: inf{1} (draw)\n"
    );
    let o = run(
        &["grundy", chase, "--tokens", "1,3,9", "--json"],
        dir.path(),
    );
    let j: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let sum = &j["sums"][0];
    assert_eq!(
        (&sum["value"], &sum["outcome"]),
        (&"1".into(), &"win".into())
    );
    // 1 xor 1 xor 1: any token moved from 1 to 2 (value 0) leaves 0.
    assert_eq!(sum["move"]["to"], 2);
    assert_eq!(j["counts"]["infinite_draw"], 3);
}

#[test]
fn sums_from_a_file_name_their_line_when_a_token_is_no_vertex() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let d = dir.path();
    fs::write(d.join("sums.txt"), "# two sums\n1 6\n\n3,7,99\n").unwrap();
    let chase = data("chase.txt");
    let o = run(
        &["grundy", chase.to_str().unwrap(), "--sums", "sums.txt"],
        d,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("sums.txt:4: vertex 99 is not in the graph (10 vertices)"),
        "{}",
        stderr(&o)
    );
    // A stream: the sums before the bad line are answered as they are read.
    assert!(stdout(&o).starts_with("1,6: "), "{}", stdout(&o));
    // Not UTF-8, or a line without end: refused naming the line.
    fs::write(d.join("bytes.txt"), b"1 6\n3 \xff\n").unwrap();
    let o = run(
        &["grundy", chase.to_str().unwrap(), "--sums", "bytes.txt"],
        d,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("bytes.txt:2: not UTF-8 text"),
        "{}",
        stderr(&o)
    );
    let o = run(
        &[
            "grundy",
            chase.to_str().unwrap(),
            "--sums",
            "/dev/zero",
            "-q",
        ],
        d,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("/dev/zero:1: a line of more than 1048576 bytes"),
        "{}",
        stderr(&o)
    );
    // --json holds its answers within --max-memory.
    fs::write(d.join("many.txt"), "1 6\n".repeat(100_000)).unwrap();
    let o = run(
        &[
            "grundy",
            chase.to_str().unwrap(),
            "--sums",
            "many.txt",
            "--json",
            "--max-memory",
            "1M",
        ],
        d,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("the answers --json holds would need about"),
        "{}",
        stderr(&o)
    );
    let o = run(&["grundy", chase.to_str().unwrap(), "--tokens", "1,x"], d);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--tokens 1,x: expected a vertex id"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn named_vertices_are_read_and_written_by_name() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let named = data("named.txt");
    let o = run(
        &[
            "grundy",
            named.to_str().unwrap(),
            "--names",
            "--tokens",
            "loop,middle",
            "-q",
        ],
        dir.path(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // loop can pass or go to start (a 0): inf{0}; middle is 1: inf{1}, a draw.
    assert_eq!(stdout(&o), "loop,middle: inf{1} (draw)\n");
    let o = run(
        &["grundy", named.to_str().unwrap(), "--names", "-q"],
        dir.path(),
    );
    assert!(stdout(&o).contains("loop\tinf{0}\n"), "{}", stdout(&o));
    assert!(stdout(&o).contains("start\t0\n"), "{}", stdout(&o));
}

#[test]
fn values_and_json_cannot_share_standard_output() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let chase = data("chase.txt");
    let o = run(
        &["grundy", chase.to_str().unwrap(), "--json", "-o", "-"],
        dir.path(),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("both write to standard output"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_saved_database_keeps_the_values_and_answers_sums_without_the_graph() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let d = dir.path();
    let named = data("named.txt");
    let o = run(
        &[
            "grundy",
            named.to_str().unwrap(),
            "--names",
            "--save",
            "v.db",
            "-q",
        ],
        d,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let from_graph = stdout(&o);
    // The values and the sums, read back from the database alone.
    let o = run(&["grundy", "v.db", "-q"], d);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), from_graph);
    let o = run(
        &["grundy", "v.db", "--tokens", "loop,middle,middle", "-q"],
        d,
    );
    assert_eq!(
        stdout(&o),
        "loop,middle,middle: inf{0} (win): move the token on loop to start\n"
    );
    // It is also the graph's ordinary database: query reads it by name.
    let o = run(&["query", "v.db", "loop", "--json"], d);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("\"outcome\":\"win\""), "{}", stdout(&o));
    // A flipped byte in the values is refused, naming the section.
    let mut bytes = fs::read(d.join("v.db")).unwrap();
    let header = String::from_utf8_lossy(&bytes[24..4096]).to_string();
    let start = header.find("\"grundy\":{\"values\":{\"offset\":").unwrap() + 29;
    let offset: usize = header[start..].split(',').next().unwrap().parse().unwrap();
    bytes[4096 + offset] ^= 1;
    fs::write(d.join("bad.db"), &bytes).unwrap();
    let o = run(&["grundy", "bad.db"], d);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("loopy nim values"), "{}", stderr(&o));
    // Graph options do not apply to a database: refused, not ignored.
    let o = run(&["grundy", "v.db", "--vertices", "3"], d);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--vertices reads a graph"),
        "{}",
        stderr(&o)
    );
    // A database without values says how to write one.
    let o = run(
        &[
            "solve",
            named.to_str().unwrap(),
            "--names",
            "--save",
            "plain.db",
            "-q",
        ],
        d,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run(&["grundy", "plain.db"], d);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("keeps no loopy nim values"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn svg_draws_every_vertex_with_its_value_and_refuses_big_graphs() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let d = dir.path();
    let chase = data("chase.txt");
    let o = run(
        &[
            "grundy",
            chase.to_str().unwrap(),
            "--svg",
            "c.svg",
            "-o",
            "v.txt",
        ],
        d,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let svg = fs::read_to_string(d.join("c.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("<circle").count(), 10);
    for label in ["7: inf{0}", "5: inf", "3: 1", "2: 0"] {
        assert!(svg.contains(&format!(">{label}</text>")), "{label}");
    }
    // 9 -> 2 twice is drawn once, saying so.
    assert!(svg.contains("<title>2 moves</title>"));
    fs::write(
        d.join("big.txt"),
        (0..101)
            .map(|v| format!("{v} {}\n", (v + 1) % 101))
            .collect::<String>(),
    )
    .unwrap();
    let o = run(&["grundy", "big.txt", "--svg", "big.svg"], d);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--svg draws graphs of up to 100 vertices; this one has 101"),
        "{}",
        stderr(&o)
    );
    assert!(!d.join("big.svg").exists());
}

#[test]
fn a_graph_on_standard_input_is_read_whole_and_sums_may_come_from_it_too() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let o = with_stdin(&["grundy", "-", "-q"], dir.path(), b"0 1\n2 3\n4 5\n");
    assert_eq!(stdout(&o), "0\t1\n1\t0\n2\t1\n3\t0\n4\t1\n5\t0\n");
    let chase = data("chase.txt");
    let o = with_stdin(
        &["grundy", chase.to_str().unwrap(), "--sums", "-", "-q"],
        dir.path(),
        b"1,6\n",
    );
    assert_eq!(stdout(&o), "1,6: inf{0} (win): move the token on 6 to 1\n");
    // A database or picture on standard output beside the answers: refused.
    let o = run(
        &[
            "grundy",
            chase.to_str().unwrap(),
            "--save",
            "-",
            "--tokens",
            "1",
        ],
        dir.path(),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("both write to standard output"),
        "{}",
        stderr(&o)
    );
}
