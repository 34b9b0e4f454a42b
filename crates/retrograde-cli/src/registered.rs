//! `retrograde game NAME` for every registered game without a subcommand
//! of its own (tic-tac-toe, and the games of a program's own registry):
//! its variant and parameters become arguments, and it is solved, checked,
//! saved and reported through the registry alone.

use std::process::ExitCode;

use std::io::Write;

use anyhow::Result;
use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};
use retrograde::db::Meta;
use retrograde::io::Outputs;
use retrograde::play::{Answer, Keyed, Probe};
use retrograde::registry::{Entry, GameSolution, How, ParamKind, Registry, Solvable};
use retrograde::{Outcome, Value};

use crate::common::Timings;
use crate::game::Output;
use crate::progress::{Bars, Phases};
use crate::report;

/// A `game NAME` command line for a registered game.
pub struct Registered {
    entry: &'static Entry,
    matches: ArgMatches,
    threads: Option<usize>,
}

/// `game` with a subcommand for each game of `games` it has none for.
pub fn add(game: Command, games: &'static Registry) -> Command {
    let own: Vec<String> = game
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    games
        .entries()
        .iter()
        .filter(|e| !own.iter().any(|o| o == e.name()))
        .fold(game, |game, e| game.subcommand(command(e)))
}

/// The subcommand of entry `e`: its variant (a positional argument), its
/// parameters (`--NAME VALUE`, `--NAME` or `--no-NAME` for a flag) and what
/// every game command takes.
fn command(e: &'static Entry) -> Command {
    let mut c = Command::new(e.name());
    if !e.variants().is_empty() {
        let names: Vec<&'static str> = e.variants().iter().map(|(v, _)| v.as_str()).collect();
        c = c.arg(
            Arg::new("variant")
                .value_name("VARIANT")
                .required(true)
                .value_parser(clap::builder::PossibleValuesParser::new(names))
                .help("The variant."),
        );
    } else if e.is_tiered() {
        c = c.arg(
            Arg::new("variant")
                .value_name("TIER")
                .help("The tier to solve, by name (the game's own choice if none)."),
        );
    }
    for p in e.params() {
        let arg = Arg::new(p.name).help(p.help);
        c = c.arg(match p.kind {
            ParamKind::Flag { default: true } => arg
                .long(format!("no-{}", p.name))
                .action(ArgAction::SetTrue),
            ParamKind::Flag { default: false } => arg.long(p.name).action(ArgAction::SetTrue),
            ParamKind::Text {
                default,
                value_name,
            } => {
                let arg = arg.long(p.name).value_name(value_name);
                match default {
                    Some(d) => arg.help(format!("{} [default: {d}]", p.help)),
                    None => arg.required(true),
                }
            }
        });
    }
    c = c.arg(
        Arg::new("position")
            .long("position")
            .value_name("POSITION")
            .help("Print this position's value and its moves with their values, best first (in the game's notation)."),
    );
    if e.is_explored() {
        c = c.arg(
            Arg::new("by-hash")
                .long("by-hash")
                .action(ArgAction::SetTrue)
                .help_heading("Performance")
                .help("Explore by hash even where the game numbers its positions (encode), to compare the two paths: the same answers, the summary names the path taken"),
        );
    }
    if e.is_tiered() {
        c = c.arg(
            Arg::new("tiers")
                .long("tiers")
                .value_name("DIR")
                .value_parser(clap::value_parser!(std::path::PathBuf))
                .help("Keep every tier solved on the way (a database each, and tiers.json) in DIR, and take the tiers an earlier run left there (checked) instead of solving them again [default: a temporary directory]"),
        );
        c = c
            .arg(
                Arg::new("tiers-at-once")
                    .long("tiers-at-once")
                    .value_name("N")
                    .value_parser(clap::value_parser!(u16).range(1..))
                    .help("Solve up to N tiers at once where the tiers they lead to are done, each on all threads; N tiers hold up to N times the memory of one [default: 1]"),
            )
            .arg(
                Arg::new("check-unmoves")
                    .long("check-unmoves")
                    .action(ArgAction::SetTrue)
                    .help("Before solving a tier whose positions the game numbers densely, check that its un-moves are its moves reversed (about doubles the time); a tier where they are not is refused, naming a move"),
            )
            .arg(
                Arg::new("tier-compression")
                    .long("tier-compression")
                    .value_name("HOW")
                    .value_parser(["none", "zstd"])
                    .help("How the tiers' databases are stored [default: zstd for the tiers the game numbers densely, none for the tiers explored]"),
            );
        // The tiers shared out among the processes of a cluster.
        c = crate::cluster::ClusterArgs::augment_args(c);
    }
    // After the options: their struct's own line would take the place of the game's.
    let c = Output::augment_args(c).about(e.about().to_string());
    if e.long_help().is_empty() {
        c
    } else {
        c.after_help(e.long_help().to_string())
    }
}

