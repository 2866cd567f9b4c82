//! The incremental key update: a child's key from its parent's key and the move.
//!
//! Whatever the children of one node share (the parent's key with the turn flipped, the
//! mover's key rows, the squares where a move changes more than its pieces) is gathered once
//! into [`ChildKeys`]; each child's key is then three table loads and two rarely taken tests.

use shakmaty::{Bitboard, CastlingSide, Chess, Color, Move, Position as _, Rank, Role, Square};

use super::zobrist::{ChessKeys, MoverKeys, castling_bit};
use crate::hashing::Key;

/// What a move changes in the key-relevant state, computed before the move is played.
pub(crate) struct Child {
    /// The child's key.
    pub key: Key,
    /// The en-passant file's key included in `key`, or empty.
    pub ep_key: Key,
    /// The child's castling rights as a 4-bit mask.
    pub castling: u8,
}

/// What the keys of one node's children share (see [`Position::child_keys`](super::Position::child_keys)).
pub struct ChildKeys<'a> {
    pos: &'a Chess,
    /// The parent's key with the turn flipped and its en-passant file removed: a hashed
    /// en-passant file never survives a move.
    base: Key,
    /// The parent's castling rights as a 4-bit mask.
    castling: u8,
    pieces: &'static MoverKeys,
    keys: &'static ChessKeys,
    /// Squares where a double push of ours would stand beside an enemy pawn (plus squares
    /// off the double-push rank, which no double push reaches).
    ep_landings: Bitboard,
    /// Squares whose pieces hold castling rights: castling rooks, and our king if it has any.
    rights_squares: Bitboard,
    us: Color,
}

impl<'a> ChildKeys<'a> {
    /// The context of the position `pos`, whose key is `key` (including the en-passant key
    /// `ep_key`) and whose castling rights are the 4-bit mask `castling`.
    #[inline]
    pub(crate) fn new(
        pos: &'a Chess,
        key: Key,
        ep_key: Key,
        castling: u8,
        keys: &'static ChessKeys,
    ) -> ChildKeys<'a> {
        let us = pos.turn();
        let board = pos.board();
        // A double push lands beside an enemy pawn: the one case that hashes an ep file.
        let double_push_rank = Bitboard::from_rank(us.fold_wb(Rank::Fourth, Rank::Fifth));
        // A sideways shift off the board's edge wraps onto the next or previous rank, where no
        // double push of ours lands, so it needs no file mask.
        let beside = board.by_piece(us.other().pawn()) & double_push_rank;
        let ep_landings = beside.shift(1) | beside.shift(-1);
        // Rights go when our king moves or a castling rook moves or is taken.
        let mut rights_squares = pos.castles().castling_rights();
        if castling & color_rights(us) != 0 {
            rights_squares |= board.kings() & board.by_color(us);
        }
        ChildKeys {
            pos,
            base: key ^ ep_key ^ keys.white_to_move(),
            castling,
            pieces: keys.mover_keys(us),
            keys,
            ep_landings,
            rights_squares,
            us,
        }
    }

    /// The key after the legal move `mv`.
    #[inline(always)]
    pub fn key_after(&self, mv: &Move) -> Key {
        self.child(mv).key
    }

    /// The child's key, en-passant key and castling rights after the legal move `mv`.
    // Always inlined: as a call it passes the move and the context through memory, which
    // costs as much as the update itself.
    #[inline(always)]
    pub(crate) fn child(&self, mv: &Move) -> Child {
        let &Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } = mv
        else {
            return self.special_child(*mv);
        };
        let pieces = self.pieces;
        // Indices are masked to the table sizes so no bounds check is needed; roles are
        // 1..=6 and a missing capture is 0, which reads the table's empty row.
        let (from_sq, to_sq) = (from as usize & 63, to as usize & 63);
        let placed = promotion.unwrap_or(role);
        let captured = capture.map_or(0, |victim| victim as usize);
        let mut child = Child {
            key: self.base
                ^ pieces[role as usize & 7][from_sq]
                ^ pieces[placed as usize & 7][to_sq]
                ^ pieces[8 + (captured & 7)][to_sq],
            ep_key: Key::EMPTY,
            castling: self.castling,
        };
        // A double push beside an enemy pawn hashes the en-passant file (the capture need
        // not be legal, as in Polyglot).
        if role == Role::Pawn && from_sq ^ to_sq == 16 && self.ep_landings.contains(to) {
            child.ep_key = self.keys.en_passant(to.file());
            child.key ^= child.ep_key;
        }
        if (self.rights_squares & (Bitboard::from(from) | Bitboard::from(to))).any() {
            child.castling = rights_after(self.pos, role, from, to, self.castling);
            child.key ^= self.keys.castling(child.castling ^ self.castling);
        }
        child
    }

    /// The child after an en-passant capture or castling (about one move in fifty).
    #[inline(never)]
    fn special_child(&self, mv: Move) -> Child {
        let ours = self.pieces;
        let (pawn, king, rook) = (
            Role::Pawn as usize,
            Role::King as usize,
            Role::Rook as usize,
        );
        let mut castling = self.castling;
        let mut key = self.base;
        match mv {
            Move::EnPassant { from, to } => {
                key ^= ours[pawn][from as usize] ^ ours[pawn][to as usize];
                key ^= ours[8 + pawn][Square::from_coords(to.file(), from.rank()) as usize];
            }
            Move::Castle {
                king: king_from,
                rook: rook_from,
            } => {
                // King and rook squares may coincide in Chess960; XOR toggles handle that.
                let side = CastlingSide::from_queen_side(rook_from < king_from);
                key ^= ours[king][king_from as usize] ^ ours[rook][rook_from as usize];
                key ^= ours[king][side.king_to(self.us) as usize];
                key ^= ours[rook][side.rook_to(self.us) as usize];
                castling &= !color_rights(self.us);
                key ^= self.keys.castling(castling ^ self.castling);
            }
            Move::Normal { .. } | Move::Put { .. } => unreachable!("not a special chess move"),
        }
        Child {
            key,
            ep_key: Key::EMPTY,
            castling,
        }
    }
}

/// Castling rights after a normal move by `role` from `from` to `to` (kept off the hot path:
/// only moves that touch the king or a castling rook get here).
#[cold]
fn rights_after(pos: &Chess, role: Role, from: Square, to: Square, mut rights: u8) -> u8 {
    if role == Role::King {
        rights &= !color_rights(pos.turn());
    }
    rights & !castling_rook_bit(pos, from) & !castling_rook_bit(pos, to)
}

/// The rights bit of the castling rook on `square`, or 0 if no right depends on it.
#[inline]
fn castling_rook_bit(pos: &Chess, square: Square) -> u8 {
    let castles = pos.castles();
    if !castles.castling_rights().contains(square) {
        return 0;
    }
    let color = Color::from_white(square.rank() == Rank::First);
    CastlingSide::ALL
        .into_iter()
        .find(|&side| castles.rook(color, side) == Some(square))
        .map_or(0, |side| 1 << castling_bit(color, side))
}

/// Both castling rights of one colour, as mask bits.
#[inline]
fn color_rights(color: Color) -> u8 {
    (1 << castling_bit(color, CastlingSide::KingSide))
        | (1 << castling_bit(color, CastlingSide::QueenSide))
}
