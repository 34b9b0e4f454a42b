//! Positions and moves written down, in the manner of shogi's SFEN.
//!
//! A position is three fields: the board, the side to move and the hands.
//! - The board: the four rows from the top (the second player's home rank)
//!   to the bottom (the first player's), separated by `/`, each read from the
//!   first player's left: `L` lion, `G` giraffe, `E` elephant, `C` chick, `H`
//!   hen, upper case for the first player (Sente), lower case for the second
//!   (Gote); a digit counts empty squares.
//! - `b` if the first player is to move, `w` for the second.
//! - The pieces in hand, `-` if none: letters as on the board (`G`, `E`,
//!   `C`), a count before a letter held twice (`2C`). May be left out.
//!
//! The start is `gle/1c1/1C1/ELG b -`. Squares are named from the first
//! player's side: columns `a`–`c` from its left, rows `1`–`4` from the top,
//! so its lion starts on `b4`. A move is the piece's letter, the square left,
//! `-` (or `x` for a capture) and the square reached, `+` if a chick is
//! promoted: `Cb3xb2`, `Ca2-a1+`; a drop is `G*c3`.

use super::board::{Board, CHICK, ELEPHANT, GIRAFFE, HEN, LION, Move, SQUARES, THEIRS};

/// Why a text is not a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "not a Dōbutsu shōgi position: {kind} (in {text:?}; expected a board, b or w, and hands, as in \"gle/1c1/1C1/ELG b -\")"
)]
pub struct SfenError {
    /// The text as given.
    pub text: String,
    /// What is wrong with it.
    pub kind: SfenErrorKind,
}

/// What is wrong with a position's text, one variant a fault; the message
/// names what was expected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SfenErrorKind {
    /// No board: the text is blank.
    #[error("expected a board")]
    NoBoard,
    /// The side to move is missing.
    #[error("expected the side to move (b or w) after the board")]
    NoSide,
    /// The side to move is not `b` or `w`.
    #[error("side to move {found:?}: expected b or w")]
    Side {
        /// The field found instead.
        found: String,
    },
    /// A field after the hands that is not a move count.
    #[error("unexpected {found:?} after the hands")]
    Trailing {
        /// The field.
        found: String,
    },
    /// The board is not 4 rows.
    #[error("{found} rows: expected 4, separated by /")]
    Rows {
        /// The rows found.
        found: usize,
    },
    /// A count of empty squares that is not 1 to 3.
    #[error("row {row}: {count} empty squares")]
    Empty {
        /// The row, from 1 at the top.
        row: usize,
        /// The count.
        count: u32,
    },
    /// A letter that is no piece.
    #[error("row {row}: {found:?} is no piece (L, G, E, C, H; lower case for the second player)")]
    NotAPiece {
        /// The row, from 1 at the top.
        row: usize,
        /// The letter.
        found: char,
    },
    /// A row passes its 3 squares.
    #[error("row {row}: more than 3 squares")]
    RowTooLong {
        /// The row, from 1 at the top.
        row: usize,
    },
    /// A row falls short of its 3 squares.
    #[error("row {row}: {squares} squares, expected 3")]
    RowTooShort {
        /// The row, from 1 at the top.
        row: usize,
        /// The squares it has.
        squares: usize,
    },
    /// A count in the hands of more than one digit (`12C`).
    #[error("a count of more than one digit in the hands ({hands:?})")]
    LongCount {
        /// The hands field.
        hands: String,
    },
    /// A letter in the hands that is not a giraffe, an elephant or a chick.
    #[error("{found:?} in hand: expected G, E or C (a captured hen is held as a chick)")]
    NotInHand {
        /// The letter.
        found: char,
    },
    /// A count with no piece after it at the end of the hands.
    #[error("a count at the end of the hands")]
    TrailingCount,
    /// Not one lion a side, or more than two of another kind.
    #[error(
        "expected one lion a side and no more than two giraffes, elephants or chicks (hens included) in all"
    )]
    Pieces,
    /// A board with other pieces than the game's (a game played from a
    /// start with fewer pieces reads only boards with its own).
    #[error("this game has giraffes, elephants and chicks {game:?}, this board {board:?}")]
    OtherPieces {
        /// The game's giraffes, elephants and chicks (hens counted as chicks).
        game: [u8; 3],
        /// The board's.
        board: [u8; 3],
    },
}

