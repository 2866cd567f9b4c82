//! `rookery`: command-line dispatch. Without a command it is the UCI engine; each tool
//! (`bench`, `book`, `datagen`, `data`, `train`, `net`, `perft`, `hashcheck`, `hash`, `hashstats`,
//! `spsa`) is a module of [`cli`], this binary's own.

mod cli;

use std::process::ExitCode;

use cli::{Outcome, args::UsageError};

const USAGE: &str = "\
rookery: a UCI chess engine

usage: rookery                 the UCI engine (reads commands on stdin)
       rookery 'UCI COMMAND'...  runs each UCI command in turn to its end, then exits
                               (rookery 'setoption name Hash value 64' bench quit);
                               a command refused stops there and exits 1
       rookery --version       the engine's name and version
       rookery bench [DEPTH]   fixed-depth search of the bench positions
       rookery book FILE [FEN] [--chess960]   a position's Polyglot book entries
       rookery datagen --out DIR [--nodes N] [--games G] [--threads T] [--seed S]
                       [--random-plies P] [--book EPD] [--net NET | --hce]
                               (--nodes: soft limit per move; --games: total in DIR)
       rookery data PATH...    checks data files and directories: format, positions, games,
                               results, distinct games, the manifest; a fault exits 2
       rookery data import GAMES.pgn... --out DIR   fastchess/cutechess PGN into game data
       rookery train DATA... --out NET [--epochs E] [--batch B] [--lr R] [--wdl W] [--val F]
                     [--weight-decay D] [--threads T] [--seed S] [--mirror-files] [--resume]
                     [--init NET] [--hidden N] [--activation crelu|screlu]
                     [--output-buckets N] [--king-mirror] [--king-buckets K]
       rookery net NET [--epd FILE] [--scale PCT --out OUT]   a net's checksum and shape,
                               its mean |evaluation| over FILE, a copy with its scores scaled
       rookery perft DEPTH [FEN] [--chess960] [--hash MB]
       rookery perft --epd FILE [--max-depth D] [--chess960] [--hash MB]
       rookery hashcheck [--epd FILE] [--depth D] [--games N] [--seed S] [--plies P]
       rookery hash gomoku (--size N | --rect WxH) [MOVE...]  |  rookery hash hive GAMESTRING
       rookery hashstats chess|gomoku|hive [OPTIONS]   (without a game: its options)
       rookery spsa            the tunables in OpenBench's SPSA format (a `tune` build only)";

fn main() -> ExitCode {
    rookery::logging::init();
    let words: Vec<String> = std::env::args().skip(1).collect();
    let result: Result<Outcome, UsageError> = match words.first().map(String::as_str) {
        Some("perft") => cli::perft::run(&words[1..]),
        Some("hashcheck") => cli::hashcheck::run(&words[1..]),
        Some("hash") => cli::hash::run(&words[1..]),
        Some("hashstats") => cli::hashstats::run(&words[1..]),
        Some("bench") => cli::bench::run(&words[1..]),
        Some("book") => cli::book::run(&words[1..]),
        Some("datagen") => cli::datagen::run(&words[1..]),
        Some("data") => cli::data::run(&words[1..]),
        Some("train") => cli::train::run(&words[1..]),
        Some("net") => cli::net::run(&words[1..]),
        Some("spsa") => cli::spsa::run(&words[1..]),
        None => {
            rookery::uci::run_stdio();
            Ok(Outcome::Success)
        }
        Some("--version" | "-V" | "version") => {
            cli::output::out!("{}", rookery::engine::build_info::version_text());
            Ok(Outcome::Success)
        }
        Some("help" | "--help" | "-h") => {
            cli::output::out!("{USAGE}");
            Ok(Outcome::Success)
        }
        // UCI commands as arguments (as OpenBench runs an engine): each in order, to its
        // end; a command refused ends the run with a failure.
        Some(_) if cli::genfens::asked(&words) => cli::genfens::run(&words),
        Some(first) if rookery::uci::is_command(first) => {
            Ok(if rookery::uci::run_commands(&words) {
                Outcome::Success
            } else {
                Outcome::Failure
            })
        }
        Some(other) => Err(UsageError(format!("unknown command '{other}'\n{USAGE}"))),
    };
    match result {
        Ok(outcome) => outcome.into(),
        Err(e) => {
            eprintln!("rookery: {e}");
            ExitCode::from(2)
        }
    }
}
