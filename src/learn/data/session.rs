//! A datagen run from its settings to the data directory: the game file opened and the data
//! already there counted, the run logged in the manifest at its start and at its end, the
//! games played with progress reported on the way. The mirror of
//! [`Trainer`](crate::learn::fit::trainer::Trainer) on the data side: `rookery datagen`
//! only parses its arguments into a [`Session`] and runs it.
//!
//! Games are appended to `DIR/selfplay.games` (see [`game_file`](super::game_file)), and each
//! run is logged in `DIR/manifest.jsonl` (see [`manifest`]). The 32-byte records of
//! `DIR/selfplay.bin`, which datagen wrote before the game file, are counted with them and
//! left as they are. A session stops once the directory holds [`DatagenConfig::games`] games,
//! or when killed: every game already written stays, and running the same session again goes
//! on until the directory holds them all. It also stops when its settings make no new games
//! ([`Stopped`]), and says why.
//!
//! Before it writes anything, a session refuses settings that make no opening (see
//! [`datagen::check_openings`]) and a manifest that `rookery data` would refuse (see
//! [`manifest::check`]).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Duration;

use super::datagen::{self, DatagenConfig, Stopped, playable};
use super::manifest::{self, OpeningSource, RunEnd, RunStart};
use super::writer::DataWriter;
use crate::chess::Position;
use crate::chess::epd::{self, EpdLine};
use crate::engine::build_info::GIT_COMMIT;
use crate::hashing::checksum::fnv1a;
use crate::input_file;
use shakmaty::{CastlingMode, Chess};

/// The game file's name inside the output directory.
pub const GAME_FILE: &str = "selfplay.games";
/// The name of the file of 32-byte records inside the output directory, which runs before
/// the game file wrote.
pub const RECORD_FILE: &str = "selfplay.bin";

/// The longest opening file read (`--book`): millions of positions, one a line.
const MAX_BOOK_BYTES: u64 = 1 << 30;
/// How often progress is reported.
const PROGRESS_EVERY: Duration = Duration::from_secs(10);

/// Why a session stopped before its end: a message for the person who started it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionError(pub String);

impl std::fmt::Display for SessionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SessionError {}

/// A book's playable start positions and where they came from.
#[derive(Clone, Debug)]
pub struct Book {
    /// The positions where a game can be played, as boards (see
    /// [`DatagenConfig::openings`]).
    pub positions: Vec<Chess>,
    /// The book, as the manifest names it.
    pub source: OpeningSource,
    /// Positions of the file left out because the game is over there.
    pub left_out: usize,
}

impl Book {
    /// No book: every game starts from the start position.
    pub fn start_position() -> Book {
        Book {
            positions: Vec::new(),
            source: OpeningSource::StartPosition,
            left_out: 0,
        }
    }

    /// The playable start positions of an EPD or FEN file, one a line (read as
    /// [`epd::split_line`] reads them: operations passed over). A line that is not a legal position of standard chess (castling
    /// rights only Chess960 can have included) refuses the file, and so does a file without
    /// a position where a game can be played.
    pub fn read(path: &Path) -> Result<Book, SessionError> {
        let text = input_file::read_text(path, MAX_BOOK_BYTES, "an opening file")
            .map_err(|e| SessionError(format!("cannot read {}: {e}", path.display())))?;
        let bytes = text.as_bytes();
        let mut positions = Vec::new();
        let mut over = 0;
        for (i, line) in text.lines().enumerate() {
            let Some(EpdLine { fen, .. }) = epd::split_line(line) else {
                continue;
            };
            let at_line = |e: String| SessionError(format!("{}:{}: {e}", path.display(), i + 1));
            let pos = Position::from_fen(&fen, false).map_err(|e| at_line(e.to_string()))?;
            if pos.castling_mode() != CastlingMode::Standard {
                return Err(at_line(format!(
                    "castling rights that only Chess960 can have: datagen plays standard chess \
                     ({fen})"
                )));
            }
            if playable(&pos) {
                positions.push(pos.chess().clone());
            } else {
                over += 1;
            }
        }
        if positions.is_empty() {
            return Err(SessionError(format!(
                "{}: no playable position ({over} where the game is over)",
                path.display()
            )));
        }
        Ok(Book {
            source: OpeningSource::Book {
                path: path.display().to_string(),
                checksum: fnv1a(bytes),
                positions: positions.len(),
            },
            positions,
            left_out: over,
        })
    }
}

/// A configured datagen run.
#[derive(Clone, Debug)]
pub struct Session {
    /// Nodes, games, threads, seed, openings and the evaluation.
    pub config: DatagenConfig,
    /// Where the openings come from, as the manifest names it.
    pub openings: OpeningSource,
    /// The data directory (made when missing).
    pub dir: PathBuf,
}

/// What a finished session wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The game file.
    pub data_file: PathBuf,
    /// Games this session wrote.
    pub games: u64,
    /// Training positions this session wrote.
    pub positions: u64,
    /// Games the directory holds now, in the game file and the file of records.
    pub games_in_dir: u64,
    /// Why the session stopped before the games it was asked for, if it did.
    pub stopped: Option<Stopped>,
}

