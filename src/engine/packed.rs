//! 16-bit move encoding for the transposition table.
//!
//! `from | to << 6 | promotion << 12 | castle << 15`, castling written king-to-rook as
//! shakmaty does internally. A packed move is only a hint: it is turned back into a move only
//! when a legal move of the position packs the same ([`PackedMove::legal_in`]), so a stale
//! or colliding entry can never make the engine play an illegal move.

use shakmaty::{CastlingSide, Chess, Move, Position as _, Role, Square};

use crate::chess::legality::legal_move_between;

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
    /// moves: rebuilt from the board by [`legal_move_between`]. Castling goes by shakmaty's
    /// castling moves.
    pub fn legal_in(self, pos: &Chess) -> Option<Move> {
        if self.is_none() {
            return None;
        }
        let from = Square::new(u32::from(self.0 & 63));
        let to = Square::new(u32::from(self.0 >> 6 & 63));
        if self.0 >> 15 == 1 {
            return self.castling_in(pos, from, to);
        }
        let promotion = match self.0 >> 12 & 7 {
            0 => None,
            2 => Some(Role::Knight),
            3 => Some(Role::Bishop),
            4 => Some(Role::Rook),
            5 => Some(Role::Queen),
            _ => return None,
        };
        legal_move_between(pos, from, to, promotion)
    }

    /// The castling move of `pos` that packs to this one (king to rook), if it is legal.
    fn castling_in(self, pos: &Chess, king: Square, rook: Square) -> Option<Move> {
        let side = if king < rook {
            CastlingSide::KingSide
        } else {
            CastlingSide::QueenSide
        };
        pos.castling_moves(side)
            .into_iter()
            .find(|&mv| PackedMove::new(mv) == self)
    }
}

/// Promotions pack the role number; make sure the 3 bits suffice.
const _: () = assert!((Role::King as u16) < 8);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::TRICKY_POSITIONS;
    use rand::rngs::ChaCha8Rng;
    use rand::{RngExt, SeedableRng};
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

    /// The legal move that packs to `packed` as shakmaty's candidates for the piece on its
    /// origin square and its target give it: the reference for [`PackedMove::legal_in`].
    fn by_candidates(packed: PackedMove, pos: &Chess) -> Option<Move> {
        if packed.is_none() {
            return None;
        }
        let from = Square::new(u32::from(packed.0 & 63));
        let to = Square::new(u32::from(packed.0 >> 6 & 63));
        let candidates = if packed.0 >> 15 == 1 {
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
            .find(|&mv| PackedMove::new(mv) == packed)
    }

    /// How many packed moves turned out legal, by kind.
    #[derive(Default, Debug)]
    struct Found {
        legal: usize,
        en_passant: usize,
        promotions: usize,
        castling: usize,
        in_check: usize,
    }

    impl Found {
        fn judge(&mut self, packed: PackedMove, pos: &Chess) {
            let expected = by_candidates(packed, pos);
            assert_eq!(
                packed.legal_in(pos),
                expected,
                "{:#06x} in {}",
                packed.0,
                shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Always)
            );
            if let Some(mv) = expected {
                self.legal += 1;
                self.en_passant += usize::from(mv.is_en_passant());
                self.promotions += usize::from(mv.is_promotion());
                self.castling += usize::from(mv.is_castle());
                self.in_check += usize::from(pos.is_check());
            }
        }
    }

    /// Every 16-bit value in positions with castling, en passant (legal, pinned, and out of
    /// check), promotions, checks, double checks and pins; then, along random games, the
    /// packed moves of nearby positions and random values: `legal_in` finds what the
    /// candidates of the piece on the origin square give.
    #[test]
    fn legal_in_agrees_with_the_candidate_moves_for_every_packed_move() {
        let fens = [
            "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
            "r3k2r/8/8/8/8/5q2/8/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "8/8/8/KPp4r/8/8/8/7k w - c6 0 2",
            "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
            "4k3/8/8/8/1b6/8/3P4/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1",
            "4k3/8/8/8/8/5n2/8/r3K3 w - - 0 1",
            "1r2k3/P1P5/8/8/8/8/6p1/4K2R w K - 0 1",
            "1r2k3/P1P5/8/8/8/8/6p1/4K2R b K - 0 1",
            "4k3/8/8/2b5/8/8/8/R3K2R w KQ - 0 1",
        ];
        let mut found = Found::default();
        let exhaustive = TRICKY_POSITIONS.iter().chain(fens.iter());
        for fen in exhaustive {
            let pos = Position::from_fen(fen, false).unwrap().chess().clone();
            for packed in 0..=u16::MAX {
                found.judge(PackedMove(packed), &pos);
            }
        }
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for fen in TRICKY_POSITIONS.iter().chain(fens.iter()) {
            for _ in 0..12 {
                let mut pos = Position::from_fen(fen, false).unwrap().chess().clone();
                let mut recent: Vec<PackedMove> = Vec::new();
                for _ in 0..50 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    recent.extend(moves.iter().map(|&mv| PackedMove::new(mv)));
                    if recent.len() > 300 {
                        recent.drain(..recent.len() - 300);
                    }
                    for &packed in &recent {
                        found.judge(packed, &pos);
                    }
                    for _ in 0..64 {
                        found.judge(PackedMove(rng.random()), &pos);
                    }
                    pos.play_unchecked(moves[rng.random_range(0..moves.len())]);
                }
            }
        }
        assert!(
            found.legal > 50_000
                && found.en_passant > 20
                && found.promotions > 500
                && found.castling > 100
                && found.in_check > 1_000,
            "{found:?}"
        );
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
