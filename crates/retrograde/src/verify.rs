//! Checking a solution without trusting any solver: local conditions over
//! forward edges, in `O(V + E)`.
//!
//! A [`Solution`](crate::Solution) (typically read back from a file with
//! [`io::solution::read`](crate::io::solution::read)) is correct for a game
//! exactly when every position passes these checks against its own moves:
//!
//! - a **terminal** position (labelled, terminal by the game, or without moves)
//!   has the value of its label or rule, remoteness 0 if decided, and no move;
//! - a **win** has a `Lose` successor, and its remoteness is one more than the
//!   least remoteness among its `Lose` successors (the winner hurries);
//! - a **lose** has only `Win` successors, and its remoteness is one more than
//!   the greatest of theirs (the loser holds out);
//! - a **tie** has no `Lose` successor, a `Tie` successor, and its remoteness
//!   is one more than the least remoteness among its `Tie` successors;
//! - a **draw** has no `Lose` and no `Tie` successor and at least one `Draw`
//!   successor;
//! - every non-terminal position lists a best move, which is one of its edges
//!   and has the stated property: for a win, a `Lose` successor of remoteness one
//!   less; for a lose, a successor of remoteness one less; for a tie, a `Tie`
//!   successor of remoteness one less; for a draw, a `Draw` successor. Equal
//!   moves may be chosen in any way (the solver's smallest-id rule is not
//!   required). Where the solution stores no best moves but derives them
//!   from its values when asked ([`Answers::best_moves_stored`]), they follow
//!   from the values checked and are not checked again;
//! - the solution holds exactly the game's positions (an index the game says
//!   is no position has no value, and the other way round).
//!
//! Why this suffices: remoteness strictly decreases along the moves that
//! justify a win or a loss, so by induction on it every stated win is a real
//! win and every stated loss a real loss. If some stated draw were really
//! decided, take one of least true remoteness: a real loss would need its
//! `Draw` successor to be a real win of smaller remoteness, itself a stated
//! draw; a real win would need a real-loss successor of smaller remoteness,
//! which is neither a stated draw (minimality) nor a stated loss (forbidden
//! next to a draw). Stated ties are level by the same argument (a tie, like a
//! draw, has no `Lose` successor and a level one), and they reach a terminal
//! tie along ties of decreasing remoteness, so they are real ties. If some
//! stated draw were really a tie, take one of least true remoteness: its
//! tie successor of smaller remoteness is level, so a stated tie or draw;
//! not a draw (minimality), and a draw has no `Tie` successor. So outcomes
//! agree, and remoteness, fixed by its equations with positive steps, agrees
//! too.
//!
//! Like the slow reference solver, this module deliberately shares nothing
//! with the engines' rule in [`kernel`](crate::kernel): it is written from
//! the definitions, so that it can vouch for any engine.
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

use rayon::prelude::*;

use crate::error::SolveError;
use crate::{Answers, Outcome, Rules, Successors, Value};

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
    /// A draw with a `Tie` successor: the player to move ends level by moving there.
    DrawWithTieSuccessor {
        /// The first such successor (smallest id).
        to: u32,
    },
    /// A tie with a `Lose` successor: the player to move wins by moving there.
    TieWithLoseSuccessor {
        /// The first such successor (smallest id).
        to: u32,
    },
    /// A tie without any `Tie` successor: nothing ends it level.
    TieWithoutTieSuccessor,
    /// A tie whose remoteness is not 1 + the least remoteness of its `Tie` successors.
    TieRemoteness {
        /// What 1 + the least remoteness of the `Tie` successors gives.
        expected: u64,
    },
    /// The solution gives a value to an index the game says is no position,
    /// or none to a position of the game.
    PositionMismatch {
        /// Whether the game says it is a position.
        in_game: bool,
    },
    /// The listed best move is an edge, but not a best move: for a win it does
    /// not reach a `Lose` of remoteness one less, for a lose it does not reach
    /// a position of remoteness one less, for a tie it does not reach a `Tie`
    /// of remoteness one less, for a draw it does not reach a `Draw`.
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
    /// Its value, as the solution states it (`None`: no position).
    pub value: Option<Value>,
    /// The condition that fails.
    pub condition: Condition,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let stated = match self.value {
            Some(v) => v.to_string(),
            None => "no position".to_string(),
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
            Condition::DrawWithTieSuccessor { to } => write!(
                f,
                "a draw, but the move to {to} reaches a tie position (the game can end level)"
            ),
            Condition::TieWithLoseSuccessor { to } => write!(
                f,
                "a tie, but the move to {to} reaches a lose position (a win for the player to move)"
            ),
            Condition::TieWithoutTieSuccessor => {
                write!(f, "a tie, but no move reaches a tie position")
            }
            Condition::TieRemoteness { expected } => write!(
                f,
                "a tie must take 1 + the least remoteness of its tie successors = {expected} plies"
            ),
            Condition::PositionMismatch { in_game: true } => {
                write!(f, "a position of the game, without a value in the solution")
            }
            Condition::PositionMismatch { in_game: false } => {
                write!(
                    f,
                    "not a position of the game, but the solution gives it a value"
                )
            }
            Condition::NotBestMove { to } => {
                write!(f, "the best move to {to} does not achieve the stated value")
            }
        }
    }
}

