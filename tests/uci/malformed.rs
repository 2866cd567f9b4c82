//! Malformed input sent to the real binary: after every bad command the engine reports it
//! (an `info string`) or ignores it as Stockfish would, still answers `isready`, and a
//! normal search from its current position returns a legal move.

use crate::common;

use std::time::{Duration, Instant};

use common::uci_client::{Engine, WAIT, check_answer};
use rookery::chess::Position;

/// The engine answers `isready`, shows its position with `d`, and searches it legally.
fn assert_usable(e: &mut Engine, context: &str) {
    e.ready();
    e.send("d");
    let lines = e.until(WAIT, |l| l.starts_with("Checkers"));
    let fen = lines
        .iter()
        .find_map(|l| l.strip_prefix("Fen: "))
        .unwrap_or_else(|| panic!("{context}: no Fen line in {lines:#?}"))
        .to_string();
    let pos = Position::from_fen(&fen, true)
        .unwrap_or_else(|err| panic!("{context}: the engine's own FEN {fen}: {err}"));
    let lines = e.go("depth 3");
    let (best, _) = check_answer(&pos, &lines);
    assert_eq!(best == "(none)", pos.legal_moves().is_empty(), "{context}");
}

/// Sends `line` and returns everything printed before the following `readyok`.
fn reply_to(e: &mut Engine, line: &str) -> Vec<String> {
    e.send(line);
    e.send("isready");
    let mut lines = e.until(WAIT, |l| l == "readyok");
    lines.pop();
    lines
}

fn assert_reported(e: &mut Engine, line: &str) {
    let lines = reply_to(e, line);
    assert!(
        lines.iter().any(|l| l.starts_with("info string")),
        "no info string for {line:?}: {lines:#?}"
    );
    assert_usable(e, line);
}

/// The position the engine holds, as a FEN.
fn current_fen(e: &mut Engine) -> String {
    e.send("d");
    let lines = e.until(WAIT, |l| l.starts_with("Checkers"));
    lines
        .iter()
        .find_map(|l| l.strip_prefix("Fen: "))
        .expect("a Fen line")
        .to_string()
}

#[test]
fn truncated_and_garbage_commands() {
    let mut e = Engine::start();
    for line in [
        "posit",
        "position",
        "position fen",
        "position fen moves e2e4",
        "position startpos e2e4",
        "position startpos moves e2e4 x",
        "setoption",
        "setoption name",
        "setoption Hash value 32",
        "setoption name Hash value",
        "go perft",
        "go perft -1",
        "go perft 99",
        "bench x",
        "bench 0",
        "%$#@!",
        "\u{1F600} \u{0}\u{7}",
        "ísready",
    ] {
        assert_reported(&mut e, line);
    }
    // Bytes that are not UTF-8 at all.
    e.send_raw(b"\xff\xfe\x00\x80garbage\xc3\n");
    assert_usable(&mut e, "invalid UTF-8");
}

#[test]
fn impossible_positions_are_refused_and_the_old_one_kept() {
    let mut e = Engine::start();
    e.send("position startpos moves d2d4");
    let before = current_fen(&mut e);
    for fen in [
        "8/8/8/8/8/8/8/8 w - - 0 1",                                // empty board
        "8/8/8/8/8/8/8/4K3 w - - 0 1",                              // no black king
        "4k3/8/8/8/8/8/8/3KK3 w - - 0 1",                           // two white kings
        "4k3/8/8/8/8/8/PPPPPPPP/QQQQKQQQ w - - 0 1",                // too many pieces
        "4k3/8/8/8/8/8/PPPPPPPP/PPPPKPPP w - - 0 1",                // 15 pawns
        "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",                           // pawn on the back rank
        "4k3/8/8/8/8/8/8/p3K3 w - - 0 1",                           // black pawn on rank 1
        "4k3/8/8/8/8/8/8/4K2R b - - 0 1",                           // valid: control below
        "4k2R/8/8/8/8/8/8/4K3 w - - 0 1",                           // side not to move in check
        "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1",                         // castling without rooks
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w XYkq - 0 1", // castling garbage
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1", // ep garbage
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", // seven ranks
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1", // nine ranks
        "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", // nine files
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
        "rnbqkbnr",
    ] {
        let line = format!("position fen {fen}");
        if fen == "4k3/8/8/8/8/8/8/4K2R b - - 0 1" {
            // A legal position is accepted: the control that the others are refused for cause.
            assert!(reply_to(&mut e, &line).is_empty(), "{line}");
            assert_eq!(current_fen(&mut e), fen);
            e.send("position startpos moves d2d4");
            continue;
        }
        assert_reported(&mut e, &line);
        assert_eq!(current_fen(&mut e), before, "{line} changed the position");
    }
}

