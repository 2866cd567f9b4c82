//! Learning an evaluation from Rookery's own games (issue 14, under way).
//!
//! - [`record`]: the 32-byte training record that self-play writes and the trainer reads.

pub mod record;
