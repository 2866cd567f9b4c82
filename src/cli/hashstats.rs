//! `rookery hashstats`: key quality measured on real position sets of one of the games
//! ([`GAMES`]). Distinct positions are counted by exact encoding; colliding pairs of
//! truncated keys are set beside the birthday expectation; a table filled from the walk
//! counts false hits; the key table itself is checked. Progress on stderr, the summary on
//! stdout (`--json` for machines).

use std::time::Instant;

use super::Outcome;
use super::args::{Args, MAX_RANDOM_GAME_PLIES, MAX_TABLE_MIB, UsageError, misuse};
use super::games::{self, GAMES};
use super::key_report::{MAX_WALK_BYTES, Report};
use super::output::{out, write_stdout};

/// The options of every game that take a value.
const VALUES: [&str; 4] = ["games", "plies", "seed", "mib"];

/// Usage text: one line per game, then the options every game takes.
pub fn usage() -> String {
    let lines: Vec<String> = GAMES
        .iter()
        .map(|game| {
            format!(
                "rookery hashstats {} {}",
                game.name(),
                game.hashstats_usage()
            )
        })
        .collect();
    format!(
        "usage: {}
  measures the game's keys on its positions: distinct positions, colliding pairs of
  truncated keys against the birthday expectation, false table hits, key-table checks
OPTIONS, of every game:
  --games N   random games (0 up to what the walk's memory allows, at most {} MiB)
  --plies P   each random game's plies at most, 0 to {MAX_RANDOM_GAME_PLIES}
  --seed S    the seed of the random games, 0 to {} (default 1)
  --mib M     the false-hit table's size in MiB, 1 to {MAX_TABLE_MIB} (default 64)
  --json      the summary as one JSON object",
        lines.join("\n       "),
        MAX_WALK_BYTES >> 20,
        u64::MAX
    )
}

/// Runs `rookery hashstats` with the words after `hashstats`.
pub fn run(words: &[String]) -> Result<Outcome, UsageError> {
    // Every game's options are read; a game ignores the others'.
    let values: Vec<&str> = VALUES
        .into_iter()
        .chain(
            GAMES
                .iter()
                .flat_map(|game| game.hashstats_values().iter().copied()),
        )
        .collect();
    let switches: Vec<&str> = std::iter::once("json")
        .chain(
            GAMES
                .iter()
                .flat_map(|game| game.hashstats_switches().iter().copied()),
        )
        .collect();
    let args = Args::parse(words, &values, &switches)?;
    let game = match args.positional.as_slice() {
        [name] => games::find(name)
            .ok_or_else(|| misuse("hashstats", format!("unknown game '{name}'")))?,
        [] => return Err(misuse("hashstats", "which game?")),
        [_, stray, ..] => return Err(misuse("hashstats", format!("unexpected '{stray}'"))),
    };
    let own = |name: &str| {
        VALUES.contains(&name)
            || name == "json"
            || game.hashstats_values().contains(&name)
            || game.hashstats_switches().contains(&name)
    };
    if let Some(name) = args.given().find(|name| !own(name)) {
        return Err(misuse(
            "hashstats",
            format!("--{name} is not an option of {}", game.name()),
        ));
    }
    let start = Instant::now();
    let report = game.measure(&args)?;
    if report.visited == 0 {
        return Err(UsageError(
            "no position visited: nothing to measure (raise --games or --depth)".into(),
        ));
    }
    let report = Report {
        seconds: start.elapsed().as_secs_f64(),
        peak_mib: peak_memory_mib(),
        ..report
    };
    if args.switch("json") {
        out!("{}", report.json());
    } else {
        write_stdout(format_args!("{}", report.table()));
    }
    Ok(if report.passed() {
        Outcome::Success
    } else {
        Outcome::Failure
    })
}

/// The process's peak resident memory in MiB (Linux `VmHWM`), 0 where unknown.
fn peak_memory_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
            line.split_whitespace().nth(1)?.parse::<f64>().ok()
        })
        .map_or(0.0, |kib| kib / 1024.0)
}
