//! `rookery bench [DEPTH]`: the engine's node-count signature and speed.

use super::Outcome;
use super::args::{UsageError, misuse, number};
use super::output::out;
use rookery::engine::bench;
use rookery::engine::eval::nnue::default_network;
use rookery::engine::search::Signals;

/// Usage text.
pub fn usage() -> String {
    format!(
        "usage: rookery bench [DEPTH]
  searches the {} bench positions to DEPTH, 1 to {} (default {}); the last line,
  `N nodes M nps`, gives the engine's signature N",
        bench::POSITIONS.len(),
        bench::MAX_BENCH_DEPTH,
        bench::DEFAULT_DEPTH
    )
}

/// Runs `rookery bench` with the words after `bench`.
pub fn run(words: &[String]) -> Result<Outcome, UsageError> {
    let depth = match words {
        [] => bench::DEFAULT_DEPTH,
        [depth] => number(depth, "bench depth", 1..=bench::MAX_BENCH_DEPTH)?,
        [_, stray, ..] => return Err(misuse("bench", format!("unexpected '{stray}'"))),
    };
    let never_stopped = Signals::default();
    let result = bench::run(
        depth,
        Some(default_network()),
        &never_stopped,
        |i, fen, nodes| {
            eprintln!(
                "position {i:2}/{}: {nodes:>10} nodes  {fen}",
                bench::POSITIONS.len()
            );
        },
    )
    .expect("nothing stops the command-line bench");
    eprintln!("time {:.3} s", result.time.as_secs_f64());
    out!("{} nodes {} nps", result.nodes, result.nps());
    Ok(Outcome::Success)
}
