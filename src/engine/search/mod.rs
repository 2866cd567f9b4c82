//! Alpha-beta search, read top to bottom: [`search`] starts the threads, each runs
//! iterative deepening with aspiration windows over the root moves (this file), and the
//! inner nodes and quiescence are in `node.rs`. Every margin and reduction is named in
//! [`crate::engine::params`]. Lazy SMP: helper threads search the same tree and share only the
//! transposition table.

pub mod memory;
mod node;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use arrayvec::ArrayVec;
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use shakmaty::{Move, Piece, Position as _, Square};
use tracing::{debug, error, instrument};

use self::memory::{SearchMemory, ThreadMemory};
use super::board::Board;
use super::correction::Correction;
use super::eval::nnue::{Network, default_network};
use super::history::Heuristics;
use super::limits::Limits;
use super::packed::PackedMove;
use super::score::{
    INFINITE, MATE, MATE_BOUND, MAX_DEPTH, MAX_PLY, NO_EVAL, TB_BOUND, score_to_tt,
};
use super::strength::StrengthLimit;
use super::tb::Tablebases;
use super::timeman::{SoftScale, TimeManager};
use super::tt::{Bound, ChessEntry, ChessTable};
use super::wdl;
use crate::chess::Position;
use crate::engine::params::*;
use crate::hashing::TableKey;

/// Stack of a helper thread: the recursion keeps move lists on the stack for up to MAX_PLY.
const HELPER_STACK: usize = 32 << 20;
/// Nodes between two looks at the clock and node budget (a power of two).
const POLL_INTERVAL: u64 = 1024;
/// Below this node budget the budget is looked at every [`FINE_POLL_INTERVAL`] nodes.
const SMALL_NODE_BUDGET: u64 = 64 * 1024;
/// Nodes between two looks at a small node budget (a power of two).
const FINE_POLL_INTERVAL: u64 = 32;
/// The main thread names each root move as it starts searching it once the search has run
/// this long ...
const CURRENT_MOVE_AFTER: Duration = Duration::from_secs(3);
/// ... or searched this many nodes, whichever comes first.
const CURRENT_MOVE_AFTER_NODES: u64 = 10_000_000;

/// Flags shared by the thread that controls a search and every search thread.
#[derive(Default)]
pub struct Signals {
    /// Stop searching now: set by the client, and by the search itself when its main
    /// thread is done (to stop the helpers).
    pub stop: AtomicBool,
    /// Set only by the client: a job of several searches (bench) ends for good.
    pub stop_requested: AtomicBool,
    /// Set by a search whose node budget is its strength level's: a stop it gives itself
    /// at that budget does not answer `go infinite` or `go ponder`, which wait for the
    /// client's stop (or `ponderhit`).
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
    pub fn ponder_hit(&self) {
        if self.pondering.swap(false, Relaxed) {
            *self.ponder_hit_at.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
        }
    }
}

/// Settings that shape a search. The defaults are the engine options' defaults: one
/// thread, one line, 10 ms overhead, no tablebases, no strength limit, the built-in net.
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
    /// Tablebases are probed inside the search only with at least this much depth left.
    pub tb_probe_depth: i32,
    /// Tablebases are probed only with at most this many pieces on the board.
    pub tb_probe_limit: usize,
    /// Whether tablebase wins and losses beyond the fifty-move rule count as draws.
    pub tb_fifty_move_rule: bool,
    /// Weakened play for people (`UCI_LimitStrength` or `Skill Level`), if on.
    pub strength: Option<StrengthLimit>,
    /// Seed of the weakened play's random choice.
    pub strength_seed: u64,
    /// The network that evaluates; the hand-written evaluation when `None`.
    pub network: Option<Arc<Network>>,
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions {
            threads: 1,
            multi_pv: 1,
            move_overhead: Duration::from_millis(10),
            tablebases: None,
            tb_probe_depth: 1,
            tb_probe_limit: 7,
            tb_fifty_move_rule: true,
            strength: None,
            strength_seed: 0,
            network: Some(default_network()),
        }
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
    /// ([`wdl::normalised`] turns it into reported centipawns).
    pub score: i32,
    /// Material of the root, both sides ([`wdl::material`]): what the win/draw/loss model
    /// reads the score at.
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
    /// What the time manager read of the search after each completed iteration of the main
    /// thread, in order.
    pub soft_scales: Vec<SoftScale>,
}

