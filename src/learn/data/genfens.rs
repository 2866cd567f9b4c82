//! Datagen's openings as FENs, for games another program plays: OpenBench's data workloads
//! ask an engine for `genfens N seed S book FILE`, play games from the openings with a
//! tournament manager, and keep the games as PGN (which `rookery data import` reads back).
//!
//! Each opening is drawn as a datagen game draws its own ([`datagen::opening`]): the start
//! position or a book position, the random plies, and the search's check that neither side
//! is more than [`datagen::OPENING_SCORE_LIMIT`] ahead. The openings of one seed are always
//! the same; an opening drawn twice is drawn again, so all are distinct.

use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

use super::datagen::{self, DatagenConfig, TABLE_MIB};
use crate::engine::tt::ChessTable;

/// The most openings one request may ask for.
pub const MAX_OPENINGS: u64 = 1_000_000;
/// Draws allowed per opening asked for before the request is given up (a small book).
const DRAWS_PER_OPENING: u64 = 20;

/// `count` distinct openings of datagen's kind for `seed`, as FENs; `config` gives the book,
/// the random plies, the evaluation and the nodes of the balance check. Refused when
/// `count` is 0 or over [`MAX_OPENINGS`], or when that many distinct openings are not found.
pub fn openings(config: &DatagenConfig, count: u64, seed: u64) -> Result<Vec<String>, String> {
    if count == 0 || count > MAX_OPENINGS {
        return Err(format!(
            "the number of openings must be 1 to {MAX_OPENINGS}, not {count}"
        ));
    }
    let table = ChessTable::new(TABLE_MIB).map_err(|e| e.to_string())?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut seen = std::collections::HashSet::new();
    let mut fens = Vec::new();
    for _ in 0..count * DRAWS_PER_OPENING {
        let fen = datagen::opening(config, &mut rng, &table)
            .map_err(|no_opening| no_opening.to_string())?
            .fen();
        if seen.insert(fen.clone()) {
            fens.push(fen);
            if fens.len() as u64 == count {
                return Ok(fens);
            }
        }
    }
    Err(format!(
        "only {} distinct openings found of the {count} asked for",
        fens.len()
    ))
}
