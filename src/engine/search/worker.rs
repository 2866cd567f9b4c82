//! One search thread: iterative deepening with aspiration windows over the root moves, read
//! top to bottom (the inner nodes and quiescence are in `node.rs`), and what the thread
//! counts, checks and reports on the way.

use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;

use arrayvec::ArrayVec;
use shakmaty::{Color, Move, Piece, Square};
use tracing::instrument;

use super::interface::{CurrentMove, Line, Reporter, wait_for_release};
use super::main_thread::MainThread;
use super::memory::ThreadMemory;
use super::root_move::RootMove;
use super::shared::Shared;
use crate::engine::board::Board;
use crate::engine::correction::Correction;
use crate::engine::history::Heuristics;
use crate::engine::movepick::is_tactical;
use crate::engine::packed::PackedMove;
use crate::engine::params::*;
use crate::engine::score::{INFINITE, MATE_BOUND, MAX_PLY, NO_EVAL, score_to_tt};
use crate::engine::tt::{Bound, ChessEntry};
use crate::hashing::TableKey;

/// Everything one search thread owns and changes.
pub(super) struct Worker<'a> {
    /// Thread number; 0 is the main thread, which alone reports and decides.
    pub(super) id: usize,
    /// What is fixed for this search.
    pub(super) shared: &'a Shared<'a>,
    /// The main thread's own state (limits, clock, completed lines); `None` on a helper.
    pub(super) main: Option<MainThread>,
    /// The position searched, with the evaluator's state.
    pub(super) board: Board,
    /// Nodes this thread searched.
    pub(super) nodes: u64,
    /// Tablebase probes of this thread that found their position.
    pub(super) tb_hits: u64,
    /// Deepest ply reached in the current MultiPV slot.
    pub(super) seldepth: usize,
    /// Depth of the iteration under way.
    pub(super) iteration: i32,
    /// Move-ordering histories.
    pub(super) heuristics: Heuristics,
    /// Correction history of the static evaluation.
    pub(super) correction: Correction,
    /// One state per ply of the current line.
    pub(super) plies: [PlyState; MAX_PLY + 2],
    /// The principal variation from each ply.
    pub(super) pv: Vec<ArrayVec<Move, MAX_PLY>>,
    /// The root moves, best first.
    pub(super) root_moves: Vec<RootMove>,
    /// Root moves before this index already have their MultiPV line this iteration.
    pub(super) pv_index: usize,
    /// The null-move verification search under way, if one is.
    pub(super) null_move_verification: Option<NullMoveVerification>,
}

/// A null-move verification search under way: the side whose null move is being verified
/// makes no null move before a ply.
#[derive(Clone, Copy, Debug)]
pub(super) struct NullMoveVerification {
    /// Plies before this one make no null move for `side`.
    pub(super) min_ply: usize,
    /// The side whose null move is being verified.
    pub(super) side: Color,
}

impl NullMoveVerification {
    /// Whether `side` may try a null move at `ply` while this verification runs.
    #[inline]
    pub(super) fn allows(&self, side: Color, ply: usize) -> bool {
        ply >= self.min_ply || side != self.side
    }
}

