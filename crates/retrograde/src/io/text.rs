//! Byte-level scanning shared by the text formats: no allocation per line.
//!
//! Lines are separated by `\n` (a `\r` before it is ignored); fields by spaces
//! or tabs; blank lines and lines whose first non-blank byte is `#` or `%` are
//! comments. Line numbers are only computed when an error is reported.

use std::path::Path;

use crate::error::Error;

/// Writes `header` as `# ` comment lines, which every text reader skips.
pub(crate) fn write_header(w: &mut dyn std::io::Write, header: &str) -> std::io::Result<()> {
    for line in header.lines() {
        writeln!(w, "# {line}")?;
    }
    Ok(())
}

/// The exclusive bound on vertex ids (`--vertices`, else the largest u32 id)
/// and the message for an id at or past it.
pub(crate) fn vertex_id_limit(vertices: Option<usize>) -> (u64, impl Fn(u64) -> String) {
    // Never past u32::MAX, whatever the count says: ids are read into u32s,
    // and one past would wrap to a small id.
    let limit = vertices.map_or(u64::from(u32::MAX), |n| (n as u64).min(u64::from(u32::MAX)));
    let too_big = move |x: u64| match vertices {
        Some(n) if x >= n as u64 => format!("vertex id {x} is not below the vertex count {n}"),
        _ => format!(
            "vertex id {x} is too large (the largest allowed is {})",
            u32::MAX - 1
        ),
    };
    (limit, too_big)
}

#[cfg(test)]
thread_local! {
    /// The bytes [`Scanner::line`] has scanned on this thread: the work a
    /// reader spends on line numbers, which tests hold to one pass.
    pub(crate) static LINE_SCAN_BYTES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// A cursor over the bytes of a text input.
pub(crate) struct Scanner<'a> {
    /// The bytes scanned (a chunk of `full`, starting at `base`).
    pub(crate) data: &'a [u8],
    pub(crate) pos: usize,
    full: &'a [u8],
    base: usize,
    path: &'a Path,
}

