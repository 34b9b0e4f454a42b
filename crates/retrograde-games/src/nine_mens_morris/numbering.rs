//! The two numberings of Nine Men's Morris positions: every board as it is
//! ([`Plain`], for the game without its symmetries folded), and one board
//! for each class of boards equal under the 16 symmetries, the player to
//! move's stones first ([`Folded`]). In both, each tier's positions are one
//! range of numbers, which is what lets the lean engine solve a tier
//! without exploring it.
//!
//! # The folded numbering
//! A position is folded to White to move (colours swapped if need be); its
//! number within its tier's block is
//!
//! ```text
//! class(W) * C(24 - |W|, |B|) + rank(B among the points W leaves empty)
//! ```
//!
//! where `class(W)` numbers the least image of the mover's stones `W`
//! under the symmetries among the least images of their size (the
//! combinatorial number system ranks `B`). The symmetry that takes `W` to
//! its least image is applied to `B` too; where that image is kept by
//! other symmetries (a `W` symmetric in itself), `B` is taken to its least
//! image under those. A number whose `B` is not so least is no position (a
//! few in a hundred for the large tiers: most sets of stones have no
//! symmetry of their own).
//!
//! The table that gives every one of the 2^24 sets of points its class and
//! its symmetry (64 MiB) is made once, on all threads, when first needed
//! (well under a second). A move's number is one lookup in it and a rank;
//! the moves of a position land in one row of the next tier (their mover's
//! stones, the ones that did not move, are the row).

use std::sync::OnceLock;

use rayon::prelude::*;

use super::board::{self, ALL, BINOMIAL};
use super::{Position, STONES, Side, Tier};

/// The 8 symmetries of one ring (4 turns, with or without a reflection),
/// each a table from a ring's byte to its image: symmetry `s` of the board
/// is `RING[s % 8]` on each byte, the inner and outer rings swapped when
/// `s >= 8` (as [`board::image`] numbers them).
fn ring_tables() -> &'static [[u8; 256]; 8] {
    static TABLES: OnceLock<[[u8; 256]; 8]> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut out = [[0u8; 256]; 8];
        for (s, table) in out.iter_mut().enumerate() {
            for (b, image) in table.iter_mut().enumerate() {
                *image = board::image(b as u32, s) as u8;
            }
        }
        out
    })
}

/// The image of `mask` under symmetry `s` (the same as [`board::image`],
/// by table).
#[inline(always)]
fn image(rings: &[[u8; 256]; 8], mask: u32, s: usize) -> u32 {
    let t = &rings[s & 7];
    let (a, b, c) = (
        u32::from(t[(mask & 0xff) as usize]),
        u32::from(t[(mask >> 8 & 0xff) as usize]),
        u32::from(t[(mask >> 16 & 0xff) as usize]),
    );
    if s & 8 == 0 {
        a | b << 8 | c << 16
    } else {
        c | b << 8 | a << 16
    }
}

/// Bits of a [`Classes`] entry: the class, the symmetry, and whether the
/// least image has symmetries of its own.
const CLASS_BITS: u32 = 18;
const SYMMETRY_SHIFT: u32 = CLASS_BITS;
const SELF_SYMMETRIC: u32 = 1 << (CLASS_BITS + 4);

/// Every set of points' class and the symmetry to its least image; the
/// least images of each size, by class.
pub(super) struct Classes {
    /// For every mask: its least image's class, the symmetry that takes it
    /// there, [`SELF_SYMMETRIC`].
    entries: Vec<u32>,
    /// The least images of each size, in increasing order: class `c` of
    /// size `k` is `least[k][c]`.
    least: Vec<Vec<u32>>,
    rings: &'static [[u8; 256]; 8],
}

