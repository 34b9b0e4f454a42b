//! The self-check of a game: moves and reverse moves must agree, with multiplicity.

use std::collections::HashSet;
use std::fmt;

use super::Game;

/// One way a game's moves and reverse moves disagree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Mismatch {
    /// The moves `from -> to` are generated `moves` times by
    /// [`Game::for_each_move`]`(from)` but `from` appears `unmoves` times in
    /// [`Game::for_each_unmove`]`(to)`.
    Multiplicity {
        /// The position moved from.
        from: u32,
        /// The position moved to.
        to: u32,
        /// How often `to` is among the moves of `from`.
        moves: u32,
        /// How often `from` is among the reverse moves of `to`.
        unmoves: u32,
    },
    /// [`Game::out_degree`] does not count the moves [`Game::for_each_move`] generates.
    Degree {
        /// The position.
        position: u32,
        /// What `out_degree` says.
        declared: u32,
        /// How many moves were generated.
        generated: u32,
    },
    /// A move names an index that is no position, or a reverse move one
    /// `>= position_count()`.
    OutOfRange {
        /// The position whose moves (or reverse moves) were generated.
        position: u32,
        /// The position named, outside the game.
        named: u32,
        /// True if it came from [`Game::for_each_unmove`].
        reverse: bool,
    },
}

impl Mismatch {
    /// This mismatch, with positions shown by `show` (a game's
    /// [`Game::show`], or plain ids).
    pub fn describe(&self, show: &dyn Fn(u32) -> String) -> String {
        match *self {
            Mismatch::Multiplicity {
                from,
                to,
                moves,
                unmoves,
            } => {
                let side = if moves > unmoves {
                    format!("the reverse moves miss {}", moves - unmoves)
                } else {
                    format!("the moves miss {}", unmoves - moves)
                };
                format!(
                    "move {} -> {}: generated {moves} time(s) by the moves of {}, \
                     but {} is listed {unmoves} time(s) among the reverse moves of {}: {side}",
                    show(from),
                    show(to),
                    show(from),
                    show(from),
                    show(to)
                )
            }
            Mismatch::Degree {
                position,
                declared,
                generated,
            } => format!(
                "position {}: out_degree says {declared}, but {generated} moves were generated",
                show(position)
            ),
            Mismatch::OutOfRange {
                position,
                named,
                reverse,
            } => format!(
                "position {}: a {} names {named}, which is not a position",
                show(position),
                if reverse { "reverse move" } else { "move" }
            ),
        }
    }
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe(&|p| p.to_string()))
    }
}

/// What [`check_game`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckReport {
    /// How many positions were checked.
    pub checked: u64,
    /// The first mismatches found, in the order found (each reported once).
    pub mismatches: Vec<Mismatch>,
    /// How many mismatches were found in all (may exceed `mismatches.len()`).
    pub total: u64,
}

impl CheckReport {
    /// True if no mismatch was found.
    pub fn is_ok(&self) -> bool {
        self.total == 0
    }
}

impl CheckReport {
    /// The report with positions shown as `game` shows them ([`Game::show`]).
    pub fn show<'a, G: Game + ?Sized>(&'a self, game: &'a G) -> impl fmt::Display + 'a {
        struct Shown<'a, G: ?Sized>(&'a CheckReport, &'a G);
        impl<G: Game + ?Sized> fmt::Display for Shown<'_, G> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.write(f, &|p| self.1.show(p))
            }
        }
        Shown(self, game)
    }

    fn write(&self, f: &mut fmt::Formatter<'_>, show: &dyn Fn(u32) -> String) -> fmt::Result {
        if self.is_ok() {
            return write!(
                f,
                "checked {} positions: moves and reverse moves agree",
                self.checked
            );
        }
        write!(
            f,
            "checked {} positions: {} mismatches between moves and reverse moves",
            self.checked, self.total
        )?;
        if (self.mismatches.len() as u64) < self.total {
            write!(f, " (the first {} shown)", self.mismatches.len())?;
        }
        for m in &self.mismatches {
            write!(f, "\n  {}", m.describe(show))?;
        }
        Ok(())
    }
}

