//! The `retrograde` command line, for the built-in games and for a
//! program's own: glue only (parse flags, call the library, print). Exit
//! codes: 0 success, 1 a check failed, 2 bad usage or input, 130
//! interrupted (SIGINT, SIGTERM or SIGHUP; no partial output is left).
//!
//! A program that registers its own games runs the whole command line for
//! them (`game NAME --save`, `query`, `play`, `analyze`, `verify`, `serve`)
//! in one line of `main`:
//!
//! ```no_run
//!
//! fn main() -> std::process::ExitCode {
//!     let games = retrograde_games::registry(); // .with(my_game::entry())
//!     retrograde_cli::main_with(games)
//! }
//! ```
//!
//! `crates/retrograde-cli/examples/morris.rs` is the tutorial: a game
//! that is not built in, from its rules to the browser.

mod analyze;
mod answers;
mod cluster;
mod common;
mod convert;
mod cop_thief;
mod db;
mod export;
mod game;
mod generate;
mod grundy;
mod grundy_svg;
mod help;
mod http;
mod load;
mod mapped;
mod oom;
mod play;
mod progress;
mod query;
mod registered;
mod report;
mod serve;
mod solve;
mod solve_report;
mod timings;
mod verify;

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Strongly solve two-player games on directed graphs, cycles included:
/// win, lose, tie or draw for every position, with the length of best play and the best move.
#[derive(Parser)]
#[command(name = "retrograde", version, about, long_about = None, after_help = help::TOP)]
struct Cli {
    /// Worker threads for every subcommand (default: all cores); each subcommand also takes -j.
    #[arg(long, short = 'j', value_name = "N")]
    threads: Option<usize>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve a game given as an edge list (one move `u v` per line) or a binary graph.
    #[command(after_help = help::SOLVE)]
    Solve(solve::Args),
    /// Convert a graph between the text edge list and the binary format.
    #[command(after_help = help::CONVERT)]
    Convert(convert::Args),
    /// Write a random graph (text, or binary for a .rgb name), for trials and benchmarks.
    #[command(after_help = help::GENERATE)]
    Generate(generate::Args),
    /// Every position's loopy nim value (the Sprague-Grundy function on graphs with cycles),
    /// and sums of tokens answered from them.
    #[command(after_help = help::GRUNDY)]
    Grundy(grundy::Args),
    /// Check a solution file or database against the game without trusting the solver:
    /// exit 0 if it is correct, 1 (listing the violations) if not.
    #[command(after_help = help::VERIFY)]
    Verify(verify::Args),
    /// Solve the cop and the thief on a board; print who wins from the start.
    #[command(after_help = help::COP_THIEF)]
    CopThief(cop_thief::Args),
    /// Write a built-in game out as an edge list (and terminal labels).
    #[command(after_help = help::EXPORT)]
    Export(export::Args),
    /// Solve a built-in game (`retrograde game list` names them) and summarise it.
    Game(game::Args),
    /// The value of positions in a database, and of each of their moves, best first.
    #[command(after_help = help::QUERY)]
    Query(query::Args),
    /// Counts and a histogram by outcome and remoteness of a database, with the longest win and loss.
    #[command(after_help = help::ANALYZE)]
    Analyze(analyze::Args),
    /// Play a solved game in the terminal against the perfect player, or watch it play.
    #[command(after_help = help::PLAY)]
    Play(play::Args),
    /// A local web explorer on 127.0.0.1: play a solved game in the browser, watch a small solve.
    #[command(after_help = help::SERVE)]
    Serve(serve::Args),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) on standard output.
    #[command(after_help = help::COMPLETIONS)]
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff) on standard output.
    #[command(after_help = help::MAN)]
    Man,
}

