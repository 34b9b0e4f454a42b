//! Positions read and written as FEN (Forsyth–Edwards Notation): the board
//! from rank 8 down to rank 1, then the side to move. Castling, en passant
//! and the move counters are written as `- - 0 1` and ignored when read.

use super::{Endgame, Ending, Piece, Position};
use crate::StateGame;

/// Why a FEN does not give a position of the ending.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a position of {}: {kind} (in {fen:?})", ending.name())]
pub struct FenError {
    /// The ending.
    pub ending: Ending,
    /// The FEN as given.
    pub fen: String,
    /// What is wrong with it.
    pub kind: FenErrorKind,
}

/// What is wrong with a FEN, one variant a fault; the message names what
/// was expected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FenErrorKind {
    /// No board: the text is blank.
    #[error("expected a board")]
    NoBoard,
    /// The side to move is not `w` or `b`.
    #[error("expected w or b to move, found {found:?}")]
    Side {
        /// The field found instead.
        found: String,
    },
    /// The board is not 8 ranks.
    #[error("expected 8 ranks separated by /, found {found}")]
    Ranks {
        /// The ranks found.
        found: usize,
    },
    /// A rank passes its 8 squares.
    #[error("rank {rank} has more than 8 squares")]
    RankTooLong {
        /// The rank, 1 to 8.
        rank: u8,
    },
    /// A rank falls short of its 8 squares.
    #[error("rank {rank} has {squares} squares, expected 8")]
    RankTooShort {
        /// The rank, 1 to 8.
        rank: u8,
        /// The squares it has.
        squares: u8,
    },
    /// Two kings of one colour.
    #[error("more than one {} king", if *white { "white" } else { "black" })]
    TwoKings {
        /// Whether they are white.
        white: bool,
    },
    /// A king is missing.
    #[error("expected both kings")]
    NoKing,
    /// A letter that is no man of the ending.
    #[error("{found:?} is not a man of {} (white K and {}, black k)", ending.name(), ending.pieces().iter().map(|p| p.letter()).collect::<String>())]
    NotAMan {
        /// The letter found.
        found: char,
        /// The ending.
        ending: Ending,
    },
    /// Some of the ending's men are missing.
    #[error("expected the men of {}", ending.name())]
    MissingMen {
        /// The ending.
        ending: Ending,
    },
    /// More men than the ending's.
    #[error("expected the men of {}, found more", ending.name())]
    ExtraMen {
        /// The ending.
        ending: Ending,
    },
    /// The men are where they cannot be.
    #[error(
        "illegal: kings adjacent, the side not to move in check, or (KBBK) bishops on one colour"
    )]
    Illegal,
}

impl Endgame {
    /// The FEN of `p` (its canonical form is what a solve holds).
    pub fn fen(&self, p: Position) -> String {
        let mut board = [None::<char>; 64];
        board[p.white_king() as usize] = Some('K');
        board[p.black_king() as usize] = Some('k');
        for (i, kind) in self.ending.pieces().iter().enumerate() {
            board[p.piece(i) as usize] = Some(kind.letter());
        }
        let mut out = String::new();
        for r in (0..8).rev() {
            let mut empty = 0;
            for f in 0..8 {
                match board[r * 8 + f] {
                    Some(c) => {
                        if empty > 0 {
                            out.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        out.push(c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push(char::from(b'0' + empty));
            }
            if r > 0 {
                out.push('/');
            }
        }
        out.push_str(if p.black_to_move() { " b" } else { " w" });
        out.push_str(" - - 0 1");
        out
    }

    /// The position a FEN gives, canonical (the form a solve holds).
    ///
    /// # Errors
    /// As [`Endgame::parse_fen`].
    pub fn from_fen(&self, fen: &str) -> Result<Position, FenError> {
        Ok(self.canonical(self.parse_fen(fen)?))
    }

    /// The position a FEN gives, as on its board (not in canonical form).
    ///
    /// # Errors
    /// A malformed board or side to move, men other than the ending's, or an
    /// illegal position (kings adjacent, the side not to move in check,
    /// KBBK's bishops on one colour).
    pub fn parse_fen(&self, fen: &str) -> Result<Position, FenError> {
        let ending = self.ending;
        let err = |kind: FenErrorKind| FenError {
            ending,
            fen: fen.to_string(),
            kind,
        };
        let mut fields = fen.split_whitespace();
        let board = fields.next().ok_or_else(|| err(FenErrorKind::NoBoard))?;
        let black = match fields.next() {
            Some("w") | None => false,
            Some("b") => true,
            Some(other) => {
                return Err(err(FenErrorKind::Side {
                    found: other.into(),
                }))
            }
        };
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 8 {
            return Err(err(FenErrorKind::Ranks { found: ranks.len() }));
        }
        let (mut wk, mut bk) = (None, None);
        let mut found: Vec<(Piece, u8)> = Vec::new();
        for (i, text) in ranks.iter().enumerate() {
            let r = 7 - i as u8;
            let mut f = 0u8;
            for c in text.chars() {
                // Refused as soon as the rank passes its 8 squares, so that
                // the count never grows past 8 (a u8 of 264 squares reads 8).
                let empty = c.to_digit(10).filter(|d| (1..=8).contains(d));
                let width = empty.map_or(1, |d| d as u8);
                if f + width > 8 {
                    return Err(err(FenErrorKind::RankTooLong { rank: r + 1 }));
                }
                if empty.is_some() {
                    f += width;
                    continue;
                }
                let s = r * 8 + f;
                match c {
                    'K' if wk.is_none() => wk = Some(s),
                    'k' if bk.is_none() => bk = Some(s),
                    'K' | 'k' => return Err(err(FenErrorKind::TwoKings { white: c == 'K' })),
                    other => match ending.pieces().iter().find(|p| p.letter() == other) {
                        Some(&kind) => found.push((kind, s)),
                        None => {
                            return Err(err(FenErrorKind::NotAMan {
                                found: other,
                                ending,
                            }))
                        }
                    },
                }
                f += 1;
            }
            if f != 8 {
                return Err(err(FenErrorKind::RankTooShort {
                    rank: r + 1,
                    squares: f,
                }));
            }
        }
        let (Some(wk), Some(bk)) = (wk, bk) else {
            return Err(err(FenErrorKind::NoKing));
        };
        // Match the men found to the ending's pieces, in its order.
        let mut squares = [0u8; 2];
        for (i, kind) in ending.pieces().iter().enumerate() {
            let at = found
                .iter()
                .position(|(p, _)| p == kind)
                .ok_or_else(|| err(FenErrorKind::MissingMen { ending }))?;
            squares[i] = found.remove(at).1;
        }
        if !found.is_empty() {
            return Err(err(FenErrorKind::ExtraMen { ending }));
        }
        let p = Position::new(wk, bk, self.sorted(squares), black);
        if !self.is_legal(p) {
            return Err(err(FenErrorKind::Illegal));
        }
        Ok(p)
    }
}
