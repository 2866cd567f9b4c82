//! The score the search reads: the evaluator's, scaled down as material leaves the board
//! and as the fifty-move counter runs toward a draw. Both factors are 1 at their tunables'
//! value 0.

use shakmaty::{Board, Chess, Position as _};

use crate::chess::material::PieceValues;
use crate::engine::params::{
    eval_fifty_move_damping_pct, eval_material_scale_pct, see_bishop, see_knight, see_queen,
    see_rook,
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
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the processor has POPCNT, checked just above.
        return unsafe { scaled_with_popcnt(raw, pos) };
    }
    scaled_by(
        raw,
        pos,
        eval_material_scale_pct(),
        eval_fifty_move_damping_pct(),
    )
}

/// [`scaled`] compiled with the POPCNT instruction, the tunables' strengths folded in: the
/// search scales every static evaluation, and as one call this costs fewer instructions
/// than [`scaled_by`] calling [`PieceValues::on`] (which counts with POPCNT too).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn scaled_with_popcnt(raw: i32, pos: &Chess) -> i32 {
    scale(
        raw,
        pos,
        eval_material_scale_pct(),
        eval_fifty_move_damping_pct(),
        PieceValues::counted_on,
    )
}

/// `raw` times `1 - material_pct/100 x (material missing from the start position's) /
/// (start position's)`, then times `1 - fifty_pct/100 x halfmove clock / 100` (the clock
/// counted up to 100).
pub fn scaled_by(raw: i32, pos: &Chess, material_pct: i32, fifty_pct: i32) -> i32 {
    scale(raw, pos, material_pct, fifty_pct, PieceValues::on)
}

/// [`scaled_by`], the material on the board counted by `material`.
#[inline(always)]
fn scale(
    raw: i32,
    pos: &Chess,
    material_pct: i32,
    fifty_pct: i32,
    material: impl FnOnce(&PieceValues, &Board) -> i64,
) -> i32 {
    let mut score = i64::from(raw);
    if material_pct != 0 {
        let values = exchange_values();
        let full = values.at_start();
        let missing = (full - material(&values, pos.board())).max(0);
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