impl Command {
    /// The subcommand's own `-j`.
    fn threads(&self) -> Option<usize> {
        match self {
            Command::Solve(a) => a.threads,
            Command::Convert(a) => a.threads,
            Command::Generate(a) => a.threads,
            Command::Grundy(a) => a.threads,
            Command::Verify(a) => a.threads,
            Command::CopThief(a) => a.threads,
            Command::Export(a) => a.threads,
            Command::Game(a) => a.threads.or(match &a.game {
                game::GameName::CopThief(c) => c.threads,
                _ => None,
            }),
            Command::Query(_) | Command::Analyze(_) | Command::Play(_) | Command::Serve(_) => None,
            Command::Completions { .. } | Command::Man => None,
        }
    }
}

/// The options every subcommand shares.
#[derive(Clone, Copy, Debug)]
pub struct Global {
    /// `--threads`, if given (the rayon pool is already sized to it; the
    /// timely engine defaults to 1 per process).
    pub threads: Option<usize>,
}

/// The exit status of an interrupted run (128 + SIGINT, as shells report it).
const INTERRUPTED: i32 = 130;

/// The games this run knows, set once by [`main_with`].
static GAMES: std::sync::OnceLock<retrograde::registry::Registry> = std::sync::OnceLock::new();

/// The games this run knows: those given to [`main_with`].
pub(crate) fn games() -> &'static retrograde::registry::Registry {
    GAMES.get_or_init(retrograde_games::registry)
}

/// Runs the command line (the process's arguments) with `games` as the
/// games it knows: every subcommand finds them by name, in databases'
/// headers and as `game NAME`. Returns the exit status.
pub fn main_with(games: retrograde::registry::Registry) -> ExitCode {
    fewer_arenas_under_an_address_space_limit();
    file_size_limit_is_an_error();
    let games = GAMES.get_or_init(|| games);
    let parsed = parse(games);
    // Ctrl-C (and SIGTERM, SIGHUP): remove any half-written output, then exit.
    // Failing to install the handler only loses that cleanup.
    let _ = ctrlc::set_handler(|| {
        let _held = retrograde::io::remove_temporary_files();
        progress::clear_line();
        std::process::exit(INTERRUPTED)
    });
    mapped::stop_cleanly_on_bus_errors();
    let threads = match &parsed {
        Parsed::Cli(cli) => cli.command.threads().or(cli.threads),
        Parsed::Registered(run) => run.threads(),
    };
    if let Err(e) = start_threads(threads) {
        eprintln!("retrograde: error: {e}");
        return ExitCode::from(2);
    }
    let result = match parsed {
        Parsed::Cli(cli) => run(cli.command, Global { threads }),
        Parsed::Registered(run) => run.run(),
    };
    match result {
        Ok(code) => mapped::unless_changed(code),
        Err(err) => {
            if is_broken_pipe(&err) {
                return ExitCode::SUCCESS;
            }
            let hint = if needs_memory_hint(&err) {
                " (see --max-memory)"
            } else if needs_names_hint(&err) {
                " (vertices that are names need --names)"
            } else {
                ""
            };
            report_error(&format!("{}{hint}", message(&err)));
            ExitCode::from(2)
        }
    }
}

/// The command line as given: a subcommand of the tool's own, or `game
/// NAME` for a game of the registry that has no subcommand of its own.
enum Parsed {
    Cli(Box<Cli>),
    Registered(registered::Registered),
}

/// Parses the process's arguments (exits with clap's message on bad usage,
/// `--help` and `--version`): the tool's subcommands, `game NAME` added
/// for each registered game without one of its own.
fn parse(games: &'static retrograde::registry::Registry) -> Parsed {
    use clap::{CommandFactory, FromArgMatches};
    let cmd = Cli::command().mut_subcommand("game", |g| registered::add(g, games));
    let matches = cmd.get_matches();
    if let Some(run) = registered::matched(&matches, games) {
        return Parsed::Registered(run);
    }
    match Cli::from_arg_matches(&matches) {
        Ok(cli) => Parsed::Cli(Box::new(cli)),
        Err(e) => e.exit(),
    }
}

