//! The search's public vocabulary: what a caller hands a search ([`SearchOptions`], the
//! [`Signals`] it controls it by), what the search reports while it runs ([`Reporter`],
//! [`Line`], [`CurrentMove`]) and what it returns ([`SearchResult`]).

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use shakmaty::Move;

use crate::engine::eval::nnue::{Network, default_network};
use crate::engine::eval::scaling::Scaling;
use crate::engine::limits::Limits;
use crate::engine::options::{Settings, TablebaseProbing};
use crate::engine::strength::StrengthLimit;
use crate::engine::tb::Tablebases;
use crate::engine::tt::Bound;

/// Flags shared by the thread that controls a search and every search thread.
#[derive(Default)]
pub struct Signals {
    /// Stop searching now: set by the client, and by the search itself when its main
    /// thread is done (to stop the helpers).
    pub stop: AtomicBool,
    /// Set only by the client: a job of several searches (bench) ends for good.
    pub stop_requested: AtomicBool,
    /// Set by the client whose node budget is a strength level's, not a `go` limit: a stop
    /// the search gives itself at that budget does not answer `go infinite` or `go ponder`,
    /// which wait for the client's stop (or `ponderhit`).
    pub hold_release: AtomicBool,
    /// Searching on the opponent's time: clocks do not run.
    pub pondering: AtomicBool,
    /// When `ponderhit` arrived, if it did: the move's clock starts then.
    pub ponder_hit_at: Mutex<Option<Instant>>,
    /// Set just before the result is reported: from then on the engine is idle as far as
    /// its client can tell, so commands that need an idle engine wait for the thread
    /// instead of being refused.
    pub done: AtomicBool,
}

impl Signals {
    /// The client's stop: this search and any job it belongs to end.
    pub fn request_stop(&self) {
        self.stop_requested.store(true, Relaxed);
        self.stop.store(true, Relaxed);
    }

    /// Turns a ponder search into a normal timed one; a search that is not pondering
    /// (a `ponderhit` sent late, or twice) goes on under the clock it has.
    ///
    /// The instant is written under its lock together with the flag, so a thread that
    /// reads "not pondering" and then the instant finds it.
    pub fn ponder_hit(&self) {
        let mut at = self.ponder_hit_at.lock().unwrap_or_else(|e| e.into_inner());
        if self.pondering.swap(false, Relaxed) {
            *at = Some(Instant::now());
        }
    }

