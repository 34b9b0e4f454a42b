//! A board described for the tools that draw it: places, the lines between
//! them, and what stands on each place.
//!
//! A game gives a [`Drawing`] of a position through
//! [`StateGame::drawing`](crate::StateGame::drawing) (or
//! [`Game::drawing`](crate::Game::drawing),
//! [`Playable::drawing`](crate::play::Playable::drawing)), and the explorer
//! page (`retrograde serve`) draws it: no front-end code of the game's own.
//! Places are points (a Nine Men's Morris board, any graph-shaped board) or
//! squares (a grid), at coordinates of the game's choosing, one unit apart
//! where neighbours are; a piece is a stone of its player's colour with an
//! optional symbol on it. A move is played by clicking the places it
//! changes, as on every board the page draws.
//!
//! ```
//! use retrograde::drawing::{Drawing, Piece};
//! use retrograde::Player;
//!
//! // Three points in a row, lines between, a white stone on the middle one.
//! let d = Drawing::new()
//!     .point("a", 0.0, 0.0)
//!     .point("b", 1.0, 0.0)
//!     .point("c", 2.0, 0.0)
//!     .line(0, 1)
//!     .line(1, 2)
//!     .piece(1, Piece::stone(Player::First, "white stone"));
//! let on: Vec<(&str, &str)> = d.pieces().map(|(at, p)| (at.name.as_str(), p.name.as_str())).collect();
//! assert_eq!(on, [("b", "white stone")]);
//! assert_eq!(d.lines(), &[[0, 1], [1, 2]]);
//! ```

use crate::Player;

/// What a place looks like.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Shape {
    /// A point where lines meet (Nine Men's Morris).
    Point,
    /// A square of the board's grid, one unit a side (a chessboard's).
    Square,
    /// A line one unit long across, centred on the place: a side between
    /// two dots (dots and boxes), drawn when a piece is on it.
    Across,
    /// A line one unit long down, centred on the place.
    Down,
    /// A place off the board where a piece waits (a hand in shōgi), drawn
    /// as a faint ring.
    Slot,
}

/// A piece on a place: a stone of its player's colour (the first player's
/// light, the second's dark; a grey one for a piece of no one's), with a
/// short symbol on it if the game has several kinds of piece. On a line
/// ([`Shape::Across`], [`Shape::Down`]) a piece is the line drawn; on a
/// square, a piece of no one's fills it (a box taken).
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Piece {
    /// Whose piece it is, if anyone's.
    #[serde(serialize_with = "player_name")]
    pub player: Option<Player>,
    /// What is written on the stone (`""`: nothing, a plain stone; a letter
    /// or two: the kind of piece).
    pub symbol: String,
    /// The piece in words, for a screen reader and a tooltip
    /// (`"white stone"`, `"Sente's lion"`).
    pub name: String,
}

fn player_name<S: serde::Serializer>(p: &Option<Player>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(Piece::player_word(*p))
}

impl Piece {
    /// A plain stone of `player`'s colour.
    pub fn stone(player: Player, name: impl Into<String>) -> Piece {
        Piece {
            player: Some(player),
            symbol: String::new(),
            name: name.into(),
        }
    }

    /// A stone of `player`'s colour marked `symbol`.
    pub fn marked(player: Player, symbol: impl Into<String>, name: impl Into<String>) -> Piece {
        Piece {
            player: Some(player),
            symbol: symbol.into(),
            name: name.into(),
        }
    }

    /// A piece of no one's: a line drawn, a box taken, a wall.
    pub fn neutral(name: impl Into<String>) -> Piece {
        Piece {
            player: None,
            symbol: String::new(),
            name: name.into(),
        }
    }

    /// `"first"`, `"second"` or `"none"`: how a drawing names a piece's
    /// player.
    fn player_word(player: Option<Player>) -> &'static str {
        match player {
            Some(Player::First) => "first",
            Some(Player::Second) => "second",
            None => "none",
        }
    }
}

