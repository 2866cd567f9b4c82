//! The trainer: the perspective net of [`crate::engine::eval::nnue`] in `f32`, fitted with
//! Adam, then quantised to a net file.
//!
//! - **Model.** Each side's 768 inputs go through one shared feature transformer
//!   ([`HIDDEN`] outputs and biases), a clipped ReLU (`clamp(x, 0, 1)`), then one output
//!   weight per activation (the side to move's first) and a bias. The output `o` is in
//!   units of [`SCALE`] centipawns.
//! - **Loss.** `(sigmoid(o) - t)^2`, with the target `t` a blend of the game's result
//!   (weight `wdl`) and `sigmoid(score / SCALE)` of the search's score.
//! - **Optimiser.** Adam on mini-batches; the learning rate falls on a cosine from `lr` to
//!   `lr / 100` over the epochs. Weights are clipped after each step so the quantised net
//!   cannot overflow its `i16` values.
//! - **Threads.** A batch is cut into one slice per thread; each thread sums its own
//!   gradient and the sums are added in thread order, so a run is deterministic for a given
//!   seed and thread count.

use std::f32::consts::PI;

use rand::rngs::ChaCha8Rng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

use super::dataset::{Sample, other_side, sigmoid};
use crate::engine::eval::nnue::network::{QA, QB, SCALE};
use crate::engine::eval::nnue::{HIDDEN, INPUTS, Network};
use crate::hashing::checksum::{FNV_OFFSET, fnv1a_continue};

/// Largest weight magnitude: a quantised output weight (`x QB`) stays within `i16`, and 32
/// feature rows plus a bias (`x QA`) within `i16`.
pub const WEIGHT_CLIP: f32 = 1.98;

/// Where each parameter block starts in the flat parameter vector.
pub const W1: usize = 0;
/// Feature transformer biases.
pub const B1: usize = W1 + INPUTS * HIDDEN;
/// Output weights: side to move's, then the other side's.
pub const W2: usize = B1 + HIDDEN;
/// Output bias.
pub const B2: usize = W2 + 2 * HIDDEN;
/// Parameters in all.
pub const PARAMS: usize = B2 + 1;

/// Training settings.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Passes over the training samples.
    pub epochs: usize,
    /// Samples per Adam step.
    pub batch: usize,
    /// Starting learning rate.
    pub lr: f32,
    /// Weight of the game result in the target (the rest is the search score).
    pub wdl: f32,
    /// Threads that compute gradients.
    pub threads: usize,
    /// Seed of the initial weights and the shuffles.
    pub seed: u64,
}

/// The network's parameters in `f32`, as one flat vector (see [`W1`], [`B1`], [`W2`], [`B2`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// Every parameter.
    pub params: Vec<f32>,
}

impl Model {
    /// Small random weights from `seed`.
    pub fn random(seed: u64) -> Model {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut params = vec![0.0; PARAMS];
        for w in &mut params[W1..B1] {
            *w = rng.random_range(-0.1..0.1);
        }
        for b in &mut params[B1..W2] {
            *b = rng.random_range(0.0..0.2);
        }
        let output = 1.0 / (HIDDEN as f32).sqrt();
        for w in &mut params[W2..B2] {
            *w = rng.random_range(-output..output);
        }
        Model { params }
    }

    /// Both sides' feature-transformer sums for a sample, the side to move's first.
    #[inline]
    fn accumulate(&self, sample: &Sample, acc: &mut [[f32; HIDDEN]; 2]) {
        let bias = &self.params[B1..W2];
        acc[0].copy_from_slice(bias);
        acc[1].copy_from_slice(bias);
        for &f in sample.ours() {
            let ours = &self.params[W1 + usize::from(f) * HIDDEN..][..HIDDEN];
            let theirs = &self.params[W1 + usize::from(other_side(f)) * HIDDEN..][..HIDDEN];
            for h in 0..HIDDEN {
                acc[0][h] += ours[h];
                acc[1][h] += theirs[h];
            }
        }
    }

