//! Tier by tier against whole: random tiered games (self-loops, parallel
//! moves, terminal labels of every kind, ties and draws, and half of them
//! with owners, where a move may keep the turn) solved both ways
//! agree on every position; a stopped run resumes to the same files; bad
//! tiers are refused with their names.

use std::path::Path;

use proptest::prelude::*;
use retrograde::db::Meta;
use retrograde::registry::GameSolution;
use retrograde::tier::{MANIFEST, TierDirectory, TierError, TierSolver, TieredGame};
use retrograde::{Explorer, Outcome, Player, StateGame};

/// Positions `(tier, i)` numbered `tier * 64 + i`; `moves[p]` lists the
/// targets of `p` (into its own tier or a lower one), `labels[p]` its
/// terminal value.
#[derive(Clone, Debug)]
struct Tiered {
    sizes: Vec<u32>,
    moves: Vec<Vec<u32>>,
    labels: Vec<Option<Outcome>>,
    /// `children[t]`: the lower tiers `t` declares.
    children: Vec<Vec<u32>>,
    /// Who moves at each position, where the game names it (an arena: a
    /// move between two positions of one owner keeps the turn).
    owners: Option<Vec<Player>>,
    /// Whether the game gives the dense rung (each tier's numbers, 64 of
    /// them, and un-moves), so that its tiers are solved without exploring.
    dense: bool,
}

impl Tiered {
    fn tier_of(p: u32) -> u32 {
        p / 64
    }
    fn all(&self) -> Vec<u32> {
        (0..self.sizes.len() as u32)
            .flat_map(|t| (0..self.sizes[t as usize]).map(move |i| t * 64 + i))
            .collect()
    }
    fn slot(&self, p: u32) -> usize {
        let t = Tiered::tier_of(p) as usize;
        self.sizes[..t].iter().sum::<u32>() as usize + (p % 64) as usize
    }
}

impl StateGame for Tiered {
    type Position = u32;
    fn starts(&self) -> Vec<u32> {
        self.all()
    }
    fn for_each_move<F: FnMut(u32)>(&self, p: &u32, f: F) {
        self.moves[self.slot(*p)].iter().copied().for_each(f);
    }
    fn terminal(&self, p: &u32) -> Option<Outcome> {
        self.labels[self.slot(*p)]
    }
    fn owner(&self, p: &u32) -> Option<Player> {
        Some(self.owners.as_ref()?[self.slot(*p)])
    }
    fn encode(&self, p: &u32) -> Option<u64> {
        Some(u64::from(*p))
    }
    fn decode(&self, code: u64) -> Option<u32> {
        let p = u32::try_from(code).ok()?;
        let t = Tiered::tier_of(p) as usize;
        (t < self.sizes.len() && p % 64 < self.sizes[t]).then_some(p)
    }
}

impl TieredGame for Tiered {
    type Tier = u32;
    fn tier(&self, p: &u32) -> u32 {
        Tiered::tier_of(*p)
    }
    fn child_tiers(&self, t: &u32) -> Vec<u32> {
        self.children[*t as usize].clone()
    }
    fn tier_positions(&self, t: &u32) -> Vec<u32> {
        (0..self.sizes[*t as usize]).map(|i| t * 64 + i).collect()
    }
    fn tier_name(&self, t: &u32) -> String {
        format!("t{t}")
    }
    fn tier_numbers(&self, t: &u32) -> Option<std::ops::Range<u64>> {
        self.dense
            .then(|| u64::from(t * 64)..u64::from(t * 64 + 64))
    }
    fn for_each_unmove<F: FnMut(u32)>(&self, q: &u32, mut f: F) {
        for p in self.all() {
            let slot = self.slot(p);
            if Tiered::tier_of(p) == Tiered::tier_of(*q)
                && self.labels[slot].is_none()
                && self.moves[slot].contains(q)
            {
                f(p);
            }
        }
    }
}

fn outcome() -> impl Strategy<Value = Option<Outcome>> {
    prop_oneof![
        6 => Just(None),
        1 => Just(Some(Outcome::Win)),
        1 => Just(Some(Outcome::Lose)),
        1 => Just(Some(Outcome::Tie)),
        1 => Just(Some(Outcome::Draw)),
    ]
}

