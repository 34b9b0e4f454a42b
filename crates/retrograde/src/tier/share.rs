//! Tiers shared out among processes, level by level: see
//! [`TierSolver::solve_shared`], whose documentation is the rendered one.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use super::directory::file_name;
use super::directory::{fingerprint, open_tier};
use super::plan::at_once;
use super::{Manifest, ManifestTier, Plan, TierDone, TierError, TierRun, TierSolution, plan};
use super::{TierSolver, TieredGame};

/// How the processes that solve one game's tiers together reach each
/// other: what [`TierSolver::solve_shared`] needs of them. The cluster
/// engine (`retrograde-timely`) implements it over the network.
pub trait TierShare: Sync {
    /// How many processes share the tiers (at least 1).
    fn processes(&self) -> usize;

    /// This process's index, below [`TierShare::processes`]; process 0
    /// solves the root.
    fn process(&self) -> usize;

    /// Ends one round, called as often in every process: sends the files
    /// `sent` (the databases this process holds for its tiers of the
    /// round, in `dir`) to every other process, and writes into `dir`, each
    /// atomically under the file name it was sent with, the files the
    /// others sent. Returns those files' names, each with the process that
    /// sent it. `last` says that no round follows: the one after which
    /// process 0 solves the root alone (in a run whose root has no child
    /// tier, the only round, with nothing sent).
    ///
    /// # Errors
    /// Whatever stopped the exchange: a peer lost, a damaged message.
    fn exchange(
        &self,
        dir: &Path,
        sent: &[PathBuf],
        last: bool,
    ) -> Result<Vec<(String, usize)>, Box<dyn std::error::Error + Send + Sync>>;
}

/// Each tier's level: 0 without children, else one more than its highest
/// child's.
fn levels<T>(plan: &Plan<T>) -> Vec<usize> {
    let mut level = vec![0; plan.tiers.len()];
    for i in 0..plan.tiers.len() {
        level[i] = plan.children[i]
            .iter()
            .map(|&c| level[c] + 1)
            .max()
            .unwrap_or(0);
    }
    level
}

/// The process that solves each tier of `plan`: in each level, the tiers
/// largest first, each to the process with the least work so far in that
/// level (the lowest index among equals); the last tier, the root, to
/// process 0.
pub fn share_out<G: TieredGame + ?Sized>(
    game: &G,
    plan: &Plan<G::Tier>,
    processes: usize,
) -> Vec<usize> {
    let processes = processes.max(1);
    let level = levels(plan);
    let n = plan.tiers.len();
    let mut owner = vec![0; n];
    let top = level.iter().copied().max().unwrap_or(0);
    for l in 0..=top {
        let mut tiers: Vec<(u64, usize)> = (0..n.saturating_sub(1))
            .filter(|&i| level[i] == l)
            .map(|i| (game.tier_size(&plan.tiers[i]).unwrap_or(1), i))
            .collect();
        tiers.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut load = vec![0u64; processes];
        for (size, i) in tiers {
            let p = (0..processes).min_by_key(|&p| (load[p], p)).unwrap_or(0);
            load[p] = load[p].saturating_add(size.max(1));
            owner[i] = p;
        }
    }
    owner
}