/// What [`verify`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// The positions checked (indices that are no position not counted).
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
/// Time **O(V + E)**: each position and each of its moves is looked at once,
/// on all threads of the current rayon pool. No memory beyond the report.
pub fn verify<G: Successors + Sync + ?Sized, S: Answers + Sync + ?Sized>(
    g: &G,
    rules: &Rules,
    s: &S,
    keep: usize,
) -> Result<Report, SolveError> {
    rules.check(g.vertex_count())?;
    let n = g.vertex_count();
    if s.len() != n {
        return Err(SolveError::SizeMismatch {
            solution: s.len() as u64,
            graph: n as u64,
        });
    }
    // Blocks of positions checked on all threads, their reports joined in
    // order: the same report as one pass.
    let blocks: Vec<Report> = (0..n.div_ceil(BLOCK))
        .into_par_iter()
        .map(|b| {
            let (first, last) = (b * BLOCK, ((b + 1) * BLOCK).min(n));
            verify_block(g, rules, s, keep, first as u32..last as u32)
        })
        .collect();
    let mut report = Report::default();
    for b in blocks {
        report.positions += b.positions;
        report.total += b.total;
        let room = keep - report.violations.len();
        report
            .violations
            .extend(b.violations.into_iter().take(room));
    }
    Ok(report)
}

/// Positions checked per task.
const BLOCK: usize = 1 << 14;

/// [`verify`] on the positions `range`.
fn verify_block<G: Successors + ?Sized, S: Answers + ?Sized>(
    g: &G,
    rules: &Rules,
    s: &S,
    keep: usize,
    range: std::ops::Range<u32>,
) -> Report {
    let mut report = Report::default();
    let mut labels = rules.labels.walk_from(range.start);
    let mut moves = Vec::new();
    for v in range {
        let label = labels.at(v);
        let value = s.value(v);
        let mut fail = |condition| {
            report.total += 1;
            if report.violations.len() < keep {
                report.violations.push(Violation {
                    vertex: v,
                    value,
                    condition,
                });
            }
        };
        let in_game = g.is_position(v);
        let Some(value) = value.filter(|_| in_game) else {
            if in_game || value.is_some() {
                fail(Condition::PositionMismatch { in_game });
            }
            continue;
        };
        report.positions += 1;
        // A best move derived from the values when asked follows from the
        // values checked here; a stored one is checked too.
        let best = s.best_moves_stored().then(|| s.best_move(v)).flatten();
        // The moves of a position not labelled or terminal by the game,
        // gathered in the same pass that counts them.
        let terminal = label.or_else(|| g.terminal(v));
        let m = terminal
            .is_none()
            .then(|| Successions::gather(g, s, v, best, &mut moves));
        let terminal = terminal.or_else(|| {
            m.as_ref()
                .is_some_and(|m| m.moves == 0)
                .then(|| rules.no_move.outcome())
        });
        if let Some(expected) = terminal {
            if value.outcome != expected {
                fail(Condition::TerminalValue { expected });
            } else if value.remoteness.is_some_and(|r| r != 0) {
                fail(Condition::TerminalRemoteness);
            }
            if best.is_some() {
                fail(Condition::TerminalMove);
            }
            continue;
        }
        if let Some(m) = m {
            check_value(&m, value, &mut fail);
            if s.best_moves_stored() {
                let next = best.and_then(|w| s.value(w).map(|x| as_opponent(g, v, w, x)));
                check_best_move(best, next, m.move_is_edge, value, &mut fail);
            }
        }
    }
    report
}