impl Classes {
    /// The table, made on first use.
    pub(super) fn get() -> &'static Classes {
        static CLASSES: OnceLock<Classes> = OnceLock::new();
        CLASSES.get_or_init(Classes::make)
    }

    fn make() -> Classes {
        let rings = ring_tables();
        const CHUNK: usize = 1 << 14;
        // First the symmetry to each mask's least image, and whether a
        // least image is kept by another symmetry.
        let mut entries = vec![0u32; 1 << 24];
        entries
            .par_chunks_mut(CHUNK)
            .enumerate()
            .for_each(|(k, chunk)| {
                for (i, e) in chunk.iter_mut().enumerate() {
                    let mask = (k * CHUNK + i) as u32;
                    let (mut least, mut sym) = (mask, 0);
                    for s in 1..16 {
                        let m = image(rings, mask, s);
                        if m < least {
                            (least, sym) = (m, s);
                        }
                    }
                    let kept = least == mask && (1..16).any(|s| image(rings, mask, s) == mask);
                    *e = (sym as u32) << SYMMETRY_SHIFT | if kept { SELF_SYMMETRIC } else { 0 };
                }
            });
        // The least images in increasing order, numbered within their size.
        let mut least = vec![Vec::new(); 25];
        for mask in 0..1u32 << 24 {
            let e = &mut entries[mask as usize];
            if *e >> SYMMETRY_SHIFT & 15 == 0 {
                let class = &mut least[mask.count_ones() as usize];
                *e |= class.len() as u32;
                class.push(mask);
            }
        }
        // Every other mask takes its least image's class.
        let snapshot: &Vec<u32> = &entries.clone();
        entries
            .par_chunks_mut(CHUNK)
            .enumerate()
            .for_each(|(k, chunk)| {
                for (i, e) in chunk.iter_mut().enumerate() {
                    let sym = (*e >> SYMMETRY_SHIFT & 15) as usize;
                    if sym != 0 {
                        let mask = (k * CHUNK + i) as u32;
                        let to = snapshot[image(rings, mask, sym) as usize];
                        *e |= to & ((1 << CLASS_BITS) - 1) | to & SELF_SYMMETRIC;
                    }
                }
            });
        Classes {
            entries,
            least,
            rings,
        }
    }

    /// The number of classes of `k` points.
    pub(super) fn count(&self, k: usize) -> u64 {
        self.least[k].len() as u64
    }

    /// The folded form of the mover's stones `w` against `b`: the mover's
    /// class, and both sets moved by the symmetry that makes them least.
    #[inline]
    pub(super) fn fold(&self, w: u32, b: u32) -> (u32, u32, u32) {
        let e = self.entries[w as usize];
        let sym = (e >> SYMMETRY_SHIFT & 15) as usize;
        let w2 = image(self.rings, w, sym);
        let b1 = image(self.rings, b, sym);
        let mut b2 = b1;
        if e & SELF_SYMMETRIC != 0 {
            for s in 1..16 {
                if image(self.rings, w2, s) == w2 {
                    b2 = b2.min(image(self.rings, b1, s));
                }
            }
        }
        (e & ((1 << CLASS_BITS) - 1), w2, b2)
    }

    /// The least image of class `class` of `k` points.
    fn least(&self, k: usize, class: u64) -> Option<u32> {
        self.least[k].get(class as usize).copied()
    }

    /// Whether `b` is least among its images under the symmetries that
    /// keep `w` (a least image).
    fn is_least_against(&self, w: u32, b: u32) -> bool {
        if self.entries[w as usize] & SELF_SYMMETRIC == 0 {
            return true;
        }
        (1..16).all(|s| image(self.rings, w, s) != w || image(self.rings, b, s) >= b)
    }
}

/// The rank of `b` among the subsets of its size of the points `w` leaves
/// empty (the combinatorial number system over those points).
#[inline]
fn rank_within(b: u32, w: u32) -> u64 {
    let (mut r, mut m, mut i) = (0, b, 1);
    while m != 0 {
        let at = m.trailing_zeros();
        let below = at - board::stones(w & ((1 << at) - 1));
        r += BINOMIAL[below as usize][i];
        m &= m - 1;
        i += 1;
    }
    r
}

/// Whether a mover with side `mover` against `other` can be: the mover
/// places first or second, so has as many stones in hand as the other or
/// one more (and with none in hand, the other has none either).
pub fn hands_possible(mover: Side, other: Side) -> bool {
    mover.hand == other.hand || mover.hand == other.hand + 1
}

/// A block of numbers: the positions of one tier with these sides for
/// White and Black and this player to move.
#[derive(Clone, Copy, Debug)]
struct Block {
    white: Side,
    black: Side,
    black_to_move: bool,
}

/// A numbering of every position of the game: the tiers one after
/// another, each tier a run of blocks.
pub(super) struct Numbering {
    folded: bool,
    /// Where each block's numbers start, and one past the last.
    starts: Vec<u64>,
    blocks: Vec<Block>,
    /// Every tier, in order, and its first block.
    tiers: Vec<(Tier, usize)>,
    /// The folded numbering's first number of the positions whose mover
    /// has side `m` against `o` at `[side_index(m) * SIDES + side_index(o)]`
    /// (`u64::MAX`: none).
    by_sides: Vec<u64>,
}

/// Every side a player can have.
const SIDES: usize = 55;

/// Every side a player can have, `board + hand <= 9`, in order: 55.
fn sides() -> Vec<Side> {
    (0..=STONES)
        .flat_map(|board| (0..=STONES - board).map(move |hand| Side { board, hand }))
        .collect()
}

