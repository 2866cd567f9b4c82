//! The move the search plays once its threads are done: the last completed iteration's
//! best, or a better informed one from an unfinished iteration, or at a limited strength a
//! weaker line; with a ponder move from the table when the variation has none.

use std::sync::atomic::Ordering::Relaxed;

use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use shakmaty::Move;

use super::interface::{Line, Reporter, SearchResult};
use super::root_move::RootMove;
use super::worker::Worker;
use crate::engine::score::INFINITE;
use crate::engine::strength::StrengthLimit;
use crate::hashing::TableKey;

impl Worker<'_> {
    /// The search's answer once its threads are done, `completed` being the last completed
    /// iteration: the move chosen (at a limited strength, the options' `strength`, perhaps a
    /// weaker one), a ponder move, and the move's line reported when the last line reported
    /// was not it.
    pub(super) fn decide(&mut self, completed: i32, reporter: &dyn Reporter) -> SearchResult {
        let (mut best, mut tell) = self.final_choice(completed);
        let options = self.shared.options;
        if let Some(strength) = &options.strength
            && let Some(weaker) = self.weaker_choice(&best, strength, options.strength_seed)
        {
            best = weaker;
            tell = true;
        }
        // A variation cut after one move gets the table's reply, for pondering.
        if best.pv.len() == 1
            && let Some(reply) = self.ponder_from_table(best.mv)
        {
            best.pv.push(reply);
            tell = true;
        }
        // The move played and the ponder move are always the last reported variation's
        // first two.
        if tell {
            self.report_final(&best, completed, reporter);
        }
        SearchResult {
            best: Some(best.mv),
            ponder: best.pv.get(1).copied(),
            score: best.shown_score(),
            depth: completed,
            nodes: self.total_nodes(),
            thread_nodes: self
                .shared
                .counters
                .iter()
                .map(|c| c.nodes.load(Relaxed))
                .collect(),
        }
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
        let chosen = match (partial, self.completed_lines().first()) {
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
            .shared
            .table
            .probe(TableKey::from(self.board.key()))
            .and_then(|e| e.mv.legal_in(self.board.chess()));
        let mut scored = Vec::with_capacity(self.root_moves.len());
        for rm in &self.root_moves {
            self.board.do_move(rm.mv, self.shared.table);
            scored.push(-self.board.static_eval());
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
            .completed_lines()
            .iter()
            .map(|rm| (rm.bound.is_none() && rm.score > -INFINITE).then_some(rm.score))
            .collect();
        let chosen = strength.choose(&scores, &mut ChaCha8Rng::seed_from_u64(seed));
        let line = self.completed_lines().get(chosen)?;
        (chosen > 0 && line.mv != best.mv).then(|| line.clone())
    }

    /// The lines of the last completed iteration, best first (none on a helper).
    fn completed_lines(&self) -> &[RootMove] {
        self.main
            .as_ref()
            .map_or(&[], |main| main.completed_lines.as_slice())
    }

    /// A reply to `best` from the table, when the variation stopped after one move. None
    /// when `best` ends the game in a draw (a variation does not go on past a threefold
    /// repetition, and GUIs warn when one does).
    fn ponder_from_table(&mut self, best: Move) -> Option<Move> {
        self.board.do_move(best, self.shared.table);
        let reply = if self.is_draw(1) {
            None
        } else {
            self.shared
                .table
                .probe(TableKey::from(self.board.key()))
                .and_then(|e| e.mv.legal_in(self.board.chess()))
        };
        self.board.undo_move();
        reply
    }

    /// Reports the line of the move about to be played as MultiPV slot 1.
    fn report_final(&self, chosen: &RootMove, completed: i32, reporter: &dyn Reporter) {
        self.publish_counters();
        reporter.line(&Line {
            depth: completed.max(1),
            seldepth: chosen.seldepth.max(1),
            multipv: 1,
            score: self.reported_score(chosen.shown_score()),
            material: self.shared.root_material,
            bound: if chosen.scored_at == self.iteration {
                chosen.bound
            } else {
                None
            },
            nodes: self.total_nodes(),
            tb_hits: self.total_tb_hits(),
            time: self.elapsed(),
            hashfull: self.shared.table.hashfull(),
            pv: chosen.pv.to_vec(),
        });
    }
}
