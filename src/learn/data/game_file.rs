//! The game file: whole self-play games, each kept as its start position and every ply's
//! move and score, so that replaying a game gives back the [`Record`]s of its training
//! positions at about a fifth of their bytes.
//!
//! A file starts with a header, then holds one game after another with nothing between them.
//! All numbers are little-endian.
//!
//! | bytes | field |
//! | --- | --- |
//! | 0..8 | [`MAGIC`], `rookgame`: as a record's bitboard it would have 38 occupied squares, so no file of 32-byte records starts with it |
//! | 8 | format version, [`VERSION`] |
//!
//! Each game, from its first byte (`k` is the number of pieces on the start board, `n` the
//! number of plies):
//!
//! | bytes | field |
//! | --- | --- |
//! | 0..2 | `n`, the plies played, `u16` |
//! | 2 | the game's result from White's view: 0 Black won, 1 draw, 2 White won |
//! | 3 | the start position's side to move: 0 White, 1 Black |
//! | 4 | castling rights, by the rook they castle with: bit 0 a1, bit 1 h1, bit 2 a8, bit 3 h8; other bits 0 |
//! | 5 | the en-passant square's file + 1 (1 for a), 0 for none; kept only when an en-passant capture is legal |
//! | 6 | halfmove clock |
//! | 7..9 | fullmove number, `u16` |
//! | 9..17 | occupied squares, a `u64` bitboard (bit 0 = a1) |
//! | 17..17 + ⌈k/2⌉ | one nibble per occupied square in ascending order, low nibble first, as in the record: role 1 (pawn) to 6 (king), plus 8 for black; the high nibble of the last byte is 0 when `k` is odd |
//! | then `n` x 4 | the plies in order: the move, `u16`, then the search's score in centipawns from the side to move's view, `i16` |
//!
//! A move is `from | to << 6 | promotion << 12 | skip << 15`: squares 0 (a1) to 63 (h8), the
//! promotion's role (2 knight, 3 bishop, 4 rook, 5 queen; 0 for none), castling as the king's
//! move of two squares, as UCI writes it in standard chess. `skip` (bit 15) marks a position
//! training leaves out: in check, a capture or promotion played, or a mate or tablebase score
//! (see [`trainable`]). The start position is that of standard chess (castling with the a-
//! and h-file rooks); datagen writes the position after its random opening plies.
//!
//! A reader replays every game and refuses the file at the byte where it goes wrong: a bad
//! header, a result byte other than 0 to 2, a start position that is not a legal one, a move
//! that is not legal where it is played (or not written the one way above), a ply marked for
//! training that is one the filter leaves out, a game cut off by the end of the file.
//!
//! datagen writes each game (with the header, for the file's first) in one `write` to a file
//! opened for appending, so a run killed between games leaves whole games. A game cut off by
//! something worse (a full disk, a lost machine) is a torn tail: readers refuse the file at
//! the torn game's first byte, and `truncate -s OFFSET FILE` with that offset drops it and
//! keeps every game before it.

use std::fmt;

use shakmaty::uci::UciMove;
use shakmaty::{
    Bitboard, CastlingMode, Chess, Color, EnPassantMode, File, FromSetup, Move, Position as _,
    PositionError, Rank, Role, Setup, Square,
};

use super::record::{GameResult, Record, pack_pieces, unpack_pieces};
use crate::engine::score::{MATE_BOUND, TB_BOUND};

/// The first eight bytes of a game file.
pub const MAGIC: [u8; 8] = *b"rookgame";
/// The format version in the header's last byte.
pub const VERSION: u8 = 1;
/// Bytes in the header.
pub const HEADER_BYTES: usize = 9;
/// Bytes of a game before its pieces' nibbles.
pub const GAME_HEAD_BYTES: usize = 17;
/// Bytes of one ply: the move and the score.
pub const PLY_BYTES: usize = 4;
/// The bit of a move word that marks a position training skips.
pub const SKIP_BIT: u16 = 1 << 15;