/// A side's index in [`sides`].
fn side_index(s: Side) -> usize {
    let b = usize::from(s.board);
    b * (21 - b) / 2 + usize::from(s.hand)
}

/// A tier's index among all tiers, in [`Numbering`]'s order.
fn tier_index(t: Tier) -> usize {
    let (h, l) = (side_index(t.high), side_index(t.low));
    h * (h + 1) / 2 + l
}

impl Numbering {
    /// The numbering, folded (the symmetries and colours) or plain, made on
    /// first use.
    pub(super) fn get(folded: bool) -> &'static Numbering {
        static PLAIN: OnceLock<Numbering> = OnceLock::new();
        static FOLDED: OnceLock<Numbering> = OnceLock::new();
        if folded {
            FOLDED.get_or_init(|| Numbering::make(true))
        } else {
            PLAIN.get_or_init(|| Numbering::make(false))
        }
    }

    /// Plain: per tier, its two ways round (the side with more as White,
    /// then as Black; one where the sides are alike), each with White then
    /// Black to move, every board of those stones. Folded: per tier, each
    /// way round that can be with White to move, one board a class.
    fn make(folded: bool) -> Numbering {
        let sides = sides();
        let classes = folded.then(Classes::get);
        let mut n = Numbering {
            folded,
            starts: vec![0],
            blocks: Vec::new(),
            tiers: Vec::new(),
            by_sides: vec![u64::MAX; SIDES * SIDES],
        };
        for h in 0..sides.len() {
            for l in 0..=h {
                let t = Tier {
                    high: sides[h],
                    low: sides[l],
                };
                n.tiers.push((t, n.blocks.len()));
                for (white, black) in t.sides() {
                    for black_to_move in [false, true] {
                        let size = match classes {
                            None => {
                                let (nw, nb) = (usize::from(white.board), usize::from(black.board));
                                BINOMIAL[24][nw] * BINOMIAL[24 - nw][nb]
                            }
                            Some(_) if black_to_move || !hands_possible(white, black) => continue,
                            Some(c) => {
                                let (nw, nb) = (usize::from(white.board), usize::from(black.board));
                                c.count(nw) * BINOMIAL[24 - nw][nb]
                            }
                        };
                        let last = n.starts.last().copied().unwrap_or(0);
                        if folded {
                            n.by_sides[side_index(white) * SIDES + side_index(black)] = last;
                        }
                        n.starts.push(last + size);
                        n.blocks.push(Block {
                            white,
                            black,
                            black_to_move,
                        });
                    }
                }
            }
        }
        n
    }

    /// The numbers of tier `t`'s positions.
    pub(super) fn range(&self, t: Tier) -> std::ops::Range<u64> {
        let i = tier_index(t);
        let first = self.tiers[i].1;
        let end = self.tiers.get(i + 1).map_or(self.blocks.len(), |t| t.1);
        self.starts[first]..self.starts[end]
    }

    /// The number of `p`; `None` for a position whose stones in hand
    /// cannot be (see [`hands_possible`]).
    #[inline]
    pub(super) fn encode(&self, p: Position) -> Option<u64> {
        let black = p.black_to_move();
        let too_many = |side: bool| {
            board::stones(p.points(side)) + u32::from(p.in_hand(side)) > u32::from(STONES)
        };
        if too_many(false) || too_many(true) {
            return None;
        }
        if self.folded {
            let (w, b) = (p.points(black), p.points(!black));
            let (nw, nb) = (board::stones(w), board::stones(b));
            let mover = Side {
                board: nw as u8,
                hand: p.in_hand(black),
            };
            let other = Side {
                board: nb as u8,
                hand: p.in_hand(!black),
            };
            let first = *self
                .by_sides
                .get(side_index(mover) * SIDES + side_index(other))?;
            if first == u64::MAX {
                return None;
            }
            let (class, w2, b2) = Classes::get().fold(w, b);
            let within = BINOMIAL[24 - nw as usize][nb as usize];
            return Some(first + u64::from(class) * within + rank_within(b2, w2));
        }
        let (mover, other) = (p.side(black), p.side(!black));
        if !hands_possible(mover, other) {
            return None;
        }
        let t = Tier::of(mover, other);
        let first = self.tiers[tier_index(t)].1;
        let white = p.side(false);
        let (w, b) = (p.points(false), p.points(true));
        let orientation = usize::from(t.high != t.low && white != t.high);
        let block = first + orientation * 2 + usize::from(black);
        let within = BINOMIAL[24 - w.count_ones() as usize][b.count_ones() as usize];
        let at = board::rank(w) * within + board::rank(board::compress(b, ALL & !w));
        Some(self.starts[block] + at)
    }

    /// The numbers of positions whose mover has the stones `mover` and
    /// `hand` in hand (folded numbering): what the moves of a position
    /// reach where they capture nothing, the opponent's stones being the
    /// next mover's. The symmetry and the free points are worked out once.
    #[inline]
    pub(super) fn moves_to(&self, mover: u32, hand: u8) -> MovesTo<'_> {
        let classes = Classes::get();
        let e = classes.entries[mover as usize];
        let sym = (e >> SYMMETRY_SHIFT & 15) as usize;
        let least = image(classes.rings, mover, sym);
        let mut keep = [0u8; 15];
        let mut kept = 0;
        if e & SELF_SYMMETRIC != 0 {
            for s in 1..16 {
                if image(classes.rings, least, s) == least {
                    keep[kept] = s as u8;
                    kept += 1;
                }
            }
        }
        // Each point's place among the points `least` leaves empty.
        let mut free = [0u8; 24];
        let mut below = 0;
        for (pt, f) in free.iter_mut().enumerate() {
            *f = below;
            if least & 1 << pt == 0 {
                below += 1;
            }
        }
        MovesTo {
            numbering: self,
            classes,
            mover: Side {
                board: board::stones(mover) as u8,
                hand,
            },
            class: u64::from(e & ((1 << CLASS_BITS) - 1)),
            sym,
            keep,
            kept,
            free,
        }
    }

    /// The position numbered `code`: `None` past the last number, and for
    /// a number left unused (a folded board that is not least, a plain
    /// position whose stones in hand cannot be).
    pub(super) fn decode(&self, code: u64) -> Option<Position> {
        let block = self.starts.partition_point(|&s| s <= code).checked_sub(1)?;
        let Block {
            white,
            black,
            black_to_move,
        } = *self.blocks.get(block)?;
        let at = code - self.starts[block];
        let (nw, nb) = (usize::from(white.board), usize::from(black.board));
        let within = BINOMIAL[24 - nw][nb];
        let (row, col) = (at / within, at % within);
        let hands = [white.hand, black.hand];
        if self.folded {
            let classes = Classes::get();
            let w = classes.least(nw, row)?;
            let b = board::expand(board::unrank(col, nb), ALL & !w);
            return classes
                .is_least_against(w, b)
                .then(|| Position::new(w, b, hands, false));
        }
        let w = board::unrank(row, nw);
        let b = board::expand(board::unrank(col, nb), ALL & !w);
        let (mover, other) = if black_to_move {
            (black, white)
        } else {
            (white, black)
        };
        hands_possible(mover, other).then(|| Position::new(w, b, hands, black_to_move))
    }

    /// The folded form of `p`: White to move, the least board of its class.
    #[inline]
    pub(super) fn fold(p: Position) -> Position {
        let black = p.black_to_move();
        let (_, w, b) = Classes::get().fold(p.points(black), p.points(!black));
        Position::new(w, b, [p.in_hand(black), p.in_hand(!black)], false)
    }
}