/// The registered game `matches` runs, if it runs one (`game NAME` for a
/// game of `games` without a subcommand of the tool's own).
pub fn matched(matches: &ArgMatches, games: &'static Registry) -> Option<Registered> {
    let ("game", game) = matches.subcommand()? else {
        return None;
    };
    let (name, sub) = game.subcommand()?;
    let entry = games.get(name)?;
    // Only games added by `add`: a tool's own subcommand parses as itself.
    if <crate::game::GameName as clap::Subcommand>::has_subcommand(name) {
        return None;
    }
    let threads = [sub, game, matches]
        .iter()
        .find_map(|m| m.try_get_one::<usize>("threads").ok().flatten().copied());
    Some(Registered {
        entry,
        matches: sub.clone(),
        threads,
    })
}

impl Registered {
    /// `-j`, if given.
    pub fn threads(&self) -> Option<usize> {
        self.threads
    }

    /// The game's fields as the command line gives them (the defaults
    /// left to the entry).
    fn meta(&self) -> Meta {
        let mut meta = Meta::new(self.entry.name());
        if let Some(v) = self.matches.get_one::<String>("variant") {
            meta = meta.variant(v.clone());
        }
        for p in self.entry.params() {
            match p.kind {
                ParamKind::Flag { default } => {
                    if self.matches.get_flag(p.name) {
                        meta = meta.param(p.name, !default);
                    }
                }
                ParamKind::Text { .. } => {
                    if let Some(v) = self.matches.get_one::<String>(p.name) {
                        meta = meta.param(p.name, v);
                    }
                }
            }
        }
        meta
    }

    /// Solves the game, checks and saves it as asked, and reports.
    pub fn run(self) -> Result<ExitCode> {
        let out = Output::from_arg_matches(&self.matches)?;
        let asked = self.matches.get_one::<String>("position");
        out.check(asked.is_some())?;
        let game = self.entry.open(&self.meta())?;
        if out.save.save.is_some() && !game.numbered() {
            anyhow::bail!(
                "{} gives its positions no numbers (StateGame::encode and decode), and a database keeps each record under its position's number: it can be solved, but not saved (drop --save, or give the game numbers)",
                self.entry.name()
            );
        }
        // Bad notation is an error before any work.
        let asked = asked.map(|t| crate::db::parse(&*game, t)).transpose()?;
        let mut times = Timings::default();
        let bars = Bars::new(out.quiet || out.json);
        // A process other than 0 has done its share and said so.
        let Some(solution) = self.solve(&*game, &out, &bars, &mut times)? else {
            return Ok(ExitCode::SUCCESS);
        };
        let verified = verify(&*solution, &out, &mut times)?;
        // The position asked about, as given, and its moves: answered
        // before anything is written, as it can fail.
        let position = asked.map(|p| probe(&*game, &*solution, p)).transpose()?;
        let mut files = Outputs::new();
        let saved =
            out.save
                .stage_solution(&mut files, &mut times, game.meta(), &*solution, &bars)?;
        out.commit(files, saved)?;
        let report = Report {
            game: &*game,
            solution: &*solution,
            position: position.as_ref(),
            verified,
            times: &times,
        };
        if out.json {
            report.json()?;
        } else {
            report.text(&mut *out.data(), out.quiet)?;
        }
        Ok(crate::game::exit(verified))
    }

