//! `rookery perft`: divide on one position, or a whole EPD suite.

use std::path::PathBuf;
use std::time::Instant;

use super::args::{Args, MAX_TABLE_MIB, UsageError, misuse, number};
use super::output::out;
use super::{Outcome, case_position, nps, read_suite};
use rookery::chess::Position;
use rookery::chess::perft::{MAX_PERFT_DEPTH, PerftEntry, divide_report, perft, perft_hashed};
use rookery::hashing::Table;

/// Usage text.
pub fn usage() -> String {
    format!(
        "usage: rookery perft DEPTH [FEN] [--chess960] [--hash MB]
       rookery perft --epd FILE [--max-depth D] [--chess960] [--hash MB]
  counts the leaves of the move tree to DEPTH, 0 to {MAX_PERFT_DEPTH}, divided by root move, from FEN
  (default: the start position); or checks the counts `;D<depth> <count>` of each line of
  an EPD suite, those to --max-depth D (0 to {MAX_PERFT_DEPTH}) only when it is given
  --chess960   castling written king-takes-rook (a Shredder-FEN is read as Chess960 anyway)
  --hash MB    a hashed perft on a table of MB MiB, 1 to {MAX_TABLE_MIB}"
    )
}

/// Runs `rookery perft` with the words after `perft`.
pub fn run(words: &[String]) -> Result<Outcome, UsageError> {
    let args = Args::parse(words, &["epd", "max-depth", "hash"], &["chess960"])?;
    let chess960 = args.switch("chess960");
    let table_mib = args.optional_number("hash", 1..=MAX_TABLE_MIB)?;
    let max_depth = args.optional_number("max-depth", 0..=MAX_PERFT_DEPTH)?;
    let epd = args.value::<PathBuf>("epd")?;
    if epd.is_none() && max_depth.is_some() {
        return Err(misuse("perft", "--max-depth goes with --epd"));
    }
    if epd.is_some() && !args.positional.is_empty() {
        return Err(misuse(
            "perft",
            format!("unexpected '{}' with --epd", args.positional.join(" ")),
        ));
    }
    // Made once the rest of the command line is read.
    let table = || {
        table_mib
            .map(|mib| Table::<PerftEntry>::new(mib).map_err(|e| UsageError(e.to_string())))
            .transpose()
    };
    match epd {
        Some(path) => run_suite(path, max_depth, chess960, table()?.as_ref()),
        None => {
            let (depth, fen) = args
                .positional
                .split_first()
                .ok_or_else(|| misuse("perft", "no depth given"))?;
            let depth = number(depth, "perft depth", 0..=MAX_PERFT_DEPTH)?;
            let mut pos = if fen.is_empty() {
                let mut pos = Position::startpos();
                if chess960 {
                    pos.set_castling_mode(shakmaty::CastlingMode::Chess960);
                }
                pos
            } else {
                Position::from_fen(&fen.join(" "), chess960)
                    .map_err(|e| UsageError(e.to_string()))?
            };
            run_divide(&mut pos, depth, table()?.as_ref());
            Ok(Outcome::Success)
        }
    }
}

fn run_divide(pos: &mut Position, depth: u32, table: Option<&Table<PerftEntry>>) {
    let start = Instant::now();
    let never = std::sync::atomic::AtomicBool::new(false);
    let (report, total) = divide_report(pos, depth, table, &never).expect("never stopped");
    let elapsed = start.elapsed();
    for line in report {
        out!("{line}");
    }
    eprintln!(
        "time {:.3} s, {} nps",
        elapsed.as_secs_f64(),
        nps(total, elapsed)
    );
}

/// Checks the suite at `path` to `max_depth` (all its counts without it, each no deeper
/// than the deepest perft).
fn run_suite(
    path: PathBuf,
    max_depth: Option<u32>,
    chess960: bool,
    table: Option<&Table<PerftEntry>>,
) -> Result<Outcome, UsageError> {
    let cases = read_suite(&path)?;
    if max_depth.is_none()
        && let Some((case, depth)) = cases.iter().find_map(|case| {
            let deepest = case.counts.iter().map(|&(d, _)| d).max()?;
            (deepest > MAX_PERFT_DEPTH).then_some((case, deepest))
        })
    {
        return Err(UsageError(format!(
            "{}: line {} has a count at depth {depth}, beyond the deepest perft \
             ({MAX_PERFT_DEPTH}); --max-depth leaves it out",
            path.display(),
            case.line
        )));
    }
    let max_depth = max_depth.unwrap_or(MAX_PERFT_DEPTH);
    if let Some(case) = cases.iter().find(|case| case.counts.is_empty()) {
        return Err(UsageError(format!(
            "{}: line {} has no depth counts to check",
            path.display(),
            case.line
        )));
    }
    if !cases
        .iter()
        .any(|case| case.counts.iter().any(|(d, _)| *d <= max_depth))
    {
        return Err(UsageError(format!(
            "{}: no count at depth {max_depth} or less: nothing to check",
            path.display()
        )));
    }
    let (mut passed, mut failed) = (0, 0);
    let (mut all_nodes, suite_start) = (0u64, Instant::now());
    for case in &cases {
        let mut pos = case_position(case, chess960)?;
        let start = Instant::now();
        let mut problems = Vec::new();
        let mut checked = Vec::new();
        for &(depth, expected) in case.counts.iter().filter(|(d, _)| *d <= max_depth) {
            let got = match table {
                Some(table) => perft_hashed(&mut pos, depth, table),
                None => perft(&mut pos, depth),
            };
            all_nodes += got;
            checked.push(format!("D{depth}"));
            if got != expected {
                problems.push(format!("D{depth} expected {expected} got {got}"));
            }
        }
        let elapsed = start.elapsed();
        if problems.is_empty() {
            passed += 1;
            out!("ok   line {} {} {}", case.line, checked.join(" "), case.fen);
        } else {
            failed += 1;
            out!(
                "FAIL line {} {}: {}",
                case.line,
                problems.join(", "),
                case.fen
            );
        }
        eprintln!("line {}: {:.3} s", case.line, elapsed.as_secs_f64());
    }
    let elapsed = suite_start.elapsed();
    eprintln!(
        "suite: {all_nodes} leaves in {:.3} s, {} nps",
        elapsed.as_secs_f64(),
        nps(all_nodes, elapsed)
    );
    out!("{passed} passed, {failed} failed");
    Ok(if failed == 0 {
        Outcome::Success
    } else {
        Outcome::Failure
    })
}
