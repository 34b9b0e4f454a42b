//! `bench-explore KIND SIDE PATH`: a pursuit on a torus, or Teeko
//! (`teeko - PATH`), solved from its rules alone or through a hand-written
//! dense numbering with reverse moves (`dense`, the baseline), printing one
//! line of figures (and each phase's time on standard error). From the
//! rules alone (a `StateGame` that numbers its positions, so the library
//! explores it by key):
//! - `state`: explored, numbered and reversed by the library with the moves
//!   recorded, solved by the lean engine (what `Explorer::solve` does
//!   without a memory limit);
//! - `state-low`: the moves generated again instead of held twice: the
//!   least memory;
//! - `state-hash`: explored by hash, as a game that does not number its
//!   positions is (the moves recorded, the parallel engine).
//!
//! Teeko's `dense` is the library's numbered Teeko (`games/teeko.rs`); its
//! rules-alone form is `teeko.rs` here (positions are `u64` bit boards).
//!
//! The game: a cop and a thief on a `SIDE x SIDE` torus, the cop to move
//! first. `KIND` is `king` (each steps to one of 8 neighbours or passes: 9
//! moves a position) or `rook` (each steps orthogonally, no pass: 4 moves).
//! Both on one cell: the cop wins. The thief on an exit (one cell in 23,
//! spread by a hash) with the cop elsewhere: the thief wins. Positions are
//! `side · F² + cop · F + thief` for `F = SIDE²` cells, the same number on
//! both paths, so their answers can be compared position by position.

use std::time::Instant;

use retrograde::explore::{Explorer, StateGame};
use retrograde::game::Game;
use retrograde::solve_game;
use retrograde::{Answers, Outcome, Rules};

mod teeko;

/// The torus game.
pub struct Torus {
    side: u32,
    cells: u32,
    king: bool,
    exit: Vec<bool>,
}

impl Torus {
    pub fn new(side: u32, king: bool) -> Torus {
        let cells = side * side;
        let exit = (0..cells)
            .map(|c| retrograde::graph::splitmix64(u64::from(c)).is_multiple_of(23))
            .collect();
        Torus {
            side,
            cells,
            king,
            exit,
        }
    }

    fn decode(&self, p: u32) -> (u32, u32, u32) {
        let f2 = self.cells * self.cells;
        (p / f2, p % f2 / self.cells, p % self.cells)
    }

    fn encode(&self, side: u32, cop: u32, thief: u32) -> u32 {
        side * self.cells * self.cells + cop * self.cells + thief
    }

    /// The cells one step from `c` (and `c` itself for a king, who may pass).
    fn steps(&self, c: u32, mut f: impl FnMut(u32)) {
        let (n, x, y) = (self.side, c % self.side, c / self.side);
        let at = |dx: u32, dy: u32| (y + dy) % n * n + (x + dx) % n;
        if self.king {
            for dy in [n - 1, 0, 1] {
                for dx in [n - 1, 0, 1] {
                    f(at(dx, dy));
                }
            }
        } else {
            for (dx, dy) in [(1, 0), (n - 1, 0), (0, 1), (0, n - 1)] {
                f(at(dx, dy));
            }
        }
    }

    fn over(&self, cop: u32, thief: u32) -> Option<u32> {
        if cop == thief {
            Some(0)
        } else if self.exit[thief as usize] {
            Some(1)
        } else {
            None
        }
    }

    fn value(&self, p: u32) -> Option<Outcome> {
        let (side, cop, thief) = self.decode(p);
        let winner = self.over(cop, thief)?;
        Some(if winner == side {
            Outcome::Win
        } else {
            Outcome::Lose
        })
    }

    fn moves(&self, p: u32, mut f: impl FnMut(u32)) {
        let (side, cop, thief) = self.decode(p);
        if self.over(cop, thief).is_some() {
            return;
        }
        match side {
            0 => self.steps(cop, |c| f(self.encode(1, c, thief))),
            _ => self.steps(thief, |t| f(self.encode(0, cop, t))),
        }
    }
}

impl StateGame for Torus {
    type Position = u32;
    fn starts(&self) -> Vec<u32> {
        let far = self.side / 2 * self.side + self.side / 2;
        vec![self.encode(0, 0, far)]
    }
    fn for_each_move<F: FnMut(u32)>(&self, p: &u32, f: F) {
        self.moves(*p, f)
    }
    fn terminal(&self, p: &u32) -> Option<Outcome> {
        self.value(*p)
    }
    fn encode(&self, p: &u32) -> Option<u64> {
        Some(u64::from(*p))
    }
    fn decode(&self, code: u64) -> Option<u32> {
        let n = 2 * u64::from(self.cells) * u64::from(self.cells);
        (code < n).then_some(code as u32)
    }
}

