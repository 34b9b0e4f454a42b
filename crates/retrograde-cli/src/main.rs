//! `retrograde`: the command line over the library's built-in games (see
//! the `retrograde_cli` library for a program of one's own games).

fn main() -> std::process::ExitCode {
    retrograde_cli::main_with(retrograde_games::registry())
}
