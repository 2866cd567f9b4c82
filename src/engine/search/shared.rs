//! What is fixed for one search and shared by all its threads: the table, the signals, the
//! options the search was given, how deep and how often to look at the limits, the counters
//! each thread publishes, the reduction table, the tablebases probed inside and the facts of
//! the root. A
//! [`Worker`](super::worker::Worker) holds only what its thread changes; the limits
//! themselves are the main thread's ([`MainThread`](super::main_thread::MainThread)).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use super::interface::{SearchOptions, Signals};
use crate::engine::limits::Limits;
use crate::engine::params::*;
use crate::engine::score::MAX_DEPTH;
use crate::engine::tb::Tablebases;
use crate::engine::tt::ChessTable;

/// Nodes between two looks at the clock and node budget (a power of two).
const POLL_INTERVAL: u64 = 1024;
/// Below this node budget the budget is looked at every [`FINE_POLL_INTERVAL`] nodes.
const SMALL_NODE_BUDGET: u64 = 64 * 1024;
/// Nodes between two looks at a small node budget (a power of two).
const FINE_POLL_INTERVAL: u64 = 32;

/// One search's fixed facts, read by every thread.
pub(super) struct Shared<'a> {
    /// The transposition table, the threads' only shared knowledge.
    pub(super) table: &'a ChessTable,
    /// Stop and ponder flags.
    pub(super) signals: &'a Signals,
    /// The options the search was given, read by reference where the search needs them.
    pub(super) options: &'a SearchOptions,
    /// The deepest iteration any thread starts.
    pub(super) max_depth: i32,
    /// What each thread has counted, by thread id.
    pub(super) counters: Vec<ThreadCounters>,
    /// Late-move reductions by depth and move number.
    pub(super) reductions: Reductions,
    /// Tablebases to probe inside the search (none when the distance tables settled the
    /// root: its moves are already the ones that keep the result), probed as the options'
    /// `tb_probing` says.
    pub(super) tablebases: Option<&'a Tablebases>,
    /// The tables' score of the root when they cover it: reported instead of the search's
    /// score unless that is a mate.
    pub(super) root_tb_score: Option<i32>,
    /// Material of the root, which the reported lines carry.
    pub(super) root_material: i32,
    /// MultiPV lines reported (a limited strength searches more than it shows).
    pub(super) shown_lines: usize,
    /// Nodes between two looks at the clock and node budget, less one (a power of two).
    pub(super) poll_mask: u64,
    /// Whether the main thread has completed its first iteration's best line: until then
    /// only the clock's last resort stops the search (set by the main thread, read by its
    /// clock and the guard's, see `clock.rs`).
    pub(super) first_line_done: AtomicBool,
}

impl Shared<'_> {
    /// Whether the search runs on the opponent's time.
    pub(super) fn is_pondering(&self) -> bool {
        self.signals.pondering.load(Relaxed)
    }

    /// Tells every thread to unwind.
    pub(super) fn stop(&self) {
        self.signals.stop.store(true, Relaxed);
    }

    /// Whether the main thread has completed its first iteration's best line.
    pub(super) fn first_line_done(&self) -> bool {
        self.first_line_done.load(Relaxed)
    }

    /// Nodes searched by all threads, as they last published them.
    pub(super) fn total_nodes(&self) -> u64 {
        self.counters.iter().map(|c| c.nodes.load(Relaxed)).sum()
    }

    /// Tablebase hits of all threads, as they last published them.
    pub(super) fn total_tb_hits(&self) -> u64 {
        self.counters.iter().map(|c| c.tb_hits.load(Relaxed)).sum()
    }
}

/// The deepest iteration of a search under `limits`.
pub(super) fn max_depth(limits: &Limits) -> i32 {
    limits
        .depth
        .map_or(MAX_DEPTH, |d| (d as i32).clamp(1, MAX_DEPTH))
}

/// The poll mask for a search under `limits`: small node budgets (limited strength) are
/// kept to within a few dozen nodes.
pub(super) fn poll_mask(limits: &Limits) -> u64 {
    match limits.nodes {
        Some(n) if n < SMALL_NODE_BUDGET => FINE_POLL_INTERVAL - 1,
        _ => POLL_INTERVAL - 1,
    }
}

/// What one thread has counted, published for the others to sum.
#[derive(Default)]
pub(super) struct ThreadCounters {
    /// Nodes.
    pub(super) nodes: AtomicU64,
    /// Tablebase probes that found their position.
    pub(super) tb_hits: AtomicU64,
}

/// Late-move reduction by depth and move number.
pub(super) struct Reductions([[u8; 64]; 64]);

impl Reductions {
    /// The table from the tunable base and divisor. The logarithms are taken once for
    /// each of the 64 numbers (each search builds the table).
    pub(super) fn new() -> Reductions {
        let ln: [f64; 64] = std::array::from_fn(|n| (n as f64).ln());
        let mut table = [[0u8; 64]; 64];
        for (depth, row) in table.iter_mut().enumerate().skip(1) {
            for (moves, r) in row.iter_mut().enumerate().skip(1) {
                *r = (pct(lmr_base_pct()) + ln[depth] * ln[moves] / pct(lmr_divisor_pct())) as u8;
            }
        }
        Reductions(table)
    }

    /// The reduction of the `moves`th move at `depth`.
    pub(super) fn get(&self, depth: i32, moves: usize) -> i32 {
        i32::from(self.0[(depth as usize).min(63)][moves.min(63)])
    }
}
