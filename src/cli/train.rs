//! `rookery train DATA... --out NET`: configures a [`Trainer`] on self-play data (game files
//! or files of records, or directories of `*.games` and `*.bin` files) and runs it.
//!
//! `--init NET` starts from a net's weights (of the same shape, or of one king bucket for a
//! net of king buckets) instead of random ones.
//! `--weight-decay D` shrinks every weight by `D` x the learning rate of itself each step
//! (AdamW; default 0). `--val` is the share of the samples kept out for validation (whole
//! games), `--resume` goes on from `NET.ckpt`, `--mirror-files` adds each training position
//! mirrored a-h.
//! The net's shape: `--hidden N` values per side (default 256), `--activation crelu|screlu`,
//! `--output-buckets N` (1 to 8, by the number of pieces), `--king-mirror` (each side seen
//! mirrored a-h while its king is on files e-h), `--king-buckets K` (1, 4 or 8 blocks of
//! feature weights by the square of the side's own king; more than 1 turns `--king-mirror`
//! on, unless `--mirror-files` trains the a-h mirrors of the positions instead: the bucket
//! layouts give a square and its mirror the same bucket, so they need no king mirroring).
//! Progress, with samples per second and the time left, goes to stderr; the net's path and
//! checksum to stdout.

use std::path::PathBuf;

use super::Outcome;
use super::args::{Args, MAX_THREADS, UsageError, misuse, threads};
use super::output::{note, out};
use rookery::engine::eval::nnue::architecture::{HIDDEN_STEP, MAX_BUCKETS, MAX_HIDDEN};
use rookery::engine::eval::nnue::{Activation, Architecture, DEFAULT_HIDDEN};
use rookery::learn::fit::optimiser::TrainConfig;
use rookery::learn::fit::trainer::MAX_VALIDATION_SHARE;
use rookery::learn::fit::trainer::Trainer;

/// The most epochs of a run: a thousand times the usual few.
pub const MAX_EPOCHS: usize = 10_000;

/// The largest batch: 64 times the default, some 70 MiB of samples, already more than a
/// data set of a few thousand games holds.
pub const MAX_BATCH: usize = 1 << 20;

/// The largest learning rate: the nets here train at 0.00001 to 0.003, and from 1 on Adam's
/// steps swamp any weight.
pub const MAX_LR: f32 = 1.0;

/// Usage text.
pub fn usage() -> String {
    format!(
        "usage: rookery train DATA... --out NET [--epochs E] [--batch B] [--lr R] [--wdl W]
                     [--val F] [--weight-decay D] [--threads T] [--seed S] [--mirror-files]
                     [--resume] [--init NET] [--hidden N] [--activation crelu|screlu]
                     [--output-buckets N] [--king-mirror] [--king-buckets K]
  trains a net on DATA (data files, or directories of *.games and *.bin files)
  --out NET            the net written, with NET.ckpt beside it
  --epochs E           passes over the data, 1 to {MAX_EPOCHS} (default 20)
  --batch B            samples a step, 1 to {MAX_BATCH} (default 16384)
  --lr R               the first learning rate, above 0 and at most {MAX_LR} (default 0.001)
  --wdl W              the result's share of the target, 0 to 1 (default 0.3)
  --val F              the share of the games kept out to validate, 0 to {MAX_VALIDATION_SHARE} (default 0.02)
  --weight-decay D     AdamW's decay, 0 and below 1 (default 0)
  --threads T          1 to {MAX_THREADS} (default 1)
  --seed S             0 to {} (default 1)
  --mirror-files       adds each position mirrored a-h
  --resume             goes on from NET.ckpt
  --init NET           starts from a net's weights instead of random ones
  --hidden N           values per side, a multiple of {HIDDEN_STEP} from {HIDDEN_STEP} to {MAX_HIDDEN} (default {DEFAULT_HIDDEN})
  --activation A       crelu or screlu (default crelu)
  --output-buckets N   output buckets by the number of pieces, 1 to {MAX_BUCKETS} (default 1)
  --king-mirror        each side seen mirrored a-h while its king is on files e-h
  --king-buckets K     1, 4 or 8 blocks of feature weights by the own king's square",
        u64::MAX
    )
}

/// Runs `rookery train` with the words after `train`.
pub fn run(words: &[String]) -> Result<Outcome, UsageError> {
    let args = Args::parse(
        words,
        &[
            "out",
            "epochs",
            "batch",
            "lr",
            "wdl",
            "weight-decay",
            "val",
            "threads",
            "seed",
            "hidden",
            "activation",
            "output-buckets",
            "king-buckets",
            "init",
        ],
        &["resume", "mirror-files", "king-mirror"],
    )?;
    if args.positional.is_empty() {
        return Err(misuse("train", "no data given"));
    }
    let Some(out) = args.value::<PathBuf>("out")? else {
        return Err(misuse("train", "--out NET is required"));
    };
    // More than one king bucket turns king mirroring on, unless the positions' a-h mirrors
    // are trained instead (the two exclude each other).
    let king_buckets = args.value("king-buckets")?.unwrap_or(1usize);
    let arch = Architecture {
        hidden: args.value("hidden")?.unwrap_or(DEFAULT_HIDDEN),
        activation: args
            .value::<Activation>("activation")?
            .unwrap_or(Activation::CReLU),
        buckets: args.value("output-buckets")?.unwrap_or(1usize),
        king_mirror: args.switch("king-mirror")
            || (king_buckets > 1 && !args.switch("mirror-files")),
        king_buckets,
    };
    arch.check().map_err(UsageError)?;
    let config = TrainConfig {
        epochs: args.number("epochs", 1..=MAX_EPOCHS, 20)?,
        batch: args.number("batch", 1..=MAX_BATCH, 16384)?,
        lr: args.number("lr", 0.0..=MAX_LR, 0.001)?,
        wdl: args.value::<f32>("wdl")?.unwrap_or(0.3),
        weight_decay: args.value::<f32>("weight-decay")?.unwrap_or(0.0),
        threads: threads(&args)?,
        seed: args.number("seed", 0..=u64::MAX, 1)?,
        arch,
    };
    let trainer = Trainer {
        config,
        validation_share: args.value::<f64>("val")?.unwrap_or(0.02),
        mirror_files: args.switch("mirror-files"),
        resume: args.switch("resume"),
        init: args.value::<PathBuf>("init")?,
        out,
    };
    let data: Vec<PathBuf> = args.positional.iter().map(PathBuf::from).collect();
    let trained = trainer
        .run(&data, &mut |line| note!("{line}"))
        .map_err(|e| UsageError(e.0))?;
    // A resume with no epoch left writes nothing: the net file is the one written before.
    let written = match trained.checksum {
        Some(checksum) => format!("checksum {checksum:016x}"),
        None => "unchanged".to_string(),
    };
    out!(
        "{}: {written}, {:.0} s",
        trainer.out.display(),
        trained.elapsed.as_secs_f64()
    );
    Ok(Outcome::Success)
}
