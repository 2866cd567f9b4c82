//! The evaluator seam: the state an evaluation keeps beside the searched position, what
//! [`Board`](super::board::Board) tells it as moves are made and taken back, and the score.
//!
//! The hand-written evaluation ([`hce`]) reads the board from scratch and keeps no state.
//! The network ([`nnue`]) keeps an accumulator per ply (a null move's position shares its
//! parent's): [`Evaluator::push`] updates it from the move and the position before it,
//! [`Evaluator::pop`] drops it, and [`Evaluator::new`] refreshes it from the board.

pub mod hce;
pub mod nnue;
pub mod scaling;

use std::sync::Arc;

use shakmaty::{Chess, Move, Position};

use self::nnue::{Accumulator, Network};

/// The evaluation's state along the searched line: the hand-written evaluation keeps none,
/// the network a stack of accumulators, one per ply.
#[derive(Clone, Debug, Default)]
pub struct Evaluator {
    nnue: Option<NnueState>,
}

#[derive(Clone, Debug)]
struct NnueState {
    net: Arc<Network>,
    stack: Vec<Accumulator>,
    top: usize,
    /// Perspectives summed afresh because a king's move changed its side's view (across the
    /// d/e boundary, or into another king bucket).
    king_refreshes: u64,
}

/// Accumulators allocated up front: deeper lines grow the stack.
const STACK_PLIES: usize = 160;

impl NnueState {
    /// Moves up a ply: the net, the parent's accumulator and the slot of the child's, to be
    /// filled.
    #[inline(always)]
    fn advance(&mut self) -> (&Network, &Accumulator, &mut Accumulator) {
        let next = self.top + 1;
        if next == self.stack.len() {
            let slot = self.stack[self.top].clone();
            self.stack.push(slot);
        }
        self.top = next;
        let (done, rest) = self.stack.split_at_mut(next);
        (&self.net, &done[next - 1], &mut rest[0])
    }
}

impl Evaluator {
    /// An evaluator refreshed from scratch for `pos`: the network's if `net` is given, else
    /// the hand-written evaluation.
    pub fn new(pos: &Chess, net: Option<&Arc<Network>>) -> Evaluator {
        let nnue = net.map(|net| {
            let root = Accumulator::refresh(net, pos.board());
            let mut stack = Vec::with_capacity(STACK_PLIES);
            stack.push(root);
            NnueState {
                net: Arc::clone(net),
                stack,
                top: 0,
                king_refreshes: 0,
            }
        });
        Evaluator { nnue }
    }

    /// The legal move `mv` is about to be played on `before`.
    #[inline(always)]
    pub fn push(&mut self, before: &Chess, mv: Move) {
        if let Some(state) = &mut self.nnue {
            let (net, parent, child) = state.advance();
            let refreshed = parent.update_into(child, net, before, mv);
            state.king_refreshes += u64::from(refreshed);
        }
    }

    /// The last move is taken back.
    #[inline(always)]
    pub fn pop(&mut self) {
        if let Some(state) = &mut self.nnue {
            state.top -= 1;
        }
    }

    /// The accumulator of the current position, when the network evaluates.
    pub fn accumulator(&self) -> Option<&Accumulator> {
        self.nnue.as_ref().map(|state| &state.stack[state.top])
    }

    /// The moves since this evaluator was made whose king changed its side's view under a
    /// king-mirrored net (across the d/e boundary, or into another king bucket), so that one
    /// perspective was summed afresh (0 without a net).
    pub fn king_refreshes(&self) -> u64 {
        self.nnue.as_ref().map_or(0, |state| state.king_refreshes)
    }

    /// The static evaluation of `pos` (the position this state follows), in centipawns
    /// from the side to move's view.
    #[inline]
    pub fn evaluate(&self, pos: &Chess) -> i32 {
        match &self.nnue {
            Some(state) => {
                let acc = &state.stack[state.top];
                state.net.evaluate(
                    acc.perspective(pos.turn()),
                    acc.perspective(!pos.turn()),
                    pos.board(),
                )
            }
            None => hce::evaluate(pos),
        }
    }
}
