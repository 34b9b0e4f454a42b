//! Moves read in standard algebraic notation (SAN), as people write them:
//! `Kb3`, `Rxa2`, `Nbd7`, `R1a3`, `Qh4+`, `Kxh7#`, beside the long form
//! the game names moves with (`Ra1-a8`, `Kg8xh7`).
//!
//! A SAN move names the man (none for a pawn), the square it goes to and,
//! where two men of a kind could go there, the file or rank (or both) it
//! comes from; `x` marks a capture, `+` and `#` a check or mate, `=Q` a
//! promotion. The reader is lenient where no ambiguity can arise: a missing
//! `x`, a check mark where there is none, `!` and `?` are accepted. It is
//! strict where a different move could be meant: the man's letter is read
//! in capitals only (`b` is a file, `B` a bishop), a named capture must
//! capture, and a move two men could make needs the square it comes from.

use super::Move;

/// A move as SAN writes it, before it is matched against the legal moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct San {
    /// The man's letter in upper case (`K`, `Q`, `R`, `B`, `N`; `P` for a pawn).
    man: char,
    /// The file (0 = a) and rank (0 = 1) it comes from, where given.
    from_file: Option<u8>,
    from_rank: Option<u8>,
    /// Whether the text marks a capture.
    capture: bool,
    /// The square it goes to.
    to: u8,
    /// The man a pawn becomes, where given.
    promotion: Option<char>,
}

/// Reads `text` as a SAN move; `None` if it is not one.
fn parse(text: &str) -> Option<San> {
    let text = text.trim().trim_end_matches(['+', '#', '!', '?']);
    let bytes = text.as_bytes();
    let (body, promotion) = match bytes {
        [rest @ .., b'=', p] => (rest, Some(*p)),
        _ => (bytes, None),
    };
    let promotion = match promotion {
        None => None,
        Some(p @ (b'Q' | b'R' | b'B' | b'N')) => Some(char::from(p)),
        Some(_) => return None,
    };
    let (man, rest) = match body {
        [m @ (b'K' | b'Q' | b'R' | b'B' | b'N'), rest @ ..] => (char::from(*m), rest),
        _ => ('P', body),
    };
    // The destination is the last two characters.
    let [disambiguation @ .., f, r] = rest else {
        return None;
    };
    let to = square(*f, *r)?;
    let (disambiguation, capture) = match disambiguation {
        [d @ .., b'x'] => (d, true),
        d => (d, false),
    };
    let (from_file, from_rank) = match disambiguation {
        [] => (None, None),
        [c @ b'a'..=b'h'] => (Some(c - b'a'), None),
        [c @ b'1'..=b'8'] => (None, Some(c - b'1')),
        [f, r] => {
            let s = square(*f, *r)?;
            (Some(s & 7), Some(s >> 3))
        }
        _ => return None,
    };
    Some(San {
        man,
        from_file,
        from_rank,
        capture,
        to,
        promotion,
    })
}

/// The square of file letter `f` and rank digit `r`.
fn square(f: u8, r: u8) -> Option<u8> {
    match (f, r) {
        (b'a'..=b'h', b'1'..=b'8') => Some((r - b'1') * 8 + (f - b'a')),
        _ => None,
    }
}

/// Whether `m` is the move `san` describes: a promotion must name the
/// man the pawn becomes, and only a promotion may name one.
fn matches(san: &San, m: &Move) -> bool {
    m.man.to_ascii_uppercase() == san.man
        && m.to_square == san.to
        && san.from_file.is_none_or(|f| m.from & 7 == f)
        && san.from_rank.is_none_or(|r| m.from >> 3 == r)
        && (!san.capture || m.capture)
        && san.promotion == m.promotion.map(|p| p.letter())
}

/// The one move among `moves` (a position's legal moves) that `text` names
/// in SAN; `None` if it names none, or more than one.
pub(super) fn find(text: &str, moves: &[Move]) -> Option<Move> {
    let san = parse(text)?;
    let mut found = moves.iter().filter(|m| matches(&san, m));
    let first = *found.next()?;
    found.next().is_none().then_some(first)
}

