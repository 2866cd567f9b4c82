//! The trainer's model: a net of any [`Architecture`] in `f32`, its forward pass, its
//! gradient, and its quantisation to the engine's [`Network`].
//!
//! The forward pass is the engine's inference without the rounding: each side's inputs
//! (mirrored a-h under king mirroring while that side's king is on files e-h) through the
//! shared feature transformer, the activation (`clamp(x, 0, 1)`, squared for SCReLU), then
//! the output weights of the bucket the number of pieces chooses, the side to move's first,
//! and that bucket's bias. The output `o` is in units of [`SCALE`] centipawns.

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use shakmaty::{Color, Role, Square};

use super::dataset::{Sample, other_side, sigmoid};
use crate::engine::eval::nnue::architecture::{QA, SCALE, SCRELU_MAX_WEIGHT};
use crate::engine::eval::nnue::{Activation, Architecture, INPUTS, Network, feature};

/// Largest weight magnitude, kept by clipping after each step: a quantised CReLU output
/// weight (x4096) stays within `i16`, and 32 feature rows plus a bias (x`QA`) too.
pub const WEIGHT_CLIP: f32 = 1.98;
/// Largest SCReLU output weight: quantised (x64) it stays within the kernel's bound of
/// [`SCRELU_MAX_WEIGHT`] (1.98 x 64 = 126.7, rounded to 127).
pub const SCRELU_OUTPUT_CLIP: f32 = 1.98;

/// Where each parameter block starts in a model's flat parameter vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Feature transformer weights: a row of `hidden` per input.
    pub w1: usize,
    /// Feature transformer biases.
    pub b1: usize,
    /// Output weights: per bucket, the side to move's `hidden`, then the other side's.
    pub w2: usize,
    /// Output biases, one per bucket.
    pub b2: usize,
    /// Parameters in all.
    pub params: usize,
}

impl Layout {
    /// The layout of a model of `arch`.
    pub fn of(arch: &Architecture) -> Layout {
        let h = arch.hidden;
        let b1 = INPUTS * h;
        let w2 = b1 + h;
        let b2 = w2 + arch.buckets * 2 * h;
        Layout {
            w1: 0,
            b1,
            w2,
            b2,
            params: b2 + arch.buckets,
        }
    }
}

/// The network's parameters in `f32`, as one flat vector (see [`Layout`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// The shape.
    pub arch: Architecture,
    /// Every parameter.
    pub params: Vec<f32>,
}

/// One sample's inputs as the model sees them: each side's input rows and the bucket.
struct Inputs {
    ours: [u16; 32],
    theirs: [u16; 32],
    count: usize,
    bucket: usize,
}

/// The input index of the side to move's king on a1, and of the other side's.
fn king_rows() -> (u16, u16) {
    let at_a1 = |color| feature(Color::White, Role::King.of(color), Square::A1) as u16;
    (at_a1(Color::White), at_a1(Color::Black))
}

impl Model {
    /// The default architecture ([`Architecture::default`]) with small random weights.
    pub fn random(seed: u64) -> Model {
        Model::new(Architecture::default(), seed)
    }

    /// A model of `arch` with small random weights from `seed`.
    pub fn new(arch: Architecture, seed: u64) -> Model {
        let layout = Layout::of(&arch);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut params = vec![0.0; layout.params];
        for w in &mut params[layout.w1..layout.b1] {
            *w = rng.random_range(-0.1..0.1);
        }
        for b in &mut params[layout.b1..layout.w2] {
            *b = rng.random_range(0.0..0.2);
        }
        let output = 1.0 / (arch.hidden as f32).sqrt();
        for w in &mut params[layout.w2..layout.b2] {
            *w = rng.random_range(-output..output);
        }
        Model { arch, params }
    }

