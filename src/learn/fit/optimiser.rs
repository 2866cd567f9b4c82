//! Fitting a [`Model`] with Adam: the optimiser, the batches and epochs, on the loss of
//! [`loss`](super::loss).
//!
//! - **Optimiser.** Adam on mini-batches; the learning rate falls on a cosine from `lr` to
//!   `lr / 100` over the epochs. Weights are clipped after each step ([`Model::clip`]) so
//!   the quantised net cannot overflow its `i16` values nor the SCReLU kernel.
//! - **Weight decay.** Decoupled (AdamW): each step shrinks a parameter by `lr x decay` of
//!   itself, an output bucket's weights and bias by that times the share of the batch's
//!   samples the bucket evaluates ([`bucket_shares`]). A bucket's weights learn from its
//!   share of the samples only; shrunk at the full rate they were held smaller than one
//!   bucket's, and a net of 8 buckets fitted its data worse than a net of one. Scaled by
//!   the share, each weight is shrunk as much per sample it learns from as a one-bucket
//!   net's (whose share is 1, so its training is as it was).
//! - **Threads.** A batch is cut into one slice per thread; each thread sums its own
//!   gradient and the sums are added in thread order, so a run is deterministic for a given
//!   seed and thread count.

use std::f32::consts::PI;
use std::ops::Range;

use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use rand::seq::SliceRandom;

use super::dataset::Sample;
use super::model::Model;
use crate::engine::eval::nnue::Architecture;
use crate::hashing::checksum::{FNV_OFFSET, fnv1a_continue};

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
    /// Decoupled weight decay (AdamW): each step shrinks every parameter by this share of
    /// the learning rate; 0 for none.
    pub weight_decay: f32,
    /// Threads that compute gradients.
    pub threads: usize,
    /// Seed of the initial weights and the shuffles.
    pub seed: u64,
    /// The net's shape.
    pub arch: Architecture,
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

    /// One step of rate `lr` along the mean gradient `grad`, each parameter first shrunk
    /// by `lr x weight_decay` of itself (an output bucket's weights and bias by that times
    /// the bucket's share of the batch, `bucket_shares`: see the module), then the weight
    /// clip.
    pub fn step(
        &mut self,
        model: &mut Model,
        grad: &[f32],
        lr: f32,
        weight_decay: f32,
        bucket_shares: &[f32],
    ) {
        self.steps += 1;
        let t = self.steps as i32;
        let correction1 = 1.0 - BETA1.powi(t);
        let correction2 = 1.0 - BETA2.powi(t);
        let rate = lr * correction2.sqrt() / correction1;
        assert_eq!(
            bucket_shares.len(),
            model.arch.buckets,
            "a share per bucket"
        );
        let layout = model.layout();
        let outputs = 2 * model.arch.hidden;
        // Moves the parameters of `range`, first shrinking each to `keep` of itself.
        let mut update = |range: Range<usize>, keep: f32| {
            let params = &mut model.params[range.clone()];
            for (((p, g), m), v) in params
                .iter_mut()
                .zip(&grad[range.clone()])
                .zip(&mut self.m[range.clone()])
                .zip(&mut self.v[range])
            {
                *m = BETA1 * *m + (1.0 - BETA1) * g;
                *v = BETA2 * *v + (1.0 - BETA2) * g * g;
                *p = keep * *p - rate * *m / (v.sqrt() + EPSILON);
            }
        };
        update(0..layout.w2, 1.0 - lr * weight_decay);
        for (bucket, share) in bucket_shares.iter().enumerate() {
            let keep = 1.0 - lr * (weight_decay * share);
            let weights = layout.w2 + bucket * outputs;
            update(weights..weights + outputs, keep);
            update(layout.b2 + bucket..layout.b2 + bucket + 1, keep);
        }
        model.clip();
    }
}

/// The share of `batch`'s samples that each output bucket of `arch` evaluates (1 for a
/// net of one bucket).
///
/// ```
/// use rookery::engine::eval::nnue::Architecture;
/// use rookery::learn::fit::dataset::Sample;
/// use rookery::learn::fit::optimiser::bucket_shares;
/// let with = |count| Sample { features: [0; 32], count, score: 0, result: 1 };
/// let batch = [with(32), with(31), with(4), with(12)];
/// let eight = Architecture { buckets: 8, ..Architecture::default() };
/// assert_eq!(bucket_shares(&eight, &batch), [0.25, 0.0, 0.25, 0.0, 0.0, 0.0, 0.0, 0.5]);
/// assert_eq!(bucket_shares(&Architecture::default(), &batch), [1.0]);
/// ```
pub fn bucket_shares(arch: &Architecture, batch: &[Sample]) -> Vec<f32> {
    let mut counts = vec![0usize; arch.buckets];
    for sample in batch {
        counts[arch.bucket(usize::from(sample.count))] += 1;
    }
    let samples = batch.len().max(1) as f32;
    counts.iter().map(|&n| n as f32 / samples).collect()
}

