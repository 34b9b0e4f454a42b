//! Matrix Market coordinate files, read as graphs.
//!
//! ```text
//! %%MatrixMarket matrix coordinate pattern general
//! % comments
//! 3 3 2          <- rows, columns, entries: the size line, not a move
//! 1 2            <- entry (1, 2): the move 0 -> 1 (ids start at 1)
//! 3 1
//! ```
//!
//! After the banner and comments comes the size line, then exactly
//! `entries` entries (a file with fewer or more is refused, naming the line
//! where one is missing or the first one too many). An entry `i j` (with an
//! optional value, ignored) is the move `i - 1 -> j - 1`. A `symmetric`, `skew-symmetric` or `hermitian` matrix stores one
//! triangle: each entry off the diagonal is then both moves. The vertex count
//! is the larger of the row and column counts. Dense `array` files are not
//! graphs and are refused.

/// What the header and the size line of a Matrix Market file say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Header {
    /// Whether an entry off the diagonal stands for both moves.
    pub symmetric: bool,
    /// The larger of the row and column counts: the vertex count.
    pub vertices: u64,
    /// Where the entries start: the byte after the size line.
    pub body: usize,
}

/// The banner every Matrix Market file starts with.
const BANNER: &[u8] = b"%%MatrixMarket";

/// Whether `data` is a Matrix Market file (it starts with the banner).
pub(crate) fn is_matrix_market(data: &[u8]) -> bool {
    data.starts_with(BANNER)
}

use super::text::{Scanner, split_lines};

/// A fault in the header: its 1-based line and what was expected.
pub(crate) type Fault = (u64, String);

/// The header of `data` if it is a Matrix Market file (it starts with
/// `%%MatrixMarket`), `Ok(None)` if it is not one.
pub(crate) fn header(data: &[u8]) -> Result<Option<Header>, Fault> {
    if !is_matrix_market(data) {
        return Ok(None);
    }
    let mut lines = data.split_inclusive(|&b| b == b'\n');
    let first = lines.next().unwrap_or_default();
    let words: Vec<String> = String::from_utf8_lossy(first)
        .split_whitespace()
        .map(str::to_ascii_lowercase)
        .collect();
    let word = |i: usize| words.get(i).map_or("", String::as_str);
    if word(1) != "matrix" {
        return Err((
            1,
            format!("expected `%%MatrixMarket matrix ...`, found {:?}", word(1)),
        ));
    }
    if word(2) != "coordinate" {
        return Err((
            1,
            format!(
                "expected a coordinate matrix (a dense `{}` is not a graph)",
                word(2)
            ),
        ));
    }
    if !matches!(word(3), "pattern" | "real" | "integer" | "complex") {
        return Err((
            1,
            format!(
                "expected the field pattern, real, integer or complex, found {:?}",
                word(3)
            ),
        ));
    }
    let symmetric = match word(4) {
        "general" => false,
        "symmetric" | "skew-symmetric" | "hermitian" => true,
        other => {
            return Err((
                1,
                format!(
                    "expected the symmetry general, symmetric, skew-symmetric or hermitian, found {other:?}"
                ),
            ));
        }
    };
    let mut at = first.len();
    for (k, line) in lines.enumerate() {
        let number = k as u64 + 2;
        at += line.len();
        let text = String::from_utf8_lossy(line);
        let t = text.trim();
        if t.is_empty() || t.starts_with('%') {
            continue;
        }
        let sizes: Vec<Option<u64>> = t.split_whitespace().map(|w| w.parse().ok()).collect();
        let [Some(rows), Some(cols), Some(entries)] = sizes[..] else {
            return Err((
                number,
                format!("expected the size line `rows columns entries`, found {t:?}"),
            ));
        };
        let vertices = rows.max(cols);
        if vertices > crate::graph::MAX_VERTICES as u64 {
            return Err((
                number,
                format!(
                    "the matrix has {vertices} rows or columns, more than the {} vertices that u32 ids allow",
                    crate::graph::MAX_VERTICES
                ),
            ));
        }
        let h = Header {
            symmetric,
            vertices,
            body: at,
        };
        check_entries(data, &h, number, entries)?;
        return Ok(Some(h));
    }
    Err((
        first.len().min(1) as u64 + 1,
        "expected the size line `rows columns entries`, found the end of the file".to_string(),
    ))
}