    /// When `ponderhit` turned this search into a timed one, if it did.
    pub fn ponder_hit_at(&self) -> Option<Instant> {
        *self.ponder_hit_at.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Settings that shape a search, built from the engine's [`Settings`]
/// ([`SearchOptions::new`]). The defaults are the engine options' defaults with the
/// built-in net and no tablebases.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Search threads (1 = no helpers).
    pub threads: usize,
    /// Principal variations to report.
    pub multi_pv: usize,
    /// Time kept back per move for communication.
    pub move_overhead: Duration,
    /// Endgame tablebases, if loaded.
    pub tablebases: Option<Arc<Tablebases>>,
    /// How the search probes them.
    pub tb_probing: TablebaseProbing,
    /// Weakened play for people (`UCI_LimitStrength` or `Skill Level`), if on: the search
    /// searches the level's lines and may play a weaker one. Its node budget is part of the
    /// limits the caller gives ([`StrengthLimit::limits`]).
    pub strength: Option<StrengthLimit>,
    /// Seed of the weakened play's random choice.
    pub strength_seed: u64,
    /// The network that evaluates; the hand-written evaluation when `None`.
    pub network: Option<Arc<Network>>,
    /// How the search reads the evaluation: scaled in play, raw for self-play that labels
    /// training positions.
    pub scaling: Scaling,
}

impl SearchOptions {
    /// What a search reads of `settings`, with the `tablebases` loaded and the `network`
    /// that `EvalFile` names (used unless the settings evaluate by hand); the strength's
    /// random choice seeded with 0.
    pub fn new(
        settings: &Settings,
        tablebases: Option<Arc<Tablebases>>,
        network: Arc<Network>,
    ) -> SearchOptions {
        SearchOptions {
            threads: settings.threads,
            multi_pv: settings.multi_pv,
            move_overhead: Duration::from_millis(settings.move_overhead_ms),
            tablebases,
            tb_probing: settings.syzygy,
            strength: settings.limited_elo().map(StrengthLimit::for_elo),
            strength_seed: 0,
            network: settings.evaluates_with_network().then_some(network),
            scaling: Scaling::Scaled,
        }
    }
}

impl Default for SearchOptions {
    /// The options at the default settings, with the built-in net and no tablebases.
    fn default() -> SearchOptions {
        SearchOptions::new(&Settings::default(), None, default_network())
    }
}

/// One completed principal variation, as reported while searching.
#[derive(Clone, Debug)]
pub struct Line {
    /// Iteration depth.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: usize,
    /// 1-based MultiPV index.
    pub multipv: usize,
    /// Score from the side to move's view, in the search's internal units
    /// ([`normalised`](crate::engine::wdl::normalised) turns it into reported centipawns).
    pub score: i32,
    /// Material of the root, both sides ([`material`](crate::engine::wdl::material)): what
    /// the win/draw/loss model reads the score at.
    pub material: i32,
    /// Lower or upper bound when an aspiration window failed.
    pub bound: Option<Bound>,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Tablebase probes that found their position, over all threads.
    pub tb_hits: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Table fill in permille.
    pub hashfull: u32,
    /// The variation; its first move is the root move.
    pub pv: Vec<Move>,
}

/// The root move the main thread starts searching, named once a search runs long.
#[derive(Clone, Copy, Debug)]
pub struct CurrentMove {
    /// Iteration depth.
    pub depth: i32,
    /// The root move.
    pub mv: Move,
    /// Its 1-based place in the root move list, best first.
    pub number: usize,
}

/// Where a search reports: lines as iterations complete, then the result.
pub trait Reporter: Send + Sync {
    /// A completed (or bound-failed) line.
    fn line(&self, line: &Line);
    /// Whether [`Reporter::line`] does anything with the lines: a reporter that drops them
    /// spares the search building them (the table's fill among them, thousands of slots
    /// read at every iteration).
    fn wants_lines(&self) -> bool {
        true
    }
    /// The main thread starts searching a root move (only after the search has run for a
    /// while).
    fn current_move(&self, _current: &CurrentMove) {}
    /// The search is over and the engine idle again; this is the last call.
    fn finished(&self, _result: &SearchResult) {}
    /// No search: `mv`, of this weight, comes from the opening book.
    fn book_move(&self, _mv: Move, _weight: u16) {}
    /// The search failed (its thread panicked); the result that follows is a legal move
    /// chosen without a search.
    fn search_failed(&self) {}
    /// Only `running` of the `asked` search threads could be started (the first failure's
    /// reason in `error`); the search goes on with those.
    fn threads_short(&self, _running: usize, _asked: usize, _error: &str) {}
}

/// Reports nothing (bench, tests).
pub struct Silent;

impl Reporter for Silent {
    fn line(&self, _: &Line) {}

    fn wants_lines(&self) -> bool {
        false
    }
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play; `None` when the root has no legal move.
    pub best: Option<Move>,
    /// The expected reply, for pondering.
    pub ponder: Option<Move>,
    /// Score of the best move.
    pub score: i32,
    /// Depth of the last completed iteration.
    pub depth: i32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Nodes searched by each thread, the main thread first (0 for a helper that did not
    /// start).
    pub thread_nodes: Vec<u64>,
}

/// `go infinite` and `go ponder` must not answer before `stop` (or `ponderhit`): a stop the
/// search gave itself at its strength's node budget does not count.
pub fn wait_for_release(limits: &Limits, signals: &Signals) {
    let released = || {
        signals.stop_requested.load(Relaxed)
            || (signals.stop.load(Relaxed) && !signals.hold_release.load(Relaxed))
    };
    while !released() && (limits.infinite || signals.pondering.load(Relaxed)) {
        std::thread::sleep(Duration::from_millis(1));
    }
}
