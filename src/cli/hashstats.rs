//! `rookery hashstats`: key quality measured on real position sets. Distinct positions are
//! counted by exact encoding; colliding pairs of truncated keys are set beside the
//! birthday expectation; a table filled from the walk counts false hits; the key table
//! itself is checked. Progress on stderr, the summary on stdout (`--json` for machines).

use std::fmt::Write as _;
use std::time::Instant;

use super::args::{Args, UsageError};
use super::output::{out, write_stdout};
use super::{Outcome, Root, epd_roots};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use rookery::chess::key_samples::{self as chess_samples, ChessCode};
use rookery::chess::zobrist::POLYGLOT;
use rookery::gomoku::key_samples::{self as gomoku_samples, GomokuCode};
use rookery::gomoku::{Geometry, GomokuKeys};
use rookery::hashing::quality::{
    CollisionRow, FalseHits, Sample, SampleSet, Sanity, WIDTHS, colliding_pairs, false_hits,
    first_collisions, sanity,
};
use rookery::hashing::{DualKey, Key, TableKey};
use rookery::hive::compact::CompactKey;
use rookery::hive::key_samples::{self as hive_samples, PlacedCode};
use rookery::hive::{
    Hex, Hive, HiveKeys, SC2020_CELLS, WINDOW_CELLS, parse_game_string, sc2020_cell,
};
use rookery::json::quoted;

/// Usage text.
pub const USAGE: &str = "\
usage: rookery hashstats chess [--epd FILE] [--depth D] [--games N] [--plies P]
                              [--games-from-start] [OPTIONS]
       rookery hashstats gomoku [--size N] [--games N] [--plies P] [OPTIONS]
       rookery hashstats hive [--game Base+MLP|...|sc2020] [--games N] [--plies P] [OPTIONS]
options: --seed S (random games), --mib M (false-hit table, default 64), --json";

const VALUED: &[&str] = &[
    "epd", "depth", "games", "plies", "seed", "mib", "size", "game",
];
const DEFAULT_MIB: usize = 64;

/// Runs `rookery hashstats` with the words after `hashstats`.
pub fn run(words: &[String]) -> Result<Outcome, UsageError> {
    let args = Args::parse(words, VALUED, &["json", "games-from-start"])?;
    let game = args.positional.first().map(String::as_str);
    if let Some(word) = args.positional.get(1) {
        return Err(UsageError(format!("unexpected '{word}'\n{USAGE}")));
    }
    let start = Instant::now();
    let report = match game {
        Some("chess") => chess(&args)?,
        Some("gomoku") => gomoku(&args)?,
        Some("hive") => hive(&args)?,
        Some(other) => return Err(UsageError(format!("unknown game '{other}'\n{USAGE}"))),
        None => return Err(UsageError(format!("which game?\n{USAGE}"))),
    };
    if report.visited == 0 {
        return Err(UsageError(
            "no position visited: nothing to measure (raise --games or --depth)".into(),
        ));
    }
    let report = Report {
        seconds: start.elapsed().as_secs_f64(),
        peak_mib: peak_memory_mib(),
        ..report
    };
    if args.switch("json") {
        out!("{}", report.json());
    } else {
        write_stdout(format_args!("{}", report.table()));
    }
    Ok(if report.passed() {
        Outcome::Success
    } else {
        Outcome::Failure
    })
}

/// Everything one run measured.
struct Report {
    game: &'static str,
    walk: String,
    visited: u64,
    seconds: f64,
    peak_mib: f64,
    series: Vec<Series>,
    false_hits: Vec<(String, FalseHits)>,
    sanity: Vec<(String, Sanity)>,
}

/// Colliding pairs of one key over one set of distinct positions.
struct Series {
    label: String,
    distinct: usize,
    rows: Vec<CollisionRow>,
    /// Distinct positions (in a seeded random order) before the first collision at each
    /// width.
    first: Vec<Option<usize>>,
    /// Whether the verdict counts: false for a key shown only for its known bias.
    judged: bool,
}

