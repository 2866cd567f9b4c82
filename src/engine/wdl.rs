//! What a score means for the game: the win/draw/loss model fitted to Rookery's own games,
//! and the normalised centipawns UCI reports.
//!
//! The model is the one Stockfish publishes. With `m` the material of both sides (pawns 1,
//! knights and bishops 3, rooks 5, queens 9), clamped to 17..78 and divided by 58, and `v`
//! the search's score in internal units from the side to move's view:
//!
//! ```text
//! a(m) = ((A[0] m + A[1]) m + A[2]) m + A[3]      b(m) the same with B
//! P(win)  = 1 / (1 + exp((a - v) / b))
//! P(loss) = 1 / (1 + exp((a + v) / b))
//! P(draw) = 1 - P(win) - P(loss)
//! ```
//!
//! `a(m)` is the internal score at which a win is as likely as not, so the normalised score
//! `v * 100 / a(m)` reads the same at every material: 100 cp is a 50% chance to win.
//! Mate scores and tablebase verdicts (beyond [`TB_BOUND`]) are certain and keep their
//! value. The search decides in internal units; only what is reported is normalised.
//! `tools/lab/wdl_fit.py` fits `A` and `B`; `docs/uci.md` says how they were fitted.

use shakmaty::Board;

use super::score::TB_BOUND;
use crate::chess::material::PieceValues;

// Fitted by `tools/lab/wdl_fit.py` to 400 self-play games at 5+0.05 (docs/uci.md).
/// a(m)'s coefficients, highest power first (internal units).
const A: [f64; 4] = [-183.129, 662.249, -761.144, 361.177];
/// b(m)'s coefficients, highest power first (internal units).
const B: [f64; 4] = [92.787, -132.856, 42.636, 62.063];

/// The piece values of the model's material count, in pawns.
const PAWN_UNITS: PieceValues = PieceValues {
    pawn: 1,
    knight: 3,
    bishop: 3,
    rook: 5,
    queen: 9,
};

/// Less material than this is read as this much.
const MATERIAL_MIN: i32 = 17;
/// More material than this (after promotions) is read as this much.
const MATERIAL_MAX: i32 = 78;
/// The material at which the model's `m` is 1.
const MATERIAL_UNIT: f64 = 58.0;

/// Material of both sides: pawns 1, knights and bishops 3, rooks 5, queens 9 (78 at the
/// start).
///
/// ```
/// use rookery::engine::wdl::material;
/// assert_eq!(material(&shakmaty::Board::new()), 78);
/// ```
pub fn material(board: &Board) -> i32 {
    PAWN_UNITS.on(board) as i32
}

/// The model at one material.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Curve {
    /// `a`: the internal score at which a win is as likely as not, the score reported as
    /// 100 cp.
    pub even: f64,
    /// `b`: the internal score over which the odds of a win grow by a factor of e.
    pub spread: f64,
}

/// The model's curve at `material` (of both sides, as [`material`] counts it).
pub fn curve(material: i32) -> Curve {
    let m = f64::from(material.clamp(MATERIAL_MIN, MATERIAL_MAX)) / MATERIAL_UNIT;
    let cubic = |c: [f64; 4]| ((c[0] * m + c[1]) * m + c[2]) * m + c[3];
    Curve {
        even: cubic(A),
        spread: cubic(B),
    }
}

/// Expected outcome of the internal `score` at `material`, in permille: `[win, draw, loss]`
/// for the side the score is for, summing to 1000. Mate scores and tablebase verdicts are
/// certain.
///
/// ```
/// use rookery::engine::wdl::win_draw_loss;
/// let [win, draw, loss] = win_draw_loss(0, 60);
/// assert_eq!(win, loss);
/// assert_eq!(win + draw + loss, 1000);
/// assert!(win_draw_loss(300, 60)[0] > 500);
/// assert_eq!(win_draw_loss(30_000, 5), [1000, 0, 0]);
/// ```
pub fn win_draw_loss(score: i32, material: i32) -> [u16; 3] {
    if score.abs() >= TB_BOUND {
        return if score > 0 {
            [1000, 0, 0]
        } else {
            [0, 0, 1000]
        };
    }
    let Curve { even, spread } = curve(material);
    let v = f64::from(score);
    let chance = |x: f64| (1000.0 / (1.0 + ((even - x) / spread).exp())).round() as u16;
    // Each rounds to within half a permille, and the two sum to less than 1000 (a positive
    // `even` leaves a draw some chance), so the draw's share is never negative.
    let (win, loss) = (chance(v), chance(-v));
    [win, 1000 - win - loss, loss]
}

