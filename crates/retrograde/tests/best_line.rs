//! One rule for equal moves: among moves of equal value the best is the
//! first in the game's own order of moves. On random state games whose
//! moves come in an order unrelated to the explorer's numbers, the line of
//! best play a [`StateSolution`] gives is the line followed through a
//! database written from that solution and read back by a [`Probe`], move
//! for move; and on explicit graphs, whose moves come in increasing id, the
//! engines' own best lines are that line too.

use proptest::prelude::*;
use retrograde::db::{self, Database, Meta, Source};
use retrograde::graph::splitmix64;
use retrograde::play::{NotationError, Playable, Probe, StoredGraph};
use retrograde::{
    Answers, Csr, Explorer, Graph, Labels, NoMoveRule, Outcome, Rules, StateGame, StateSolution,
    Value, solve,
};

use crate::strategy;

/// A random graph as a state game whose moves come in a shuffled order
/// (fixed per position). With `half`, vertices `x` and `x + half` are the
/// same position, and a position and its mirror image list their moves in
/// the same order, mirrored.
#[derive(Debug)]
struct Shuffled {
    g: Graph,
    rules: Rules,
    half: Option<u32>,
    seed: u64,
}

impl Shuffled {
    /// Where a move `p -> q` stands in `p`'s list of moves: a hash of the
    /// two positions (canonical) and of whether `q` lies on `p`'s side.
    fn place(&self, p: u32, q: u32) -> u64 {
        let side = |x: u32| self.half.is_some_and(|h| x >= h);
        let (cp, cq) = (self.canonical(p), self.canonical(q));
        let same_side = u64::from(side(p) == side(q));
        splitmix64(self.seed ^ (u64::from(cp) << 33) ^ (u64::from(cq) << 1) ^ same_side)
    }

    /// The moves of `p` in the game's order.
    fn moves_of(&self, p: u32) -> Vec<u32> {
        let mut moves = self.g.successors(p).to_vec();
        moves.sort_by_key(|&q| self.place(p, q));
        moves
    }
}

impl StateGame for Shuffled {
    type Position = u32;
    fn starts(&self) -> Vec<u32> {
        vec![0]
    }
    fn for_each_move<F: FnMut(u32)>(&self, p: &u32, f: F) {
        self.moves_of(*p).into_iter().for_each(f);
    }
    fn terminal(&self, p: &u32) -> Option<Outcome> {
        self.rules.labels.get(*p)
    }
    fn canonical(&self, p: u32) -> u32 {
        self.half.map_or(p, |h| p % h)
    }
    fn no_move(&self) -> NoMoveRule {
        self.rules.no_move
    }
}

/// The same game as people play it: a position is its vertex, a move is
/// named by the vertex it reaches, in the state game's order; a record is
/// kept under the canonical vertex.
impl Playable for Shuffled {
    fn meta(&self) -> Meta {
        Meta::new("shuffled")
    }
    fn start(&self) -> Option<u64> {
        Some(0)
    }
    fn parse(&self, text: &str) -> Result<u64, NotationError> {
        text.parse().map_err(|_| {
            NotationError::new(
                "shuffled",
                text,
                retrograde::play::NotationFault::Invalid("expected a vertex".into()),
            )
        })
    }
    fn notation(&self, p: u64) -> String {
        p.to_string()
    }
    fn to_move(&self, _p: u64) -> String {
        "the player".into()
    }
    fn moves(&self, p: u64) -> Vec<(String, u64)> {
        let Ok(p) = u32::try_from(p) else {
            return Vec::new();
        };
        if StateGame::terminal(self, &p).is_some() {
            return Vec::new();
        }
        let mut out = Vec::new();
        self.for_each_move(&p, |q| out.push((q.to_string(), u64::from(q))));
        out
    }
    fn key(&self, p: u64) -> Option<u64> {
        let p = u32::try_from(p).ok()?;
        Some(u64::from(self.canonical(p)))
    }
}

/// A random game, doubled into two copies `x` and `x + n` (so that
/// swapping them is a symmetry) when `double`: each edge goes within both
/// copies or across both ways.
fn shuffled_game() -> impl Strategy<Value = Shuffled> {
    (
        strategy::random_game(1..16, 4),
        any::<bool>(),
        any::<u64>(),
        any::<u64>(),
    )
        .prop_map(|((n, edges, rules), double, cross, seed)| {
            if !double {
                let g = Csr::from_edges(n, &edges).with_successors();
                return Shuffled {
                    g,
                    rules,
                    half: None,
                    seed,
                };
            }
            let m = n as u32;
            let mut doubled = Vec::new();
            for (k, &(u, v)) in edges.iter().enumerate() {
                if cross >> (k % 64) & 1 == 1 {
                    doubled.extend([(u, v + m), (u + m, v)]);
                } else {
                    doubled.extend([(u, v), (u + m, v + m)]);
                }
            }
            let labels = rules.labels.iter().flat_map(|(v, o)| [(v, o), (v + m, o)]);
            let rules = Rules {
                no_move: rules.no_move,
                labels: Labels::from_pairs(labels.collect()),
            };
            Shuffled {
                g: Csr::from_edges(2 * n, &doubled).with_successors(),
                rules,
                half: Some(m),
                seed,
            }
        })
}

