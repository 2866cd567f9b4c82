//! Alpha-beta search: iterative deepening with aspiration windows, principal variation
//! search, quiescence, and the pruning and reduction rules below, each under its condition.
//! Lazy SMP: helper threads search the same tree and share only the transposition table.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use arrayvec::ArrayVec;
use shakmaty::{Move, Piece, Position as _, Square};
use tracing::{debug, error, instrument};

use super::eval::evaluate;
use super::movepick::{Heuristics, MAX_PLY, MovePicker, is_tactical};
use super::packed::PackedMove;
use super::see::see_ge;
use super::timeman::{Limits, TimeManager};
use super::tt::{Bound, ChessEntry, ChessTable};
use crate::chess::Position;
use crate::hashing::TableKey;

/// Above every real score.
pub const INFINITE: i32 = 32_001;
/// The score of being mated now; mate in n plies scores `MATE - n`.
pub const MATE: i32 = 32_000;
/// Scores beyond this are mate scores.
pub const MATE_BOUND: i32 = MATE - 1000;
/// Deepest iteration.
pub const MAX_DEPTH: i32 = 100;
const NO_EVAL: i16 = i16::MIN;
/// Stack of a helper thread: the recursion keeps move lists on the stack for up to MAX_PLY.
const HELPER_STACK: usize = 32 << 20;

/// Flags shared by the input thread and every search thread.
#[derive(Default)]
pub struct Signals {
    /// Stop searching now.
    pub stop: AtomicBool,
    /// Searching on the opponent's time: clocks do not run.
    pub pondering: AtomicBool,
    /// When `ponderhit` arrived, if it did: the move's clock starts then.
    pub ponder_hit_at: Mutex<Option<Instant>>,
    /// Set just before the `bestmove` goes out: from then on the engine is idle as far as
    /// the GUI can tell, so commands that need an idle engine wait for the thread instead
    /// of being refused.
    pub done: AtomicBool,
}

impl Signals {
    /// Turns a ponder search into a normal timed one.
    pub fn ponder_hit(&self) {
        *self.ponder_hit_at.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
        self.pondering.store(false, Relaxed);
    }
}

/// Settings that shape a search.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Search threads (1 = no helpers).
    pub threads: usize,
    /// Principal variations to report.
    pub multi_pv: usize,
    /// Time kept back per move for communication.
    pub move_overhead: Duration,
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions {
            threads: 1,
            multi_pv: 1,
            move_overhead: Duration::from_millis(10),
        }
    }
}

/// One completed principal variation, as reported in `info`.
#[derive(Clone, Debug)]
pub struct Line {
    /// Iteration depth.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: usize,
    /// 1-based MultiPV index.
    pub multipv: usize,
    /// Score from the side to move's view.
    pub score: i32,
    /// `lowerbound` / `upperbound` when an aspiration window failed.
    pub bound: Option<Bound>,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Table fill in permille.
    pub hashfull: u32,
    /// The variation; its first move is the root move.
    pub pv: Vec<Move>,
}

/// Where a search reports: `info` lines as iterations complete.
pub trait Reporter: Sync {
    /// A completed (or bound-failed) line.
    fn line(&self, line: &Line);
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
}

/// Scores in the table are relative to the node, not the root: mate distances are stored
/// from the node on and converted back when read.
fn score_to_tt(score: i32, ply: usize) -> i16 {
    let ply = ply as i32;
    (if score >= MATE_BOUND {
        score + ply
    } else if score <= -MATE_BOUND {
        score - ply
    } else {
        score
    }) as i16
}

fn score_from_tt(score: i16, ply: usize) -> i32 {
    let (score, ply) = (i32::from(score), ply as i32);
    if score >= MATE_BOUND {
        score - ply
    } else if score <= -MATE_BOUND {
        score + ply
    } else {
        score
    }
}

/// Late-move reduction by depth and move number.
struct Reductions([[u8; 64]; 64]);