#[test]
fn odd_but_playable_fields_are_accepted() {
    let mut e = Engine::start();
    for (fen, shown) in [
        // An en-passant square no pawn can use: ignored, as Stockfish does.
        (
            "4k3/8/8/8/8/8/8/4K3 w - e6 0 1",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        ),
        // Past the fifty-move limit the game is not over until someone claims: still search.
        (
            "7k/8/8/8/8/8/8/K5R1 w - - 150 200",
            "7k/8/8/8/8/8/8/K5R1 w - - 150 200",
        ),
        // Counters too large for 32 bits saturate, as shakmaty reads them.
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 99999999999 99999999999",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 4294967295 4294967295",
        ),
        // Three checkers cannot arise in a game, but the position is playable.
        (
            "4k3/8/3N1N2/8/8/8/8/K3R3 b - - 0 1",
            "4k3/8/3N1N2/8/8/8/8/K3R3 b - - 0 1",
        ),
    ] {
        assert!(reply_to(&mut e, &format!("position fen {fen}")).is_empty());
        assert_eq!(current_fen(&mut e), shown);
        assert_usable(&mut e, fen);
    }
}

#[test]
fn illegal_and_malformed_moves_are_refused() {
    let mut e = Engine::start();
    e.send("position startpos moves g1f3");
    let before = current_fen(&mut e);
    for moves in [
        "e2e5",
        "e2e4 e2e4",
        "E2E4",
        "e2e4e5",
        "e2",
        "e2-e4",
        "0000",
        "e1g1",
        "e7e8q",
        "a2a4 h7h5 a4a5 h5h4 a5a6 h4h3 a6b7 h3g2 b7a8k",
        "e2e4 e7e5 e1e2 e8e7 e2e1 e7e8 e1g1",
        "z9z9",
        "e2e4\u{0}",
    ] {
        assert_reported(&mut e, &format!("position startpos moves {moves}"));
        assert_eq!(current_fen(&mut e), before, "{moves} changed the position");
    }
}

#[test]
fn go_with_zero_negative_and_enormous_numbers() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4 c7c5");
    let mut pos = Position::startpos();
    pos.push_uci("e2e4").unwrap();
    pos.push_uci("c7c5").unwrap();
    // Each of these must answer at once (at most a depth-1 or tiny-budget search).
    for args in [
        "wtime 0 btime 0",
        "wtime -1000 btime -1000 winc -5 binc -5",
        "wtime 1 btime 1 movestogo 0",
        "wtime 1 btime 1 movestogo -3",
        "wtime 1 btime 1 movestogo 99999999999999",
        "wtime 1 winc 1",
        "movetime 0",
        "movetime -1",
        "depth 0",
        "depth -7",
        "depth 1",
        "nodes 0",
        "nodes -1",
        "nodes 1",
        "mate 0 depth 2",
        "mate -1 depth 2",
        "depth 2 searchmoves",
        "depth 2 searchmoves e7e5 zz",
        "wtime 1 btime 9223372036854775807",
    ] {
        let asked = Instant::now();
        let lines = e.go(args);
        assert!(
            asked.elapsed() < Duration::from_secs(2),
            "go {args}: {:?}",
            asked.elapsed()
        );
        check_answer(&pos, &lines);
        e.ready();
    }
    // Budgets too large to mean anything: the search runs until stopped, then answers.
    for args in [
        "wtime 9223372036854775807 btime 9223372036854775807 winc 9223372036854775807",
        "movetime 9223372036854775807",
        "depth 99999999999999999999999",
        "nodes 18446744073709551615",
        "mate 99999999999999",
        "wtime 99999999999999999999999",
    ] {
        e.send(&format!("go {args}"));
        std::thread::sleep(Duration::from_millis(50));
        e.send("isready");
        e.until(WAIT, |l| l == "readyok");
        e.send("stop");
        let lines = e.until(WAIT, |l| l.starts_with("bestmove"));
        check_answer(&pos, &lines);
    }
    assert_usable(&mut e, "after the go tests");
}

