//! The evaluator seam: the state an evaluation keeps beside the searched position, what
//! [`Board`](super::board::Board) tells it as moves are made and taken back, and the score.
//!
//! The hand-written evaluation ([`hce`]) reads the board from scratch and keeps no state,
//! so every notification is empty today. An evaluation with incremental state (an NNUE
//! accumulator) updates it in [`Evaluator::push`] from the move and the position before it,
//! drops it in [`Evaluator::pop`], and is refreshed from the board by [`Evaluator::new`].

pub mod hce;

use shakmaty::{Chess, Move};

/// The evaluation's state along the searched line.
#[derive(Clone, Debug, Default)]
pub struct Evaluator {}

impl Evaluator {
    /// An evaluator refreshed from scratch for `pos`.
    pub fn new(_pos: &Chess) -> Evaluator {
        Evaluator {}
    }

    /// The legal move `mv` is about to be played on `before`.
    #[inline(always)]
    pub fn push(&mut self, _before: &Chess, _mv: Move) {}

    /// The last move is taken back.
    #[inline(always)]
    pub fn pop(&mut self) {}

    /// A null move is about to be played: nothing moves, the side to move changes.
    #[inline(always)]
    pub fn push_null(&mut self) {}

    /// The last null move is taken back.
    #[inline(always)]
    pub fn pop_null(&mut self) {}

    /// The static evaluation of `pos` (the position this state follows), in centipawns
    /// from the side to move's view.
    #[inline]
    pub fn evaluate(&self, pos: &Chess) -> i32 {
        hce::evaluate(pos)
    }
}
