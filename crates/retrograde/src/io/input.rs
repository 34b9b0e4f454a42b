//! Input bytes: a memory-mapped file, or standard input read whole.

use std::fs::File;
use std::io::Read;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use memmap2::Mmap;

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
    Mapped(Arc<Mmap>),
    Owned(Vec<u8>),
}

impl Input {
    /// Opens `path` (`-` for standard input).
    pub fn open(path: impl AsRef<Path>) -> Result<Input> {
        let path = path.as_ref();
        if path.as_os_str() == "-" {
            let mut buf = Vec::new();
            std::io::stdin()
                .lock()
                .read_to_end(&mut buf)
                .map_err(|e| Error::io(path, e))?;
            return Ok(Input::from_bytes(path, buf));
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
            let mut buf = Vec::new();
            (&file)
                .read_to_end(&mut buf)
                .map_err(|e| Error::io(path, e))?;
            return Ok(Input::from_bytes(path, buf));
        }
        // SAFETY: the map is read-only. If another process truncates the file
        // while we read it, the OS may kill us with SIGBUS; this is the usual
        // caveat of memory-mapped input and the price of not copying it.
        let map = unsafe { Mmap::map(&file) }.map_err(|e| Error::io(path, e))?;
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

    /// The memory map, if the input is a mapped file.
    pub(crate) fn map(&self) -> Option<&Arc<Mmap>> {
        match &self.data {
            Data::Mapped(m) => Some(m),
            Data::Owned(_) => None,
        }
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
