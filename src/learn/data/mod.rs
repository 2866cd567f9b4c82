//! The data wing: what self-play writes for the trainer.
//!
//! - [`record`]: the 32-byte training record that self-play writes and the trainer reads.
//! - [`games`]: where games begin in a data file, and a hash per game.
//! - [`writer`]: the data file a datagen run appends whole games to.
//! - [`manifest`]: the record of datagen runs kept beside their data.
//! - [`datagen`]: self-play games that write training records.
//! - [`session`]: a datagen run from its settings to the data directory.

pub mod datagen;
pub mod games;
pub mod manifest;
pub mod record;
pub mod session;
pub mod writer;