/// The file's header.
pub fn header() -> [u8; HEADER_BYTES] {
    let mut bytes = [0; HEADER_BYTES];
    bytes[..8].copy_from_slice(&MAGIC);
    bytes[8] = VERSION;
    bytes
}

/// Whether bytes are a game file by their content: they start with [`MAGIC`], or are cut off
/// inside it.
pub fn is_game_file(bytes: &[u8]) -> bool {
    let n = bytes.len().min(MAGIC.len());
    n > 0 && bytes[..n] == MAGIC[..n]
}

/// Whether training uses the position before `best` with the search's `score`: not in
/// check, `best` quiet (no capture, no promotion), `score` not a mate or tablebase score.
pub fn trainable(chess: &Chess, best: Move, score: i32) -> bool {
    !chess.is_check()
        && !best.is_capture()
        && !best.is_promotion()
        && score.abs() < MATE_BOUND.min(TB_BOUND)
}

/// One ply of a game: the move played, the search's score before it, and whether training
/// skips the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ply {
    /// The move played.
    pub mv: Move,
    /// The search's score in centipawns, from the side to move's view.
    pub score: i16,
    /// Training leaves the position out.
    pub skip: bool,
}

/// A game as the game file keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoredGame {
    /// The position the plies start from (standard chess).
    pub start: Chess,
    /// The plies played, in order.
    pub plies: Vec<Ply>,
    /// How the game ended.
    pub result: GameResult,
}

/// The move word of a legal move in standard chess, with the skip bit.
pub fn move_word(mv: Move, skip: bool) -> u16 {
    let (from, to, promotion) = match mv.to_uci(CastlingMode::Standard) {
        UciMove::Normal {
            from,
            to,
            promotion,
        } => (from, to, promotion),
        UciMove::Put { to, .. } => (to, to, None),
        UciMove::Null => (Square::A1, Square::A1, None),
    };
    u16::from(from)
        | u16::from(to) << 6
        | promotion.map_or(0, |r| r as u16) << 12
        | u16::from(skip) << 15
}

/// Why a game cannot be written in the format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unwritable(pub String);

impl fmt::Display for Unwritable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Unwritable {}

impl ScoredGame {
    /// The plies training uses.
    pub fn training_plies(&self) -> usize {
        self.plies.iter().filter(|p| !p.skip).count()
    }

    /// The game's bytes; refused when the start position has castling rights standard
    /// chess cannot have or more than 65,535 plies follow it.
    pub fn encode(&self) -> Result<Vec<u8>, Unwritable> {
        let plies = u16::try_from(self.plies.len())
            .map_err(|_| Unwritable(format!("{} plies", self.plies.len())))?;
        let mut bytes = encode_start(&self.start, plies, self.result)?;
        for ply in &self.plies {
            bytes.extend_from_slice(&move_word(ply.mv, ply.skip).to_le_bytes());
            bytes.extend_from_slice(&ply.score.to_le_bytes());
        }
        Ok(bytes)
    }

    /// The records of the positions training uses, in order, as datagen keeps them: the
    /// position before each ply not skipped, with its score and the game's result.
    pub fn records(&self) -> Vec<Record> {
        let mut pos = self.start.clone();
        let mut records = Vec::with_capacity(self.plies.len());
        for ply in &self.plies {
            if !ply.skip {
                records.push(Record::of_position(&pos, ply.score, self.result));
            }
            pos.play_unchecked(ply.mv);
        }
        records
    }
}

/// The castling rooks of the bits of byte 4, in bit order.
const CASTLING_ROOKS: [Square; 4] = [Square::A1, Square::H1, Square::A8, Square::H8];