impl Worker<'_> {
    /// Iterative deepening; returns the depth of the last completed iteration.
    #[instrument(level = "debug", skip_all, fields(thread = self.id))]
    pub(super) fn iterate(&mut self, multi_pv: usize, reporter: &dyn Reporter) -> i32 {
        let mut completed = 0;
        for depth in 1..=self.shared.max_depth {
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
                if !self.stopped() {
                    self.mark_first_line_done();
                }
                if self.stopped() {
                    // A first iteration cut after its best line keeps the lines it finished.
                    if completed == 0
                        && pv_index > 0
                        && let Some(main) = self.main.as_mut()
                    {
                        main.completed_lines = self.root_moves[..pv_index].to_vec();
                    }
                    break;
                }
                // Lines found so far stay in front, sorted.
                self.root_moves[..=pv_index].sort_by_key(|rm| -rm.score);
            }
            if self.stopped() {
                break;
            }
            let previous = completed;
            completed = depth;
            if self.main.is_some() && self.conclude_iteration(depth, previous, multi_pv, reporter) {
                break;
            }
        }
        self.publish_counters();
        if let Some(main) = &self.main {
            wait_for_release(main.limits(), self.shared.signals);
        }
        completed
    }

    /// The main thread's part after the iteration at `depth` (the one before being
    /// `previous`, 0: none) completed its `lines` lines: the time manager and the move
    /// choice take it in, and its lines are reported. Returns whether to stop iterating.
    fn conclude_iteration(
        &mut self,
        depth: i32,
        previous: i32,
        lines: usize,
        reporter: &dyn Reporter,
    ) -> bool {
        let Some(main) = self.main.as_mut() else {
            return false;
        };
        main.complete_iteration(depth, previous, &self.root_moves, lines, self.shared);
        self.report(depth, self.shared.shown_lines, None, reporter);
        let Some(main) = self.main.as_mut() else {
            return false;
        };
        main.iteration_limits_reached(depth, &self.root_moves, self.shared)
    }

    /// Searches the current MultiPV slot with a window around the last score, widening it
    /// on failure.
    pub(super) fn aspiration(&mut self, depth: i32, reporter: &dyn Reporter) {
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
            if self.main.is_some() && self.elapsed() > ASPIRATION_REPORT_AFTER {
                self.report(depth, self.pv_index + 1, Some(bound), reporter);
            }
            delta += delta / 2 + aspiration_growth();
        }
    }

    /// The root: like an inner node, but over the root move list (MultiPV slots and
    /// `searchmoves` applied) and recording each move's score and variation.
    pub(super) fn search_root(
        &mut self,
        alpha: i32,
        beta: i32,
        depth: i32,
        reporter: &dyn Reporter,
    ) -> i32 {
        self.nodes += 1;
        let key = TableKey::from(self.board.key());
        let alpha_start = alpha;
        let mut best = BestSoFar::new(-INFINITE, alpha, beta);
        for i in self.pv_index..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            if let Some(main) = &self.main {
                let current = CurrentMove {
                    depth,
                    mv,
                    number: i + 1,
                };
                main.announce(self.shared, current, reporter);
            }
            self.plies[0].moved = Some(landing(&self.board, mv));
            let quiet = !is_tactical(mv);
            self.plies[0].quiet = quiet;
            self.plies[0].move_number = i + 1 - self.pv_index;
            let nodes_before = self.nodes;
            self.board.do_move(mv, self.shared.table);
            let gives_check = self.board.in_check();
            let new_depth = depth - 1 + i32::from(gives_check);
            let alpha = best.alpha;
            let mut score;
            if i == self.pv_index {
                score = -self.search(-beta, -alpha, new_depth, 1, false);
            } else {
                // Late quiet root moves are searched shallower first, as at inner PV
                // nodes, and again at full depth when they beat alpha.
                let number = i + 1 - self.pv_index;
                let r = if quiet && depth >= lmr_min_depth() && number as i32 >= root_lmr_min_move()
                {
                    let r = self.shared.reductions.get(depth, number) - 1 - i32::from(gives_check);
                    r.min(new_depth - 1).max(0)
                } else {
                    0
                };
                // No hindsight depth at ply 1 (the root has no static evaluation): the
                // reduction is not recorded for the child.
                score = -self.search(-alpha - 1, -alpha, new_depth - r, 1, true);
                if score > alpha && r > 0 {
                    score = -self.search(-alpha - 1, -alpha, new_depth, 1, true);
                }
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
                if let Some(main) = self.main.as_mut() {
                    main.root_scored();
                }
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

    /// Notes that the first iteration's best line is complete, which the clock waits for:
    /// depth 1 costs a few hundred nodes where the clock is short, and the first root move
    /// it scores is only the one the static evaluation liked best (a queen that takes a
    /// defended pawn with check, say). A first iteration that explodes is cut by the last
    /// resort.
    fn mark_first_line_done(&self) {
        if self.main.is_some() {
            self.shared.first_line_done.store(true, Relaxed);
        }
    }

    /// Counts a node and, every `poll_mask + 1` on the main thread, checks the limits.
    /// Inlined into every node; the poll stays out of line.
    #[inline]
    pub(super) fn visit(&mut self, ply: usize) {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply + 1);
        if self.nodes & self.shared.poll_mask == 0 {
            self.poll();
        }
    }

    /// Publishes the counters and, on the main thread, checks the limits.
    #[cold]
    #[inline(never)]
    fn poll(&mut self) {
        self.publish_counters();
        if let Some(main) = self.main.as_mut() {
            main.check_limits(self.shared);
        }
    }

    /// True when the search must unwind now.
    pub(super) fn stopped(&self) -> bool {
        self.shared.signals.stop.load(Relaxed)
    }

    /// Stores a node's result in the table, its score made relative to the node.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn store(
        &self,
        key: TableKey,
        mv: Option<Move>,
        score: i32,
        eval: i16,
        depth: i32,
        bound: Bound,
        ply: usize,
    ) {
        self.shared.table.store(
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

    /// Time since the search (or the ponder hit) started, on the main thread's clock (zero
    /// on a helper, which reports nothing).
    pub(super) fn elapsed(&self) -> Duration {
        self.main
            .as_ref()
            .map_or(Duration::ZERO, MainThread::elapsed)
    }

    /// Sends the current lines to the reporter.
    pub(super) fn report(
        &self,
        depth: i32,
        lines: usize,
        bound: Option<Bound>,
        reporter: &dyn Reporter,
    ) {
        if lines > self.shared.shown_lines {
            return;
        }
        // Published even for a reporter that drops the lines: the limits checked after an
        // iteration (a soft node limit) read the published counts.
        self.publish_counters();
        if !reporter.wants_lines() {
            return;
        }
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
                material: self.shared.root_material,
                bound,
                nodes,
                tb_hits,
                time: self.elapsed(),
                hashfull: self.shared.table.hashfull(),
                pv: rm.pv.to_vec(),
            });
        }
    }

    /// A search score as the lines report it: the tables' score at a root they cover,
    /// unless the search found a mate.
    pub(super) fn reported_score(&self, score: i32) -> i32 {
        match self.shared.root_tb_score {
            Some(tb_score) if score.abs() < MATE_BOUND => tb_score,
            _ => score,
        }
    }

    /// Makes this thread's counts visible to the others.
    pub(super) fn publish_counters(&self) {
        let mine = &self.shared.counters[self.id];
        mine.nodes.store(self.nodes, Relaxed);
        mine.tb_hits.store(self.tb_hits, Relaxed);
    }

    /// Nodes searched by all threads.
    pub(super) fn total_nodes(&self) -> u64 {
        self.shared.total_nodes()
    }

    /// Tablebase hits of all threads.
    pub(super) fn total_tb_hits(&self) -> u64 {
        self.shared.total_tb_hits()
    }

    /// What this thread learned, for the next search.
    pub(super) fn into_memory(self) -> ThreadMemory {
        ThreadMemory {
            heuristics: self.heuristics,
            correction: self.correction,
        }
    }
}

