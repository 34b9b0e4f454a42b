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
//! An entry `i j` (with an optional value, ignored) is the move `i - 1 ->
//! j - 1`. A `symmetric`, `skew-symmetric` or `hermitian` matrix stores one
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

/// A fault in the header: its 1-based line and what was expected.
pub(crate) type Fault = (u64, String);

/// The header of `data` if it is a Matrix Market file (it starts with
/// `%%MatrixMarket`), `Ok(None)` if it is not one.
pub(crate) fn header(data: &[u8]) -> Result<Option<Header>, Fault> {
    const BANNER: &[u8] = b"%%MatrixMarket";
    if !data.starts_with(BANNER) {
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
            ))
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
        return match sizes.as_slice() {
            [Some(rows), Some(cols), Some(_entries)] => Ok(Some(Header {
                symmetric,
                vertices: (*rows).max(*cols),
                body: at,
            })),
            _ => Err((
                number,
                format!("expected the size line `rows columns entries`, found {t:?}"),
            )),
        };
    }
    Err((
        first.len().min(1) as u64 + 1,
        "expected the size line `rows columns entries`, found the end of the file".to_string(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_and_size_line_are_read() {
        let h = header(b"%%MatrixMarket matrix coordinate real symmetric\n% c\n\n4 3 2\n1 2 0.5\n")
            .unwrap()
            .unwrap();
        assert!(h.symmetric);
        assert_eq!(h.vertices, 4);
        assert_eq!(
            h.body,
            b"%%MatrixMarket matrix coordinate real symmetric\n% c\n\n4 3 2\n".len()
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
}
