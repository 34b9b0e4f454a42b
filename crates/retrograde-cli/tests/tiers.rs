//! `game chess ENDING --tiers DIR`: the published longest mate of KPK
//! through its promotions, and a stopped run resumed to the same files.

use std::fs;
use std::path::Path;

use crate::common::*;

/// Every file of `dir` by name, with its bytes.
/// The files of a tier directory and their bytes, less the lock a run
/// holds (`tiers.lock`, empty).
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().is_some_and(|n| n != retrograde::tier::LOCK))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, fs::read(&p).unwrap())
        })
        .collect();
    out.sort();
    out
}

fn names(files: &[(String, Vec<u8>)]) -> Vec<&str> {
    files.iter().map(|(n, _)| n.as_str()).collect()
}

#[test]
fn kpk_mates_in_28_with_white_to_move_and_a_stopped_run_resumes_to_the_same_files() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let tiers = dir.path().join("tiers");
    let t = tiers.to_str().unwrap();
    let o = run(
        &["game", "chess", "KPK", "--tiers", t, "--json"],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let white = json["by_side"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["to_move"] == "white")
        .unwrap();
    // Thompson's and the Nalimov tables' figure: mate in 28 with white to
    // move (55 plies); black to move is lost in 28 at most (56 plies).
    assert_eq!(white["longest_win_moves"], 28, "{json}");
    assert_eq!(json["longest"]["lose"], 56, "{json}");
    assert_eq!(json["positions"], 165_676, "{json}");
    // A tier's database in its directory answers for the whole game: the
    // promotion's value comes from KQK's database beside it.
    let kpk = tiers.join("KPK.db");
    let o = run(
        &[
            "query",
            kpk.to_str().unwrap(),
            "8/4P3/8/8/8/8/8/K6k w - - 0 1",
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with("8/4P3/8/8/8/8/8/K6k w - - 0 1: win in 17 for white to move"),
        "{out}"
    );
    assert!(out.contains("e7-e8=Q  win in 17"), "{out}");
    assert!(out.contains("e7-e8=N  tie in 1"), "{out}");
    // Alone, it says where the answer is.
    let alone = dir.path().join("alone.db");
    fs::copy(&kpk, &alone).unwrap();
    let o = run(
        &[
            "query",
            alone.to_str().unwrap(),
            "8/4P3/8/8/8/8/8/K6k w - - 0 1",
        ],
        dir.path(),
    );
    assert_refused(
        &o,
        "a position of KQK, whose database is not beside this one",
    );

    let first = files(&tiers);
    assert_eq!(
        names(&first),
        [
            "KBK.db",
            "KK.db",
            "KNK.db",
            "KPK.db",
            "KQK.db",
            "KRK.db",
            "tiers.json"
        ]
    );

    // Stopped after KRK: KPK's database gone, and the manifest without it.
    let manifest = tiers.join("tiers.json");
    let text = fs::read_to_string(&manifest).unwrap();
    let mut m: serde_json::Value = serde_json::from_str(&text).unwrap();
    m["tiers"]
        .as_array_mut()
        .unwrap()
        .retain(|t| t["name"] != "KPK");
    fs::write(&manifest, serde_json::to_string_pretty(&m).unwrap() + "\n").unwrap();
    fs::remove_file(tiers.join("KPK.db")).unwrap();
    // And KRK's database damaged: solved again, never trusted.
    let krk = tiers.join("KRK.db");
    let mut bytes = fs::read(&krk).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    fs::write(&krk, bytes).unwrap();

    let o = run(
        &["game", "chess", "KPK", "--tiers", t, "--json"],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    for taken in ["KK", "KQK", "KBK", "KNK"] {
        assert!(
            err.contains(&format!("tier {taken}: "))
                && err.lines().any(|l| l.starts_with(&format!("tier {taken}:"))
                    && l.contains("taken as an earlier run left it")),
            "{taken}: {err}"
        );
    }
    for solved in ["KRK", "KPK"] {
        let line = err
            .lines()
            .find(|l| l.starts_with(&format!("tier {solved}:")))
            .unwrap_or_else(|| panic!("{solved}: {err}"));
        assert!(!line.contains("taken"), "{line}");
    }
    assert_eq!(files(&tiers), first, "the resumed run's files differ");

    // Every file of the directory is one the tools open, KK's included.
    let o = run(&["verify", t], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let kk = tiers.join("KK.db");
    let o = run(
        &["query", kk.to_str().unwrap(), "8/8/8/8/8/8/8/K6k w - - 0 1"],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    // Bare kings: the game is over, level.
    assert!(
        stdout(&o).starts_with("8/8/8/8/8/8/8/K6k w - - 0 1: tie in 0"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn a_tier_directory_of_another_game_is_refused() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let tiers = dir.path().join("tiers");
    let t = tiers.to_str().unwrap();
    let o = run(&["game", "chess", "KRK", "--tiers", t, "-q"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run(
        &["game", "chess", "KRK", "--no-symmetry", "--tiers", t, "-q"],
        dir.path(),
    );
    assert_refused(
        &o,
        "the tiers of chess (symmetry=true), not of chess (symmetry=false): use another directory",
    );
}

#[test]
fn a_tier_directory_that_is_a_file_is_refused() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let file = dir.path().join("file");
    fs::write(&file, "not a directory").unwrap();
    let o = run(
        &[
            "game",
            "chess",
            "KRK",
            "--tiers",
            file.to_str().unwrap(),
            "-q",
        ],
        dir.path(),
    );
    assert_refused(
        &o,
        "file: not a directory (tiers are kept in a directory, created if need be)",
    );
    assert_eq!(fs::read_to_string(&file).unwrap(), "not a directory");
}

#[test]
fn game_position_values_a_promotion_from_the_tier_it_leads_to() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let o = run(
        &[
            "game",
            "chess",
            "KPK",
            "-q",
            "--position",
            "8/4P3/8/8/8/8/8/K6k w - - 0 1",
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("e7-e8=Q  win in 17"), "{out}");
    assert!(out.contains("e7-e8=B  tie in 1"), "{out}");
}

/// Nine Men's Morris, a tiered game registered through the same entry a
/// user's game takes (`Entry::tiered_game`): the whole game with three
/// stones each solved tier by tier, a tier's database queried and played
/// with moves that remove a stone (answered from the tier they lead to),
/// and a tier name that is none refused.
#[test]
fn nine_mens_morris_with_three_stones_each_is_solved_queried_and_played_tier_by_tier() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let tiers = dir.path().join("morris");
    let t = tiers.to_str().unwrap();
    let o = run(
        &[
            "game",
            "nine-mens-morris",
            "0.3-0.3",
            "--tiers",
            t,
            "--json",
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(json["start"]["outcome"], "win", "{json}");
    assert_eq!(json["start"]["remoteness"], 23, "{json}");
    assert_eq!(json["solved_by"]["rung"], "tiers", "{json}");
    assert!(
        json["solved_by"]["why"]
            .as_str()
            .unwrap()
            .contains("each on the dense rung"),
        "{json}"
    );
    // Gasser's 3-3 database: the longest loss is 26 plies.
    assert!(
        stderr(&o).contains("tier 3-3: 169626 positions, longest 26 plies"),
        "{}",
        stderr(&o)
    );
    let mut listed = names(&files(&tiers)).join(" ");
    listed.retain(|c| c != '\n');
    assert!(
        listed.contains("3-3.db") && listed.contains("tiers.json"),
        "{listed}"
    );

    // 3-3 on its own: White closes a mill in one (a7 d7 g7) whatever Black does.
    let db = tiers.join("3-3.db");
    let db = db.to_str().unwrap();
    let o = run(
        &["query", db, "W.W/.../.../W....B/.../B../..B w"],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with("W.W/.../.../W....B/.../B../..B w 0 0: win in 1 for white"),
        "{out}"
    );
    assert!(out.contains("a4-d7xb2"), "{out}");
    // The longest loss that analyze names is a position of the tier, and lost in 26.
    let o = run(&["analyze", db, "--json"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let longest = json["longest_loss"]["position"].as_str().unwrap();
    let o = run(&["query", db, longest], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with(&format!("{longest}: lose in 26 for")),
        "{}",
        stdout(&o)
    );

    // A move out of the tier the database holds: placing the last stone
    // with a mill in 2.1-2.1 leaves Black two stones, a game over.
    let db = tiers.join("2.1-2.1.db");
    let o = run(
        &[
            "query",
            db.to_str().unwrap(),
            "W.W/.../.../....../B../.../B.. w 1 1",
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains(": win in 1 for white"), "{out}");
    let placed = out
        .lines()
        .find(|l| l.contains("d7xc3"))
        .unwrap_or_default();
    assert!(placed.contains("win in 1"), "{out}");

    // The directory as one game: every tier counted, every tier checked
    // against the tiers below it.
    let o = run(&["analyze", t, "--json"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let listed = json["tiers"].as_array().unwrap();
    assert_eq!(listed.len(), 7, "{json}");
    assert_eq!(listed[0]["tier"], "3-3", "{json}");
    assert_eq!(listed[0]["positions"], 169_626, "{json}");
    assert_eq!(listed[0]["longest_loss"], 26, "{json}");
    let sum: u64 = listed
        .iter()
        .map(|t| t["positions"].as_u64().unwrap())
        .sum();
    assert_eq!(json["positions"], sum, "{json}");
    let o = run(&["verify", t, "--json"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(json["correct"], true, "{json}");
    assert_eq!(json["tiers"].as_array().unwrap().len(), 7, "{json}");
    assert_eq!(json["positions"], sum, "{json}");
    assert_eq!(json["unchecked_tiers"], 0, "{json}");
    // Gone on with from a tier: those before it left unchecked, and said so.
    let second = listed[1]["tier"].as_str().unwrap();
    let o = run(&["verify", t, "--from", second, "--json"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(json["unchecked_tiers"], 1, "{json}");
    assert_eq!(json["tiers"].as_array().unwrap().len(), 6, "{json}");
    assert_eq!(json["tiers"][0]["tier"], second, "{json}");
    let o = run(&["verify", t, "--from", second], dir.path());
    assert!(
        stderr(&o).contains(&format!("tiers from {second} (6 tiers"))
            && stderr(&o).contains("the 1 tier before it not checked"),
        "{}",
        stderr(&o)
    );
    let o = run(&["verify", t, "--from", "9-9"], dir.path());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("no tier 9-9 in tiers.json"),
        "{}",
        stderr(&o)
    );
    // A tier changed since it was listed: refused before anything is checked.
    let file = tiers.join("2.1-2.1.db");
    let mut bytes = fs::read(&file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    fs::write(&file, bytes).unwrap();
    let o = run(&["verify", t], dir.path());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("tier 2.1-2.1's database is not the one tiers.json lists"),
        "{}",
        stderr(&o)
    );

    let o = run(&["game", "nine-mens-morris", "10-3"], dir.path());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("a tier"), "{}", stderr(&o));
}

/// `game nine-mens-morris 0.3-0.3 ARGS` as process `p` of the cluster in
/// `hosts`, keeping its tiers in `dir`.
fn morris_process(hosts: &Path, p: usize, dir: &Path) -> std::process::Command {
    let mut c = bin();
    c.args(["game", "nine-mens-morris", "0.3-0.3", "--json"])
        .args(["--tiers", dir.to_str().unwrap()])
        .args(["--cluster", hosts.to_str().unwrap()])
        .args(["--process", &p.to_string(), "--connect-timeout", "120"]);
    c
}

#[test]
fn tiers_shared_by_three_processes_give_the_report_and_files_of_one_and_resume() {
    let dir = retrograde::io::scratch_dir().unwrap();
    let alone = dir.path().join("alone");
    let o = run(
        &[
            "game",
            "nine-mens-morris",
            "0.3-0.3",
            "--json",
            "--tiers",
            alone.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let want = timeless(&stdout(&o));
    let want_files = files(&alone);

    let hosts = write_hostfile(dir.path(), &free_addresses(3));
    let dirs: Vec<_> = (0..3).map(|p| dir.path().join(format!("p{p}"))).collect();
    let outputs = run_all((0..3).map(|p| morris_process(&hosts, p, &dirs[p])));
    for o in &outputs {
        assert!(o.status.success(), "{}", stderr(o));
    }
    assert_eq!(timeless(&stdout(&outputs[0])), want);
    assert_eq!(files(&dirs[0]), want_files);
    // The others hold every tier below the root, byte for byte.
    let below: Vec<_> = want_files
        .iter()
        .filter(|(n, _)| n != "0.3-0.3.db" && n != "tiers.json")
        .cloned()
        .collect();
    let mut solved_here = 0;
    for p in 1..3 {
        let mut got = files(&dirs[p]);
        got.retain(|(n, _)| n != "tiers.json");
        assert_eq!(got, below);
        let e = stderr(&outputs[p]);
        assert!(e.contains(&format!("process {p} of 3: done")), "{e}");
        solved_here += e.lines().filter(|l| l.ends_with(" s")).count();
    }
    // Each tier below was solved once, the rest received.
    let e0 = stderr(&outputs[0]);
    solved_here += e0
        .lines()
        .filter(|l| l.starts_with("tier ") && !l.contains("received") && !l.contains("0.3-0.3:"))
        .count();
    assert_eq!(solved_here, below.len(), "{e0}");

    // Run again: each process takes its own tiers as it left them.
    let outputs = run_all((0..3).map(|p| morris_process(&hosts, p, &dirs[p])));
    for o in &outputs {
        assert!(o.status.success(), "{}", stderr(o));
    }
    assert_eq!(timeless(&stdout(&outputs[0])), want);
    assert_eq!(files(&dirs[0]), want_files);
    let e0 = stderr(&outputs[0]);
    assert!(e0.contains("taken as an earlier run left it"), "{e0}");
    assert!(
        !e0.lines()
            .any(|l| l.starts_with("tier 3-3") && l.ends_with(" s")),
        "{e0}"
    );
}