/// A game of 1 to 4 tiers of 1 to 8 positions, 0 to 4 moves each, most
/// within the tier; each tier declares the lower tiers its moves reach and
/// sometimes one more.
fn tiered() -> impl Strategy<Value = Tiered> {
    prop::collection::vec(1u32..=8, 1..=4)
        .prop_flat_map(|sizes| {
            let n: u32 = sizes.iter().sum();
            let positions: Vec<u32> = (0..sizes.len() as u32)
                .flat_map(|t| (0..sizes[t as usize]).map(move |i| t * 64 + i))
                .collect();
            let per = positions.clone().into_iter().map(|p| {
                let t = Tiered::tier_of(p);
                let own: Vec<u32> = positions
                    .iter()
                    .copied()
                    .filter(|&q| Tiered::tier_of(q) == t)
                    .collect();
                let lower: Vec<u32> = positions
                    .iter()
                    .copied()
                    .filter(|&q| Tiered::tier_of(q) < t)
                    .collect();
                let target = if lower.is_empty() {
                    prop::sample::select(own).boxed()
                } else {
                    prop_oneof![3 => prop::sample::select(own), 1 => prop::sample::select(lower)]
                        .boxed()
                };
                (prop::collection::vec(target, 0..=4), outcome())
            });
            let extra = prop::collection::vec(any::<bool>(), sizes.len());
            let owners = prop::option::of(prop::collection::vec(any::<bool>(), n as usize));
            (
                Just(sizes),
                per.collect::<Vec<_>>(),
                extra,
                owners,
                any::<bool>(),
            )
        })
        .prop_map(|(sizes, per, extra, owners, dense)| {
            let (moves, labels): (Vec<_>, Vec<_>) = per.into_iter().unzip();
            let tiers = sizes.len();
            let mut children = vec![Vec::new(); tiers];
            let mut slot = 0;
            for (t, &size) in sizes.iter().enumerate() {
                for _ in 0..size {
                    for &q in &moves[slot] {
                        let c = Tiered::tier_of(q);
                        if c != t as u32 && !children[t].contains(&c) {
                            children[t].push(c);
                        }
                    }
                    slot += 1;
                }
                if extra[t] && t > 0 && !children[t].contains(&0) {
                    children[t].push(0);
                }
            }
            let owners = owners.map(|bits| {
                bits.into_iter()
                    .map(|b| if b { Player::Second } else { Player::First })
                    .collect()
            });
            Tiered {
                sizes,
                moves,
                labels,
                children,
                owners,
                dense,
            }
        })
}

fn roots(g: &Tiered) -> Vec<u32> {
    (0..g.sizes.len() as u32).rev().collect()
}

/// Each file of `dir` by name, with its length and a hash of its bytes.
fn files(dir: &Path) -> Vec<(String, usize, u64)> {
    use std::hash::{DefaultHasher, Hash, Hasher};
    let mut out: Vec<(String, usize, u64)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().is_some_and(|n| n != retrograde::tier::LOCK))
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap();
            let mut h = DefaultHasher::new();
            bytes.hash(&mut h);
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                bytes.len(),
                h.finish(),
            )
        })
        .collect();
    out.sort();
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Every position's value (outcome and remoteness) is the same solved
    /// tier by tier, from the databases, as solved whole.
    #[test]
    fn tier_by_tier_agrees_with_whole(g in tiered()) {
        let whole = Explorer::new().solve(&g).unwrap();
        let dir = retrograde::io::scratch_dir().unwrap();
        TierSolver::new(dir.path()).solve(&g, &roots(&g)).unwrap();
        let tiers = TierDirectory::open(dir.path()).unwrap();
        for p in g.all() {
            let expected = whole.value(&p).unwrap();
            let found = tiers.value(&g, &p).unwrap();
            prop_assert_eq!(found, expected, "position {} of {:?}", p, g);
        }
    }

    /// The dense rung's un-moves check out, and its solve gives every
    /// position the value exploring the tiers gives; the root's answers
    /// (best moves, the certificate) hold on both.
    #[test]
    fn the_dense_rung_agrees_with_exploring(g in tiered()) {
        let dense = Tiered { dense: true, ..g.clone() };
        let explored = Tiered { dense: false, ..g };
        for t in 0..dense.sizes.len() as u32 {
            let check = retrograde::tier::check_unmoves(&dense, &t, 5).unwrap();
            prop_assert!(check.is_ok(), "{:?}", check);
        }
        let root = dense.sizes.len() as u32 - 1;
        let (a, b) = (retrograde::io::scratch_dir().unwrap(), retrograde::io::scratch_dir().unwrap());
        TierSolver::new(a.path()).solve(&dense, &roots(&dense)).unwrap();
        TierSolver::new(b.path()).solve(&explored, &roots(&explored)).unwrap();
        let (_, d) = TierSolver::new(a.path()).solve_root(&dense, &root).unwrap();
        let (_, e) = TierSolver::new(b.path()).solve_root(&explored, &root).unwrap();
        let (da, db) = (TierDirectory::open(a.path()).unwrap(), TierDirectory::open(b.path()).unwrap());
        for p in dense.all() {
            prop_assert_eq!(da.value(&dense, &p).unwrap(), db.value(&explored, &p).unwrap(), "position {}", p);
        }
        for p in dense.tier_positions(&root) {
            prop_assert_eq!(d.value(&p), e.value(&p), "position {}", p);
        }
        prop_assert!(d.verify(10).unwrap().is_ok());
        prop_assert_eq!(GameSolution::start_value(&d), GameSolution::start_value(&e));
    }
}

