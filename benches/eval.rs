//! The evaluations side by side: the hand-written evaluation of a position against the
//! network's move update plus output, the network's output layer per kernel and activation,
//! a king move under king mirroring with and without crossing the d/e boundary, and under 8
//! king buckets with and without changing bucket.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use rookery::chess::Position;
use rookery::engine::eval::hce;
use rookery::engine::eval::nnue::{Accumulator, Activation, Architecture, Kernel, Network};
use rookery::learn::fit::model::Model;
use shakmaty::{Chess, Color, Position as _};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn net(arch: Architecture) -> Network {
    Model::new(arch, 1).quantise()
}

fn bench_eval(c: &mut Criterion) {
    let mut group = c.benchmark_group("eval");
    group.measurement_time(Duration::from_secs(5));
    let net = net(Architecture::default());
    let pos = Position::from_fen(KIWIPETE, false).unwrap();
    let chess = pos.chess().clone();
    let moves = chess.legal_moves();
    let bucket = net.bucket(chess.board());
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
            {
                let child = black_box(&child);
                net.evaluate(
                    child.perspective(!chess.turn()),
                    child.perspective(chess.turn()),
                    chess.board(),
                )
            }
        })
    });
    group.bench_function("nnue_refresh_kiwipete", |b| {
        b.iter(|| Accumulator::refresh(&net, black_box(chess.board())))
    });
    for activation in [Activation::CReLU, Activation::SCReLU] {
        let net = self::net(Architecture {
            activation,
            ..Architecture::default()
        });
        let root = Accumulator::refresh(&net, chess.board());
        for kernel in Kernel::available() {
            let name = format!("output_{}_{}", activation.name(), kernel.name());
            group.bench_function(name, |b| {
                b.iter(|| {
                    net.output_with(
                        kernel,
                        black_box(root.perspective(Color::White)),
                        black_box(root.perspective(Color::Black)),
                        bucket,
                    )
                })
            });
        }
    }
    // King mirroring: Ke1-f1 stays on the e-h side, Ke1-d1 crosses and refreshes White's side.
    // 8 king buckets: Ke1-f1 takes White's king from d1 to c1 as it sees them (mirrored), into
    // another bucket, and refreshes White's side; a rook move updates both sides.
    let king_inputs = [
        ("king_mirror", 1, ["e1f1", "e1d1"]),
        ("king_buckets", 8, ["e1f1", "a1b1"]),
    ];
    for (label, king_buckets, moves) in king_inputs {
        let net = self::net(Architecture {
            king_mirror: true,
            king_buckets,
            ..Architecture::default()
        });
        let root = Accumulator::refresh(&net, chess.board());
        for text in moves {
            let mv = pos.parse_uci(text).unwrap();
            let mut child = root.clone();
            group.bench_function(format!("nnue_update_{label}_{text}"), |b| {
                b.iter(|| root.update_into(&mut child, &net, black_box(&chess as &Chess), mv))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench_eval);
criterion_main!(benches);