/// A place on the board, where a piece may stand.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Place {
    /// Its name in the game's words (`"a7"`), shown to a screen reader and
    /// in the moves' places.
    pub name: String,
    /// Its column, from the left, in units (neighbours one apart).
    pub x: f32,
    /// Its row, from the top, in units.
    pub y: f32,
    /// A point or a square.
    pub shape: Shape,
    /// What stands there, if anything.
    pub piece: Option<Piece>,
}

/// A position's board: its places in the game's order, the lines drawn
/// between them, what stands where, and lines of text under it (stones in
/// hand, a score). Built with [`Drawing::new`] and its chained adders.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Drawing {
    places: Vec<Place>,
    lines: Vec<[usize; 2]>,
    notes: Vec<String>,
}

impl Drawing {
    /// A drawing with nothing on it.
    pub fn new() -> Drawing {
        Drawing::default()
    }

    /// Adds a point named `name` at column `x`, row `y`; it is place
    /// number `self.places().len()` before the call.
    #[must_use]
    pub fn point(self, name: impl Into<String>, x: f32, y: f32) -> Drawing {
        self.place(name, x, y, Shape::Point)
    }

    /// Adds a square named `name` centred at column `x`, row `y`.
    #[must_use]
    pub fn square(self, name: impl Into<String>, x: f32, y: f32) -> Drawing {
        self.place(name, x, y, Shape::Square)
    }

    /// Adds a place of any [`Shape`] named `name` at column `x`, row `y`.
    #[must_use]
    pub fn place(mut self, name: impl Into<String>, x: f32, y: f32, shape: Shape) -> Drawing {
        self.places.push(Place {
            name: name.into(),
            x,
            y,
            shape,
            piece: None,
        });
        self
    }

    /// Adds a line between places `a` and `b` (their numbers in the order
    /// they were added). A line to a place not added is left out.
    #[must_use]
    pub fn line(mut self, a: usize, b: usize) -> Drawing {
        if a < self.places.len() && b < self.places.len() {
            self.lines.push([a, b]);
        }
        self
    }

    /// Puts `piece` on place `at`; nothing if there is no such place.
    #[must_use]
    pub fn piece(mut self, at: usize, piece: Piece) -> Drawing {
        if let Some(p) = self.places.get_mut(at) {
            p.piece = Some(piece);
        }
        self
    }

    /// Adds a line of text under the board.
    #[must_use]
    pub fn note(mut self, text: impl Into<String>) -> Drawing {
        self.notes.push(text.into());
        self
    }

    /// The places, in the order they were added.
    pub fn places(&self) -> &[Place] {
        &self.places
    }

    /// The pieces on the board, each with its place, in the places' order.
    pub fn pieces(&self) -> impl Iterator<Item = (&Place, &Piece)> {
        self.places
            .iter()
            .filter_map(|place| place.piece.as_ref().map(|piece| (place, piece)))
    }

    /// The lines, as pairs of place numbers.
    pub fn lines(&self) -> &[[usize; 2]] {
        &self.lines
    }

    /// The lines of text under the board.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_pieces_to_missing_places_are_left_out() {
        let d = Drawing::new()
            .square("a1", 0.0, 0.0)
            .line(0, 1)
            .piece(3, Piece::stone(Player::Second, "black stone"));
        assert!(d.lines().is_empty());
        assert!(d.places()[0].piece.is_none());
    }

    #[test]
    fn drawings_serialize_with_named_players_and_shapes() {
        let d = Drawing::new()
            .point("d7", 3.0, 0.0)
            .piece(0, Piece::marked(Player::Second, "L", "Gote's lion"))
            .place("h0,0", 0.5, 0.0, Shape::Across)
            .piece(1, Piece::neutral("a line"))
            .note("in hand: none");
        let json = serde_json::to_string(&d).unwrap();
        assert_eq!(
            json,
            r#"{"places":[{"name":"d7","x":3.0,"y":0.0,"shape":"point","piece":{"player":"second","symbol":"L","name":"Gote's lion"}},{"name":"h0,0","x":0.5,"y":0.0,"shape":"across","piece":{"player":"none","symbol":"","name":"a line"}}],"lines":[],"notes":["in hand: none"]}"#
        );
    }
}
