//! Checking a solution without trusting any solver: local conditions over
//! forward edges, in `O(V + E)`.
//!
//! A [`Solution`] (typically read back from a file with
//! [`io::solution::read`](crate::io::solution::read)) is correct for a game
//! exactly when every position passes these checks against its own moves:
//!
//! - a **terminal** position (labelled, terminal by the game, or without moves)
//!   has the value of its label or rule, remoteness 0 if decided, and no move;
//! - a **win** has a `Lose` successor, and its remoteness is one more than the
//!   least remoteness among its `Lose` successors (the winner hurries);
//! - a **lose** has only `Win` successors, and its remoteness is one more than
//!   the greatest of theirs (the loser holds out);
//! - a **draw** has no `Lose` successor and at least one `Draw` successor;
//! - every non-terminal position lists a best move, which is one of its edges
//!   and has the stated property: for a win, a `Lose` successor of remoteness one
//!   less; for a lose, a successor of remoteness one less; for a draw, a `Draw`
//!   successor. Ties may go to any such move (the solver's smallest-id rule is
//!   not required).
//!
//! Why this suffices: remoteness strictly decreases along the moves that
//! justify a win or a loss, so by induction on it every stated win is a real
//! win and every stated loss a real loss. If some stated draw were really
//! decided, take one of least true remoteness: a real loss would need its
//! `Draw` successor to be a real win of smaller remoteness, itself a stated
//! draw; a real win would need a real-loss successor of smaller remoteness,
//! which is neither a stated draw (minimality) nor a stated loss (forbidden
//! next to a draw). So outcomes agree, and then remoteness agrees by induction.
//!
//! ```
//! use retrograde::{solve, verify, Condition, Csr, Rules};
//! let g = Csr::from_edges(3, &[(0, 1), (1, 2)]).with_successors();
//! let rules = Rules::normal();
//! let s = solve(&g, &rules).unwrap();
//! assert!(verify(&g, &rules, &s, 10).unwrap().is_ok());
//! // Under the misère rule, 2 (no move) is a win, so this solution is wrong there.
//! let report = verify(&g, &Rules::misere(), &s, 10).unwrap();
//! assert!(matches!(report.violations[0].condition, Condition::TerminalValue { .. }));
//! ```

use std::fmt;

use crate::error::{Error, Result};
use crate::graph::NONE;
use crate::solve::check_labels;
use crate::{Outcome, Rules, Solution, Successors};

/// A condition a position of a correct solution satisfies, and how it failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Condition {
    /// A terminal position's outcome is not the value of its label or rule.
    TerminalValue {
        /// The value the label or rule gives.
        expected: Outcome,
    },
    /// A decided terminal position has a remoteness other than 0.
    TerminalRemoteness,
    /// A terminal position lists a best move; it has none.
    TerminalMove,
    /// A non-terminal position lists no best move.
    MissingMove,
    /// The listed best move is not an edge of the graph.
    NotAnEdge {
        /// The position the listed move goes to.
        to: u32,
    },
    /// A win without any `Lose` successor.
    WinWithoutLoseSuccessor,
    /// A win whose remoteness is not 1 + the least remoteness of its `Lose` successors.
    WinRemoteness {
        /// What 1 + the least remoteness of the `Lose` successors gives.
        expected: u64,
    },
    /// A lose with a successor that is not a `Win`: the player to move escapes there.
    LoseEscapes {
        /// The first such successor (smallest id).
        to: u32,
    },
    /// A lose whose remoteness is not 1 + the greatest remoteness of its successors.
    LoseRemoteness {
        /// What 1 + the greatest remoteness of the successors gives.
        expected: u64,
    },
    /// A draw with a `Lose` successor: the player to move wins by moving there.
    DrawWithLoseSuccessor {
        /// The first such successor (smallest id).
        to: u32,
    },
    /// A non-terminal draw without any `Draw` successor: it cannot go on forever.
    DrawWithoutDrawSuccessor,
    /// The listed best move is an edge, but not a best move: for a win it does
    /// not reach a `Lose` of remoteness one less, for a lose it does not reach
    /// a position of remoteness one less, for a draw it does not reach a `Draw`.
    NotBestMove {
        /// The position the listed move goes to.
        to: u32,
    },
}

