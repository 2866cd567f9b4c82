//! The data a datagen run appends to: the game file, opened and locked, the games and
//! training positions already in the directory counted (those of a file of 32-byte records
//! beside it too), then whole games appended, each in one write.
//!
//! A game is not written when it is a repeat of a game this writer already wrote (the same
//! bytes), or when training would use none of its positions. The file's header goes out in
//! the same write as its first game, so a game file is empty or starts with its header.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{self, BufReader, Read, Seek, SeekFrom, Write};
use std::path::Path;

use super::game_file::{self, ScoredGame};
use super::games::continues;
use super::reader::truncate_command;
use super::record::{RECORD_BYTES, Record};
use crate::hashing::checksum::fnv1a;
use crate::input_file;

/// What became of a game given to [`DataWriter::write`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    /// Appended to the file.
    Game,
    /// Not written: training uses none of its positions.
    Empty,
    /// Not written: the same game was written before.
    Repeat,
}

/// Games and training positions held by a data file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Held {
    games: u64,
    records: u64,
}

/// A game file open for appending whole games.
#[derive(Debug)]
pub struct DataWriter {
    file: File,
    /// The file of records beside it, locked while the writer lives.
    _records: Option<File>,
    /// What the two files held when they were opened.
    existing: Held,
    /// Whether the game file has its header.
    has_header: bool,
    /// Hashes of the games written through this writer.
    written: HashSet<u64>,
}

/// Locks `file` for this process, or says that another run holds it.
fn lock(file: &File) -> io::Result<()> {
    file.try_lock().map_err(|e| match e {
        std::fs::TryLockError::WouldBlock => io::Error::new(
            io::ErrorKind::ResourceBusy,
            "another datagen run is writing this directory (one writer per directory)",
        ),
        std::fs::TryLockError::Error(e) => e,
    })
}

impl DataWriter {
    /// Opens the game file `path` for appending (made when missing), and counts the games
    /// and training positions in it and in the file of records `records`, when there is
    /// one. Both files stay locked while the writer lives: a second run on the same
    /// directory is refused, since it would write the same games. Nothing is changed in a
    /// file that is refused: one that is not a game file, one with a fault (see
    /// [`game_file`]), or one whose last game is cut off, whose message names the
    /// `truncate` that drops the cut-off game.
    pub fn open(path: &Path, records: &Path) -> io::Result<DataWriter> {
        let mut options = OpenOptions::new();
        options.create(true).append(true).read(true);
        let mut file = input_file::open_writable(path, &options)?;
        lock(&file)?;
        let (in_games, has_header) = count_game_file(&mut file, path)?;
        let (records, in_records) = match input_file::open(records, u64::MAX, "a file of records") {
            Ok((mut records_file, _)) => {
                lock(&records_file).map_err(|e| in_file(records, e))?;
                let held = count_records(&mut records_file).map_err(|e| in_file(records, e))?;
                (Some(records_file), held)
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => (None, Held::default()),
            Err(e) => return Err(in_file(records, e)),
        };
        Ok(DataWriter {
            file,
            _records: records,
            existing: Held {
                games: in_games.games + in_records.games,
                records: in_games.records + in_records.records,
            },
            has_header,
            written: HashSet::new(),
        })
    }

    /// Training positions in the two files when they were opened.
    pub fn existing_records(&self) -> u64 {
        self.existing.records
    }

    /// Games in the two files when they were opened.
    pub fn existing_games(&self) -> u64 {
        self.existing.games
    }

    /// Appends a game in one write (after the header, for the file's first), unless
    /// training uses none of its positions or this writer wrote it before. A start position
    /// the format cannot hold (see [`ScoredGame::encode`]) is refused.
    pub fn write(&mut self, game: &ScoredGame) -> io::Result<Written> {
        if game.training_plies() == 0 {
            return Ok(Written::Empty);
        }
        let bytes = game
            .encode()
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e.to_string()))?;
        let hash = fnv1a(&bytes);
        if self.written.contains(&hash) {
            return Ok(Written::Repeat);
        }
        let mut out = Vec::with_capacity(game_file::HEADER_BYTES + bytes.len());
        if !self.has_header {
            out.extend_from_slice(&game_file::header());
        }
        out.extend_from_slice(&bytes);
        self.file.write_all(&out)?;
        self.has_header = true;
        self.written.insert(hash);
        Ok(Written::Game)
    }
}

