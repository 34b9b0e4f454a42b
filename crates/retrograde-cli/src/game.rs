//! `retrograde game NAME ...`: solve a built-in game and summarise it.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use retrograde::games::chess::{Endgame, Ending, Position};
use retrograde::io::Outputs;
use retrograde::{Answers, Explorer, Outcome, StateGame};

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
    /// A pawnless chess ending: KQK, KRK, KBBK (opposite-coloured bishops), KBNK or KNNK.
    #[command(
        after_help = crate::help::CHESS
    )]
    Chess(ChessArgs),
    /// The cop and the thief on a board: the same as `retrograde cop-thief BOARD`.
    CopThief(crate::cop_thief::Args),
    /// Teeko (Scarne): drop four pieces each on a 5 x 5 board, then step; four in a row or a square wins.
    Teeko(TeekoArgs),
    /// Dōbutsu shōgi ("Let's Catch the Lion!"): shogi for children on 3 x 4 squares, from its start.
    #[command(
        after_help = crate::help::DOBUTSU
    )]
    Dobutsu(DobutsuArgs),
}

/// Options of `retrograde game dobutsu`.
#[derive(clap::Args)]
pub struct DobutsuArgs {
    /// Solve the positions reachable from this one instead of the opening; pieces neither on
    /// the board nor in hand are out of the game.
    #[arg(long, value_name = "SFEN")]
    pub start: Option<String>,
    /// Print this position's value and its moves with their values, best first.
    #[arg(long, value_name = "SFEN")]
    pub position: Option<String>,
    /// Count a position and its mirror image as two.
    #[arg(long)]
    pub no_symmetry: bool,
    /// Score a position where the lion can be captured as over (won in 0 plies), not won by the capture in 1.
    #[arg(long)]
    pub capture_terminal: bool,
    #[command(flatten)]
    pub out: Output,
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

    /// An explorer of a state game within the memory limit, counting the
    /// database `--save` writes from the solution.
    pub(crate) fn explorer<'p>(&self, progress: &'p dyn retrograde::Progress) -> Explorer<'p> {
        Explorer::new()
            .memory_limit(self.limit())
            .reserve(self.save.keyed_bytes_per_position())
            .progress(progress)
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

/// Options of `retrograde game chess`.
#[derive(clap::Args)]
pub struct ChessArgs {
    /// The ending.
    #[arg(value_parser = parse_ending)]
    pub ending: Ending,
    /// Print this position's value and its moves with their values, best first (FEN).
    #[arg(long, value_name = "FEN")]
    pub position: Option<String>,
    /// Solve every position as it is, without folding the board's 8 symmetries.
    #[arg(long)]
    pub no_symmetry: bool,
    #[command(flatten)]
    pub out: Output,
}

fn parse_ending(s: &str) -> Result<Ending, String> {
    Ending::from_name(s).ok_or_else(|| {
        let names: Vec<&str> = Ending::ALL.iter().map(|e| e.name()).collect();
        format!("unknown ending {s:?}: expected one of {}", names.join(", "))
    })
}

pub fn run(args: Args) -> Result<ExitCode> {
    match args.game {
        GameName::List => {
            let mut out = std::io::stdout().lock();
            for e in crate::games().entries() {
                writeln!(out, "{:<12} {}", e.name(), e.about())?;
            }
            Ok(ExitCode::SUCCESS)
        }
        GameName::Chess(a) => chess(a),
        GameName::CopThief(a) => crate::cop_thief::run(a),
        GameName::Teeko(a) => teeko(a, args.threads),
        GameName::Dobutsu(a) => dobutsu(a),
    }
}

