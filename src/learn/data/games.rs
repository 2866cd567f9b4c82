//! Games in a file of 32-byte records: where one game's records end and the next game's
//! begin, and a hash that tells games apart. (A game file says where its games begin; see
//! [`super::game_file`].)
//!
//! A file of records is a plain run of records, one whole game after another, with nothing
//! between games. A record [`continues`] the record before it when it can come later in the
//! same game: a later ply (move number and side to move), no side with more pieces, no pawn
//! back on its starting rank, and a halfmove clock that either counts on from the earlier
//! one (then no piece was taken and no pawn moved: the same pawns, as many pieces) or was
//! reset in between. A game starts at its opening, so its first record almost never
//! continues the last record of the game before; `rookery datagen`, when it wrote records,
//! did not write a game whose first record would, so its files split into exactly the games
//! it wrote. Files written before that rule split the same way but for such rare pairs,
//! which then read as one game.

use std::ops::Range;

use shakmaty::{Bitboard, Board, Color, Rank, Role};

use super::record::Record;
use crate::hashing::checksum::fnv1a;

/// The ply of a record's position: 0 for White's first move.
pub fn ply(record: &Record) -> u32 {
    2 * u32::from(record.fullmoves.saturating_sub(1)) + u32::from(record.turn.is_black())
}

/// The pawns of `color` on their starting rank.
fn unmoved_pawns(board: &Board, color: Color) -> Bitboard {
    let rank = match color {
        Color::White => Rank::Second,
        Color::Black => Rank::Seventh,
    };
    board.by_piece(Role::Pawn.of(color)) & Bitboard::from_rank(rank)
}

/// Whether `later` can be a later position of the game that `earlier` is from.
pub fn continues(earlier: &Record, later: &Record) -> bool {
    let Some(plies) = ply(later)
        .checked_sub(ply(earlier))
        .filter(|&plies| plies > 0)
    else {
        return false;
    };
    let (a, b) = (&earlier.board, &later.board);
    let no_new_pieces = Color::ALL.iter().all(|&c| {
        b.by_color(c).count() <= a.by_color(c).count()
            && (unmoved_pawns(b, c) & !unmoved_pawns(a, c)).is_empty()
    });
    if !no_new_pieces {
        return false;
    }
    let clock = u32::from(later.halfmoves);
    let counted_on = clock == (u32::from(earlier.halfmoves) + plies).min(255);
    if counted_on {
        a.pawns() == b.pawns() && a.occupied().count() == b.occupied().count()
    } else {
        clock < plies
    }
}

/// The games of a run of records, as index ranges in order: a new game starts at each
/// record that does not [`continues`] the one before it.
pub fn split(records: &[Record]) -> Vec<Range<usize>> {
    let mut games = Vec::new();
    let mut start = 0;
    for i in 1..=records.len() {
        if i == records.len() || !continues(&records[i - 1], &records[i]) {
            if start < i {
                games.push(start..i);
            }
            start = i;
        }
    }
    games
}

/// A game's hash: FNV-1a 64 over its records' bytes, in order. Two games with the same
/// positions, scores and result have the same hash.
pub fn game_hash(records: &[Record]) -> u64 {
    let bytes: Vec<u8> = records.iter().flat_map(Record::encode).collect();
    fnv1a(&bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::data::record::GameResult;
    use rand::rngs::ChaCha8Rng;
    use rand::{RngExt, SeedableRng};
    use shakmaty::{Chess, Position};

    fn record(pos: &Chess) -> Record {
        Record {
            board: pos.board().clone(),
            turn: pos.turn(),
            score: 0,
            result: GameResult::Draw,
            halfmoves: pos.halfmoves().min(255) as u8,
            fullmoves: u16::try_from(u32::from(pos.fullmoves())).unwrap(),
        }
    }

    /// A random game after `opening` random plies, keeping each position with probability
    /// one half (datagen skips positions in check and before captures).
    fn random_game(rng: &mut ChaCha8Rng, opening: usize) -> Vec<Record> {
        let mut pos = Chess::default();
        let mut kept = Vec::new();
        for ply in 0..300 {
            if ply >= opening && rng.random_bool(0.5) {
                kept.push(record(&pos));
            }
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[rng.random_range(0..moves.len())]);
        }
        kept
    }

    #[test]
    fn games_written_one_after_another_split_back_into_the_same_games() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let games: Vec<Vec<Record>> = (0..300)
            .map(|_| {
                let opening = 8 + rng.random_range(0..2);
                random_game(&mut rng, opening)
            })
            .filter(|g| g.len() > 1)
            .collect();
        let all: Vec<Record> = games.concat();
        let mut expected = Vec::new();
        let mut start = 0;
        for game in &games {
            expected.push(start..start + game.len());
            start += game.len();
        }
        assert_eq!(split(&all), expected);
        assert!(split(&[]).is_empty());
    }

    #[test]
    fn a_record_from_another_game_does_not_continue() {
        let start = record(&Chess::default());
        let mut pos = Chess::default();
        for uci in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            let mv = uci
                .parse::<shakmaty::uci::UciMove>()
                .unwrap()
                .to_move(&pos)
                .unwrap();
            pos.play_unchecked(mv);
        }
        let back = record(&pos);
        // The same board four plies on, the clock counted on: one game.
        assert!(continues(&start, &back));
        // The clock says no pawn moved, yet the pawns differ: another game.
        let mut moved = back.clone();
        moved.board.discard_piece_at(shakmaty::Square::E2);
        moved
            .board
            .set_piece_at(shakmaty::Square::E4, Role::Pawn.of(Color::White));
        assert!(!continues(&start, &moved));
        // Not later, or a clock that neither counts on nor was reset: another game.
        assert!(!continues(&back, &start));
        assert!(!continues(&start, &start));
        let wrong_clock = Record {
            halfmoves: 7,
            ..back.clone()
        };
        assert!(!continues(&start, &wrong_clock));
        // A pawn back on its starting rank, or a piece more: another game.
        let mut midgame = back.clone();
        midgame.board.discard_piece_at(shakmaty::Square::D7);
        midgame.fullmoves = 20;
        midgame.halfmoves = 0;
        assert!(!continues(
            &midgame,
            &Record {
                fullmoves: 21,
                ..back.clone()
            }
        ));
        assert!(continues(
            &back,
            &Record {
                fullmoves: 21,
                ..midgame
            }
        ));
    }

    #[test]
    fn the_hash_tells_games_apart() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let a = random_game(&mut rng, 8);
        let b = random_game(&mut rng, 8);
        assert_eq!(game_hash(&a), game_hash(&a.clone()));
        assert_ne!(game_hash(&a), game_hash(&b));
        let mut other_score = a.clone();
        other_score[0].score = 1;
        assert_ne!(game_hash(&a), game_hash(&other_score));
    }
}
