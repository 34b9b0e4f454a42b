//! `retrograde game NAME` for every registered game without a subcommand
//! of its own (tic-tac-toe, and the games of a program's own registry):
//! its variant and parameters become arguments, and it is solved, checked,
//! saved and reported through the registry alone.

use std::process::ExitCode;

use anyhow::Result;
use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};
use retrograde::db::Meta;
use retrograde::io::Outputs;
use retrograde::registry::{Entry, How, ParamKind, Registry};

use crate::common::Timings;
use crate::game::{Output, WithStart};
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
    // After the options: their struct's own line would take the place of the game's.
    Output::augment_args(c).about(e.about().to_string())
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
        out.check(false)?;
        let game = self.entry.open(&self.meta())?;
        let mut times = Timings::default();
        let bars = Bars::new(out.quiet || out.json);
        let phases = Phases::new(&bars);
        let how = How {
            memory_limit: Some(out.limit()),
            reserve: out.save.keyed_bytes_per_position(),
            progress: &phases,
        };
        let solution = game.solve(&how)?;
        phases.record(&mut times);
        let verified = if out.verify {
            let report = times.time("verify", || solution.verify(5))?;
            for v in &report.violations {
                eprintln!("retrograde: wrong: {v}");
            }
            Some(report.is_ok())
        } else {
            None
        };
        let mut files = Outputs::new();
        let saved =
            out.save
                .stage_solution(&mut files, &mut times, game.meta(), &*solution, &bars)?;
        out.commit(files, saved)?;
        let answers = solution.answers();
        let name = retrograde::play::describe(&game.meta());
        let symmetry = game.meta().params.get("symmetry").map(|s| s == "true");
        let start = game.start();
        let (start_name, to_move) = match start {
            Some(s) => (game.notation(s), game.to_move(s)),
            None => (String::new(), String::new()),
        };
        let Some(value) = solution.start_value() else {
            return summary_only(&name, answers, verified, &times, &out);
        };
        crate::game::report_with_start(WithStart {
            game: &name,
            symmetry,
            counted: ", reachable from the start",
            outcomes: report::Outcomes::of(answers),
            summary: answers.summary(),
            start: value,
            start_name: &start_name,
            to_move: (&to_move, &to_move),
            verified,
            times: &times,
            json: out.json,
            quiet: out.quiet,
            data: out.data(),
        })
    }
}

/// The report of a game without one start: the totals, no start's value.
fn summary_only(
    name: &str,
    answers: &(dyn retrograde::Answers + Sync),
    verified: Option<bool>,
    times: &Timings,
    out: &Output,
) -> Result<ExitCode> {
    use std::io::Write;
    if out.json {
        #[derive(serde::Serialize)]
        struct Json<'a> {
            command: &'static str,
            game: &'a str,
            #[serde(flatten)]
            outcomes: report::Outcomes,
            #[serde(skip_serializing_if = "Option::is_none")]
            verified: Option<bool>,
            time: report::Time,
        }
        report::print(&Json {
            command: "game",
            game: name,
            outcomes: report::Outcomes::of(answers),
            verified,
            time: report::Time::of(times),
        })?;
    } else if !out.quiet {
        let mut err = crate::common::talk();
        writeln!(
            err,
            "game: {name}: {}, reachable from its starts",
            crate::common::count(answers.len() as u64, "position", "positions")
        )?;
        writeln!(
            err,
            "solved: {}",
            crate::common::summary_line(&answers.summary())
        )?;
        crate::game::verdict_and_time(&mut err, verified, times)?;
    }
    Ok(crate::game::exit(verified))
}
