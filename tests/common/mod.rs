//! Helpers shared by the integration tests: each test crate (`tests/uci`, `tests/cli`,
//! `tests/engine`, `tests/hashing`, `tests/games`) includes this module.
#![allow(dead_code)]

pub mod build_name;
pub mod cli;
pub mod lines;
pub mod markdown;
pub mod uci_client;

use std::path::{Path, PathBuf};

use rookery::chess::Position;
use rookery::chess::epd::{PerftCase, parse_suite};
use rookery::chess::perft::perft;
use rookery::engine::eval::nnue::{Architecture, Network};
use rookery::learn::fit::model::Model;

/// A fresh, empty directory of cargo's for tests, for one test: `NAME` must be unique
/// within the test crate.
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A file holding `bytes` in cargo's directory for tests, for one test: `NAME` must be
/// unique within the test crate.
pub fn scratch_file(name: &str, bytes: &[u8]) -> PathBuf {
    let path =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{}-{name}", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    path
}

/// A net of shape `arch` with random weights, the same for the same seed.
pub fn random_net(arch: Architecture, seed: u64) -> Network {
    Model::new(arch, seed).quantise()
}

/// The network's evaluation for the side to move, in internal units, from the lines a UCI
/// `eval` prints: the number before "units for the side to move" on its `NNUE evaluation`
/// line; `None` without one.
pub fn nnue_evaluation<'a>(lines: impl IntoIterator<Item = &'a str>) -> Option<i32> {
    lines
        .into_iter()
        .find(|l| l.starts_with("NNUE evaluation"))
        .and_then(|l| l.strip_suffix(" units for the side to move"))
        .and_then(|l| l.rsplit(", ").next())
        .and_then(|n| n.parse().ok())
}

/// A suite from the project's `perft/` folder.
pub fn suite(name: &str) -> Vec<PerftCase> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("perft")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse_suite(&text).expect("suite parses")
}

/// Runs every case of `cases` to `max_depth`, returning one message per wrong count.
/// Also returns how many (position, depth) counts were compared, so callers can assert that
/// the run really checked something.
pub fn run_suite(cases: &[PerftCase], max_depth: u32) -> (usize, Vec<String>) {
    let mut compared = 0;
    let mut failures = Vec::new();
    for case in cases {
        let mut pos = Position::from_fen(&case.fen, false).expect("suite FEN is valid");
        for &(depth, expected) in case.counts.iter().filter(|(d, _)| *d <= max_depth) {
            compared += 1;
            let got = perft(&mut pos, depth);
            if got != expected {
                failures.push(format!(
                    "line {} D{depth}: expected {expected}, got {got}",
                    case.line
                ));
            }
        }
    }
    (compared, failures)
}
