//! 16-bit move encoding for the transposition table.
//!
//! `from | to << 6 | promotion << 12 | castle << 15`, castling written king-to-rook as
//! shakmaty does internally. A packed move is only a hint: it is turned back into a move by
//! finding the legal move that packs the same, so a stale or colliding entry can never make
//! the engine play an illegal move.

use shakmaty::{Move, MoveList, Role};

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

    /// The legal move in `moves` that packs to this one, if any.
    pub fn find(self, moves: &MoveList) -> Option<Move> {
        if self.is_none() {
            return None;
        }
        moves
            .iter()
            .copied()
            .find(|&mv| PackedMove::new(mv) == self)
    }
}

/// Promotions pack the role number; make sure the 3 bits suffice.
const _: () = assert!((Role::King as u16) < 8);

#[cfg(test)]
mod tests {
    use super::*;
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
                assert_eq!(packed.find(&moves), Some(mv), "{fen}: {mv:?}");
            }
        }
    }
}
