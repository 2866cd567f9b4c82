//! The `rookery` binary's tools, driven as a user or script would drive them.

use crate::common;
use common::scratch_dir;

use std::io::Write;

use common::cli::{rookery, stdout};

#[test]
fn perft_divide_format() {
    let out = rookery(&["perft", "2"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 22, "{text}");
    assert_eq!(lines[0], "a2a3: 20");
    assert_eq!(lines[19], "h2h4: 20");
    assert_eq!(lines[20], "");
    assert_eq!(lines[21], "Nodes searched: 400");
    assert!(String::from_utf8_lossy(&out.stderr).contains("nps"));
}

#[test]
fn perft_on_a_fen_given_as_one_or_many_words() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let one = stdout(&rookery(&["perft", "3", fen]));
    assert!(one.ends_with("Nodes searched: 97862\n"), "{one}");
    let mut words = vec!["perft", "3"];
    words.extend(fen.split(' '));
    assert_eq!(stdout(&rookery(&words)), one);
    assert!(one.contains("e1g1: "), "standard castling notation");
    let hashed = stdout(&rookery(&["perft", "3", fen, "--hash", "8"]));
    assert_eq!(hashed, one);
}

#[test]
fn chess960_castling_is_king_takes_rook() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let standard = stdout(&rookery(&["perft", "1", fen]));
    assert!(
        standard.contains("e1g1: 1") && standard.contains("e1c1: 1"),
        "{standard}"
    );
    let chess960 = stdout(&rookery(&["perft", "1", fen, "--chess960"]));
    assert!(
        chess960.contains("e1h1: 1") && chess960.contains("e1a1: 1"),
        "{chess960}"
    );
    assert!(!chess960.contains("e1g1"));
    // A Shredder-FEN position is Chess960 even without the switch.
    let shredder = stdout(&rookery(&["perft", "1", "4k3/8/8/8/8/8/8/6KR w H - 0 1"]));
    assert!(shredder.contains("g1h1: 1"), "{shredder}");
}

#[test]
fn epd_suite_reports_each_position_and_fails_on_a_wrong_count() {
    let mut file = tempfile("suite.epd");
    writeln!(
        file.1,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400"
    )
    .unwrap();
    writeln!(file.1, "8/8/8/8/8/8/8/K6k w - - ;D1 3 ;D2 9").unwrap();
    writeln!(file.1, "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 67").unwrap();
    drop(file.1);
    let out = rookery(&["perft", "--epd", &file.0]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(lines[0].starts_with("ok "));
    assert!(
        lines[2].starts_with("FAIL") && lines[2].contains("D2 expected 67 got 66"),
        "{text}"
    );
    assert_eq!(lines[3], "2 passed, 1 failed");
    let shallow = rookery(&["perft", "--epd", &file.0, "--max-depth", "1"]);
    assert!(shallow.status.success());
    assert!(stdout(&shallow).ends_with("3 passed, 0 failed\n"));
}

#[test]
fn project_suite_passes_through_the_binary() {
    let suite = concat!(env!("CARGO_MANIFEST_DIR"), "/perft/published.epd");
    let out = rookery(&["perft", "--epd", suite, "--max-depth", "3", "--hash", "4"]);
    assert!(out.status.success());
    assert!(stdout(&out).ends_with("6 passed, 0 failed\n"));
}

#[test]
fn hashcheck_counts_nodes_and_reports_no_mismatch() {
    let checked = |args: &[&str]| -> u64 {
        let out = rookery(args);
        assert!(out.status.success());
        let text = stdout(&out);
        let last = text.lines().last().unwrap().to_string();
        last.strip_prefix("nodes checked: ")
            .and_then(|r| r.strip_suffix(", mismatches: 0"))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("unexpected last line: {last}"))
    };
    // The tree to depth 3 from the start: the root, a null move from each of its 1 + 20 +
    // 400 inner nodes (none is in check), and the 20 + 400 + 8,902 nodes of perft 1 to 3
    // (published counts).
    let tree = 1 + (1 + 20 + 400) + (20 + 400 + 8_902);
    assert_eq!(
        checked(&["hashcheck", "--depth", "3", "--games", "0"]),
        tree
    );
    // 20 random games of 10 plies: each checks its root and, per ply, the move and a null
    // move unless in check; a game can end early only by mate or stalemate.
    let with_games = checked(&[
        "hashcheck",
        "--depth",
        "3",
        "--games",
        "20",
        "--seed",
        "5",
        "--plies",
        "10",
    ]);
    assert!(
        (tree + 20 * (1 + 10)..=tree + 20 * (1 + 2 * 10)).contains(&with_games),
        "{with_games}"
    );
}