/// The internal `score` at `material` as the centipawns UCI reports: 100 is a 50% chance to
/// win, at any material. Mate scores and tablebase verdicts keep their value, and no other
/// score reaches them.
///
/// ```
/// use rookery::engine::wdl::{curve, normalised};
/// let even = curve(60).even.round() as i32;
/// assert_eq!(normalised(even, 60), 100);
/// assert_eq!(normalised(-even, 60), -100);
/// assert_eq!(normalised(30_000, 60), 30_000);
/// ```
pub fn normalised(score: i32, material: i32) -> i32 {
    if score.abs() >= TB_BOUND {
        return score;
    }
    let cp = (f64::from(score) * 100.0 / curve(material).even).round();
    cp.clamp(f64::from(1 - TB_BOUND), f64::from(TB_BOUND - 1)) as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::score::{MATE, MATE_BOUND, MAX_EVAL, TB_WIN};

    /// Materials the model reads differently, and some beyond its clamp.
    const MATERIALS: [i32; 8] = [0, 10, 17, 30, 45, 58, 70, 78];

    #[test]
    fn the_curve_is_positive_at_every_material() {
        // A negative `even` would give draws a negative share, a negative `spread` would
        // make a better score less likely to win.
        for material in MATERIAL_MIN..=MATERIAL_MAX {
            let Curve { even, spread } = curve(material);
            assert!(even > 20.0 && spread > 10.0, "{material}: {even} {spread}");
        }
    }

    #[test]
    fn win_draw_loss_sums_to_1000_and_is_symmetric() {
        for material in MATERIALS {
            for score in (-3000..=3000).step_by(7).chain([MAX_EVAL, -MAX_EVAL]) {
                let [w, d, l] = win_draw_loss(score, material);
                assert_eq!(w + d + l, 1000, "{score} at {material}");
                assert_eq!(win_draw_loss(-score, material), [l, d, w], "{score}");
            }
        }
    }

    #[test]
    fn a_better_score_wins_more_and_loses_less() {
        for material in MATERIALS {
            let mut last = win_draw_loss(-2000, material);
            for score in -1999..=2000 {
                let now = win_draw_loss(score, material);
                assert!(
                    now[0] >= last[0] && now[2] <= last[2],
                    "{score} at {material}"
                );
                last = now;
            }
            assert!(win_draw_loss(-2000, material)[2] > 900, "{material}");
            assert!(win_draw_loss(2000, material)[0] > 900, "{material}");
        }
    }

    #[test]
    fn an_even_score_draws_as_often_as_the_fit_says() {
        // The fit's draw rates at 0 (docs/uci.md): 40% with all the pieces, 55% in the
        // middlegame, 90% with little left.
        for (material, draws) in [(78, 404), (58, 546), (17, 896)] {
            let [w, d, l] = win_draw_loss(0, material);
            assert_eq!(w, l, "{material}");
            assert!(d.abs_diff(draws) <= 5, "{d} at {material}, not {draws}");
        }
    }

    #[test]
    fn mates_and_tablebase_verdicts_are_certain_and_keep_their_value() {
        for score in [TB_WIN, TB_WIN - 5, TB_BOUND, MATE - 3, MATE_BOUND] {
            for material in MATERIALS {
                assert_eq!(win_draw_loss(score, material), [1000, 0, 0]);
                assert_eq!(win_draw_loss(-score, material), [0, 0, 1000]);
                assert_eq!(normalised(score, material), score);
                assert_eq!(normalised(-score, material), -score);
            }
        }
    }

    #[test]
    fn normalised_100_is_an_even_chance_to_win() {
        for material in [17, 30, 45, 58, 70] {
            let even = curve(material).even.round() as i32;
            assert_eq!(normalised(even, material), 100, "{material}");
            assert_eq!(normalised(-even, material), -100, "{material}");
        }
        // Where `a` is small, a unit is more than a centipawn: 100 lies between the scores
        // of the units either side of `a`.
        for material in MATERIALS {
            let even = curve(material).even;
            let (below, above) = (even.floor() as i32, even.ceil() as i32);
            assert!(normalised(below, material) <= 100, "{material}");
            assert!(normalised(above, material) >= 100, "{material}");
            let win = win_draw_loss(even.round() as i32, material)[0];
            assert!(win.abs_diff(500) <= 5, "{win} at {material}");
            assert_eq!(normalised(0, material), 0);
        }
        // Evaluations keep their order and stay below the tablebase range.
        for material in MATERIALS {
            let mut last = normalised(-MAX_EVAL, material);
            assert!(last > -TB_BOUND);
            for score in (-MAX_EVAL + 1..=MAX_EVAL).step_by(13) {
                let now = normalised(score, material);
                assert!(now >= last && now.abs() < TB_BOUND, "{score} at {material}");
                last = now;
            }
        }
    }

    #[test]
    fn material_counts_both_sides() {
        let board: Board = "4k3/pppp4/8/8/8/8/4PP2/RNBQK3".parse().unwrap();
        assert_eq!(material(&board), 4 + 2 + 5 + 3 + 3 + 9);
    }
}
