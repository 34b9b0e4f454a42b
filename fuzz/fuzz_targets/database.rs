//! The database reader on arbitrary bytes written to a file: opening,
//! probing by record and by key, reading every record, checking every
//! block and reading a graph's moves never panic; whatever is accepted
//! answers the same by record as in bulk.
//!
//! Mutating a real database finds more than random bytes: seed the corpus
//! with files `--save` wrote (`retrograde game tic-tac-toe --save
//! corpus/database/ttt.db`, a graph with `solve --save`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use retrograde::db::Database;

fuzz_target!(|data: &[u8]| {
    let dir = std::env::temp_dir().join(format!("retrograde-fuzz-db-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let path = dir.join("fuzz.db");
    if std::fs::write(&path, data).is_err() {
        return;
    }
    let Ok(db) = Database::open(&path) else {
        return;
    };
    // Bounded work: the reader takes the header's word for the record count.
    if db.len() > 1 << 20 {
        return;
    }
    for key in [0, 1, 7, u64::MAX, db.len(), db.len().saturating_sub(1)] {
        let _ = db.value(key);
        let _ = db.moves(key);
    }
    let _ = db.check();
    let _ = db.check_moves();
    if let Ok(all) = db.values() {
        for r in 0..db.len().min(1000) {
            if let Ok(one) = db.record(r) {
                assert_eq!(one, all.value(r as u32), "record {r} by itself and in bulk");
            }
        }
    }
    let _ = db.for_each(|_, _, _| {});
});
