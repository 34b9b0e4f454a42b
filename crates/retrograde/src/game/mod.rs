//! Games generated on the fly: the [`Game`] trait a game author implements.
//!
//! A game numbers its positions densely, `0..position_count()`, and generates
//! the moves of a position, the *reverse* moves (the positions that can move
//! into it) and the value of terminal positions. Nothing else: no edge is ever
//! stored, so [`solve_game`](crate::solve_game) needs only about 3 bytes per position.
//!
//! - [`Game`]: the trait; [`AsGraph`] lets every solver and tool that reads a
//!   [`GameGraph`] run on a game.
//! - [`solve_game`](crate::solve_game): the lean solve (see [`solve_lean`](crate::solve::solve_lean)),
//!   returning a [`Solved`](crate::solve::Solved) that computes best moves on demand.
//! - [`materialise`]: the explicit graph of a small game, to compare or export.
//! - [`check_game`]: does every move have its reverse move, with multiplicity?
//!   Game authors get this wrong; run it in your tests.
//!
//! ```
//! use retrograde::game::{check_game, Game};
//! use retrograde::solve_game;
//! use retrograde::{Answers, Outcome, Rules};
//!
//! /// A token on squares 0..5; a move goes one or two squares left.
//! /// On square 0 the player to move cannot move and loses.
//! struct Slide;
//!
//! impl Game for Slide {
//!     fn position_count(&self) -> usize {
//!         5
//!     }
//!     fn for_each_move<F: FnMut(u32)>(&self, p: u32, mut f: F) {
//!         (1..=2).filter(|&k| k <= p).for_each(|k| f(p - k));
//!     }
//!     fn for_each_unmove<F: FnMut(u32)>(&self, p: u32, mut f: F) {
//!         (1..=2).filter(|&k| p + k < 5).for_each(|k| f(p + k));
//!     }
//! }
//!
//! assert!(check_game(&Slide, 0..5, 10).is_ok());
//! let s = solve_game(&Slide, &Rules::normal()).unwrap();
//! assert_eq!(s.outcome(3), Outcome::Lose); // multiples of 3 lose
//! assert_eq!(s.best_move(4), Some(3));
//! ```

mod check;

pub use check::{CheckReport, Mismatch, check_game, sample_positions};

use crate::error::Result;
use crate::graph::CsrBuilder;
use crate::{Csr, GameGraph, Labels, Outcome, Player, Rules, Successors};

/// A two-player game whose positions are the dense indices `0..position_count()`.
///
/// Players alternate; every value is for the player to move. Implement the
/// three required methods (and [`Game::terminal`] if some positions end the
/// game with a fixed value); the rest has defaults.
///
/// The contract, which [`check_game`] verifies:
/// - `for_each_move(p)` calls `f(q)` once for every move `p -> q` (twice for
///   two distinct moves to the same `q`; a pass is a move `p -> p`);
/// - `for_each_unmove(q)` calls `f(p)` once for every move `p -> q`: exactly
///   the reverse, with the same multiplicity;
/// - a terminal position's moves are ignored by the solvers, so it may
///   generate none (then its reverse moves must not list it either).
///
/// A position without moves and not terminal gets the value of
/// [`Rules::no_move`] (the player to move loses under the normal rule).
///
/// A game that needs no numbering of its own (most do not) is easier to
/// write as a [`StateGame`](crate::StateGame): forward moves only, over
/// positions of its own type.
pub trait Game {
    /// The number of positions; they are `0..position_count()`, at most
    /// `u32::MAX - 1` of them.
    fn position_count(&self) -> usize;

    /// Calls `f(q)` for every move `p -> q`.
    fn for_each_move<F: FnMut(u32)>(&self, p: u32, f: F);

    /// Calls `f(p)` for every move `p -> q` (the reverse moves of `q`).
    fn for_each_unmove<F: FnMut(u32)>(&self, q: u32, f: F);

