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
use super::args::{Args, MAX_THREADS, UsageError, misuse, threads};
use super::output::{note, out};
use rookery::engine::eval::nnue::{Network, default_network};
use rookery::learn::data::datagen::DatagenConfig;
use rookery::learn::data::session::{Book, Session};

/// The most random plies an opening takes. Random moves soon leave one side lost: after a
/// hundred, about three positions in ten are even in material and one game in thirty is
/// already over, so the opening search turns most of them away and an opening takes a few
/// tries; beyond that it takes ever more, and after a thousand failed tries an opening
/// falls back to the start position.
pub const MAX_RANDOM_PLIES: usize = 100;

/// The largest soft node limit of a move: a billion nodes, a quarter of an hour's search at
/// a million nodes a second, is beyond any data run.
pub const MAX_NODES: u64 = 1_000_000_000;

/// Usage text.
pub fn usage() -> String {
    format!(
        "usage: rookery datagen --out DIR [--nodes N] [--games G] [--threads T] [--seed S]
                       [--random-plies P] [--book EPD] [--net NET | --hce]
  --out DIR          appends games to DIR/selfplay.games and logs the run in
                     DIR/manifest.jsonl (rookery data DIR checks them)
  --nodes N          soft node limit of each move's search, 1 to {MAX_NODES} (default
                     {DEFAULT_NODES}): the iteration under way finishes once N nodes are passed; a
                     search stops outright at 8 N
  --games G          the games DIR is to hold in all, at least 1, those already in it
                     included (the records of an older DIR/selfplay.bin too): a run started
                     again after a stop plays only the games missing (default: play until
                     stopped)
  --threads T        games played at once, 1 to {MAX_THREADS} (default 1)
  --seed S           the seed of the run's games, 0 to {max_seed} (default 1)
  --random-plies P   random plies after the opening, one more half the time, 0 to
                     {MAX_RANDOM_PLIES} (default {DEFAULT_RANDOM_PLIES})
  --book EPD         openings drawn from a file of FENs, one a line (default: the start
                     position); positions where the game is over are left out, and a book
                     without a playable one, or with Chess960 castling rights, is refused
  --net NET | --hce  evaluate with a net file, or the hand-written evaluation (default: the
                     built-in net)",
        max_seed = u64::MAX
    )
}

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
    args.no_positional("datagen")?;
    let Some(dir) = args.value::<PathBuf>("out")? else {
        return Err(misuse("datagen", "--out DIR is required"));
    };
    let nodes = args.number("nodes", 1..=MAX_NODES, DEFAULT_NODES)?;
    let games = args.optional_number("games", 1..=u64::MAX)?;
    let threads = threads(&args)?;
    let seed = args.number("seed", 0..=u64::MAX, 1)?;
    let random_plies = args.number("random-plies", 0..=MAX_RANDOM_PLIES, DEFAULT_RANDOM_PLIES)?;
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
    let session = Session {
        config: DatagenConfig {
            nodes,
            games,
            threads,
            random_plies,
            seed,
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