/// A game's bytes up to its plies.
fn encode_start(start: &Chess, plies: u16, result: GameResult) -> Result<Vec<u8>, Unwritable> {
    let rights = start.castles().castling_rights();
    let standard = start.castles().mode() == CastlingMode::Standard
        && (rights & !Bitboard::CORNERS).is_empty();
    if !standard {
        return Err(Unwritable(format!(
            "castling rights {rights:?} that standard chess cannot have"
        )));
    }
    let board = start.board();
    let mut bytes = vec![0u8; GAME_HEAD_BYTES + board.occupied().count().div_ceil(2)];
    bytes[0..2].copy_from_slice(&plies.to_le_bytes());
    bytes[2] = result as u8;
    bytes[3] = u8::from(start.turn().is_black());
    bytes[4] = (0..4)
        .filter(|&i| rights.contains(CASTLING_ROOKS[i]))
        .map(|i| 1 << i)
        .sum();
    bytes[5] = start
        .ep_square(EnPassantMode::Legal)
        .map_or(0, |sq| sq.file() as u8 + 1);
    bytes[6] = start.halfmoves().min(255) as u8;
    let fullmoves = u16::try_from(u32::from(start.fullmoves())).unwrap_or(u16::MAX);
    bytes[7..9].copy_from_slice(&fullmoves.to_le_bytes());
    bytes[9..17].copy_from_slice(&u64::from(board.occupied()).to_le_bytes());
    pack_pieces(board, &mut bytes[GAME_HEAD_BYTES..]);
    Ok(bytes)
}

/// What is wrong at a byte of a game file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The file does not start with [`MAGIC`].
    Magic,
    /// The header is cut off.
    ShortHeader,
    /// Another format version.
    Version(u8),
    /// A game cut off by the end of the file: `have` of its `need` bytes are there (`need`
    /// counts the bytes known so far).
    Cut {
        /// Bytes of the game in the file.
        have: usize,
        /// Bytes the game needs.
        need: usize,
    },
    /// A result byte other than 0, 1 or 2.
    Result(u8),
    /// A start position that is not a legal one.
    Start(String),
    /// A move word that names no legal move of the position, or not as it is written.
    Move {
        /// The ply, from 0.
        ply: usize,
        /// The word.
        word: u16,
    },
    /// A ply marked for training whose position training leaves out.
    Untrainable {
        /// The ply, from 0.
        ply: usize,
    },
}

/// A fault at a byte of a game file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameFileError {
    /// Where it goes wrong, from the file's start.
    pub offset: u64,
    /// What is wrong there.
    pub fault: Fault,
}

impl GameFileError {
    /// Whether the fault is a game (or the header) cut off by the end of the file: a torn
    /// tail, which truncating the file at [`GameFileError::offset`] drops.
    pub fn is_cut(&self) -> bool {
        matches!(self.fault, Fault::Cut { .. } | Fault::ShortHeader)
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Magic => f.write_str("not a game file (no 'rookgame' header)"),
            Fault::ShortHeader => f.write_str("the header is cut off"),
            Fault::Version(v) => write!(f, "format version {v}, expected {VERSION}"),
            Fault::Cut { have, need } => write!(
                f,
                "a game cut off by the end of the file ({have} of its {need} bytes there)"
            ),
            Fault::Result(r) => write!(f, "result byte {r}"),
            Fault::Start(why) => write!(f, "a bad start position: {why}"),
            Fault::Move { ply, word } => {
                write!(f, "ply {ply}: move word {word:#06x} is no legal move here")
            }
            Fault::Untrainable { ply } => write!(
                f,
                "ply {ply} is marked for training, but training leaves its position out"
            ),
        }
    }
}

impl fmt::Display for GameFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte {}: {}", self.offset, self.fault)
    }
}

impl std::error::Error for GameFileError {}

/// One game read from a file.
#[derive(Clone, Debug)]
pub struct ReadGame<'a> {
    /// Its first byte in the file.
    pub offset: u64,
    /// Its bytes.
    pub bytes: &'a [u8],
    /// The game.
    pub game: ScoredGame,
}

/// The games of a game file's bytes, each checked and replayed as it is read; the first
/// fault ends the iteration.
#[derive(Clone, Debug)]
pub struct GameReader<'a> {
    bytes: &'a [u8],
    at: usize,
}

