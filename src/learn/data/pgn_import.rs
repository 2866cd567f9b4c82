//! Games of a tournament manager's PGN (fastchess, cutechess) as the game file keeps them,
//! for training on games played elsewhere (OpenBench's data workloads, from `genfens`
//! openings).
//!
//! - **Start.** The `FEN` tag's position when there is one (`SetUp "1"`), else the start
//!   position; standard chess only.
//! - **Scores.** Both managers write each engine's score in the comment after its move,
//!   from the view of the side that moved (the side to move in the position searched), as
//!   the engine reported it: `{+0.35/14 0.318s}` is 35 centipawns for the mover at depth
//!   14, `{+M3/8 ...}` a mate in 3 for it, `{-M5/...}` a mate in 5 against it. That is the
//!   game file's view, so a ply's score is the comment's, unchanged.
//! - **Plies training skips** (as datagen marks them): a mate score (kept as the engine's
//!   mate score), a move without a score (`{book}`, or no comment), and what datagen
//!   leaves out too ([`trainable`]: in check, a capture or a promotion played).
//! - **Result.** The `Result` tag, or the movetext's result token without one; an
//!   unfinished game (`*`) is not imported.

use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, Position as _};

use super::game_file::{Ply, ScoredGame, trainable};
use super::pgn::PgnGame;
use super::record::GameResult;
use crate::engine::score::MATE;

/// What becomes of a PGN game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Imported {
    /// The game as the game file keeps it.
    Game(ScoredGame),
    /// Not imported: the game has no result (`*`).
    Unfinished,
}

/// A PGN game as the game file keeps it; an error says what in it cannot be read.
pub fn import(game: &PgnGame) -> Result<Imported, String> {
    let result = match game.tag("Result").or(game.result.as_deref()) {
        Some("1-0") => GameResult::WhiteWon,
        Some("0-1") => GameResult::BlackWon,
        Some("1/2-1/2") => GameResult::Draw,
        Some("*") | None => return Ok(Imported::Unfinished),
        Some(other) => return Err(format!("result '{other}'")),
    };
    if let Some(variant) = game.tag("Variant")
        && !variant.eq_ignore_ascii_case("standard")
    {
        return Err(format!("variant '{variant}': only standard chess is read"));
    }
    let start = match game.tag("FEN") {
        Some(fen) => fen
            .parse::<Fen>()
            .map_err(|e| format!("FEN '{fen}': {e}"))?
            .into_position::<Chess>(CastlingMode::Standard)
            .map_err(|e| format!("FEN '{fen}': {e}"))?,
        None => Chess::default(),
    };
    let mut pos = start.clone();
    let mut plies = Vec::with_capacity(game.moves.len());
    for (i, (san, comment)) in game.moves.iter().enumerate() {
        let mv = san
            .parse::<SanPlus>()
            .ok()
            .and_then(|s| s.san.to_move(&pos).ok())
            .ok_or_else(|| format!("ply {}: '{san}' is not a legal move", i + 1))?;
        let score = comment.as_deref().and_then(score_of);
        let skip = score.is_none_or(|s| !trainable(&pos, mv, s));
        let score = score.unwrap_or(0);
        plies.push(Ply {
            mv,
            score: score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
            skip,
        });
        pos.play_unchecked(mv);
    }
    Ok(Imported::Game(ScoredGame {
        start,
        plies,
        result,
    }))
}

/// The score of a move's comment, centipawns from the mover's view: `+0.35/14 0.318s` is
/// 35, `+M3/8` the engine's score of mating in 3 moves, `-M5/...` of being mated in 5;
/// `None` for a comment without a score (`book`).
pub fn score_of(comment: &str) -> Option<i32> {
    let word = comment.split([',', ' ', '\n', '\t']).next()?;
    let (value, _depth) = word.split_once('/')?;
    let (sign, magnitude) = match value.as_bytes().first()? {
        b'-' => (-1, &value[1..]),
        b'+' => (1, &value[1..]),
        _ => (1, value),
    };
    if let Some(moves) = magnitude.strip_prefix('M') {
        let moves: i32 = moves.parse().ok().filter(|&m| (1..=500).contains(&m))?;
        // Mate in n moves: the mover mates at ply 2n - 1, or is mated at ply 2n.
        let plies = if sign > 0 { 2 * moves - 1 } else { 2 * moves };
        return Some(sign * (MATE - plies));
    }
    let pawns: f64 = magnitude.parse().ok().filter(|p: &f64| p.is_finite())?;
    Some(sign * (pawns * 100.0).round().min(f64::from(i16::MAX)) as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comment_scores() {
        assert_eq!(score_of("+0.35/14 0.318s"), Some(35));
        assert_eq!(score_of("-1.20/9 0.1s, White wins"), Some(-120));
        assert_eq!(score_of("0.00/1 0s"), Some(0));
        assert_eq!(score_of("+M3/8 0.1s"), Some(MATE - 5));
        assert_eq!(score_of("-M5/20 1s"), Some(-(MATE - 10)));
        for none in ["book", "", "White mates", "+x/3", "+Mx/3"] {
            assert_eq!(score_of(none), None, "{none}");
        }
    }
}