#[test]
fn setoption_values_out_of_range_or_not_numbers() {
    let mut e = Engine::start();
    for line in [
        "setoption name Hash value 0",
        "setoption name Hash value -1",
        "setoption name Hash value 99999999999999999999",
        "setoption name Hash value 1e3",
        "setoption name Hash value 16MB",
        "setoption name Threads value 0",
        "setoption name Threads value 100000",
        "setoption name Threads value two",
        "setoption name MultiPV value 0",
        "setoption name MultiPV value 257",
        "setoption name Move Overhead value -5",
        "setoption name Move Overhead value 999999",
        "setoption name Ponder value maybe",
        "setoption name UCI_Chess960 value 1",
        "setoption name value 3",
        "setoption name Hash value11118",
        "setoption nameHash value 8",
        "setoption name Hash valu 8",
        "setoption name Nonexistent value 3",
    ] {
        assert_reported(&mut e, line);
    }
    // Option names are case-insensitive, as in Stockfish.
    assert!(reply_to(&mut e, "setoption name hash value 8").is_empty());
    assert!(reply_to(&mut e, "setoption name THREADS value 2").is_empty());
    assert_usable(&mut e, "after setoption");
}

#[test]
fn very_long_empty_and_windows_lines() {
    let mut e = Engine::start();
    // Empty and blank lines are ignored.
    for line in ["", "   ", "\t", " \t \r"] {
        assert!(reply_to(&mut e, line).is_empty(), "{line:?}");
    }
    // A megabyte of garbage on one line.
    assert_reported(&mut e, &"x".repeat(1 << 20));
    // 100,000 plies of knight shuffles in one `position` line.
    let shuffle = "g1f3 g8f6 f3g1 f6g8 ".repeat(25_000);
    assert!(reply_to(&mut e, &format!("position startpos moves {shuffle}")).is_empty());
    assert_eq!(
        current_fen(&mut e),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 100000 50001"
    );
    assert_usable(&mut e, "after 100,000 plies");
    // Windows line endings, and tabs between words.
    e.send_raw(b"position\tstartpos  moves e2e4\r\nisready\r\n");
    e.until(WAIT, |l| l == "readyok");
    assert!(current_fen(&mut e).starts_with("rnbqkbnr/pppppppp/8/8/4P3/"));
    e.send_raw(b"go depth 2\r\n");
    let lines = e.until(WAIT, |l| l.starts_with("bestmove"));
    let mut pos = Position::startpos();
    pos.push_uci("e2e4").unwrap();
    check_answer(&pos, &lines);
    // A line without its newline at the end of a write is completed by the next write.
    e.send_raw(b"isre");
    std::thread::sleep(Duration::from_millis(50));
    e.send_raw(b"ady\n");
    e.until(WAIT, |l| l == "readyok");
}