    /// The float model a quantised net stands for: each weight divided by the scale it was
    /// quantised with, so that quantising it again gives `net` back. Training can go on
    /// from a net whose checkpoint is gone.
    pub fn from_network(net: &Network) -> Model {
        let arch = *net.architecture();
        let layout = Layout::of(&arch);
        let qb = arch.activation.qb();
        let mut params = vec![0.0; layout.params];
        let blocks: [(usize, &[i16], i32); 3] = [
            (layout.w1, net.feature_weights(), QA),
            (layout.b1, net.feature_bias(), QA),
            (layout.w2, net.output_weights(), qb),
        ];
        for (start, values, scale) in blocks {
            for (p, &v) in params[start..].iter_mut().zip(values) {
                *p = f32::from(v) / scale as f32;
            }
        }
        for (p, &b) in params[layout.b2..].iter_mut().zip(net.output_bias()) {
            *p = b as f32 / (QA * qb) as f32;
        }
        Model { arch, params }
    }

    /// Where its parameter blocks are.
    pub fn layout(&self) -> Layout {
        Layout::of(&self.arch)
    }

    /// Each side's input rows for a sample, mirrored as the engine mirrors them.
    #[inline]
    fn inputs(&self, sample: &Sample) -> Inputs {
        let (mut mirror_ours, mut mirror_theirs) = (0, 0);
        if self.arch.king_mirror {
            let (own_king, enemy_king) = king_rows();
            let mirror = |f: u16| if f & 7 >= 4 { 7 } else { 0 };
            for &f in sample.ours() {
                // A king's row is its role's block plus its square, whose low bits are the
                // file: the same file from either side.
                if (own_king..own_king + 64).contains(&f) {
                    mirror_ours = mirror(f);
                } else if (enemy_king..enemy_king + 64).contains(&f) {
                    mirror_theirs = mirror(f);
                }
            }
        }
        let mut inputs = Inputs {
            ours: [0; 32],
            theirs: [0; 32],
            count: sample.ours().len(),
            bucket: self.arch.bucket(usize::from(sample.count)),
        };
        for (i, &f) in sample.ours().iter().enumerate() {
            inputs.ours[i] = f ^ mirror_ours;
            inputs.theirs[i] = other_side(f) ^ mirror_theirs;
        }
        inputs
    }

    /// Both sides' feature-transformer sums (`hidden` each, the side to move's first).
    #[inline]
    fn accumulate(&self, inputs: &Inputs, acc: &mut [f32]) {
        let h = self.arch.hidden;
        let layout = self.layout();
        let bias = &self.params[layout.b1..layout.w2];
        let (ours, theirs) = acc.split_at_mut(h);
        ours.copy_from_slice(bias);
        theirs.copy_from_slice(bias);
        let row = |f: u16| &self.params[layout.w1 + usize::from(f) * h..][..h];
        for i in 0..inputs.count {
            for (a, w) in ours.iter_mut().zip(row(inputs.ours[i])) {
                *a += w;
            }
            for (a, w) in theirs.iter_mut().zip(row(inputs.theirs[i])) {
                *a += w;
            }
        }
    }

    /// The activation of a sum, and its derivative.
    #[inline(always)]
    fn activate(&self, x: f32) -> (f32, f32) {
        let a = x.clamp(0.0, 1.0);
        let inside = x > 0.0 && x < 1.0;
        match self.arch.activation {
            Activation::CReLU => (a, if inside { 1.0 } else { 0.0 }),
            Activation::SCReLU => (a * a, if inside { 2.0 * a } else { 0.0 }),
        }
    }

    /// The output weights of `bucket`, both sides.
    #[inline]
    fn output_weights(&self, bucket: usize) -> &[f32] {
        let h2 = 2 * self.arch.hidden;
        &self.params[self.layout().w2 + bucket * h2..][..h2]
    }

    /// The output `o` (units of [`SCALE`] centipawns) for a sample.
    pub fn forward(&self, sample: &Sample) -> f32 {
        let inputs = self.inputs(sample);
        let mut acc = vec![0.0; 2 * self.arch.hidden];
        self.accumulate(&inputs, &mut acc);
        self.output(&acc, inputs.bucket)
    }

    #[inline]
    fn output(&self, acc: &[f32], bucket: usize) -> f32 {
        let sum: f32 = acc
            .iter()
            .zip(self.output_weights(bucket))
            .map(|(&x, w)| self.activate(x).0 * w)
            .sum();
        self.params[self.layout().b2 + bucket] + sum
    }

