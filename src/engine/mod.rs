//! The chess engine: evaluation, search, time management and the UCI protocol.

pub mod bench;
pub mod book;
pub mod eval;
pub mod harness;
pub mod movepick;
pub mod packed;
pub mod search;
pub mod see;
pub mod timeman;
pub mod tt;
pub mod uci;
