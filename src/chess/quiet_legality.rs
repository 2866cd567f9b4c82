//! Whether a quiet move remembered from another position (a killer, a counter move) is
//! legal here, checked on its own: shakmaty's check of one move builds a list of
//! candidates first.

use shakmaty::{
    Bitboard, CastlingSide, Chess, Color, Move, Position as _, Rank, Role, Square, attacks,
};

use super::legality::pawn_push_reaches;
use super::quiet_moves::castling;

/// Whether `mv`, a move without capture or promotion, is legal in `pos`, which must not be
/// in check: its piece stands on its origin square, its target is empty, the piece can
/// make it, and its king is not attacked afterwards. Castling is left to shakmaty.
///
/// ```
/// use rookery::chess::{Position, quiet_legality::is_legal_quiet};
/// use shakmaty::{Move, Role, Square};
/// let pos = Position::from_fen("4k3/8/8/8/8/8/r2B4/3K4 w - - 0 1", false).unwrap();
/// let step = |role, from, to| Move::Normal { role, from, capture: None, to, promotion: None };
/// assert!(is_legal_quiet(pos.chess(), step(Role::King, Square::D1, Square::E2)));
/// // The rook on a2 guards c2.
/// assert!(!is_legal_quiet(pos.chess(), step(Role::King, Square::D1, Square::C2)));
/// // The bishop is free to go; there is no bishop on c3.
/// assert!(is_legal_quiet(pos.chess(), step(Role::Bishop, Square::D2, Square::G5)));
/// assert!(!is_legal_quiet(pos.chess(), step(Role::Bishop, Square::C3, Square::G7)));
/// ```
pub fn is_legal_quiet(pos: &Chess, mv: Move) -> bool {
    debug_assert!(!pos.is_check(), "only out of check");
    let Move::Normal {
        role,
        from,
        capture: None,
        to,
        promotion: None,
    } = mv
    else {
        // Castling by the castling generator: shakmaty's `is_legal` copies out a list.
        return match mv {
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_king_side(king.file() < rook.file());
                pos.board()
                    .king_of(pos.turn())
                    .and_then(|ours| castling(pos, ours, side))
                    == Some(mv)
            }
            _ => false,
        };
    };
    let board = pos.board();
    let us = pos.turn();
    let occupied = board.occupied();
    if !(board.by_color(us) & board.by_role(role)).contains(from) || occupied.contains(to) {
        return false;
    }
    match role {
        Role::Pawn => pawn_pushes(us, from, to, occupied) && keeps_king_covered(pos, from, to),
        Role::King => {
            attacks::king_attacks(from).contains(to)
                && board.attacks_to(to, !us, occupied.without(from)).is_empty()
        }
        _ => {
            attacks::attacks(from, role.of(us), occupied).contains(to)
                && keeps_king_covered(pos, from, to)
        }
    }
}

/// Whether a pawn of `us` on `from` pushes to the empty square `to`, not onto the last rank
/// (a promotion).
fn pawn_pushes(us: Color, from: Square, to: Square, occupied: Bitboard) -> bool {
    to.rank() != us.fold_wb(Rank::Eighth, Rank::First) && pawn_push_reaches(us, from, to, occupied)
}

/// Whether the king of the side to move, not in check, stays out of check when one of its
/// other pieces goes from `from` to the empty square `to`. Only a slider behind `from`, on
/// a line through the king, can attack it then: the move opens no other line.
fn keeps_king_covered(pos: &Chess, from: Square, to: Square) -> bool {
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(us) else {
        return false;
    };
    if attacks::ray(king, from).is_empty() {
        return true;
    }
    let after = board.occupied().without(from).with(to);
    let sliders = attacks::rook_attacks(king, after) & board.rooks_and_queens()
        | attacks::bishop_attacks(king, after) & board.bishops_and_queens();
    (sliders & board.by_color(!us)).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Position, TRICKY_POSITIONS};
    use rand::rngs::ChaCha8Rng;
    use rand::{RngExt, SeedableRng};
    use shakmaty::{Role, Square};

    /// Along random games from positions rich in pins and castling, every quiet move of the
    /// last few positions (legal there, maybe not here) is judged as shakmaty judges it.
    #[test]
    fn quiet_moves_from_nearby_positions_are_judged_as_shakmaty_judges_them() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let (mut legal, mut illegal) = (0, 0);
        for fen in TRICKY_POSITIONS {
            for _ in 0..30 {
                let mut pos = Position::from_fen(fen, false).unwrap().chess().clone();
                let mut recent: Vec<Move> = Vec::new();
                for _ in 0..60 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let quiet = moves
                        .iter()
                        .copied()
                        .filter(|m| !m.is_capture() && !m.is_promotion());
                    recent.extend(quiet);
                    if recent.len() > 400 {
                        recent.drain(..recent.len() - 400);
                    }
                    if !pos.is_check() {
                        for &mv in &recent {
                            let expected = pos.is_legal(mv);
                            assert_eq!(is_legal_quiet(&pos, mv), expected, "{mv:?} in {pos:?}");
                            if expected {
                                legal += 1;
                            } else {
                                illegal += 1;
                            }
                        }
                    }
                    pos.play_unchecked(moves[rng.random_range(0..moves.len())]);
                }
            }
        }
        assert!(legal > 10_000 && illegal > 10_000, "{legal} {illegal}");
    }

    #[test]
    fn a_pinned_piece_keeps_to_its_line() {
        let pos = Position::from_fen("4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1", false).unwrap();
        let rook = |to| Move::Normal {
            role: Role::Rook,
            from: Square::E2,
            capture: None,
            to,
            promotion: None,
        };
        assert!(is_legal_quiet(pos.chess(), rook(Square::E5)));
        assert!(!is_legal_quiet(pos.chess(), rook(Square::A2)));
    }
}
