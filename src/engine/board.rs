//! The searched position: [`chess::Position`](crate::chess::Position) (board, incremental
//! key, key history) together with the evaluator's state. [`Board::do_move`],
//! [`Board::undo_move`], [`Board::do_null`] and [`Board::undo_null`] are the only way the
//! search changes it, so the key and the evaluation always follow the same line.

use std::sync::Arc;

use shakmaty::{Chess, Color, Move, MoveList, Position as _};

use super::eval::Evaluator;
use super::eval::nnue::Network;
use super::eval::scaling::Scaling;
use super::score::MAX_PLY;
use super::tt::ChessTable;
use crate::chess::Position;
use crate::hashing::{Key, TableKey};

/// A position being searched, with the evaluation state that follows it.
#[derive(Clone, Debug)]
pub struct Board {
    pos: Position,
    eval: Evaluator,
    /// How [`Board::static_eval`] reads the evaluator.
    scaling: Scaling,
    /// Whether the side to move is in check, one entry a position of the line: found once
    /// when the search reaches a position, read by every rule that asks.
    checked: Vec<bool>,
}

impl Board {
    /// Starts a search line at `pos`, evaluated by `net` (the hand-written evaluation
    /// without one) and read scaled, as play reads it; the evaluator is refreshed from
    /// scratch here.
    pub fn new(pos: Position, net: Option<&Arc<Network>>) -> Board {
        let eval = Evaluator::new(pos.chess(), net);
        let mut checked = Vec::with_capacity(MAX_PLY + 8);
        checked.push(pos.chess().is_check());
        Board {
            pos,
            eval,
            scaling: Scaling::Scaled,
            checked,
        }
    }

    /// The same board, its evaluation read with `scaling`.
    pub fn with_scaling(self, scaling: Scaling) -> Board {
        Board { scaling, ..self }
    }

    /// The position with its key and history.
    #[inline]
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The current shakmaty position.
    #[inline]
    pub fn chess(&self) -> &Chess {
        self.pos.chess()
    }

    /// The incremental key of the current position.
    #[inline]
    pub fn key(&self) -> Key {
        self.pos.key()
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.checked.last().copied().unwrap_or(false)
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.pos.turn()
    }

    /// All legal moves.
    #[inline]
    pub fn legal_moves(&self) -> MoveList {
        self.pos.legal_moves()
    }

    /// The evaluator's state.
    #[inline]
    pub fn evaluator(&self) -> &Evaluator {
        &self.eval
    }

    /// The evaluator's score from the side to move's view.
    #[inline]
    pub fn evaluate(&self) -> i32 {
        self.eval.evaluate(self.pos.chess())
    }

    /// The static evaluation the search reads: [`Board::evaluate`] as the board's
    /// [`Scaling`] reads it (in play, scaled by material and the fifty-move counter).
    #[inline]
    pub fn static_eval(&self) -> i32 {
        let chess = self.pos.chess();
        self.scaling.apply(self.eval.evaluate(chess), chess)
    }

    /// Plays the legal move `mv`. The child's table bucket is prefetched from its key
    /// before the board changes, so the child's probe finds it loaded.
    #[inline]
    pub fn do_move(&mut self, mv: Move, table: &ChessTable) {
        self.eval.push(self.pos.chess(), mv);
        self.pos
            .push_with_hint(mv, |key| table.prefetch(TableKey::from(key)));
        self.checked.push(self.pos.chess().is_check());
    }

    /// Takes back the last [`Board::do_move`].
    #[inline]
    pub fn undo_move(&mut self) {
        self.pos.pop();
        self.eval.pop();
        self.checked.pop();
    }

    /// Passes the turn; refused (false, nothing changes) when the side to move is in check.
    #[inline]
    pub fn do_null(&mut self) -> bool {
        if !self.pos.push_null() {
            return false;
        }
        // Nothing moves: the position after a null move keeps its parent's accumulator (the
        // evaluation reads the side to move from the position), so the evaluator is not told.
        // Passing out of check cannot give check.
        self.checked.push(false);
        true
    }

    /// Takes back the last [`Board::do_null`].
    #[inline]
    pub fn undo_null(&mut self) {
        self.pos.pop();
        self.checked.pop();
    }
}
