//! Position sets for measuring key quality: perft trees and seeded random games, each node
//! recorded as its exact encoding beside its incremental key.

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use shakmaty::{Bitboard, Chess, EnPassantMode, Position as _};

use super::Position;
use crate::hashing::quality::SampleSet;

/// A chess position encoded exactly, as the key defines a position: the piece on every
/// square, the side to move, the castling rights (by rook square, so Chess960 is exact too)
/// and the en-passant square when a pawn of the side to move could capture there
/// (pseudo-legally, as Polyglot hashes it). Two positions compare equal exactly when all of
/// these agree; it is computed from shakmaty's board, independently of any key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ChessCode {
    /// A nibble per square: 0 empty, else 1 + colour * 6 + role index.
    board: [u64; 4],
    /// Side to move (bit 0), en-passant square + 1 (bits 1..7, 0 for none), castling
    /// rooks on the first rank (bits 8..15) and the eighth (bits 16..23).
    flags: u32,
}

impl ChessCode {
    /// The exact encoding of `pos`.
    pub fn of(pos: &Chess) -> ChessCode {
        let mut board = [0u64; 4];
        for (square, piece) in pos.board() {
            let s = square as usize;
            let nibble = 1 + 6 * u64::from(piece.color.is_black()) + (piece.role as u64 - 1);
            board[s / 16] |= nibble << (4 * (s % 16));
        }
        let ep = pos
            .ep_square(EnPassantMode::PseudoLegal)
            .map_or(0, |sq| sq as u32 + 1);
        let rooks = pos.castles().castling_rights();
        let first = (rooks & Bitboard::from_rank(shakmaty::Rank::First)).0 as u32;
        let eighth = ((rooks & Bitboard::from_rank(shakmaty::Rank::Eighth)).0 >> 56) as u32;
        let flags = u32::from(pos.turn().is_white()) | ep << 1 | first << 8 | eighth << 16;
        ChessCode { board, flags }
    }
}

/// Adds every node of the perft tree of `pos` to `depth` (the root included).
pub fn walk_perft(pos: &mut Position, depth: u32, samples: &mut SampleSet<ChessCode>) {
    samples.push(ChessCode::of(pos.chess()), pos.key().0, 0);
    if depth == 0 {
        return;
    }
    for mv in pos.legal_moves() {
        pos.push(mv);
        walk_perft(pos, depth - 1, samples);
        pos.pop();
    }
}

/// Adds every position of `games` seeded random games of at most `plies` plies from `start`.
pub fn walk_random_games(
    start: &Position,
    games: u64,
    plies: u32,
    seed: u64,
    samples: &mut SampleSet<ChessCode>,
) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..games {
        let mut pos = start.clone();
        samples.push(ChessCode::of(pos.chess()), pos.key().0, 0);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.push(moves[rng.random_range(0..moves.len())]);
            samples.push(ChessCode::of(pos.chess()), pos.key().0, 0);
        }
    }
}
