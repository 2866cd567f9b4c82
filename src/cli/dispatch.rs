//! What the command line does with the table of tools, [`COMMANDS`]: `rookery TOOL ...`
//! runs a tool from it, `rookery help` lists it, and `rookery TOOL --help` (or `-h`) prints a
//! tool's usage from it.

use super::COMMANDS;
use super::args::UsageError;
use super::command::{Command, Outcome};
use super::output::out;

/// What `rookery help` prints above the list of tools.
const HEADER: &str = "\
rookery: a UCI chess engine

usage: rookery                    the UCI engine, reading commands on stdin
       rookery 'UCI COMMAND'...   runs each UCI command in turn to its end, then exits
                                  (rookery 'setoption name Hash value 64' bench quit);
                                  a command refused stops there and exits 1
       rookery --version          the engine's name and version
       rookery help [TOOL]        this list, or a tool's usage
       rookery TOOL --help        a tool's usage
       rookery TOOL [ARGS...]     runs a tool:

tools:";

/// The tool called `name`.
pub fn find(name: &str) -> Option<&'static Command> {
    COMMANDS.iter().find(|command| command.name == name)
}

/// Runs `command` with `words`; a `--help` or `-h` among them prints its usage instead.
pub fn run(command: &Command, words: &[String]) -> Result<Outcome, UsageError> {
    if words.iter().any(|word| word == "--help" || word == "-h") {
        out!("{}", (command.usage)());
        return Ok(Outcome::Success);
    }
    (command.run)(words)
}

/// `rookery help [TOOL]`: the list of tools, or one tool's usage.
pub fn help(words: &[String]) -> Result<Outcome, UsageError> {
    match words {
        [] => {
            out!("{HEADER}");
            let width = COMMANDS.iter().map(|c| c.name.len()).max().unwrap_or(0);
            for command in COMMANDS {
                out!("  {:width$}  {}", command.name, command.synopsis);
            }
            Ok(Outcome::Success)
        }
        [name] => match find(name) {
            Some(command) => {
                out!("{}", (command.usage)());
                Ok(Outcome::Success)
            }
            None => Err(UsageError(format!(
                "no tool is called '{name}' (rookery help lists the tools)"
            ))),
        },
        [_, stray, ..] => Err(UsageError(format!(
            "help takes one tool at most, got '{stray}'"
        ))),
    }
}

/// `rookery --version`: the engine's name and version; it takes no argument.
pub fn version(words: &[String]) -> Result<Outcome, UsageError> {
    if let Some(stray) = words.first() {
        return Err(UsageError(format!(
            "--version takes no argument, got '{stray}'"
        )));
    }
    out!("{}", rookery::engine::build_info::version_text());
    Ok(Outcome::Success)
}

/// The refusal of a first argument that names no tool and no UCI command.
pub fn unknown(name: &str) -> UsageError {
    UsageError(format!(
        "unknown command '{name}' (rookery help lists the commands)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_has_one_name_and_a_usage_that_starts_with_it() {
        for (i, command) in COMMANDS.iter().enumerate() {
            assert!(
                COMMANDS[..i].iter().all(|c| c.name != command.name),
                "{} twice",
                command.name
            );
            let usage = (command.usage)();
            assert!(
                usage.starts_with(&format!("usage: rookery {}", command.name)),
                "{usage}"
            );
            assert!(!command.synopsis.contains('\n'), "{}", command.name);
            assert!(find(command.name).is_some());
        }
        assert!(find("frobnicate").is_none());
    }
}
