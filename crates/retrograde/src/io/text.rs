//! Byte-level scanning shared by the text formats: no allocation per line.
//!
//! Lines are separated by `\n` (a `\r` before it is ignored); fields by spaces
//! or tabs; blank lines and lines whose first non-blank byte is `#` or `%` are
//! comments. Line numbers are only computed when an error is reported.

use std::path::Path;

use crate::error::Error;

/// A cursor over the bytes of a text input.
pub(crate) struct Scanner<'a> {
    pub(crate) data: &'a [u8],
    pub(crate) pos: usize,
    path: &'a Path,
}

#[inline]
fn is_blank(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

impl<'a> Scanner<'a> {
    pub(crate) fn new(data: &'a [u8], path: &'a Path) -> Scanner<'a> {
        Scanner { data, pos: 0, path }
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
        let mut acc: u64 = 0;
        while let Some(&b) = d.get(self.pos) {
            let digit = b.wrapping_sub(b'0');
            if digit > 9 {
                break;
            }
            acc = acc.saturating_mul(10).saturating_add(u64::from(digit));
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
        if acc >= limit {
            self.pos = start;
            return Err(self.error(too_big(acc)));
        }
        Ok(acc)
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
        if self.at_line_end() {
            return "the end of the line".to_string();
        }
        let rest = &self.data[self.pos..];
        let end = rest
            .iter()
            .position(|&b| b == b'\n' || b == b'\r' || is_blank(b))
            .unwrap_or(rest.len())
            .clamp(1, 20);
        format!("{:?}", String::from_utf8_lossy(&rest[..end]))
    }

    /// The 1-based line of the cursor.
    pub(crate) fn line(&self) -> u64 {
        let upto = self.pos.min(self.data.len());
        1 + self.data[..upto].iter().filter(|&&b| b == b'\n').count() as u64
    }

    /// An error at the cursor's line.
    pub(crate) fn error(&self, message: String) -> Error {
        Error::at_line(self.path, self.line(), message)
    }
}
