//! Lazy SMP under stress, in process: many searches with several threads on one shared
//! table, stopped at random moments (also before they start), with the thread count and
//! the table size changed between searches. Run under ThreadSanitizer as `docs/testing.md` says.

use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use rookery::chess::Position;
use rookery::engine::Limits;
use rookery::engine::search::{SearchOptions, Signals, Silent, search};
use rookery::engine::tt::ChessTable;

fn infinite() -> Limits {
    Limits {
        infinite: true,
        ..Limits::default()
    }
}

#[test]
fn searches_stopped_at_random_moments_return_legal_moves() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut table = ChessTable::new(2).unwrap();
    let mut pos = Position::startpos();
    for cycle in 0..60 {
        let options = SearchOptions {
            threads: 1 + cycle % 4,
            ..SearchOptions::default()
        };
        let signals = Signals::default();
        let wait = Duration::from_micros(rng.random_range(0..20_000));
        let result = std::thread::scope(|scope| {
            let searcher =
                scope.spawn(|| search(&pos, &infinite(), &options, &table, &signals, &Silent));
            std::thread::sleep(wait);
            signals.stop.store(true, Relaxed);
            searcher.join().expect("the search thread does not panic")
        });
        let best = result.best.expect("a move in a position with legal moves");
        assert!(
            pos.legal_moves().contains(&best),
            "{best:?} in {}",
            pos.fen()
        );
        pos.push(best);
        if pos.legal_moves().is_empty() || pos.ply() > 40 {
            pos = Position::startpos();
        }
        if cycle % 10 == 9 {
            table.resize(1 << (cycle % 4)).unwrap();
        }
    }
}

#[test]
fn a_stop_before_the_search_starts_still_gives_a_legal_move() {
    let table = ChessTable::new(1).unwrap();
    let pos = Position::from_fen(
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        false,
    )
    .unwrap();
    for threads in [1, 2, 4] {
        let options = SearchOptions {
            threads,
            ..SearchOptions::default()
        };
        let signals = Signals::default();
        signals.stop.store(true, Relaxed);
        let result = search(&pos, &infinite(), &options, &table, &signals, &Silent);
        let best = result.best.expect("a legal move");
        assert!(pos.legal_moves().contains(&best));
    }
}

#[test]
fn helpers_share_the_table_and_agree_on_a_mate() {
    let table = ChessTable::new(4).unwrap();
    // A back-rank mate in one: Rd8#.
    let pos = Position::from_fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", false).unwrap();
    let options = SearchOptions {
        threads: 4,
        ..SearchOptions::default()
    };
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    let result = search(
        &pos,
        &limits,
        &options,
        &table,
        &Signals::default(),
        &Silent,
    );
    assert_eq!(
        result
            .best
            .map(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string()),
        Some("d1d8".to_string())
    );
    let stats = table.stats();
    assert!(stats.stores > 0 && stats.hits > 0, "{stats:?}");
}

#[test]
fn every_thread_counts_nodes() {
    // Two threads to depth 10: the helper searches too (its nodes are its own), and the
    // total is the sum of the threads' counts.
    let table = ChessTable::new(16).unwrap();
    let options = SearchOptions {
        threads: 2,
        ..SearchOptions::default()
    };
    let limits = Limits {
        depth: Some(10),
        ..Limits::default()
    };
    let pos = Position::startpos();
    let result = search(
        &pos,
        &limits,
        &options,
        &table,
        &Signals::default(),
        &Silent,
    );
    assert_eq!(result.thread_nodes.len(), 2, "{result:?}");
    assert!(
        result.thread_nodes.iter().all(|&n| n >= 1000),
        "a thread that did not search: {:?}",
        result.thread_nodes
    );
    assert_eq!(result.thread_nodes.iter().sum::<u64>(), result.nodes);
}
