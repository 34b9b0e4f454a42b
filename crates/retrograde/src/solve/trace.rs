//! A solve that records its steps, for people to watch: the sequential
//! engine itself, telling an observer what it does (the observer of
//! [`solve`](super::solve) does nothing, and compiles away).
//!
//! ```
//! use retrograde::solve::trace::{solve_traced, Event};
//! use retrograde::{Csr, Outcome, Rules};
//! // 0 -> 1 -> 2: 2 has no move.
//! let g = Csr::from_edges(3, &[(0, 1), (1, 2)]);
//! let (solution, events) = solve_traced(&g, &Rules::normal()).unwrap();
//! assert_eq!(events[2], Event::Start { position: 2, outcome: Some(Outcome::Lose), moves: 0 });
//! assert!(events.contains(&Event::Decided { position: 0, outcome: Outcome::Lose, remoteness: 2 }));
//! # let _ = solution;
//! ```

use crate::error::SolveError;
use crate::kernel::{self, UNDECIDED};
use crate::{GameGraph, Outcome, Rules, Solution};

use super::sequential::Trace;

/// One step of a traced solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A position's start: terminal with its outcome (remoteness 0), or
    /// open with `moves` moves to hear back from.
    Start {
        /// The position.
        position: u32,
        /// Its outcome if it is terminal.
        outcome: Option<Outcome>,
        /// Its moves (counted for an open position).
        moves: u32,
    },
    /// The terminal ties are queued: wins and losses are all known.
    TiePhase,
    /// A decided position is taken from the queue.
    Dequeue {
        /// The position.
        position: u32,
    },
    /// A move `from -> to` is read backwards: `to` is decided, and `from`
    /// learns of it. `left` is `from`'s counter of moves not yet known to
    /// reach a win for the opponent.
    Edge {
        /// The decided position.
        to: u32,
        /// The position that can move there.
        from: u32,
        /// `from`'s counter afterwards.
        left: u32,
    },
    /// A position is decided (and queued).
    Decided {
        /// The position.
        position: u32,
        /// Its outcome.
        outcome: Outcome,
        /// Its remoteness.
        remoteness: u32,
    },
    /// Nothing more follows: a position never decided is a draw.
    Draw {
        /// The position.
        position: u32,
    },
}

/// Records events.
#[derive(Default)]
struct Recorder {
    events: Vec<Event>,
    /// Whether each position was decided already (to report it once).
    decided: Vec<bool>,
}

impl Trace for Recorder {
    fn start(&mut self, v: u32, code: u8, moves: u32) {
        self.decided.push(code != UNDECIDED);
        self.events.push(Event::Start {
            position: v,
            outcome: kernel::outcome(code).filter(|_| code != UNDECIDED),
            moves,
        });
    }

    fn ties(&mut self, _ties: &[u32]) {
        self.events.push(Event::TiePhase);
    }

    fn dequeue(&mut self, u: u32) {
        self.events.push(Event::Dequeue { position: u });
    }

    fn edge(&mut self, u: u32, p: u32, state: u8, counter: u32, rem: u32) {
        self.events.push(Event::Edge {
            to: u,
            from: p,
            left: counter,
        });
        let pi = p as usize;
        if !self.decided[pi]
            && state != UNDECIDED
            && let Some(outcome) = kernel::outcome(state)
        {
            self.decided[pi] = true;
            self.events.push(Event::Decided {
                position: p,
                outcome,
                remoteness: rem,
            });
        }
    }

    fn draws(&mut self, state: &[u8]) {
        for (v, &s) in state.iter().enumerate() {
            if !self.decided[v] && kernel::outcome(s) == Some(Outcome::Draw) {
                self.events.push(Event::Draw { position: v as u32 });
            }
        }
    }
}

/// Solves `g` with the sequential engine (the same answers as
/// [`solve`](super::solve)) and returns every step it took, in order.
///
/// # Errors
/// As [`solve`](super::solve).
///
/// # Complexity
/// Time **O(V + E)**; memory: an event per position and per reverse move
/// read, so meant for small games (a few thousand moves).
pub fn solve_traced<G: GameGraph + ?Sized>(
    g: &G,
    rules: &Rules,
) -> Result<(Solution, Vec<Event>), SolveError> {
    let mut r = Recorder::default();
    let s = super::sequential::run(g, rules, &super::NoProgress, &mut r)?;
    Ok((s, r.events))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Answers, Csr};

    #[test]
    fn the_events_tell_every_value_the_solve_gives() {
        // chase.txt's game: every kind of position.
        let edges = [
            (0, 1),
            (1, 2),
            (3, 0),
            (3, 4),
            (4, 3),
            (5, 6),
            (6, 5),
            (6, 1),
            (7, 7),
            (7, 4),
            (8, 5),
            (8, 9),
            (9, 2),
            (9, 2),
        ];
        let g = Csr::from_edges(10, &edges);
        let (s, events) = solve_traced(&g, &Rules::normal()).unwrap();
        assert_eq!(s, crate::solve(&g, &Rules::normal()).unwrap());
        let mut told = [None; 10];
        for e in &events {
            match *e {
                Event::Start {
                    position,
                    outcome: Some(o),
                    ..
                } => told[position as usize] = Some((o, Some(0))),
                Event::Decided {
                    position,
                    outcome,
                    remoteness,
                } => {
                    assert!(told[position as usize].is_none(), "decided twice");
                    told[position as usize] = Some((outcome, Some(remoteness)));
                }
                Event::Draw { position } => told[position as usize] = Some((Outcome::Draw, None)),
                _ => {}
            }
        }
        for v in 0..10 {
            let value = s.value(v).unwrap();
            assert_eq!(
                told[v as usize],
                Some((value.outcome, value.remoteness)),
                "{v}"
            );
        }
        // Every reverse move of a decided position is read once, after it is dequeued.
        let reads = events
            .iter()
            .filter(|e| matches!(e, Event::Edge { .. }))
            .count();
        assert!(reads <= edges.len());
    }
}
