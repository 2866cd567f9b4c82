//! `rookery hashcheck`: incremental key == shakmaty reference == from-scratch key, everywhere.

use std::time::Instant;

use super::args::{Args, UsageError};
use super::output::out;
use super::{Outcome, epd_roots, nps};
use rookery::chess::hashcheck::HashCheck;

/// Usage text.
pub const USAGE: &str =
    "usage: rookery hashcheck [--epd FILE] [--depth D] [--games N] [--seed S] [--plies P]";

const DEFAULT_DEPTH: u32 = 4;
const DEFAULT_GAMES: u32 = 100;
const DEFAULT_PLIES: u32 = 300;

/// Runs `rookery hashcheck` with the words after `hashcheck`.
pub fn run(words: &[String]) -> Result<Outcome, UsageError> {
    let args = Args::parse(words, &["epd", "depth", "games", "seed", "plies"], &[])?;
    if let Some(word) = args.positional.first() {
        return Err(UsageError(format!("unexpected '{word}'\n{USAGE}")));
    }
    let depth = args.value("depth")?.unwrap_or(DEFAULT_DEPTH);
    let games: u32 = args.value("games")?.unwrap_or(DEFAULT_GAMES);
    let seed: u64 = args.value("seed")?.unwrap_or(1);
    let plies = args.value("plies")?.unwrap_or(DEFAULT_PLIES);
    let (roots, _) = epd_roots(&args)?;

    let start = Instant::now();
    let mut check = HashCheck::default();
    for (i, root) in roots.iter().enumerate() {
        check.walk_tree(&mut root.position(), depth);
        eprintln!(
            "tree {}/{}: {} nodes so far",
            i + 1,
            roots.len(),
            check.nodes
        );
    }
    // Games are dealt round-robin over the roots, each with its own seed.
    for game in 0..games {
        let root = roots[game as usize % roots.len()].position();
        check.walk_random_games(&root, 1, plies, seed.wrapping_add(u64::from(game)));
    }
    let elapsed = start.elapsed();
    eprintln!(
        "{} games; {:.3} s, {} nodes/s",
        games,
        elapsed.as_secs_f64(),
        nps(check.nodes, elapsed)
    );
    if let Some(m) = &check.first {
        out!(
            "first mismatch: after {} from {}: incremental {} reference {} scratch {}{}",
            m.mv,
            m.parent_fen,
            m.incremental,
            m.reference,
            m.scratch,
            m.predicted
                .map_or(String::new(), |key| format!(" predicted {key}"))
        );
    }
    out!(
        "nodes checked: {}, mismatches: {}",
        check.nodes,
        check.mismatches
    );
    Ok(if check.mismatches == 0 {
        Outcome::Success
    } else {
        Outcome::Failure
    })
}