proptest! {
    // Each case writes its tiers three times: fewer cases than above.
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// A run stopped after any tier (here: the directory's later tiers
    /// removed, with or without their manifest entries) resumes to the
    /// same files, byte for byte, solving one tier or several at once.
    #[test]
    fn a_resumed_run_writes_the_same_files(
        g in tiered(),
        keep in 0usize..4,
        listed in any::<bool>(),
        at_once in 1usize..4,
    ) {
        let whole_dir = retrograde::io::scratch_dir().unwrap();
        TierSolver::new(whole_dir.path()).solve(&g, &roots(&g)).unwrap();
        let expected = files(whole_dir.path());

        let dir = retrograde::io::scratch_dir().unwrap();
        TierSolver::new(dir.path()).concurrent(at_once).solve(&g, &roots(&g)).unwrap();
        prop_assert_eq!(files(dir.path()), expected.clone());
        let manifest = retrograde::tier::Manifest::read(dir.path()).unwrap().unwrap();
        let mut cut = manifest.clone();
        let gone: Vec<String> = manifest.tiers.iter().skip(keep).map(|t| t.file.clone()).collect();
        for f in &gone {
            std::fs::remove_file(dir.path().join(f)).unwrap();
        }
        if !listed {
            cut.tiers.truncate(keep);
        }
        cut.write(dir.path()).unwrap();
        let run = TierSolver::new(dir.path())
            .concurrent(at_once)
            .solve(&g, &roots(&g))
            .unwrap();
        let resumed = run.tiers.iter().filter(|t| t.resumed).count();
        prop_assert_eq!(resumed, keep.min(manifest.tiers.len()));
        prop_assert_eq!(files(dir.path()), expected);
    }
}

/// Three tiers, 2 -> 1 -> 0, each position moving down; tier 0's
/// positions lose at once.
fn chain() -> Tiered {
    Tiered {
        sizes: vec![2, 2, 2],
        moves: vec![vec![], vec![], vec![0], vec![1, 0], vec![64], vec![65]],
        labels: vec![None; 6],
        children: vec![vec![], vec![0], vec![1]],
        owners: None,
        dense: false,
    }
}

#[test]
fn a_move_to_an_undeclared_tier_is_refused_naming_both() {
    let mut g = chain();
    g.moves[4] = vec![0];
    let dir = retrograde::io::scratch_dir().unwrap();
    let e = TierSolver::new(dir.path()).solve(&g, &[2]).unwrap_err();
    assert!(matches!(e, TierError::Undeclared { .. }), "{e}");
    assert_eq!(
        e.to_string(),
        "a move from tier t2 reaches tier t0, which t2 does not declare as a child (it declares t1)"
    );
}

