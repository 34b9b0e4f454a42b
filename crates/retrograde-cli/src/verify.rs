//! `retrograde verify GRAPH SOLUTION`: check a solution file or database
//! against the game, without solving it; `retrograde verify DB`: check a
//! database against the game its header names; `retrograde verify DIR`:
//! every tier of a tier directory, each against the tiers below it.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use retrograde::Successors;
use retrograde::graph::Arena;
use retrograde::io::solution;

use crate::common::{self, Timings};
use crate::load::{Budget, GameArgs};
use crate::progress::Bars;

/// Options of `retrograde verify`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub game: GameArgs,
    /// The solution to check: a file `solve --output` writes (`-` for standard input) or a
    /// database `solve --save` writes. Without it, GRAPH is a database (of a built-in game or a
    /// graph), checked against the game its header names.
    pub solution: Option<PathBuf>,
    /// The layout of SOLUTION: tsv, csv or jsonl, as `solve --format` wrote it (default: told
    /// from its first line holding data).
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<crate::answers::SolutionFormat>,
    /// How many violations to print (all are counted).
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub show: usize,
    /// Refuse inputs that would need more memory than this (e.g. 8G; default: the machine's memory).
    #[arg(long, value_name = "SIZE", value_parser = common::parse_bytes, help_heading = "Performance")]
    pub max_memory: Option<u64>,
    /// Threads for reading the graph and the solution (default: all cores).
    #[arg(long, short = 'j', value_name = "N", help_heading = "Performance")]
    pub threads: Option<usize>,

    /// With a tier directory: begin with tier TIER in the manifest's order
    /// (children first), the tiers before it left unchecked, as the
    /// summary says: to go on with a check of hours that was stopped
    /// (each tier's line names it).
    #[arg(long, value_name = "TIER")]
    pub from: Option<String>,

    /// Print only the violations, no summary.
    #[arg(long, short)]
    pub quiet: bool,
    /// Print one JSON object on standard output: whether it is correct, the
    /// positions checked, the violations (docs/JSON.md).
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let Some(solution) = args.solution.clone() else {
        return database(&args);
    };
    let mut inputs = args.game.inputs();
    inputs.push(&solution);
    common::check_files(&inputs, &[])?;
    let bars = Bars::new(args.quiet);
    let mut times = Timings::default();
    // On top of the graph: its forward adjacency (8 bytes per vertex, 4 per
    // edge) and the solution read back (9 bytes per vertex).
    let budget = Budget {
        limit: common::memory_limit(args.max_memory),
        per_vertex: 17,
        per_edge: 4,
    };
    let crate::load::Loaded {
        graph,
        rules,
        names,
        owners,
        reach,
        ..
    } = times.time("read graph", || args.game.load_game(budget, &bars))?;
    if retrograde::db::is_database(&solution) {
        same_rules(&solution, &rules, reach.as_ref())?;
        same_owners(&solution, owners.as_deref())?;
    }
    let graph = graph.with_successors();
    let edges = graph.edge_count();
    let given = Given {
        rules: &rules,
        names,
        edges,
        budget,
    };
    match owners {
        Some(owners) => check(
            &args,
            &solution,
            &Arena::new(&graph, owners)?,
            given,
            &bars,
            times,
        ),
        None => check(&args, &solution, &graph, given, &bars, times),
    }
}

/// What a check is given besides the graph.
struct Given<'a> {
    rules: &'a retrograde::Rules,
    names: Option<retrograde::io::names::Names>,
    edges: u64,
    budget: Budget,
}

/// Checks the solution file or database `solution` of `graph` (a graph,
/// or an arena with owners) and prints the verdict.
fn check<G: Successors + Sync>(
    args: &Args,
    solution: &std::path::Path,
    graph: &G,
    given: Given<'_>,
    bars: &Bars,
    mut times: Timings,
) -> Result<ExitCode> {
    let Given {
        rules,
        names,
        edges,
        budget,
    } = given;
    let n = graph.vertex_count();
    let report = if retrograde::db::is_database(solution) {
        let db = crate::db::open(solution)?;
        if db.meta().game != "graph" {
            anyhow::bail!(
                "{} is a database of {}, not of a graph: check it alone (retrograde verify {0})",
                common::shown(solution),
                retrograde::play::describe(db.meta())
            );
        }
        let values = times.time("read solution", || db.values())?;
        let solved = retrograde::Solved::new(graph, rules.clone(), values)?;
        times.time("verify", || {
            retrograde::verify(graph, rules, &solved, args.show)
        })?
    } else {
        let sol = times.time("read solution", || -> Result<_> {
            let input = common::open_input(solution, budget.limit, bars)?;
            let format = args.format.map(Into::into);
            Ok(solution::read_as(&input, Some(n), names.as_ref(), format)?)
        })?;
        times.time("verify", || {
            retrograde::verify(graph, rules, &sol, args.show)
        })?
    };
    print(
        args,
        solution,
        &args.game.graph.display().to_string(),
        &report,
        names.as_ref(),
        n as u64,
        Some(edges),
        &times,
    )
}

