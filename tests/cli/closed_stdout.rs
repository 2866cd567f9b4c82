//! Every tool whose standard output is closed by its reader (`rookery data DIR | head -1`)
//! stops quietly: no panic, nothing on stderr but its own progress, exit status 141 (what a
//! shell reports for a program that SIGPIPE stopped).

use crate::common;

use common::cli::{Closed, rookery_closed};

/// The status of a tool that found its output closed.
const CLOSED: i32 = 141;

#[test]
fn a_closed_stdout_ends_every_tool_quietly() {
    let dir = common::scratch_dir("closed-stdout");
    let path = |name: &str| dir.join(name).display().to_string();
    let made = common::cli::rookery(&[
        "datagen",
        "--out",
        &path("data"),
        "--games",
        "2",
        "--nodes",
        "100",
        "--hce",
    ]);
    assert!(made.status.success(), "{made:?}");
    let book = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/fixture.bin");
    let data = path("data");
    let games = path("data/selfplay.games");
    let net = path("net.nnue");
    let runs: Vec<Vec<&str>> = vec![
        vec!["--version"],
        vec!["help"],
        vec!["perft", "2"],
        vec!["bench", "1"],
        vec!["book", book],
        vec!["hashcheck", "--depth", "1", "--games", "1"],
        vec!["hash", "gomoku", "--size", "15", "7,7"],
        vec!["data", &data, &games],
        vec![
            "datagen", "--out", &data, "--games", "3", "--nodes", "50", "--hce",
        ],
        vec!["train", &games, "--out", &net, "--epochs", "1"],
    ];
    for args in runs {
        let run = rookery_closed(Closed::Stdout, &args);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(!stderr.contains("Broken pipe"), "{args:?}: {stderr}");
        assert_eq!(run.status.code(), Some(CLOSED), "{args:?}: {stderr}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
