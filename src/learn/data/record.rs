//! The training record: one position of a self-play game in 32 bytes, with the search's score
//! and the game's result.
//!
//! The trainer learns from records: a game file's games replay into them (see
//! [`super::game_file`]), and files of them, which datagen wrote before the game file, are
//! read as they are. Such a file is a plain run of records, each written whole, so a file
//! that a stopped run left behind keeps every complete record.
//!
//! | bytes | field |
//! | --- | --- |
//! | 0..8 | occupied squares, a little-endian bitboard (bit 0 = a1) |
//! | 8..24 | one nibble per occupied square in ascending order, low nibble first: role 1 (pawn) to 6 (king), plus 8 for black; unused nibbles 0 |
//! | 24..26 | the search's score in centipawns from the side to move's view, little-endian `i16` |
//! | 26 | the game's result from White's view: 0 Black won, 1 draw, 2 White won |
//! | 27 | side to move: 0 White, 1 Black |
//! | 28 | halfmove clock |
//! | 29..31 | fullmove number, little-endian `u16` |
//! | 31 | format version, [`RECORD_VERSION`] |
//!
//! Castling rights and the en-passant square are not kept: the evaluation does not read them.

use std::fmt;

use shakmaty::{Bitboard, Board, Chess, Color, Piece, Position as _, Rank, Role};

/// Bytes in one record.
pub const RECORD_BYTES: usize = 32;
/// The format version in every record's last byte.
pub const RECORD_VERSION: u8 = 1;

/// How the game that a position comes from ended, from White's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// Black won.
    BlackWon,
    /// A draw.
    Draw,
    /// White won.
    WhiteWon,
}

impl GameResult {
    /// The result a byte names: 0 Black won, 1 draw, 2 White won.
    pub fn from_byte(byte: u8) -> Option<GameResult> {
        match byte {
            0 => Some(GameResult::BlackWon),
            1 => Some(GameResult::Draw),
            2 => Some(GameResult::WhiteWon),
            _ => None,
        }
    }

    /// The result as a score for `side`: 1 for a win, 0.5 for a draw, 0 for a loss.
    pub fn score_for(self, side: Color) -> f32 {
        let white = match self {
            GameResult::BlackWon => 0.0,
            GameResult::Draw => 0.5,
            GameResult::WhiteWon => 1.0,
        };
        if side.is_white() { white } else { 1.0 - white }
    }
}

/// One training position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The pieces.
    pub board: Board,
    /// The side to move.
    pub turn: Color,
    /// The search's score in centipawns, from the side to move's view.
    pub score: i16,
    /// How the game ended.
    pub result: GameResult,
    /// Half-moves since the last capture or pawn move.
    pub halfmoves: u8,
    /// The move number.
    pub fullmoves: u16,
}

/// Why bytes are not a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The last byte is not [`RECORD_VERSION`]: another format, or a misaligned file.
    Version(u8),
    /// More than 32 occupied squares.
    TooManyPieces(u32),
    /// A nibble names no piece, or an unused nibble is not 0.
    BadPiece(u8),
    /// A side has no king or more than one.
    Kings,
    /// A pawn on the first or last rank.
    PawnOnBackRank,
    /// The result byte is not 0, 1 or 2.
    Result(u8),
    /// The side-to-move byte is not 0 or 1.
    Turn(u8),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Version(v) => write!(f, "format version {v}, expected {RECORD_VERSION}"),
            RecordError::TooManyPieces(n) => write!(f, "{n} occupied squares"),
            RecordError::BadPiece(code) => write!(f, "piece code {code}"),
            RecordError::Kings => f.write_str("not one king per side"),
            RecordError::PawnOnBackRank => f.write_str("a pawn on the first or last rank"),
            RecordError::Result(r) => write!(f, "result byte {r}"),
            RecordError::Turn(t) => write!(f, "side-to-move byte {t}"),
        }
    }
}

impl std::error::Error for RecordError {}

fn piece_code(piece: Piece) -> u8 {
    piece.role as u8 | if piece.color.is_white() { 0 } else { 8 }
}

fn code_piece(code: u8) -> Option<Piece> {
    let role = Role::try_from(code & 7).ok()?;
    let color = Color::from_white(code & 8 == 0);
    Some(role.of(color))
}

