//! Gomocup notation: moves as `x,y` (0-based, black first) and the `BOARD` block
//! (`x,y,who` lines ending with `DONE`, who 1 for the side to move's stones, 2 for the
//! opponent's).

use std::fmt;

use super::{Geometry, Gomoku, Stone};

/// Input that is not valid Gomocup notation for the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError(pub String);

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseError {}

fn cell(geometry: Geometry, x: &str, y: &str, text: &str) -> Result<usize, ParseError> {
    let coord = |s: &str| {
        s.trim()
            .parse::<usize>()
            .map_err(|_| ParseError(format!("'{text}': coordinates are numbers from 0")))
    };
    let (x, y) = (coord(x)?, coord(y)?);
    geometry.cell(x, y).ok_or_else(|| {
        ParseError(format!(
            "'{text}' is off the {}x{} board",
            geometry.width(),
            geometry.height()
        ))
    })
}

/// Plays `x,y` moves from the empty board, black first.
pub fn parse_moves<'a>(
    geometry: Geometry,
    moves: impl IntoIterator<Item = &'a str>,
) -> Result<Gomoku, ParseError> {
    let mut game = Gomoku::new(geometry);
    for text in moves {
        let (x, y) = text
            .split_once(',')
            .ok_or_else(|| ParseError(format!("'{text}': a move is x,y")))?;
        let cell = cell(geometry, x, y, text)?;
        game.place(cell).map_err(|e| ParseError(e.0))?;
    }
    Ok(game)
}

/// Reads a `BOARD` block (the `BOARD` line itself optional) up to `DONE`. The side to move
/// owns the `1` stones; it is black when both sides have as many stones, white when it has
/// one fewer.
pub fn parse_board_block(geometry: Geometry, text: &str) -> Result<Gomoku, ParseError> {
    let mut own = Vec::new();
    let mut theirs = Vec::new();
    let mut done = false;
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if line.eq_ignore_ascii_case("BOARD") {
            continue;
        }
        if line.eq_ignore_ascii_case("DONE") {
            done = true;
            break;
        }
        let parts: Vec<&str> = line.split(',').collect();
        let [x, y, who] = parts[..] else {
            return Err(ParseError(format!("'{line}': a BOARD line is x,y,who")));
        };
        let cell = cell(geometry, x, y, line)?;
        match who.trim() {
            "1" => own.push(cell),
            "2" => theirs.push(cell),
            "3" => {
                return Err(ParseError(format!(
                    "'{line}': who=3 (continuous game) is not supported"
                )));
            }
            other => {
                return Err(ParseError(format!(
                    "'{line}': who must be 1 or 2, got '{other}'"
                )));
            }
        }
    }
    if !done {
        return Err(ParseError("the BOARD block must end with DONE".into()));
    }
    let to_move = if own.len() == theirs.len() {
        Stone::Black
    } else if own.len() + 1 == theirs.len() {
        Stone::White
    } else {
        return Err(ParseError(format!(
            "{} own and {} opposing stones: not a position of alternating moves",
            own.len(),
            theirs.len()
        )));
    };
    let mut game = Gomoku::new(geometry);
    for (cells, stone) in [(own, to_move), (theirs, to_move.other())] {
        for c in cells {
            game.set(c, stone).map_err(|e| ParseError(e.0))?;
        }
    }
    game.set_to_move(to_move);
    Ok(game)
}
