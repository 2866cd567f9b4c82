//! The data file a datagen run appends to: opened and locked, the records and games already
//! in it counted, then whole games appended, each in one write.
//!
//! A game is not written when it is a repeat of a game this writer already wrote (same
//! hash, see [`game_hash`]), when it has no record, or when its first record would read as
//! the continuation of the last record in the file (see [`continues`]): every game in a
//! file this writer wrote is then found again by [`super::games::split`].

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{self, BufReader, Read, Seek, SeekFrom, Write};
use std::path::Path;

use super::games::{continues, game_hash};
use super::record::{RECORD_BYTES, Record};

/// What became of a game given to [`DataWriter::write`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    /// Appended to the file.
    Game,
    /// Not written: it has no record.
    Empty,
    /// Not written: the same game was written before.
    Repeat,
    /// Not written: its first record would read as the continuation of the game before.
    Continuation,
}

/// A data file open for appending whole games.
#[derive(Debug)]
pub struct DataWriter {
    file: File,
    /// Records in the file when it was opened.
    existing_records: u64,
    /// Games in the file when it was opened.
    existing_games: u64,
    /// The last record in the file.
    last: Option<Record>,
    /// Hashes of the games written through this writer.
    written: HashSet<u64>,
}

impl DataWriter {
    /// Opens `path` for appending, creating it if need be. The records and games in it are
    /// counted, and a partly written record left at its end by a stopped run is cut off.
    /// The file stays locked while the writer lives: a second run on the same file is
    /// refused, since it would write the same games. A corrupt record refuses the file.
    pub fn open(path: &Path) -> io::Result<DataWriter> {
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .read(true)
            .open(path)?;
        file.try_lock().map_err(|e| match e {
            std::fs::TryLockError::WouldBlock => io::Error::new(
                io::ErrorKind::ResourceBusy,
                "another datagen run is writing this file (one writer per directory)",
            ),
            std::fs::TryLockError::Error(e) => e,
        })?;
        // Counted first: a file with a corrupt record is left as it is.
        let (existing_games, last) = count_games(&mut file)?;
        let len = file.metadata()?.len();
        let whole = len - len % RECORD_BYTES as u64;
        if whole != len {
            file.set_len(whole)?;
        }
        Ok(DataWriter {
            file,
            existing_records: whole / RECORD_BYTES as u64,
            existing_games,
            last,
            written: HashSet::new(),
        })
    }

    /// Records in the file when it was opened.
    pub fn existing_records(&self) -> u64 {
        self.existing_records
    }

    /// Games in the file when it was opened.
    pub fn existing_games(&self) -> u64 {
        self.existing_games
    }

    /// Appends a game's records in one write, unless it is empty, a repeat, or would read
    /// as the continuation of the game before it.
    pub fn write(&mut self, records: &[Record]) -> io::Result<Written> {
        let (Some(first), Some(last)) = (records.first(), records.last()) else {
            return Ok(Written::Empty);
        };
        let hash = game_hash(records);
        if self.written.contains(&hash) {
            return Ok(Written::Repeat);
        }
        if self.last.as_ref().is_some_and(|l| continues(l, first)) {
            return Ok(Written::Continuation);
        }
        let bytes: Vec<u8> = records.iter().flat_map(Record::encode).collect();
        self.file.write_all(&bytes)?;
        self.written.insert(hash);
        self.last = Some(last.clone());
        Ok(Written::Game)
    }
}

