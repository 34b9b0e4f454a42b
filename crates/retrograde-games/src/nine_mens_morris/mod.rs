//! Nine Men's Morris by the rules Gasser solved it by (1993), as a
//! [`TieredGame`]: a tier is the stones each player has on the board and in
//! hand.
//!
//! The rules (Gasser's announcement, "Nine Men's Morris is a draw",
//! rec.games.abstract, 1993): White and Black each have nine stones in
//! hand. In turn, White first, each places one on an empty point; with
//! none left in hand, a player moves a stone along a line to a neighbouring
//! empty point, or, with three stones left, jumps one to any empty point. A
//! move that closes a mill (three of one's stones on a line) removes one of
//! the opponent's stones, one not in a mill unless all are (one stone even
//! when two mills close at once). A player left with fewer than three
//! stones, or without a move, loses; a game that never ends is a draw.
//!
//! The game starts from a tier of its own: `0.9-0.9` (nothing on the
//! board, nine in hand each) is the game itself, `0.N-0.N` the same board
//! with `N` stones each; the 28 tiers with nothing in hand, `3-3` to `9-9`,
//! are Gasser's databases of the moving phase.
//!
//! Values are for the player to move and do not depend on colour, so a
//! position with Black to move is folded onto the one with colours
//! swapped, and boards equal under the 16 symmetries (4 turns, a
//! reflection, the inner and outer squares swapped) are one position.

mod board;
mod numbering;
#[cfg(test)]
mod tests;

use std::fmt;

use rayon::prelude::*;

use numbering::{Numbering, hands_possible};

use retrograde::drawing::{Drawing, Piece};
use retrograde::play::NotationError;
use retrograde::registry::{Entry, Params};
use retrograde::tier::TieredGame;
use retrograde::{Outcome, Player, StateGame};

/// The stones a player may have: on the board and in hand together.
pub const STONES: u8 = 9;

/// A position: both players' stones on the board and in hand, and who
/// moves. Bits 0–23 are White's points, 24–47 Black's, 48–51 White's
/// stones in hand, 52–55 Black's, bit 56 Black to move.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Position(u64);

impl Position {
    /// White's and Black's points, their stones in hand, and whether Black
    /// moves.
    pub fn new(white: u32, black: u32, hands: [u8; 2], black_to_move: bool) -> Position {
        Position(
            u64::from(white & board::ALL)
                | u64::from(black & board::ALL) << 24
                | u64::from(hands[0] & 15) << 48
                | u64::from(hands[1] & 15) << 52
                | u64::from(black_to_move) << 56,
        )
    }

    /// The start with `stones` stones each in hand, White to move.
    pub fn start(stones: u8) -> Position {
        Position::new(0, 0, [stones, stones], false)
    }

    /// White's points (`false`) or Black's.
    pub fn points(self, black: bool) -> u32 {
        ((self.0 >> if black { 24 } else { 0 }) as u32) & board::ALL
    }

    /// White's stones in hand (`false`) or Black's.
    pub fn in_hand(self, black: bool) -> u8 {
        ((self.0 >> if black { 52 } else { 48 }) & 15) as u8
    }

    /// Whether Black moves.
    pub fn black_to_move(self) -> bool {
        self.0 >> 56 & 1 == 1
    }

    /// A side's stones on the board and in hand.
    fn side(self, black: bool) -> Side {
        Side {
            board: board::stones(self.points(black)) as u8,
            hand: self.in_hand(black),
        }
    }

    /// The mover's points, the opponent's, the mover's stones in hand.
    fn mover(self) -> (u32, u32, u8) {
        let black = self.black_to_move();
        (self.points(black), self.points(!black), self.in_hand(black))
    }

    /// The position after the mover's stones become `mine` (with `hand` in
    /// hand) and the opponent's `theirs`: the opponent to move.
    fn after(self, mine: u32, theirs: u32, hand: u8) -> Position {
        let black = self.black_to_move();
        let (white, bl) = if black {
            (theirs, mine)
        } else {
            (mine, theirs)
        };
        let mut hands = [self.in_hand(false), self.in_hand(true)];
        hands[usize::from(black)] = hand;
        Position::new(white, bl, hands, !black)
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", notation(*self))
    }
}

