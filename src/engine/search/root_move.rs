//! A root move as the search keeps it: its latest score, bound and variation, and what the
//! move cost.

use arrayvec::ArrayVec;
use shakmaty::Move;

use crate::engine::score::{INFINITE, MAX_PLY};
use crate::engine::tt::Bound;

/// A root move with its latest score and variation.
#[derive(Clone, Debug)]
pub(super) struct RootMove {
    /// The move.
    pub(super) mv: Move,
    /// Its score in the iteration under way (-INFINITE: none yet, or it failed low).
    pub(super) score: i32,
    /// Its score in the iteration before.
    pub(super) previous_score: i32,
    /// The iteration that gave `score` (0: none yet).
    pub(super) scored_at: i32,
    /// Whether `score` is only a bound (an aspiration window failed on it).
    pub(super) bound: Option<Bound>,
    /// Deepest ply reached under it.
    pub(super) seldepth: usize,
    /// Its variation, the move first.
    pub(super) pv: ArrayVec<Move, MAX_PLY>,
    /// Nodes this thread spent under the move in the current iteration.
    pub(super) nodes: u64,
}

impl RootMove {
    /// The score to show: this iteration's, or the last one's for a move not scored yet
    /// (-INFINITE when it never was).
    pub(super) fn shown_score(&self) -> i32 {
        if self.score == -INFINITE {
            self.previous_score
        } else {
            self.score
        }
    }
}
