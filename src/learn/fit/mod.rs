//! The fit wing: a net trained on self-play data.
//!
//! - [`dataset`]: records turned into the trainer's samples.
//! - [`model`]: the perspective net in `f32`, its forward pass, its gradient, and its
//!   quantisation.
//! - [`optimiser`]: the loss, Adam, batches and epochs.
//! - [`checkpoint`]: the trainer's state between epochs.
//! - [`quantisation`]: how far the quantised net's evaluation strays from the model's.
//! - [`trainer`]: a training run from data files to a net file.

pub mod checkpoint;
pub mod dataset;
pub mod model;
pub mod optimiser;
pub mod outputs;
pub mod quantisation;
pub mod trainer;