    /// The value of `p` for the player to move if the game is over there
    /// (`Win`, `Lose`, `Tie`, or `Draw` for a position declared drawn
    /// forever); `None` (the default) if play goes on.
    fn terminal(&self, _p: u32) -> Option<Outcome> {
        None
    }

    /// Whether the index `p` is a position at all. A numbering that is dense
    /// but not exact (all boards of `3^9`, of which only some are reachable
    /// or legal) leaves indices unused: they are never decided, never counted,
    /// never written. Moves must lead to positions; reverse moves may list
    /// indices that are not (they are ignored). The default: every index is a
    /// position.
    fn is_position(&self, _p: u32) -> bool {
        true
    }

    /// Who moves at `p`, for a game where a player may move twice in a
    /// row; `None` (the default) for one that alternates strictly. See
    /// [`GameGraph::owner`].
    #[inline]
    fn owner(&self, _p: u32) -> Option<Player> {
        None
    }

    /// How to show `p` to a person: a board, over several lines if need be
    /// (diagnostics, lines, a terminal's game). The default: its notation.
    fn show(&self, p: u32) -> String {
        self.notation(p)
    }

    /// The positions play starts from: the tools play and answer from the
    /// start when there is one. The default: none (every position is as
    /// good a start as any).
    fn starts(&self) -> Vec<u32> {
        Vec::new()
    }

    /// `p` as one line of text, the game's notation: what [`Game::parse`]
    /// reads back, and what the tools show. The default: its number.
    fn notation(&self, p: u32) -> String {
        p.to_string()
    }

    /// The position `text` writes in the game's notation, for the tools
    /// that are asked about positions (`query`, `play`, the web explorer).
    ///
    /// # Errors
    /// Text that is not a position. The default reads a position's number
    /// (what the default [`Game::notation`] writes).
    fn parse(&self, text: &str) -> std::result::Result<u32, crate::play::NotationError> {
        text.trim()
            .parse::<u32>()
            .ok()
            .filter(|&p| (p as usize) < self.position_count() && self.is_position(p))
            .ok_or_else(|| {
                crate::play::NotationError::invalid(
                    "this game",
                    text,
                    format!(
                        "expected a position's number, below {}",
                        self.position_count()
                    ),
                )
            })
    }

    /// The name of the move from `p` to `q` (`e2-e4`, `c3`): what players
    /// type to make it. The default: `q`'s notation.
    fn move_name(&self, _p: u32, q: u32) -> String {
        self.notation(q)
    }

    /// Who is to move at `p`, in the game's words (`white`, `X`). Values
    /// are always for this player.
    fn to_move(&self, _p: u32) -> String {
        "the player to move".into()
    }

    /// How the game ended at `p`, a position where it is over (terminal,
    /// or without moves), in the game's words: who won and why
    /// (`"checkmate: white wins"`, `"three in a row: X wins"`,
    /// `"the board is full: a tie"`). The tools show it when a game played
    /// reaches `p`. `None` (the default) where the game does not say, or
    /// play goes on.
    fn ending(&self, _p: u32) -> Option<String> {
        None
    }

    /// `p` as a board of places and pieces for the tools that draw it
    /// (the explorer page): see [`Drawing`](crate::drawing::Drawing).
    /// `None` (the default) draws the board from its text.
    fn drawing(&self, _p: u32) -> Option<crate::drawing::Drawing> {
        None
    }

    /// The position that stands for `p` under the game's symmetries (a
    /// board and its mirror image have the same value): the tools look up
    /// its record. The default: `p` itself.
    fn canonical(&self, p: u32) -> u32 {
        p
    }

    /// What a position without moves (and not terminal) is worth for the
    /// player to move: under the normal rule (the default) that player loses.
    fn no_move(&self) -> crate::NoMoveRule {
        crate::NoMoveRule::Lose
    }

    /// The number of moves of `p`. The default counts [`Game::for_each_move`];
    /// override it if the game knows faster.
    fn out_degree(&self, p: u32) -> u32 {
        let mut d = 0u32;
        self.for_each_move(p, |_| d += 1);
        d
    }

