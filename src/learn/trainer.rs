//! A training run from data files to a net file: load, split off whole games for
//! validation, shuffle, train epoch by epoch, keep the epoch that validates best, and save
//! the trainer's state after every epoch so that a stopped run can go on.
//!
//! The net file holds the epoch with the lowest validation loss so far (every epoch when
//! nothing is kept for validation); the state goes to the net's path with the extension
//! `.ckpt`, and a run with `resume` set goes on from it when it was made on the same data
//! and settings.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use rand::seq::SliceRandom;

use super::checkpoint::Checkpoint;
use super::dataset::{self, Sample};
use super::train::{self, Adam, Model, PARAMS, TrainConfig};
use crate::engine::eval::nnue::network::SCALE;

/// Why a training run stopped before its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrainError(pub String);

impl std::fmt::Display for TrainError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TrainError {}

/// What a finished run wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trained {
    /// The checksum of the net last written; `None` when a resumed run had no epoch left
    /// and the net file is the one written before.
    pub checksum: Option<u64>,
    /// Wall time of the run.
    pub elapsed: Duration,
}

/// A configured training run.
#[derive(Clone, Debug)]
pub struct Trainer {
    /// Epochs, batch, learning rate, target mix, threads and seed.
    pub config: TrainConfig,
    /// Share of the samples kept out for validation, in seeded runs of consecutive
    /// positions (so whole games).
    pub validation_share: f64,
    /// Each training position joins the training set mirrored a-h as well.
    pub mirror_files: bool,
    /// Go on from the checkpoint beside the net file, if there is one.
    pub resume: bool,
    /// Where the net goes.
    pub out: PathBuf,
}

impl Trainer {
    /// Trains on the records in `data` (files, or directories of `*.bin`); `log` hears
    /// each step in a line (the data, every epoch, and progress about every ten seconds).
    pub fn run(&self, data: &[PathBuf], log: &mut dyn FnMut(&str)) -> Result<Trained, TrainError> {
        let config = &self.config;
        let checkpoint_path = self.out.with_extension("ckpt");
        if checkpoint_path == self.out {
            return Err(TrainError(format!(
                "{}: the net file cannot end in .ckpt",
                self.out.display()
            )));
        }
        let loaded = dataset::load(data).map_err(|e| TrainError(format!("data: {e}")))?;
        let samples = loaded.samples;
        if samples.is_empty() {
            return Err(TrainError("data: no records".into()));
        }
        let (fitted, fit_error) = dataset::fit_scale(&samples, 16);
        log(&format!(
            "train: the scores predict the results best at {fitted} cp per unit (mean squared \
             error {fit_error:.4}); the net's scale is {SCALE}"
        ));
        // Validation takes whole runs of games, so it never sees a sibling of a training
        // position.
        let (val, mut train_set) =
            dataset::split_by_blocks(&samples, self.validation_share, config.seed);
        drop(samples);
        train_set.shuffle(&mut ChaCha8Rng::seed_from_u64(config.seed));
        // Mirrored copies join the training set only, so validation never sees a twin.
        if self.mirror_files {
            train_set = train_set
                .iter()
                .flat_map(|s| [*s, s.files_mirrored()])
                .collect();
        }
        log(&format!(
            "train: {} files, {} samples ({} training, {} validation), {} trailing bytes skipped",
            loaded.files,
            train_set.len() + val.len(),
            train_set.len(),
            val.len(),
            loaded.trailing_bytes
        ));
        let fingerprint = train::fingerprint(config, &train_set, val.len());
        let (model, adam, first_epoch) = self.starting_state(&checkpoint_path, fingerprint, log)?;
        self.epochs(
            &train_set,
            &val,
            (model, adam, first_epoch),
            fingerprint,
            log,
        )
    }

