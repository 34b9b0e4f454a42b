//! What a database keeps besides its records, read and checked a section
//! at a time: an explicit graph's moves and its positions' names, who
//! moves at each position (an arena's owners), and loopy nim values.

use super::section::{self, CheckedSection};
use super::{Database, DbError, Fault};
use crate::Player;
use crate::io::names::Names;

impl Database {
    /// The moves of position `v` of an explicit graph (the positions they
    /// lead to); `None` if the database keeps no moves or `v` is out of range.
    ///
    /// # Errors
    /// A damaged section.
    pub fn moves(&self, v: u64) -> Result<Option<Vec<u32>>, DbError> {
        self.moves_of(v).map_err(|e| self.blame(e))
    }

    /// [`Database::moves`], its faults not yet blamed.
    fn moves_of(&self, v: u64) -> Result<Option<Vec<u32>>, DbError> {
        let Some((offsets, targets)) = &self.moves else {
            return Ok(None);
        };
        if v >= self.len() {
            return Ok(None);
        }
        let data = self.bytes();
        let (offsets, targets) = (offsets.on(data), targets.on(data));
        let (from, to) = (offsets.u64_at(v)?, offsets.u64_at(v + 1)?);
        let count = self.header.moves.as_ref().map_or(0, |m| m.count);
        if from > to || to > count {
            return Err(DbError::Damaged {
                path: self.path.clone(),
                section: "moves' offsets",
                block: v * 8 / section::CHUNK,
                fault: Fault::Decode(format!("position {v}'s moves run from {from} to {to}")),
            });
        }
        (from..to)
            .map(|i| targets.u32_at(i))
            .collect::<Result<_, _>>()
            .map(Some)
    }

    /// The positions' names, if the database keeps them (a graph whose
    /// vertices have names), every chunk checked.
    ///
    /// # Errors
    /// A damaged section: a checksum, offsets out of order, a name that is
    /// not UTF-8, or two records of one name.
    pub fn names(&self) -> Result<Option<Names>, DbError> {
        self.names_unblamed().map_err(|e| self.blame(e))
    }

    /// [`Database::names`], its faults not yet blamed.
    fn names_unblamed(&self) -> Result<Option<Names>, DbError> {
        let Some((offsets, text)) = &self.names else {
            return Ok(None);
        };
        let data = self.bytes();
        let (offsets, text) = (offsets.on(data), text.on(data));
        offsets.check_all()?;
        text.check_all()?;
        let whole = text.slice(0, text.len())?;
        let damaged = |what: String| DbError::Damaged {
            path: self.path.clone(),
            section: "names",
            block: 0,
            fault: Fault::Decode(what),
        };
        let mut list = Vec::with_capacity(self.len() as usize);
        let mut from = 0;
        for v in 0..self.len() {
            let to = offsets.u64_at(v + 1)?;
            if to < from || to > text.len() {
                return Err(damaged(format!(
                    "position {v}'s name runs from {from} to {to}"
                )));
            }
            let name = std::str::from_utf8(&whole[from as usize..to as usize])
                .map_err(|_| damaged(format!("position {v}'s name is not UTF-8")))?;
            list.push(name);
            from = to;
        }
        // Records past the last named one have no name.
        while list.last() == Some(&"") {
            list.pop();
        }
        Names::from_list(list)
            .map(Some)
            .map_err(|i| damaged(format!("positions {i} and another share a name")))
    }

    /// The loopy nim values kept (as [`GrundyValues::codes`] gives them:
    /// values, then the order they were given in), every chunk checked;
    /// `None` if the database keeps none. [`GrundyValues::from_codes`]
    /// makes them values again, with the graph of the database's moves.
    ///
    /// # Errors
    /// A damaged section.
    ///
    /// [`GrundyValues::codes`]: crate::grundy::GrundyValues::codes
    /// [`GrundyValues::from_codes`]: crate::grundy::GrundyValues::from_codes
    pub fn grundy_codes(&self) -> Result<Option<crate::grundy::Codes>, DbError> {
        let Some((values, order)) = &self.grundy else {
            return Ok(None);
        };
        let data = self.bytes();
        let read = |c: &CheckedSection| -> Result<Vec<u32>, DbError> {
            let b = c.on(data);
            b.check_all()?;
            let bytes = b.slice(0, b.len())?;
            Ok(bytes
                .chunks_exact(4)
                .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
                .collect())
        };
        let both = || -> Result<_, DbError> {
            Ok(crate::grundy::Codes {
                values: read(values)?,
                order: read(order)?,
            })
        };
        both().map(Some).map_err(|e| self.blame(e))
    }

    /// Who moves at each record, for an arena (see
    /// [`GameGraph::owner`](crate::GameGraph::owner)), every chunk checked;
    /// `None` if the database keeps no owners (the players alternate).
    ///
    /// # Errors
    /// A damaged section, or a byte other than 0 or 1 in it.
    pub fn owners(&self) -> Result<Option<Vec<Player>>, DbError> {
        let Some(section) = &self.owners else {
            return Ok(None);
        };
        let read = || -> Result<Vec<Player>, DbError> {
            let b = section.on(self.bytes());
            b.check_all()?;
            let bytes = b.slice(0, b.len())?;
            bytes
                .iter()
                .enumerate()
                .map(|(v, &o)| {
                    Player::from_index(u64::from(o)).ok_or_else(|| DbError::Damaged {
                        path: self.path.clone(),
                        section: "owners",
                        block: 0,
                        fault: Fault::Decode(format!("position {v} has owner {o}, not 0 or 1")),
                    })
                })
                .collect()
        };
        read().map(Some).map_err(|e| self.blame(e))
    }
}