/// What the moves of one position show, gathered in one pass.
#[derive(Default)]
struct Successions {
    /// How many there are (parallel moves each time).
    moves: u32,
    /// Whether the listed best move is among them.
    move_is_edge: bool,
    least_lose: Option<u64>,
    first_lose: Option<u32>,
    least_tie: Option<u64>,
    first_tie: Option<u32>,
    greatest_win: Option<u64>,
    first_not_win: Option<u32>,
    any_draw: bool,
}

/// The value `x` of `w`, a successor of `v`, as the opponent of `v`'s mover
/// holds it: as stated where the move passes the turn, with `Win` and
/// `Lose` swapped where `v`'s mover moves again at `w`
/// ([`GameGraph::same_player`](crate::GameGraph::same_player)). The
/// conditions below are written for this side.
fn as_opponent<G: Successors + ?Sized>(g: &G, v: u32, w: u32, x: Value) -> Value {
    match g.same_player(v, w) {
        true => Value::new(x.outcome.flip(), x.remoteness),
        false => x,
    }
}

impl Successions {
    /// What the moves of `v` show, whose listed best move is `best`
    /// (`moves`: room to list them, reused from position to position).
    fn gather<G: Successors + ?Sized, S: Answers + ?Sized>(
        g: &G,
        s: &S,
        v: u32,
        best: Option<u32>,
        moves: &mut Vec<u32>,
    ) -> Successions {
        // The moves listed first and their values asked for together: the
        // lookups of a large game are cache misses, which then overlap.
        moves.clear();
        g.for_each_successor(v, |w| moves.push(w));
        let values = s.values();
        moves.iter().for_each(|&w| values.prefetch(w));
        let mut m = Successions::default();
        for &w in moves.iter() {
            m.moves += 1;
            m.move_is_edge |= best == Some(w);
            if let Some(x) = s.value(w) {
                m.add(w, as_opponent(g, v, w, x));
            }
        }
        m
    }

    /// Takes in a move to `w`, whose value is `x`.
    fn add(&mut self, w: u32, x: Value) {
        let min = |a: Option<u32>, w: u32| Some(a.map_or(w, |a| a.min(w)));
        let least = |a: Option<u64>, r: Option<u64>| match (a, r) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let r = x.remoteness.map(u64::from);
        match x.outcome {
            Outcome::Lose => {
                self.least_lose = least(self.least_lose, r);
                self.first_lose = min(self.first_lose, w);
                self.first_not_win = min(self.first_not_win, w);
            }
            Outcome::Win => self.greatest_win = self.greatest_win.max(r),
            Outcome::Tie => {
                self.least_tie = least(self.least_tie, r);
                self.first_tie = min(self.first_tie, w);
                self.first_not_win = min(self.first_not_win, w);
            }
            Outcome::Draw => {
                self.any_draw = true;
                self.first_not_win = min(self.first_not_win, w);
            }
        }
    }
}

/// The conditions on a position's `stated` value that its moves `m` show.
fn check_value(m: &Successions, stated: Value, fail: &mut dyn FnMut(Condition)) {
    let rem = stated.remoteness.map(u64::from);
    match stated.outcome {
        Outcome::Win => match m.least_lose {
            None => fail(Condition::WinWithoutLoseSuccessor),
            Some(least) if rem != Some(least + 1) => fail(Condition::WinRemoteness {
                expected: least + 1,
            }),
            Some(_) => {}
        },
        Outcome::Lose => {
            if let Some(to) = m.first_not_win {
                fail(Condition::LoseEscapes { to });
            } else if let Some(greatest) = m.greatest_win
                && rem != Some(greatest + 1)
            {
                fail(Condition::LoseRemoteness {
                    expected: greatest + 1,
                });
            }
        }
        Outcome::Tie => {
            if let Some(to) = m.first_lose {
                fail(Condition::TieWithLoseSuccessor { to });
            }
            match m.least_tie {
                None => fail(Condition::TieWithoutTieSuccessor),
                Some(least) if rem != Some(least + 1) => fail(Condition::TieRemoteness {
                    expected: least + 1,
                }),
                Some(_) => {}
            }
        }
        Outcome::Draw => {
            if let Some(to) = m.first_lose {
                fail(Condition::DrawWithLoseSuccessor { to });
            }
            if let Some(to) = m.first_tie {
                fail(Condition::DrawWithTieSuccessor { to });
            }
            if !m.any_draw {
                fail(Condition::DrawWithoutDrawSuccessor);
            }
        }
    }
}

