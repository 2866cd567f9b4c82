//! UCI commands given as arguments, read as the lines of standard input are: a search runs
//! while the arguments after it are read, so `stop` and `ponderhit` reach it; after the last
//! one the engine ends as at the end of input, letting a search that ends by itself finish.
//! And `quit` on standard input after a job (`bench`, `go perft`) lets it give its result.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::uci_client::{Engine, WAIT, check_answer, info_value};
use rookery::chess::Position;

/// What a run of `rookery ARGS...` printed and how it exited; `None` when it was still
/// running after `within` (it is killed then).
fn run_within(args: &[&str], within: Duration) -> Option<(Option<i32>, String)> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rookery"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        text
    });
    let deadline = Instant::now() + within;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let text = reader.join().unwrap();
    status.map(|status| (status.code(), text))
}

/// The depth of the last `info depth` line of `text`.
fn last_depth(text: &str) -> Option<i64> {
    let last = text.lines().rev().find(|l| l.starts_with("info depth"))?;
    info_value(last, "depth")
}

/// The `bestmove` lines of `text`.
fn bestmoves(text: &str) -> Vec<&str> {
    text.lines().filter(|l| l.starts_with("bestmove")).collect()
}

#[test]
fn stop_and_ponderhit_given_as_arguments_reach_the_search() {
    for args in [
        &["go infinite", "stop"][..],
        &["go ponder", "ponderhit"],
        &[
            "position startpos moves e2e4",
            "go ponder movetime 600000",
            "stop",
        ],
        &["go depth 99", "stop"],
        // Nothing ends these but the end of the arguments.
        &["go infinite"],
        &["go ponder wtime 600000 btime 600000"],
        &["go"],
        // `quit` stops a search at once, as on standard input.
        &["go depth 99", "quit"],
    ] {
        let (code, text) = run_within(args, WAIT)
            .unwrap_or_else(|| panic!("{args:?} still running after {WAIT:?}"));
        assert_eq!(code, Some(0), "{args:?}: {text}");
        assert_eq!(bestmoves(&text).len(), 1, "{args:?}: {text}");
    }
}

#[test]
fn a_search_that_ends_by_itself_is_let_finish_after_the_last_argument() {
    let (code, text) = run_within(&["position startpos moves e2e4", "go depth 7"], WAIT)
        .expect("a depth 7 search ends");
    assert_eq!(code, Some(0), "{text}");
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    let pos = Position::from_fen(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        false,
    )
    .unwrap();
    check_answer(&pos, &lines);
    assert_eq!(last_depth(&text), Some(7), "{text}");
    // After its `ponderhit` a ponder search with a limit ends by itself too.
    let (code, text) = run_within(&["go ponder depth 6", "ponderhit"], WAIT).expect("it ends");
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(last_depth(&text), Some(6), "{text}");
    // A second `go` stops the first, which answers first, as on standard input.
    let (code, text) = run_within(&["go infinite", "go depth 3"], WAIT).expect("it ends");
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(bestmoves(&text).len(), 2, "{text}");
}

#[test]
fn quit_on_standard_input_lets_bench_and_perft_give_their_results() {
    // As Stockfish: a script that pipes `bench` and `quit` reads the signature, the same
    // as the bench tool's.
    let tool = run_within(&["bench", "5"], WAIT).expect("the bench tool ends");
    let signature = tool
        .1
        .lines()
        .last()
        .unwrap()
        .split(" nodes")
        .next()
        .unwrap()
        .to_string();
    let mut e = Engine::start();
    e.send("bench 5");
    e.send("quit");
    let lines = e.until(WAIT, |l| l.ends_with(" nps"));
    assert!(
        lines
            .last()
            .unwrap()
            .starts_with(&format!("{signature} nodes ")),
        "{lines:#?}"
    );
    assert!(!lines.iter().any(|l| l.contains("stopped")), "{lines:#?}");
    assert!(e.wait_exit(WAIT).is_some_and(|s| s.success()));
    // Perfts, in order, the same.
    let mut e = Engine::start();
    e.send("go perft 4");
    e.send("go perft 3");
    e.send("quit");
    let lines = e.until(WAIT, |l| l == "Nodes searched: 8902");
    let totals: Vec<&String> = lines.iter().filter(|l| l.starts_with("Nodes")).collect();
    assert_eq!(totals, ["Nodes searched: 197281", "Nodes searched: 8902"]);
    assert!(e.wait_exit(WAIT).is_some_and(|s| s.success()));
    // `quit` during a search still ends it at once, with its answer.
    let mut e = Engine::start();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    let start = Instant::now();
    e.send("quit");
    e.until(WAIT, |l| l.starts_with("bestmove"));
    assert!(e.wait_exit(WAIT).is_some_and(|s| s.success()));
    assert!(
        start.elapsed() < Duration::from_millis(500),
        "quit took {:?}",
        start.elapsed()
    );
}
