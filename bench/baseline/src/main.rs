//! The benchmark baseline: the FIFO retrograde algorithm as a careful
//! programmer writes it in an afternoon, single-threaded, standard library
//! plus a memory map. It parses a text edge list (`u v` per line, `#`/`%`
//! comments) with a hand-written byte loop, builds the reverse adjacency by
//! counting sort, solves (outcome, remoteness and a best move per position,
//! normal play) and prints counts and phase times. `bench/speed.sh` runs it
//! next to `retrograde` so that every run reports ratios against it.
//!
//! Usage: `baseline GRAPH.txt`

use std::time::Instant;

fn main() {
    let path = std::env::args().nth(1).expect("usage: baseline GRAPH.txt");
    let t0 = Instant::now();
    let file = std::fs::File::open(&path).expect("cannot open the graph");
    // SAFETY: read-only map of a file nobody modifies during the run.
    let data = unsafe { memmap2::Mmap::map(&file) }.expect("cannot map the graph");

    // Parse into an edge list.
    let mut src: Vec<u32> = Vec::new();
    let mut dst: Vec<u32> = Vec::new();
    let mut i = 0;
    let n = data.len();
    while i < n {
        let c = data[i];
        if c == b'#' || c == b'%' || c == b'\n' || c == b'\r' {
            while i < n && data[i] != b'\n' {
                i += 1;
            }
            i += 1;
            continue;
        }
        let mut fields = [0u32; 2];
        for f in fields.iter_mut() {
            while i < n && (data[i] == b' ' || data[i] == b'\t') {
                i += 1;
            }
            let mut x = 0u32;
            while i < n && data[i].is_ascii_digit() {
                x = x * 10 + u32::from(data[i] - b'0');
                i += 1;
            }
            *f = x;
        }
        while i < n && data[i] != b'\n' {
            i += 1;
        }
        i += 1;
        src.push(fields[0]);
        dst.push(fields[1]);
    }
    let t_parse = t0.elapsed().as_secs_f64();

    // Reverse adjacency by counting sort.
    let v = src
        .iter()
        .chain(&dst)
        .copied()
        .max()
        .map_or(0, |m| m as usize + 1);
    let mut out_degree = vec![0u32; v];
    let mut start = vec![0usize; v + 1];
    for (&u, &w) in src.iter().zip(&dst) {
        out_degree[u as usize] += 1;
        start[w as usize + 1] += 1;
    }
    for k in 0..v {
        start[k + 1] += start[k];
    }
    let mut fill = start.clone();
    let mut preds = vec![0u32; src.len()];
    for (&u, &w) in src.iter().zip(&dst) {
        preds[fill[w as usize]] = u;
        fill[w as usize] += 1;
    }
    drop((src, dst, fill));
    let t_build = t0.elapsed().as_secs_f64();

    // FIFO retrograde analysis. 0 unknown, 1 win, 2 lose.
    let mut outcome = vec![0u8; v];
    let mut remoteness = vec![0u32; v];
    let mut best = vec![u32::MAX; v];
    let mut counter = out_degree;
    let mut queue: Vec<u32> = Vec::with_capacity(v);
    for (p, &d) in counter.iter().enumerate() {
        if d == 0 {
            outcome[p] = 2;
            queue.push(p as u32);
        }
    }
    let mut head = 0;
    while head < queue.len() {
        let u = queue[head] as usize;
        head += 1;
        for &p in &preds[start[u]..start[u + 1]] {
            let p = p as usize;
            if outcome[p] != 0 {
                continue;
            }
            if outcome[u] == 2 {
                outcome[p] = 1;
            } else {
                counter[p] -= 1;
                if counter[p] != 0 {
                    continue;
                }
                outcome[p] = 2;
            }
            remoteness[p] = remoteness[u] + 1;
            best[p] = u as u32;
            queue.push(p as u32);
        }
    }
    let t_solve = t0.elapsed().as_secs_f64();
    let wins = outcome.iter().filter(|&&o| o == 1).count();
    let losses = outcome.iter().filter(|&&o| o == 2).count();
    let longest = remoteness.iter().max().copied().unwrap_or(0);
    println!(
        "baseline: {v} vertices, {} edges: {wins} win, {losses} lose, {} draw, longest remoteness {longest}",
        preds.len(),
        v - wins - losses
    );
    println!(
        "baseline: parse {:.3} s, build {:.3} s, solve {:.3} s, total {:.3} s (best moves kept: {})",
        t_parse,
        t_build - t_parse,
        t_solve - t_build,
        t_solve,
        best.iter().filter(|&&b| b != u32::MAX).count()
    );
}
