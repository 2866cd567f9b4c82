//! The shared transposition table, exercised through a small test entry.

use std::sync::atomic::{AtomicBool, Ordering};

use rookery::hashing::{Key, SLOTS_PER_BUCKET, Table, TableEntry, TableKey};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    depth: u8,
    value: u32,
}

impl TableEntry for Entry {
    fn pack(self) -> u64 {
        u64::from(self.depth) | u64::from(self.value) << 8
    }
    fn unpack(payload: u64) -> Entry {
        Entry {
            depth: payload as u8,
            value: (payload >> 8) as u32,
        }
    }
    fn depth(self) -> u8 {
        self.depth
    }
}

fn entry(depth: u8, value: u32) -> Entry {
    Entry { depth, value }
}

/// Keys sharing their top 32 bits land in the same bucket of any table under 2^32 buckets.
fn same_bucket(i: u64) -> TableKey {
    TableKey::from(Key(0xdead_beef_0000_0000 | (i * 0x9e37_79b9 + 1)))
}

#[test]
fn store_then_probe_round_trips() {
    let table = Table::<Entry>::new(1).unwrap();
    let keys: Vec<TableKey> = (0..1000u64)
        .map(|i| TableKey::from(Key::mixed(i)))
        .collect();
    for (i, &k) in keys.iter().enumerate() {
        table.store(k, entry(5, i as u32));
    }
    let found = keys
        .iter()
        .enumerate()
        .filter(|&(i, &k)| table.probe(k) == Some(entry(5, i as u32)))
        .count();
    // 1000 keys in 16384 buckets of 4: nothing is evicted.
    assert_eq!(found, 1000);
    assert_eq!(table.probe(TableKey::from(Key::mixed(5000))), None);
    let stats = table.stats();
    assert_eq!((stats.probes, stats.hits, stats.stores), (1001, 1000, 1000));
}

#[test]
fn second_check_key_verifies_independently() {
    let table = Table::<Entry>::new(1).unwrap();
    let key = Key(0x0123_4567_89ab_cdef);
    let stored = TableKey::with_check(key, Key(42));
    table.store(stored, entry(3, 9));
    assert_eq!(table.probe(stored), Some(entry(3, 9)));
    // Same main key, different check key: a collision the second key rejects.
    assert_eq!(table.probe(TableKey::with_check(key, Key(43))), None);
}

#[test]
fn replacement_keeps_the_deeper_entries() {
    let table = Table::<Entry>::new(1).unwrap();
    let depths = [10, 2, 7, 5];
    for (i, &d) in depths.iter().enumerate() {
        assert!(table.store(same_bucket(i as u64), entry(d, i as u32)));
    }
    assert_eq!(depths.len(), SLOTS_PER_BUCKET);
    // A fifth position evicts the shallowest, depth 2.
    table.store(same_bucket(4), entry(3, 4));
    assert_eq!(table.probe(same_bucket(1)), None);
    for i in [0, 2, 3, 4] {
        assert!(table.probe(same_bucket(i)).is_some(), "entry {i} kept");
    }
    // After a new search starts, old entries lose 8 plies of worth per generation: the
    // old depth-3 entry (worth -5) goes before a fresh one could.
    table.new_generation();
    table.store(same_bucket(5), entry(1, 5));
    assert_eq!(table.probe(same_bucket(4)), None);
    assert!(
        table.probe(same_bucket(0)).is_some(),
        "the deepest survives"
    );
}

#[test]
fn same_position_keeps_a_much_deeper_entry_of_this_search() {
    let table = Table::<Entry>::new(1).unwrap();
    let k = TableKey::from(Key::mixed(77));
    table.store(k, entry(12, 1));
    assert!(!table.store(k, entry(2, 2)));
    assert_eq!(table.probe(k), Some(entry(12, 1)));
    assert!(table.store(k, entry(9, 3)));
    assert_eq!(table.probe(k), Some(entry(9, 3)));
    // From an earlier search, any new entry overwrites it.
    table.new_generation();
    assert!(table.store(k, entry(1, 4)));
    assert_eq!(table.probe(k), Some(entry(1, 4)));
}

#[test]
fn resize_and_clear_empty_the_table() {
    let mut table = Table::<Entry>::new(1).unwrap();
    assert_eq!(table.hashfull(), 0);
    for i in 0..100_000u64 {
        table.store(TableKey::from(Key::mixed(i)), entry(1, i as u32));
    }
    assert!(table.hashfull() > 500, "hashfull {}", table.hashfull());
    table.clear();
    assert_eq!(table.hashfull(), 0);
    assert_eq!(table.probe(TableKey::from(Key::mixed(1))), None);

    table.store(TableKey::from(Key::mixed(1)), entry(1, 1));
    table.resize(4).unwrap();
    assert_eq!(table.bytes(), 4 << 20);
    assert_eq!(table.capacity(), (4 << 20) / 16);
    assert_eq!(table.probe(TableKey::from(Key::mixed(1))), None);
    assert_eq!(table.hashfull(), 0);
}

#[test]
fn impossible_sizes_are_refused_and_the_old_size_kept() {
    assert!(Table::<Entry>::new(usize::MAX).is_err());
    let mut table = Table::<Entry>::new(1).unwrap();
    let k = TableKey::from(Key::mixed(3));
    table.store(k, entry(4, 4));
    // A size whose bytes do not fit in a number: refused before anything changes.
    assert!(table.resize(usize::MAX).is_err());
    assert_eq!(table.probe(k), Some(entry(4, 4)));
    // A size the system cannot give: the old table was freed first (the two are never held
    // at once), so the table keeps its size, empty, and works on.
    let err = table.resize(1 << 40).unwrap_err();
    assert!(err.to_string().contains("MiB"), "{err}");
    assert_eq!(table.bytes(), 1 << 20);
    assert_eq!(table.probe(k), None);
    table.store(k, entry(5, 5));
    assert_eq!(table.probe(k), Some(entry(5, 5)));
}

#[test]
fn racing_threads_never_see_a_wrong_entry() {
    // Two writers and readers hammer a tiny table; every entry's value is derived from its
    // key, so a hit carrying another position's data would show up here.
    let table = Table::<Entry>::new(1).unwrap();
    let value_of = |k: u64| (k >> 20) as u32 ^ 0x5a5a_5a5a;
    let wrong = AtomicBool::new(false);
    let hits = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..2u64)
            .map(|t| {
                let (table, wrong) = (&table, &wrong);
                scope.spawn(move || {
                    let mut hits = 0u64;
                    for i in 0..8_000_000u64 {
                        // 4096 distinct keys crowded into 16 buckets; stores and probes
                        // walk the keys in different orders, so probes meet fresh writes.
                        let n = if i % 2 == t {
                            i / 2 * 7
                        } else {
                            i / 2 * 11 + t
                        };
                        let k = Key::mixed(n % 4096).0 | 0x3ff << 50;
                        let tk = TableKey::from(Key(k));
                        if i % 2 == t {
                            table.store(tk, entry((i % 50) as u8, value_of(k)));
                        } else if let Some(e) = table.probe(tk) {
                            hits += 1;
                            if e.value != value_of(k) {
                                wrong.store(true, Ordering::Relaxed);
                            }
                        }
                    }
                    hits
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).sum::<u64>()
    });
    assert!(hits > 10_000, "the test must actually hit: {hits}");
    assert!(
        !wrong.load(Ordering::Relaxed),
        "a torn or foreign entry was read as a hit"
    );
}
