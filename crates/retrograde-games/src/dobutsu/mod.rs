//! Dōbutsu shōgi ("Let's Catch the Lion!", Kitao and Fujita, 2008), as a
//! numbered [`Game`] solved on the fly.
//!
//! # The rules, as read here
//! - A board of 3 columns and 4 rows. Each player has a lion (one step in
//!   any direction), a giraffe (one step orthogonally), an elephant (one step
//!   diagonally) and a chick (one step forward), set out as in
//!   `gle/1c1/1C1/ELG b -` ([`notation`]): the first player at the bottom.
//! - A chick that steps onto the far rank is promoted to a hen, which steps
//!   like a gold general: forward, diagonally forward, sideways or back.
//! - A piece captured changes sides and goes to the captor's hand (a hen as
//!   a chick). Instead of moving, a player may drop a piece from hand on any
//!   empty square; a dropped chick is not promoted, even on the far rank
//!   (where it can never move again).
//! - Capturing the lion wins. A lion that reaches the far rank wins if the
//!   opponent cannot capture it on the next move (the "try").
//! - Endless play is a draw.
//!
//! # Positions, as Tanaka counted them
//! A position is seen by its player to move ([`Board`]): the same board
//! turned 180° with the colours and the hands swapped, the other player to
//! move, is the same position. A position and its left–right mirror image
//! are one position too (unless [`Dobutsu::new`] is told not to fold them).
//! The game is over, and the position not expanded, when the player to move
//! can capture the opponent's lion (a win, remoteness 0: the capture itself
//! is not counted as a ply) or when the opponent's lion stands on the player's
//! home rank and cannot be captured (a loss: the try succeeded). Counted this
//! way, 246,803,167 positions are reachable from the start, as Tanaka
//! published (2009), and the start is lost for the first player.
//!
//! # Numbering
//! Every board has a number in a dense index space ([`index`]: 7.6 · 10⁹
//! numbers for the full set of pieces). The positions reachable from the
//! start are found by a breadth-first search over that space, one bit per
//! number ([`reach`]), and numbered `0..n` in order: the rank of a board's
//! number among the reachable ones is its position number, and a position
//! number's board is found by select. About 1.1 GB for the full game.
//!
//! ```
//! use retrograde_games::dobutsu::{notation, Capture, Dobutsu};
//! use retrograde::{solve_game, Answers, Game, NoProgress, Rules};
//! // Lions and a chick each, from a position of the endgame.
//! let (start, _) = notation::parse("1l1/1c1/1C1/1L1 b -").unwrap();
//! let game = Dobutsu::from_start(start, true, Capture::Played, &NoProgress).unwrap();
//! assert!(game.reachable() > 1000);
//! assert_eq!(game.show(game.start()), "1l1/1c1/1C1/1L1 b -");
//! let solved = solve_game(&game, &Rules::normal()).unwrap();
//! println!("{}", solved.value(game.start()).unwrap());
//! ```

pub mod board;
pub mod index;
pub mod notation;
mod play;
pub mod reach;
#[cfg(test)]
mod tests;

pub use board::{Board, Move};
pub use notation::{SfenError, SfenErrorKind};
pub use play::{Setup, entry};

use index::{MIRROR, Numbering};
use reach::Reachable;

use std::cmp::Ordering;

use retrograde::solve::Progress;
use retrograde::{Game, Outcome};

/// How the capture of a lion is counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Capture {
    /// The capture is the game's last ply: a position where the lion can be
    /// captured is won in 1 (the capture leads to [`Dobutsu::captured`], a
    /// loss in 0, which is no position). The reading of Tanaka's 78 plies.
    #[default]
    Played,
    /// A position where the lion can be captured is over: won in 0 plies.
    Terminal,
}

/// The game over the positions reachable from a start; see the [module docs](self).
#[derive(Debug)]
pub struct Dobutsu {
    numbering: Numbering,
    reachable: Reachable,
    mirror: bool,
    capture: Capture,
    /// The start's position number.
    start: u32,
}

