//! A section of the file: a byte range in chunks, each with its checksum,
//! checked the first time anything in it is read.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use serde::{Deserialize, Serialize};

use super::{DbError, Fault};

/// Where a section lies (from the start of the data) and its checksums.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Section {
    /// Byte offset from the start of the data.
    pub offset: u64,
    /// Length in bytes.
    pub bytes: u64,
    /// Bytes per checksummed chunk (the last may be shorter); 0 when the
    /// chunks' ends are listed.
    pub chunk: u64,
    /// Where each chunk ends, for chunks of different lengths (compressed
    /// blocks); empty for fixed chunks.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ends: Vec<u64>,
    /// XXH3-64 of each chunk.
    pub checksums: Vec<u64>,
}

/// Bytes a chunk of a section (the record blocks have their own size).
pub const CHUNK: u64 = 1 << 16;

impl Section {
    /// The section of `bytes` placed at `offset`.
    pub(crate) fn of(bytes: &[u8], offset: u64) -> Section {
        Section::chunked(bytes, offset, CHUNK)
    }

    /// The section of `bytes` placed at `offset`, in chunks of `chunk` bytes.
    pub(crate) fn chunked(bytes: &[u8], offset: u64, chunk: u64) -> Section {
        Section {
            offset,
            bytes: bytes.len() as u64,
            chunk,
            ends: Vec::new(),
            checksums: bytes
                .chunks(chunk.max(1) as usize)
                .map(xxhash_rust::xxh3::xxh3_64)
                .collect(),
        }
    }
}

/// A section of the mapped file, its chunks checked the first time they
/// are read ([`CheckedSection::on`] the file's data gives the bytes).
pub(crate) struct CheckedSection {
    pub(crate) name: &'static str,
    start: usize,
    len: usize,
    chunk: u64,
    ends: Vec<u64>,
    sums: Vec<u64>,
    seen: Box<[AtomicBool]>,
    path: PathBuf,
}

/// A [`CheckedSection`] with the data it lies in.
#[derive(Clone, Copy)]
pub(crate) struct Bytes<'a> {
    c: &'a CheckedSection,
    bytes: &'a [u8],
}

impl CheckedSection {
    /// The section `s` of data `data_len` bytes long (the bytes after the
    /// header), in chunks of different lengths if `variable`: refused if the
    /// file is cut short, the chunks are not laid out as that says, or the
    /// checksums do not cover them.
    pub(crate) fn new(
        name: &'static str,
        s: &Section,
        variable: bool,
        data_len: u64,
        path: &Path,
    ) -> Result<CheckedSection, DbError> {
        let bad = |fault| DbError::Damaged {
            path: path.to_path_buf(),
            section: name,
            block: 0,
            fault,
        };
        // Only compressed record blocks list their ends (none for an empty
        // game: no block, no byte); every other section has chunks of one size.
        let chunks = if variable {
            let increasing = s.ends.windows(2).all(|w| w[0] <= w[1]);
            let last = s.ends.last().copied().unwrap_or(0);
            if !increasing || last != s.bytes {
                return Err(bad(Fault::Layout));
            }
            s.ends.len() as u64
        } else {
            if !s.ends.is_empty() || s.chunk == 0 {
                return Err(bad(Fault::Layout));
            }
            s.bytes.div_ceil(s.chunk)
        };
        if chunks != s.checksums.len() as u64 {
            return Err(bad(Fault::Layout));
        }
        let end = s
            .offset
            .checked_add(s.bytes)
            .ok_or_else(|| bad(Fault::Layout))?;
        if end > data_len {
            let have = data_len.saturating_sub(s.offset);
            let chunk = if variable {
                s.ends.partition_point(|&e| e <= have) as u64
            } else {
                have / s.chunk
            };
            return Err(DbError::Damaged {
                path: path.to_path_buf(),
                section: name,
                block: chunk,
                fault: Fault::CutShort {
                    needed: end,
                    found: data_len,
                },
            });
        }
        Ok(CheckedSection {
            name,
            start: s.offset as usize,
            len: s.bytes as usize,
            chunk: s.chunk,
            ends: s.ends.clone(),
            sums: s.checksums.clone(),
            seen: (0..s.checksums.len())
                .map(|_| AtomicBool::new(false))
                .collect(),
            path: path.to_path_buf(),
        })
    }

