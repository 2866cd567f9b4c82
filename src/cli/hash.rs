//! `rookery hash`: the keys of a position of one of the games (gomoku, Hive), one
//! `name: value` line each.
//!
//! ```text
//! key: <main key, 16 hex digits>
//! check: <check key, 16 hex digits>
//! canonical: <canonical main key, 16 hex digits>
//! symmetry: <index of the transform giving the canonical key>
//! compact: <exact compact key in hex>          (Hive only)
//! ```

use super::Outcome;
use super::args::{UsageError, misuse};
use super::games::{self, GAMES, PositionKeys};
use super::output::out;

/// Usage text: one line per game whose positions `hash` reads.
pub fn usage() -> String {
    let lines: Vec<String> = GAMES
        .iter()
        .filter_map(|game| {
            Some(format!(
                "rookery hash {} {}",
                game.name(),
                game.hash_usage()?
            ))
        })
        .collect();
    format!("usage: {}", lines.join("\n       "))
}

/// Runs `rookery hash` with the words after `hash`.
pub fn run(words: &[String]) -> Result<Outcome, UsageError> {
    let Some(name) = words.first() else {
        return Err(misuse("hash", "which game?"));
    };
    let game = games::find(name)
        .filter(|game| game.hash_usage().is_some())
        .ok_or_else(|| misuse("hash", format!("unknown game '{name}'")))?;
    print_keys(&game.keys(&words[1..])?);
    Ok(Outcome::Success)
}

/// Prints `keys`, one `name: value` line each.
fn print_keys(keys: &PositionKeys) {
    out!("key: {}", keys.key.main);
    out!("check: {}", keys.key.check);
    out!("canonical: {}", keys.canonical);
    out!("symmetry: {}", keys.symmetry);
    for (name, value) in &keys.extra {
        out!("{name}: {value}");
    }
}