    /// [`Game::terminal`], and [`Game::out_degree`] if `p` is not terminal
    /// (0 if it is), which a solve asks of every position. The default calls
    /// the two; override it if both come from the same costly work (such as
    /// unnumbering `p`).
    fn terminal_and_degree(&self, p: u32) -> (Option<Outcome>, u32) {
        match self.terminal(p) {
            Some(o) => (Some(o), 0),
            None => (None, self.out_degree(p)),
        }
    }

    /// This game seen as a [`GameGraph`] and [`Successors`], for every solver
    /// and tool that reads graphs.
    fn as_graph(&self) -> AsGraph<&Self> {
        AsGraph(self)
    }
}

impl<G: Game + ?Sized> Game for &G {
    #[inline]
    fn position_count(&self) -> usize {
        (**self).position_count()
    }
    #[inline]
    fn for_each_move<F: FnMut(u32)>(&self, p: u32, f: F) {
        (**self).for_each_move(p, f)
    }
    #[inline]
    fn for_each_unmove<F: FnMut(u32)>(&self, q: u32, f: F) {
        (**self).for_each_unmove(q, f)
    }
    #[inline]
    fn terminal(&self, p: u32) -> Option<Outcome> {
        (**self).terminal(p)
    }
    #[inline]
    fn out_degree(&self, p: u32) -> u32 {
        (**self).out_degree(p)
    }
    #[inline]
    fn is_position(&self, p: u32) -> bool {
        (**self).is_position(p)
    }
    #[inline]
    fn terminal_and_degree(&self, p: u32) -> (Option<Outcome>, u32) {
        (**self).terminal_and_degree(p)
    }
    #[inline]
    fn owner(&self, p: u32) -> Option<Player> {
        (**self).owner(p)
    }
    fn show(&self, p: u32) -> String {
        (**self).show(p)
    }
    fn starts(&self) -> Vec<u32> {
        (**self).starts()
    }
    fn notation(&self, p: u32) -> String {
        (**self).notation(p)
    }
    fn parse(&self, text: &str) -> std::result::Result<u32, crate::play::NotationError> {
        (**self).parse(text)
    }
    fn move_name(&self, p: u32, q: u32) -> String {
        (**self).move_name(p, q)
    }
    fn to_move(&self, p: u32) -> String {
        (**self).to_move(p)
    }
    fn ending(&self, p: u32) -> Option<String> {
        (**self).ending(p)
    }
    fn drawing(&self, p: u32) -> Option<crate::drawing::Drawing> {
        (**self).drawing(p)
    }
    fn canonical(&self, p: u32) -> u32 {
        (**self).canonical(p)
    }
    fn no_move(&self) -> crate::NoMoveRule {
        (**self).no_move()
    }
}

/// A [`Game`] as a [`GameGraph`] and [`Successors`]: moves are edges, reverse
/// moves are predecessors, the game's terminal values are the graph's.
///
/// A wrapper rather than a blanket implementation, which would clash with the
/// implementations for references.
#[derive(Clone, Copy, Debug)]
pub struct AsGraph<G>(pub G);

impl<G: Game> GameGraph for AsGraph<G> {
    #[inline]
    fn vertex_count(&self) -> usize {
        self.0.position_count()
    }
    #[inline]
    fn out_degree(&self, v: u32) -> u32 {
        self.0.out_degree(v)
    }
    #[inline]
    fn for_each_predecessor<F: FnMut(u32)>(&self, v: u32, f: F) {
        self.0.for_each_unmove(v, f)
    }
    #[inline]
    fn terminal(&self, v: u32) -> Option<Outcome> {
        self.0.terminal(v)
    }
    #[inline]
    fn is_position(&self, v: u32) -> bool {
        self.0.is_position(v)
    }
    #[inline]
    fn terminal_and_degree(&self, v: u32) -> (Option<Outcome>, u32) {
        self.0.terminal_and_degree(v)
    }
    #[inline]
    fn owner(&self, v: u32) -> Option<Player> {
        self.0.owner(v)
    }
}

