//! The core's seeded key tables, dual keys and symmetry groups.

use rookery::hashing::{
    DualKey, DualKeyTable, Key, KeyTable, SymmetricKeyTable, SymmetryGroup, TableKey,
};

#[test]
fn seeded_tables_never_drift() {
    // Pinned: ChaCha8 seeded with these values. A change here changes every stored key.
    let gomoku = KeyTable::seeded(3, 0x676f_6d6f_6b75);
    assert_eq!(
        gomoku.keys(),
        &[
            Key(0xfe519ab8ad82eff4),
            Key(0xe7fa8ea2019f0c3a),
            Key(0x2168174c80972908)
        ]
    );
    let zero = KeyTable::seeded(2, 0);
    assert_eq!(
        zero.keys(),
        &[Key(0xb585f767a79a3b6c), Key(0x7746a55fbad8c037)]
    );
    // A longer table starts with the same keys.
    assert_eq!(&KeyTable::seeded(100, 0).keys()[..2], zero.keys());
}

#[test]
fn seeded_keys_are_nonzero_and_distinct() {
    let table = KeyTable::seeded(100_000, 42);
    let mut keys: Vec<u64> = table.keys().iter().map(|k| k.bits()).collect();
    assert!(keys.iter().all(|&k| k != 0));
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), 100_000);
}

#[test]
fn dual_keys_toggle_together_and_independently() {
    let table = DualKeyTable::seeded(10, 7);
    let mut key = DualKey::default();
    table.toggle(&mut key, 3);
    assert_eq!(key.main, table.main().key(3));
    assert_eq!(key.check, table.check().key(3));
    assert_ne!(key.main, key.check, "the check table is independent");
    assert_eq!(key.table_key(), TableKey::with_check(key.main, key.check));
    table.toggle(&mut key, 3);
    assert_eq!(key, DualKey::default());
}

#[test]
fn groups_must_be_permutations_with_the_identity_first() {
    assert!(SymmetryGroup::new(vec![vec![0, 1, 2], vec![2, 1, 0]]).is_ok());
    assert!(
        SymmetryGroup::new(vec![vec![1, 0, 2]]).is_err(),
        "identity first"
    );
    assert!(
        SymmetryGroup::new(vec![vec![0, 1, 2], vec![0, 0, 2]]).is_err(),
        "not a permutation"
    );
    assert!(
        SymmetryGroup::new(vec![vec![0, 1, 2], vec![0, 1]]).is_err(),
        "different sizes"
    );
    assert!(
        SymmetryGroup::new(vec![vec![0, 1]; 13]).is_err(),
        "more than 12"
    );
    assert!(SymmetryGroup::new(Vec::new()).is_err());
}

#[test]
fn symmetric_keys_follow_the_transforms() {
    // Four cells in a row; the group {identity, reversal}.
    let group = SymmetryGroup::new(vec![vec![0, 1, 2, 3], vec![3, 2, 1, 0]]).unwrap();
    assert_eq!(group.preimage(1, 0), 3);
    let table = KeyTable::seeded(4, 9);
    let symmetric = SymmetricKeyTable::new(&table, group);
    let mut a = symmetric.empty();
    symmetric.toggle(&mut a, 0);
    let mut b = symmetric.empty();
    symmetric.toggle(&mut b, 3);
    assert_eq!(a.identity(), table.key(0));
    assert_eq!(a.under(1), table.key(3));
    assert_eq!(
        a.canonical().0,
        b.canonical().0,
        "mirror images share the canonical key"
    );
    assert_eq!(a.canonical().0, table.key(0).min(table.key(3)));
}