#[test]
fn a_cycle_of_tiers_is_refused_naming_them() {
    let mut g = chain();
    g.children[0] = vec![2];
    let dir = retrograde::io::scratch_dir().unwrap();
    let e = TierSolver::new(dir.path()).solve(&g, &[2]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the tiers form a cycle: t2 -> t1 -> t0 -> t2"
    );
}

#[test]
fn a_damaged_tier_is_solved_again_and_a_foreign_directory_refused() {
    let g = chain();
    let dir = retrograde::io::scratch_dir().unwrap();
    TierSolver::new(dir.path()).solve(&g, &[2]).unwrap();
    let expected = files(dir.path());
    // One byte of t1's records flipped.
    let t1 = dir.path().join("t1.db");
    let mut bytes = std::fs::read(&t1).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x40;
    std::fs::write(&t1, bytes).unwrap();
    let run = TierSolver::new(dir.path()).solve(&g, &[2]).unwrap();
    let resumed: Vec<bool> = run.tiers.iter().map(|t| t.resumed).collect();
    assert_eq!(resumed, [true, false, true]);
    assert_eq!(files(dir.path()), expected);

    let e = TierSolver::new(dir.path())
        .meta(Meta::new("another"))
        .solve(&g, &[2])
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("the tiers of tiered, not of another"),
        "{e}"
    );

    std::fs::write(dir.path().join(MANIFEST), "{").unwrap();
    let e = TierSolver::new(dir.path()).solve(&g, &[2]).unwrap_err();
    assert!(e.to_string().contains("not a tier manifest"), "{e}");
}

/// Says "stop" once asked `after` times: a caller that gave up midway.
struct StopAfter {
    asked: std::sync::atomic::AtomicUsize,
    after: usize,
}

impl retrograde::solve::Progress for StopAfter {
    fn stop(&self) -> bool {
        self.asked
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            >= self.after
    }
}

#[test]
fn a_run_told_to_stop_keeps_no_tier_solved_after_it_and_the_next_run_solves_them() {
    let g = chain();
    let fresh = retrograde::io::scratch_dir().unwrap();
    TierSolver::new(fresh.path()).solve(&g, &[2]).unwrap();
    // Told to stop at its first question, its second, ...: tiers too
    // small for the engines to look often, so the solver looks before it
    // keeps each tier. Then a run to the end takes what was kept.
    let mut stopped = 0;
    for after in 0.. {
        let dir = retrograde::io::scratch_dir().unwrap();
        let stop = StopAfter {
            asked: Default::default(),
            after,
        };
        let Err(e) = TierSolver::new(dir.path()).progress(&stop).solve(&g, &[2]) else {
            break;
        };
        stopped += 1;
        assert!(matches!(e, TierError::Stopped { .. }), "{e}");
        assert!(
            e.to_string()
                .ends_with("the run was stopped before the tier was kept"),
            "{e}"
        );
        let run = TierSolver::new(dir.path()).solve(&g, &[2]).unwrap();
        assert!(run.tiers.iter().any(|t| !t.resumed), "after {after}");
        assert_eq!(files(dir.path()), files(fresh.path()), "after {after}");
    }
    // Stopped before each of the three tiers was kept, at least.
    assert!(stopped >= 3, "{stopped}");
}

#[test]
fn values_come_through_the_tiers() {
    let g = chain();
    let dir = retrograde::io::scratch_dir().unwrap();
    let run = TierSolver::new(dir.path()).solve(&g, &[2]).unwrap();
    let names: Vec<&str> = run.tiers.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["t0", "t1", "t2"]);
    let tiers = TierDirectory::open(dir.path()).unwrap();
    // 129 -> 65 -> 0 (no move: loses): 65 wins in 1, 129 loses in 2.
    let v = tiers.value(&g, &129).unwrap();
    assert_eq!((v.outcome, v.remoteness), (Outcome::Lose, Some(2)));
    // 65 moves to 1 or to 0, both without a move: it wins in 1.
    let v = tiers.value(&g, &65).unwrap();
    assert_eq!((v.outcome, v.remoteness), (Outcome::Win, Some(1)));
}

/// Processes played by threads of this test: each round, every one leaves
/// its files on a table, waits for the others, and copies theirs.
struct Table {
    processes: usize,
    barrier: std::sync::Barrier,
    /// This round's files: (name, bytes, sender).
    files: std::sync::Mutex<Vec<(String, Vec<u8>, usize)>>,
}

