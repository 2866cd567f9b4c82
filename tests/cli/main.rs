//! The command line: the `rookery` binary's tools (perft, hash, bench, datagen, train...)
//! driven as a user or a script drives them.

#[path = "../common/mod.rs"]
mod common;

mod closed_stdout;
mod commands;
mod data;
mod data_import;
mod datagen;
mod genfens;
mod hash;
mod learn;
mod logging;
mod net;
mod number_sweep;
mod paths;
mod tool_table;
mod train;
