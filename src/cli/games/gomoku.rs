//! Gomoku for the hashing tools: `hash` reads a board size and moves, `hashstats` walks
//! random games with take-backs and measures the main, check and canonical keys.

use rookery::gomoku::key_samples::{self as gomoku_samples, GomokuCode};
use rookery::gomoku::{Geometry, GomokuKeys, MAX_SIDE, MIN_SIDE, parse_moves};
use rookery::hashing::quality::{Sample, SampleSet};

use super::game::{HashedGame, PositionKeys};
use crate::cli::args::{Args, UsageError, misuse, number};
use crate::cli::key_report::{Report, WalkOptions, record_visit, symmetric_game_report};

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
        "[--size N (5 to 32, default 15)] [--games N] [--plies P] [OPTIONS]"
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
    let (width, height) = match (
        args.optional_number("size", MIN_SIDE..=MAX_SIDE)?,
        args.value::<String>("rect")?,
    ) {
        (Some(n), None) => (n, n),
        (None, Some(rect)) => {
            let (width, height) = rect
                .split_once('x')
                .ok_or_else(|| UsageError(format!("--rect: expected WxH, got '{rect}'")))?;
            let side = |text| number(text, "--rect side", MIN_SIDE..=MAX_SIDE);
            (side(width)?, side(height)?)
        }
        (Some(_), Some(_)) => {
            return Err(UsageError("give --size or --rect, not both".into()));
        }
        (None, None) => {
            return Err(misuse("hash", "the board needs --size or --rect"));
        }
    };
    let geometry = board(width, height)?;
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

/// A `width` x `height` board, or the refusal that names the sides' range.
fn board(width: usize, height: usize) -> Result<Geometry, UsageError> {
    Geometry::new(width, height).ok_or_else(|| {
        UsageError(format!(
            "a {width}x{height} board: sides go from {MIN_SIDE} to {MAX_SIDE}"
        ))
    })
}

/// The walk and measurements of `rookery hashstats gomoku`.
fn measure(args: &Args) -> Result<Report, UsageError> {
    let size = args.number("size", MIN_SIDE..=MAX_SIDE, 15)?;
    let geometry = board(size, size)?;
    // The narrowest exact code that holds the board.
    match geometry.cells() {
        0..=256 => walk_with::<8>(args, geometry),
        257..=512 => walk_with::<16>(args, geometry),
        _ => walk_with::<32>(args, geometry),
    }
}

/// The walk and measurements on `geometry`, positions encoded in `WORDS` words.
fn walk_with<const WORDS: usize>(args: &Args, geometry: Geometry) -> Result<Report, UsageError> {
    let WalkOptions {
        games,
        plies,
        seed,
        mib,
    } = WalkOptions::read(
        args,
        (20_000, 80),
        1,
        2 * size_of::<Sample<GomokuCode<WORDS>>>(),
    )?;
    let (width, height) = (geometry.width(), geometry.height());
    let walk = format!(
        "{games} random games of {plies} steps on {width}x{height} with take-backs (seed {seed})"
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
    let mut exact = SampleSet::<GomokuCode<WORDS>>::new();
    let mut canonical = SampleSet::<GomokuCode<WORDS>>::new();
    gomoku_samples::walk_random_games(geometry, games, plies, seed, |board| {
        let held = "the code holds the board";
        record_visit(
            (&mut exact, &mut canonical),
            (GomokuCode::of(board).expect(held), board.key()),
            (
                GomokuCode::canonical(board).expect(held),
                board.canonical().0,
            ),
        );
    });
    let visited = exact.visited();
    eprintln!("random games: {visited} nodes visited");
    symmetric_game_report("gomoku", walk, visited, exact, canonical, mib, tables)
}
