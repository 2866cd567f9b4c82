//! The core as the games use it: the cost of a toggle with 1, 8 and 12 parallel keys,
//! canonical keys (gomoku 15x15, Hive on the open plane and on the Software Challenge
//! board), Hive moves with their key updates, the exact compact key, and the shared table
//! with the gomoku entry.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rand::rngs::ChaCha8Rng;
use rand::{Rng, RngExt, SeedableRng};
use rookery::gomoku::{Geometry, Gomoku, GomokuEntry, GomokuTable};
use rookery::hashing::{
    Bound, DualKey, DualKeyTable, Key, KeyTable, SymmetricKeyTable, SymmetryGroup, TableKey,
};
use rookery::hive::{Expansions, Hive, Move, compact};

/// Features of a 15x15 gomoku board (two colours per cell and the side to move).
const FEATURES: usize = 451;
/// Toggles per iteration.
const TOGGLES: usize = 1024;

fn bench_toggle(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let features: Vec<usize> = (0..TOGGLES)
        .map(|_| rng.random_range(0..FEATURES))
        .collect();
    let table = KeyTable::seeded(FEATURES, 1);
    let mut group = c.benchmark_group("toggle");
    group.throughput(Throughput::Elements(TOGGLES as u64));
    group.bench_function("one key (KeyTable)", |b| {
        let mut key = Key::EMPTY;
        b.iter(|| {
            for &f in &features {
                table.toggle(&mut key, black_box(f));
            }
            key
        })
    });
    let dual = DualKeyTable::seeded(FEATURES, 1);
    group.bench_function("main + check (DualKeyTable)", |b| {
        let mut key = DualKey::default();
        b.iter(|| {
            for &f in &features {
                dual.toggle(&mut key, black_box(f));
            }
            key
        })
    });
    for k in [1, 8, 12] {
        // Any permutations do: the cost depends on the group's size only.
        let images = (0..k)
            .map(|g| (0..FEATURES).map(|f| (f + g * 37) % FEATURES).collect())
            .collect();
        let symmetric = SymmetricKeyTable::new(&table, SymmetryGroup::new(images).unwrap());
        group.bench_with_input(
            BenchmarkId::new("parallel keys (SymmetricKeyTable)", k),
            &symmetric,
            |b, symmetric| {
                let mut key = symmetric.empty();
                b.iter(|| {
                    for &f in &features {
                        symmetric.toggle(&mut key, black_box(f));
                    }
                    key.identity()
                })
            },
        );
    }
    group.finish();
}

/// 32 gomoku positions of 30 stones on 15x15.
fn gomoku_positions() -> Vec<Gomoku> {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let geometry = Geometry::new(15, 15).unwrap();
    (0..32)
        .map(|_| {
            let mut game = Gomoku::new(geometry);
            while game.moves().len() < 30 {
                let _ = game.place(rng.random_range(0..geometry.cells()));
            }
            game
        })
        .collect()
}

/// 32 Hive positions after 30 to 60 random sensible moves.
fn hive_positions(setup: &Hive, seed: u64) -> Vec<Hive> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut moves = Vec::new();
    (0..32)
        .map(|_| {
            let mut hive = setup.clone();
            for _ in 0..rng.random_range(30..60) {
                hive.sensible_moves(&mut moves);
                hive.play(moves[rng.random_range(0..moves.len())]).unwrap();
            }
            hive
        })
        .collect()
}

fn open() -> Hive {
    Hive::uhp(Expansions::ALL)
}

fn sc2020() -> Hive {
    Hive::sc2020(&[]).unwrap()
}

fn bench_canonical(c: &mut Criterion) {
    let mut group = c.benchmark_group("canonical key");
    let gomoku = gomoku_positions();
    group.throughput(Throughput::Elements(gomoku.len() as u64));
    group.bench_function("gomoku 15x15 (8 kept keys)", |b| {
        b.iter(|| {
            gomoku
                .iter()
                .map(|g| black_box(g).canonical().0.main.0)
                .sum::<u64>()
        })
    });
    for (name, positions) in [
        (
            "Hive open plane (12 frames from scratch)",
            hive_positions(&open(), 3),
        ),
        (
            "Hive SC2020, no obstacles (12 kept keys)",
            hive_positions(&sc2020(), 4),
        ),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                positions
                    .iter()
                    .map(|h| black_box(h).canonical().0.main.0)
                    .sum::<u64>()
            })
        });
    }
    group.finish();
}

