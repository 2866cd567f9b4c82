//! `rookery train DATA... --out NET`: trains the perspective net on self-play data (files,
//! or directories of `*.bin`) and writes the quantised net (see [`crate::learn::train`]).
//!
//! A share of the samples (`--val`, in seeded runs of consecutive positions, so whole games)
//! is kept out for validation; its loss is printed after every epoch. `NET` holds the epoch
//! with the lowest validation loss so far; the trainer's state after every epoch goes to
//! `NET.ckpt`, and `--resume` goes on from that checkpoint. Progress, with samples per second
//! and the time left, goes to stderr. `--mirror-files` adds each
//! training position mirrored a-h.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use rand::seq::SliceRandom;

use super::Outcome;
use super::args::{Args, UsageError};
use crate::engine::eval::nnue::network::SCALE;
use crate::learn::checkpoint::Checkpoint;
use crate::learn::dataset;
use crate::learn::train::{self, Adam, Model, PARAMS, TrainConfig};

/// Usage text.
pub const USAGE: &str = "usage: rookery train DATA... --out NET [--epochs E] [--batch B] \
[--lr R] [--wdl W] [--val F] [--threads T] [--seed S] [--mirror-files] [--resume]";

/// Runs `rookery train` with the words after `train`.
pub fn run(words: &[String]) -> Result<Outcome, UsageError> {
    let args = Args::parse(
        words,
        &[
            "out", "epochs", "batch", "lr", "wdl", "val", "threads", "seed",
        ],
        &["resume", "mirror-files"],
    )?;
    if args.positional.is_empty() {
        return Err(UsageError(format!("no data given\n{USAGE}")));
    }
    let Some(out) = args.value::<PathBuf>("out")? else {
        return Err(UsageError(format!("--out NET is required\n{USAGE}")));
    };
    let config = TrainConfig {
        epochs: args.value("epochs")?.unwrap_or(20usize).max(1),
        batch: args.value("batch")?.unwrap_or(16384usize).max(1),
        lr: args.value("lr")?.unwrap_or(0.001f32),
        wdl: args.value::<f32>("wdl")?.unwrap_or(0.3).clamp(0.0, 1.0),
        threads: args.value("threads")?.unwrap_or(1usize).clamp(1, 256),
        seed: args.value("seed")?.unwrap_or(1),
    };
    let val_share = args.value::<f64>("val")?.unwrap_or(0.02).clamp(0.0, 0.5);
    let paths: Vec<PathBuf> = args.positional.iter().map(PathBuf::from).collect();

    let loaded = dataset::load(&paths).map_err(|e| UsageError(format!("data: {e}")))?;
    let samples = loaded.samples;
    if samples.is_empty() {
        return Err(UsageError("data: no records".into()));
    }
    let (fitted, fit_error) = dataset::fit_scale(&samples, 16);
    eprintln!(
        "train: the scores predict the results best at {fitted} cp per unit (mean squared \
         error {fit_error:.4}); the net's scale is {SCALE}"
    );
    // Validation takes whole runs of games, so it never sees a sibling of a training position.
    let (val, mut train_set) = dataset::split_by_blocks(&samples, val_share, config.seed);
    drop(samples);
    train_set.shuffle(&mut ChaCha8Rng::seed_from_u64(config.seed));
    let (val, train_set) = (&val[..], &train_set[..]);
    // Mirrored copies join the training set only, so validation never sees a twin.
    let mirrored: Vec<_>;
    let train_set = if args.switch("mirror-files") {
        mirrored = train_set
            .iter()
            .flat_map(|s| [*s, s.files_mirrored()])
            .collect();
        &mirrored[..]
    } else {
        train_set
    };
    eprintln!(
        "train: {} files, {} samples ({} training, {} validation), {} trailing bytes skipped",
        loaded.files,
        train_set.len() + val.len(),
        train_set.len(),
        val.len(),
        loaded.trailing_bytes
    );

    let checkpoint_path = out.with_extension("ckpt");
    if checkpoint_path == out {
        return Err(UsageError(format!(
            "{}: the net file cannot end in .ckpt",
            out.display()
        )));
    }
    let fingerprint = train::fingerprint(&config, train_set, val.len());
    let (mut model, mut adam, first_epoch) = if args.switch("resume") && checkpoint_path.exists() {
        let bytes = std::fs::read(&checkpoint_path)
            .map_err(|e| UsageError(format!("{}: {e}", checkpoint_path.display())))?;
        let checkpoint = Checkpoint::from_bytes(&bytes)
            .map_err(|e| UsageError(format!("{}: {e}", checkpoint_path.display())))?;
        if checkpoint.fingerprint != fingerprint {
            return Err(UsageError(format!(
                "{}: made on other data or settings; run without --resume to start afresh",
                checkpoint_path.display()
            )));
        }
        eprintln!("resuming after epoch {}", checkpoint.epochs_done);
        (checkpoint.model, checkpoint.adam, checkpoint.epochs_done)
    } else {
        (Model::random(config.seed), Adam::new(PARAMS), 0)
    };

    // A resumed run starts its best afresh: its first epoch is written.
    let mut best_val_loss = f32::INFINITY;
    let mut written_checksum = None;
    let batches = train_set.len().div_ceil(config.batch);
    let start = Instant::now();
    let mut last_report = Instant::now();
    for epoch in first_epoch..config.epochs {
        let epoch_start = Instant::now();
        let loss = train::train_epoch(
            &mut model,
            &mut adam,
            train_set,
            &config,
            epoch,
            |b, loss| {
                if last_report.elapsed() >= Duration::from_secs(10) {
                    last_report = Instant::now();
                    let done = (epoch - first_epoch) * batches + b;
                    let total = (config.epochs - first_epoch) * batches;
                    let per_batch = start.elapsed().as_secs_f64() / done as f64;
                    eprintln!(
                        "epoch {}/{} batch {b}/{batches} loss {loss:.6} {:.0} samples/s ETA {:.0} s",
                        epoch + 1,
                        config.epochs,
                        (done * config.batch) as f64 / start.elapsed().as_secs_f64(),
                        per_batch * (total - done) as f64
                    );
                }
            },
        );
        let val_loss = train::mean_loss(&model, val, config.wdl, config.threads);
        let secs = epoch_start.elapsed().as_secs_f64();
        eprintln!(
            "epoch {}/{}: train loss {loss:.6} validation loss {val_loss:.6} lr {:.6} {:.1} s ({:.0} samples/s)",
            epoch + 1,
            config.epochs,
            train::learning_rate(config.lr, epoch, config.epochs),
            secs,
            train_set.len() as f64 / secs
        );
        // The net file keeps the epoch that validated best (every epoch without validation).
        if val.is_empty() || val_loss < best_val_loss {
            best_val_loss = val_loss;
            let net = model.quantise();
            written_checksum = Some(net.checksum());
            let temporary = out.with_extension("nnue.tmp");
            std::fs::write(&temporary, net.to_bytes())
                .and_then(|()| std::fs::rename(&temporary, &out))
                .map_err(|e| UsageError(format!("{}: {e}", out.display())))?;
            eprintln!("epoch {}: net written to {}", epoch + 1, out.display());
        }
        Checkpoint {
            epochs_done: epoch + 1,
            fingerprint,
            model: model.clone(),
            adam: adam.clone(),
        }
        .save(&checkpoint_path)
        .map_err(|e| UsageError(format!("{}: {e}", checkpoint_path.display())))?;
    }
    // A resume with no epoch left writes nothing: the net file is the one written before.
    let written = match written_checksum {
        Some(checksum) => format!("checksum {checksum:016x}"),
        None => "unchanged".to_string(),
    };
    println!(
        "{}: {written}, {:.0} s",
        out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(Outcome::Success)
}
