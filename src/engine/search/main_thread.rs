//! What only the main thread keeps: the limits with the clock they run on, whether a root
//! move has a score, what the completed iterations say about the time this move deserves,
//! and the last completed iteration's lines, from which the move is chosen; and the checks
//! that read them. A helper thread has none of it: its worker's `main` is `None`.

use std::time::Duration;

use tracing::debug;

use super::clock::SearchClock;
use super::interface::{CurrentMove, Reporter};
use super::root_move::RootMove;
use super::shared::Shared;
use crate::engine::limits::Limits;
use crate::engine::score::{MATE, MATE_BOUND, TB_BOUND};
use crate::engine::timeman::{SoftScale, TimeManager};

/// The main thread names each root move as it starts searching it once the search has run
/// this long ...
const CURRENT_MOVE_AFTER: Duration = Duration::from_secs(3);
/// ... or searched this many nodes, whichever comes first.
const CURRENT_MOVE_AFTER_NODES: u64 = 10_000_000;

/// The main thread's own state: the one carrier of the search's limits and clock.
pub(super) struct MainThread {
    /// What the search was asked for, as given.
    limits: Limits,
    /// The clock the limits run on.
    clock: SearchClock,
    /// Whether any root move has a score yet: until then a node limit cannot stop the
    /// search.
    root_scored: bool,
    /// What the completed iterations say about the time this move deserves.
    soft_scale: SoftScale,
    /// The MultiPV lines of the last completed iteration, best first, as reported.
    pub(super) completed_lines: Vec<RootMove>,
}

impl MainThread {
    /// The main thread of a search under `limits`, timed by `clock`.
    pub(super) fn new(limits: Limits, clock: TimeManager) -> MainThread {
        MainThread {
            limits,
            clock: SearchClock::new(clock),
            root_scored: false,
            soft_scale: SoftScale::default(),
            completed_lines: Vec::new(),
        }
    }

    /// What the search was asked for.
    pub(super) fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The clock the limits run on.
    pub(super) fn clock(&self) -> &SearchClock {
        &self.clock
    }

    /// Notes that a root move has a score.
    pub(super) fn root_scored(&mut self) {
        self.root_scored = true;
    }

    /// Time since the search (or the ponder hit) started.
    pub(super) fn elapsed(&self) -> Duration {
        self.clock.elapsed()
    }

    /// Takes in the iteration just completed, whose root moves are `root_moves` (best
    /// first), the one before being `previous` (0: none): what it says about the time this
    /// move deserves, logged with the iteration, and its lines, the first `lines`.
    pub(super) fn complete_iteration(
        &mut self,
        depth: i32,
        previous: i32,
        root_moves: &[RootMove],
        lines: usize,
        shared: &Shared,
    ) {
        self.learn_soft_scale(previous, root_moves);
        self.completed_lines = root_moves[..lines].to_vec();
        let scale = self.soft_scale;
        debug!(
            depth,
            score = root_moves[0].score,
            nodes = shared.total_nodes(),
            ms = self.elapsed().as_millis() as u64,
            stable_iterations = scale.stable_iterations,
            score_drop = scale.score_drop,
            best_move_share = scale.best_move_share,
            "iteration complete"
        );
    }

    /// Updates the soft scale from the iteration just completed, the one before being
    /// `previous` (0: none) and its best line the first of the completed lines.
    fn learn_soft_scale(&mut self, previous: i32, root_moves: &[RootMove]) {
        let best = &root_moves[0];
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
        let all: u64 = root_moves.iter().map(|rm| rm.nodes).sum();
        scale.best_move_share = if all == 0 {
            0.0
        } else {
            best.nodes as f64 / all as f64
        };
    }

    /// After the iteration at `depth`, whose root moves are `root_moves`: is there reason
    /// not to start the next one?
    pub(super) fn iteration_limits_reached(
        &mut self,
        depth: i32,
        root_moves: &[RootMove],
        shared: &Shared,
    ) -> bool {
        let limits = &self.limits;
        let best = root_moves[0].score;
        if limits
            .mate
            .is_some_and(|mate| best > MATE - 2 * mate as i32)
        {
            return true;
        }
        // A proven mate will not change by searching deeper (infinite and ponder searches
        // then wait for their release); a depth or a movetime asked for is searched out.
        if best.abs() >= MATE_BOUND && depth >= 2 * (MATE - best.abs()) + 2 {
            return limits.depth.is_none() && limits.movetime.is_none();
        }
        let nodes = shared.total_nodes();
        let time_spent = self.clock.iteration_time_spent(
            shared.signals,
            self.soft_scale.factor(),
            root_moves.len() == 1,
        );
        let limits = &self.limits;
        limits.nodes.is_some_and(|n| nodes >= n)
            || limits.soft_nodes.is_some_and(|n| nodes >= n)
            || time_spent
    }

    /// Stops the search when its clock says so ([`SearchClock::out_of_time`]), and, unless
    /// it ponders, past the node limit once a root move has a score (a first iteration,
    /// above all one of several lines, can cost many times a small node budget).
    pub(super) fn check_limits(&mut self, shared: &Shared) {
        let out_of_time = self
            .clock
            .out_of_time(shared.signals, shared.first_line_done());
        let out_of_nodes = self.root_scored
            && !shared.is_pondering()
            && self.limits.nodes.is_some_and(|n| shared.total_nodes() >= n);
        if out_of_time || out_of_nodes {
            shared.stop();
        }
    }

    /// Names the root move `mv`, the `number`th, as it is started, once the search has run
    /// long enough for a GUI to want to see progress within an iteration.
    pub(super) fn announce(&self, shared: &Shared, current: CurrentMove, reporter: &dyn Reporter) {
        if self.elapsed() >= CURRENT_MOVE_AFTER || shared.total_nodes() >= CURRENT_MOVE_AFTER_NODES
        {
            reporter.current_move(&current);
        }
    }
}
