//! The examples shown by `--help` and the manual page, in one place.
//!
//! Each example is a command on its own line (continued with `\` where it
//! is long) and what it does on the next, indented, so that nothing wraps
//! at 80 columns; every file an example reads ships with the repository or
//! is written by an example before it.

use std::io::Write;

/// `retrograde --help`.
pub const TOP: &str = "\
Examples:
  retrograde solve examples/graphs/chase.txt --query 7
      one position's value and best move
  retrograde solve examples/graphs/chase.txt -o - | sort -k3n
      the solution, by remoteness
  retrograde solve examples/graphs/chase.txt --json | jq .counts
      the totals, as JSON
  retrograde convert examples/graphs/chase.txt chase.rgb
      text to binary, read 10x faster
  retrograde game chess KRK --save krk.db
      keep a solution: then query, analyze, play, serve it

Data goes to standard output, summaries and progress to standard error.";

/// `retrograde grundy --help`.
pub const GRUNDY: &str = "\
Examples:
  retrograde grundy examples/graphs/chase.txt
      every position's loopy nim value: 0, 3, inf{0,2}, inf
  retrograde grundy examples/graphs/chase.txt --tokens 1,6 --tokens 3,7
      two sums of two tokens: value, outcome and a winning move
  retrograde grundy examples/graphs/chase.txt --json | jq .counts
      the totals as JSON

A position of value 0 is lost for the player to move, a positive value
or inf{...} with 0 in the set won, any other inf a draw. A sum of tokens
(a move moves one) is the xor of the finite values; with one infinite
token inf{K} it is inf{K xor the others}; with two or more, a draw.";

/// `retrograde solve --help`.
pub const SOLVE: &str = "\
Examples:
  retrograde solve examples/graphs/chase.txt
      the totals (on standard error)
  retrograde solve examples/graphs/chase.txt --query 3 --line 3
      a position's value, and best play from it
  retrograde solve examples/graphs/chase.txt -o - | sort -k3n
      the solution on standard output, by remoteness
  retrograde solve examples/graphs/chase.txt --json | jq .counts
      the totals as JSON
  retrograde solve examples/graphs/chase.txt --save chase.db
      keep the solution for query, analyze, play and serve
  retrograde convert examples/graphs/chase.txt chase.rgb
  retrograde solve chase.rgb -j 2 --stats
      a binary graph on 2 threads, time per phase
  retrograde solve examples/arenas/charger.gm --reach 2 --pgsolver -
      a PGSolver game: who reaches the vertices of priority 2, and how";

/// `retrograde convert --help`.
pub const CONVERT: &str = "\
Examples:
  retrograde convert examples/graphs/chase.txt chase.rgb
  retrograde convert chase.rgb - | head";

/// `retrograde generate --help`.
pub const GENERATE: &str = "\
Examples:
  retrograde generate -n 1000000 -m 6000000 big.rgb
  retrograde generate -n 10000 -m 30000 --acyclic dag.txt
  retrograde generate -n 10000 -m 30000 --acyclic - \\
      | retrograde solve - --json | jq .longest
  retrograde generate -n 10000 --out-degree 3 regular.rgb";

/// `retrograde verify --help`.
pub const VERIFY: &str = "\
Examples:
  retrograde solve examples/graphs/chase.txt -o sol.tsv
  retrograde verify examples/graphs/chase.txt sol.tsv
      check a solution without trusting the solver
  retrograde verify examples/graphs/chase.txt sol.tsv --json | jq .correct
  retrograde game chess KRK --save krk.db && retrograde verify krk.db
      check a database against the game it names";

/// `retrograde cop-thief --help`.
pub const COP_THIEF: &str = "\
Examples:
  retrograde cop-thief examples/boards/walls100.txt --stats
  retrograde cop-thief examples/boards/museum.txt --map --svg map.svg";

/// `retrograde export --help`.
pub const EXPORT: &str = "\
Examples:
  retrograde export cop-thief examples/boards/museum.txt -o museum.txt \\
      --terminal museum-terminal.txt
  retrograde solve museum.txt --terminal museum-terminal.txt
      the same game solved as an explicit graph";

/// `retrograde query --help`.
pub const QUERY: &str = "\
Examples:
  retrograde game chess KRK --save krk.db
  retrograde query krk.db '8/8/8/8/8/2k5/8/R1K5 w - - 0 1'
  retrograde solve examples/graphs/chase.txt --save chase.db
  retrograde query chase.db 0 7 --json";

/// `retrograde analyze --help`.
pub const ANALYZE: &str = "\
Examples:
  retrograde game chess KRK --save krk.db
  retrograde analyze krk.db
  retrograde analyze krk.db --svg krk.svg
  retrograde analyze krk.db --json | jq .longest";

