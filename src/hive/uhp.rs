//! Universal Hive Protocol strings: GameTypeString (`Base+MLP`), GameString
//! (`Base+M;InProgress;White[2];wS1;bS1 wS1-`) and MoveString.
//!
//! A MoveString names the piece, then where it goes relative to a piece on the board:
//! `wS1-` east of wS1, `-wS1` west, `wS1/` north-east, `/wS1` south-west, `wS1\` south-east,
//! `\wS1` north-west, and `wS1` alone on top of wS1's stack (a beetle or mosquito climbing).
//! The first move of a game is the piece alone (it goes to the origin); `pass` passes.
//!
//! Parsing checks what keeps the position physical, not the bugs' movement rules: see
//! [`UhpError`] and [`MoveError`].

use std::fmt;
use std::str::FromStr;

use super::board::{Hive, Move, MoveError};
use super::hex::{Direction, Hex};
use super::piece::{Bug, Colour, Expansions, Piece, PieceSet};

/// A UHP string that cannot be read, or a move that cannot be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UhpError {
    /// A GameString without its three leading fields.
    Fields(String),
    /// A GameTypeString other than `Base` or `Base+` with some of `M`, `L`, `P`.
    GameType(String),
    /// A BoardStateString other than `NotStarted`, `InProgress`, `Draw`, `WhiteWins`,
    /// `BlackWins`.
    GameState(String),
    /// A game state that does not fit the number of moves (`NotStarted` after moves,
    /// `InProgress` before any).
    StateMismatch {
        /// The state given.
        state: String,
        /// Moves in the GameString.
        moves: usize,
    },
    /// A TurnString other than `White[n]` or `Black[n]` with `n` from 1.
    Turn(String),
    /// A TurnString that does not follow from the number of moves.
    TurnMismatch {
        /// The TurnString given.
        given: String,
        /// The one the moves lead to.
        expected: String,
    },
    /// A MoveString that is not `pass`, a piece, or a piece and a position.
    MoveSyntax(String),
    /// Text where a piece name (`wQ`, `bA3`) was expected.
    PieceSyntax(String),
    /// A well-formed piece the game does not have (a fourth ant, `wS3`).
    NoSuchPiece(String),
    /// An expansion piece of an expansion not in the game.
    NotInGame {
        /// The piece.
        piece: String,
        /// The game type.
        game_type: String,
    },
    /// A position relative to a piece that is not on the board.
    NotOnBoard(String),
    /// A position beside a piece that names an occupied cell (a climb names the piece to
    /// climb onto instead).
    OccupiedTarget(String),
    /// A position relative to the moving piece itself.
    SelfReference(String),
    /// The first move must name only the piece.
    FirstMoveWithPosition(String),
    /// A move after the first must say where the piece goes.
    NoPosition(String),
    /// The move is not physically possible.
    Illegal(MoveError),
    /// The move would leave the pieces in more than one group.
    SplitsHive(String),
    /// An error in one move of a GameString.
    InMove {
        /// 1-based move number.
        number: usize,
        /// The MoveString.
        text: String,
        /// What is wrong with it.
        error: Box<UhpError>,
    },
}

