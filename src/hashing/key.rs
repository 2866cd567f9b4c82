//! Zobrist keys and the tables they are drawn from.

use std::fmt;
use std::ops::{BitXor, BitXorAssign};

use rand::rngs::ChaCha8Rng;
use rand::{Rng, SeedableRng};

/// A 64-bit Zobrist key: the XOR of the table keys of every feature present.
///
/// ```
/// use rookery::hashing::Key;
/// let a = Key(0x1234);
/// let mut k = Key::EMPTY;
/// k ^= a;
/// k ^= a;
/// assert_eq!(k, Key::EMPTY);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Key(pub u64);

impl Key {
    /// The key of a position with no features set.
    pub const EMPTY: Key = Key(0);

    /// The raw 64 bits.
    #[inline]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// A well-mixed key derived from `n` (the SplitMix64 finaliser): deterministic, portable,
    /// and good for salts that must never change between builds.
    pub const fn mixed(n: u64) -> Key {
        let mut z = n.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        Key(z ^ (z >> 31))
    }
}

impl BitXor for Key {
    type Output = Key;
    #[inline]
    fn bitxor(self, rhs: Key) -> Key {
        Key(self.0 ^ rhs.0)
    }
}

impl BitXorAssign for Key {
    #[inline]
    fn bitxor_assign(&mut self, rhs: Key) {
        self.0 ^= rhs.0;
    }
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Key({:016x})", self.0)
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

/// A table of random keys addressed by a game's feature index.
///
/// A game maps each feature (a piece on a square, a right, a turn) to a dense index; toggling
/// a feature XORs its key in or out, so adding and removing are the same operation.
///
/// ```
/// use rookery::hashing::{Key, KeyTable};
/// let table = KeyTable::from_fn(3, |i| Key::mixed(i as u64));
/// let mut k = Key::EMPTY;
/// table.toggle(&mut k, 2);
/// assert_eq!(k, table.key(2));
/// ```
#[derive(Clone, Debug)]
pub struct KeyTable {
    keys: Box<[Key]>,
}

impl KeyTable {
    /// Builds a table of `len` keys, the key of feature `i` being `key_of(i)`.
    pub fn from_fn(len: usize, key_of: impl FnMut(usize) -> Key) -> KeyTable {
        KeyTable {
            keys: (0..len).map(key_of).collect(),
        }
    }

    /// `len` random keys from ChaCha8 seeded with `seed`: the same on every platform (the
    /// generator is named, not `StdRng`, whose algorithm may change). A test pins the first
    /// keys, so a dependency update that changed them would fail it. No key is zero.
    ///
    /// ```
    /// use rookery::hashing::KeyTable;
    /// assert_eq!(KeyTable::seeded(4, 1).keys(), KeyTable::seeded(4, 1).keys());
    /// assert_ne!(KeyTable::seeded(4, 1).keys(), KeyTable::seeded(4, 2).keys());
    /// ```
    pub fn seeded(len: usize, seed: u64) -> KeyTable {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        KeyTable::from_fn(len, |_| {
            loop {
                let bits = rng.next_u64();
                if bits != 0 {
                    break Key(bits);
                }
            }
        })
    }

    /// The number of features the table covers.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// True when the table covers no feature.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The key of one feature.
    #[inline]
    pub fn key(&self, feature: usize) -> Key {
        self.keys[feature]
    }

    /// Adds or removes one feature from `key`.
    #[inline]
    pub fn toggle(&self, key: &mut Key, feature: usize) {
        *key ^= self.keys[feature];
    }

    /// All keys, in feature order.
    pub fn keys(&self) -> &[Key] {
        &self.keys
    }
}
