//! Tunables through the real binary. A `tune` build (`cargo test --release --features
//! tune --test tune`) lists every tunable as a UCI spin option, a `setoption` changes the
//! search that follows, an out-of-range value is refused with an `info string`, and
//! `rookery spsa` prints OpenBench's SPSA input for each. The ordinary build lists none
//! and `rookery spsa` refuses with exit status 2.

mod common;

use common::cli::{rookery, stdout};

/// The tunables' names as the UCI handshake lists them: spin options in lower case with
/// an underscore (the standard options are capitalised words).
fn listed_tunables() -> Vec<String> {
    let out = rookery(&["uci", "quit"]);
    stdout(&out)
        .lines()
        .filter_map(|l| l.strip_prefix("option name "))
        .filter(|l| l.contains(" type spin "))
        .map(|l| l.split(' ').next().unwrap().to_string())
        .filter(|name| name.contains('_') && name.chars().all(|c| !c.is_ascii_uppercase()))
        .collect()
}

/// The node count `bench 6` reports after `commands`, and everything printed. The
/// commands go to the engine's standard input, as a GUI sends them, so that a refused one
/// is answered and the session goes on (argument mode would stop at it); the end of input
/// waits for the bench's result.
#[cfg(feature = "tune")]
fn bench_after(commands: &[&str]) -> (u64, String) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_rookery"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut input = child.stdin.take().expect("a piped stdin");
    for command in commands.iter().chain(&["bench 6"]) {
        writeln!(input, "{command}").expect("the engine reads its input");
    }
    drop(input);
    let text = stdout(&child.wait_with_output().expect("the engine exits"));
    let nodes = text
        .lines()
        .rev()
        .find_map(|l| l.strip_suffix(" nps").and(l.split(' ').next()))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no bench line in:\n{text}"));
    (nodes, text)
}

#[cfg(feature = "tune")]
mod tune_build {
    use super::*;
    use common::uci_client::{Engine, check_answer};
    use rookery::chess::Position;

    #[test]
    fn every_tunable_is_a_spin_option_and_an_spsa_line() {
        let listed = listed_tunables();
        assert!(listed.len() >= 30, "{} tunables listed", listed.len());
        let out = rookery(&["spsa"]);
        assert!(out.status.success());
        let lines: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
        assert_eq!(lines.len(), listed.len());
        for (line, name) in lines.iter().zip(&listed) {
            let fields: Vec<&str> = line.split(", ").collect();
            assert_eq!(fields.len(), 7, "{line}");
            assert_eq!((fields[0], fields[1]), (name.as_str(), "int"), "{line}");
            let numbers: Vec<f64> = fields[2..].iter().map(|f| f.parse().unwrap()).collect();
            let (default, min, max, c_end) = (numbers[0], numbers[1], numbers[2], numbers[3]);
            assert!(min <= default && default <= max && c_end > 0.0, "{line}");
        }
    }

    #[test]
    fn setting_a_tunable_changes_the_search() {
        let (plain, _) = bench_after(&[]);
        let (wider, text) = bench_after(&["setoption name rfp_margin value 150"]);
        assert!(!text.contains("info string"), "{text}");
        assert_ne!(plain, wider);
        // Back at the default, the same search again.
        let (again, _) = bench_after(&[
            "setoption name rfp_margin value 150",
            "setoption name rfp_margin value 75",
        ]);
        assert_eq!(plain, again);
    }

    #[test]
    fn an_out_of_range_value_is_refused_and_the_old_value_stays() {
        let (plain, _) = bench_after(&[]);
        for bad in ["151", "29", "-5", "lots"] {
            let (nodes, text) = bench_after(&[&format!("setoption name rfp_margin value {bad}")]);
            assert!(
                text.contains("info string option rfp_margin: value must be"),
                "{bad}: {text}"
            );
            assert_eq!(nodes, plain, "{bad}");
        }
        // A negative value inside its range is accepted.
        let (_, text) = bench_after(&["setoption name qs_see_threshold value -50"]);
        assert!(!text.contains("info string"), "{text}");
    }

    /// Every tunable at the low end of its range, then every one at the high end: each
    /// `go nodes` still ends in a legal `bestmove` after a scored line. An SPSA run may
    /// try any value in range; with all at their minimum, late move reductions once asked
    /// for a negative depth at depth 1 and the search thread panicked, leaving no answer.
    #[test]
    fn the_search_answers_with_every_tunable_at_either_end_of_its_range() {
        let spsa = stdout(&rookery(&["spsa"]));
        let ranges: Vec<(&str, &str, &str)> = spsa
            .lines()
            .map(|line| {
                let fields: Vec<&str> = line.split(", ").collect();
                (fields[0], fields[3], fields[4])
            })
            .collect();
        assert!(ranges.len() >= 30, "{spsa}");
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bq1rk1/pp1nbppp/4pn2/3p4/2Pp1B2/2N1PN2/PPQ2PPP/3RKB1R w K - 0 9",
            "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 0 1",
        ];
        for low in [true, false] {
            let mut engine = Engine::start();
            for (name, min, max) in &ranges {
                let value = if low { min } else { max };
                engine.send(&format!("setoption name {name} value {value}"));
            }
            engine.ready();
            for fen in fens {
                engine.send(&format!("position fen {fen}"));
                let lines = engine.go("nodes 20000");
                assert!(
                    !lines.iter().any(|l| l.starts_with("info string")),
                    "low end {low}: {lines:#?}"
                );
                let pos = Position::from_fen(fen, false).unwrap();
                check_answer(&pos, &lines);
            }
        }
    }
}

#[cfg(not(feature = "tune"))]
mod ordinary_build {
    use super::*;

    #[test]
    fn lists_no_tunable_and_refuses_spsa() {
        assert_eq!(listed_tunables(), Vec::<String>::new());
        let out = rookery(&["spsa"]);
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains("tune"));
        // The option is unknown: refused, and the run stops there with a failure.
        let out = rookery(&["setoption name rfp_margin value 150", "bench 6"]);
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(
            stdout(&out).trim_end(),
            "info string unknown option: rfp_margin"
        );
    }
}