/// Late-move reduction by depth and move number.
struct Reductions([[u8; 64]; 64]);

impl Reductions {
    fn new() -> Reductions {
        let mut table = [[0u8; 64]; 64];
        for (depth, row) in table.iter_mut().enumerate().skip(1) {
            for (moves, r) in row.iter_mut().enumerate().skip(1) {
                *r = (pct(lmr_base_pct())
                    + (depth as f64).ln() * (moves as f64).ln() / pct(lmr_divisor_pct()))
                    as u8;
            }
        }
        Reductions(table)
    }

    fn get(&self, depth: i32, moves: usize) -> i32 {
        i32::from(self.0[(depth as usize).min(63)][moves.min(63)])
    }
}

/// A root move with its latest score and variation.
#[derive(Clone, Debug)]
struct RootMove {
    mv: Move,
    score: i32,
    previous_score: i32,
    /// The iteration that gave `score` (0: none yet).
    scored_at: i32,
    /// Whether `score` is only a bound (an aspiration window failed on it).
    bound: Option<Bound>,
    seldepth: usize,
    pv: ArrayVec<Move, MAX_PLY>,
    /// Nodes this thread spent under the move in the current iteration.
    nodes: u64,
}

impl RootMove {
    /// The score to show: this iteration's, or the last one's for a move not scored yet
    /// (-INFINITE when it never was).
    fn shown_score(&self) -> i32 {
        if self.score == -INFINITE {
            self.previous_score
        } else {
            self.score
        }
    }
}

/// Per-ply search state.
#[derive(Clone, Copy, Default)]
struct Frame {
    eval: i32,
    /// The piece moved to reach the next ply and where it went (for counter moves).
    moved: Option<(Piece, Square)>,
    null_move: bool,
    /// The move a singular-extension search of this ply leaves out.
    excluded: Option<Move>,
    /// Double extensions on the line to this ply.
    double_extensions: i32,
}

/// What one thread has counted, published for the others to sum.
#[derive(Default)]
struct ThreadCounters {
    nodes: AtomicU64,
    tb_hits: AtomicU64,
}

/// How a searched move changed its node's best so far.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Improvement {
    /// Not above alpha.
    None,
    /// A new best move inside the window.
    NewAlpha,
    /// At or above beta: the node fails high.
    Cutoff,
}

/// A node's best score and move so far, against its window. The one place where a searched
/// move's score raises the best, alpha and the best move.
struct BestSoFar {
    score: i32,
    mv: Option<Move>,
    alpha: i32,
    beta: i32,
}

impl BestSoFar {
    /// Nothing searched yet; `score` is what the node is worth without a move (-INFINITE,
    /// or the stand-pat eval in quiescence).
    fn new(score: i32, alpha: i32, beta: i32) -> BestSoFar {
        BestSoFar {
            score,
            mv: None,
            alpha,
            beta,
        }
    }

    /// Takes in one searched move.
    #[inline]
    fn update(&mut self, mv: Move, score: i32) -> Improvement {
        if score <= self.score {
            return Improvement::None;
        }
        self.score = score;
        if score <= self.alpha {
            return Improvement::None;
        }
        self.mv = Some(mv);
        self.alpha = score;
        if score >= self.beta {
            Improvement::Cutoff
        } else {
            Improvement::NewAlpha
        }
    }
}