impl Game for Torus {
    fn position_count(&self) -> usize {
        2 * self.cells as usize * self.cells as usize
    }
    fn for_each_move<F: FnMut(u32)>(&self, p: u32, f: F) {
        self.moves(p, f)
    }
    /// Steps are symmetric: the mover came from a neighbour, where the game
    /// was not over.
    fn for_each_unmove<F: FnMut(u32)>(&self, q: u32, mut f: F) {
        let (side, cop, thief) = self.decode(q);
        match side {
            1 => self.steps(cop, |c| {
                if self.over(c, thief).is_none() {
                    f(self.encode(0, c, thief))
                }
            }),
            _ => self.steps(thief, |t| {
                if self.over(cop, t).is_none() {
                    f(self.encode(1, cop, t))
                }
            }),
        }
    }
    fn terminal(&self, p: u32) -> Option<Outcome> {
        self.value(p)
    }
}

/// Prints each phase's time on standard error; keeps the seconds from its
/// making to the start of the solve.
struct Phases(
    std::sync::Mutex<Option<(&'static str, Instant)>>,
    std::sync::Mutex<Option<f64>>,
    Instant,
);

impl Phases {
    fn new() -> Phases {
        Phases(Default::default(), Default::default(), Instant::now())
    }
}

impl retrograde::Progress for Phases {
    fn begin(&self, phase: &'static str, _total: u64) {
        if phase == "solve" {
            *self.1.lock().unwrap() = Some(self.2.elapsed().as_secs_f64());
        }
        *self.0.lock().unwrap() = Some((phase, Instant::now()));
    }
    fn end(&self) {
        if let Some((phase, t)) = self.0.lock().unwrap().take() {
            eprintln!(
                "  {phase}: {:.2} s, peak {:.1} MiB",
                t.elapsed().as_secs_f64(),
                peak_memory() as f64 / (1 << 20) as f64
            );
        }
    }
}

fn peak_memory() -> u64 {
    let text = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kib = text
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
        .unwrap_or(0);
    kib * 1024
}

/// Explores and solves `game` by `path` (`state`: as `Explorer::solve`
/// does without a limit: by key, the moves recorded, the lean engine;
/// `state-low`: by key, the moves generated again, the lean engine;
/// `state-hash`: by hash, the moves recorded, the parallel engine):
/// positions, moves, the start's value and the seconds to explore (until
/// the solve began).
fn by_state<G: StateGame>(game: &G, path: &str) -> (u64, u64, String, f64) {
    let phases = Phases::new();
    let mut explorer = Explorer::new().progress(&phases);
    if path == "state-low" {
        explorer = explorer.low_memory();
    }
    if path == "state-hash" {
        explorer = explorer.by_hash();
    }
    let s = explorer.solve(game).expect("solve");
    let e = s.explored();
    let start = s.start_values()[0].to_string();
    let explore_s = phases.1.lock().unwrap().unwrap_or(0.0);
    (e.len() as u64, e.move_count(), start, explore_s)
}

/// `bench-explore chess ENDING whole|tiers [MAX_MEMORY_MIB|- [AT_ONCE]]` and
/// `bench-explore morris TIER whole|tiers [...]`: a tiered game solved whole
/// (every position it leads to explored at once, from its starts) or tier by
/// tier (each tier it leads to first, into a temporary directory), under an
/// optional memory limit. Prints the root tier's own counts, so that the two
/// runs can be compared, and the time and peak.
fn tiered<G>(label: &str, game: &G, root: &G::Tier, how: &str, limit: Option<u64>, at_once: usize)
where
    G: retrograde::tier::TieredGame,
{
    use retrograde::tier::TierSolver;
    let t = Instant::now();
    let tally = |values: &mut dyn Iterator<Item = retrograde::Value>| {
        let mut counts = [0u64; 8];
        let mut longest = 0;
        for v in values {
            counts[v.outcome as usize] += 1;
            longest = longest.max(v.remoteness.unwrap_or(0));
        }
        format!(
            "win={} lose={} tie={} draw={} longest={longest}",
            counts[Outcome::Win as usize],
            counts[Outcome::Lose as usize],
            counts[Outcome::Tie as usize],
            counts[Outcome::Draw as usize]
        )
    };
    let (all, figures) = match how {
        "whole" => {
            let mut e = Explorer::new();
            if let Some(l) = limit {
                e = e.memory_limit(l);
            }
            let sol = match e.solve(game) {
                Ok(s) => s,
                Err(err) => {
                    println!("{label} whole refused: {err}");
                    std::process::exit(1);
                }
            };
            let explored = sol.explored();
            let mut mine = (0..explored.len() as u32).filter_map(|i| {
                let p = explored.position(i)?;
                (game.tier(&p) == *root)
                    .then(|| sol.solved().value(i))
                    .flatten()
            });
            (explored.len(), tally(&mut mine))
        }
        "tiers" => {
            let dir = tempfile::tempdir().expect("a temporary directory");
            let mut solver = TierSolver::new(dir.path()).concurrent(at_once);
            if let Some(l) = limit {
                solver = solver.memory_limit(l);
            }
            let (run, sol) = match solver.solve_root(game, root) {
                Ok(r) => r,
                Err(err) => {
                    println!("{label} tiers refused: {err}");
                    std::process::exit(1);
                }
            };
            let answers = retrograde::registry::GameSolution::answers(&sol);
            let mut mine = (0..answers.len() as u32).filter_map(|i| {
                retrograde::registry::GameSolution::key(&sol, i)?;
                answers.value(i)
            });
            let all = run.tiers.iter().map(|t| t.positions as usize).sum();
            (all, tally(&mut mine))
        }
        _ => panic!("whole or tiers"),
    };
    println!(
        "{label} {how} at_once={at_once} limit={} positions_all_tiers={all} {figures} total_s={:.2} peak={:.1}MiB",
        limit.map_or("none".to_string(), |l| format!("{}MiB", l >> 20)),
        t.elapsed().as_secs_f64(),
        peak_memory() as f64 / (1 << 20) as f64
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(kind @ ("chess" | "morris")) = args.get(1).map(String::as_str) {
        let (Some(tier), Some(how)) = (args.get(2), args.get(3)) else {
            eprintln!(
                "usage: bench-explore chess ENDING|morris TIER whole|tiers [MAX_MEMORY_MIB|- [TIERS_AT_ONCE]]"
            );
            std::process::exit(2);
        };
        let limit = args
            .get(4)
            .filter(|m| *m != "-")
            .map(|m| m.parse::<u64>().expect("MiB") << 20);
        let at_once = args.get(5).map_or(1, |n| n.parse().expect("a count"));
        let label = format!("{kind} {tier}");
        if kind == "chess" {
            use retrograde_games::chess::{Endgame, Ending};
            let ending = Ending::from_name(tier).expect("a chess ending, as KRKP");
            tiered(
                &label,
                &Endgame::new(ending, true),
                &ending,
                how,
                limit,
                at_once,
            );
        } else {
            use retrograde_games::nine_mens_morris::{Morris, Tier};
            let root = Tier::from_name(tier).expect("a Morris tier, as 0.4-0.4");
            tiered(&label, &Morris::new(root, true), &root, how, limit, at_once);
        }
        return;
    }
    let usage = "usage: bench-explore king|rook SIDE PATH, or teeko - PATH; \
                 PATH: state|state-low|state-hash|dense";
    let (Some(kind), Some(side), Some(path)) = (args.get(1), args.get(2), args.get(3)) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    if !["state", "state-low", "state-hash", "dense"].contains(&path.as_str()) {
        eprintln!("{usage}");
        std::process::exit(2);
    }
    let threads = rayon::current_num_threads();
    let t = Instant::now();
    let (positions, moves, start, explore_s) = match (kind.as_str(), path.as_str()) {
        ("teeko", "dense") => {
            let game = retrograde_games::teeko::Teeko::new();
            let s = solve_game(&game, &Rules::normal()).expect("solve");
            let start = s
                .value(game.start_number())
                .expect("a position")
                .to_string();
            (s.summary().positions, 0, start, 0.0)
        }
        ("teeko", _) => by_state(&teeko::TeekoState::new(), path),
        (_, path) => {
            let side: u32 = side.parse().expect("SIDE is a number");
            let game = Torus::new(side, kind == "king");
            if path == "dense" {
                let s = solve_game(&game, &Rules::normal()).expect("solve");
                let v = s.summary().positions;
                let start = s.value(StateGame::starts(&game)[0]).expect("a position");
                (v, 0, start.to_string(), 0.0)
            } else {
                by_state(&game, path)
            }
        }
    };
    let total = t.elapsed().as_secs_f64();
    let peak = peak_memory();
    println!(
        "{kind} {side} {path} threads={threads} positions={positions} moves={moves} \
         start={start} explore_s={explore_s:.2} total_s={total:.2} positions_per_s={:.2}M \
         peak={:.1}MiB bytes_per_position={:.1} bytes_per_position_beyond_4_per_move={:.1}",
        positions as f64 / total / 1e6,
        peak as f64 / (1 << 20) as f64,
        peak as f64 / positions as f64,
        (peak as f64 - 4.0 * moves as f64) / positions as f64,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use retrograde::game::check_game;

    #[test]
    fn moves_and_reverse_moves_agree() {
        for king in [true, false] {
            let g = Torus::new(5, king);
            let n = Game::position_count(&g) as u32;
            let r = check_game(&g, 0..n, 5);
            assert!(r.is_ok(), "{r}");
        }
    }

    #[test]
    fn both_paths_give_the_same_values() {
        let g = Torus::new(6, true);
        let x = Explorer::new().solve(&g).unwrap();
        let d = solve_game(&g, &Rules::normal()).unwrap();
        for v in 0..x.explored().len() as u32 {
            let p = x.explored().position(v).unwrap();
            assert_eq!(x.value(&p).unwrap(), d.value(p).unwrap(), "{p}");
        }
    }
}
