//! Learning an evaluation from Rookery's own games (issue 14, under way).
//!
//! - [`datagen`]: self-play games that write training records.
//! - [`dataset`]: records turned into the trainer's samples.
//! - [`train`]: the trainer, Adam on the perspective net, and quantisation.
//! - [`checkpoint`]: the trainer's state between epochs.
//! - [`record`]: the 32-byte training record that self-play writes and the trainer reads.

pub mod checkpoint;
pub mod datagen;
pub mod dataset;
pub mod record;
pub mod train;
