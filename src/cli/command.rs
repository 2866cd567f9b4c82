//! What a tool is to the command line: its entry in [`COMMANDS`](super::COMMANDS), and
//! what a run of it ends with.

use std::process::ExitCode;

use super::args::UsageError;

/// A tool of the command line.
pub struct Command {
    /// Its name, the first argument that runs it.
    pub name: &'static str,
    /// What it does, in one line, for `rookery help`.
    pub synopsis: &'static str,
    /// Its usage: the command lines it takes and its options, for `rookery TOOL --help`.
    pub usage: fn() -> String,
    /// Runs it with the arguments after its name.
    pub run: fn(&[String]) -> Result<Outcome, UsageError>,
}

/// What a tool run ended with.
pub enum Outcome {
    /// Everything checked out (exit 0).
    Success,
    /// A check failed (exit 1).
    Failure,
}

impl From<Outcome> for ExitCode {
    fn from(outcome: Outcome) -> ExitCode {
        match outcome {
            Outcome::Success => ExitCode::SUCCESS,
            Outcome::Failure => ExitCode::from(1),
        }
    }
}
