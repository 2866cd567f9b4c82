//! A main key with a second, independent verification key toggled alongside it.
//!
//! The main key picks the table bucket; the check key is compared in full, so an entry is
//! accepted only when 64 independent bits agree on top of the bucket choice.

use super::{Key, KeyTable, TableKey};

/// Seed offset of the check table: any constant unrelated to the main seed would do.
const CHECK_SEED_OFFSET: u64 = 0x9e37_79b9_7f4a_7c15;

/// A position's main key and its verification key.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DualKey {
    /// Chooses the table bucket.
    pub main: Key,
    /// Verifies the entry.
    pub check: Key,
}

impl DualKey {
    /// The table key: bucket from `main`, verification by `check`.
    pub fn table_key(self) -> TableKey {
        TableKey::with_check(self.main, self.check)
    }

    /// The table key of a canonical key, the least main key over a symmetry group (with
    /// the check key under the same transform). A minimum crowds the small values: the
    /// least of 8 uniform keys is below `2^64 / 9` on average, so its top bits, which pick
    /// the bucket, would load the first buckets up to 8 times more than average and leave
    /// the last ones empty. A bijective mix spreads the index again without merging keys.
    pub fn canonical_table_key(self) -> TableKey {
        TableKey::with_check(Key::mixed(self.main.0), self.check)
    }
}

/// Two independent key tables over the same features.
#[derive(Clone, Debug)]
pub struct DualKeyTable {
    main: KeyTable,
    check: KeyTable,
}

impl DualKeyTable {
    /// Tables of `len` keys: the main one from `seed`, the check one from a derived seed.
    pub fn seeded(len: usize, seed: u64) -> DualKeyTable {
        DualKeyTable {
            main: KeyTable::seeded(len, seed),
            check: KeyTable::seeded(len, seed ^ CHECK_SEED_OFFSET),
        }
    }

    /// The main table.
    pub fn main(&self) -> &KeyTable {
        &self.main
    }

    /// The check table.
    pub fn check(&self) -> &KeyTable {
        &self.check
    }

    /// Adds or removes one feature from both keys.
    #[inline]
    pub fn toggle(&self, key: &mut DualKey, feature: usize) {
        self.main.toggle(&mut key.main, feature);
        self.check.toggle(&mut key.check, feature);
    }
}
