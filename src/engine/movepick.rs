//! Move ordering: the table move, then winning captures by victim and attacker, killers,
//! the counter move, quiet moves by history, and losing captures last.

use arrayvec::ArrayVec;
use shakmaty::{Chess, Color, Move, MoveList, Piece, Position, Role, Square};

use super::eval::SEE_VALUE;
use super::see::see_ge;

/// Deepest ply the search keeps per-ply state for.
pub const MAX_PLY: usize = 128;
/// History scores stay within this magnitude.
const HISTORY_MAX: i32 = 16_384;

const TT_MOVE: i32 = 4_000_000;
const GOOD_CAPTURE: i32 = 3_000_000;
const KILLER: [i32; 2] = [2_000_000, 1_900_000];
const COUNTER: i32 = 1_800_000;
const BAD_CAPTURE: i32 = -2_000_000;

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

/// True for moves that change material: captures and promotions.
pub fn is_tactical(mv: Move) -> bool {
    mv.is_capture() || mv.is_promotion()
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

/// Captures and promotions: most valuable victim first, least valuable attacker next.
fn mvv_lva(pos: &Chess, mv: Move) -> i32 {
    let victim = match mv {
        Move::EnPassant { .. } => SEE_VALUE[Role::Pawn as usize],
        _ => pos
            .board()
            .role_at(mv.to())
            .map_or(0, |r| SEE_VALUE[r as usize]),
    };
    let promotion = mv.promotion().map_or(0, |r| SEE_VALUE[r as usize]);
    16 * (victim + promotion) - SEE_VALUE[mv.role() as usize] / 16
}

/// Hands out the best remaining move and its ordering score (selection sort: usually only
/// the first few moves of a node are ever looked at).
impl Iterator for MovePicker {
    type Item = (Move, i32);

    fn next(&mut self) -> Option<(Move, i32)> {
        let rest = &mut self.moves[self.next..];
        let best = rest.iter().enumerate().max_by_key(|(_, (_, s))| *s)?.0;
        rest.swap(0, best);
        self.next += 1;
        Some(self.moves[self.next - 1])
    }
}

/// Moves with ordering scores, handed out best first.
pub struct MovePicker {
    moves: ArrayVec<(Move, i32), 256>,
    next: usize,
}

impl MovePicker {
    /// Orders all legal moves of a main-search node.
    pub fn new(
        pos: &Chess,
        moves: &MoveList,
        tt_move: Option<Move>,
        heuristics: &Heuristics,
        ply: usize,
        previous: Option<(Piece, Square)>,
    ) -> MovePicker {
        let side = pos.turn();
        let killers = heuristics.killers[ply.min(MAX_PLY)];
        let counter = heuristics.counter(previous);
        let moves = moves
            .iter()
            .map(|&mv| {
                let score = if Some(mv) == tt_move {
                    TT_MOVE
                } else if is_tactical(mv) {
                    let base = if see_ge(pos, mv, 0) {
                        GOOD_CAPTURE
                    } else {
                        BAD_CAPTURE
                    };
                    base + mvv_lva(pos, mv)
                } else if Some(mv) == killers[0] {
                    KILLER[0]
                } else if Some(mv) == killers[1] {
                    KILLER[1]
                } else if Some(mv) == counter {
                    COUNTER
                } else {
                    heuristics.history(side, mv)
                };
                (mv, score)
            })
            .collect();
        MovePicker { moves, next: 0 }
    }

    /// Orders the captures and promotions of a quiescence node (all moves when in check).
    pub fn tactical(pos: &Chess, moves: &MoveList, in_check: bool) -> MovePicker {
        let moves = moves
            .iter()
            .filter(|&&mv| in_check || is_tactical(mv))
            .map(|&mv| (mv, if is_tactical(mv) { mvv_lva(pos, mv) } else { 0 }))
            .collect();
        MovePicker { moves, next: 0 }
    }

    /// Whether a move's ordering score marks it as a losing capture.
    pub fn is_bad_capture(score: i32) -> bool {
        score < BAD_CAPTURE / 2
    }
}
