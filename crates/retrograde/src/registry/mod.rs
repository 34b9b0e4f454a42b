//! The games the tools know by name: one [`Registry`] that the command line,
//! the database tools and the web explorer take every game from, built-in
//! or written by the library's users.
//!
//! An [`Entry`] says what a game is called, what builds it (its variants
//! and [parameters](Param)) and how to rebuild it from a database's header,
//! strictly: an unknown or missing field is an error naming it. What it
//! builds is [`Solvable`]: a game that can be played ([`Playable`](crate::play::Playable)), solved
//! and checked against a database.
//!
//! A game written from its rules ([`StateGame`]) that also numbers its
//! positions ([`StateGame::encode`], [`StateGame::decode`]) and reads and
//! writes them ([`StateGame::parse`], [`StateGame::notation`]) is
//! registered in one line, [`Entry::state_game`]:
//!
//! ```
//! use retrograde::registry::{Entry, Registry};
//! use retrograde::StateGame;
//!
//! /// Take 1 or 2 counters from a pile; who cannot move loses.
//! struct Pile(u8);
//!
//! impl StateGame for Pile {
//!     type Position = u8;
//!     fn starts(&self) -> Vec<u8> {
//!         vec![self.0]
//!     }
//!     fn for_each_move<F: FnMut(u8)>(&self, p: &u8, mut f: F) {
//!         (1..=2).filter(|&k| k <= *p).for_each(|k| f(p - k));
//!     }
//!     fn encode(&self, p: &u8) -> Option<u64> {
//!         Some(u64::from(*p))
//!     }
//!     fn decode(&self, code: u64) -> Option<u8> {
//!         u8::try_from(code).ok().filter(|&p| p <= self.0)
//!     }
//! }
//!
//! let games = Registry::new().with(Entry::state_game("pile", "Take 1 or 2.", |_| Ok(Pile(7))));
//! let pile = games.get("pile").unwrap().open(&retrograde::db::Meta::new("pile")).unwrap();
//! let solved = pile.solve(&Default::default()).unwrap();
//! assert_eq!(solved.answers().len(), 8);
//! assert_eq!(pile.moves(7).len(), 2);
//! ```

mod how;
mod numbered;
mod params;
mod run;
mod rung;
mod solvable;
mod states;
pub mod tiers;

pub use crate::db::Checked;
pub use run::{
    DenseKey, DenseSolution, StateRun, VALUES_BY_KEY_BYTES_PER_POSITION, VALUES_BYTES_PER_RECORD,
    check_dense, check_states, solve_dense, solve_states,
};

pub use how::{How, RunError};
pub use numbered::Numbered;
pub use params::{GameError, Param, ParamKind, Params};
pub use rung::{Rung, SolvedBy};
pub use solvable::{GameSolution, KeyOrder, SmallGraph, Solvable};
pub use states::States;
pub use tiers::Tiers;

use std::fmt;

use crate::StateGame;
use crate::db::Meta;

/// Builds a game from its fields.
type Build = dyn Fn(&Params<'_>) -> Result<Box<dyn Solvable>, GameError> + Send + Sync;

/// A game the tools know: its name, what it is, what builds it.
pub struct Entry {
    name: String,
    about: String,
    help: String,
    variants: Vec<(String, String)>,
    params: Vec<Param>,
    tiered: bool,
    explored: bool,
    build: Box<Build>,
}

impl fmt::Debug for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Entry")
            .field("name", &self.name)
            .field("variants", &self.variants)
            .field("params", &self.params)
            .finish_non_exhaustive()
    }
}

