//! `bench-explore KIND SIDE PATH`: a pursuit on a torus, solved from its
//! rules alone (`state`: explored, numbered and reversed by the library;
//! `state-low`: the same, generating the moves again instead of holding them
//! twice) or through a hand-written dense numbering with reverse moves
//! (`dense`), printing one line of figures (and each phase's time on
//! standard error).
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
use retrograde::game::{solve_game, Game};
use retrograde::{Answers, Outcome, Rules};

#[allow(dead_code)]
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

/// Prints each phase's time on standard error.
struct Phases(std::sync::Mutex<Option<(&'static str, Instant)>>);

impl retrograde::Progress for Phases {
    fn begin(&self, phase: &'static str, _total: u64) {
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

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: bench-explore king|rook SIDE state|state-low|dense";
    let (Some(kind), Some(side), Some(path)) = (args.get(1), args.get(2), args.get(3)) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let side: u32 = side.parse().expect("SIDE is a number");
    let game = Torus::new(side, kind == "king");
    let threads = rayon::current_num_threads();
    let t = Instant::now();
    let (positions, moves, start, explore_s) = match path.as_str() {
        "state" | "state-low" => {
            let phases = Phases(Default::default());
            let explorer = Explorer::new().progress(&phases);
            let explorer = if path == "state" {
                explorer
            } else {
                explorer.low_memory()
            };
            let explored = explorer.explore(&game).expect("explore");
            let explore_s = t.elapsed().as_secs_f64();
            let (v, e) = (explored.len() as u64, explored.move_count());
            let s = retrograde::solve::solve_parallel_with_progress(
                &explored,
                &explored.rules(),
                &phases,
            )
            .expect("solve");
            let start = s
                .value(explored.starts()[0])
                .expect("the start is a position");
            (v, e, start, explore_s)
        }
        "dense" => {
            let s = solve_game(&game, &Rules::normal()).expect("solve");
            let v = s.summary().positions;
            let start = s.value(StateGame::starts(&game)[0]).expect("a position");
            (v, 0, start, 0.0)
        }
        _ => {
            eprintln!("{usage}");
            std::process::exit(2);
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
            let p = *x.explored().position(v).unwrap();
            assert_eq!(x.value(&p).unwrap(), d.value(p).unwrap(), "{p}");
        }
    }
}
