//! Self-play data generation: games at a soft node count per move, each position written as
//! a [`Record`] with the search's score and the game's result.
//!
//! - **Openings.** Each game starts from the start position, or from a random position of
//!   a book of FENs, then plays [`DatagenConfig::random_plies`] random legal moves (one more
//!   half the time, so both sides get to move first out of the random phase), stopping
//!   where the game ends. An opening that ends the game, or that a search of one move
//!   scores beyond [`OPENING_SCORE_LIMIT`], is drawn again; after [`OPENING_TRIES`] such
//!   draws the game has no opening ([`NoOpening`]) and the run stops. The random plies are
//!   not recorded.
//! - **Moves.** One search per move under a soft node limit (it finishes the iteration under
//!   way once the limit is passed, and stops outright at [`HARD_NODES_FACTOR`] times it),
//!   one thread, a table of its own that is cleared between games: a game is a function of
//!   its seed alone. The search evaluates with [`DatagenConfig::network`], or the hand-written
//!   evaluation, read unscaled ([`Scaling::Raw`]).
//! - **Training positions.** Not in check, best move quiet (no capture, no promotion), score
//!   not a mate or tablebase score ([`trainable`]); every other ply is kept in the game,
//!   marked skipped.
//! - **Game end.** Checkmate, stalemate, insufficient material, the fifty-move rule and
//!   threefold repetition end a game as the rules say. To save time, a game is adjudicated
//!   won once the score has stayed beyond [`WIN_SCORE`] for [`WIN_PLIES`] plies in a row, and
//!   drawn once it has stayed within [`DRAW_SCORE`] for [`DRAW_PLIES`] plies past ply
//!   [`DRAW_FROM_PLY`], or at [`MAX_PLIES`].
//! - **Output.** Games are appended to a game file (see [`super::game_file`]) through a
//!   [`DataWriter`], a whole game in one write; a game that repeats one of the run's games,
//!   or has no training position, is not written. A run stopped at any moment loses at most
//!   the games in progress. The restart's seeds are mixed with the number of training
//!   positions already there, so it does not replay the games it has.
//! - **Total.** [`DatagenConfig::games`] counts the games in the directory, those already
//!   there included (a file of 32-byte records beside the game file too): a run started
//!   again after a stop plays only the games still missing.
//! - **Cut short.** A run whose last [`MAX_UNWRITTEN_IN_A_ROW`] games were none of them
//!   written (each a repeat, or without a training position) has no new games to make and
//!   stops, and so does one that found no opening for a game ([`Stopped`]).
//! - **Threads.** Game `i` of a run is played from a seed of the run's seed, the training
//!   positions already in the directory and `i` alone ([`game_seed`]), on a table and search
//!   memory cleared for it: the games written are those of the first indices that give a
//!   game to write, whatever the number of threads that play them.

use std::io;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use shakmaty::{CastlingMode, Chess, Color, Position as _};

use super::game_file::{Ply, ScoredGame, trainable};
use super::record::{GameResult, Record};
use super::writer::{DataWriter, Written};
use crate::chess::Position;
use crate::engine::eval::nnue::Network;
use crate::engine::eval::scaling::Scaling;
use crate::engine::limits::Limits;
use crate::engine::search::memory::SearchMemory;
use crate::engine::search::{SearchOptions, Signals, Silent, search, search_with_memory};
use crate::engine::tt::ChessTable;

/// A score (centipawns, side to move) beyond which a game counts as won...
pub const WIN_SCORE: i32 = 2000;
/// ...once it has stayed there this many plies in a row.
pub const WIN_PLIES: u32 = 4;
/// A score within which a game counts as drawn...
pub const DRAW_SCORE: i32 = 10;
/// ...once it has stayed there this many plies in a row...
pub const DRAW_PLIES: u32 = 10;
/// ...from this ply of the searched part on.
pub const DRAW_FROM_PLY: usize = 60;
/// A game still going after this many searched plies is a draw.
pub const MAX_PLIES: usize = 400;
/// A move's search stops outright at this many times [`DatagenConfig::nodes`].
pub const HARD_NODES_FACTOR: u64 = 8;
/// An opening that a search scores beyond this many centipawns either way is not played.
pub const OPENING_SCORE_LIMIT: i32 = 300;

