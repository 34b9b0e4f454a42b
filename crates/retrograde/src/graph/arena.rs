//! A graph whose every vertex has an owner, the player who moves there:
//! the arenas of reachability games (PGSolver's and Oink's formats), where
//! a player may move twice in a row.

use super::{GameGraph, Successors};
use crate::error::{Error, Result};
use crate::{Outcome, Player};

/// A graph and the owner of each of its vertices.
///
/// A move from `u` to `v` keeps the turn when both have the same owner;
/// values stay those of the player to move (see [`GameGraph::owner`]).
/// Every engine, the reference and [`verify`](crate::verify()) solve it
/// as they solve the graph alone, with that one change to the rule.
///
/// ```
/// use retrograde::graph::Arena;
/// use retrograde::{solve, Answers, Csr, Outcome, Player, Rules};
/// // 0 and 1 are player 0's, 2 is player 1's, who is stuck there.
/// let g = Csr::from_edges(3, &[(0, 1), (1, 2)]);
/// let arena = Arena::new(g, vec![Player::First, Player::First, Player::Second]).unwrap();
/// let s = solve(&arena, &Rules::normal()).unwrap();
/// // Player 0 moves twice and leaves player 1 without a move: a win in 2.
/// assert_eq!(s.value(0).unwrap().to_string(), "win in 2");
/// assert_eq!(s.outcome(2), Outcome::Lose);
/// ```
#[derive(Clone, Debug)]
pub struct Arena<G> {
    graph: G,
    owners: Vec<Player>,
}

impl<G: GameGraph> Arena<G> {
    /// The graph `graph` whose vertex `v` is owned by `owners[v]`.
    ///
    /// # Errors
    /// [`Error::OwnerCount`] unless there is one owner a vertex.
    pub fn new(graph: G, owners: Vec<Player>) -> Result<Arena<G>> {
        if owners.len() != graph.vertex_count() {
            return Err(Error::OwnerCount {
                owners: owners.len() as u64,
                vertices: graph.vertex_count() as u64,
            });
        }
        Ok(Arena { graph, owners })
    }

    /// The graph.
    pub fn graph(&self) -> &G {
        &self.graph
    }

    /// The owner of every vertex.
    pub fn owners(&self) -> &[Player] {
        &self.owners
    }

    /// The graph and the owners.
    pub fn into_parts(self) -> (G, Vec<Player>) {
        (self.graph, self.owners)
    }
}

impl<G: GameGraph> GameGraph for Arena<G> {
    #[inline]
    fn vertex_count(&self) -> usize {
        self.graph.vertex_count()
    }
    #[inline]
    fn out_degree(&self, v: u32) -> u32 {
        self.graph.out_degree(v)
    }
    #[inline]
    fn for_each_predecessor<F: FnMut(u32)>(&self, v: u32, f: F) {
        self.graph.for_each_predecessor(v, f)
    }
    #[inline]
    fn terminal(&self, v: u32) -> Option<Outcome> {
        self.graph.terminal(v)
    }
    #[inline]
    fn is_position(&self, v: u32) -> bool {
        self.graph.is_position(v)
    }
    #[inline]
    fn terminal_and_degree(&self, v: u32) -> (Option<Outcome>, u32) {
        self.graph.terminal_and_degree(v)
    }
    #[inline]
    fn owner(&self, v: u32) -> Option<Player> {
        self.owners.get(v as usize).copied()
    }
    #[inline]
    fn same_player(&self, from: u32, to: u32) -> bool {
        self.owners[from as usize] == self.owners[to as usize]
    }
}

impl<G: Successors> Successors for Arena<G> {
    #[inline]
    fn for_each_successor<F: FnMut(u32)>(&self, v: u32, f: F) {
        self.graph.for_each_successor(v, f)
    }
}