impl Series {
    fn new<C>(label: &str, distinct: &[Sample<C>], key: impl Fn(&Sample<C>) -> u64) -> Series {
        eprintln!(
            "{label}: counting collisions among {} positions",
            distinct.len()
        );
        let mut keys: Vec<u64> = distinct.iter().map(key).collect();
        // A seeded shuffle: the code order groups similar positions, whose collisions are
        // correlated, and the first-collision count wants a random order.
        let mut rng = ChaCha8Rng::seed_from_u64(0x5eed);
        for i in (1..keys.len()).rev() {
            keys.swap(i, rng.random_range(0..=i));
        }
        let first = first_collisions(&keys, &WIDTHS);
        Series {
            label: label.to_string(),
            distinct: distinct.len(),
            first,
            rows: colliding_pairs(&mut keys, &WIDTHS),
            judged: true,
        }
    }

    /// The same series, shown but left out of the verdict.
    fn unjudged(self) -> Series {
        Series {
            judged: false,
            ..self
        }
    }
}

/// The options every walk takes, with the game's defaults for the first two.
struct WalkOptions {
    games: u64,
    plies: u32,
    seed: u64,
    mib: usize,
}

impl WalkOptions {
    fn read(args: &Args, games: u64, plies: u32) -> Result<WalkOptions, UsageError> {
        Ok(WalkOptions {
            games: args.value("games")?.unwrap_or(games),
            plies: args.value("plies")?.unwrap_or(plies),
            seed: args.value("seed")?.unwrap_or(1),
            mib: args.value("mib")?.unwrap_or(DEFAULT_MIB),
        })
    }
}