/// Games in a row not written (repeats or without a training position) after which a run
/// stops: its settings make no new games.
pub const MAX_UNWRITTEN_IN_A_ROW: u64 = 100;
/// Tries at an opening of a game before the run stops (see [`NoOpening`]).
pub const OPENING_TRIES: usize = 1000;

/// Stack of a generating thread: the search recursion keeps move lists on the stack.
const THREAD_STACK: usize = 32 << 20;
/// Table size per generating thread, MiB.
pub const TABLE_MIB: usize = 16;

/// What a datagen run does.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    /// Soft node limit of each move's search.
    pub nodes: u64,
    /// Games the data directory is to hold in all, those already in it included; `None` runs
    /// until stopped.
    pub games: Option<u64>,
    /// Generating threads, one game each at a time.
    pub threads: usize,
    /// Random plies at the start of each game (one more half the time).
    pub random_plies: usize,
    /// The run's seed.
    pub seed: u64,
    /// Start positions to draw from, each [`playable`] in standard chess, kept as boards
    /// (a [`Position`] with its stack takes tens of KiB); empty means the start position.
    pub openings: Vec<Chess>,
    /// The network that evaluates; the hand-written evaluation when `None`.
    pub network: Option<Arc<Network>>,
}

/// Running totals of a datagen run.
#[derive(Debug, Default)]
pub struct Progress {
    /// Games finished and written.
    pub games: AtomicU64,
    /// Games not written because the run had written the same game before.
    pub repeats: AtomicU64,
    /// Games not written because training uses none of their positions.
    pub empty: AtomicU64,
    /// Training positions written.
    pub positions: AtomicU64,
    /// Plies written, training positions or not.
    pub plies: AtomicU64,
    /// Games White won.
    pub white_wins: AtomicU64,
    /// Games drawn.
    pub draws: AtomicU64,
    /// Games Black won.
    pub black_wins: AtomicU64,
    /// Nodes searched.
    pub nodes: AtomicU64,
}

impl Progress {
    /// Counts a finished game and what became of it.
    fn count(&self, game: &Game, written: Written) {
        self.nodes.fetch_add(game.nodes, Relaxed);
        let skipped = match written {
            Written::Game => None,
            Written::Repeat => Some(&self.repeats),
            Written::Empty => Some(&self.empty),
        };
        if let Some(counter) = skipped {
            counter.fetch_add(1, Relaxed);
            return;
        }
        self.games.fetch_add(1, Relaxed);
        self.positions.fetch_add(game.records.len() as u64, Relaxed);
        self.plies.fetch_add(game.plies.len() as u64, Relaxed);
        match game.result {
            GameResult::WhiteWon => &self.white_wins,
            GameResult::Draw => &self.draws,
            GameResult::BlackWon => &self.black_wins,
        }
        .fetch_add(1, Relaxed);
    }

    /// A one-line summary: games, positions, speed, W/D/L from White's view, repeated
    /// games not written (and the other games not written, when there are any).
    pub fn summary(&self, elapsed: Duration) -> String {
        let secs = elapsed.as_secs_f64().max(1e-9);
        let positions = self.positions.load(Relaxed);
        let mut line = format!(
            "games {} positions {} ({:.0}/s) nodes/s {:.0} W/D/L {}/{}/{} repeats {}",
            self.games.load(Relaxed),
            positions,
            positions as f64 / secs,
            self.nodes.load(Relaxed) as f64 / secs,
            self.white_wins.load(Relaxed),
            self.draws.load(Relaxed),
            self.black_wins.load(Relaxed),
            self.repeats.load(Relaxed),
        );
        let empty = self.empty.load(Relaxed);
        if empty > 0 {
            line += &format!(" empty {empty}");
        }
        line
    }
}

/// One finished self-play game.
#[derive(Clone, Debug)]
pub struct Game {
    /// The training positions, with the game's result filled in.
    pub records: Vec<Record>,
    /// How it ended.
    pub result: GameResult,
    /// Nodes searched over the game.
    pub nodes: u64,
    /// The opening the game started from (random plies played).
    pub start: Position,
    /// The plies played from `start`, with their scores.
    pub plies: Vec<Ply>,
}

impl Game {
    /// The game as the game file keeps it.
    pub fn scored(&self) -> ScoredGame {
        ScoredGame {
            start: self.start.chess().clone(),
            plies: self.plies.clone(),
            result: self.result,
        }
    }
}