fn chess(args: ChessArgs) -> Result<ExitCode> {
    args.out.check(args.position.is_some())?;
    let game = Endgame::new(args.ending, !args.no_symmetry);
    // Read the position first: bad notation is an error before any work.
    let asked = args
        .position
        .as_deref()
        .map(|fen| game.parse_fen(fen))
        .transpose()?;
    let bars = Bars::new(args.out.quiet || args.out.json);
    let mut times = Timings::default();
    let sol = times.time("solve", || args.out.explorer(&bars).solve(&game))?;
    let explored = sol.explored();
    let solved = sol.solved();
    let verified = if args.out.verify {
        Some(check(&mut times, explored, &explored.rules(), solved)?)
    } else {
        None
    };

    // The position asked about as given (not turned into canonical form),
    // its value, and its moves as played there with their values, best
    // first: answered before anything is written, as it can fail.
    let moves = asked
        .map(|p| -> Result<_> {
            let v = sol.value(&game.canonical(p))?;
            let mut moves = Vec::new();
            game.for_each_raw_move(p, |m| moves.push(m));
            let mut valued = Vec::new();
            for m in moves {
                let after = sol.value(&game.canonical(m.to))?;
                let value =
                    retrograde::Value::new(after.outcome.flip(), after.remoteness.map(|r| r + 1));
                valued.push((m, value));
            }
            best_first(&mut valued);
            Ok((p, v, valued))
        })
        .transpose()?;
    let mut files = Outputs::new();
    let saved = args.out.save.stage_keyed(
        &mut files,
        &mut times,
        &game,
        explored.len() as u32,
        |i| explored.position(i).map(|p| u64::from(p.0)),
        |i| solved.value(i),
        &bars,
    )?;
    args.out.commit(files, saved)?;

    // Positions of the ending: every one explored but the capture's tie.
    let positions: Vec<u32> = (0..explored.len() as u32)
        .filter(|&i| {
            explored
                .position(i)
                .is_some_and(|p| *p != Position::CAPTURED)
        })
        .collect();
    let mut by_side = [report::Counts::default(); 2];
    let mut longest = [report::Longest::default(); 2];
    for &i in &positions {
        let side = usize::from(explored.position(i).is_some_and(|p| p.black_to_move()));
        let (c, l) = (&mut by_side[side], &mut longest[side]);
        let r = solved.remoteness(i);
        let slot = match solved.outcome(i) {
            Outcome::Win => {
                c.win += 1;
                &mut l.win
            }
            Outcome::Lose => {
                c.lose += 1;
                &mut l.lose
            }
            Outcome::Tie => {
                c.tie += 1;
                &mut l.tie
            }
            Outcome::Draw => {
                c.draw += 1;
                continue;
            }
        };
        *slot = (*slot).max(r);
    }
    // Both sides together, in the vocabulary of every report: the solve's
    // histogram less the capture's tie (remoteness 0), which is no position
    // of the ending.
    let mut histogram = solved.values().histogram();
    if explored.index(&Position::CAPTURED).is_some() {
        if let Some(level) = histogram.by_remoteness.get_mut(&0) {
            level[2] -= 1;
        }
    }
    let outcomes = report::Outcomes::from_histogram(&histogram);
    let mate = |plies: Option<u32>| plies.map(|p| p.div_ceil(2));

    if args.out.json {
        #[derive(serde::Serialize)]
        struct Side {
            counts: report::Counts,
            longest: report::Longest,
            longest_mate_moves: Option<u32>,
        }
        #[derive(serde::Serialize)]
        struct MoveJson {
            r#move: String,
            fen: String,
            outcome: &'static str,
            remoteness: Option<u32>,
        }
        #[derive(serde::Serialize)]
        struct Asked {
            fen: String,
            outcome: &'static str,
            remoteness: Option<u32>,
            moves: Vec<MoveJson>,
        }
        #[derive(serde::Serialize)]
        struct Json {
            command: &'static str,
            game: String,
            symmetry: bool,
            #[serde(flatten)]
            outcomes: report::Outcomes,
            white_to_move: Side,
            black_to_move: Side,
            position: Option<Asked>,
            verified: Option<bool>,
            time: report::Time,
        }
        let side = |s: usize| Side {
            counts: by_side[s],
            longest: longest[s],
            longest_mate_moves: mate(longest[s].win),
        };
        report::print(&Json {
            command: "game",
            game: format!("chess {}", args.ending),
            symmetry: !args.no_symmetry,
            outcomes,
            white_to_move: side(0),
            black_to_move: side(1),
            position: moves.map(|(p, v, moves)| Asked {
                fen: game.fen(p),
                outcome: v.outcome.as_str(),
                remoteness: v.remoteness,
                moves: moves
                    .into_iter()
                    .map(|(m, v)| MoveJson {
                        r#move: m.to_string(),
                        fen: game.show(&m.to),
                        outcome: v.outcome.as_str(),
                        remoteness: v.remoteness,
                    })
                    .collect(),
            }),
            verified,
            time: report::Time::of(&times),
        })?;
        return Ok(exit(verified));
    }

    if let Some((p, v, moves)) = &moves {
        let mut out = args.out.data();
        writeln!(out, "{}: {v} for the side to move", game.fen(*p))?;
        for (m, v) in moves {
            writeln!(out, "  {m}\t{v}")?;
        }
        out.flush()?;
    }
    if !args.out.quiet {
        let mut err = common::talk();
        writeln!(
            err,
            "game: chess {}{}: {}",
            args.ending,
            if args.no_symmetry {
                ""
            } else {
                " (symmetries folded)"
            },
            common::count(positions.len() as u64, "position", "positions")
        )?;
        for (s, name) in ["white", "black"].iter().enumerate() {
            let c = by_side[s];
            let mut line = format!(
                "{name} to move: {} win, {} lose, {} tie, {} draw",
                indicatif::HumanCount(c.win),
                indicatif::HumanCount(c.lose),
                indicatif::HumanCount(c.tie),
                indicatif::HumanCount(c.draw),
            );
            if let Some(w) = longest[s].win {
                line += &format!("; longest win {w} plies (mate in {})", w.div_ceil(2));
            }
            if let Some(l) = longest[s].lose {
                line += &format!("; longest loss {l} plies");
            }
            writeln!(err, "{line}")?;
        }
        verdict_and_time(&mut err, verified, &times)?;
    }
    Ok(exit(verified))
}