fn chess(args: &Args) -> Result<Report, UsageError> {
    let depth: u32 = args.value("depth")?.unwrap_or(4);
    let WalkOptions {
        games,
        plies,
        seed,
        mib,
    } = WalkOptions::read(args, 1000, 200)?;
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

fn gomoku(args: &Args) -> Result<Report, UsageError> {
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

fn hive(args: &Args) -> Result<Report, UsageError> {
    let WalkOptions {
        games,
        plies,
        seed,
        mib,
    } = WalkOptions::read(args, 20_000, 60)?;
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
        let key = hive.key();
        let code = PlacedCode::of(hive).expect("connected positions fit the compact key");
        placed.push(code, key.main.0, key.check.0);
        let (key, _) = hive.canonical();
        let code = hive_samples::canonical_code(hive).expect("connected positions fit");
        canonical.push(code, key.main.0, key.check.0);
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

/// The report of a game with a check key and a canonical key: the main key over positions
/// distinct as they stand (`exact`), the canonical key, raw and as a table index, over
/// positions distinct up to symmetry (`canonical`), false hits of both table keys, and
/// the key tables.
fn symmetric_game_report<P, C>(
    game: &'static str,
    walk: String,
    visited: u64,
    exact: SampleSet<P>,
    canonical: SampleSet<C>,
    mib: usize,
    tables: Vec<(String, Vec<u64>)>,
) -> Result<Report, UsageError>
where
    P: Ord + Copy + std::fmt::Debug,
    C: Ord + Copy + std::fmt::Debug,
{
    let exact = distinct_positions(exact)?;
    let mut series = vec![Series::new("main key", &exact, |s| s.key)];
    let mut false_hits = main_key_false_hits(&exact, mib)?;
    false_hits.push(false_hits_of(
        "main key, check key verifies (64 bits)",
        &exact,
        |s| dual_key(s).table_key(),
        mib,
    )?);
    drop(exact);
    let canonical = distinct_positions(canonical)?;
    // Shown for its bias, the reason the table index is remixed.
    series.push(
        Series::new(
            "canonical key (least over the symmetries; biased, not a table index)",
            &canonical,
            |s| s.key,
        )
        .unjudged(),
    );
    series.push(Series::new(
        "canonical table index (remixed)",
        &canonical,
        |s| dual_key(s).canonical_table_key().index,
    ));
    false_hits.push(false_hits_of(
        "canonical table key (check key verifies)",
        &canonical,
        |s| dual_key(s).canonical_table_key(),
        mib,
    )?);
    Ok(Report {
        game,
        walk,
        visited,
        seconds: 0.0,
        peak_mib: 0.0,
        series,
        false_hits,
        sanity: check_tables(tables),
    })
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

/// A sample's keys as a dual key.
fn dual_key<C>(sample: &Sample<C>) -> DualKey {
    DualKey {
        main: Key(sample.key),
        check: Key(sample.check),
    }
}

/// The distinct positions of a walk, or the defect that two visits of one position had
/// different keys.
fn distinct_positions<C: Ord + Copy + std::fmt::Debug>(
    samples: SampleSet<C>,
) -> Result<Vec<Sample<C>>, UsageError> {
    eprintln!(
        "deduplicating {} visits by exact encoding",
        samples.visited()
    );
    let distinct = samples.finish().map_err(|m| {
        UsageError(format!(
            "the key is not a function of the position: {:?} and {:?}",
            m.0, m.1
        ))
    })?;
    eprintln!("{} distinct positions", distinct.len());
    Ok(distinct)
}

/// False hits of a table indexed and verified by the main key, with 16, 32 and all 64
/// bits of it verified.
fn main_key_false_hits<C>(
    distinct: &[Sample<C>],
    mib: usize,
) -> Result<Vec<(String, FalseHits)>, UsageError> {
    [16, 32, 64]
        .into_iter()
        .map(|bits| {
            let label = if bits == 64 {
                "main key, 64 bits (as the tables use it)".to_string()
            } else {
                format!("main key, low {bits} bits")
            };
            eprintln!("{label}: filling a {mib} MiB table");
            let keys = distinct.iter().map(|s| TableKey::from(Key(s.key)));
            let hits = false_hits(keys, mib, bits).map_err(|e| UsageError(e.to_string()))?;
            Ok((label, hits))
        })
        .collect()
}

/// False hits of a table keyed by `key_of`, all 64 verification bits compared.
fn false_hits_of<C>(
    label: &str,
    distinct: &[Sample<C>],
    key_of: impl Fn(&Sample<C>) -> TableKey,
    mib: usize,
) -> Result<(String, FalseHits), UsageError> {
    eprintln!("{label}: filling a {mib} MiB table");
    let hits =
        false_hits(distinct.iter().map(key_of), mib, 64).map_err(|e| UsageError(e.to_string()))?;
    Ok((label.to_string(), hits))
}

fn check_tables(tables: Vec<(String, Vec<u64>)>) -> Vec<(String, Sanity)> {
    eprintln!("checking the key tables");
    tables
        .into_iter()
        .map(|(label, keys)| (label, sanity(&keys)))
        .collect()
}

impl Report {
    fn passed(&self) -> bool {
        self.series
            .iter()
            .filter(|series| series.judged)
            .all(|series| series.rows.iter().all(CollisionRow::plausible))
            && self.sanity.iter().all(|(_, s)| s.passed())
    }

    fn table(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "game: {}", self.game);
        let _ = writeln!(out, "walk: {}", self.walk);
        let _ = writeln!(out, "positions visited: {}", self.visited);
        let _ = writeln!(
            out,
            "time: {:.1} s, peak memory: {:.0} MiB",
            self.seconds, self.peak_mib
        );
        for series in &self.series {
            let _ = writeln!(
                out,
                "\n{}: {} distinct positions (exact encoding); colliding pairs, key cut to its top bits:",
                series.label, series.distinct
            );
            let _ = writeln!(
                out,
                "{:>5} {:>14} {:>16} {:>9} {:>13}  verdict",
                "bits", "pairs", "expected", "sigma", "first after"
            );
            for (row, first) in series.rows.iter().zip(&series.first) {
                let first = first.map_or("none".to_string(), |n| n.to_string());
                let verdict = if row.plausible() {
                    "ok"
                } else {
                    "OUT OF RANGE"
                };
                let _ = writeln!(
                    out,
                    "{:>5} {:>14} {:>16.3} {:>+9.2} {first:>13}  {verdict}",
                    row.bits,
                    row.pairs,
                    row.expected,
                    row.deviation(),
                );
            }
        }
        let _ = writeln!(
            out,
            "\ntable false hits (one probe per distinct position, before storing it):"
        );
        let _ = writeln!(
            out,
            "{:<42} {:>12} {:>10} {:>12} {:>12}",
            "verification", "probes", "false", "rate", "expected"
        );
        for (label, hits) in &self.false_hits {
            let _ = writeln!(
                out,
                "{label:<42} {:>12} {:>10} {:>12.3e} {:>12.3}",
                hits.probes,
                hits.false_hits,
                hits.rate(),
                hits.expected
            );
        }
        let _ = writeln!(out, "\nkey tables:");
        for (label, s) in &self.sanity {
            let dependence = match s.dependence_found {
                Some(k) => format!("FOUND among {k} keys"),
                None => format!("none up to {} keys", s.dependence_checked),
            };
            let _ = writeln!(
                out,
                "{label}: {} keys, zero {}, equal pairs {}, worst bit {:.2} sigma, bit chi-square {:.1}, XOR dependence {dependence}: {}",
                s.keys,
                s.zero,
                s.equal_pairs,
                s.worst_bit,
                s.bit_chi_square,
                if s.passed() { "ok" } else { "FAILED" }
            );
        }
        out
    }

    fn json(&self) -> String {
        let row_json = |r: &CollisionRow| {
            format!(
                r#"{{"bits":{},"pairs":{},"expected":{:e},"sigma":{:.3},"plausible":{}}}"#,
                r.bits,
                r.pairs,
                r.expected,
                r.deviation(),
                r.plausible()
            )
        };
        let series: Vec<String> = self
            .series
            .iter()
            .map(|s| {
                let rows: Vec<String> = s
                    .rows
                    .iter()
                    .zip(&s.first)
                    .map(|(r, first)| {
                        let row = row_json(r);
                        let first = first.map_or("null".to_string(), |n| n.to_string());
                        format!("{},\"first_after\":{first}}}", &row[..row.len() - 1])
                    })
                    .collect();
                format!(
                    r#"{{"key":{},"distinct":{},"collisions":[{}]}}"#,
                    quoted(&s.label),
                    s.distinct,
                    rows.join(",")
                )
            })
            .collect();
        let hits: Vec<String> = self
            .false_hits
            .iter()
            .map(|(label, h)| {
                format!(
                    r#"{{"verification":{},"bits":{},"probes":{},"false_hits":{},"rate":{:e},"expected":{:e}}}"#,
                    quoted(label),
                    h.verify_bits,
                    h.probes,
                    h.false_hits,
                    h.rate(),
                    h.expected
                )
            })
            .collect();
        let tables: Vec<String> = self
            .sanity
            .iter()
            .map(|(label, s)| {
                format!(
                    r#"{{"table":{},"keys":{},"zero":{},"equal_pairs":{},"worst_bit_sigma":{:.3},"bit_chi_square":{:.2},"dependence_checked":{},"dependence_found":{},"passed":{}}}"#,
                    quoted(label),
                    s.keys,
                    s.zero,
                    s.equal_pairs,
                    s.worst_bit,
                    s.bit_chi_square,
                    s.dependence_checked,
                    s.dependence_found
                        .map_or("null".to_string(), |k| k.to_string()),
                    s.passed()
                )
            })
            .collect();
        format!(
            r#"{{"game":{},"walk":{},"visited":{},"seconds":{:.2},"peak_mib":{:.0},"series":[{}],"false_hits":[{}],"key_tables":[{}],"passed":{}}}"#,
            quoted(self.game),
            quoted(&self.walk),
            self.visited,
            self.seconds,
            self.peak_mib,
            series.join(","),
            hits.join(","),
            tables.join(","),
            self.passed()
        )
    }
}

/// The process's peak resident memory in MiB (Linux `VmHWM`), 0 where unknown.
fn peak_memory_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
            line.split_whitespace().nth(1)?.parse::<f64>().ok()
        })
        .map_or(0.0, |kib| kib / 1024.0)
}
