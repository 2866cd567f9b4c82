//! The chess entry of the shared transposition table.

use crate::hashing::{PAYLOAD_BITS, Table, TableEntry};

use super::packed::PackedMove;

/// Which side of the true score a stored score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at least this (a fail high).
    Lower = 1,
    /// The true score is at most this (a fail low).
    Upper = 2,
    /// The exact score.
    Exact = 3,
}

impl Bound {
    /// The bound of a node's best score given the window it was searched with.
    pub fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    /// Whether a stored `score` with this bound settles a node searched with `alpha..beta`.
    pub fn cuts(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }
}

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
            | (self.bound as u64) << 56
    }

    fn unpack(p: u64) -> ChessEntry {
        ChessEntry {
            mv: PackedMove(p as u16),
            score: (p >> 16) as u16 as i16,
            eval: (p >> 32) as u16 as i16,
            depth: (p >> 48) as u8,
            bound: match (p >> 56) & 3 {
                1 => Bound::Lower,
                2 => Bound::Upper,
                _ => Bound::Exact,
            },
        }
    }

    fn depth(self) -> u8 {
        self.depth
    }

    /// Exact scores always replace; otherwise unless much shallower.
    fn overwrites(self, stored: ChessEntry) -> bool {
        self.bound == Bound::Exact || u16::from(self.depth) + 4 > u16::from(stored.depth)
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
}