    /// Solves the game as the command line asks (on a cluster's processes
    /// if it names them), telling each tier done unless `--quiet`; `None`
    /// in a process of a cluster other than 0, which has done its share.
    fn solve<'g>(
        &self,
        game: &'g dyn Solvable,
        out: &Output,
        bars: &Bars,
        times: &mut Timings,
    ) -> Result<Option<Box<dyn GameSolution + 'g>>> {
        let phases = Phases::new(bars);
        let quiet = out.quiet;
        let tell = move |t: &retrograde::tier::TierDone| {
            if !quiet {
                crate::progress::clear_line();
                eprintln!("{}", tier_line(t));
            }
        };
        let how = How {
            memory_limit: Some(out.limit()),
            reserve: out.save.keyed_bytes_per_position(),
            progress: &phases,
            tiers: self
                .matches
                .try_get_one::<std::path::PathBuf>("tiers")
                .ok()
                .flatten()
                .map(|p| p.as_path()),
            on_tier: Some(&tell),
            tier_options: tier_options(&self.matches),
            by_hash: self
                .matches
                .try_get_one::<bool>("by-hash")
                .ok()
                .flatten()
                .copied()
                .unwrap_or(false),
        };
        let cluster = if self.entry.is_tiered() {
            Some(crate::cluster::ClusterArgs::from_arg_matches(
                &self.matches,
            )?)
        } else {
            None
        };
        let solution = match cluster.as_ref().filter(|c| c.is_cluster()) {
            None => game.solve(&how).map(Some).map_err(anyhow::Error::from),
            Some(cluster) => crate::cluster::solve_tiers(game, &how, cluster, quiet),
        };
        phases.record(times);
        solution
    }
}

/// With `--verify`, the solution checked with the certificate, each
/// violation printed: whether it is right.
fn verify(solution: &dyn GameSolution, out: &Output, times: &mut Timings) -> Result<Option<bool>> {
    if !out.verify {
        return Ok(None);
    }
    let report = times.time("verify", || solution.verify(5))?;
    for v in &report.violations {
        eprintln!("retrograde: wrong: {v}");
    }
    Ok(Some(report.is_ok()))
}

/// Position `p`'s answer, its value and its moves', from the solution.
fn probe(
    game: &dyn Solvable,
    solution: &dyn GameSolution,
    p: u64,
) -> Result<Answer, retrograde::play::ProbeError> {
    let answers = solution.answers();
    let keyed = Keyed::new(
        answers.len() as u32,
        |i| solution.key(i),
        |i| answers.value(i),
    );
    let records = Elsewhere { keyed, solution };
    Probe { game, db: &records }.answer(p)
}

/// What `game NAME` reports.
struct Report<'a> {
    game: &'a dyn Solvable,
    solution: &'a dyn GameSolution,
    position: Option<&'a Answer>,
    verified: Option<bool>,
    times: &'a Timings,
}