/// No opening for a game: each of [`OPENING_TRIES`] tries ended the game in its random
/// plies, or left one side more than [`OPENING_SCORE_LIMIT`] ahead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoOpening {
    /// Tries whose random plies ended the game.
    pub ended: usize,
    /// Tries a search scored beyond the limit.
    pub unbalanced: usize,
    /// The random plies asked for (one more half the time).
    pub random_plies: usize,
}

impl std::fmt::Display for NoOpening {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "no opening in {OPENING_TRIES} tries: the game ended within the random plies \
             ({} asked for) in {} of them, and a search scored {} beyond \
             {OPENING_SCORE_LIMIT} cp; fewer random plies, or a book of balanced positions, \
             make openings",
            self.random_plies, self.ended, self.unbalanced
        )
    }
}

impl std::error::Error for NoOpening {}

/// Why a run stopped before it made the games it was asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// A game found no opening.
    NoOpening(NoOpening),
    /// The last [`MAX_UNWRITTEN_IN_A_ROW`] games were none of them written.
    NoNewGames {
        /// Games the run wrote.
        written: u64,
    },
}

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stopped::NoOpening(no) => no.fmt(f),
            Stopped::NoNewGames { written } => write!(
                f,
                "the last {MAX_UNWRITTEN_IN_A_ROW} games were repeats of the {written} games this \
                 run wrote, or had no training position: these settings make no new games (more \
                 random plies or a larger book make others)"
            ),
        }
    }
}

/// Plays one self-play game from `seed`: its plies and training positions. The worker's
/// `table` and `memory` start the game empty and keep what each move's search learned for
/// the next, as an engine does through a game. Refused when no opening is found.
pub fn play_game(
    config: &DatagenConfig,
    seed: u64,
    table: &ChessTable,
    memory: &mut SearchMemory,
) -> Result<Game, NoOpening> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pos = opening(config, &mut rng, table)?;
    let start = pos.clone();
    let mut plies = Vec::new();
    let options = search_options(config);
    let limits = move_limits(config);
    table.clear();
    memory.clear();
    let mut kept: Vec<Record> = Vec::new();
    let mut nodes = 0;
    let mut winning_streak = 0u32;
    let mut drawn_streak = 0u32;
    let mut last_winner = None;
    let mut searched_plies = 0;
    let result = loop {
        if let Some(result) = rules_result(&pos) {
            break result;
        }
        if searched_plies >= MAX_PLIES {
            break GameResult::Draw;
        }
        let found = search_with_memory(
            &pos,
            &limits,
            &options,
            table,
            &Signals::default(),
            &Silent,
            memory,
        );
        nodes += found.nodes;
        let Some(best) = found.best else {
            break rules_result(&pos).unwrap_or(GameResult::Draw);
        };
        let score = found.score;
        let turn = pos.turn();
        // Adjudication on the search's score, from White's view.
        let white_score = if turn.is_white() { score } else { -score };
        if white_score.abs() >= WIN_SCORE {
            let winner = Color::from_white(white_score > 0);
            winning_streak = if last_winner == Some(winner) {
                winning_streak + 1
            } else {
                1
            };
            last_winner = Some(winner);
            if winning_streak >= WIN_PLIES {
                break win_for(winner);
            }
        } else {
            winning_streak = 0;
            last_winner = None;
        }
        if searched_plies >= DRAW_FROM_PLY && score.abs() <= DRAW_SCORE {
            drawn_streak += 1;
            if drawn_streak >= DRAW_PLIES {
                break GameResult::Draw;
            }
        } else {
            drawn_streak = 0;
        }
        let clamped = score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
        let skip = !trainable(pos.chess(), best, score);
        if !skip {
            kept.push(Record::of_position(pos.chess(), clamped, GameResult::Draw));
        }
        pos.push(best);
        plies.push(Ply {
            mv: best,
            score: clamped,
            skip,
        });
        searched_plies += 1;
    };
    let records = kept
        .into_iter()
        .map(|record| Record { result, ..record })
        .collect();
    Ok(Game {
        records,
        result,
        nodes,
        start,
        plies,
    })
}

fn win_for(side: Color) -> GameResult {
    if side.is_white() {
        GameResult::WhiteWon
    } else {
        GameResult::BlackWon
    }
}

/// The result the rules give the position, if the game is over.
fn rules_result(pos: &Position) -> Option<GameResult> {
    let chess = pos.chess();
    if chess.is_checkmate() {
        return Some(win_for(!chess.turn()));
    }
    if chess.is_stalemate()
        || chess.is_insufficient_material()
        || chess.halfmoves() >= 100
        || pos.repetitions() >= 2
    {
        return Some(GameResult::Draw);
    }
    None
}

