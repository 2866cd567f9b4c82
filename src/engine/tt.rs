//! The chess entry of the shared transposition table.

pub use crate::hashing::Bound;
use crate::hashing::{PAYLOAD_BITS, Table, TableEntry};

use super::packed::PackedMove;

/// One search result: 16-bit move, score and static eval, 8-bit depth, 2-bit bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChessEntry {
    /// Best or refutation move found.
    pub mv: PackedMove,
    /// Score, mate scores relative to the stored node (see `search::score_to_tt`).
    pub score: i16,
    /// Static evaluation of the position.
    pub eval: i16,
    /// Remaining depth the score is valid for.
    pub depth: u8,
    /// How the score bounds the true value.
    pub bound: Bound,
}

const _: () = assert!(16 + 16 + 16 + 8 + 2 <= PAYLOAD_BITS);

impl TableEntry for ChessEntry {
    fn pack(self) -> u64 {
        u64::from(self.mv.0)
            | u64::from(self.score as u16) << 16
            | u64::from(self.eval as u16) << 32
            | u64::from(self.depth) << 48
            | self.bound.bits() << 56
    }

    fn unpack(p: u64) -> ChessEntry {
        ChessEntry {
            mv: PackedMove(p as u16),
            score: (p >> 16) as u16 as i16,
            eval: (p >> 32) as u16 as i16,
            depth: (p >> 48) as u8,
            bound: Bound::from_bits(p >> 56),
        }
    }

    fn depth(self) -> u8 {
        self.depth
    }

    /// Exact scores always replace; otherwise unless much shallower.
    fn overwrites(self, stored: ChessEntry) -> bool {
        self.bound == Bound::Exact || u16::from(self.depth) + 4 > u16::from(stored.depth)
    }

    /// A result without a move (a fail low) keeps the move stored for the position, so the
    /// next visit still searches it first.
    fn merged_over(self, stored: ChessEntry) -> ChessEntry {
        if self.mv.is_none() {
            ChessEntry {
                mv: stored.mv,
                ..self
            }
        } else {
            self
        }
    }
}

/// The chess transposition table.
pub type ChessTable = Table<ChessEntry>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_round_trips_with_negative_scores() {
        for bound in [Bound::Lower, Bound::Upper, Bound::Exact] {
            let e = ChessEntry {
                mv: PackedMove(0xbeef),
                score: -31_000,
                eval: -7,
                depth: 250,
                bound,
            };
            assert_eq!(ChessEntry::unpack(e.pack()), e);
            assert!(e.pack() < 1 << PAYLOAD_BITS);
        }
    }

    #[test]
    fn a_fail_low_store_keeps_the_stored_move() {
        let table = ChessTable::new(1).expect("a 1 MiB table");
        let key = crate::hashing::TableKey {
            index: 0x1234_5678_9abc_def0,
            verify: 0x0fed_cba9_8765_4321,
        };
        let best = ChessEntry {
            mv: PackedMove(0x0abc),
            score: 40,
            eval: 12,
            depth: 6,
            bound: Bound::Lower,
        };
        assert!(table.store(key, best));
        let fail_low = ChessEntry {
            mv: PackedMove::NONE,
            score: -30,
            eval: 12,
            depth: 8,
            bound: Bound::Upper,
        };
        assert!(table.store(key, fail_low));
        let now = table.probe(key).expect("the entry is stored");
        assert_eq!(now.mv, best.mv, "the move survives a fail-low overwrite");
        assert_eq!((now.score, now.depth, now.bound), (-30, 8, Bound::Upper));
        let refutation = ChessEntry {
            mv: PackedMove(0x0def),
            ..fail_low
        };
        assert!(table.store(key, refutation));
        assert_eq!(table.probe(key).map(|e| e.mv), Some(PackedMove(0x0def)));
    }
}
