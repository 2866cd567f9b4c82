//! What `rookery hashstats` measures of a game's keys and how it reports it: colliding pairs
//! of truncated keys beside the birthday expectation, false hits of a table filled from the
//! walk, and the key tables' checks; with the pieces every game's walk shares (its options,
//! counting distinct positions, the report of a game with check and canonical keys).

use std::fmt::Write as _;

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use rookery::hashing::quality::{
    CollisionRow, FalseHits, Sample, SampleSet, Sanity, WIDTHS, colliding_pairs, false_hits,
    first_collisions, sanity,
};
use rookery::hashing::{DualKey, Key, TableKey};
use rookery::json::quoted;

use super::args::{Args, MAX_RANDOM_GAME_PLIES, MAX_TABLE_MIB, UsageError};

/// False-hit table size when `--mib` is not given.
const DEFAULT_MIB: usize = 64;

/// Everything one run measured.
pub(crate) struct Report {
    /// The game's name.
    pub(crate) game: &'static str,
    /// How the positions were walked, in words.
    pub(crate) walk: String,
    /// Positions visited, repeats included.
    pub(crate) visited: u64,
    /// Wall time of the run.
    pub(crate) seconds: f64,
    /// Peak resident memory of the process.
    pub(crate) peak_mib: f64,
    /// Colliding pairs, one series per key and set of positions.
    pub(crate) series: Vec<Series>,
    /// False hits of tables keyed as the engine keys them.
    pub(crate) false_hits: Vec<(String, FalseHits)>,
    /// The key tables' checks.
    pub(crate) sanity: Vec<(String, Sanity)>,
}

/// Colliding pairs of one key over one set of distinct positions.
pub(crate) struct Series {
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
    /// The collision counts of `key` over the `distinct` positions, under `label`.
    pub(crate) fn new<C>(
        label: &str,
        distinct: &[Sample<C>],
        key: impl Fn(&Sample<C>) -> u64,
    ) -> Series {
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
    pub(crate) fn unjudged(self) -> Series {
        Series {
            judged: false,
            ..self
        }
    }
}

/// The options every walk takes, with the game's defaults for the first two.
pub(crate) struct WalkOptions {
    /// Random games (`--games`).
    pub(crate) games: u64,
    /// Plies per game (`--plies`).
    pub(crate) plies: u32,
    /// Seed of the random games (`--seed`).
    pub(crate) seed: u64,
    /// Size of the false-hit table in MiB (`--mib`).
    pub(crate) mib: usize,
}

/// The most memory a walk's samples may take, planned as its positions (random games
/// times one more than their plies) times the bytes a position takes in its sample sets:
/// the sets hold every distinct position, and a walk of random games visits mostly new ones.
/// The deep collision runs (ten million distinct positions of a game) plan about half of it.
pub(crate) const MAX_WALK_BYTES: u64 = 4 << 30;

impl WalkOptions {
    /// The options `args` give, `games` and `plies` when they give none, before any work:
    /// fewer games than `least_games`, a walk whose samples, `bytes_per_position` each,
    /// would pass [`MAX_WALK_BYTES`], and a table the system cannot give are refused.
    pub(crate) fn read(
        args: &Args,
        (games, plies): (u64, u32),
        least_games: u64,
        bytes_per_position: usize,
    ) -> Result<WalkOptions, UsageError> {
        let options = WalkOptions {
            games: args.number("games", least_games..=u64::MAX, games)?,
            plies: args.number("plies", 0..=MAX_RANDOM_GAME_PLIES, plies)?,
            seed: args.number("seed", 0..=u64::MAX, 1)?,
            mib: args.number("mib", 1..=MAX_TABLE_MIB, DEFAULT_MIB)?,
        };
        let per_game = (u64::from(options.plies) + 1) * bytes_per_position as u64;
        let most_games = MAX_WALK_BYTES / per_game;
        if options.games > most_games {
            return Err(UsageError(format!(
                "--games {}: the samples of games of up to {} plies take up to {per_game} bytes \
                 each, and a walk's at most {} MiB: at most {most_games} games",
                options.games,
                options.plies,
                MAX_WALK_BYTES >> 20
            )));
        }
        // Reserved and let go unused: the tables are made after the walk.
        let table_bytes = options.mib.saturating_mul(1 << 20);
        Vec::<u8>::new()
            .try_reserve_exact(table_bytes)
            .map_err(|e| UsageError(format!("--mib {}: cannot allocate it: {e}", options.mib)))?;
        Ok(options)
    }
}

/// The report of a game with a check key and a canonical key: the main key over positions
/// distinct as they stand (`exact`), the canonical key, raw and as a table index, over
/// positions distinct up to symmetry (`canonical`), false hits of both table keys, and
/// the key tables.
pub(crate) fn symmetric_game_report<P, C>(
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

/// Records a visit of a position of a game with a check key and a canonical key: its exact
/// code with its keys in `exact`, its canonical code with the canonical keys in `canonical`.
pub(crate) fn record_visit<P: Ord + Copy, C: Ord + Copy>(
    (exact, canonical): (&mut SampleSet<P>, &mut SampleSet<C>),
    (code, key): (P, DualKey),
    (canonical_code, canonical_key): (C, DualKey),
) {
    exact.push(code, key.main.0, key.check.0);
    canonical.push(canonical_code, canonical_key.main.0, canonical_key.check.0);
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
pub(crate) fn distinct_positions<C: Ord + Copy + std::fmt::Debug>(
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
pub(crate) fn main_key_false_hits<C>(
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

/// Checks each named key table: zero and equal keys, bit balance, XOR dependence.
pub(crate) fn check_tables(tables: Vec<(String, Vec<u64>)>) -> Vec<(String, Sanity)> {
    eprintln!("checking the key tables");
    tables
        .into_iter()
        .map(|(label, keys)| (label, sanity(&keys)))
        .collect()
}

impl Report {
    /// Whether every judged series is plausible and every key table passed.
    pub(crate) fn passed(&self) -> bool {
        self.series
            .iter()
            .filter(|series| series.judged)
            .all(|series| series.rows.iter().all(CollisionRow::plausible))
            && self.sanity.iter().all(|(_, s)| s.passed())
    }

    /// The report for people.
    pub(crate) fn table(&self) -> String {
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

    /// The report for machines, one JSON object.
    pub(crate) fn json(&self) -> String {
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
