//! The value of a position and the rules that fix the value of terminal positions.

use std::fmt;
use std::str::FromStr;

/// The game-theoretic value of a position, for the player to move.
///
/// `Win`: some move reaches a `Lose` position. `Lose`: every move reaches a `Win`
/// position (vacuously true for a terminal position under the normal rule).
/// `Draw`: everything else — best play never ends (or ends in a terminal draw).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Outcome {
    /// The player to move can force a win.
    Win = 0,
    /// The player to move loses against best play.
    Lose = 1,
    /// Neither side can force an end: best play goes on forever.
    Draw = 2,
}

impl Outcome {
    /// The value seen from the other player's side: `Win` and `Lose` swap, `Draw` stays.
    ///
    /// ```
    /// use retrograde::Outcome;
    /// assert_eq!(Outcome::Win.flip(), Outcome::Lose);
    /// assert_eq!(Outcome::Draw.flip(), Outcome::Draw);
    /// ```
    pub fn flip(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Lose,
            Outcome::Lose => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
        }
    }

    /// The lowercase name used in every file format: `win`, `lose` or `draw`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Lose => "lose",
            Outcome::Draw => "draw",
        }
    }

    /// Parses `win`, `lose` or `draw` from raw bytes (as read from a file).
    pub fn from_bytes(s: &[u8]) -> Option<Outcome> {
        match s {
            b"win" => Some(Outcome::Win),
            b"lose" => Some(Outcome::Lose),
            b"draw" => Some(Outcome::Draw),
            _ => None,
        }
    }

    pub(crate) fn from_u8(b: u8) -> Outcome {
        match b {
            0 => Outcome::Win,
            1 => Outcome::Lose,
            _ => Outcome::Draw,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Outcome {
    type Err = String;
    fn from_str(s: &str) -> Result<Outcome, String> {
        Outcome::from_bytes(s.as_bytes())
            .ok_or_else(|| format!("expected win, lose or draw, found {s:?}"))
    }
}

/// What happens to the player to move in a position with no move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum NoMoveRule {
    /// The player who cannot move loses (the normal rule).
    #[default]
    Lose,
    /// The player who cannot move wins (the misère rule).
    Win,
}

impl NoMoveRule {
    /// The outcome, for the player to move, of a position without moves.
    pub fn outcome(self) -> Outcome {
        match self {
            NoMoveRule::Lose => Outcome::Lose,
            NoMoveRule::Win => Outcome::Win,
        }
    }
}

impl FromStr for NoMoveRule {
    type Err = String;
    fn from_str(s: &str) -> Result<NoMoveRule, String> {
        match s {
            "lose" => Ok(NoMoveRule::Lose),
            "win" => Ok(NoMoveRule::Win),
            _ => Err(format!("expected lose or win, found {s:?}")),
        }
    }
}

/// Terminal labels: positions declared terminal with a fixed value.
///
/// A labelled position keeps its value whatever its moves are; its outgoing
/// edges are ignored. Stored sparsely, sorted by vertex, one label per vertex.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Labels {
    sorted: Vec<(u32, Outcome)>,
}

impl Labels {
    /// No labels.
    pub fn new() -> Labels {
        Labels::default()
    }

    /// Builds labels from `(vertex, outcome)` pairs. If a vertex appears more than
    /// once, the last pair wins ([`io::labels::read`](crate::io::labels::read) refuses conflicts).
    pub fn from_pairs(mut pairs: Vec<(u32, Outcome)>) -> Labels {
        // Stable sort keeps input order among equal vertices; keep the last one.
        pairs.sort_by_key(|&(v, _)| v);
        let mut sorted: Vec<(u32, Outcome)> = Vec::with_capacity(pairs.len());
        for (v, o) in pairs {
            match sorted.last_mut() {
                Some(last) if last.0 == v => last.1 = o,
                _ => sorted.push((v, o)),
            }
        }
        Labels { sorted }
    }

    /// The label of `v`, if any. `O(log L)`.
    pub fn get(&self, v: u32) -> Option<Outcome> {
        self.sorted
            .binary_search_by_key(&v, |&(u, _)| u)
            .ok()
            .map(|i| self.sorted[i].1)
    }

    /// The labels, sorted by vertex.
    pub fn iter(&self) -> impl Iterator<Item = (u32, Outcome)> + '_ {
        self.sorted.iter().copied()
    }

    /// How many vertices are labelled.
    pub fn len(&self) -> usize {
        self.sorted.len()
    }

    /// Whether no vertex is labelled.
    pub fn is_empty(&self) -> bool {
        self.sorted.is_empty()
    }

    /// A cursor for reading the labels of vertices `0, 1, 2, …` in increasing
    /// order in `O(1)` each (no binary search).
    pub fn walk(&self) -> LabelWalk<'_> {
        LabelWalk { rest: &self.sorted }
    }

    /// The largest labelled vertex, if any.
    pub fn max_vertex(&self) -> Option<u32> {
        self.sorted.last().map(|&(v, _)| v)
    }
}

/// Reads [`Labels`] vertex after vertex, in increasing order (see [`Labels::walk`]).
#[derive(Clone, Debug)]
pub struct LabelWalk<'a> {
    rest: &'a [(u32, Outcome)],
}

impl LabelWalk<'_> {
    /// The label of `v`; `v` must not decrease from one call to the next.
    #[inline]
    pub fn at(&mut self, v: u32) -> Option<Outcome> {
        while let Some((&(l, o), tail)) = self.rest.split_first() {
            if l > v {
                return None;
            }
            self.rest = tail;
            if l == v {
                return Some(o);
            }
        }
        None
    }
}

/// The rules that give terminal positions their value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rules {
    /// The value of a position without moves (and without a label).
    pub no_move: NoMoveRule,
    /// Positions declared terminal with a fixed value.
    pub labels: Labels,
}

impl Rules {
    /// The normal rule (no move loses) and no labels.
    pub fn normal() -> Rules {
        Rules::default()
    }

    /// The misère rule (no move wins) and no labels.
    pub fn misere() -> Rules {
        Rules {
            no_move: NoMoveRule::Win,
            labels: Labels::new(),
        }
    }

    /// These rules with the given labels.
    pub fn with_labels(mut self, labels: Labels) -> Rules {
        self.labels = labels;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_keep_last_value_per_vertex_and_sort() {
        let l = Labels::from_pairs(vec![
            (5, Outcome::Win),
            (1, Outcome::Draw),
            (5, Outcome::Lose),
        ]);
        assert_eq!(
            l.iter().collect::<Vec<_>>(),
            vec![(1, Outcome::Draw), (5, Outcome::Lose)]
        );
        assert_eq!(l.get(5), Some(Outcome::Lose));
        assert_eq!(l.get(2), None);
        assert_eq!(l.max_vertex(), Some(5));
    }

    #[test]
    fn outcome_names_round_trip() {
        for o in [Outcome::Win, Outcome::Lose, Outcome::Draw] {
            assert_eq!(o.as_str().parse::<Outcome>().unwrap(), o);
            assert_eq!(Outcome::from_u8(o as u8), o);
        }
        assert!("WIN".parse::<Outcome>().is_err());
    }
}
