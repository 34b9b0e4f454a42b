//! Input bytes: a memory-mapped file, or standard input read whole.
//!
//! The rule for inputs that change while they are read: a text file is
//! parsed from its map, which is registered ([`super::mapped`]): a file cut
//! short meanwhile raises SIGBUS, which the registry lets a handler name, and
//! a file rewritten meanwhile is reported by
//! [`changed_while_mapped`](super::changed_while_mapped) once its map is
//! dropped. A binary graph is copied out of the file with ordinary reads and
//! checked by its checksum afterwards, so a concurrent change is refused,
//! never solved.

use std::fs::File;
use std::io::Read;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::mapped::Mapped;
use crate::error::{Error, Result};

/// The bytes of an input file, memory-mapped where possible, and its name for messages.
///
/// `-` names standard input, which is read into memory.
#[derive(Debug)]
pub struct Input {
    path: PathBuf,
    data: Data,
}

#[derive(Debug)]
enum Data {
    Mapped(Arc<Mapped>),
    Owned(Vec<u8>),
}

impl Input {
    /// Opens `path` (`-` for standard input).
    pub fn open(path: impl AsRef<Path>) -> Result<Input> {
        Input::open_within(path, u64::MAX)
    }

    /// Opens `path` (`-` for standard input), refusing with
    /// [`Error::StreamTooLarge`] a stream (standard input, a pipe, a device)
    /// that holds more than `limit` bytes: those are read into memory, and
    /// `/dev/zero` never ends.
    pub fn open_within(path: impl AsRef<Path>, limit: u64) -> Result<Input> {
        Input::open_within_with_progress(path, limit, &crate::NoProgress)
    }

    /// [`Input::open_within`], reporting the bytes read from a stream to
    /// `progress` (phase `"read"`, in bytes; a mapped file needs no report).
    pub fn open_within_with_progress(
        path: impl AsRef<Path>,
        limit: u64,
        progress: &dyn crate::Progress,
    ) -> Result<Input> {
        let path = path.as_ref();
        let read_stream = |r: &mut dyn Read| -> Result<Input> {
            let mut buf = Vec::new();
            let mut r = r.take(limit.saturating_add(1));
            progress.begin_bytes("read", 0);
            let read = loop {
                let before = buf.len();
                match (&mut r).take(1 << 20).read_to_end(&mut buf) {
                    Ok(0) => break Ok(()),
                    Ok(_) => progress.advance((buf.len() - before) as u64),
                    Err(e) => break Err(e),
                }
            };
            progress.end();
            read.map_err(|e| Error::io(path, e))?;
            if buf.len() as u64 > limit {
                return Err(Error::StreamTooLarge {
                    path: path.to_path_buf(),
                    limit,
                });
            }
            Ok(Input::from_bytes(path, buf))
        };
        if path.as_os_str() == "-" {
            return read_stream(&mut std::io::stdin().lock());
        }
        let file = File::open(path).map_err(|e| Error::io(path, e))?;
        let meta = file.metadata().map_err(|e| Error::io(path, e))?;
        if meta.is_dir() {
            return Err(Error::io(
                path,
                std::io::Error::other("is a directory, expected a file"),
            ));
        }
        if !meta.is_file() || meta.len() == 0 {
            // Pipes, devices and empty files: read them instead of mapping.
            return read_stream(&mut &file);
        }
        let map = Mapped::new(file, path).map_err(|e| Error::io(path, e))?;
        Ok(Input {
            path: path.to_path_buf(),
            data: Data::Mapped(Arc::new(map)),
        })
    }

    /// Wraps bytes already in memory, named `path` in messages.
    pub fn from_bytes(path: impl Into<PathBuf>, bytes: Vec<u8>) -> Input {
        Input {
            path: path.into(),
            data: Data::Owned(bytes),
        }
    }

    /// The name used in messages.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Fills `buf` with the bytes at `offset`: from the file itself with an
    /// ordinary read (never from the mapping, so a file truncated meanwhile
    /// is an error, not a signal), or from memory.
    pub(crate) fn read_at(&self, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
        #[cfg(unix)]
        if let Data::Mapped(m) = &self.data {
            use std::os::unix::fs::FileExt;
            return m.file().read_exact_at(buf, offset);
        }
        let b = self.bytes();
        let start = usize::try_from(offset).unwrap_or(usize::MAX);
        match start
            .checked_add(buf.len())
            .and_then(|end| b.get(start..end))
        {
            Some(src) => {
                buf.copy_from_slice(src);
                Ok(())
            }
            None => Err(std::io::ErrorKind::UnexpectedEof.into()),
        }
    }

    /// A 64-bit fingerprint of the content (XXH3 of each 4 MiB block, on all
    /// threads, then of those): equal for equal bytes on every machine, and
    /// different for different bytes but with probability about 2⁻⁶⁴.
    pub fn content_hash(&self) -> u64 {
        use rayon::prelude::*;
        use xxhash_rust::xxh3::xxh3_64;
        let blocks: Vec<u64> = self.bytes().par_chunks(4 << 20).map(xxh3_64).collect();
        let mut all = Vec::with_capacity(blocks.len() * 8 + 8);
        all.extend_from_slice(&(self.len() as u64).to_le_bytes());
        for b in blocks {
            all.extend_from_slice(&b.to_le_bytes());
        }
        xxh3_64(&all)
    }

    /// The length in bytes (of the file when it was opened).
    pub fn len(&self) -> usize {
        self.bytes().len()
    }

    /// Whether there are no bytes.
    pub fn is_empty(&self) -> bool {
        self.bytes().is_empty()
    }

    /// Asks the OS to map `range` of a mapped file in now, in one call,
    /// rather than one page fault per 4 KiB page as it is read (Linux;
    /// elsewhere, and for bytes in memory, nothing). A hint: errors are
    /// ignored.
    pub(crate) fn prefault(&self, range: std::ops::Range<usize>) {
        #[cfg(target_os = "linux")]
        if let Data::Mapped(m) = &self.data {
            let start = range.start & !4095;
            let end = range.end.min(m.len());
            if end > start {
                m.populate(start, end - start);
            }
        }
        #[cfg(not(target_os = "linux"))]
        let _ = range;
    }

    /// The bytes.
    pub fn bytes(&self) -> &[u8] {
        match &self.data {
            Data::Mapped(m) => &m[..],
            Data::Owned(v) => v,
        }
    }
}

impl Deref for Input {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.bytes()
    }
}
