//! Reading a game from files: the graph (text or binary), its terminal
//! labels and rules, within a memory budget.

use std::path::{Path, PathBuf};

use anyhow::Result;
use retrograde::io::names::{self, Names};
use retrograde::io::{binary, edge_list, labels};
use retrograde::{Csr, CsrBuilder, GameGraph, NoMoveRule, Rules};

use crate::common::open_input;
use crate::progress::Bars;

/// Where a game comes from: the options `solve` and `verify` share.
#[derive(clap::Args, Debug)]
pub struct GameArgs {
    /// The graph: a text edge list (one move `u v` per line) or a binary graph (`-` for standard input).
    pub graph: PathBuf,
    /// Who wins when the player to move has no move: `lose` (normal play) or `win` (misère).
    #[arg(long, value_name = "lose|win", default_value = "lose")]
    pub no_move: NoMoveRule,
    /// Terminal labels: lines `vertex win|lose|tie|draw` (value for the player to move there).
    #[arg(long, value_name = "FILE")]
    pub terminal: Option<PathBuf>,
    /// The number of vertices (default: the largest id + 1); ids must be below it.
    #[arg(long, value_name = "N", conflicts_with = "names")]
    pub vertices: Option<usize>,
    /// Vertices are names (any words without blanks, as networkx writes them), numbered
    /// in order of first appearance; labels, queries and answers use the names.
    #[arg(long)]
    pub names: bool,
}

/// The memory a load may use: `limit` in all, of which the caller needs
/// `per_vertex` and `per_edge` bytes once the graph is read (a solver's
/// state, the forward adjacency), counted before anything big is allocated.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Bytes allowed.
    pub limit: u64,
    /// Bytes per vertex the caller adds.
    pub per_vertex: u64,
    /// Bytes per edge the caller adds.
    pub per_edge: u64,
}

impl Budget {
    /// Refuses `vertices` and `edges` whose share of the budget is over it.
    fn check(&self, vertices: u64, edges: u64) -> Result<(), retrograde::Error> {
        let needed = vertices
            .saturating_mul(self.per_vertex)
            .saturating_add(edges.saturating_mul(self.per_edge));
        if needed > self.limit {
            return Err(retrograde::Error::TooLarge {
                vertices,
                edges,
                needed,
                limit: self.limit,
            });
        }
        Ok(())
    }
}

impl GameArgs {
    /// The input files named: the graph and the labels.
    pub fn inputs(&self) -> Vec<&Path> {
        std::iter::once(self.graph.as_path())
            .chain(self.terminal.as_deref())
            .collect()
    }

    /// The rules: the no-move rule and the terminal labels (read from their
    /// file; a stream up to `limit` bytes).
    pub fn rules(&self, limit: u64) -> Result<Rules> {
        let labels = match &self.terminal {
            Some(t) => labels::read(&open_input(t, limit, &Bars::new(true))?, self.vertices)?,
            None => Default::default(),
        };
        Ok(Rules {
            no_move: self.no_move,
            labels,
        })
    }

    /// Reads the rules and then the graph, which must hold every labelled
    /// vertex; with `--names`, the graph and then the rules, and the names.
    pub fn load(&self, budget: Budget, bars: &Bars) -> Result<(Csr, Rules, Option<Names>)> {
        if self.names {
            let input = open_input(&self.graph, budget.limit, bars)?;
            if binary::is_binary(input.bytes()) {
                anyhow::bail!(
                    "{}: --names reads text edge lists; this is a binary graph, whose vertices are numbers",
                    self.graph.display()
                );
            }
            let builder = CsrBuilder::new()
                .memory_limit(budget.limit)
                .reserve(budget.per_vertex, budget.per_edge);
            let (graph, names) = bars.spin("read", || names::read_edges(&input, builder))?;
            let labels = match &self.terminal {
                Some(t) => {
                    labels::read_named(&open_input(t, budget.limit, &Bars::new(true))?, &names)?
                }
                None => Default::default(),
            };
            let rules = Rules {
                no_move: self.no_move,
                labels,
            };
            return Ok((graph, rules, Some(names)));
        }
        let rules = self.rules(budget.limit)?;
        let file = GraphFile {
            path: &self.graph,
            vertices: self.vertices,
            min_vertices: rules.labels.max_vertex().map_or(0, |v| v as usize + 1),
        };
        let graph = file.load(budget, bars)?;
        Ok((graph, rules, None))
    }
}

/// A graph file and what is known of its size.
pub struct GraphFile<'a> {
    /// The file, text or binary (told apart by the binary magic number).
    pub path: &'a Path,
    /// `--vertices`, if given: the exact count.
    pub vertices: Option<usize>,
    /// At least this many vertices (labels may name isolated ones).
    pub min_vertices: usize,
}

impl GraphFile<'_> {
    /// Reads the graph within `budget`.
    pub fn load(&self, budget: Budget, bars: &Bars) -> Result<Csr> {
        let input = open_input(self.path, budget.limit, bars)?;
        let graph = if binary::is_binary(input.bytes()) {
            let g = bars.spin("read", || binary::read(&input))?;
            // Mapped in place: only what the caller adds on top must fit.
            budget.check(g.vertex_count() as u64, g.edge_count())?;
            if let Some(n) = self.vertices {
                if n != g.vertex_count() {
                    anyhow::bail!(
                        "{}: --vertices {n}, but the binary graph has {} vertices",
                        self.path.display(),
                        g.vertex_count()
                    );
                }
            }
            g
        } else {
            let mut builder = CsrBuilder::new()
                .memory_limit(budget.limit)
                .reserve(budget.per_vertex, budget.per_edge);
            if self.vertices.is_none() {
                builder = builder.min_vertices(self.min_vertices);
            }
            bars.spin("read", || edge_list::read(input, self.vertices, builder))?
        };
        if self.vertices.is_none() && self.min_vertices > graph.vertex_count() {
            return Err(retrograde::Error::VertexOutOfRange {
                what: retrograde::Naming::Label,
                vertex: self.min_vertices as u64 - 1,
                vertices: Some(graph.vertex_count() as u64),
            }
            .into());
        }
        Ok(graph)
    }
}
