//! Rookery: a UCI chess engine on a game-agnostic hashing core.
//!
//! - [`hashing`]: keys, key tables and the lock-free transposition table, shared by games.
//! - [`chess`]: the chess position with its incremental Polyglot key, perft and hash checks.
//! - [`engine`]: the chess engine behind a protocol-free facade: search, evaluation, time,
//!   options.
//! - [`uci`]: the UCI protocol over the engine: parsing, formatting, the input loop.
//! - [`learn`]: an evaluation learned from self-play: the data, the fit.
//! - [`gomoku`], [`hive`]: the other games on the hashing core.
//! - [`logging`]: debug logs to a file, for the `Debug Log File` option.
//! - [`input_file`]: files named by the user, read within bounds.
//! - [`json`]: JSON written by hand, for the datagen manifest and `hashstats --json`.

pub mod chess;
pub mod engine;
pub mod gomoku;
pub mod hashing;
pub mod hive;
pub mod input_file;
pub mod json;
pub mod learn;
pub mod logging;
pub mod uci;
