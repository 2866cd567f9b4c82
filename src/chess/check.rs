//! Whether a move gives check, told before it is made: a search can prune or extend a move
//! by it without making the move, which costs an accumulator update and a key update.

use shakmaty::{Bitboard, CastlingSide, Chess, Move, Position as _, Role, Square, attacks};

/// How a move checks the opposing king.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// The move gives no check.
    None,
    /// Only the moved piece (the rook, for castling) checks.
    Direct,
    /// Another piece checks, uncovered by the move, alone or with the moved piece.
    Discovered,
}

impl Check {
    /// Whether the move gives check at all.
    pub fn is_check(self) -> bool {
        self != Check::None
    }
}

/// How the legal move `mv` checks in `pos`, read from the board without making the move.
///
/// ```
/// use rookery::chess::{Position, check::{Check, gives_check}};
/// use shakmaty::{Move, Role, Square};
/// let pos = Position::from_fen("4k3/8/8/8/8/8/4N3/4RK2 w - - 0 1", false).unwrap();
/// let knight = |to| Move::Normal { role: Role::Knight, from: Square::E2, capture: None, to, promotion: None };
/// // Any knight move uncovers the rook on e1.
/// assert_eq!(gives_check(pos.chess(), knight(Square::D4)), Check::Discovered);
/// let rook = |to| Move::Normal { role: Role::Rook, from: Square::E1, capture: None, to, promotion: None };
/// assert_eq!(gives_check(pos.chess(), rook(Square::D1)), Check::None);
/// let pos = Position::from_fen("4k3/8/8/8/8/8/8/R4K2 w - - 0 1", false).unwrap();
/// let rook = Move::Normal { role: Role::Rook, from: Square::A1, capture: None, to: Square::A8, promotion: None };
/// assert_eq!(gives_check(pos.chess(), rook), Check::Direct);
/// ```
pub fn gives_check(pos: &Chess, mv: Move) -> Check {
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(!us) else {
        return Check::None;
    };
    // The squares the move empties and fills, and the piece that lands (the rook, when
    // castling: a king gives no check).
    let (vacated, filled, lands, landing) = match mv {
        Move::Normal {
            role,
            from,
            to,
            promotion,
            ..
        } => (
            Bitboard::from(from),
            Bitboard::from(to),
            to,
            promotion.unwrap_or(role),
        ),
        Move::EnPassant { from, to } => (
            Bitboard::from(from) | Bitboard::from(Square::from_coords(to.file(), from.rank())),
            Bitboard::from(to),
            to,
            Role::Pawn,
        ),
        Move::Castle {
            king: king_from,
            rook: rook_from,
        } => {
            let side = CastlingSide::from_queen_side(rook_from < king_from);
            let rook_to = side.rook_to(us);
            (
                Bitboard::from(king_from) | Bitboard::from(rook_from),
                Bitboard::from(side.king_to(us)) | Bitboard::from(rook_to),
                rook_to,
                Role::Rook,
            )
        }
        Move::Put { role, to } => (Bitboard::EMPTY, Bitboard::from(to), to, role),
    };
    let occupied = (board.occupied() & !vacated) | filled;
    // The pieces that did not move, attacking through the board as the move leaves it.
    let uncovered = board.attacks_to(king, us, occupied) & !vacated;
    if uncovered.any() {
        Check::Discovered
    } else if attacks::attacks(lands, landing.of(us), occupied).contains(king) {
        Check::Direct
    } else {
        Check::None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::TRICKY_POSITIONS;
    use crate::chess::position::Position;
    use rand::rngs::ChaCha8Rng;
    use rand::{RngExt as _, SeedableRng as _};

    /// What making the move says: no check, the moved piece alone, or another piece too.
    fn made(pos: &Chess, mv: Move) -> Check {
        let after = pos.clone().play(mv).expect("legal");
        let checkers = after.checkers();
        let lands = match mv {
            Move::Castle { king, rook } => {
                CastlingSide::from_queen_side(rook < king).rook_to(pos.turn())
            }
            other => other.to(),
        };
        if checkers.without(lands).any() {
            Check::Discovered
        } else if checkers.any() {
            Check::Direct
        } else {
            Check::None
        }
    }

    #[test]
    fn every_move_of_random_games_checks_as_making_it_shows() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut seen = [0usize; 3];
        for fen in TRICKY_POSITIONS {
            for _ in 0..40 {
                let mut pos = Position::from_fen(fen, false).unwrap().chess().clone();
                for _ in 0..rng.random_range(0..60) {
                    let moves = pos.legal_moves();
                    for &mv in &moves {
                        let told = gives_check(&pos, mv);
                        assert_eq!(told, made(&pos, mv), "{mv:?} in {:?}", pos.board());
                        seen[told as usize] += 1;
                    }
                    if moves.is_empty() {
                        break;
                    }
                    pos = pos.play(moves[rng.random_range(0..moves.len())]).unwrap();
                }
            }
        }
        // The games met every kind, discovered checks included.
        assert!(seen.iter().all(|&n| n > 20), "{seen:?}");
    }

    #[test]
    fn castling_checks_with_the_rook_and_en_passant_uncovers_a_line() {
        let castle = Position::from_fen("5k2/8/8/8/8/8/8/4K2R w K - 0 1", false).unwrap();
        let mv = Move::Castle {
            king: Square::E1,
            rook: Square::H1,
        };
        assert_eq!(gives_check(castle.chess(), mv), Check::Direct);
        // Taking d6 en passant clears the fifth rank between the rook and the king.
        let ep = Position::from_fen("8/8/8/R2pP2k/8/8/8/4K3 w - d6 0 1", false).unwrap();
        let mv = Move::EnPassant {
            from: Square::E5,
            to: Square::D6,
        };
        assert_eq!(gives_check(ep.chess(), mv), Check::Discovered);
    }
}
