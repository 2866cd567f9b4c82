//! The chess position: shakmaty's board plus our incremental key and the key history.
//!
//! Positions live on a stack: `push` copies the top state, plays the move on the copy and
//! derives the new key from the old one and the move; `pop` drops the top. The stack doubles
//! as the key history for repetition detection, game moves and search moves alike.

use std::fmt;

use arrayvec::ArrayVec;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{
    Bitboard, CastlingMode, Chess, Color, EnPassantMode, Move, MoveList, Position as _,
    PositionError,
};

use super::key_update::ChildKeys;
use super::zobrist::{CHESS_KEYS, ChessKeys, castling_mask, hashed_ep_square, key_from_scratch};
use crate::hashing::Key;

/// One position on the stack.
#[derive(Clone, Debug)]
struct State {
    chess: Chess,
    key: Key,
    /// The en-passant file's key if `key` includes one, else empty.
    ep_key: Key,
    /// Castling rights included in `key`, as a 4-bit mask.
    castling: u8,
    /// How many positions below this one on the stack may repeat it (reset by captures,
    /// pawn moves and null moves).
    reversible: usize,
}

/// A chess position with its incremental Polyglot key and the history of earlier keys.
#[derive(Clone)]
pub struct Position {
    states: Vec<State>,
    mode: CastlingMode,
    /// The key table, fetched once so the hot path skips the lazy-initialisation check.
    keys: &'static ChessKeys,
}

/// Why a FEN was rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FenError(pub String);

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FenError {}

/// Why a UCI move could not be played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveError(pub String);

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MoveError {}

const STACK_RESERVE: usize = 512;

impl Position {
    /// Wraps a shakmaty position; its key is computed from scratch once, here.
    pub fn new(chess: Chess, mode: CastlingMode) -> Position {
        let key = key_from_scratch(&chess);
        let state = State {
            ep_key: hashed_ep_square(&chess)
                .map_or(Key::EMPTY, |ep| CHESS_KEYS.en_passant(ep.file())),
            castling: castling_mask(&chess),
            reversible: 0,
            key,
            chess,
        };
        let mut states = Vec::with_capacity(STACK_RESERVE);
        states.push(state);
        Position {
            states,
            mode,
            keys: &CHESS_KEYS,
        }
    }

    /// The standard start position.
    pub fn startpos() -> Position {
        Position::new(Chess::default(), CastlingMode::Standard)
    }

    /// Parses a FEN (or the first four to six fields of an EPD line). Castling rights in
    /// Shredder or X-FEN form that standard chess cannot have are read as Chess960, whatever
    /// `chess960` says; `chess960` also selects king-takes-rook castling notation.
    pub fn from_fen(fen: &str, chess960: bool) -> Result<Position, FenError> {
        let parsed: Fen = fen
            .trim()
            .parse()
            .map_err(|e| FenError(format!("invalid FEN '{}': {e}", fen.trim())))?;
        let mode = CastlingMode::from_chess960(chess960);
        let chess = match lenient_position(parsed.clone(), mode) {
            Ok(chess) => Ok((chess, mode)),
            Err(e) if mode == CastlingMode::Standard => {
                lenient_position(parsed, CastlingMode::Chess960)
                    .map(|chess| (chess, CastlingMode::Chess960))
                    .map_err(|_| e)
            }
            Err(e) => Err(e),
        };
        let (chess, mode) =
            chess.map_err(|e| FenError(format!("illegal position '{}': {e}", fen.trim())))?;
        Ok(Position::new(chess, mode))
    }

    #[inline]
    fn top(&self) -> &State {
        self.states.last().expect("the stack is never empty")
    }

    /// The current shakmaty position.
    #[inline]
    pub fn chess(&self) -> &Chess {
        &self.top().chess
    }

    /// The incremental key of the current position.
    #[inline]
    pub fn key(&self) -> Key {
        self.top().key
    }