/// The games in a data file and its last record, read from the start.
fn count_games(file: &mut File) -> io::Result<(u64, Option<Record>)> {
    file.seek(SeekFrom::Start(0))?;
    let mut reader = BufReader::with_capacity(RECORD_BYTES << 12, &*file);
    let mut bytes = [0u8; RECORD_BYTES];
    let mut games = 0;
    let mut last: Option<Record> = None;
    for index in 0.. {
        match reader.read_exact(&mut bytes) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => break,
            Err(e) => return Err(e),
        }
        let record = Record::decode(&bytes).map_err(|e| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("record {index} is corrupt: {e}"),
            )
        })?;
        if !last.as_ref().is_some_and(|l| continues(l, &record)) {
            games += 1;
        }
        last = Some(record);
    }
    Ok((games, last))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::data::games::split;
    use crate::learn::data::record::{GameResult, decode_all};
    use shakmaty::{Chess, Position};

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("rookery-writer-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("data.bin")
    }

    /// The positions of a line of moves from the start position, as a game's records.
    fn game(moves: &[&str], result: GameResult) -> Vec<Record> {
        let mut pos = Chess::default();
        let mut records = Vec::new();
        for uci in moves {
            let mv = uci
                .parse::<shakmaty::uci::UciMove>()
                .unwrap()
                .to_move(&pos)
                .unwrap();
            pos.play_unchecked(mv);
            records.push(Record {
                board: pos.board().clone(),
                turn: pos.turn(),
                score: 10,
                result,
                halfmoves: pos.halfmoves() as u8,
                fullmoves: u32::from(pos.fullmoves()) as u16,
            });
        }
        records
    }

    #[test]
    fn repeats_and_games_that_would_not_split_are_not_written() {
        let path = scratch("repeat");
        let _ = std::fs::remove_file(&path);
        let a = game(&["e2e4", "e7e5", "g1f3"], GameResult::Draw);
        let b = game(&["d2d4", "d7d5"], GameResult::WhiteWon);
        let mut writer = DataWriter::open(&path).unwrap();
        assert_eq!(writer.write(&a).unwrap(), Written::Game);
        assert_eq!(writer.write(&b).unwrap(), Written::Game);
        assert_eq!(writer.write(&a).unwrap(), Written::Repeat);
        assert_eq!(writer.write(&[]).unwrap(), Written::Empty);
        // One move on from the end of b, in b's game: it would read as more of b.
        let more_of_b = game(&["d2d4", "d7d5", "c2c4"], GameResult::Draw)[2..].to_vec();
        assert_eq!(writer.write(&more_of_b).unwrap(), Written::Continuation);
        drop(writer);
        let bytes = std::fs::read(&path).unwrap();
        let records = decode_all(&bytes).unwrap().records;
        assert_eq!(records, [a.clone(), b.clone()].concat());
        assert_eq!(split(&records), [0..3, 3..5]);
        // Opened again: the games are counted, and a repeat of an earlier run's game is
        // written (only this writer's games are remembered).
        let mut again = DataWriter::open(&path).unwrap();
        assert_eq!((again.existing_records(), again.existing_games()), (5, 2));
        assert_eq!(again.write(&more_of_b).unwrap(), Written::Continuation);
        assert_eq!(again.write(&a).unwrap(), Written::Game);
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }

    #[test]
    fn a_partial_record_is_cut_and_a_corrupt_one_refuses_the_file() {
        let path = scratch("partial");
        let a = game(&["e2e4", "e7e5"], GameResult::Draw);
        let mut bytes: Vec<u8> = a.iter().flat_map(Record::encode).collect();
        bytes.extend_from_slice(&[1u8; 13]);
        std::fs::write(&path, &bytes).unwrap();
        let writer = DataWriter::open(&path).unwrap();
        assert_eq!((writer.existing_records(), writer.existing_games()), (2, 1));
        drop(writer);
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 64);
        bytes.truncate(64);
        bytes[31] = 9;
        std::fs::write(&path, &bytes).unwrap();
        let refused = DataWriter::open(&path).unwrap_err();
        assert_eq!(refused.kind(), io::ErrorKind::InvalidData);
        assert!(refused.to_string().contains("record 0"), "{refused}");
        bytes.extend_from_slice(&[1u8; 13]);
        std::fs::write(&path, &bytes).unwrap();
        assert!(DataWriter::open(&path).is_err());
        assert_eq!(std::fs::read(&path).unwrap(), bytes, "left as it was");
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }

    #[test]
    fn a_second_writer_on_the_same_file_is_refused() {
        let path = scratch("lock");
        let first = DataWriter::open(&path).unwrap();
        let second = DataWriter::open(&path).unwrap_err();
        assert_eq!(second.kind(), io::ErrorKind::ResourceBusy, "{second}");
        drop(first);
        assert!(
            DataWriter::open(&path).is_ok(),
            "free again once the first is closed"
        );
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }
}