/// One failed condition at one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The position.
    pub vertex: u32,
    /// Its outcome, as the solution states it.
    pub outcome: Outcome,
    /// Its remoteness, as the solution states it (`None` for a draw).
    pub remoteness: Option<u32>,
    /// The condition that fails.
    pub condition: Condition,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let stated = match self.remoteness {
            Some(r) => format!("{} in {r}", self.outcome),
            None => self.outcome.to_string(),
        };
        write!(f, "vertex {} ({stated}): ", self.vertex)?;
        match self.condition {
            Condition::TerminalValue { expected } => write!(
                f,
                "a terminal position, whose value is {expected} by its label or rule"
            ),
            Condition::TerminalRemoteness => {
                write!(f, "a terminal position, whose remoteness is 0")
            }
            Condition::TerminalMove => {
                write!(f, "a terminal position lists a best move; it has none")
            }
            Condition::MissingMove => {
                write!(f, "has moves but lists no best move")
            }
            Condition::NotAnEdge { to } => {
                write!(f, "the best move to {to} is not an edge of the graph")
            }
            Condition::WinWithoutLoseSuccessor => {
                write!(f, "a win, but no move reaches a lose position")
            }
            Condition::WinRemoteness { expected } => write!(
                f,
                "a win must take 1 + the least remoteness of its lose successors = {expected} plies"
            ),
            Condition::LoseEscapes { to } => write!(
                f,
                "a lose, but the move to {to} does not reach a win position"
            ),
            Condition::LoseRemoteness { expected } => write!(
                f,
                "a lose must hold out 1 + the greatest remoteness of its successors = {expected} plies"
            ),
            Condition::DrawWithLoseSuccessor { to } => write!(
                f,
                "a draw, but the move to {to} reaches a lose position (a win for the player to move)"
            ),
            Condition::DrawWithoutDrawSuccessor => write!(
                f,
                "a draw with moves, but none of them reaches a draw position"
            ),
            Condition::NotBestMove { to } => {
                write!(f, "the best move to {to} does not achieve the stated value")
            }
        }
    }
}

/// What [`verify`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// The positions checked.
    pub positions: u64,
    /// The first violations found, in vertex order (at most the number asked for).
    pub violations: Vec<Violation>,
    /// How many violations there are in all.
    pub total: u64,
}

impl Report {
    /// Whether the solution passed every check: it is the game's solution.
    pub fn is_ok(&self) -> bool {
        self.total == 0
    }
}

/// Checks `s` against the game `g` under `rules`, without solving the game.
///
/// # Arguments
/// - `g`: the game, with forward edges ([`Csr::with_successors`](crate::Csr::with_successors)).
/// - `rules`: the no-move rule and terminal labels the solution was made under.
/// - `s`: the solution to check.
/// - `keep`: how many violations to return in detail (all are counted).
///
/// # Returns
/// A [`Report`]: empty when `s` is the solution of the game (outcomes and
/// remoteness exact; best moves valid, ties broken in any way).
///
/// # Errors
/// If `s` does not have one entry per position, or a label names a vertex
/// outside the graph.
///
/// # Complexity
/// Time **O(V + E)**: each position and each of its moves is looked at once.
/// No memory beyond the report.
pub fn verify<G: Successors + ?Sized>(
    g: &G,
    rules: &Rules,
    s: &Solution,
    keep: usize,
) -> Result<Report> {
    check_labels(g, rules)?;
    let n = g.vertex_count();
    if s.len() != n {
        return Err(Error::Invalid(format!(
            "the solution has {} positions, but the graph has {n}",
            s.len()
        )));
    }
    let mut report = Report {
        positions: n as u64,
        ..Report::default()
    };
    let mut labels = rules.labels.walk();
    for v in 0..n as u32 {
        let label = labels.at(v);
        let outcome = s.outcome(v);
        let rem = s.remoteness(v);
        let mut fail = |condition| {
            report.total += 1;
            if report.violations.len() < keep {
                report.violations.push(Violation {
                    vertex: v,
                    outcome,
                    remoteness: rem,
                    condition,
                });
            }
        };
        let terminal = label
            .or_else(|| g.terminal(v))
            .or_else(|| (g.out_degree(v) == 0).then(|| rules.no_move.outcome()));
        if let Some(expected) = terminal {
            if outcome != expected {
                fail(Condition::TerminalValue { expected });
            } else if rem.is_some_and(|r| r != 0) {
                fail(Condition::TerminalRemoteness);
            }
            if s.best_move(v).is_some() {
                fail(Condition::TerminalMove);
            }
            continue;
        }
        check_position(g, s, v, &mut fail);
    }
    Ok(report)
}