/// Writes the pieces of `board` as nibbles into `out`, one per occupied square in ascending
/// order, low nibble first (`out` holds at least half the pieces, rounded up, and starts
/// zeroed).
pub fn pack_pieces(board: &Board, out: &mut [u8]) {
    for (i, (_, piece)) in board.into_iter().enumerate() {
        out[i / 2] |= piece_code(piece) << (4 * (i % 2));
    }
}

/// The board whose `occupied` squares hold the pieces of `nibbles`, in the order
/// [`pack_pieces`] writes them; refuses a nibble that names no piece, a side without
/// exactly one king, and a pawn on the first or last rank.
pub fn unpack_pieces(occupied: Bitboard, nibbles: &[u8]) -> Result<Board, RecordError> {
    let nibble = |i: usize| (nibbles[i / 2] >> (4 * (i % 2))) & 15;
    let mut board = Board::empty();
    for (i, square) in occupied.into_iter().enumerate() {
        let piece = code_piece(nibble(i)).ok_or(RecordError::BadPiece(nibble(i)))?;
        board.set_piece_at(square, piece);
    }
    if Color::ALL
        .iter()
        .any(|&c| (board.kings() & board.by_color(c)).count() != 1)
    {
        return Err(RecordError::Kings);
    }
    let back_ranks = Bitboard::from_rank(Rank::First) | Bitboard::from_rank(Rank::Eighth);
    if (board.pawns() & back_ranks).any() {
        return Err(RecordError::PawnOnBackRank);
    }
    Ok(board)
}

impl Record {
    /// The record of a position: its board, side to move and clocks (the halfmove clock
    /// capped at 255, a move number beyond `u16` at its largest), with `score` and `result`.
    pub fn of_position(chess: &Chess, score: i16, result: GameResult) -> Record {
        Record {
            board: chess.board().clone(),
            turn: chess.turn(),
            score,
            result,
            halfmoves: chess.halfmoves().min(255) as u8,
            fullmoves: u16::try_from(u32::from(chess.fullmoves())).unwrap_or(u16::MAX),
        }
    }

    /// The record's bytes.
    pub fn encode(&self) -> [u8; RECORD_BYTES] {
        let mut bytes = [0u8; RECORD_BYTES];
        let occupied = self.board.occupied();
        bytes[0..8].copy_from_slice(&u64::from(occupied).to_le_bytes());
        pack_pieces(&self.board, &mut bytes[8..24]);
        bytes[24..26].copy_from_slice(&self.score.to_le_bytes());
        bytes[26] = self.result as u8;
        bytes[27] = u8::from(self.turn.is_black());
        bytes[28] = self.halfmoves;
        bytes[29..31].copy_from_slice(&self.fullmoves.to_le_bytes());
        bytes[31] = RECORD_VERSION;
        bytes
    }

    /// Reads a record, refusing bytes that are not one.
    pub fn decode(bytes: &[u8; RECORD_BYTES]) -> Result<Record, RecordError> {
        if bytes[31] != RECORD_VERSION {
            return Err(RecordError::Version(bytes[31]));
        }
        let occupied = Bitboard(u64::from_le_bytes(bytes[0..8].try_into().expect("8 bytes")));
        if occupied.count() > 32 {
            return Err(RecordError::TooManyPieces(occupied.count() as u32));
        }
        let nibble = |i: usize| (bytes[8 + i / 2] >> (4 * (i % 2))) & 15;
        let board = unpack_pieces(occupied, &bytes[8..24])?;
        if let Some(code) = (occupied.count()..32).map(nibble).find(|&c| c != 0) {
            return Err(RecordError::BadPiece(code));
        }
        let result = GameResult::from_byte(bytes[26]).ok_or(RecordError::Result(bytes[26]))?;
        let turn = match bytes[27] {
            0 => Color::White,
            1 => Color::Black,
            t => return Err(RecordError::Turn(t)),
        };
        Ok(Record {
            board,
            turn,
            score: i16::from_le_bytes([bytes[24], bytes[25]]),
            result,
            halfmoves: bytes[28],
            fullmoves: u16::from_le_bytes([bytes[29], bytes[30]]),
        })
    }
}

/// What a file of records held.
#[derive(Debug)]
pub struct Decoded {
    /// Every complete record, in file order.
    pub records: Vec<Record>,
    /// Bytes after the last complete record (a record cut off when a run stopped).
    pub trailing_bytes: usize,
}