/// The letter of a piece's kind (upper case).
pub(super) fn letter(kind: u8) -> char {
    match kind {
        LION => 'L',
        GIRAFFE => 'G',
        ELEPHANT => 'E',
        CHICK => 'C',
        _ => 'H',
    }
}

fn kind_of(c: char) -> Option<u8> {
    match c.to_ascii_uppercase() {
        'L' => Some(LION),
        'G' => Some(GIRAFFE),
        'E' => Some(ELEPHANT),
        'C' => Some(CHICK),
        'H' => Some(HEN),
        _ => None,
    }
}

/// The name of a square of a board seen by its player to move, for the
/// first player's view when `sente` moves and turned 180° when not.
pub fn square_name(square: u8, sente: bool) -> String {
    let sq = if sente {
        square as usize
    } else {
        SQUARES - 1 - square as usize
    };
    format!("{}{}", char::from(b'a' + (sq % 3) as u8), sq / 3 + 1)
}

/// A move of the player to move, named from the first player's side.
pub fn move_name(m: &Move, sente: bool) -> String {
    let to = square_name(m.to, sente);
    match m.from {
        None => format!("{}*{to}", letter(m.kind)),
        Some(from) => format!(
            "{}{}{}{to}{}",
            letter(m.kind),
            square_name(from, sente),
            if m.captures.is_some() { 'x' } else { '-' },
            if m.promotes { "+" } else { "" }
        ),
    }
}

