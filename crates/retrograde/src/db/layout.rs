//! The layout of a database's data, checked when it is opened: each
//! section its header places (records, keys, moves, names, loopy nim
//! values, owners) against the record count and the file's length.

use std::path::Path;

use super::section::CheckedSection;
use super::{BLOCK_RECORDS, Compression, DbError, Header, keys};

/// The record blocks' section, checked against the record count.
pub(super) fn record_blocks(
    header: &Header,
    data_len: u64,
    path: &Path,
) -> Result<CheckedSection, DbError> {
    let bad = |what: String| DbError::Header {
        path: path.to_path_buf(),
        what,
    };
    let zstd = header.compression == Compression::Zstd;
    let blocks = CheckedSection::new("records", &header.blocks, zstd, data_len, path)?;
    let expected_blocks = header.records.div_ceil(BLOCK_RECORDS);
    if header.block_records != BLOCK_RECORDS
        || blocks.chunks() != expected_blocks
        || header.record_bits == 0
        || header.record_bits > 40
    {
        return Err(bad("the record blocks do not match the record count".into()));
    }
    if header.compression == Compression::None
        && (header.blocks.bytes != keys::packed_bytes(header.records, header.record_bits) as u64
            || header.blocks.chunk != keys::packed_bytes(BLOCK_RECORDS, header.record_bits) as u64)
    {
        return Err(bad("the record blocks do not match the record count".into()));
    }
    Ok(blocks)
}

/// The keys' sections, checked against the record count; `None` for a
/// dense game.
pub(super) fn key_sections(
    header: &Header,
    data_len: u64,
    path: &Path,
) -> Result<Option<(CheckedSection, CheckedSection, CheckedSection)>, DbError> {
    let bad = |what: String| DbError::Header {
        path: path.to_path_buf(),
        what,
    };
    if header.first_key.checked_add(header.records).is_none()
        || (header.keys.is_some() && header.first_key != 0)
    {
        return Err(bad(
            "the first key and the record count pass the largest key".into(),
        ));
    }
    Ok(match &header.keys {
        None => None,
        Some(k) => {
            let sizes = keys::sizes(k.count, k.universe);
            let laid_out = sizes == Some((k.lows.bytes, k.highs.bytes, k.samples.bytes))
                && k.low_bits == keys::low_bits(k.count, k.universe);
            if k.count != header.records || !laid_out {
                return Err(bad("the keys do not match the record count".into()));
            }
            Some((
                CheckedSection::new("keys' low parts", &k.lows, false, data_len, path)?,
                CheckedSection::new("keys' high parts", &k.highs, false, data_len, path)?,
                CheckedSection::new("keys' samples", &k.samples, false, data_len, path)?,
            ))
        }
    })
}

/// The loopy nim values' sections, checked against the record count;
/// `None` if there are none.
pub(super) fn grundy_sections(
    header: &Header,
    data_len: u64,
    path: &Path,
) -> Result<Option<(CheckedSection, CheckedSection)>, DbError> {
    Ok(match &header.grundy {
        None => None,
        Some(g) => {
            let bytes = header.records.checked_mul(4);
            if bytes != Some(g.values.bytes) || bytes != Some(g.order.bytes) {
                return Err(DbError::Header {
                    path: path.to_path_buf(),
                    what: "the loopy nim values do not match the record count".into(),
                });
            }
            Some((
                CheckedSection::new("loopy nim values", &g.values, false, data_len, path)?,
                CheckedSection::new("loopy nim values' order", &g.order, false, data_len, path)?,
            ))
        }
    })
}

/// The owners' section, checked against the record count; `None` if
/// there is none.
pub(super) fn owners_section(
    header: &Header,
    data_len: u64,
    path: &Path,
) -> Result<Option<CheckedSection>, DbError> {
    Ok(match &header.owners {
        None => None,
        Some(o) => {
            if o.owners.bytes != header.records {
                return Err(DbError::Header {
                    path: path.to_path_buf(),
                    what: "the owners do not match the record count".into(),
                });
            }
            Some(CheckedSection::new(
                "owners", &o.owners, false, data_len, path,
            )?)
        }
    })
}

/// The names' sections, their offsets checked against the record count;
/// `None` if the positions have no names.
pub(super) fn name_sections(
    header: &Header,
    data_len: u64,
    path: &Path,
) -> Result<Option<(CheckedSection, CheckedSection)>, DbError> {
    Ok(match &header.names {
        None => None,
        Some(m) => {
            if (header.records + 1).checked_mul(8) != Some(m.offsets.bytes) {
                return Err(DbError::Header {
                    path: path.to_path_buf(),
                    what: "the names do not match the record count".into(),
                });
            }
            Some((
                CheckedSection::new("names' offsets", &m.offsets, false, data_len, path)?,
                CheckedSection::new("names", &m.text, false, data_len, path)?,
            ))
        }
    })
}

/// The moves' sections, checked against the record count; `None` but for
/// an explicit graph.
pub(super) fn move_sections(
    header: &Header,
    data_len: u64,
    path: &Path,
) -> Result<Option<(CheckedSection, CheckedSection)>, DbError> {
    let bad = |what: String| DbError::Header {
        path: path.to_path_buf(),
        what,
    };
    Ok(match &header.moves {
        None => None,
        Some(m) => {
            let offsets = (header.records + 1).checked_mul(8);
            let targets = m.count.checked_mul(4);
            if offsets != Some(m.offsets.bytes) || targets != Some(m.targets.bytes) {
                return Err(bad("the moves do not match the record count".into()));
            }
            Some((
                CheckedSection::new("moves' offsets", &m.offsets, false, data_len, path)?,
                CheckedSection::new("moves' targets", &m.targets, false, data_len, path)?,
            ))
        }
    })
}
