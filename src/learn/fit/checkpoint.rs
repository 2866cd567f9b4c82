//! Trainer checkpoints: the `f32` model and Adam's state after a whole epoch, so a stopped
//! training run goes on from its last epoch.
//!
//! Layout (little-endian): magic `RKCK`, version `u32` (5), epochs done `u32`, Adam steps
//! `u64`, parameter count `u32`, the run's fingerprint `u64` (its settings and data, so a
//! resume on other data or settings is refused), the best validation loss so far `f32`
//! (infinite before any), the architecture as five `u32` (hidden size, activation code,
//! output buckets, king mirror 0 or 1, king buckets, as in a format 4 net's header), then
//! the parameters (a factoriser's among them, see [`Layout`]), the first moments and the
//! second moments as `f32`, then an FNV-1a 64 checksum of every byte before it.
//!
//! Version 4, written before king buckets, is the same without the king-bucket count: it
//! reads as one king bucket, so a run started then resumes.

use std::io;
use std::path::Path;

use super::model::{Layout, Model};
use super::optimiser::Adam;
use crate::engine::eval::nnue::{Activation, Architecture};
use crate::hashing::checksum::fnv1a;

const MAGIC: [u8; 4] = *b"RKCK";
const VERSION: u32 = 5;
/// Bytes before the parameters.
const HEAD: usize = 56;
/// The version before king buckets, still read.
const VERSION_4: u32 = 4;
/// Bytes before the parameters in version 4.
const HEAD_4: usize = 52;

/// A training run's state between epochs.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// Epochs finished.
    pub epochs_done: usize,
    /// What the run trains on and how (see [`crate::learn::fit::optimiser::fingerprint`]).
    pub fingerprint: u64,
    /// The lowest validation loss of the epochs done: the loss of the net file's epoch.
    pub best_val_loss: f32,
    /// The model, with its architecture.
    pub model: Model,
    /// The optimiser.
    pub adam: Adam,
}

impl Checkpoint {
    /// The checkpoint's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let params = self.model.params.len();
        let arch = &self.model.arch;
        let mut bytes = Vec::with_capacity(HEAD + 12 * params + 8);
        bytes.extend_from_slice(&MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        bytes.extend_from_slice(&(self.epochs_done as u32).to_le_bytes());
        bytes.extend_from_slice(&self.adam.steps.to_le_bytes());
        bytes.extend_from_slice(&(params as u32).to_le_bytes());
        bytes.extend_from_slice(&self.fingerprint.to_le_bytes());
        bytes.extend_from_slice(&self.best_val_loss.to_le_bytes());
        for field in [
            arch.hidden as u32,
            arch.activation.code(),
            arch.buckets as u32,
            u32::from(arch.king_mirror),
            arch.king_buckets as u32,
        ] {
            bytes.extend_from_slice(&field.to_le_bytes());
        }
        for block in [&self.model.params, &self.adam.m, &self.adam.v] {
            for x in block.iter() {
                bytes.extend_from_slice(&x.to_le_bytes());
            }
        }
        let checksum = fnv1a(&bytes);
        bytes.extend_from_slice(&checksum.to_le_bytes());
        bytes
    }

