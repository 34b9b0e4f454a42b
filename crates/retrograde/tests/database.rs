//! The solution database: what is written is read back, by record, by key
//! and in bulk, compressed or not; damage and truncation are refused and
//! named.

use proptest::prelude::*;
use retrograde::db::{self, Compression, Database, DbError, Fault, Meta, Source};
use retrograde::{Outcome, Value};

/// A value from a small seed: no position, a draw, or a win, loss or tie
/// at some remoteness (large ones included: the width must follow).
fn value_of(seed: u64) -> Option<Value> {
    let r = match seed % 7 {
        0 => (seed >> 8) as u32,
        _ => (seed >> 8) as u32 % 200,
    };
    match seed % 5 {
        0 => None,
        1 => Some(Value::new(Outcome::Draw, None)),
        2 => Some(Value::new(Outcome::Win, Some(r))),
        3 => Some(Value::new(Outcome::Lose, Some(r))),
        _ => Some(Value::new(Outcome::Tie, Some(r))),
    }
}

fn write(
    values: &[Option<Value>],
    keys: Option<&[u64]>,
    moves: Option<(&[u64], &[u32])>,
    compression: Compression,
) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = retrograde::io::scratch_dir().unwrap();
    let path = dir.path().join("game.db");
    let source = Source {
        records: values.len() as u64,
        value: |r: u64| values[r as usize],
        keys,
        moves,
        names: None,
        grundy: None,
        owners: None,
    };
    db::Writer::new(Meta::new("test").variant("v").param("board", "x\ny"))
        .compression(compression)
        .write(&path, &source)
        .unwrap();
    (dir, path)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn records_and_keys_read_back_as_written(
        seeds in prop::collection::vec(any::<u64>(), 0..200_000usize),
        gaps in prop::collection::vec(1u64..1000, 0..200_000usize),
        sparse in any::<bool>(),
        zstd in any::<bool>(),
    ) {
        let n = if sparse { seeds.len().min(gaps.len()) } else { seeds.len() };
        let values: Vec<Option<Value>> = seeds[..n].iter().map(|&s| value_of(s)).collect();
        let keys: Vec<u64> = gaps[..if sparse { n } else { 0 }]
            .iter()
            .scan(0u64, |k, &g| { *k += g; Some(*k) })
            .collect();
        let compression = if zstd { Compression::Zstd } else { Compression::None };
        let (_dir, path) = write(&values, sparse.then_some(&keys[..]), None, compression);
        let d = Database::open(&path).unwrap();
        prop_assert_eq!(d.len(), n as u64);
        prop_assert_eq!(&d.meta().params["board"], "x\ny");
        prop_assert_eq!(d.header().positions, values.iter().filter(|v| v.is_some()).count() as u64);
        let longest = values.iter().filter_map(|v| v.and_then(|v| v.remoteness)).max();
        prop_assert_eq!(d.header().longest, longest);
        for (r, v) in values.iter().enumerate().step_by(97) {
            prop_assert_eq!(d.record(r as u64).unwrap(), *v);
            let key = if sparse { keys[r] } else { r as u64 };
            prop_assert_eq!(d.record_of(key).unwrap(), Some(r as u64));
            prop_assert_eq!(d.value(key).unwrap(), *v);
            if sparse {
                // Between two keys: no record.
                prop_assert_eq!(d.record_of(key + 1).unwrap(), keys.get(r + 1).filter(|&&k| k == key + 1).map(|_| r as u64 + 1));
            }
        }
        prop_assert_eq!(d.record_of(u64::MAX).unwrap(), None);
        let mut seen = Vec::new();
        d.for_each(|r, key, v| seen.push((r, key, v))).unwrap();
        let expected: Vec<_> = values
            .iter()
            .enumerate()
            .map(|(r, &v)| (r as u64, if sparse { keys[r] } else { r as u64 }, v))
            .collect();
        prop_assert_eq!(seen, expected);
        let all = d.values().unwrap();
        for (r, v) in values.iter().enumerate() {
            prop_assert_eq!(all.value(r as u32), *v);
        }
        d.check().unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// `Database::count` (records counted by code, on all threads) gives
    /// the histogram and the first longest win and loss that counting the
    /// records one by one gives, but for the keys left uncounted; at every
    /// record width (8 bits, up to 12, up to 16, wider).
    #[test]
    fn counting_by_code_matches_counting_one_by_one(
        seeds in prop::collection::vec(any::<u64>(), 0..150_000usize),
        cap in prop::sample::select(vec![40u32, 600, 20_000, u32::MAX]),
        sparse in any::<bool>(),
        every in 1usize..5000,
    ) {
        let values: Vec<Option<Value>> = seeds
            .iter()
            .map(|&s| value_of(s).map(|v| Value::new(v.outcome, v.remoteness.map(|r| r % cap))))
            .collect();
        let keys: Vec<u64> = (0..values.len() as u64).map(|i| 3 * i + 1).collect();
        let (_dir, path) = write(&values, sparse.then_some(&keys[..]), None, Compression::Zstd);
        let d = Database::open(&path).unwrap();
        let key = |r: usize| if sparse { keys[r] } else { r as u64 };
        let uncounted: Vec<u64> = (0..values.len()).step_by(every).map(key).collect();
        let mut histogram = retrograde::Histogram::default();
        let (mut win, mut loss) = (None::<(u32, u64)>, None::<(u32, u64)>);
        for (r, v) in values.iter().enumerate() {
            let Some(v) = v.filter(|_| !uncounted.contains(&key(r))) else { continue };
            histogram.count(v);
            let slot = match v.outcome {
                Outcome::Win => &mut win,
                Outcome::Lose => &mut loss,
                _ => continue,
            };
            let rem = v.remoteness.unwrap_or(0);
            if slot.is_none_or(|(best, _)| rem > best) {
                *slot = Some((rem, key(r)));
            }
        }
        let counted = d.count(&uncounted).unwrap();
        prop_assert_eq!(counted.histogram, histogram);
        prop_assert_eq!(counted.longest_win, win);
        prop_assert_eq!(counted.longest_loss, loss);
    }
}

