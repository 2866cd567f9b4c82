//! Learning an evaluation from Rookery's own games: self-play data, and a trainer that
//! turns it into a net.
//!
//! - [`datagen`]: self-play games that write training records.
//! - [`dataset`]: records turned into the trainer's samples.
//! - [`train`]: the perspective net in `f32`, its gradient, Adam, and quantisation.
//! - [`trainer`]: a training run from data files to a net file.
//! - [`checkpoint`]: the trainer's state between epochs.
//! - [`record`]: the 32-byte training record that self-play writes and the trainer reads.

pub mod checkpoint;
pub mod datagen;
pub mod dataset;
pub mod record;
pub mod train;
pub mod trainer;