/// An error of the file at `path`, named in its message.
fn in_file(path: &Path, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

/// The games and training positions of the game file at `path`, every game checked, and
/// whether it has its header (an empty file has none).
fn count_game_file(file: &mut File, path: &Path) -> io::Result<(Held, bool)> {
    // The header first: a file that is not a game file is refused before the rest is read.
    file.seek(SeekFrom::Start(0))?;
    let mut head = Vec::with_capacity(game_file::HEADER_BYTES);
    (&*file)
        .take(game_file::HEADER_BYTES as u64)
        .read_to_end(&mut head)?;
    if !head.is_empty() && !game_file::is_game_file(&head) {
        let refusal = game_file::read(&head).err();
        let message = refusal.map_or_else(|| "not a game file".to_string(), |e| e.to_string());
        return Err(io::Error::new(io::ErrorKind::InvalidData, message));
    }
    file.seek(SeekFrom::Start(0))?;
    let mut bytes = input_file::buffer(file.metadata()?.len())?;
    file.read_to_end(&mut bytes)?;
    let mut held = Held::default();
    let games =
        game_file::read(&bytes).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
    for game in games {
        let game = game.map_err(|e| {
            let message = if e.is_cut() {
                format!(
                    "{e}; nothing was written: `{}` drops the cut-off game and keeps the {} \
                     whole games before it",
                    truncate_command(path, e.offset),
                    held.games
                )
            } else {
                e.to_string()
            };
            io::Error::new(io::ErrorKind::InvalidData, message)
        })?;
        held.games += 1;
        held.records += game.game.training_plies() as u64;
    }
    Ok((held, !bytes.is_empty()))
}

/// The games and complete records of a file of 32-byte records, read from the start (a
/// record cut off at its end is not counted, and left there).
fn count_records(file: &mut File) -> io::Result<Held> {
    file.seek(SeekFrom::Start(0))?;
    let mut reader = BufReader::with_capacity(RECORD_BYTES << 12, &*file);
    let mut bytes = [0u8; RECORD_BYTES];
    let mut held = Held::default();
    let mut last: Option<Record> = None;
    loop {
        match reader.read_exact(&mut bytes) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => break,
            Err(e) => return Err(e),
        }
        let record = Record::decode(&bytes).map_err(|e| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "byte {}: record {} is corrupt: {e}",
                    held.records * 32,
                    held.records
                ),
            )
        })?;
        if !last.as_ref().is_some_and(|l| continues(l, &record)) {
            held.games += 1;
        }
        held.records += 1;
        last = Some(record);
    }
    Ok(held)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::data::game_file::{Ply, trainable};
    use crate::learn::data::record::GameResult;
    use shakmaty::{Chess, Position};
    use std::path::PathBuf;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("rookery-writer-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// A game of a line of moves from the start position, each ply scored 10.
    fn game(moves: &[&str], result: GameResult) -> ScoredGame {
        let mut pos = Chess::default();
        let mut plies = Vec::new();
        for uci in moves {
            let mv = uci
                .parse::<shakmaty::uci::UciMove>()
                .unwrap()
                .to_move(&pos)
                .unwrap();
            let skip = !trainable(&pos, mv, 10);
            plies.push(Ply {
                mv,
                score: 10,
                skip,
            });
            pos.play_unchecked(mv);
        }
        ScoredGame {
            start: Chess::default(),
            plies,
            result,
        }
    }

    #[test]
    fn repeats_and_empty_games_are_not_written_and_a_reopened_file_is_counted() {
        let dir = scratch("repeat");
        let (path, records) = (dir.join("data.games"), dir.join("data.bin"));
        let a = game(&["e2e4", "e7e5", "g1f3"], GameResult::Draw);
        let b = game(&["d2d4", "d7d5"], GameResult::WhiteWon);
        let mut writer = DataWriter::open(&path, &records).unwrap();
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 0);
        assert_eq!(writer.write(&a).unwrap(), Written::Game);
        assert_eq!(writer.write(&b).unwrap(), Written::Game);
        assert_eq!(writer.write(&a).unwrap(), Written::Repeat);
        let no_training = ScoredGame {
            plies: vec![Ply {
                skip: true,
                ..a.plies[0]
            }],
            ..a.clone()
        };
        assert_eq!(writer.write(&no_training).unwrap(), Written::Empty);
        drop(writer);
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(bytes[..9], game_file::header());
        let read: Vec<ScoredGame> = game_file::read(&bytes)
            .unwrap()
            .map(|g| g.unwrap().game)
            .collect();
        assert_eq!(read, [a.clone(), b.clone()]);
        // Opened again: the games are counted, one header is kept, and a repeat of an
        // earlier run's game is written (only this writer's games are remembered).
        let mut again = DataWriter::open(&path, &records).unwrap();
        assert_eq!((again.existing_records(), again.existing_games()), (5, 2));
        assert_eq!(again.write(&a).unwrap(), Written::Game);
        drop(again);
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(game_file::read(&bytes).unwrap().count(), 3);
        // A file of records beside it counts too: its two games (one cut-off record left
        // as it is).
        let record_bytes: Vec<u8> = [a.records(), b.records()]
            .concat()
            .iter()
            .flat_map(Record::encode)
            .chain([7u8; 5])
            .collect();
        std::fs::write(&records, &record_bytes).unwrap();
        let both = DataWriter::open(&path, &records).unwrap();
        assert_eq!((both.existing_records(), both.existing_games()), (13, 5));
        drop(both);
        assert_eq!(std::fs::read(&records).unwrap(), record_bytes);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_cut_off_game_or_another_file_is_refused_and_left_as_it_is() {
        let dir = scratch("cut");
        let (path, records) = (dir.join("data.games"), dir.join("data.bin"));
        let mut writer = DataWriter::open(&path, &records).unwrap();
        writer
            .write(&game(&["e2e4", "e7e5"], GameResult::Draw))
            .unwrap();
        writer.write(&game(&["d2d4"], GameResult::Draw)).unwrap();
        drop(writer);
        let whole = std::fs::read(&path).unwrap();
        let second = 9 + 17 + 16 + 2 * 4;
        for cut in [second + 1, whole.len() - 1] {
            std::fs::write(&path, &whole[..cut]).unwrap();
            let refused = DataWriter::open(&path, &records).unwrap_err();
            assert_eq!(refused.kind(), io::ErrorKind::InvalidData);
            let message = refused.to_string();
            let truncate = format!("`truncate -s {second} {}`", path.display());
            assert!(
                message.starts_with(&format!("byte {second}: a game cut off")),
                "{message}"
            );
            assert!(message.contains(&truncate), "{message}");
            assert_eq!(
                std::fs::read(&path).unwrap(),
                &whole[..cut],
                "left as it was"
            );
        }
        std::fs::write(&path, b"not a game file").unwrap();
        let refused = DataWriter::open(&path, &records).unwrap_err();
        assert!(refused.to_string().contains("not a game file"), "{refused}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_second_writer_on_the_same_files_is_refused() {
        let dir = scratch("lock");
        let (path, records) = (dir.join("data.games"), dir.join("data.bin"));
        let first = DataWriter::open(&path, &records).unwrap();
        let second = DataWriter::open(&path, &records).unwrap_err();
        assert_eq!(second.kind(), io::ErrorKind::ResourceBusy, "{second}");
        drop(first);
        // A run writing the file of records (an older build) holds it locked too.
        std::fs::write(&records, b"").unwrap();
        let older = File::open(&records).unwrap();
        older.try_lock().unwrap();
        let refused = DataWriter::open(&path, &records).unwrap_err();
        assert_eq!(refused.kind(), io::ErrorKind::ResourceBusy, "{refused}");
        drop(older);
        assert!(
            DataWriter::open(&path, &records).is_ok(),
            "free again once the others are closed"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
