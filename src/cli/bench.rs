//! `rookery bench [DEPTH]`: the engine's node-count signature and speed.

use super::Outcome;
use super::args::{UsageError, number};
use rookery::engine::bench;
use rookery::engine::eval::nnue::default_network;

/// Runs `rookery bench` with the words after `bench`.
pub fn run(words: &[String]) -> Result<Outcome, UsageError> {
    let depth = match words {
        [] => bench::DEFAULT_DEPTH,
        [depth] => number::<u32>(depth, "DEPTH")?.clamp(1, 30),
        _ => return Err(UsageError("usage: rookery bench [DEPTH]".into())),
    };
    let result = bench::run(depth, Some(default_network()), |i, fen, nodes| {
        eprintln!(
            "position {i:2}/{}: {nodes:>10} nodes  {fen}",
            bench::POSITIONS.len()
        );
    });
    eprintln!("time {:.3} s", result.time.as_secs_f64());
    println!("{} nodes {} nps", result.nodes, result.nps());
    Ok(Outcome::Success)
}