/// Refuses to check the database at `path` against other owners than it
/// keeps (none where it keeps none): a solution is right or wrong for one
/// arena, and what `query` says of who moves comes from the database.
fn same_owners(path: &std::path::Path, given: Option<&[retrograde::Player]>) -> Result<()> {
    let kept = crate::db::open(path)?.owners()?;
    let shown = common::shown(path);
    match (given, kept.as_deref()) {
        (None, None) => Ok(()),
        (None, Some(_)) => {
            anyhow::bail!("{shown} keeps the owners of an arena: give them with --owners FILE")
        }
        (Some(_), None) => anyhow::bail!(
            "{shown} keeps no owners: it was solved with the players alternating (drop --owners)"
        ),
        (Some(a), Some(b)) => match a.iter().zip(b).position(|(x, y)| x != y) {
            _ if a.len() != b.len() => anyhow::bail!(
                "{shown} keeps the owners of {} vertices, but {} were given",
                b.len(),
                a.len()
            ),
            Some(v) => anyhow::bail!(
                "{shown} says player {} moves at vertex {v}, but the owners given say player {}",
                b[v],
                a[v]
            ),
            None => Ok(()),
        },
    }
}

/// Checks that the graph's database at `path` was solved under the rules
/// given for the check: its header keeps the rule for a position without
/// moves, how many terminal labels there were (and their file), and the
/// target of a PGSolver game. A solution checked under other rules would
/// be reported wrong for the options, not for itself: the difference is
/// named instead.
fn same_rules(
    path: &std::path::Path,
    rules: &retrograde::Rules,
    reach: Option<&retrograde::io::pgsolver::Reach>,
) -> Result<()> {
    let db = crate::db::open(path)?;
    if db.meta().game != "graph" {
        // Said by the check itself: a database of another game.
        return Ok(());
    }
    let params = &db.meta().params;
    let param = |k: &str| params.get(k).map(String::as_str);
    let shown = common::shown(path);
    let given = match rules.no_move {
        retrograde::NoMoveRule::Lose => "lose",
        retrograde::NoMoveRule::Win => "win",
    };
    if let Some(kept) = param("no_move").filter(|&k| k != given) {
        anyhow::bail!(
            "{shown} was solved with --no-move {kept}, but is checked with --no-move {given}: \
             check it with --no-move {kept}"
        );
    }
    if let Some(kept) = param("labels").and_then(|k| k.parse::<usize>().ok()) {
        let given = rules.labels.len();
        if kept != given {
            let file = param("terminal").map_or(String::new(), |f| format!(" (--terminal {f})"));
            anyhow::bail!(
                "{shown} was solved with {kept} terminal label{}{file}, but {given} {} given: \
                 check it with the labels it was solved with",
                if kept == 1 { "" } else { "s" },
                if given == 1 { "was" } else { "were" }
            );
        }
    }
    let kept = param("reach").and_then(|r| r.parse::<u64>().ok());
    let reacher = param("reacher").unwrap_or("?");
    match (kept, reach) {
        (None, None) => Ok(()),
        (Some(k), None) => anyhow::bail!(
            "{shown} was solved as a reachability game (--reach {k} --reacher {reacher}): \
             check it with the same options"
        ),
        (None, Some(r)) => anyhow::bail!(
            "{shown} was not solved as a reachability game: check it without --reach {}",
            r.priority
        ),
        (Some(k), Some(r)) if k != r.priority || reacher != r.reacher.to_string() => {
            anyhow::bail!(
                "{shown} was solved with --reach {k} --reacher {reacher}, but is checked with \
                 --reach {} --reacher {}: check it with the options it was solved with",
                r.priority,
                r.reacher
            )
        }
        _ => Ok(()),
    }
}