/// The numbers of the positions of one mover's stones (see
/// [`Numbering::moves_to`]).
pub(super) struct MovesTo<'a> {
    numbering: &'a Numbering,
    classes: &'a Classes,
    mover: Side,
    class: u64,
    sym: usize,
    /// The symmetries other than the identity that keep the mover's least
    /// stones.
    keep: [u8; 15],
    kept: usize,
    /// Each point's place among the empty points of the mover's least
    /// stones.
    free: [u8; 24],
}

impl MovesTo<'_> {
    /// The number of the position where the other player has the stones
    /// `other` and `hand` in hand.
    #[inline]
    pub(super) fn number(&self, other: u32, hand: u8) -> Option<u64> {
        let rings = self.classes.rings;
        let mut b = image(rings, other, self.sym);
        if self.kept > 0 {
            let first = b;
            for &s in &self.keep[..self.kept] {
                b = b.min(image(rings, first, usize::from(s)));
            }
        }
        let nb = board::stones(b);
        let o = Side {
            board: nb as u8,
            hand,
        };
        if u32::from(o.board) + u32::from(hand) > u32::from(STONES) {
            return None;
        }
        let first = *self
            .numbering
            .by_sides
            .get(side_index(self.mover) * SIDES + side_index(o))?;
        if first == u64::MAX {
            return None;
        }
        let (mut rank, mut m, mut i) = (0, b, 1);
        while m != 0 {
            rank += BINOMIAL[usize::from(self.free[m.trailing_zeros() as usize])][i];
            m &= m - 1;
            i += 1;
        }
        let within = BINOMIAL[24 - usize::from(self.mover.board)][nb as usize];
        Some(first + self.class * within + rank)
    }
}
