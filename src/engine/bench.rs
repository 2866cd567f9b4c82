//! `bench`: a fixed-depth search of a fixed set of positions on one thread with a fresh
//! table. Its node count is the engine's signature: any change to the search shows in it.

use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};

use super::eval::nnue::Network;
use super::limits::Limits;
use super::search::{SearchOptions, Signals, Silent, search};
use super::tt::ChessTable;
use crate::chess::Position;

/// Depth searched when none is given.
pub const DEFAULT_DEPTH: u32 = 11;
/// Deepest bench accepted (`bench` in UCI and on the command line).
pub const MAX_BENCH_DEPTH: u32 = 30;

/// Openings, middlegames and endgames of every kind.
pub const POSITIONS: [&str; 40] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rn2kb1r/pp3ppp/2p1pn2/3p3b/8/1P1P1NPP/PBPqPPB1/RN2K2R w KQkq - 0 9",
    "rn1q1rk1/pb2bppp/1p1ppn2/2p5/4P3/2PP1NP1/PP3PBP/RNBQR1K1 w - - 1 9",
    "r1bq1rk1/pp2ppbp/n5p1/2Pn4/8/5NP1/PP2PPBP/RNBQ1RK1 w - - 1 9",
    "rnb2rk1/pp3ppp/2q1pn2/2b5/2B5/5N2/PPPNQPPP/R1B1K2R w KQ - 6 9",
    "r1bq1rk1/1pp1bpp1/p1np1n1p/4p3/B3P3/2P2N1P/PP1P1PP1/RNBQR1K1 w - - 0 9",
    "rnbq1rk1/pp2b1pp/2pp1n2/5pB1/2PPp3/2N1P3/PP2NPPP/R2QKB1R w KQ - 0 9",
    "rn1qk2r/pbp2ppp/1p2p3/3pP3/1b1P4/2nB1N2/PPP1QPPP/R1B2RK1 w kq - 0 9",
    "r1bqkb1r/1p3ppp/p1n2n2/3p4/2pP4/P1N1PN2/1P2BPPP/R1BQK2R w KQkq - 0 9",
    "r2qk2r/1pp2ppp/p1p2n2/4p3/1b2P3/2NP1b1P/PPP2PP1/R1BQK2R w KQkq - 0 9",
    "r1bqkb1r/ppn3pp/2n2p2/2p1p3/1P6/P1N2NP1/3PPPBP/R1BQK2R w KQkq - 0 9",
    "r1bqk2r/ppp1bpp1/4pn1p/8/3P4/4BN2/PPP2PPP/R2QKB1R w KQkq - 2 9",
    "r1bq1rk1/pppn1pbp/5np1/4p1B1/2B1P3/2P2N2/PP1N1PPP/R2QK2R w KQ - 0 9",
    "r1bqr1k1/ppp2pbp/2np1np1/4p3/1PP5/P1NP2P1/1B2PPBP/R2QK1NR w KQ - 0 9",
    "rn1qk2r/pp2bp1p/2p2np1/3p1b2/3P1B2/2N2N1P/PPQ1PPP1/R3KB1R w KQkq - 1 9",
    "rnbqkb1r/1p3ppp/p3p3/3p4/4n1P1/2N4P/PPP1NP2/R1BQKB1R w KQkq - 0 9",
    "rnbqk2r/1p3ppp/5n2/p2p4/1b6/5N2/PPQBPPPP/RN2KB1R w KQkq - 0 9",
    "r1bqk2r/pp3ppp/2n2n2/3p4/1bpP4/2N1PN2/PP2BPPP/R1BQ1RK1 w kq - 2 9",
    "r1bq1rk1/ppp2pp1/2np1n1p/4p3/4P3/2P2NP1/PPP1QPBP/R1B2RK1 w - - 2 9",
    "r1b1kb1r/pp1n1ppp/1q1p1n2/1BpPp3/4PP2/2N5/P1PB2PP/R2QK1NR w KQkq - 2 9",
    "rnb2rk1/ppp2pp1/3ppq1p/8/2PP4/P1R5/1P2PPPP/3QKBNR w K - 0 9",
    "2r1k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1",
    "r3k1r1/8/8/8/8/8/8/R3K2R b KQq - 0 1",
    "K7/8/2n5/1n6/8/8/8/k6N b - - 0 1",
    "6KQ/8/8/8/8/8/8/7k b - - 0 1",
    "8/8/3k4/3p4/8/3P4/3K4/8 w - - 0 1",
    "7k/8/1p6/8/8/P7/8/7K w - - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "8/8/8/8/8/8/6k1/4K2R w K - 0 1",
    "8/5pk1/6p1/8/3R4/6P1/5PKP/3r4 w - - 0 40",
    "8/8/4kpp1/3p4/p2P4/P3PK2/6P1/8 w - - 0 45",
    "r1b2rk1/pp3ppp/2n5/3q4/3P4/P1P2N2/4BPPP/R2QK2R b KQ - 0 14",
    "2kr3r/ppp2ppp/2n5/2b1q3/4P3/2N2Q2/PPP3PP/R1B2R1K w - - 0 16",
    "4r1k1/1p3ppp/p1n5/8/2B5/2N2P2/PPP3PP/5RK1 b - - 0 24",
    "8/3k4/8/2K5/8/8/5P2/8 w - - 0 60",
];

/// Totals of a bench run.
#[derive(Clone, Copy, Debug)]
pub struct BenchResult {
    /// Nodes searched over all positions.
    pub nodes: u64,
    /// Wall time.
    pub time: Duration,
}

impl BenchResult {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.time.as_secs_f64().max(1e-9)) as u64
    }
}

/// Searches every bench position to `depth` with the default options but the evaluation
/// `network` (the hand-written one for `None`); `progress` hears each position's node count.
/// `None` when the client stopped it through `signals` ([`Signals::request_stop`]).
pub fn run(
    depth: u32,
    network: Option<Arc<Network>>,
    signals: &Signals,
    mut progress: impl FnMut(usize, &str, u64),
) -> Option<BenchResult> {
    let table = ChessTable::new(16).expect("16 MiB for the bench table");
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let options = SearchOptions {
        network,
        ..SearchOptions::default()
    };
    let start = Instant::now();
    let mut nodes = 0;
    for (i, fen) in POSITIONS.iter().enumerate() {
        let pos = Position::from_fen(fen, false).expect("bench positions are valid");
        // Each search ends by setting `stop`; a stop the client asked for stays. Reset,
        // then looked at, so a request arriving in between is not lost.
        signals.stop.store(false, Relaxed);
        if signals.stop_requested.load(Relaxed) {
            return None;
        }
        let result = search(&pos, &limits, &options, &table, signals, &Silent);
        if signals.stop_requested.load(Relaxed) {
            return None;
        }
        nodes += result.nodes;
        progress(i + 1, fen, result.nodes);
    }
    Some(BenchResult {
        nodes,
        time: start.elapsed(),
    })
}