impl Session {
    /// Runs the session: lines for a person (the settings, then progress about every ten
    /// seconds) go to `log`.
    pub fn run(&self, log: &(dyn Fn(&str) + Sync)) -> Result<Generated, SessionError> {
        let config = &self.config;
        let dir = &self.dir;
        datagen::check_openings(config).map_err(|e| SessionError(format!("datagen: {e}")))?;
        std::fs::create_dir_all(dir)
            .map_err(|e| SessionError(format!("cannot create {}: {e}", dir.display())))?;
        manifest::check(dir).map_err(|e| {
            SessionError(format!(
                "{e}; datagen appends to no manifest that `rookery data` refuses"
            ))
        })?;
        let output = dir.join(GAME_FILE);
        let writer = DataWriter::open(&output, &dir.join(RECORD_FILE))
            .map_err(|e| SessionError(format!("{}: {e}", output.display())))?;
        let (records_start, games_start) = (writer.existing_records(), writer.existing_games());
        if let Some(games) = config.games.filter(|&g| g <= games_start) {
            return Err(SessionError(format!(
                "{} already holds {games_start} games, --games {games} asks for {games} in all: \
                 nothing to play",
                dir.display()
            )));
        }
        let start = RunStart {
            time: manifest::unix_now(),
            build: crate::engine::NAME.to_string(),
            commit: GIT_COMMIT.to_string(),
            net: config.network.as_ref().map(|net| net.checksum()),
            nodes: config.nodes,
            hard_nodes: datagen::move_limits(config).nodes.unwrap_or(config.nodes),
            seed: config.seed,
            threads: config.threads,
            openings: self.openings.clone(),
            random_plies: config.random_plies,
            games_target: config.games,
            records: records_start,
            games: games_start,
        };
        let manifest_error = |e: std::io::Error| {
            SessionError(format!(
                "{}: {e}",
                dir.join(manifest::MANIFEST_FILE).display()
            ))
        };
        manifest::append(dir, &start.line()).map_err(manifest_error)?;
        let evaluation = match &config.network {
            Some(net) => format!("net {:016x}", net.checksum()),
            None => "the hand-written evaluation".to_string(),
        };
        log(&format!(
            "datagen: {} nodes per move (soft), {evaluation}, {} thread(s), appending to {} \
             ({records_start} training positions, {games_start} games in the directory)",
            config.nodes,
            config.threads,
            output.display()
        ));
        let stop = AtomicBool::new(false);
        let games_wanted = config.games.map(|target| target - games_start);
        let ran = datagen::run(config, writer, &stop, PROGRESS_EVERY, &|p, t| {
            let mut line = format!("{:7.0} s  {}", t.as_secs_f64(), p.summary(t));
            if let Some(left) = games_wanted.and_then(|w| time_left(w, p.games.load(Relaxed), t)) {
                line += &format!(" eta {}", clock_text(left));
            }
            log(&line);
        })
        .map_err(|e| SessionError(format!("{}: {e}", output.display())))?;
        let progress = ran.progress;
        let played = progress.games.load(Relaxed);
        let positions = progress.positions.load(Relaxed);
        let end = RunEnd {
            time: manifest::unix_now(),
            started: start.time,
            records_start,
            records_end: records_start + positions,
            games_start,
            games_end: games_start + played,
            repeats: progress.repeats.load(Relaxed),
        };
        manifest::append(dir, &end.line()).map_err(manifest_error)?;
        Ok(Generated {
            data_file: output,
            games: played,
            positions,
            games_in_dir: end.games_end,
            stopped: ran.stopped,
        })
    }
}

/// The time the games still wanted should take at the pace so far: `wanted` games in the
/// session, `played` of them in `elapsed`. None before the first game, whose pace is unknown.
fn time_left(wanted: u64, played: u64, elapsed: Duration) -> Option<Duration> {
    (played > 0).then(|| elapsed.mul_f64(wanted.saturating_sub(played) as f64 / played as f64))
}

/// A duration as hours, minutes and seconds for a person (`2h05m`, `7m30s`, `45s`).
fn clock_text(time: Duration) -> String {
    let secs = time.as_secs();
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    match (h, m) {
        (0, 0) => format!("{s}s"),
        (0, _) => format!("{m}m{s:02}s"),
        _ => format!("{h}h{m:02}m"),
    }
}

#[cfg(test)]
mod eta_tests {
    use super::*;

    #[test]
    fn the_time_left_follows_the_pace_so_far() {
        // 100 of 400 games in 60 s: 300 more take 180 s.
        let left = time_left(400, 100, Duration::from_secs(60));
        assert_eq!(left, Some(Duration::from_secs(180)));
        assert_eq!(time_left(400, 0, Duration::from_secs(60)), None);
        assert_eq!(
            time_left(400, 400, Duration::from_secs(60)),
            Some(Duration::ZERO)
        );
    }

    #[test]
    fn the_time_left_reads_as_hours_minutes_and_seconds() {
        assert_eq!(clock_text(Duration::from_secs(45)), "45s");
        assert_eq!(clock_text(Duration::from_secs(450)), "7m30s");
        assert_eq!(clock_text(Duration::from_secs(7500)), "2h05m");
    }
}
