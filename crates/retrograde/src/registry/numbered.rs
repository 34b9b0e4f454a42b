//! A game that numbers its positions densely and gives un-moves, as the
//! tools play, solve and check it.

use super::{Checked, GameSolution, How, RunError, SmallGraph, Solvable, States, run};
use crate::db::{Database, Meta};
use crate::play::{NotationError, Playable};
use crate::{Game, Outcome, Player, StateGame};

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
    /// The game seen from the first rung: played as every game is.
    play: States<Rung1<G>>,
}

impl<G: Game + Sync> Numbered<G> {
    /// `game`, its databases' headers saying `meta`.
    pub fn new(game: G, meta: Meta) -> Numbered<G> {
        Numbered {
            play: States::new(Rung1(game), meta),
        }
    }

    /// The game.
    pub fn game(&self) -> &G {
        &self.play.game().0
    }

    /// The start, if the game has one.
    fn start_position(&self) -> Option<u32> {
        match &self.game().starts()[..] {
            [s] => Some(*s),
            _ => None,
        }
    }

    fn rules(&self) -> crate::Rules {
        crate::Rules {
            no_move: self.game().no_move(),
            labels: crate::Labels::default(),
        }
    }
}

/// A numbered game seen from the first rung of the ladder: its positions
/// are its numbers, each numbered by itself. [`Numbered`] plays it through
/// [`States`], so that how a game is played is written once.
#[derive(Debug)]
struct Rung1<G>(G);

impl<G: Game + Sync> StateGame for Rung1<G> {
    type Position = u32;
    fn starts(&self) -> Vec<u32> {
        self.0.starts()
    }
    fn for_each_move<F: FnMut(u32)>(&self, p: &u32, f: F) {
        self.0.for_each_move(*p, f)
    }
    fn terminal(&self, p: &u32) -> Option<Outcome> {
        self.0.terminal(*p)
    }
    fn canonical(&self, p: u32) -> u32 {
        self.0.canonical(p)
    }
    fn show(&self, p: &u32) -> String {
        self.0.show(*p)
    }
    fn notation(&self, p: &u32) -> String {
        self.0.notation(*p)
    }
    fn parse(&self, text: &str) -> Result<u32, NotationError> {
        self.0.parse(text)
    }
    fn move_name(&self, p: &u32, q: &u32) -> String {
        self.0.move_name(*p, *q)
    }
    fn to_move(&self, p: &u32) -> String {
        self.0.to_move(*p)
    }
    fn ending(&self, p: &u32) -> Option<String> {
        self.0.ending(*p)
    }
    fn drawing(&self, p: &u32) -> Option<crate::drawing::Drawing> {
        self.0.drawing(*p)
    }
    fn owner(&self, p: &u32) -> Option<Player> {
        self.0.owner(*p)
    }
    /// Its number, if it is a position.
    fn encode(&self, p: &u32) -> Option<u64> {
        ((*p as usize) < self.0.position_count() && self.0.is_position(*p)).then_some(u64::from(*p))
    }
    fn decode(&self, code: u64) -> Option<u32> {
        let p = u32::try_from(code).ok()?;
        self.encode(&p).map(|_| p)
    }
    fn no_move(&self) -> crate::NoMoveRule {
        self.0.no_move()
    }
}

/// As [`States`] plays every game.
impl<G: Game + Sync> Playable for Numbered<G> {
    fn meta(&self) -> Meta {
        self.play.meta()
    }
    fn start(&self) -> Option<u64> {
        self.play.start()
    }
    fn parse(&self, text: &str) -> Result<u64, NotationError> {
        self.play.parse(text)
    }
    fn notation(&self, p: u64) -> String {
        self.play.notation(p)
    }
    fn board(&self, p: u64) -> String {
        self.play.board(p)
    }
    fn to_move(&self, p: u64) -> String {
        self.play.to_move(p)
    }
    fn ending(&self, p: u64) -> Option<String> {
        self.play.ending(p)
    }
    fn drawing(&self, p: u64) -> Option<crate::drawing::Drawing> {
        self.play.drawing(p)
    }
    fn owner(&self, p: u64) -> Option<Player> {
        self.play.owner(p)
    }
    fn moves(&self, p: u64) -> Vec<(String, u64)> {
        self.play.moves(p)
    }
    fn key(&self, p: u64) -> Option<u64> {
        self.play.key(p)
    }
}

impl<G: Game + Sync + Send> Solvable for Numbered<G> {
    fn solve(&self, how: &How<'_>) -> Result<Box<dyn GameSolution + '_>, RunError> {
        let start = self.start_position();
        Ok(Box::new(run::solve_dense(
            self.game(),
            &self.rules(),
            how,
            None,
            start,
        )?))
    }

    fn check(&self, db: &Database, how: &How<'_>, keep: usize) -> Result<Checked, RunError> {
        run::check_dense(self.game(), &self.rules(), db, how, None, keep)
    }

    fn lays_out(&self) -> bool {
        true
    }

    /// The game's graph whole, where it has no more than `limit` positions.
    fn small_graph(&self, limit: usize) -> Result<Option<SmallGraph>, RunError> {
        let n = self.game().position_count();
        if n > limit {
            return Ok(None);
        }
        let rules = self.rules();
        let m = crate::game::materialise(self.game(), crate::CsrBuilder::new())?;
        let owners = (0..n as u32)
            .any(|p| self.game().owner(p).is_some())
            .then(|| {
                (0..n as u32)
                    .map(|p| self.game().owner(p).unwrap_or(crate::Player::First))
                    .collect()
            });
        Ok(Some(SmallGraph {
            labels: (0..n as u32).map(|p| self.game().notation(p)).collect(),
            edges: m.graph.edges().collect(),
            rules: m.rules(&rules),
            owners,
        }))
    }
}
