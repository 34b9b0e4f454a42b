//! The value of a position and the rules that fix the value of terminal positions.

use std::fmt;
use std::str::FromStr;

use crate::error::SolveError;

/// The game-theoretic value of a position, for the player to move.
///
/// `Win`: some move reaches a `Lose` position. `Lose`: every move reaches a
/// `Win` position (vacuously true for a terminal position under the normal
/// rule). Everything else is level: a `Tie` where best play can still end
/// the game level, a `Draw` where it goes on forever.
///
/// For the player to move the values are ordered `Lose < Draw < Tie < Win`
/// (as in GamesmanOne): a player who cannot win prefers a game that ends.
/// So a position that can neither win nor be forced to lose is a `Tie` when
/// some move reaches a `Tie`, and a `Draw` otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
#[repr(u8)]
pub enum Outcome {
    /// The player to move can force a win.
    Win = 0,
    /// The player to move loses against best play.
    Lose = 1,
    /// Neither side can win, and best play ends the game level.
    Tie = 2,
    /// Neither side can force an end: best play goes on forever. (Code 3
    /// is the engines' "no position"; draws come last so that a draw and an
    /// undecided position are told from the rest by one comparison.)
    Draw = 4,
}

/// The outcome names the parsers accept, for error messages.
pub(crate) const OUTCOME_NAMES: &str = "win, lose, tie or draw";

impl Outcome {
    /// All four outcomes, in the order of their codes.
    pub const ALL: [Outcome; 4] = [Outcome::Win, Outcome::Lose, Outcome::Tie, Outcome::Draw];

    /// The value seen from the other player's side: `Win` and `Lose` swap,
    /// `Tie` and `Draw` stay.
    ///
    /// ```
    /// use retrograde::Outcome;
    /// assert_eq!(Outcome::Win.flip(), Outcome::Lose);
    /// assert_eq!(Outcome::Draw.flip(), Outcome::Draw);
    /// assert_eq!(Outcome::Tie.flip(), Outcome::Tie);
    /// ```
    pub fn flip(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Lose,
            Outcome::Lose => Outcome::Win,
            o => o,
        }
    }

    /// Whether best play ends the game (win, lose or tie): such a position
    /// has a remoteness; a draw has none.
    pub fn ends(self) -> bool {
        self != Outcome::Draw
    }

    /// The lowercase name used in every file format: `win`, `lose`, `tie` or `draw`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Lose => "lose",
            Outcome::Draw => "draw",
            Outcome::Tie => "tie",
        }
    }

    /// Parses `win`, `lose`, `tie` or `draw` from raw bytes (as read from a file).
    pub fn from_bytes(s: &[u8]) -> Option<Outcome> {
        match s {
            b"win" => Some(Outcome::Win),
            b"lose" => Some(Outcome::Lose),
            b"draw" => Some(Outcome::Draw),
            b"tie" => Some(Outcome::Tie),
            _ => None,
        }
    }

    /// The outcome of a code (the discriminants above: 0 win, 1 lose, 2 tie,
    /// 4 draw); `None` for any other.
    pub fn from_code(code: u8) -> Option<Outcome> {
        match code {
            0 => Some(Outcome::Win),
            1 => Some(Outcome::Lose),
            2 => Some(Outcome::Tie),
            4 => Some(Outcome::Draw),
            _ => None,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A word that names no value of the type it was parsed as.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected {expected}, found {found:?}")]
pub struct UnknownName {
    /// The words accepted.
    pub expected: &'static str,
    /// The word found.
    pub found: String,
}

impl FromStr for Outcome {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Outcome, UnknownName> {
        Outcome::from_bytes(s.as_bytes()).ok_or_else(|| UnknownName {
            expected: OUTCOME_NAMES,
            found: s.to_string(),
        })
    }
}

/// One of the two players, where a game names who moves at a position
/// ([`GameGraph::owner`](crate::GameGraph::owner)): in an arena every
/// vertex has an owner, in dots and boxes a player who completes a box
/// moves again. A game that names no one alternates strictly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Player {
    /// Player 0 (PGSolver's Even, the first to move).
    First = 0,
    /// Player 1 (PGSolver's Odd).
    Second = 1,
}

impl Player {
    /// Whether a move from a position where `from` moves to one where `to`
    /// moves keeps the turn: both name their player and it is the same. A
    /// position that names no one passes the turn. The rule every engine,
    /// the reference and `verify` apply to a move.
    ///
    /// ```
    /// use retrograde::Player;
    /// assert!(Player::keeps_turn(Some(Player::First), Some(Player::First)));
    /// assert!(!Player::keeps_turn(Some(Player::First), None));
    /// ```
    #[inline(always)]
    pub fn keeps_turn(from: Option<Player>, to: Option<Player>) -> bool {
        matches!((from, to), (Some(a), Some(b)) if a == b)
    }

    /// Player 0 or 1 from its number; `None` for any other.
    ///
    /// ```
    /// use retrograde::Player;
    /// assert_eq!(Player::from_index(1), Some(Player::Second));
    /// assert_eq!(Player::from_index(2), None);
    /// ```
    pub fn from_index(i: u64) -> Option<Player> {
        match i {
            0 => Some(Player::First),
            1 => Some(Player::Second),
            _ => None,
        }
    }

    /// 0 or 1.
    pub fn index(self) -> u8 {
        self as u8
    }

    /// The other player.
    pub fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.index())
    }
}