impl fmt::Display for UhpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UhpError::Fields(s) => write!(
                f,
                "'{s}' is not a GameString (GameType;GameState;Turn[;moves...])"
            ),
            UhpError::GameType(s) => write!(
                f,
                "'{s}' is not a game type (Base, or Base+ with some of M, L, P)"
            ),
            UhpError::GameState(s) => write!(
                f,
                "'{s}' is not a game state (NotStarted, InProgress, Draw, WhiteWins, BlackWins)"
            ),
            UhpError::StateMismatch { state, moves } => {
                write!(f, "game state {state} does not fit {moves} moves")
            }
            UhpError::Turn(s) => write!(f, "'{s}' is not a turn (White[n] or Black[n], n from 1)"),
            UhpError::TurnMismatch { given, expected } => {
                write!(
                    f,
                    "turn {given} does not follow from the moves: expected {expected}"
                )
            }
            UhpError::MoveSyntax(s) => write!(
                f,
                "'{s}' is not a MoveString (pass, a piece, or a piece and a position such as wS1-)"
            ),
            UhpError::PieceSyntax(s) => {
                write!(f, "'{s}' is not a piece (colour w/b, bug QSBGAMLP, number)")
            }
            UhpError::NoSuchPiece(s) => write!(f, "there is no {s} in this game"),
            UhpError::NotInGame { piece, game_type } => {
                write!(f, "{piece} is not in a {game_type} game")
            }
            UhpError::NotOnBoard(s) => write!(f, "{s} is not on the board"),
            UhpError::OccupiedTarget(s) => write!(
                f,
                "'{s}' names an occupied cell (to climb, name the piece to climb onto)"
            ),
            UhpError::SelfReference(s) => {
                write!(f, "{s} cannot be placed relative to itself")
            }
            UhpError::FirstMoveWithPosition(s) => write!(
                f,
                "'{s}': the first move names only the piece (the board is empty)"
            ),
            UhpError::NoPosition(s) => write!(
                f,
                "'{s}': only the first move names no position (the board is not empty)"
            ),
            UhpError::Illegal(e) => e.fmt(f),
            UhpError::SplitsHive(s) => write!(f, "'{s}' leaves the hive in pieces"),
            UhpError::InMove {
                number,
                text,
                error,
            } => write!(f, "move {number} '{text}': {error}"),
        }
    }
}

impl std::error::Error for UhpError {}

impl From<MoveError> for UhpError {
    fn from(e: MoveError) -> UhpError {
        UhpError::Illegal(e)
    }
}

impl FromStr for Expansions {
    type Err = UhpError;

    /// A GameTypeString: `Base`, or `Base+` followed by any of `M`, `L`, `P`, each once.
    fn from_str(s: &str) -> Result<Expansions, UhpError> {
        let error = || UhpError::GameType(s.to_string());
        let mut e = Expansions::default();
        let Some(rest) = s.strip_prefix("Base") else {
            return Err(error());
        };
        if rest.is_empty() {
            return Ok(e);
        }
        let letters = rest.strip_prefix('+').ok_or_else(error)?;
        if letters.is_empty() {
            return Err(error());
        }
        for c in letters.chars() {
            let flag = match c {
                'M' => &mut e.mosquito,
                'L' => &mut e.ladybug,
                'P' => &mut e.pillbug,
                _ => return Err(error()),
            };
            if std::mem::replace(flag, true) {
                return Err(error());
            }
        }
        Ok(e)
    }
}

