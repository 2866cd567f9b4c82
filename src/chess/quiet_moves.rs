//! The legal quiet moves of a position out of check, generated without its captures and
//! promotions: what the search's quiet stage ranks. shakmaty generates every legal move and
//! offers no cheaper subset.
//!
//! The moves come out in the order in which shakmaty's `legal_moves` lists them (with its
//! captures and promotions left out): pawn pushes by target square, then double pushes,
//! knights, bishops, rooks and queens by origin and then target square, king steps, and
//! castling king side before queen side. A picker that breaks ties by list order therefore
//! ranks them exactly as it ranked shakmaty's list.

use shakmaty::{
    Bitboard, CastlingSide, Chess, Move, MoveList, Position as _, Role, Square, attacks,
};

use super::tactical::pinned;

/// Puts every legal move of `pos` that neither captures nor promotes into `moves` (emptied
/// first), in shakmaty's order (see the module's description). `pos` must not be in check:
/// its evasions are not generated here. The list is filled in place: returned by value, its
/// 2 KB would be copied at every call.
///
/// ```
/// use rookery::chess::{Position, quiet_moves::quiet_moves};
/// use shakmaty::{CastlingMode, MoveList};
/// // The bishop on d2 is pinned: it may go only to c3 (b4 holds an enemy bishop).
/// let pos = Position::from_fen("4k3/8/8/8/1b6/8/3B4/4K3 w - - 0 1", false).unwrap();
/// let mut moves = MoveList::new();
/// quiet_moves(pos.chess(), &mut moves);
/// let uci: Vec<String> = moves
///     .iter()
///     .map(|mv| mv.to_uci(CastlingMode::Standard).to_string())
///     .collect();
/// assert_eq!(uci, ["d2c3", "e1d1", "e1f1", "e1e2", "e1f2"]);
/// ```
// Kept out of line: inlined into the move picker, its setup was hoisted to the picker's
// entry and paid at every call, quiet stage or not.
#[inline(never)]
pub fn quiet_moves(pos: &Chess, moves: &mut MoveList) {
    moves.clear();
    each_quiet_move(pos, |mv, _, _, _| moves.push(mv));
}

/// Calls `f` with every legal move of `pos` that neither captures nor promotes, in the order
/// of [`quiet_moves`], together with the moving piece's role, its origin and its target as
/// the generator knows them (for castling: the king, its square and its rook's square), so
/// that a caller that scores the moves need not match on each move to read them. `pos` must
/// not be in check.
#[inline(always)]
pub fn each_quiet_move(pos: &Chess, mut f: impl FnMut(Move, Role, Square, Square)) {
    debug_assert!(!pos.is_check(), "only out of check");
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(us) else {
        return;
    };
    let occupied = board.occupied();
    let empty = !occupied;
    let pinned = pinned(board, us, king);
    // A pinned piece moves only along the line through its king and its pinner.
    let free = |from: Square, targets: Bitboard| {
        if pinned.contains(from) {
            targets & attacks::ray(king, from)
        } else {
            targets
        }
    };

    let pawns = board.pawns() & board.by_color(us);
    let forward = us.fold_wb(8, -8);
    let single = pawns.shift(forward) & empty;
    for to in single & !Bitboard::BACKRANKS {
        let from = offset(to, -forward);
        steps(&mut f, Role::Pawn, from, free(from, to.into()));
    }
    let double = single.shift(forward) & us.fold_wb(Bitboard::SOUTH, Bitboard::NORTH) & empty;
    for to in double {
        let from = offset(to, -2 * forward);
        steps(&mut f, Role::Pawn, from, free(from, to.into()));
    }
    for from in board.by_piece(Role::Knight.of(us)) {
        let targets = attacks::knight_attacks(from) & empty;
        steps(&mut f, Role::Knight, from, free(from, targets));
    }
    for from in board.by_piece(Role::Bishop.of(us)) {
        let targets = attacks::bishop_attacks(from, occupied) & empty;
        steps(&mut f, Role::Bishop, from, free(from, targets));
    }
    for from in board.by_piece(Role::Rook.of(us)) {
        let targets = attacks::rook_attacks(from, occupied) & empty;
        steps(&mut f, Role::Rook, from, free(from, targets));
    }
    for from in board.by_piece(Role::Queen.of(us)) {
        let targets = attacks::queen_attacks(from, occupied) & empty;
        steps(&mut f, Role::Queen, from, free(from, targets));
    }
    // Out of check no enemy slider's line runs through the king's square, so the square it
    // leaves hides nothing.
    let mut safe = Bitboard::EMPTY;
    for to in attacks::king_attacks(king) & empty {
        if board.attacks_to(to, !us, occupied).is_empty() {
            safe.add(to);
        }
    }
    steps(&mut f, Role::King, king, safe);
    for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
        if let Some(mv) = castling(pos, king, side)
            && let Move::Castle { king, rook } = mv
        {
            f(mv, Role::King, king, rook);
        }
    }
}

