//! Alpha-beta search, read top to bottom: [`search`] (this file) sets up what is fixed for
//! one search (`shared.rs`) and its root moves, `threads.rs` starts the threads and joins
//! them, each runs iterative deepening with aspiration windows over the root moves
//! (`worker.rs`) while the clock's guard keeps the time limit (`clock_guard.rs`), the inner
//! nodes and quiescence are in `node.rs`, and the main thread chooses the move to play
//! (`choice.rs`). What a caller hands in and gets back is in `interface.rs`; what only the
//! main thread keeps (the limits, the clock, the lines it chooses from) in `main_thread.rs`;
//! the clock's rules, which the main thread and the guard both ask, in `clock.rs`; what the
//! threads keep from one search to the next in [`memory`]. Every margin and reduction is
//! named in [`crate::engine::params`]. Lazy SMP: helper threads search the same tree and
//! share only the transposition table.

mod choice;
mod clock;
mod clock_guard;
mod interface;
mod main_thread;
pub mod memory;
mod node;
mod root_move;
mod shared;
mod threads;
mod worker;

pub use interface::{
    CurrentMove, Line, Reporter, SearchOptions, SearchResult, Signals, Silent, wait_for_release,
};

use std::sync::atomic::AtomicBool;

use arrayvec::ArrayVec;
use shakmaty::{Move, Position as _};
use tracing::debug;

use self::main_thread::MainThread;
use self::memory::{SearchMemory, ThreadMemory};
use self::root_move::RootMove;
use self::shared::{Reductions, Shared, ThreadCounters, max_depth, poll_mask};
use self::worker::{PlyState, Worker};
use crate::chess::Position;
use crate::engine::board::Board;
use crate::engine::limits::Limits;
use crate::engine::score::{INFINITE, MATE, MAX_PLY};
use crate::engine::tb::Outcome;
use crate::engine::timeman::TimeManager;
use crate::engine::tt::ChessTable;
use crate::engine::wdl;

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
    let allowed = |mv: &Move| limits.search_moves.is_empty() || limits.search_moves.contains(mv);
    // At a root the tables cover, only the moves that keep the tables' result (unless
    // `searchmoves` excludes them all).
    let tablebases = options.tablebases.as_deref();
    let tb_root = tablebases
        .filter(|tb| tb.covers(pos.chess(), options.tb_probing.pieces))
        .and_then(|tb| tb.root_moves(pos.chess(), options.tb_probing.fifty_move_rule))
        .filter(|root| root.moves.iter().any(allowed));
    // The tables' verdict is what the lines report (as the fifty-move rule option has it),
    // unless the search finds a mate.
    let root_tb_score = tb_root.as_ref().map(|root| root.outcome.score(0));
    let root_tb_hits = u64::from(tb_root.is_some());
    // Below a root the distance tables settled, probes tell nothing more; below a won root
    // only the win/draw/loss tables ranked, they still see the conversions (as Stockfish's).
    let probe_inside = tb_root
        .as_ref()
        .is_none_or(|root| !root.by_distance && root.outcome == Outcome::Win);
    // The tables' moves in their order, else every legal move.
    let candidates = match tb_root {
        Some(root) => root.moves,
        None => pos.legal_moves().into_iter().collect(),
    };
    let root_moves: Vec<RootMove> = candidates
        .into_iter()
        .filter(|mv| allowed(mv))
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
    let clock = TimeManager::new(limits, pos.turn(), options.move_overhead);
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
            time: clock.elapsed(),
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
        };
    }

    let shown_lines = options.multi_pv.clamp(1, root_moves.len());
    // A limited strength also searches the alternatives it may play, on a node budget.
    let multi_pv = match options.strength {
        Some(strength) => shown_lines.max(strength.lines).min(root_moves.len()),
        None => shown_lines,
    };
    let shared = Shared {
        table,
        signals,
        options,
        poll_mask: poll_mask(limits),
        max_depth: max_depth(limits),
        counters: (0..threads).map(|_| ThreadCounters::default()).collect(),
        reductions: Reductions::new(),
        tablebases: tablebases.filter(|_| probe_inside),
        root_tb_score,
        root_material,
        shown_lines,
        first_line_done: AtomicBool::new(false),
    };
    let make_worker = |id: usize, learned: ThreadMemory| Worker {
        id,
        shared: &shared,
        main: (id == 0).then(|| MainThread::new(limits.clone(), clock.clone())),
        board: Board::new(pos.clone(), options.network.as_ref()).with_scaling(options.scaling),
        nodes: 0,
        tb_hits: if id == 0 { root_tb_hits } else { 0 },
        seldepth: 0,
        iteration: 0,
        heuristics: learned.heuristics,
        correction: learned.correction,
        plies: [PlyState::default(); MAX_PLY + 2],
        pv: vec![ArrayVec::new(); MAX_PLY + 2],
        root_moves: root_moves.clone(),
        pv_index: 0,
        null_move_verification: None,
    };

    // Each worker takes its thread's memory and gives it back when done.
    let learned = memory.for_search(threads);
    let (mut main, depth) = threads::run(learned, multi_pv, reporter, make_worker);
    let result = main.decide(depth, reporter);
    learned[0] = main.into_memory();
    result
}