fn bench_moves(c: &mut Criterion) {
    let mut group = c.benchmark_group("move + undo with key updates");
    let mut gomoku = gomoku_positions();
    group.throughput(Throughput::Elements(gomoku.len() as u64));
    group.bench_function("gomoku 15x15 (dual + 2 x 8 symmetric keys)", |b| {
        b.iter(|| {
            let mut acc = 0;
            for game in &mut gomoku {
                let cell = (0..225).find(|&c| game.stone(c).is_none()).unwrap();
                game.place(black_box(cell)).unwrap();
                acc ^= game.key().main.0;
                game.take_back();
            }
            acc
        })
    });
    for (name, setup, seed) in [
        ("Hive open plane (dual key)", open(), 5),
        (
            "Hive SC2020, no obstacles (dual + 2 x 12 symmetric keys)",
            sc2020(),
            6,
        ),
    ] {
        let mut positions = hive_positions(&setup, seed);
        let mut moves = Vec::new();
        let picked: Vec<Move> = positions
            .iter()
            .map(|h| {
                h.sensible_moves(&mut moves);
                moves[moves.len() / 2]
            })
            .collect();
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut acc = 0;
                for (hive, &mv) in positions.iter_mut().zip(&picked) {
                    hive.play(black_box(mv)).unwrap();
                    acc ^= hive.key().main.0;
                    hive.undo();
                }
                acc
            })
        });
    }
    group.finish();
}

fn bench_compact(c: &mut Criterion) {
    let mut group = c.benchmark_group("compact key");
    for (name, setup, seed) in [
        ("Hive open plane, Base+MLP", open(), 7),
        ("Hive SC2020", Hive::sc2020(&[]).unwrap(), 8),
    ] {
        let positions = hive_positions(&setup, seed);
        let keys: Vec<_> = positions
            .iter()
            .map(|h| compact::encode(h).unwrap())
            .collect();
        let (set, shape) = (setup.piece_set(), setup.field().shape());
        group.throughput(Throughput::Elements(positions.len() as u64));
        group.bench_function(format!("encode, {name}"), |b| {
            b.iter(|| {
                positions
                    .iter()
                    .map(|h| compact::encode(black_box(h)).unwrap().words()[0])
                    .sum::<u64>()
            })
        });
        group.bench_function(format!("decode, {name}"), |b| {
            b.iter(|| {
                keys.iter()
                    .map(|k| {
                        compact::decode(black_box(k), set, shape)
                            .unwrap()
                            .key()
                            .main
                            .0
                    })
                    .sum::<u64>()
            })
        });
    }
    group.finish();
}

fn bench_table(c: &mut Criterion) {
    const KEYS: usize = 4096;
    let table = GomokuTable::new(64).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut random_keys = |n| -> Vec<TableKey> {
        (0..n)
            .map(|_| TableKey::with_check(Key(rng.next_u64()), Key(rng.next_u64())))
            .collect()
    };
    let stored = random_keys(KEYS);
    let missing = random_keys(KEYS);
    let entry = GomokuEntry {
        score: 17,
        depth: 6,
        best: Some(112),
        bound: Bound::Exact,
    };
    for &k in &stored {
        table.store(k, entry);
    }
    let mut group = c.benchmark_group("gomoku table, 64 MiB");
    group.throughput(Throughput::Elements(KEYS as u64));
    group.bench_function("probe hit", |b| {
        b.iter(|| {
            stored
                .iter()
                .filter(|&&k| table.probe(black_box(k)).is_some())
                .count()
        })
    });
    group.bench_function("probe miss", |b| {
        b.iter(|| {
            missing
                .iter()
                .filter(|&&k| table.probe(black_box(k)).is_some())
                .count()
        })
    });
    group.bench_function("store", |b| {
        b.iter(|| {
            stored
                .iter()
                .filter(|&&k| table.store(black_box(k), entry))
                .count()
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    bench_toggle,
    bench_canonical,
    bench_moves,
    bench_compact,
    bench_table
);
criterion_main!(benches);
