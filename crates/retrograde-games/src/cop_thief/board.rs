//! The board file of the cop and the thief, and its errors.

use std::fmt;
use std::path::{Path, PathBuf};

use retrograde::memory::human_bytes;

/// What stands on a cell of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// `*`: no one may enter.
    Wall,
    /// Any other character (including `P` and `T`, the start cells).
    Free,
    /// `E`: the thief escapes here (if the cop is not on it).
    Exit,
}

/// A parsed board: its cells and the two start cells. Rows and columns count from 0.
///
/// The format: a header line `rows columns` (two positive integers), then
/// `rows` lines of exactly `columns` characters each: `*` a wall, `P` the
/// cop's start, `T` the thief's start, `E` an exit (any number of them),
/// anything else a free cell. Exactly one `P` and one `T`. Blank lines and
/// lines starting with `#` may come before the header (comments), blank lines
/// after the last row; line ends may be `\n` or `\r\n`.
///
/// ```
/// use retrograde_games::cop_thief::{Board, Cell};
/// let b = Board::parse(b"# a corridor\n1 4\nP.TE\n", "corridor.txt").unwrap();
/// assert_eq!((b.rows(), b.cols()), (1, 4));
/// assert_eq!((b.cop(), b.thief()), ((0, 0), (0, 2)));
/// assert_eq!(b.cell(0, 3), Cell::Exit);
/// let e = Board::parse(b"1 4\nP.T\n", "bad.txt").unwrap_err();
/// assert_eq!(e.to_string(), "bad.txt:line 2: expected a row of 4 characters, found 3");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    path: PathBuf,
    rows: usize,
    cols: usize,
    cells: Vec<Cell>,
    cop: (usize, usize),
    thief: (usize, usize),
}

impl Board {
    /// Parses a board from the bytes of a file named `path` (used in errors).
    ///
    /// # Errors
    /// A [`BoardError`] naming the file, the line and what was expected.
    ///
    /// # Complexity
    /// Time and memory **O(size of the input)**; nothing is allocated from the
    /// header's numbers before the rows are read.
    pub fn parse(bytes: &[u8], path: impl Into<PathBuf>) -> Result<Board, BoardError> {
        let path = path.into();
        let err = |(line, kind): Fault| BoardError {
            path: path.clone(),
            line,
            kind,
        };
        let mut lines = split_lines(bytes).into_iter();
        let (rows, cols, hline) = read_header(&mut lines).map_err(err)?;
        let starts = read_rows(&mut lines, rows, cols, hline).map_err(err)?;
        check_after_rows(lines, rows).map_err(err)?;
        let missing = |piece| err((None, BoardErrorKind::Missing { piece }));
        let cop = starts.cop.ok_or_else(|| missing(Piece::Cop))?.0;
        let thief = starts.thief.ok_or_else(|| missing(Piece::Thief))?.0;
        Ok(Board {
            path,
            rows,
            cols,
            cells: starts.cells,
            cop,
            thief,
        })
    }

    /// The file the board came from (as given to [`Board::parse`]).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The cell at row `r`, column `c`. Panics outside the board.
    pub fn cell(&self, r: usize, c: usize) -> Cell {
        assert!(
            r < self.rows && c < self.cols,
            "({r}, {c}) is off the board"
        );
        self.cells[r * self.cols + c]
    }

    /// The cop's start cell, `(row, column)`.
    pub fn cop(&self) -> (usize, usize) {
        self.cop
    }

    /// The thief's start cell, `(row, column)`.
    pub fn thief(&self) -> (usize, usize) {
        self.thief
    }

    /// How many cells are not walls.
    pub fn free_cells(&self) -> usize {
        self.cells.iter().filter(|&&c| c != Cell::Wall).count()
    }
}

/// A fault in a board file: the line (`None`: the whole file) and what.
type Fault = (Option<u64>, BoardErrorKind);

/// The lines of `bytes` without their ends (`\n` or `\r\n`), numbered from
/// 1; a final newline does not start another line.
fn split_lines(bytes: &[u8]) -> Vec<(&[u8], u64)> {
    if bytes.is_empty() {
        return Vec::new();
    }
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    body.split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .zip(1u64..)
        .collect()
}

/// Whether a line holds only white space.
fn blank(l: &[u8]) -> bool {
    l.iter().all(u8::is_ascii_whitespace)
}

