//! UCI text to [`Command`]s. Pure functions of the text: no engine state, nothing printed.
//! This is what the fuzzers drive.

use std::time::Duration;

use shakmaty::CastlingMode;

use crate::chess::Position;
use crate::chess::perft::MAX_PERFT_DEPTH;
use crate::engine::Limits;
use crate::engine::bench::{DEFAULT_DEPTH, MAX_BENCH_DEPTH};

/// One line of input, understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// A blank line.
    Empty,
    /// `uci`.
    Uci,
    /// `isready`.
    IsReady,
    /// `debug on|off`: accepted, and without effect.
    Debug,
    /// `setoption name N [value V]`, or why it is not well formed.
    SetOption(Result<(String, String), String>),
    /// `ucinewgame`.
    NewGame,
    /// `position ...`, or why it is not well formed.
    Position(Result<PositionSpec, String>),
    /// `go ...` (other than perft).
    Go(GoSpec),
    /// `go perft N`, or why the depth is not acceptable.
    Perft(Result<u32, String>),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
    /// `d`: show the board.
    Display,
    /// `eval`: the evaluation term by term.
    Eval,
    /// `compiler`: how the binary was built.
    Compiler,
    /// `bench [depth]`, or why the depth is not acceptable.
    Bench(Result<u32, String>),
    /// `help`: the commands understood.
    Help,
    /// Anything else, as an excerpt of the line.
    Unknown(String),
}

/// Reads one line of input.
pub fn parse_command(line: &str) -> Command {
    let line = line.trim();
    let (word, rest) = line
        .split_once(char::is_whitespace)
        .map_or((line, ""), |(c, r)| (c, r.trim()));
    let args: Vec<&str> = rest.split_whitespace().collect();
    match (word, args.as_slice()) {
        ("", _) => Command::Empty,
        ("uci", _) => Command::Uci,
        ("isready", _) => Command::IsReady,
        ("debug", _) => Command::Debug,
        ("setoption", _) => {
            Command::SetOption(parse_setoption(rest).ok_or_else(|| {
                "setoption needs: setoption name <name> [value <value>]".to_string()
            }))
        }
        ("ucinewgame", _) => Command::NewGame,
        ("position", _) => Command::Position(parse_position(rest)),
        ("go", ["perft", depth, ..]) => Command::Perft(perft_depth(Some(depth))),
        ("go", ["perft"]) => Command::Perft(perft_depth(None)),
        ("go", _) => Command::Go(parse_go(rest)),
        ("stop", _) => Command::Stop,
        ("ponderhit", _) => Command::PonderHit,
        ("quit", _) => Command::Quit,
        ("d", _) => Command::Display,
        ("eval", _) => Command::Eval,
        ("compiler", _) => Command::Compiler,
        ("help", _) => Command::Help,
        ("bench", []) => Command::Bench(Ok(DEFAULT_DEPTH)),
        ("bench", [depth, ..]) => Command::Bench(match depth.parse::<u32>() {
            Ok(d) if (1..=MAX_BENCH_DEPTH).contains(&d) => Ok(d),
            _ => Err(format!(
                "bench depth must be 1 to {MAX_BENCH_DEPTH}, got '{depth}'"
            )),
        }),
        _ => Command::Unknown(excerpt(line)),
    }
}

fn perft_depth(word: Option<&str>) -> Result<u32, String> {
    word.and_then(|d| d.parse::<u32>().ok())
        .filter(|&d| d <= MAX_PERFT_DEPTH)
        .ok_or_else(|| format!("go perft needs a depth from 0 to {MAX_PERFT_DEPTH}"))
}

/// At most the first 100 characters of `line`, for echoing it back.
fn excerpt(line: &str) -> String {
    const KEEP: usize = 100;
    match line.char_indices().nth(KEEP) {
        Some((cut, _)) => format!("{}...", &line[..cut]),
        None => line.to_string(),
    }
}

/// The name and value of `setoption name <name> [value <value>]`, read word by word as
/// Stockfish does: `name` and `value` count only as whole words, so `value11118` is part of
/// a name, not a value. Names and values may contain spaces.
pub fn parse_setoption(rest: &str) -> Option<(String, String)> {
    let mut words = rest.split_whitespace();
    if words.next() != Some("name") {
        return None;
    }
    let name: Vec<&str> = words.by_ref().take_while(|&w| w != "value").collect();
    let value: Vec<&str> = words.collect();
    (!name.is_empty()).then(|| (name.join(" "), value.join(" ")))
}

/// A `position` command: where it starts and the moves played from there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionSpec {
    /// The FEN, or `None` for the start position.
    pub fen: Option<String>,
    /// Moves in UCI notation.
    pub moves: Vec<String>,
}

impl PositionSpec {
    /// The position, with castling read and written as `chess960` says, or why there is
    /// none (an invalid FEN, an illegal or malformed move).
    pub fn build(&self, chess960: bool) -> Result<Position, String> {
        let mut pos = match &self.fen {
            None => {
                let mut pos = Position::startpos();
                pos.set_castling_mode(CastlingMode::from_chess960(chess960));
                pos
            }
            Some(fen) => {
                let mut pos = Position::from_fen(fen, chess960).map_err(|e| e.to_string())?;
                if chess960 {
                    pos.set_castling_mode(CastlingMode::Chess960);
                }
                pos
            }
        };
        for mv in &self.moves {
            pos.push_uci(mv)
                .map_err(|e| format!("{e} in position command"))?;
        }
        Ok(pos)
    }
}