#[test]
fn every_key_is_found_at_its_rank_and_no_other_number_is() {
    // Dense runs, gaps, a first key of 0 and keys near the top.
    let mut keys: Vec<u64> = (0..3000).collect();
    keys.extend((5000..9000).step_by(3));
    keys.extend([1 << 40, (1 << 40) + 1, u64::MAX / 2]);
    let values = vec![Some(Value::new(Outcome::Win, Some(1))); keys.len()];
    let (_dir, path) = write(&values, Some(&keys), None, Compression::None);
    let d = Database::open(&path).unwrap();
    for (i, &k) in keys.iter().enumerate() {
        assert_eq!(d.record_of(k).unwrap(), Some(i as u64), "key {k}");
    }
    for k in [
        3000,
        3001,
        5001,
        8998,
        9001,
        1 << 39,
        (1 << 40) + 2,
        u64::MAX,
    ] {
        assert_eq!(d.record_of(k).unwrap(), None, "key {k}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Clusters of keys of any size and density, anywhere: every key at
    /// its rank, every number between and around them absent.
    #[test]
    fn clustered_keys_are_found_at_their_ranks(
        clusters in prop::collection::vec((0u64..1 << 20, 1u64..3000, 1u64..4), 1..12),
        shift in 0u32..40,
    ) {
        let mut keys = Vec::new();
        for &(at, size, step) in &clusters {
            keys.extend((0..size).map(|i| (at << shift) + i * step));
        }
        keys.sort_unstable();
        keys.dedup();
        let values = vec![Some(Value::new(Outcome::Win, Some(1))); keys.len()];
        let (_dir, path) = write(&values, Some(&keys), None, Compression::None);
        let d = Database::open(&path).unwrap();
        let set: std::collections::HashSet<u64> = keys.iter().copied().collect();
        for (i, &k) in keys.iter().enumerate() {
            prop_assert_eq!(d.record_of(k).unwrap(), Some(i as u64));
            for other in [k.wrapping_sub(1), k + 1, k + 2] {
                if !set.contains(&other) {
                    prop_assert_eq!(d.record_of(other).unwrap(), None);
                }
            }
        }
    }
}

/// Keys bunched in a few dense ranges far apart (a game numbering its
/// positions tier by tier, or by bit boards): whole runs of keys share one
/// bucket of the encoding, and each is still found at its rank, its
/// neighbours not.
#[test]
fn keys_bunched_in_dense_ranges_far_apart_are_found_at_their_ranks() {
    let mut keys = Vec::new();
    for (c, size) in [
        (3u64, 40_000u64),
        (9, 7),
        (10, 25_000),
        (40, 1),
        (41, 60_000),
    ] {
        let base = c << 33;
        keys.extend((0..size).map(|i| base + i * (1 + i % 3)));
    }
    keys.sort_unstable();
    keys.dedup();
    let values = vec![Some(Value::new(Outcome::Lose, Some(2))); keys.len()];
    let (_dir, path) = write(&values, Some(&keys), None, Compression::None);
    let d = Database::open(&path).unwrap();
    let set: std::collections::HashSet<u64> = keys.iter().copied().collect();
    for (i, &k) in keys.iter().enumerate() {
        assert_eq!(d.record_of(k).unwrap(), Some(i as u64), "key {k}");
        for other in [k.wrapping_sub(1), k + 1] {
            if !set.contains(&other) {
                assert_eq!(d.record_of(other).unwrap(), None, "key {other}");
            }
        }
    }
    assert_eq!(d.record_of(0).unwrap(), None);
    assert_eq!(d.record_of(u64::MAX).unwrap(), None);
}

#[test]
fn moves_read_back_as_written() {
    let values = vec![Some(Value::new(Outcome::Draw, None)); 4];
    let offsets = [0u64, 2, 2, 3, 5];
    let targets = [1u32, 1, 3, 0, 2];
    let (_dir, path) = write(&values, None, Some((&offsets, &targets)), Compression::Zstd);
    let d = Database::open(&path).unwrap();
    assert_eq!(d.moves(0).unwrap(), Some(vec![1, 1]));
    assert_eq!(d.moves(1).unwrap(), Some(vec![]));
    assert_eq!(d.moves(3).unwrap(), Some(vec![0, 2]));
    assert_eq!(d.moves(4).unwrap(), None);
}

/// A database of 300,000 records in 5 blocks, each a different value.
fn big(compression: Compression) -> (tempfile::TempDir, std::path::PathBuf) {
    let values: Vec<Option<Value>> = (0..300_000u64)
        .map(|i| value_of(i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 20))
        .collect();
    write(&values, None, None, compression)
}

/// Where the data starts (after the header).
fn data_start(path: &std::path::Path) -> usize {
    let bytes = std::fs::read(path).unwrap();
    let len = u64::from_le_bytes(bytes[8..16].try_into().unwrap()) as usize;
    (24 + len).div_ceil(4096) * 4096
}

#[test]
fn a_flipped_byte_in_a_block_is_refused_naming_the_block() {
    for compression in [Compression::None, Compression::Zstd] {
        let (_dir, path) = big(compression);
        let d = Database::open(&path).unwrap();
        // A byte in block 3.
        let ends = &d.header().blocks;
        let at = if ends.ends.is_empty() {
            3 * ends.chunk as usize + 10
        } else {
            ends.ends[2] as usize + 10
        };
        drop(d);
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[data_start(&path) + at] ^= 0x40;
        std::fs::write(&path, &bytes).unwrap();
        let d = Database::open(&path).unwrap();
        // Records of other blocks still read.
        assert!(d.record(0).is_ok());
        let err = d.record(3 * 65536 + 5).unwrap_err();
        assert!(
            matches!(
                err,
                DbError::Damaged {
                    block: 3,
                    fault: Fault::Checksum,
                    section: "records",
                    ..
                }
            ),
            "{err}"
        );
        assert!(
            err.to_string()
                .contains("records block 3: checksum mismatch"),
            "{err}"
        );
        assert!(d.values().is_err());
        assert!(d.check().is_err());
    }
}

#[test]
fn a_file_cut_short_is_refused_on_opening() {
    for compression in [Compression::None, Compression::Zstd] {
        let (_dir, path) = big(compression);
        let bytes = std::fs::read(&path).unwrap();
        for keep in [bytes.len() - 1, bytes.len() - 40_000, 5000, 30, 10] {
            std::fs::write(&path, &bytes[..keep]).unwrap();
            let err = Database::open(&path).unwrap_err();
            let text = err.to_string();
            assert!(
                text.contains("cut short") || text.contains("not a solution database"),
                "{keep}: {text}"
            );
        }
    }
}

#[test]
fn a_damaged_header_or_another_file_is_refused() {
    let (_dir, path) = big(Compression::Zstd);
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[40] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let err = Database::open(&path).unwrap_err();
    assert!(matches!(err, DbError::Header { .. }), "{err}");
    std::fs::write(&path, b"0 1\n1 2\n").unwrap();
    let err = Database::open(&path).unwrap_err();
    assert!(matches!(err, DbError::NotADatabase { .. }), "{err}");
}

#[test]
fn unsorted_keys_are_refused_by_the_writer() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let keys = [1u64, 5, 5];
    let source = Source {
        records: 3,
        value: |_| None,
        keys: Some(&keys[..]),
        moves: None,
        names: None,
        grundy: None,
        owners: None,
    };
    let err = db::Writer::new(Meta::new("t"))
        .write(&dir.path().join("x.db"), &source)
        .unwrap_err();
    assert!(
        matches!(err, DbError::UnsortedKeys { index: 2, key: 5 }),
        "{err}"
    );
    assert!(!dir.path().join("x.db").exists());
}

#[test]
fn the_record_width_follows_the_longest_game() {
    // A tie in r has the largest code of the three: 4 + 3r.
    for (longest, bits) in [
        (0u32, 3u32),
        (1, 3),
        (83, 8),
        (84, 9),
        (339, 10),
        (340, 11),
        (100_000, 19),
    ] {
        let values = [Some(Value::new(Outcome::Tie, Some(longest)))];
        let (_dir, path) = write(&values, None, None, Compression::None);
        let d = Database::open(&path).unwrap();
        assert_eq!(d.header().record_bits, bits, "longest {longest}");
        assert_eq!(d.record(0).unwrap(), values[0]);
    }
}

/// Rewrites the header of the database at `path` with `f`, its checksum
/// recomputed (a crafted file, not a damaged one); the data stays where it is.
fn rewrite_header(path: &std::path::Path, f: impl FnOnce(&mut serde_json::Value, &mut [u8])) {
    let mut bytes = std::fs::read(path).unwrap();
    let start = data_start(path);
    let len = u64::from_le_bytes(bytes[8..16].try_into().unwrap()) as usize;
    let mut header: serde_json::Value = serde_json::from_slice(&bytes[24..24 + len]).unwrap();
    f(&mut header, &mut bytes[start..]);
    let text = serde_json::to_vec(&header).unwrap();
    assert!(
        24 + text.len() <= start,
        "the crafted header must fit before the data"
    );
    bytes[8..16].copy_from_slice(&(text.len() as u64).to_le_bytes());
    bytes[16..24].copy_from_slice(&xxhash_rust::xxh3::xxh3_64(&text).to_le_bytes());
    bytes[24..start].fill(0);
    bytes[24..24 + text.len()].copy_from_slice(&text);
    std::fs::write(path, &bytes).unwrap();
}

#[test]
fn a_crafted_header_is_refused_where_it_does_not_hold() {
    let values = [
        Some(Value::new(Outcome::Win, Some(3))),
        Some(Value::new(Outcome::Lose, Some(4))),
    ];
    // A record beyond the header's longest remoteness is no value.
    let (_dir, path) = write(&values, None, None, Compression::None);
    rewrite_header(&path, |h, _| h["longest"] = 3.into());
    let d = Database::open(&path).unwrap();
    assert_eq!(d.record(0).unwrap(), values[0]);
    let err = d.record(1).unwrap_err();
    assert!(
        matches!(
            err,
            DbError::Damaged {
                fault: Fault::Decode(_),
                ..
            }
        ),
        "{err}"
    );
    assert!(d.values().is_err());
    // Uncompressed blocks with listed ends, a chunk of 0 bytes: impossible layouts.
    for craft in [
        (|h: &mut serde_json::Value| h["blocks"]["ends"] = serde_json::json!([1]))
            as fn(&mut serde_json::Value),
        |h| h["blocks"]["chunk"] = 0.into(),
        |h| h["records"] = (1u64 << 40).into(),
    ] {
        let (_dir, path) = write(&values, None, None, Compression::None);
        rewrite_header(&path, |h, _| craft(h));
        let err = Database::open(&path).unwrap_err();
        assert!(
            matches!(
                err,
                DbError::Damaged {
                    fault: Fault::Layout,
                    ..
                } | DbError::Header { .. }
            ),
            "{err}"
        );
    }
    // Keys whose arrays do not have the sizes of their count.
    let keys = [3u64, 9];
    let (_dir, path) = write(&values, Some(&keys), None, Compression::Zstd);
    rewrite_header(&path, |h, _| h["keys"]["universe"] = (1u64 << 50).into());
    assert!(matches!(
        Database::open(&path).unwrap_err(),
        DbError::Header { .. }
    ));
}

#[test]
fn moves_out_of_order_are_refused_even_with_their_checksums_right() {
    let values = vec![Some(Value::new(Outcome::Draw, None)); 3];
    let offsets = [0u64, 1, 2, 3];
    let targets = [1u32, 2, 0];
    let (_dir, path) = write(&values, None, Some((&offsets, &targets)), Compression::None);
    rewrite_header(&path, |h, data| {
        // Position 1's moves start after position 2's.
        let at = h["moves"]["offsets"]["offset"].as_u64().unwrap() as usize;
        data[at + 8..at + 16].copy_from_slice(&3u64.to_le_bytes());
        let sum = xxhash_rust::xxh3::xxh3_64(&data[at..at + 32]);
        h["moves"]["offsets"]["checksums"] = serde_json::json!([sum]);
    });
    let d = Database::open(&path).unwrap();
    let err = d.check_moves().unwrap_err();
    assert!(err.to_string().contains("out of order"), "{err}");
    assert!(retrograde::play::StoredGraph::new(&d).is_err());
}

#[test]
fn an_empty_game_is_a_database_every_reader_takes() {
    let no_moves: (&[u64], &[u32]) = (&[0], &[]);
    let no_keys: &[u64] = &[];
    for compression in [Compression::Zstd, Compression::None] {
        for (keys, moves) in [(None, None), (Some(no_keys), None), (None, Some(no_moves))] {
            let (_dir, path) = write(&[], keys, moves, compression);
            let db = Database::open(&path).unwrap_or_else(|e| panic!("{compression:?}: {e}"));
            assert!(db.is_empty());
            db.check().unwrap();
            assert_eq!(db.value(0).unwrap(), None);
            let mut seen = 0;
            db.for_each(|_, _, _| seen += 1).unwrap();
            assert_eq!(seen, 0);
            if moves.is_some() {
                db.check_moves().unwrap();
            }
        }
    }
}

#[test]
fn a_staged_database_appears_only_when_its_outputs_are_committed() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let values = [Some(Value::new(Outcome::Lose, Some(0)))];
    let source = Source {
        records: 1,
        value: |r: u64| values[r as usize],
        keys: None,
        moves: None,
        names: None,
        grundy: None,
        owners: None,
    };
    let writer = db::Writer::new(Meta::new("test"));
    let path = dir.path().join("game.db");
    let mut outputs = retrograde::io::Outputs::new();
    writer.stage(&mut outputs, &path, &source).unwrap();
    assert!(!path.exists());
    outputs.commit().unwrap();
    assert_eq!(Database::open(&path).unwrap().value(0).unwrap(), values[0]);
    // Dropped without a commit (the run failed later): nothing appears.
    let other = dir.path().join("other.db");
    let mut outputs = retrograde::io::Outputs::new();
    writer.stage(&mut outputs, &other, &source).unwrap();
    drop(outputs);
    assert!(!other.exists());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn a_mapped_database_rewritten_in_place_is_refused_as_changed_not_damaged() {
    let (_dir, path) = big(Compression::None);
    let d = Database::open(&path).unwrap();
    assert!(d.record(0).is_ok());
    assert!(d.unchanged().is_ok());
    // Another program writes other bytes over it, in place (as `cp` does:
    // the same file, truncated and written again).
    let mut bytes = std::fs::read(&path).unwrap();
    let at = data_start(&path) + 3 * d.header().blocks.chunk as usize + 10;
    bytes[at] ^= 0x40;
    bytes.push(0);
    std::fs::write(&path, &bytes).unwrap();
    let err = d.record(3 * 65536 + 5).unwrap_err();
    assert!(matches!(err, DbError::Changed { .. }), "{err}");
    assert!(matches!(d.unchanged(), Err(DbError::Changed { .. })));
    assert!(
        err.to_string().contains("changed since it was opened"),
        "{err}"
    );
}

#[test]
fn a_database_read_into_memory_keeps_its_answers_when_the_file_changes() {
    for compression in [Compression::None, Compression::Zstd] {
        let (_dir, path) = big(compression);
        let d = Database::read(&path, u64::MAX).unwrap();
        let before = d.values().unwrap();
        let bytes = std::fs::read(&path).unwrap();
        // Rewritten in place with other bytes, then cut short.
        let other: Vec<u8> = bytes.iter().map(|b| b ^ 0x5a).collect();
        std::fs::write(&path, &other).unwrap();
        assert_eq!(d.values().unwrap(), before);
        std::fs::write(&path, &bytes[..5000]).unwrap();
        assert_eq!(d.values().unwrap(), before);
        assert!(d.check().is_ok());
        assert!(d.unchanged().is_ok());
    }
}

#[test]
fn reading_a_database_into_memory_checks_it_whole_and_within_the_limit() {
    let (_dir, path) = big(Compression::Zstd);
    let size = std::fs::metadata(&path).unwrap().len();
    let err = Database::read(&path, size - 1).unwrap_err();
    assert!(
        matches!(err, DbError::TooLarge { bytes, limit, .. } if bytes == size && limit == size - 1),
        "{err}"
    );
    assert!(Database::read(&path, size).is_ok());
    // A flipped byte anywhere is refused when it is read, not when probed.
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 3;
    bytes[last] ^= 0x01;
    std::fs::write(&path, &bytes).unwrap();
    let err = Database::read(&path, u64::MAX).unwrap_err();
    assert!(
        matches!(
            err,
            DbError::Damaged {
                fault: Fault::Checksum,
                ..
            }
        ),
        "{err}"
    );
}

/// The writer holds the file's data while it writes it, and the packed
/// blocks beside it while they are copied in: its bound covers twice the
/// file, for records whose remoteness is below their number, uncompressed
/// (the largest), with keys and moves.
#[test]
fn the_writers_memory_bound_covers_twice_the_file_it_writes() {
    let n = 100_000u64;
    let values: Vec<Option<Value>> = (0..n)
        .map(|i| {
            let r = (i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40) % n;
            Some(Value::new(Outcome::Win, Some(r as u32)))
        })
        .collect();
    let keys: Vec<u64> = (0..n).map(|i| i * 977 + 5).collect();
    let offsets: Vec<u64> = (0..=n).map(|i| 3 * i).collect();
    let targets: Vec<u32> = (0..3 * n).map(|i| (i % n) as u32).collect();
    for (keyed, moved) in [(false, false), (true, false), (false, true)] {
        let (_dir, path) = write(
            &values,
            keyed.then_some(&keys[..]),
            moved.then_some((&offsets[..], &targets[..])),
            Compression::None,
        );
        let file = std::fs::metadata(&path).unwrap().len();
        let bound = db::Writer::memory_bound(
            n,
            keyed.then(|| keys[keys.len() - 1] + 1),
            moved.then_some(targets.len() as u64),
        );
        assert!(
            bound >= 2 * file,
            "keys {keyed}, moves {moved}: bound {bound} for a file of {file}"
        );
        // Not so loose as to refuse what fits: a few times the file.
        assert!(
            bound <= 6 * file + (2 << 20),
            "keys {keyed}, moves {moved}: bound {bound} for a file of {file}"
        );
    }
    // The keyed writer sorts the keys with their positions first.
    assert!(db::Writer::keyed_memory_bound(n, u64::MAX) >= 28 * n);
}
