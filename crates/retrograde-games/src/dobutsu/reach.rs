//! The positions reachable from the start, as a set of board numbers with
//! rank and select: the dense numbering the solver runs on.
//!
//! The set is a bit per board number, 448 to a 64-byte line that also holds
//! the count of members before it, so that the rank of a member (its
//! position number) costs one cache line. Select (the board number of a
//! position) starts from a sample kept every 8 positions and walks a line
//! or two (a sample every 64 positions walked about 5 lines, a cache miss
//! each, for every position the solve decides). For the full game: 7,629,616,764 numbers in 17,030,395 lines,
//! 1.09 GB, plus 123 MB of samples.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use super::board::Board;
use super::index::Numbering;
use retrograde::memory::{filled, prefetch};
use retrograde::solve::Progress;

/// Bits in a line.
const BITS: u64 = 448;
/// Positions between samples.
const SAMPLE: u64 = 8;
/// Boards gathered before their bits are claimed.
const GATHER: usize = 128;

/// One cache line: the count of members in earlier lines, then 448 bits.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
struct Line([u64; 8]);

/// A set of board numbers with rank and select; see the module docs.
#[derive(Debug)]
pub struct Reachable {
    lines: Vec<Line>,
    /// `samples[i]`: the line holding the member of rank `SAMPLE · i`.
    samples: Vec<u32>,
    count: u64,
}

/// Where the bit of number `n` is: line, word in the line, bit in the word.
#[inline]
fn place(n: u64) -> (usize, usize, u32) {
    let (line, off) = (n / BITS, n % BITS);
    (line as usize, 1 + (off / 64) as usize, (off % 64) as u32)
}

impl Reachable {
    /// Every board reachable from `start` by the moves of `Board`, each
    /// taken by `canonical` to the number that stands for it; boards where
    /// the game is over are members but are not expanded.
    ///
    /// Breadth first, level by level, each level's boards expanded on all
    /// threads of the current rayon pool; a bit is claimed with an atomic
    /// `or`. Reports one unit of `progress` (phase `"explore"`) per member.
    pub fn explore(
        numbering: &Numbering,
        start: &Board,
        canonical: impl Fn(&Board) -> u64 + Sync,
        progress: &dyn Progress,
    ) -> Reachable {
        let lines = (Reachable::line_bytes(numbering.total()) / 64) as usize;
        assert!(
            lines <= u32::MAX as usize,
            "numbering too large for u32 lines"
        );
        let mut set = filled(lines, Line::default());
        progress.begin("explore", 0);
        {
            // SAFETY: `AtomicU64` has the size, alignment and bit validity of
            // `u64`, and `set` is borrowed mutably for the whole scope, so
            // nothing else reads or writes it meanwhile.
            let words: &[AtomicU64] = unsafe {
                std::slice::from_raw_parts(set.as_mut_ptr().cast::<AtomicU64>(), lines * 8)
            };
            let claim = |n: u64| {
                let (l, w, b) = place(n);
                let word = &words[l * 8 + w];
                let bit = 1u64 << b;
                word.load(Relaxed) & bit == 0 && word.fetch_or(bit, Relaxed) & bit == 0
            };
            let first = canonical(start);
            claim(first);
            let mut frontier = vec![first];
            while !frontier.is_empty() {
                progress.advance(frontier.len() as u64);
                frontier = frontier
                    .par_chunks(4096)
                    .flat_map_iter(|chunk| {
                        let mut next = Vec::new();
                        // The boards' numbers are gathered, their lines
                        // prefetched, and claimed a batch later, so that the
                        // cache misses overlap.
                        let mut gathered = Vec::with_capacity(2 * GATHER);
                        for &n in chunk {
                            let b = numbering.board(n).expect("members are boards");
                            b.for_each_move(|_, after| {
                                let m = canonical(&after);
                                prefetch(words.as_ptr().wrapping_add(place(m).0 * 8));
                                gathered.push(m);
                            });
                            if gathered.len() >= GATHER {
                                next.extend(gathered.drain(..).filter(|&m| claim(m)));
                            }
                        }
                        next.extend(gathered.drain(..).filter(|&m| claim(m)));
                        next
                    })
                    .collect();
            }
        }
        progress.end();
        Reachable::index(set)
    }

