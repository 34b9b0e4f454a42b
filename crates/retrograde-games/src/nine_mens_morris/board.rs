//! The board: 24 points on three nested squares, as bits of a `u32`.
//!
//! Point `8 * ring + k`: ring 0 is the outer square, 2 the inner; `k` runs
//! clockwise from the top-left corner (0 a corner, 1 the middle of the top
//! side, 2 the top-right corner, ..., 7 the middle of the left side). So a
//! ring is one byte of the mask, a turn of the board a rotation of each
//! byte by two bits, and swapping the inner and outer squares (a symmetry
//! of the lines) a swap of bytes 0 and 2.

/// All 24 points.
pub const ALL: u32 = (1 << 24) - 1;

/// The 16 mills: three points on a side of a square, or the middle points
/// of the three squares' same side.
pub const MILLS: [u32; 16] = {
    let mut mills = [0; 16];
    let mut i = 0;
    while i < 12 {
        let (ring, side) = (i / 4, (i % 4) * 2);
        let byte = (0b111u32 << side | 0b111 >> (8 - side)) & 0xff;
        mills[i] = byte << (8 * ring);
        i += 1;
    }
    while i < 16 {
        let k = (i - 12) * 2 + 1;
        mills[i] = (1 << k) | (1 << (k + 8)) | (1 << (k + 16));
        i += 1;
    }
    mills
};

/// Each point's neighbours along a line.
pub const NEIGHBOURS: [u32; 24] = {
    let mut out = [0; 24];
    let mut p = 0;
    while p < 24 {
        let (ring, k) = (p / 8, p % 8);
        let mut n = (1 << (8 * ring + (k + 1) % 8)) | (1 << (8 * ring + (k + 7) % 8));
        if k % 2 == 1 {
            if ring > 0 {
                n |= 1 << (p - 8);
            }
            if ring < 2 {
                n |= 1 << (p + 8);
            }
        }
        out[p] = n;
        p += 1;
    }
    out
};

/// The two mills through each point.
pub const MILLS_AT: [[u32; 2]; 24] = {
    let mut out = [[0; 2]; 24];
    let mut p = 0;
    while p < 24 {
        let mut found = 0;
        let mut m = 0;
        while m < 16 {
            if MILLS[m] & (1 << p) != 0 {
                out[p][found] = MILLS[m];
                found += 1;
            }
            m += 1;
        }
        p += 1;
    }
    out
};

/// The stones set in `mask` (of 24 points), counted by bytes: faster than
/// a counting loop where the processor's own count is not assumed.
#[inline(always)]
pub fn stones(mask: u32) -> u32 {
    const COUNT: [u8; 256] = {
        let mut c = [0u8; 256];
        let mut b = 0;
        while b < 256 {
            c[b] = (b as u32).count_ones() as u8;
            b += 1;
        }
        c
    };
    u32::from(COUNT[(mask & 0xff) as usize])
        + u32::from(COUNT[(mask >> 8 & 0xff) as usize])
        + u32::from(COUNT[(mask >> 16 & 0xff) as usize])
}

/// The points of `stones` that stand in a mill of theirs.
pub fn in_mills(stones: u32) -> u32 {
    MILLS
        .iter()
        .filter(|&&m| stones & m == m)
        .fold(0, |a, &m| a | m)
}

/// Whether `stones` has a mill through `point`.
pub fn closes_mill(stones: u32, point: usize) -> bool {
    let [a, b] = MILLS_AT[point];
    stones & a == a || stones & b == b
}

/// Each byte reflected across the diagonal through corners 0 and 4: bit `k`
/// to bit `(8 - k) % 8`.
const REFLECT: [u8; 256] = {
    let mut out = [0; 256];
    let mut b = 0;
    while b < 256 {
        let mut r = 0u8;
        let mut k = 0;
        while k < 8 {
            if b & (1 << k) != 0 {
                r |= 1 << ((8 - k) % 8);
            }
            k += 1;
        }
        out[b] = r;
        b += 1;
    }
    out
};