/// Prints the verdict: the violations on standard output (or JSON), the
/// summary on standard error; exit 1 if wrong.
#[allow(clippy::too_many_arguments)]
fn print(
    args: &Args,
    solution: &std::path::Path,
    against: &str,
    report: &retrograde::Report,
    names: Option<&retrograde::io::names::Names>,
    n: u64,
    edges: Option<u64>,
    times: &Timings,
) -> Result<ExitCode> {
    let verdict = Verdict {
        solution,
        against,
        report,
        names,
        n,
        edges,
        times,
    };
    if args.json {
        verdict.print_json()?;
    } else {
        verdict.print_violations()?;
    }
    if !args.quiet {
        verdict.print_summary()?;
    }
    Ok(if report.is_ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// What a check found, and of what.
struct Verdict<'a> {
    /// The solution checked.
    solution: &'a std::path::Path,
    /// The game it was checked against, as said.
    against: &'a str,
    report: &'a retrograde::Report,
    /// The graph's vertex names, if it has them.
    names: Option<&'a retrograde::io::names::Names>,
    /// Positions checked.
    n: u64,
    /// Moves of the graph; `None` where they were generated.
    edges: Option<u64>,
    times: &'a Timings,
}

impl Verdict<'_> {
    /// Prints the verdict as one JSON object on standard output.
    fn print_json(&self) -> Result<()> {
        #[derive(serde::Serialize)]
        struct ViolationJson {
            position: u32,
            outcome: Option<&'static str>,
            remoteness: Option<u32>,
            name: Option<String>,
            message: String,
        }
        #[derive(serde::Serialize)]
        struct Json {
            command: &'static str,
            graph: String,
            solution: String,
            correct: bool,
            positions: u64,
            moves: Option<u64>,
            violations_total: u64,
            violations: Vec<ViolationJson>,
            time: crate::report::Time,
        }
        let report = self.report;
        crate::report::print(&Json {
            command: "verify",
            graph: self.against.to_string(),
            solution: self.solution.display().to_string(),
            correct: report.is_ok(),
            positions: self.n,
            moves: self.edges,
            violations_total: report.total,
            violations: report
                .violations
                .iter()
                .map(|v| ViolationJson {
                    position: v.vertex,
                    outcome: v.value.map(|x| x.outcome.as_str()),
                    remoteness: v.value.and_then(|x| x.remoteness),
                    name: self.name(v.vertex).map(String::from),
                    message: v.to_string(),
                })
                .collect(),
            time: crate::report::Time::of(self.times),
        })?;
        Ok(())
    }

    /// The name of `vertex`, if the graph names its vertices.
    fn name(&self, vertex: u32) -> Option<&str> {
        self.names.as_ref().and_then(|n| n.name(vertex))
    }

    /// Prints the violations kept, and how many more there are, on
    /// standard output: they are the data.
    fn print_violations(&self) -> Result<()> {
        let report = self.report;
        let stdout = io::stdout();
        let mut out = stdout.lock();
        for v in &report.violations {
            // With names, the vertex's name before the ids the check speaks in.
            let name = self
                .name(v.vertex)
                .map_or_else(String::new, |n| format!("{n:?} is "));
            writeln!(out, "{}: {name}{v}", self.solution.display())?;
        }
        if report.total > report.violations.len() as u64 {
            writeln!(
                out,
                "... and {} more",
                report.total - report.violations.len() as u64
            )?;
        }
        out.flush()?;
        Ok(())
    }

    /// Prints the summary on standard error: verified or wrong, and the
    /// time taken.
    fn print_summary(&self) -> Result<()> {
        let mut out = common::talk();
        if self.report.is_ok() {
            writeln!(
                out,
                "verified: {} solves {} ({}, {})",
                self.solution.display(),
                self.against,
                common::count(self.n, "position", "positions"),
                self.edges.map_or_else(
                    || "moves generated".to_string(),
                    |e| common::count(e, "edge", "edges")
                ),
            )?;
        } else {
            writeln!(
                out,
                "wrong: {} in {} ({})",
                common::count(self.report.total, "violation", "violations"),
                self.solution.display(),
                common::count(self.n, "position", "positions"),
            )?;
        }
        writeln!(out, "time: {}", self.times.line())?;
        Ok(())
    }
}

