//! `retrograde game NAME ...`: solve a built-in game and summarise it.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use retrograde::Answers;
use retrograde::io::Outputs;

use crate::common::{self, Stdout, Timings};
use crate::db::Saved;
use crate::progress::Bars;
use crate::report;

/// Options of `retrograde game`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub game: GameName,
    /// Threads for exploring and solving (default: all cores).
    #[arg(
        long,
        short = 'j',
        value_name = "N",
        help_heading = "Performance",
        global = true
    )]
    pub threads: Option<usize>,
}

/// The built-in games.
#[derive(clap::Subcommand)]
pub enum GameName {
    /// Name the games, one line each.
    List,
    /// The cop and the thief on a board: the same as `retrograde cop-thief BOARD`.
    CopThief(crate::cop_thief::Args),
    /// Teeko (Scarne): drop four pieces each on a 5 x 5 board, then step; four in a row or a square wins.
    Teeko(TeekoArgs),
}

/// What every game command can check and print.
#[derive(clap::Args)]
pub struct Output {
    /// Check the whole solution with `verify`'s independent certificate; exit 1 if wrong.
    #[arg(long)]
    pub verify: bool,
    /// Print one JSON object on standard output (docs/JSON.md).
    #[arg(long)]
    pub json: bool,
    /// No summary, no progress bars.
    #[arg(long, short)]
    pub quiet: bool,
    #[command(flatten)]
    pub save: crate::db::SaveArgs,
    /// Refuse a solve that would need more memory than this in this process, its --verify
    /// and --save included (e.g. 8G; default: the machine's memory).
    #[arg(long, value_name = "SIZE", value_parser = common::parse_bytes, help_heading = "Performance")]
    pub max_memory: Option<u64>,
    /// The limit as measured at the run's first question, before any work:
    /// under an address-space cap the limit is what is left of it, and a
    /// later measure would count what the run itself holds by then twice.
    #[arg(skip)]
    limit: std::sync::OnceLock<u64>,
}

impl Output {
    /// The memory the run may use, measured once.
    pub(crate) fn limit(&self) -> u64 {
        *self
            .limit
            .get_or_init(|| common::memory_limit(self.max_memory))
    }

    /// Refuses a numbered game of `positions` positions whose solve on the
    /// lean engine (and the database `--save` writes, keyed by keys below
    /// `universe` for a sparse game), with `held` bytes already held, would
    /// pass the memory limit.
    pub(crate) fn check_lean(
        &self,
        what: &str,
        positions: u64,
        universe: Option<u64>,
        held: u64,
    ) -> Result<()> {
        let keys = universe.map_or(0, |_| positions.saturating_mul(8));
        let needed = positions
            .saturating_mul(retrograde::solve::LEAN_BYTES_PER_POSITION)
            .saturating_add(keys)
            .saturating_add(self.save.bytes(positions, universe, None))
            .saturating_add(held);
        Ok(common::check_memory(
            &format!("{what}'s {} positions", indicatif::HumanCount(positions)),
            needed,
            self.limit(),
        )?)
    }
}

impl Output {
    /// Refuses, before any work, outputs that cannot be written and two
    /// things on standard output (`--save -` with `--json` or `--position`).
    pub(crate) fn check(&self, position: bool) -> Result<()> {
        let json = self.json.then_some(Stdout::Text("--json"));
        let position = position.then_some(Stdout::Text("--position"));
        let save = self.save.save.iter().map(|p| Stdout::File("database", p));
        common::check_stdout(json.into_iter().chain(position).chain(save))?;
        common::check_files(&[], &self.save.outputs())
    }

    /// Commits the run's files (all appear, or none), then says what was
    /// saved.
    pub(crate) fn commit(&self, files: Outputs, saved: Option<Saved>) -> Result<()> {
        files.commit()?;
        Saved::say(saved.as_ref(), self.quiet || self.json)
    }

    /// Where the start's value goes: standard output, unless the database does.
    pub(crate) fn data(&self) -> Box<dyn Write> {
        common::data_out(&self.save.outputs())
    }
}

/// Options of `retrograde game teeko`.
#[derive(clap::Args)]
pub struct TeekoArgs {
    #[command(flatten)]
    pub out: Output,
    #[command(flatten)]
    pub engine: crate::cluster::GameClusterArgs,
}

