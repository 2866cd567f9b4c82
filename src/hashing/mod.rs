//! The game-agnostic hashing core: keys, key tables and the transposition table.
//!
//! Nothing here knows about chess, Hive or gomoku; each game maps its features to indices of
//! a [`KeyTable`] and defines its own [`TableEntry`]. Games that want more get a second,
//! independent verification key ([`DualKeyTable`]) and keys that are canonical under a
//! symmetry group ([`SymmetricKeyTable`]). [`checksum`] guards the files Rookery writes.

mod bound;
pub mod checksum;
mod dual;
mod key;
pub mod quality;
mod symmetry;
mod tt;

pub use bound::Bound;
pub use dual::{DualKey, DualKeyTable};
pub use key::{Key, KeyTable};
pub use symmetry::{GroupError, MAX_SYMMETRIES, SymmetricKey, SymmetricKeyTable, SymmetryGroup};
#[cfg(feature = "table-stats")]
pub use tt::TableStats;
pub use tt::{AllocError, PAYLOAD_BITS, SLOTS_PER_BUCKET, Table, TableEntry, TableKey};
