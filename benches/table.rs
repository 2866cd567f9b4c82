//! Probe and store on the shared table (chess-sized perft entries, 64 MiB: beyond the caches).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rookery::chess::perft::PerftEntry;
use rookery::hashing::{Key, Table, TableKey};

const KEYS: u64 = 1 << 16;

fn key(i: u64) -> TableKey {
    TableKey::from(Key::mixed(i))
}

fn bench_table(c: &mut Criterion) {
    let table = Table::<PerftEntry>::new(64).unwrap();
    let entry = PerftEntry {
        nodes: 12345,
        depth: 5,
    };
    for i in 0..KEYS {
        table.store(key(i), entry);
    }
    let mut group = c.benchmark_group("table 64 MiB");
    group.throughput(Throughput::Elements(KEYS));
    group.bench_function("probe hit", |b| {
        b.iter(|| {
            (0..KEYS)
                .filter(|&i| table.probe(black_box(key(i))).is_some())
                .count()
        })
    });
    group.bench_function("probe miss", |b| {
        b.iter(|| {
            (KEYS..2 * KEYS)
                .filter(|&i| table.probe(black_box(key(i))).is_some())
                .count()
        })
    });
    group.bench_function("store", |b| {
        b.iter(|| {
            (0..KEYS)
                .filter(|&i| table.store(black_box(key(i + 7 * KEYS)), entry))
                .count()
        })
    });
    group.finish();
}

criterion_group!(benches, bench_table);
criterion_main!(benches);
