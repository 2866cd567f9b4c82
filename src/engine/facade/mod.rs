//! [`Engine`]: the engine as a front end sees it. It owns the game position, the shared
//! table, the settings and the search thread; it speaks no protocol. A UCI loop, a test or
//! a tool drives it with typed calls and hears from a search through a [`Reporter`].
//!
//! The thread that runs a search or the jobs (perft, bench), with the engine's busy state,
//! is in `jobs.rs`; the probe of the memory the system has left, which a new `Hash` is
//! checked against, in `memory_probe.rs`.

mod jobs;
mod memory_probe;

pub use jobs::NotStarted;

use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Mutex};

use rand::rngs::ChaCha8Rng;
use rand::{Rng, SeedableRng};
use shakmaty::CastlingMode;

use self::jobs::JobThread;
use self::memory_probe::available_memory_mib;

use super::bench::{self, BenchResult};
use super::book::{Book, BookChoice, BookEntry};
use super::eval::hce::{Trace, trace};
use super::eval::nnue::evaluate_position;
use super::eval::nnue::{Kernel, Network, default_network};
use super::eval::scaling;
use super::limits::Limits;
use super::options::{self, Effect, OptionError, Settings};
use super::params;
use super::search::memory::SearchMemory;
use super::search::{
    Reporter, SearchOptions, SearchResult, Signals, search_with_memory, wait_for_release,
};
use super::tb::Tablebases;
use super::tt::ChessTable;
use crate::chess::Position;
use crate::chess::perft::divide_report;
use crate::hashing::AllocError;
use crate::logging;

/// Engine name and version, as the UCI `id name` gives it ([`super::build_info::ENGINE_NAME`]).
pub const NAME: &str = super::build_info::ENGINE_NAME;

/// Refused: a search is running, and this needs an idle engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Busy;

impl std::fmt::Display for Busy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a search is running")
    }
}

impl std::error::Error for Busy {}

/// The engine's state between searches, and the search under way.
pub struct Engine {
    position: Position,
    table: Arc<ChessTable>,
    settings: Settings,
    /// The thread that runs a search or the jobs.
    thread: JobThread,
    book: Option<Arc<Book>>,
    book_rng: ChaCha8Rng,
    /// Seeds each limited-strength search's choice of move.
    strength_rng: ChaCha8Rng,
    tablebases: Option<Arc<Tablebases>>,
    /// The network `EvalFile` names (the built-in one by default).
    network: Arc<Network>,
    /// What the search threads learned in this game's searches so far.
    memory: Arc<Mutex<SearchMemory>>,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    /// A new engine with every option at its default and the start position.
    pub fn new() -> Engine {
        Engine::with_hash(Settings::default().hash_mib).expect("the default hash size fits")
    }

    /// A new engine whose table starts at `mib` MiB instead of the default.
    pub fn with_hash(mib: usize) -> Result<Engine, AllocError> {
        let settings = Settings {
            hash_mib: mib,
            ..Settings::default()
        };
        Ok(Engine {
            position: Position::startpos(),
            table: Arc::new(ChessTable::new(mib)?),
            settings,
            thread: JobThread::default(),
            book: None,
            book_rng: ChaCha8Rng::seed_from_u64(clock_seed()),
            strength_rng: ChaCha8Rng::seed_from_u64(clock_seed() ^ 0x5eed),
            tablebases: None,
            network: default_network(),
            memory: Arc::new(Mutex::new(SearchMemory::new())),
        })
    }

    /// The current option values.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The position the next search starts from.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Castling notation of the current settings.
    pub fn castling_mode(&self) -> CastlingMode {
        CastlingMode::from_chess960(self.settings.chess960)
    }

    /// Replaces the game position (allowed during a search, which keeps its own copy).
    pub fn set_position(&mut self, position: Position) {
        self.position = position;
    }

