//! `rookery datagen --out DIR`: parses the command line into a datagen
//! [`Session`](rookery::learn::data::session::Session) and runs it (see
//! [`rookery::learn::data::datagen`] for the games, [`rookery::learn::data::session`] for the
//! run and its manifest); progress (games, training positions, positions per second, W/D/L,
//! repeated games not written) goes to stderr every ten seconds. The search evaluates with `--net
//! NET`, with the hand-written evaluation under `--hce`, and otherwise as the engine does by
//! default (`Use NNUE`). A book without a playable position is refused, and so are settings
//! that make no opening and a manifest `rookery data` refuses. A run that stops because its
//! settings make no new games says why in a line on stderr, and exits with status 1.

use std::path::PathBuf;
use std::sync::Arc;

use super::Outcome;
use super::args::{Args, UsageError, threads};
use super::output::{note, out};
use rookery::engine::eval::nnue::{Network, default_network};
use rookery::learn::data::datagen::DatagenConfig;
use rookery::learn::data::session::{Book, Session};

/// Usage text.
pub const USAGE: &str = "\
usage: rookery datagen --out DIR [--nodes N] [--games G] [--threads T] [--seed S]
                       [--random-plies P] [--book EPD] [--net NET | --hce]
  --out DIR          appends games to DIR/selfplay.games and logs the run in
                     DIR/manifest.jsonl (rookery data DIR checks them)
  --nodes N          soft node limit of each move's search (default 2500): the iteration under
                     way finishes once N nodes are passed; a search stops outright at 8 N
  --games G          the games DIR is to hold in all, those already in it included (the
                     records of an older DIR/selfplay.bin too): a run started again after a
                     stop plays only the games missing (default: play until stopped)
  --threads T        games played at once, 1 to 256 (default 1)
  --seed S           the seed of the run's games (default 1)
  --random-plies P   random plies after the opening, one more half the time (default 8)
  --book EPD         openings drawn from a file of FENs, one a line (default: the start
                     position); positions where the game is over are left out, and a book
                     without a playable one, or with Chess960 castling rights, is refused
  --net NET | --hce  evaluate with a net file, or the hand-written evaluation (default: the
                     built-in net)";

const DEFAULT_NODES: u64 = 2500;
const DEFAULT_RANDOM_PLIES: usize = 8;

/// Runs `rookery datagen` with the words after `datagen`.
pub fn run(words: &[String]) -> Result<Outcome, UsageError> {
    let args = Args::parse(
        words,
        &[
            "out",
            "nodes",
            "games",
            "threads",
            "seed",
            "random-plies",
            "book",
            "net",
        ],
        &["hce"],
    )?;
    if let Some(word) = args.positional.first() {
        return Err(UsageError(format!("unexpected '{word}'\n{USAGE}")));
    }
    let Some(dir) = args.value::<PathBuf>("out")? else {
        return Err(UsageError(format!("--out DIR is required\n{USAGE}")));
    };
    let book = match args.value::<PathBuf>("book")? {
        Some(path) => {
            let book = Book::read(&path).map_err(|e| UsageError(e.0))?;
            if book.left_out > 0 {
                note!(
                    "datagen: {}: {} positions where the game is over left out",
                    path.display(),
                    book.left_out
                );
            }
            book
        }
        None => Book::start_position(),
    };
    let network = match (args.value::<PathBuf>("net")?, args.switch("hce")) {
        (Some(_), true) => return Err(UsageError("--net and --hce exclude each other".into())),
        (Some(path), false) => {
            let net = Network::read_file(&path)
                .map_err(|e| UsageError(format!("{}: {e}", path.display())))?;
            Some(Arc::new(net))
        }
        (None, true) => None,
        (None, false) => Some(default_network()),
    };
    let games = args.value::<u64>("games")?;
    if games == Some(0) {
        return Err(UsageError("--games must be at least 1".into()));
    }
    let nodes = args.value::<u64>("nodes")?.unwrap_or(DEFAULT_NODES);
    if nodes == 0 {
        return Err(UsageError("--nodes must be at least 1".into()));
    }
    let session = Session {
        config: DatagenConfig {
            nodes,
            games,
            threads: threads(&args)?,
            random_plies: args.value("random-plies")?.unwrap_or(DEFAULT_RANDOM_PLIES),
            seed: args.value("seed")?.unwrap_or(1),
            openings: book.positions,
            network,
        },
        openings: book.source,
        dir,
    };
    // The directory is made only once everything else was accepted.
    let generated = session
        .run(&|line| note!("{line}"))
        .map_err(|e| UsageError(e.0))?;
    out!(
        "{} games, {} positions; {} holds {} games",
        generated.games,
        generated.positions,
        session.dir.display(),
        generated.games_in_dir
    );
    if let Some(stopped) = generated.stopped {
        note!("datagen: stopped: {stopped}");
        return Ok(Outcome::Failure);
    }
    Ok(Outcome::Success)
}
