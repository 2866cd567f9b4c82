//! `rookery hash`: the keys of a gomoku or Hive position, one `name: value` line each.
//!
//! ```text
//! key: <main key, 16 hex digits>
//! check: <check key, 16 hex digits>
//! canonical: <canonical main key, 16 hex digits>
//! symmetry: <index of the transform giving the canonical key>
//! compact: <exact compact key in hex>          (Hive only)
//! ```

use super::Outcome;
use super::args::{Args, UsageError};
use super::output::out;
use rookery::gomoku::{Geometry, parse_moves};
use rookery::hashing::{DualKey, Key};
use rookery::hive::{compact, parse_game_string_lenient};

/// Usage text.
pub const USAGE: &str = "\
usage: rookery hash gomoku (--size N | --rect WxH) [MOVE...]   moves x,y from 0, black first
       rookery hash hive GAMESTRING                           a UHP GameString, quoted";

/// Runs `rookery hash` with the words after `hash`.
pub fn run(words: &[String]) -> Result<Outcome, UsageError> {
    match words.first().map(String::as_str) {
        Some("gomoku") => gomoku(&words[1..]),
        Some("hive") => hive(&words[1..]),
        Some(other) => Err(UsageError(format!("unknown game '{other}'\n{USAGE}"))),
        None => Err(UsageError(USAGE.to_string())),
    }
}

fn print_keys(key: DualKey, canonical: Key, symmetry: usize) {
    out!("key: {}", key.main);
    out!("check: {}", key.check);
    out!("canonical: {canonical}");
    out!("symmetry: {symmetry}");
}

fn gomoku(words: &[String]) -> Result<Outcome, UsageError> {
    let args = Args::parse(words, &["size", "rect"], &[])?;
    let (width, height) = match (args.value::<usize>("size")?, args.value::<String>("rect")?) {
        (Some(n), None) => (n, n),
        (None, Some(rect)) => rect
            .split_once('x')
            .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
            .ok_or_else(|| UsageError(format!("--rect: expected WxH, got '{rect}'")))?,
        (Some(_), Some(_)) => {
            return Err(UsageError("give --size or --rect, not both".into()));
        }
        (None, None) => {
            return Err(UsageError(format!(
                "the board needs --size or --rect\n{USAGE}"
            )));
        }
    };
    let geometry = Geometry::new(width, height)
        .ok_or_else(|| UsageError(format!("a {width}x{height} board: sides go from 5 to 32")))?;
    let game = parse_moves(geometry, args.positional.iter().map(String::as_str))
        .map_err(|e| UsageError(e.to_string()))?;
    let (canonical, symmetry) = game.canonical();
    print_keys(game.key(), canonical.main, symmetry);
    Ok(Outcome::Success)
}

fn hive(words: &[String]) -> Result<Outcome, UsageError> {
    let args = Args::parse(words, &[], &[])?;
    if args.positional.is_empty() {
        return Err(UsageError(USAGE.to_string()));
    }
    // An unquoted GameString arrives split at the spaces inside its MoveStrings.
    let text = args.positional.join(" ");
    // A TurnString that disagrees with the moves is reported, not fatal: the moves decide.
    let (hive, warning) =
        parse_game_string_lenient(&text).map_err(|e| UsageError(e.to_string()))?;
    if let Some(warning) = warning {
        eprintln!("rookery: warning: {warning}");
    }
    let (canonical, frame) = hive.canonical();
    let compact = compact::encode(&hive).map_err(|e| UsageError(e.to_string()))?;
    print_keys(hive.key(), canonical.main, frame.transform.index());
    out!("compact: {compact}");
    Ok(Outcome::Success)
}
