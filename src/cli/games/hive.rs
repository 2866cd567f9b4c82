//! Hive for the hashing tools: `hash` reads a UHP GameString, `hashstats` walks random
//! games of sensible moves with take-backs and measures the main, check and canonical keys.

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use rookery::hashing::quality::{Sample, SampleSet};
use rookery::hive::compact::{self, CompactKey};
use rookery::hive::key_samples::{self as hive_samples, PlacedCode};
use rookery::hive::{
    Hex, Hive, HiveKeys, SC2020_CELLS, WINDOW_CELLS, parse_game_string, parse_game_string_lenient,
    sc2020_cell,
};

use super::game::{HashedGame, PositionKeys};
use crate::cli::args::{Args, UsageError, misuse};
use crate::cli::key_report::{Report, WalkOptions, record_visit, symmetric_game_report};

/// What follows `rookery hash hive`.
const HASH_USAGE: &str = "GAMESTRING                           a UHP GameString, quoted";

/// Hive, on the open plane or a bounded board.
pub struct HiveGame;

impl HashedGame for HiveGame {
    fn name(&self) -> &'static str {
        "hive"
    }

    fn hash_usage(&self) -> Option<&'static str> {
        Some(HASH_USAGE)
    }

    fn keys(&self, words: &[String]) -> Result<PositionKeys, UsageError> {
        keys(words)
    }

    fn hashstats_usage(&self) -> &'static str {
        "[--game Base+MLP|...|sc2020] [--games N] [--plies P] [OPTIONS]"
    }

    fn hashstats_values(&self) -> &'static [&'static str] {
        &["game"]
    }

    fn measure(&self, args: &Args) -> Result<Report, UsageError> {
        measure(args)
    }
}

/// The keys of the game `rookery hash hive` reads from `words`.
fn keys(words: &[String]) -> Result<PositionKeys, UsageError> {
    let args = Args::parse(words, &[], &[])?;
    if args.positional.is_empty() {
        return Err(misuse("hash", "no GameString given"));
    }
    // An unquoted GameString arrives split at the spaces inside its MoveStrings.
    let text = args.positional.join(" ");
    // A TurnString that disagrees with the moves is reported, not fatal: the moves decide.
    let (hive, warning) =
        parse_game_string_lenient(&text).map_err(|e| UsageError(e.to_string()))?;
    if let Some(warning) = warning {
        eprintln!("rookery: warning: {warning}");
    }
    let (canonical, frame) = hive.canonical();
    let compact = compact::encode(&hive).map_err(|e| UsageError(e.to_string()))?;
    Ok(PositionKeys {
        key: hive.key(),
        canonical: canonical.main,
        symmetry: frame.transform.index(),
        extra: vec![("compact", compact.to_string())],
    })
}

/// The walk and measurements of `rookery hashstats hive`.
fn measure(args: &Args) -> Result<Report, UsageError> {
    let WalkOptions {
        games,
        plies,
        seed,
        mib,
    } = WalkOptions::read(
        args,
        (20_000, 60),
        1,
        size_of::<Sample<PlacedCode>>() + size_of::<Sample<CompactKey>>(),
    )?;
    let game: String = args
        .value("game")?
        .unwrap_or_else(|| "Base+MLP".to_string());
    let start = if game.eq_ignore_ascii_case("sc2020") {
        // Three obstructed cells, as in the real game, picked by the seed.
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut cells: Vec<Hex> = Vec::new();
        while cells.len() < 3 {
            let cell = sc2020_cell(rng.random_range(0..SC2020_CELLS));
            if !cells.contains(&cell) {
                cells.push(cell);
            }
        }
        Hive::sc2020(&cells).expect("cells of the board")
    } else {
        parse_game_string(&format!("{game};NotStarted;White[1]"))
            .map_err(|e| UsageError(format!("--game {game}: {e}")))?
    };
    let walk = format!(
        "{games} random games of {plies} steps ({game}, sensible moves, take-backs; seed {seed})"
    );
    let mut placed = SampleSet::<PlacedCode>::new();
    let mut canonical = SampleSet::<CompactKey>::new();
    let mut done = 0u64;
    hive_samples::walk_random_games(&start, games, plies, seed, |hive| {
        let fit = "connected positions fit the compact key";
        record_visit(
            (&mut placed, &mut canonical),
            (PlacedCode::of(hive).expect(fit), hive.key()),
            (
                hive_samples::canonical_code(hive).expect(fit),
                hive.canonical().0,
            ),
        );
        done += 1;
        if done.is_multiple_of(1 << 20) {
            eprintln!("{done} nodes visited");
        }
    });
    let visited = placed.visited();
    eprintln!("random games: {visited} nodes visited");
    let tables = hive_tables(&start);
    symmetric_game_report("hive", walk, visited, placed, canonical, mib, tables)
}

/// The Hive key tables to check: all of them for zero and equal keys and bit balance, and
/// for XOR dependence the features a position near the first piece uses (every kind on
/// the 7 x 7 cells around the origin, on the open plane), since the whole open table is
/// too large for the dependence search.
fn hive_tables(start: &Hive) -> Vec<(String, Vec<u64>)> {
    let field = start.field();
    let keys = HiveKeys::for_field(field);
    let main: Vec<u64> = keys.dual().main().keys().iter().map(|k| k.0).collect();
    let check: Vec<u64> = keys.dual().check().keys().iter().map(|k| k.0).collect();
    let mut tables = vec![(format!("main ({} keys)", main.len()), main.clone())];
    if !field.is_bounded() {
        let cells = WINDOW_CELLS;
        let kinds = (main.len() - 1) / cells;
        let mut near = Vec::new();
        for kind in 0..kinds {
            for r in -3..=3 {
                for q in -3..=3 {
                    let cell = field.key_cell(Hex { q, r }).expect("open cells fold");
                    near.push(main[kind * cells + cell]);
                }
            }
        }
        near.push(main[kinds * cells]);
        tables.push((
            format!(
                "main, the {} features of the 7x7 cells at the origin",
                near.len()
            ),
            near,
        ));
    }
    let both: Vec<u64> = main.into_iter().chain(check).collect();
    tables.push(("main and check together".to_string(), both));
    tables
}
