//! The legal captures and promotions of a position, generated without its quiet moves:
//! what quiescence searches. shakmaty generates every legal move and offers no subset
//! cheaper than that, and most of a quiescence node's moves are quiet.

use shakmaty::{
    Bitboard, Board, Chess, Color, EnPassantMode, File, Move, MoveList, Position as _, Rank, Role,
    Square, attacks,
};

/// The roles a pawn promotes to.
const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Knight, Role::Rook, Role::Bishop];

/// Puts the legal moves of `pos` that capture or promote into `moves` (emptied first) and
/// returns true; returns false, with `moves` left empty, when `pos` is in check (`in_check`,
/// which a search knows already) or has a legal en-passant capture: there the caller
/// generates every legal move (evasions are all searched, and en passant's legality needs
/// the whole board after the move). The list is filled in place: returned by value, its
/// 2 KB were copied at every call.
///
/// ```
/// use rookery::chess::{Position, tactical::tactical_moves};
/// use shakmaty::MoveList;
/// let pos = Position::from_fen("4k3/1P6/8/3p4/4P3/8/8/4K3 w - - 0 1", false).unwrap();
/// let mut moves = MoveList::new();
/// assert!(tactical_moves(pos.chess(), false, &mut moves));
/// // exd5 and four promotions on b8.
/// assert_eq!(moves.len(), 5);
/// ```
pub fn tactical_moves(pos: &Chess, in_check: bool, moves: &mut MoveList) -> bool {
    moves.clear();
    each_tactical_move(pos, in_check, |mv| moves.push(mv))
}

/// Calls `f` with each of the moves [`tactical_moves`] lists, in its order, and returns
/// true; returns false without calling `f` where [`tactical_moves`] declines (in check,
/// or with a legal en-passant capture). A caller that only scores the moves needs no list.
#[inline(always)]
pub fn each_tactical_move(pos: &Chess, in_check: bool, mut f: impl FnMut(Move)) -> bool {
    debug_assert_eq!(in_check, pos.is_check());
    if in_check || pos.ep_square(EnPassantMode::Legal).is_some() {
        return false;
    }
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(us) else {
        return false;
    };
    let theirs = board.by_color(!us);
    let occupied = board.occupied();
    let pinned = pinned(board, us, king);
    // A pinned piece moves only along the line through its king and its pinner.
    let mut add = |role: Role, from: Square, to: Square, promotion: Option<Role>| {
        if !pinned.contains(from) || attacks::aligned(from, to, king) {
            let capture = board.role_at(to);
            f(Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            });
        }
    };

    let last_rank = Bitboard::from_rank(us.fold_wb(Rank::Eighth, Rank::First));
    let seventh = Bitboard::from_rank(us.fold_wb(Rank::Seventh, Rank::Second));
    // Only a pawn that attacks an enemy piece or stands a step from promotion adds a move:
    // the others are passed over as a set, without a look at each one's squares.
    let movers = pawn_attackers(us, theirs) | seventh;
    for from in board.pawns() & board.by_color(us) & movers {
        let mut targets = attacks::pawn_attacks(us, from) & theirs;
        if let Some(ahead) = from.offset(us.fold_wb(8, -8))
            && last_rank.contains(ahead)
            && !occupied.contains(ahead)
        {
            targets.add(ahead);
        }
        for to in targets {
            if last_rank.contains(to) {
                for role in PROMOTIONS {
                    add(Role::Pawn, from, to, Some(role));
                }
            } else {
                add(Role::Pawn, from, to, None);
            }
        }
    }
    // Each kind of piece with its own attack function: shakmaty's `attacks`, which matches
    // on the piece, was a call for every piece.
    let ours = |role: Role| board.by_piece(role.of(us));
    captures(Role::Knight, ours(Role::Knight), theirs, &mut add, |from| {
        attacks::knight_attacks(from)
    });
    captures(Role::Bishop, ours(Role::Bishop), theirs, &mut add, |from| {
        attacks::bishop_attacks(from, occupied)
    });
    captures(Role::Rook, ours(Role::Rook), theirs, &mut add, |from| {
        attacks::rook_attacks(from, occupied)
    });
    captures(Role::Queen, ours(Role::Queen), theirs, &mut add, |from| {
        attacks::queen_attacks(from, occupied)
    });
    // The king takes only what no enemy piece guards (out of check, no slider's line runs
    // through the king's square, so the square it leaves hides nothing).
    for to in attacks::king_attacks(king) & theirs {
        if board.attacks_to(to, !us, occupied).is_empty() {
            add(Role::King, king, to, None);
        }
    }
    true
}

