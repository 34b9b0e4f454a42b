//! What a registered game is built from: its declared parameters
//! ([`Param`]), the fields given for them, checked against the declaration
//! ([`Params`]), and why a game cannot be built ([`GameError`]).

use super::Entry;
use crate::db::Meta;

/// A parameter a game is built from: a command-line option, and a field of
/// its databases' headers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    /// Its name: `symmetry`, `start`.
    pub name: &'static str,
    /// One line for `--help`.
    pub help: &'static str,
    /// A flag or a value, and what it is when not given.
    pub kind: ParamKind,
}

/// A flag or a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// `true` or `false`. On the command line, `--NAME` sets a flag that is
    /// false by default, `--no-NAME` clears one that is true by default:
    /// its help says what that option does.
    Flag {
        /// Its value when not given.
        default: bool,
    },
    /// Text.
    Text {
        /// Its value when not given; `None`: it must be given.
        default: Option<&'static str>,
        /// Its placeholder in `--help`: `SFEN`, `FILE`.
        value_name: &'static str,
    },
}

impl Param {
    /// A flag, `default` when not given.
    pub const fn flag(name: &'static str, help: &'static str, default: bool) -> Param {
        Param {
            name,
            help,
            kind: ParamKind::Flag { default },
        }
    }

    /// A value, `default` when not given (`None`: it must be given).
    pub const fn text(
        name: &'static str,
        help: &'static str,
        value_name: &'static str,
        default: Option<&'static str>,
    ) -> Param {
        Param {
            name,
            help,
            kind: ParamKind::Text {
                default,
                value_name,
            },
        }
    }

    /// A whole number (read by [`Params::number`]), `default` when not
    /// given (`None`: it must be given): a board's size, say.
    pub const fn number(
        name: &'static str,
        help: &'static str,
        default: Option<&'static str>,
    ) -> Param {
        Param::text(name, help, "N", default)
    }

    /// Its value when not given, as text; `None` if it must be given.
    pub(super) fn default(&self) -> Option<String> {
        match self.kind {
            ParamKind::Flag { default } => Some(default.to_string()),
            ParamKind::Text { default, .. } => default.map(str::to_string),
        }
    }
}

/// Why a game cannot be built from its name and fields (a database's
/// header, or the command line).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GameError {
    /// No game of the registry has the name.
    #[error("a game called {game:?}, which this program does not know (it knows {known})")]
    Unknown {
        /// The name given.
        game: String,
        /// The games it knows, comma-separated.
        known: String,
    },
    /// A field the game needs is not given.
    #[error("{game}: no {field:?} given, which it needs")]
    Missing {
        /// The game.
        game: String,
        /// The field.
        field: &'static str,
    },
    /// A field the game does not take.
    #[error("{game}: a field {field:?}, which it does not take ({known})")]
    Unexpected {
        /// The game.
        game: String,
        /// The field.
        field: String,
        /// The fields it takes.
        known: String,
    },
    /// A field's value is not what the game reads.
    #[error("{game}: {field} is {value:?}, expected {expected}")]
    BadValue {
        /// The game.
        game: String,
        /// The field.
        field: &'static str,
        /// The value given.
        value: String,
        /// What was expected.
        expected: String,
    },
    /// A variant the game does not have (or one given to a game without any).
    #[error("{game}: no variant {variant:?} ({known})")]
    Variant {
        /// The game.
        game: String,
        /// The variant given.
        variant: String,
        /// The variants it has.
        known: String,
    },
    /// The game's own constructor refused the fields.
    #[error("{game}: {source}")]
    Refused {
        /// The game.
        game: String,
        /// Why.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
}

/// The fields a game is built from, checked against its declaration: what
/// an [`Entry`]'s constructor reads.
#[derive(Debug)]
pub struct Params<'a> {
    pub(super) entry: &'a Entry,
    pub(super) meta: &'a Meta,
}

impl Params<'_> {
    /// The game's name.
    pub fn game(&self) -> &str {
        &self.entry.name
    }

    /// The variant (empty for a game without variants).
    pub fn variant(&self) -> &str {
        &self.meta.variant
    }

    /// The text of field `name`, or its default.
    ///
    /// # Errors
    /// [`GameError::Missing`] if it has neither; [`GameError::Unexpected`]
    /// if the entry does not declare it.
    pub fn text(&self, name: &'static str) -> Result<&str, GameError> {
        let Some(param) = self.entry.params.iter().find(|p| p.name == name) else {
            return Err(GameError::Unexpected {
                game: self.entry.name.clone(),
                field: name.into(),
                known: self.entry.known_fields(),
            });
        };
        match (self.meta.params.get(name), &param.kind) {
            (Some(v), _) => Ok(v),
            (
                None,
                ParamKind::Text {
                    default: Some(d), ..
                },
            ) => Ok(d),
            (None, ParamKind::Flag { default: true }) => Ok("true"),
            (None, ParamKind::Flag { default: false }) => Ok("false"),
            (None, ParamKind::Text { default: None, .. }) => Err(GameError::Missing {
                game: self.entry.name.clone(),
                field: name,
            }),
        }
    }

    /// Flag `name`: `true` or `false`.
    ///
    /// # Errors
    /// As [`Params::text`]; [`GameError::BadValue`] for other text.
    pub fn flag(&self, name: &'static str) -> Result<bool, GameError> {
        match self.text(name)? {
            "true" => Ok(true),
            "false" => Ok(false),
            other => Err(self.bad(name, other, "true or false")),
        }
    }

    /// Field `name` as a whole number within `range`.
    ///
    /// # Errors
    /// As [`Params::text`]; [`GameError::BadValue`] for text that is not a
    /// whole number in `range`.
    pub fn number(
        &self,
        name: &'static str,
        range: std::ops::RangeInclusive<u64>,
    ) -> Result<u64, GameError> {
        let text = self.text(name)?;
        text.trim()
            .parse::<u64>()
            .ok()
            .filter(|n| range.contains(n))
            .ok_or_else(|| {
                let expected = format!("a whole number from {} to {}", range.start(), range.end());
                self.bad(name, text, &expected)
            })
    }

    /// The error for field `name` holding `value` where `expected` was.
    pub fn bad(&self, name: &'static str, value: &str, expected: &str) -> GameError {
        GameError::BadValue {
            game: self.entry.name.clone(),
            field: name,
            value: value.into(),
            expected: expected.into(),
        }
    }

    /// The error for a game that its constructor refuses.
    pub fn refused(&self, source: impl std::error::Error + Send + Sync + 'static) -> GameError {
        GameError::Refused {
            game: self.entry.name.clone(),
            source: Box::new(source),
        }
    }
}
