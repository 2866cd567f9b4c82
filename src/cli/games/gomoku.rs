//! Gomoku for the hashing tools: `hash` reads a board size and moves, `hashstats` walks
//! random games with take-backs and measures the main, check and canonical keys.

use rookery::gomoku::key_samples::{self as gomoku_samples, GomokuCode};
use rookery::gomoku::{Geometry, GomokuKeys, parse_moves};
use rookery::hashing::quality::SampleSet;

use super::game::{HashedGame, PositionKeys};
use crate::cli::args::{Args, UsageError};
use crate::cli::key_report::{Report, WalkOptions, symmetric_game_report};

/// What follows `rookery hash gomoku`.
const HASH_USAGE: &str = "(--size N | --rect WxH) [MOVE...]   moves x,y from 0, black first";

/// Gomoku on a square or rectangular board.
pub struct GomokuGame;

impl HashedGame for GomokuGame {
    fn name(&self) -> &'static str {
        "gomoku"
    }

    fn hash_usage(&self) -> Option<&'static str> {
        Some(HASH_USAGE)
    }

    fn keys(&self, words: &[String]) -> Result<PositionKeys, UsageError> {
        keys(words)
    }

    fn hashstats_usage(&self) -> &'static str {
        "[--size N] [--games N] [--plies P] [OPTIONS]"
    }

    fn hashstats_values(&self) -> &'static [&'static str] {
        &["size"]
    }

    fn measure(&self, args: &Args) -> Result<Report, UsageError> {
        measure(args)
    }
}

/// The keys of the game `rookery hash gomoku` reads from `words`.
fn keys(words: &[String]) -> Result<PositionKeys, UsageError> {
    let args = Args::parse(words, &["size", "rect"], &[])?;
    let (width, height) = match (args.value::<usize>("size")?, args.value::<String>("rect")?) {
        (Some(n), None) => (n, n),
        (None, Some(rect)) => rect
            .split_once('x')
            .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
            .ok_or_else(|| UsageError(format!("--rect: expected WxH, got '{rect}'")))?,
        (Some(_), Some(_)) => {
            return Err(UsageError("give --size or --rect, not both".into()));
        }
        (None, None) => {
            return Err(UsageError(format!(
                "the board needs --size or --rect\nusage: rookery hash gomoku {HASH_USAGE}"
            )));
        }
    };
    let geometry = Geometry::new(width, height)
        .ok_or_else(|| UsageError(format!("a {width}x{height} board: sides go from 5 to 32")))?;
    let game = parse_moves(geometry, args.positional.iter().map(String::as_str))
        .map_err(|e| UsageError(e.to_string()))?;
    let (canonical, symmetry) = game.canonical();
    Ok(PositionKeys {
        key: game.key(),
        canonical: canonical.main,
        symmetry,
        extra: Vec::new(),
    })
}

/// The walk and measurements of `rookery hashstats gomoku`.
fn measure(args: &Args) -> Result<Report, UsageError> {
    let size: usize = args.value("size")?.unwrap_or(15);
    let WalkOptions {
        games,
        plies,
        seed,
        mib,
    } = WalkOptions::read(args, 20_000, 80)?;
    let geometry = Geometry::new(size, size)
        .ok_or_else(|| UsageError(format!("--size {size}: boards are 5 to 32 cells wide")))?;
    let walk = format!(
        "{games} random games of {plies} steps on {size}x{size} with take-backs (seed {seed})"
    );
    let keys = GomokuKeys::for_geometry(geometry);
    let tables = vec![
        (
            format!("main ({} keys)", keys.dual().main().len()),
            keys.dual().main().keys().iter().map(|k| k.0).collect(),
        ),
        (
            "main and check together".to_string(),
            keys.dual()
                .main()
                .keys()
                .iter()
                .chain(keys.dual().check().keys())
                .map(|k| k.0)
                .collect(),
        ),
    ];
    // The narrowest exact code that holds the board.
    macro_rules! walk_with {
        ($words:literal) => {{
            let mut exact = SampleSet::<GomokuCode<$words>>::new();
            let mut canonical = SampleSet::<GomokuCode<$words>>::new();
            gomoku_samples::walk_random_games(geometry, games, plies, seed, |board| {
                let key = board.key();
                let code = GomokuCode::of(board).expect("the code holds the board");
                exact.push(code, key.main.0, key.check.0);
                let (key, _) = board.canonical();
                let code = GomokuCode::canonical(board).expect("the code holds the board");
                canonical.push(code, key.main.0, key.check.0);
            });
            let visited = exact.visited();
            eprintln!("random games: {visited} nodes visited");
            symmetric_game_report("gomoku", walk, visited, exact, canonical, mib, tables)
        }};
    }
    match geometry.cells() {
        0..=256 => walk_with!(8),
        257..=512 => walk_with!(16),
        _ => walk_with!(32),
    }
}