/// Hands `add` the captures of `theirs` by the pieces `pieces` of kind `role`, which
/// attack the squares `reach` gives from their own.
#[inline(always)]
fn captures(
    role: Role,
    pieces: Bitboard,
    theirs: Bitboard,
    add: &mut impl FnMut(Role, Square, Square, Option<Role>),
    reach: impl Fn(Square) -> Bitboard,
) {
    for from in pieces {
        for to in reach(from) & theirs {
            add(role, from, to, None);
        }
    }
}

/// The squares from which a pawn of `color` attacks a square of `targets`: the squares a
/// pawn of the other colour would attack from `targets`.
fn pawn_attackers(color: Color, targets: Bitboard) -> Bitboard {
    let not_a_file = !u64::from(Bitboard::from_file(File::A));
    let targets = u64::from(targets);
    // A diagonal step that would leave the board by the a- or h-file is masked off (a
    // shift by 7 or 9 wraps it onto the next or previous rank's other edge).
    Bitboard(match color {
        Color::White => ((targets & not_a_file) >> 9) | ((targets >> 7) & not_a_file),
        Color::Black => ((targets & not_a_file) << 7) | ((targets << 9) & not_a_file),
    })
}

/// `us`'s pieces that stand alone between their king on `king` and an enemy slider.
pub(crate) fn pinned(board: &Board, us: Color, king: Square) -> Bitboard {
    let snipers = (attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens())
        | (attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens());
    let mut pinned = Bitboard::EMPTY;
    for sniper in snipers & board.by_color(!us) {
        let between = attacks::between(king, sniper) & board.occupied();
        if between.count() == 1 {
            pinned |= between & board.by_color(us);
        }
    }
    pinned
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Position, TRICKY_POSITIONS};
    use rand::rngs::ChaCha8Rng;
    use rand::{RngExt, SeedableRng};

    /// The captures and promotions among shakmaty's legal moves, as a sorted list.
    fn reference(pos: &Chess) -> Vec<String> {
        let mut moves: Vec<String> = pos
            .legal_moves()
            .iter()
            .filter(|m| m.is_capture() || m.is_promotion())
            .map(|m| format!("{m:?}"))
            .collect();
        moves.sort();
        moves
    }

    fn generated(pos: &Chess) -> Option<Vec<String>> {
        let mut list = MoveList::new();
        if !tactical_moves(pos, pos.is_check(), &mut list) {
            return None;
        }
        let mut moves: Vec<String> = list.iter().map(|m| format!("{m:?}")).collect();
        moves.sort();
        Some(moves)
    }

    /// Random games from positions rich in pins, promotions and king captures: at every
    /// position the generator covers, its moves are exactly shakmaty's legal captures and
    /// promotions.
    #[test]
    fn tactical_moves_are_the_legal_captures_and_promotions() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let (mut covered, mut declined) = (0, 0);
        for fen in TRICKY_POSITIONS {
            for _ in 0..40 {
                let mut pos = Position::from_fen(fen, false).unwrap().chess().clone();
                for _ in 0..60 {
                    match generated(&pos) {
                        Some(moves) => {
                            assert_eq!(moves, reference(&pos), "{}", fen_of(&pos));
                            covered += 1;
                        }
                        None => declined += 1,
                    }
                    let legal = pos.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    pos.play_unchecked(legal[rng.random_range(0..legal.len())]);
                }
            }
        }
        assert!(covered > 10_000 && declined > 100, "{covered} {declined}");
    }

    /// From every square, a pawn attacks exactly the squares whose set of attackers
    /// [`pawn_attackers`] finds it in, for both colours; sets are the union of their squares.
    #[test]
    fn pawn_attackers_are_the_squares_pawns_attack_from() {
        for color in Color::ALL {
            for target in Square::ALL {
                let expected: Bitboard = Square::ALL
                    .into_iter()
                    .filter(|&from| attacks::pawn_attacks(color, from).contains(target))
                    .collect();
                assert_eq!(pawn_attackers(color, Bitboard::from(target)), expected);
            }
        }
        let targets = Bitboard::from(Square::A5) | Bitboard::from(Square::H4);
        assert_eq!(
            pawn_attackers(Color::White, targets),
            Bitboard::from(Square::B4) | Bitboard::from(Square::G3)
        );
    }

    fn fen_of(pos: &Chess) -> String {
        shakmaty::fen::Fen::from_position(pos, EnPassantMode::Legal).to_string()
    }

    #[test]
    fn in_check_or_with_en_passant_the_caller_generates_everything() {
        let check = Position::from_fen("4k3/8/8/8/8/8/4q3/4K3 w - - 0 1", false).unwrap();
        let mut moves = MoveList::new();
        assert!(!tactical_moves(check.chess(), true, &mut moves));
        let en_passant = Position::from_fen("4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1", false).unwrap();
        assert!(!tactical_moves(en_passant.chess(), false, &mut moves));
    }
}
