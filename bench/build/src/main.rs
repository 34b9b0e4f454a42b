//! `build-csr [EDGES] [RUNS]`: builds the solver's graph (out-degrees and
//! the reverse adjacency) from two arrays of `EDGES` random moves over
//! `EDGES / 4` positions, as the Python package does from numpy arrays
//! (`CsrBuilder` over chunks of the arrays, on all threads), next to the
//! yardstick: the plain counting sort a careful C program would write, on
//! one thread (count both degrees, prefix sums, place). Prints the fastest
//! of `RUNS` runs of each and their ratio.

use std::hint::black_box;
use std::time::{Duration, Instant};

use retrograde::{CsrBuilder, EdgeSource};

/// Two arrays read in chunks of 2^20 moves, as the Python package reads
/// numpy arrays.
struct Arrays<'a> {
    sources: &'a [u32],
    targets: &'a [u32],
}

const CHUNK: usize = 1 << 20;

impl EdgeSource for Arrays<'_> {
    fn chunk_count(&self) -> usize {
        self.sources.len().div_ceil(CHUNK).max(1)
    }

    fn for_each_edge_in<F: FnMut(u32, u32)>(
        &self,
        chunk: usize,
        mut f: F,
    ) -> retrograde::Result<()> {
        let lo = (chunk * CHUNK).min(self.sources.len());
        let hi = (lo + CHUNK).min(self.sources.len());
        for (&u, &v) in self.sources[lo..hi].iter().zip(&self.targets[lo..hi]) {
            f(u, v);
        }
        Ok(())
    }
}

/// The yardstick: out-degrees, then the reverse adjacency by a counting sort.
fn counting_sort(sources: &[u32], targets: &[u32], n: usize) -> (Vec<u32>, Vec<u64>, Vec<u32>) {
    let mut out = vec![0u32; n];
    let mut offsets = vec![0u64; n + 1];
    for (&u, &v) in sources.iter().zip(targets) {
        out[u as usize] += 1;
        offsets[v as usize + 1] += 1;
    }
    for i in 0..n {
        offsets[i + 1] += offsets[i];
    }
    let mut cursor = offsets.clone();
    let mut preds = vec![0u32; sources.len()];
    for (&u, &v) in sources.iter().zip(targets) {
        let c = &mut cursor[v as usize];
        preds[*c as usize] = u;
        *c += 1;
    }
    (out, offsets, preds)
}

fn fastest(runs: usize, mut f: impl FnMut()) -> Duration {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let edges: usize = args
        .next()
        .map_or(10_000_000, |a| a.parse().expect("EDGES: a number"));
    let runs: usize = args
        .next()
        .map_or(3, |a| a.parse().expect("RUNS: a number"));
    let n = (edges / 4).max(1);
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as u32
    };
    let sources: Vec<u32> = (0..edges).map(|_| next()).collect();
    let targets: Vec<u32> = (0..edges).map(|_| next()).collect();
    let arrays = Arrays {
        sources: &sources,
        targets: &targets,
    };
    let ours = fastest(runs, || {
        let g = CsrBuilder::new()
            .vertices(n)
            .build(&arrays)
            .expect("ids in range");
        black_box(g.edge_count());
    });
    let plain = fastest(runs, || {
        black_box(counting_sort(&sources, &targets, n));
    });
    println!(
        "{edges} moves over {n} positions: CsrBuilder {:.3} s ({} thread{}), plain counting sort {:.3} s (1 thread): {:.2}x",
        ours.as_secs_f64(),
        rayon::current_num_threads(),
        if rayon::current_num_threads() == 1 {
            ""
        } else {
            "s"
        },
        plain.as_secs_f64(),
        plain.as_secs_f64() / ours.as_secs_f64()
    );
}
