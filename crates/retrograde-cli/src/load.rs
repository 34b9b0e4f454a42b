//! Reading a game from files: the graph (text or binary), its terminal
//! labels and rules, within a memory budget.

use std::path::{Path, PathBuf};

use anyhow::Result;
use retrograde::io::names::{self, Names};
use retrograde::io::pgsolver::{self, Reach};
use retrograde::io::{binary, edge_list, labels, owners};
use retrograde::{Csr, CsrBuilder, GameGraph, NoMoveRule, Player, Rules};

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
    /// Who moves at each vertex: lines `vertex 0|1`, one for every vertex (an arena: a move
    /// between two vertices of one owner keeps the turn). Without it, players alternate.
    #[arg(long, value_name = "FILE")]
    pub owners: Option<PathBuf>,
    /// For a PGSolver game (a file starting `parity N;`): the priority of the target vertices.
    /// Solved as a reachability game, not a parity game (docs/ARENAS.md).
    #[arg(long, value_name = "PRIORITY")]
    pub reach: Option<u64>,
    /// Who tries to reach the --reach target (default: the player of its parity, 0 for even);
    /// the other avoids it.
    #[arg(long, value_name = "0|1", requires = "reach", value_parser = parse_player)]
    pub reacher: Option<Player>,
}

/// A player, `0` or `1`.
fn parse_player(s: &str) -> Result<Player, String> {
    match s {
        "0" => Ok(Player::First),
        "1" => Ok(Player::Second),
        _ => Err(format!("expected 0 or 1, found {s:?}")),
    }
}

/// A game read from files: its graph, rules, names and owners.
pub struct Loaded {
    /// The moves.
    pub graph: Csr,
    /// The no-move rule and the terminal labels.
    pub rules: Rules,
    /// The vertices' names (`--names`).
    pub names: Option<Names>,
    /// Who moves at each vertex (`--owners`, or a PGSolver game's).
    pub owners: Option<Vec<Player>>,
    /// A PGSolver game's reachability target (`--reach`).
    pub reach: Option<Reach>,
    /// A PGSolver game's `start`, kept as its database's start.
    pub start: Option<u32>,
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

/// Whether the file at `path` starts as a PGSolver game (`parity N;`).
fn is_pgsolver_file(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 64];
    let Ok(mut f) = std::fs::File::open(path) else {
        return false;
    };
    let read = f.read(&mut head).unwrap_or(0);
    pgsolver::is_pgsolver(&head[..read])
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
    /// The input files named: the graph, the labels and the owners.
    pub fn inputs(&self) -> Vec<&Path> {
        std::iter::once(self.graph.as_path())
            .chain(self.terminal.as_deref())
            .chain(self.owners.as_deref())
            .collect()
    }

    /// Whether the graph is a PGSolver game (a file starting `parity N;`).
    pub fn is_pgsolver(&self) -> bool {
        self.graph.as_os_str() != "-" && is_pgsolver_file(&self.graph)
    }

    /// Reads the game: a PGSolver game (solved as the reachability game
    /// `--reach` names), or a graph, its rules and names, and its owners
    /// (`--owners`).
    pub fn load_game(&self, budget: Budget, bars: &Bars) -> Result<Loaded> {
        if self.is_pgsolver() {
            return self.load_pgsolver(budget, bars);
        }
        if self.reach.is_some() && self.graph.as_os_str() == "-" {
            anyhow::bail!(
                "--reach reads a PGSolver game from a file; standard input is read as an edge list or a binary graph"
            );
        }
        if self.reach.is_some() {
            anyhow::bail!(
                "{}: --reach applies to PGSolver games (a file starting `parity N;`); give a graph's owners with --owners",
                self.graph.display()
            );
        }
        let (graph, rules, names) = self.load_graph(budget, bars)?;
        let owners = match &self.owners {
            None => None,
            Some(path) => {
                let input = open_input(path, budget.limit, &Bars::new(true))?;
                Some(match &names {
                    Some(names) => owners::read_named(&input, names)?,
                    None => owners::read(&input, graph.vertex_count())?,
                })
            }
        };
        Ok(Loaded {
            graph,
            rules,
            names,
            owners,
            reach: None,
            start: None,
        })
    }

    /// A PGSolver game, refusing the options of other graphs.
    fn load_pgsolver(&self, budget: Budget, bars: &Bars) -> Result<Loaded> {
        let path = self.graph.display();
        let Some(priority) = self.reach else {
            anyhow::bail!(
                "{path} is a PGSolver game: --reach PRIORITY names its target (the vertices of that priority); only reachability and safety are solved, not parity"
            );
        };
        if self.names || self.terminal.is_some() || self.owners.is_some() || self.vertices.is_some()
        {
            anyhow::bail!(
                "{path} is a PGSolver game, which gives its own owners, names and size: drop --names, --terminal, --owners and --vertices"
            );
        }
        if self.no_move != NoMoveRule::Lose {
            anyhow::bail!(
                "{path} is a PGSolver game, where a player who cannot move loses: drop --no-move"
            );
        }
        let input = open_input(&self.graph, budget.limit, bars)?;
        let game = bars.spin("read", || pgsolver::read(&input))?;
        budget.check(game.len() as u64, game.graph.edge_count())?;
        let reach = match self.reacher {
            Some(reacher) => Reach { priority, reacher },
            None => Reach::priority(priority),
        };
        let rules = game.rules(reach);
        Ok(Loaded {
            graph: game.graph.into_csr(),
            rules,
            names: None,
            owners: Some(game.owners),
            reach: Some(reach),
            start: game.start,
        })
    }

    /// [`GameArgs::load_game`] for a command that solves strictly
    /// alternating games only: owners and PGSolver games are refused.
    pub fn load(&self, budget: Budget, bars: &Bars) -> Result<(Csr, Rules, Option<Names>)> {
        if self.owners.is_some() || self.reach.is_some() {
            anyhow::bail!("--owners and --reach apply to `solve` and `verify`");
        }
        if self.is_pgsolver() {
            anyhow::bail!(
                "{} is a PGSolver game (an arena with owners): solve it with `retrograde solve --reach`",
                self.graph.display()
            );
        }
        self.load_graph(budget, bars)
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
    fn load_graph(&self, budget: Budget, bars: &Bars) -> Result<(Csr, Rules, Option<Names>)> {
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
            if let Some(n) = self.vertices
                && n != g.vertex_count()
            {
                anyhow::bail!(
                    "{}: --vertices {n}, but the binary graph has {} vertices",
                    self.path.display(),
                    g.vertex_count()
                );
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