/// `verify DB`: the game rebuilt from the database's header, its positions
/// enumerated (explored, or numbered), each looked up in the database, and
/// the whole checked with the certificate of every solve.
fn database(args: &Args) -> Result<ExitCode> {
    let path = &args.game.graph;
    if path.is_dir() {
        return directory(args);
    }
    let bars = Bars::new(args.quiet || args.json);
    let mut times = Timings::default();
    let db = crate::db::open(path)?;
    let meta = db.meta().clone();
    let keep = args.show;
    let limit = common::memory_limit(args.max_memory);
    let values_bytes = |what: &str, positions: u64, held: u64| -> Result<()> {
        let needed = positions
            .saturating_mul(crate::db::VALUES_BYTES_PER_RECORD)
            .saturating_add(held);
        Ok(common::check_memory(what, needed, limit)?)
    };
    // (positions, moves, report)
    let (n, moves, report): (u64, Option<u64>, retrograde::Report) = match meta.game.as_str() {
        "graph" => {
            let n = db.len();
            let e = db.header().moves.as_ref().map_or(0, |m| m.count);
            // The moves listed (8 bytes each, twice as the list grows), the
            // graph with its successors (12 bytes a vertex and 4 a move,
            // each way) and the values.
            values_bytes(
                &format!(
                    "{}: a graph of {} and {}",
                    common::shown(path),
                    common::count(n, "vertex", "vertices"),
                    common::count(e, "move", "moves")
                ),
                n,
                n.saturating_mul(24).saturating_add(e.saturating_mul(24)),
            )?;
            let (edges, rules) = crate::db::graph(&db)?;
            let graph = retrograde::Csr::from_edges(n as usize, &edges).with_successors();
            let values = times.time("read", || db.values())?;
            // An arena's owners, kept beside its moves, decide as they did.
            let r = match db.owners()? {
                None => {
                    let solved = retrograde::Solved::new(&graph, rules.clone(), values)?;
                    times.time("verify", || {
                        retrograde::verify(&graph, &rules, &solved, keep)
                    })?
                }
                Some(owners) => {
                    let arena = Arena::new(&graph, owners)?;
                    let solved = retrograde::Solved::new(&arena, rules.clone(), values)?;
                    times.time("verify", || {
                        retrograde::verify(&arena, &rules, &solved, keep)
                    })?
                }
            };
            (n, Some(edges.len() as u64), r)
        }
        _ => {
            let game = crate::db::solvable(&db)?;
            let phases = crate::progress::Phases::new(&bars);
            let how = retrograde::registry::How {
                memory_limit: Some(limit),
                reserve: 0,
                progress: &phases,
                tiers: None,
                on_tier: None,
                tier_options: Default::default(),
                by_hash: false,
            };
            let checked = game.check(&db, &how, keep);
            phases.record(&mut times);
            let checked = checked?;
            (checked.positions, checked.moves, checked.report)
        }
    };
    // Counted as the game's report counts them (a chess ending's capture,
    // kept so that moves to it are valued, is no position).
    let n = match crate::db::game(&db) {
        Ok(game) => n.min(
            retrograde::play::Probe {
                game: &*game,
                db: &db,
            }
            .positions()?,
        ),
        Err(_) => n,
    };
    let against = retrograde::play::describe(&meta);
    print(args, path, &against, &report, None, n, moves, &times)
}

/// One tier's verdict in `verify DIR`.
#[derive(serde::Serialize)]
struct TierVerdict {
    tier: String,
    database: String,
    correct: bool,
    positions: u64,
    moves: Option<u64>,
    violations_total: u64,
    violations: Vec<String>,
}