/// The limits of a move's search: the soft node limit, and the hard one at
/// [`HARD_NODES_FACTOR`] times it.
pub fn move_limits(config: &DatagenConfig) -> Limits {
    Limits {
        soft_nodes: Some(config.nodes),
        nodes: Some(config.nodes.saturating_mul(HARD_NODES_FACTOR)),
        ..Limits::default()
    }
}

/// Whether a game can be played from `pos`: the side to move has a move and the rules do
/// not end the game there.
pub fn playable(pos: &Position) -> bool {
    !pos.legal_moves().is_empty() && rules_result(pos).is_none()
}

/// A move's search options: one thread, one line, the run's evaluator read raw (the labels
/// keep the evaluator's scale, which play scales once: [`Scaling`]).
fn search_options(config: &DatagenConfig) -> SearchOptions {
    SearchOptions {
        threads: 1,
        multi_pv: 1,
        network: config.network.clone(),
        scaling: Scaling::Raw,
        ..SearchOptions::default()
    }
}

/// Whether the search of one move (as a game searches, on a cleared table) scores `pos`
/// within [`OPENING_SCORE_LIMIT`].
fn balanced(pos: &Position, config: &DatagenConfig, table: &ChessTable) -> bool {
    let options = search_options(config);
    let limits = move_limits(config);
    table.clear();
    let found = search(pos, &limits, &options, table, &Signals::default(), &Silent);
    found.score.abs() <= OPENING_SCORE_LIMIT
}

/// A start position with the random plies played; tries again when they end the game or
/// leave one side more than [`OPENING_SCORE_LIMIT`] ahead, and gives up after
/// [`OPENING_TRIES`] tries (a book of lost positions, random plies that end every game).
/// `genfens` draws its openings here too, so games played elsewhere start as datagen's do.
pub fn opening(
    config: &DatagenConfig,
    rng: &mut ChaCha8Rng,
    table: &ChessTable,
) -> Result<Position, NoOpening> {
    let mut failed = NoOpening {
        ended: 0,
        unbalanced: 0,
        random_plies: config.random_plies,
    };
    for _ in 0..OPENING_TRIES {
        let mut pos = if config.openings.is_empty() {
            Position::startpos()
        } else {
            let board = &config.openings[rng.random_range(0..config.openings.len())];
            Position::new(board.clone(), CastlingMode::Standard)
        };
        let plies = config
            .random_plies
            .saturating_add(usize::from(rng.random_bool(0.5)));
        play_random_plies(&mut pos, plies, rng);
        if !playable(&pos) {
            failed.ended += 1;
        } else if !balanced(&pos, config, table) {
            failed.unbalanced += 1;
        } else {
            return Ok(pos);
        }
    }
    Err(failed)
}

/// Plays up to `plies` random legal moves from `pos`, stopping where the game ends.
fn play_random_plies(pos: &mut Position, plies: usize, rng: &mut ChaCha8Rng) {
    for _ in 0..plies {
        if !playable(pos) {
            break;
        }
        let moves = pos.legal_moves();
        pos.push(moves[rng.random_range(0..moves.len())]);
    }
}

/// Whether `config` can make openings: a game's tries at one, from a seed of the run's
/// seed, find one (see [`NoOpening`]). What a run checks before it writes anything.
pub fn check_openings(config: &DatagenConfig) -> Result<(), NoOpening> {
    // Without a table the run fails at its start, with the reason.
    let Ok(table) = ChessTable::new(TABLE_MIB) else {
        return Ok(());
    };
    let mut rng = ChaCha8Rng::seed_from_u64(game_seed(config.seed, 0, 0));
    opening(config, &mut rng, &table).map(|_| ())
}