/// The conditions of a non-terminal position `v`: one pass over its moves.
fn check_position<G: Successors + ?Sized>(
    g: &G,
    s: &Solution,
    v: u32,
    fail: &mut dyn FnMut(Condition),
) {
    let best = s.best_move(v);
    let mut move_is_edge = false;
    let mut least_lose: Option<u64> = None;
    let mut first_lose: u32 = NONE;
    let mut greatest_win: Option<u64> = None;
    let mut first_not_win: u32 = NONE;
    let mut any_draw = false;
    g.for_each_successor(v, |w| {
        move_is_edge |= best == Some(w);
        let r = s.remoteness(w).map(u64::from);
        match s.outcome(w) {
            Outcome::Lose => {
                least_lose = match (least_lose, r) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                };
                first_lose = first_lose.min(w);
                first_not_win = first_not_win.min(w);
            }
            Outcome::Win => greatest_win = greatest_win.max(r),
            Outcome::Draw => {
                any_draw = true;
                first_not_win = first_not_win.min(w);
            }
        }
    });
    let stated = s.remoteness(v).map(u64::from);
    match s.outcome(v) {
        Outcome::Win => match least_lose {
            None => fail(Condition::WinWithoutLoseSuccessor),
            Some(least) if stated != Some(least + 1) => fail(Condition::WinRemoteness {
                expected: least + 1,
            }),
            Some(_) => {}
        },
        Outcome::Lose => {
            if first_not_win != NONE {
                fail(Condition::LoseEscapes { to: first_not_win });
            } else if let Some(greatest) = greatest_win {
                if stated != Some(greatest + 1) {
                    fail(Condition::LoseRemoteness {
                        expected: greatest + 1,
                    });
                }
            }
        }
        Outcome::Draw => {
            if first_lose != NONE {
                fail(Condition::DrawWithLoseSuccessor { to: first_lose });
            }
            if !any_draw {
                fail(Condition::DrawWithoutDrawSuccessor);
            }
        }
    }
    match best {
        None => fail(Condition::MissingMove),
        Some(to) if !move_is_edge => fail(Condition::NotAnEdge { to }),
        Some(to) => {
            let good = match s.outcome(v) {
                Outcome::Win => {
                    s.outcome(to) == Outcome::Lose
                        && s.remoteness(to).map(|r| u64::from(r) + 1) == stated
                }
                Outcome::Lose => {
                    s.outcome(to) == Outcome::Win
                        && s.remoteness(to).map(|r| u64::from(r) + 1) == stated
                }
                Outcome::Draw => s.outcome(to) == Outcome::Draw,
            };
            if !good {
                fail(Condition::NotBestMove { to });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{solve, Csr, Labels, NoMoveRule};

    /// 0 -> 1 -> 2 (2 stuck: lose in 2, win in 1, lose in 0); 3 <-> 4 (draws);
    /// 5 -> 0, 5 -> 2 (win in 1 via 2); 6 -> 1, 6 -> 5 (both win in 1: lose in 2).
    fn game() -> Csr {
        Csr::from_edges(
            7,
            &[
                (0, 1),
                (1, 2),
                (3, 4),
                (4, 3),
                (5, 0),
                (5, 2),
                (6, 1),
                (6, 5),
            ],
        )
        .with_successors()
    }

    fn conditions(g: &Csr, rules: &Rules, s: &Solution) -> Vec<(u32, Condition)> {
        let r = verify(g, rules, s, usize::MAX).unwrap();
        assert_eq!(r.total as usize, r.violations.len());
        r.violations
            .iter()
            .map(|v| (v.vertex, v.condition))
            .collect()
    }

    /// A copy of `s` with vertex `v` changed.
    fn tamper(s: &Solution, v: u32, o: Outcome, r: Option<u32>, m: Option<u32>) -> Solution {
        let n = s.len() as u32;
        let mut state = s.outcome_codes().to_vec();
        let mut rem: Vec<u32> = (0..n).map(|w| s.remoteness(w).unwrap_or(NONE)).collect();
        let mut best: Vec<u32> = (0..n).map(|w| s.best_move(w).unwrap_or(NONE)).collect();
        state[v as usize] = o as u8;
        rem[v as usize] = r.unwrap_or(NONE);
        best[v as usize] = m.unwrap_or(NONE);
        Solution::from_parts(state, rem, best)
    }

    #[test]
    fn accepts_the_solvers_answer() {
        let g = game();
        for rules in [Rules::normal(), Rules::misere()] {
            let s = solve(&g, &rules).unwrap();
            assert_eq!(conditions(&g, &rules, &s), vec![]);
        }
    }

    #[test]
    fn accepts_a_different_best_move_on_a_tie() {
        // 0 -> 1, 0 -> 2; both stuck: the solver picks 1, 2 is as good.
        let g = Csr::from_edges(3, &[(0, 1), (0, 2)]).with_successors();
        let s = solve(&g, &Rules::normal()).unwrap();
        assert_eq!(s.best_move(0), Some(1));
        let t = tamper(&s, 0, Outcome::Win, Some(1), Some(2));
        assert_eq!(conditions(&g, &Rules::normal(), &t), vec![]);
    }

    #[test]
    fn rejects_a_flipped_outcome() {
        let g = game();
        let s = solve(&g, &Rules::normal()).unwrap();
        assert_eq!(s.outcome(1), Outcome::Win);
        let t = tamper(&s, 1, Outcome::Lose, Some(1), Some(2));
        let c = conditions(&g, &Rules::normal(), &t);
        assert!(c.contains(&(1, Condition::LoseEscapes { to: 2 })), "{c:?}");
        // Its predecessor 0 (a lose, moving only to 1) is now wrong too.
        assert!(c.contains(&(0, Condition::LoseEscapes { to: 1 })), "{c:?}");
    }

    #[test]
    fn rejects_a_wrong_remoteness() {
        let g = game();
        let s = solve(&g, &Rules::normal()).unwrap();
        assert_eq!(s.remoteness(0), Some(2));
        let t = tamper(&s, 0, Outcome::Lose, Some(5), Some(1));
        assert_eq!(
            conditions(&g, &Rules::normal(), &t),
            vec![
                (0, Condition::LoseRemoteness { expected: 2 }),
                (0, Condition::NotBestMove { to: 1 })
            ]
        );
    }

    #[test]
    fn rejects_a_winner_that_does_not_hurry() {
        // 5 can win in 1 (via 2) or in 3 (via 0): claiming 3 via 0 is wrong.
        let g = game();
        let s = solve(&g, &Rules::normal()).unwrap();
        assert_eq!(s.remoteness(0), Some(2));
        let t = tamper(&s, 5, Outcome::Win, Some(3), Some(0));
        assert!(conditions(&g, &Rules::normal(), &t)
            .contains(&(5, Condition::WinRemoteness { expected: 1 })));
    }

    #[test]
    fn rejects_a_lose_holding_out_too_little() {
        // 6 -> 1 (a win in 1) and 6 -> 7 -> 8 -> 9 -> 10 stuck (7 a win in 3):
        // 6 loses, but holds out 4 plies by moving to 7.
        let g = Csr::from_edges(
            11,
            &[(0, 1), (1, 2), (6, 1), (6, 7), (7, 8), (8, 9), (9, 10)],
        )
        .with_successors();
        let s = solve(&g, &Rules::normal()).unwrap();
        assert_eq!(
            (s.outcome(6), s.remoteness(6), s.best_move(6)),
            (Outcome::Lose, Some(4), Some(7))
        );
        let t = tamper(&s, 6, Outcome::Lose, Some(2), Some(1));
        let c = conditions(&g, &Rules::normal(), &t);
        assert!(
            c.contains(&(6, Condition::LoseRemoteness { expected: 4 })),
            "{c:?}"
        );
    }

    #[test]
    fn rejects_a_draw_relabelled_as_a_win() {
        let g = game();
        let s = solve(&g, &Rules::normal()).unwrap();
        assert_eq!(s.outcome(3), Outcome::Draw);
        let t = tamper(&s, 3, Outcome::Win, Some(1), Some(4));
        let c = conditions(&g, &Rules::normal(), &t);
        assert!(
            c.contains(&(3, Condition::WinWithoutLoseSuccessor)),
            "{c:?}"
        );
        assert!(c.contains(&(3, Condition::NotBestMove { to: 4 })), "{c:?}");
    }

    #[test]
    fn rejects_a_whole_draw_cycle_relabelled_as_wins_and_losses() {
        // 3 <-> 4 relabelled win/lose consistently along the cycle: the
        // remoteness cannot both decrease and stay grounded.
        let g = game();
        let s = solve(&g, &Rules::normal()).unwrap();
        let t = tamper(&s, 3, Outcome::Win, Some(1), Some(4));
        let t = tamper(&t, 4, Outcome::Lose, Some(0), Some(3));
        let c = conditions(&g, &Rules::normal(), &t);
        assert!(!c.is_empty());
        assert!(c.iter().any(|&(v, _)| v == 4), "{c:?}");
    }

    #[test]
    fn rejects_a_move_that_is_not_an_edge() {
        let g = game();
        let s = solve(&g, &Rules::normal()).unwrap();
        let t = tamper(&s, 5, Outcome::Win, Some(1), Some(6));
        assert_eq!(
            conditions(&g, &Rules::normal(), &t),
            vec![(5, Condition::NotAnEdge { to: 6 })]
        );
        // An id past the graph is not an edge either (and does not panic).
        let t = tamper(&s, 5, Outcome::Win, Some(1), Some(1_000_000));
        assert_eq!(
            conditions(&g, &Rules::normal(), &t),
            vec![(5, Condition::NotAnEdge { to: 1_000_000 })]
        );
    }

    #[test]
    fn rejects_a_draw_next_to_a_lose() {
        let g = game();
        let s = solve(&g, &Rules::normal()).unwrap();
        // Call 5 (a win in 1) a draw: it has lose successors and no draw one,
        // and its predecessor 6 (a lose) now escapes to it.
        let t = tamper(&s, 5, Outcome::Draw, None, Some(2));
        let c = conditions(&g, &Rules::normal(), &t);
        assert!(
            c.contains(&(5, Condition::DrawWithLoseSuccessor { to: 0 })),
            "{c:?}"
        );
        assert!(
            c.contains(&(5, Condition::DrawWithoutDrawSuccessor)),
            "{c:?}"
        );
        assert!(c.contains(&(5, Condition::NotBestMove { to: 2 })), "{c:?}");
        assert!(c.contains(&(6, Condition::LoseEscapes { to: 5 })), "{c:?}");
    }

    #[test]
    fn terminal_positions_follow_the_rule_and_labels() {
        let g = game();
        let s = solve(&g, &Rules::normal()).unwrap();
        let c = conditions(&g, &Rules::misere(), &s);
        assert!(c.contains(&(
            2,
            Condition::TerminalValue {
                expected: Outcome::Win
            }
        )));
        let rules = Rules {
            no_move: NoMoveRule::Lose,
            labels: Labels::from_pairs(vec![(3, Outcome::Draw)]),
        };
        let s = solve(&g, &rules).unwrap();
        assert_eq!(s.best_move(3), None);
        assert_eq!(conditions(&g, &rules, &s), vec![]);
        let t = tamper(&s, 3, Outcome::Draw, None, Some(4));
        assert_eq!(
            conditions(&g, &rules, &t),
            vec![(3, Condition::TerminalMove)]
        );
        let t = tamper(&s, 2, Outcome::Lose, Some(1), None);
        assert!(conditions(&g, &rules, &t).contains(&(2, Condition::TerminalRemoteness)));
        let t = tamper(&s, 1, Outcome::Win, Some(1), None);
        assert_eq!(
            conditions(&g, &rules, &t),
            vec![(1, Condition::MissingMove)]
        );
    }

    #[test]
    fn report_keeps_the_first_few_and_counts_all() {
        let g = Csr::from_edges(100, &[]).with_successors();
        let s = solve(&g, &Rules::normal()).unwrap();
        let r = verify(&g, &Rules::misere(), &s, 3).unwrap();
        assert_eq!((r.violations.len(), r.total), (3, 100));
        assert_eq!(r.violations[2].vertex, 2);
        assert_eq!(
            r.violations[0].to_string(),
            "vertex 0 (lose in 0): a terminal position, whose value is win by its label or rule"
        );
    }

    #[test]
    fn mismatched_sizes_are_an_error() {
        let s = solve(&Csr::from_edges(2, &[]), &Rules::normal()).unwrap();
        let g = Csr::from_edges(3, &[]).with_successors();
        assert!(verify(&g, &Rules::normal(), &s, 1).is_err());
    }
}
