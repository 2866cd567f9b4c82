//! Material on the board: both sides' pieces (kings left out) counted by a table of piece
//! values, the one count the win/draw/loss model and the evaluation's scaling share.

use shakmaty::Board;

/// A value for each kind of piece but the king, in whatever unit the caller counts in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceValues {
    /// A pawn's value.
    pub pawn: i64,
    /// A knight's value.
    pub knight: i64,
    /// A bishop's value.
    pub bishop: i64,
    /// A rook's value.
    pub rook: i64,
    /// A queen's value.
    pub queen: i64,
}

impl PieceValues {
    /// The material of both sides on `board`, kings left out.
    ///
    /// ```
    /// use rookery::chess::material::PieceValues;
    /// let units = PieceValues { pawn: 1, knight: 3, bishop: 3, rook: 5, queen: 9 };
    /// assert_eq!(units.on(&shakmaty::Board::new()), 78);
    /// ```
    #[inline]
    pub fn on(&self, board: &Board) -> i64 {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the processor has POPCNT, checked just above.
            return unsafe { self.on_with_popcnt(board) };
        }
        self.counted_on(board)
    }

    /// [`PieceValues::on`] compiled with the POPCNT instruction. The portable build counts
    /// a bitboard's squares in a dozen shifts and masks each, and the search counts the
    /// material of every position it evaluates.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn on_with_popcnt(&self, board: &Board) -> i64 {
        self.counted_on(board)
    }

    /// [`PieceValues::on`], compiled for whatever instructions its caller's are: a caller
    /// compiled with POPCNT (see `on_with_popcnt`) counts with it.
    #[inline(always)]
    pub(crate) fn counted_on(&self, board: &Board) -> i64 {
        let count = |pieces: shakmaty::Bitboard| i64::from(pieces.count() as u32);
        count(board.pawns()) * self.pawn
            + count(board.knights()) * self.knight
            + count(board.bishops()) * self.bishop
            + count(board.rooks()) * self.rook
            + count(board.queens()) * self.queen
    }

    /// The material of both sides in the start position: sixteen pawns, four each of
    /// knights, bishops and rooks, two queens.
    pub fn at_start(&self) -> i64 {
        16 * self.pawn + 4 * (self.knight + self.bishop + self.rook) + 2 * self.queen
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DISTINCT: PieceValues = PieceValues {
        pawn: 1,
        knight: 10,
        bishop: 100,
        rook: 1_000,
        queen: 10_000,
    };

    #[test]
    fn each_kind_counts_at_its_own_value_for_both_sides() {
        // White: two pawns, a rook, a queen; black: four pawns, a knight, two bishops.
        let board: Board = "4k3/pppp4/2bn4/8/8/5b2/4PP2/R2QK3".parse().unwrap();
        assert_eq!(DISTINCT.on(&board), 6 + 10 + 200 + 1_000 + 10_000);
    }

    #[test]
    fn the_start_position_holds_its_full_material() {
        assert_eq!(DISTINCT.on(&Board::new()), DISTINCT.at_start());
        assert_eq!(DISTINCT.at_start(), 16 + 40 + 400 + 4_000 + 20_000);
    }
}