impl Reductions {
    fn new() -> Reductions {
        let mut table = [[0u8; 64]; 64];
        for (depth, row) in table.iter_mut().enumerate().skip(1) {
            for (moves, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.75 + (depth as f64).ln() * (moves as f64).ln() / 2.25) as u8;
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
    seldepth: usize,
    pv: ArrayVec<Move, MAX_PLY>,
}

/// Per-ply search state.
#[derive(Clone, Copy, Default)]
struct Frame {
    eval: i32,
    /// The piece moved to reach the next ply and where it went (for counter moves).
    moved: Option<(Piece, Square)>,
    null_move: bool,
}

/// Everything one search thread owns.
struct Worker<'a> {
    id: usize,
    pos: Position,
    table: &'a ChessTable,
    signals: &'a Signals,
    limits: &'a Limits,
    time: TimeManager,
    node_counts: &'a [AtomicU64],
    nodes: u64,
    seldepth: usize,
    /// Depth of the iteration under way: the first always completes.
    iteration: i32,
    heuristics: Heuristics,
    reductions: &'a Reductions,
    frames: [Frame; MAX_PLY + 2],
    pv: Vec<ArrayVec<Move, MAX_PLY>>,
    root_moves: Vec<RootMove>,
    /// Root moves before this index already have their MultiPV line this iteration.
    pv_index: usize,
    /// Whether the `ponderhit` restart of the clock has been applied.
    ponder_hit_seen: bool,
}

/// Runs a search on `pos` under `limits` and returns the best move.
pub fn search(
    pos: &Position,
    limits: &Limits,
    options: &SearchOptions,
    table: &ChessTable,
    signals: &Signals,
    reporter: &dyn Reporter,
) -> SearchResult {
    table.new_generation();
    let reductions = Reductions::new();
    let root_moves: Vec<RootMove> = pos
        .legal_moves()
        .into_iter()
        .filter(|mv| limits.search_moves.is_empty() || limits.search_moves.contains(mv))
        .map(|mv| RootMove {
            mv,
            score: -INFINITE,
            previous_score: -INFINITE,
            seldepth: 0,
            pv: ArrayVec::from_iter([mv]),
        })
        .collect();
    let threads = options.threads.max(1);
    debug!(fen = %pos.fen(), ?limits, threads, multi_pv = options.multi_pv, "search start");
    let node_counts: Vec<AtomicU64> = (0..threads).map(|_| AtomicU64::new(0)).collect();
    let time = TimeManager::new(limits, pos.turn(), options.move_overhead);

    if root_moves.is_empty() {
        let score = if pos.chess().is_check() { -MATE } else { 0 };
        reporter.line(&Line {
            depth: 0,
            seldepth: 0,
            multipv: 1,
            score,
            bound: None,
            nodes: 0,
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
        };
    }

    let make_worker = |id: usize| Worker {
        id,
        pos: pos.clone(),
        table,
        signals,
        limits,
        time: time.clone(),
        node_counts: &node_counts,
        nodes: 0,
        seldepth: 0,
        iteration: 0,
        heuristics: Heuristics::default(),
        reductions: &reductions,
        frames: [Frame::default(); MAX_PLY + 2],
        pv: vec![ArrayVec::new(); MAX_PLY + 2],
        root_moves: root_moves.clone(),
        pv_index: 0,
        ponder_hit_seen: false,
    };
    let multi_pv = options.multi_pv.clamp(1, root_moves.len());

    let mut main = make_worker(0);
    let depth = std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads)
            .filter_map(|id| {
                let mut helper = make_worker(id);
                let spawned = std::thread::Builder::new()
                    .name(format!("helper {id}"))
                    .stack_size(HELPER_STACK)
                    .spawn_scoped(scope, move || helper.iterate(1, &Silent));
                // Without a helper the search is only slower, never wrong.
                spawned
                    .map_err(|e| debug!("helper thread {id} not started: {e}"))
                    .ok()
            })
            .collect();
        let depth = main.iterate(multi_pv, reporter);
        // Helpers stop when the main thread is done.
        signals.stop.store(true, Relaxed);
        // Joined one by one: the scope's own join returns before a helper's thread-locals
        // are freed, so a helper could still be exiting after `search` returned. A helper
        // that panicked costs only its share of the search; the main thread's move stands.
        for helper in helpers {
            if helper.join().is_err() {
                error!("a helper thread panicked; its search is lost");
            }
        }
        depth
    });

    let best = main.root_moves[0].clone();
    let ponder = best
        .pv
        .get(1)
        .copied()
        .or_else(|| main.ponder_from_table(best.mv));
    SearchResult {
        best: Some(best.mv),
        ponder,
        score: if best.score == -INFINITE {
            best.previous_score
        } else {
            best.score
        },
        depth,
        nodes: node_counts.iter().map(|n| n.load(Relaxed)).sum(),
    }
}