/// One player's stones: on the board and in hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Side {
    /// On the board.
    pub board: u8,
    /// In hand.
    pub hand: u8,
}

/// A tier: the stones of the two players, the side with more first
/// (whoever moves): `5-4` with none in hand, `2.7-1.8` with some.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Tier {
    /// The side with more on the board (then more in hand).
    pub high: Side,
    /// The other side.
    pub low: Side,
}

impl Tier {
    /// The tier of two sides, in either order.
    pub fn of(a: Side, b: Side) -> Tier {
        Tier {
            high: a.max(b),
            low: a.min(b),
        }
    }

    /// The tier named `name` (`5-4`, `0.9-0.9`, `2.7-1.8`), the sides in
    /// either order; `None` for a name that is no tier.
    pub fn from_name(name: &str) -> Option<Tier> {
        let side = |s: &str| -> Option<Side> {
            let (board, hand) = match s.split_once('.') {
                Some((b, h)) => (b.parse().ok()?, h.parse().ok()?),
                None => (s.parse().ok()?, 0),
            };
            (u16::from(board) + u16::from(hand) <= u16::from(STONES))
                .then_some(Side { board, hand })
        };
        let (a, b) = name.split_once('-')?;
        Some(Tier::of(side(a)?, side(b)?))
    }

    /// Its name: `5-4` with nothing in hand, `2.7-1.8` otherwise.
    pub fn name(&self) -> String {
        if self.high.hand == 0 && self.low.hand == 0 {
            format!("{}-{}", self.high.board, self.low.board)
        } else {
            let (h, l) = (self.high, self.low);
            format!("{}.{}-{}.{}", h.board, h.hand, l.board, l.hand)
        }
    }

    /// The two ways the tier's sides fall to the mover and the opponent
    /// (one where they are equal).
    fn sides(&self) -> Vec<(Side, Side)> {
        let mut out = vec![(self.high, self.low)];
        if self.high != self.low {
            out.push((self.low, self.high));
        }
        out
    }

    /// The ways round of [`Tier::sides`] that can occur in a game: the
    /// mover has as many stones in hand as the opponent, or one more (it
    /// placed first, or the opponent has just placed).
    fn movers(&self) -> Vec<(Side, Side)> {
        self.sides()
            .into_iter()
            .filter(|&(m, o)| hands_possible(m, o))
            .collect()
    }
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl fmt::Debug for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// Nine Men's Morris (see the [module docs](self)); `symmetry` folds the
/// board's symmetries and the colours.
#[derive(Clone, Debug)]
pub struct Morris {
    symmetry: bool,
    start: Option<Position>,
}

impl Morris {
    /// The game, solved from tier `root` (which gives the start when it
    /// is an empty board: `0.N-0.N`).
    pub fn new(root: Tier, symmetry: bool) -> Morris {
        let empty = Side {
            board: 0,
            hand: root.high.hand,
        };
        let start = (root.high == root.low && root.high == empty && empty.hand >= 3)
            .then(|| Position::start(empty.hand));
        Morris { symmetry, start }
    }

    /// Calls `f` with each position `p`'s moves lead to: a stone placed,
    /// stepped or flown, then, where it closes a mill, each stone that may
    /// be removed.
    fn moves(&self, p: Position, mut f: impl FnMut(Position)) {
        let (mine, theirs, hand) = p.mover();
        if board::stones(mine) + u32::from(hand) < 3 {
            return;
        }
        let empty = board::ALL & !(mine | theirs);
        let mut landed = |mine: u32, to: usize, hand: u8| {
            if !board::closes_mill(mine, to) || theirs == 0 {
                f(p.after(mine, theirs, hand));
                return;
            }
            let open = theirs & !board::in_mills(theirs);
            let mut removable = if open == 0 { theirs } else { open };
            while removable != 0 {
                let r = removable & removable.wrapping_neg();
                f(p.after(mine, theirs & !r, hand));
                removable &= removable - 1;
            }
        };
        if hand > 0 {
            each_point(empty, |to| landed(mine | 1 << to, to, hand - 1));
            return;
        }
        let flying = board::stones(mine) == 3;
        each_point(mine, |from| {
            let targets = if flying {
                empty
            } else {
                empty & board::NEIGHBOURS[from]
            };
            each_point(targets, |to| landed(mine & !(1 << from) | 1 << to, to, 0));
        });
    }
}

/// Calls `f` with each point of `mask`.
fn each_point(mut mask: u32, mut f: impl FnMut(usize)) {
    while mask != 0 {
        f(mask.trailing_zeros() as usize);
        mask &= mask - 1;
    }
}

impl StateGame for Morris {
    type Position = Position;

