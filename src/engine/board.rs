//! The searched position: [`chess::Position`](crate::chess::Position) (board, incremental
//! key, key history) together with the evaluator's state. [`Board::do_move`],
//! [`Board::undo_move`], [`Board::do_null`] and [`Board::undo_null`] are the only way the
//! search changes it, so the key and the evaluation always follow the same line.

use std::sync::Arc;

use shakmaty::{Chess, Color, Move, MoveList};

use super::eval::Evaluator;
use super::eval::nnue::Network;
use super::tt::ChessTable;
use crate::chess::Position;
use crate::hashing::{Key, TableKey};

/// A position being searched, with the evaluation state that follows it.
#[derive(Clone, Debug)]
pub struct Board {
    pos: Position,
    eval: Evaluator,
}

impl Board {
    /// Starts a search line at `pos`, evaluated by `net` (the hand-written evaluation
    /// without one); the evaluator is refreshed from scratch here.
    pub fn new(pos: Position, net: Option<&Arc<Network>>) -> Board {
        let eval = Evaluator::new(pos.chess(), net);
        Board { pos, eval }
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
        self.pos.is_check()
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

    /// The static evaluation from the side to move's view.
    #[inline]
    pub fn evaluate(&self) -> i32 {
        self.eval.evaluate(self.pos.chess())
    }

    /// Plays the legal move `mv`. The child's table bucket is prefetched from its key
    /// before the board changes, so the child's probe finds it loaded.
    #[inline]
    pub fn do_move(&mut self, mv: Move, table: &ChessTable) {
        self.eval.push(self.pos.chess(), mv);
        self.pos
            .push_with_hint(mv, |key| table.prefetch(TableKey::from(key)));
    }

    /// Takes back the last [`Board::do_move`].
    #[inline]
    pub fn undo_move(&mut self) {
        self.pos.pop();
        self.eval.pop();
    }

    /// Passes the turn; refused (false, nothing changes) when the side to move is in check.
    #[inline]
    pub fn do_null(&mut self) -> bool {
        if !self.pos.push_null() {
            return false;
        }
        self.eval.push_null();
        true
    }

    /// Takes back the last [`Board::do_null`].
    #[inline]
    pub fn undo_null(&mut self) {
        self.pos.pop();
        self.eval.pop_null();
    }
}