#[test]
fn commands_during_a_search_get_one_bestmove_per_go() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    for line in [
        "isready",
        "position startpos moves e2e4",
        "setoption name Hash value 32",
        "ucinewgame",
        "go perft 3",
        "bench 1",
        "uci",
        "debug on",
        "ponderhit",
        "d",
        "eval",
        "garbage",
    ] {
        e.send(line);
    }
    e.send("isready");
    let lines = e.until(WAIT, |l| l == "readyok");
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:#?}"
    );
    // A second `go` ends the first search (one bestmove), then starts its own.
    e.send("go depth 2");
    let first = e.until(WAIT, |l| l.starts_with("bestmove"));
    let second = e.until(WAIT, |l| l.starts_with("bestmove"));
    check_answer(&Position::startpos(), &first);
    // `position` during the first search applied to the second.
    let mut pos = Position::startpos();
    pos.push_uci("e2e4").unwrap();
    check_answer(&pos, &second);
    e.send("stop");
    assert!(e.quiet_for(Duration::from_millis(200)).is_empty());
    assert_usable(&mut e, "after commands during search");
}

#[test]
fn stop_before_go_and_many_go_stop_cycles_with_threads() {
    let mut e = Engine::start();
    // `stop` with no search running is ignored.
    assert!(reply_to(&mut e, "stop").is_empty());
    assert!(reply_to(&mut e, "ponderhit").is_empty());
    e.send("setoption name Threads value 3");
    e.send("setoption name Hash value 8");
    let mut pos = Position::startpos();
    for cycle in 0..200 {
        // `stop` in the same write as `go`: it can arrive before the search has started.
        e.send_raw(b"go infinite\nstop\n");
        let lines = e.until(WAIT, |l| l.starts_with("bestmove"));
        let (mv, _) = check_answer(&pos, &lines);
        if cycle % 20 == 19 {
            // Change the position, the threads and the table between searches.
            pos.push_uci(&mv).unwrap();
            e.send(&format!("position fen {} ", pos.fen()));
            e.send(&format!("setoption name Threads value {}", 1 + cycle % 4));
            e.send(&format!("setoption name Hash value {}", 1 << (cycle % 5)));
        }
    }
    assert!(e.quiet_for(Duration::from_millis(100)).is_empty());
    assert_usable(&mut e, "after go/stop cycles");
}

#[test]
fn end_of_input_during_a_search_answers_and_exits() {
    let mut e = Engine::start();
    e.send("setoption name Threads value 2");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.close_input();
    let lines = e.until(WAIT, |l| l.starts_with("bestmove"));
    check_answer(&Position::startpos(), &lines);
    let status = e
        .wait_exit(Duration::from_secs(5))
        .expect("the engine exits");
    assert!(status.success(), "{status:?}");
}

// Which answer is right is read from `/proc/meminfo`, as the engine reads it: Linux only.
#[cfg(target_os = "linux")]
#[test]
fn hash_at_the_maximum_is_allocated_or_refused_cleanly() {
    let mut e = Engine::start();
    e.send("setoption name Hash value 4");
    // 64 GiB: refused on any machine without that much memory available, allocated
    // otherwise. Which one is decided here from the same figure the engine reads.
    let available_mib = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|info| {
            let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
            line.split_whitespace().nth(1)?.parse::<u64>().ok()
        })
        .map(|kib| kib / 1024);
    let lines = reply_to(&mut e, "setoption name Hash value 65536");
    match available_mib {
        Some(mib) if mib < 65_536 => {
            assert_eq!(lines.len(), 1, "one refusal: {lines:#?}");
            assert!(
                lines[0].starts_with("info string Hash 65536 MiB refused: only ")
                    && lines[0].ends_with("MiB of memory available; keeping 4 MiB"),
                "{lines:#?}"
            );
        }
        // Enough memory: allocated (or, if the allocation itself fails, refused with the
        // old table kept); never silently ignored.
        _ => assert!(
            lines.is_empty() || lines[0].contains("keeping 4 MiB"),
            "{lines:#?}"
        ),
    }
    assert_usable(&mut e, "after Hash 65536");
}