impl Dobutsu {
    /// The game from its opening position; `mirror` folds each position
    /// with its mirror image. Explores the reachable positions on all
    /// threads of the current rayon pool, reporting to `progress`.
    pub fn new(mirror: bool, capture: Capture, progress: &dyn Progress) -> Dobutsu {
        Dobutsu::explore(Board::start(), mirror, capture, progress)
    }

    /// The game of the positions reachable from `start` (with its pieces:
    /// a start with fewer giraffes, elephants or chicks plays a smaller
    /// game), as [`Dobutsu::new`].
    ///
    /// # Errors
    /// If `start` is not [valid](Board::is_valid) (one lion a side, at most
    /// two of any other kind). [`notation::parse`] only makes valid ones.
    pub fn from_start(
        start: Board,
        mirror: bool,
        capture: Capture,
        progress: &dyn Progress,
    ) -> Result<Dobutsu, SfenError> {
        if !start.is_valid() {
            return Err(SfenError {
                text: notation::write(&start, true),
                kind: SfenErrorKind::Pieces,
            });
        }
        Ok(Dobutsu::explore(start, mirror, capture, progress))
    }

    /// The most memory exploring from `start` holds, known before it
    /// starts: a bit for every board with `start`'s pieces (1.09 GB for the
    /// full game), and a quarter as much again for the samples of the
    /// numbering (123 MB for the full game) and the frontier of the
    /// breadth-first search.
    pub fn explore_bytes(start: &Board) -> u64 {
        let lines = Reachable::line_bytes(Numbering::new(start.piece_counts()).total());
        lines.saturating_add(lines / 4)
    }

    fn explore(start: Board, mirror: bool, capture: Capture, progress: &dyn Progress) -> Dobutsu {
        let numbering = Numbering::new(start.piece_counts());
        let canonical = |b: &Board| canonical(&numbering, mirror, b);
        let reachable = Reachable::explore(&numbering, &start, canonical, progress);
        // The start was the first member claimed.
        let first = reachable.rank(canonical(&start)).map_or(0, |r| r as u32);
        Dobutsu {
            numbering,
            reachable,
            mirror,
            capture,
            start: first,
        }
    }

    /// The start's position number.
    pub fn start(&self) -> u32 {
        self.start
    }

    /// Whether mirror images are one position.
    pub fn folds_mirror_images(&self) -> bool {
        self.mirror
    }

    /// How captures of the lion are counted.
    pub fn capture(&self) -> Capture {
        self.capture
    }

    /// The number of positions reachable from the start (with
    /// [`Capture::Played`], one less than [`Game::position_count`]).
    pub fn reachable(&self) -> u64 {
        self.reachable.len()
    }

    /// With [`Capture::Played`], the index after the last position: where
    /// every capture of a lion leads, a loss in 0 for the player whose lion
    /// was taken. No position of the game.
    pub fn captured(&self) -> Option<u32> {
        (self.capture == Capture::Played).then_some(self.reachable.len() as u32)
    }

    /// The position number of a board (seen by its player to move), if it
    /// is reachable from the start.
    pub fn position(&self, b: &Board) -> Option<u32> {
        if b.piece_counts() != self.numbering.counts() || !b.is_valid() {
            return None;
        }
        self.rank(canonical(&self.numbering, self.mirror, b))
    }

    #[inline]
    fn rank(&self, n: u64) -> Option<u32> {
        self.reachable.rank(n).map(|r| r as u32)
    }

    /// The board of position `p` (of two mirror images, the one that reads
    /// first, [`Board::mirror_order`]), seen by its player to move; `None`
    /// for [`Dobutsu::captured`] and indices past the game.
    pub fn board(&self, p: u32) -> Option<Board> {
        self.reachable
            .select(u64::from(p))
            .and_then(|n| self.numbering.board(n))
    }

