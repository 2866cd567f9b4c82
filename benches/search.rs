//! A fixed-depth search, single thread, fresh table each time.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use rookery::chess::Position;
use rookery::engine::Limits;
use rookery::engine::search::{SearchOptions, Signals, Silent, search};
use rookery::engine::tt::ChessTable;

fn bench_search(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(15));
    let limits = Limits {
        depth: Some(10),
        ..Limits::default()
    };
    let options = SearchOptions::default();
    for (name, fen) in [
        (
            "startpos_d10",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ),
        (
            "kiwipete_d10",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ),
    ] {
        let pos = Position::from_fen(fen, false).unwrap();
        group.bench_function(name, |b| {
            b.iter(|| {
                let table = ChessTable::new(16).unwrap();
                let signals = Signals::default();
                search(
                    black_box(&pos),
                    &limits,
                    &options,
                    &table,
                    &signals,
                    &Silent,
                )
                .nodes
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_search);
criterion_main!(benches);
