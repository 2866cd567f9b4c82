//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod cli;
pub mod lines;
pub mod uci_client;

use std::path::PathBuf;

use rookery::chess::Position;
use rookery::chess::epd::{PerftCase, parse_suite};
use rookery::chess::perft::perft;

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