/// Sorts moves with their values for the mover best first: a win soonest,
/// a tie soonest, a draw, a loss latest (the order of `Solved::moves`).
fn best_first<M>(moves: &mut [(M, retrograde::Value)]) {
    moves.sort_by_key(|(_, v)| {
        let r = i64::from(v.remoteness.unwrap_or(0));
        match v.outcome {
            Outcome::Win => (0, r),
            Outcome::Tie => (1, r),
            Outcome::Draw => (2, 0),
            Outcome::Lose => (3, -r),
        }
    });
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
    use retrograde::games::teeko::Teeko;
    use retrograde::Game;
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
    let sol = times.time("solve", || {
        retrograde::game::solve_game_with_progress(&game, &retrograde::Rules::normal(), &bars)
    })?;
    let verified = if args.out.verify {
        Some(check(&mut times, sol.graph(), sol.rules(), &sol)?)
    } else {
        None
    };
    let start = sol
        .value(game.start())
        .ok_or_else(|| anyhow::anyhow!("the start is no position"))?;
    let mut files = Outputs::new();
    let saved = args.out.save.stage(
        &mut files,
        &mut times,
        retrograde::play::Playable::meta(&game),
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
    game: retrograde::games::teeko::Teeko,
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
    let start = game.start();
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

fn dobutsu(args: DobutsuArgs) -> Result<ExitCode> {
    use retrograde::games::dobutsu::{notation, Capture, Dobutsu};
    use retrograde::Game;
    args.out.check(args.position.is_some())?;
    // Read the position first: bad notation is an error before any work.
    let asked = args.position.as_deref().map(notation::parse).transpose()?;
    let (first, sente) = match args.start.as_deref() {
        Some(text) => notation::parse(text)?,
        None => (retrograde::games::dobutsu::Board::start(), true),
    };
    let bars = Bars::new(args.out.quiet || args.out.json);
    let mut times = Timings::default();
    let capture = if args.capture_terminal {
        Capture::Terminal
    } else {
        Capture::Played
    };
    common::check_memory(
        &format!(
            "exploring Dōbutsu shōgi from {}",
            notation::write(&first, sente)
        ),
        Dobutsu::explore_bytes(&first),
        args.out.limit(),
    )?;
    let game = times.time("explore", || {
        Dobutsu::from_start(first, !args.no_symmetry, capture, &bars)
    })?;
    let universe = args.out.save.save.is_some().then(|| game.key_universe());
    args.out.check_lean(
        "Dōbutsu shōgi",
        game.position_count() as u64,
        universe,
        game.bytes(),
    )?;
    let sol = times.time("solve", || {
        retrograde::game::solve_game_with_progress(&game, &retrograde::Rules::normal(), &bars)
    })?;
    let verified = if args.out.verify {
        Some(check(&mut times, sol.graph(), sol.rules(), &sol)?)
    } else {
        None
    };
    let value_of =
        |b: &retrograde::games::dobutsu::Board| game.position(b).and_then(|p| sol.value(p));
    let start = value_of(&first).ok_or_else(|| anyhow::anyhow!("the start is no position"))?;
    // The positions' totals: the solve's histogram less the captured lion
    // (a loss in 0), which is no position.
    let mut histogram = sol.values().histogram();
    let mut summary = sol.summary();
    if game.captured().is_some() {
        if let Some(level) = histogram.by_remoteness.get_mut(&0) {
            level[1] -= 1;
        }
        summary.positions -= 1;
        summary.losses -= 1;
    }
    let outcomes = report::Outcomes::from_histogram(&histogram);

    // The position asked about, as given, and its moves with their values.
    let moves = asked
        .map(|(b, sente)| -> Result<_> {
            let text = notation::write(&b, sente);
            let v = value_of(&b).ok_or_else(|| {
                anyhow::anyhow!("{text:?} cannot be reached from the start, so it is not solved")
            })?;
            let mut valued = Vec::new();
            for (m, after, _) in game.moves(&b) {
                let child = value_of(&after)
                    .ok_or_else(|| anyhow::anyhow!("a move of {text:?} leaves the game"))?;
                let value =
                    retrograde::Value::new(child.outcome.flip(), child.remoteness.map(|r| r + 1));
                valued.push((
                    (
                        notation::move_name(&m, sente),
                        notation::write(&after, !sente),
                    ),
                    value,
                ));
            }
            best_first(&mut valued);
            Ok((text, v, valued))
        })
        .transpose()?;

    // Everything that can fail is answered before anything is written.
    let mut files = Outputs::new();
    let saved = if args.out.save.save.is_some() {
        let keys = game.keys();
        let source = retrograde::db::Source {
            records: keys.len() as u64,
            value: |r: u64| sol.value(r as u32),
            keys: Some(&keys[..]),
            moves: None,
        };
        args.out.save.stage(
            &mut files,
            &mut times,
            retrograde::play::Playable::meta(&game.setup(first, sente)),
            &source,
            &bars,
        )?
    } else {
        None
    };
    args.out.commit(files, saved)?;

    if args.out.json {
        #[derive(serde::Serialize)]
        struct Start {
            to_move: &'static str,
            outcome: &'static str,
            remoteness: Option<u32>,
        }
        #[derive(serde::Serialize)]
        struct MoveJson {
            r#move: String,
            position: String,
            outcome: &'static str,
            remoteness: Option<u32>,
        }
        #[derive(serde::Serialize)]
        struct Asked {
            position: String,
            outcome: &'static str,
            remoteness: Option<u32>,
            moves: Vec<MoveJson>,
        }
        #[derive(serde::Serialize)]
        struct Json {
            command: &'static str,
            game: &'static str,
            symmetry: bool,
            capture: &'static str,
            #[serde(flatten)]
            outcomes: report::Outcomes,
            start: Start,
            position: Option<Asked>,
            verified: Option<bool>,
            time: report::Time,
        }
        report::print(&Json {
            command: "game",
            game: "dobutsu",
            symmetry: !args.no_symmetry,
            capture: if args.capture_terminal {
                "terminal"
            } else {
                "played"
            },
            outcomes,
            start: Start {
                to_move: if sente { "sente" } else { "gote" },
                outcome: start.outcome.as_str(),
                remoteness: start.remoteness,
            },
            position: moves.map(|(text, v, moves)| Asked {
                position: text,
                outcome: v.outcome.as_str(),
                remoteness: v.remoteness,
                moves: moves
                    .into_iter()
                    .map(|((name, after), v)| MoveJson {
                        r#move: name,
                        position: after,
                        outcome: v.outcome.as_str(),
                        remoteness: v.remoteness,
                    })
                    .collect(),
            }),
            verified,
            time: report::Time::of(&times),
        })?;
        return Ok(exit(verified));
    }

    let mut out = args.out.data();
    writeln!(
        out,
        "{}: {start} for {}",
        if args.start.is_some() {
            notation::write(&first, sente)
        } else {
            "the start".to_string()
        },
        if sente {
            "Sente, the first player"
        } else {
            "Gote, the second player"
        }
    )?;
    if let Some((text, v, moves)) = &moves {
        writeln!(out, "{text}: {v} for the side to move")?;
        for ((name, after), v) in moves {
            writeln!(out, "  {name}\t{v}\t{after}")?;
        }
    }
    out.flush()?;
    if !args.out.quiet {
        let mut err = common::talk();
        writeln!(
            err,
            "game: dobutsu{}: {}, reachable from the start",
            if args.no_symmetry {
                ""
            } else {
                " (mirror images folded)"
            },
            common::count(outcomes.positions, "position", "positions"),
        )?;
        writeln!(err, "solved: {}", common::summary_line(&summary))?;
        verdict_and_time(&mut err, verified, &times)?;
    }
    Ok(exit(verified))
}