/// Everything one search thread owns.
struct Worker<'a> {
    id: usize,
    board: Board,
    table: &'a ChessTable,
    signals: &'a Signals,
    limits: &'a Limits,
    time: TimeManager,
    counters: &'a [ThreadCounters],
    nodes: u64,
    tb_hits: u64,
    seldepth: usize,
    /// Depth of the iteration under way.
    iteration: i32,
    heuristics: Heuristics,
    correction: Correction,
    reductions: &'a Reductions,
    frames: [Frame; MAX_PLY + 2],
    pv: Vec<ArrayVec<Move, MAX_PLY>>,
    root_moves: Vec<RootMove>,
    /// Root moves before this index already have their MultiPV line this iteration.
    pv_index: usize,
    /// Whether the `ponderhit` restart of the clock has been applied.
    ponder_hit_seen: bool,
    /// Tablebases to probe inside the search (none when the root itself was settled by
    /// them: its moves are already the ones that keep the result).
    tablebases: Option<&'a Tablebases>,
    tb_probe_depth: i32,
    tb_probe_limit: usize,
    tb_fifty_move_rule: bool,
    /// The tables' score of the root when they cover it: reported instead of the search's
    /// score unless that is a mate.
    root_tb_score: Option<i32>,
    /// Material of the root, which the reported lines carry.
    root_material: i32,
    /// The MultiPV lines of the last completed iteration, best first, as reported.
    completed_lines: Vec<RootMove>,
    /// Whether any root move has a score yet: until then a limit cannot stop the search.
    root_scored: bool,
    /// MultiPV lines reported (a limited strength searches more than it shows).
    shown_lines: usize,
    /// Nodes between two looks at the clock and node budget, less one (a power of two).
    poll_mask: u64,
    /// What the completed iterations say about the time this move deserves.
    soft_scale: SoftScale,
    /// `soft_scale` after each completed iteration, for the result.
    soft_scales: Vec<SoftScale>,
}

/// Runs a search on `pos` under `limits` and returns the best move, learning afresh (as
/// the first search of a game does).
pub fn search(
    pos: &Position,
    limits: &Limits,
    options: &SearchOptions,
    table: &ChessTable,
    signals: &Signals,
    reporter: &dyn Reporter,
) -> SearchResult {
    let mut memory = SearchMemory::new();
    search_with_memory(pos, limits, options, table, signals, reporter, &mut memory)
}

