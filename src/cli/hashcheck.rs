//! `rookery hashcheck`: incremental key == shakmaty reference == from-scratch key, everywhere.

use std::time::Instant;

use super::args::{Args, MAX_RANDOM_GAME_PLIES, UsageError};
use super::output::out;
use super::{Outcome, epd_roots, nps};
use rookery::chess::hashcheck::HashCheck;
use rookery::chess::perft::MAX_PERFT_DEPTH;

/// Usage text.
pub fn usage() -> String {
    format!(
        "usage: rookery hashcheck [--epd FILE] [--depth D] [--games N] [--seed S] [--plies P]
  checks the incremental key against shakmaty's and a from-scratch key at every node
  --epd FILE   the positions to start from (default: the start position)
  --depth D    the move tree of each position to depth D, 0 to {MAX_PERFT_DEPTH} (default {DEFAULT_DEPTH})
  --games N    random games, dealt over the positions, 0 to {} (default {DEFAULT_GAMES})
  --seed S     their seed, 0 to {} (default 1)
  --plies P    each game's plies at most, 0 to {MAX_RANDOM_GAME_PLIES} (default {DEFAULT_PLIES})",
        u32::MAX,
        u64::MAX
    )
}

const DEFAULT_DEPTH: u32 = 4;
const DEFAULT_GAMES: u32 = 100;
const DEFAULT_PLIES: u32 = 300;

/// Runs `rookery hashcheck` with the words after `hashcheck`.
pub fn run(words: &[String]) -> Result<Outcome, UsageError> {
    let args = Args::parse(words, &["epd", "depth", "games", "seed", "plies"], &[])?;
    args.no_positional("hashcheck")?;
    let depth = args.number("depth", 0..=MAX_PERFT_DEPTH, DEFAULT_DEPTH)?;
    let games = args.number("games", 0..=u32::MAX, DEFAULT_GAMES)?;
    let seed = args.number("seed", 0..=u64::MAX, 1)?;
    let plies = args.number("plies", 0..=MAX_RANDOM_GAME_PLIES, DEFAULT_PLIES)?;
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