impl fmt::Display for CheckReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, &|p| p.to_string())
    }
}

/// Checks, for every position in `positions`, that its moves and reverse moves
/// agree with the game's other positions, with multiplicity:
///
/// - each move `p -> q` is generated as often as `p` is listed among the
///   reverse moves of `q`;
/// - each reverse move `r -> p` is generated as often as `p` among the moves of `r`;
/// - [`Game::out_degree`] counts the moves;
/// - every move leads to a position (`< position_count()` and
///   [`Game::is_position`]); a reverse move may name an index that is no
///   position (the solvers ignore it), but none `>= position_count()`.
///
/// Keeps the first `max_reported` mismatches (each once) and counts them all.
/// Indices of `positions` outside the game or not positions are skipped. Pass `0..n` to
/// check a small game whole, [`sample_positions`] for a large one.
///
/// # Complexity
/// Time **O(Σ (d(p) + d'(p)) · d̄)** over the checked positions, where `d`
/// and `d'` count moves and reverse moves and `d̄` is the largest degree of a
/// neighbour; memory for the moves of one position and the reported mismatches.
pub fn check_game<G: Game + ?Sized>(
    game: &G,
    positions: impl IntoIterator<Item = u32>,
    max_reported: usize,
) -> CheckReport {
    let n = game.position_count() as u64;
    let mut report = CheckReport::default();
    let mut reported = HashSet::new();
    let mut record = |report: &mut CheckReport, m: Mismatch| {
        if reported.insert(m) {
            report.total += 1;
            if report.mismatches.len() < max_reported {
                report.mismatches.push(m);
            }
        }
    };
    let count_in = |list: &mut Vec<u32>, r#gen: &dyn Fn(&mut Vec<u32>), p: u32| {
        list.clear();
        r#gen(list);
        list.iter().filter(|&&x| x == p).count() as u32
    };
    let mut near: Vec<u32> = Vec::new();
    let mut scratch: Vec<u32> = Vec::new();
    for p in positions {
        if u64::from(p) >= n || !game.is_position(p) {
            continue;
        }
        report.checked += 1;
        for reverse in [false, true] {
            near.clear();
            if reverse {
                game.for_each_unmove(p, |r| near.push(r));
            } else {
                game.for_each_move(p, |q| near.push(q));
                let declared = game.out_degree(p);
                if declared as usize != near.len() {
                    let generated = near.len() as u32;
                    record(
                        &mut report,
                        Mismatch::Degree {
                            position: p,
                            declared,
                            generated,
                        },
                    );
                }
            }
            near.sort_unstable();
            let mut i = 0;
            while i < near.len() {
                let q = near[i];
                let k = near[i..].iter().take_while(|&&x| x == q).count();
                i += k;
                if u64::from(q) < n && reverse && !game.is_position(q) {
                    continue;
                }
                if u64::from(q) >= n || !game.is_position(q) {
                    let m = Mismatch::OutOfRange {
                        position: p,
                        named: q,
                        reverse,
                    };
                    record(&mut report, m);
                    continue;
                }
                let k = k as u32;
                let m = if reverse {
                    let moves =
                        count_in(&mut scratch, &|l| game.for_each_move(q, |x| l.push(x)), p);
                    (moves != k).then_some(Mismatch::Multiplicity {
                        from: q,
                        to: p,
                        moves,
                        unmoves: k,
                    })
                } else {
                    let unmoves =
                        count_in(&mut scratch, &|l| game.for_each_unmove(q, |x| l.push(x)), p);
                    (unmoves != k).then_some(Mismatch::Multiplicity {
                        from: p,
                        to: q,
                        moves: k,
                        unmoves,
                    })
                };
                if let Some(m) = m {
                    record(&mut report, m);
                }
            }
        }
    }
    report
}

