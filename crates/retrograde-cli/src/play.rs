//! `retrograde play DB`: play against the perfect player in the terminal,
//! or watch it play both sides. Before each move every legal move is shown
//! with its value; `u` takes a move back. Reads commands a line at a time
//! from standard input, so it can be scripted (`printf '1\nq\n' | ...`).

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use crate::common::printable;
use retrograde::Outcome;
use retrograde::db::Database;
use retrograde::play::{Answer, MoveAnswer, Playable, Probe};

/// Who the person at the keyboard plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum You {
    /// The side to move at the start.
    First,
    /// The other side.
    Second,
    /// Both sides (the values guide every move).
    Both,
    /// Neither: watch the perfect player play both sides.
    None,
}

/// Options of `retrograde play`.
#[derive(clap::Args)]
pub struct Args {
    /// The database (`--save` writes one).
    pub db: PathBuf,
    /// Start here instead of the game's start (in the game's notation; needed for games
    /// without one start: graphs and chess endings).
    #[arg(long, value_name = "POSITION")]
    pub position: Option<String>,
    /// Which side you play.
    #[arg(long, value_enum, default_value = "first")]
    pub you: You,
    /// Watch the perfect player play both sides (the same as --you none).
    #[arg(long, conflicts_with = "you")]
    pub watch: bool,
    /// Stop a game that has not ended after this many plies (a drawn game never ends).
    #[arg(long, value_name = "PLIES", default_value_t = 200)]
    pub max_plies: usize,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let db = crate::db::read(&args.db, None)?;
    let game = crate::db::game(&db)?;
    let game: &dyn Playable = &*game;
    let start = start_position(game, &db, args.position.as_deref())?;
    let you = if args.watch { You::None } else { args.you };
    let records = retrograde::tier::WithTiers::beside(&db, game);
    let probe = Probe { game, db: &records };
    // Refuse a start that is not in the game before anything is printed.
    probe.answer(start)?;
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{}: {}. Moves: a number or a name; u takes back, q quits.",
        retrograde::play::describe(db.meta()),
        you.describe()
    )?;
    let mut table = Table {
        probe,
        you,
        max_plies: args.max_plies,
        history: vec![start],
        input: Commands::stdin(),
    };
    table.play(&mut out)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The position to start from: `position` read in the game's notation, or
/// else the game's own start.
fn start_position(game: &dyn Playable, db: &Database, position: Option<&str>) -> Result<u64> {
    match position {
        Some(text) => crate::db::parse(game, text),
        None => game.start().ok_or_else(|| {
            anyhow::anyhow!(
                "{} has no single start: give one with --position",
                retrograde::play::describe(db.meta())
            )
        }),
    }
}

impl You {
    /// Whether the person at the keyboard chooses the move of a position
    /// where the side that moved first (`first`) or the other is to move.
    fn moves_at(self, first: bool) -> bool {
        match self {
            You::First => first,
            You::Second => !first,
            You::Both => true,
            You::None => false,
        }
    }

    /// Who plays what, for the opening line.
    fn describe(self) -> &'static str {
        match self {
            You::First => "you play the side to move first",
            You::Second => "you play the side moving second",
            You::Both => "you play both sides",
            You::None => "the perfect player plays both sides",
        }
    }
}

/// A game in progress: the positions played so far, and who plays them.
struct Table<'a> {
    probe: Probe<'a>,
    you: You,
    max_plies: usize,
    /// The positions from the start, the last one current.
    history: Vec<u64>,
    input: Commands,
}

