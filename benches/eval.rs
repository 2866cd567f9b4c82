//! The evaluations side by side: the hand-written evaluation of a position against the
//! network's move update plus output, and the network's output layer per kernel.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use rookery::chess::Position;
use rookery::engine::eval::hce;
use rookery::engine::eval::nnue::{Accumulator, Kernel, accumulator};
use rookery::learn::train::Model;
use shakmaty::Position as _;

fn bench_eval(c: &mut Criterion) {
    let mut group = c.benchmark_group("eval");
    group.measurement_time(Duration::from_secs(5));
    let net = Model::random(1).quantise();
    let pos = Position::from_fen(
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        false,
    )
    .unwrap();
    let chess = pos.chess().clone();
    let moves = chess.legal_moves();
    let root = Accumulator::refresh(&net, chess.board());
    group.bench_function("hce_kiwipete", |b| {
        b.iter(|| hce::evaluate(black_box(&chess)))
    });
    group.bench_function("nnue_update_and_output_kiwipete", |b| {
        let mut child = root.clone();
        let mut i = 0;
        b.iter(|| {
            let mv = moves[i % moves.len()];
            i += 1;
            root.update_into(&mut child, &net, &chess, mv);
            accumulator::evaluate(&net, black_box(&child), !chess.turn())
        })
    });
    group.bench_function("nnue_refresh_kiwipete", |b| {
        b.iter(|| Accumulator::refresh(&net, black_box(chess.board())))
    });
    for kernel in Kernel::available() {
        group.bench_function(format!("output_{}", kernel.name()), |b| {
            b.iter(|| {
                net.output_with(
                    kernel,
                    black_box(&root.values[0]),
                    black_box(&root.values[1]),
                )
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_eval);
criterion_main!(benches);
