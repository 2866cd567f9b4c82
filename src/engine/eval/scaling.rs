//! The score the search reads: the evaluator's, scaled down as material leaves the board
//! and as the fifty-move counter runs toward a draw, and (off in play) for a side ahead with
//! few pawns. Each factor is 1 at its tunable's value 0.

use shakmaty::{Chess, Color, Position as _};

use crate::chess::material::PieceValues;
use crate::engine::params::{
    eval_few_pawns_pct, eval_fifty_move_damping_pct, eval_material_scale_pct, see_bishop,
    see_knight, see_queen, see_rook,
};

/// The piece values material is counted in: a pawn of 100 and the exchange evaluation's
/// pieces.
fn exchange_values() -> PieceValues {
    PieceValues {
        pawn: 100,
        knight: i64::from(see_knight()),
        bishop: i64::from(see_bishop()),
        rook: i64::from(see_rook()),
        queen: i64::from(see_queen()),
    }
}

/// Whether a search reads the evaluator's score scaled, as play does, or as the evaluator
/// gives it.
///
/// Self-play that labels positions for training searches with [`Scaling::Raw`]: a net learns
/// the evaluator's scale from those labels, and play then scales the net's score once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scaling {
    /// Scaled by material and the fifty-move counter ([`scaled`]): how the engine plays.
    #[default]
    Scaled,
    /// The evaluator's score as it is.
    Raw,
}

impl Scaling {
    /// `raw`, the evaluator's score of `pos`, as a search with this scaling reads it.
    #[inline]
    pub fn apply(self, raw: i32, pos: &Chess) -> i32 {
        match self {
            Scaling::Scaled => scaled(raw, pos),
            Scaling::Raw => raw,
        }
    }
}

/// `raw` scaled by the tunables' strengths: see [`scaled_by`].
#[inline]
pub fn scaled(raw: i32, pos: &Chess) -> i32 {
    let score = scaled_by(
        raw,
        pos,
        eval_material_scale_pct(),
        eval_fifty_move_damping_pct(),
    );
    few_pawns_scaled(score, pos, eval_few_pawns_pct())
}

/// `score` (for the side to move) times `1 - strength/100 x (material missing share) x (1 -
/// min(64, 36 + 7 x pawns of the side ahead) / 64)`: a side ahead with fewer than four
/// pawns left converts its lead less often, the more so the emptier the board.
pub fn few_pawns_scaled(score: i32, pos: &Chess, strength: i32) -> i32 {
    if strength == 0 || score == 0 {
        return score;
    }
    let board = pos.board();
    let ahead = if score > 0 {
        pos.turn()
    } else {
        Color::other(pos.turn())
    };
    let pawns = (board.pawns() & board.by_color(ahead)).count() as i64;
    let kept = (36 + 7 * pawns).min(64);
    if kept == 64 {
        return score;
    }
    let values = exchange_values();
    let full = values.at_start();
    let missing = (full - values.on(board)).clamp(0, full);
    let loss = i64::from(strength) * missing * (64 - kept);
    (i64::from(score) * (6400 * full - loss).max(0) / (6400 * full)) as i32
}

