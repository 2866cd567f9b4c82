//! `rookery bench [DEPTH]`: the engine's node-count signature and speed.

use super::Outcome;
use super::args::{UsageError, number};
use super::output::out;
use rookery::engine::bench;
use rookery::engine::eval::nnue::default_network;
use rookery::engine::search::Signals;

/// Runs `rookery bench` with the words after `bench`.
pub fn run(words: &[String]) -> Result<Outcome, UsageError> {
    let depth = match words {
        [] => bench::DEFAULT_DEPTH,
        [depth] => match number::<u32>(depth, "DEPTH")? {
            d @ 1..=bench::MAX_BENCH_DEPTH => d,
            _ => {
                return Err(UsageError(format!(
                    "bench depth must be 1 to {}, got '{depth}'",
                    bench::MAX_BENCH_DEPTH
                )));
            }
        },
        _ => return Err(UsageError("usage: rookery bench [DEPTH]".into())),
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