    /// Castling notation in use (standard `e1g1` or Chess960 king-takes-rook `e1h1`).
    pub fn castling_mode(&self) -> CastlingMode {
        self.mode
    }

    /// Selects the castling notation for moves written and read. A position whose castling
    /// rights cannot be written in standard notation (a king or rook off its standard
    /// square) keeps king-takes-rook notation.
    pub fn set_castling_mode(&mut self, mode: CastlingMode) {
        let setup = self.chess().to_setup(EnPassantMode::Legal);
        self.mode = match CastlingMode::detect(&setup) {
            CastlingMode::Chess960 => CastlingMode::Chess960,
            CastlingMode::Standard => mode,
        };
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.chess().turn()
    }

    /// All legal moves.
    #[inline]
    pub fn legal_moves(&self) -> MoveList {
        self.chess().legal_moves()
    }

    /// Plies pushed since the position was created (null moves included).
    pub fn ply(&self) -> usize {
        self.states.len() - 1
    }

    /// The key the position will have after the legal move `mv`, without playing it.
    #[inline]
    pub fn key_after(&self, mv: Move) -> Key {
        self.child_keys().key_after(&mv)
    }

    /// The keys after each of `moves` (all legal here), as hashed perft wants them to
    /// prefetch table buckets.
    #[inline]
    pub fn keys_after(&self, moves: &[Move]) -> ArrayVec<Key, 256> {
        let children = self.child_keys();
        moves.iter().map(|mv| children.key_after(mv)).collect()
    }