impl<G: Game> Successors for AsGraph<G> {
    #[inline]
    fn for_each_successor<F: FnMut(u32)>(&self, v: u32, f: F) {
        self.0.for_each_move(v, f)
    }
}

/// A game written out as an explicit graph, see [`materialise`].
#[derive(Clone, Debug)]
pub struct Materialised {
    /// Every move as an edge (reverse adjacency only: call
    /// [`Csr::with_successors`] for forward access).
    pub graph: Csr,
    /// The game's terminal positions with their values.
    pub labels: Labels,
}

impl Materialised {
    /// `rules` with the game's terminal values as labels: solving
    /// [`Materialised::graph`] under them solves the game.
    pub fn rules(&self, rules: &Rules) -> Rules {
        let mut pairs: Vec<_> = self.labels.iter().collect();
        // The game's own values come first so that explicit labels win.
        pairs.extend(rules.labels.iter());
        Rules {
            no_move: rules.no_move,
            labels: Labels::from_pairs(pairs),
        }
    }
}

/// Writes `game` out as an explicit graph: every move an edge (the moves of
/// terminal positions too, as the game generates them), and its terminal
/// positions as labels. Indices that are not positions become vertices
/// without moves or labels. For small games: to compare engines, or to export.
///
/// `builder` sets the memory limit; its vertex count is the game's.
///
/// # Complexity
/// Time **O(V + E)**, moves generated twice (count, then place). Memory: the
/// graph, `12V + 4E` bytes (the same again with [`Csr::with_successors`]),
/// plus the labels.
///
/// # Errors
/// If the graph would exceed `builder`'s memory limit, or a move leads outside
/// the game.
///
/// ```
/// use retrograde::game::{materialise, Game};
/// use retrograde::{CsrBuilder, GameGraph};
/// struct Ring; // 3 positions in a ring, one move each
/// impl Game for Ring {
///     fn position_count(&self) -> usize { 3 }
///     fn for_each_move<F: FnMut(u32)>(&self, p: u32, mut f: F) { f((p + 1) % 3) }
///     fn for_each_unmove<F: FnMut(u32)>(&self, q: u32, mut f: F) { f((q + 2) % 3) }
/// }
/// let m = materialise(&Ring, CsrBuilder::new()).unwrap();
/// assert_eq!((m.graph.vertex_count(), m.graph.edge_count()), (3, 3));
/// assert_eq!(m.graph.with_successors().successors(2), &[0]);
/// ```
pub fn materialise<G: Game + Sync + ?Sized>(game: &G, builder: CsrBuilder) -> Result<Materialised> {
    let n = game.position_count();
    let graph = builder
        .vertices(n)
        .build(&crate::graph::Forward(&game.as_graph()))?;
    let labels = Labels::from_pairs(
        (0..n as u32)
            .filter(|&p| game.is_position(p))
            .filter_map(|p| game.terminal(p).map(|o| (p, o)))
            .collect(),
    );
    Ok(Materialised { graph, labels })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Answers;
    use crate::solve::solve;
    use crate::solve_game;

    /// Piles of 0..=N counters: take 1 or 2, or put one back below N.
    struct Pile(u32);

    impl Game for Pile {
        fn position_count(&self) -> usize {
            self.0 as usize + 1
        }
        fn for_each_move<F: FnMut(u32)>(&self, p: u32, mut f: F) {
            (1..=2).filter(|&k| k <= p).for_each(|k| f(p - k));
            if p < self.0 {
                f(p + 1);
            }
        }
        fn for_each_unmove<F: FnMut(u32)>(&self, q: u32, mut f: F) {
            (1..=2).filter(|&k| q + k <= self.0).for_each(|k| f(q + k));
            if q >= 1 {
                f(q - 1);
            }
        }
        fn terminal(&self, p: u32) -> Option<Outcome> {
            (p == 5).then_some(Outcome::Win)
        }
    }

    #[test]
    fn solve_game_matches_solving_the_materialised_graph() {
        let game = Pile(9);
        assert!(check_game(&game, 0..10, 5).is_ok());
        let m = materialise(&game, CsrBuilder::new()).unwrap();
        assert_eq!(m.labels.iter().collect::<Vec<_>>(), [(5, Outcome::Win)]);
        for rules in [Rules::normal(), Rules::misere()] {
            let full = solve(&m.graph, &m.rules(&rules)).unwrap();
            let lean = solve_game(&game, &rules).unwrap();
            for p in 0..10 {
                assert_eq!(lean.best_move(p), full.best_move(p));
            }
            assert_eq!(lean.clone().into_solution(), full);
        }
    }

    /// Even squares 0..=8 only: a move goes 2 or 4 squares down. Odd indices
    /// are no positions; the reverse moves also name them (harmlessly).
    struct Evens;

    impl Game for Evens {
        fn position_count(&self) -> usize {
            9
        }
        fn for_each_move<F: FnMut(u32)>(&self, p: u32, mut f: F) {
            [2, 4].iter().filter(|&&k| k <= p).for_each(|&k| f(p - k));
        }
        fn for_each_unmove<F: FnMut(u32)>(&self, q: u32, mut f: F) {
            [2, 4]
                .iter()
                .filter(|&&k| q + k < 9)
                .for_each(|&k| f(q + k));
            if q + 1 < 9 {
                f(q + 1);
            }
        }
        fn is_position(&self, p: u32) -> bool {
            p.is_multiple_of(2)
        }
        fn show(&self, p: u32) -> String {
            format!("square {p}")
        }
    }

    #[test]
    fn indices_that_are_no_position_are_left_out_of_everything() {
        assert!(check_game(&Evens, 0..9, 5).is_ok());
        let s = solve_game(&Evens, &Rules::normal()).unwrap();
        let sum = s.summary();
        assert_eq!(sum.positions, 5);
        assert_eq!(sum.wins + sum.losses + sum.ties + sum.draws, 5);
        assert_eq!(s.value(3), None);
        assert_eq!(s.best_move(3), None);
        assert_eq!(s.value(6).map(|v| v.outcome), Some(Outcome::Lose));
        let mut file = Vec::new();
        crate::io::solution::write(&mut file, &s).unwrap();
        let text = String::from_utf8(file).unwrap();
        assert_eq!(text.lines().count(), 5, "{text}");
        assert!(
            text.lines()
                .all(|l| l.split('\t').next().unwrap().parse::<u32>().unwrap() % 2 == 0)
        );
        assert!(crate::verify(s.graph(), s.rules(), &s, 5).unwrap().is_ok());
    }

    #[test]
    fn check_game_shows_positions_in_the_game_s_terms() {
        struct Lossy;
        impl Game for Lossy {
            fn position_count(&self) -> usize {
                Evens.position_count()
            }
            fn for_each_move<F: FnMut(u32)>(&self, p: u32, f: F) {
                Evens.for_each_move(p, f)
            }
            fn for_each_unmove<F: FnMut(u32)>(&self, q: u32, mut f: F) {
                // Forgets that 6 moves to 4.
                Evens.for_each_unmove(q, |p| {
                    if (p, q) != (6, 4) {
                        f(p)
                    }
                })
            }
            fn is_position(&self, p: u32) -> bool {
                Evens.is_position(p)
            }
            fn show(&self, p: u32) -> String {
                Evens.show(p)
            }
        }
        let r = check_game(&Lossy, 0..9, 5);
        assert_eq!(r.total, 1);
        let text = r.show(&Lossy).to_string();
        assert!(
            text.contains(
                "move square 6 -> square 4: generated 1 time(s) by the moves of square 6, \
                           but square 6 is listed 0 time(s) among the reverse moves of square 4: \
                           the reverse moves miss 1"
            ),
            "{text}"
        );
    }

    #[test]
    fn materialise_respects_the_memory_limit() {
        let e = materialise(&Pile(1000), CsrBuilder::new().memory_limit(100)).unwrap_err();
        assert!(matches!(e, crate::Error::TooLarge { .. }), "{e}");
    }
}
