//! The data wing: what self-play writes for the trainer.
//!
//! - [`record`]: the 32-byte training record that self-play writes and the trainer reads.
//! - [`game_file`]: the game file: whole games, each a start position and every ply's move and
//!   score, that the trainer replays into records.
//! - [`games`]: where games begin in a data file, and a hash per game.
//! - [`reader`]: data files of either format, read game by game.
//! - [`writer`]: the data file a datagen run appends whole games to.
//! - [`manifest`]: the record of datagen runs kept beside their data.
//! - [`datagen`]: self-play games that write training records.
//! - [`session`]: a datagen run from its settings to the data directory.

pub mod datagen;
pub mod game_file;
pub mod games;
pub mod manifest;
pub mod reader;
pub mod record;
pub mod session;
pub mod writer;