    /// Reads a checkpoint, refusing anything that is not a whole checkpoint of this trainer
    /// (of any architecture: the caller compares it with its own).
    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, String> {
        let not_ours = || "not a checkpoint of this trainer".to_string();
        let short = || format!("{} bytes, shorter than a checkpoint's head", bytes.len());
        if bytes.len() < 8 {
            return Err(short());
        }
        let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
        if bytes[0..4] != MAGIC {
            return Err(not_ours());
        }
        let head = match u32_at(4) {
            VERSION => HEAD,
            VERSION_4 => HEAD_4,
            _ => return Err(not_ours()),
        };
        if bytes.len() < head {
            return Err(short());
        }
        let arch = Architecture {
            hidden: u32_at(36) as usize,
            activation: Activation::from_code(u32_at(40)).ok_or_else(not_ours)?,
            buckets: u32_at(44) as usize,
            king_mirror: match u32_at(48) {
                0 => false,
                1 => true,
                _ => return Err(not_ours()),
            },
            king_buckets: if head == HEAD { u32_at(52) as usize } else { 1 },
        };
        arch.check()?;
        let params = Layout::of(&arch).params;
        let expected = head + 12 * params + 8;
        if bytes.len() != expected {
            return Err(format!(
                "{} bytes, a checkpoint of {arch} has {expected}",
                bytes.len()
            ));
        }
        let (body, tail) = bytes.split_at(expected - 8);
        if fnv1a(body) != u64::from_le_bytes(tail.try_into().expect("8 bytes")) {
            return Err("checksum mismatch".into());
        }
        if u32_at(20) as usize != params {
            return Err(not_ours());
        }
        let floats: Vec<f32> = body[head..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect();
        Ok(Checkpoint {
            epochs_done: u32_at(8) as usize,
            fingerprint: u64::from_le_bytes(body[24..32].try_into().expect("8 bytes")),
            best_val_loss: f32::from_le_bytes(body[32..36].try_into().expect("4 bytes")),
            model: Model {
                arch,
                params: floats[..params].to_vec(),
            },
            adam: Adam {
                m: floats[params..2 * params].to_vec(),
                v: floats[2 * params..].to_vec(),
                steps: u64::from_le_bytes(body[12..20].try_into().expect("8 bytes")),
            },
        })
    }

    /// Writes the checkpoint to `path` through a temporary file, so a stop mid-write
    /// leaves the previous one whole.
    pub fn save(&self, path: &Path) -> io::Result<()> {
        let temporary = path.with_extension("ckpt.tmp");
        std::fs::write(&temporary, self.to_bytes())
            .and_then(|()| std::fs::rename(&temporary, path))
            .inspect_err(|_| {
                // No temporary file is left behind.
                let _ = std::fs::remove_file(&temporary);
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::fit::model::tests::samples;
    use crate::learn::fit::optimiser::{TrainConfig, fingerprint, train_epoch};

    /// `bytes` with its checksum made right again.
    fn resealed(mut bytes: Vec<u8>) -> Vec<u8> {
        let body = bytes.len() - 8;
        let sum = fnv1a(&bytes[..body]);
        bytes[body..].copy_from_slice(&sum.to_le_bytes());
        bytes
    }

    #[test]
    fn round_trip_and_refusals() {
        let mirrored = Architecture {
            hidden: 32,
            activation: Activation::SCReLU,
            buckets: 8,
            king_mirror: true,
            king_buckets: 1,
        };
        for arch in [
            Architecture::default(),
            mirrored,
            Architecture {
                king_buckets: 4,
                ..mirrored
            },
            Architecture {
                king_buckets: 8,
                ..mirrored
            },
        ] {
            let model = Model::new(arch, 1);
            let params = model.params.len();
            let mut adam = Adam::new(params);
            adam.steps = 17;
            adam.m[3] = 0.5;
            adam.v[params - 1] = 2.0;
            let checkpoint = Checkpoint {
                epochs_done: 4,
                fingerprint: 0xfeed,
                best_val_loss: 0.25,
                model,
                adam,
            };
            let bytes = checkpoint.to_bytes();
            assert_eq!(Checkpoint::from_bytes(&bytes).unwrap(), checkpoint);
            assert!(Checkpoint::from_bytes(&bytes[..bytes.len() - 1]).is_err());
            assert!(Checkpoint::from_bytes(&bytes[..20]).is_err());
            let mut damaged = bytes.clone();
            damaged[100] ^= 1;
            assert!(
                Checkpoint::from_bytes(&damaged)
                    .unwrap_err()
                    .contains("checksum")
            );
            // Another version (3: before the architecture was kept).
            let mut old = bytes.clone();
            old[4] = 3;
            assert!(
                Checkpoint::from_bytes(&old)
                    .unwrap_err()
                    .contains("not a checkpoint")
            );
            // A king-bucket count without a layout.
            for (at, value) in [(52, 3), (52, 0)] {
                let mut other = bytes.clone();
                other[at..at + 4].copy_from_slice(&(value as u32).to_le_bytes());
                let refused = Checkpoint::from_bytes(&resealed(other)).unwrap_err();
                assert!(refused.contains("king buckets"), "{arch}: {refused}");
            }
            // Version 4, from before king buckets: read as one king bucket.
            let mut v4 = bytes[..52].to_vec();
            v4.extend_from_slice(&bytes[56..]);
            v4[4] = 4;
            let read = Checkpoint::from_bytes(&resealed(v4));
            if arch.king_buckets == 1 {
                assert_eq!(read.unwrap(), checkpoint);
            } else {
                // Its length is that of a one-bucket model of the same shape: refused.
                assert!(read.is_err());
            }
        }
    }

    #[test]
    fn resuming_from_a_checkpoint_equals_an_unbroken_run() {
        let data = samples();
        // King buckets, so that the factoriser and its moments go through the checkpoint.
        let arch = Architecture {
            hidden: 32,
            activation: Activation::SCReLU,
            buckets: 8,
            king_mirror: true,
            king_buckets: 8,
        };
        let config = TrainConfig {
            epochs: 4,
            batch: 2,
            lr: 0.01,
            wdl: 0.5,
            weight_decay: 0.0,
            threads: 1,
            seed: 6,
            arch,
        };
        let params = Model::new(arch, 0).layout().params;
        let mut unbroken = Model::new(arch, config.seed);
        let mut adam = Adam::new(params);
        for epoch in 0..config.epochs {
            train_epoch(&mut unbroken, &mut adam, &data, &config, epoch, |_, _| {});
        }
        let mut model = Model::new(arch, config.seed);
        let mut adam = Adam::new(params);
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
        assert_eq!(resumed.model.arch, arch);
        let (mut model, mut adam) = (resumed.model, resumed.adam);
        for epoch in resumed.epochs_done..config.epochs {
            train_epoch(&mut model, &mut adam, &data, &config, epoch, |_, _| {});
        }
        assert_eq!(model, unbroken);
        // Other data, settings or architecture give another fingerprint.
        assert_ne!(fingerprint(&config, &data[1..], 0), resumed.fingerprint);
        let other = TrainConfig {
            lr: 0.02,
            ..config.clone()
        };
        assert_ne!(fingerprint(&other, &data, 0), resumed.fingerprint);
        let other = TrainConfig {
            weight_decay: 0.01,
            ..config.clone()
        };
        assert_ne!(fingerprint(&other, &data, 0), resumed.fingerprint);
        for other in [
            Architecture {
                king_mirror: false,
                king_buckets: 1,
                ..arch
            },
            Architecture {
                king_buckets: 4,
                ..arch
            },
        ] {
            let other = TrainConfig {
                arch: other,
                ..config.clone()
            };
            assert_ne!(fingerprint(&other, &data, 0), resumed.fingerprint);
        }
    }
}
