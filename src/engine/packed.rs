//! 16-bit move encoding for the transposition table.
//!
//! `from | to << 6 | promotion << 12 | castle << 15`, castling written king-to-rook as
//! shakmaty does internally. A packed move is only a hint: it is turned back into a move by
//! finding the legal move that packs the same ([`PackedMove::legal_in`]), so a stale or
//! colliding entry can never make the engine play an illegal move.

use shakmaty::{CastlingSide, Chess, Move, Position as _, Role, Square};

/// A move squeezed into 16 bits; 0 means no move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct PackedMove(pub u16);

impl PackedMove {
    /// No move.
    pub const NONE: PackedMove = PackedMove(0);

    /// Packs a chess move.
    pub fn new(mv: Move) -> PackedMove {
        let (from, to, promotion, castle) = match mv {
            Move::Normal {
                from,
                to,
                promotion,
                ..
            } => (from, to, promotion, 0),
            Move::EnPassant { from, to } => (from, to, None, 0),
            Move::Castle { king, rook } => (king, rook, None, 1),
            Move::Put { to, .. } => (to, to, None, 0),
        };
        let promotion = promotion.map_or(0, |r| r as u16);
        PackedMove(from as u16 | (to as u16) << 6 | promotion << 12 | castle << 15)
    }

    /// True for [`PackedMove::NONE`].
    pub fn is_none(self) -> bool {
        self.0 == 0
    }

    /// The legal move of `pos` that packs to this one, if any, found without generating
    /// every legal move: only the moves of the piece on its origin square to its target.
    pub fn legal_in(self, pos: &Chess) -> Option<Move> {
        if self.is_none() {
            return None;
        }
        let from = Square::new(u32::from(self.0 & 63));
        let to = Square::new(u32::from(self.0 >> 6 & 63));
        let candidates = if self.0 >> 15 == 1 {
            let side = if from < to {
                CastlingSide::KingSide
            } else {
                CastlingSide::QueenSide
            };
            pos.castling_moves(side)
        } else {
            pos.san_candidates(pos.board().role_at(from)?, to)
        };
        candidates
            .into_iter()
            .find(|&mv| PackedMove::new(mv) == self)
    }
}

/// Promotions pack the role number; make sure the 3 bits suffice.
const _: () = assert!((Role::King as u16) < 8);

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::MoveList;

    /// The move of the full list that packs to `packed`: the reference `legal_in` must match.
    fn find(packed: PackedMove, moves: &MoveList) -> Option<Move> {
        moves
            .iter()
            .copied()
            .find(|&mv| !packed.is_none() && PackedMove::new(mv) == packed)
    }
    use crate::chess::Position;

    #[test]
    fn every_legal_move_packs_uniquely_and_is_found_again() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        ];
        for fen in fens {
            let pos = Position::from_fen(fen, false).unwrap();
            let moves = pos.legal_moves();
            for &mv in &moves {
                let packed = PackedMove::new(mv);
                assert!(!packed.is_none());
                assert_eq!(find(packed, &moves), Some(mv), "{fen}: {mv:?}");
            }
        }
    }

    #[test]
    fn a_packed_move_is_legal_in_exactly_the_positions_that_have_it() {
        // Castling both ways, en passant, promotions with and without capture, in check,
        // and a pinned piece.
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
            "4k3/8/8/8/1b6/8/3P4/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1",
        ];
        let positions: Vec<Position> = fens
            .iter()
            .map(|fen| Position::from_fen(fen, false).unwrap())
            .collect();
        let mut checked = 0;
        for pos in &positions {
            let moves = pos.legal_moves();
            for other in &positions {
                for &mv in &other.legal_moves() {
                    let packed = PackedMove::new(mv);
                    assert_eq!(packed.legal_in(pos.chess()), find(packed, &moves), "{mv:?}");
                    checked += usize::from(find(packed, &moves).is_some());
                }
            }
        }
        assert!(checked > 100, "{checked} moves found legal");
        assert_eq!(PackedMove::NONE.legal_in(positions[0].chess()), None);
    }
}
