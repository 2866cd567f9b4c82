//! Perft against published counts. The default run takes the published positions to their
//! full depth (about 6.5 s in release) and the suites to shallow depths; the deep runs are
//! ignored here and listed in `docs/testing.md` (`cargo test --release -- --ignored`).

use crate::common;

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

use common::{run_suite, suite};
use rookery::chess::Position;
use rookery::chess::perft::{PerftEntry, divide, perft, perft_hashed, perft_until};
use rookery::hashing::{Key, Table};

#[test]
fn published_positions_to_depth_4() {
    let (compared, failures) = run_suite(&suite("published.epd"), 4);
    assert_eq!(compared, 24);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn standard_suite_to_depth_4() {
    let cases = suite("standard.epd");
    assert_eq!(cases.len(), 128);
    let (compared, failures) = run_suite(&cases, 4);
    assert_eq!(compared, 505);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn chess960_suite_to_depth_3() {
    let cases = suite("chess960.epd");
    assert_eq!(cases.len(), 960);
    let (compared, failures) = run_suite(&cases, 3);
    assert_eq!(compared, 3 * 960);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn dfrc_suite_to_depth_4() {
    let cases = suite("dfrc.epd");
    assert_eq!(cases.len(), 30);
    let (compared, failures) = run_suite(&cases, 4);
    assert_eq!(compared, 4 * 30);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn hashed_perft_equals_plain_perft() {
    let table = Table::<PerftEntry>::new(16).unwrap();
    for case in suite("published.epd") {
        let mut pos = Position::from_fen(&case.fen, false).unwrap();
        for depth in 0..=4 {
            assert_eq!(
                perft_hashed(&mut pos, depth, &table),
                perft(&mut pos, depth),
                "line {} depth {depth}",
                case.line
            );
        }
    }
    let stats = table.stats();
    assert!(stats.hits > 0 && stats.stores > 0, "{stats:?}");
}

/// How many distinct subtree counts hashed perft of `pos` to `depth` stores: one per
/// distinct (position, depth left) pair with a depth left of at least 1 below the root, and
/// the root itself. Counting stops once it passes `limit`.
fn stored_subtrees(pos: &mut Position, depth: u32, limit: usize) -> usize {
    fn walk(pos: &mut Position, depth: u32, limit: usize, seen: &mut HashSet<(Key, u32)>) {
        if depth == 0 || seen.len() > limit || !seen.insert((pos.key(), depth)) {
            return;
        }
        if depth >= 2 {
            for mv in pos.legal_moves() {
                pos.push(mv);
                walk(pos, depth - 1, limit, seen);
                pos.pop();
            }
        }
    }
    let mut seen = HashSet::new();
    walk(pos, depth, limit, &mut seen);
    seen.len()
}

#[test]
fn hashed_perft_5_in_a_crowded_1_mib_table_gives_the_published_counts() {
    let table = Table::<PerftEntry>::new(1).unwrap();
    let slots = table.capacity();
    let (mut compared, mut crowded) = (0, 0);
    for case in suite("published.epd") {
        let Some(&(_, expected)) = case.counts.iter().find(|&&(d, _)| d == 5) else {
            continue;
        };
        table.clear();
        let mut pos = Position::from_fen(&case.fen, false).unwrap();
        assert_eq!(
            perft_hashed(&mut pos, 5, &table),
            expected,
            "line {}",
            case.line
        );
        compared += 1;
        // Every distinct subtree count is written once at least; with more of them than
        // slots, entries were evicted and the count above survived it. Buckets fill
        // unevenly, so a crowded table is mostly but not always completely full.
        if stored_subtrees(&mut pos, 5, slots) > slots {
            crowded += 1;
            let full = table.hashfull();
            assert!(full >= 800, "line {}: hashfull {full}", case.line);
        }
    }
    assert_eq!(compared, 6, "every published position has a depth-5 count");
    // Position 3 (line 4) has too few distinct subtrees at depth 5 to fill the table.
    assert_eq!(crowded, 5, "positions that overflow a {slots}-slot table");
}

#[test]
fn divide_sums_to_perft_and_is_sorted() {
    let mut pos = Position::startpos();
    let never = AtomicBool::new(false);
    let lines = divide(&mut pos, 3, None, &never).expect("not stopped");
    assert_eq!(lines.len(), 20);
    assert_eq!(lines.iter().map(|(_, n)| n).sum::<u64>(), 8902);
    assert!(lines.windows(2).all(|w| w[0].0 < w[1].0));
    assert_eq!(lines[0], ("a2a3".to_string(), 380));
}

#[test]
fn a_set_stop_flag_ends_perft_without_a_count() {
    let mut pos = Position::startpos();
    let stop = AtomicBool::new(true);
    assert_eq!(perft_until(&mut pos, 3, &stop), None);
    assert_eq!(divide(&mut pos, 3, None, &stop), None);
    // Bulk-counted depths finish regardless: there is nothing to stop.
    assert_eq!(perft_until(&mut pos, 1, &stop), Some(20));
}

#[test]
fn published_positions_full_depth() {
    let (compared, failures) = run_suite(&suite("published.epd"), 6);
    assert_eq!(compared, 33);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
#[ignore = "deep: about 30 s in release"]
fn standard_suite_full_depth() {
    let (_, failures) = run_suite(&suite("standard.epd"), 99);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
#[ignore = "deep: about 90 s in release"]
fn chess960_suite_to_depth_5() {
    let (compared, failures) = run_suite(&suite("chess960.epd"), 5);
    assert_eq!(compared, 5 * 960);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
#[ignore = "deep: about 2 s in release"]
fn dfrc_suite_to_depth_5() {
    let (compared, failures) = run_suite(&suite("dfrc.epd"), 5);
    assert_eq!(compared, 5 * 30);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
#[ignore = "deep: about 3 s in release, 512 MiB"]
fn hashed_perft_7_from_the_start() {
    let table = Table::<PerftEntry>::new(512).unwrap();
    assert_eq!(
        perft_hashed(&mut Position::startpos(), 7, &table),
        3_195_901_860
    );
}
