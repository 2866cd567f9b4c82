//! The chess features of the Polyglot key and the table that holds their keys.
//!
//! Feature indices follow the Polyglot layout (781 keys): 768 piece-square keys, four
//! castling rights, eight en-passant files and the white-to-move key. The key values are
//! read once from shakmaty's `Zobrist64`, which uses the Polyglot random array.

use std::sync::LazyLock;

use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{
    Bitboard, CastlingSide, Chess, Color, EnPassantMode, File, Piece, Position, Role, Square,
    attacks,
};

use crate::hashing::{Key, KeyTable};

const CASTLING_BASE: usize = 768;
const EN_PASSANT_BASE: usize = 772;
const WHITE_TO_MOVE: usize = 780;
/// Number of chess features, the length of the Polyglot random array.
pub const FEATURE_COUNT: usize = 781;

/// One thing the chess key hashes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feature {
    /// A piece standing on a square.
    Piece(Piece, Square),
    /// A castling right still held.
    Castling(Color, CastlingSide),
    /// The file of an en-passant square that a pawn of the side to move attacks.
    EnPassant(File),
    /// White is to move.
    WhiteToMove,
}

impl Feature {
    /// The feature's index in the key table (Polyglot order).
    #[inline]
    pub fn index(self) -> usize {
        match self {
            Feature::Piece(piece, square) => piece_index(piece, square),
            Feature::Castling(color, side) => CASTLING_BASE + castling_bit(color, side),
            Feature::EnPassant(file) => EN_PASSANT_BASE + file as usize,
            Feature::WhiteToMove => WHITE_TO_MOVE,
        }
    }

    /// The feature at `index`, the inverse of [`Feature::index`].
    pub fn from_index(index: usize) -> Option<Feature> {
        Some(match index {
            0..CASTLING_BASE => {
                let kind = index / 64;
                let role = Role::ALL[kind / 2];
                let color = Color::from_white(kind % 2 == 1);
                Feature::Piece(role.of(color), Square::new((index % 64) as u32))
            }
            CASTLING_BASE..EN_PASSANT_BASE => {
                let bit = index - CASTLING_BASE;
                let color = Color::from_white(bit < 2);
                let side = CastlingSide::from_queen_side(bit % 2 == 1);
                Feature::Castling(color, side)
            }
            EN_PASSANT_BASE..WHITE_TO_MOVE => {
                Feature::EnPassant(File::new((index - EN_PASSANT_BASE) as u32))
            }
            WHITE_TO_MOVE => Feature::WhiteToMove,
            _ => return None,
        })
    }

    /// The key shakmaty's reference hash uses for this feature.
    fn reference_key(self) -> Key {
        let Zobrist64(bits) = match self {
            Feature::Piece(piece, square) => Zobrist64::zobrist_for_piece(square, piece),
            Feature::Castling(color, side) => Zobrist64::zobrist_for_castling_right(color, side),
            Feature::EnPassant(file) => Zobrist64::zobrist_for_en_passant_file(file),
            Feature::WhiteToMove => Zobrist64::zobrist_for_white_turn(),
        };
        Key(bits)
    }
}

/// Polyglot orders pieces black pawn, white pawn, black knight, ... white king.
#[inline]
fn piece_index(piece: Piece, square: Square) -> usize {
    let kind = 2 * (piece.role as usize - 1) + usize::from(piece.color.is_white());
    64 * kind + square as usize
}

/// Bit of a castling right in a 4-bit rights mask: K = 0, Q = 1, k = 2, q = 3.
#[inline]
pub(crate) fn castling_bit(color: Color, side: CastlingSide) -> usize {
    2 * usize::from(color.is_black()) + usize::from(side.is_queen_side())
}

/// The Polyglot key table, indexed by [`Feature::index`].
pub static POLYGLOT: LazyLock<KeyTable> = LazyLock::new(|| {
    KeyTable::from_fn(FEATURE_COUNT, |i| {
        Feature::from_index(i)
            .expect("every index below FEATURE_COUNT is a feature")
            .reference_key()
    })
});

/// The piece keys seen from one side to move, `[row][square]`: row `role` (1-6) for its own
/// pieces, row `8 + role` for the opponent's. Rows 0, 7, 8 and 15 are empty keys, so a missing
/// capture can read row 8 instead of branching, and a role masked with `& 7` needs no bounds
/// check. One base address for both colours keeps the update's working set in few registers.
pub type MoverKeys = [[Key; 64]; 16];

/// The Polyglot keys laid out for the incremental update: fixed-size arrays indexed by
/// shakmaty's enums, so lookups need no index arithmetic. Every value is copied from
/// [`POLYGLOT`], the feature-indexed core table.
pub struct ChessKeys {
    /// `[mover][row][square]`: rows 0-7 the mover's roles, rows 8-15 the opponent's.
    piece: [MoverKeys; 2],
    /// The XOR of the castling keys of every 4-bit rights mask.
    castling: [Key; 16],
    en_passant: [Key; 8],
    white_to_move: Key,
}