/// The 16 symmetries of the board (4 turns, with or without a reflection,
/// with or without the inner and outer squares swapped) applied to a mask,
/// symmetry `s` being `turns + 4 * reflect + 8 * swap`.
pub fn image(mask: u32, s: usize) -> u32 {
    let (turns, reflect, swap) = ((s % 4) as u32, s & 4 != 0, s & 8 != 0);
    let mut bytes = [0u32; 3];
    for (ring, out) in bytes.iter_mut().enumerate() {
        let mut b = (mask >> (8 * ring)) as u8;
        if reflect {
            b = REFLECT[b as usize];
        }
        *out = u32::from(b.rotate_left(2 * turns));
    }
    if swap {
        bytes.swap(0, 2);
    }
    bytes[0] | bytes[1] << 8 | bytes[2] << 16
}

/// A point's name: its file `a`–`g` and rank `1`–`7`.
pub fn name(p: usize) -> String {
    let (file, rank) = coordinates(p);
    format!("{}{}", char::from(b'a' + file as u8), rank + 1)
}

/// The point named `text` (`a7`, `D5`).
#[cfg(test)]
pub fn point(text: &str) -> Option<usize> {
    let mut chars = text.chars();
    let file = chars.next()?.to_ascii_lowercase();
    let rank = chars.next()?.to_digit(10)?;
    if chars.next().is_some() || !('a'..='g').contains(&file) || !(1..=7).contains(&rank) {
        return None;
    }
    let at = (file as usize - 'a' as usize, rank as usize - 1);
    (0..24).find(|&p| coordinates(p) == at)
}

/// A point's file and rank, from 0: `a1` is `(0, 0)`.
pub fn coordinates(p: usize) -> (usize, usize) {
    let (ring, k) = (p / 8, p % 8);
    let (low, mid, high) = (ring, 3, 6 - ring);
    match k {
        0 => (low, high),
        1 => (mid, high),
        2 => (high, high),
        3 => (high, mid),
        4 => (high, low),
        5 => (mid, low),
        6 => (low, low),
        _ => (low, mid),
    }
}

/// The points row by row from the top, each row left to right: the order
/// the notation writes them in.
pub fn reading_order() -> Vec<usize> {
    let mut points: Vec<usize> = (0..24).collect();
    points.sort_by_key(|&p| {
        let (file, rank) = coordinates(p);
        (std::cmp::Reverse(rank), file)
    });
    points
}