/// Reads the header, after comments and blank lines: the rows, the
/// columns and the header's line.
fn read_header<'a>(
    lines: &mut impl Iterator<Item = (&'a [u8], u64)>,
) -> Result<(usize, usize, u64), Fault> {
    let mut last = 0;
    let (header, hline) = loop {
        match lines.next() {
            Some((l, n)) if blank(l) || l.starts_with(b"#") => last = n,
            Some(h) => break h,
            None => {
                let found = "the end of the input".into();
                return Err((Some(last + 1), BoardErrorKind::Header { found }));
            }
        }
    };
    let dims: Vec<Option<usize>> = header
        .split(u8::is_ascii_whitespace)
        .filter(|t| !t.is_empty())
        .map(|t| {
            let digits = t.iter().all(u8::is_ascii_digit);
            let n = std::str::from_utf8(t).ok()?.parse::<usize>().ok();
            n.filter(|&n| digits && n > 0)
        })
        .collect();
    match dims[..] {
        [Some(r), Some(c)] => Ok((r, c, hline)),
        _ => {
            let found = quote(header);
            Err((Some(hline), BoardErrorKind::Header { found }))
        }
    }
}

/// The cells read so far, and where each piece starts (its cell and line).
#[derive(Default)]
struct Rows {
    cells: Vec<Cell>,
    cop: Option<((usize, usize), u64)>,
    thief: Option<((usize, usize), u64)>,
}

/// Reads the `rows` rows of `cols` characters each that follow the header
/// on line `hline`.
fn read_rows<'a>(
    lines: &mut impl Iterator<Item = (&'a [u8], u64)>,
    rows: usize,
    cols: usize,
    hline: u64,
) -> Result<Rows, Fault> {
    let mut read = Rows::default();
    let mut last = hline;
    for r in 0..rows {
        let Some((line, n)) = lines.next() else {
            let kind = BoardErrorKind::MissingRows {
                declared: rows,
                found: r,
            };
            return Err((Some(last + 1), kind));
        };
        last = n;
        read.row(r, line, n, cols)?;
    }
    Ok(read)
}

impl Rows {
    /// Reads row `r`, the text of line `n`, which must hold `cols`
    /// characters, at most one of each piece in the whole board.
    fn row(&mut self, r: usize, line: &[u8], n: u64, cols: usize) -> Result<(), Fault> {
        let text = String::from_utf8_lossy(line);
        let len = text.chars().count();
        if len != cols {
            let kind = BoardErrorKind::RowLength {
                expected: cols,
                found: len,
            };
            return Err((Some(n), kind));
        }
        for (c, ch) in text.chars().enumerate() {
            self.cells.push(match ch {
                '*' => Cell::Wall,
                'E' => Cell::Exit,
                _ => Cell::Free,
            });
            let (slot, piece) = match ch {
                'P' => (&mut self.cop, Piece::Cop),
                'T' => (&mut self.thief, Piece::Thief),
                _ => continue,
            };
            if let Some((_, first_line)) = *slot {
                return Err((Some(n), BoardErrorKind::Several { piece, first_line }));
            }
            *slot = Some(((r, c), n));
        }
        Ok(())
    }
}

/// Refuses anything but blank lines after the `rows` rows.
fn check_after_rows<'a>(
    lines: impl Iterator<Item = (&'a [u8], u64)>,
    rows: usize,
) -> Result<(), Fault> {
    for (line, n) in lines {
        if !blank(line) {
            return Err((Some(n), BoardErrorKind::ExtraRows { declared: rows }));
        }
    }
    Ok(())
}

/// `"text"`, shortened to 40 characters.
fn quote(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let short: String = text.chars().take(40).collect();
    if short.len() < text.len() {
        format!("{short:?}...")
    } else {
        format!("{short:?}")
    }
}

/// One of the two pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece {
    /// The cop, `P`.
    Cop,
    /// The thief, `T`.
    Thief,
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Piece::Cop => "`P` (the cop's start)",
            Piece::Thief => "`T` (the thief's start)",
        })
    }
}

/// A board that cannot be played: where, and what was wrong.
#[derive(Debug, thiserror::Error)]
#[error("{}{}: {kind}", retrograde::io::paths::shown(path), line.map_or_else(String::new, |l| format!(":line {l}")))]
pub struct BoardError {
    /// The file (`-` for standard input).
    pub path: PathBuf,
    /// The 1-based line at fault, if the problem is on one line.
    pub line: Option<u64>,
    /// What was wrong.
    pub kind: BoardErrorKind,
}

