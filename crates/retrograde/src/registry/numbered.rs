//! A game that numbers its positions densely and gives un-moves, as the
//! tools play, solve and check it.

use super::{Checked, GameSolution, How, RunError, SmallGraph, Solvable, run};
use crate::Game;
use crate::db::{Database, Meta};
use crate::play::{NotationError, NotationFault, Playable};

/// A [`Game`] made [`Playable`] and [`Solvable`]: a position is its number;
/// its notation, board, move names and start are the game's own
/// ([`Game::notation`], [`Game::parse`], [`Game::show`],
/// [`Game::move_name`], [`Game::starts`]); its key in a database is the
/// number of [`Game::canonical`]. Solved by the lean engine, about 3 bytes
/// a position, without exploring.
///
/// ```
/// use retrograde::play::Playable;
/// use retrograde::registry::Numbered;
/// use retrograde::Game;
///
/// /// A token on squares 0..5 moves one or two squares left.
/// struct Slide;
/// impl Game for Slide {
///     fn position_count(&self) -> usize { 5 }
///     fn for_each_move<F: FnMut(u32)>(&self, p: u32, mut f: F) {
///         (1..=2).filter(|&k| k <= p).for_each(|k| f(p - k));
///     }
///     fn for_each_unmove<F: FnMut(u32)>(&self, p: u32, mut f: F) {
///         (1..=2).filter(|&k| p + k < 5).for_each(|k| f(p + k));
///     }
///     fn starts(&self) -> Vec<u32> { vec![4] }
///     fn notation(&self, p: u32) -> String { format!("square {p}") }
/// }
///
/// let slide = Numbered::new(Slide, retrograde::db::Meta::new("slide"));
/// assert_eq!(slide.start(), Some(4));
/// let names: Vec<String> = slide.moves(4).into_iter().map(|(name, _)| name).collect();
/// assert_eq!(names, ["square 3", "square 2"]);
/// assert_eq!(slide.parse("2").ok(), Some(2));
/// ```
#[derive(Debug)]
pub struct Numbered<G> {
    game: G,
    meta: Meta,
}

impl<G: Game> Numbered<G> {
    /// `game`, its databases' headers saying `meta`.
    pub fn new(game: G, meta: Meta) -> Numbered<G> {
        Numbered { game, meta }
    }

    /// The game.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// Position `p`, if it is one.
    fn at(&self, p: u64) -> Option<u32> {
        u32::try_from(p)
            .ok()
            .filter(|&p| (p as usize) < self.game.position_count() && self.game.is_position(p))
    }

    /// The start, if the game has one.
    fn start_position(&self) -> Option<u32> {
        match &self.game.starts()[..] {
            [s] => Some(*s),
            _ => None,
        }
    }

    fn rules(&self) -> crate::Rules {
        crate::Rules {
            no_move: self.game.no_move(),
            labels: crate::Labels::default(),
        }
    }
}

impl<G: Game + Sync> Playable for Numbered<G> {
    fn meta(&self) -> Meta {
        self.meta.clone()
    }

    fn start(&self) -> Option<u64> {
        self.start_position().map(u64::from)
    }

    fn parse(&self, text: &str) -> Result<u64, NotationError> {
        let p = self.game.parse(text).map_err(|e| NotationError {
            game: crate::play::describe(&self.meta),
            ..e
        })?;
        self.at(u64::from(p)).map(u64::from).ok_or_else(|| {
            NotationError::new(
                crate::play::describe(&self.meta),
                text,
                NotationFault::Unnumbered,
            )
        })
    }

    fn notation(&self, p: u64) -> String {
        self.at(p)
            .map_or_else(|| format!("no position ({p})"), |q| self.game.notation(q))
    }

    /// [`Game::show`], ended by a line break.
    fn board(&self, p: u64) -> String {
        let mut board = self
            .at(p)
            .map_or_else(|| format!("no position ({p})"), |q| self.game.show(q));
        if !board.ends_with('\n') {
            board.push('\n');
        }
        board
    }

    fn to_move(&self, p: u64) -> String {
        self.at(p)
            .map_or_else(|| "nobody".into(), |q| self.game.to_move(q))
    }

    fn owner(&self, p: u64) -> Option<crate::Player> {
        self.game.owner(self.at(p)?)
    }

    fn moves(&self, p: u64) -> Vec<(String, u64)> {
        let Some(here) = self.at(p) else {
            return Vec::new();
        };
        if self.game.terminal(here).is_some() {
            return Vec::new();
        }
        let mut out = Vec::new();
        self.game.for_each_move(here, |q| {
            out.push((self.game.move_name(here, q), u64::from(q)));
        });
        out
    }

    fn key(&self, p: u64) -> Option<u64> {
        self.at(p).map(|p| u64::from(self.game.canonical(p)))
    }
}

impl<G: Game + Sync + Send> Solvable for Numbered<G> {
    fn solve(&self, how: &How<'_>) -> Result<Box<dyn GameSolution + '_>, RunError> {
        let start = self.start_position();
        Ok(Box::new(run::solve_dense(
            &self.game,
            &self.rules(),
            how,
            None,
            start,
        )?))
    }

    fn check(&self, db: &Database, how: &How<'_>, keep: usize) -> Result<Checked, RunError> {
        run::check_dense(&self.game, &self.rules(), db, how, None, keep)
    }

    fn lays_out(&self) -> bool {
        true
    }

    /// The game's graph whole, where it has no more than `limit` positions.
    fn small_graph(&self, limit: usize) -> Result<Option<SmallGraph>, RunError> {
        let n = self.game.position_count();
        if n > limit {
            return Ok(None);
        }
        let rules = self.rules();
        let m = crate::game::materialise(&self.game, crate::CsrBuilder::new())?;
        let owners = (0..n as u32)
            .any(|p| self.game.owner(p).is_some())
            .then(|| {
                (0..n as u32)
                    .map(|p| self.game.owner(p).unwrap_or(crate::Player::First))
                    .collect()
            });
        Ok(Some(SmallGraph {
            labels: (0..n as u32).map(|p| self.game.notation(p)).collect(),
            edges: m.graph.edges().collect(),
            rules: m.rules(&rules),
            owners,
        }))
    }
}
