//! The gomoku transposition table entry, on the shared table, verified by the check key.

use crate::hashing::{Bound, Table, TableEntry};

/// A search result for a gomoku position, stored in the canonical frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GomokuEntry {
    /// Score from the side to move's view.
    pub score: i16,
    /// Depth searched.
    pub depth: u8,
    /// Best cell in the canonical frame, if any.
    pub best: Option<u16>,
    /// Bound of the score.
    pub bound: Bound,
}

impl TableEntry for GomokuEntry {
    fn pack(self) -> u64 {
        u64::from(self.score as u16)
            | u64::from(self.depth) << 16
            | u64::from(self.best.map_or(0, |c| c + 1)) << 24
            | self.bound.bits() << 40
    }

    fn unpack(p: u64) -> GomokuEntry {
        let best = ((p >> 24) & 0xffff) as u16;
        GomokuEntry {
            score: p as u16 as i16,
            depth: (p >> 16) as u8,
            best: best.checked_sub(1),
            bound: Bound::from_bits(p >> 40),
        }
    }

    fn depth(self) -> u8 {
        self.depth
    }
}

/// The gomoku transposition table: probe and store with
/// [`DualKey::canonical_table_key`](crate::hashing::DualKey::canonical_table_key) of the
/// canonical keys (a minimum needs remixing before it picks buckets); its counters give the
/// hit rate.
pub type GomokuTable = Table<GomokuEntry>;
