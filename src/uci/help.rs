//! The answer to `help`: what the engine is, and every command it understands, one line
//! each, for a person typing at it (a GUI never sends `help`).

use crate::engine::NAME;

/// Every command the engine understands, as typed, and what it does.
pub const COMMANDS: &[(&str, &str)] = &[
    ("uci", "the engine's name and options, then uciok"),
    ("isready", "readyok, at once, even during a search"),
    (
        "setoption name N [value V]",
        "sets an option (uci lists them)",
    ),
    ("ucinewgame", "a new game: tables and histories emptied"),
    (
        "position startpos|fen FEN [moves M...]",
        "the position to search",
    ),
    ("go [LIMITS]", "searches, then bestmove (LIMITS below)"),
    ("go perft N", "leaf counts to depth N, by root move"),
    ("stop", "ends the search: bestmove at once"),
    (
        "ponderhit",
        "the pondered move was played: on the clock now",
    ),
    ("quit", "exits"),
    ("debug on|off", "accepted, without effect"),
    (
        "bench [DEPTH]",
        "the bench; its node count is the signature",
    ),
    ("d", "the board, its FEN, key and checkers"),
    ("eval", "the evaluation term by term"),
    ("compiler", "how the binary was built"),
    ("help", "this list"),
];

/// The limits `go` takes.
const LIMITS: &str =
    "searchmoves M... ponder wtime btime winc binc movestogo depth nodes mate movetime infinite";

/// The lines of the answer: who the engine is, the commands, `go`'s limits, and where the
/// tools are listed.
pub fn lines() -> Vec<String> {
    let width = COMMANDS.iter().map(|(c, _)| c.len()).max().unwrap_or(0);
    let mut lines = vec![
        format!("{NAME}: a chess engine that speaks UCI, the Universal Chess Interface."),
        "It reads one command a line (a chess GUI sends them) and understands:".to_string(),
    ];
    lines.extend(
        COMMANDS
            .iter()
            .map(|(command, what)| format!("  {command:width$}  {what}")),
    );
    lines.push(format!("LIMITS: {LIMITS}"));
    lines.push("`rookery help` on the command line lists its tools.".to_string());
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uci::parse::{Command, parse_command};

    /// The word that starts `command`, for every command the parser knows: a new command
    /// does not compile here until it has one.
    fn keyword(command: &Command) -> Option<&'static str> {
        Some(match command {
            Command::Empty | Command::Unknown(_) => return None,
            Command::Uci => "uci",
            Command::IsReady => "isready",
            Command::Debug => "debug",
            Command::SetOption(_) => "setoption",
            Command::NewGame => "ucinewgame",
            Command::Position(_) => "position",
            Command::Go(_) => "go",
            Command::Perft(_) => "go perft",
            Command::Stop => "stop",
            Command::PonderHit => "ponderhit",
            Command::Quit => "quit",
            Command::Display => "d",
            Command::Eval => "eval",
            Command::Compiler => "compiler",
            Command::Bench(_) => "bench",
            Command::Help => "help",
        })
    }

    /// Whether `typed` is `word` or starts with it and a space.
    fn begins_with(typed: &str, word: &str) -> bool {
        typed == word || typed.starts_with(&format!("{word} "))
    }

    #[test]
    fn every_listed_command_is_understood_and_every_understood_one_is_listed() {
        for (typed, _) in COMMANDS {
            let command = parse_command(typed);
            let word = keyword(&command).unwrap_or_else(|| panic!("'{typed}' is not understood"));
            assert!(begins_with(typed, word), "'{typed}' parses as {command:?}");
        }
        // A line of each command the parser knows (`keyword` names them all).
        for line in [
            "uci",
            "isready",
            "debug on",
            "setoption name Hash value 1",
            "ucinewgame",
            "position startpos",
            "go depth 1",
            "go perft 1",
            "stop",
            "ponderhit",
            "quit",
            "d",
            "eval",
            "compiler",
            "bench",
            "help",
        ] {
            let word = keyword(&parse_command(line)).expect(line);
            assert!(
                COMMANDS.iter().any(|(typed, _)| begins_with(typed, word)),
                "'{word}' is not in the help"
            );
        }
    }

    #[test]
    fn the_answer_is_one_line_per_command_and_four_more() {
        let lines = lines();
        assert_eq!(lines.len(), COMMANDS.len() + 4);
        assert!(lines[0].starts_with(NAME));
        assert!(lines.iter().all(|l| !l.contains('\n')));
    }
}