impl Table<'_> {
    /// Plays until the game is over for the perfect player, the person
    /// quits, the input ends or the perfect player has played `max_plies`.
    fn play(&mut self, out: &mut impl Write) -> Result<()> {
        loop {
            let ply = self.history.len() - 1;
            let a = self.probe.answer(self.history[ply])?;
            show_position(out, self.probe.game, &a, ply)?;
            let over = a.moves.is_empty();
            if !over && !self.you.moves_at(self.first_side(ply)) {
                if ply >= self.max_plies {
                    writeln!(out, "stopped after {ply} plies (see --max-plies)")?;
                    return Ok(());
                }
                let best = &a.moves[0];
                writeln!(
                    out,
                    "the perfect player plays {}",
                    printable(&best.name, false)
                )?;
                self.history.push(best.to);
                continue;
            }
            if over && self.you == You::None {
                return Ok(());
            }
            let prompt = if over {
                "u to take back, q to quit: "
            } else {
                "your move: "
            };
            let Some(said) = self.input.next(out, prompt)? else {
                return Ok(());
            };
            if !self.obey(out, &said, &a, over)? {
                return Ok(());
            }
        }
    }

    /// Carries out the command `said` at the position answered by `a`:
    /// quit (returns `false`), take back, or a move by number or name.
    fn obey(&mut self, out: &mut impl Write, said: &str, a: &Answer, over: bool) -> Result<bool> {
        match said {
            "q" | "quit" => return Ok(false),
            "u" | "undo" => self.take_back(out)?,
            "" => {}
            _ if over => writeln!(out, "the game is over: u or q")?,
            _ => match self.chosen_move(said, a) {
                Some(m) => self.history.push(m.to),
                None => writeln!(
                    out,
                    "{said:?} is not a move here: give its name or its number (#1 to #{})",
                    a.moves.len()
                )?,
            },
        }
        Ok(true)
    }

    /// Whether the side that moved first is to move at ply `ply`: the game
    /// says where it names who moves (a player who closes a box moves
    /// again); else the sides alternate.
    fn first_side(&self, ply: usize) -> bool {
        let game = self.probe.game;
        match (game.owner(self.history[0]), game.owner(self.history[ply])) {
            (Some(a), Some(b)) => a == b,
            _ => ply.is_multiple_of(2),
        }
    }

    /// Back to the last position where it was your move.
    fn take_back(&mut self, out: &mut impl Write) -> Result<()> {
        if self.history.len() > 1 {
            self.history.pop();
            while self.history.len() > 1
                && !self.you.moves_at(self.first_side(self.history.len() - 1))
            {
                self.history.pop();
            }
        } else {
            writeln!(out, "nothing to take back")?;
        }
        Ok(())
    }

    /// The move `said` names among `a`'s: its name in the game's notation
    /// first (as the page's `&move=` reads it: a graph's move named by its
    /// vertex, `3`, is the move to vertex 3), else its number in the list;
    /// `#3` is always the third in the list.
    fn chosen_move<'m>(&self, said: &str, a: &'m Answer) -> Option<&'m MoveAnswer> {
        let numbered = |text: &str| {
            text.parse::<usize>()
                .ok()
                .filter(|&k| (1..=a.moves.len()).contains(&k))
                .map(|k| &a.moves[k - 1])
        };
        if let Some(k) = said.strip_prefix('#') {
            return numbered(k);
        }
        let named = || {
            let (name, to) = self.probe.game.find_move(a.position, said)?;
            a.moves.iter().find(|m| m.name == name && m.to == to)
        };
        named().or_else(|| numbered(said))
    }
}

/// Prints the board of the position answered by `a`, reached at `ply`, its
/// value, the result if the game is over, and its moves with their values.
fn show_position(out: &mut impl Write, game: &dyn Playable, a: &Answer, ply: usize) -> Result<()> {
    let p = a.position;
    writeln!(out)?;
    // A board is lines; one without a final line break (a graph's vertex
    // name) still ends its line before the ply's.
    let board = game.board(p);
    let board = printable(&board, true);
    out.write_all(board.as_bytes())?;
    if !board.is_empty() && !board.ends_with('\n') {
        writeln!(out)?;
    }
    writeln!(
        out,
        "ply {ply}: {} to move: {}",
        printable(&game.to_move(p), false),
        a.value
    )?;
    if a.moves.is_empty() {
        let result = match a.value.outcome {
            Outcome::Win => "wins",
            Outcome::Lose => "loses",
            Outcome::Tie => "ties",
            Outcome::Draw => "draws",
        };
        match game.ending(p) {
            Some(how) => writeln!(out, "game over: {}", printable(&how, false))?,
            None => writeln!(out, "game over: {} {result}", game.to_move(p))?,
        }
    }
    for (i, m) in a.moves.iter().enumerate() {
        writeln!(
            out,
            "  {:>3}. {:<10} {:<12} {:>5}",
            i + 1,
            printable(&m.name, false),
            m.value.to_string(),
            crate::query::delta(m.delta)
        )?;
    }
    Ok(())
}

/// Commands read a line at a time from standard input.
struct Commands {
    input: std::io::StdinLock<'static>,
    /// Commands read from a pipe are echoed, so that the transcript reads
    /// as a game.
    echo: bool,
    line: Vec<u8>,
    /// Lines read so far, for messages.
    read: u64,
}

impl Commands {
    /// Commands from standard input.
    fn stdin() -> Commands {
        Commands {
            input: std::io::stdin().lock(),
            echo: !std::io::IsTerminal::is_terminal(&std::io::stdin()),
            line: Vec::new(),
            read: 0,
        }
    }

    /// Shows `prompt` and reads the next command, trimmed; `None` at the
    /// end of the input.
    ///
    /// # Errors
    /// A line that is not UTF-8, or a failed read or write.
    fn next(&mut self, out: &mut impl Write, prompt: &str) -> Result<Option<String>> {
        write!(out, "{prompt}")?;
        out.flush()?;
        self.line.clear();
        if self.input.read_until(b'\n', &mut self.line)? == 0 {
            writeln!(out)?;
            return Ok(None);
        }
        self.read += 1;
        let Ok(said) = std::str::from_utf8(&self.line) else {
            writeln!(out)?;
            out.flush()?;
            anyhow::bail!(
                "standard input, line {}: not UTF-8 text (expected a move's number or name, u or q)",
                self.read
            );
        };
        let said = said.trim();
        if self.echo {
            writeln!(out, "{said}")?;
        }
        Ok(Some(said.to_owned()))
    }
}