/// Runs one subcommand.
fn run(command: Command, global: Global) -> anyhow::Result<ExitCode> {
    match command {
        Command::Solve(args) => solve::run(args, global),
        Command::Convert(args) => convert::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Grundy(args) => grundy::run(args),
        Command::Verify(args) => verify::run(args),
        Command::CopThief(args) => cop_thief::run(args),
        Command::Export(args) => export::run(args),
        Command::Game(args) => game::run(args),
        Command::Query(args) => query::run(args),
        Command::Analyze(args) => analyze::run(args),
        Command::Play(args) => play::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Completions { shell } => completions(shell),
        Command::Man => man(),
    }
}

/// Starts the worker threads of every subcommand (rayon's global pool)
/// before any work, so that none is started lazily later, where a failure
/// to start one would panic. `-j N` starts N or refuses; without it, as
/// many as there are cores (or `RAYON_NUM_THREADS`), fewer (down to one,
/// with a note) when the memory limit has no room for their stacks or the
/// system refuses more threads.
fn start_threads(asked: Option<usize>) -> anyhow::Result<()> {
    let n = match asked {
        Some(0) => anyhow::bail!("--threads must be at least 1"),
        Some(n) => {
            common::check_threads(n, common::machine_limit())?;
            n
        }
        None => default_threads(),
    };
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build_global()
        .map_err(|e| anyhow::anyhow!("cannot start {n} threads: {e}"))?;
    // Each worker allocates once now, so that the allocator's arenas (64
    // MiB of address space each) are reserved before any memory limit is
    // measured (`retrograde::memory::address_space_left`), not in the middle of a run.
    rayon::broadcast(|_| drop(std::hint::black_box(Box::new(0u64))));
    Ok(())
}

/// The threads to start without `-j`: one a core (or `RAYON_NUM_THREADS`),
/// as many of them as the memory limit has room for and the system starts
/// (each tried, then stopped, so that the pool itself cannot fail for
/// lack of them); a note says when that is fewer.
fn default_threads() -> usize {
    let wanted = std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|s| s.parse::<usize>().ok())
        .filter(|&n| n > 0)
        .or_else(|| std::thread::available_parallelism().ok().map(|n| n.get()))
        .unwrap_or(1);
    // Half the memory limit for the stacks, as `check_threads` allows.
    let room = (common::machine_limit() / 2 / common::THREAD_BYTES).max(1);
    let fits = wanted.min(usize::try_from(room).unwrap_or(usize::MAX));
    let started = startable_threads(fits);
    if started < wanted {
        eprintln!(
            "retrograde: note: starting {} instead of {wanted}: {}",
            common::count(started as u64, "thread", "threads"),
            if started < fits {
                "the system refuses more"
            } else {
                "the memory limit has no room for more stacks (see -j)"
            }
        );
    }
    started
}

/// How many of `n` threads the system lets this process start (at least
/// one, the fewest a pool has): each started with a worker's stack
/// (`common::THREAD_BYTES`) and kept waiting until all are tried, then
/// ended.
fn startable_threads(n: usize) -> usize {
    let (stop_tx, stop_rx) = std::sync::mpsc::channel::<()>();
    let stop = std::sync::Arc::new(std::sync::Mutex::new(stop_rx));
    let mut handles = Vec::new();
    for _ in 0..n {
        let stop = stop.clone();
        let started = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || {
                // Held until the sender is dropped: every thread is tried
                // while the others still hold their stacks.
                let _ = stop.lock().map(|rx| rx.recv());
            });
        match started {
            Ok(h) => handles.push(h),
            Err(_) => break,
        }
    }
    drop(stop_tx);
    let started = handles.len();
    for h in handles {
        let _ = h.join();
    }
    started.max(1)
}

/// The whole command line, the registered games included.
fn command() -> clap::Command {
    <Cli as clap::CommandFactory>::command().mut_subcommand("game", |g| registered::add(g, games()))
}

/// The completion script for `shell`, made in memory first: the generator
/// panics on a failed write, and a closed pipe (`| head`) is no failure.
fn completions(shell: clap_complete::Shell) -> anyhow::Result<ExitCode> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command(), "retrograde", &mut script);
    let mut out = std::io::stdout().lock();
    out.write_all(&script)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The manual page ([`help::man`]).
