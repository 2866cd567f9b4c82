//! A net's evaluation scale: how far from 0 its scores run over a set of positions, and the
//! same net with every score scaled by one factor.
//!
//! A net trained with the games' results in its target (`train --wdl`) scores the openings
//! of a book further from 0 than one trained on search scores alone, while the search's
//! margins are set in the centipawns of the nets they were tuned with. A net's file gives its
//! centipawns per output unit (the trainer writes [`SCALE`]); another value there scales
//! every evaluation by the same factor, exactly, and leaves the weights, the shape and the
//! speed as they are.

use std::fmt;

use shakmaty::Chess;

use super::Network;
use super::architecture::{SCALE, SCALE_RANGE};
use super::evaluate_position;

/// A factor that would take a net's centipawns per output unit outside [`SCALE_RANGE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScaleError {
    /// The factor asked for, in percent.
    pub percent: u32,
    /// The net's centipawns per output unit before.
    pub scale: i32,
}

impl fmt::Display for ScaleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a scale of {}% would take the net's {} cp per output unit outside {}..={}",
            self.percent,
            self.scale,
            SCALE_RANGE.start(),
            SCALE_RANGE.end()
        )
    }
}

impl std::error::Error for ScaleError {}

impl Network {
    /// This net with every evaluation multiplied by `percent` / 100: its centipawns per
    /// output unit multiplied by it and rounded to the nearest (so exact when the product
    /// is whole, as 80% of the trainer's 185 is: 148). The weights, the shape and the file
    /// format stay (a format 2 net, which has one scale, becomes format 3); the checksum
    /// changes unless the scale does not.
    ///
    /// ```
    /// use rookery::engine::eval::nnue::{default_network, evaluate_position};
    ///
    /// let net = default_network();
    /// let scaled = net.with_scale_percent(80).unwrap();
    /// assert_eq!(scaled.scale(), net.scale() * 4 / 5);
    /// let pos = shakmaty::Chess::default();
    /// let (full, less) = (evaluate_position(&net, &pos), evaluate_position(&scaled, &pos));
    /// assert!((f64::from(less) - 0.8 * f64::from(full)).abs() <= 1.0, "{full} gave {less}");
    /// ```
    pub fn with_scale_percent(&self, percent: u32) -> Result<Network, ScaleError> {
        let refused = ScaleError {
            percent,
            scale: self.scale,
        };
        let product = i64::from(self.scale) * i64::from(percent);
        let scale = i32::try_from((product + 50) / 100).map_err(|_| refused)?;
        if !SCALE_RANGE.contains(&scale) {
            return Err(refused);
        }
        let mut scaled = self.clone();
        scaled.scale = scale;
        if scale != SCALE {
            scaled.format = scaled.format.max(3);
        }
        Ok(scaled)
    }
}

/// The mean absolute evaluation of `net` over `positions`, in the net's centipawns (as
/// [`evaluate_position`] gives them, before play scales them by material and the fifty-move
/// counter); `None` for no positions.
pub fn mean_absolute_evaluation(net: &Network, positions: &[Chess]) -> Option<f64> {
    if positions.is_empty() {
        return None;
    }
    let total: f64 = positions
        .iter()
        .map(|pos| f64::from(evaluate_position(net, pos).abs()))
        .sum();
    Some(total / positions.len() as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::eval::nnue::{Architecture, default_network};
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    fn positions() -> Vec<Chess> {
        [
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "8/5k2/8/8/8/3K4/R7/8 w - - 0 80",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "4r1k1/pp3ppp/8/3q4/8/1P3Q2/P4PPP/4R1K1 b - - 0 25",
        ]
        .iter()
        .map(|fen| {
            fen.parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap()
        })
        .collect()
    }

    #[test]
    fn every_evaluation_scales_by_the_factor() {
        let net = default_network();
        for percent in [50, 80, 120] {
            let scaled = net.with_scale_percent(percent).unwrap();
            assert_eq!(scaled.scale(), (net.scale() * percent as i32 + 50) / 100);
            // The factor as the rounded scale gives it (exact at some percentages of the
            // built-in net's scale, not at all of them: 50% of 185 is 93).
            let factor = f64::from(scaled.scale()) / f64::from(net.scale());
            for pos in positions() {
                let before = f64::from(evaluate_position(&net, &pos));
                let after = f64::from(evaluate_position(&scaled, &pos));
                // The engine divides once, rounding toward 0: within a centipawn.
                let expected = before * factor;
                assert!(
                    (after - expected).abs() <= 1.0,
                    "{percent}%: {before} gave {after}"
                );
            }
            let mean = mean_absolute_evaluation(&scaled, &positions()).unwrap();
            let full = mean_absolute_evaluation(&net, &positions()).unwrap();
            assert!((mean / full - f64::from(percent) / 100.0).abs() < 0.02);
        }
    }

    #[test]
    fn the_scale_is_kept_in_the_file_and_a_hundred_percent_changes_nothing() {
        let net = default_network();
        assert_eq!(net.scale(), SCALE);
        assert_eq!(
            net.with_scale_percent(100).unwrap().to_bytes(),
            net.to_bytes()
        );
        let scaled = net.with_scale_percent(80).unwrap();
        assert_ne!(scaled.checksum(), net.checksum());
        assert_eq!(scaled.feature_weights(), net.feature_weights());
        assert_eq!(scaled.output_weights(), net.output_weights());
        assert_eq!(scaled.format(), net.format());
        let read = Network::from_bytes(&scaled.to_bytes()).unwrap();
        assert_eq!((read.scale(), read.checksum()), (148, scaled.checksum()));
        // Scaled back, it is the net it was.
        let back = read.with_scale_percent(125).unwrap();
        assert_eq!(back.to_bytes(), net.to_bytes());
    }

    #[test]
    fn a_format_2_net_scaled_is_written_in_format_3() {
        let gen3 = include_bytes!("../../../../tests/data/gen3.nnue");
        let net = Network::from_bytes(gen3).unwrap();
        assert_eq!(net.format(), 2);
        let scaled = net.with_scale_percent(90).unwrap();
        assert_eq!(scaled.format(), 3);
        let bytes = scaled.to_bytes();
        assert_eq!(bytes.len(), gen3.len() + 12, "format 3's longer header");
        assert_eq!(&bytes[24..28], &167u32.to_le_bytes());
        assert_eq!(Network::from_bytes(&bytes).unwrap().scale(), 167);
    }

    #[test]
    fn factors_that_leave_the_range_are_refused() {
        let net = Network::zeroed(Architecture::default());
        for percent in [0, 8, 554, u32::MAX] {
            assert_eq!(
                net.with_scale_percent(percent).unwrap_err(),
                ScaleError {
                    percent,
                    scale: SCALE
                },
                "{percent}"
            );
        }
        assert_eq!(net.with_scale_percent(9).unwrap().scale(), 17);
        assert_eq!(net.with_scale_percent(553).unwrap().scale(), 1023);
    }

    #[test]
    fn no_positions_have_no_mean() {
        assert_eq!(mean_absolute_evaluation(&default_network(), &[]), None);
    }
}
