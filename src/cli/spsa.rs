//! `rookery spsa`: the tunables in OpenBench's SPSA input format, one line each:
//! `NAME, int, DEFAULT, MIN, MAX, C_END, R_END`. Only a `tune` build has them as options
//! to tune; any other build says so and exits 2.

use super::Outcome;
use super::args::UsageError;
use super::output::out;
use rookery::engine::params::{self, TUNABLES};

/// OpenBench's `r_end`: the learning rate at the end of a run (the customary value).
pub const R_END: f64 = 0.002;

/// Usage text.
pub fn usage() -> String {
    "usage: rookery spsa
  prints each tunable as OpenBench's SPSA input, `NAME, int, DEFAULT, MIN, MAX, C_END, R_END`
  (a build with `--features tune` only)"
        .to_string()
}

/// Prints the SPSA input of every tunable.
pub fn run(words: &[String]) -> Result<Outcome, UsageError> {
    if let Some(word) = words.first() {
        return Err(UsageError(format!("spsa takes no arguments, got '{word}'")));
    }
    if !params::TUNE_BUILD {
        return Err(UsageError(
            "this build has no tunable options: build with `cargo build --release --features tune`"
                .to_string(),
        ));
    }
    for t in TUNABLES {
        out!(
            "{}, int, {}, {}, {}, {}, {R_END}",
            t.name,
            t.default,
            t.min,
            t.max,
            t.step
        );
    }
    Ok(Outcome::Success)
}