fn man() -> anyhow::Result<ExitCode> {
    let cmd = command();
    let mut out = std::io::stdout().lock();
    help::man(&cmd, &mut out)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Prints `retrograde: error: MESSAGE` on standard error, once per run: when
/// several threads fail at once (a broken connection seen by the network
/// threads and by the workers), the first one says what happened.
pub fn report_error(message: &str) {
    use std::sync::atomic::{AtomicBool, Ordering};
    static REPORTED: AtomicBool = AtomicBool::new(false);
    if !REPORTED.swap(true, Ordering::SeqCst) {
        let _ = writeln!(std::io::stderr(), "retrograde: error: {message}");
    }
}

/// The error and its causes on one line, each cause once: a cause whose text
/// the line already holds (an I/O error quoted by its file's message) is
/// not repeated, and line breaks in it become spaces.
fn message(err: &anyhow::Error) -> String {
    let mut text = err.to_string();
    for cause in err.chain().skip(1) {
        let c = cause.to_string();
        if !text.contains(&c) {
            text.push_str(": ");
            text.push_str(&c);
        }
    }
    text.replace(['\n', '\r'], " ")
}

/// glibc gives each thread that allocates an arena of its own and reserves
/// 64 MiB of address space for it. Under an address-space limit (`ulimit
/// -v`, `prlimit --as`) those reservations, not memory in use, exhaust the
/// limit: a cluster process runs a thread per peer. Under such a limit, two
/// arenas serve every thread.
fn fewer_arenas_under_an_address_space_limit() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if common::address_space_limit().is_some() {
        // SAFETY: mallopt only sets an allocator parameter; called before
        // any thread is started.
        unsafe {
            libc::mallopt(libc::M_ARENA_MAX, 2);
        }
    }
}

/// A write past the file-size limit (`ulimit -f`) raises SIGXFSZ, whose
/// default action kills the process and leaves the temporary file behind.
/// Ignored, the write fails with EFBIG instead: an ordinary I/O error (exit
/// 2, `File too large`), the temporary file removed.
fn file_size_limit_is_an_error() {
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to "ignore" runs no code in the
    // handler; called before any thread is started.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}

/// Whether `err` is a refusal for lack of memory, which `--max-memory` can lift.
fn needs_memory_hint(err: &anyhow::Error) -> bool {
    use retrograde_games::cop_thief::{BoardError, BoardErrorKind};
    err.chain().any(|e| {
        e.downcast_ref::<retrograde::Error>()
            .is_some_and(over_memory)
            || matches!(
                e.downcast_ref::<retrograde::registry::RunError>(),
                Some(retrograde::registry::RunError::Solve(s)) if over_memory(s)
            )
            || matches!(
                e.downcast_ref::<BoardError>(),
                Some(BoardError {
                    kind: BoardErrorKind::TooLarge { .. },
                    ..
                })
            )
            || matches!(
                e.downcast_ref::<retrograde::db::DbError>(),
                Some(retrograde::db::DbError::TooLarge { .. })
            )
            || e.downcast_ref::<common::OverMemory>().is_some()
            || matches!(
                e.downcast_ref::<retrograde::SolveError>(),
                Some(retrograde::SolveError::OverMemory { .. })
            )
            || matches!(
                e.downcast_ref::<retrograde_timely::Error>(),
                Some(retrograde_timely::Error::ShareTooLarge { .. })
            )
    })
}

/// Whether `e` is the library's refusal for lack of memory.
fn over_memory(e: &retrograde::Error) -> bool {
    matches!(
        e,
        retrograde::Error::TooLarge { .. }
            | retrograde::Error::OverMemory { .. }
            | retrograde::Error::ExplorationTooLarge { .. }
            | retrograde::Error::Solve(retrograde::SolveError::OverMemory { .. })
    )
}

/// Whether `err` is a numeric reader meeting a word where a vertex id goes.
fn needs_names_hint(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        matches!(
            e.downcast_ref::<retrograde::Error>(),
            Some(retrograde::Error::NamedVertex { .. })
        )
    })
}

/// A closed pipe on standard output (`retrograde ... | head`) is not a failure.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
