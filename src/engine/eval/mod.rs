//! The evaluator seam: the state an evaluation keeps beside the searched position, what
//! [`Board`](super::board::Board) tells it as moves are made and taken back, and the score.
//!
//! The hand-written evaluation ([`hce`]) reads the board from scratch and keeps no state,
//! so every notification is empty today. An evaluation with incremental state (an NNUE
//! accumulator) updates it in [`Evaluator::push`] from the move and the position before it,
//! drops it in [`Evaluator::pop`], and is refreshed from the board by [`Evaluator::new`].

pub mod hce;

use super::tb::TB_BOUND;

use shakmaty::{Chess, Move};

/// Expected outcome of a score, in permille: `[win, draw, loss]` for the side the score is
/// for. A logistic curve on each side (a win grows likely past about +1.5 pawns); mate and
/// tablebase scores are certain. Not yet fitted to Rookery's own games.
///
/// ```
/// use rookery::engine::eval::win_draw_loss;
/// assert_eq!(win_draw_loss(0)[0], win_draw_loss(0)[2]);
/// assert!(win_draw_loss(300)[0] > 800);
/// assert_eq!(win_draw_loss(31_000), [1000, 0, 0]);
/// ```
pub fn win_draw_loss(score: i32) -> [u32; 3] {
    /// Centipawns at which a win (or a loss) is as likely as not.
    const EVEN: f64 = 150.0;
    /// Centipawns over which the odds grow by a factor of e.
    const SPREAD: f64 = 50.0;
    if score.abs() >= TB_BOUND {
        return if score > 0 {
            [1000, 0, 0]
        } else {
            [0, 0, 1000]
        };
    }
    let curve = |s: f64| 1000.0 / (1.0 + (-(s - EVEN) / SPREAD).exp());
    let win = curve(f64::from(score)).round() as u32;
    let loss = curve(-f64::from(score)).round() as u32;
    [win, 1000 - win - loss, loss]
}

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