/// `count` positions of a game of `n`, spread at random (seeded, so a run can
/// be repeated), sorted; all of `0..n` if `count >= n`.
///
/// ```
/// use retrograde::game::sample_positions;
/// assert_eq!(sample_positions(5, 10, 1), vec![0, 1, 2, 3, 4]);
/// let s = sample_positions(1_000_000, 100, 7);
/// assert_eq!(s.len(), 100);
/// assert!(s.iter().all(|&p| p < 1_000_000));
/// ```
pub fn sample_positions(n: usize, count: usize, seed: u64) -> Vec<u32> {
    if count >= n {
        return (0..n as u32).collect();
    }
    let mut state = seed;
    let mut out: Vec<u32> = (0..count)
        .map(|_| {
            let z = crate::graph::splitmix64(state);
            state = state.wrapping_add(crate::graph::GOLDEN);
            (z % n as u64) as u32
        })
        .collect();
    out.sort_unstable();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A ring of 6 with a bug per flag.
    struct Ring {
        drop_unmove_of: Option<u32>,
        double_move_of: Option<u32>,
        wrong_degree: bool,
        escape: bool,
    }

    impl Game for Ring {
        fn position_count(&self) -> usize {
            6
        }
        fn for_each_move<F: FnMut(u32)>(&self, p: u32, mut f: F) {
            f((p + 1) % 6);
            if self.double_move_of == Some(p) {
                f((p + 1) % 6);
            }
            if self.escape && p == 2 {
                f(9);
            }
        }
        fn for_each_unmove<F: FnMut(u32)>(&self, q: u32, mut f: F) {
            if self.drop_unmove_of != Some(q) {
                f((q + 5) % 6);
            }
        }
        fn out_degree(&self, p: u32) -> u32 {
            if self.wrong_degree && p == 4 {
                7
            } else {
                let mut d = 0;
                self.for_each_move(p, |_| d += 1);
                d
            }
        }
    }

    const GOOD: Ring = Ring {
        drop_unmove_of: None,
        double_move_of: None,
        wrong_degree: false,
        escape: false,
    };

    #[test]
    fn a_correct_game_passes() {
        let r = check_game(&GOOD, 0..6, 10);
        assert!(r.is_ok(), "{r}");
        assert_eq!(r.checked, 6);
        assert!(r.to_string().contains("agree"));
    }

    #[test]
    fn missing_reverse_move_is_found_from_either_side_once() {
        let g = Ring {
            drop_unmove_of: Some(3),
            ..GOOD
        };
        let r = check_game(&g, 0..6, 10);
        assert_eq!(
            r.mismatches,
            vec![Mismatch::Multiplicity {
                from: 2,
                to: 3,
                moves: 1,
                unmoves: 0
            }]
        );
        // 3 lists no reverse move at all, so only 2's side can see the bug.
        assert!(check_game(&g, [3], 10).is_ok());
        assert!(!check_game(&g, [2], 10).is_ok());
    }

    #[test]
    fn multiplicity_degree_and_range_errors_are_reported() {
        let g = Ring {
            double_move_of: Some(1),
            wrong_degree: true,
            escape: true,
            ..GOOD
        };
        let r = check_game(&g, 0..6, 2);
        assert_eq!(r.total, 3, "{r}");
        assert_eq!(r.mismatches.len(), 2);
        let text = r.to_string();
        assert!(
            text.contains("3 mismatches") && text.contains("first 2"),
            "{text}"
        );
        let all = check_game(&g, 0..6, 10).mismatches;
        assert!(all.contains(&Mismatch::Multiplicity {
            from: 1,
            to: 2,
            moves: 2,
            unmoves: 1
        }));
        assert!(all.contains(&Mismatch::Degree {
            position: 4,
            declared: 7,
            generated: 1
        }));
        assert!(all.contains(&Mismatch::OutOfRange {
            position: 2,
            named: 9,
            reverse: false
        }));
    }

    #[test]
    fn samples_are_seeded_and_in_range() {
        assert_eq!(sample_positions(100, 10, 3), sample_positions(100, 10, 3));
        assert_ne!(sample_positions(100, 10, 3), sample_positions(100, 10, 4));
        assert!(sample_positions(0, 10, 3).is_empty());
    }
}