    /// [`Dobutsu::board`] for an index the solver hands over: a position.
    #[inline]
    fn board_of(&self, p: u32) -> Board {
        self.board(p)
            .unwrap_or_else(|| panic!("position {p} is not in the game"))
    }

    /// The moves of a board with the boards they lead to, seen by the
    /// player moving next, and those boards' position numbers.
    pub fn moves(&self, b: &Board) -> Vec<(Move, Board, Option<u32>)> {
        let mut out = Vec::new();
        b.for_each_move(|m, after| out.push((m, after, self.position(&after))));
        out
    }

    /// The key of every position in order, as its database keeps them: the
    /// board number of each reachable position, then (with
    /// [`Capture::Played`]) [`Setup::captured_key`] for the captured lion.
    pub fn keys(&self) -> Vec<u64> {
        let mut keys = Vec::with_capacity(self.position_count());
        self.reachable.for_each(|n| keys.push(n));
        if self.capture == Capture::Played {
            keys.push(self.numbering.total());
        }
        keys
    }

    /// A bound on the keys (see [`Dobutsu::keys`]): each is below it.
    pub fn key_universe(&self) -> u64 {
        self.numbering.total() + 1
    }

    /// The key of position `p` in its database (see [`Dobutsu::keys`]);
    /// `None` past the game.
    pub fn key(&self, p: u32) -> Option<u64> {
        match self.reachable.select(u64::from(p)) {
            Some(n) => Some(n),
            None => (Some(p) == self.captured()).then(|| self.numbering.total()),
        }
    }

    /// The setup alone, without the numbering of the reachable positions:
    /// what playing and probing a database need.
    pub fn setup(&self, start: Board, sente: bool) -> Setup {
        Setup::new(start, sente, self.mirror, self.capture)
    }

    /// Bytes held by the numbering of the reachable positions.
    pub fn bytes(&self) -> u64 {
        self.reachable.bytes()
    }
}

/// The number standing for `b`: its own, or with `mirror` that of the one
/// of `b` and its mirror image that reads first ([`Board::mirror_order`]).
#[inline]
fn canonical(numbering: &Numbering, mirror: bool, b: &Board) -> u64 {
    if mirror && b.mirror_order() == Ordering::Greater {
        numbering.number_mapped(b, &MIRROR)
    } else {
        numbering.number(b)
    }
}

/// Reverse moves found but not yet ranked: their numbers are gathered and
/// their lines prefetched first, so that the rank lookups' cache misses
/// overlap. One buffer a thread, kept between calls.
struct Gathered<'a, F> {
    game: &'a Dobutsu,
    numbers: &'a mut Vec<u64>,
    f: F,
}

/// Reverse moves gathered at most before ranking.
const GATHER: usize = 256;

thread_local! {
    static BUFFER: std::cell::RefCell<Vec<u64>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl<F: FnMut(u32)> Gathered<'_, F> {
    #[inline]
    fn push(&mut self, n: u64) {
        if self.numbers.len() == GATHER {
            self.flush();
        }
        self.game.reachable.prefetch(n);
        self.numbers.push(n);
    }

    #[inline]
    fn flush(&mut self) {
        for &n in self.numbers.iter() {
            if let Some(p) = self.game.rank(n) {
                (self.f)(p)
            }
        }
        self.numbers.clear();
    }
}