/// `m` in SAN, one of `moves` (its position's legal moves): the man, the
/// file or rank it comes from where another man of its kind could go to
/// the same square (both if neither tells them apart), `x` for a capture,
/// `=Q` for a promotion, then `+` if it gives check or `#` if it mates
/// (`check` and `mate` say which). A pawn's capture names its file.
pub(super) fn write(m: &Move, moves: &[Move], check: bool, mate: bool) -> String {
    let sq = |s: u8| format!("{}{}", char::from(b'a' + (s & 7)), (s >> 3) + 1);
    let file = |s: u8| char::from(b'a' + (s & 7));
    let rank = |s: u8| char::from(b'1' + (s >> 3));
    let man = m.man.to_ascii_uppercase();
    let mut out = String::new();
    if man == 'P' {
        if m.capture {
            out.push(file(m.from));
        }
    } else {
        out.push(man);
        let rivals: Vec<&Move> = moves
            .iter()
            .filter(|o| o.man == m.man && o.to_square == m.to_square && o.from != m.from)
            .collect();
        if !rivals.is_empty() {
            if rivals.iter().all(|o| o.from & 7 != m.from & 7) {
                out.push(file(m.from));
            } else if rivals.iter().all(|o| o.from >> 3 != m.from >> 3) {
                out.push(rank(m.from));
            } else {
                out.push_str(&sq(m.from));
            }
        }
    }
    if m.capture {
        out.push('x');
    }
    out.push_str(&sq(m.to_square));
    if let Some(p) = m.promotion {
        out.push('=');
        out.push(p.letter());
    }
    if mate {
        out.push('#');
    } else if check {
        out.push('+');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::Position;
    use super::*;

    fn mv(man: char, from: &str, to: &str, capture: bool) -> Move {
        let sq = |s: &str| square(s.as_bytes()[0], s.as_bytes()[1]).unwrap();
        Move {
            man,
            from: sq(from),
            to_square: sq(to),
            capture,
            promotion: None,
            to: Position(0),
        }
    }

    #[test]
    fn san_reads_the_man_the_square_and_the_marks() {
        let moves = [
            mv('K', "c1", "b2", false),
            mv('R', "a1", "a2", true),
            mv('R', "h1", "h2", false),
        ];
        assert_eq!(find("Kb2", &moves), Some(moves[0]));
        assert_eq!(find("Rxa2", &moves), Some(moves[1]));
        // A capture without its x, and check marks, are still the move.
        assert_eq!(find("Ra2+", &moves), Some(moves[1]));
        assert_eq!(find("Rh2#", &moves), Some(moves[2]));
        // A named capture must capture; a lower-case letter is a file.
        assert_eq!(find("Rxh2", &moves), None);
        assert_eq!(find("kb2", &moves), None);
        assert_eq!(find("Kb3", &moves), None);
        assert_eq!(find("", &moves), None);
        assert_eq!(find("K", &moves), None);
        assert_eq!(find("Ki9", &moves), None);
    }

    #[test]
    fn san_is_written_as_it_is_read() {
        let moves = [
            mv('N', "b1", "d2", false),
            mv('N', "f3", "d2", false),
            mv('R', "a1", "a3", false),
            mv('R', "a5", "a3", false),
            mv('Q', "a1", "c3", true),
            mv('Q', "c1", "c3", true),
            mv('Q', "a3", "c3", true),
            mv('K', "e1", "e2", false),
            mv('P', "d5", "c6", true),
        ];
        let written: Vec<String> = moves
            .iter()
            .map(|m| write(m, &moves, false, false))
            .collect();
        assert_eq!(
            written,
            [
                "Nbd2", "Nfd2", "R1a3", "R5a3", "Qa1xc3", "Qcxc3", "Q3xc3", "Ke2", "dxc6"
            ]
        );
        // Every written move reads back as itself, and only itself.
        for (m, w) in moves.iter().zip(&written) {
            assert_eq!(find(w, &moves), Some(*m), "{w}");
        }
        assert_eq!(write(&moves[7], &moves, true, false), "Ke2+");
        assert_eq!(write(&moves[7], &moves, true, true), "Ke2#");
        let queen = Move {
            promotion: Some(super::super::Piece::Queen),
            ..mv('P', "e7", "e8", false)
        };
        assert_eq!(write(&queen, &[queen], false, false), "e8=Q");
    }

    #[test]
    fn san_needs_the_origin_when_two_men_can_go_there() {
        let moves = [mv('N', "b1", "d2", false), mv('N', "f3", "d2", false)];
        assert_eq!(find("Nd2", &moves), None);
        assert_eq!(find("Nbd2", &moves), Some(moves[0]));
        assert_eq!(find("Nfd2", &moves), Some(moves[1]));
        assert_eq!(find("N3d2", &moves), Some(moves[1]));
        assert_eq!(find("Nf3d2", &moves), Some(moves[1]));
        assert_eq!(find("Ngd2", &moves), None);
    }

    #[test]
    fn san_promotions_name_the_man_and_pawns_their_file() {
        let queen = Move {
            promotion: Some(super::super::Piece::Queen),
            ..mv('P', "e7", "e8", false)
        };
        let knight = Move {
            promotion: Some(super::super::Piece::Knight),
            ..queen
        };
        let moves = [
            mv('K', "e7", "f8", false),
            queen,
            knight,
            mv('P', "d5", "c6", true),
        ];
        assert_eq!(find("e8=Q", &moves), Some(queen));
        assert_eq!(find("e8=N+", &moves), Some(knight));
        assert_eq!(find("e8", &moves), None);
        assert_eq!(find("e8=K", &moves), None);
        assert_eq!(find("Kf8", &moves), Some(moves[0]));
        assert_eq!(find("dxc6", &moves), Some(moves[3]));
        assert_eq!(find("c6", &moves), Some(moves[3]));
    }
}
