//! The quantisation error: how far the engine's evaluation with a quantised net (integer
//! weights and integer arithmetic) strays from the float model it was rounded from, on the
//! same positions. The trainer reports it whenever it writes a net.

use std::fmt;

use super::dataset::Sample;
use super::model::Model;
use crate::engine::eval::nnue::architecture::{QA, SCALE};
use crate::engine::eval::nnue::{Network, evaluate_board};
use shakmaty::Color;

/// The engine's evaluation against the model's, in centipawns, over a set of positions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QuantisationError {
    /// Positions compared.
    pub positions: usize,
    /// Mean absolute difference.
    pub mean: f64,
    /// Largest absolute difference.
    pub max: f64,
    /// Mean signed difference (the engine's minus the model's).
    pub bias: f64,
}

impl fmt::Display for QuantisationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "mean {:.2} cp, largest {:.1} cp, mean signed {:+.2} cp over {} positions",
            self.mean, self.max, self.bias, self.positions
        )
    }
}

/// Compares `net`'s evaluation, as the engine computes it, with `model`'s on each sample.
pub fn quantisation_error(model: &Model, net: &Network, samples: &[Sample]) -> QuantisationError {
    let (mut total, mut signed, mut max) = (0.0f64, 0.0f64, 0.0f64);
    for sample in samples {
        let float = f64::from(model.forward(sample)) * f64::from(SCALE);
        let engine = f64::from(evaluate_board(net, &sample.board(), Color::White));
        let error = engine - float;
        total += error.abs();
        signed += error;
        max = max.max(error.abs());
    }
    let n = samples.len().max(1) as f64;
    QuantisationError {
        positions: samples.len(),
        mean: total / n,
        max,
        bias: signed / n,
    }
}

/// Moves `net`'s output biases by `-offset` centipawns (to the nearest step of the bias's
/// scale), so that a quantised net whose mean signed error against its model was `offset`
/// has one of about 0. Rounding the `2 x hidden` output weights leaves the quantised net a
/// few centipawns off its model, by much the same amount in most positions, since the
/// activations they weigh are alike from position to position; the bias takes that back.
pub fn centre_output_bias(net: &mut Network, offset: f64) {
    let steps_per_cp = f64::from(QA * net.architecture().activation.qb()) / f64::from(net.scale());
    let shift = (offset * steps_per_cp).round() as i32;
    for bias in net.output_bias_mut() {
        *bias -= shift;
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position as _};

    use super::*;
    use crate::engine::eval::nnue::default_network;
    use crate::learn::data::record::{GameResult, Record};

    fn samples() -> Vec<Sample> {
        [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R b KQ - 0 8",
            "8/5pk1/6p1/3R4/7P/6P1/r4PK1/8 b - - 0 40",
            "6k1/5ppp/8/8/8/8/1q3PPP/3R2K1 w - - 0 30",
        ]
        .iter()
        .map(|fen| {
            let pos: Chess = fen
                .parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
            Sample::from_record(&Record {
                board: pos.board().clone(),
                turn: pos.turn(),
                score: 0,
                result: GameResult::Draw,
                halfmoves: 0,
                fullmoves: 1,
            })
        })
        .collect()
    }

    #[test]
    fn the_built_in_net_read_as_a_model_is_evaluated_alike() {
        let net = default_network();
        let model = Model::from_network(&net);
        let error = quantisation_error(&model, &net, &samples());
        println!("built-in net against itself as a model: {error}");
        assert_eq!(error.positions, 5);
        // The model holds the net's own rounded weights: what differs is the integer
        // arithmetic of the activation and the output, a few centipawns at most.
        assert!(error.mean < 3.0 && error.max < 8.0, "{error}");
    }

    #[test]
    fn centring_the_output_bias_takes_the_mean_error_back() {
        let net = default_network();
        let model = Model::from_network(&net);
        let before = quantisation_error(&model, &net, &samples());
        let mut shifted = (*net).clone();
        // An offset of 7 cp more, as rounding the output weights can leave.
        centre_output_bias(&mut shifted, -7.0);
        let offset = quantisation_error(&model, &shifted, &samples());
        assert!(
            (offset.bias - before.bias - 7.0).abs() < 1.0,
            "{offset}, {before}"
        );
        centre_output_bias(&mut shifted, offset.bias);
        let centred = quantisation_error(&model, &shifted, &samples());
        assert!(centred.bias.abs() < 1.0, "{centred}");
    }

    #[test]
    fn a_net_other_than_the_models_shows_as_a_large_error() {
        let net = default_network();
        // A model of the same shape with fresh random weights: not what the net was
        // rounded from.
        let stranger = Model::new(*net.architecture(), 3);
        let error = quantisation_error(&stranger, &net, &samples());
        assert!(error.mean > 50.0, "{error}");
    }
}