#[test]
fn version_names_the_commit_and_agrees_with_the_changelog() {
    let out = rookery(&["--version"]);
    assert!(out.status.success());
    let version = stdout(&out);
    assert_eq!(version, format!("{}\n", common::build_name::version_line()));
    assert_ne!(
        env!("CARGO_PKG_VERSION"),
        "0.1.0",
        "a release past the first"
    );
    let changelog = include_str!("../../CHANGELOG.md");
    assert!(
        changelog.contains(&format!("## {} (", env!("CARGO_PKG_VERSION"))),
        "the CHANGELOG has a section for this version"
    );
}

#[test]
fn uci_commands_as_arguments_run_in_turn_then_exit() {
    let out = rookery(&[
        "setoption name Hash value 8",
        "position startpos moves e2e4",
        "go perft 2",
        "bench 2",
        "quit",
        "go perft 3",
    ]);
    assert!(out.status.success());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    // The jobs ran in order, `quit` let the bench give its result; nothing after `quit`.
    // (Searches given as arguments: tests/uci/arguments.rs.)
    let at = |prefix: &str| lines.iter().position(|l| l.starts_with(prefix)).unwrap();
    assert!(at("Nodes searched: 600") < lines.len() - 1, "{text}");
    assert!(lines.last().unwrap().ends_with(" nps"), "{text}");
    assert_eq!(lines.iter().filter(|l| l.starts_with("Nodes")).count(), 1);
}

