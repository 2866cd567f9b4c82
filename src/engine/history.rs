//! What the search learns about quiet moves while it runs: killer moves per ply, counter
//! moves to the opponent's last move, and history scores by side and squares.

use shakmaty::{Color, Move, Piece, Square};

use super::movepick::MAX_PLY;

/// History scores stay within this magnitude.
const HISTORY_MAX: i32 = 16_384;

/// Learned ordering knowledge of one search thread.
pub struct Heuristics {
    /// Two quiet moves per ply that recently caused a cutoff.
    pub killers: [[Option<Move>; 2]; MAX_PLY + 1],
    /// Quiet move success by side, from and to square.
    history: Box<[[[i32; 64]; 64]; 2]>,
    /// The quiet reply that refuted each (piece, destination) of the previous move.
    counters: Box<[[Option<Move>; 64]; 12]>,
}

impl Default for Heuristics {
    fn default() -> Heuristics {
        Heuristics {
            killers: [[None; 2]; MAX_PLY + 1],
            history: Box::new([[[0; 64]; 64]; 2]),
            counters: Box::new([[None; 64]; 12]),
        }
    }
}

/// The squares a move's history is kept under.
fn squares(mv: Move) -> (usize, usize) {
    match mv {
        Move::Castle { king, rook } => (king as usize, rook as usize),
        _ => (mv.from().map_or(0, |s| s as usize), mv.to() as usize),
    }
}

fn piece_index(piece: Piece) -> usize {
    2 * (piece.role as usize - 1) + usize::from(piece.color.is_white())
}

impl Heuristics {
    /// History score of a quiet move by `side`.
    pub fn history(&self, side: Color, mv: Move) -> i32 {
        let (from, to) = squares(mv);
        self.history[usize::from(side.is_white())][from][to]
    }

    /// The counter move to a previous move that put `piece` on `to`.
    pub fn counter(&self, previous: Option<(Piece, Square)>) -> Option<Move> {
        previous.and_then(|(piece, to)| self.counters[piece_index(piece)][to as usize])
    }

    /// Rewards the quiet move that failed high and punishes the quiet moves tried before it.
    pub fn reward(
        &mut self,
        side: Color,
        ply: usize,
        depth: i32,
        best: Move,
        tried: &[Move],
        previous: Option<(Piece, Square)>,
    ) {
        let bonus = (depth * depth).min(1200);
        self.update_history(side, best, bonus);
        for &mv in tried.iter().filter(|&&mv| mv != best) {
            self.update_history(side, mv, -bonus);
        }
        let killers = &mut self.killers[ply.min(MAX_PLY)];
        if killers[0] != Some(best) {
            killers[1] = killers[0];
            killers[0] = Some(best);
        }
        if let Some((piece, to)) = previous {
            self.counters[piece_index(piece)][to as usize] = Some(best);
        }
    }

    /// Moves a history score towards +-HISTORY_MAX, more slowly the closer it is.
    fn update_history(&mut self, side: Color, mv: Move, bonus: i32) {
        let (from, to) = squares(mv);
        let entry = &mut self.history[usize::from(side.is_white())][from][to];
        *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
    }

    /// Ages the history between searches so old lessons fade.
    pub fn age(&mut self) {
        for side in self.history.iter_mut() {
            for from in side.iter_mut() {
                for h in from.iter_mut() {
                    *h /= 2;
                }
            }
        }
        self.killers = [[None; 2]; MAX_PLY + 1];
    }
}