    /// A fresh model, or the one the checkpoint holds when resuming.
    fn starting_state(
        &self,
        checkpoint_path: &std::path::Path,
        fingerprint: u64,
        log: &mut dyn FnMut(&str),
    ) -> Result<(Model, Adam, usize), TrainError> {
        if !(self.resume && checkpoint_path.exists()) {
            return Ok((Model::random(self.config.seed), Adam::new(PARAMS), 0));
        }
        let unreadable = |e: String| TrainError(format!("{}: {e}", checkpoint_path.display()));
        let bytes = std::fs::read(checkpoint_path).map_err(|e| unreadable(e.to_string()))?;
        let checkpoint = Checkpoint::from_bytes(&bytes).map_err(unreadable)?;
        if checkpoint.fingerprint != fingerprint {
            return Err(unreadable(
                "made on other data or settings; run without --resume to start afresh".into(),
            ));
        }
        log(&format!("resuming after epoch {}", checkpoint.epochs_done));
        Ok((checkpoint.model, checkpoint.adam, checkpoint.epochs_done))
    }

    /// The epochs from `first_epoch` on: train, validate, write the best net and the
    /// checkpoint.
    fn epochs(
        &self,
        train_set: &[Sample],
        val: &[Sample],
        (mut model, mut adam, first_epoch): (Model, Adam, usize),
        fingerprint: u64,
        log: &mut dyn FnMut(&str),
    ) -> Result<Trained, TrainError> {
        let config = &self.config;
        let out = &self.out;
        let checkpoint_path = out.with_extension("ckpt");
        // A resumed run starts its best afresh: its first epoch is written.
        let mut best_val_loss = f32::INFINITY;
        let mut checksum = None;
        let batches = train_set.len().div_ceil(config.batch);
        let start = Instant::now();
        let mut last_report = Instant::now();
        for epoch in first_epoch..config.epochs {
            let epoch_start = Instant::now();
            let loss = train::train_epoch(
                &mut model,
                &mut adam,
                train_set,
                config,
                epoch,
                |b, loss| {
                    if last_report.elapsed() >= Duration::from_secs(10) {
                        last_report = Instant::now();
                        let done = (epoch - first_epoch) * batches + b;
                        let total = (config.epochs - first_epoch) * batches;
                        let per_batch = start.elapsed().as_secs_f64() / done as f64;
                        log(&format!(
                            "epoch {}/{} batch {b}/{batches} loss {loss:.6} {:.0} samples/s ETA {:.0} s",
                            epoch + 1,
                            config.epochs,
                            (done * config.batch) as f64 / start.elapsed().as_secs_f64(),
                            per_batch * (total - done) as f64
                        ));
                    }
                },
            );
            let val_loss = train::mean_loss(&model, val, config.wdl, config.threads);
            let secs = epoch_start.elapsed().as_secs_f64();
            log(&format!(
                "epoch {}/{}: train loss {loss:.6} validation loss {val_loss:.6} lr {:.6} {:.1} s ({:.0} samples/s)",
                epoch + 1,
                config.epochs,
                train::learning_rate(config.lr, epoch, config.epochs),
                secs,
                train_set.len() as f64 / secs
            ));
            if val.is_empty() || val_loss < best_val_loss {
                best_val_loss = val_loss;
                let net = model.quantise();
                checksum = Some(net.checksum());
                let temporary = out.with_extension("nnue.tmp");
                std::fs::write(&temporary, net.to_bytes())
                    .and_then(|()| std::fs::rename(&temporary, out))
                    .map_err(|e| TrainError(format!("{}: {e}", out.display())))?;
                log(&format!(
                    "epoch {}: net written to {}",
                    epoch + 1,
                    out.display()
                ));
            }
            Checkpoint {
                epochs_done: epoch + 1,
                fingerprint,
                model: model.clone(),
                adam: adam.clone(),
            }
            .save(&checkpoint_path)
            .map_err(|e| TrainError(format!("{}: {e}", checkpoint_path.display())))?;
        }
        Ok(Trained {
            checksum,
            elapsed: start.elapsed(),
        })
    }
}