/// Refuses a body whose entries are not the `entries` the size line (line
/// `size_line`) declares: fewer names the line where the next one was due,
/// more the first one too many. Entries are counted on all threads by the
/// rule the reader reads them by ([`Scanner::next_record`]).
fn check_entries(data: &[u8], h: &Header, size_line: u64, entries: u64) -> Result<(), Fault> {
    use rayon::prelude::*;
    let body = &data[h.body..];
    let path = std::path::Path::new("");
    let parts = split_lines(body, rayon::current_num_threads());
    let counts: Vec<u64> = parts
        .par_iter()
        .map(|r| {
            let mut s = Scanner::chunk(body, r.clone(), path);
            let mut n = 0u64;
            while s.next_record() {
                n += 1;
                s.skip_line();
            }
            n
        })
        .collect();
    let found: u64 = counts.iter().sum();
    let lines_before = |at: usize| 1 + data[..at].iter().filter(|&&b| b == b'\n').count() as u64;
    if found < entries {
        let end = if data.ends_with(b"\n") { 0 } else { 1 };
        return Err((
            lines_before(data.len()) + end,
            format!(
                "the size line (line {size_line}) declares {entries} entries, but the file ends after {found}"
            ),
        ));
    }
    if found > entries {
        // The first entry too many: the (entries + 1)th, in the part that holds it.
        let (mut before, mut part) = (0u64, 0);
        while before + counts[part] <= entries {
            before += counts[part];
            part += 1;
        }
        let mut s = Scanner::chunk(body, parts[part].clone(), path);
        while s.next_record() && before < entries {
            before += 1;
            s.skip_line();
        }
        let at = h.body + parts[part].start + s.pos;
        return Err((
            lines_before(at),
            format!("the size line (line {size_line}) declares {entries} entries, but more follow"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_and_size_line_are_read() {
        let h = header(b"%%MatrixMarket matrix coordinate real symmetric\n% c\n\n4 3 1\n1 2 0.5\n")
            .unwrap()
            .unwrap();
        assert!(h.symmetric);
        assert_eq!(h.vertices, 4);
        assert_eq!(
            h.body,
            b"%%MatrixMarket matrix coordinate real symmetric\n% c\n\n4 3 1\n".len()
        );
        assert_eq!(header(b"0 1\n").unwrap(), None);
    }

    #[test]
    fn what_is_not_a_coordinate_graph_is_refused() {
        let e = header(b"%%MatrixMarket matrix array real general\n2 2\n").unwrap_err();
        assert!(e.1.contains("a dense `array` is not a graph"), "{e:?}");
        let e = header(b"%%MatrixMarket matrix coordinate real general\n% only\n").unwrap_err();
        assert!(e.1.contains("size line"), "{e:?}");
        let e = header(b"%%MatrixMarket matrix coordinate real general\n3 x 1\n").unwrap_err();
        assert_eq!(e.0, 2);
    }

    #[test]
    fn a_size_line_past_u32_ids_is_refused_on_its_line() {
        // u64::MAX rows once made the entry bound `rows + 1` wrap to 0.
        let e = header(b"%%MatrixMarket matrix coordinate pattern general\n% c\n18446744073709551615 1 1\n1 1\n")
            .unwrap_err();
        assert_eq!(e.0, 3);
        assert!(e.1.contains("more than the 4294967295 vertices"), "{e:?}");
        let e = header(b"%%MatrixMarket matrix coordinate pattern general\n4294967296 1 0\n")
            .unwrap_err();
        assert_eq!(e.0, 2);
    }

    #[test]
    fn entries_fewer_or_more_than_the_size_line_declares_are_refused_naming_the_line() {
        let mm = |body: &str| {
            header(
                format!("%%MatrixMarket matrix coordinate pattern general\n3 3 2\n{body}")
                    .as_bytes(),
            )
        };
        assert!(mm("1 2\n% c\n\n2 3\n").unwrap().is_some());
        let e = mm("1 2\n").unwrap_err();
        assert_eq!(
            e,
            (
                4,
                "the size line (line 2) declares 2 entries, but the file ends after 1".to_string()
            )
        );
        assert_eq!(mm("1 2").unwrap_err().0, 4);
        assert_eq!(mm("").unwrap_err().0, 3);
        let e = mm("1 2\n2 3\n\n% c\n3 1\n1 1\n").unwrap_err();
        assert_eq!(
            e,
            (
                7,
                "the size line (line 2) declares 2 entries, but more follow".to_string()
            )
        );
        // Counted in parts on all threads: the line is the same in any part.
        let body: String = (0..5000).map(|i| format!("{} 1\n", i % 3 + 1)).collect();
        let text = format!("%%MatrixMarket matrix coordinate pattern general\n3 3 4000\n{body}");
        for threads in [1, 2, 3, 7] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            assert_eq!(
                pool.install(|| header(text.as_bytes())).unwrap_err().0,
                4003
            );
        }
    }
}
