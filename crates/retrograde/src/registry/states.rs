//! A game written from its rules, as the tools play, solve and check it.

use super::{Checked, GameSolution, How, RunError, SmallGraph, Solvable, run};
use crate::StateGame;
use crate::db::{Database, Meta};
use crate::play::{NotationError, NotationFault, Playable};

/// A [`StateGame`] that numbers its positions ([`StateGame::encode`] and
/// [`StateGame::decode`]), made [`Playable`] and [`Solvable`]: a position
/// is its number as played, before [`StateGame::canonical`]; its key in a
/// database is the number of its canonical form.
///
/// ```
/// use retrograde::play::Playable;
/// use retrograde::registry::States;
/// use retrograde::StateGame;
///
/// struct Pile;
/// impl StateGame for Pile {
///     type Position = u8;
///     fn starts(&self) -> Vec<u8> { vec![5] }
///     fn for_each_move<F: FnMut(u8)>(&self, p: &u8, mut f: F) {
///         (1..=2).filter(|&k| k <= *p).for_each(|k| f(p - k));
///     }
///     fn encode(&self, p: &u8) -> Option<u64> { Some(u64::from(*p)) }
///     fn decode(&self, c: u64) -> Option<u8> { u8::try_from(c).ok().filter(|&p| p <= 5) }
///     fn parse(&self, text: &str) -> Result<u8, retrograde::play::NotationError> {
///         text.trim().parse().map_err(|_| retrograde::play::NotationError::new(
///             "pile", text, retrograde::play::NotationFault::Invalid("expected a number".into())))
///     }
///     fn notation(&self, p: &u8) -> String { p.to_string() }
/// }
///
/// let pile = States::new(Pile, retrograde::db::Meta::new("pile"));
/// assert_eq!(pile.start(), Some(5));
/// let names: Vec<String> = pile.moves(5).into_iter().map(|(name, _)| name).collect();
/// assert_eq!(names, ["4", "3"]);
/// assert_eq!(pile.parse("3").ok(), Some(3));
/// ```
#[derive(Debug)]
pub struct States<G> {
    game: G,
    meta: Meta,
}

impl<G: StateGame> States<G> {
    /// `game`, its databases' headers saying `meta`.
    pub fn new(game: G, meta: Meta) -> States<G> {
        States { game, meta }
    }

    /// The game.
    pub fn game(&self) -> &G {
        &self.game
    }

    fn at(&self, p: u64) -> Option<G::Position> {
        self.game.decode(p)
    }

    /// The database key of `p`: the number of its canonical form.
    fn key_of(&self, p: &G::Position) -> Option<u64> {
        self.game.encode(&self.game.canonical(p.clone()))
    }
}

impl<G: StateGame> Playable for States<G> {
    fn meta(&self) -> Meta {
        self.meta.clone()
    }

    fn start(&self) -> Option<u64> {
        match &self.game.starts()[..] {
            [s] => self.game.encode(s),
            _ => None,
        }
    }

    fn parse(&self, text: &str) -> Result<u64, NotationError> {
        let p = self.game.parse(text).map_err(|e| NotationError {
            game: crate::play::describe(&self.meta),
            ..e
        })?;
        self.game.encode(&p).ok_or_else(|| {
            NotationError::new(
                crate::play::describe(&self.meta),
                text,
                NotationFault::Unnumbered,
            )
        })
    }

    fn notation(&self, p: u64) -> String {
        self.at(p)
            .map_or_else(|| format!("no position ({p})"), |q| self.game.notation(&q))
    }

    /// [`StateGame::show`], ended by a line break.
    fn board(&self, p: u64) -> String {
        let mut board = self
            .at(p)
            .map_or_else(|| format!("no position ({p})"), |q| self.game.show(&q));
        if !board.ends_with('\n') {
            board.push('\n');
        }
        board
    }

    fn to_move(&self, p: u64) -> String {
        self.at(p)
            .map_or_else(|| "nobody".into(), |q| self.game.to_move(&q))
    }

    fn ending(&self, p: u64) -> Option<String> {
        self.game.ending(&self.at(p)?)
    }

    fn drawing(&self, p: u64) -> Option<crate::drawing::Drawing> {
        self.game.drawing(&self.at(p)?)
    }

    fn owner(&self, p: u64) -> Option<crate::Player> {
        self.game.owner(&self.at(p)?)
    }

    fn moves(&self, p: u64) -> Vec<(String, u64)> {
        let Some(here) = self.at(p) else {
            return Vec::new();
        };
        if self.game.terminal(&here).is_some() {
            return Vec::new();
        }
        let mut out = Vec::new();
        self.game.for_each_move(&here, |q| {
            if let Some(code) = self.game.encode(&q) {
                out.push((self.game.move_name(&here, &q), code));
            }
        });
        out
    }

    fn key(&self, p: u64) -> Option<u64> {
        self.key_of(&self.at(p)?)
    }
}

impl<G: StateGame + Send> Solvable for States<G> {
    fn numbered(&self) -> bool {
        let starts = self.game.starts();
        starts.is_empty() || starts.iter().any(|s| self.game.encode(s).is_some())
    }

    fn solve(&self, how: &How<'_>) -> Result<Box<dyn GameSolution + '_>, RunError> {
        let key = |p: &G::Position| self.game.encode(p);
        Ok(Box::new(run::solve_states(&self.game, how, key)?))
    }

    fn check(&self, db: &Database, how: &How<'_>, keep: usize) -> Result<Checked, RunError> {
        let key = |p: &G::Position| self.game.encode(p);
        run::check_states(&self.game, db, how, key, keep)
    }

    fn lays_out(&self) -> bool {
        true
    }

    /// Explored within the memory `limit` positions could need (256 bytes
    /// each, moves included, besides the positions themselves): a game
    /// that needs more, or has more positions, is not small.
    fn small_graph(&self, limit: usize) -> Result<Option<SmallGraph>, RunError> {
        use crate::GameGraph;
        let each = 256 + std::mem::size_of::<G::Position>() as u64;
        let explorer = crate::Explorer::new().memory_limit((limit as u64).saturating_mul(each));
        let explored = match explorer.explore(&self.game) {
            Ok(e) if e.len() <= limit => e,
            Ok(_)
            | Err(crate::Error::TooLarge { .. } | crate::Error::ExplorationTooLarge { .. }) => {
                return Ok(None);
            }
            Err(e) => return Err(e.into()),
        };
        let n = explored.len() as u32;
        let mut edges = Vec::new();
        for v in 0..n {
            explored.for_each_predecessor(v, |u| edges.push((u, v)));
        }
        let terminal = (0..n).filter_map(|v| explored.terminal(v).map(|o| (v, o)));
        let show = |v| {
            explored
                .position(v)
                .map_or_else(String::new, |p| self.game.notation(&p))
        };
        let owners = explored.has_owners().then(|| {
            (0..n)
                .map(|v| explored.owner(v).unwrap_or(crate::Player::First))
                .collect()
        });
        Ok(Some(SmallGraph {
            labels: (0..n).map(show).collect(),
            edges,
            rules: crate::Rules {
                no_move: self.game.no_move(),
                labels: crate::Labels::from_pairs(terminal.collect()),
            },
            owners,
        }))
    }
}