/// The `position` command's arguments, or why they are not well formed.
pub fn parse_position(rest: &str) -> Result<PositionSpec, String> {
    let mut words = rest.split_whitespace();
    let fen = match words.next() {
        Some("startpos") => {
            match words.next() {
                None | Some("moves") => {}
                Some(other) => return Err(format!("expected 'moves', got '{other}'")),
            }
            None
        }
        // take_while consumes "moves"; what follows are the moves.
        Some("fen") => Some(
            words
                .by_ref()
                .take_while(|&w| w != "moves")
                .collect::<Vec<_>>()
                .join(" "),
        ),
        _ => return Err("position needs 'startpos' or 'fen <FEN>'".to_string()),
    };
    Ok(PositionSpec {
        fen,
        moves: words.map(str::to_string).collect(),
    })
}

/// A `go` command as read: its limits, and in order what still needs the position (the
/// `searchmoves`) or deserves a warning.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoSpec {
    /// Everything but the search moves.
    pub limits: Limits,
    /// Search moves and warnings, in the order they appeared.
    pub notes: Vec<GoNote>,
}

/// Part of a `go` command that is not a plain limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoNote {
    /// A word after `searchmoves`, to be read as a move of the position.
    SearchMove(String),
    /// Something skipped, and why.
    Warning(String),
}

impl GoSpec {
    /// The limits with the search moves read in `pos`; `warn` hears every warning in order
    /// (a search move that is not a legal move of `pos` is skipped with one).
    pub fn resolve(&self, pos: &Position, mut warn: impl FnMut(String)) -> Limits {
        let mut limits = self.limits.clone();
        for note in &self.notes {
            match note {
                GoNote::Warning(text) => warn(text.clone()),
                GoNote::SearchMove(text) => match pos.parse_uci(text) {
                    Ok(mv) => limits.search_moves.push(mv),
                    Err(e) => warn(format!("searchmoves: {e}, skipped")),
                },
            }
        }
        limits
    }
}

/// The `go` command's arguments. Like Stockfish, a word it does not know is skipped (with a
/// warning) and the rest still applies; a decimal number is read down to its whole part
/// (`wtime 1000.0` is 1000 ms). A limit that bounds the search (`wtime`, `btime`,
/// `movetime`, `depth`, `nodes`) without a number is read as 0, so a malformed `go` is never
/// an unbounded search; `winc`, `binc`, `movestogo` and `mate` without one are ignored.
/// `movestogo 0` is read as absent.
pub fn parse_go(rest: &str) -> GoSpec {
    let mut spec = GoSpec::default();
    let limits = &mut spec.limits;
    let mut words = rest.split_whitespace().peekable();
    while let Some(word) = words.next() {
        match word {
            "searchmoves" => {
                while let Some(text) = words.next_if(|text| !is_go_keyword(text)) {
                    spec.notes.push(GoNote::SearchMove(text.to_string()));
                }
                continue;
            }
            "infinite" => {
                limits.infinite = true;
                continue;
            }
            "ponder" => {
                limits.ponder = true;
                continue;
            }
            _ if !is_go_keyword(word) => {
                spec.notes.push(GoNote::Warning(format!(
                    "go: unknown parameter '{word}' ignored"
                )));
                continue;
            }
            _ => {}
        }
        let bounds = matches!(word, "wtime" | "btime" | "movetime" | "depth" | "nodes");
        let value = match words.peek().and_then(|text| go_number(text)) {
            Some(n) => {
                words.next();
                n
            }
            None => {
                // A word that is no keyword was meant as the value.
                let got = match words.next_if(|text| !is_go_keyword(text)) {
                    Some(text) => format!("got '{}'", excerpt(text)),
                    None => "got none".to_string(),
                };
                let effect = if bounds { "read as 0" } else { "ignored" };
                spec.notes.push(GoNote::Warning(format!(
                    "go {word}: needs a number, {got}; {effect}"
                )));
                if !bounds {
                    continue;
                }
                0
            }
        };
        let ms = Duration::from_millis(value);
        match word {
            "wtime" => limits.time.white = Some(ms),
            "btime" => limits.time.black = Some(ms),
            "winc" => limits.inc.white = ms,
            "binc" => limits.inc.black = ms,
            "movestogo" => limits.moves_to_go = (value > 0).then(|| value.min(1000) as u32),
            "depth" => limits.depth = Some(value.clamp(1, 255) as u32),
            "nodes" => limits.nodes = Some(value.max(1)),
            "mate" => limits.mate = Some(value.clamp(1, 500) as u32),
            _ => limits.movetime = Some(ms), // "movetime"
        }
    }
    spec
}

/// A number of a `go` limit: a whole number, or a finite decimal one read down to its whole
/// part; below 0 is 0, beyond `i64::MAX` is `i64::MAX`.
fn go_number(text: &str) -> Option<u64> {
    let clamp = |n: i64| n.max(0) as u64;
    if let Ok(n) = text.parse::<i64>() {
        return Some(clamp(n));
    }
    // Digits, a sign, a point and an exponent only: not "inf" or "NaN".
    if !text
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'+' | b'-' | b'.' | b'e' | b'E'))
    {
        return None;
    }
    // `as` saturates, so a huge number is i64::MAX.
    let n = text.parse::<f64>().ok().filter(|n| n.is_finite())?;
    Some(clamp(n as i64))
}

fn is_go_keyword(word: &str) -> bool {
    matches!(
        word,
        "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "movestogo"
            | "depth"
            | "nodes"
            | "mate"
            | "movetime"
            | "infinite"
            | "ponder"
            | "searchmoves"
    )
}