impl ChessKeys {
    fn from_table(table: &KeyTable) -> ChessKeys {
        let mut keys = ChessKeys {
            piece: [[[Key::EMPTY; 64]; 16]; 2],
            castling: [Key::EMPTY; 16],
            en_passant: [Key::EMPTY; 8],
            white_to_move: table.key(WHITE_TO_MOVE),
        };
        for index in 0..CASTLING_BASE {
            if let Some(Feature::Piece(piece, square)) = Feature::from_index(index) {
                let (color, role) = (piece.color as usize, piece.role as usize);
                keys.piece[color][role][square as usize] = table.key(index);
                keys.piece[color ^ 1][8 + role][square as usize] = table.key(index);
            }
        }
        for (mask, key) in keys.castling.iter_mut().enumerate() {
            for bit in (0..4).filter(|bit| mask & (1 << bit) != 0) {
                table.toggle(key, CASTLING_BASE + bit);
            }
        }
        for (file, key) in keys.en_passant.iter_mut().enumerate() {
            *key = table.key(EN_PASSANT_BASE + file);
        }
        keys
    }

    /// The key of a piece on a square.
    #[inline]
    pub fn piece(&self, piece: Piece, square: Square) -> Key {
        self.piece[piece.color as usize][piece.role as usize][square as usize]
    }

    /// The piece keys seen from the side to move `mover`: row `role` for its pieces, row
    /// `8 + role` for the opponent's.
    #[inline]
    pub fn mover_keys(&self, mover: Color) -> &MoverKeys {
        &self.piece[mover as usize]
    }

    /// The XOR of the keys of the castling rights in a 4-bit mask (one bit per colour and
    /// side, numbered as `castling_bit` numbers them).
    #[inline]
    pub fn castling(&self, mask: u8) -> Key {
        self.castling[usize::from(mask & 15)]
    }

    /// The key of an en-passant file.
    #[inline]
    pub fn en_passant(&self, file: File) -> Key {
        self.en_passant[file as usize]
    }

    /// The key XORed in when white is to move.
    #[inline]
    pub fn white_to_move(&self) -> Key {
        self.white_to_move
    }
}

/// The Polyglot keys in the incremental update's layout.
pub static CHESS_KEYS: LazyLock<ChessKeys> = LazyLock::new(|| ChessKeys::from_table(&POLYGLOT));

/// The en-passant square that enters the key: set after a double push, and only when a pawn
/// of the side to move stands beside the pushed pawn (legal or not, as Polyglot does).
pub fn hashed_ep_square(pos: &Chess) -> Option<Square> {
    pos.ep_square(EnPassantMode::Always).filter(|&ep| {
        can_capture_en_passant(pos.board().by_piece(pos.turn().pawn()), ep, pos.turn())
    })
}

/// True when one of `capturers` (pawns of `side`) attacks the en-passant square `ep`.
#[inline]
pub(crate) fn can_capture_en_passant(capturers: Bitboard, ep: Square, side: Color) -> bool {
    (attacks::pawn_attacks(side.other(), ep) & capturers).any()
}

/// The castling rights of a position as a 4-bit mask (see [`castling_bit`]).
pub(crate) fn castling_mask(pos: &Chess) -> u8 {
    let castles = pos.castles();
    let mut mask = 0;
    for color in Color::ALL {
        for side in CastlingSide::ALL {
            if castles.has(color, side) {
                mask |= 1 << castling_bit(color, side);
            }
        }
    }
    mask
}

/// The XOR of the castling keys of every right in `mask`, feature by feature.
fn castling_key(keys: &KeyTable, mask: u8) -> Key {
    let mut key = Key::EMPTY;
    for bit in 0..4 {
        if mask & (1 << bit) != 0 {
            keys.toggle(&mut key, CASTLING_BASE + bit);
        }
    }
    key
}

/// The key of `pos` computed from scratch with our table: the slow, obviously right way,
/// used to check the incremental key.
pub fn key_from_scratch(pos: &Chess) -> Key {
    let keys = &*POLYGLOT;
    let mut key = Key::EMPTY;
    for (square, piece) in pos.board() {
        keys.toggle(&mut key, Feature::Piece(piece, square).index());
    }
    key ^= castling_key(keys, castling_mask(pos));
    if let Some(ep) = hashed_ep_square(pos) {
        keys.toggle(&mut key, Feature::EnPassant(ep.file()).index());
    }
    if pos.turn().is_white() {
        keys.toggle(&mut key, Feature::WhiteToMove.index());
    }
    key
}

/// shakmaty's reference hash of `pos`, the value every key of ours must equal.
pub fn reference_key(pos: &Chess) -> Key {
    let Zobrist64(bits) = pos.zobrist_hash(EnPassantMode::PseudoLegal);
    Key(bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feature_indices_round_trip_and_cover_the_table() {
        for i in 0..FEATURE_COUNT {
            let feature = Feature::from_index(i).unwrap();
            assert_eq!(feature.index(), i, "{feature:?}");
        }
        assert_eq!(Feature::from_index(FEATURE_COUNT), None);
    }

    #[test]
    fn start_position_has_the_published_polyglot_key() {
        // The Polyglot book format specification gives this key for the start position.
        assert_eq!(key_from_scratch(&Chess::default()), Key(0x463b96181691fc9c));
    }
}
