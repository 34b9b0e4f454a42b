//! The solution file: one line per vertex, in vertex order.
//!
//! `vertex<TAB>outcome<TAB>remoteness<TAB>move`, where outcome is `win`,
//! `lose` or `draw`, remoteness is `-` for a draw and move is `-` where there
//! is none (terminal positions).
//!
//! ```text
//! 0<TAB>lose<TAB>2<TAB>1
//! 1<TAB>win<TAB>1<TAB>2
//! 2<TAB>lose<TAB>0<TAB>-
//! 3<TAB>draw<TAB>-<TAB>4
//! ```

use std::io::{self, Write};

use crate::Solution;

/// Writes the line of vertex `v` (with its newline).
///
/// # Panics
/// If `s` stores no best moves (see [`Solution::with_best_moves`]).
pub fn write_line(w: &mut dyn Write, s: &Solution, v: u32) -> io::Result<()> {
    let mut buf = [0u8; 48];
    let n = format_line(&mut buf, s, v);
    w.write_all(&buf[..n])
}

/// Formats the line of `v` into `buf`, returns its length. 48 bytes always suffice.
fn format_line(buf: &mut [u8; 48], s: &Solution, v: u32) -> usize {
    let mut itoa = itoa::Buffer::new();
    let mut n = 0;
    let mut put = |bytes: &[u8], n: &mut usize| {
        buf[*n..*n + bytes.len()].copy_from_slice(bytes);
        *n += bytes.len();
    };
    put(itoa.format(v).as_bytes(), &mut n);
    put(b"\t", &mut n);
    put(s.outcome(v).as_str().as_bytes(), &mut n);
    put(b"\t", &mut n);
    match s.remoteness(v) {
        Some(r) => put(itoa.format(r).as_bytes(), &mut n),
        None => put(b"-", &mut n),
    }
    put(b"\t", &mut n);
    match s.best_move(v) {
        Some(m) => put(itoa.format(m).as_bytes(), &mut n),
        None => put(b"-", &mut n),
    }
    put(b"\n", &mut n);
    n
}

/// Writes every vertex's line, in vertex order.
///
/// # Panics
/// If `s` stores no best moves (see [`Solution::with_best_moves`]).
pub fn write(w: &mut dyn Write, s: &Solution) -> io::Result<()> {
    let mut chunk = Vec::with_capacity(1 << 16);
    let mut buf = [0u8; 48];
    for v in 0..s.len() as u32 {
        let n = format_line(&mut buf, s, v);
        chunk.extend_from_slice(&buf[..n]);
        if chunk.len() > (1 << 16) - 48 {
            w.write_all(&chunk)?;
            chunk.clear();
        }
    }
    w.write_all(&chunk)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{solve, Csr, Rules};

    #[test]
    fn writes_the_documented_format() {
        let g = Csr::from_edges(5, &[(0, 1), (1, 2), (3, 4), (4, 3)]);
        let s = solve(&g, &Rules::normal()).unwrap();
        let mut out = Vec::new();
        write(&mut out, &s).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "0\tlose\t2\t1\n1\twin\t1\t2\n2\tlose\t0\t-\n3\tdraw\t-\t4\n4\tdraw\t-\t3\n"
        );
    }
}
