//! `rookery data PATH...`: checks self-play data and says what it holds. Each path is a data
//! file of either format, or a directory: its `*.bin` and `*.games` files, then its
//! `manifest.jsonl` when there is one.
//!
//! Every file is read whole (each game of a game file replayed, every move checked), and a
//! line for it goes to stdout: its format, training positions (and every ply, in a game
//! file), games, results W/D/L from White's view, the games not seen before in the files
//! checked (as `train` keeps them), and bytes per training position; a directory's manifest
//! gets a line of its runs. The first fault ends the check: one line naming the file and the
//! byte offset where it goes wrong, and exit status 2. Exit status 0 means that everything
//! named was checked and is sound.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::Outcome;
use super::args::{Args, UsageError, misuse};
use super::output::out;
use rookery::learn::data::manifest::{MANIFEST_FILE, MAX_MANIFEST_BYTES, Summary};
use rookery::learn::data::reader::{DataError, FileGame, data_files, read_games, truncate_command};

/// Usage text.
pub const USAGE: &str = "\
usage: rookery data PATH...
  checks data files (32-byte records or game files) and data directories (their *.bin and
  *.games files and manifest.jsonl): one line per file on what it holds; the first fault is
  one line naming the file and its byte offset, and exit status 2
       rookery data import GAMES.pgn... --out DIR   (see its usage)";

/// What the files checked so far hold.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    /// Files read.
    files: u64,
    /// Their bytes.
    bytes: u64,
    /// Training positions.
    positions: u64,
    /// Plies of game files (training positions or not).
    plies: u64,
    /// Games.
    games: u64,
    /// Games not seen before in the files checked.
    distinct: u64,
    /// Games by result: Black won, drawn, White won.
    results: [u64; 3],
}

impl Tally {
    /// Counts a game; `seen` holds the hashes of the games counted before.
    fn count(&mut self, game: FileGame, seen: &mut HashSet<u64>) {
        self.games += 1;
        self.distinct += u64::from(seen.insert(game.hash));
        self.positions += game.records.len() as u64;
        self.plies += game.plies.unwrap_or(0) as u64;
        self.results[game.result as usize] += 1;
    }

    /// Adds what another tally counted.
    fn add(&mut self, other: &Tally) {
        self.files += other.files;
        self.bytes += other.bytes;
        self.positions += other.positions;
        self.plies += other.plies;
        self.games += other.games;
        self.distinct += other.distinct;
        for (mine, theirs) in self.results.iter_mut().zip(other.results) {
            *mine += theirs;
        }
    }

    /// Games, results and the distinct share, in words.
    fn games_line(&self) -> String {
        let [black, draws, white] = self.results;
        let share = if self.games == 0 {
            100.0
        } else {
            100.0 * self.distinct as f64 / self.games as f64
        };
        format!(
            "{} games (W/D/L {white}/{draws}/{black}), {} distinct ({share:.2}%)",
            self.games, self.distinct
        )
    }

    /// Bytes per training position, in words.
    fn density(&self) -> String {
        match self.positions {
            0 => "no training position".to_string(),
            n => format!(
                "{:.2} bytes per training position",
                self.bytes as f64 / n as f64
            ),
        }
    }
}

/// Runs `rookery data` with the words after `data`.
pub fn run(words: &[String]) -> Result<Outcome, UsageError> {
    if words.first().map(String::as_str) == Some("import") {
        return super::data_import::run(&words[1..]);
    }
    let args = Args::parse(words, &[], &[])?;
    if args.positional.is_empty() {
        return Err(misuse("data", "no data given"));
    }
    let mut seen = HashSet::new();
    let mut total = Tally::default();
    for path in args.positional.iter().map(PathBuf::from) {
        let tally = check_path(&path, &mut seen)?;
        total.add(&tally);
    }
    out!(
        "all: {} files, {} training positions, {}",
        total.files,
        total.positions,
        total.games_line()
    );
    Ok(Outcome::Success)
}

/// Checks a file, or a directory's data files and manifest.
fn check_path(path: &Path, seen: &mut HashSet<u64>) -> Result<Tally, UsageError> {
    let files = data_files(path).map_err(|e| UsageError(format!("{}: {e}", path.display())))?;
    let mut tally = Tally::default();
    for file in files {
        tally.add(&check_file(&file, seen)?);
    }
    let manifest = path.join(MANIFEST_FILE);
    if path.is_dir() && manifest.exists() {
        check_manifest(&manifest, &tally)?;
    }
    Ok(tally)
}

/// Reads a data file whole and prints its line.
fn check_file(file: &Path, seen: &mut HashSet<u64>) -> Result<Tally, UsageError> {
    let bytes = rookery::input_file::read(file, u64::MAX, "a data file")
        .map_err(|e| UsageError(format!("{}: {e}", file.display())))?;
    let mut tally = Tally {
        files: 1,
        bytes: bytes.len() as u64,
        ..Tally::default()
    };
    let read =
        read_games(&bytes, &mut |game| tally.count(game, seen)).map_err(|e| fault(file, &e))?;
    let positions = match tally.plies {
        0 => format!("{} training positions", tally.positions),
        plies => format!("{} training positions of {plies} plies", tally.positions),
    };
    let trailing = match read.trailing_bytes {
        0 => String::new(),
        n => format!(", {n} trailing bytes (a record cut off, which training skips)"),
    };
    out!(
        "{}: {}, {positions}, {}, {}{trailing}",
        file.display(),
        read.format,
        tally.games_line(),
        tally.density()
    );
    Ok(tally)
}

/// The line for a fault of `file`: its offset, and for a cut-off game the `truncate` that
/// drops it.
fn fault(file: &Path, e: &DataError) -> UsageError {
    let hint = if e.cut {
        format!(
            "; `{}` drops the cut-off game",
            truncate_command(file, e.offset)
        )
    } else {
        String::new()
    };
    UsageError(format!("{}: {e}{hint}", file.display()))
}

/// Reads a directory's manifest and prints its line, with what the directory holds.
fn check_manifest(manifest: &Path, held: &Tally) -> Result<(), UsageError> {
    let in_file = |e: String| UsageError(format!("{}: {e}", manifest.display()));
    let text = rookery::input_file::read_text(manifest, MAX_MANIFEST_BYTES, "a manifest")
        .map_err(|e| in_file(e.to_string()))?;
    let summary = Summary::read(&text).map_err(|e| in_file(e.to_string()))?;
    out!(
        "{}: {summary}; the directory holds {} training positions in {} games",
        manifest.display(),
        held.positions,
        held.games
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rookery::learn::data::record::GameResult;

    #[test]
    fn results_are_counted_from_whites_view() {
        let mut tally = Tally::default();
        let mut seen = HashSet::new();
        for (hash, result) in [
            (1, GameResult::WhiteWon),
            (2, GameResult::WhiteWon),
            (1, GameResult::Draw),
            (3, GameResult::BlackWon),
        ] {
            let game = FileGame {
                hash,
                result,
                plies: Some(3),
                records: &[],
            };
            tally.count(game, &mut seen);
        }
        assert_eq!(
            tally.games_line(),
            "4 games (W/D/L 2/1/1), 3 distinct (75.00%)"
        );
        assert_eq!(tally.plies, 12);
    }
}
