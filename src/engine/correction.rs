//! Correction history: how far the search's results have been from the static evaluation in
//! positions with the same pawn structure, and with the same pieces other than pawns of
//! either colour, learned while the search runs and added to the evaluation it prunes on.
//! A pawn structure (or a piece placement) that the evaluation misjudges in one line is
//! usually misjudged the same way in the next.

use shakmaty::{Bitboard, Board, Chess, Color, Position as _};

use super::params::{
    correction_limit, correction_nonpawn_pct, correction_pawn_pct, correction_weight_max,
};

/// Entries per side to move (a power of two).
const SIZE: usize = 16_384;
/// Corrections are kept in 1/GRAIN of a centipawn.
const GRAIN: i32 = 256;

/// One search thread's corrections by side to move: by pawn structure, and by each
/// colour's pieces other than pawns.
pub struct Correction {
    pawns: Box<[[i16; SIZE]; 2]>,
    /// `[side to move][colour of the pieces]`.
    pieces: Box<[[[i16; SIZE]; 2]; 2]>,
}

impl Default for Correction {
    fn default() -> Correction {
        Correction {
            pawns: Box::new([[0; SIZE]; 2]),
            pieces: Box::new([[[0; SIZE]; 2]; 2]),
        }
    }
}

/// A key of the pawns of both colours and nothing else.
pub fn pawn_key(pos: &Chess) -> u64 {
    let board = pos.board();
    let white = u64::from(board.pawns() & board.white());
    let black = u64::from(board.pawns() & board.black());
    mix(fold(white, black))
}

/// A key of one colour's pieces other than pawns (king included), by kind and square.
pub fn pieces_key(board: &Board, colour: Color) -> u64 {
    let ours = board.by_color(colour);
    let kinds: [Bitboard; 5] = [
        board.knights(),
        board.bishops(),
        board.rooks(),
        board.queens(),
        board.kings(),
    ];
    let folded = kinds
        .iter()
        .fold(0, |key, &kind| fold(key, u64::from(kind & ours)));
    mix(folded)
}

/// Adds one bitboard to a key: a rotation, an exclusive or and a multiplication, cheap
/// enough for every node; [`mix`] spreads the result once at the end.
#[inline(always)]
fn fold(key: u64, word: u64) -> u64 {
    (key.rotate_left(23) ^ word).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// A 64-bit finaliser (splitmix64's): every input bit moves about half the output bits.
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Where a position's entries live: found once, they serve both
/// [`Correction::corrected`] and [`Correction::learn`] at a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slots {
    side: usize,
    pawns: usize,
    /// By the colour of the pieces, white first.
    pieces: [usize; 2],
}

impl Slots {
    /// The entries of `pos`.
    pub fn of(pos: &Chess) -> Slots {
        let board = pos.board();
        Slots {
            side: usize::from(pos.turn() == Color::White),
            pawns: pawn_key(pos) as usize & (SIZE - 1),
            pieces: [Color::White, Color::Black]
                .map(|colour| pieces_key(board, colour) as usize & (SIZE - 1)),
        }
    }
}

/// Moves `entry` towards `target` (both in 1/GRAIN centipawns) by `weight` / 256.
fn blend(entry: &mut i16, target: i32, weight: i32, limit: i32) {
    let blended = (i32::from(*entry) * (256 - weight) + target * weight) / 256;
    *entry = blended.clamp(-limit * GRAIN, limit * GRAIN) as i16;
}

impl Correction {
    /// The static evaluation `eval` of the position whose entries are `slots`, corrected:
    /// the pawn entry and the two pieces entries, each by its weight.
    pub fn corrected(&self, slots: Slots, eval: i32) -> i32 {
        let pawns = i32::from(self.pawns[slots.side][slots.pawns]);
        let pieces: i32 = (0..2)
            .map(|colour| i32::from(self.pieces[slots.side][colour][slots.pieces[colour]]))
            .sum();
        let weighted = pawns * correction_pawn_pct() + pieces * correction_nonpawn_pct();
        eval + weighted / (100 * GRAIN)
    }

    /// Learns from a node searched to `depth` that scored `score` where the uncorrected
    /// static evaluation said `eval`: every entry of the position (its `slots`) moves
    /// towards the difference.
    pub fn learn(&mut self, slots: Slots, depth: i32, eval: i32, score: i32) {
        let limit = correction_limit();
        let target = ((score - eval).clamp(-limit, limit)) * GRAIN;
        let weight = (depth + 1).min(correction_weight_max());
        let pawns = &mut self.pawns[slots.side][slots.pawns];
        blend(pawns, target, weight, limit);
        for colour in 0..2 {
            let entry = &mut self.pieces[slots.side][colour][slots.pieces[colour]];
            blend(entry, target, weight, limit);
        }
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
    fn pieces_key_sees_one_colours_pieces_only() {
        let start = chess("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let knight_out = chess("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1");
        let pawn_up = chess("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        let key = |pos: &Chess, colour| pieces_key(pos.board(), colour);
        assert_eq!(key(&start, Color::White), key(&pawn_up, Color::White));
        assert_ne!(key(&start, Color::White), key(&knight_out, Color::White));
        assert_eq!(key(&start, Color::Black), key(&knight_out, Color::Black));
        // A knight and a bishop swapped is another placement.
        let swapped = chess("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RBNQKNBR w KQkq - 0 1");
        assert_ne!(key(&start, Color::White), key(&swapped, Color::White));
    }

    #[test]
    fn learns_towards_search_results_and_stays_bounded() {
        let mut c = Correction::default();
        let pos = chess("4k3/8/8/8/4P3/8/8/4K3 w - - 0 1");
        assert_eq!(c.corrected(Slots::of(&pos), 30), 30);
        for _ in 0..200 {
            c.learn(Slots::of(&pos), 10, 30, 80);
        }
        // Every entry learns 50; the correction is their weighted sum.
        let weights = correction_pawn_pct() + 2 * correction_nonpawn_pct();
        let expected = 30 + 50 * weights / 100;
        let corrected = c.corrected(Slots::of(&pos), 30);
        let near = expected - 5..=expected;
        assert!(near.contains(&corrected), "{corrected}");
        for _ in 0..2000 {
            c.learn(Slots::of(&pos), 20, 0, 10_000);
        }
        // Integer blending stops a step short of the limit; it never passes it.
        let saturated = c.corrected(Slots::of(&pos), 0);
        let most = correction_limit() * weights / 100;
        assert!((most - 2..=most).contains(&saturated), "{saturated}");
        // The other side to move has its own entry.
        let black = chess("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1");
        assert_eq!(c.corrected(Slots::of(&black), 0), 0);
    }
}
