//! The command-line tools, one module each, listed in [`COMMANDS`]. Results go to stdout in
//! the documented formats; progress, timings and speeds go to stderr.

pub mod args;
pub mod bench;
pub mod book;
pub mod command;
pub mod data;
pub mod data_import;
pub mod datagen;
pub mod dispatch;
pub mod games;
pub mod genfens;
pub mod hash;
pub mod hashcheck;
pub mod hashstats;
pub mod key_report;
pub mod net;
pub mod output;
pub mod perft;
pub mod spsa;
pub mod suite;
pub mod train;

pub use command::{Command, Outcome};
pub use dispatch::{find, help, run, unknown, version};
pub use output::nps;
pub(crate) use suite::{Root, case_position, epd_roots, read_suite};

/// Every tool, in the order `rookery help` lists them. Adding a tool is its module and one
/// entry here, and its row in docs/tools.md (a test holds the two lists together).
pub static COMMANDS: &[Command] = &[
    Command {
        name: "bench",
        synopsis: "the fixed-depth search of the bench positions: the engine's signature",
        usage: bench::usage,
        run: bench::run,
    },
    Command {
        name: "perft",
        synopsis: "move-generation counts of a position, or checked against an EPD suite",
        usage: perft::usage,
        run: perft::run,
    },
    Command {
        name: "hashcheck",
        synopsis: "the incremental key against reference keys over move trees and random games",
        usage: hashcheck::usage,
        run: hashcheck::run,
    },
    Command {
        name: "book",
        synopsis: "a position's entries in a Polyglot book",
        usage: book::usage,
        run: book::run,
    },
    Command {
        name: "hash",
        synopsis: "the keys of a gomoku or Hive position",
        usage: hash::usage,
        run: hash::run,
    },
    Command {
        name: "hashstats",
        synopsis: "key quality of a game: collisions, false table hits, key-table checks",
        usage: hashstats::usage,
        run: hashstats::run,
    },
    Command {
        name: "datagen",
        synopsis: "self-play training data",
        usage: datagen::usage,
        run: datagen::run,
    },
    Command {
        name: "data",
        synopsis: "checks data files and directories and says what they hold",
        usage: || data::USAGE.to_string(),
        run: data::run,
    },
    Command {
        name: "train",
        synopsis: "trains a net from self-play data",
        usage: train::usage,
        run: train::run,
    },
    Command {
        name: "net",
        synopsis: "a net's checksum and shape, its mean |evaluation| over a suite, a scaled copy",
        usage: || net::USAGE.to_string(),
        run: net::run,
    },
    Command {
        name: "spsa",
        synopsis: "the tunables in OpenBench's SPSA format (a `tune` build only)",
        usage: spsa::usage,
        run: spsa::run,
    },
];