/// The value of a position: its [`Outcome`] for the player to move and, when
/// best play ends the game, how many plies it lasts (its *remoteness*).
///
/// ```
/// use retrograde::{Outcome, Value};
/// assert_eq!(Value::new(Outcome::Win, Some(3)).to_string(), "win in 3");
/// assert_eq!(Value::new(Outcome::Draw, None).to_string(), "draw");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Value {
    /// Win, lose, tie or draw, for the player to move.
    pub outcome: Outcome,
    /// Plies to the end under best play; `None` for a draw.
    pub remoteness: Option<u32>,
}

impl Value {
    /// A value.
    pub fn new(outcome: Outcome, remoteness: Option<u32>) -> Value {
        Value {
            outcome,
            remoteness,
        }
    }

    /// The value of a move to a position of value `self`, for the player
    /// who makes it: the outcome seen from the other side ([`Outcome::flip`]:
    /// a loss for the player to move there is a win for the mover), one ply
    /// longer (the move itself). The one valuation of a move, used by every
    /// answer that lists moves.
    ///
    /// ```
    /// use retrograde::{Outcome, Value};
    /// let there = Value::new(Outcome::Lose, Some(4));
    /// assert_eq!(there.after_move(), Value::new(Outcome::Win, Some(5)));
    /// assert_eq!(Value::new(Outcome::Draw, None).after_move(), Value::new(Outcome::Draw, None));
    /// ```
    pub fn after_move(self) -> Value {
        self.after(false)
    }

    /// The value of a move to a position of value `self`, for the player
    /// who makes it, where `same_player` tells whether that player also
    /// moves there (a move that keeps the turn: see
    /// [`GameGraph::owner`](crate::GameGraph::owner)): then the outcome is
    /// theirs already and is not flipped. One ply longer either way.
    /// `after(false)` is [`Value::after_move`].
    ///
    /// ```
    /// use retrograde::{Outcome, Value};
    /// let there = Value::new(Outcome::Win, Some(4));
    /// assert_eq!(there.after(true), Value::new(Outcome::Win, Some(5)));
    /// assert_eq!(there.after(false), Value::new(Outcome::Lose, Some(5)));
    /// ```
    pub fn after(self, same_player: bool) -> Value {
        let outcome = if same_player {
            self.outcome
        } else {
            self.outcome.flip()
        };
        Value::new(outcome, self.remoteness.map(|r| r.saturating_add(1)))
    }

    /// How many plies longer (positive) or shorter (negative) the game lasts
    /// after a move of value `self` (its value for the mover, see
    /// [`Value::after_move`]) than under best play from the position it is
    /// played in, of value `from`: 0 for a best move, positive for a slower
    /// win or tie, negative for a loss that comes sooner.
    ///
    /// `None` when the move changes the outcome (a tie thrown away into a
    /// loss, a win into a draw) or the outcome is a draw: plies of different
    /// outcomes do not compare.
    ///
    /// ```
    /// use retrograde::{Outcome, Value};
    /// let here = Value::new(Outcome::Win, Some(5));
    /// assert_eq!(Value::new(Outcome::Win, Some(9)).delta(here), Some(4));
    /// assert_eq!(Value::new(Outcome::Tie, Some(2)).delta(here), None);
    /// ```
    pub fn delta(self, from: Value) -> Option<i64> {
        match (self.remoteness, from.remoteness) {
            (Some(a), Some(b)) if self.outcome == from.outcome => Some(i64::from(a) - i64::from(b)),
            _ => None,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.remoteness {
            Some(r) => write!(f, "{} in {r}", self.outcome),
            None => write!(f, "{}", self.outcome),
        }
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
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<NoMoveRule, UnknownName> {
        match s {
            "lose" => Ok(NoMoveRule::Lose),
            "win" => Ok(NoMoveRule::Win),
            _ => Err(UnknownName {
                expected: "lose or win",
                found: s.to_string(),
            }),
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

    /// [`Labels::walk`], starting at vertex `v` (labels below it are skipped). `O(log L)`.
    pub fn walk_from(&self, v: u32) -> LabelWalk<'_> {
        let at = self.sorted.partition_point(|&(u, _)| u < v);
        LabelWalk {
            rest: &self.sorted[at..],
        }
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

    /// Checks that every label names one of `vertices` positions.
    ///
    /// # Errors
    /// [`SolveError::LabelOutOfRange`] naming the largest label.
    pub fn check(&self, vertices: usize) -> Result<(), SolveError> {
        match self.labels.max_vertex() {
            Some(v) if v as usize >= vertices => Err(SolveError::LabelOutOfRange {
                vertex: v,
                vertices: vertices as u64,
            }),
            _ => Ok(()),
        }
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
        for o in Outcome::ALL {
            assert_eq!(o.as_str().parse::<Outcome>().unwrap(), o);
            assert_eq!(Outcome::from_code(o as u8), Some(o));
        }
        assert_eq!(Outcome::from_code(3), None);
        assert_eq!(Outcome::from_code(5), None);
        let e = "WIN".parse::<Outcome>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "expected win, lose, tie or draw, found \"WIN\""
        );
    }
}