    fn starts(&self) -> Vec<Position> {
        self.start.into_iter().collect()
    }

    fn for_each_move<F: FnMut(Position)>(&self, p: &Position, f: F) {
        self.moves(*p, f);
    }

    /// A player with fewer than three stones, on the board and in hand
    /// together, has lost. (A player without a move loses too: the rule
    /// for a position without moves.)
    fn terminal(&self, p: &Position) -> Option<Outcome> {
        let side = p.side(p.black_to_move());
        (side.board + side.hand < 3).then_some(Outcome::Lose)
    }

    /// White to move (colours swapped if need be), the least image of
    /// White's stones under the board's 16 symmetries, then of Black's
    /// under those that keep White's (see the numbering's docs).
    fn canonical(&self, p: Position) -> Position {
        if self.symmetry { Numbering::fold(p) } else { p }
    }

    fn show(&self, p: &Position) -> String {
        show(*p)
    }

    fn notation(&self, p: &Position) -> String {
        notation(*p)
    }

    fn parse(&self, text: &str) -> Result<Position, NotationError> {
        parse(text)
    }

    /// `d7` (a stone placed), `a7-d7` (moved), `a7-d7xg1` (and a stone
    /// removed).
    fn move_name(&self, p: &Position, q: &Position) -> String {
        let black = p.black_to_move();
        let (before, after) = (p.points(black), q.points(black));
        let name = |mask: u32| board::name(mask.trailing_zeros() as usize);
        let mut out = match (before & !after, after & !before) {
            (0, to) => name(to),
            (from, to) => format!("{}-{}", name(from), name(to)),
        };
        let removed = p.points(!black) & !q.points(!black);
        if removed != 0 {
            out.push('x');
            out.push_str(&name(removed));
        }
        out
    }

    fn to_move(&self, p: &Position) -> String {
        if p.black_to_move() { "black" } else { "white" }.into()
    }

    /// Fewer than three stones left, or no move: the player to move loses.
    fn ending(&self, p: &Position) -> Option<String> {
        let (mover, other) = if p.black_to_move() {
            ("black", "white")
        } else {
            ("white", "black")
        };
        if self.terminal(p).is_some() {
            return Some(format!("{mover} has fewer than three stones: {other} wins"));
        }
        let mut moves = 0;
        self.for_each_move(p, |_| moves += 1);
        (moves == 0).then(|| format!("{mover} cannot move: {other} wins"))
    }

    /// The three squares of points, their lines, the stones, and the stones
    /// in hand.
    fn drawing(&self, p: &Position) -> Option<Drawing> {
        Some(drawing(*p))
    }

    /// Every board as it is, both sides to move (the numbers positions are
    /// played by, so that a board keeps its orientation): per tier, White's
    /// points ranked among the subsets of their size, then Black's among
    /// the points left (see `numbering.rs`). A position whose stones in
    /// hand cannot be (the mover with fewer in hand than the opponent, or
    /// two more) has none. The dense rung numbers one board a class
    /// instead ([`TieredGame::number_of`]).
    fn encode(&self, p: &Position) -> Option<u64> {
        Numbering::get(false).encode(*p)
    }

    fn decode(&self, code: u64) -> Option<Position> {
        Numbering::get(false).decode(code)
    }
}

impl TieredGame for Morris {
    type Tier = Tier;

    fn tier(&self, p: &Position) -> Tier {
        Tier::of(p.side(false), p.side(true))
    }

