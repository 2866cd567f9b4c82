//! `rookery`: command-line dispatch. Without a command it is the UCI engine; with one it
//! runs a tool of [`cli::COMMANDS`], this binary's own, or the UCI commands given as
//! arguments.

mod cli;

use std::process::ExitCode;

use cli::{Outcome, args::UsageError};

fn main() -> ExitCode {
    rookery::logging::init();
    let words: Vec<String> = std::env::args().skip(1).collect();
    let result: Result<Outcome, UsageError> = match words.first().map(String::as_str) {
        None => {
            rookery::uci::run_stdio();
            Ok(Outcome::Success)
        }
        Some("--version" | "-V" | "version") => cli::version(&words[1..]),
        Some("help" | "--help" | "-h") => cli::help(&words[1..]),
        Some(name) if let Some(command) = cli::find(name) => cli::run(command, &words[1..]),
        Some(_) if cli::genfens::asked(&words) => cli::genfens::run(&words),
        // UCI commands as arguments (as OpenBench runs an engine), read as lines of input;
        // a command refused ends the run with a failure.
        Some(first) if rookery::uci::is_command(first) => {
            Ok(if rookery::uci::run_commands(&words) {
                Outcome::Success
            } else {
                Outcome::Failure
            })
        }
        Some(other) => Err(cli::unknown(other)),
    };
    match result {
        Ok(outcome) => outcome.into(),
        Err(e) => {
            cli::output::write_stderr(format_args!("rookery: {e}\n"));
            ExitCode::from(2)
        }
    }
}
