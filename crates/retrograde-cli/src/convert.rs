//! `retrograde convert IN OUT`: between the text edge list and the binary format.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;
use retrograde::GameGraph;
use retrograde::io::{binary, edge_list, write_atomically};

use crate::common::{self, Timings};
use crate::load::{Budget, GraphFile};
use crate::progress::Bars;

/// Options of `retrograde convert`.
#[derive(clap::Args)]
pub struct Args {
    /// The input graph, text or binary (`-` for standard input).
    pub input: PathBuf,
    /// The output file, written atomically.
    pub output: PathBuf,
    /// The output format (default: text for `-` and names ending in .txt, .el, .edges or .tsv, else binary).
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub to: Option<Format>,
    /// The number of vertices of a text input (default: the largest id + 1).
    #[arg(long, value_name = "N")]
    pub vertices: Option<usize>,
    /// Refuse inputs that would need more memory than this (default: the machine's memory).
    #[arg(long, value_name = "SIZE", value_parser = common::parse_bytes, help_heading = "Performance")]
    pub max_memory: Option<u64>,
    /// Threads for reading the input (default: all cores).
    #[arg(long, short = 'j', value_name = "N", help_heading = "Performance")]
    pub threads: Option<usize>,

    /// Print no summary and no progress bars.
    #[arg(long, short)]
    pub quiet: bool,
    /// Print one JSON object on standard output: what was written, sizes,
    /// time and memory (docs/JSON.md).
    #[arg(long)]
    pub json: bool,
}

/// Graph file formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// The text edge list.
    Text,
    /// The binary format (docs/BINARY_FORMAT.md).
    Binary,
}

/// The format a file name suggests: text for standard output and the
/// descriptors, and for names ending in .txt, .el, .edges or .tsv.
pub fn format_of(path: &Path) -> Format {
    if retrograde::io::paths::output_descriptor(path).is_some() {
        return Format::Text;
    }
    match path.extension().and_then(|e| e.to_str()) {
        Some("txt" | "el" | "edges" | "tsv") => Format::Text,
        _ => Format::Binary,
    }
}

pub fn run(args: Args) -> Result<ExitCode> {
    common::check_json_output(args.json, &args.output, "graph")?;
    common::check_files(&[&args.input], &[&args.output])?;
    let bars = Bars::new(args.quiet);
    let mut times = Timings::default();
    let file = GraphFile {
        path: &args.input,
        vertices: args.vertices,
        min_vertices: 0,
    };
    let budget = Budget {
        limit: common::memory_limit(args.max_memory),
        per_vertex: 0,
        per_edge: 0,
    };
    let graph = times.time("read", || file.load(budget, &bars))?;
    let to = args.to.unwrap_or_else(|| format_of(&args.output));
    times.time("write", || {
        bars.spin("write", || match to {
            Format::Binary => binary::write(&args.output, &graph),
            Format::Text => write_atomically(&args.output, |w| {
                let header = format!(
                    "{} vertices, {} edges (converted from {})",
                    graph.vertex_count(),
                    graph.edge_count(),
                    args.input.display()
                );
                edge_list::write(w, &graph, &header)
            }),
        })
    })?;
    common::print_written(
        &common::Written {
            command: "convert",
            input: Some(&args.input),
            output: &args.output,
            vertices: graph.vertex_count() as u64,
            edges: graph.edge_count(),
            binary: to == Format::Binary,
        },
        &times,
        args.quiet,
        args.json,
    )?;
    Ok(ExitCode::SUCCESS)
}
