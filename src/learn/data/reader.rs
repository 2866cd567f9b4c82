//! Data files of either format, read game by game: the files a path names, each file's
//! format found from its content, and every game with its hash, result and training
//! records.
//!
//! A file that starts with the game file's header (see [`game_file`]) is a game file, any
//! other a file of 32-byte records (see [`record`](super::record)), split into games by
//! [`split`]. A game's hash is FNV-1a 64 over its bytes in the file: its records' bytes in a
//! record file (the hash of [`game_hash`](super::games::game_hash)), its encoded bytes in a
//! game file.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use super::game_file::{self, GameFileError};
use super::games::split;
use super::record::{GameResult, RECORD_BYTES, Record, decode_all};
use crate::hashing::checksum::fnv1a;

/// The extension of files of 32-byte records in a data directory.
pub const RECORD_EXTENSION: &str = "bin";
/// The extension of game files in a data directory.
pub const GAME_EXTENSION: &str = "games";

/// The data files a path names: the file itself, whatever its name, or every `*.bin` and
/// `*.games` file of a directory, sorted by name; a directory without one is refused.
pub fn data_files(path: &Path) -> io::Result<Vec<PathBuf>> {
    if !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(path)?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension()
                .is_some_and(|e| e == RECORD_EXTENSION || e == GAME_EXTENSION)
        })
        .collect();
    if files.is_empty() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "a directory without a data file (*.bin or *.games)",
        ));
    }
    files.sort();
    Ok(files)
}

/// The format of a data file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// 32-byte records.
    Records,
    /// A game file.
    Games,
}

impl Format {
    /// The format of a file's bytes, by their content.
    pub fn of(bytes: &[u8]) -> Format {
        if game_file::is_game_file(bytes) {
            Format::Games
        } else {
            Format::Records
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Format::Records => f.write_str("32-byte records"),
            Format::Games => write!(f, "game file v{}", game_file::VERSION),
        }
    }
}

/// One game of a data file, as a reader sees it.
#[derive(Clone, Copy, Debug)]
pub struct FileGame<'a> {
    /// FNV-1a 64 over the game's bytes in the file.
    pub hash: u64,
    /// How it ended.
    pub result: GameResult,
    /// Plies played, when the format keeps them (a game file).
    pub plies: Option<usize>,
    /// The training positions.
    pub records: &'a [Record],
}

/// What reading a whole file found besides its games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileRead {
    /// The file's format.
    pub format: Format,
    /// Bytes after the last complete record of a record file (a record cut off when a run
    /// stopped); always 0 in a game file, which refuses a cut-off game.
    pub trailing_bytes: usize,
}

/// A data file's fault, at a byte offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataError {
    /// Where the file goes wrong.
    pub offset: u64,
    /// What is wrong there.
    pub message: String,
    /// The fault is a game cut off by the end of the file, which truncating the file at
    /// `offset` drops.
    pub cut: bool,
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte {}: {}", self.offset, self.message)
    }
}

impl std::error::Error for DataError {}

impl From<GameFileError> for DataError {
    fn from(e: GameFileError) -> DataError {
        DataError {
            offset: e.offset,
            cut: e.is_cut(),
            message: e.fault.to_string(),
        }
    }
}

/// The shell command that cuts the file at `path` to its first `offset` bytes, dropping a
/// game cut off there: `truncate -s OFFSET PATH`, the path quoted for a POSIX shell when it
/// holds anything but letters, digits and `_ @ % + = : , . / -`, so that the line can be
/// pasted as it is.
///
/// ```
/// use rookery::learn::data::reader::truncate_command;
/// use std::path::Path;
/// assert_eq!(truncate_command(Path::new("d/x.games"), 9), "truncate -s 9 d/x.games");
/// assert_eq!(
///     truncate_command(Path::new("a b/it's.games"), 26),
///     r"truncate -s 26 'a b/it'\''s.games'"
/// );
/// ```
pub fn truncate_command(path: &Path, offset: u64) -> String {
    let path = path.to_string_lossy();
    // A path read as an option would not name the file.
    let path = if path.starts_with('-') {
        format!("./{path}")
    } else {
        path.into_owned()
    };
    format!("truncate -s {offset} {}", shell_quoted(&path))
}

/// `word` as one word of a POSIX shell: as it is when every character is plain, else in
/// single quotes, each single quote in it written `'\''`.
fn shell_quoted(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_@%+=:,./-".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// Reads a data file's bytes, in either format, and hands `visit` each game in order; the
/// first fault refuses the file (the games before it have been visited).
pub fn read_games(bytes: &[u8], visit: &mut dyn FnMut(FileGame)) -> Result<FileRead, DataError> {
    let format = Format::of(bytes);
    let trailing_bytes = match format {
        Format::Records => read_record_games(bytes, visit)?,
        Format::Games => {
            read_game_file(bytes, visit)?;
            0
        }
    };
    Ok(FileRead {
        format,
        trailing_bytes,
    })
}

/// The games of a file of records; the bytes after its last complete record.
fn read_record_games(bytes: &[u8], visit: &mut dyn FnMut(FileGame)) -> Result<usize, DataError> {
    let decoded = decode_all(bytes).map_err(|e| DataError {
        offset: (e.index * RECORD_BYTES) as u64,
        // A file whose very first record is wrong is most likely no data file at all.
        message: match e.index {
            0 => format!(
                "not a data file: it does not start as a game file does (`rookgame`), and read \
                 as 32-byte records its first is corrupt ({})",
                e.error
            ),
            index => format!("record {index} is corrupt: {}", e.error),
        },
        cut: false,
    })?;
    for game in split(&decoded.records) {
        let records = &decoded.records[game.clone()];
        visit(FileGame {
            hash: fnv1a(&bytes[game.start * RECORD_BYTES..game.end * RECORD_BYTES]),
            result: records[0].result,
            plies: None,
            records,
        });
    }
    Ok(decoded.trailing_bytes)
}

/// The games of a game file, each replayed for its records.
fn read_game_file(bytes: &[u8], visit: &mut dyn FnMut(FileGame)) -> Result<(), DataError> {
    for read in game_file::read(bytes)? {
        let read = read?;
        let records = read.game.records();
        visit(FileGame {
            hash: fnv1a(read.bytes),
            result: read.game.result,
            plies: Some(read.game.plies.len()),
            records: &records,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directory_names_its_record_and_game_files() {
        let dir = std::env::temp_dir().join(format!("rookery-reader-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for name in [
            "b.games",
            "a.bin",
            "manifest.jsonl",
            "net.ckpt",
            "c.games.tmp",
        ] {
            std::fs::write(dir.join(name), b"").unwrap();
        }
        let names: Vec<String> = data_files(&dir)
            .unwrap()
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["a.bin", "b.games"]);
        // A file is taken as it is named, and read by its content.
        let file = dir.join("net.ckpt");
        assert_eq!(data_files(&file).unwrap(), [file]);
        for name in ["a.bin", "b.games"] {
            std::fs::remove_file(dir.join(name)).unwrap();
        }
        assert!(data_files(&dir).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_format_is_read_from_the_content() {
        assert_eq!(Format::of(&game_file::header()), Format::Games);
        assert_eq!(Format::of(b"rookg"), Format::Games);
        assert_eq!(Format::of(b""), Format::Records);
        let record = Record {
            board: shakmaty::Board::default(),
            turn: shakmaty::Color::White,
            score: 0,
            result: GameResult::Draw,
            halfmoves: 0,
            fullmoves: 1,
        };
        assert_eq!(Format::of(&record.encode()), Format::Records);
    }
}