#[inline]
fn is_blank(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

impl<'a> Scanner<'a> {
    pub(crate) fn new(data: &'a [u8], path: &'a Path) -> Scanner<'a> {
        Scanner::chunk(data, 0..data.len(), path)
    }

    /// Scans `full[range]`; line numbers still count from the start of `full`.
    pub(crate) fn chunk(
        full: &'a [u8],
        range: std::ops::Range<usize>,
        path: &'a Path,
    ) -> Scanner<'a> {
        Scanner {
            data: &full[range.clone()],
            pos: 0,
            full,
            base: range.start,
            path,
        }
    }

    /// Moves to the first field of the next line holding data; false at the end.
    #[inline]
    pub(crate) fn next_record(&mut self) -> bool {
        let d = self.data;
        loop {
            while self.pos < d.len() && is_blank(d[self.pos]) {
                self.pos += 1;
            }
            match d.get(self.pos) {
                None => return false,
                Some(b'\n') => self.pos += 1,
                Some(b'\r') if d.get(self.pos + 1) == Some(&b'\n') => self.pos += 2,
                Some(b'#') | Some(b'%') => self.skip_line(),
                Some(_) => return true,
            }
        }
    }

    /// Skips past the end of the current line.
    #[inline]
    pub(crate) fn skip_line(&mut self) {
        match self.data[self.pos..].iter().position(|&b| b == b'\n') {
            Some(i) => self.pos += i + 1,
            None => self.pos = self.data.len(),
        }
    }

    /// Whether the cursor is at the end of a line (or of the input).
    #[inline]
    fn at_line_end(&self) -> bool {
        match self.data.get(self.pos) {
            None | Some(b'\n') => true,
            Some(b'\r') => matches!(self.data.get(self.pos + 1), None | Some(b'\n')),
            _ => false,
        }
    }

    /// After the last field used: accepts the end of the line, or blanks and
    /// further (ignored) columns. Moves to the next line.
    #[inline]
    pub(crate) fn end_record(&mut self, what: &str) -> Result<(), Error> {
        if self.at_line_end() || is_blank(self.data[self.pos]) {
            self.skip_line();
            Ok(())
        } else {
            Err(self.error(format!(
                "expected a space, a tab or the end of the line after {what}, found {}",
                self.found()
            )))
        }
    }

    /// Skips the blanks between two fields; there must be at least one.
    #[inline]
    pub(crate) fn separator(&mut self, what: &str) -> Result<(), Error> {
        let start = self.pos;
        while self.pos < self.data.len() && is_blank(self.data[self.pos]) {
            self.pos += 1;
        }
        if self.pos == start || self.at_line_end() {
            return Err(self.error(format!("expected {what}, found {}", self.found())));
        }
        Ok(())
    }

    /// Reads a decimal number below `limit`; `what` names it in errors
    /// (`"a vertex id"`), `too_big` explains the limit.
    #[inline]
    pub(crate) fn number(
        &mut self,
        what: &str,
        limit: u64,
        too_big: &dyn Fn(u64) -> String,
    ) -> Result<u64, Error> {
        let d = self.data;
        let start = self.pos;
        // `None` once the digits pass u64: the field is then refused as
        // itself, never as a number it is not.
        let mut acc = Some(0u64);
        while let Some(&b) = d.get(self.pos) {
            let digit = b.wrapping_sub(b'0');
            if digit > 9 {
                break;
            }
            acc = acc
                .and_then(|a| a.checked_mul(10))
                .and_then(|a| a.checked_add(u64::from(digit)));
            self.pos += 1;
        }
        if self.pos == start {
            let found = self.found();
            let hint = if d.get(start) == Some(&b'-') {
                " (negative numbers are not allowed)"
            } else {
                ""
            };
            return Err(self.error(format!("expected {what}, found {found}{hint}")));
        }
        let digits = self.pos - start;
        self.pos = start;
        let Some(acc) = acc else {
            return Err(self.error(format!(
                "expected {what}, found a number of {digits} digits at column {}, too large for any id or count",
                self.column()
            )));
        };
        if acc >= limit {
            return Err(self.error(too_big(acc)));
        }
        self.pos = start + digits;
        Ok(acc)
    }

    /// Reads a line's vertex id below `limit`, as [`Scanner::number`]; a
    /// word where it was expected is [`Error::NamedVertex`].
    #[inline]
    pub(crate) fn vertex_id(
        &mut self,
        what: &str,
        limit: u64,
        too_big: &dyn Fn(u64) -> String,
    ) -> Result<u64, Error> {
        self.number(what, limit, too_big).map_err(|e| {
            let (Error::Parse { path, location, .. }, Some(found)) = (&e, self.field()) else {
                return e;
            };
            let (path, location) = (path.clone(), location.clone());
            Error::expected_vertex(path, location, what, &found, || e)
        })
    }

    /// Consumes a lone `-` field (a dash followed by a blank or the end of
    /// the line); false, and nothing consumed, otherwise.
    #[inline]
    pub(crate) fn dash(&mut self) -> bool {
        if self.data.get(self.pos) != Some(&b'-') {
            return false;
        }
        self.pos += 1;
        if self.at_line_end() || is_blank(self.data[self.pos]) {
            true
        } else {
            self.pos -= 1;
            false
        }
    }

    /// The next field as raw bytes (up to a blank or the end of the line).
    #[inline]
    pub(crate) fn word(&mut self) -> &'a [u8] {
        let d = self.data;
        let start = self.pos;
        while self.pos < d.len() && !is_blank(d[self.pos]) && !self.at_line_end() {
            self.pos += 1;
        }
        &d[start..self.pos]
    }

    /// A short description of what is at the cursor, for messages.
    pub(crate) fn found(&self) -> String {
        match self.field() {
            Some(field) => format!("{field:?}"),
            None => "the end of the line".to_string(),
        }
    }

    /// The field at the cursor (its first 20 bytes), for messages; `None`
    /// at the end of the line.
    fn field(&self) -> Option<String> {
        if self.at_line_end() {
            return None;
        }
        let rest = &self.data[self.pos..];
        let end = rest
            .iter()
            .position(|&b| b == b'\n' || b == b'\r' || is_blank(b))
            .unwrap_or(rest.len())
            .clamp(1, 20);
        Some(String::from_utf8_lossy(&rest[..end]).into_owned())
    }

    /// The 1-based line of the cursor: a scan from the start of the input,
    /// so for errors only (a reader that asks every line is quadratic).
    pub(crate) fn line(&self) -> u64 {
        let upto = self.base + self.pos.min(self.data.len());
        #[cfg(test)]
        LINE_SCAN_BYTES.with(|c| c.set(c.get() + upto as u64));
        1 + self.full[..upto].iter().filter(|&&b| b == b'\n').count() as u64
    }

    /// The 1-based column (in bytes) of the cursor; for errors only, as [`Scanner::line`].
    pub(crate) fn column(&self) -> u64 {
        let upto = self.base + self.pos.min(self.data.len());
        let line_start = self.full[..upto]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        (upto - line_start) as u64 + 1
    }

    /// An error at the cursor's line.
    pub(crate) fn error(&self, message: String) -> Error {
        Error::at_line(self.path, self.line(), message)
    }
}

/// Splits `data` into exactly `parts` ranges (some may be empty) that end
/// just after a newline (the last one at the end of the data), so each can be
/// parsed on its own. The same data and count always give the same ranges,
/// so processes that each read one part agree on them.
pub(crate) fn split_lines(data: &[u8], parts: usize) -> Vec<std::ops::Range<usize>> {
    let parts = parts.max(1);
    let mut ranges = Vec::with_capacity(parts);
    let mut start = 0;
    for i in 1..parts {
        let cut = ((data.len() as u128 * i as u128 / parts as u128) as usize).max(start);
        let end = match data[cut..].iter().position(|&b| b == b'\n') {
            Some(j) => cut + j + 1,
            None => data.len(),
        };
        ranges.push(start..end);
        start = end;
    }
    ranges.push(start..data.len());
    ranges
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_lines_cuts_after_newlines_and_covers_everything() {
        let data = b"0 1\n22 33\n4 5\n\n6 7";
        for parts in 1..12 {
            let r = split_lines(data, parts);
            assert_eq!(r.len(), parts);
            assert_eq!(r.first().unwrap().start, 0);
            assert_eq!(r.last().unwrap().end, data.len());
            for w in r.windows(2) {
                assert_eq!(w[0].end, w[1].start);
                assert!(w[0].is_empty() || data[w[0].end - 1] == b'\n' || w[0].end == data.len());
            }
        }
        assert_eq!(split_lines(b"", 4), vec![0..0; 4]);
    }

    #[test]
    fn chunk_errors_report_lines_of_the_whole_file() {
        let data = b"0 1\n2 3\nx\n";
        let r = split_lines(data, 3);
        let last = r.last().unwrap().clone();
        let mut s = Scanner::chunk(data, last, Path::new("f"));
        assert!(s.next_record());
        let e = s.number("a vertex id", 10, &|_| String::new()).unwrap_err();
        assert!(e.to_string().starts_with("f:line 3:"), "{e}");
    }
}