impl Report<'_> {
    /// The totals, less the records that stand for no position.
    fn counted(&self) -> (report::Outcomes, retrograde::Summary) {
        let answers = self.solution.answers();
        let mut histogram = answers.values().histogram();
        let uncounted = self.solution.uncounted();
        for v in uncounted.into_iter().filter_map(|i| answers.value(i)) {
            let Some(column) = retrograde::Histogram::column(v.outcome) else {
                histogram.draws -= 1;
                continue;
            };
            let r = v.remoteness.unwrap_or(0);
            if let Some(level) = histogram.by_remoteness.get_mut(&r) {
                level[column] -= 1;
                if level.iter().all(|&c| c == 0) {
                    histogram.by_remoteness.remove(&r);
                }
            }
        }
        (
            report::Outcomes::from_histogram(&histogram),
            histogram.summary(),
        )
    }

    /// The counted positions' counts and longest remoteness for each player
    /// to move, in the order first met; none unless the game asks for them
    /// ([`Solvable::counts_by_side`]).
    fn by_side(&self) -> Vec<Side> {
        if !self.game.counts_by_side() {
            return Vec::new();
        }
        let answers = self.solution.answers();
        let uncounted: std::collections::HashSet<u32> =
            self.solution.uncounted().into_iter().collect();
        let mut sides: Vec<Side> = Vec::new();
        for i in (0..answers.len() as u32).filter(|i| !uncounted.contains(i)) {
            let (Some(key), Some(v)) = (self.solution.key(i), answers.value(i)) else {
                continue;
            };
            let to_move = self.game.to_move(self.game.position_at(key));
            let at = match sides.iter().position(|s| s.to_move == to_move) {
                Some(at) => at,
                None => {
                    sides.push(Side::new(to_move));
                    sides.len() - 1
                }
            };
            sides[at].count(v);
        }
        sides
    }

    /// The start's notation, who moves there, and its value.
    fn start(&self) -> Option<(String, String, Value)> {
        let s = self.game.start()?;
        let v = self.solution.start_value()?;
        Some((self.game.notation(s), self.game.to_move(s), v))
    }

    /// One JSON object on standard output (docs/JSON.md).
    fn json(&self) -> Result<()> {
        #[derive(serde::Serialize)]
        struct Start {
            #[serde(skip_serializing_if = "Option::is_none")]
            position: Option<String>,
            #[serde(skip_serializing_if = "Option::is_none")]
            to_move: Option<String>,
            outcome: &'static str,
            remoteness: Option<u32>,
        }
        #[derive(serde::Serialize)]
        struct Json<'a> {
            command: &'static str,
            game: String,
            #[serde(skip_serializing_if = "Option::is_none")]
            symmetry: Option<bool>,
            params: &'a std::collections::BTreeMap<String, String>,
            #[serde(flatten)]
            outcomes: report::Outcomes,
            #[serde(skip_serializing_if = "Vec::is_empty")]
            by_side: Vec<Side>,
            #[serde(skip_serializing_if = "Option::is_none")]
            start: Option<Start>,
            #[serde(skip_serializing_if = "Option::is_none")]
            position: Option<crate::query::AnswerJson>,
            #[serde(skip_serializing_if = "Option::is_none")]
            solved_by: Option<SolvedByJson>,
            #[serde(skip_serializing_if = "Option::is_none")]
            verified: Option<bool>,
            time: report::Time,
        }
        let meta = self.game.meta();
        report::print(&Json {
            command: "game",
            game: retrograde::play::describe(&meta),
            symmetry: meta.params.get("symmetry").map(|s| s == "true"),
            params: &meta.params,
            outcomes: self.counted().0,
            by_side: self.by_side(),
            start: match self.start() {
                Some((position, to_move, v)) => Some(Start {
                    position: Some(position),
                    to_move: Some(to_move),
                    outcome: v.outcome.as_str(),
                    remoteness: v.remoteness,
                }),
                // A game without numbers: the value alone.
                None => self.solution.start_value().map(|v| Start {
                    position: None,
                    to_move: None,
                    outcome: v.outcome.as_str(),
                    remoteness: v.remoteness,
                }),
            },
            position: self.position.map(|a| crate::query::json(self.game, a)),
            solved_by: self.solution.solved_by().map(SolvedByJson::of),
            verified: self.verified,
            time: report::Time::of(self.times),
        })
    }

    /// The start's value (and the position asked about) on `data`, the
    /// summary on standard error unless `quiet`.
    fn text(&self, data: &mut dyn Write, quiet: bool) -> Result<()> {
        if let Some((name, to_move, v)) = self.start() {
            writeln!(data, "{name}: {v} for {to_move}")?;
        } else if let Some(v) = self.solution.start_value() {
            // A game without numbers: its start has no notation here.
            writeln!(data, "the start: {v} for the player to move")?;
        }
        if let Some(a) = self.position {
            crate::query::text(data, self.game, a)?;
        }
        data.flush()?;
        if quiet {
            return Ok(());
        }
        let meta = self.game.meta();
        let folded = match meta.params.get("symmetry").map(String::as_str) {
            Some("true") => " (symmetries folded)",
            _ => "",
        };
        let (outcomes, summary) = self.counted();
        let from = if self.game.start().is_some() {
            "the start"
        } else {
            "its starts"
        };
        let mut err = crate::common::talk();
        writeln!(
            err,
            "game: {}{folded}: {}, reachable from {from}",
            retrograde::play::describe(&meta),
            crate::common::count(outcomes.positions, "position", "positions"),
        )?;
        if let Some(by) = self.solution.solved_by() {
            writeln!(err, "rung: {by}")?;
        }
        writeln!(err, "solved: {}", crate::common::summary_line(&summary))?;
        for side in self.by_side() {
            writeln!(err, "{}", side.line())?;
        }
        crate::game::verdict_and_time(&mut err, self.verified, self.times)?;
        Ok(())
    }
}

/// How the game was solved (docs/JSON.md): its rung, the order of its ids
/// where it was explored (`found`, `numbers` or `scrambled`) with how much
/// the game's numbers crowd together, and the sentence the summary prints.
#[derive(serde::Serialize)]
struct SolvedByJson {
    rung: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    ids: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    crowding: Option<f64>,
    why: String,
}

