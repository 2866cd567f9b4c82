//! Correction history: how far the search's results have been from the static evaluation in
//! positions with the same pawn structure, learned while the search runs and added to the
//! evaluation it prunes on. A pawn structure that the evaluation misjudges in one line is
//! usually misjudged the same way in the next.

use shakmaty::{Chess, Color, Position as _};

use super::params::{correction_limit, correction_weight_max};

/// Entries per side to move (a power of two).
const SIZE: usize = 16_384;
/// Corrections are kept in 1/GRAIN of a centipawn.
const GRAIN: i32 = 256;

/// One search thread's corrections by side to move and pawn structure.
pub struct Correction {
    entries: Box<[[i16; SIZE]; 2]>,
}

impl Default for Correction {
    fn default() -> Correction {
        Correction {
            entries: Box::new([[0; SIZE]; 2]),
        }
    }
}

/// A key of the pawns of both colours and nothing else.
pub fn pawn_key(pos: &Chess) -> u64 {
    let board = pos.board();
    let white = u64::from(board.pawns() & board.white());
    let black = u64::from(board.pawns() & board.black());
    mix(white ^ mix(black))
}

/// A 64-bit finaliser (splitmix64's): every input bit moves about half the output bits.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

impl Correction {
    /// Where `pos`'s entry lives: side to move, then pawn structure.
    fn slot(pos: &Chess) -> (usize, usize) {
        let side = usize::from(pos.turn() == Color::White);
        (side, pawn_key(pos) as usize & (SIZE - 1))
    }

    /// The static evaluation `eval` of `pos`, corrected.
    pub fn corrected(&self, pos: &Chess, eval: i32) -> i32 {
        let (side, index) = Correction::slot(pos);
        eval + i32::from(self.entries[side][index]) / GRAIN
    }

    /// Learns from a node searched to `depth` that scored `score` where the uncorrected
    /// static evaluation said `eval`.
    pub fn learn(&mut self, pos: &Chess, depth: i32, eval: i32, score: i32) {
        let limit = correction_limit();
        let target = ((score - eval).clamp(-limit, limit)) * GRAIN;
        let weight = (depth + 1).min(correction_weight_max());
        let (side, index) = Correction::slot(pos);
        let entry = &mut self.entries[side][index];
        let blended = (i32::from(*entry) * (256 - weight) + target * weight) / 256;
        *entry = blended.clamp(-limit * GRAIN, limit * GRAIN) as i16;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Position;

    fn chess(fen: &str) -> Chess {
        Position::from_fen(fen, false).unwrap().chess().clone()
    }

    #[test]
    fn pawn_key_sees_pawns_only() {
        let start = chess("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let knight_out = chess("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1");
        let pawn_up = chess("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        assert_eq!(pawn_key(&start), pawn_key(&knight_out));
        assert_ne!(pawn_key(&start), pawn_key(&pawn_up));
        // The same squares with the colours swapped are another structure.
        let white_e4 = chess("4k3/8/8/8/4P3/8/8/4K3 w - - 0 1");
        let black_e4 = chess("4k3/8/8/8/4p3/8/8/4K3 w - - 0 1");
        assert_ne!(pawn_key(&white_e4), pawn_key(&black_e4));
    }

    #[test]
    fn learns_towards_search_results_and_stays_bounded() {
        let mut c = Correction::default();
        let pos = chess("4k3/8/8/8/4P3/8/8/4K3 w - - 0 1");
        assert_eq!(c.corrected(&pos, 30), 30);
        for _ in 0..200 {
            c.learn(&pos, 10, 30, 80);
        }
        let corrected = c.corrected(&pos, 30);
        assert!((75..=80).contains(&corrected), "{corrected}");
        for _ in 0..2000 {
            c.learn(&pos, 20, 0, 10_000);
        }
        // Integer blending stops a step short of the limit; it never passes it.
        let saturated = c.corrected(&pos, 0);
        assert!(
            (correction_limit() - 1..=correction_limit()).contains(&saturated),
            "{saturated}"
        );
        // The other side to move has its own entry.
        let black = chess("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1");
        assert_eq!(c.corrected(&black, 0), 0);
    }
}
