//! Rookery: a UCI chess engine on a game-agnostic hashing core.
//!
//! - [`hashing`]: keys, key tables and the lock-free transposition table, shared by games.
//! - [`chess`]: the chess position with its incremental Polyglot key, perft and hash checks.
//! - [`cli`]: the command-line tools (`perft`, `hashcheck`).

pub mod chess;
pub mod cli;
pub mod engine;
pub mod gomoku;
pub mod hashing;
pub mod hive;
pub mod logging;