/// A record that is not one, with its index in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CorruptRecord {
    /// 0-based record number.
    pub index: usize,
    /// What is wrong with it.
    pub error: RecordError,
}

impl fmt::Display for CorruptRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "record {} is corrupt: {}", self.index, self.error)
    }
}

impl std::error::Error for CorruptRecord {}

/// Reads the records of a file of records' bytes. A cut-off record at the end is left out and
/// counted in [`Decoded::trailing_bytes`]; any corrupt complete record refuses the file.
pub fn decode_all(bytes: &[u8]) -> Result<Decoded, CorruptRecord> {
    let chunks = bytes.chunks_exact(RECORD_BYTES);
    let trailing_bytes = chunks.remainder().len();
    let records = chunks
        .enumerate()
        .map(|(index, chunk)| {
            Record::decode(chunk.try_into().expect("exact chunk"))
                .map_err(|error| CorruptRecord { index, error })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Decoded {
        records,
        trailing_bytes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Record {
        Record {
            board: Chess::default().board().clone(),
            turn: Color::Black,
            score: -37,
            result: GameResult::WhiteWon,
            halfmoves: 3,
            fullmoves: 41,
        }
    }

    #[test]
    fn the_start_position_round_trips() {
        let record = sample();
        assert_eq!(Record::decode(&record.encode()), Ok(record));
    }

    #[test]
    fn every_position_of_random_games_round_trips() {
        use rand::rngs::ChaCha8Rng;
        use rand::{RngExt, SeedableRng};
        let mut rng = ChaCha8Rng::seed_from_u64(14);
        let results = [GameResult::BlackWon, GameResult::Draw, GameResult::WhiteWon];
        let mut positions = 0;
        for _ in 0..200 {
            let mut pos = Chess::default();
            for _ in 0..300 {
                let record = Record {
                    board: pos.board().clone(),
                    turn: pos.turn(),
                    score: rng.random_range(-32_000..=32_000),
                    result: results[rng.random_range(0..3)],
                    halfmoves: pos.halfmoves().min(255) as u8,
                    fullmoves: u16::try_from(u32::from(pos.fullmoves())).unwrap(),
                };
                assert_eq!(Record::decode(&record.encode()).as_ref(), Ok(&record));
                positions += 1;
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[rng.random_range(0..moves.len())]);
            }
        }
        assert!(positions > 20_000);
    }

    #[test]
    fn results_score_for_each_side() {
        assert_eq!(GameResult::WhiteWon.score_for(Color::Black), 0.0);
        assert_eq!(GameResult::Draw.score_for(Color::White), 0.5);
        assert_eq!(GameResult::BlackWon.score_for(Color::Black), 1.0);
    }

    #[test]
    fn bytes_that_are_no_record_are_refused() {
        let good = sample().encode();
        let mut version = good;
        version[31] = 2;
        assert_eq!(Record::decode(&version), Err(RecordError::Version(2)));
        let mut code = good;
        code[8] = 0x07; // role 7 for a1
        assert_eq!(Record::decode(&code), Err(RecordError::BadPiece(7)));
        // h8 emptied: 31 pieces, and the 32nd nibble (still the black rook, 12) is unused.
        let mut unused = good;
        unused[7] &= 0x7f;
        assert_eq!(Record::decode(&unused), Err(RecordError::BadPiece(12)));
        // The c1 bishop (third piece, low nibble of byte 9) becomes a white king.
        let mut kings = good;
        kings[9] = (kings[9] & 0xf0) | 6;
        assert_eq!(Record::decode(&kings), Err(RecordError::Kings));
        let mut result = good;
        result[26] = 3;
        assert_eq!(Record::decode(&result), Err(RecordError::Result(3)));
        let mut turn = good;
        turn[27] = 2;
        assert_eq!(Record::decode(&turn), Err(RecordError::Turn(2)));
    }

    #[test]
    fn a_cut_off_file_keeps_its_complete_records() {
        let mut bytes = Vec::new();
        for _ in 0..3 {
            bytes.extend_from_slice(&sample().encode());
        }
        bytes.truncate(3 * RECORD_BYTES - 5);
        let decoded = decode_all(&bytes).unwrap();
        assert_eq!(decoded.records.len(), 2);
        assert_eq!(decoded.trailing_bytes, RECORD_BYTES - 5);
        // A file shifted by a byte is refused, not misread.
        assert!(decode_all(&bytes[1..]).is_err());
    }
}