    /// The sample's loss against its target.
    pub fn loss(&self, sample: &Sample, wdl: f32) -> f32 {
        let p = sigmoid(self.forward(sample));
        let t = sample.target(wdl, SCALE as f32);
        (p - t) * (p - t)
    }

    /// Adds the sample's loss gradient to `grad` and returns its loss.
    pub fn backward(&self, sample: &Sample, wdl: f32, grad: &mut [f32]) -> f32 {
        let h = self.arch.hidden;
        let layout = self.layout();
        let inputs = self.inputs(sample);
        let mut acc = vec![0.0; 4 * h];
        let (acc, g_acc) = acc.split_at_mut(2 * h);
        self.accumulate(&inputs, acc);
        let p = sigmoid(self.output(acc, inputs.bucket));
        let t = sample.target(wdl, SCALE as f32);
        let g = 2.0 * (p - t) * p * (1.0 - p);
        grad[layout.b2 + inputs.bucket] += g;
        let w = self.output_weights(inputs.bucket);
        let gw = &mut grad[layout.w2 + inputs.bucket * 2 * h..][..2 * h];
        for i in 0..2 * h {
            let (a, slope) = self.activate(acc[i]);
            gw[i] += g * a;
            g_acc[i] = g * w[i] * slope;
        }
        let (g_ours, g_theirs) = g_acc.split_at(h);
        for (b, (o, t)) in grad[layout.b1..layout.w2]
            .iter_mut()
            .zip(g_ours.iter().zip(g_theirs))
        {
            *b += o + t;
        }
        for i in 0..inputs.count {
            for (side, g_side) in [(inputs.ours[i], g_ours), (inputs.theirs[i], g_theirs)] {
                let row = &mut grad[layout.w1 + usize::from(side) * h..][..h];
                for (r, g) in row.iter_mut().zip(g_side) {
                    *r += g;
                }
            }
        }
        (p - t) * (p - t)
    }

    /// Clips every weight (not the output biases) to +/-[`WEIGHT_CLIP`], a SCReLU net's
    /// output weights to +/-[`SCRELU_OUTPUT_CLIP`].
    pub fn clip(&mut self) {
        let layout = self.layout();
        let output = match self.arch.activation {
            Activation::CReLU => WEIGHT_CLIP,
            Activation::SCReLU => SCRELU_OUTPUT_CLIP,
        };
        let blocks = [
            (layout.w1..layout.w2, WEIGHT_CLIP),
            (layout.w2..layout.b2, output),
        ];
        for (block, clip) in blocks {
            for p in &mut self.params[block] {
                *p = p.clamp(-clip, clip);
            }
        }
    }

    /// How many output weights sit at their clip, of how many: a clip that binds often
    /// limits what the net can say.
    pub fn output_weights_at_clip(&self) -> (usize, usize) {
        let layout = self.layout();
        let clip = match self.arch.activation {
            Activation::CReLU => WEIGHT_CLIP,
            Activation::SCReLU => SCRELU_OUTPUT_CLIP,
        };
        let weights = &self.params[layout.w2..layout.b2];
        let at_clip = weights.iter().filter(|w| w.abs() >= clip).count();
        (at_clip, weights.len())
    }