/// The games of a game file's bytes, after its header (an empty file holds none).
pub fn read(bytes: &[u8]) -> Result<GameReader<'_>, GameFileError> {
    let fault = |offset: usize, fault| GameFileError {
        offset: offset as u64,
        fault,
    };
    if bytes.is_empty() {
        return Ok(GameReader { bytes, at: 0 });
    }
    if !is_game_file(bytes) {
        return Err(fault(0, Fault::Magic));
    }
    if bytes.len() < HEADER_BYTES {
        return Err(fault(0, Fault::ShortHeader));
    }
    if bytes[8] != VERSION {
        return Err(fault(8, Fault::Version(bytes[8])));
    }
    Ok(GameReader {
        bytes,
        at: HEADER_BYTES,
    })
}

impl<'a> Iterator for GameReader<'a> {
    type Item = Result<ReadGame<'a>, GameFileError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.at >= self.bytes.len() {
            return None;
        }
        let at = self.at;
        match decode_game(self.bytes, at) {
            Ok((game, len)) => {
                self.at = at + len;
                Some(Ok(ReadGame {
                    offset: at as u64,
                    bytes: &self.bytes[at..at + len],
                    game,
                }))
            }
            Err(e) => {
                self.at = self.bytes.len();
                Some(Err(e))
            }
        }
    }
}

/// Reads and replays the game at byte `at` of a file's bytes: the game and its length.
pub fn decode_game(bytes: &[u8], at: usize) -> Result<(ScoredGame, usize), GameFileError> {
    let fault = |offset: usize, fault| GameFileError {
        offset: offset as u64,
        fault,
    };
    let game = &bytes[at..];
    let cut = |need: usize| {
        fault(
            at,
            Fault::Cut {
                have: game.len(),
                need,
            },
        )
    };
    if game.len() < GAME_HEAD_BYTES {
        return Err(cut(GAME_HEAD_BYTES));
    }
    let plies = usize::from(u16::from_le_bytes([game[0], game[1]]));
    let occupied = Bitboard(u64::from_le_bytes(game[9..17].try_into().expect("8 bytes")));
    if occupied.count() > 32 {
        let why = format!("{} occupied squares", occupied.count());
        return Err(fault(at + 9, Fault::Start(why)));
    }
    let head = GAME_HEAD_BYTES + occupied.count().div_ceil(2);
    let len = head + PLY_BYTES * plies;
    if game.len() < len {
        return Err(cut(len));
    }
    let result = GameResult::from_byte(game[2]).ok_or(fault(at + 2, Fault::Result(game[2])))?;
    let start = decode_start(&game[..head])
        .map_err(|(offset, why)| fault(at + offset, Fault::Start(why)))?;
    let plies = replay(&start, &game[head..len])
        .map_err(|(ply, f)| fault(at + head + PLY_BYTES * ply, f))?;
    Ok((
        ScoredGame {
            start,
            plies,
            result,
        },
        len,
    ))
}

/// The start position of a game's bytes up to its plies; on a fault, the offset in the game
/// of the field at fault and what is wrong.
fn decode_start(head: &[u8]) -> Result<Chess, (usize, String)> {
    let turn = match head[3] {
        0 => Color::White,
        1 => Color::Black,
        t => return Err((3, format!("side-to-move byte {t}"))),
    };
    if head[4] > 15 {
        return Err((4, format!("castling byte {}", head[4])));
    }
    let castling_rights = (0..4)
        .filter(|&i| head[4] & (1 << i) != 0)
        .map(|i| CASTLING_ROOKS[i])
        .collect();
    let ep_square = match head[5] {
        0 => None,
        f @ 1..=8 => {
            let rank = turn.fold_wb(Rank::Sixth, Rank::Third);
            Some(Square::from_coords(File::new(u32::from(f - 1)), rank))
        }
        f => return Err((5, format!("en-passant byte {f}"))),
    };
    let fullmoves = u16::from_le_bytes([head[7], head[8]]);
    let fullmoves =
        std::num::NonZeroU32::new(u32::from(fullmoves)).ok_or((7, "move number 0".to_string()))?;
    let occupied = Bitboard(u64::from_le_bytes(head[9..17].try_into().expect("8 bytes")));
    let board = unpack_pieces(occupied, &head[GAME_HEAD_BYTES..])
        .map_err(|e| (GAME_HEAD_BYTES, e.to_string()))?;
    let odd_nibble = occupied.count() % 2 == 1 && head[head.len() - 1] >> 4 != 0;
    if odd_nibble {
        return Err((head.len() - 1, "a piece nibble past the last piece".into()));
    }
    let setup = Setup {
        board,
        turn,
        castling_rights,
        ep_square,
        halfmoves: u32::from(head[6]),
        fullmoves,
        ..Setup::empty()
    };
    Chess::from_setup(setup, CastlingMode::Standard)
        .or_else(PositionError::ignore_impossible_check)
        .map_err(|e| (3, e.to_string()))
}