/// Process `process` at the table.
struct Seat<'t> {
    table: &'t Table,
    process: usize,
}

impl retrograde::tier::TierShare for Seat<'_> {
    fn processes(&self) -> usize {
        self.table.processes
    }
    fn process(&self) -> usize {
        self.process
    }
    fn exchange(
        &self,
        dir: &Path,
        sent: &[std::path::PathBuf],
        _last: bool,
    ) -> Result<Vec<(String, usize)>, Box<dyn std::error::Error + Send + Sync>> {
        for path in sent {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let bytes = std::fs::read(path)?;
            self.table
                .files
                .lock()
                .unwrap()
                .push((name, bytes, self.process));
        }
        self.table.barrier.wait();
        let mut got = Vec::new();
        for (name, bytes, from) in self.table.files.lock().unwrap().iter() {
            if *from != self.process {
                std::fs::write(dir.join(name), bytes)?;
                got.push((name.clone(), *from));
            }
        }
        // Nobody clears the table before everyone has copied from it.
        if self.table.barrier.wait().is_leader() {
            self.table.files.lock().unwrap().clear();
        }
        self.table.barrier.wait();
        Ok(got)
    }
}

/// Tier `root` of `g` solved by `processes` threads sharing its tiers:
/// each one's directory and run, and process 0's root values by position.
fn shared(
    g: &Tiered,
    root: u32,
    processes: usize,
) -> Vec<(
    tempfile::TempDir,
    retrograde::tier::TierRun,
    Vec<Option<retrograde::Value>>,
)> {
    let table = Table {
        processes,
        barrier: std::sync::Barrier::new(processes),
        files: std::sync::Mutex::new(Vec::new()),
    };
    std::thread::scope(|s| {
        let runs: Vec<_> = (0..processes)
            .map(|process| {
                let table = &table;
                s.spawn(move || {
                    let dir = retrograde::io::scratch_dir().unwrap();
                    let seat = Seat { table, process };
                    let (run, solution) = TierSolver::new(dir.path())
                        .solve_shared(g, &root, &seat)
                        .unwrap();
                    let values = match solution {
                        Some(s) => g.tier_positions(&root).iter().map(|p| s.value(p)).collect(),
                        None => Vec::new(),
                    };
                    (dir, run, values)
                })
            })
            .collect();
        runs.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Tiers shared among one to three processes: every process ends with
    /// the files, byte for byte, of one process solving alone, each tier
    /// solved by exactly one of them, and process 0 with the same values
    /// of the root.
    #[test]
    fn tiers_shared_among_processes_write_the_files_of_one(
        g in tiered(),
        processes in 1usize..=3,
    ) {
        let root = g.sizes.len() as u32 - 1;
        let alone = retrograde::io::scratch_dir().unwrap();
        let (_, solution) = TierSolver::new(alone.path()).solve_root(&g, &root).unwrap();
        let expected = files(alone.path());
        let values: Vec<_> = g
            .tier_positions(&root)
            .iter()
            .map(|p| solution.value(p))
            .collect();
        let runs = shared(&g, root, processes);
        prop_assert_eq!(&runs[0].2, &values);
        let below = expected.len() - 2; // less the manifest and the root
        let mut solved = 0;
        for (p, (dir, run, _)) in runs.iter().enumerate() {
            let mut found = files(dir.path());
            if p != 0 {
                // Only process 0 solves the root; the others hold the rest.
                let mut without_root = expected.clone();
                without_root.retain(|(f, ..)| f != &format!("t{root}.db") && f != MANIFEST);
                found.retain(|(f, ..)| f != MANIFEST);
                prop_assert_eq!(found, without_root);
            } else {
                prop_assert_eq!(found, expected.clone());
            }
            solved += run.tiers.iter().filter(|t| t.received_from.is_none() && t.name != format!("t{root}")).count();
            prop_assert_eq!(run.tiers.len(), below + usize::from(p == 0));
        }
        prop_assert_eq!(solved, below);
    }
}

/// A directory is written by one run at a time: a second solver on it is
/// refused while the first holds it, and takes it once the first is gone.
#[test]
fn a_directory_is_written_by_one_run_at_a_time() {
    let g = chain();
    let dir = retrograde::io::scratch_dir().unwrap();
    let first = TierSolver::new(dir.path());
    first.solve(&g, &[1]).unwrap();
    let e = TierSolver::new(dir.path()).solve(&g, &[2]).unwrap_err();
    assert!(matches!(e, TierError::Busy { .. }), "{e}");
    assert!(
        e.to_string()
            .contains("another run is solving into this directory"),
        "{e}"
    );
    drop(first);
    TierSolver::new(dir.path()).solve(&g, &[2]).unwrap();
}

/// A temporary file a run stopped hard left behind (a tier half written,
/// or half received from another process) is cleared by the next run.
#[test]
fn a_stopped_runs_temporary_files_are_cleared_by_the_next() {
    let g = chain();
    let dir = retrograde::io::scratch_dir().unwrap();
    TierSolver::new(dir.path()).solve(&g, &[1]).unwrap();
    let left = dir.path().join(".t2.db.Ab3xYz.tmp");
    std::fs::write(&left, b"half a tier").unwrap();
    TierSolver::new(dir.path()).solve(&g, &[2]).unwrap();
    assert!(!left.exists());
    assert!(files(dir.path()).iter().all(|(f, ..)| !f.ends_with(".tmp")));
}

/// A root the directory holds whole is taken from it, not solved or
/// written again; the figures told are the database's own.
#[test]
fn a_complete_root_is_taken_as_it_is() {
    for dense in [false, true] {
        let g = Tiered { dense, ..chain() };
        let dir = retrograde::io::scratch_dir().unwrap();
        let (_, first) = TierSolver::new(dir.path()).solve_root(&g, &2).unwrap();
        let before = files(dir.path());
        let modified = std::fs::metadata(dir.path().join("t2.db"))
            .unwrap()
            .modified()
            .unwrap();
        let (run, again) = TierSolver::new(dir.path()).solve_root(&g, &2).unwrap();
        assert!(run.tiers.iter().all(|t| t.resumed), "{:?}", run.tiers);
        assert_eq!(files(dir.path()), before);
        assert_eq!(
            std::fs::metadata(dir.path().join("t2.db"))
                .unwrap()
                .modified()
                .unwrap(),
            modified
        );
        for p in [128, 129] {
            assert_eq!(again.value(&p), first.value(&p), "dense {dense}, {p}");
        }
        assert!(again.verify(5).unwrap().is_ok());
    }
}

/// A manifest that names a file outside its directory is refused.
#[test]
fn a_manifest_naming_a_file_elsewhere_is_refused() {
    let g = chain();
    let dir = retrograde::io::scratch_dir().unwrap();
    TierSolver::new(dir.path()).solve(&g, &[2]).unwrap();
    let mut m = retrograde::tier::Manifest::read(dir.path())
        .unwrap()
        .unwrap();
    m.tiers[0].file = "../elsewhere/t0.db".into();
    m.write(dir.path()).unwrap();
    let Err(e) = TierDirectory::open(dir.path()) else {
        panic!("a manifest naming ../elsewhere/t0.db was opened");
    };
    let e = e.to_string();
    assert!(e.contains("which is not a file of the directory"), "{e}");
}

/// A tier's database replaced by another tier's, or cut short, is said to
/// be so when a position of it is asked for, not taken for a position it
/// does not hold.
#[test]
fn a_sibling_that_is_not_what_the_manifest_lists_is_refused() {
    let g = chain();
    let dir = retrograde::io::scratch_dir().unwrap();
    TierSolver::new(dir.path()).solve(&g, &[2]).unwrap();
    std::fs::copy(dir.path().join("t0.db"), dir.path().join("t1.db")).unwrap();
    let tiers = TierDirectory::open(dir.path()).unwrap();
    let e = tiers.value(&g, &65).unwrap_err().to_string();
    assert!(
        e.contains("t1.db") && e.contains("it is not this game's tier"),
        "{e}"
    );
    let bytes = std::fs::read(dir.path().join("t0.db")).unwrap();
    std::fs::write(dir.path().join("t0.db"), &bytes[..bytes.len() / 2]).unwrap();
    let tiers = TierDirectory::open(dir.path()).unwrap();
    let e = tiers.value(&g, &0).unwrap_err().to_string();
    assert!(e.contains("not what tiers.json lists for tier t0"), "{e}");
}

/// Two tiers of `lose + tie` positions: tier 0 holds a path of `lose`
/// positions down to a loss and one of `tie` down to a tie, so that its
/// records need more than 8 bits and take `lose + tie` different codes;
/// each of tier 1's positions moves to one of tier 0's and to the next of
/// its own tier. The dense rung (numbers and un-moves) throughout.
struct Long {
    lose: u32,
    tie: u32,
}

impl Long {
    fn n(&self) -> u32 {
        self.lose + self.tie
    }
    /// Where the tie path ends, if there is one.
    fn tie_end(&self) -> Option<u32> {
        (self.tie > 0).then_some(self.lose)
    }
}

impl StateGame for Long {
    type Position = u32;
    fn starts(&self) -> Vec<u32> {
        (0..2 * self.n()).collect()
    }
    fn for_each_move<F: FnMut(u32)>(&self, p: &u32, mut f: F) {
        let (n, p) = (self.n(), *p);
        if p >= n {
            f(p - n);
            if p + 1 < 2 * n {
                f(p + 1);
            }
        } else if p != 0 && Some(p) != self.tie_end() {
            f(p - 1);
        }
    }
    fn terminal(&self, p: &u32) -> Option<Outcome> {
        match *p {
            0 => Some(Outcome::Lose),
            p if Some(p) == self.tie_end() => Some(Outcome::Tie),
            _ => None,
        }
    }
    fn encode(&self, p: &u32) -> Option<u64> {
        Some(u64::from(*p))
    }
    fn decode(&self, code: u64) -> Option<u32> {
        u32::try_from(code).ok().filter(|&p| p < 2 * self.n())
    }
}

impl TieredGame for Long {
    type Tier = u32;
    fn tier(&self, p: &u32) -> u32 {
        u32::from(*p >= self.n())
    }
    fn child_tiers(&self, t: &u32) -> Vec<u32> {
        if *t == 1 { vec![0] } else { vec![] }
    }
    fn tier_positions(&self, t: &u32) -> Vec<u32> {
        (t * self.n()..(t + 1) * self.n()).collect()
    }
    fn tier_name(&self, t: &u32) -> String {
        format!("t{t}")
    }
    fn tier_numbers(&self, t: &u32) -> Option<std::ops::Range<u64>> {
        Some(u64::from(t * self.n())..u64::from((t + 1) * self.n()))
    }
    fn for_each_unmove<F: FnMut(u32)>(&self, q: &u32, mut f: F) {
        let (n, q) = (self.n(), *q);
        if q > n {
            f(q - 1);
        } else if q + 1 < n && Some(q + 1) != self.tie_end() {
            f(q + 1);
        }
    }
}

/// A child whose records take more than 8 bits is read a byte a record
/// where it has at most 256 different ones, two bytes where it has more,
/// and its records are read again for best moves after the solve gave
/// them back: every position's value and every best move agree with the
/// whole game's, in each case.
#[test]
fn children_of_wide_records_are_read_narrow_or_wide_and_again() {
    for (lose, tie) in [(50, 20), (200, 0), (200, 100)] {
        let g = Long { lose, tie };
        for t in 0..2 {
            let check = retrograde::tier::check_unmoves(&g, &t, 5).unwrap();
            assert!(check.is_ok(), "{check:?}");
        }
        let whole = Explorer::new().solve(&g).unwrap();
        let dir = retrograde::io::scratch_dir().unwrap();
        let (_, root) = TierSolver::new(dir.path()).solve_root(&g, &1).unwrap();
        let tiers = TierDirectory::open(dir.path()).unwrap();
        for p in 0..2 * g.n() {
            let expected = whole.value(&p).unwrap();
            assert_eq!(
                tiers.value(&g, &p).unwrap(),
                expected,
                "position {p} of {lose}, {tie}"
            );
            if p >= g.n() {
                assert_eq!(root.value(&p), Some(expected), "position {p}");
            }
        }
        assert!(root.verify(10).unwrap().is_ok(), "{lose}, {tie}");
    }
}