    /// Sets the option called `name` (any case) from its text value. Refused while a
    /// search runs; on any error the settings are as before.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        if self.is_searching() {
            return Err(OptionError::Busy(name.to_string()));
        }
        let Some(option) = options::find(name) else {
            return set_tunable(name, value);
        };
        let value = option.kind.parse(name, value)?;
        let before = self.settings.clone();
        option.store(&mut self.settings, &value);
        if let Some(effect) = option.effect()
            && let Err(e) = self.carry_out(effect)
        {
            self.settings = before;
            return Err(e);
        }
        Ok(())
    }

    /// What setting an option does beyond keeping its value.
    fn carry_out(&mut self, effect: Effect) -> Result<(), OptionError> {
        match effect {
            Effect::OpenLogFile => self.open_log_file(),
            Effect::ResizeHash => self.resize_hash(),
            Effect::ClearHash => {
                self.clear_hash();
                Ok(())
            }
            Effect::SyncCastlingMode => {
                self.sync_castling_mode();
                Ok(())
            }
            Effect::OpenBook => self.open_book(),
            Effect::SeedBookChoice => {
                self.seed_book_choice();
                Ok(())
            }
            Effect::OpenTablebases => self.open_tablebases(),
            Effect::OpenEvalFile => self.open_eval_file(),
        }
    }

    /// Opens (or, when empty, closes) the debug log file of the settings.
    fn open_log_file(&mut self) -> Result<(), OptionError> {
        let path = &self.settings.log_file;
        logging::set_log_file(path)
            .map_err(|e| OptionError::Refused(format!("cannot open log file '{path}': {e}")))
    }

    /// Gives the table the size of the settings; it starts empty. The old table is freed
    /// first, so its memory counts as available. Refused, keeping a table of the old size,
    /// when the system has less memory available or the allocation fails.
    fn resize_hash(&mut self) -> Result<(), OptionError> {
        let mib = self.settings.hash_mib;
        let keeping = self.table.bytes() >> 20;
        if let Some(available) = available_memory_mib().map(|free| free + keeping)
            && mib > available
        {
            return Err(OptionError::Refused(format!(
                "Hash {mib} MiB refused: only {available} MiB of memory available; keeping {keeping} MiB"
            )));
        }
        let Some(table) = Arc::get_mut(&mut self.table) else {
            return Err(OptionError::Refused(
                "Hash refused: the table is in use".to_string(),
            ));
        };
        table
            .resize(mib)
            .map_err(|e| OptionError::Refused(format!("{e}; keeping {keeping} MiB")))
    }

    /// Opens the book of the settings (none when the path is empty). A file that cannot be
    /// read, is empty, misaligned or unsorted is refused and no book is used.
    fn open_book(&mut self) -> Result<(), OptionError> {
        self.book = None;
        let path = &self.settings.book_file;
        if path.is_empty() {
            return Ok(());
        }
        let book =
            Book::open(path).map_err(|e| OptionError::Refused(format!("{e}; no book is used")))?;
        self.book = Some(Arc::new(book));
        Ok(())
    }

    /// Loads the tablebases of the settings (none when the path is empty). A directory that
    /// cannot be read, or a path with no table in it, is refused and no tablebases are used.
    fn open_tablebases(&mut self) -> Result<(), OptionError> {
        self.tablebases = None;
        let path = &self.settings.syzygy_path;
        if path.is_empty() {
            return Ok(());
        }
        let tables = Tablebases::open(path).map_err(|e| {
            OptionError::Refused(format!("SyzygyPath: {e}; no tablebases are used"))
        })?;
        self.tablebases = Some(Arc::new(tables));
        Ok(())
    }

    /// Loads the net of the settings' `EvalFile` (the built-in one for `<default>` or
    /// empty). A file that cannot be read, is cut short, damaged or of another architecture
    /// is refused, and the current net stays.
    fn open_eval_file(&mut self) -> Result<(), OptionError> {
        if self.settings.uses_built_in_net() {
            self.network = default_network();
            self.clear_hash();
            return Ok(());
        }
        let path = self.settings.eval_file.clone();
        let net = Network::read_file(std::path::Path::new(&path)).map_err(|e| {
            OptionError::Refused(format!(
                "EvalFile: '{path}' refused: {e}; the current net stays"
            ))
        })?;
        self.network = Arc::new(net);
        // The table's static evaluations come from the other net.
        self.clear_hash();
        Ok(())
    }

    /// The tablebases `SyzygyPath` loaded, if any.
    pub fn tablebases(&self) -> Option<&Tablebases> {
        self.tablebases.as_deref()
    }

    /// The network that evaluates when `Use NNUE` is on.
    pub fn network(&self) -> &Arc<Network> {
        &self.network
    }

    /// The output kernel the network computes with, chosen for this processor when the net
    /// was loaded.
    pub fn kernel(&self) -> Kernel {
        self.network.kernel()
    }

    /// Reseeds the random book choice from the settings (0: from the clock).
    fn seed_book_choice(&mut self) {
        let seed = match self.settings.book_seed {
            0 => clock_seed(),
            seed => seed,
        };
        self.book_rng = ChaCha8Rng::seed_from_u64(seed);
    }

    /// The Elo searches play at, or `None` at full strength (see [`Settings::limited_elo`]).
    pub fn limited_elo(&self) -> Option<i64> {
        self.settings.limited_elo()
    }

    /// Whether searches evaluate with the network (see
    /// [`Settings::evaluates_with_network`]).
    pub fn evaluates_with_network(&self) -> bool {
        self.settings.evaluates_with_network()
    }

    /// What a search reads of the settings, with the engine's tablebases and net.
    fn search_options(&self) -> SearchOptions {
        SearchOptions::new(
            &self.settings,
            self.tablebases.clone(),
            Arc::clone(&self.network),
        )
    }

    /// The book's move for the current position, when the book is on and has one that
    /// `search_moves` (if any) allows.
    fn book_entry(&mut self, limits: &Limits) -> Option<BookEntry> {
        if !self.settings.own_book {
            return None;
        }
        let book = self.book.as_ref()?;
        let choice = if self.settings.book_variety {
            BookChoice::Weighted
        } else {
            BookChoice::Best
        };
        book.choose(&self.position, choice, &mut self.book_rng)
            .filter(|e| limits.search_moves.is_empty() || limits.search_moves.contains(&e.mv))
    }

    /// Empties the table and forgets what the searches learned (their histories and
    /// corrections belong to the same positions and evaluation as the table).
    pub fn clear_hash(&mut self) {
        self.table.clear();
        lock(&self.memory).clear();
    }

    /// Puts the position's castling notation in line with the settings.
    fn sync_castling_mode(&mut self) {
        let mode = self.castling_mode();
        self.position.set_castling_mode(mode);
    }

    /// A new game: empty table, start position. Refused while a search runs.
    pub fn new_game(&mut self) -> Result<(), Busy> {
        if self.is_searching() {
            return Err(Busy);
        }
        self.clear_hash();
        self.position = Position::startpos();
        self.sync_castling_mode();
        Ok(())
    }

    /// Starts searching the current position under `limits` on a thread of its own;
    /// `reporter` hears every line and, last, the result. With `OwnBook` on and a book move
    /// here, that move is the result, at once (after `stop` for `go infinite` and
    /// `go ponder`). A search still running is stopped first (its reporter hears its
    /// result). Fails only when no thread can be started; then nothing was reported.
    pub fn go(&mut self, limits: Limits, reporter: Arc<dyn Reporter>) -> std::io::Result<()> {
        self.stop();
        let signals = Arc::new(Signals::default());
        signals.pondering.store(limits.ponder, Relaxed);
        let book_entry = self.book_entry(&limits);
        let table = Arc::clone(&self.table);
        let options = SearchOptions {
            strength_seed: self.strength_rng.next_u64(),
            ..self.search_options()
        };
        // A limited strength searches on its node budget; a stop at that budget is not the
        // client's, so it does not answer `go infinite` or `go ponder`.
        let limits = match options.strength {
            Some(strength) => {
                signals
                    .hold_release
                    .store(strength.budget_binds(&limits), Relaxed);
                strength.limits(&limits)
            }
            None => limits,
        };
        let pos = self.position.clone();
        let fallback_pos = pos.clone();
        let memory = Arc::clone(&self.memory);
        let finisher = Arc::clone(&reporter);
        let failure_reporter = Arc::clone(&reporter);
        self.thread.start(
            signals,
            move |signals| match book_entry {
                Some(entry) => {
                    reporter.book_move(entry.mv, entry.weight);
                    wait_for_release(&limits, signals);
                    SearchResult {
                        best: Some(entry.mv),
                        ponder: None,
                        score: 0,
                        depth: 0,
                        nodes: 0,
                        thread_nodes: Vec::new(),
                    }
                }
                None => {
                    let mut memory = lock(&memory);
                    let memory = &mut *memory;
                    search_with_memory(&pos, &limits, &options, &table, signals, &*reporter, memory)
                }
            },
            move || {
                failure_reporter.search_failed();
                fallback_result(&fallback_pos)
            },
            move |result| finisher.finished(&result),
        )
    }

    /// Stops a running search (or the jobs, perft and bench, running and waiting) and waits
    /// until its result has been reported.
    pub fn stop(&mut self) {
        self.thread.stop();
    }

    /// Waits until the search ends by itself and its result has been reported (a search
    /// with no limit ends only on [`Engine::stop`] from another thread).
    pub fn wait(&mut self) {
        self.thread.wait();
    }

    /// Waits until the running job (perft, bench) and every one waiting have reported
    /// their results; a search is left running.
    pub fn finish_job(&mut self) {
        self.thread.finish_jobs();
    }

    /// The opponent played the move being pondered: the search goes on under its clock.
    pub fn ponderhit(&self) {
        self.thread.ponderhit();
    }

    /// Whether a search (or job) runs that has not yet reported its result.
    pub fn is_searching(&mut self) -> bool {
        self.thread.is_busy()
    }

    /// Whether a search (not a job) runs that has not yet reported its result.
    pub fn is_running_search(&mut self) -> bool {
        self.thread.is_running_search()
    }

    /// Perft divide of the current position on the job thread: `report` hears one line
    /// per move and the total, or `None` when [`Engine::stop`] ended it first. Refused while
    /// a search runs; while a job runs it waits its turn, on the position of now.
    pub fn perft(
        &mut self,
        depth: u32,
        report: impl FnOnce(Option<Vec<String>>) + Send + 'static,
    ) -> Result<(), NotStarted> {
        let mut pos = self.position.clone();
        let work = move |signals: &Signals| {
            divide_report(&mut pos, depth, None, &signals.stop_requested).map(|(lines, _)| lines)
        };
        self.thread.queue(work, report)
    }

    /// The static evaluation of the current position, term by term.
    pub fn eval_trace(&self) -> (i32, Trace) {
        trace(self.position.chess())
    }

    /// The network's evaluation of the current position, centipawns for the side to move.
    pub fn network_eval(&self) -> i32 {
        evaluate_position(&self.network, self.position.chess())
    }

    /// An evaluation `raw` of the current position as the search reads it: scaled by the
    /// material and the fifty-move counter ([`scaling`]).
    pub fn scaled_for_search(&self, raw: i32) -> i32 {
        scaling::scaled(raw, self.position.chess())
    }

    /// The bench at `depth` on the job thread, evaluated as the settings say
    /// (`Use NNUE`, `EvalFile`): `progress` hears each position's node count, `report` the
    /// totals, or `None` when [`Engine::stop`] ended it first. Refused while a search runs;
    /// while a job runs it waits its turn, on the settings of now.
    pub fn bench(
        &mut self,
        depth: u32,
        progress: impl FnMut(usize, &str, u64) + Send + 'static,
        report: impl FnOnce(Option<BenchResult>) + Send + 'static,
    ) -> Result<(), NotStarted> {
        let network = self.search_options().network;
        let work = move |signals: &Signals| bench::run(depth, network, signals, progress);
        self.thread.queue(work, report)
    }
}

