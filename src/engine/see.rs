//! Static exchange evaluation: does a capture sequence on one square win at least a
//! threshold, both sides always recapturing with their least valuable piece?

use shakmaty::{Bitboard, Board, Chess, Color, Move, Position, Role, Square, attacks};

use super::params::{see_bishop, see_knight, see_queen, see_rook};

/// A piece's plain value for exchange evaluation and capture ordering (pawn 100; the
/// others are tunable).
pub fn see_value(role: Role) -> i32 {
    match role {
        Role::Pawn => 100,
        Role::Knight => see_knight(),
        Role::Bishop => see_bishop(),
        Role::Rook => see_rook(),
        Role::Queen => see_queen(),
        Role::King => 20_000,
    }
}

/// Every piece of either colour attacking `square` with `occupied` as the blockers.
fn attackers(board: &Board, square: Square, occupied: Bitboard) -> Bitboard {
    let diagonal = board.bishops() | board.queens();
    let straight = board.rooks() | board.queens();
    ((attacks::pawn_attacks(Color::White, square) & board.by_piece(Color::Black.pawn()))
        | (attacks::pawn_attacks(Color::Black, square) & board.by_piece(Color::White.pawn()))
        | (attacks::knight_attacks(square) & board.knights())
        | (attacks::king_attacks(square) & board.kings())
        | (attacks::bishop_attacks(square, occupied) & diagonal)
        | (attacks::rook_attacks(square, occupied) & straight))
        & occupied
}

/// True when the legal move `mv` wins at least `threshold` centipawns in the exchange it
/// starts. Castling and en passant are treated as plain moves of their value.
///
/// Inlined: about a quarter of the calls are settled by the values of the two pieces alone,
/// without a call; the exchange itself is [`exchange_reaches`].
#[inline]
pub fn see_ge(pos: &Chess, mv: Move, threshold: i32) -> bool {
    // A legal move names the piece it takes: the board is not read for it.
    let (from, to, captured) = match mv {
        Move::Normal {
            from, to, capture, ..
        } => (from, to, capture.map_or(0, see_value)),
        Move::EnPassant { from, to } => (from, to, see_value(Role::Pawn)),
        _ => return threshold <= 0,
    };
    // Gain so far, from the mover's side, if the opponent stops here.
    let balance = captured - threshold;
    if balance < 0 {
        return false;
    }
    let balance = balance - see_value(mv.role());
    if balance >= 0 {
        return true; // even losing the mover keeps us above the threshold
    }
    exchange_reaches(pos, mv, from, to, balance)
}

/// The exchange [`see_ge`] starts with `mv` from `from` to `to`: true when it ends with
/// the mover's side at or above its threshold, `balance` (below 0) being where the mover's
/// side stands if the opponent takes the mover and the exchange stops there.
#[inline(never)]
fn exchange_reaches(pos: &Chess, mv: Move, from: Square, to: Square, mut balance: i32) -> bool {
    let board = pos.board();
    let mut occupied = board.occupied() ^ Bitboard::from(from) ^ Bitboard::from(to);
    if let Move::EnPassant { .. } = mv {
        occupied ^= Bitboard::from(Square::from_coords(to.file(), from.rank()));
    }
    let mut all = attackers(board, to, occupied);
    let diagonal = board.bishops() | board.queens();
    let straight = board.rooks() | board.queens();
    let mut side = pos.turn();
    // `side` has just captured; now it is the other side's turn to recapture or stop.
    let mut winner = side;
    loop {
        side = side.other();
        all &= occupied;
        let ours = all & board.by_color(side);
        if ours.is_empty() {
            break;
        }
        let (role, square) = [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
            Role::King,
        ]
        .into_iter()
        .find_map(|r| (ours & board.by_role(r)).first().map(|sq| (r, sq)))
        .expect("an attacker exists");
        // A king may only recapture when nothing defends the square any more.
        if role == Role::King && (all & board.by_color(side.other())).any() {
            break;
        }
        winner = side;
        // Negamax on the balance: the side to capture now sees it flipped.
        balance = -balance - 1 - see_value(role);
        occupied ^= Bitboard::from(square);
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            all |= attacks::bishop_attacks(to, occupied) & diagonal;
        }
        if matches!(role, Role::Rook | Role::Queen) {
            all |= attacks::rook_attacks(to, occupied) & straight;
        }
        if balance >= 0 {
            break;
        }
    }
    winner == pos.turn()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Position as Pos;

    fn see(fen: &str, uci: &str, threshold: i32) -> bool {
        let pos = Pos::from_fen(fen, false).unwrap();
        let mv = pos.parse_uci(uci).unwrap();
        see_ge(pos.chess(), mv, threshold)
    }

    #[test]
    fn simple_exchanges() {
        // Rook takes an undefended pawn: +100.
        let fen = "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1";
        assert!(see(fen, "e1e5", 100));
        assert!(!see(fen, "e1e5", 101));
        // Knight takes a pawn defended by a pawn: loses the knight for a pawn.
        let fen = "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1";
        assert!(!see(fen, "d3e5", 0));
        assert!(see(fen, "d3e5", 100 - 320));
        // Quiet move to an attacked square loses the piece.
        assert!(!see("4k3/8/8/4p3/8/8/8/3QK3 w - - 0 1", "d1d4", 0));
        // Quiet move to a safe square is even.
        assert!(see("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "d1d4", 0));
    }

    #[test]
    fn x_ray_recaptures_count() {
        // Rxd5 Rxd5 Rxd5: two white rooks against one black rook defending a pawn.
        let fen = "3r2k1/8/8/3p4/8/8/3R4/3RK3 w - - 0 1";
        assert!(see(fen, "d2d5", 100));
        // Without the second white rook it loses the exchange.
        assert!(!see("3r2k1/8/8/3p4/8/8/3R4/4K3 w - - 0 1", "d2d5", 0));
    }
}