    /// Fills in the counts and samples of a set of bits.
    fn index(mut lines: Vec<Line>) -> Reachable {
        let mut count = 0u64;
        let mut samples = Vec::new();
        for (i, line) in lines.iter_mut().enumerate() {
            line.0[0] = count;
            let here: u64 = line.0[1..].iter().map(|w| u64::from(w.count_ones())).sum();
            // The samples whose rank falls in this line.
            while (samples.len() as u64) * SAMPLE < count + here {
                samples.push(i as u32);
            }
            count += here;
        }
        Reachable {
            lines,
            samples,
            count,
        }
    }

    /// The number of members.
    pub fn len(&self) -> u64 {
        self.count
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The rank of `n` (the members below it) if `n` is a member.
    #[inline]
    pub fn rank(&self, n: u64) -> Option<u64> {
        let (l, w, b) = place(n);
        let line = &self.lines.get(l)?.0;
        if line[w] >> b & 1 == 0 {
            return None;
        }
        let mut r = line[0] + (line[w] & ((1u64 << b) - 1)).count_ones() as u64;
        for word in &line[1..w] {
            r += u64::from(word.count_ones());
        }
        Some(r)
    }

    /// Starts loading the line of `n`, for a [`Reachable::rank`] soon after.
    #[inline]
    pub fn prefetch(&self, n: u64) {
        let (l, _, _) = place(n);
        prefetch(self.lines.as_ptr().wrapping_add(l));
    }

    /// The member of rank `r`, if `r < len()`.
    #[inline]
    pub fn select(&self, r: u64) -> Option<u64> {
        if r >= self.count {
            return None;
        }
        let mut l = self.samples[(r / SAMPLE) as usize] as usize;
        while l + 1 < self.lines.len() && self.lines[l + 1].0[0] <= r {
            l += 1;
        }
        let line = &self.lines[l].0;
        let mut left = r - line[0];
        for (w, &word) in line[1..].iter().enumerate() {
            let ones = u64::from(word.count_ones());
            if left < ones {
                let mut x = word;
                for _ in 0..left {
                    x &= x - 1;
                }
                let bit = u64::from(x.trailing_zeros());
                return Some(l as u64 * BITS + w as u64 * 64 + bit);
            }
            left -= ones;
        }
        unreachable!("the counts say rank {r} is in line {l}")
    }

    /// Calls `f` with every member, in increasing order.
    pub fn for_each(&self, mut f: impl FnMut(u64)) {
        for (l, line) in self.lines.iter().enumerate() {
            for (w, &word) in line.0[1..].iter().enumerate() {
                let mut x = word;
                while x != 0 {
                    f(l as u64 * BITS + w as u64 * 64 + u64::from(x.trailing_zeros()));
                    x &= x - 1;
                }
            }
        }
    }

    /// Bytes of the lines of a set of `total` board numbers.
    pub fn line_bytes(total: u64) -> u64 {
        total.div_ceil(BITS).saturating_mul(64)
    }

    /// Bytes held.
    pub fn bytes(&self) -> u64 {
        (self.lines.len() * 64 + self.samples.len() * 4) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_and_select_are_inverse_across_lines_and_samples() {
        // Members: every number whose bits spell a pattern across lines,
        // dense in places (runs of ones) and sparse in others.
        let total = 20_000u64;
        let member = |n: u64| n % 7 == 3 || (1000..1900).contains(&n) || n == 19_999;
        let mut lines = vec![Line::default(); total.div_ceil(BITS) as usize];
        for n in (0..total).filter(|&n| member(n)) {
            let (l, w, b) = place(n);
            lines[l].0[w] |= 1 << b;
        }
        let set = Reachable::index(lines);
        let members: Vec<u64> = (0..total).filter(|&n| member(n)).collect();
        assert_eq!(set.len(), members.len() as u64);
        for (r, &n) in members.iter().enumerate() {
            assert_eq!(set.rank(n), Some(r as u64), "{n}");
            assert_eq!(set.select(r as u64), Some(n), "{r}");
        }
        assert_eq!(set.rank(4), None);
        assert_eq!(set.rank(total + 10_000), None);
        assert_eq!(set.select(set.len()), None);
    }
}
