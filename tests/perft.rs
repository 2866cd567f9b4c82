//! Perft against published counts. The default run keeps to shallow depths; the deep runs
//! are ignored here and listed in the README (`cargo test --release -- --ignored`).

mod common;

use common::{run_suite, suite};
use rookery::chess::Position;
use rookery::chess::perft::{PerftEntry, divide, perft, perft_hashed};
use rookery::hashing::Table;

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

#[test]
fn divide_sums_to_perft_and_is_sorted() {
    let mut pos = Position::startpos();
    let lines = divide(&mut pos, 3, None);
    assert_eq!(lines.len(), 20);
    assert_eq!(lines.iter().map(|(_, n)| n).sum::<u64>(), 8902);
    assert!(lines.windows(2).all(|w| w[0].0 < w[1].0));
    assert_eq!(lines[0], ("a2a3".to_string(), 380));
}

#[test]
#[ignore = "deep: about 7 s in release"]
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
#[ignore = "deep: about 3 s in release, 512 MiB"]
fn hashed_perft_7_from_the_start() {
    let table = Table::<PerftEntry>::new(512).unwrap();
    assert_eq!(
        perft_hashed(&mut Position::startpos(), 7, &table),
        3_195_901_860
    );
}
