//! Learning an evaluation from Rookery's own games, in two wings: the data that self-play
//! writes, and the fit that turns it into a net.
//!
//! - [`data`]: the game file and the training record, self-play games, reading and writing
//!   data files, the manifest of runs, and the datagen session that ties them together.
//! - [`fit`]: records turned into samples, the model and its quantisation, the optimiser,
//!   checkpoints, and the trainer that runs a fit from data files to a net file.

pub mod data;
pub mod fit;