/// The conditions on a position's listed `best` move (`move_is_edge`:
/// whether it is among the position's moves), for its `stated` value.
fn check_best_move(
    best: Option<u32>,
    next: Option<Value>,
    move_is_edge: bool,
    stated: Value,
    fail: &mut dyn FnMut(Condition),
) {
    let rem = stated.remoteness.map(u64::from);
    match best {
        None => fail(Condition::MissingMove),
        Some(to) if !move_is_edge => fail(Condition::NotAnEdge { to }),
        Some(to) => {
            let one_less = next.and_then(|x| x.remoteness).map(|r| u64::from(r) + 1) == rem;
            let reaches = |o: Outcome| next.is_some_and(|x| x.outcome == o);
            let good = match stated.outcome {
                Outcome::Win => reaches(Outcome::Lose) && one_less,
                Outcome::Lose => reaches(Outcome::Win) && one_less,
                Outcome::Tie => reaches(Outcome::Tie) && one_less,
                Outcome::Draw => reaches(Outcome::Draw),
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
    use crate::graph::NONE;
    use crate::{Csr, Graph, Labels, NoMoveRule, Solution, solve};

    /// 0 -> 1 -> 2 (2 stuck: lose in 2, win in 1, lose in 0); 3 <-> 4 (draws);
    /// 5 -> 0, 5 -> 2 (win in 1 via 2); 6 -> 1, 6 -> 5 (both win in 1: lose in 2).
    fn game() -> Graph {
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

    #[test]
    fn blocks_on_many_threads_report_what_one_pass_reports() {
        // A random graph over four blocks, its solution spoiled in each block
        // (outcomes flipped, remoteness moved), with a label or two.
        let n = 3 * BLOCK + 500;
        let g = crate::CsrBuilder::new()
            .build(&crate::graph::RandomEdges::new(
                n as u32,
                n as u64 + n as u64 / 2,
                11,
            ))
            .unwrap()
            .with_successors();
        let rules = Rules::normal().with_labels(Labels::from_pairs(vec![
            (7, Outcome::Tie),
            (2 * BLOCK as u32 + 3, Outcome::Win),
        ]));
        let good = solve(&g, &rules).unwrap();
        let values = good.values();
        let mut state: Vec<u8> = values.outcome_codes().to_vec();
        let mut rem: Vec<u32> = (0..n as u32)
            .map(|v| values.remoteness(v).unwrap_or(NONE))
            .collect();
        let best: Vec<u32> = (0..n as u32)
            .map(|v| good.best_move(v).unwrap_or(NONE))
            .collect();
        for k in 0..4 {
            let v = k * BLOCK + 17 * (k + 1);
            state[v] = state[v].min(2) ^ 1;
            rem[v + 1] = rem[v + 1].wrapping_add(2);
        }
        let bad = Solution::from_parts(state, rem, best);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        for keep in [0, 3, usize::MAX] {
            let one = verify_block(&g, &rules, &bad, keep, 0..n as u32);
            let all = pool.install(|| verify(&g, &rules, &bad, keep)).unwrap();
            assert!(one.total >= 4, "{}", one.total);
            assert_eq!(all, one, "keep {keep}");
            let good_report = pool.install(|| verify(&g, &rules, &good, keep)).unwrap();
            assert!(good_report.is_ok());
            assert_eq!(good_report.positions, n as u64);
        }
    }

    fn conditions(g: &Graph, rules: &Rules, s: &Solution) -> Vec<(u32, Condition)> {
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
        let mut state = s.values().outcome_codes().to_vec();
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
        assert!(
            conditions(&g, &Rules::normal(), &t)
                .contains(&(5, Condition::WinRemoteness { expected: 1 }))
        );
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
