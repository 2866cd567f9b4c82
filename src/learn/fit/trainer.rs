//! A training run from data files to a net file: load (each game once), split off whole
//! games for validation, shuffle, train epoch by epoch, keep the epoch that validates best,
//! and save the trainer's state after every epoch so that a stopped run can go on.
//!
//! The net file holds the epoch with the lowest validation loss so far (every epoch when
//! nothing is kept for validation); the state goes to the net's path with `.ckpt` added
//! (`NET.ckpt`), and a run with `resume` set goes on from it, with its best loss, when it was
//! made on the same data and settings. A run never overwrites its data or their manifest,
//! nor a checkpoint it was not told to resume, and two runs never write the same net at
//! once (see [`outputs`](super::outputs)).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use rand::seq::SliceRandom;

use super::checkpoint::Checkpoint;
use super::dataset::{self, Sample};
use super::model::Model;
use super::optimiser::{self, Adam, TrainConfig};
use super::outputs::Outputs;
use super::quantisation::{centre_output_bias, quantisation_error};
use crate::engine::eval::nnue::Network;
use crate::engine::eval::nnue::architecture::SCALE;

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

/// Positions the quantisation error is measured on when a net is written.
const QUANTISATION_CHECK: usize = 20_000;

/// The largest share of the samples that validation may take.
pub const MAX_VALIDATION_SHARE: f64 = 0.5;
/// The longest checkpoint read: many times that of the largest net, with its optimiser.
const MAX_CHECKPOINT_BYTES: u64 = 256 << 20;

/// Where the epochs start: a fresh model, or a checkpoint's.
struct Start {
    model: Model,
    adam: Adam,
    first_epoch: usize,
    best_val_loss: f32,
}

/// A configured training run.
#[derive(Clone, Debug)]
pub struct Trainer {
    /// Epochs, batch, learning rate, target mix, threads and seed.
    pub config: TrainConfig,
    /// Share of the samples kept out for validation, in seeded runs of consecutive
    /// positions (so whole games).
    pub validation_share: f64,
    /// Each training position joins the training set mirrored a-h as well (refused with
    /// king mirroring, under which the mirror is the same inputs).
    pub mirror_files: bool,
    /// Go on from the checkpoint beside the net file, if there is one.
    pub resume: bool,
    /// Start from this net's weights instead of random ones (a fresh run only; its
    /// architecture must be the run's, or, for a run with king buckets, the run's but for
    /// one king bucket: see [`Model::factorised_from`]).
    pub init: Option<PathBuf>,
    /// Where the net goes.
    pub out: PathBuf,
}

impl Trainer {
    /// Trains on the data in `data` (files of either format, or directories of `*.bin` and
    /// `*.games` files); `log` hears each step in a line (the data, every epoch, and
    /// progress about every ten seconds).
    pub fn run(&self, data: &[PathBuf], log: &mut dyn FnMut(&str)) -> Result<Trained, TrainError> {
        let config = &self.config;
        self.check_settings()?;
        let outputs = Outputs::of(&self.out);
        let _lock = outputs.claim(data, self.resume).map_err(TrainError)?;
        let checkpoint_path = outputs.checkpoint;
        self.check_start(&checkpoint_path)?;
        let loaded = dataset::load(data).map_err(|e| TrainError(format!("data: {e}")))?;
        log(&format!(
            "train: {} games, {} distinct ({:.2}%); {} repeated games ({} positions) left out",
            loaded.games,
            loaded.distinct_games,
            100.0 * loaded.distinct_share(),
            loaded.games - loaded.distinct_games,
            loaded.repeated_positions
        ));
        log(&format!("train: net {}", config.arch));
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
        if train_set.is_empty() {
            return Err(TrainError(format!(
                "data: {} samples leave none to train on at a validation share of {}",
                val.len(),
                self.validation_share
            )));
        }
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
        let fingerprint = optimiser::fingerprint(config, &train_set, val.len());
        let from = self.starting_state(&checkpoint_path, fingerprint, log)?;
        self.epochs(&train_set, &val, from, fingerprint, log)
    }

