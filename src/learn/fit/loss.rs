//! The training loss, on plain numbers: what the model's output is measured against, and how
//! the measure moves with the output.
//!
//! - **Output.** `o`, in units of [`SCALE`](crate::engine::eval::nnue::architecture::SCALE)
//!   centipawns for the side to move; its expected result is `sigmoid(o)`.
//! - **Target.** `t = wdl x result + (1 - wdl) x sigmoid(score / scale)`: the game's result
//!   for the side to move (0 loss, 1/2 draw, 1 win) blended with the expected result of
//!   the search's score, `wdl` the weight of the result ([`target`]).
//! - **Loss.** `(sigmoid(o) - t)^2` ([`loss`]), and its slope along the output,
//!   `2 (sigmoid(o) - t) sigmoid(o) (1 - sigmoid(o))` ([`loss_and_slope`]), which the
//!   model's backward pass carries to every weight.
//!
//! Changing the loss is a change here; the finite-difference test of the model's gradient
//! checks that the slope still belongs to the loss.

/// The logistic function: the expected result of an output or a scaled score.
///
/// ```
/// use rookery::learn::fit::loss::sigmoid;
/// assert_eq!(sigmoid(0.0), 0.5);
/// assert!((sigmoid(2.0) + sigmoid(-2.0) - 1.0).abs() < 1e-6);
/// ```
#[inline(always)]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The expected result of a game given as 0 (loss), 1 (draw) or 2 (win) for the side to
/// move: 0, 1/2 or 1.
#[inline(always)]
pub fn result_target(result: u8) -> f32 {
    f32::from(result) / 2.0
}

/// The training target of a position: `wdl` parts the game's result (0 loss, 1 draw, 2 win
/// for the side to move), the rest the expected result of the search's `score`
/// (centipawns for the side to move) at `scale` centipawns per unit of the sigmoid.
///
/// ```
/// use rookery::learn::fit::loss::target;
/// // A level score in a won game: halfway between 1/2 and 1 at wdl 0.5.
/// assert_eq!(target(0, 2, 0.5, 185.0), 0.75);
/// assert_eq!(target(0, 2, 0.0, 185.0), 0.5);
/// assert_eq!(target(400, 0, 1.0, 185.0), 0.0);
/// ```
#[inline(always)]
pub fn target(score: i16, result: u8, wdl: f32, scale: f32) -> f32 {
    let score = sigmoid(f32::from(score) / scale);
    wdl * result_target(result) + (1.0 - wdl) * score
}

/// The loss of an output `o` against a target `t`: `(sigmoid(o) - t)^2`.
#[inline(always)]
pub fn loss(output: f32, target: f32) -> f32 {
    let d = sigmoid(output) - target;
    d * d
}

/// The loss of `output` against `target` ([`loss`]), and its slope along the output.
///
/// ```
/// use rookery::learn::fit::loss::{loss, loss_and_slope};
/// let (l, slope) = loss_and_slope(0.3, 0.9);
/// assert_eq!(l, loss(0.3, 0.9));
/// let step = 1e-2;
/// let numeric = (loss(0.3 + step, 0.9) - loss(0.3 - step, 0.9)) / (2.0 * step);
/// assert!((numeric - slope).abs() < 1e-4, "{numeric} {slope}");
/// ```
#[inline(always)]
pub fn loss_and_slope(output: f32, target: f32) -> (f32, f32) {
    let p = sigmoid(output);
    let d = p - target;
    (d * d, 2.0 * d * p * (1.0 - p))
}
