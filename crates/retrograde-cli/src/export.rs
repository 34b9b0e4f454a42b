//! `retrograde export GAME ...`: write a built-in game out as an edge list
//! (and its terminal positions as labels), for `retrograde solve` or other tools.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;
use retrograde::Game;
use retrograde::io::{Outputs, edge_list, labels};

use crate::common;

/// Options of `retrograde export`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub game: GameArg,
    /// Threads for listing the moves (default: all cores).
    #[arg(long, short = 'j', value_name = "N", help_heading = "Performance")]
    pub threads: Option<usize>,
    /// Refuse a game whose listing would need more memory than this (e.g. 8G; default: the
    /// machine's memory).
    #[arg(
        long,
        value_name = "SIZE",
        value_parser = common::parse_bytes,
        help_heading = "Performance",
        global = true
    )]
    pub max_memory: Option<u64>,
}

/// The games that can be exported.
#[derive(clap::Subcommand)]
pub enum GameArg {
    /// The cop and the thief on a board (see `retrograde cop-thief`).
    CopThief(CopThiefArgs),
}

/// Options of `retrograde export cop-thief`.
#[derive(clap::Args)]
pub struct CopThiefArgs {
    /// The board (`-` for standard input).
    pub board: PathBuf,
    /// Write the edge list to FILE (atomically) instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Write the terminal positions with their values to FILE, for `solve --terminal`.
    #[arg(long, value_name = "FILE")]
    pub terminal: Option<PathBuf>,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let GameArg::CopThief(a) = args.game;
    let stdout = Path::new("-");
    let edges_to = a.output.as_deref().unwrap_or(stdout);
    let outputs: Vec<&Path> = std::iter::once(edges_to)
        .chain(a.terminal.as_deref())
        .collect();
    common::check_files(&[&a.board], &outputs)?;
    let game = crate::cop_thief::load(&a.board, None)?;
    // The moves are listed a few chunks a thread at a time, in memory.
    common::check_memory(
        &format!("listing the moves of {}", common::shown(&a.board)),
        edge_list::write_bytes(
            rayon::current_num_threads(),
            game.position_count() as u64,
            game.max_moves() as u64,
        ),
        common::memory_limit(args.max_memory),
    )?;
    let n = game.position_count();
    let graph = game.as_graph();
    let edges_name = a
        .output
        .as_ref()
        .map_or_else(|| "EDGES".to_string(), |p| p.display().to_string());
    let labels_name = a
        .terminal
        .as_ref()
        .map_or_else(|| "LABELS".to_string(), |p| p.display().to_string());
    let header = format!(
        "The cop and the thief on {board}: {n} positions, {f} free cells numbered row by row;\n\
         position thief cell * {f} + cop cell if the cop moves,\n\
         {half} + cop cell * {f} + thief cell if the thief does.\n\
         The start position is {start}. Solve with:\n\
         retrograde solve {edges_name} --terminal {labels_name} --vertices {n}",
        board = a.board.display(),
        f = game.free_cells(),
        half = n / 2,
        start = game.start()
    );
    // Both files appear together, or neither.
    let mut files = Outputs::new();
    files.write(edges_to, |w| edge_list::write_forward(w, &graph, &header))?;
    if let Some(path) = &a.terminal {
        let header = format!(
            "Terminal positions of the cop and the thief on {}: the cop on the thief's \
             cell, or the thief on an exit.",
            a.board.display()
        );
        files.write(path, |w| labels::write_terminals(w, &graph, &header))?;
    }
    files.commit()?;
    Ok(ExitCode::SUCCESS)
}