    /// Refuses settings that cannot train: a learning rate, target mix or validation share
    /// that is not a number in its range, an architecture the engine does not run, files
    /// mirrored for a king-mirrored net. (The outputs are checked by [`Outputs::claim`].)
    fn check_settings(&self) -> Result<(), TrainError> {
        let config = &self.config;
        if !(config.lr.is_finite() && config.lr > 0.0) {
            return Err(TrainError(format!(
                "the learning rate must be a positive number, got {}",
                config.lr
            )));
        }
        if !(0.0..1.0).contains(&config.weight_decay) {
            return Err(TrainError(format!(
                "the weight decay must be at least 0 and below 1, got {}",
                config.weight_decay
            )));
        }
        if !(0.0..=1.0).contains(&config.wdl) {
            return Err(TrainError(format!(
                "the result's weight must be from 0 to 1, got {}",
                config.wdl
            )));
        }
        config.arch.check().map_err(TrainError)?;
        if self.mirror_files && config.arch.king_mirror {
            return Err(TrainError(
                "--mirror-files with --king-mirror: a king-mirrored net sees a position and \
                 its a-h mirror as the same inputs, so the mirror adds nothing; drop one of \
                 them"
                    .into(),
            ));
        }
        if !(0.0..=MAX_VALIDATION_SHARE).contains(&self.validation_share) {
            return Err(TrainError(format!(
                "the validation share must be from 0 to {MAX_VALIDATION_SHARE}, got {}",
                self.validation_share
            )));
        }
        Ok(())
    }

    /// Refuses, before the data is loaded, a start the run could not read: an `--init` net
    /// it cannot take, or (when resuming) a checkpoint that is not a regular file or is
    /// longer than a checkpoint may be.
    fn check_start(&self, checkpoint_path: &Path) -> Result<(), TrainError> {
        if self.resume && checkpoint_path.exists() {
            crate::input_file::open(checkpoint_path, MAX_CHECKPOINT_BYTES, "a checkpoint")
                .map_err(|e| TrainError(format!("{}: {e}", checkpoint_path.display())))?;
        } else if let Some(path) = &self.init {
            self.initial_model(path, &mut |_| {})?;
        }
        Ok(())
    }

    /// A fresh model, or the one the checkpoint holds when resuming, with the best
    /// validation loss so far.
    fn starting_state(
        &self,
        checkpoint_path: &Path,
        fingerprint: u64,
        log: &mut dyn FnMut(&str),
    ) -> Result<Start, TrainError> {
        if !(self.resume && checkpoint_path.exists()) {
            let model = match &self.init {
                None => Model::new(self.config.arch, self.config.seed),
                Some(path) => self.initial_model(path, log)?,
            };
            return Ok(Start {
                adam: Adam::new(model.layout().params),
                model,
                first_epoch: 0,
                best_val_loss: f32::INFINITY,
            });
        }
        let unreadable = |e: String| TrainError(format!("{}: {e}", checkpoint_path.display()));
        let bytes = crate::input_file::read(checkpoint_path, MAX_CHECKPOINT_BYTES, "a checkpoint")
            .map_err(|e| unreadable(e.to_string()))?;
        let checkpoint = Checkpoint::from_bytes(&bytes).map_err(unreadable)?;
        if checkpoint.model.arch != self.config.arch {
            return Err(unreadable(format!(
                "a checkpoint of another architecture ({}), this run trains {}; run without \
                 --resume to start afresh",
                checkpoint.model.arch, self.config.arch
            )));
        }
        if checkpoint.fingerprint != fingerprint {
            return Err(unreadable(
                "made on other data or settings; run without --resume to start afresh".into(),
            ));
        }
        log(&format!("resuming after epoch {}", checkpoint.epochs_done));
        Ok(Start {
            model: checkpoint.model,
            adam: checkpoint.adam,
            first_epoch: checkpoint.epochs_done,
            best_val_loss: checkpoint.best_val_loss,
        })
    }

