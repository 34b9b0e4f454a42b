//! The whole file checked: every section against its checksums, the
//! moves' offsets and targets against the record count.

use super::read::Database;
use super::section;
use super::{Compression, DbError, Fault};
use crate::Report;

/// What a check of a database against its game found (the registry's
/// games' `check`, a tier's): the positions enumerated and looked up, and
/// the certificate's verdict.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The positions enumerated (and looked up).
    pub positions: u64,
    /// The moves of the game's graph, where counted (a state game's).
    pub moves: Option<u64>,
    /// The certificate's verdict.
    pub report: Report,
}

impl Database {
    /// Checks the moves' sections (an explicit graph's) against their checksums.
    ///
    /// # Errors
    /// The first damaged chunk found.
    pub fn check_moves(&self) -> Result<(), DbError> {
        self.check_moves_unblamed().map_err(|e| self.blame(e))
    }

    /// [`Database::check_moves`], its faults not yet blamed.
    fn check_moves_unblamed(&self) -> Result<(), DbError> {
        let data = self.bytes();
        for c in self.moves.iter().flat_map(|(a, b)| [a, b]) {
            c.on(data).check_all()?;
        }
        let Some((offsets, targets)) = &self.moves else {
            return Ok(());
        };
        let (offsets, targets) = (offsets.on(data), targets.on(data));
        let count = self.header.moves.as_ref().map_or(0, |m| m.count);
        let fault = |section: &'static str, at: u64, what: String| DbError::Damaged {
            path: self.path.clone(),
            section,
            block: at / section::CHUNK,
            fault: Fault::Decode(what),
        };
        let mut last = 0;
        for v in 0..=self.len() {
            let o = offsets.u64_at(v)?;
            let first_ok = v > 0 || o == 0;
            let last_ok = v < self.len() || o == count;
            if o < last || o > count || !first_ok || !last_ok {
                return Err(fault(
                    "moves' offsets",
                    v * 8,
                    format!("position {v}'s moves start at {o}, out of order"),
                ));
            }
            last = o;
        }
        for i in 0..count {
            let w = targets.u32_at(i)?;
            if u64::from(w) >= self.len() {
                return Err(fault(
                    "moves' targets",
                    i * 4,
                    format!("move {i} leads to {w}, past the {} positions", self.len()),
                ));
            }
        }
        Ok(())
    }

    /// Checks every block of every section against its checksum.
    ///
    /// # Errors
    /// The first damaged block found.
    pub fn check(&self) -> Result<(), DbError> {
        self.check_sums().map_err(|e| self.blame(e))?;
        // Zstandard blocks must also decompress.
        if self.header.compression == Compression::Zstd {
            use rayon::prelude::*;
            (0..self.blocks.chunks())
                .into_par_iter()
                .try_for_each(|b| self.unpacked_block(b).map(drop))
                .map_err(|e| self.blame(e))?;
        }
        Ok(())
    }

    /// Checks every chunk of every section against its checksum (on all
    /// threads); each is then not checked again.
    pub(super) fn check_sums(&self) -> Result<(), DbError> {
        let data = self.bytes();
        self.blocks.on(data).check_all()?;
        for c in self.keys.iter().flat_map(|(a, b, c)| [a, b, c]) {
            c.on(data).check_all()?;
        }
        for c in self.moves.iter().flat_map(|(a, b)| [a, b]) {
            c.on(data).check_all()?;
        }
        for c in self
            .names
            .iter()
            .chain(&self.grundy)
            .flat_map(|(a, b)| [a, b])
            .chain(&self.owners)
        {
            c.on(data).check_all()?;
        }
        Ok(())
    }
}