    /// A placement moves a stone from hand to board (and may remove one of
    /// the opponent's); a move on the board stays in the tier unless it
    /// removes a stone. Tiers where a side has fewer than three stones are
    /// not children: the game is over there.
    fn child_tiers(&self, tier: &Tier) -> Vec<Tier> {
        let mut out = Vec::new();
        for (mover, other) in tier.movers() {
            if mover.board + mover.hand < 3 {
                continue;
            }
            let moved = if mover.hand > 0 {
                Side {
                    board: mover.board + 1,
                    hand: mover.hand - 1,
                }
            } else {
                mover
            };
            let mut reached = vec![Tier::of(moved, other)];
            if other.board > 0 && other.board - 1 + other.hand >= 3 {
                let less = Side {
                    board: other.board - 1,
                    hand: other.hand,
                };
                reached.push(Tier::of(moved, less));
            }
            out.extend(reached.into_iter().filter(|t| t != tier));
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Every position of `tier` its numbers hold: with the symmetries
    /// folded, White to move only (a position with Black to move is its
    /// colours swapped); without, both sides to move, as a move from a
    /// parent tier may land on either.
    fn tier_positions(&self, tier: &Tier) -> Vec<Position> {
        let range = Numbering::get(self.symmetry).range(*tier);
        range
            .into_par_iter()
            .filter_map(|c| self.position_of(c))
            .collect()
    }

    fn tier_name(&self, tier: &Tier) -> String {
        tier.name()
    }

    /// Its numbers.
    fn tier_size(&self, tier: &Tier) -> Option<u64> {
        let r = Numbering::get(self.symmetry).range(*tier);
        Some(r.end - r.start)
    }

    /// With the symmetries folded, one number a class of boards equal
    /// under them (the mover's stones first, see `numbering.rs`), found
    /// from any of them; without, [`StateGame::encode`].
    fn number_of(&self, p: &Position) -> Option<u64> {
        Numbering::get(self.symmetry).encode(*p)
    }

    fn position_of(&self, number: u64) -> Option<Position> {
        Numbering::get(self.symmetry).decode(number)
    }

    /// With the symmetries folded, the moves that capture nothing are
    /// numbered together: the next mover's stones, the opponent's, are the
    /// same in all of them.
    fn for_each_numbered_move<F: FnMut(Position, Option<u64>)>(&self, p: &Position, mut f: F) {
        if !self.symmetry {
            return self.moves(*p, |q| f(q, self.number_of(&q)));
        }
        let black = p.black_to_move();
        let theirs = p.points(!black);
        let numbering = Numbering::get(true);
        let to = numbering.moves_to(theirs, p.in_hand(!black));
        self.moves(*p, |q| {
            let c = if q.points(!black) == theirs {
                to.number(q.points(black), q.in_hand(black))
            } else {
                numbering.encode(q)
            };
            f(q, c)
        });
    }

    fn tier_numbers(&self, tier: &Tier) -> Option<std::ops::Range<u64>> {
        Some(Numbering::get(self.symmetry).range(*tier))
    }

    /// A stone stepped back along a line (flown back, for a player with
    /// three), by the player who is not to move: the only moves within a
    /// tier (a placement changes the stones in hand, a mill closed the
    /// opponent's stones), so never one that closes a mill where it lands,
    /// unless the opponent has no stone on the board to lose.
    fn for_each_unmove<F: FnMut(Position)>(&self, q: &Position, mut f: F) {
        let black = q.black_to_move();
        let (moved, stay) = (q.points(!black), q.points(black));
        // The player who moved had none in hand, three stones or more, and
        // stones in hand that can be against the other's.
        if q.in_hand(!black) != 0
            || board::stones(moved) < 3
            || !hands_possible(q.side(!black), q.side(black))
        {
            return;
        }
        let empty = board::ALL & !(moved | stay);
        let flying = board::stones(moved) == 3;
        each_point(moved, |to| {
            if stay != 0 && board::closes_mill(moved, to) {
                return;
            }
            let from = if flying {
                empty
            } else {
                empty & board::NEIGHBOURS[to]
            };
            each_point(from, |from| {
                let before = moved & !(1 << to) | 1 << from;
                let (white, bl) = if black {
                    (before, stay)
                } else {
                    (stay, before)
                };
                f(Position::new(
                    white,
                    bl,
                    [q.in_hand(false), q.in_hand(true)],
                    !black,
                ));
            });
        });
    }
}

/// The points in reading order (rows from the top, each left to right),
/// `W`, `B` or `.`, the rows of 3, 3, 3, 6, 3, 3 and 3 points split by
/// `/`; who moves (`w`, `b`); the stones White and Black have in hand.
fn notation(p: Position) -> String {
    let order = board::reading_order();
    let mut rows = String::new();
    for (i, &pt) in order.iter().enumerate() {
        if [3, 6, 9, 15, 18, 21].contains(&i) {
            rows.push('/');
        }
        rows.push(if p.points(false) & 1 << pt != 0 {
            'W'
        } else if p.points(true) & 1 << pt != 0 {
            'B'
        } else {
            '.'
        });
    }
    let mover = if p.black_to_move() { 'b' } else { 'w' };
    format!("{rows} {mover} {} {}", p.in_hand(false), p.in_hand(true))
}

/// Reads [`notation`]; the stones in hand may be left out (none).
fn parse(text: &str) -> Result<Position, NotationError> {
    let invalid = |what: &str| {
        NotationError::invalid(
            "nine-mens-morris",
            text,
            format!(
                "{what} (expected rows of W, B and . from the top, then who moves and the stones in hand: \"W../.B./.../....../.../.../... w 7 8\")"
            ),
        )
    };
    let mut fields = text.split_whitespace();
    let rows = fields.next().ok_or_else(|| invalid("no points"))?;
    let lengths: Vec<usize> = rows.split('/').map(str::len).collect();
    if lengths != [3, 3, 3, 6, 3, 3, 3] {
        return Err(invalid("not rows of 3, 3, 3, 6, 3, 3 and 3 points"));
    }
    let (mut white, mut black) = (0u32, 0u32);
    let cells = rows.chars().filter(|&c| c != '/');
    for (c, pt) in cells.zip(board::reading_order()) {
        match c {
            'W' | 'w' => white |= 1 << pt,
            'B' | 'b' => black |= 1 << pt,
            '.' => {}
            _ => return Err(invalid("a point that is not W, B or .")),
        }
    }
    let black_to_move = match fields.next() {
        Some("w" | "W") => false,
        Some("b" | "B") => true,
        _ => return Err(invalid("no w or b to move")),
    };
    let mut hand = || -> Result<u8, NotationError> {
        fields.next().map_or(Ok(0), |h| {
            h.parse::<u8>()
                .ok()
                .filter(|&h| h <= STONES)
                .ok_or_else(|| invalid("stones in hand that are not 0 to 9"))
        })
    };
    let hands = [hand()?, hand()?];
    if fields.next().is_some() {
        return Err(invalid("more than the points, who moves and two hands"));
    }
    for (i, stones) in [white, black].into_iter().enumerate() {
        if stones.count_ones() + u32::from(hands[i]) > u32::from(STONES) {
            return Err(invalid("more than nine stones for one player"));
        }
    }
    Ok(Position::new(white, black, hands, black_to_move))
}

/// The board as places for the explorer: the 24 points where they stand
/// (file `a` at the left, rank 7 at the top), the lines between
/// neighbours, White's stones light and Black's dark.
fn drawing(p: Position) -> Drawing {
    let mut d = Drawing::new();
    for pt in 0..24 {
        let (file, rank) = board::coordinates(pt);
        d = d.point(board::name(pt), file as f32, (6 - rank) as f32);
    }
    for a in 0..24 {
        for b in (a + 1..24).filter(|&b| board::NEIGHBOURS[a] & 1 << b != 0) {
            d = d.line(a, b);
        }
    }
    for pt in 0..24 {
        if p.points(false) & 1 << pt != 0 {
            d = d.piece(pt, Piece::stone(Player::First, "white stone"));
        } else if p.points(true) & 1 << pt != 0 {
            d = d.piece(pt, Piece::stone(Player::Second, "black stone"));
        }
    }
    let mover = if p.black_to_move() { "Black" } else { "White" };
    d.note(format!(
        "{mover} to move; in hand: White {}, Black {}",
        p.in_hand(false),
        p.in_hand(true)
    ))
}

/// The board drawn with its lines, ranks on the left and files below.
fn show(p: Position) -> String {
    let mut grid = vec![vec![' '; 25]; 13];
    let at = |pt: usize| {
        let (file, rank) = board::coordinates(pt);
        (2 * (6 - rank), 4 * file)
    };
    for a in 0..24 {
        for b in (a + 1..24).filter(|&b| board::NEIGHBOURS[a] & 1 << b != 0) {
            let ((ra, ca), (rb, cb)) = (at(a), at(b));
            if ra == rb {
                (ca.min(cb)..ca.max(cb)).for_each(|c| grid[ra][c] = '-');
            } else {
                (ra.min(rb)..ra.max(rb)).for_each(|r| grid[r][ca] = '|');
            }
        }
    }
    for pt in 0..24 {
        let (r, c) = at(pt);
        grid[r][c] = if p.points(false) & 1 << pt != 0 {
            'W'
        } else if p.points(true) & 1 << pt != 0 {
            'B'
        } else {
            '.'
        };
    }
    let mut out = String::new();
    for (r, row) in grid.iter().enumerate() {
        let rank = if r % 2 == 0 {
            char::from(b'7' - (r / 2) as u8)
        } else {
            ' '
        };
        let line: String = row.iter().collect();
        out.push_str(&format!("{rank} {}\n", line.trim_end()));
    }
    out.push_str("  a   b   c   d   e   f   g\n");
    let mover = if p.black_to_move() { "Black" } else { "White" };
    out.push_str(&format!(
        "{mover} to move; in hand: White {}, Black {}\n",
        p.in_hand(false),
        p.in_hand(true)
    ));
    out
}

/// The registry's entry: `nine-mens-morris TIER`, the tier a name such as
/// `3-3` or `0.9-0.9` (the whole game).
pub fn entry() -> Entry {
    Entry::tiered_game(
        "nine-mens-morris",
        "Nine Men's Morris by Gasser's rules, tier by tier by the stones on the board and in hand (3-3 ... 9-9; 0.9-0.9 is the whole game).",
        |p: &Params<'_>| {
            let variant = if p.variant().is_empty() { "3-3" } else { p.variant() };
            let tier = Tier::from_name(variant).ok_or_else(|| {
                p.bad("variant", variant, "a tier: the stones on the board of each side (3-3, 5-4, ... 9-9), or on the board and in hand (0.9-0.9, 2.7-1.8)")
            })?;
            Ok((Morris::new(tier, p.flag("symmetry")?), tier))
        },
    )
    .help(
        "\
The tier names the stones each player has: on the board (5-4: five and four, none in \
hand: Gasser's databases of the moving phase, 3-3 to 9-9), or on the board and in hand \
(2.7-1.8: two on the board and seven in hand against one and eight). 0.N-0.N is the start \
with N stones each: 0.9-0.9 the whole game, 0.4-0.4 the same board with four stones each. \
Every tier a tier leads to (a stone placed, a stone removed) is solved first, each kept \
as a database in --tiers DIR.

Positions are the points row by row from the top (3, 3, 3, 6, 3, 3 and 3 of them, split \
by /; W, B or .), who moves (w or b), and the stones White and Black have in hand. Moves \
are named d7 (placed), a7-d7 (moved) and a7-d7xg1 (and g1 removed).

Examples:
  retrograde game nine-mens-morris 3-3
  retrograde game nine-mens-morris 0.4-0.4 --tiers morris/
  retrograde query morris/3-3.db 'W.W/.../.../W....B/.../B../..B w'",
    )
    .param(retrograde::registry::Param::flag(
        "symmetry",
        "Solve every position as it is, without folding the board's symmetries and the colours.",
        true,
    ))
}
