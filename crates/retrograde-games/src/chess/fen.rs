//! Positions read and written as FEN (Forsyth–Edwards Notation): the board
//! from rank 8 down to rank 1, the side to move, castling (always `-`), the
//! en passant square (`-`, or where a pawn just passed that can be taken),
//! and the move counters, written `0 1` and ignored when read.

use super::board::Board;
use super::{Endgame, Ending, Man, Piece, Position};
use retrograde::StateGame;

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
    /// A letter that is no man.
    #[error("{found:?} is not a man (K, Q, R, B, N, P; black's in lower case)")]
    NotAMan {
        /// The letter found.
        found: char,
    },
    /// Men that are not the ending's nor those of an ending it leads to.
    #[error("{found} is not {} nor an ending it leads to by captures and promotions", ending.name())]
    OtherEnding {
        /// The men found, as an ending.
        found: String,
        /// The game's ending.
        ending: Ending,
    },
    /// More than four men.
    #[error("expected at most two men besides the kings, found {found}")]
    ExtraMen {
        /// The men found besides the kings.
        found: usize,
    },
    /// A castling right (no ending here has one).
    #[error("expected - for castling rights, found {found:?}")]
    Castling {
        /// The field found.
        found: String,
    },
    /// An en passant square that is none.
    #[error("expected - or an en passant square on rank {rank}, found {found:?}")]
    EnPassant {
        /// The field found.
        found: String,
        /// The rank the side to move's capture would go to.
        rank: u8,
    },
    /// The men are where they cannot be.
    #[error(
        "illegal: kings adjacent, a pawn on the first or last rank, or the side not to move in check"
    )]
    Illegal,
}

impl Endgame {
    /// The FEN of `p` (its canonical form is what a solve holds).
    pub fn fen(&self, p: Position) -> String {
        let mut board = [None::<char>; 64];
        board[p.white_king() as usize] = Some('K');
        board[p.black_king() as usize] = Some('k');
        for (i, man) in p.ending().men().iter().enumerate() {
            board[p.man(i) as usize] = Some(man.letter());
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
        out.push_str(if p.black_to_move() { " b - " } else { " w - " });
        match p.en_passant() {
            Some(f) => {
                out.push(char::from(b'a' + f));
                out.push(if p.black_to_move() { '3' } else { '6' });
            }
            None => out.push('-'),
        }
        out.push_str(" 0 1");
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
                }));
            }
        };
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 8 {
            return Err(err(FenErrorKind::Ranks { found: ranks.len() }));
        }
        let castling = fields.next().unwrap_or("-");
        if castling != "-" {
            return Err(err(FenErrorKind::Castling {
                found: castling.into(),
            }));
        }
        let ep_rank = if black { 3 } else { 6 };
        let ep = match fields.next().unwrap_or("-") {
            "-" => None,
            text => match text.as_bytes() {
                [f @ b'a'..=b'h', r] if *r == b'0' + ep_rank => Some(f - b'a'),
                _ => {
                    return Err(err(FenErrorKind::EnPassant {
                        found: text.into(),
                        rank: ep_rank,
                    }));
                }
            },
        };
        let Placed { wk, bk, men: found } = read_board(&ranks).map_err(err)?;
        if found.len() > 2 {
            return Err(err(FenErrorKind::ExtraMen { found: found.len() }));
        }
        let men: Vec<Man> = found.iter().map(|m| m.0).collect();
        let squares: Vec<u8> = found.iter().map(|m| m.1).collect();
        let material = Ending::of(&men).unwrap_or(Ending::KK);
        if !ending_reaches(ending, material) {
            return Err(err(FenErrorKind::OtherEnding {
                found: material.name(),
                ending,
            }));
        }
        let with = Board::new(wk, bk, &men, &squares, black, ep);
        let board = if ep.is_some() && !with.is_legal() {
            // A right no pawn can use is no right.
            Board::new(wk, bk, &men, &squares, black, None)
        } else {
            with
        };
        if !board.is_legal() {
            return Err(err(FenErrorKind::Illegal));
        }
        let p = board.position();
        Ok(p)
    }
}

/// What a FEN's board holds: the kings' squares and the other men on theirs.
struct Placed {
    /// The white king's square.
    wk: u8,
    /// The black king's square.
    bk: u8,
    /// The other men, each with its square, in the FEN's order.
    men: Vec<(Man, u8)>,
}

/// The men on a FEN's board, read from its eight ranks (top first).
fn read_board(ranks: &[&str]) -> Result<Placed, FenErrorKind> {
    let (mut wk, mut bk) = (None, None);
    let mut found: Vec<(Man, u8)> = Vec::new();
    for (i, text) in ranks.iter().enumerate() {
        let r = 7 - i as u8;
        let mut f = 0u8;
        for c in text.chars() {
            // Refused as soon as the rank passes its 8 squares, so that
            // the count never grows past 8 (a u8 of 264 squares reads 8).
            let empty = c.to_digit(10).filter(|d| (1..=8).contains(d));
            let width = empty.map_or(1, |d| d as u8);
            if f + width > 8 {
                return Err(FenErrorKind::RankTooLong { rank: r + 1 });
            }
            if empty.is_some() {
                f += width;
                continue;
            }
            let s = r * 8 + f;
            match c {
                'K' if wk.is_none() => wk = Some(s),
                'k' if bk.is_none() => bk = Some(s),
                'K' | 'k' => return Err(FenErrorKind::TwoKings { white: c == 'K' }),
                other => match Piece::from_letter(other).filter(|_| other != 'k') {
                    Some(kind) => found.push((Man::new(other.is_ascii_lowercase(), kind), s)),
                    None => return Err(FenErrorKind::NotAMan { found: other }),
                },
            }
            f += 1;
        }
        if f != 8 {
            return Err(FenErrorKind::RankTooShort {
                rank: r + 1,
                squares: f,
            });
        }
    }
    let (Some(wk), Some(bk)) = (wk, bk) else {
        return Err(FenErrorKind::NoKing);
    };
    Ok(Placed { wk, bk, men: found })
}

/// Whether `from` is `to` or leads to it by captures and promotions.
fn ending_reaches(from: Ending, to: Ending) -> bool {
    from == to || from.children().into_iter().any(|c| ending_reaches(c, to))
}