impl Entry {
    /// A game called `name` (one word, as its databases' headers name it),
    /// `about` it in one line, built by `build` from its fields.
    pub fn new(
        name: impl Into<String>,
        about: impl Into<String>,
        build: impl Fn(&Params<'_>) -> Result<Box<dyn Solvable>, GameError> + Send + Sync + 'static,
    ) -> Entry {
        Entry {
            name: name.into(),
            about: about.into(),
            help: String::new(),
            variants: Vec::new(),
            params: Vec::new(),
            tiered: false,
            explored: false,
            build: Box::new(build),
        }
    }

    /// A game written from its rules, made playable by [`States`]: its
    /// databases' headers name `name` and the fields `build` read.
    pub fn state_game<G>(
        name: impl Into<String>,
        about: impl Into<String>,
        build: impl Fn(&Params<'_>) -> Result<G, GameError> + Send + Sync + 'static,
    ) -> Entry
    where
        G: StateGame + Send + 'static,
    {
        let mut e = Entry::new(name, about, move |p| {
            let meta = p.entry.header(p.meta);
            Ok(Box::new(States::new(build(p)?, meta)))
        });
        e.explored = true;
        e
    }

    /// A game that numbers its positions densely and gives un-moves
    /// ([`Game`](crate::Game)), made playable by [`Numbered`]: its
    /// databases' headers name `name` and the fields `build` read.
    ///
    /// A game with a parameter (a board's size) declares it with
    /// [`Entry::param`] and reads it in `build`; the command line then takes
    /// it as `--size N`, and a database keeps it in its header. To give the
    /// game the whole command line (`solve`, `query`, `play`, `serve`, …),
    /// a program depends on `retrograde` and `retrograde-cli` (by path or
    /// git) and its `main` is
    /// `retrograde_cli::main_with(Registry::new().with(entry()))`; with
    /// `retrograde-games` too, `retrograde_games::registry().with(entry())`
    /// keeps the built-in games beside it.
    ///
    /// ```
    /// use retrograde::play::Playable;
    /// use retrograde::registry::{Entry, Param, Registry};
    /// use retrograde::Game;
    ///
    /// /// A token on squares `0..size` moves one or two squares left.
    /// struct Slide(u32);
    /// impl Game for Slide {
    ///     fn position_count(&self) -> usize { self.0 as usize }
    ///     fn for_each_move<F: FnMut(u32)>(&self, p: u32, mut f: F) {
    ///         (1..=2).filter(|&k| k <= p).for_each(|k| f(p - k));
    ///     }
    ///     fn for_each_unmove<F: FnMut(u32)>(&self, p: u32, mut f: F) {
    ///         (1..=2).filter(|&k| p + k < self.0).for_each(|k| f(p + k));
    ///     }
    ///     fn starts(&self) -> Vec<u32> { vec![self.0 - 1] }
    /// }
    ///
    /// fn entry() -> Entry {
    ///     Entry::numbered_game("slide", "Slide a token left.", |p| {
    ///         Ok(Slide(p.number("size", 1..=1_000_000)? as u32))
    ///     })
    ///     .param(Param::number("size", "The squares of the board.", Some("10")))
    /// }
    ///
    /// let games = Registry::new().with(entry());
    /// let meta = retrograde::db::Meta::new("slide").param("size", 7);
    /// let slide = games.open(&meta).unwrap();
    /// assert_eq!(slide.start(), Some(6));
    /// assert!(games.open(&meta.clone().param("size", "big")).is_err());
    /// ```
    pub fn numbered_game<G>(
        name: impl Into<String>,
        about: impl Into<String>,
        build: impl Fn(&Params<'_>) -> Result<G, GameError> + Send + Sync + 'static,
    ) -> Entry
    where
        G: crate::Game + Send + Sync + 'static,
    {
        Entry::new(name, about, move |p| {
            let meta = p.entry.header(p.meta);
            Ok(Box::new(Numbered::new(build(p)?, meta)))
        })
    }

    /// A game solved tier by tier ([`TieredGame`](crate::tier::TieredGame)),
    /// made playable by [`Tiers`]: `build` makes the game and the tier to
    /// solve from the fields, the variant naming the tier (a tier's
    /// database is headed with its tier's name as the variant, and opened
    /// so). Without declared variants, any variant reaches `build`, which
    /// refuses a name that is no tier ([`Params::bad`]); an empty variant
    /// asks for the game's own choice (the start's tier, say). Its command
    /// takes a tier directory ([`How::tiers`]).
    ///
    /// ```
    /// use retrograde::registry::{Entry, Registry};
    /// use retrograde::tier::TieredGame;
    /// use retrograde::{Outcome, StateGame};
    ///
    /// /// Take 1 or 2 from a pile of up to 9, a tier for each third of it.
    /// struct Pile;
    /// impl StateGame for Pile {
    ///     type Position = u8;
    ///     fn starts(&self) -> Vec<u8> { vec![9] }
    ///     fn for_each_move<F: FnMut(u8)>(&self, p: &u8, mut f: F) {
    ///         (1..=2).filter(|&k| k <= *p).for_each(|k| f(p - k));
    ///     }
    ///     fn encode(&self, p: &u8) -> Option<u64> { Some(u64::from(*p)) }
    ///     fn decode(&self, c: u64) -> Option<u8> { u8::try_from(c).ok().filter(|&p| p <= 9) }
    /// }
    /// impl TieredGame for Pile {
    ///     type Tier = u8;
    ///     fn tier(&self, p: &u8) -> u8 { p / 3 }
    ///     fn child_tiers(&self, t: &u8) -> Vec<u8> { (t.saturating_sub(1)..*t).collect() }
    ///     fn tier_positions(&self, t: &u8) -> Vec<u8> { (t * 3..t * 3 + 3).filter(|&p| p <= 9).collect() }
    ///     fn tier_name(&self, t: &u8) -> String { format!("third{t}") }
    /// }
    ///
    /// let entry = Entry::tiered_game("pile", "Take 1 or 2.", |p| {
    ///     let tier = match p.variant() {
    ///         "" => 3,
    ///         name => name.strip_prefix("third").and_then(|t| t.parse().ok())
    ///             .ok_or_else(|| p.bad("variant", name, "a tier, third0 to third3"))?,
    ///     };
    ///     Ok((Pile, tier))
    /// });
    /// let games = Registry::new().with(entry);
    /// let pile = games.get("pile").unwrap().open(&retrograde::db::Meta::new("pile")).unwrap();
    /// assert_eq!(pile.meta().variant, "third3");
    /// let solved = pile.solve(&Default::default()).unwrap(); // the thirds below first
    /// let start = solved.start_value().unwrap();
    /// assert_eq!((start.outcome, start.remoteness), (Outcome::Lose, Some(6)));
    /// // A tier's database reopens the game at that tier; a name that is none is refused.
    /// let meta = retrograde::db::Meta::new("pile").variant("third1");
    /// assert_eq!(games.open(&meta).unwrap().meta().variant, "third1");
    /// assert!(games.open(&meta.clone().variant("fourth")).is_err());
    /// ```
    pub fn tiered_game<G>(
        name: impl Into<String>,
        about: impl Into<String>,
        build: impl Fn(&Params<'_>) -> Result<(G, G::Tier), GameError> + Send + Sync + 'static,
    ) -> Entry
    where
        G: crate::tier::TieredGame + Send + 'static,
    {
        Entry::new(name, about, move |p| {
            let mut directory = p.entry.header(p.meta);
            directory.variant = String::new();
            let (game, root) = build(p)?;
            Ok(Box::new(Tiers::new(game, directory, root)))
        })
        .tiered()
    }

    /// With a variant `name`, `about` it in one line: a game with variants
    /// is always one of them (the first is the default).
    pub fn variant(mut self, name: impl Into<String>, about: impl Into<String>) -> Entry {
        self.variants.push((name.into(), about.into()));
        self
    }

    /// With `help`: what `--help` adds after the options (its notation,
    /// examples).
    pub fn help(mut self, help: impl Into<String>) -> Entry {
        self.help = help.into();
        self
    }

    /// With the parameter `param`.
    pub fn param(mut self, param: Param) -> Entry {
        self.params.push(param);
        self
    }

    /// Solved tier by tier ([`crate::tier`]): its command takes a tier
    /// directory ([`How::tiers`]).
    pub fn tiered(mut self) -> Entry {
        self.tiered = true;
        self
    }

    /// Whether it is solved tier by tier.
    pub fn is_tiered(&self) -> bool {
        self.tiered
    }

    /// Whether it is explored from its rules ([`Entry::state_game`]), so
    /// that [`How::by_hash`] applies.
    pub fn is_explored(&self) -> bool {
        self.explored
    }

    /// Its name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What it is, in one line.
    pub fn about(&self) -> &str {
        &self.about
    }

    /// What `--help` adds after the options; empty if nothing.
    pub fn long_help(&self) -> &str {
        &self.help
    }

    /// Its variants, with one line each; none for most games.
    pub fn variants(&self) -> &[(String, String)] {
        &self.variants
    }

    /// Its parameters.
    pub fn params(&self) -> &[Param] {
        &self.params
    }

    /// The game `meta` describes (a database's header, or what the command
    /// line gave): its fields checked strictly first.
    ///
    /// # Errors
    /// A name other than this entry's, a variant it does not have, a field
    /// it does not take or lacks, a value it cannot read, or a game its
    /// constructor refuses.
    pub fn open(&self, meta: &Meta) -> Result<Box<dyn Solvable>, GameError> {
        if meta.game != self.name {
            return Err(GameError::Unknown {
                game: meta.game.clone(),
                known: self.name.clone(),
            });
        }
        let variant_known = if self.variants.is_empty() {
            // A tiered game's variant names a tier: its builder checks it.
            meta.variant.is_empty() || self.tiered
        } else {
            self.variants.iter().any(|(v, _)| *v == meta.variant)
        };
        if !variant_known {
            return Err(GameError::Variant {
                game: self.name.clone(),
                variant: meta.variant.clone(),
                known: if self.variants.is_empty() {
                    "it has none".into()
                } else {
                    let names: Vec<&str> = self.variants.iter().map(|(v, _)| v.as_str()).collect();
                    format!("it has {}", names.join(", "))
                },
            });
        }
        if let Some(field) = meta
            .params
            .keys()
            .find(|k| !self.params.iter().any(|p| p.name == k.as_str()))
        {
            return Err(GameError::Unexpected {
                game: self.name.clone(),
                field: field.clone(),
                known: self.known_fields(),
            });
        }
        let params = Params { entry: self, meta };
        for p in &self.params {
            params.text(p.name)?;
            if matches!(p.kind, ParamKind::Flag { .. }) {
                params.flag(p.name)?;
            }
        }
        (self.build)(&params)
    }

    /// `meta` with every declared field written out, defaults included:
    /// the header of the game's databases.
    fn header(&self, meta: &Meta) -> Meta {
        let mut out = Meta::new(self.name.clone()).variant(meta.variant.clone());
        for p in &self.params {
            if let Some(v) = meta.params.get(p.name).cloned().or_else(|| p.default()) {
                out = out.param(p.name, v);
            }
        }
        out
    }

    fn known_fields(&self) -> String {
        if self.params.is_empty() {
            return "it takes none".into();
        }
        let names: Vec<&str> = self.params.iter().map(|p| p.name).collect();
        format!("it takes {}", names.join(", "))
    }
}

/// The games the tools know, by name.
#[derive(Debug, Default)]
pub struct Registry {
    entries: Vec<Entry>,
}

impl Registry {
    /// No games.
    pub fn new() -> Registry {
        Registry::default()
    }

    /// With `entry`, in place of any entry of the same name.
    pub fn with(mut self, entry: Entry) -> Registry {
        self.add(entry);
        self
    }

    /// Adds `entry`, in place of any entry of the same name.
    pub fn add(&mut self, entry: Entry) -> &mut Registry {
        match self.entries.iter_mut().find(|e| e.name == entry.name) {
            Some(e) => *e = entry,
            None => self.entries.push(entry),
        }
        self
    }

    /// The entry called `name`.
    pub fn get(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.name == name)
    }

    /// Every entry, in the order added.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The game `meta` describes (see [`Entry::open`]).
    ///
    /// # Errors
    /// [`GameError::Unknown`] for a name no entry has; as [`Entry::open`].
    pub fn open(&self, meta: &Meta) -> Result<Box<dyn Solvable>, GameError> {
        match self.get(&meta.game) {
            Some(e) => e.open(meta),
            None => Err(GameError::Unknown {
                game: meta.game.clone(),
                known: {
                    let names: Vec<&str> = self.entries.iter().map(|e| e.name()).collect();
                    names.join(", ")
                },
            }),
        }
    }
}