/// `go infinite` and `go ponder` must not answer before `stop` (or `ponderhit`).
fn wait_for_release(limits: &Limits, signals: &Signals) {
    while !signals.stop.load(Relaxed) && (limits.infinite || signals.pondering.load(Relaxed)) {
        std::thread::sleep(Duration::from_millis(1));
    }
}

impl Worker<'_> {
    fn total_nodes(&self) -> u64 {
        self.node_counts.iter().map(|n| n.load(Relaxed)).sum()
    }

    /// Iterative deepening; returns the depth of the last completed iteration.
    #[instrument(level = "debug", skip_all, fields(thread = self.id))]
    fn iterate(&mut self, multi_pv: usize, reporter: &dyn Reporter) -> i32 {
        let max_depth = self
            .limits
            .depth
            .map_or(MAX_DEPTH, |d| (d as i32).clamp(1, MAX_DEPTH));
        let mut completed = 0;
        for depth in 1..=max_depth {
            // Helpers spread out: odd ones skip every other depth.
            if self.id % 2 == 1 && depth > 1 && depth % 2 == 0 {
                continue;
            }
            self.iteration = depth;
            for rm in &mut self.root_moves {
                rm.previous_score = rm.score;
            }
            for pv_index in 0..multi_pv {
                self.pv_index = pv_index;
                self.seldepth = 0;
                self.aspiration(depth, reporter);
                if self.stopped() {
                    break;
                }
                // Lines found so far stay in front, sorted.
                self.root_moves[..=pv_index].sort_by_key(|rm| -rm.score);
            }
            if self.stopped() {
                break;
            }
            completed = depth;
            if self.id == 0 {
                debug!(
                    depth,
                    seldepth = self.seldepth,
                    score = self.root_moves[0].score,
                    nodes = self.total_nodes(),
                    ms = self.time.elapsed().as_millis() as u64,
                    "iteration complete"
                );
                self.report(depth, multi_pv, None, reporter);
                if self.iteration_limits_reached(depth) {
                    break;
                }
            }
        }
        self.node_counts[self.id].store(self.nodes, Relaxed);
        if self.id == 0 {
            wait_for_release(self.limits, self.signals);
        }
        completed
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
        self.limits.nodes.is_some_and(|n| self.total_nodes() >= n)
            || (!self.is_pondering() && self.time.soft_exceeded())
            || self.root_moves.len() == 1 && self.limits.is_timed() && !self.is_pondering()
    }

    fn is_pondering(&self) -> bool {
        self.signals.pondering.load(Relaxed)
    }

    /// Searches the current MultiPV slot with a window around the last score, widening it
    /// on failure.
    fn aspiration(&mut self, depth: i32, reporter: &dyn Reporter) {
        let previous = self.root_moves[self.pv_index].previous_score;
        let mut delta = 20;
        let (mut alpha, mut beta) = if depth >= 4 && previous.abs() < MATE_BOUND {
            (
                (previous - delta).max(-INFINITE),
                (previous + delta).min(INFINITE),
            )
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let score = self.search_root(alpha, beta, depth);
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
            if self.id == 0 && self.time.elapsed() > Duration::from_secs(2) {
                self.report(depth, self.pv_index + 1, Some(bound), reporter);
            }
            delta += delta / 2 + 10;
        }
    }

    /// The root: like an inner node, but over the root move list (MultiPV slots and
    /// `searchmoves` applied) and recording each move's score and variation.
    fn search_root(&mut self, mut alpha: i32, beta: i32, depth: i32) -> i32 {
        self.nodes += 1;
        let key = TableKey::from(self.pos.key());
        let mut best = -INFINITE;
        let mut best_move = None;
        let alpha_start = alpha;
        for i in self.pv_index..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            self.frames[0].moved = Some(landing(&self.pos, mv));
            self.pos.push(mv);
            let gives_check = self.pos.chess().is_check();
            let new_depth = depth - 1 + i32::from(gives_check);
            let mut score;
            if i == self.pv_index {
                score = -self.search(-beta, -alpha, new_depth, 1, false);
            } else {
                score = -self.search(-alpha - 1, -alpha, new_depth, 1, true);
                if score > alpha && score < beta {
                    score = -self.search(-beta, -alpha, new_depth, 1, false);
                }
            }
            self.pos.pop();
            if self.stopped() {
                return best;
            }
            let rm = &mut self.root_moves[i];
            if i == self.pv_index || score > alpha {
                rm.score = score;
                rm.seldepth = self.seldepth;
                rm.pv.clear();
                rm.pv.push(mv);
                rm.pv.extend(self.pv[1].iter().copied());
            } else {
                rm.score = -INFINITE;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if self.pv_index == 0 {
            let bound = Bound::of(best, alpha_start, beta);
            self.store(key, best_move, best, NO_EVAL, depth, bound, 0);
        }
        best
    }

    /// True when the search must unwind now. The first iteration always completes so a
    /// scored move exists; later, the main thread polls the clock and node limit.
    fn stopped(&self) -> bool {
        self.iteration > 1 && self.signals.stop.load(Relaxed)
    }

    /// Counts a node and, every 1024 on the main thread, checks the limits.
    fn visit(&mut self, ply: usize) {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply + 1);
        if self.nodes.is_multiple_of(1024) {
            self.node_counts[self.id].store(self.nodes, Relaxed);
            if self.id == 0 && self.iteration > 1 {
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

    fn check_limits(&mut self) {
        if self.is_pondering() {
            return;
        }
        self.sync_ponder_hit();
        if self.time.hard_exceeded() || self.limits.nodes.is_some_and(|n| self.total_nodes() >= n) {
            self.signals.stop.store(true, Relaxed);
        }
    }

    /// Draw by the fifty-move rule, insufficient material or repetition. A repetition
    /// inside the search counts at once; one reaching back into the game needs two.
    fn is_draw(&self, ply: usize) -> bool {
        let chess = self.pos.chess();
        if chess.halfmoves() >= 100 || chess.is_insufficient_material() {
            return true;
        }
        let key = self.pos.key();
        let mut seen = 0;
        for (i, k) in self.pos.reversible_keys().enumerate().skip(1).step_by(2) {
            if k == key {
                if i < ply {
                    return true;
                }
                seen += 1;
                if seen >= 2 {
                    return true;
                }
            }
        }
        false
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

    /// Principal variation search of an inner node.
    fn search(&mut self, mut alpha: i32, mut beta: i32, depth: i32, ply: usize, cut: bool) -> i32 {
        if depth <= 0 {
            return self.quiesce(alpha, beta, ply);
        }
        self.pv[ply].clear();
        self.visit(ply);
        if self.stopped() {
            return 0;
        }
        let pv_node = beta - alpha > 1;
        if self.is_draw(ply) {
            return 0;
        }
        if ply >= MAX_PLY {
            return evaluate(self.pos.chess());
        }
        // Mate distance pruning: no line from here beats a mate already found nearer the root.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        let key = TableKey::from(self.pos.key());
        let entry = self.table.probe(key);
        if let Some(e) = entry {
            let score = score_from_tt(e.score, ply);
            if !pv_node && i32::from(e.depth) >= depth && e.bound.cuts(score, alpha, beta) {
                return score;
            }
        }
        // Moves only once the table could not settle the node.
        let moves = self.pos.legal_moves();
        let tt_move = entry.and_then(|e| e.mv.find(&moves));

        let in_check = self.pos.chess().is_check();
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        let eval = if in_check {
            -INFINITE
        } else {
            match entry {
                Some(e) if e.eval != NO_EVAL => i32::from(e.eval),
                _ => evaluate(self.pos.chess()),
            }
        };
        self.frames[ply].eval = eval;
        let improving = !in_check && ply >= 2 && eval > self.frames[ply - 2].eval;

        if !pv_node && !in_check {
            // Reverse futility: far enough above beta that a shallow search will not fall.
            if depth <= 8 && eval - 75 * depth + 40 * i32::from(improving) >= beta {
                return eval;
            }
            // Null move: if passing still fails high, a real move will too. Not with only
            // pawns left (zugzwang), nor twice in a row.
            if depth >= 3
                && eval >= beta
                && !self.frames[ply - 1].null_move
                && self.has_pieces()
                && self.pos.push_null()
            {
                let r = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                self.frames[ply].null_move = true;
                self.frames[ply].moved = None;
                let score = -self.search(-beta, -beta + 1, depth - 1 - r, ply + 1, !cut);
                self.frames[ply].null_move = false;
                self.pos.pop();
                if self.stopped() {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }
        // No table move to guide a deep node: search it a little shallower.
        let depth = if tt_move.is_none() && depth >= 4 && (pv_node || cut) {
            depth - 1
        } else {
            depth
        };

        let previous = self.frames[ply - 1].moved;
        let picker = MovePicker::new(
            self.pos.chess(),
            &moves,
            tt_move,
            &self.heuristics,
            ply,
            previous,
        );
        let side = self.pos.turn();
        let alpha_start = alpha;
        let mut best = -INFINITE;
        let mut best_move = None;
        let mut searched = 0;
        let mut quiets: ArrayVec<Move, 64> = ArrayVec::new();

        for (mv, order) in picker {
            let quiet = !is_tactical(mv);
            if best > -MATE_BOUND && searched > 0 {
                // Late move pruning: enough quiet moves tried at a shallow node.
                if quiet
                    && depth <= 6
                    && quiets.len() as i32 >= (3 + depth * depth) / (2 - i32::from(improving))
                {
                    continue;
                }
                // Futility: a quiet move cannot lift a hopeless static eval past alpha.
                if quiet && !in_check && depth <= 6 && eval + 100 + 90 * depth <= alpha {
                    continue;
                }
                // A losing capture at a shallow node.
                if !quiet
                    && depth <= 5
                    && MovePicker::is_bad_capture(order)
                    && !see_ge(self.pos.chess(), mv, -90 * depth)
                {
                    continue;
                }
            }

            self.frames[ply].moved = Some(landing(&self.pos, mv));
            self.pos.push(mv);
            let gives_check = self.pos.chess().is_check();
            // Check extension.
            let new_depth = depth - 1 + i32::from(gives_check);
            searched += 1;
            let mut score;
            if searched == 1 {
                score = -self.search(-beta, -alpha, new_depth, ply + 1, !pv_node && !cut);
            } else {
                // Late move reductions for quiet moves after the first few.
                let mut r = 0;
                if depth >= 3 && quiet && searched > 1 + usize::from(pv_node) {
                    r = self.reductions.get(depth, searched);
                    r -= i32::from(pv_node);
                    r -= i32::from(gives_check);
                    r += i32::from(cut);
                    r += i32::from(!improving);
                    r -= (self.heuristics.history(side, mv) / 6000).clamp(-2, 2);
                    r = r.clamp(0, new_depth - 1);
                }
                score = -self.search(-alpha - 1, -alpha, new_depth - r, ply + 1, true);
                if score > alpha && r > 0 {
                    score = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, !cut);
                }
                if score > alpha && score < beta {
                    score = -self.search(-beta, -alpha, new_depth, ply + 1, false);
                }
            }
            self.pos.pop();
            if self.stopped() {
                return 0;
            }

            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    if pv_node {
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        let line = &mut head[ply];
                        line.clear();
                        line.push(mv);
                        line.extend(tail[0].iter().copied());
                    }
                    if alpha >= beta {
                        if quiet {
                            self.heuristics
                                .reward(side, ply, depth, mv, &quiets, previous);
                        }
                        break;
                    }
                }
            }
            if quiet && quiets.len() < quiets.capacity() {
                quiets.push(mv);
            }
        }

        let bound = Bound::of(best, alpha_start, beta);
        let stored_eval = if in_check { NO_EVAL } else { eval as i16 };
        self.store(key, best_move, best, stored_eval, depth, bound, ply);
        best
    }

    /// Quiescence search: captures and promotions until the position is quiet (all moves
    /// when in check), standing pat on the static evaluation.
    fn quiesce(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv[ply].clear();
        self.visit(ply);
        if self.stopped() {
            return 0;
        }
        let chess = self.pos.chess();
        if chess.halfmoves() >= 100 || chess.is_insufficient_material() {
            return 0;
        }
        if ply >= MAX_PLY {
            return evaluate(chess);
        }
        let key = TableKey::from(self.pos.key());
        let entry = self.table.probe(key);
        if let Some(e) = entry {
            let score = score_from_tt(e.score, ply);
            if e.bound.cuts(score, alpha, beta) {
                return score;
            }
        }
        let in_check = chess.is_check();
        let moves = chess.legal_moves();
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        let (eval, mut best) = if in_check {
            (NO_EVAL, -INFINITE)
        } else {
            let eval = match entry {
                Some(e) if e.eval != NO_EVAL => i32::from(e.eval),
                _ => evaluate(chess),
            };
            if eval >= beta {
                return eval;
            }
            alpha = alpha.max(eval);
            (eval as i16, eval)
        };
        let picker = MovePicker::tactical(chess, &moves, in_check);
        let mut best_move = None;
        for (mv, _) in picker {
            // Skip captures that lose material in the exchange.
            if !in_check && !see_ge(self.pos.chess(), mv, 0) {
                continue;
            }
            self.pos.push(mv);
            let score = -self.quiesce(-beta, -alpha, ply + 1);
            self.pos.pop();
            if self.stopped() {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(mv);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        self.store(key, best_move, best, eval, 0, bound, ply);
        best
    }

    /// Whether the side to move has a piece other than pawns and king.
    fn has_pieces(&self) -> bool {
        let board = self.pos.chess().board();
        let us = board.by_color(self.pos.turn());
        (us & !board.pawns() & !board.kings()).any()
    }

    /// A reply to `best` from the table, when the variation stopped after one move.
    fn ponder_from_table(&mut self, best: Move) -> Option<Move> {
        self.pos.push(best);
        let moves = self.pos.legal_moves();
        let reply = self
            .table
            .probe(TableKey::from(self.pos.key()))
            .and_then(|e| e.mv.find(&moves));
        self.pos.pop();
        reply
    }

    /// Sends the current lines to the reporter.
    fn report(&self, depth: i32, lines: usize, bound: Option<Bound>, reporter: &dyn Reporter) {
        self.node_counts[self.id].store(self.nodes, Relaxed);
        let nodes = self.total_nodes();
        let first = if bound.is_some() { lines - 1 } else { 0 };
        for (i, rm) in self.root_moves.iter().enumerate().take(lines).skip(first) {
            let score = if rm.score == -INFINITE {
                rm.previous_score
            } else {
                rm.score
            };
            if score == -INFINITE {
                continue;
            }
            reporter.line(&Line {
                depth,
                seldepth: rm.seldepth.max(1),
                multipv: i + 1,
                score,
                bound,
                nodes,
                time: self.time.elapsed(),
                hashfull: self.table.hashfull(),
                pv: rm.pv.to_vec(),
            });
        }
    }
}

/// The piece a move puts down and where (what counter moves are keyed by).
fn landing(pos: &Position, mv: Move) -> (Piece, Square) {
    (mv.role().of(pos.turn()), mv.to())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_survive_the_table_round_trip() {
        for (score, ply) in [(MATE - 5, 3), (-MATE + 8, 6), (123, 9), (-40, 0)] {
            let stored = score_to_tt(score, ply);
            assert_eq!(score_from_tt(stored, ply), score);
        }
        // Mate in 5 from the root found 3 plies deep is mate in 2 from that node.
        assert_eq!(i32::from(score_to_tt(MATE - 5, 3)), MATE - 2);
    }
}