pub fn run(args: Args) -> Result<ExitCode> {
    match args.game {
        GameName::List => {
            let mut out = std::io::stdout().lock();
            let entries = crate::games().entries();
            let width = entries.iter().map(|e| e.name().len()).max().unwrap_or(0);
            for e in entries {
                writeln!(out, "{:<width$}  {}", e.name(), e.about())?;
            }
            Ok(ExitCode::SUCCESS)
        }
        GameName::CopThief(a) => crate::cop_thief::run(a),
        GameName::Teeko(a) => teeko(a, args.threads),
    }
}

/// Runs `verify`'s independent certificate on a whole solution (phase
/// `verify`), printing what is wrong: whether it is right.
pub(crate) fn check<G, S>(
    times: &mut Timings,
    graph: &G,
    rules: &retrograde::Rules,
    answers: &S,
) -> Result<bool>
where
    G: retrograde::Successors + Sync + ?Sized,
    S: Answers + Sync + ?Sized,
{
    let report = times.time("verify", || retrograde::verify(graph, rules, answers, 5))?;
    for v in &report.violations {
        eprintln!("retrograde: wrong: {v}");
    }
    Ok(report.is_ok())
}

/// The summary's last lines: `--verify`'s verdict, if asked, and the time
/// and peak memory.
pub(crate) fn verdict_and_time(
    err: &mut impl Write,
    verified: Option<bool>,
    times: &Timings,
) -> Result<()> {
    if let Some(ok) = verified {
        let verdict = if ok {
            "the solution is correct"
        } else {
            "the solution is WRONG"
        };
        writeln!(err, "verify: {verdict}")?;
    }
    let peak = times.peak().map_or_else(String::new, |b| {
        format!("; peak memory {}", indicatif::HumanBytes(b))
    });
    writeln!(err, "time: {}{peak}", times.line())?;
    Ok(())
}

/// 1 when `--verify` found the solution wrong.
pub(crate) fn exit(verified: Option<bool>) -> ExitCode {
    match verified {
        Some(false) => ExitCode::from(1),
        _ => ExitCode::SUCCESS,
    }
}

/// What a game with a start reports: its name, how its positions were
/// counted, the totals and the start's value.
pub(crate) struct WithStart<'a> {
    pub game: &'a str,
    /// `Some(folded)` for a game with symmetries.
    pub symmetry: Option<bool>,
    /// How `positions` were counted, for the summary.
    pub counted: &'a str,
    pub outcomes: report::Outcomes,
    pub summary: retrograde::Summary,
    pub start: retrograde::Value,
    /// The start, for the line on standard output.
    pub start_name: &'a str,
    /// Who moves at the start: in JSON, and in the line on standard output.
    pub to_move: (&'a str, &'a str),
    /// What `--verify` found, if asked.
    pub verified: Option<bool>,
    pub times: &'a Timings,
    pub json: bool,
    pub quiet: bool,
    /// Where the start's value goes (standard output, unless a file does).
    pub data: Box<dyn Write>,
}

/// Prints the JSON report, or the start's value on standard output and the
/// summary on standard error.
pub(crate) fn report_with_start(mut r: WithStart<'_>) -> Result<ExitCode> {
    if r.json {
        #[derive(serde::Serialize)]
        struct Start<'a> {
            to_move: &'a str,
            outcome: &'static str,
            remoteness: Option<u32>,
        }
        #[derive(serde::Serialize)]
        struct Json<'a> {
            command: &'static str,
            game: &'a str,
            #[serde(skip_serializing_if = "Option::is_none")]
            symmetry: Option<bool>,
            #[serde(flatten)]
            outcomes: report::Outcomes,
            start: Start<'a>,
            #[serde(skip_serializing_if = "Option::is_none")]
            verified: Option<bool>,
            time: report::Time,
        }
        report::print(&Json {
            command: "game",
            game: r.game,
            symmetry: r.symmetry,
            outcomes: r.outcomes,
            start: Start {
                to_move: r.to_move.0,
                outcome: r.start.outcome.as_str(),
                remoteness: r.start.remoteness,
            },
            verified: r.verified,
            time: report::Time::of(r.times),
        })?;
        return Ok(exit(r.verified));
    }
    writeln!(r.data, "{}: {} for {}", r.start_name, r.start, r.to_move.1)?;
    r.data.flush()?;
    if !r.quiet {
        let mut err = common::talk();
        let folded = if r.symmetry == Some(true) {
            " (symmetries folded)"
        } else {
            ""
        };
        writeln!(
            err,
            "game: {}{folded}: {}{}",
            r.game,
            common::count(r.outcomes.positions, "position", "positions"),
            r.counted
        )?;
        writeln!(err, "solved: {}", common::summary_line(&r.summary))?;
        verdict_and_time(&mut err, r.verified, r.times)?;
    }
    Ok(exit(r.verified))
}