/// Hands `f` the quiet moves of the `role` on `from` to each of `targets`.
#[inline(always)]
fn steps(
    f: &mut impl FnMut(Move, Role, Square, Square),
    role: Role,
    from: Square,
    targets: Bitboard,
) {
    for to in targets {
        let mv = Move::Normal {
            role,
            from,
            capture: None,
            to,
            promotion: None,
        };
        f(mv, role, from, to);
    }
}

/// The square `delta` steps from `sq` (within the board: the caller shifted it there).
fn offset(sq: Square, delta: i32) -> Square {
    sq.offset(delta).expect("a pawn's origin lies on the board")
}

/// The castling move to `side` of the king on `king`, if it is legal (out of check): the
/// right is kept, the squares between king and rook are empty, and no square the king
/// crosses or lands on is attacked.
pub(crate) fn castling(pos: &Chess, king: Square, side: CastlingSide) -> Option<Move> {
    let us = pos.turn();
    let castles = pos.castles();
    let rook = castles.rook(us, side)?;
    let board = pos.board();
    let occupied = board.occupied();
    if (castles.path(us, side) & occupied).any() {
        return None;
    }
    let king_to = side.king_to(us);
    let landed = occupied ^ king ^ rook ^ side.rook_to(us);
    if board.attacks_to(king_to, !us, landed).any() {
        return None;
    }
    let crossed = attacks::between(king, king_to).with(king);
    if crossed
        .into_iter()
        .any(|sq| board.attacks_to(sq, !us, occupied ^ king).any())
    {
        return None;
    }
    Some(Move::Castle { king, rook })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Position, TRICKY_POSITIONS};
    use rand::rngs::ChaCha8Rng;
    use rand::{RngExt, SeedableRng};
    use shakmaty::CastlingMode;

    /// The quiet moves among shakmaty's legal moves, in its order.
    fn reference(pos: &Chess) -> Vec<Move> {
        pos.legal_moves()
            .iter()
            .copied()
            .filter(|m| !m.is_capture() && !m.is_promotion())
            .collect()
    }

    fn generated(pos: &Chess) -> Vec<Move> {
        let mut moves = MoveList::new();
        quiet_moves(pos, &mut moves);
        moves.to_vec()
    }

    fn fen_of(pos: &Chess) -> String {
        shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string()
    }

    /// Random games from positions rich in pins, castling, promotions and en passant (and
    /// Chess960 castling): at every position out of check, the generator's moves are
    /// shakmaty's legal quiet moves, in shakmaty's order, each handed out with its own
    /// role and squares.
    #[test]
    fn quiet_moves_are_the_legal_quiet_moves_in_order() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let chess960 = [
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
            "r1k2r2/8/8/8/8/8/8/R1K2R2 w AFaf - 0 1",
        ];
        let starts = TRICKY_POSITIONS
            .iter()
            .map(|fen| (*fen, CastlingMode::Standard))
            .chain(chess960.iter().map(|fen| (*fen, CastlingMode::Chess960)));
        let (mut covered, mut castles, mut pinned_moves) = (0, 0, 0);
        for (fen, mode) in starts {
            for _ in 0..40 {
                let mut pos = Position::from_fen(fen, mode.is_chess960())
                    .unwrap()
                    .chess()
                    .clone();
                for _ in 0..80 {
                    if !pos.is_check() {
                        let moves = generated(&pos);
                        assert_eq!(moves, reference(&pos), "{}", fen_of(&pos));
                        // The fields handed out with each move are the move's own.
                        each_quiet_move(&pos, |mv, role, from, to| {
                            let fields = match mv {
                                Move::Castle { king, rook } => (Role::King, king, rook),
                                _ => (mv.role(), mv.from().unwrap(), mv.to()),
                            };
                            assert_eq!(fields, (role, from, to), "{}", fen_of(&pos));
                        });
                        covered += 1;
                        castles += moves.iter().filter(|m| m.is_castle()).count();
                        let king = pos.board().king_of(pos.turn()).unwrap();
                        pinned_moves += moves
                            .iter()
                            .filter(|m| {
                                pinned(pos.board(), pos.turn(), king).contains(m.from().unwrap())
                            })
                            .count();
                    }
                    let legal = pos.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    pos.play_unchecked(legal[rng.random_range(0..legal.len())]);
                }
            }
        }
        assert!(
            covered > 15_000 && castles > 500 && pinned_moves > 500,
            "{covered} {castles} {pinned_moves}"
        );
    }
}