/// `retrograde play --help`.
pub const PLAY: &str = "\
Examples:
  retrograde game tic-tac-toe --save ttt.db && retrograde play ttt.db
  retrograde game chess KRK --save krk.db
  retrograde play krk.db --you second \\
      --position '8/8/8/8/8/2k5/8/R1K5 w - - 0 1'
  retrograde game dobutsu --save dobutsu.db
  retrograde play dobutsu.db --watch --max-plies 40";

/// `retrograde serve --help`.
pub const SERVE: &str = "\
Examples:
  retrograde game tic-tac-toe --save ttt.db && retrograde serve ttt.db
      then open http://127.0.0.1:8080/
  retrograde serve examples/graphs/chase.txt --port 8000
      a graph: solved first, its solve animated";

/// `retrograde completions --help`.
pub const COMPLETIONS: &str = "\
Examples:
  retrograde completions bash \\
      > ~/.local/share/bash-completion/completions/retrograde
  retrograde completions zsh > ~/.zfunc/_retrograde";

/// `retrograde man --help`.
pub const MAN: &str = "\
Example:
  retrograde man > retrograde.1 && man ./retrograde.1";

/// The manual page, from the same definitions as `--help`: one page, the
/// subcommands as sections of it (named in COMMANDS, which points to them,
/// not to pages of their own), each with its examples.
pub fn man(cmd: &clap::Command, out: &mut dyn Write) -> std::io::Result<()> {
    let man = clap_mangen::Man::new(cmd.clone());
    man.render_title(out)?;
    man.render_name_section(out)?;
    man.render_synopsis_section(out)?;
    man.render_description_section(out)?;
    man.render_options_section(out)?;
    writeln!(out, ".SH COMMANDS")?;
    for sub in cmd.get_subcommands() {
        let name = sub.get_name();
        let about = sub.get_about().map(|a| a.to_string()).unwrap_or_default();
        writeln!(out, ".TP\n\\fBretrograde {}\\fR", roff(name))?;
        writeln!(
            out,
            "{} (section RETROGRADE {} below)",
            roff(&about),
            roff(&name.to_uppercase())
        )?;
    }
    if let Some(text) = cmd.get_after_help() {
        verbatim(out, "EXAMPLES", examples(&text.to_string()))?;
    }
    for sub in cmd.get_subcommands() {
        writeln!(
            out,
            ".SH \"RETROGRADE {}\"",
            roff(&sub.get_name().to_uppercase())
        )?;
        let man = clap_mangen::Man::new(sub.clone());
        man.render_description_section(out)?;
        man.render_options_section(out)?;
        if let Some(text) = sub.get_after_help() {
            verbatim(out, "", &text.to_string())?;
        }
    }
    Ok(())
}

/// An examples block without its `Examples:` line, under a heading that says it.
fn examples(text: &str) -> &str {
    text.strip_prefix("Examples:\n").unwrap_or(text)
}

/// `text` as it is (no filling), under heading `title` if there is one.
fn verbatim(out: &mut dyn Write, title: &str, text: &str) -> std::io::Result<()> {
    if !title.is_empty() {
        writeln!(out, ".SH {title}")?;
    }
    writeln!(out, ".PP\n.nf")?;
    for line in text.lines() {
        writeln!(out, "{}", roff(line))?;
    }
    writeln!(out, ".fi")
}

/// Text escaped for roff: backslashes doubled, and a line that would start
/// with a control character (`.` or `'`) kept as text.
fn roff(text: &str) -> String {
    let text = text.replace('\\', "\\\\").replace('-', "\\-");
    if text.starts_with(['.', '\'']) {
        format!("\\&{text}")
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every example block, as `--help` prints it.
    const ALL: [&str; 14] = [
        TOP,
        SOLVE,
        GRUNDY,
        CONVERT,
        GENERATE,
        VERIFY,
        COP_THIEF,
        EXPORT,
        QUERY,
        ANALYZE,
        PLAY,
        SERVE,
        COMPLETIONS,
        MAN,
    ];

    /// The help of every built-in game of the registry, beside the tool's own.
    fn all() -> Vec<String> {
        let games = retrograde_games::registry();
        let entries = games.entries().iter().map(|e| e.long_help().to_string());
        ALL.iter().map(|s| s.to_string()).chain(entries).collect()
    }

    #[test]
    fn examples_fit_in_80_columns() {
        for block in all() {
            // Prose is wrapped by clap; examples are not, and must fit.
            for line in block.lines().filter(|l| l.starts_with("  ")) {
                assert!(line.chars().count() < 80, "too wide: {line:?}");
            }
        }
    }

    #[test]
    fn examples_read_only_files_the_repository_ships_or_an_example_writes() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
        for block in all() {
            for word in block.split_whitespace() {
                if word.starts_with("examples/") {
                    let path = std::path::Path::new(root).join(word);
                    assert!(path.exists(), "{word} is not in the repository");
                }
            }
        }
    }
}
