//! `retrograde generate`: a reproducible random graph, text or binary.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use retrograde::CsrBuilder;
use retrograde::graph::RandomEdges;
use retrograde::io::{binary, edge_list, write_atomically};

use crate::common::{self, Timings};
use crate::convert::{Format, format_of};
use crate::progress::Bars;

/// Options of `retrograde generate`.
#[derive(clap::Args)]
pub struct Args {
    /// The number of vertices.
    #[arg(long, short = 'n', value_name = "N")]
    pub vertices: u32,
    /// The number of edges (moves); both ends uniform, so self-loops and parallel edges occur
    /// (such graphs are mostly draws).
    #[arg(
        long,
        short = 'm',
        value_name = "M",
        required_unless_present = "out_degree"
    )]
    pub edges: Option<u64>,
    /// Every move from a smaller id to a larger one: play always ends, no draws.
    #[arg(long, requires = "edges")]
    pub acyclic: bool,
    /// Exactly K moves from every vertex (N·K edges, targets uniform), instead of -m.
    #[arg(long, value_name = "K", conflicts_with_all = ["edges", "acyclic"])]
    pub out_degree: Option<u32>,
    /// The random seed: the same seed gives the same graph on any machine and thread count.
    #[arg(long, short, default_value_t = 1)]
    pub seed: u64,
    /// The output format (default: text for `-` and names ending in .txt, .el, .edges or .tsv, else binary).
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub to: Option<Format>,
    /// Refuse graphs that would need more memory than this (default: the machine's memory).
    #[arg(long, value_name = "SIZE", value_parser = common::parse_bytes, help_heading = "Performance")]
    pub max_memory: Option<u64>,
    /// Threads for building a binary graph (default: all cores).
    #[arg(long, short = 'j', value_name = "N", help_heading = "Performance")]
    pub threads: Option<usize>,

    /// The file to write (atomically).
    pub output: PathBuf,
    /// Print no summary and no progress bars.
    #[arg(long, short)]
    pub quiet: bool,
    /// Print one JSON object on standard output: what was written, sizes,
    /// time and memory (docs/JSON.md).
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    if args.vertices == 0 || args.vertices == u32::MAX {
        anyhow::bail!("--vertices must be between 1 and {}", u32::MAX - 1);
    }
    common::check_json_output(args.json, &args.output, "graph")?;
    common::check_files(&[], &[&args.output])?;
    let bars = Bars::new(args.quiet);
    let mut times = Timings::default();
    let (source, shape) = match (args.out_degree, args.edges) {
        (Some(k), _) => (
            RandomEdges::with_out_degree(args.vertices, k, args.seed),
            format!(", out-degree {k}"),
        ),
        (None, Some(m)) if args.acyclic => (
            RandomEdges::acyclic(args.vertices, m, args.seed),
            ", acyclic".to_string(),
        ),
        (None, m) => (
            RandomEdges::new(args.vertices, m.unwrap_or(0), args.seed),
            String::new(),
        ),
    };
    let edges = source.edge_count();
    let header = format!(
        "random graph: {} vertices, {edges} edges{shape}, seed {} (retrograde generate)",
        args.vertices, args.seed
    );
    let to = args.to.unwrap_or_else(|| format_of(&args.output));
    match to {
        Format::Text => times.time("write", || {
            bars.spin("write", || {
                write_atomically(&args.output, |w| edge_list::write(w, &source, &header))
            })
        })?,
        Format::Binary => {
            let limit = common::memory_limit(args.max_memory);
            // The graph is built in memory first: 12 bytes a vertex, 4 an edge.
            let needed = u64::from(args.vertices)
                .saturating_mul(12)
                .saturating_add(edges.saturating_mul(4));
            if needed > limit {
                return Err(retrograde::Error::TooLarge {
                    vertices: u64::from(args.vertices),
                    edges,
                    needed,
                    limit,
                }
                .into());
            }
            let g = times.time("build", || {
                bars.spin("build", || {
                    CsrBuilder::new().memory_limit(limit).build(&source)
                })
            })?;
            times.time("write", || {
                bars.spin("write", || binary::write(&args.output, &g))
            })?;
        }
    }
    common::print_written(
        &common::Written {
            command: "generate",
            input: None,
            output: &args.output,
            vertices: u64::from(args.vertices),
            edges,
            binary: to == Format::Binary,
        },
        &times,
        args.quiet,
        args.json,
    )?;
    Ok(ExitCode::SUCCESS)
}
