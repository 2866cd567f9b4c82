//! The engine through the library: search, threads, tablebases, strength limits, the
//! network and its file, training, the opening book, and the option table of the docs against
//! the engine's options.

#[path = "../common/mod.rs"]
mod common;

mod book;
mod net_file;
mod nnue;
mod nnue_training;
mod option_table;
mod search_memory;
mod soft_nodes;
mod strength;
mod tb;
mod threads;
