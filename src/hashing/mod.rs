//! The game-agnostic hashing core: keys, key tables and the transposition table.
//!
//! Nothing here knows about chess, Hive or gomoku; each game maps its features to indices of
//! a [`KeyTable`] and defines its own [`TableEntry`].

mod key;
mod tt;

pub use key::{Key, KeyTable};
pub use tt::{AllocError, PAYLOAD_BITS, SLOTS_PER_BUCKET, Table, TableEntry, TableKey, TableStats};
