//! `probe DB [PROBES]`: random probes a second, on one thread, into a
//! solution database mapped from disk (the file's pages already cached),
//! next to the yardstick: the same probes into the records unpacked into
//! a plain array in memory (`u32` codes by record, and for a keyed database
//! a binary search of the keys in a sorted array, as `std::lower_bound`
//! would do it). Prints both rates and their ratio.

use std::hint::black_box;
use std::time::Instant;

use retrograde::db::Database;
use retrograde::{Outcome, Value};

fn splitmix(x: &mut u64) -> u64 {
    *x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *x;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn code(v: Option<Value>) -> u32 {
    match v {
        None => 0,
        Some(v) if v.outcome == Outcome::Draw => 1,
        Some(v) => {
            let c = match v.outcome {
                Outcome::Win => 0,
                Outcome::Lose => 1,
                _ => 2,
            };
            2 + 3 * v.remoteness.unwrap_or(0) + c
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: probe DB [PROBES]");
        std::process::exit(2);
    };
    let probes: usize = args
        .get(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2_000_000);
    let db = Database::open(std::path::Path::new(path)).unwrap_or_else(|e| {
        eprintln!("probe: {e}");
        std::process::exit(2)
    });
    // Everything read once: the yardstick's arrays, the pages cached, every block checked.
    let n = db.len() as usize;
    let mut codes = vec![0u32; n];
    let mut keys = Vec::with_capacity(if db.is_keyed() { n } else { 0 });
    db.for_each(|r, k, v| {
        codes[r as usize] = code(v);
        if db.is_keyed() {
            keys.push(k);
        }
    })
    .unwrap();
    let mut seed = 42u64;
    let asked: Vec<u64> = (0..probes)
        .map(|_| {
            let r = (splitmix(&mut seed) % n as u64) as usize;
            if db.is_keyed() { keys[r] } else { r as u64 }
        })
        .collect();
    // One warm pass through the database, then the timed ones.
    for &k in asked.iter().take(probes / 10) {
        black_box(db.value(k).unwrap());
    }
    let t = Instant::now();
    let mut sum = 0u64;
    for &k in &asked {
        sum += u64::from(code(db.value(k).unwrap()));
    }
    let db_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let mut base = 0u64;
    for &k in &asked {
        let r = if db.is_keyed() {
            keys.partition_point(|&x| x < k)
        } else {
            k as usize
        };
        base += u64::from(codes[r]);
    }
    let base_s = t.elapsed().as_secs_f64();
    assert_eq!(sum, base, "the database and the arrays disagree");
    let h = db.header();
    println!(
        "{path}: {} records, {} bits each, {:?}, keyed: {}; {probes} random probes on one thread",
        n,
        h.record_bits,
        h.compression,
        db.is_keyed()
    );
    println!(
        "database: {:.0} probes/s; arrays in memory: {:.0} probes/s; ratio {:.2}",
        probes as f64 / db_s,
        probes as f64 / base_s,
        base_s / db_s
    );
}
