//! Perft with our incremental key against shakmaty's own perft, in the same run.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use rookery::chess::Position;
use rookery::chess::perft::perft;
use shakmaty::{CastlingMode, Chess, fen::Fen};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(8));
    let kiwipete: Chess = KIWIPETE
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    for (name, chess, depth) in [
        ("startpos_d5", Chess::default(), 5),
        ("kiwipete_d4", kiwipete, 4),
    ] {
        let mut pos = Position::new(chess.clone(), CastlingMode::Standard);
        group.bench_function(format!("rookery/{name}"), |b| {
            b.iter(|| perft(black_box(&mut pos), depth))
        });
        group.bench_function(format!("shakmaty/{name}"), |b| {
            b.iter(|| shakmaty::perft(black_box(&chess), depth))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
