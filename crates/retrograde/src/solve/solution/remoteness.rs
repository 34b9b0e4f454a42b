//! Remoteness: `u16`s while they fit, widened to `u32`s when needed.

use crate::graph::NONE;

/// The remoteness of every position: `u16`s while they fit (the lean engine,
/// and the timely engine's shares of a game), else `u32`s; the largest value
/// of each type means "none" (a draw, or not decided yet).
#[derive(Clone, Debug)]
pub enum Remoteness {
    /// Values below `u16::MAX`.
    Narrow(Vec<u16>),
    /// Values below `u32::MAX`.
    Wide(Vec<u32>),
}

impl Remoteness {
    /// The remoteness of `v`; `None` if it has none.
    #[inline]
    pub fn get(&self, v: usize) -> Option<u32> {
        match self {
            Remoteness::Narrow(r) => (r[v] != u16::MAX).then(|| u32::from(r[v])),
            Remoteness::Wide(r) => (r[v] != NONE).then_some(r[v]),
        }
    }

    /// Sets the remoteness of `v` to `r`, which must fit (see
    /// [`Remoteness::fit`]).
    #[inline]
    pub fn set(&mut self, v: usize, r: u32) {
        match self {
            Remoteness::Narrow(a) => a[v] = r as u16,
            Remoteness::Wide(a) => a[v] = r,
        }
    }

    /// Makes room for remoteness `r`: `u16`s hold up to 65534; past that,
    /// every value is widened to `u32` (in time and memory **O(n)**, once).
    pub fn fit(&mut self, r: u32) {
        if let Remoteness::Narrow(a) = self
            && r >= u32::from(u16::MAX)
        {
            let wide = a
                .iter()
                .map(|&x| if x == u16::MAX { NONE } else { u32::from(x) })
                .collect();
            *self = Remoteness::Wide(wide);
        }
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        match self {
            Remoteness::Narrow(r) => r.len(),
            Remoteness::Wide(r) => r.len(),
        }
    }

    /// Whether there are no positions.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Equal values, whatever the width.
impl PartialEq for Remoteness {
    fn eq(&self, other: &Remoteness) -> bool {
        self.len() == other.len() && (0..self.len()).all(|v| self.get(v) == other.get(v))
    }
}

impl Eq for Remoteness {}
