//! Learning an evaluation from Rookery's own games: self-play data, and a trainer that
//! turns it into a net.
//!
//! - [`datagen`]: self-play games that write training records.
//! - [`writer`]: the data file a datagen run appends whole games to.
//! - [`manifest`]: the record of datagen runs kept beside their data.
//! - [`json`]: the one-line JSON objects the manifest is made of.
//! - [`games`]: where games begin in a data file, and a hash per game.
//! - [`dataset`]: records turned into the trainer's samples.
//! - [`model`]: the perspective net in `f32`, its forward pass, its gradient, and its
//!   quantisation.
//! - [`train`]: the loss, Adam, batches and epochs.
//! - [`trainer`]: a training run from data files to a net file.
//! - [`checkpoint`]: the trainer's state between epochs.
//! - [`record`]: the 32-byte training record that self-play writes and the trainer reads.

pub mod checkpoint;
pub mod datagen;
pub mod dataset;
pub mod games;
pub mod json;
pub mod manifest;
pub mod model;
pub mod record;
pub mod train;
pub mod trainer;
pub mod writer;
