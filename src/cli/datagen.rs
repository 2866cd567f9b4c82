//! `rookery datagen --out DIR`: self-play training data (see [`rookery::learn::datagen`]).
//!
//! Records are appended to `DIR/selfplay.bin`; progress (games, positions, positions per
//! second, W/D/L) goes to stderr every ten seconds. The run stops after `--games` games, or
//! when killed: every game already written stays, and running the same command again goes
//! on where it stopped. The search evaluates with `--net NET`, with the hand-written
//! evaluation under `--hce`, and otherwise as the engine does by default (`Use NNUE`).

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::Outcome;
use super::args::{Args, UsageError};
use rookery::chess::Position;
use rookery::engine::eval::nnue::{Network, default_network};
use rookery::learn::datagen::{self, DatagenConfig};

/// Usage text.
pub const USAGE: &str = "usage: rookery datagen --out DIR [--nodes N] [--games G] [--threads T] \
[--seed S] [--random-plies P] [--book EPD] [--net NET | --hce]";

/// The data file's name inside the output directory.
pub const DATA_FILE: &str = "selfplay.bin";

const DEFAULT_NODES: u64 = 5000;
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
    let openings = match args.value::<PathBuf>("book")? {
        Some(path) => read_openings(&path)?,
        None => Vec::new(),
    };
    let network = match (args.value::<PathBuf>("net")?, args.switch("hce")) {
        (Some(_), true) => return Err(UsageError("--net and --hce exclude each other".into())),
        (Some(path), false) => {
            let bytes = std::fs::read(&path)
                .map_err(|e| UsageError(format!("cannot read {}: {e}", path.display())))?;
            let net = Network::from_bytes(&bytes)
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
    // The directory is made only once everything else was accepted.
    std::fs::create_dir_all(&dir)
        .map_err(|e| UsageError(format!("cannot create {}: {e}", dir.display())))?;
    let config = DatagenConfig {
        output: dir.join(DATA_FILE),
        nodes: args.value("nodes")?.unwrap_or(DEFAULT_NODES).max(1),
        games: args.value("games")?,
        threads: args.value("threads")?.unwrap_or(1usize).clamp(1, 256),
        random_plies: args.value("random-plies")?.unwrap_or(DEFAULT_RANDOM_PLIES),
        seed: args.value("seed")?.unwrap_or(1),
        openings,
        network,
    };
    eprintln!(
        "datagen: {} nodes per move, {evaluation}, {} thread(s), appending to {}",
        config.nodes,
        config.threads,
        config.output.display()
    );
    let stop = AtomicBool::new(false);
    let progress = datagen::run(&config, &stop, Duration::from_secs(10), &|p, t| {
        eprintln!("{:7.0} s  {}", t.as_secs_f64(), p.summary(t));
    })
    .map_err(|e| UsageError(format!("{}: {e}", config.output.display())))?;
    println!(
        "{} games, {} positions",
        progress.games.into_inner(),
        progress.positions.into_inner()
    );
    Ok(Outcome::Success)
}

/// Start positions from an EPD or FEN file, one a line (fields after the fourth ignored).
fn read_openings(path: &std::path::Path) -> Result<Vec<Position>, UsageError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| UsageError(format!("cannot read {}: {e}", path.display())))?;
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let fields: Vec<&str> = line.split_whitespace().take(4).collect();
        if fields.is_empty() {
            continue;
        }
        let fen = format!("{} 0 1", fields.join(" "));
        let pos = Position::from_fen(&fen, false)
            .map_err(|e| UsageError(format!("{}:{}: {e}", path.display(), i + 1)))?;
        openings.push(pos);
    }
    if openings.is_empty() {
        return Err(UsageError(format!("{}: no positions", path.display())));
    }
    Ok(openings)
}
