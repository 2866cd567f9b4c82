//! The fuzzers' corpora replayed as regression tests: every input the fuzz targets in
//! `fuzz/` found interesting (minimized with `cargo fuzz cmin`) is kept in
//! `tests/fuzz_corpus/<target>/` and must still pass the same harness, which lives beside
//! the targets in `fuzz/harness.rs`.

use std::path::PathBuf;

#[path = "../fuzz/harness.rs"]
mod harness;

/// Runs `check` on every file of one target's corpus; returns how many it ran.
fn replay(target: &str, check: fn(&[u8])) -> usize {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fuzz_corpus")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    files.sort();
    for file in &files {
        let data = std::fs::read(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        eprintln!("{}", file.display());
        check(&data);
    }
    files.len()
}

#[test]
fn uci_line_corpus() {
    assert!(replay("uci_line", harness::command_line) >= 10);
}

#[test]
fn uci_session_corpus() {
    assert!(replay("uci_session", harness::session) >= 5);
}

#[test]
fn sessions_never_name_a_file() {
    for option in [
        "Debug Log File",
        "BookFile",
        "SyzygyPath",
        "EvalFile",
        "evalfile",
    ] {
        let line = format!("setoption name {option} value /etc/passwd");
        assert_eq!(harness::tame(&line), None, "{line}");
    }
    assert!(harness::tame("setoption name Hash value 100000").is_some());
}
