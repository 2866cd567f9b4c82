//! Inner nodes: principal variation search with its pruning, extension and reduction rules
//! in the order a node meets them, numbered "Step 1" to "Step 19" as `docs/search.md` lists
//! them, then quiescence. The numbers are in [`crate::engine::params`]; what each rule was
//! measured to be worth is in `notes/search.md`, by step.

use arrayvec::ArrayVec;
use shakmaty::{Chess, Move, MoveList, Position as _};

use super::worker::{BestSoFar, Improvement, NullMoveVerification, Worker, landing};
use crate::chess::tactical::{each_tactical_move, tactical_moves};
use crate::engine::correction::Slots;
use crate::engine::history::{Lineage, PieceTo, cutoff_bonus};
use crate::engine::movepick::{MovePicker, TacticalPicker, is_tactical};
use crate::engine::params::*;
use crate::engine::score::{
    INFINITE, MATE, MATE_BOUND, MAX_EVAL, MAX_PLY, NO_EVAL, TB_BOUND, score_from_tt,
};
use crate::engine::see::{see_ge, see_value};
use crate::engine::tb::Outcome;
use crate::engine::tt::{Bound, ChessEntry};
use crate::hashing::TableKey;

impl Worker<'_> {
    /// Principal variation search of a node: quiescence at the horizon, an inner node
    /// ([`Worker::search_inner`]) above it. Inlined at each call, so that a move searched
    /// at the horizon, a third of all, goes straight to quiescence without setting up the
    /// inner node's large frame (its move list and picker).
    #[inline(always)]
    pub(super) fn search(
        &mut self,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        cut: bool,
    ) -> i32 {
        // Step 1. The horizon: quiescence takes over.
        if depth <= 0 {
            return self.quiesce(alpha, beta, ply);
        }
        self.search_inner(alpha, beta, depth, ply, cut)
    }

    /// Principal variation search of an inner node (`depth` above 0).
    fn search_inner(&mut self, alpha: i32, beta: i32, depth: i32, ply: usize, cut: bool) -> i32 {
        // Step 2. The node counted; a stop, a draw or the maximum ply ends it.
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
            return self.board.static_eval();
        }
        // Step 3. Mate distance pruning: no line from here beats a mate already found nearer
        // the root.
        let alpha = alpha.max(-MATE + ply as i32);
        let beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        // Step 4. The transposition table: its entry, and a cutoff at a non-PV node.
        // A singular-extension search of this node leaves out one move: the table's
        // knowledge of the whole node does not apply to it.
        let excluded = self.plies[ply].excluded;
        let key = TableKey::from(self.board.key());
        let entry = self.shared.table.probe(key).filter(|_| excluded.is_none());
        if let Some(e) = entry {
            let score = score_from_tt(e.score, ply);
            if !pv_node && i32::from(e.depth) >= depth && e.bound.cuts(score, alpha, beta) {
                // A quiet table move that fails high teaches the histories as a searched
                // cutoff would (no malus: no other move was tried).
                if score >= beta
                    && let Some(mv) = e.mv.legal_in(self.board.chess())
                    && !is_tactical(mv)
                {
                    let landed = landing(&self.board, mv);
                    let lineage = self.lineage(ply);
                    self.heuristics.reward(
                        self.board.turn(),
                        ply,
                        depth,
                        (mv, landed),
                        &[],
                        lineage,
                    );
                }
                return score;
            }
        }
        // Step 5. Tablebases.
        // Tablebases, right after a capture or pawn move with few enough pieces left: a win
        // or loss that bounds the window, or a draw, settles the node. Otherwise (only at a
        // PV node, whose window is open) the verdict bounds what the search of the node
        // may return: a win is a floor it starts from, a loss a ceiling over its result.
        let mut tb_floor = -INFINITE;
        let mut tb_ceiling = INFINITE;
        if let Some(tb) = self.shared.tablebases.filter(|_| excluded.is_none())
            && depth >= self.shared.options.tb_probing.depth
            && self.board.chess().halfmoves() == 0
            && tb.covers(self.board.chess(), self.shared.options.tb_probing.pieces)
            && let Some(outcome) = tb.wdl_after_zeroing(self.board.chess())
        {
            self.tb_hits += 1;
            let outcome = outcome.under(self.shared.options.tb_probing.fifty_move_rule);
            let score = outcome.score(ply);
            let bound = match outcome {
                Outcome::Win => Bound::Lower,
                Outcome::Loss => Bound::Upper,
                _ => Bound::Exact,
            };
            if bound.cuts(score, alpha, beta) {
                self.store(key, None, score, NO_EVAL, depth, bound, ply);
                return score;
            }
            match bound {
                Bound::Lower => tb_floor = score,
                _ => tb_ceiling = score,
            }
        }
        // Step 6. The static evaluation: from the table or the evaluator, corrected, sharpened
        // by the table's bound; whether it improves on two plies before.
        let in_check = self.board.in_check();
        // The moves are generated only when a rule below needs them: most nodes that the
        // pruning rules cut never pay for them. In check no rule prunes, so mate is found
        // before any; a stalemate may be cut as its static evaluation.
        let mut moves: Option<MoveList> = None;
        // The static evaluation as the table keeps it (uncorrected), and as the search
        // prunes on: corrected by what searches of this pawn structure found.
        let raw_eval = if in_check {
            NO_EVAL
        } else {
            match entry {
                Some(e) if e.eval != NO_EVAL => e.eval,
                _ => self.board.static_eval() as i16,
            }
        };
        // The correction entries of the position, found once for the evaluation here and
        // the learning at the end of the node (not in check: neither happens).
        let correction_slots = (!in_check).then(|| Slots::of(self.board.chess()));
        let static_eval = match correction_slots {
            Some(slots) => self.corrected_eval(slots, raw_eval),
            None => -INFINITE,
        };
        self.plies[ply].eval = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.plies[ply - 2].eval;
        // The rules below prune on the table's score instead when its bound says the true
        // value lies beyond the static evaluation (in a bundle, see the search table).
        let eval = if in_check {
            static_eval
        } else {
            sharpened_eval(static_eval, entry, ply)
        };
        // Children inherit the line's double extensions (a double-extended move adds one).
        self.plies[ply + 1].double_extensions = self.plies[ply].double_extensions;
        // Hindsight depth: the parent's late move reduction of the move to this node, judged by the
        // static evaluations of the node and the parent, each for its side to move, so that their
        // sum is what the move cost the side that played it. A move reduced hard that cost its side
        // nothing gets a ply back; a reduced move that cost its side more than a margin (both sides
        // to move think they stand well: the reduction was deserved) loses one more. Not in check,
        // nor after a parent in check (no evaluation). Read once: this node's singular and
        // null-move verification searches see no reduction.
        let parent_reduction = std::mem::take(&mut self.plies[ply - 1].reduction);
        let parent_eval = self.plies[ply - 1].eval;
        let depth = if pv_node
            || in_check
            || excluded.is_some()
            || parent_reduction == 0
            || parent_eval == -INFINITE
        {
            depth
        } else if parent_reduction >= hindsight_reduction_min() && static_eval + parent_eval <= 0 {
            depth + 1
        } else if depth >= 2 && static_eval + parent_eval > hindsight_quiet_margin() {
            depth - 1
        } else {
            depth
        };

        if !pv_node && !in_check && excluded.is_none() {
            // Step 7. Razoring: so far below alpha that only a capture could help; when
            // quiescence agrees, the node fails low.
            if depth <= razor_max_depth() && eval + razor_margin() * depth < alpha {
                let score = self.quiesce(alpha - 1, alpha, ply);
                if self.stopped() {
                    return 0;
                }
                if score < alpha {
                    return score;
                }
            }
            // Step 8. Reverse futility pruning: far enough above beta that a shallow search
            // will not fall.
            if depth <= rfp_max_depth()
                && eval - rfp_margin() * depth + rfp_improving() * i32::from(improving) >= beta
            {
                return eval;
            }
            // Step 9. Null move pruning: if passing still fails high, a real move will too.
            // Not with only pawns left (zugzwang), nor twice in a row.
            if depth >= nmp_min_depth()
                && eval >= beta
                && !self.plies[ply - 1].null_move
                && self
                    .null_move_verification
                    .is_none_or(|v| v.allows(self.board.turn(), ply))
                && self.has_pieces()
                && self.board.do_null()
            {
                let r = nmp_base_reduction()
                    + depth / nmp_depth_divisor()
                    + ((eval - beta) / nmp_eval_divisor()).min(nmp_eval_max());
                self.plies[ply].null_move = true;
                self.plies[ply].moved = None;
                let score = -self.search(-beta, -beta + 1, depth - 1 - r, ply + 1, !cut);
                self.plies[ply].null_move = false;
                self.board.undo_null();
                if self.stopped() {
                    return 0;
                }
                if score >= beta {
                    let score = if score >= MATE_BOUND { beta } else { score };
                    // Null-move verification: at a deep node the fail high stands only when a
                    // normal search of the node, as shallow as the null move's, fails high too.
                    // That search makes no null move for this side in its first three quarters, and
                    // verifies nothing.
                    if depth < nmp_verify_min_depth() || self.null_move_verification.is_some() {
                        return score;
                    }
                    self.null_move_verification = Some(NullMoveVerification {
                        min_ply: ply + (3 * (depth - r) / 4).max(1) as usize,
                        side: self.board.turn(),
                    });
                    let verified = self.search(beta - 1, beta, depth - r, ply, false);
                    self.null_move_verification = None;
                    if self.stopped() {
                        return 0;
                    }
                    if verified >= beta {
                        return score;
                    }
                }
            }
            // Step 10. ProbCut: a good capture that beats beta by a margin in a shallower search
            // makes the node fail high, unless the table already knows better.
            let probcut_beta = beta + probcut_margin();
            if depth >= probcut_min_depth()
                && beta.abs() < MATE_BOUND
                && !entry.is_some_and(|e| {
                    i32::from(e.depth) > depth - probcut_reduction()
                        && score_from_tt(e.score, ply) < probcut_beta
                })
            {
                let mut picker = TacticalPicker::default();
                let mut tactical_only = MoveList::new();
                let list = if tactical_moves(self.board.chess(), in_check, &mut tactical_only) {
                    &tactical_only
                } else {
                    moves.get_or_insert_with(|| self.board.legal_moves())
                };
                picker.fill(list, false);
                for mv in picker.by_ref() {
                    if !see_ge(self.board.chess(), mv, probcut_beta - eval) {
                        continue;
                    }
                    self.plies[ply].moved = Some(landing(&self.board, mv));
                    self.plies[ply].quiet = false;
                    self.board.do_move(mv, self.shared.table);
                    let mut score = -self.quiesce(-probcut_beta, -probcut_beta + 1, ply + 1);
                    if score >= probcut_beta {
                        let reduced = depth - probcut_reduction();
                        score =
                            -self.search(-probcut_beta, -probcut_beta + 1, reduced, ply + 1, !cut);
                    }
                    self.board.undo_move();
                    if self.stopped() {
                        return 0;
                    }
                    if score >= probcut_beta {
                        let stored = depth - probcut_reduction() + 1;
                        self.store(key, Some(mv), score, raw_eval, stored, Bound::Lower, ply);
                        return score;
                    }
                }
            }
        }
        let tt_move = entry.and_then(|e| e.mv.legal_in(self.board.chess()));
        // Step 11. Internal iterative reduction: no table move to guide a deep node, so
        // search it a little shallower.
        let depth = if tt_move.is_none()
            && excluded.is_none()
            && depth >= iir_min_depth()
            && (pv_node || cut)
        {
            depth - 1
        } else {
            depth
        };

        // Step 12. The move picker: table move, good captures, killers, counter move, quiet
        // moves by history, bad captures.
        let lineage = self.lineage(ply);
        let mut picker = MovePicker::new(
            self.board.chess(),
            in_check,
            &mut moves,
            tt_move,
            &self.heuristics,
            ply,
            lineage,
        );
        // Step 13. Singular extension: when every move but the table's fails well below the table's
        // score, the table move is the only good one and is searched a ply deeper (two when far
        // below, at a non-PV node). When the others beat beta too, the node fails high at once
        // (multi-cut); when another comes near, the table move goes shallower (negative extension).
        let mut tt_extension = 0;
        if let (Some(mv), Some(e)) = (tt_move, entry)
            && depth >= se_min_depth()
            && i32::from(e.depth) >= depth - se_tt_depth_margin()
            && matches!(e.bound, Bound::Lower | Bound::Exact)
            && score_from_tt(e.score, ply).abs() < TB_BOUND
        {
            let tt_score = score_from_tt(e.score, ply);
            let singular_beta = tt_score - se_margin_per_depth_x16() * depth / 16;
            self.plies[ply].excluded = Some(mv);
            let verify_depth = (depth - 1) / se_verify_divisor();
            let score = self.search(singular_beta - 1, singular_beta, verify_depth, ply, cut);
            self.plies[ply].excluded = None;
            if self.stopped() {
                return 0;
            }
            if score < singular_beta {
                tt_extension = 1;
                if !pv_node
                    && score < singular_beta - se_double_margin()
                    && self.plies[ply].double_extensions < se_double_max()
                {
                    tt_extension = 2;
                }
            } else if singular_beta >= beta {
                return singular_beta;
            } else if tt_score >= beta || cut {
                // Negative extension: another move comes near the table move's score and
                // the node is expected to fail high; the table move goes shallower.
                tt_extension = -se_negative_extension();
            }
        }

        let side = self.board.turn();
        let mut best = BestSoFar::new(tb_floor, alpha.max(tb_floor), beta);
        let mut searched = 0;
        let mut quiets: ArrayVec<(Move, PieceTo), 64> = ArrayVec::new();
        let mut tacticals: ArrayVec<Move, 32> = ArrayVec::new();
        let mut has_legal_move = false;

        loop {
            // Step 14. Pruning a late move. Late move pruning (enough quiet moves tried at a
            // shallow node) and futility (a quiet move cannot lift a hopeless static eval
            // past alpha) prune quiet moves by what holds at the node, not by the move: the
            // number of quiet moves searched, the best score and alpha, none of which falls
            // as the moves go. Once they hold they prune every quiet move left, so the picker
            // skips them without generating or scoring them.
            if best.score > -MATE_BOUND && searched > 0 {
                let late = depth <= lmp_max_depth()
                    && quiets.len() as i32
                        >= (lmp_base() + depth * depth)
                            * if improving {
                                100
                            } else {
                                lmp_not_improving_pct()
                            }
                            / 100;
                let futile = !in_check
                    && depth <= futility_max_depth()
                    && eval + futility_base() + futility_margin() * depth <= best.alpha;
                if late || futile {
                    picker.skip_quiets();
                }
            }
            let Some(picked) = picker.next(self.board.chess(), &self.heuristics) else {
                break;
            };
            let mv = picked.mv;
            has_legal_move = true;
            if Some(mv) == excluded {
                continue;
            }
            let quiet = !is_tactical(mv);
            // Step 14, by the move itself: history and SEE pruning.
            if best.score > -MATE_BOUND && searched > 0 {
                // History pruning: a quiet move the picker ranked low by its histories, at a
                // shallow node.
                if quiet
                    && depth <= history_prune_max_depth()
                    && picked
                        .history()
                        .is_some_and(|h| h < -history_prune_margin() * depth)
                {
                    // The picker hands out quiet moves by falling history: every quiet move
                    // after this one would be pruned too.
                    picker.skip_quiets();
                    continue;
                }
                // SEE pruning: a losing capture at a shallow node.
                if !quiet
                    && depth <= see_prune_max_depth()
                    && picked.losing_capture()
                    && !see_ge(self.board.chess(), mv, -see_prune_margin() * depth)
                {
                    continue;
                }
                // SEE pruning of quiet moves: a quiet move that loses more than a margin per ply of
                // depth squared in the exchange on its destination, at a shallow non-PV node (at PV
                // nodes too, a repeated search with the table warm saved far less:
                // notes/search.md).
                if quiet
                    && !pv_node
                    && depth <= see_quiet_max_depth()
                    && !see_ge(self.board.chess(), mv, -see_quiet_margin() * depth * depth)
                {
                    continue;
                }
            }

            // Step 15. The move made; check extension, or the singular extension of the table
            // move.
            let landed = landing(&self.board, mv);
            self.plies[ply].moved = Some(landed);
            self.board.do_move(mv, self.shared.table);
            let gives_check = self.board.in_check();
            // Check extension, or the singular extension of the table move.
            let extension = if Some(mv) == tt_move {
                tt_extension.max(i32::from(gives_check))
            } else {
                i32::from(gives_check)
            };
            let new_depth = depth - 1 + extension;
            self.plies[ply + 1].double_extensions =
                self.plies[ply].double_extensions + i32::from(extension == 2);
            // Step 16. Principal variation search: the first move with the full window, the
            // others with a null window, reduced when late and quiet or a losing capture,
            // searched again when they beat alpha.
            searched += 1;
            self.plies[ply].quiet = quiet;
            self.plies[ply].move_number = searched;
            let alpha = best.alpha;
            let mut score;
            if searched == 1 {
                score = -self.search(-beta, -alpha, new_depth, ply + 1, !pv_node && !cut);
            } else {
                // Late move reductions for quiet moves after the first few.
                let mut r = 0;
                let late = depth >= lmr_min_depth() && searched > 1 + usize::from(pv_node);
                // Late captures the picker ranks as losing are reduced too: the same table and
                // terms, capture history for history.
                if late && (quiet || picked.losing_capture()) {
                    r = self.shared.reductions.get(depth, searched);
                    r -= i32::from(pv_node);
                    r -= i32::from(gives_check);
                    r += lmr_cut_node() * i32::from(cut);
                    let history = if quiet {
                        r += i32::from(!improving);
                        picked.history().unwrap_or_else(|| {
                            self.heuristics.quiet_score(side, mv, landed, lineage)
                        }) / lmr_history_divisor()
                    } else {
                        self.heuristics.capture_history(side, mv) / lmr_capture_history_divisor()
                    };
                    r -= history.clamp(-lmr_history_max(), lmr_history_max());
                    // The reduced search keeps at least one ply, and a reduction is never
                    // negative (with a low `lmr_min_depth` or a negative extension,
                    // `new_depth` can be 0 or less: then no reduction).
                    r = r.min(new_depth - 1).max(0);
                }
                // The child reads the reduction for its hindsight depth; the re-searches
                // below are not reduced.
                self.plies[ply].reduction = r;
                score = -self.search(-alpha - 1, -alpha, new_depth - r, ply + 1, true);
                self.plies[ply].reduction = 0;
                // The re-search goes a ply deeper when the reduced score beat the best so
                // far by a wide margin, a ply shallower when it barely did.
                if score > alpha && r > 0 {
                    let deeper = score > best.score + lmr_deeper_margin();
                    let shallower = score < best.score + lmr_shallower_margin();
                    let research_depth = new_depth + i32::from(deeper) - i32::from(shallower);
                    score = -self.search(-alpha - 1, -alpha, research_depth, ply + 1, !cut);
                }
                if score > alpha && score < beta {
                    score = -self.search(-beta, -alpha, new_depth, ply + 1, false);
                }
            }
            self.board.undo_move();
            if self.stopped() {
                return 0;
            }

            // Step 17. A new best move, its variation; at a cutoff the histories learn.
            let improvement = best.update(mv, score);
            if improvement != Improvement::None && pv_node {
                let (head, tail) = self.pv.split_at_mut(ply + 1);
                let line = &mut head[ply];
                line.clear();
                line.push(mv);
                line.extend(tail[0].iter().copied());
            }
            if improvement == Improvement::Cutoff {
                // The opponent's first choice, refuted here: its continuation histories
                // learn that it was not as good as its place said.
                if self.plies[ply - 1].move_number == 1 {
                    self.teach_prior_move(ply, -cutoff_bonus(depth + 1));
                }
                if quiet {
                    self.heuristics
                        .reward(side, ply, depth, (mv, landed), &quiets, lineage);
                    self.heuristics
                        .reward_captures(side, depth, None, &tacticals);
                } else {
                    self.heuristics
                        .reward_captures(side, depth, Some(mv), &tacticals);
                }
                break;
            }
            if quiet && quiets.len() < quiets.capacity() {
                quiets.push((mv, landed));
            } else if !quiet && tacticals.len() < tacticals.capacity() {
                tacticals.push(mv);
            }
        }

        // Step 18. No legal move: mate or stalemate.
        if !has_legal_move {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        best.score = best.score.min(tb_ceiling);
        let bound = Bound::of(best.score, alpha, beta);
        if excluded.is_some() {
            return best.score;
        }
        // Step 19. The opponent's quiet move to this node learns from a fail low (every
        // reply fell short: a good move); the correction history learns; the result goes to
        // the table.
        if bound == Bound::Upper && depth >= prior_move_bonus_min_depth() {
            self.teach_prior_move(ply, cutoff_bonus(depth));
        }
        // Correction history learns from quiet results the bound does not contradict.
        if let Some(slots) = correction_slots
            && best.mv.is_none_or(|mv| !is_tactical(mv))
            && best.score.abs() < TB_BOUND
            && !(bound == Bound::Lower && best.score <= static_eval)
            && !(bound == Bound::Upper && best.score >= static_eval)
        {
            self.correction
                .learn(slots, depth, i32::from(raw_eval), best.score);
        }
        self.store(key, best.mv, best.score, raw_eval, depth, bound, ply);
        best.score
    }

    /// Quiescence search: captures and promotions until the position is quiet (all moves
    /// when in check), standing pat on the static evaluation.
    pub(super) fn quiesce(&mut self, alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv[ply].clear();
        self.visit(ply);
        if self.stopped() {
            return 0;
        }
        let chess = self.board.chess();
        if fifty_moves_or_no_material(chess) {
            return 0;
        }
        if ply >= MAX_PLY {
            return self.board.static_eval();
        }
        let key = TableKey::from(self.board.key());
        let entry = self.shared.table.probe(key);
        if let Some(e) = entry {
            let score = score_from_tt(e.score, ply);
            if e.bound.cuts(score, alpha, beta) {
                return score;
            }
        }
        let in_check = self.board.in_check();
        let (raw_eval, mut best) = if in_check {
            (NO_EVAL, BestSoFar::new(-INFINITE, alpha, beta))
        } else {
            let raw_eval = match entry {
                Some(e) if e.eval != NO_EVAL => e.eval,
                _ => self.board.static_eval() as i16,
            };
            let slots = Slots::of(self.board.chess());
            let eval = sharpened_eval(self.corrected_eval(slots, raw_eval), entry, ply);
            // Stand pat: the side to move need not capture.
            if eval >= beta {
                return eval;
            }
            (raw_eval, BestSoFar::new(eval, alpha.max(eval), beta))
        };
        // Futility: a capture whose victim, with a margin, cannot lift the
        // stand-pat score past alpha is skipped (not in check, not a promotion).
        let futility_base = if in_check {
            None
        } else {
            Some(best.score + qs_futility_margin())
        };
        // Moves only when standing pat did not settle the node: out of check only the
        // captures and promotions it searches (a stalemate is then scored as its stand pat).
        // The tactical moves go straight into the picker, without a list.
        let mut picker = TacticalPicker::default();
        if !each_tactical_move(self.board.chess(), in_check, |mv| picker.add(mv)) {
            let moves = self.board.legal_moves();
            if moves.is_empty() {
                return if in_check { -MATE + ply as i32 } else { 0 };
            }
            picker.fill(&moves, in_check);
        }
        for mv in picker.by_ref() {
            if let Some(base) = futility_base
                && !mv.is_promotion()
                && base + mv.capture().map_or(0, see_value) <= best.alpha
            {
                continue;
            }
            // Skip captures that lose material in the exchange.
            if !in_check && !see_ge(self.board.chess(), mv, qs_see_threshold()) {
                continue;
            }
            self.board.do_move(mv, self.shared.table);
            let score = -self.quiesce(-beta, -best.alpha, ply + 1);
            self.board.undo_move();
            if self.stopped() {
                return 0;
            }
            if best.update(mv, score) == Improvement::Cutoff {
                break;
            }
        }
        let bound = if best.score >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        self.store(key, best.mv, best.score, raw_eval, 0, bound, ply);
        best.score
    }

    /// Draw by the fifty-move rule, insufficient material or repetition. A repetition
    /// inside the search counts at once; one reaching back into the game needs two.
    #[inline]
    pub(super) fn is_draw(&self, ply: usize) -> bool {
        if fifty_moves_or_no_material(self.board.chess()) {
            return true;
        }
        let key = self.board.key();
        let mut seen = 0;
        for (i, k) in self
            .board
            .position()
            .reversible_keys()
            .enumerate()
            .skip(1)
            .step_by(2)
        {
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

    /// The static evaluation of the position whose correction entries are `slots`,
    /// corrected by the correction history and kept below tablebase and mate scores.
    fn corrected_eval(&self, slots: Slots, raw_eval: i16) -> i32 {
        self.correction
            .corrected(slots, i32::from(raw_eval))
            .clamp(-MAX_EVAL, MAX_EVAL)
    }

    /// The moves one and two plies before `ply`, as continuation histories key a node.
    pub(super) fn lineage(&self, ply: usize) -> Lineage {
        Lineage([
            ply.checked_sub(1).and_then(|p| self.plies[p].moved),
            ply.checked_sub(2).and_then(|p| self.plies[p].moved),
        ])
    }

    /// Moves the continuation histories of the opponent's move to `ply` by `bonus`, when
    /// that move was quiet.
    fn teach_prior_move(&mut self, ply: usize, bonus: i32) {
        let parent = self.plies[ply - 1];
        if let (true, Some(this)) = (parent.quiet, parent.moved) {
            let lineage = self.lineage(ply - 1);
            self.heuristics.nudge_continuation(lineage, this, bonus);
        }
    }

    /// Whether the side to move has a piece other than pawns and king.
    fn has_pieces(&self) -> bool {
        let board = self.board.chess().board();
        let us = board.by_color(self.board.turn());
        (us & !board.pawns() & !board.kings()).any()
    }
}

/// The static evaluation, or the table's score where the entry's bound says the true score
/// lies beyond the evaluation on that side (and the score is not a mate or tablebase one).
fn sharpened_eval(static_eval: i32, entry: Option<ChessEntry>, ply: usize) -> i32 {
    let Some(e) = entry else {
        return static_eval;
    };
    let score = score_from_tt(e.score, ply);
    let beyond = match e.bound {
        Bound::Exact => true,
        Bound::Lower => score > static_eval,
        Bound::Upper => score < static_eval,
    };
    if beyond && score.abs() < TB_BOUND {
        score
    } else {
        static_eval
    }
}

/// Drawn by the fifty-move rule (unless the hundredth half-move mated: mate comes first) or
/// by material too short to mate.
fn fifty_moves_or_no_material(chess: &Chess) -> bool {
    // A pawn, rook or queen on the board is always material enough to mate: tested here
    // first, at every node, before shakmaty's test (a call) is asked.
    let board = chess.board();
    let mating_material = (board.pawns() | board.rooks_and_queens()).any();
    (chess.halfmoves() >= 100 && !chess.is_checkmate())
        || (!mating_material && chess.is_insufficient_material())
}
