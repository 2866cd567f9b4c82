//! The games on the hashing core: chess move generation (perft), gomoku and Hive.

#[path = "../common/mod.rs"]
mod common;

mod gomoku;
mod hive;
mod perft;