fn teeko(args: TeekoArgs, threads: Option<usize>) -> Result<ExitCode> {
    use retrograde::Game;
    use retrograde_games::teeko::Teeko;
    args.out.check(false)?;
    let game = Teeko::new();
    let limit = args.out.limit();
    if args.engine.timely() {
        return teeko_timely(&args, game, threads.unwrap_or(1), limit);
    }
    args.out
        .check_lean("Teeko", game.position_count() as u64, None, 0)?;
    let bars = Bars::new(args.out.quiet || args.out.json);
    let mut times = Timings::default();
    let solver = retrograde::Solver::new().progress(&bars);
    let sol = times.time("solve", || solver.solve_game(&game))?;
    let verified = if args.out.verify {
        Some(check(&mut times, sol.graph(), sol.rules(), &sol)?)
    } else {
        None
    };
    let start = sol
        .value(game.start_number())
        .ok_or_else(|| anyhow::anyhow!("the start is no position"))?;
    let mut files = Outputs::new();
    let saved = args.out.save.stage(
        &mut files,
        &mut times,
        retrograde::db::Meta::new("teeko"),
        &crate::db::dense(&sol),
        &bars,
    )?;
    args.out.commit(files, saved)?;
    report_with_start(WithStart {
        game: "teeko",
        symmetry: None,
        counted: ", every placement of up to four pieces each",
        outcomes: report::Outcomes::of(&sol),
        summary: sol.summary(),
        start,
        start_name: "the empty board, X dropping first",
        to_move: ("X", "X"),
        verified,
        times: &times,
        json: args.out.json,
        quiet: args.out.quiet,
        data: args.out.data(),
    })
}

/// Teeko on the timely engine: in this process, or as one process of a
/// cluster; process 0 fetches the start's value and prints the report.
fn teeko_timely(
    args: &TeekoArgs,
    game: retrograde_games::teeko::Teeko,
    threads: usize,
    limit: u64,
) -> Result<ExitCode> {
    use retrograde::Game;
    if args.out.verify || args.out.save.save.is_some() {
        anyhow::bail!(
            "--verify and --save need the whole solution in one process; with --engine timely or --cluster the answers stay spread over the workers"
        );
    }
    let processes = args.engine.processes()?;
    let positions = game.position_count() as u64;
    let needed = retrograde_timely::share_bytes(positions, processes, threads);
    // With a cluster, each machine has its own limit: the processes agree once
    // connected, and refuse together (the engine checks).
    if !args.engine.cluster.is_cluster() {
        common::check_memory(
            &format!("Teeko's {} positions", indicatif::HumanCount(positions)),
            needed,
            limit,
        )?;
    }
    let rules = retrograde::Rules::normal();
    let config = args
        .engine
        .cluster
        .config(
            threads,
            crate::cluster::game_fingerprint("teeko", b"", &rules),
        )?
        .memory_limit(limit);
    let start = game.start_number();
    let solved = crate::cluster::solve_game(
        &config,
        retrograde::game::AsGraph(game),
        &rules,
        args.out.quiet || args.out.json,
        move |remote| -> retrograde_timely::Result<_> {
            Ok((remote.value(start)?, remote.outline().clone()))
        },
    )?;
    let Some((answer, timings)) = solved else {
        return Ok(ExitCode::SUCCESS);
    };
    let (start, outline) = answer?;
    let start = start.ok_or_else(|| anyhow::anyhow!("the start is no position"))?;
    let mut times = Timings::default();
    times.record("connect", timings.connect.as_secs_f64());
    times.record("solve", timings.solve.as_secs_f64());
    if !(args.out.quiet || args.out.json) {
        eprintln!("{}", crate::cluster::engine_line(&config, outline.rounds));
    }
    report_with_start(WithStart {
        game: "teeko",
        symmetry: None,
        counted: ", every placement of up to four pieces each",
        outcomes: report::Outcomes::from_histogram(&outline.histogram),
        summary: outline.summary(),
        start,
        start_name: "the empty board, X dropping first",
        to_move: ("X", "X"),
        verified: None,
        times: &times,
        json: args.out.json,
        quiet: args.out.quiet,
        data: args.out.data(),
    })
}
