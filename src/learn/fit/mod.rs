//! The fit wing: a net trained on self-play data.
//!
//! - [`dataset`]: records turned into the trainer's samples.
//! - [`loss`]: the sigmoid, the target (score, result, their blend, the scale), the loss
//!   and its slope.
//! - [`model`]: the perspective net in `f32`, its forward pass, its gradient, and its
//!   quantisation.
//! - [`optimiser`]: Adam, batches and epochs.
//! - [`checkpoint`]: the trainer's state between epochs.
//! - [`outputs`]: the files a run writes, and the lock that keeps a second run off them.
//! - [`quantisation`]: how far the quantised net's evaluation strays from the model's.
//! - [`trainer`]: a training run from data files to a net file.

pub mod checkpoint;
pub mod dataset;
pub mod loss;
pub mod model;
pub mod optimiser;
pub mod outputs;
pub mod quantisation;
pub mod trainer;
