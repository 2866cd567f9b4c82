//! Upcoming repetitions: whether the side to move has a move that returns to a position seen
//! earlier on the line, found without generating moves.
//!
//! A move of a piece other than a pawn, without capture, changes the Polyglot key by the keys
//! of the piece on its two squares and the side-to-move key, and the change is the same in
//! both directions. Every such change of every piece (3,668 of them) is kept in a cuckoo hash
//! table of 8,192 slots, each reachable by two slot numbers taken from the key. The current
//! key XOR an earlier key (an odd number of plies back, the opponent to move there) found in
//! the table names the piece and the two squares; the repetition is there when the squares
//! between them are empty and the piece on one of them belongs to the side to move. The move
//! is then legal (it recreates a position whose side to move was the opponent, so the mover's
//! king is not attacked there), unless two different positions share a key.
//!
//! The method is Marcel van Kervinck's (cuckoo hashing of reversible moves for cycle
//! detection); this is Rookery's implementation of it.

use std::sync::LazyLock;

use shakmaty::{Bitboard, Color, Piece, Position as _, Role, Square, attacks};

use super::position::Position;
use super::zobrist::CHESS_KEYS;
use crate::hashing::Key;

/// Slots in the table: a power of two a little more than twice the moves it holds.
const SLOTS: usize = 8192;

/// One reversible move as the table holds it: its key change and its piece and squares.
#[derive(Clone, Copy)]
struct Shuttle {
    key: Key,
    piece: Piece,
    squares: (Square, Square),
}

/// The cuckoo table of every reversible move's key change.
struct ShuttleTable {
    slots: Box<[Option<Shuttle>]>,
}

impl ShuttleTable {
    /// The first slot number of a key change.
    fn first(key: Key) -> usize {
        (key.bits() as usize) & (SLOTS - 1)
    }

    /// The second slot number of a key change.
    fn second(key: Key) -> usize {
        ((key.bits() >> 16) as usize) & (SLOTS - 1)
    }

    /// Every move of every piece but a pawn, between two squares it attacks from one
    /// another on an empty board, inserted by cuckoo displacement.
    fn build() -> ShuttleTable {
        let mut slots = vec![None; SLOTS].into_boxed_slice();
        let keys = &*CHESS_KEYS;
        for color in Color::ALL {
            for role in [
                Role::Knight,
                Role::Bishop,
                Role::Rook,
                Role::Queen,
                Role::King,
            ] {
                let piece = role.of(color);
                for a in Square::ALL {
                    let reach = attacks::attacks(a, piece, Bitboard::EMPTY);
                    for b in reach.into_iter().filter(|&b| a < b) {
                        let key =
                            keys.piece(piece, a) ^ keys.piece(piece, b) ^ keys.white_to_move();
                        let mut moving = Shuttle {
                            key,
                            piece,
                            squares: (a, b),
                        };
                        let mut slot = Self::first(key);
                        // Each move displaces the one in its slot to that one's other slot,
                        // until a slot is free (the table is sparse enough that one soon is).
                        let mut displaced = 0;
                        while let Some(resident) = slots[slot].replace(moving) {
                            displaced += 1;
                            assert!(displaced < SLOTS, "the key changes do not fit the table");
                            moving = resident;
                            slot = if slot == Self::first(moving.key) {
                                Self::second(moving.key)
                            } else {
                                Self::first(moving.key)
                            };
                        }
                    }
                }
            }
        }
        ShuttleTable { slots }
    }

    /// The move whose key change is `key`, if any.
    fn find(&self, key: Key) -> Option<Shuttle> {
        [Self::first(key), Self::second(key)]
            .into_iter()
            .filter_map(|slot| self.slots[slot])
            .find(|shuttle| shuttle.key == key)
    }
}

/// The table, built on first use.
static SHUTTLES: LazyLock<ShuttleTable> = LazyLock::new(ShuttleTable::build);