/// `raw` times `1 - material_pct/100 x (material missing from the start position's) /
/// (start position's)`, then times `1 - fifty_pct/100 x halfmove clock / 100` (the clock
/// counted up to 100).
pub fn scaled_by(raw: i32, pos: &Chess, material_pct: i32, fifty_pct: i32) -> i32 {
    let mut score = i64::from(raw);
    if material_pct != 0 {
        let values = exchange_values();
        let full = values.at_start();
        let missing = (full - values.on(pos.board())).max(0);
        score = score * (100 * full - i64::from(material_pct) * missing) / (100 * full);
    }
    if fifty_pct != 0 {
        let clock = i64::from(pos.halfmoves().min(100));
        score = score * (10_000 - i64::from(fifty_pct) * clock) / 10_000;
    }
    score as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Position;

    fn chess(fen: &str) -> Chess {
        Position::from_fen(fen, false).unwrap().chess().clone()
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    const ROOK_ENDING: &str = "8/5k2/8/8/8/3K4/R7/8 w - - 0 80";

    #[test]
    fn raw_scaling_leaves_the_score_alone_where_play_scales_it() {
        let pos = chess("8/5k2/8/8/8/3K4/R7/8 w - - 60 80");
        assert_eq!(Scaling::Raw.apply(315, &pos), 315);
        assert_eq!(Scaling::Scaled.apply(315, &pos), scaled(315, &pos));
        assert!(scaled(315, &pos) < 315 / 2);
    }

    #[test]
    fn strengths_of_zero_leave_the_score_alone() {
        for fen in [START, ROOK_ENDING, "8/5k2/8/8/8/3K4/R7/8 w - - 99 80"] {
            assert_eq!(scaled_by(315, &chess(fen), 0, 0), 315, "{fen}");
        }
    }

    #[test]
    fn the_start_position_keeps_its_score() {
        assert_eq!(scaled_by(40, &chess(START), 32, 50), 40);
    }

    #[test]
    fn a_score_shrinks_with_the_material_gone() {
        // A rook of 8,100 centipawns at the start: 7,600 missing, so 1 - 0.32 x 7600/8100.
        let full = exchange_values().at_start();
        let missing = full - i64::from(see_rook());
        let expected = (315 * (100 * full - 32 * missing) / (100 * full)) as i32;
        assert_eq!(scaled_by(315, &chess(ROOK_ENDING), 32, 0), expected);
        assert!(expected < 315 * 3 / 4);
        assert_eq!(scaled_by(-315, &chess(ROOK_ENDING), 32, 0), -expected);
    }

    #[test]
    fn a_side_ahead_with_few_pawns_keeps_less_of_its_score() {
        // White: a rook and one pawn; black: a rook and four pawns.
        let fen = |turn: &str| format!("8/pppp1k2/8/8/8/3K4/R3P3/r7 {turn} - - 0 60");
        let white_to_move = chess(&fen("w"));
        let full = exchange_values().at_start();
        let missing = full - exchange_values().on(white_to_move.board());
        // One pawn: (36 + 7) / 64 kept at full strength, in proportion to the missing share.
        let expected = (300 * (6400 * full - 100 * missing * (64 - 43)) / (6400 * full)) as i32;
        assert_eq!(few_pawns_scaled(300, &white_to_move, 100), expected);
        assert!(expected < 300 * 3 / 4, "{expected}");
        // The same lead read from black's side: white is still the side ahead.
        assert_eq!(few_pawns_scaled(-300, &chess(&fen("b")), 100), -expected);
        // Black ahead, with four pawns: not scaled.
        assert_eq!(few_pawns_scaled(-300, &white_to_move, 100), -300);
        assert_eq!(few_pawns_scaled(300, &chess(&fen("b")), 100), 300);
    }

    #[test]
    fn few_pawns_scaling_leaves_full_boards_and_strength_zero_alone() {
        assert_eq!(few_pawns_scaled(120, &chess(START), 100), 120);
        assert_eq!(few_pawns_scaled(300, &chess(ROOK_ENDING), 0), 300);
        assert_eq!(few_pawns_scaled(0, &chess(ROOK_ENDING), 100), 0);
    }

    #[test]
    fn a_score_shrinks_as_the_fifty_move_counter_runs() {
        let at = |clock: u32| {
            chess(&format!(
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - {clock} 60"
            ))
        };
        assert_eq!(scaled_by(200, &at(0), 0, 50), 200);
        assert_eq!(scaled_by(200, &at(50), 0, 50), 150);
        assert_eq!(scaled_by(200, &at(100), 0, 50), 100);
        assert_eq!(scaled_by(200, &at(150), 0, 50), 100);
    }
}