    /// The section within `data` (the bytes after the header).
    #[inline]
    pub(crate) fn on<'a>(&'a self, data: &'a [u8]) -> Bytes<'a> {
        Bytes {
            c: self,
            bytes: &data[self.start..self.start + self.len],
        }
    }

    /// The number of chunks.
    pub(crate) fn chunks(&self) -> u64 {
        self.sums.len() as u64
    }

    /// The byte range of chunk `c`.
    fn range(&self, c: u64) -> (usize, usize) {
        if self.ends.is_empty() {
            let from = (c * self.chunk) as usize;
            (from, (from + self.chunk as usize).min(self.len))
        } else {
            let from = if c == 0 { 0 } else { self.ends[c as usize - 1] };
            (from as usize, self.ends[c as usize] as usize)
        }
    }
}

impl<'a> Bytes<'a> {
    /// The section's length in bytes.
    pub(crate) fn len(&self) -> u64 {
        self.bytes.len() as u64
    }

    /// Up to `len` bytes from `start` (fewer at the end of the section),
    /// after checking the chunks they lie in. Fixed chunks only.
    #[inline]
    pub(crate) fn slice(&self, start: u64, len: u64) -> Result<&'a [u8], DbError> {
        let total = self.len();
        let start = start.min(total);
        let end = start.saturating_add(len).min(total);
        if start < end {
            for c in start / self.c.chunk..=(end - 1) / self.c.chunk {
                self.check(c)?;
            }
        }
        Ok(&self.bytes[start as usize..end as usize])
    }

    /// The `i`-th little-endian `u64` (0 past the end).
    #[inline]
    pub(crate) fn u64_at(&self, i: u64) -> Result<u64, DbError> {
        let s = self.slice(i * 8, 8)?;
        let mut buf = [0u8; 8];
        buf[..s.len()].copy_from_slice(s);
        Ok(u64::from_le_bytes(buf))
    }

    /// The `i`-th little-endian `u32` (0 past the end).
    #[inline]
    pub(crate) fn u32_at(&self, i: u64) -> Result<u32, DbError> {
        let s = self.slice(i * 4, 4)?;
        let mut buf = [0u8; 4];
        buf[..s.len()].copy_from_slice(s);
        Ok(u32::from_le_bytes(buf))
    }

    /// Chunk `c`'s bytes, checked.
    pub(crate) fn chunk(&self, c: u64) -> Result<&'a [u8], DbError> {
        self.check(c)?;
        let (from, to) = self.c.range(c);
        Ok(&self.bytes[from..to])
    }

    /// Checks chunk `c` once.
    #[inline]
    fn check(&self, c: u64) -> Result<(), DbError> {
        if self.c.seen[c as usize].load(Ordering::Relaxed) {
            return Ok(());
        }
        let (from, to) = self.c.range(c);
        if xxhash_rust::xxh3::xxh3_64(&self.bytes[from..to]) != self.c.sums[c as usize] {
            return Err(DbError::Damaged {
                path: self.c.path.clone(),
                section: self.c.name,
                block: c,
                fault: Fault::Checksum,
            });
        }
        self.c.seen[c as usize].store(true, Ordering::Relaxed);
        Ok(())
    }

    /// The error for a fault in chunk `block` of this section.
    pub(crate) fn damaged(&self, block: u64, fault: Fault) -> DbError {
        DbError::Damaged {
            path: self.c.path.clone(),
            section: self.c.name,
            block,
            fault,
        }
    }

    /// Checks every chunk (on all threads).
    pub(crate) fn check_all(&self) -> Result<(), DbError> {
        use rayon::prelude::*;
        (0..self.c.chunks())
            .into_par_iter()
            .try_for_each(|c| self.check(c))
    }
}