/// Whether a move to a position of value `after` is a best move from a
/// position of value `here`, from the definitions: it reaches the flipped
/// outcome one ply shorter (a draw, for a draw).
fn is_best(here: Value, after: Value) -> bool {
    match here.outcome {
        Outcome::Draw => after.outcome == Outcome::Draw,
        o => after.outcome == o.flip() && after.remoteness.map(|r| r + 1) == here.remoteness,
    }
}

/// The database of `sol`, keyed by canonical vertex, and a probe's view.
fn database(game: &Shuffled, sol: &StateSolution<&Shuffled>) -> (tempfile::TempDir, Database) {
    let dir = retrograde::io::scratch_dir().unwrap();
    let path = dir.path().join("shuffled.db");
    let explored = sol.explored();
    db::Writer::new(game.meta())
        .write_keyed(
            &path,
            explored.len() as u32,
            |i| explored.position(i).map(u64::from),
            |i| sol.solved().value(i),
        )
        .unwrap();
    let d = Database::open(&path).unwrap();
    (dir, d)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// From every position (and its mirror image), the line of
    /// `StateSolution::line` is the line a probe of the database follows by
    /// playing the first of its moves, ply for ply; each best move is the
    /// first best move in the game's order; and the solution by number
    /// (its best moves and lines) follows the same moves.
    #[test]
    fn state_lines_and_database_lines_take_the_first_best_move(game in shuffled_game()) {
        let sol = Explorer::new().solve(&game).unwrap();
        let explored = sol.explored();
        let (_dir, d) = database(&game, &sol);
        let probe = Probe { game: &game, db: &d };
        let max_plies = 2 * explored.len() + 2;
        let mut starts: Vec<u32> = (0..explored.len() as u32)
            .map(|i| explored.position(i).unwrap())
            .collect();
        if let Some(h) = game.half {
            starts.extend(starts.clone().into_iter().map(|x| x + h));
        }
        for start in starts {
            let line = sol.line(&start, max_plies).unwrap();
            // The same line through the database.
            let mut p = u64::from(start);
            for (ply, (&want, &value)) in line.positions.iter().zip(&line.values).enumerate() {
                prop_assert_eq!(p, u64::from(want), "from {} at ply {}", start, ply);
                let answer = probe.answer(p).unwrap();
                prop_assert_eq!(answer.value, value);
                // The first of the probe's moves is the first best move in
                // the game's order.
                let here = sol.value(&want).unwrap();
                let best = answer.moves.first().map(|m| m.to);
                if StateGame::terminal(&game, &want).is_none() {
                    let first_best = game
                        .moves_of(want)
                        .into_iter()
                        .find(|q| is_best(here, sol.value(q).unwrap()));
                    prop_assert_eq!(best, first_best.map(u64::from), "from {}", want);
                }
                prop_assert_eq!(sol.best_move(&want).unwrap().map(u64::from), best);
                if let Some(m) = answer.moves.first() {
                    prop_assert_eq!(m.value, here);
                    prop_assert_eq!(m.delta, here.remoteness.map(|_| 0));
                }
                if ply + 1 == line.positions.len() {
                    // A line that ends ends where the game does.
                    prop_assert!(line.endless || best.is_none(), "from {}", start);
                } else {
                    p = best.unwrap();
                }
            }
            // By number: the same moves, canonical.
            let number = |x: &u32| explored.index(x).unwrap();
            let by_number = Answers::line(&sol, number(&start), max_plies).positions;
            let want: Vec<u32> = line.positions.iter().map(number).collect();
            prop_assert_eq!(by_number, want);
        }
    }

    /// An explicit graph lists moves in increasing id, so its first best
    /// moves are the engines' (the smaller id): the line a solve gives is
    /// the line a probe of the graph's database follows.
    #[test]
    fn a_graph_has_one_best_line_in_the_engine_and_in_its_database(
        (n, edges, rules) in strategy::random_game(1..20, 4),
    ) {
        let g = Csr::from_edges(n, &edges).with_successors();
        let solution = solve(&g, &rules).unwrap();
        // The moves as a graph's database keeps them (none for a labelled
        // vertex: it is terminal).
        let mut offsets = vec![0u64];
        let mut targets = Vec::new();
        for v in 0..n as u32 {
            if rules.labels.get(v).is_none() {
                targets.extend_from_slice(g.successors(v));
            }
            offsets.push(targets.len() as u64);
        }
        let dir = retrograde::io::scratch_dir().unwrap();
        let path = dir.path().join("graph.db");
        db::Writer::new(Meta::new("graph"))
            .write(&path, &Source {
                records: n as u64,
                value: |r: u64| solution.value(r as u32),
                keys: None,
                moves: Some((&offsets, &targets)),
                names: None,
                grundy: None,
                owners: None,
            })
            .unwrap();
        let d = Database::open(&path).unwrap();
        let stored = StoredGraph::new(&d).unwrap();
        let probe = Probe { game: &stored, db: &d };
        for v in 0..n as u32 {
            let line = solution.line(v, 2 * n + 2);
            for (ply, &x) in line.positions.iter().enumerate() {
                let answer = probe.answer(u64::from(x)).unwrap();
                prop_assert_eq!(Some(answer.value), solution.value(x));
                let best = answer.moves.first().map(|m| m.to);
                prop_assert_eq!(best, solution.best_move(x).map(u64::from), "vertex {}", x);
                if let Some(&next) = line.positions.get(ply + 1) {
                    prop_assert_eq!(best, Some(u64::from(next)));
                }
            }
        }
    }
}
