//! Chess for the hashing tools: `hashstats` walks perft trees from the start position or
//! an EPD suite and random games, and measures the Polyglot key; `hash` reads no chess
//! position.

use rookery::chess::key_samples::{self as chess_samples, ChessCode};
use rookery::chess::zobrist::POLYGLOT;
use rookery::hashing::quality::{Sample, SampleSet};

use super::game::{HashedGame, PositionKeys};
use crate::cli::args::{Args, UsageError};
use crate::cli::key_report::{
    Report, Series, WalkOptions, check_tables, distinct_positions, main_key_false_hits,
};
use crate::cli::{Root, epd_roots};

/// Chess, keyed by Polyglot.
pub struct ChessGame;

impl HashedGame for ChessGame {
    fn name(&self) -> &'static str {
        "chess"
    }

    fn hash_usage(&self) -> Option<&'static str> {
        None
    }

    fn keys(&self, _words: &[String]) -> Result<PositionKeys, UsageError> {
        Err(UsageError(
            "rookery hash reads no chess position".to_string(),
        ))
    }

    fn hashstats_usage(&self) -> &'static str {
        "[--epd FILE] [--depth D (0 to 5, default 4)] [--games N] [--plies P] [--games-from-start] [OPTIONS]"
    }

    fn hashstats_values(&self) -> &'static [&'static str] {
        &["epd", "depth"]
    }

    fn hashstats_switches(&self) -> &'static [&'static str] {
        &["games-from-start"]
    }

    fn measure(&self, args: &Args) -> Result<Report, UsageError> {
        measure(args)
    }
}

/// The deepest perft tree walked: a tree one deeper holds billions of positions from a busy
/// one (a depth-5 tree from the start holds 4,865,609; from Kiwipete, 193,690,690).
const MAX_TREE_DEPTH: u32 = 5;

/// The walk and measurements of `rookery hashstats chess`.
fn measure(args: &Args) -> Result<Report, UsageError> {
    let depth = args.number("depth", 0..=MAX_TREE_DEPTH, 4)?;
    let WalkOptions {
        games,
        plies,
        seed,
        mib,
    } = WalkOptions::read(args, (1000, 200), 0, size_of::<Sample<ChessCode>>())?;
    let (roots, source) = epd_roots(args)?;
    let mut samples = SampleSet::<ChessCode>::new();
    for (i, root) in roots.iter().enumerate() {
        chess_samples::walk_perft(&mut root.position(), depth, &mut samples);
        eprintln!(
            "perft tree {}/{}: {} nodes visited",
            i + 1,
            roots.len(),
            samples.visited()
        );
    }
    // Games from the start position, or dealt evenly over the roots (endgame roots give
    // short random walks that revisit the same few positions).
    let from_start = args.switch("games-from-start");
    let game_roots = if from_start {
        vec![Root::startpos()]
    } else {
        roots.clone()
    };
    for (i, root) in game_roots.iter().enumerate() {
        let n = game_roots.len() as u64;
        let share = games / n + u64::from((i as u64) < games % n);
        chess_samples::walk_random_games(
            &root.position(),
            share,
            plies,
            seed.wrapping_add(i as u64),
            &mut samples,
        );
    }
    let visited = samples.visited();
    eprintln!("random games: {visited} nodes visited");
    let walk = format!(
        "perft trees to depth {depth} from {source} ({} roots), {games} random games of up to {plies} plies from {} (seed {seed})",
        roots.len(),
        if from_start {
            "the start position"
        } else {
            "those roots"
        }
    );
    let distinct = distinct_positions(samples)?;
    let series = vec![Series::new("Polyglot key", &distinct, |s| s.key)];
    let false_hits = main_key_false_hits(&distinct, mib)?;
    drop(distinct);
    let keys: Vec<u64> = POLYGLOT.keys().iter().map(|k| k.0).collect();
    Ok(Report {
        game: "chess",
        walk,
        visited,
        seconds: 0.0,
        peak_mib: 0.0,
        series,
        false_hits,
        sanity: check_tables(vec![("Polyglot (781 keys)".to_string(), keys)]),
    })
}
