//! `rookery datagen --out DIR`: self-play training data (see [`rookery::learn::datagen`]).
//!
//! Records are appended to `DIR/selfplay.bin`, and each run is logged in
//! `DIR/manifest.jsonl` (see [`rookery::learn::manifest`]); progress (games, positions,
//! positions per second, W/D/L, repeated games not written) goes to stderr every ten
//! seconds. The run stops once the file holds `--games` games, or when killed: every game
//! already written stays, and running the same command again goes on until the file holds
//! them all. The search evaluates with `--net NET`, with the hand-written evaluation under
//! `--hce`, and otherwise as the engine does by default (`Use NNUE`). A book without a
//! playable position is refused.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Duration;

use super::Outcome;
use super::args::{Args, UsageError};
use rookery::chess::Position;
use rookery::engine::build_info::GIT_COMMIT;
use rookery::engine::eval::nnue::{Network, default_network};
use rookery::hashing::checksum::fnv1a;
use rookery::input_file;
use rookery::learn::datagen::{self, DatagenConfig, playable};
use rookery::learn::manifest::{self, OpeningSource, RunEnd, RunStart};
use rookery::learn::writer::DataWriter;

/// Usage text.
pub const USAGE: &str = "\
usage: rookery datagen --out DIR [--nodes N] [--games G] [--threads T] [--seed S]
                       [--random-plies P] [--book EPD] [--net NET | --hce]
  --out DIR          appends games to DIR/selfplay.bin and logs the run in DIR/manifest.jsonl
  --nodes N          soft node limit of each move's search (default 5000): the iteration under
                     way finishes once N nodes are passed; a search stops outright at 8 N
  --games G          the games DIR/selfplay.bin is to hold in all, those already in it
                     included: a run started again after a stop plays only the games missing
                     (default: play until stopped)
  --threads T        games played at once (default 1)
  --seed S           the seed of the run's games (default 1)
  --random-plies P   random plies after the opening, one more half the time (default 8)
  --book EPD         openings drawn from a file of FENs, one a line (default: the start
                     position); positions where the game is over are left out, and a book
                     without a playable one is refused
  --net NET | --hce  evaluate with a net file, or the hand-written evaluation (default: the
                     built-in net)";

/// The data file's name inside the output directory.
pub const DATA_FILE: &str = "selfplay.bin";

const DEFAULT_NODES: u64 = 5000;
const DEFAULT_RANDOM_PLIES: usize = 8;
/// The longest opening file read (`--book`): millions of positions, one a line.
const MAX_BOOK_BYTES: u64 = 1 << 30;

/// A book's playable positions and where they came from.
struct Book {
    positions: Vec<Position>,
    source: OpeningSource,
}

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
        Some(path) => read_book(&path)?,
        None => Book {
            positions: Vec::new(),
            source: OpeningSource::StartPosition,
        },
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
    let evaluation = match &network {
        Some(net) => format!("net {:016x}", net.checksum()),
        None => "the hand-written evaluation".to_string(),
    };
    let games = args.value::<u64>("games")?;
    if games == Some(0) {
        return Err(UsageError("--games must be at least 1".into()));
    }
    let config = DatagenConfig {
        nodes: args.value("nodes")?.unwrap_or(DEFAULT_NODES).max(1),
        games,
        threads: args.value("threads")?.unwrap_or(1usize).clamp(1, 256),
        random_plies: args.value("random-plies")?.unwrap_or(DEFAULT_RANDOM_PLIES),
        seed: args.value("seed")?.unwrap_or(1),
        openings: book.positions,
        network,
    };
    // The directory is made only once everything else was accepted.
    std::fs::create_dir_all(&dir)
        .map_err(|e| UsageError(format!("cannot create {}: {e}", dir.display())))?;
    let output = dir.join(DATA_FILE);
    let writer =
        DataWriter::open(&output).map_err(|e| UsageError(format!("{}: {e}", output.display())))?;
    let (records_start, games_start) = (writer.existing_records(), writer.existing_games());
    if let Some(games) = games.filter(|&g| g <= games_start) {
        return Err(UsageError(format!(
            "{} already holds {games_start} games, --games {games} asks for {games} in all: \
             nothing to play",
            output.display()
        )));
    }
    let start = RunStart {
        time: manifest::unix_now(),
        build: rookery::engine::NAME.to_string(),
        commit: GIT_COMMIT.to_string(),
        net: config.network.as_ref().map(|net| net.checksum()),
        nodes: config.nodes,
        hard_nodes: datagen::move_limits(&config).nodes.unwrap_or(config.nodes),
        seed: config.seed,
        threads: config.threads,
        openings: book.source,
        random_plies: config.random_plies,
        games_target: games,
        records: records_start,
        games: games_start,
    };
    let manifest_error = |e: std::io::Error| {
        UsageError(format!(
            "{}: {e}",
            dir.join(manifest::MANIFEST_FILE).display()
        ))
    };
    manifest::append(&dir, &start.line()).map_err(manifest_error)?;
    eprintln!(
        "datagen: {} nodes per move (soft), {evaluation}, {} thread(s), appending to {} \
         ({records_start} records, {games_start} games there)",
        config.nodes,
        config.threads,
        output.display()
    );
    let stop = AtomicBool::new(false);
    let progress = datagen::run(&config, writer, &stop, Duration::from_secs(10), &|p, t| {
        eprintln!("{:7.0} s  {}", t.as_secs_f64(), p.summary(t));
    })
    .map_err(|e| UsageError(format!("{}: {e}", output.display())))?;
    let played = progress.games.load(Relaxed);
    let positions = progress.positions.load(Relaxed);
    let end = RunEnd {
        time: manifest::unix_now(),
        started: start.time,
        records_start,
        records_end: records_start + positions,
        games_start,
        games_end: games_start + played,
        repeats: progress.repeats.load(Relaxed),
        continuations: progress.continuations.load(Relaxed),
    };
    manifest::append(&dir, &end.line()).map_err(manifest_error)?;
    println!(
        "{played} games, {positions} positions; {} holds {} games",
        output.display(),
        end.games_end
    );
    Ok(Outcome::Success)
}

/// The playable start positions of an EPD or FEN file, one a line (fields after the fourth
/// ignored). A line that is not a legal position refuses the file, and so does a file
/// without a position where a game can be played.
fn read_book(path: &Path) -> Result<Book, UsageError> {
    let text = input_file::read_text(path, MAX_BOOK_BYTES, "an opening file")
        .map_err(|e| UsageError(format!("cannot read {}: {e}", path.display())))?;
    let bytes = text.as_bytes();
    let mut positions = Vec::new();
    let mut over = 0;
    for (i, line) in text.lines().enumerate() {
        let fields: Vec<&str> = line.split_whitespace().take(4).collect();
        if fields.is_empty() {
            continue;
        }
        let fen = format!("{} 0 1", fields.join(" "));
        let pos = Position::from_fen(&fen, false)
            .map_err(|e| UsageError(format!("{}:{}: {e}", path.display(), i + 1)))?;
        if playable(&pos) {
            positions.push(pos);
        } else {
            over += 1;
        }
    }
    if positions.is_empty() {
        return Err(UsageError(format!(
            "{}: no playable position ({over} where the game is over)",
            path.display()
        )));
    }
    if over > 0 {
        eprintln!(
            "datagen: {}: {over} positions where the game is over left out",
            path.display()
        );
    }
    Ok(Book {
        source: OpeningSource::Book {
            path: path.display().to_string(),
            checksum: fnv1a(bytes),
            positions: positions.len(),
        },
        positions,
    })
}
