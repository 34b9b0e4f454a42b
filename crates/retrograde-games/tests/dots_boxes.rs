//! Dots and boxes, where a player who completes a box moves again: every
//! position's value against a solver written here from the rules alone (a
//! memoised search of the game tree, which has no cycles), and the same
//! values from every engine.

use std::collections::HashMap;

use retrograde::explore::explore;
use retrograde::solve::reference::solve_reference;
use retrograde::solve::{solve_lean, solve_parallel};
use retrograde::{Answers, Outcome, Player, StateGame, Value, solve};
use retrograde_games::dots_boxes::DotsAndBoxes;

/// A position as the search below holds it: which lines are drawn, the
/// boxes each player has, who moves.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Board {
    drawn: Vec<bool>,
    boxes: [u32; 2],
    mover: usize,
}

/// The rules written out again, boxes found by their four sides.
struct Rules {
    rows: usize,
    cols: usize,
}

impl Rules {
    fn top(&self, r: usize, c: usize) -> usize {
        r * self.cols + c
    }
    fn left(&self, r: usize, c: usize) -> usize {
        (self.rows + 1) * self.cols + r * (self.cols + 1) + c
    }
    fn closed(&self, drawn: &[bool]) -> u32 {
        let mut n = 0;
        for r in 0..self.rows {
            for c in 0..self.cols {
                let sides = [
                    self.top(r, c),
                    self.top(r + 1, c),
                    self.left(r, c),
                    self.left(r, c + 1),
                ];
                n += u32::from(sides.iter().all(|&l| drawn[l]));
            }
        }
        n
    }

    /// Each move: the board after it, and whether the same player moves next.
    fn moves(&self, b: &Board) -> Vec<(Board, bool)> {
        let before = self.closed(&b.drawn);
        (0..b.drawn.len())
            .filter(|&l| !b.drawn[l])
            .map(|l| {
                let mut next = b.clone();
                next.drawn[l] = true;
                let gained = self.closed(&next.drawn) - before;
                next.boxes[b.mover] += gained;
                let again = gained > 0;
                if !again {
                    next.mover = 1 - b.mover;
                }
                (next, again)
            })
            .collect()
    }

    /// The value for the player to move, from the definitions: at the end
    /// the boxes decide; else the best move for the mover (a move's value
    /// is the next position's, flipped unless the mover moves again, one
    /// ply longer): a win soonest, a tie soonest, a loss latest.
    fn value(&self, b: &Board, memo: &mut HashMap<Board, (Outcome, u32)>) -> (Outcome, u32) {
        if let Some(&v) = memo.get(b) {
            return v;
        }
        let v = if b.drawn.iter().all(|&d| d) {
            let (mine, theirs) = (b.boxes[b.mover], b.boxes[1 - b.mover]);
            let o = match mine.cmp(&theirs) {
                std::cmp::Ordering::Greater => Outcome::Win,
                std::cmp::Ordering::Less => Outcome::Lose,
                std::cmp::Ordering::Equal => Outcome::Tie,
            };
            (o, 0)
        } else {
            let options: Vec<(Outcome, u32)> = self
                .moves(b)
                .iter()
                .map(|(next, again)| {
                    let (o, r) = self.value(next, memo);
                    let o = if *again { o } else { o.flip() };
                    (o, r + 1)
                })
                .collect();
            let best = |o: Outcome| options.iter().filter(move |x| x.0 == o).map(|x| x.1);
            if let Some(r) = best(Outcome::Win).min() {
                (Outcome::Win, r)
            } else if let Some(r) = best(Outcome::Tie).min() {
                (Outcome::Tie, r)
            } else {
                (Outcome::Lose, best(Outcome::Lose).max().unwrap())
            }
        };
        memo.insert(b.clone(), v);
        v
    }
}

/// Every position of the board, solved by the engines, against the search.
fn check_board(rows: u32, cols: u32) -> usize {
    let game = DotsAndBoxes::new(rows, cols).unwrap();
    let rules = Rules {
        rows: rows as usize,
        cols: cols as usize,
    };
    let explored = explore(game.clone()).unwrap();
    let r = explored.rules();
    let seq = solve(&explored, &r).unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .unwrap();
    assert_eq!(pool.install(|| solve_parallel(&explored, &r).unwrap()), seq);
    let lean = solve_lean(&explored, &r).unwrap();
    let n = explored.len() as u32;
    for v in 0..n {
        assert_eq!(lean.value(v), seq.value(v), "lean, position {v}");
    }
    if n < 10_000 {
        assert_eq!(solve_reference(&explored, &r), seq);
    }
    let mut memo = HashMap::new();
    for v in 0..n {
        let p = explored.position(v).unwrap();
        let board = Board {
            drawn: (0..game.line_count()).map(|l| p >> l & 1 == 1).collect(),
            boxes: [game.score0(p), game.complete(p) - game.score0(p)],
            mover: match game.owner(&p) {
                Some(Player::First) => 0,
                Some(Player::Second) => 1,
                None => panic!("every position names its mover"),
            },
        };
        let (o, r) = rules.value(&board, &mut memo);
        assert_eq!(
            seq.value(v),
            Some(Value::new(o, Some(r))),
            "{}",
            game.notation(&p)
        );
    }
    n as usize
}

#[test]
fn every_position_of_small_boards_has_the_value_the_rules_give() {
    assert_eq!(check_board(1, 1), 16);
    assert_eq!(check_board(1, 2), 142);
    assert_eq!(check_board(2, 1), 142);
    assert_eq!(check_board(1, 3), 1_238);
    assert_eq!(check_board(2, 2), 5_349);
}

#[test]
fn the_two_by_three_board_has_the_value_the_rules_give() {
    assert_eq!(check_board(2, 3), 194_754);
}

#[test]
fn two_by_two_is_a_first_player_win_as_published() {
    // Berlekamp, "The Dots-and-Boxes Game" (2000): on 3 × 3 dots the
    // first player wins.
    let game = DotsAndBoxes::new(2, 2).unwrap();
    let s = retrograde::solve_states(game.clone()).unwrap();
    assert_eq!(s.value(&game.start()).unwrap().outcome, Outcome::Win);
    // 1 × 1: the fourth line closes the box, and the second player draws it.
    let game = DotsAndBoxes::new(1, 1).unwrap();
    let s = retrograde::solve_states(game.clone()).unwrap();
    assert_eq!(s.value(&game.start()).unwrap().to_string(), "lose in 4");
}