/// What the search keeps about each ply of the line it is on.
#[derive(Clone, Copy, Default)]
pub(super) struct PlyState {
    /// The static evaluation, corrected (-INFINITE in check).
    pub(super) eval: i32,
    /// The piece moved to reach the next ply and where it went (for counter moves).
    pub(super) moved: Option<(Piece, Square)>,
    /// Whether the move to the next ply is a null move.
    pub(super) null_move: bool,
    /// The move a singular-extension search of this ply leaves out.
    pub(super) excluded: Option<Move>,
    /// Double extensions on the line to this ply.
    pub(super) double_extensions: i32,
    /// Whether the move to the next ply is quiet (not a capture or promotion).
    pub(super) quiet: bool,
    /// The move to the next ply's place among the moves searched here (1 for the first).
    pub(super) move_number: usize,
    /// The late move reduction of the move to the next ply while its reduced search runs
    /// (0 otherwise: its re-searches, the null move, ProbCut, the first move), read by the
    /// next ply's hindsight depth.
    pub(super) reduction: i32,
}

/// How a searched move changed its node's best so far.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Improvement {
    /// Not above alpha.
    None,
    /// A new best move inside the window.
    NewAlpha,
    /// At or above beta: the node fails high.
    Cutoff,
}

/// A node's best score and move so far, against its window. The one place where a searched
/// move's score raises the best, alpha and the best move.
pub(super) struct BestSoFar {
    pub(super) score: i32,
    pub(super) mv: Option<Move>,
    pub(super) alpha: i32,
    pub(super) beta: i32,
}

impl BestSoFar {
    /// Nothing searched yet; `score` is what the node is worth without a move (-INFINITE,
    /// or the stand-pat eval in quiescence).
    pub(super) fn new(score: i32, alpha: i32, beta: i32) -> BestSoFar {
        BestSoFar {
            score,
            mv: None,
            alpha,
            beta,
        }
    }

    /// Takes in one searched move.
    #[inline]
    pub(super) fn update(&mut self, mv: Move, score: i32) -> Improvement {
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

/// The piece a move puts down and where (what counter moves are keyed by).
pub(super) fn landing(board: &Board, mv: Move) -> (Piece, Square) {
    (mv.role().of(board.turn()), mv.to())
}