/// [`search`] that starts from what earlier searches learned in `memory` and leaves what
/// this one learned there.
pub fn search_with_memory(
    pos: &Position,
    limits: &Limits,
    options: &SearchOptions,
    table: &ChessTable,
    signals: &Signals,
    reporter: &dyn Reporter,
    memory: &mut SearchMemory,
) -> SearchResult {
    table.new_generation();
    let reductions = Reductions::new();
    // A limited strength searches on a node budget.
    let weakened_limits;
    let limits = match options.strength {
        Some(strength) => {
            if limits.nodes.is_none_or(|n| n > strength.nodes) {
                signals.hold_release.store(true, Relaxed);
            }
            weakened_limits = Limits {
                nodes: Some(
                    limits
                        .nodes
                        .map_or(strength.nodes, |n| n.min(strength.nodes)),
                ),
                ..limits.clone()
            };
            &weakened_limits
        }
        None => limits,
    };
    let allowed = |mv: &Move| limits.search_moves.is_empty() || limits.search_moves.contains(mv);
    // At a root the tables cover, only the moves that keep the tables' result (unless
    // `searchmoves` excludes them all).
    let tablebases = options.tablebases.as_deref();
    let tb_root = tablebases
        .filter(|tb| tb.covers(pos.chess(), options.tb_probe_limit))
        .and_then(|tb| tb.root_moves(pos.chess(), options.tb_fifty_move_rule))
        .filter(|(moves, _)| moves.iter().any(allowed));
    // The tables' verdict is what the lines report (as the fifty-move rule option has it),
    // unless the search finds a mate.
    let root_tb_score = tb_root.as_ref().map(|&(_, outcome)| outcome.score(0));
    let tb_root = tb_root.map(|(moves, _)| moves);
    let root_tb_hits = u64::from(tb_root.is_some());
    let root_moves: Vec<RootMove> = pos
        .legal_moves()
        .into_iter()
        .filter(|mv| allowed(mv))
        .filter(|mv| tb_root.as_ref().is_none_or(|moves| moves.contains(mv)))
        .map(|mv| RootMove {
            mv,
            score: -INFINITE,
            previous_score: -INFINITE,
            scored_at: 0,
            bound: None,
            seldepth: 0,
            pv: ArrayVec::from_iter([mv]),
            nodes: 0,
        })
        .collect();
    let threads = options.threads.max(1);
    debug!(fen = %pos.fen(), ?limits, threads, multi_pv = options.multi_pv, "search start");
    let counters: Vec<ThreadCounters> = (0..threads).map(|_| ThreadCounters::default()).collect();
    let time = TimeManager::new(limits, pos.turn(), options.move_overhead);
    let root_material = wdl::material(pos.chess().board());

    if root_moves.is_empty() {
        let score = if pos.chess().is_check() { -MATE } else { 0 };
        reporter.line(&Line {
            depth: 0,
            seldepth: 0,
            multipv: 1,
            score,
            material: root_material,
            bound: None,
            nodes: 0,
            tb_hits: 0,
            time: time.elapsed(),
            hashfull: table.hashfull(),
            pv: Vec::new(),
        });
        wait_for_release(limits, signals);
        return SearchResult {
            best: None,
            ponder: None,
            score,
            depth: 0,
            nodes: 0,
            thread_nodes: vec![0; threads],
            soft_scales: Vec::new(),
        };
    }

    // Small node budgets (limited strength) are kept to within a few dozen nodes.
    let poll_mask = match limits.nodes {
        Some(n) if n < SMALL_NODE_BUDGET => FINE_POLL_INTERVAL - 1,
        _ => POLL_INTERVAL - 1,
    };
    let shown_lines = options.multi_pv.clamp(1, root_moves.len());
    // A limited strength also searches the alternatives it may play, on a node budget.
    let multi_pv = match options.strength {
        Some(strength) => shown_lines.max(strength.lines).min(root_moves.len()),
        None => shown_lines,
    };
    let make_worker = |id: usize, learned: ThreadMemory| Worker {
        id,
        board: Board::new(pos.clone(), options.network.as_ref()),
        table,
        signals,
        limits,
        time: time.clone(),
        counters: &counters,
        nodes: 0,
        tb_hits: if id == 0 { root_tb_hits } else { 0 },
        seldepth: 0,
        iteration: 0,
        heuristics: learned.heuristics,
        correction: learned.correction,
        reductions: &reductions,
        frames: [Frame::default(); MAX_PLY + 2],
        pv: vec![ArrayVec::new(); MAX_PLY + 2],
        root_moves: root_moves.clone(),
        pv_index: 0,
        ponder_hit_seen: false,
        tablebases: tablebases.filter(|_| tb_root.is_none()),
        tb_probe_depth: options.tb_probe_depth,
        tb_probe_limit: options.tb_probe_limit,
        tb_fifty_move_rule: options.tb_fifty_move_rule,
        root_tb_score,
        root_material,
        completed_lines: Vec::new(),
        root_scored: false,
        shown_lines,
        poll_mask,
        soft_scale: SoftScale::default(),
        soft_scales: Vec::new(),
    };

    // Each worker takes its thread's memory and gives it back when done.
    let learned = memory.for_search(threads);
    let mut main = make_worker(0, std::mem::take(&mut learned[0]));
    let depth = std::thread::scope(|scope| {
        let mut first_error = None;
        let helpers: Vec<_> = (1..threads)
            .filter_map(|id| {
                let mut helper = make_worker(id, std::mem::take(&mut learned[id]));
                let spawned = std::thread::Builder::new()
                    .name(format!("helper {id}"))
                    .stack_size(HELPER_STACK)
                    .spawn_scoped(scope, move || {
                        helper.iterate(1, &Silent);
                        helper.into_memory()
                    });
                // Without a helper the search is only slower, never wrong; it is reported.
                spawned
                    .map(|handle| (id, handle))
                    .map_err(|e| {
                        debug!("helper thread {id} not started: {e}");
                        first_error.get_or_insert_with(|| e.to_string());
                    })
                    .ok()
            })
            .collect();
        if let Some(error) = first_error {
            reporter.threads_short(1 + helpers.len(), threads, &error);
        }
        let depth = main.iterate(multi_pv, reporter);
        // Helpers stop when the main thread is done.
        signals.stop.store(true, Relaxed);
        // Joined one by one: the scope's own join returns before a helper's thread-locals
        // are freed, so a helper could still be exiting after `search` returned. A helper
        // that panicked costs only its share of the search; the main thread's move stands.
        for (id, helper) in helpers {
            match helper.join() {
                Ok(kept) => learned[id] = kept,
                Err(_) => error!("a helper thread panicked; its search is lost"),
            }
        }
        depth
    });

    let (mut best, mut tell) = main.final_choice(depth);
    if let Some(strength) = options.strength
        && let Some(weaker) = main.weaker_choice(&best, &strength, options.strength_seed)
    {
        best = weaker;
        tell = true;
    }
    // A variation cut after one move gets the table's reply, for pondering.
    if best.pv.len() == 1
        && let Some(reply) = main.ponder_from_table(best.mv)
    {
        best.pv.push(reply);
        tell = true;
    }
    // The move played and the ponder move are always the last reported variation's first two.
    if tell {
        main.report_final(&best, depth, reporter);
    }
    let ponder = best.pv.get(1).copied();
    let result = SearchResult {
        best: Some(best.mv),
        ponder,
        score: best.shown_score(),
        depth,
        nodes: counters.iter().map(|c| c.nodes.load(Relaxed)).sum(),
        thread_nodes: counters.iter().map(|c| c.nodes.load(Relaxed)).collect(),
        soft_scales: std::mem::take(&mut main.soft_scales),
    };
    learned[0] = main.into_memory();
    result
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

impl Worker<'_> {
    /// What this thread learned, for the next search.
    fn into_memory(self) -> ThreadMemory {
        ThreadMemory {
            heuristics: self.heuristics,
            correction: self.correction,
        }
    }

    fn total_nodes(&self) -> u64 {
        self.counters.iter().map(|c| c.nodes.load(Relaxed)).sum()
    }

    fn total_tb_hits(&self) -> u64 {
        self.counters.iter().map(|c| c.tb_hits.load(Relaxed)).sum()
    }

    /// Makes this thread's counts visible to the others.
    fn publish_counters(&self) {
        let mine = &self.counters[self.id];
        mine.nodes.store(self.nodes, Relaxed);
        mine.tb_hits.store(self.tb_hits, Relaxed);
    }

    /// Iterative deepening; returns the depth of the last completed iteration.
    #[instrument(level = "debug", skip_all, fields(thread = self.id))]
    fn iterate(&mut self, multi_pv: usize, reporter: &dyn Reporter) -> i32 {
        let max_depth = self
            .limits
            .depth
            .map_or(MAX_DEPTH, |d| (d as i32).clamp(1, MAX_DEPTH));
        let mut completed = 0;
        self.completed_lines.clear();
        for depth in 1..=max_depth {
            // Helpers spread out: odd ones skip every other depth.
            if self.id % 2 == 1 && depth > 1 && depth % 2 == 0 {
                continue;
            }
            self.iteration = depth;
            for rm in &mut self.root_moves {
                rm.previous_score = rm.score;
                rm.nodes = 0;
            }
            for pv_index in 0..multi_pv {
                self.pv_index = pv_index;
                self.seldepth = 0;
                self.aspiration(depth, reporter);
                if self.stopped() {
                    // A first iteration cut after its best line keeps the lines it finished.
                    if completed == 0 && pv_index > 0 {
                        self.completed_lines = self.root_moves[..pv_index].to_vec();
                    }
                    break;
                }
                // Lines found so far stay in front, sorted.
                self.root_moves[..=pv_index].sort_by_key(|rm| -rm.score);
            }
            if self.stopped() {
                break;
            }
            self.learn_soft_scale(completed);
            self.soft_scales.push(self.soft_scale);
            completed = depth;
            self.completed_lines = self.root_moves[..multi_pv].to_vec();
            if self.id == 0 {
                debug!(
                    depth,
                    seldepth = self.seldepth,
                    score = self.root_moves[0].score,
                    nodes = self.total_nodes(),
                    ms = self.time.elapsed().as_millis() as u64,
                    "iteration complete"
                );
                self.report(depth, self.shown_lines, None, reporter);
                if self.iteration_limits_reached(depth) {
                    break;
                }
            }
        }
        self.publish_counters();
        if self.id == 0 {
            wait_for_release(self.limits, self.signals);
        }
        completed
    }

    /// Updates what the time manager reads from the iteration just completed, the one
    /// before being `previous` (0: none).
    fn learn_soft_scale(&mut self, previous: i32) {
        let best = &self.root_moves[0];
        let scale = &mut self.soft_scale;
        match self.completed_lines.first() {
            Some(last) if previous > 0 => {
                scale.stable_iterations = if last.mv == best.mv {
                    scale.stable_iterations + 1
                } else {
                    0
                };
                // Mate and tablebase scores say nothing about a drop in judgement.
                scale.score_drop = if best.score.abs() < TB_BOUND && last.score.abs() < TB_BOUND {
                    last.score - best.score
                } else {
                    0
                };
            }
            _ => scale.stable_iterations = 0,
        }
        let all: u64 = self.root_moves.iter().map(|rm| rm.nodes).sum();
        scale.best_move_share = if all == 0 {
            0.0
        } else {
            best.nodes as f64 / all as f64
        };
    }

    /// The move to play once iterating is over, `completed` being the last completed
    /// iteration, and whether it still needs a line of its own. After a completed iteration
    /// it is the reported best. When the search was stopped inside an iteration, a move that
    /// iteration scored (the first move searched, or one that then beat it) is better
    /// informed than the last completed best; without one the completed best stands. Either
    /// way it was not the last line reported.
    fn final_choice(&mut self, completed: i32) -> (RootMove, bool) {
        let best = self.root_moves[0].clone();
        if self.iteration == completed {
            return (best, false);
        }
        // With several MultiPV slots, a stop after the first slot leaves it complete.
        let partial = if self.pv_index > 0 {
            Some(&self.root_moves[0])
        } else {
            self.root_moves
                .iter()
                .filter(|rm| rm.scored_at == self.iteration && rm.score > -INFINITE)
                .min_by_key(|rm| -rm.score)
        };
        let chosen = match (partial, self.completed_lines.first()) {
            (Some(rm), _) => rm.clone(),
            (None, Some(completed_best)) => completed_best.clone(),
            (None, None) => self.unsearched_choice(),
        };
        (chosen, true)
    }

    /// The move to play when the search was stopped before any root move had a score: the
    /// table's move for the root when it has one, else the move after which the static
    /// evaluation is best, scored by that evaluation.
    fn unsearched_choice(&mut self) -> RootMove {
        let table_move = self
            .table
            .probe(TableKey::from(self.board.key()))
            .and_then(|e| e.mv.legal_in(self.board.chess()));
        let mut scored = Vec::with_capacity(self.root_moves.len());
        for rm in &self.root_moves {
            self.board.do_move(rm.mv, self.table);
            scored.push(-self.board.evaluate());
            self.board.undo_move();
        }
        let (chosen, score) = self
            .root_moves
            .iter()
            .zip(scored)
            .max_by_key(|&(rm, score)| (Some(rm.mv) == table_move, score))
            .expect("a search has a root move");
        RootMove {
            score,
            scored_at: self.iteration,
            ..chosen.clone()
        }
    }

    /// At a limited strength, the line to play instead of `best`, if the level's random
    /// choice among the last completed iteration's lines falls on another move. Every
    /// candidate is measured against that iteration's best, whose scores are all of one
    /// depth; when the choice falls on the best line, `best` (perhaps better informed by
    /// an unfinished iteration) is played.
    fn weaker_choice(
        &self,
        best: &RootMove,
        strength: &StrengthLimit,
        seed: u64,
    ) -> Option<RootMove> {
        let scores: Vec<Option<i32>> = self
            .completed_lines
            .iter()
            .map(|rm| (rm.bound.is_none() && rm.score > -INFINITE).then_some(rm.score))
            .collect();
        let chosen = strength.choose(&scores, &mut ChaCha8Rng::seed_from_u64(seed));
        let line = self.completed_lines.get(chosen)?;
        (chosen > 0 && line.mv != best.mv).then(|| line.clone())
    }

    /// A search score as the lines report it: the tables' score at a root they cover,
    /// unless the search found a mate.
    fn reported_score(&self, score: i32) -> i32 {
        match self.root_tb_score {
            Some(tb_score) if score.abs() < MATE_BOUND => tb_score,
            _ => score,
        }
    }

    /// Reports the line of the move about to be played as MultiPV slot 1.
    fn report_final(&self, chosen: &RootMove, completed: i32, reporter: &dyn Reporter) {
        self.publish_counters();
        reporter.line(&Line {
            depth: completed.max(1),
            seldepth: chosen.seldepth.max(1),
            multipv: 1,
            score: self.reported_score(chosen.shown_score()),
            material: self.root_material,
            bound: if chosen.scored_at == self.iteration {
                chosen.bound
            } else {
                None
            },
            nodes: self.total_nodes(),
            tb_hits: self.total_tb_hits(),
            time: self.time.elapsed(),
            hashfull: self.table.hashfull(),
            pv: chosen.pv.to_vec(),
        });
    }

    /// After an iteration: is there reason not to start the next one?
    fn iteration_limits_reached(&mut self, depth: i32) -> bool {
        let best = self.root_moves[0].score;
        if self
            .limits
            .mate
            .is_some_and(|mate| best > MATE - 2 * mate as i32)
        {
            return true;
        }
        // A proven mate will not change by searching deeper (infinite and ponder searches
        // then wait for their release).
        if best.abs() >= MATE_BOUND && depth >= 2 * (MATE - best.abs()) + 2 {
            return self.limits.depth.is_none();
        }
        self.sync_ponder_hit();
        let nodes = self.total_nodes();
        self.limits.nodes.is_some_and(|n| nodes >= n)
            || self.limits.soft_nodes.is_some_and(|n| nodes >= n)
            || (!self.is_pondering() && self.time.soft_exceeded(self.soft_scale.factor()))
            || self.root_moves.len() == 1 && self.limits.is_timed() && !self.is_pondering()
    }

    fn is_pondering(&self) -> bool {
        self.signals.pondering.load(Relaxed)
    }

    /// Searches the current MultiPV slot with a window around the last score, widening it
    /// on failure.
    fn aspiration(&mut self, depth: i32, reporter: &dyn Reporter) {
        let previous = self.root_moves[self.pv_index].previous_score;
        let mut delta = aspiration_delta();
        let (mut alpha, mut beta) =
            if depth >= aspiration_min_depth() && previous.abs() < MATE_BOUND {
                (
                    (previous - delta).max(-INFINITE),
                    (previous + delta).min(INFINITE),
                )
            } else {
                (-INFINITE, INFINITE)
            };
        loop {
            let score = self.search_root(alpha, beta, depth, reporter);
            // Best first among the slots still open; moves that failed low hold -INFINITE.
            self.root_moves[self.pv_index..].sort_by_key(|rm| -rm.score);
            if self.stopped() {
                return;
            }
            let bound = if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
                Bound::Upper
            } else if score >= beta {
                beta = (score + delta).min(INFINITE);
                Bound::Lower
            } else {
                return;
            };
            if self.id == 0 && self.time.elapsed() > ASPIRATION_REPORT_AFTER {
                self.report(depth, self.pv_index + 1, Some(bound), reporter);
            }
            delta += delta / 2 + aspiration_growth();
        }
    }

    /// The root: like an inner node, but over the root move list (MultiPV slots and
    /// `searchmoves` applied) and recording each move's score and variation.
    fn search_root(&mut self, alpha: i32, beta: i32, depth: i32, reporter: &dyn Reporter) -> i32 {
        self.nodes += 1;
        let key = TableKey::from(self.board.key());
        let alpha_start = alpha;
        let mut best = BestSoFar::new(-INFINITE, alpha, beta);
        for i in self.pv_index..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            self.announce(depth, mv, i + 1, reporter);
            self.frames[0].moved = Some(landing(&self.board, mv));
            let nodes_before = self.nodes;
            self.board.do_move(mv, self.table);
            let gives_check = self.board.in_check();
            let new_depth = depth - 1 + i32::from(gives_check);
            let alpha = best.alpha;
            let mut score;
            if i == self.pv_index {
                score = -self.search(-beta, -alpha, new_depth, 1, false);
            } else {
                score = -self.search(-alpha - 1, -alpha, new_depth, 1, true);
                if score > alpha && score < beta {
                    score = -self.search(-beta, -alpha, new_depth, 1, false);
                }
            }
            self.board.undo_move();
            self.root_moves[i].nodes += self.nodes - nodes_before;
            if self.stopped() {
                return best.score;
            }
            let iteration = self.iteration;
            let rm = &mut self.root_moves[i];
            if i == self.pv_index || score > alpha {
                rm.score = score;
                rm.scored_at = iteration;
                self.root_scored = true;
                rm.bound = if score >= beta {
                    Some(Bound::Lower)
                } else if score <= alpha {
                    Some(Bound::Upper)
                } else {
                    None
                };
                rm.seldepth = self.seldepth;
                rm.pv.clear();
                rm.pv.push(mv);
                rm.pv.extend(self.pv[1].iter().copied());
            } else {
                rm.score = -INFINITE;
            }
            if best.update(mv, score) == Improvement::Cutoff {
                break;
            }
        }
        if self.pv_index == 0 {
            let bound = Bound::of(best.score, alpha_start, beta);
            self.store(key, best.mv, best.score, NO_EVAL, depth, bound, 0);
        }
        best.score
    }

    /// True when the search must unwind now.
    fn stopped(&self) -> bool {
        self.signals.stop.load(Relaxed)
    }

    /// Counts a node and, every `poll_mask + 1` on the main thread, checks the limits.
    fn visit(&mut self, ply: usize) {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply + 1);
        if self.nodes & self.poll_mask == 0 {
            self.publish_counters();
            if self.id == 0 {
                self.check_limits();
            }
        }
    }

    /// On `ponderhit` the clock for this move starts; picks that up once.
    fn sync_ponder_hit(&mut self) {
        if !self.ponder_hit_seen
            && self
                .signals
                .ponder_hit_at
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .is_some()
        {
            self.ponder_hit_seen = true;
            self.time.restart();
        }
    }

    /// Stops the search past the hard limit or the node limit once a root move has a score
    /// (a first iteration, above all one of several lines, can cost many times a small node
    /// budget), and past the clock's last resort in any case.
    fn check_limits(&mut self) {
        if self.is_pondering() {
            return;
        }
        self.sync_ponder_hit();
        let limit_reached =
            self.time.hard_exceeded() || self.limits.nodes.is_some_and(|n| self.total_nodes() >= n);
        if limit_reached && self.root_scored || self.time.last_resort_exceeded() {
            self.signals.stop.store(true, Relaxed);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn store(
        &self,
        key: TableKey,
        mv: Option<Move>,
        score: i32,
        eval: i16,
        depth: i32,
        bound: Bound,
        ply: usize,
    ) {
        self.table.store(
            key,
            ChessEntry {
                mv: mv.map_or(PackedMove::NONE, PackedMove::new),
                score: score_to_tt(score, ply),
                eval,
                depth: depth.clamp(0, 255) as u8,
                bound,
            },
        );
    }

    /// A reply to `best` from the table, when the variation stopped after one move. None
    /// when `best` ends the game in a draw (a variation does not go on past a threefold
    /// repetition, and GUIs warn when one does).
    fn ponder_from_table(&mut self, best: Move) -> Option<Move> {
        self.board.do_move(best, self.table);
        let reply = if self.is_draw(1) {
            None
        } else {
            self.table
                .probe(TableKey::from(self.board.key()))
                .and_then(|e| e.mv.legal_in(self.board.chess()))
        };
        self.board.undo_move();
        reply
    }

    /// Names the root move `mv`, the `number`th, as the main thread starts it, once the
    /// search has run long enough for a GUI to want to see progress within an iteration.
    fn announce(&self, depth: i32, mv: Move, number: usize, reporter: &dyn Reporter) {
        if self.id == 0
            && (self.time.elapsed() >= CURRENT_MOVE_AFTER
                || self.total_nodes() >= CURRENT_MOVE_AFTER_NODES)
        {
            reporter.current_move(&CurrentMove { depth, mv, number });
        }
    }

    /// Sends the current lines to the reporter.
    fn report(&self, depth: i32, lines: usize, bound: Option<Bound>, reporter: &dyn Reporter) {
        if lines > self.shown_lines {
            return;
        }
        self.publish_counters();
        let nodes = self.total_nodes();
        let tb_hits = self.total_tb_hits();
        let first = if bound.is_some() { lines - 1 } else { 0 };
        for (i, rm) in self.root_moves.iter().enumerate().take(lines).skip(first) {
            let score = rm.shown_score();
            if score == -INFINITE {
                continue;
            }
            let score = self.reported_score(score);
            reporter.line(&Line {
                depth,
                seldepth: rm.seldepth.max(1),
                multipv: i + 1,
                score,
                material: self.root_material,
                bound,
                nodes,
                tb_hits,
                time: self.time.elapsed(),
                hashfull: self.table.hashfull(),
                pv: rm.pv.to_vec(),
            });
        }
    }
}

/// The piece a move puts down and where (what counter moves are keyed by).
fn landing(board: &Board, mv: Move) -> (Piece, Square) {
    (mv.role().of(board.turn()), mv.to())
}