/// `verify DIR`: every tier of a tier directory, children first, checked
/// with the certificate against the values of the tiers below it as the
/// directory holds them, each of which is checked in its turn: the whole
/// game, by induction. A tier whose file is not the one listed (size or
/// checksum) is refused before anything is checked.
fn directory(args: &Args) -> Result<ExitCode> {
    let dir = &args.game.graph;
    let tiers = retrograde::tier::TierDirectory::open(dir)?;
    check_listed(dir, &tiers)?;
    let bars = Bars::new(args.quiet || args.json);
    let limit = common::memory_limit(args.max_memory);
    let mut times = Timings::default();
    let mut verdicts = Vec::new();
    let stdout = io::stdout();
    let listed = &tiers.manifest().tiers;
    let skipped = match &args.from {
        None => 0,
        Some(from) => listed.iter().position(|t| &t.name == from).ok_or_else(|| {
            anyhow::anyhow!(
                "{}: no tier {from} in {} (--from names a tier it lists)",
                dir.display(),
                retrograde::tier::MANIFEST
            )
        })?,
    };
    for (listed, db) in tiers.each_alone().skip(skipped) {
        let db = &db?;
        let checked = check_tier(args, db, &bars, limit, &mut times)?;
        verdicts.push(tier_verdict(args, &listed.name, db, checked, &stdout)?);
    }
    let correct = verdicts.iter().all(|v| v.correct);
    let game = retrograde::play::describe(&tiers.manifest().game);
    print_directory(args, dir, game, &verdicts, skipped, &times)?;
    Ok(if correct {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Refuses a tier directory where a tier's database is not the one the
/// manifest lists (its size or checksum differ).
fn check_listed(dir: &std::path::Path, tiers: &retrograde::tier::TierDirectory) -> Result<()> {
    for listed in &tiers.manifest().tiers {
        if !tiers.unchanged(&listed.name) {
            anyhow::bail!(
                "{}: tier {}'s database is not the one {} lists (its size or checksum differ): solve the tier again (game ... --tiers DIR) before checking the directory",
                common::shown(dir),
                listed.name,
                retrograde::tier::MANIFEST
            );
        }
    }
    Ok(())
}

/// One tier's database checked with the certificate, against the tiers
/// below it as the directory holds them.
fn check_tier(
    args: &Args,
    db: &retrograde::db::Database,
    bars: &Bars,
    limit: u64,
    times: &mut Timings,
) -> Result<retrograde::registry::Checked> {
    let game = crate::db::solvable(db)?;
    let phases = crate::progress::Phases::new(bars);
    let how = retrograde::registry::How {
        memory_limit: Some(limit),
        reserve: 0,
        progress: &phases,
        tiers: Some(&args.game.graph),
        on_tier: None,
        tier_options: Default::default(),
        by_hash: false,
    };
    let checked = game.check(db, &how, args.show);
    phases.record(times);
    Ok(checked?)
}

/// A tier's verdict, its violations printed on standard output and its
/// line on standard error (unless `--json` or `--quiet`).
fn tier_verdict(
    args: &Args,
    name: &str,
    db: &retrograde::db::Database,
    checked: retrograde::registry::Checked,
    stdout: &io::Stdout,
) -> Result<TierVerdict> {
    let report = &checked.report;
    let violations: Vec<String> = report.violations.iter().map(|v| v.to_string()).collect();
    if !args.json {
        let mut out = stdout.lock();
        for v in &violations {
            writeln!(out, "{}: {v}", db.path().display())?;
        }
    }
    if !args.quiet && !args.json {
        let said = if report.is_ok() {
            "verified".to_string()
        } else {
            format!(
                "wrong: {}",
                common::count(report.total, "violation", "violations")
            )
        };
        writeln!(
            common::talk(),
            "tier {name}: {said} ({})",
            common::count(checked.positions, "position", "positions")
        )?;
    }
    Ok(TierVerdict {
        tier: name.to_string(),
        database: db.path().display().to_string(),
        correct: report.is_ok(),
        positions: checked.positions,
        moves: checked.moves,
        violations_total: report.total,
        violations,
    })
}

/// The whole directory's verdict: one JSON object with `--json`, and the
/// summary on standard error unless `--quiet`.
fn print_directory(
    args: &Args,
    dir: &std::path::Path,
    game: String,
    verdicts: &[TierVerdict],
    skipped: usize,
    times: &Timings,
) -> Result<()> {
    let correct = verdicts.iter().all(|v| v.correct);
    let positions: u64 = verdicts.iter().map(|v| v.positions).sum();
    let moves: u64 = verdicts.iter().filter_map(|v| v.moves).sum();
    let total: u64 = verdicts.iter().map(|v| v.violations_total).sum();
    if args.json {
        #[derive(serde::Serialize)]
        struct Json<'a> {
            command: &'static str,
            directory: String,
            game: String,
            correct: bool,
            positions: u64,
            moves: u64,
            violations_total: u64,
            /// The tiers before `--from`'s, not checked.
            unchecked_tiers: usize,
            tiers: &'a [TierVerdict],
            time: crate::report::Time,
        }
        crate::report::print(&Json {
            command: "verify",
            directory: dir.display().to_string(),
            game: game.clone(),
            correct,
            positions,
            moves,
            violations_total: total,
            unchecked_tiers: skipped,
            tiers: verdicts,
            time: crate::report::Time::of(times),
        })?;
    }
    if !args.quiet {
        let mut out = common::talk();
        if correct && skipped > 0 {
            writeln!(
                out,
                "verified: {}'s tiers from {} ({}, {}, {}); the {} before it not checked",
                dir.display(),
                verdicts.first().map_or("-", |v| v.tier.as_str()),
                common::count(verdicts.len() as u64, "tier", "tiers"),
                common::count(positions, "position", "positions"),
                common::count(moves, "move", "moves"),
                common::count(skipped as u64, "tier", "tiers"),
            )?;
        } else if correct {
            writeln!(
                out,
                "verified: {} solves {game} ({}, {}, {})",
                dir.display(),
                common::count(verdicts.len() as u64, "tier", "tiers"),
                common::count(positions, "position", "positions"),
                common::count(moves, "move", "moves"),
            )?;
        } else {
            writeln!(
                out,
                "wrong: {} in {}",
                common::count(total, "violation", "violations"),
                dir.display()
            )?;
        }
        writeln!(out, "time: {}", times.line())?;
    }
    Ok(())
}