    /// The float model of the net at `path`: of the run's architecture, or, for a run with
    /// king buckets, a net of one king bucket and otherwise the run's shape, whose feature
    /// weights start the factoriser (see [`Model::factorised_from`]); refused otherwise.
    fn initial_model(&self, path: &Path, log: &mut dyn FnMut(&str)) -> Result<Model, TrainError> {
        let net = Network::read_file(path)
            .map_err(|e| TrainError(format!("--init {}: {e}", path.display())))?;
        let (from, arch) = (*net.architecture(), self.config.arch);
        let started = format!(
            "train: starting from {} (checksum {:016x}",
            path.display(),
            net.checksum()
        );
        if from == arch {
            log(&format!("{started})"));
            return Ok(Model::from_network(&net));
        }
        let model = Model::factorised_from(&net, arch).map_err(|_| {
            TrainError(format!(
                "--init {}: a net of {from}, this run trains {arch}; a net starts a run of its \
                 own shape, or, with one king bucket, a run of king buckets with its hidden \
                 size, activation and output buckets",
                path.display()
            ))
        })?;
        let mirror = if from.king_mirror || !arch.king_mirror {
            ""
        } else {
            "; the net is not king-mirrored, so where a king stands on files e-h the model \
             starts as the net's evaluation of the board mirrored a-h, close to the net's own \
             only if the net rates mirrored positions alike"
        };
        log(&format!(
            "{started}, {from}): its feature weights as the factoriser shared by the {} king \
             buckets, each bucket's own feature weights 0, its biases and output weights as \
             they are{mirror}",
            arch.king_buckets
        ));
        Ok(model)
    }

