//! Trainer checkpoints: the `f32` model and Adam's state after a whole epoch, so a stopped
//! training run goes on from its last epoch.
//!
//! Layout (little-endian): magic `RKCK`, version `u32` (3), epochs done `u32`, Adam steps
//! `u64`, parameter count `u32`, the run's fingerprint `u64` (its settings and data, so a
//! resume on other data or settings is refused), the best validation loss so far `f32`
//! (infinite before any), then the parameters, the first moments and the second moments as
//! `f32`, then an FNV-1a 64 checksum of every byte before it.

use std::io;
use std::path::Path;

use super::train::{Adam, Model, PARAMS};
use crate::hashing::checksum::fnv1a;

const MAGIC: [u8; 4] = *b"RKCK";
const VERSION: u32 = 3;
/// Bytes before the parameters.
const HEAD: usize = 36;

/// A training run's state between epochs.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// Epochs finished.
    pub epochs_done: usize,
    /// What the run trains on and how (see [`crate::learn::train::fingerprint`]).
    pub fingerprint: u64,
    /// The lowest validation loss of the epochs done: the loss of the net file's epoch.
    pub best_val_loss: f32,
    /// The model.
    pub model: Model,
    /// The optimiser.
    pub adam: Adam,
}

impl Checkpoint {
    /// The checkpoint's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(HEAD + 12 * PARAMS + 8);
        bytes.extend_from_slice(&MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        bytes.extend_from_slice(&(self.epochs_done as u32).to_le_bytes());
        bytes.extend_from_slice(&self.adam.steps.to_le_bytes());
        bytes.extend_from_slice(&(PARAMS as u32).to_le_bytes());
        bytes.extend_from_slice(&self.fingerprint.to_le_bytes());
        bytes.extend_from_slice(&self.best_val_loss.to_le_bytes());
        for block in [&self.model.params, &self.adam.m, &self.adam.v] {
            for x in block.iter() {
                bytes.extend_from_slice(&x.to_le_bytes());
            }
        }
        let checksum = fnv1a(&bytes);
        bytes.extend_from_slice(&checksum.to_le_bytes());
        bytes
    }

    /// Reads a checkpoint of this trainer's architecture, refusing anything else.
    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, String> {
        let expected = HEAD + 12 * PARAMS + 8;
        if bytes.len() != expected {
            return Err(format!(
                "{} bytes, a checkpoint has {expected}",
                bytes.len()
            ));
        }
        let (body, tail) = bytes.split_at(expected - 8);
        if fnv1a(body) != u64::from_le_bytes(tail.try_into().expect("8 bytes")) {
            return Err("checksum mismatch".into());
        }
        let u32_at = |i: usize| u32::from_le_bytes(body[i..i + 4].try_into().expect("4 bytes"));
        if body[0..4] != MAGIC || u32_at(4) != VERSION || u32_at(20) as usize != PARAMS {
            return Err("not a checkpoint of this trainer".into());
        }
        let floats: Vec<f32> = body[HEAD..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect();
        Ok(Checkpoint {
            epochs_done: u32_at(8) as usize,
            fingerprint: u64::from_le_bytes(body[24..32].try_into().expect("8 bytes")),
            best_val_loss: f32::from_le_bytes(body[32..36].try_into().expect("4 bytes")),
            model: Model {
                params: floats[..PARAMS].to_vec(),
            },
            adam: Adam {
                m: floats[PARAMS..2 * PARAMS].to_vec(),
                v: floats[2 * PARAMS..].to_vec(),
                steps: u64::from_le_bytes(body[12..20].try_into().expect("8 bytes")),
            },
        })
    }

    /// Writes the checkpoint to `path` through a temporary file, so a stop mid-write
    /// leaves the previous one whole.
    pub fn save(&self, path: &Path) -> io::Result<()> {
        let temporary = path.with_extension("ckpt.tmp");
        std::fs::write(&temporary, self.to_bytes())?;
        std::fs::rename(&temporary, path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_refusals() {
        let mut adam = Adam::new(PARAMS);
        adam.steps = 17;
        adam.m[3] = 0.5;
        adam.v[PARAMS - 1] = 2.0;
        let checkpoint = Checkpoint {
            epochs_done: 4,
            fingerprint: 0xfeed,
            best_val_loss: 0.25,
            model: Model::random(1),
            adam,
        };
        let bytes = checkpoint.to_bytes();
        assert_eq!(Checkpoint::from_bytes(&bytes).unwrap(), checkpoint);
        assert!(Checkpoint::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        let mut damaged = bytes.clone();
        damaged[100] ^= 1;
        assert!(
            Checkpoint::from_bytes(&damaged)
                .unwrap_err()
                .contains("checksum")
        );
    }
}