impl SolvedByJson {
    fn of(by: retrograde::registry::SolvedBy) -> SolvedByJson {
        use retrograde::explore::IdOrder;
        let (ids, crowding) = match by.ids {
            Some(IdOrder::Found) => (Some("found"), None),
            Some(IdOrder::Numbers { crowding }) => (Some("numbers"), Some(crowding)),
            Some(IdOrder::Scrambled { crowding }) => (Some("scrambled"), Some(crowding)),
            Some(_) | None => (None, None),
        };
        SolvedByJson {
            rung: by.rung.name(),
            ids,
            crowding: crowding.map(|c| (c * 100.0).round() / 100.0),
            why: by.to_string(),
        }
    }
}

/// The positions where one player is to move: counts and longest
/// remoteness (docs/JSON.md).
#[derive(serde::Serialize)]
struct Side {
    to_move: String,
    counts: report::Counts,
    longest: report::Longest,
    /// The longest win in the winner's moves: (plies + 1) / 2 (a chess
    /// ending's "mate in").
    longest_win_moves: Option<u32>,
}

impl Side {
    fn new(to_move: String) -> Side {
        Side {
            to_move,
            counts: report::Counts::default(),
            longest: report::Longest::default(),
            longest_win_moves: None,
        }
    }

    fn count(&mut self, v: Value) {
        let (c, l) = (&mut self.counts, &mut self.longest);
        let slot = match v.outcome {
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
                return;
            }
        };
        *slot = (*slot).max(v.remoteness);
        self.longest_win_moves = l.win.map(|w| w.div_ceil(2));
    }

    /// `white to move: 21,959 win, …; longest win 31 plies (16 moves)`.
    fn line(&self) -> String {
        let c = self.counts;
        let mut line = format!(
            "{} to move: {} win, {} lose, {} tie, {} draw",
            self.to_move,
            indicatif::HumanCount(c.win),
            indicatif::HumanCount(c.lose),
            indicatif::HumanCount(c.tie),
            indicatif::HumanCount(c.draw),
        );
        if let (Some(w), Some(m)) = (self.longest.win, self.longest_win_moves) {
            line += &format!("; longest win {w} plies ({m} moves)");
        }
        if let Some(l) = self.longest.lose {
            line += &format!("; longest loss {l} plies");
        }
        line
    }
}

/// One line for a tier done: `tier KQK: 46,137 positions, longest 20 plies, 0.4 s`.
fn tier_line(t: &retrograde::tier::TierDone) -> String {
    let longest = t.longest.map_or_else(
        || "every position a draw".to_string(),
        |r| format!("longest {r} plies"),
    );
    let how = if t.resumed {
        "taken as an earlier run left it (checked)".to_string()
    } else if let Some(p) = t.received_from {
        format!("received from process {p} (checked)")
    } else {
        format!("{:.1} s", t.seconds)
    };
    let positions = if t.positions == 1 {
        "position"
    } else {
        "positions"
    };
    format!(
        "tier {}: {} {positions}, {longest}, {how}",
        t.name, t.positions
    )
}

/// A solution's values by key, and those it finds elsewhere
/// ([`GameSolution::elsewhere`]: another tier's database).
struct Elsewhere<'a, R> {
    keyed: R,
    solution: &'a dyn GameSolution,
}

impl<R: retrograde::play::Records> retrograde::play::Records for Elsewhere<'_, R> {
    fn value(&self, key: u64) -> Result<Option<Value>, retrograde::db::DbError> {
        Ok(self
            .keyed
            .value(key)?
            .or_else(|| self.solution.elsewhere(key)))
    }

    fn len(&self) -> u64 {
        self.keyed.len()
    }
}

/// The tiered solve's options on `matches` (the defaults where the game is
/// not tiered, and has none of them).
fn tier_options(matches: &ArgMatches) -> retrograde::tier::TierOptions {
    let mut o = retrograde::tier::TierOptions::default();
    if let Ok(Some(&n)) = matches.try_get_one::<u16>("tiers-at-once") {
        o.at_once = usize::from(n);
    }
    o.check_unmoves = matches
        .try_get_one::<bool>("check-unmoves")
        .ok()
        .flatten()
        .copied()
        .unwrap_or(false);
    o.compression = match matches.try_get_one::<String>("tier-compression") {
        Ok(Some(c)) if c == "zstd" => Some(retrograde::db::Compression::Zstd),
        Ok(Some(_)) => Some(retrograde::db::Compression::None),
        _ => None,
    };
    o
}