#[test]
fn a_command_refused_in_argument_mode_stops_there_and_exits_1() {
    for (args, refusal) in [
        (
            &["setoption name EvalFile value missing.nnue", "bench 2"][..],
            "info string EvalFile: 'missing.nnue' refused: ",
        ),
        (
            &["position fen garbage", "go depth 2"],
            "info string invalid FEN 'garbage'",
        ),
        (
            &["uci", "frobnicate", "bench 2"],
            "info string unknown command: frobnicate",
        ),
        (
            &["setoption name Hash value lots", "bench 2"],
            "info string ",
        ),
    ] {
        let out = rookery(args);
        let text = stdout(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {text}");
        // The refusal is the last word: nothing after it ran.
        let last = text.lines().last().unwrap_or("");
        assert!(last.starts_with(refusal), "{args:?}: {text}");
        assert!(
            !text.contains(" nps") && !text.contains("bestmove"),
            "{args:?}: {text}"
        );
    }
}

#[test]
fn a_byte_order_mark_before_the_first_argument_is_skipped() {
    let out = rookery(&["\u{feff}uci", "quit"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(stdout(&out).lines().last(), Some("uciok"));
}

#[test]
fn bad_command_lines_exit_2_with_a_message() {
    for args in [
        &["perft", "x"][..],
        &["perft", "2", "not a fen"],
        &["perft", "--epd", "/nonexistent.epd"],
        &["perft", "2", "--hash"],
        &["hashcheck", "--games", "-1"],
        &["frobnicate"],
    ] {
        let out = rookery(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?} explains itself");
    }
}

/// A file in the target directory for one test (removed when the test ends).
fn tempfile(name: &str) -> (String, std::fs::File) {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join(format!("{}-{name}", std::process::id()));
    let file = std::fs::File::create(&path).unwrap();
    (path.to_string_lossy().into_owned(), file)
}

#[test]
fn bad_input_to_every_tool_exits_2_and_changes_no_file() {
    let dir = scratch_dir("sweep");
    let path = |name: &str| dir.join(name).to_string_lossy().into_owned();
    std::fs::write(path("empty.epd"), "").unwrap();
    std::fs::write(path("no-counts.epd"), "4k3/8/8/8/8/8/8/4K2R w K - 0 1\n").unwrap();
    std::fs::write(path("garbage.epd"), "this is no position ;D1 3\n").unwrap();
    std::fs::write(path("garbage.nnue"), "RKNN and then nothing").unwrap();
    // A little real training data.
    let made = rookery(&[
        "datagen",
        "--out",
        &path("data"),
        "--games",
        "2",
        "--nodes",
        "100",
    ]);
    assert!(made.status.success());
    let data = path("data/selfplay.games");
    let before: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .chain([std::path::PathBuf::from(&data)])
        .filter(|p| p.is_file())
        .map(|p| (p.to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
        .collect();
    let missing = path("missing/net.nnue");
    let net = path("net.nnue");
    let words = |list: &[&str]| -> Vec<String> { list.iter().map(|w| w.to_string()).collect() };
    let cases: Vec<Vec<String>> = vec![
        // Missing, empty, garbage and truncated inputs.
        words(&["perft", "--epd", &path("empty.epd")]),
        words(&["perft", "--epd", &path("no-counts.epd")]),
        words(&["perft", "--epd", &path("garbage.epd")]),
        words(&["perft", "--epd", &path("nowhere.epd")]),
        words(&["hashcheck", "--epd", &path("empty.epd")]),
        words(&["hashstats", "chess", "--epd", &path("empty.epd")]),
        words(&["book", &path("empty.epd")]),
        words(&[
            "datagen",
            "--out",
            &path("d2"),
            "--net",
            &path("garbage.nnue"),
        ]),
        words(&[
            "datagen",
            "--out",
            &path("d3"),
            "--book",
            &path("empty.epd"),
        ]),
        words(&["train", &path("empty.epd"), "--out", &net]),
        words(&["train", &path("nowhere"), "--out", &net]),
        // Absurd numbers.
        words(&["bench", "0"]),
        words(&["bench", "99"]),
        words(&["bench", "x"]),
        words(&["perft", "99"]),
        words(&["perft", "-1"]),
        words(&["perft", "--epd", &path("no-counts.epd"), "--max-depth", "0"]),
        words(&["hashstats", "gomoku", "--games", "0"]),
        words(&["hashstats", "hive", "--games", "0"]),
        words(&[
            "datagen",
            "--out",
            &path("d4"),
            "--nodes",
            "0",
            "--games",
            "1",
        ]),
        words(&["train", &data, "--out", &net, "--lr", "nan"]),
        words(&["train", &data, "--out", &net, "--lr", "-1"]),
        words(&["train", &data, "--out", &net, "--wdl", "nan"]),
        words(&["train", &data, "--out", &net, "--wdl", "2"]),
        words(&["train", &data, "--out", &net, "--weight-decay", "-0.1"]),
        words(&["train", &data, "--out", &net, "--weight-decay", "1"]),
        words(&["train", &data, "--out", &net, "--weight-decay", "nan"]),
        words(&["train", &data, "--out", &net, "--val", "nan"]),
        words(&["train", &data, "--out", &net, "--val", "0.9"]),
        // Outputs that would overwrite an input, or cannot be written.
        words(&["train", &data, "--out", &data]),
        words(&["train", &path("data"), "--out", &data]),
        words(&["train", &data, "--out", &missing]),
        words(&["datagen", "--out", &data]),
    ];
    for args in &cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = rookery(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(!stderr.trim().is_empty(), "{args:?} explains itself");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    for (file, bytes) in &before {
        assert_eq!(&std::fs::read(file).unwrap(), bytes, "{file} changed");
    }
    assert!(!std::path::Path::new(&net).exists(), "no net written");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn perft_epd_keeps_to_the_depth_cap_of_single_perft() {
    let (path, mut file) = tempfile("deep.epd");
    // A count at depth 13 (past the cap of 12) beside one that is cheap to check.
    writeln!(file, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 5 ;D13 1").unwrap();
    drop(file);
    for args in [
        &["perft", "--epd", &path][..],
        &["perft", "--epd", &path, "--max-depth", "13"],
    ] {
        let out = rookery(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("12"), "{args:?} names the cap: {stderr}");
    }
    // Limited to the cap or below, the suite is checked.
    let out = rookery(&["perft", "--epd", &path, "--max-depth", "1"]);
    assert!(out.status.success());
    assert!(
        stdout(&out).ends_with("1 passed, 0 failed\n"),
        "{}",
        stdout(&out)
    );
    std::fs::remove_file(&path).unwrap();
}