impl<'p> TierSolver<'p> {
    /// Solves tier `root` and every tier below it together with the other
    /// processes of `share`, each of which calls this with the same game,
    /// root and settings, each with its own directory.
    ///
    /// A tier's *level* is 0 if it has no child tier, else one more than
    /// its highest child's: the tiers of one level never move into each
    /// other. They are dealt out largest first ([`TieredGame::tier_size`]),
    /// each to the process with the least work so far in the level
    /// ([`share_out`]); every process computes the same deal, so only the
    /// databases travel. Each process solves its share of the level (or
    /// takes it from its directory, checked, where an earlier run left it),
    /// sends it to the others and takes theirs, each checked (header and
    /// checksums) and listed in its manifest; then the next level. Process
    /// 0 solves the root last and returns its solution. So every process
    /// ends holding every tier below the root, and a stopped run resumes
    /// in each from what it holds.
    ///
    /// The run lists every tier this process holds, children first: those
    /// it solved or took, and those it received
    /// ([`TierDone::received_from`]).
    ///
    /// # Errors
    /// As [`TierSolver::solve_root`]; the exchange failing
    /// ([`TierError::Share`]); a tier received that is not the tier it
    /// should be, or damaged ([`TierError::Received`]).
    ///
    /// # Complexity
    /// Each tier is solved once, by one process; each database crosses to
    /// every other process once. A level takes as long as its slowest
    /// process's share of it.
    pub fn solve_shared<'g, G: TieredGame>(
        &self,
        game: &'g G,
        root: &G::Tier,
        share: &dyn TierShare,
    ) -> Result<(TierRun, Option<TierSolution<'g, G>>), TierError> {
        let plan = plan(game, std::slice::from_ref(root))?;
        let names: Vec<String> = plan.tiers.iter().map(|t| game.tier_name(t)).collect();
        let n = plan.tiers.len();
        let level = levels(&plan);
        let owner = share_out(game, &plan, share.processes());
        let me = share.process();
        let manifest = Mutex::new(self.manifest()?);
        let mut done: Vec<Option<TierDone>> = vec![None; n];
        let top = level[n - 1];
        for l in 0..top {
            let mine: Vec<usize> = (0..n - 1)
                .filter(|&i| level[i] == l && owner[i] == me)
                .collect();
            let one = |i: usize| -> Result<TierDone, TierError> {
                let resumed = {
                    let mut m = manifest.lock().unwrap_or_else(|e| e.into_inner());
                    self.resume(game, &plan.tiers[i], &mut m)?
                };
                match resumed {
                    Some(d) => Ok(d),
                    None => Ok(self.solve_kept(game, &plan.tiers[i], &manifest, &names)?.1),
                }
            };
            for batch in mine.chunks(self.concurrent_tiers()) {
                for (&i, r) in batch.iter().zip(at_once(batch, one)) {
                    done[i] = Some(r?);
                }
            }
            let sent: Vec<PathBuf> = mine
                .iter()
                .map(|&i| self.dir().join(file_name(&names[i])))
                .collect();
            let got = share
                .exchange(self.dir(), &sent, l + 1 == top)
                .map_err(TierError::Share)?;
            for (file, from) in got {
                let i = (0..n - 1).find(|&i| {
                    level[i] == l && owner[i] == from && from != me && file_name(&names[i]) == file
                });
                let Some(i) = i.filter(|&i| done[i].is_none()) else {
                    return Err(TierError::Received {
                        file,
                        process: from,
                        why: "not a tier that process solves in this round".into(),
                    });
                };
                let d = self.adopt(&names[i], from, &manifest, &names)?;
                self.tell(&d);
                done[i] = Some(d);
            }
            if let Some(i) = (0..n - 1).find(|&i| level[i] == l && done[i].is_none()) {
                return Err(TierError::Received {
                    file: file_name(&names[i]),
                    process: owner[i],
                    why: "never sent".into(),
                });
            }
        }
        if top == 0 {
            share
                .exchange(self.dir(), &[], true)
                .map_err(TierError::Share)?;
        }
        let mut run = TierRun {
            tiers: done.into_iter().flatten().collect(),
        };
        if me != 0 {
            return Ok((run, None));
        }
        let (solution, d) = self.solve_kept(game, root, &manifest, &names)?;
        run.tiers.push(d);
        Ok((run, Some(solution)))
    }

    /// Takes tier `name`'s database, received from process `from`, into
    /// the directory: checked (its header names this game and tier, its
    /// checksums hold), then listed in the manifest.
    fn adopt(
        &self,
        name: &str,
        from: usize,
        manifest: &Mutex<Manifest>,
        order: &[String],
    ) -> Result<TierDone, TierError> {
        let started = Instant::now();
        let file = file_name(name);
        let path = self.dir().join(&file);
        let received = |e: TierError| TierError::Received {
            file: file.clone(),
            process: from,
            why: e.to_string(),
        };
        let (bytes, xxh3) = fingerprint(&path).map_err(received)?;
        let db = open_tier(&path, self.meta_of_directory(), name).map_err(received)?;
        db.check().map_err(|e| received(e.into()))?;
        let header = db.header().clone();
        let listed = ManifestTier {
            name: name.to_string(),
            file: file.clone(),
            positions: header.positions,
            longest: header.longest,
            bytes,
            xxh3,
        };
        self.list(manifest, listed, order)?;
        Ok(TierDone {
            name: name.to_string(),
            positions: header.positions,
            moves: None,
            longest: header.longest,
            seconds: started.elapsed().as_secs_f64(),
            resumed: false,
            received_from: Some(from),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_count_the_longest_way_down() {
        // 0 and 1 have no children; 2 -> 0; 3 -> 1, 2.
        let plan = Plan {
            tiers: vec![0, 1, 2, 3],
            children: vec![vec![], vec![], vec![0], vec![1, 2]],
        };
        assert_eq!(levels(&plan), vec![0, 0, 1, 2]);
    }
}
