//! The gomoku transposition table entry, on the shared table, verified by the check key.

use crate::hashing::{Table, TableEntry};

/// How a stored score bounds the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GomokuBound {
    /// The exact value.
    Exact = 0,
    /// At least this (fail high).
    Lower = 1,
    /// At most this (fail low).
    Upper = 2,
}

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
    pub bound: GomokuBound,
}

impl TableEntry for GomokuEntry {
    fn pack(self) -> u64 {
        u64::from(self.score as u16)
            | u64::from(self.depth) << 16
            | u64::from(self.best.map_or(0, |c| c + 1)) << 24
            | (self.bound as u64) << 40
    }

    fn unpack(p: u64) -> GomokuEntry {
        let best = ((p >> 24) & 0xffff) as u16;
        GomokuEntry {
            score: p as u16 as i16,
            depth: (p >> 16) as u8,
            best: best.checked_sub(1),
            bound: match (p >> 40) & 3 {
                1 => GomokuBound::Lower,
                2 => GomokuBound::Upper,
                _ => GomokuBound::Exact,
            },
        }
    }

    fn depth(self) -> u8 {
        self.depth
    }
}

/// The gomoku transposition table: probe and store with `DualKey::table_key` of the
/// canonical keys; its counters give the hit rate.
pub type GomokuTable = Table<GomokuEntry>;