/// The notation of `b` (seen by its player to move), who is the first
/// player when `sente`.
pub fn write(b: &Board, sente: bool) -> String {
    let view = if sente { *b } else { b.flipped() };
    let mut out = String::new();
    for r in 0..4 {
        let mut empty = 0;
        for c in 0..3 {
            let code = view.cells[3 * r + c];
            if code == 0 {
                empty += 1;
                continue;
            }
            if empty > 0 {
                out.push(char::from(b'0' + empty));
                empty = 0;
            }
            let l = letter(code & !THEIRS);
            out.push(if code & THEIRS != 0 {
                l.to_ascii_lowercase()
            } else {
                l
            });
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
        if r < 3 {
            out.push('/');
        }
    }
    out.push_str(if sente { " b " } else { " w " });
    let mut hands = String::new();
    for (side, case) in [(0, true), (1, false)] {
        for (slot, kind) in [GIRAFFE, ELEPHANT, CHICK].into_iter().enumerate() {
            let n = view.hands[side][slot];
            if n > 1 {
                hands.push(char::from(b'0' + n));
            }
            if n > 0 {
                let l = letter(kind);
                hands.push(if case { l } else { l.to_ascii_lowercase() });
            }
        }
    }
    out.push_str(if hands.is_empty() { "-" } else { &hands });
    out
}

/// The position a text gives: the board seen by its player to move, and
/// whether that is the first player.
///
/// # Errors
/// A malformed field, a piece other than the game's, more than one lion a
/// side or more than two of another kind, or a hen in hand.
pub fn parse(text: &str) -> Result<(Board, bool), SfenError> {
    let err = |kind: SfenErrorKind| SfenError {
        text: text.to_string(),
        kind,
    };
    let (rows, sente, hands) = split_fields(text).map_err(err)?;
    let mut b = Board {
        cells: [0; SQUARES],
        hands: [[0; 3]; 2],
    };
    read_rows(rows, &mut b.cells).map_err(err)?;
    if hands != "-" {
        read_hands(hands, &mut b.hands).map_err(err)?;
    }
    if !b.is_valid() {
        return Err(err(SfenErrorKind::Pieces));
    }
    Ok((if sente { b } else { b.flipped() }, sente))
}

/// The fields of a text: the rows, whether the first player is to move,
/// and the hands (`-` when left out); move counters after them are
/// ignored.
fn split_fields(text: &str) -> Result<(&str, bool, &str), SfenErrorKind> {
    let mut fields = text.split_whitespace();
    let rows = fields.next().ok_or(SfenErrorKind::NoBoard)?;
    let sente = match fields.next() {
        Some("b") => true,
        Some("w") => false,
        Some(other) => {
            return Err(SfenErrorKind::Side {
                found: other.into(),
            });
        }
        None => return Err(SfenErrorKind::NoSide),
    };
    let hands = fields.next().unwrap_or("-");
    if let Some(extra) = fields.find(|f| f.parse::<u32>().is_err()) {
        return Err(SfenErrorKind::Trailing {
            found: extra.into(),
        });
    }
    Ok((rows, sente, hands))
}

/// Reads the four rows, `/` between them, into `cells`.
fn read_rows(rows: &str, cells: &mut [u8; SQUARES]) -> Result<(), SfenErrorKind> {
    let ranks: Vec<&str> = rows.split('/').collect();
    if ranks.len() != 4 {
        return Err(SfenErrorKind::Rows { found: ranks.len() });
    }
    for (r, rank) in ranks.iter().enumerate() {
        read_rank(r, rank, &mut cells[3 * r..3 * r + 3])?;
    }
    Ok(())
}

/// Reads row `r` (counted from 0) into its three cells: pieces, and digits
/// for runs of empty squares.
fn read_rank(r: usize, rank: &str, cells: &mut [u8]) -> Result<(), SfenErrorKind> {
    let row = r + 1;
    let mut c = 0;
    for ch in rank.chars() {
        if let Some(d) = ch.to_digit(10) {
            if !(1..=3).contains(&d) {
                return Err(SfenErrorKind::Empty { row, count: d });
            }
            c += d as usize;
            continue;
        }
        let kind = kind_of(ch).ok_or(SfenErrorKind::NotAPiece { row, found: ch })?;
        if c >= 3 {
            return Err(SfenErrorKind::RowTooLong { row });
        }
        let theirs = ch.is_ascii_lowercase();
        cells[c] = kind | if theirs { THEIRS } else { 0 };
        c += 1;
    }
    if c != 3 {
        return Err(SfenErrorKind::RowTooShort { row, squares: c });
    }
    Ok(())
}

/// Reads the pieces in hand (upper case the first player's, each after an
/// optional one-digit count) into `held`.
fn read_hands(hands: &str, held: &mut [[u8; 3]; 2]) -> Result<(), SfenErrorKind> {
    let mut count: Option<u8> = None;
    for ch in hands.chars() {
        if let Some(d) = ch.to_digit(10) {
            // One digit: no kind is held more than twice, and a second
            // digit must not replace the first (`12C` is not `2C`).
            if count.is_some() {
                return Err(SfenErrorKind::LongCount {
                    hands: hands.into(),
                });
            }
            count = Some(d as u8);
            continue;
        }
        let slot = match ch.to_ascii_uppercase() {
            'G' => 0,
            'E' => 1,
            'C' => 2,
            _ => return Err(SfenErrorKind::NotInHand { found: ch }),
        };
        let side = usize::from(ch.is_ascii_lowercase());
        let n = &mut held[side][slot];
        *n = n.saturating_add(count.take().unwrap_or(1));
    }
    if count.is_some() {
        return Err(SfenErrorKind::TrailingCount);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_reads_and_writes_back() {
        let (b, sente) = parse("gle/1c1/1C1/ELG b -").unwrap();
        assert!(sente);
        assert_eq!(b, Board::start());
        assert_eq!(write(&b, true), "gle/1c1/1C1/ELG b -");
        // The same board with the second player to move is seen turned.
        let (w, sente) = parse("gle/1c1/1C1/ELG w -").unwrap();
        assert!(!sente);
        assert_eq!(w, Board::start().flipped());
        assert_eq!(write(&w, false), "gle/1c1/1C1/ELG w -");
    }

    #[test]
    fn hands_and_hens_round_trip() {
        for text in ["l2/1H1/3/2L b Cge", "1l1/3/1h1/L2 w Gc", "3/l2/2L/3 b GEge"] {
            let (b, sente) = parse(text).unwrap();
            assert_eq!(write(&b, sente), text);
        }
    }

    #[test]
    fn bad_notation_says_what_is_wrong() {
        for (text, what) in [
            ("", "expected a board"),
            ("gle/1c1/1C1 b", "3 rows"),
            ("gle/1c1/1C1/ELG x", "side to move \"x\""),
            ("gle/1c1/1C1/ELG", "expected the side to move"),
            ("gle/1c1/1C1/ELQ b", "'Q' is no piece"),
            ("gle/1c1/1C1/EL b", "row 4: 2 squares"),
            ("gle/1c1/1C1/EL4 b", "4 empty squares"),
            ("gle/1c1/1C1/ELG b H", "'H' in hand"),
            ("gle/1c1/1C1/ELG b C", "no more than two"),
            ("gle/1c1/1C1/ELL b", "one lion a side"),
            ("gle/1c1/1C1/ELG b - x", "unexpected \"x\""),
            ("l2/3/3/2L b 12C", "a count of more than one digit"),
            (
                "l2/3/3/2L b 0000000000002C",
                "a count of more than one digit",
            ),
        ] {
            let e = parse(text).unwrap_err();
            assert!(e.to_string().contains(what), "{text:?}: {e}");
        }
    }

    /// Each fault is its own kind, with its data: a caller matches on it,
    /// never on the message.
    #[test]
    fn bad_notation_is_refused_with_its_kind() {
        use SfenErrorKind as K;
        for (text, kind) in [
            ("", K::NoBoard),
            ("gle/1c1/1C1/ELG", K::NoSide),
            ("gle/1c1/1C1/ELG x", K::Side { found: "x".into() }),
            ("gle/1c1/1C1/ELG b - x", K::Trailing { found: "x".into() }),
            ("gle/1c1/1C1 b", K::Rows { found: 3 }),
            ("gle/1c1/1C1/EL4 b", K::Empty { row: 4, count: 4 }),
            ("gle/1c1/1C1/ELQ b", K::NotAPiece { row: 4, found: 'Q' }),
            ("gle/1c1/1C1C/ELG b", K::RowTooLong { row: 3 }),
            ("gle/1c1/1C1/EL b", K::RowTooShort { row: 4, squares: 2 }),
            (
                "l2/3/3/2L b 12C",
                K::LongCount {
                    hands: "12C".into(),
                },
            ),
            ("gle/1c1/1C1/ELG b H", K::NotInHand { found: 'H' }),
            ("l2/3/3/2L b C2", K::TrailingCount),
            ("gle/1c1/1C1/ELL b", K::Pieces),
        ] {
            let e = parse(text).unwrap_err();
            assert_eq!((e.text.as_str(), &e.kind), (text, &kind), "{e}");
        }
    }

    #[test]
    fn moves_are_named_from_the_first_player_s_side() {
        let (b, _) = parse("gle/1c1/1C1/ELG b -").unwrap();
        let mut names = Vec::new();
        b.for_each_move(|m, _| names.push(move_name(&m, true)));
        names.sort();
        assert_eq!(
            names,
            ["Cb3xb2", "Gc4-c3", "Lb4-a3", "Lb4-c3"].map(String::from)
        );
        // The second player's moves from its start, named on the same board.
        let (w, _) = parse("gle/1c1/1C1/ELG w -").unwrap();
        let mut names = Vec::new();
        w.for_each_move(|m, _| names.push(move_name(&m, false)));
        names.sort();
        assert_eq!(
            names,
            ["Cb2xb3", "Ga1-a2", "Lb1-a2", "Lb1-c2"].map(String::from)
        );
    }
}
