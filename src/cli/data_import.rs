//! `rookery data import GAMES.pgn... --out DIR`: a tournament manager's PGN games (see
//! [`rookery::learn::data::pgn_import`]) into a new data directory's game file,
//! `DIR/imported.games`, which `rookery data` checks and `train` learns from.
//!
//! Every file is read and every game replayed before anything is written: a file that
//! cannot be read, or a game that is not PGN or holds an illegal move, is one line naming
//! the file and the game, and exit status 2, with nothing written. `DIR` must be new or
//! empty: an import is not appended to other data (a second import goes to a directory of
//! its own, and `train` reads both). Unfinished games (`*`), games training uses no
//! position of, and repeats of a game already imported are left out and counted.

use std::path::{Path, PathBuf};

use super::Outcome;
use super::args::{Args, UsageError};
use super::output::out;
use rookery::learn::data::game_file::ScoredGame;
use rookery::learn::data::pgn;
use rookery::learn::data::pgn_import::{Imported, import};
use rookery::learn::data::session::RECORD_FILE;
use rookery::learn::data::writer::{DataWriter, Written};

/// Usage text.
pub const USAGE: &str = "\
usage: rookery data import GAMES.pgn... --out DIR
  reads fastchess's or cutechess's PGN games, each ply labelled with the score in the
  comment after its move (the mover's view), into DIR/imported.games; DIR must be new or
  empty";

/// The game file an import writes.
pub const IMPORT_FILE: &str = "imported.games";
/// The longest PGN file read.
const MAX_PGN_BYTES: u64 = 4 << 30;

/// Runs `rookery data import` with the words after `import`.
pub fn run(words: &[String]) -> Result<Outcome, UsageError> {
    let args = Args::parse(words, &["out"], &[])?;
    if args.positional.is_empty() {
        return Err(UsageError(format!("no PGN file given\n{USAGE}")));
    }
    let Some(dir) = args.value::<PathBuf>("out")? else {
        return Err(UsageError(format!("--out DIR is required\n{USAGE}")));
    };
    let not_empty = std::fs::read_dir(&dir).is_ok_and(|mut entries| entries.next().is_some());
    if not_empty || dir.is_file() {
        return Err(UsageError(format!(
            "{}: already exists and is not an empty directory; import into a new one",
            dir.display()
        )));
    }
    let mut games = Vec::new();
    let mut unfinished = 0;
    for path in args.positional.iter().map(PathBuf::from) {
        unfinished += read_file(&path, &mut games)?;
    }
    let written = write(&dir, &games)?;
    out!(
        "{}: {} games imported, {} training positions; left out: {} unfinished, {} without a \
         training position, {} repeats",
        dir.join(IMPORT_FILE).display(),
        written[0],
        written[3],
        unfinished,
        written[1],
        written[2]
    );
    Ok(Outcome::Success)
}

/// Reads the games of a PGN file onto `games`; returns how many were unfinished.
fn read_file(path: &Path, games: &mut Vec<ScoredGame>) -> Result<u64, UsageError> {
    let in_file = |e: String| UsageError(format!("{}: {e}", path.display()));
    let text = rookery::input_file::read_text(path, MAX_PGN_BYTES, "a PGN file")
        .map_err(|e| in_file(e.to_string()))?;
    let parsed = pgn::parse(&text).map_err(|e| in_file(e.to_string()))?;
    let mut unfinished = 0;
    for (i, game) in parsed.iter().enumerate() {
        match import(game).map_err(|e| in_file(format!("game {}: {e}", i + 1)))? {
            Imported::Game(game) => games.push(game),
            Imported::Unfinished => unfinished += 1,
        }
    }
    Ok(unfinished)
}

/// Writes `games` to the directory's game file: games written, games without a training
/// position, repeats, training positions written.
fn write(dir: &Path, games: &[ScoredGame]) -> Result<[u64; 4], UsageError> {
    let file = dir.join(IMPORT_FILE);
    let in_file = |e: std::io::Error| UsageError(format!("{}: {e}", file.display()));
    std::fs::create_dir_all(dir)
        .map_err(|e| UsageError(format!("cannot create {}: {e}", dir.display())))?;
    let mut writer = DataWriter::open(&file, &dir.join(RECORD_FILE)).map_err(in_file)?;
    let mut counts = [0; 4];
    for game in games {
        match writer.write(game).map_err(in_file)? {
            Written::Game => {
                counts[0] += 1;
                counts[3] += game.training_plies() as u64;
            }
            Written::Empty => counts[1] += 1,
            Written::Repeat => counts[2] += 1,
        }
    }
    Ok(counts)
}
