//! Move ordering: the table move, then winning captures by victim and attacker, killers,
//! the counter move, quiet moves by history and continuation history, and losing captures last.

use arrayvec::ArrayVec;
use shakmaty::{Chess, Move, MoveList, Position, Role};

use super::history::{Heuristics, Lineage};
use super::see::{SEE_VALUE, see_ge};

/// Deepest ply the search keeps per-ply state for.
pub const MAX_PLY: usize = 128;
const TT_MOVE: i32 = 4_000_000;
const GOOD_CAPTURE: i32 = 3_000_000;
const KILLER: [i32; 2] = [2_000_000, 1_900_000];
const COUNTER: i32 = 1_800_000;
const BAD_CAPTURE: i32 = -2_000_000;

/// True for moves that change material: captures and promotions.
pub fn is_tactical(mv: Move) -> bool {
    mv.is_capture() || mv.is_promotion()
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

/// A move handed out by the picker, with what its ordering found out about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Picked {
    /// The move.
    pub mv: Move,
    /// A capture or promotion that loses material in the exchange (ordered last).
    pub losing_capture: bool,
}

/// Hands out the best remaining move (selection sort: usually only the first few moves of a
/// node are ever looked at).
impl Iterator for MovePicker {
    type Item = Picked;

    fn next(&mut self) -> Option<Picked> {
        let rest = &mut self.moves[self.next..];
        let best = rest.iter().enumerate().max_by_key(|(_, (_, s))| *s)?.0;
        rest.swap(0, best);
        self.next += 1;
        let (mv, score) = self.moves[self.next - 1];
        Some(Picked {
            mv,
            losing_capture: score < BAD_CAPTURE / 2,
        })
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
        lineage: Lineage,
    ) -> MovePicker {
        let side = pos.turn();
        let killers = heuristics.killers[ply.min(MAX_PLY)];
        let counter = heuristics.counter(lineage.0[0]);
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
                    heuristics.quiet_score(side, mv, (mv.role().of(side), mv.to()), lineage)
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
}