    /// The epochs from `first_epoch` on: train, validate, write the best net and the
    /// checkpoint.
    fn epochs(
        &self,
        train_set: &[Sample],
        val: &[Sample],
        from: Start,
        fingerprint: u64,
        log: &mut dyn FnMut(&str),
    ) -> Result<Trained, TrainError> {
        let config = &self.config;
        let out = &self.out;
        let outputs = Outputs::of(out);
        let Start {
            mut model,
            mut adam,
            first_epoch,
            mut best_val_loss,
        } = from;
        let mut checksum = None;
        // The samples of a batch: the training set when the batch size asked is larger.
        let batch = config.batch.clamp(1, train_set.len().max(1));
        let batches = train_set.len().div_ceil(batch);
        let start = Instant::now();
        let mut last_report = Instant::now();
        for epoch in first_epoch..config.epochs {
            let epoch_start = Instant::now();
            let loss = optimiser::train_epoch(
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
                            (done * batch) as f64 / start.elapsed().as_secs_f64(),
                            per_batch * (total - done) as f64
                        ));
                    }
                },
            );
            let val_loss = optimiser::mean_loss(&model, val, config.wdl, config.threads);
            if !(loss.is_finite() && (val.is_empty() || val_loss.is_finite())) {
                return Err(TrainError(format!(
                    "epoch {}: the loss is not a number (train {loss}, validation {val_loss}); \
                     nothing written",
                    epoch + 1
                )));
            }
            let secs = epoch_start.elapsed().as_secs_f64();
            let (at_clip, clipped_of) = model.output_weights_at_clip();
            let validation = if val.is_empty() {
                "no validation set".to_string()
            } else {
                format!("validation loss {val_loss:.6}")
            };
            log(&format!(
                "epoch {}/{}: train loss {loss:.6} {validation} lr {:.6} {:.1} s ({:.0} samples/s), {at_clip} of {clipped_of} output weights at the clip",
                epoch + 1,
                config.epochs,
                optimiser::learning_rate(config.lr, epoch, config.epochs),
                secs,
                train_set.len() as f64 / secs
            ));
            if val.is_empty() || val_loss < best_val_loss {
                best_val_loss = val_loss;
                // The quantised net against the model on the positions it was judged by,
                // its output bias moved to take back the mean error.
                let mut net = model.quantise();
                let judged = if val.is_empty() { train_set } else { val };
                let judged = &judged[..judged.len().min(QUANTISATION_CHECK)];
                let rounded = quantisation_error(&model, &net, judged);
                centre_output_bias(&mut net, rounded.bias);
                let error = quantisation_error(&model, &net, judged);
                checksum = Some(net.checksum());
                let temporary = &outputs.net_temporary;
                std::fs::write(temporary, net.to_bytes())
                    .and_then(|()| std::fs::rename(temporary, out))
                    .map_err(|e| {
                        let _ = std::fs::remove_file(temporary);
                        TrainError(format!("{}: {e}", out.display()))
                    })?;
                log(&format!(
                    "epoch {}: net written to {}; quantisation error {error} (rounded: mean \
                     signed {:+.2} cp, taken back by the output bias)",
                    epoch + 1,
                    out.display(),
                    rounded.bias
                ));
            }
            Checkpoint {
                epochs_done: epoch + 1,
                fingerprint,
                best_val_loss,
                model: model.clone(),
                adam: adam.clone(),
            }
            .save(&outputs.checkpoint)
            .map_err(|e| TrainError(format!("{}: {e}", outputs.checkpoint.display())))?;
        }
        Ok(Trained {
            checksum,
            elapsed: start.elapsed(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::eval::nnue::{Activation, Architecture};

    /// A small run of the default net, writing into `dir`.
    fn small_run(dir: &Path, resume: bool) -> Trainer {
        Trainer {
            config: TrainConfig {
                epochs: 4,
                batch: 16,
                lr: 0.001,
                wdl: 0.0,
                weight_decay: 0.0,
                threads: 1,
                seed: 1,
                arch: Architecture::default(),
            },
            validation_share: 0.0,
            mirror_files: false,
            resume,
            init: None,
            out: dir.join("net.nnue"),
        }
    }

    /// The same run with a SCReLU net.
    fn with_screlu(trainer: &Trainer) -> Trainer {
        Trainer {
            config: TrainConfig {
                arch: Architecture {
                    activation: Activation::SCReLU,
                    ..Architecture::default()
                },
                ..trainer.config.clone()
            },
            ..trainer.clone()
        }
    }

    #[test]
    fn a_fresh_run_starts_from_the_init_net_of_its_own_shape_only() {
        let dir = std::env::temp_dir().join(format!("rookery-init-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut model = Model::new(Architecture::default(), 5);
        model.clip();
        let net = model.quantise();
        let init = dir.join("init.nnue");
        std::fs::write(&init, net.to_bytes()).unwrap();
        let trainer = Trainer {
            init: Some(init.clone()),
            ..small_run(&dir, false)
        };
        let ckpt = Outputs::of(&trainer.out).checkpoint;
        let from = trainer.starting_state(&ckpt, 1, &mut |_| {});
        let from = from.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(from.model.quantise().to_bytes(), net.to_bytes());
        let screlu = with_screlu(&trainer);
        let refused = screlu.starting_state(&ckpt, 1, &mut |_| {});
        assert!(refused.is_err_and(|e| e.0.contains("--init") && e.0.contains("screlu")));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_one_bucket_net_starts_a_run_of_king_buckets_as_the_same_evaluation() {
        use crate::engine::eval::nnue::evaluate_position;
        use crate::learn::fit::model::tests::with_factoriser;
        use shakmaty::{CastlingMode, Chess, fen::Fen};
        let dir = std::env::temp_dir().join(format!("rookery-init-kb-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let position = |fen: &str| -> Chess {
            fen.parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap()
        };
        // Both kings on files a-d, in many buckets, either side to move.
        let a_to_d = [
            "8/8/2k5/8/8/8/1PP5/1K6 w - - 0 1",
            "3k4/8/8/8/8/8/8/R2K4 b - - 0 1",
            "1k6/pp6/8/8/3N4/8/PP6/2K5 w - - 0 1",
            "r2k4/8/8/8/2Q5/8/2P5/K7 w - - 0 1",
            "8/1k6/8/2p5/8/2K5/8/8 b - - 0 1",
            "2kr1bnr/ppp2ppp/8/8/8/8/PPP2PPP/2KR1BNR w - - 0 1",
        ];
        // A king on files e-h.
        let e_to_h = [
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "6k1/5ppp/8/8/8/8/1q3PPP/3R2K1 w - - 0 1",
        ];
        // (the net king-mirrored, king buckets, the bucketed model king-mirrored)
        let cases = [
            (false, 4, true),
            (false, 8, true),
            (true, 8, true),
            (false, 4, false),
        ];
        for (king_mirror, king_buckets, bucketed_mirror) in cases {
            let one = Architecture {
                hidden: 32,
                activation: Activation::SCReLU,
                king_mirror,
                ..Architecture::default()
            };
            let mut model = with_factoriser(one, 6);
            model.clip();
            let net = model.quantise();
            let init = dir.join("init.nnue");
            std::fs::write(&init, net.to_bytes()).unwrap();
            let arch = Architecture {
                king_mirror: bucketed_mirror,
                king_buckets,
                ..one
            };
            let trainer = Trainer {
                config: TrainConfig {
                    arch,
                    ..small_run(&dir, false).config
                },
                init: Some(init),
                ..small_run(&dir, false)
            };
            let mut lines = Vec::new();
            let from = trainer.starting_state(&dir.join("net.nnue.ckpt"), 1, &mut |l| {
                lines.push(l.to_string())
            });
            let from = from.unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(from.model.arch, arch);
            let said = lines.join("\n");
            assert!(said.contains("as the factoriser"), "{said}");
            let mirrored_alike = king_mirror == bucketed_mirror;
            assert_eq!(
                said.contains("not king-mirrored"),
                !mirrored_alike,
                "{said}"
            );
            let bucketed = from.model.quantise();
            let same = |fen: &str| {
                let pos = position(fen);
                let (a, b) = (
                    evaluate_position(&net, &pos),
                    evaluate_position(&bucketed, &pos),
                );
                // The merged weights are the net's own (each bucket's rows 0): no rounding
                // beyond the net's.
                (a - b).abs() <= 1
            };
            for fen in a_to_d {
                assert!(same(fen), "{arch} from {one}, {fen}");
            }
            // Where a king stands on e-h, a net is seen alike when it and the model are both
            // king-mirrored or neither is.
            let alike = e_to_h.iter().filter(|fen| same(fen)).count();
            if mirrored_alike {
                assert_eq!(alike, e_to_h.len());
            } else {
                assert!(alike < e_to_h.len(), "{one}");
            }
            // A net of another hidden size is refused.
            let other = Trainer {
                config: TrainConfig {
                    arch: Architecture { hidden: 48, ..arch },
                    ..trainer.config.clone()
                },
                ..trainer.clone()
            };
            let refused = other.starting_state(&dir.join("net.nnue.ckpt"), 1, &mut |_| {});
            assert!(refused.is_err_and(|e| e.0.contains("--init") && e.0.contains("king bucket")));
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_resume_starts_from_the_checkpoints_epoch_and_best_validation_loss() {
        let dir = std::env::temp_dir().join(format!("rookery-trainer-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let trainer = small_run(&dir, true);
        let checkpoint_path = Outputs::of(&trainer.out).checkpoint;
        Checkpoint {
            epochs_done: 2,
            fingerprint: 7,
            best_val_loss: 0.25,
            model: Model::random(3),
            adam: Adam::new(Model::random(3).layout().params),
        }
        .save(&checkpoint_path)
        .unwrap();
        let from = trainer.starting_state(&checkpoint_path, 7, &mut |_| {});
        let from = from.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((from.first_epoch, from.best_val_loss), (2, 0.25));
        assert!(
            trainer
                .starting_state(&checkpoint_path, 8, &mut |_| {})
                .is_err()
        );
        // Without a resume the run starts afresh, and its check refuses to overwrite.
        let afresh = Trainer {
            resume: false,
            ..trainer.clone()
        };
        let from = afresh.starting_state(&checkpoint_path, 7, &mut |_| {});
        assert!(from.is_ok_and(|f| f.first_epoch == 0 && f.best_val_loss.is_infinite()));
        let claimed = Outputs::of(&afresh.out).claim(&[], afresh.resume);
        assert!(claimed.is_err_and(|e| e.contains("a checkpoint exists")));
        // A run of another architecture refuses the checkpoint, whatever its fingerprint:
        // another activation, or king buckets.
        let bucketed = Trainer {
            config: TrainConfig {
                arch: Architecture {
                    king_mirror: true,
                    king_buckets: 4,
                    ..Architecture::default()
                },
                ..trainer.config.clone()
            },
            ..trainer.clone()
        };
        for other in [with_screlu(&trainer), bucketed] {
            let refused = other.starting_state(&checkpoint_path, 7, &mut |_| {});
            assert!(
                refused.is_err_and(|e| e.0.contains("another architecture")),
                "a checkpoint of another architecture was resumed"
            );
        }
        // Mirrored files and king mirroring exclude each other.
        let both = Trainer {
            config: TrainConfig {
                arch: Architecture {
                    king_mirror: true,
                    ..Architecture::default()
                },
                ..trainer.config.clone()
            },
            mirror_files: true,
            resume: false,
            out: dir.join("other.nnue"),
            ..trainer.clone()
        };
        let refused = both.check_settings();
        assert!(refused.is_err_and(|e| e.0.contains("--mirror-files with --king-mirror")));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
