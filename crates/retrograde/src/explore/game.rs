//! The StateGame trait: a game written from its rules alone.

use std::fmt;
use std::hash::Hash;

use crate::play::NotationError;
use crate::{NoMoveRule, Outcome, Player};

/// A two-player game over positions of the author's own type: forward moves
/// only, no numbering, no reverse moves, no position count.
///
/// Players alternate; every value is for the player to move. Implement
/// [`StateGame::starts`] and [`StateGame::for_each_move`]; the rest has
/// defaults.
pub trait StateGame: Sync {
    /// A position. Anything that can be compared and hashed; a small `Copy`
    /// type (a `u64` encoding of a board, say) is the fastest and leanest.
    type Position: Clone + Eq + Hash + Send + Sync + fmt::Debug;

    /// The positions play starts from (usually one).
    fn starts(&self) -> Vec<Self::Position>;

    /// Calls `f(q)` for every move `p -> q`, once per move: twice for two
    /// distinct moves to the same position; a pass is a move to `p` itself.
    /// Must depend on `p` only (it is called more than once).
    fn for_each_move<F: FnMut(Self::Position)>(&self, p: &Self::Position, f: F);

    /// The value of `p` for the player to move if the game is over there:
    /// `Win`, `Lose`, `Tie` (the game ends level), or `Draw` (declared drawn
    /// forever). `None` (the default) if play goes on; a position that goes
    /// on without moves gets [`StateGame::no_move`]. Terminal positions are
    /// not expanded.
    fn terminal(&self, _p: &Self::Position) -> Option<Outcome> {
        None
    }

    /// The canonical form of `p` under the game's symmetries: equivalent
    /// positions (a board and its mirror image) must map to the same one, and
    /// have the same value. The default: no symmetry.
    fn canonical(&self, p: Self::Position) -> Self::Position {
        p
    }

    /// How to show `p` to a person: a board, over several lines if need
    /// be (lines, a terminal's game). The default: its notation.
    fn show(&self, p: &Self::Position) -> String {
        self.notation(p)
    }

    /// `p` as one line of text, the game's notation: what
    /// [`StateGame::parse`] reads back, and what messages, databases' tools
    /// and the web explorer show. The default: its `Debug` form.
    fn notation(&self, p: &Self::Position) -> String {
        format!("{p:?}")
    }

    /// The position `text` writes in the game's notation, for the tools
    /// that are asked about positions (`query`, `play`, the web explorer).
    ///
    /// # Errors
    /// Text that is not a position; the default reads nothing
    /// ([`NotationFault::Unsupported`](crate::play::NotationFault::Unsupported)).
    fn parse(&self, text: &str) -> std::result::Result<Self::Position, NotationError> {
        Err(NotationError::new(
            "this game",
            text,
            crate::play::NotationFault::Unsupported,
        ))
    }

    /// The name of the move from `p` to `q` (`e2-e4`, `c3`): what players
    /// type to make it. The default: `q`'s notation.
    fn move_name(&self, _p: &Self::Position, q: &Self::Position) -> String {
        self.notation(q)
    }

    /// Who is to move at `p`, in the game's words (`white`, `X`). Values
    /// are always for this player.
    fn to_move(&self, _p: &Self::Position) -> String {
        "the player to move".into()
    }

    /// How the game ended at `p`, a position where it is over (terminal,
    /// or without moves), in the game's words: who won and why
    /// (`"checkmate: white wins"`, `"three in a row: X wins"`,
    /// `"the board is full: a tie"`). The tools show it when a game played
    /// reaches `p`. `None` (the default) where the game does not say, or
    /// play goes on.
    fn ending(&self, _p: &Self::Position) -> Option<String> {
        None
    }

    /// `p` as a board of places and pieces for the tools that draw it
    /// (the explorer page): see [`Drawing`](crate::drawing::Drawing).
    /// `None` (the default) draws the board from its text.
    fn drawing(&self, _p: &Self::Position) -> Option<crate::drawing::Drawing> {
        None
    }

    /// Who moves at `p`, for a game where a player may move twice in a
    /// row (dots and boxes: a player who completes a box moves again). A
    /// move keeps the turn when both its positions name the same player,
    /// and values stay those of the player to move (see
    /// [`GameGraph::owner`](crate::GameGraph::owner)). `None` (the default):
    /// every move passes the turn. [`StateGame::canonical`] must keep it.
    fn owner(&self, _p: &Self::Position) -> Option<Player> {
        None
    }

    /// A number for `p`, under which a [database](crate::db) keeps its
    /// record: different positions must get different numbers, and
    /// [`StateGame::decode`] must give `p` back. `None` (the default) when
    /// the game does not number its positions: it is solved, but not saved.
    ///
    /// A game that numbers its positions is also explored by number,
    /// faster and in less memory (see [`explore`](crate::explore)), and
    /// fastest when a move changes the number little: numbers spread
    /// evenly give ids in their own order, so that positions numbered
    /// close together are worked on together. It must then number every
    /// position its moves reach ([`Error::NotNumbered`] otherwise).
    ///
    /// [`Error::NotNumbered`]: crate::Error::NotNumbered
    fn encode(&self, _p: &Self::Position) -> Option<u64> {
        None
    }

    /// The position numbered `code` by [`StateGame::encode`]; `None` if no
    /// position has that number (or the game numbers none, the default).
    fn decode(&self, _code: u64) -> Option<Self::Position> {
        None
    }

    /// What a position without moves (and not terminal) is worth for the
    /// player to move: under the normal rule (the default) that player loses.
    fn no_move(&self) -> NoMoveRule {
        NoMoveRule::Lose
    }
}

impl<G: StateGame + ?Sized> StateGame for &G {
    type Position = G::Position;
    fn starts(&self) -> Vec<G::Position> {
        (**self).starts()
    }
    #[inline]
    fn for_each_move<F: FnMut(G::Position)>(&self, p: &G::Position, f: F) {
        (**self).for_each_move(p, f)
    }
    #[inline]
    fn terminal(&self, p: &G::Position) -> Option<Outcome> {
        (**self).terminal(p)
    }
    #[inline]
    fn canonical(&self, p: G::Position) -> G::Position {
        (**self).canonical(p)
    }
    fn show(&self, p: &G::Position) -> String {
        (**self).show(p)
    }
    fn notation(&self, p: &G::Position) -> String {
        (**self).notation(p)
    }
    fn parse(&self, text: &str) -> std::result::Result<G::Position, NotationError> {
        (**self).parse(text)
    }
    fn move_name(&self, p: &G::Position, q: &G::Position) -> String {
        (**self).move_name(p, q)
    }
    fn to_move(&self, p: &G::Position) -> String {
        (**self).to_move(p)
    }
    fn ending(&self, p: &G::Position) -> Option<String> {
        (**self).ending(p)
    }
    fn drawing(&self, p: &G::Position) -> Option<crate::drawing::Drawing> {
        (**self).drawing(p)
    }
    fn owner(&self, p: &G::Position) -> Option<Player> {
        (**self).owner(p)
    }
    fn encode(&self, p: &G::Position) -> Option<u64> {
        (**self).encode(p)
    }
    fn decode(&self, code: u64) -> Option<G::Position> {
        (**self).decode(code)
    }
    fn no_move(&self) -> NoMoveRule {
        (**self).no_move()
    }
}