    /// What the keys of all this node's children share, gathered once so that each child's
    /// key then costs a few table loads (see [`ChildKeys::key_after`]).
    ///
    /// ```
    /// use rookery::chess::Position;
    /// use rookery::chess::zobrist::reference_key;
    ///
    /// let mut pos = Position::startpos();
    /// let moves = pos.legal_moves();
    /// let predicted: Vec<_> = {
    ///     let children = pos.child_keys();
    ///     moves.iter().map(|mv| children.key_after(mv)).collect()
    /// };
    /// for (&mv, key) in moves.iter().zip(predicted) {
    ///     pos.push(mv);
    ///     assert_eq!(key, pos.key());
    ///     assert_eq!(key, reference_key(pos.chess()));
    ///     pos.pop();
    /// }
    /// ```
    #[inline]
    pub fn child_keys(&self) -> ChildKeys<'_> {
        let state = self.top();
        ChildKeys::new(
            &state.chess,
            state.key,
            state.ep_key,
            state.castling,
            self.keys,
        )
    }

    /// Plays the legal move `mv`. Playing an illegal move leaves the position undefined.
    #[inline]
    pub fn push(&mut self, mv: Move) {
        self.push_with_hint(mv, |_| {});
    }

    /// [`Position::push`], calling `hint` with the child's key before the move is played, so
    /// the caller can start loading the child's table bucket while the board is updated.
    #[inline]
    pub fn push_with_hint(&mut self, mv: Move, hint: impl FnOnce(Key)) {
        let child = self.child_keys().child(&mv);
        hint(child.key);
        // Push a copy of the top state and play the move on it in place: building the child
        // aside and moving it in costs two extra copies of the board. (`extend_from_within`,
        // a loop not inlined here, cost more instructions than this clone and push.)
        let copy = self.top().clone();
        self.states.push(copy);
        let top = self.states.last_mut().expect("just pushed");
        top.chess.play_unchecked(mv);
        top.key = child.key;
        top.ep_key = child.ep_key;
        top.castling = child.castling;
        top.reversible = if mv.is_zeroing() {
            0
        } else {
            top.reversible + 1
        };
    }

    /// Takes back the last move or null move. The first position is never popped.
    #[inline]
    pub fn pop(&mut self) {
        debug_assert!(self.states.len() > 1, "pop without push");
        if self.states.len() > 1 {
            self.states.pop();
        }
    }

    /// Passes the turn (a null move): flips the side to move and drops the en-passant file.
    /// Refused (returns false) when the side to move is in check.
    pub fn push_null(&mut self) -> bool {
        let top = self.top();
        let Ok(chess) = top.chess.clone().swap_turn() else {
            return false;
        };
        let keys = self.keys;
        let key = top.key ^ top.ep_key ^ keys.white_to_move();
        let castling = top.castling;
        self.states.push(State {
            chess,
            key,
            ep_key: Key::EMPTY,
            castling,
            reversible: 0,
        });
        true
    }

    /// Keys of the earlier positions that the current one could repeat, most recent first
    /// (positions before the last capture, pawn move or null move cannot repeat).
    pub fn reversible_keys(&self) -> impl Iterator<Item = Key> + '_ {
        let n = self.states.len() - 1;
        let depth = self.top().reversible.min(n);
        self.states[n - depth..n].iter().rev().map(|s| s.key)
    }

    /// How many earlier positions (same side to move) have the current key.
    pub fn repetitions(&self) -> usize {
        let key = self.key();
        self.reversible_keys()
            .skip(1)
            .step_by(2)
            .filter(|&k| k == key)
            .count()
    }

    /// Parses a move in UCI notation (in this position's castling notation) and plays it.
    pub fn push_uci(&mut self, text: &str) -> Result<Move, MoveError> {
        let mv = self.parse_uci(text)?;
        self.push(mv);
        Ok(mv)
    }

    /// Parses a move in UCI notation and checks it is legal here.
    pub fn parse_uci(&self, text: &str) -> Result<Move, MoveError> {
        let uci: UciMove = text
            .parse()
            .map_err(|_| MoveError(format!("malformed move '{text}'")))?;
        uci.to_move(self.chess())
            .map_err(|_| MoveError(format!("illegal move '{text}'")))
    }

    /// A move in UCI notation, castling written as this position's mode requires.
    pub fn uci(&self, mv: Move) -> String {
        mv.to_uci(self.mode).to_string()
    }

    /// The current position as FEN, castling rights in X-FEN (`KQkq`, a file letter only
    /// where a letter of the king's side would be ambiguous).
    pub fn fen(&self) -> String {
        Fen::from_position(self.chess(), EnPassantMode::Legal).to_string()
    }

    /// The current position as Shredder-FEN, the Chess960 form: as [`Position::fen`], but
    /// each castling right is its rook's file (`HAha` for the standard arrangement).
    pub fn shredder_fen(&self) -> String {
        let fen = self.fen();
        let rights = shredder_castling(self.chess().castles().castling_rights());
        fen.split(' ')
            .enumerate()
            .map(|(field, text)| if field == 2 { rights.as_str() } else { text })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Castling rights (the rooks' squares) as Shredder-FEN writes them: White's files in
/// capitals, then Black's, each side's from the h-file down; `-` when there are none.
fn shredder_castling(rooks: Bitboard) -> String {
    let mut text = String::new();
    for color in Color::ALL {
        for rook in (rooks & color.backrank()).into_iter().rev() {
            let file = rook.file().char();
            text.push(match color {
                Color::White => file.to_ascii_uppercase(),
                Color::Black => file,
            });
        }
    }
    if text.is_empty() {
        text.push('-');
    }
    text
}

/// Sets up a FEN's position, accepting two flaws that move generation copes with: checks
/// no legal game could produce (published perft suites contain such positions), and an
/// en-passant square no double push explains (dropped, as GUIs sometimes send one).
fn lenient_position(fen: Fen, mode: CastlingMode) -> Result<Chess, String> {
    fen.into_position::<Chess>(mode)
        .or_else(PositionError::ignore_impossible_check)
        .or_else(PositionError::ignore_invalid_ep_square)
        .map_err(|e| e.to_string())
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({}, key {})", self.fen(), self.key())
    }
}