/// The plies of a game's ply bytes played from `start`, each move checked; on a fault, the
/// ply at fault and what is wrong.
fn replay(start: &Chess, bytes: &[u8]) -> Result<Vec<Ply>, (usize, Fault)> {
    let mut pos = start.clone();
    let mut plies = Vec::with_capacity(bytes.len() / PLY_BYTES);
    for (i, ply) in bytes.chunks_exact(PLY_BYTES).enumerate() {
        let word = u16::from_le_bytes([ply[0], ply[1]]);
        let score = i16::from_le_bytes([ply[2], ply[3]]);
        let skip = word & SKIP_BIT != 0;
        let mv = legal_move(&pos, word).ok_or((i, Fault::Move { ply: i, word }))?;
        if !skip && !trainable(&pos, mv, i32::from(score)) {
            return Err((i, Fault::Untrainable { ply: i }));
        }
        pos.play_unchecked(mv);
        plies.push(Ply { mv, score, skip });
    }
    Ok(plies)
}

/// The legal move of `pos` that a move word names, when it is written as [`move_word`]
/// writes it.
fn legal_move(pos: &Chess, word: u16) -> Option<Move> {
    let promotion = match (word >> 12) & 7 {
        0 => None,
        code @ 2..=5 => Some(Role::try_from(code as u8).ok()?),
        _ => return None,
    };
    let uci = UciMove::Normal {
        from: Square::new(u32::from(word & 63)),
        to: Square::new(u32::from((word >> 6) & 63)),
        promotion,
    };
    let mv = uci.to_move(pos).ok()?;
    // One way to write each move: castling as the king's two-square step, never onto its
    // rook.
    (move_word(mv, false) == word & !SKIP_BIT).then_some(mv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::TRICKY_POSITIONS;
    use rand::rngs::ChaCha8Rng;
    use rand::{RngExt, SeedableRng};
    use shakmaty::fen::Fen;

    /// A position as the engine reads a FEN (a check no move can have given allowed).
    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .or_else(PositionError::ignore_impossible_check)
            .unwrap()
    }

    /// A game of the UCI moves from `fen`, each ply scored 10 x its number and kept for
    /// training where training can use it.
    fn game_of(fen: &str, moves: &[&str], result: GameResult) -> ScoredGame {
        let start = position(fen);
        let mut pos = start.clone();
        let mut plies = Vec::new();
        for (i, uci) in moves.iter().enumerate() {
            let mv = uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
            let score = 10 * i as i16;
            let skip = !trainable(&pos, mv, i32::from(score));
            plies.push(Ply { mv, score, skip });
            pos.play_unchecked(mv);
        }
        ScoredGame {
            start,
            plies,
            result,
        }
    }

    /// The records of a game, made by playing it as datagen does.
    fn records_by_play(game: &ScoredGame) -> Vec<Record> {
        let mut pos = game.start.clone();
        let mut records = Vec::new();
        for ply in &game.plies {
            if trainable(&pos, ply.mv, i32::from(ply.score)) {
                records.push(Record::of_position(&pos, ply.score, game.result));
            }
            pos = pos.play(ply.mv).unwrap();
        }
        records
    }

    fn file_of(games: &[ScoredGame]) -> Vec<u8> {
        let mut bytes = header().to_vec();
        for game in games {
            bytes.extend(game.encode().unwrap());
        }
        bytes
    }

    fn read_all(bytes: &[u8]) -> Result<Vec<ScoredGame>, GameFileError> {
        read(bytes)?.map(|g| g.map(|g| g.game)).collect()
    }

    /// Castling both ways by both sides, en passant, and every promotion (one a capture),
    /// from the start position and from a book position with castling rights, an
    /// en-passant square, and clocks of its own.
    fn special_games() -> Vec<ScoredGame> {
        vec![
            game_of(
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                &[
                    "e2e4", "d7d5", "e4e5", "f7f5", "e5f6", "c8e6", "g1f3", "b8c6", "f1c4", "d8d7",
                    "e1g1", "e8c8", "f6g7", "d7d6", "g7h8q", "a7a6", "d2d4", "b7b6",
                ],
                GameResult::WhiteWon,
            ),
            game_of(
                "r3k2r/1P4p1/8/8/3pP3/8/6p1/R3K2R b KQkq e3 7 31",
                &[
                    "d4e3", "b7b8n", "g2g1b", "e1c1", "e8g8", "b8c6", "g1f2", "d1d7", "e3e2",
                    "c1b1", "e2e1q", "h1e1", "f2e1",
                ],
                GameResult::BlackWon,
            ),
            game_of(
                "4k3/P7/8/8/8/8/7p/4K3 w - - 0 60",
                &["a7a8r", "e8e7", "e1d2", "h2h1q", "a8a1"],
                GameResult::Draw,
            ),
        ]
    }

    #[test]
    fn special_moves_and_book_starts_round_trip() {
        let games = special_games();
        let bytes = file_of(&games);
        let read = read_all(&bytes).unwrap();
        assert_eq!(read, games);
        for game in &read {
            assert_eq!(game.records(), records_by_play(game));
        }
        // Every kind of move was there: castling both ways, en passant, each promotion.
        let moves: Vec<Move> = games
            .iter()
            .flat_map(|g| g.plies.iter().map(|p| p.mv))
            .collect();
        assert_eq!(moves.iter().filter(|m| m.is_castle()).count(), 4);
        assert_eq!(moves.iter().filter(|m| m.is_en_passant()).count(), 2);
        let promoted: Vec<Role> = moves.iter().filter_map(|m| m.promotion()).collect();
        assert_eq!(promoted.len(), 6);
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            assert!(promoted.contains(&role), "{role:?}");
        }
        // The book start kept its rights, its en-passant square and its clocks.
        let book = &read[1].start;
        assert_eq!(book.castles().castling_rights(), Bitboard::CORNERS);
        assert_eq!(book.ep_square(EnPassantMode::Legal), Some(Square::E3));
        assert_eq!((book.halfmoves(), u32::from(book.fullmoves())), (7, 31));
        // Castling is the king's step, as UCI writes it.
        let white_castles = games[0].plies[10];
        assert_eq!(
            white_castles.mv.to_uci(CastlingMode::Standard).to_string(),
            "e1g1"
        );
        assert_eq!(move_word(white_castles.mv, false), 4 | 6 << 6);
    }

    #[test]
    fn random_games_from_tricky_positions_round_trip() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let mut games = Vec::new();
        for fen in TRICKY_POSITIONS.iter().cycle().take(70) {
            let mut pos = position(fen);
            let mut plies = Vec::new();
            while plies.len() < 200 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.random_range(0..moves.len())];
                let score = rng.random_range(-32_000..=32_000i16);
                let skip = !trainable(&pos, mv, i32::from(score)) || rng.random_bool(0.1);
                plies.push(Ply { mv, score, skip });
                pos.play_unchecked(mv);
            }
            games.push(ScoredGame {
                start: position(fen),
                plies,
                result: GameResult::from_byte(rng.random_range(0..3)).unwrap(),
            });
        }
        let bytes = file_of(&games);
        assert_eq!(read_all(&bytes).unwrap(), games);
        let plies: usize = games.iter().map(|g| g.plies.len()).sum();
        assert!(plies > 8000, "{plies} plies");
    }

    /// The offset of each game in a file of `games`.
    fn offsets(bytes: &[u8]) -> Vec<usize> {
        read(bytes)
            .unwrap()
            .map(|g| g.unwrap().offset as usize)
            .collect()
    }

    fn fault_of(bytes: &[u8]) -> (u64, Fault) {
        let e = read_all(bytes).unwrap_err();
        (e.offset, e.fault)
    }

    #[test]
    fn a_cut_off_game_is_refused_at_its_first_byte() {
        let bytes = file_of(&special_games());
        let last = *offsets(&bytes).last().unwrap();
        for len in last + 1..bytes.len() {
            let (offset, fault) = fault_of(&bytes[..len]);
            assert_eq!(offset, last as u64, "cut at {len}");
            assert!(
                matches!(fault, Fault::Cut { have, .. } if have == len - last),
                "{fault:?}"
            );
        }
        assert_eq!(read_all(&bytes[..last]).unwrap().len(), 2);
        assert_eq!(fault_of(&bytes[..5]), (0, Fault::ShortHeader));
        assert_eq!(read_all(&bytes[..HEADER_BYTES]).unwrap(), []);
        assert_eq!(read_all(&[]).unwrap(), []);
    }

    #[test]
    fn damage_is_refused_at_the_byte_it_is_in() {
        let bytes = file_of(&special_games());
        let at = offsets(&bytes);
        let damaged = |offset: usize, byte: u8| {
            let mut copy = bytes.clone();
            copy[offset] = byte;
            fault_of(&copy)
        };
        assert_eq!(damaged(0, b'R'), (0, Fault::Magic));
        assert_eq!(damaged(8, 2), (8, Fault::Version(2)));
        assert_eq!(damaged(at[1] + 2, 3), (at[1] as u64 + 2, Fault::Result(3)));
        // The second game's start: White to move makes its en-passant square (then e6) one
        // that cannot be; a castling byte beyond 4 bits; a white king for the a1 rook.
        let start = |field: usize| at[1] as u64 + field as u64;
        for (field, byte) in [(3, 0), (3, 2), (4, 16), (17, 0x66)] {
            let (offset, fault) = damaged(at[1] + field, byte);
            assert_eq!(offset, start(field), "{fault:?}");
            assert!(matches!(fault, Fault::Start(_)), "{fault:?}");
        }
        // The first game's fourth ply (f7f5) with a queen promotion flipped on: illegal.
        let ply = at[0] + GAME_HEAD_BYTES + 16 + 3 * PLY_BYTES;
        let word = u16::from_le_bytes([bytes[ply], bytes[ply + 1] ^ 0x50]);
        assert_eq!(word, 0x5975);
        assert_eq!(
            damaged(ply + 1, bytes[ply + 1] ^ 0x50),
            (ply as u64, Fault::Move { ply: 3, word })
        );
        // Castling written onto the rook (e1h1, low byte 0xc4 for e1g1's 0x84): the move,
        // but not as the format writes it.
        let castle = at[0] + GAME_HEAD_BYTES + 16 + 10 * PLY_BYTES;
        assert_eq!(bytes[castle], 0x84);
        assert_eq!(
            damaged(castle, 0xc4),
            (
                castle as u64,
                Fault::Move {
                    ply: 10,
                    word: 0x01c4
                }
            )
        );
        // The capture e5f6 (ply 4) marked for training.
        let capture = at[0] + GAME_HEAD_BYTES + 16 + 4 * PLY_BYTES;
        let flag_cleared = bytes[capture + 1] & 0x7f;
        assert_eq!(
            damaged(capture + 1, flag_cleared),
            (capture as u64, Fault::Untrainable { ply: 4 })
        );
    }
}