    /// The quantised net, in format 3.
    pub fn quantise(&self) -> Network {
        let layout = self.layout();
        let qb = self.arch.activation.qb();
        let limit = match self.arch.activation {
            Activation::CReLU => f32::from(i16::MAX),
            Activation::SCReLU => f32::from(SCRELU_MAX_WEIGHT),
        };
        let q =
            |x: f32, scale: i32, limit: f32| (x * scale as f32).round().clamp(-limit, limit) as i16;
        let fill = |values: &mut [i16], start: usize, scale: i32, limit: f32| {
            for (v, &p) in values.iter_mut().zip(&self.params[start..]) {
                *v = q(p, scale, limit);
            }
        };
        let mut net = Network::zeroed(self.arch);
        let wide = f32::from(i16::MAX);
        fill(net.feature_weights_mut(), layout.w1, QA, wide);
        fill(net.feature_bias_mut(), layout.b1, QA, wide);
        fill(net.output_weights_mut(), layout.w2, qb, limit);
        for (b, &p) in net
            .output_bias_mut()
            .iter_mut()
            .zip(&self.params[layout.b2..])
        {
            *b = (p * (QA * qb) as f32).round() as i32;
        }
        net
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::learn::data::record::{GameResult, Record};
    use shakmaty::{Chess, Position};

    /// The sample of a position given as FEN.
    pub(crate) fn sample_of(fen: &str, score: i16, result: GameResult) -> Sample {
        let pos: Chess = fen
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap();
        Sample::from_record(&Record {
            board: pos.board().clone(),
            turn: pos.turn(),
            score,
            result,
            halfmoves: 0,
            fullmoves: 1,
        })
    }

    /// The positions of [`samples`].
    pub(crate) const FENS: [&str; 5] = [
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "4k3/8/8/8/8/8/4P3/4K2Q w - - 0 1",
        "4k3/8/8/8/8/8/4P3/4K2Q b - - 0 1",
        "4k2q/4p3/8/8/8/8/8/4K3 w - - 0 1",
        "r3k3/8/8/8/8/8/8/4K3 w - - 0 1",
    ];

    /// Five small positions with scores and results: a queen up wins, a rook down loses.
    pub(crate) fn samples() -> Vec<Sample> {
        let labels = [
            (-20, GameResult::Draw),
            (900, GameResult::WhiteWon),
            (-900, GameResult::WhiteWon),
            (-900, GameResult::BlackWon),
            (-500, GameResult::BlackWon),
        ];
        FENS.iter()
            .zip(labels)
            .map(|(fen, (score, result))| sample_of(fen, score, result))
            .collect()
    }

    fn architectures() -> Vec<Architecture> {
        Architecture::every_kind(32)
    }

    #[test]
    fn gradient_matches_finite_differences() {
        let data = samples();
        for arch in architectures().into_iter().chain([Architecture::default()]) {
            let model = Model::new(arch, 11);
            let layout = model.layout();
            let h = arch.hidden;
            // Black to move, so the side to move's rows and the other side's differ from
            // White's.
            let sample = &data[2];
            let mut grad = vec![0.0; layout.params];
            model.backward(sample, 0.3, &mut grad);
            let inputs = model.inputs(sample);
            // Every hidden unit of a feature row the sample uses from each side, every
            // bias, every output weight, the output biases.
            let (f, g) = (usize::from(inputs.ours[0]), usize::from(inputs.theirs[1]));
            let rows = (f * h..(f + 1) * h).chain(g * h..(g + 1) * h);
            // The loss is an f32 near 0.25: steps much below 1e-2 drown in its rounding.
            let eps = 1e-2f64;
            // Units whose sum lies within a step of the clip's corners (0 and 1) are left
            // out: there the loss has a kink and a finite difference says nothing.
            let mut acc = vec![0.0; 2 * h];
            model.accumulate(&inputs, &mut acc);
            let near_kink = |i: usize| {
                let a = f64::from(acc[i]);
                a.abs() < 4.0 * eps || (a - 1.0).abs() < 4.0 * eps
            };
            // (A row can feed both sides: here the kings' rows do.)
            let smooth = |i: usize| {
                i >= layout.w2 || {
                    let unit = i % h;
                    !near_kink(unit) && !near_kink(h + unit)
                }
            };
            // The output weights of the sample's bucket; the other buckets' get nothing.
            let bucket = layout.w2 + inputs.bucket * 2 * h..layout.w2 + (inputs.bucket + 1) * 2 * h;
            assert!(
                (layout.w2..layout.b2)
                    .filter(|i| !bucket.contains(i))
                    .all(|i| grad[i] == 0.0),
                "{arch}: another bucket's weights have a gradient"
            );
            let checked: Vec<usize> = rows
                .chain(layout.b1..layout.w2)
                .chain(bucket)
                .chain(layout.b2..layout.params)
                .filter(|&i| smooth(i))
                .collect();
            let mut nonzero = 0;
            for &i in &checked {
                let loss_at = |delta: f64| {
                    let mut m = model.clone();
                    m.params[i] = (f64::from(m.params[i]) + delta) as f32;
                    f64::from(m.loss(sample, 0.3))
                };
                let numeric = (loss_at(eps) - loss_at(-eps)) / (2.0 * eps);
                let analytic = f64::from(grad[i]);
                // The f32 loss rounds at about 1e-7, which a step of 2e-2 turns into about
                // 5e-6 of noise in the numeric gradient.
                let slack = 1e-5;
                assert!(
                    (numeric - analytic).abs() <= 3e-2 * numeric.abs() + slack,
                    "{arch}: parameter {i}: numeric {numeric}, analytic {analytic}"
                );
                nonzero += usize::from(analytic.abs() > 1e-5);
            }
            assert!(
                nonzero > checked.len() / 3,
                "{arch}: {nonzero} of {} gradients non-zero",
                checked.len()
            );
        }
    }

    #[test]
    fn a_net_read_back_as_a_model_quantises_to_itself() {
        for activation in [Activation::CReLU, Activation::SCReLU] {
            let arch = Architecture {
                activation,
                buckets: 8,
                ..Architecture::default()
            };
            let mut model = Model::new(arch, 7);
            model.clip();
            let net = model.quantise();
            let again = Model::from_network(&net);
            assert_eq!(again.arch, arch);
            assert_eq!(again.quantise().to_bytes(), net.to_bytes(), "{arch}");
        }
    }

    #[test]
    fn clipped_weights_fit_their_quantised_type() {
        assert!(WEIGHT_CLIP * Activation::CReLU.qb() as f32 <= f32::from(i16::MAX));
        assert!(
            (SCRELU_OUTPUT_CLIP * Activation::SCReLU.qb() as f32).round()
                <= f32::from(SCRELU_MAX_WEIGHT)
        );
        assert!((32.0 * WEIGHT_CLIP + WEIGHT_CLIP) * QA as f32 <= f32::from(i16::MAX));
        // A clipped SCReLU model quantises within the kernel's bound, and the file loads.
        let arch = Architecture {
            activation: Activation::SCReLU,
            ..Architecture::default()
        };
        let mut model = Model::new(arch, 1);
        let layout = model.layout();
        for (i, w) in model.params[layout.w2..layout.b2].iter_mut().enumerate() {
            *w = if i % 2 == 0 { 5.0 } else { -5.0 };
        }
        model.clip();
        let net = model.quantise();
        assert!(net.output_weights().iter().all(|w| w.abs() == 127));
        assert!(Network::from_bytes(&net.to_bytes()).is_ok());
    }

    #[test]
    fn king_mirroring_sees_the_mirrored_board_alike() {
        let data = samples();
        let arch = Architecture {
            king_mirror: true,
            hidden: 32,
            ..Architecture::default()
        };
        let model = Model::new(arch, 4);
        for sample in &data {
            let a = model.forward(sample);
            let b = model.forward(&sample.files_mirrored());
            assert!((a - b).abs() < 1e-5, "{a} {b}");
        }
        // Without it, the mirror is another position.
        let plain = Model::new(
            Architecture {
                king_mirror: false,
                ..arch
            },
            4,
        );
        assert!(
            data.iter()
                .any(|s| (plain.forward(s) - plain.forward(&s.files_mirrored())).abs() > 1e-3)
        );
    }

    #[test]
    fn quantised_net_follows_the_float_model() {
        use crate::engine::eval::nnue::evaluate_position;
        let data = samples();
        for arch in architectures() {
            let model = Model::new(arch, 9);
            let net = model.quantise();
            for (fen, sample) in FENS.iter().zip(&data) {
                let pos: Chess = fen
                    .parse::<shakmaty::fen::Fen>()
                    .unwrap()
                    .into_position(shakmaty::CastlingMode::Standard)
                    .unwrap();
                let quantised = evaluate_position(&net, &pos);
                let float = model.forward(sample) * SCALE as f32;
                // Feature weights are kept in steps of 1/255, output weights of 1/4096
                // (CReLU) or 1/128 (SCReLU).
                let slack = match arch.activation {
                    Activation::CReLU => 0.01 * float.abs() + 2.0,
                    Activation::SCReLU => 0.02 * float.abs() + 5.0,
                };
                assert!(
                    (quantised as f32 - float).abs() <= slack,
                    "{arch}, {fen}: quantised {quantised}, float {float}"
                );
            }
        }
    }
}