/// Binomial coefficients `C(n, k)` for `n, k <= 24`.
pub const BINOMIAL: [[u64; 25]; 25] = {
    let mut c = [[0u64; 25]; 25];
    let mut n = 0;
    while n < 25 {
        c[n][0] = 1;
        let mut k = 1;
        while k <= n {
            c[n][k] = c[n - 1][k - 1] + if k < n { c[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    c
};

/// The rank of the `k`-subset `mask` of `n` points among all `k`-subsets
/// (the combinatorial number system: the sum of `C(point, i + 1)` over its
/// points in increasing order).
pub fn rank(mask: u32) -> u64 {
    let mut r = 0;
    let mut m = mask;
    let mut i = 1;
    while m != 0 {
        let p = m.trailing_zeros() as usize;
        r += BINOMIAL[p][i];
        m &= m - 1;
        i += 1;
    }
    r
}

/// The `k`-subset of rank `r` (see [`rank`]): its points from the
/// highest down, each the highest point whose binomial fits what is left
/// (one scan down the 24 points in all).
pub fn unrank(mut r: u64, k: usize) -> u32 {
    let mut mask = 0;
    let mut p = 24;
    for i in (1..=k).rev() {
        p -= 1;
        while p > 0 && BINOMIAL[p][i] > r {
            p -= 1;
        }
        r -= BINOMIAL[p][i];
        mask |= 1 << p;
    }
    mask
}

/// `mask`'s bits taken from the positions of `within`, packed down:
/// bit `j` of the result is `mask`'s bit at `within`'s `j`-th point.
pub fn compress(mask: u32, within: u32) -> u32 {
    let (mut out, mut w, mut j) = (0, within, 0);
    while w != 0 {
        let p = w.trailing_zeros();
        out |= ((mask >> p) & 1) << j;
        w &= w - 1;
        j += 1;
    }
    out
}

/// The inverse of [`compress`]: bit `j` of `packed` placed at `within`'s
/// `j`-th point.
pub fn expand(mut packed: u32, within: u32) -> u32 {
    let (mut out, mut w, mut j) = (0, within, 0);
    while packed != 0 && w != 0 {
        let next = packed.trailing_zeros();
        // Skip `within`'s points up to the `next`-th.
        while j < next && w != 0 {
            w &= w - 1;
            j += 1;
        }
        out |= w & w.wrapping_neg();
        w &= w.wrapping_sub(1);
        j += 1;
        packed &= packed - 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_has_sixteen_mills_and_thirty_two_lines_between_neighbours() {
        assert!(MILLS.iter().all(|m| m.count_ones() == 3));
        let mut all = MILLS.to_vec();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 16);
        let links: u32 = NEIGHBOURS.iter().map(|n| n.count_ones()).sum();
        assert_eq!(links, 2 * 32);
        assert!((0..24).all(|p| MILLS_AT[p].iter().all(|m| m & (1 << p) != 0)));
        // a7 d7 g7 is a mill; d7 d6 d5 too; a7 and g7 are not neighbours.
        let [a7, d7, g7, d6, d5] = ["a7", "d7", "g7", "d6", "d5"].map(|n| point(n).unwrap());
        assert!(MILLS.contains(&(1 << a7 | 1 << d7 | 1 << g7)));
        assert!(MILLS.contains(&(1 << d7 | 1 << d6 | 1 << d5)));
        assert_eq!(NEIGHBOURS[a7].count_ones(), 2);
        assert_eq!(NEIGHBOURS[d6].count_ones(), 4);
        assert!(NEIGHBOURS[a7] & (1 << g7) == 0);
    }

    #[test]
    fn every_symmetry_keeps_the_lines_and_the_mills() {
        for s in 0..16 {
            let mut images: Vec<u32> = MILLS.iter().map(|&m| image(m, s)).collect();
            images.sort_unstable();
            let mut mills = MILLS.to_vec();
            mills.sort_unstable();
            assert_eq!(images, mills, "symmetry {s}");
            for (p, &n) in NEIGHBOURS.iter().enumerate() {
                let q = image(1 << p, s).trailing_zeros() as usize;
                assert_eq!(image(n, s), NEIGHBOURS[q], "symmetry {s}");
            }
        }
        let distinct: std::collections::HashSet<u32> =
            (0..16).map(|s| image(0b10_0000_0011, s)).collect();
        assert_eq!(distinct.len(), 16);
    }

    #[test]
    fn names_and_ranks_round_trip() {
        for p in 0..24 {
            assert_eq!(point(&name(p)), Some(p));
        }
        assert_eq!(reading_order().len(), 24);
        let mut x = 5u64;
        let masks = (0..2000).map(|_| {
            x = retrograde::graph::splitmix64(x);
            (x as u32) & ALL & (x >> 32) as u32
        });
        for mask in [0, 1, 0b1011, 0xf0_0f01, ALL].into_iter().chain(masks) {
            let k = mask.count_ones() as usize;
            assert!(rank(mask) < BINOMIAL[24][k]);
            assert_eq!(unrank(rank(mask), k), mask);
            let within = ALL & !0x0f_f0f0;
            let m = mask & within;
            assert_eq!(expand(compress(m, within), within), m);
        }
    }
}
