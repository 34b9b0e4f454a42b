//! Tutorial: bring your own game. Run it with `cargo run --example pile`.
//!
//! The game: a pile of 0 to 20 counters. A move takes 1 or 2 counters, or puts
//! one back (on a pile of 10 to 19). The player to move at an empty pile has
//! lost. Putting back lets play loop forever, so some piles are draws.
use retrograde::game::{Game, check_game};
use retrograde::{Answers, Outcome, Rules, solve_game};

const MAX: u32 = 20;

/// 1. A type for the game; it may hold whatever the rules need.
struct Pile;

/// 2. Number the positions densely: here pile size `p` is position `p`.
///    Then give the moves, the reverse moves and, if any, terminal values.
impl Game for Pile {
    /// Positions are `0..position_count()`.
    fn position_count(&self) -> usize {
        MAX as usize + 1
    }

    /// Call `f(q)` once per move `p -> q` (twice for two moves to the same `q`).
    fn for_each_move<F: FnMut(u32)>(&self, p: u32, mut f: F) {
        for take in 1..=2 {
            if take <= p {
                f(p - take);
            }
        }
        if (10..MAX).contains(&p) {
            f(p + 1); // put one back
        }
    }

    /// The reverse: call `f(p)` once per move `p -> q`, i.e. every position that
    /// can move INTO `q`. The solver walks these backwards from the end of the
    /// game, so they must match `for_each_move` exactly; `check_game` below
    /// verifies it.
    fn for_each_unmove<F: FnMut(u32)>(&self, q: u32, mut f: F) {
        for take in 1..=2 {
            if q + take <= MAX {
                f(q + take); // someone took `take` from q + take
            }
        }
        if q >= 11 {
            f(q - 1); // someone put one back on a pile of q - 1 (10 to 19)
        }
    }

    /// Positions where the game is over with a fixed value for the player to
    /// move. Optional: a position without moves already counts as lost (the
    /// normal rule; `Rules::misere()` makes it won). Here, for the sake of the
    /// example: whoever faces exactly 13 counters loses on the spot.
    fn terminal(&self, p: u32) -> Option<Outcome> {
        (p == 13).then_some(Outcome::Lose)
    }
}

fn main() {
    // 3. Check that moves and reverse moves agree (do this in your tests).
    let report = check_game(&Pile, 0..=MAX, 10);
    println!("{report}");
    assert!(report.is_ok());

    // 4. Solve: about 3 bytes per position, no edge stored.
    let rules = Rules::normal();
    let solution = solve_game(&Pile, &rules).unwrap();
    println!("{}", solution.summary());

    // 5. Read the answers. Best moves are computed on demand from the moves.
    for p in 0..=MAX {
        let best = solution.best_move(p);
        let plies = solution.remoteness(p).map_or("-".into(), |r| r.to_string());
        let best = best.map_or("-".into(), |q| q.to_string());
        let outcome = solution.outcome(p).to_string();
        println!("pile {p:2}: {outcome:<4}  plies {plies:>2}  best move to {best}");
    }
    let line = solution.line(9, 10);
    println!("best play from 9: {:?}", line.positions);
}