/// Whether the side to move in `pos` can return, by one move of a piece other than a pawn and
/// without a capture, to a position that lies at most `within` plies back (the part of the
/// line the search played: a repetition there is a draw).
///
/// ```
/// use rookery::chess::{Position, cycle::upcoming_repetition};
/// let mut pos = Position::startpos();
/// for mv in ["g1f3", "g8f6", "f3g1"] {
///     pos.push_uci(mv).unwrap();
/// }
/// // Black's Ng8 would bring back the first position, three plies back.
/// assert!(upcoming_repetition(&pos, 3));
/// assert!(!upcoming_repetition(&pos, 2));
/// ```
pub fn upcoming_repetition(pos: &Position, within: usize) -> bool {
    let key = pos.key();
    let board = pos.chess().board();
    let occupied = board.occupied();
    // The keys come one ply back first: indices 2, 4, 6... are 3, 5, 7... plies back, where
    // the opponent was to move.
    pos.reversible_keys()
        .enumerate()
        .skip(2)
        .step_by(2)
        .take_while(|&(back, _)| back < within)
        .filter_map(|(_, earlier)| SHUTTLES.find(key ^ earlier))
        .any(|shuttle| {
            let (a, b) = shuttle.squares;
            let on = if occupied.contains(a) { a } else { b };
            (attacks::between(a, b) & occupied).is_empty()
                && shuttle.piece.color == pos.turn()
                && board.piece_at(on) == Some(shuttle.piece)
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::ChaCha8Rng;
    use rand::{RngExt as _, SeedableRng as _};
    use shakmaty::Move;

    /// The keys of the positions 3, 5, 7... plies back, at most `within` plies.
    fn earlier_keys(pos: &Position, within: usize) -> Vec<Key> {
        let keys: Vec<Key> = pos.reversible_keys().collect();
        (2..keys.len())
            .step_by(2)
            .filter(|back| *back < within)
            .map(|back| keys[back])
            .collect()
    }

    /// Whether a legal move reaches one of those positions, by playing every move.
    fn a_legal_move_repeats(pos: &Position, within: usize) -> bool {
        let earlier = earlier_keys(pos, within);
        pos.legal_moves().iter().any(|&mv| {
            let mut after = pos.clone();
            after.push(mv);
            // The position after the move is one ply further from them.
            earlier.contains(&after.key())
        })
    }

    /// Whether a piece of the side to move, not a pawn, reaches one by a step to an empty
    /// square it attacks, legal or not: what the table is meant to find, enumerated.
    fn a_shuttle_repeats(pos: &Position, within: usize) -> bool {
        let earlier = earlier_keys(pos, within);
        let board = pos.chess().board();
        let keys = &*CHESS_KEYS;
        let us = pos.turn();
        (board.by_color(us) & !board.pawns())
            .into_iter()
            .any(|from| {
                let piece = board.piece_at(from).expect("occupied");
                let reach = attacks::attacks(from, piece, board.occupied()) & !board.occupied();
                reach.into_iter().any(|to| {
                    let key = pos.key()
                        ^ keys.piece(piece, from)
                        ^ keys.piece(piece, to)
                        ^ keys.white_to_move();
                    earlier.contains(&key)
                })
            })
    }

    #[test]
    fn the_table_holds_every_reversible_move_of_both_colours() {
        // Knights 336, bishops 560, rooks 896, queens 1,456, kings 420, halved for the two
        // directions and doubled for the two colours.
        let held = SHUTTLES.slots.iter().flatten().count();
        assert_eq!(held, 3668);
    }

    #[test]
    fn the_table_finds_exactly_the_returning_steps_of_shuffling_games() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let starts = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/8/2n5/8/8/5B2/8/R3K3 w Q - 0 1",
        ];
        let (mut found, mut checked) = (0, 0);
        for fen in starts {
            for _ in 0..30 {
                let mut pos = Position::from_fen(fen, false).unwrap();
                for _ in 0..40 {
                    let within = rng.random_range(0..40);
                    let told = upcoming_repetition(&pos, within);
                    assert_eq!(told, a_shuttle_repeats(&pos, within), "{}", pos.fen());
                    if a_legal_move_repeats(&pos, within) {
                        assert!(told, "{}", pos.fen());
                    }
                    found += usize::from(told);
                    checked += 1;
                    // Shuffle: mostly quiet moves of pieces, so that positions come back.
                    let moves = pos.legal_moves();
                    let shuffles: Vec<Move> = moves
                        .iter()
                        .copied()
                        .filter(|mv| !mv.is_zeroing())
                        .collect();
                    let pool = if shuffles.is_empty() || rng.random_range(0..10) == 0 {
                        moves.to_vec()
                    } else {
                        shuffles
                    };
                    if pool.is_empty() {
                        break;
                    }
                    pos.push(pool[rng.random_range(0..pool.len())]);
                }
            }
        }
        // The games came back often enough for the test to mean something.
        assert!(found >= 50, "{found} of {checked}");
    }
}
