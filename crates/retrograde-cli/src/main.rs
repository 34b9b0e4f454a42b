//! `retrograde`: the command-line tool. Glue only: parse flags, call the
//! library, print. Exit codes: 0 success, 1 a check failed, 2 bad usage or input.

mod cluster;
mod common;
mod progress;
mod solve;

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Strongly solve two-player games on directed graphs, cycles included:
/// win, lose or draw for every position, with the length of best play and the best move.
#[derive(Parser)]
#[command(name = "retrograde", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve a game given as an edge list (one move `u v` per line).
    Solve(solve::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Solve(args) => solve::run(args),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            if is_broken_pipe(&err) {
                return ExitCode::SUCCESS;
            }
            let _ = writeln!(std::io::stderr(), "retrograde: error: {err:#}");
            ExitCode::from(2)
        }
    }
}

/// A closed pipe on standard output (`retrograde ... | head`) is not a failure.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
