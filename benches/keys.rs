//! The incremental key update against shakmaty's from-scratch `zobrist_hash`.
//!
//! Both sides work on the same few positions and all their legal moves, so the data stays in
//! cache and the figures compare the work itself, not memory traffic. Both hide each item the
//! same way from the optimiser: `black_box` on a reference into the list (a move, or the child
//! position), which the work then reads through.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use rookery::chess::Position;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, MoveList, Position as _};

type Sample = (Position, MoveList, Vec<Chess>);

/// A position with its legal moves and the positions they lead to.
fn sample(pos: &Position) -> Sample {
    let moves = pos.legal_moves();
    let children = moves
        .iter()
        .map(|&mv| {
            let mut child = pos.chess().clone();
            child.play_unchecked(mv);
            child
        })
        .collect();
    (pos.clone(), moves, children)
}

/// 40 positions from the first 80 plies of seeded random games (pieces get traded off).
fn random_game_samples() -> Vec<Sample> {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut out = Vec::new();
    while out.len() < 40 {
        let mut pos = Position::startpos();
        for _ in 0..80 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            if pos.ply().is_multiple_of(2) {
                out.push(sample(&pos));
            }
            pos.push(moves[rng.random_range(0..moves.len())]);
        }
    }
    out.truncate(40);
    out
}

/// 40 positions two plies into the perft trees of the start position and Kiwipete (full
/// boards, as the perft benchmark sees them).
fn perft_tree_samples() -> Vec<Sample> {
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let mut out = Vec::new();
    for root in [
        Position::startpos(),
        Position::from_fen(kiwipete, false).unwrap(),
    ] {
        let mut pos = root;
        for (i, a) in pos.legal_moves().into_iter().enumerate().step_by(3) {
            pos.push(a);
            let replies = pos.legal_moves();
            let b = replies[i % replies.len()];
            pos.push(b);
            out.push(sample(&Position::new(
                pos.chess().clone(),
                pos.castling_mode(),
            )));
            pos.pop();
            pos.pop();
        }
    }
    out.truncate(40);
    out
}

fn bench_keys(c: &mut Criterion) {
    bench_sample(c, "key update, random games", random_game_samples());
    bench_sample(c, "key update, perft trees", perft_tree_samples());
}

fn bench_sample(c: &mut Criterion, name: &str, mut samples: Vec<Sample>) {
    let moves: u64 = samples.iter().map(|(_, m, _)| m.len() as u64).sum();
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(moves));
    group.bench_function("incremental key_after", |b| {
        b.iter(|| {
            let mut acc = 0;
            for (pos, moves, _) in &samples {
                for mv in moves {
                    acc ^= pos.key_after(*black_box(mv)).bits();
                }
            }
            acc
        })
    });
    group.bench_function(
        "incremental child_keys once per node, key_after per move",
        |b| {
            b.iter(|| {
                let mut acc = 0;
                for (pos, moves, _) in &samples {
                    let children = black_box(pos).child_keys();
                    for mv in moves {
                        acc ^= children.key_after(black_box(mv)).bits();
                    }
                }
                acc
            })
        },
    );
    group.bench_function("incremental keys_after (all moves of a node)", |b| {
        b.iter(|| {
            let mut acc = 0;
            for (pos, moves, _) in &samples {
                for key in &pos.keys_after(black_box(moves)) {
                    acc ^= key.bits();
                }
            }
            acc
        })
    });
    group.bench_function("loop overhead only", |b| {
        b.iter(|| {
            let mut acc = 0;
            for (_, moves, _) in &samples {
                for mv in moves {
                    acc ^= black_box(mv).to() as u64;
                }
            }
            acc
        })
    });
    group.bench_function("shakmaty zobrist_hash from scratch", |b| {
        b.iter(|| {
            let mut acc = 0;
            for (_, _, children) in &samples {
                for child in children {
                    let Zobrist64(k) = black_box(child).zobrist_hash(EnPassantMode::PseudoLegal);
                    acc ^= k;
                }
            }
            acc
        })
    });
    group.bench_function("make + incremental key (push/pop)", |b| {
        b.iter(|| {
            let mut acc = 0;
            for (pos, moves, _) in &mut samples {
                for mv in moves.iter() {
                    pos.push(*black_box(mv));
                    acc ^= pos.key().bits();
                    pos.pop();
                }
            }
            acc
        })
    });
    group.bench_function("make + zobrist_hash from scratch", |b| {
        b.iter(|| {
            let mut acc = 0;
            for (pos, moves, _) in &samples {
                for mv in moves {
                    let mut child = pos.chess().clone();
                    child.play_unchecked(*black_box(mv));
                    let Zobrist64(k) = child.zobrist_hash(EnPassantMode::PseudoLegal);
                    acc ^= k;
                }
            }
            acc
        })
    });
    group.finish();
}

criterion_group!(benches, bench_keys);
criterion_main!(benches);