/// What was wrong with a board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BoardErrorKind {
    /// The header is not two positive integers.
    #[error("expected the header: two positive integers, the rows and the columns, found {found}")]
    Header {
        /// What the header line holds (quoted), or "the end of the input".
        found: String,
    },
    /// The input ended before all declared rows.
    #[error("the header declares {declared} rows, but the input ends after {found}")]
    MissingRows {
        /// Rows declared by the header.
        declared: usize,
        /// Rows present.
        found: usize,
    },
    /// A non-blank line follows the declared rows.
    #[error("the header declares {declared} rows, but more follow")]
    ExtraRows {
        /// Rows declared by the header.
        declared: usize,
    },
    /// A row has the wrong number of characters.
    #[error("expected a row of {expected} characters, found {found}")]
    RowLength {
        /// Columns declared by the header.
        expected: usize,
        /// Characters in the row.
        found: usize,
    },
    /// A start cell is missing.
    #[error("the board has no {piece}; it needs exactly one")]
    Missing {
        /// Whose start is missing.
        piece: Piece,
    },
    /// A start cell appears twice.
    #[error("a second {piece} (the first is on line {first_line}); the board needs exactly one")]
    Several {
        /// Whose start appears twice.
        piece: Piece,
        /// The line of the first one.
        first_line: u64,
    },
    /// The board has more positions than `u32` ids can number.
    #[error(
        "{free_cells} free cells make {positions} positions, more than the {} that u32 ids allow",
        retrograde::graph::MAX_VERTICES
    )]
    TooManyPositions {
        /// Cells that are not walls.
        free_cells: u64,
        /// Positions: 2 × free cells².
        positions: u64,
    },
    /// Solving the board would need more memory than allowed.
    #[error("{free_cells} free cells make {positions} positions, which would need about {} of memory to solve{}, more than the {} allowed", human_bytes(*needed), in_each(*processes), human_bytes(*limit))]
    TooLarge {
        /// Cells that are not walls.
        free_cells: u64,
        /// Positions: 2 × free cells².
        positions: u64,
        /// Bytes the solve would need (in each process, when the positions
        /// are shared among several).
        needed: u64,
        /// The processes sharing the positions (1 without a cluster).
        processes: u64,
        /// Bytes allowed.
        limit: u64,
    },
}

fn in_each(processes: u64) -> String {
    if processes > 1 {
        format!(" in each of {processes} processes")
    } else {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        Board::parse(text.as_bytes(), "b.txt")
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn parses_comments_crlf_and_any_free_character() {
        let b = Board::parse(b"# c\n\n2 3\r\nP a\r\n*ET\r\n\n", "b.txt").unwrap();
        assert_eq!((b.rows(), b.cols(), b.free_cells()), (2, 3, 5));
        assert_eq!(b.cell(0, 1), Cell::Free);
        assert_eq!(b.cell(1, 0), Cell::Wall);
        assert_eq!((b.cop(), b.thief()), ((0, 0), (1, 2)));
        // No final newline, and a multi-byte character counts as one.
        let b = Board::parse("1 3\nPéT".as_bytes(), "b.txt").unwrap();
        assert_eq!(b.cell(0, 1), Cell::Free);
    }

    #[test]
    fn every_bad_board_names_its_line() {
        assert_eq!(
            error(""),
            "b.txt:line 1: expected the header: two positive integers, the rows and the columns, found the end of the input"
        );
        assert!(error("# only\n2 x\n").starts_with("b.txt:line 2: expected the header"));
        assert!(error("0 3\n").contains("found \"0 3\""));
        assert!(error("2 3 4\n").contains("line 1"));
        assert!(error("-2 3\n").contains("header"));
        assert!(error("99999999999999999999999 3\n").contains("header"));
        assert_eq!(
            error("2 2\nPT\n"),
            "b.txt:line 3: the header declares 2 rows, but the input ends after 1"
        );
        assert_eq!(
            error("1 2\nPT\n..\n"),
            "b.txt:line 3: the header declares 1 rows, but more follow"
        );
        assert_eq!(
            error("2 2\nPT\n...\n"),
            "b.txt:line 3: expected a row of 2 characters, found 3"
        );
        assert_eq!(
            error("1 2\n..\n"),
            "b.txt: the board has no `P` (the cop's start); it needs exactly one"
        );
        assert!(error("1 2\nP.\n").contains("no `T`"));
        assert_eq!(
            error("2 2\nPT\nP.\n"),
            "b.txt:line 3: a second `P` (the cop's start) (the first is on line 2); the board needs exactly one"
        );
        assert!(error("1 3\nPTT\n").contains("a second `T`"));
    }
}