    /// The output `o` (units of [`SCALE`] centipawns) for a sample.
    pub fn forward(&self, sample: &Sample) -> f32 {
        let mut acc = [[0.0; HIDDEN]; 2];
        self.accumulate(sample, &mut acc);
        self.output(&acc)
    }

    #[inline]
    fn output(&self, acc: &[[f32; HIDDEN]; 2]) -> f32 {
        let w2 = &self.params[W2..B2];
        let mut sum = self.params[B2];
        for side in 0..2 {
            let w = &w2[side * HIDDEN..][..HIDDEN];
            sum += acc[side]
                .iter()
                .zip(w)
                .map(|(a, w)| a.clamp(0.0, 1.0) * w)
                .sum::<f32>();
        }
        sum
    }

    /// The sample's loss against its target.
    pub fn loss(&self, sample: &Sample, wdl: f32) -> f32 {
        let p = sigmoid(self.forward(sample));
        let t = sample.target(wdl, SCALE as f32);
        (p - t) * (p - t)
    }

    /// Adds the sample's loss gradient to `grad` and returns its loss.
    pub fn backward(&self, sample: &Sample, wdl: f32, grad: &mut [f32]) -> f32 {
        let mut acc = [[0.0; HIDDEN]; 2];
        self.accumulate(sample, &mut acc);
        let p = sigmoid(self.output(&acc));
        let t = sample.target(wdl, SCALE as f32);
        let g = 2.0 * (p - t) * p * (1.0 - p);
        grad[B2] += g;
        let mut g_acc = [[0.0f32; HIDDEN]; 2];
        for side in 0..2 {
            let w = &self.params[W2 + side * HIDDEN..][..HIDDEN];
            let gw = &mut grad[W2 + side * HIDDEN..][..HIDDEN];
            for h in 0..HIDDEN {
                let a = acc[side][h];
                let active = a > 0.0 && a < 1.0;
                gw[h] += g * a.clamp(0.0, 1.0);
                g_acc[side][h] = if active { g * w[h] } else { 0.0 };
            }
        }
        for h in 0..HIDDEN {
            grad[B1 + h] += g_acc[0][h] + g_acc[1][h];
        }
        for &f in sample.ours() {
            let ours = &mut grad[W1 + usize::from(f) * HIDDEN..][..HIDDEN];
            for h in 0..HIDDEN {
                ours[h] += g_acc[0][h];
            }
            let theirs = &mut grad[W1 + usize::from(other_side(f)) * HIDDEN..][..HIDDEN];
            for h in 0..HIDDEN {
                theirs[h] += g_acc[1][h];
            }
        }
        (p - t) * (p - t)
    }

    /// The quantised net.
    pub fn quantise(&self) -> Network {
        let q = |x: f32, scale: i32| (x * scale as f32).round().clamp(-32767.0, 32767.0) as i16;
        let mut net = Network::zeroed();
        for (row, input) in net.feature_weights.iter_mut().enumerate() {
            for (h, w) in input.iter_mut().enumerate() {
                *w = q(self.params[W1 + row * HIDDEN + h], QA);
            }
        }
        for (h, b) in net.feature_bias.iter_mut().enumerate() {
            *b = q(self.params[B1 + h], QA);
        }
        for (side, weights) in net.output_weights.iter_mut().enumerate() {
            for (h, w) in weights.iter_mut().enumerate() {
                *w = q(self.params[W2 + side * HIDDEN + h], QB);
            }
        }
        net.output_bias = (self.params[B2] * (QA * QB) as f32).round() as i32;
        net
    }
}

/// Adam's state.
#[derive(Clone, Debug, PartialEq)]
pub struct Adam {
    /// First moments.
    pub m: Vec<f32>,
    /// Second moments.
    pub v: Vec<f32>,
    /// Steps taken.
    pub steps: u64,
}

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