/// The seed of game `index` of a run with `seed` that started on data of `existing` training
/// positions.
fn game_seed(seed: u64, existing: u64, index: u64) -> u64 {
    // SplitMix64 steps: nearby inputs give unrelated seeds.
    let mut z = seed
        ^ existing.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// What a datagen run did.
#[derive(Debug)]
pub struct Ran {
    /// Its totals.
    pub progress: Progress,
    /// Why it stopped before the games it was asked for, if it did.
    pub stopped: Option<Stopped>,
}

/// Runs datagen: plays games on `config.threads` threads and appends them through
/// `writer` until the file holds `config.games` games, `stop` is set, or the run cannot
/// go on ([`Stopped`]). `report` is called about every `report_every` with the totals so
/// far, and once at the end.
pub fn run(
    config: &DatagenConfig,
    writer: DataWriter,
    stop: &AtomicBool,
    report_every: Duration,
    report: &(dyn Fn(&Progress, Duration) + Sync),
) -> io::Result<Ran> {
    let existing = writer.existing_records();
    let to_play = config
        .games
        .map(|games| games.saturating_sub(writer.existing_games()));
    let writer = Mutex::new(writer);
    let progress = Progress::default();
    let next_game = AtomicU64::new(0);
    // Games written or being played, while `to_play` bounds them.
    let claimed = AtomicU64::new(0);
    let failure: Mutex<Option<io::Error>> = Mutex::new(None);
    let stopped: Mutex<Option<Stopped>> = Mutex::new(None);
    let stop_for = |reason: Stopped| {
        stopped
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_or_insert(reason);
        stop.store(true, Relaxed);
    };
    // Games finished in a row that were not written.
    let unwritten = AtomicU64::new(0);
    let start = Instant::now();
    std::thread::scope(|scope| -> io::Result<()> {
        let mut workers = Vec::new();
        for _ in 0..config.threads.max(1) {
            let worker = std::thread::Builder::new()
                .stack_size(THREAD_STACK)
                .spawn_scoped(scope, || {
                    let table = match ChessTable::new(TABLE_MIB) {
                        Ok(table) => table,
                        Err(e) => {
                            *failure.lock().unwrap_or_else(|e| e.into_inner()) =
                                Some(io::Error::other(e.to_string()));
                            return;
                        }
                    };
                    let mut memory = SearchMemory::new();
                    while !stop.load(Relaxed) {
                        if let Some(limit) = to_play
                            && claimed.fetch_add(1, Relaxed) >= limit
                        {
                            claimed.fetch_sub(1, Relaxed);
                            break;
                        }
                        let index = next_game.fetch_add(1, Relaxed);
                        let seed = game_seed(config.seed, existing, index);
                        let game = match play_game(config, seed, &table, &mut memory) {
                            Ok(game) => game,
                            Err(no_opening) => {
                                stop_for(Stopped::NoOpening(no_opening));
                                break;
                            }
                        };
                        let written = writer
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .write(&game.scored());
                        match written {
                            Ok(written) => {
                                progress.count(&game, written);
                                if written == Written::Game {
                                    unwritten.store(0, Relaxed);
                                    continue;
                                }
                                // A game not written leaves its place to another.
                                if to_play.is_some() {
                                    claimed.fetch_sub(1, Relaxed);
                                }
                                if unwritten.fetch_add(1, Relaxed) + 1 >= MAX_UNWRITTEN_IN_A_ROW {
                                    let written = progress.games.load(Relaxed);
                                    stop_for(Stopped::NoNewGames { written });
                                }
                            }
                            Err(e) => {
                                *failure.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                                stop.store(true, Relaxed);
                                break;
                            }
                        }
                    }
                })?;
            workers.push(worker);
        }
        // The reporting loop of the calling thread.
        let mut last = Instant::now();
        while !workers.iter().all(|w| w.is_finished()) {
            std::thread::sleep(Duration::from_millis(50));
            if last.elapsed() >= report_every {
                report(&progress, start.elapsed());
                last = Instant::now();
            }
        }
        Ok(())
    })?;
    if let Some(e) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    report(&progress, start.elapsed());
    Ok(Ran {
        progress,
        stopped: stopped.into_inner().unwrap_or_else(|e| e.into_inner()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::score::{MATE_BOUND, TB_BOUND};
    use crate::learn::data::game_file;
    use shakmaty::{CastlingMode, Chess, FromSetup, Role, Setup};
    use std::path::PathBuf;

    fn config() -> DatagenConfig {
        DatagenConfig {
            nodes: 400,
            games: Some(2),
            threads: 1,
            random_plies: 8,
            seed: 5,
            openings: Vec::new(),
            network: None,
        }
    }

    /// A fresh directory for one test: its game file and its file of records.
    fn scratch(name: &str) -> (PathBuf, PathBuf) {
        let dir =
            std::env::temp_dir().join(format!("rookery-datagen-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        (dir.join("data.games"), dir.join("data.bin"))
    }

    fn quiet(_: &Progress, _: Duration) {}

    #[test]
    fn a_move_is_searched_on_the_raw_evaluation_not_on_plays_scaled_one() {
        // A rook up with the fifty-move counter at 80 and no capture in reach: play's
        // scaling (material and counter) leaves under half of the score; the label must keep
        // all of it.
        let pos = Position::from_fen("1r6/5k2/8/8/8/3K4/R7/7R w - - 80 80", false).unwrap();
        let limits = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        let score = |options: &SearchOptions| {
            let table = ChessTable::new(1).unwrap();
            search(&pos, &limits, options, &table, &Signals::default(), &Silent).score
        };
        let labelled = score(&search_options(&config()));
        let played = score(&SearchOptions {
            scaling: Scaling::Scaled,
            ..search_options(&config())
        });
        assert!(labelled > 250, "labelled {labelled}");
        assert!(
            10 * labelled > 18 * played,
            "labelled {labelled}, played {played}"
        );
    }

    #[test]
    fn a_game_is_a_function_of_its_seed_and_keeps_quiet_positions() {
        let config = config();
        let table = ChessTable::new(1).unwrap();
        let mut memory = SearchMemory::new();
        let game = play_game(&config, 42, &table, &mut memory).unwrap();
        assert!(game.records.len() > 10, "{} positions", game.records.len());
        assert!(game.records.iter().all(|r| r.result == game.result));
        for record in &game.records {
            let mut setup = Setup::empty();
            setup.board = record.board.clone();
            setup.turn = record.turn;
            let pos =
                Chess::from_setup(setup, CastlingMode::Standard).expect("a kept position is legal");
            assert!(!pos.is_check());
            assert!(i32::from(record.score).abs() < MATE_BOUND.min(TB_BOUND));
        }
        let again = play_game(&config, 42, &table, &mut memory).unwrap();
        assert_eq!(again.records, game.records);
        let other = play_game(&config, 43, &table, &mut memory).unwrap();
        assert_ne!(other.records, game.records);
    }

    #[test]
    fn a_game_read_back_from_its_bytes_gives_the_records_it_kept() {
        let config = config();
        let table = ChessTable::new(1).unwrap();
        let mut memory = SearchMemory::new();
        let (mut plies, mut skipped) = (0, 0);
        for seed in 0..4 {
            let game = play_game(&config, seed, &table, &mut memory).unwrap();
            let mut bytes = game_file::header().to_vec();
            bytes.extend(game.scored().encode().unwrap());
            let read: Vec<_> = game_file::read(&bytes).unwrap().collect();
            let [Ok(read)] = &read[..] else {
                panic!("seed {seed}: {read:?}")
            };
            assert_eq!(read.game, game.scored(), "seed {seed}");
            assert_eq!(read.game.records(), game.records, "seed {seed}");
            plies += game.plies.len();
            skipped += game.plies.iter().filter(|p| p.skip).count();
        }
        // Some plies were left out of training, and kept in the game.
        assert!(skipped > 0 && skipped < plies, "{skipped} of {plies}");
    }

    #[test]
    fn openings_a_search_scores_beyond_the_limit_are_not_played() {
        // Black without its queen, and the start position: only the second is played.
        let queenless = Position::from_fen(
            "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            false,
        )
        .unwrap();
        let config = DatagenConfig {
            random_plies: 0,
            openings: vec![queenless.chess().clone(), Chess::default()],
            ..config()
        };
        let table = ChessTable::new(1).unwrap();
        assert!(!balanced(&queenless, &config, &table));
        assert!(balanced(&Position::startpos(), &config, &table));
        for seed in 0..16 {
            let pos = opening(&config, &mut ChaCha8Rng::seed_from_u64(seed), &table).unwrap();
            let black_queens = pos.chess().board().by_piece(Role::Queen.of(Color::Black));
            assert_eq!(black_queens.count(), 1, "seed {seed}: {}", pos.fen());
        }
    }

    #[test]
    fn random_plies_stop_where_the_game_ends() {
        // Any move of White's is the hundredth without a capture or a pawn move: the game
        // ends there, after one of the five random plies asked for.
        let drawn_next = "4k3/8/8/8/8/8/8/R3K3 w - - 99 80";
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for _ in 0..8 {
            let mut pos = Position::from_fen(drawn_next, false).unwrap();
            play_random_plies(&mut pos, 5, &mut rng);
            assert_eq!(pos.ply(), 1, "{}", pos.fen());
            assert!(!playable(&pos));
        }
        // A game that goes on takes every ply.
        let mut pos = Position::startpos();
        play_random_plies(&mut pos, 6, &mut rng);
        assert_eq!(pos.ply(), 6);
    }

    #[test]
    fn openings_that_every_try_ends_stop_the_run_with_the_reason() {
        // White's one move takes the last pawn: bare kings after the first random ply.
        let one_move = Position::from_fen("8/8/8/8/8/8/p1k5/K7 w - - 0 1", false).unwrap();
        let config = DatagenConfig {
            random_plies: 1,
            openings: vec![one_move.chess().clone()],
            ..config()
        };
        let table = ChessTable::new(1).unwrap();
        let refused = opening(&config, &mut ChaCha8Rng::seed_from_u64(3), &table).unwrap_err();
        assert_eq!((refused.ended, refused.unbalanced), (OPENING_TRIES, 0));
        assert_eq!(check_openings(&config), Err(refused));
        let (path, records) = scratch("no-opening");
        let stop = AtomicBool::new(false);
        let writer = DataWriter::open(&path, &records).unwrap();
        let ran = run(&config, writer, &stop, Duration::from_secs(60), &quiet).unwrap();
        assert!(matches!(ran.stopped, Some(Stopped::NoOpening(_))));
        assert_eq!(ran.progress.games.load(Relaxed), 0);
        // Without random plies, half the tries keep the book's position: openings are made.
        let config = DatagenConfig {
            random_plies: 0,
            ..config
        };
        assert_eq!(check_openings(&config), Ok(()));
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }

    #[test]
    fn a_restart_plays_other_games_up_to_the_total() {
        let (path, records) = scratch("restart");
        let stop = AtomicBool::new(false);
        let run_on = |games: u64| {
            let config = DatagenConfig {
                games: Some(games),
                ..config()
            };
            let ran = run(
                &config,
                DataWriter::open(&path, &records).unwrap(),
                &stop,
                Duration::from_secs(60),
                &quiet,
            )
            .unwrap();
            assert_eq!(ran.stopped, None);
            ran.progress
        };
        let hashes = |bytes: &[u8]| -> Vec<u64> {
            game_file::read(bytes)
                .unwrap()
                .map(|g| crate::hashing::checksum::fnv1a(g.unwrap().bytes))
                .collect()
        };
        let first = run_on(2);
        assert_eq!(first.games.load(Relaxed), 2);
        let written = std::fs::read(&path).unwrap();
        assert_eq!(hashes(&written).len(), 2);
        // Four games in all: the two already there and two more.
        let second = run_on(4);
        assert_eq!(second.games.load(Relaxed), 2);
        let all = std::fs::read(&path).unwrap();
        assert_eq!(&all[..written.len()], &written[..], "earlier games kept");
        let games: Vec<ScoredGame> = game_file::read(&all)
            .unwrap()
            .map(|g| g.unwrap().game)
            .collect();
        assert_eq!(games.len(), 4);
        let total = first.positions.load(Relaxed) + second.positions.load(Relaxed);
        let training: usize = games.iter().map(ScoredGame::training_plies).sum();
        assert_eq!(training as u64, total);
        let plies: usize = games.iter().map(|g| g.plies.len()).sum();
        assert_eq!(
            plies as u64,
            first.plies.load(Relaxed) + second.plies.load(Relaxed)
        );
        // The restart played other games than the first run.
        let hashes = hashes(&all);
        assert!(!hashes[2..].iter().any(|h| hashes[..2].contains(h)));
        // The total reached, a run plays nothing.
        assert_eq!(run_on(4).games.load(Relaxed), 0);
        assert_eq!(std::fs::read(&path).unwrap(), all);
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }

    #[test]
    fn a_set_stop_flag_ends_the_run_at_once() {
        let (path, records) = scratch("stop");
        let config = DatagenConfig {
            games: None,
            ..config()
        };
        let stop = AtomicBool::new(true);
        let writer = DataWriter::open(&path, &records).unwrap();
        let ran = run(&config, writer, &stop, Duration::from_secs(60), &quiet).unwrap();
        assert_eq!(ran.progress.games.load(Relaxed), 0);
        assert_eq!(ran.stopped, None);
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }
}
