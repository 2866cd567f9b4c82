//! Every way a search can end answers the same way: `bestmove` is the first move of the
//! last `info ... pv` line of MultiPV slot 1, `ponder` its second move, and every reported
//! move is legal (checked by `check_answer` on the real binary). Searches stopped at
//! random moments, by `movetime`, by clocks, by `ponderhit` and a ponder miss, with
//! MultiPV.

use crate::common;

use std::time::Duration;

use common::uci_client::{Engine, WAIT, check_answer};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use rookery::chess::Position;

/// Middlegame and endgame positions where the best move changes with depth.
const POSITIONS: [&str; 6] = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bq1rk1/pp2ppbp/n5p1/2Pn4/8/5NP1/PP2PPBP/RNBQ1RK1 w - - 1 9",
    "2kr3r/ppp2ppp/2n5/2b1q3/4P3/2N2Q2/PPP3PP/R1B2R1K w - - 0 16",
    "8/5pk1/6p1/8/3R4/6P1/5PKP/3r4 w - - 0 40",
    "4r1k1/1p3ppp/p1n5/8/2B5/2N2P2/PPP3PP/5RK1 b - - 0 24",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
];

fn start_at(e: &mut Engine, fen: &str) -> Position {
    e.send(&format!("position fen {fen}"));
    Position::from_fen(fen, false).unwrap()
}

#[test]
fn searches_stopped_at_random_moments_answer_with_their_last_line() {
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    let mut e = Engine::start();
    for round in 0..24 {
        if round == 12 {
            e.send("setoption name MultiPV value 3");
        }
        let pos = start_at(&mut e, POSITIONS[round % POSITIONS.len()]);
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(rng.random_range(0..400)));
        e.send("stop");
        let lines = e.until(WAIT, |l| l.starts_with("bestmove"));
        check_answer(&pos, &lines);
    }
}

#[test]
fn movetime_and_node_limits_answer_with_their_last_line() {
    let mut e = Engine::start();
    for (i, fen) in POSITIONS.iter().enumerate() {
        let pos = start_at(&mut e, fen);
        let lines = e.go(&format!("movetime {}", 20 + 60 * i));
        check_answer(&pos, &lines);
        let lines = e.go(&format!("nodes {}", 1000 + 7919 * i));
        check_answer(&pos, &lines);
    }
}

#[test]
fn clocks_answer_with_their_last_line() {
    let mut e = Engine::start();
    for (i, fen) in POSITIONS.iter().enumerate() {
        let pos = start_at(&mut e, fen);
        let clock = 100 + 300 * i as u64;
        let lines = e.go(&format!(
            "wtime {clock} btime {} winc 10 binc 20",
            2 * clock
        ));
        check_answer(&pos, &lines);
    }
}

#[test]
fn ponder_hit_and_miss_answer_with_their_last_line() {
    let mut e = Engine::start();
    e.send("setoption name Ponder value true");
    let fen = POSITIONS[1];
    let pos = start_at(&mut e, fen);
    let lines = e.go("depth 6");
    let (best, ponder) = check_answer(&pos, &lines);
    let ponder = ponder.expect("a ponder move at depth 6");

    // Hit: the opponent plays the expected move; the search goes on under the clock.
    let mut after = pos.clone();
    after.push_uci(&best).unwrap();
    after.push_uci(&ponder).unwrap();
    e.send(&format!("position fen {fen} moves {best} {ponder}"));
    e.send("go ponder wtime 2000 btime 2000 winc 20 binc 20");
    std::thread::sleep(Duration::from_millis(150));
    e.send("ponderhit");
    let lines = e.until(WAIT, |l| l.starts_with("bestmove"));
    check_answer(&after, &lines);

    // Miss: the opponent plays something else; the GUI stops the ponder search, ignores
    // its answer, and starts a new search.
    e.send(&format!("position fen {fen} moves {best} {ponder}"));
    e.send("go ponder wtime 2000 btime 2000 winc 20 binc 20");
    std::thread::sleep(Duration::from_millis(150));
    e.send("stop");
    let lines = e.until(WAIT, |l| l.starts_with("bestmove"));
    check_answer(&after, &lines);
    let mut other = pos.clone();
    other.push_uci(&best).unwrap();
    let reply = other
        .legal_moves()
        .iter()
        .map(|&mv| other.uci(mv))
        .find(|mv| *mv != ponder)
        .unwrap();
    other.push_uci(&reply).unwrap();
    e.send(&format!("position fen {fen} moves {best} {reply}"));
    let lines = e.go("wtime 2000 btime 2000 winc 20 binc 20");
    check_answer(&other, &lines);
}
