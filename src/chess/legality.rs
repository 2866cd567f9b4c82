//! Whether a move named by its squares is legal, checked on its own: the move is rebuilt
//! from the board instead of searched for among generated moves (shakmaty's check of one
//! move builds a list of candidates first).

use shakmaty::{Bitboard, Chess, Color, Move, Position as _, Rank, Role, Square, attacks};

/// The legal move of `pos` from `from` to `to` with `promotion`, if there is one, castling
/// aside: rebuilt from the board (the piece on its origin square, what stands on its
/// target, en passant) and kept when that piece can make it and its king is not attacked
/// afterwards. In check or not.
///
/// ```
/// use rookery::chess::{Position, legality::legal_move_between};
/// use shakmaty::{Move, Role, Square};
/// let pos = Position::from_fen("4k3/8/8/8/8/8/r2B4/3K4 w - - 0 1", false).unwrap();
/// // The rook on a2 guards c2; the bishop takes it.
/// assert_eq!(legal_move_between(pos.chess(), Square::D1, Square::C2, None), None);
/// assert_eq!(
///     legal_move_between(pos.chess(), Square::D2, Square::A5, None),
///     Some(Move::Normal {
///         role: Role::Bishop,
///         from: Square::D2,
///         capture: None,
///         to: Square::A5,
///         promotion: None,
///     })
/// );
/// ```
pub fn legal_move_between(
    pos: &Chess,
    from: Square,
    to: Square,
    promotion: Option<Role>,
) -> Option<Move> {
    let board = pos.board();
    let us = pos.turn();
    let piece = board.piece_at(from).filter(|piece| piece.color == us)?;
    if board.by_color(us).contains(to) {
        return None;
    }
    let occupied = board.occupied();
    let capture = board.role_at(to);
    // The move, if the piece can make it, and the square of the piece it takes.
    let (mv, taken) = if piece.role == Role::Pawn {
        let last_rank = us.fold_wb(Rank::Eighth, Rank::First);
        if (to.rank() == last_rank) != promotion.is_some() {
            return None;
        }
        let pushes = capture.is_none() && pawn_push_reaches(us, from, to, occupied);
        let normal = Move::Normal {
            role: Role::Pawn,
            from,
            capture,
            to,
            promotion,
        };
        if pushes {
            (normal, None)
        } else if !attacks::pawn_attacks(us, from).contains(to) {
            return None;
        } else if capture.is_some() {
            (normal, Some(to))
        } else if pos.maybe_ep_square() == Some(to) {
            let taken = Square::from_coords(to.file(), from.rank());
            (Move::EnPassant { from, to }, Some(taken))
        } else {
            return None;
        }
    } else {
        if promotion.is_some() || !attacks::attacks(from, piece, occupied).contains(to) {
            return None;
        }
        let mv = Move::Normal {
            role: piece.role,
            from,
            capture,
            to,
            promotion: None,
        };
        (mv, capture.map(|_| to))
    };
    let king = if piece.role == Role::King {
        to
    } else {
        board.king_of(us)?
    };
    let mut after = occupied.without(from);
    let mut attackers = Bitboard::FULL;
    if let Some(taken) = taken {
        after = after.without(taken);
        attackers = attackers.without(taken);
    }
    let attacked = board.attacks_to(king, !us, after.with(to)) & attackers;
    attacked.is_empty().then_some(mv)
}

/// Whether a pawn of `us` on `from` pushes to `to`, which must be empty: one step forward,
/// or two from its starting rank over an empty square (promotions included).
pub(crate) fn pawn_push_reaches(us: Color, from: Square, to: Square, occupied: Bitboard) -> bool {
    let forward = us.fold_wb(8, -8);
    let one = from.offset(forward);
    one == Some(to)
        || from.rank() == us.fold_wb(Rank::Second, Rank::Seventh)
            && one.is_some_and(|one| !occupied.contains(one))
            && from.offset(2 * forward) == Some(to)
}
