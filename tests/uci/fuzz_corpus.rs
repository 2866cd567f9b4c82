//! The fuzzers' corpora replayed as regression tests: every input the fuzz targets in
//! `fuzz/` found interesting (minimized with `cargo fuzz cmin`) is kept where `cargo fuzz`
//! looks for it, `fuzz/corpus/<target>/`, and must still pass the same harness, which lives
//! beside the targets in `fuzz/harness.rs`. The named seeds (the hand-written `seedNN`
//! inputs, and the `leak-` and `oom-` inputs of defects the fuzzer found) must stay in it.

use std::path::PathBuf;

#[path = "../../fuzz/harness.rs"]
mod harness;

/// Runs `check` on every file of one target's corpus; returns the names of the files it
/// ran.
fn replay(target: &str, check: fn(&[u8])) -> Vec<String> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
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
    files
        .iter()
        .map(|file| file.file_name().unwrap().to_string_lossy().into_owned())
        .collect()
}

/// Whether every one of `named` was replayed.
fn replayed_all(replayed: &[String], named: &[&str]) -> bool {
    named
        .iter()
        .all(|name| replayed.iter().any(|file| file == name))
}

#[test]
fn uci_line_corpus() {
    let replayed = replay("uci_line", harness::command_line);
    assert!(replayed.len() >= 10);
    let seeds: Vec<String> = (0..14).map(|i| format!("seed{i:02}")).collect();
    let seeds: Vec<&str> = seeds.iter().map(String::as_str).collect();
    assert!(replayed_all(&replayed, &seeds), "a named seed is missing");
}

#[test]
fn uci_session_corpus() {
    let replayed = replay("uci_session", harness::session);
    assert!(replayed.len() >= 5);
    let named = [
        "seed00",
        "seed01",
        "seed02",
        "seed03",
        "seed04",
        "seed05",
        "leak-48aceeae6900b650426a6a6a945923ee9589167d",
        "oom-e30fab5a591c5a6453942d1cb8260278e83a963b",
    ];
    assert!(replayed_all(&replayed, &named), "a named seed is missing");
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