/// The learning rate of `epoch` (0-based) of `epochs`: a cosine from `lr` to `lr / 100`.
pub fn learning_rate(lr: f32, epoch: usize, epochs: usize) -> f32 {
    let end = lr / 100.0;
    let progress = epoch as f32 / epochs.max(1) as f32;
    end + 0.5 * (lr - end) * (1.0 + (PI * progress).cos())
}

/// The buffers a batch's gradient is computed in, kept from batch to batch: a model of 8
/// king buckets at 384 hidden has 2.7 million parameters, whose buffers, allocated afresh
/// for every batch, cost their pages' first touch each time.
#[derive(Clone, Debug, Default)]
pub struct Workspace {
    /// The mean gradient of the last batch ([`batch_gradient`]).
    pub grad: Vec<f32>,
    /// The gradient sums of the threads after the first.
    parts: Vec<Vec<f32>>,
    /// The feature rows merged with the factoriser ([`Model::merged_into`]).
    merged: Vec<f32>,
}

/// `values` as `n` zeros, in the memory it has.
fn zeroed(values: &mut Vec<f32>, n: usize) {
    values.clear();
    values.resize(n, 0.0);
}

/// The mean gradient of `batch` into `work.grad`, computed on `threads` threads (this one
/// and `threads - 1` more, each summing a slice's gradient, the sums added in slice order);
/// returns the mean loss. A factoriser is merged into the bucketed rows for the batch
/// ([`Model::merged_into`]) and gets its share of the gradient once the samples' are
/// summed ([`Model::fold_factoriser`]): the same gradient as [`Model::backward`]'s, at one
/// row per piece.
pub fn batch_gradient(
    model: &Model,
    batch: &[Sample],
    wdl: f32,
    threads: usize,
    work: &mut Workspace,
) -> f32 {
    let params = model.layout().params;
    let Workspace {
        grad,
        parts,
        merged,
    } = work;
    zeroed(grad, params);
    if batch.is_empty() {
        return 0.0;
    }
    let merged = &model.merged_into(merged);
    let chunk = batch.len().div_ceil(threads.clamp(1, batch.len()));
    let slices: Vec<&[Sample]> = batch.chunks(chunk).collect();
    parts.resize_with(slices.len() - 1, Vec::new);
    for part in parts.iter_mut() {
        zeroed(part, params);
    }
    let sum = move |slice: &[Sample], part: &mut [f32]| {
        slice.iter().fold(0.0f64, |loss, s| {
            loss + f64::from(merged.backward(s, wdl, part))
        })
    };
    let mut loss = 0.0f64;
    std::thread::scope(|scope| {
        let handles: Vec<_> = slices[1..]
            .iter()
            .zip(parts.iter_mut())
            .map(|(slice, part)| scope.spawn(move || sum(slice, part)))
            .collect();
        loss = sum(slices[0], grad);
        for handle in handles {
            loss += handle.join().expect("gradient thread");
        }
    });
    for part in parts.iter() {
        for (g, p) in grad.iter_mut().zip(part) {
            *g += p;
        }
    }
    model.fold_factoriser(grad);
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
    let merged = &model.merged();
    let total: f64 = std::thread::scope(|scope| {
        let handles: Vec<_> = samples
            .chunks(chunk)
            .map(|slice| {
                scope.spawn(move || {
                    slice
                        .iter()
                        .map(|s| f64::from(merged.loss(s, wdl)))
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

/// A fingerprint of a run: its settings (the architecture too), every training sample in
/// order, and the number of validation samples. A checkpoint carries it, so a resume on other data is refused.
pub fn fingerprint(config: &TrainConfig, train: &[Sample], validation: usize) -> u64 {
    let settings = [
        config.epochs as u64,
        config.batch as u64,
        u64::from(config.lr.to_bits()),
        u64::from(config.wdl.to_bits()),
        config.seed,
        train.len() as u64,
        validation as u64,
        config.arch.hidden as u64,
        u64::from(config.arch.activation.code()),
        config.arch.buckets as u64,
        u64::from(config.arch.king_mirror),
    ];
    let mut hash = settings
        .iter()
        .fold(FNV_OFFSET, |h, word| fnv1a_continue(h, &word.to_le_bytes()));
    // Hashed only when more than one, so checkpoints made before king buckets still resume.
    if config.arch.king_buckets != 1 {
        hash = fnv1a_continue(hash, &(config.arch.king_buckets as u64).to_le_bytes());
    }
    // Hashed only when set, so checkpoints made before the setting existed still resume.
    if config.weight_decay != 0.0 {
        hash = fnv1a_continue(hash, &config.weight_decay.to_bits().to_le_bytes());
    }
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
    let mut work = Workspace::default();
    // A batch holds at most the whole training set, whatever the batch size asked.
    let mut batch = Vec::with_capacity(config.batch.clamp(1, train.len().max(1)));
    let mut total = 0.0f64;
    let mut seen = 0usize;
    for (i, indices) in order.chunks(config.batch.max(1)).enumerate() {
        batch.clear();
        batch.extend(indices.iter().map(|&j| train[j as usize]));
        let loss = batch_gradient(model, &batch, config.wdl, config.threads, &mut work);
        let shares = bucket_shares(&model.arch, &batch);
        adam.step(model, &work.grad, lr, config.weight_decay, &shares);
        total += f64::from(loss) * batch.len() as f64;
        seen += batch.len();
        progress(i + 1, (total / seen as f64) as f32);
    }
    (total / seen.max(1) as f64) as f32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::eval::nnue::Activation;
    use crate::learn::fit::model::tests::samples;

    fn config(epochs: usize, batch: usize, seed: u64) -> TrainConfig {
        TrainConfig {
            epochs,
            batch,
            lr: 0.01,
            wdl: 0.5,
            weight_decay: 0.0,
            threads: 1,
            seed,
            arch: Architecture::default(),
        }
    }

    #[test]
    fn loss_falls_on_a_small_problem() {
        let data = samples();
        let screlu = Architecture {
            hidden: 64,
            activation: Activation::SCReLU,
            buckets: 8,
            king_mirror: true,
            king_buckets: 1,
        };
        for arch in [
            Architecture::default(),
            screlu,
            Architecture {
                king_buckets: 4,
                ..screlu
            },
        ] {
            let config = TrainConfig {
                arch,
                ..config(200, 5, 3)
            };
            let mut model = Model::new(arch, config.seed);
            let mut adam = Adam::new(model.layout().params);
            let before = mean_loss(&model, &data, config.wdl, 1);
            for epoch in 0..config.epochs {
                train_epoch(&mut model, &mut adam, &data, &config, epoch, |_, _| {});
            }
            let after = mean_loss(&model, &data, config.wdl, 1);
            assert!(after < before / 10.0, "{arch}: loss {before} -> {after}");
            // The queen-up side is now seen as winning, the rook-down side as losing.
            assert!(model.forward(&data[1]) > 1.0, "{arch}");
            assert!(model.forward(&data[4]) < -0.5, "{arch}");
        }
    }

    #[test]
    fn adams_first_step_moves_each_parameter_by_the_rate() {
        let mut model = Model::random(2);
        let layout = model.layout();
        let before = model.clone();
        let mut grad = vec![0.0; layout.params];
        grad[layout.w1 + 5] = 0.3;
        grad[layout.b2] = -0.2;
        let mut adam = Adam::new(layout.params);
        adam.step(&mut model, &grad, 0.01, 0.0, &[1.0]);
        let (w, b) = (layout.w1 + 5, layout.b2);
        assert!((model.params[w] - (before.params[w] - 0.01)).abs() < 1e-6);
        assert!((model.params[b] - (before.params[b] + 0.01)).abs() < 1e-6);
        let moved = model
            .params
            .iter()
            .zip(&before.params)
            .filter(|(a, b)| a != b)
            .count();
        assert_eq!(moved, 2);
    }

    #[test]
    fn weight_decay_shrinks_every_parameter_by_its_share_of_the_rate() {
        let mut model = Model::random(2);
        let layout = model.layout();
        let before = model.clone();
        let mut grad = vec![0.0; layout.params];
        grad[layout.w1 + 5] = 0.3;
        let mut adam = Adam::new(layout.params);
        adam.step(&mut model, &grad, 0.01, 0.5, &[1.0]);
        // Untouched by the gradient: shrunk by 0.01 x 0.5 of itself.
        for i in [layout.w1, layout.w1 + 6, layout.w2] {
            let expected = before.params[i] * (1.0 - 0.005);
            assert!((model.params[i] - expected).abs() < 1e-7, "parameter {i}");
            assert_ne!(model.params[i], before.params[i]);
        }
        // Shrunk, then moved by the rate against its gradient.
        let w = layout.w1 + 5;
        let expected = before.params[w] * (1.0 - 0.005) - 0.01;
        assert!((model.params[w] - expected).abs() < 1e-6);
    }

    #[test]
    fn an_output_buckets_weights_decay_by_its_share_of_the_batch() {
        let arch = Architecture {
            hidden: 16,
            buckets: 8,
            ..Architecture::default()
        };
        let mut model = Model::new(arch, 2);
        let layout = model.layout();
        model.params[layout.b2..].fill(0.3);
        let before = model.clone();
        let grad = vec![0.0; layout.params];
        let mut shares = [0.0; 8];
        (shares[0], shares[3], shares[7]) = (0.5, 0.25, 0.25);
        Adam::new(layout.params).step(&mut model, &grad, 0.01, 0.5, &shares);
        let shrunk = |i: usize, by: f32| {
            let expected = before.params[i] * (1.0 - by);
            (model.params[i] - expected).abs() <= 1e-7 * expected.abs().max(1.0)
        };
        // Feature weights and biases by the whole rate; bucket b's output weights and bias
        // by its share of it; an empty bucket's not at all.
        let outputs = 2 * arch.hidden;
        for i in [layout.w1 + 3, layout.b1 + 1] {
            assert!(shrunk(i, 0.005), "parameter {i}");
        }
        for (bucket, share) in shares.iter().enumerate() {
            let weight = layout.w2 + bucket * outputs + 5;
            assert!(shrunk(weight, 0.005 * share), "bucket {bucket}'s weight");
            assert!(
                shrunk(layout.b2 + bucket, 0.005 * share),
                "bucket {bucket}'s bias"
            );
        }
        assert_eq!(
            model.params[layout.w2 + outputs],
            before.params[layout.w2 + outputs]
        );
    }

    #[test]
    fn threads_sum_to_the_one_thread_gradient() {
        let data = samples();
        let model = Model::random(5);
        let (mut one, mut two) = (Workspace::default(), Workspace::default());
        let l1 = batch_gradient(&model, &data, 0.5, 1, &mut one);
        let l2 = batch_gradient(&model, &data, 0.5, 2, &mut two);
        assert!((l1 - l2).abs() < 1e-6);
        for (a, b) in one.grad.iter().zip(&two.grad) {
            assert!((a - b).abs() <= 1e-6 * a.abs().max(1e-3));
        }
    }

    #[test]
    fn a_batch_gradient_is_the_mean_of_its_samples_gradients_factoriser_included() {
        use crate::learn::fit::model::tests::with_factoriser;
        let data = samples();
        for arch in Architecture::every_kind(32) {
            let model = with_factoriser(arch, 8);
            let params = model.layout().params;
            let mut expected = vec![0.0; params];
            let mut loss = 0.0;
            for sample in &data {
                loss += model.backward(sample, 0.5, &mut expected);
            }
            let n = data.len() as f32;
            // The same workspace from batch to batch: each starts from zeros.
            let mut work = Workspace::default();
            for threads in [1, 2, 3, 1] {
                let batch_loss = batch_gradient(&model, &data, 0.5, threads, &mut work);
                assert!((batch_loss - loss / n).abs() < 1e-6, "{arch}");
                for (i, (a, b)) in work.grad.iter().zip(&expected).enumerate() {
                    let b = b / n;
                    assert!(
                        (a - b).abs() <= 1e-5 * b.abs().max(1e-2),
                        "{arch}: {i}: {a} {b}"
                    );
                }
            }
            let mean = mean_loss(&model, &data, 0.5, 2);
            assert!((mean - loss / n).abs() < 1e-6, "{arch}");
        }
    }

    #[test]
    fn one_thread_runs_are_repeatable() {
        let data = samples();
        let config = config(3, 2, 4);
        let run = || {
            let mut model = Model::random(config.seed);
            let mut adam = Adam::new(model.layout().params);
            for epoch in 0..config.epochs {
                train_epoch(&mut model, &mut adam, &data, &config, epoch, |_, _| {});
            }
            model
        };
        assert_eq!(run(), run());
    }
}