impl fmt::Display for Expansions {
    /// The GameTypeString, expansions in `MLP` order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Base")?;
        if *self != Expansions::default() {
            f.write_str("+")?;
        }
        for (on, c) in [
            (self.mosquito, 'M'),
            (self.ladybug, 'L'),
            (self.pillbug, 'P'),
        ] {
            if on {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

/// The game type string of a piece set (UHP names only UHP sets).
fn game_type(set: PieceSet) -> String {
    match set {
        PieceSet::Uhp(e) => e.to_string(),
        PieceSet::Sc2020 => "Software Challenge 2020".into(),
    }
}

/// Reads a piece name (`wQ`, `bS2`, `wM`) and checks that the game has it.
pub fn parse_piece(text: &str, set: PieceSet) -> Result<Piece, UhpError> {
    let syntax = || UhpError::PieceSyntax(text.to_string());
    let mut chars = text.chars();
    let colour = match chars.next() {
        Some('w') => Colour::White,
        Some('b') => Colour::Black,
        _ => return Err(syntax()),
    };
    let bug = chars.next().and_then(Bug::from_letter).ok_or_else(syntax)?;
    let digits = chars.as_str();
    let no_such = || UhpError::NoSuchPiece(text.to_string());
    let number = match (bug.numbered(), digits.as_bytes()) {
        (false, []) => 1,
        (true, [d @ b'1'..=b'9']) => d - b'0',
        (_, []) => return Err(syntax()),
        (_, ds) if ds.iter().all(u8::is_ascii_digit) => return Err(no_such()),
        _ => return Err(syntax()),
    };
    let piece = Piece::new(colour, bug, number);
    if set.count(bug) == 0 {
        return Err(UhpError::NotInGame {
            piece: text.to_string(),
            game_type: game_type(set),
        });
    }
    if !set.contains(piece) {
        return Err(no_such());
    }
    Ok(piece)
}

/// Reads a MoveString against the position it is played in.
pub fn parse_move(hive: &Hive, text: &str) -> Result<Move, UhpError> {
    let syntax = || UhpError::MoveSyntax(text.to_string());
    if text == "pass" {
        return Ok(Move::Pass);
    }
    let mut words = text.split(' ');
    let piece = parse_piece(words.next().ok_or_else(syntax)?, hive.piece_set())?;
    let position = words.next();
    if words.next().is_some() {
        return Err(syntax());
    }
    let Some(position) = position else {
        if !hive.is_empty() {
            return Err(UhpError::NoPosition(text.to_string()));
        }
        return Ok(Move::Play {
            piece,
            to: Hex::ORIGIN,
        });
    };
    if hive.is_empty() {
        return Err(UhpError::FirstMoveWithPosition(text.to_string()));
    }
    let (name, direction) = if let Some(rest) = position.strip_prefix('-') {
        (rest, Some(Direction::West))
    } else if let Some(rest) = position.strip_prefix('/') {
        (rest, Some(Direction::SouthWest))
    } else if let Some(rest) = position.strip_prefix('\\') {
        (rest, Some(Direction::NorthWest))
    } else if let Some(rest) = position.strip_suffix('-') {
        (rest, Some(Direction::East))
    } else if let Some(rest) = position.strip_suffix('/') {
        (rest, Some(Direction::NorthEast))
    } else if let Some(rest) = position.strip_suffix('\\') {
        (rest, Some(Direction::SouthEast))
    } else {
        (position, None)
    };
    let reference = parse_piece(name, hive.piece_set())?;
    if reference == piece {
        return Err(UhpError::SelfReference(piece.to_string()));
    }
    let (cell, _) = hive
        .locate(reference)
        .ok_or_else(|| UhpError::NotOnBoard(reference.to_string()))?;
    let to = direction.map_or(cell, |d| cell.neighbour(d));
    if direction.is_some() && hive.stack(to).iter().any(|&p| p != piece) {
        return Err(UhpError::OccupiedTarget(text.to_string()));
    }
    let mv = Move::Play { piece, to };
    hive.check(mv)?;
    Ok(mv)
}

/// The MoveString of a move in the position before it: the piece alone for the first
/// move, the top piece of the destination for a climb, else the first neighbour of the
/// destination (clockwise from the east of it) that is not the moving piece. `None` for a
/// destination next to no other piece.
pub fn move_string(hive: &Hive, mv: Move) -> Option<String> {
    let Move::Play { piece, to } = mv else {
        return Some("pass".into());
    };
    if hive.is_empty() {
        return Some(piece.to_string());
    }
    let other = |p: &&Piece| **p != piece;
    if let Some(top) = hive.stack(to).iter().rev().find(other) {
        return Some(format!("{piece} {top}"));
    }
    Direction::ALL.into_iter().find_map(|d| {
        // The neighbour in direction d sees `to` in the opposite direction.
        let reference = hive.stack(to.neighbour(d)).iter().rev().find(other)?;
        Some(match d {
            Direction::East => format!("{piece} -{reference}"),
            Direction::SouthEast => format!("{piece} \\{reference}"),
            Direction::SouthWest => format!("{piece} {reference}/"),
            Direction::West => format!("{piece} {reference}-"),
            Direction::NorthWest => format!("{piece} {reference}\\"),
            Direction::NorthEast => format!("{piece} /{reference}"),
        })
    })
}

/// The TurnString after `moves` moves: `White[1]`, `Black[1]`, `White[2]`, ...
pub fn turn_string(moves: usize) -> String {
    let colour = if moves.is_multiple_of(2) {
        Colour::White
    } else {
        Colour::Black
    };
    format!("{colour}[{}]", moves / 2 + 1)
}

/// Reads a GameString and plays its moves from the empty board. Checks the game type,
/// the game state (`NotStarted` exactly when there are no moves), the turn string against
/// the number of moves, and every move (see [`parse_move`]); a move that leaves the pieces
/// in more than one group is refused too.
///
/// ```
/// use rookery::hive::{Bug, Colour, Hex, Piece, parse_game_string};
/// let hive = parse_game_string("Base+M;InProgress;White[3];wS1;bG1 -wS1;wQ \\wS1;bM /bG1")
///     .unwrap();
/// assert_eq!(hive.stack(Hex::new(0, -1)), &[Piece::new(Colour::White, Bug::Queen, 1)]);
/// assert_eq!(hive.to_move(), Colour::White);
/// assert!(parse_game_string("Base;InProgress;White[3];wS1;bG1 -wS1;wQ \\wS1;bM /bG1").is_err());
/// ```
pub fn parse_game_string(text: &str) -> Result<Hive, UhpError> {
    match parse_game_string_lenient(text)? {
        (_, Some(mismatch)) => Err(mismatch),
        (hive, None) => Ok(hive),
    }
}

/// Reads a GameString like [`parse_game_string`], except that a TurnString that disagrees
/// with the number of moves is returned as a warning beside the position (which the moves
/// decide) instead of refusing the whole string. Tools that only need the position, such
/// as `rookery hash`, read hand-written strings this way.
///
/// ```
/// use rookery::hive::{Colour, UhpError, parse_game_string_lenient};
/// // Three moves played: the turn is Black[2], not White[3].
/// let (hive, warning) =
///     parse_game_string_lenient("Base+MLP;InProgress;White[3];wS1;bG1 -wS1;wQ \\wS1").unwrap();
/// assert_eq!(hive.to_move(), Colour::Black);
/// assert!(matches!(warning, Some(UhpError::TurnMismatch { .. })));
/// ```
pub fn parse_game_string_lenient(text: &str) -> Result<(Hive, Option<UhpError>), UhpError> {
    let fields: Vec<&str> = text.trim().split(';').collect();
    let [game_type, state, turn, moves @ ..] = &fields[..] else {
        return Err(UhpError::Fields(text.to_string()));
    };
    let expansions: Expansions = game_type.parse()?;
    match *state {
        "NotStarted" | "InProgress" | "Draw" | "WhiteWins" | "BlackWins" => {}
        other => return Err(UhpError::GameState(other.to_string())),
    }
    if (*state == "NotStarted") != moves.is_empty() {
        return Err(UhpError::StateMismatch {
            state: state.to_string(),
            moves: moves.len(),
        });
    }
    let turn_ok = ["White[", "Black["].iter().any(|prefix| {
        turn.strip_prefix(prefix)
            .and_then(|rest| rest.strip_suffix(']'))
            .is_some_and(|n| {
                !n.starts_with('0') && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())
            })
    });
    if !turn_ok {
        return Err(UhpError::Turn(turn.to_string()));
    }
    let expected = turn_string(moves.len());
    let mismatch = (*turn != expected).then(|| UhpError::TurnMismatch {
        given: turn.to_string(),
        expected,
    });
    let mut hive = Hive::uhp(expansions);
    for (i, &text) in moves.iter().enumerate() {
        let in_move = |error| UhpError::InMove {
            number: i + 1,
            text: text.to_string(),
            error: Box::new(error),
        };
        let mv = parse_move(&hive, text).map_err(in_move)?;
        hive.play(mv).map_err(|e| in_move(e.into()))?;
        if !hive.is_connected() {
            return Err(in_move(UhpError::SplitsHive(text.to_string())));
        }
    }
    Ok((hive, mismatch))
}
