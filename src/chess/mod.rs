//! Chess on top of shakmaty: the position with its incremental Polyglot key, perft and the
//! hash-consistency walker.

pub mod epd;
pub mod hashcheck;
pub mod key_update;
pub mod perft;
pub mod position;
pub mod quiet_check;
pub mod tactical;
pub mod walk;
pub mod zobrist;

pub use position::{FenError, MoveError, Position};