/// What a search whose thread panicked answers: the first legal move, if any.
fn fallback_result(pos: &Position) -> SearchResult {
    SearchResult {
        best: pos.legal_moves().first().copied(),
        ponder: None,
        score: 0,
        depth: 0,
        nodes: 0,
        thread_nodes: Vec::new(),
    }
}

/// The lock's value, also after a thread panicked while holding it (the memory is then only
/// less useful, never wrong).
fn lock(memory: &Mutex<SearchMemory>) -> std::sync::MutexGuard<'_, SearchMemory> {
    memory.lock().unwrap_or_else(|e| e.into_inner())
}

/// A seed that differs from run to run, for book choices nobody asked to repeat.
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// Sets a tunable, the extra spin options of a `tune` build (any other build knows no
/// such option).
fn set_tunable(name: &str, value: &str) -> Result<(), OptionError> {
    if !params::TUNE_BUILD
        || !params::TUNABLES
            .iter()
            .any(|t| t.name.eq_ignore_ascii_case(name))
    {
        return Err(OptionError::Unknown(name.to_string()));
    }
    let value = value.trim().parse::<i32>().map_err(|_| {
        OptionError::Invalid(format!(
            "option {name}: value must be a whole number, got '{value}'"
        ))
    })?;
    params::set(name, value).map_err(OptionError::Invalid)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::strength::{ELO_MAX, ELO_MIN, StrengthLimit};

    #[test]
    fn the_fallback_answer_is_a_legal_move_or_none() {
        let start = Position::startpos();
        let best = fallback_result(&start).best.expect("a move");
        assert!(start.legal_moves().contains(&best));
        let mated = Position::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", false).unwrap();
        assert_eq!(fallback_result(&mated).best, None);
    }

    #[test]
    fn the_network_evaluates_by_default_but_not_at_a_limited_strength() {
        let mut engine = Engine::with_hash(1).expect("1 MiB");
        assert!(engine.evaluates_with_network());
        assert!(engine.search_options().network.is_some());
        engine.set_option("UCI_LimitStrength", "true").unwrap();
        assert!(!engine.evaluates_with_network());
        assert!(engine.search_options().network.is_none());
        engine.set_option("UCI_LimitStrength", "false").unwrap();
        engine.set_option("Skill Level", "19").unwrap();
        assert!(!engine.evaluates_with_network());
        assert!(engine.search_options().network.is_none());
        engine.set_option("Skill Level", "20").unwrap();
        assert!(engine.search_options().network.is_some());
        engine.set_option("Use NNUE", "false").unwrap();
        assert!(engine.search_options().network.is_none());
    }

    #[test]
    fn uci_elo_takes_precedence_over_skill_level() {
        let mut engine = Engine::with_hash(1).expect("1 MiB");
        let strength = |engine: &Engine| engine.search_options().strength;
        assert_eq!(strength(&engine), None);
        engine.set_option("Skill Level", "0").unwrap();
        assert_eq!(strength(&engine), Some(StrengthLimit::for_elo(ELO_MIN)));
        engine.set_option("UCI_LimitStrength", "true").unwrap();
        engine.set_option("UCI_Elo", "2300").unwrap();
        assert_eq!(strength(&engine), Some(StrengthLimit::for_elo(2300)));
        engine.set_option("Skill Level", "20").unwrap();
        assert_eq!(strength(&engine), Some(StrengthLimit::for_elo(2300)));
        engine.set_option("UCI_LimitStrength", "false").unwrap();
        assert_eq!(strength(&engine), None);
        engine.set_option("Skill Level", "19").unwrap();
        assert_eq!(strength(&engine), Some(StrengthLimit::for_elo(ELO_MAX)));
    }

    #[test]
    fn search_options_default_to_the_default_settings() {
        let engine = Engine::with_hash(1).expect("1 MiB");
        let ours = format!("{:?}", engine.search_options());
        assert_eq!(ours, format!("{:?}", SearchOptions::default()));
    }
}