impl Adam {
    /// Fresh state for `n` parameters.
    pub fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            steps: 0,
        }
    }

    /// One step of rate `lr` along the mean gradient `grad`, then the weight clip.
    pub fn step(&mut self, model: &mut Model, grad: &[f32], lr: f32) {
        self.steps += 1;
        let t = self.steps as i32;
        let correction1 = 1.0 - BETA1.powi(t);
        let correction2 = 1.0 - BETA2.powi(t);
        let rate = lr * correction2.sqrt() / correction1;
        for (((p, g), m), v) in model
            .params
            .iter_mut()
            .zip(grad)
            .zip(&mut self.m)
            .zip(&mut self.v)
        {
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            *p -= rate * *m / (v.sqrt() + EPSILON);
        }
        for p in &mut model.params[..B2] {
            *p = p.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
        }
    }
}

/// The learning rate of `epoch` (0-based) of `epochs`: a cosine from `lr` to `lr / 100`.
pub fn learning_rate(lr: f32, epoch: usize, epochs: usize) -> f32 {
    let end = lr / 100.0;
    let progress = epoch as f32 / epochs.max(1) as f32;
    end + 0.5 * (lr - end) * (1.0 + (PI * progress).cos())
}

/// The mean gradient of `batch` into `grad` (resized and zeroed here), computed on
/// `threads` threads; returns the mean loss.
pub fn batch_gradient(
    model: &Model,
    batch: &[Sample],
    wdl: f32,
    threads: usize,
    grad: &mut Vec<f32>,
) -> f32 {
    grad.clear();
    grad.resize(PARAMS, 0.0);
    if batch.is_empty() {
        return 0.0;
    }
    let threads = threads.clamp(1, batch.len());
    let chunk = batch.len().div_ceil(threads);
    let mut loss = 0.0f64;
    if threads == 1 {
        for sample in batch {
            loss += f64::from(model.backward(sample, wdl, grad));
        }
    } else {
        let parts: Vec<(Vec<f32>, f64)> = std::thread::scope(|scope| {
            let handles: Vec<_> = batch
                .chunks(chunk)
                .map(|slice| {
                    scope.spawn(move || {
                        let mut part = vec![0.0f32; PARAMS];
                        let mut loss = 0.0f64;
                        for sample in slice {
                            loss += f64::from(model.backward(sample, wdl, &mut part));
                        }
                        (part, loss)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("gradient thread"))
                .collect()
        });
        for (part, part_loss) in parts {
            for (g, p) in grad.iter_mut().zip(&part) {
                *g += p;
            }
            loss += part_loss;
        }
    }
    let scale = 1.0 / batch.len() as f32;
    for g in grad.iter_mut() {
        *g *= scale;
    }
    (loss / batch.len() as f64) as f32
}

/// The mean loss over `samples`, on `threads` threads.
pub fn mean_loss(model: &Model, samples: &[Sample], wdl: f32, threads: usize) -> f32 {
    if samples.is_empty() {
        return 0.0;
    }
    let chunk = samples.len().div_ceil(threads.max(1));
    let total: f64 = std::thread::scope(|scope| {
        let handles: Vec<_> = samples
            .chunks(chunk)
            .map(|slice| {
                scope.spawn(move || {
                    slice
                        .iter()
                        .map(|s| f64::from(model.loss(s, wdl)))
                        .sum::<f64>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("loss thread"))
            .sum()
    });
    (total / samples.len() as f64) as f32
}

/// A fingerprint of a run: its settings, every training sample in order, and the number of
/// validation samples. A checkpoint carries it, so a resume on other data is refused.
pub fn fingerprint(config: &TrainConfig, train: &[Sample], validation: usize) -> u64 {
    let settings = [
        config.epochs as u64,
        config.batch as u64,
        u64::from(config.lr.to_bits()),
        u64::from(config.wdl.to_bits()),
        config.seed,
        train.len() as u64,
        validation as u64,
    ];
    let mut hash = settings
        .iter()
        .fold(FNV_OFFSET, |h, word| fnv1a_continue(h, &word.to_le_bytes()));
    for sample in train {
        for f in sample.ours() {
            hash = fnv1a_continue(hash, &f.to_le_bytes());
        }
        hash = fnv1a_continue(hash, &sample.score.to_le_bytes());
        hash = fnv1a_continue(hash, &[sample.count, sample.result]);
    }
    hash
}

/// The order of `n` samples in `epoch`, shuffled from the run's seed.
pub fn epoch_order(n: usize, seed: u64, epoch: usize) -> Vec<u32> {
    let mut order: Vec<u32> = (0..n as u32).collect();
    let mut rng =
        ChaCha8Rng::seed_from_u64(seed ^ (epoch as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    order.shuffle(&mut rng);
    order
}

/// Runs one epoch over `train` in the order of [`epoch_order`]; `progress` hears the batch
/// number and the mean loss so far after every batch. Returns the epoch's mean loss.
pub fn train_epoch(
    model: &mut Model,
    adam: &mut Adam,
    train: &[Sample],
    config: &TrainConfig,
    epoch: usize,
    mut progress: impl FnMut(usize, f32),
) -> f32 {
    let lr = learning_rate(config.lr, epoch, config.epochs);
    let order = epoch_order(train.len(), config.seed, epoch);
    let mut grad = Vec::new();
    let mut batch = Vec::with_capacity(config.batch);
    let mut total = 0.0f64;
    let mut seen = 0usize;
    for (i, indices) in order.chunks(config.batch.max(1)).enumerate() {
        batch.clear();
        batch.extend(indices.iter().map(|&j| train[j as usize]));
        let loss = batch_gradient(model, &batch, config.wdl, config.threads, &mut grad);
        adam.step(model, &grad, lr);
        total += f64::from(loss) * batch.len() as f64;
        seen += batch.len();
        progress(i + 1, (total / seen as f64) as f32);
    }
    (total / seen.max(1) as f64) as f32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::eval::nnue::accumulator::{self, Accumulator};
    use crate::learn::record::{GameResult, Record};
    use shakmaty::{Chess, Position};

    fn sample_of(fen: &str, score: i16, result: GameResult) -> Sample {
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

    fn samples() -> Vec<Sample> {
        vec![
            sample_of(
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
                -20,
                GameResult::Draw,
            ),
            sample_of(
                "4k3/8/8/8/8/8/4P3/4K2Q w - - 0 1",
                900,
                GameResult::WhiteWon,
            ),
            sample_of(
                "4k3/8/8/8/8/8/4P3/4K2Q b - - 0 1",
                -900,
                GameResult::WhiteWon,
            ),
            sample_of(
                "4k2q/4p3/8/8/8/8/8/4K3 w - - 0 1",
                -900,
                GameResult::BlackWon,
            ),
            sample_of("r3k3/8/8/8/8/8/8/4K3 w - - 0 1", -500, GameResult::BlackWon),
        ]
    }

    #[test]
    fn loss_falls_on_a_small_problem() {
        let data = samples();
        let config = TrainConfig {
            epochs: 200,
            batch: 5,
            lr: 0.01,
            wdl: 0.5,
            threads: 1,
            seed: 3,
        };
        let mut model = Model::random(config.seed);
        let mut adam = Adam::new(PARAMS);
        let before = mean_loss(&model, &data, config.wdl, 1);
        for epoch in 0..config.epochs {
            train_epoch(&mut model, &mut adam, &data, &config, epoch, |_, _| {});
        }
        let after = mean_loss(&model, &data, config.wdl, 1);
        assert!(after < before / 10.0, "loss {before} -> {after}");
        // The queen-up side is now seen as winning, the rook-down side as losing.
        assert!(model.forward(&data[1]) > 1.0);
        assert!(model.forward(&data[4]) < -0.5);
    }

    #[test]
    fn gradient_matches_finite_differences() {
        let data = samples();
        let model = Model::random(11);
        // Black to move, so the side to move's rows and the other side's differ from White's.
        let sample = &data[2];
        let mut grad = vec![0.0; PARAMS];
        model.backward(sample, 0.3, &mut grad);
        // Every hidden unit of a feature row the sample uses from each side, every bias,
        // every output weight, the output bias.
        let f = usize::from(sample.ours()[0]);
        let g = usize::from(other_side(sample.ours()[1]));
        let rows =
            (W1 + f * HIDDEN..W1 + (f + 1) * HIDDEN).chain(W1 + g * HIDDEN..W1 + (g + 1) * HIDDEN);
        // The loss is an f32 near 0.25: steps much below 1e-2 drown in its rounding.
        let eps = 1e-2f64;
        // Units whose sum lies within a step of the clip's corners (0 and 1) are left out:
        // there the loss has a kink and a finite difference says nothing.
        let mut acc = [[0.0; HIDDEN]; 2];
        model.accumulate(sample, &mut acc);
        let near_kink = |side: usize, h: usize| {
            let a = f64::from(acc[side][h]);
            a.abs() < 4.0 * eps || (a - 1.0).abs() < 4.0 * eps
        };
        // (A row can feed both sides: here the kings' rows do.)
        let smooth = |i: usize| match i {
            i if i < W2 => {
                let h = (i - W1) % HIDDEN;
                !near_kink(0, h) && !near_kink(1, h)
            }
            _ => true,
        };
        let checked: Vec<usize> = rows.chain(B1..PARAMS).filter(|&i| smooth(i)).collect();
        assert!(checked.len() > 1000);
        let mut nonzero = 0;
        for &i in &checked {
            let loss_at = |delta: f64| {
                let mut m = model.clone();
                m.params[i] = (f64::from(m.params[i]) + delta) as f32;
                f64::from(m.loss(sample, 0.3))
            };
            let numeric = (loss_at(eps) - loss_at(-eps)) / (2.0 * eps);
            let analytic = f64::from(grad[i]);
            // The forward pass rounds in f32 too: allow a few parts in a hundred.
            assert!(
                (numeric - analytic).abs() <= 3e-2 * numeric.abs() + 1e-6,
                "parameter {i}: numeric {numeric}, analytic {analytic}"
            );
            nonzero += usize::from(analytic.abs() > 1e-5);
        }
        assert!(
            nonzero > checked.len() / 3,
            "{nonzero} of {} gradients non-zero",
            checked.len()
        );
    }

    #[test]
    fn adams_first_step_moves_each_parameter_by_the_rate() {
        let mut model = Model::random(2);
        let before = model.clone();
        let mut grad = vec![0.0; PARAMS];
        grad[W1 + 5] = 0.3;
        grad[B2] = -0.2;
        let mut adam = Adam::new(PARAMS);
        adam.step(&mut model, &grad, 0.01);
        assert!((model.params[W1 + 5] - (before.params[W1 + 5] - 0.01)).abs() < 1e-6);
        assert!((model.params[B2] - (before.params[B2] + 0.01)).abs() < 1e-6);
        let moved = model
            .params
            .iter()
            .zip(&before.params)
            .filter(|(a, b)| a != b)
            .count();
        assert_eq!(moved, 2);
    }

    #[test]
    fn resuming_from_a_checkpoint_equals_an_unbroken_run() {
        use crate::learn::checkpoint::Checkpoint;
        let data = samples();
        let config = TrainConfig {
            epochs: 4,
            batch: 2,
            lr: 0.01,
            wdl: 0.5,
            threads: 1,
            seed: 6,
        };
        let mut unbroken = Model::random(config.seed);
        let mut adam = Adam::new(PARAMS);
        for epoch in 0..config.epochs {
            train_epoch(&mut unbroken, &mut adam, &data, &config, epoch, |_, _| {});
        }
        let mut model = Model::random(config.seed);
        let mut adam = Adam::new(PARAMS);
        for epoch in 0..2 {
            train_epoch(&mut model, &mut adam, &data, &config, epoch, |_, _| {});
        }
        let saved = Checkpoint {
            epochs_done: 2,
            fingerprint: fingerprint(&config, &data, 0),
            best_val_loss: f32::INFINITY,
            model,
            adam,
        }
        .to_bytes();
        let resumed = Checkpoint::from_bytes(&saved).unwrap();
        let (mut model, mut adam) = (resumed.model, resumed.adam);
        for epoch in resumed.epochs_done..config.epochs {
            train_epoch(&mut model, &mut adam, &data, &config, epoch, |_, _| {});
        }
        assert_eq!(model, unbroken);
        // Other data or settings give another fingerprint.
        assert_ne!(fingerprint(&config, &data[1..], 0), resumed.fingerprint);
        let other = TrainConfig {
            lr: 0.02,
            ..config.clone()
        };
        assert_ne!(fingerprint(&other, &data, 0), resumed.fingerprint);
    }

    #[test]
    fn threads_sum_to_the_one_thread_gradient() {
        let data = samples();
        let model = Model::random(5);
        let (mut one, mut two) = (Vec::new(), Vec::new());
        let l1 = batch_gradient(&model, &data, 0.5, 1, &mut one);
        let l2 = batch_gradient(&model, &data, 0.5, 2, &mut two);
        assert!((l1 - l2).abs() < 1e-6);
        for (a, b) in one.iter().zip(&two) {
            assert!((a - b).abs() <= 1e-6 * a.abs().max(1e-3));
        }
    }

    #[test]
    fn quantised_net_follows_the_float_model() {
        let data = samples();
        let model = Model::random(9);
        let net = model.quantise();
        for (i, fen) in [
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "4k3/8/8/8/8/8/4P3/4K2Q w - - 0 1",
            "4k3/8/8/8/8/8/4P3/4K2Q b - - 0 1",
            "4k2q/4p3/8/8/8/8/8/4K3 w - - 0 1",
            "r3k3/8/8/8/8/8/8/4K3 w - - 0 1",
        ]
        .iter()
        .enumerate()
        {
            let pos: Chess = fen
                .parse::<shakmaty::fen::Fen>()
                .unwrap()
                .into_position(shakmaty::CastlingMode::Standard)
                .unwrap();
            let acc = Accumulator::refresh(&net, pos.board());
            let quantised = accumulator::evaluate(&net, &acc, pos.turn());
            let float = model.forward(&data[i]) * SCALE as f32;
            // Feature weights are kept in steps of 1/255, output weights of 1/4096.
            assert!(
                (quantised as f32 - float).abs() <= 0.01 * float.abs() + 2.0,
                "{fen}: quantised {quantised}, float {float}"
            );
        }
    }

    #[test]
    fn clipped_weights_fit_their_quantised_type() {
        assert!(WEIGHT_CLIP * QB as f32 <= f32::from(i16::MAX));
        assert!((32.0 * WEIGHT_CLIP + WEIGHT_CLIP) * QA as f32 <= f32::from(i16::MAX));
    }

    #[test]
    fn one_thread_runs_are_repeatable() {
        let data = samples();
        let config = TrainConfig {
            epochs: 3,
            batch: 2,
            lr: 0.01,
            wdl: 0.5,
            threads: 1,
            seed: 4,
        };
        let run = || {
            let mut model = Model::random(config.seed);
            let mut adam = Adam::new(PARAMS);
            for epoch in 0..config.epochs {
                train_epoch(&mut model, &mut adam, &data, &config, epoch, |_, _| {});
            }
            model
        };
        assert_eq!(run(), run());
    }
}