/// Runs `body` with a [`Gathered`] for `f`, flushed at the end.
fn gathering<F: FnMut(u32)>(game: &Dobutsu, f: F, body: impl FnOnce(&mut Gathered<'_, F>)) {
    BUFFER.with(|buffer| {
        // A call from within `f` (no caller does that) gets a buffer of its own.
        let mut own = Vec::new();
        let mut borrowed = buffer.try_borrow_mut();
        let numbers = match borrowed.as_deref_mut() {
            Ok(v) => v,
            Err(_) => &mut own,
        };
        numbers.clear();
        let mut g = Gathered { game, numbers, f };
        body(&mut g);
        g.flush();
    })
}

impl Game for Dobutsu {
    fn position_count(&self) -> usize {
        self.reachable.len() as usize + usize::from(self.capture == Capture::Played)
    }

    fn for_each_move<F: FnMut(u32)>(&self, p: u32, mut f: F) {
        if Some(p) == self.captured() {
            return;
        }
        let board = self.board_of(p);
        if let Some(captured) = self.captured() {
            for _ in 0..board.lion_captures() {
                f(captured)
            }
        }
        board.for_each_move(|_, after| {
            if let Some(q) = self.rank(canonical(&self.numbering, self.mirror, &after)) {
                f(q)
            }
        });
    }

    /// The reverse moves of the board standing for `q`, each listed as often
    /// as the moves of the board standing for its position lead to `q`'s
    /// board or its mirror image: a reverse move from a symmetric board is
    /// listed twice when `q`'s board is not symmetric (its moves reach both
    /// images); when `q`'s board is symmetric, only reverse moves from a
    /// board that stands for its position count (both images reach it).
    /// [`Dobutsu::captured`]'s reverse moves are every capture of a lion,
    /// found by a pass over all positions on all threads.
    fn for_each_unmove<F: FnMut(u32)>(&self, q: u32, mut f: F) {
        if Some(q) == self.captured() {
            use rayon::prelude::*;
            let n = self.reachable.len() as u32;
            let captures: Vec<Vec<u32>> = (0..n)
                .into_par_iter()
                .fold(Vec::new, |mut v, p| {
                    for _ in 0..self.board_of(p).lion_captures() {
                        v.push(p)
                    }
                    v
                })
                .collect();
            captures.iter().flatten().for_each(|&p| f(p));
            return;
        }
        let board = self.board_of(q);
        let nb = &self.numbering;
        if !self.mirror {
            gathering(self, f, |g| {
                board.for_each_unmove(|before| g.push(nb.number(&before)))
            });
            return;
        }
        let symmetric = board.mirror_order() == Ordering::Equal;
        gathering(self, f, |g| {
            board.for_each_unmove(|before| {
                let order = before.mirror_order();
                let times = match (symmetric, order) {
                    (true, Ordering::Equal | Ordering::Less) => 1,
                    (true, Ordering::Greater) => 0,
                    (false, Ordering::Equal) => 2,
                    (false, _) => 1,
                };
                if times > 0 {
                    let n = canonical(nb, true, &before);
                    for _ in 0..times {
                        g.push(n);
                    }
                }
            })
        });
    }

    fn terminal(&self, p: u32) -> Option<Outcome> {
        if Some(p) == self.captured() {
            return Some(Outcome::Lose);
        }
        match self.board_of(p).terminal() {
            Some(Outcome::Win) if self.capture == Capture::Played => None,
            t => t,
        }
    }

    fn out_degree(&self, p: u32) -> u32 {
        if Some(p) == self.captured() {
            return 0;
        }
        let board = self.board_of(p);
        match board.lion_captures() {
            n if n > 0 && self.capture == Capture::Played => n,
            _ => board.move_count(),
        }
    }

    /// One unnumbering for both.
    fn terminal_and_degree(&self, p: u32) -> (Option<Outcome>, u32) {
        if Some(p) == self.captured() {
            return (Some(Outcome::Lose), 0);
        }
        let board = self.board_of(p);
        match board.terminal() {
            Some(Outcome::Win) if self.capture == Capture::Played => (None, board.lion_captures()),
            Some(o) => (Some(o), 0),
            None => (None, board.count_moves()),
        }
    }

    /// The position's notation with its player to move as the first player.
    fn show(&self, p: u32) -> String {
        match self.board(p) {
            Some(b) => notation::write(&b, true),
            None if Some(p) == self.captured() => "the lion captured".to_string(),
            None => format!("no position ({p})"),
        }
    }
}
