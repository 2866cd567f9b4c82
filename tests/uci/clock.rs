//! Clocks on the real binary: the time from writing `go` to reading `bestmove` stays inside
//! the budget the time manager computes for the same clocks (plus a stated slack for
//! process start-up of the search thread and scheduling under parallel tests); after
//! `ponderhit` the budget counts from the ponderhit; `Move Overhead` is kept back. Lower
//! bounds are exact (a loaded machine only makes the engine slower); upper bounds carry
//! `SLACK`.

use crate::common;

use std::time::{Duration, Instant};

use common::uci_client::{Engine, SLACK, WAIT, check_answer};
use rookery::chess::Position;
use rookery::engine::Limits;
use rookery::engine::timeman::TimeManager;
use shakmaty::{ByColor, Color};

const OVERHEAD: Duration = Duration::from_millis(10);

const MIDDLEGAME: &str = "r1bq1rk1/pp2ppbp/n5p1/2Pn4/8/5NP1/PP2PPBP/RNBQ1RK1 w - - 1 9";

fn limits(clocks: [u64; 2], incs: [u64; 2]) -> Limits {
    Limits {
        time: ByColor {
            white: Some(Duration::from_millis(clocks[0])),
            black: Some(Duration::from_millis(clocks[1])),
        },
        inc: ByColor {
            white: Duration::from_millis(incs[0]),
            black: Duration::from_millis(incs[1]),
        },
        ..Limits::default()
    }
}

/// Times one `go` and checks its answer.
fn timed_go(e: &mut Engine, pos: &Position, args: &str) -> (Duration, String) {
    let start = Instant::now();
    let lines = e.go(args);
    let elapsed = start.elapsed();
    let (best, _) = check_answer(pos, &lines);
    (elapsed, best)
}

#[test]
fn a_game_at_small_and_unequal_clocks_stays_inside_each_budget() {
    let mut e = Engine::start();
    let mut pos = Position::from_fen(MIDDLEGAME, false).unwrap();
    // White starts with 1.2 s + 20 ms, black with 400 ms + 5 ms: both clocks run down.
    let mut clocks = [1200u64, 400];
    let incs = [20u64, 5];
    let mut moves = Vec::new();
    for _ in 0..24 {
        if pos.legal_moves().is_empty() {
            break;
        }
        let side = pos.turn();
        let limits = limits(clocks, incs);
        let hard = TimeManager::new(&limits, side, OVERHEAD)
            .budget()
            .1
            .unwrap();
        e.send(&format!(
            "position fen {MIDDLEGAME}{}{}",
            if moves.is_empty() { "" } else { " moves " },
            moves.join(" ")
        ));
        let (elapsed, best) = timed_go(
            &mut e,
            &pos,
            &format!(
                "wtime {} btime {} winc {} binc {}",
                clocks[0], clocks[1], incs[0], incs[1]
            ),
        );
        assert!(
            elapsed <= hard + SLACK,
            "{side:?} with {clocks:?}: {elapsed:?} against a hard limit of {hard:?}"
        );
        let i = usize::from(side == Color::Black);
        let spent = elapsed.as_millis() as u64;
        // Measured against the clock itself, not only the engine's own plan: the flag
        // must not fall.
        assert!(
            spent < clocks[i],
            "{side:?} lost on time: {spent} ms spent of {clocks:?}"
        );
        clocks[i] = clocks[i] - spent + incs[i];
        pos.push_uci(&best).unwrap();
        moves.push(best);
    }
    assert!(moves.len() >= 20, "{moves:?}");
}

#[test]
fn a_clock_at_the_reserve_answers_after_the_first_iteration() {
    // The 1+0.01 time loss: a 50 ms clock, where a 24 ms plan plus a 26 ms stall lost.
    let mut e = Engine::start();
    let pos = Position::from_fen(MIDDLEGAME, false).unwrap();
    let limits = limits([50, 60_000], [10, 10]);
    let hard = TimeManager::new(&limits, Color::White, OVERHEAD).budget().1;
    assert_eq!(
        hard,
        Some(Duration::ZERO),
        "nothing is planned on the reserve"
    );
    e.send(&format!("position fen {MIDDLEGAME}"));
    for _ in 0..10 {
        let (elapsed, _) = timed_go(&mut e, &pos, "wtime 50 btime 60000 winc 10 binc 10");
        assert!(elapsed <= SLACK, "{elapsed:?}");
    }
    // Only its first iteration: depth 1.
    let lines = e.go("wtime 50 btime 60000 winc 10 binc 10");
    assert!(
        lines.iter().all(|l| !l.starts_with("info depth 2 ")),
        "{lines:#?}"
    );
}

#[test]
fn after_ponderhit_the_budget_counts_from_the_ponderhit() {
    let mut e = Engine::start();
    let pos = Position::from_fen(MIDDLEGAME, false).unwrap();
    let limits = limits([3000, 3000], [0, 0]);
    let (soft, hard) = TimeManager::new(&limits, Color::White, OVERHEAD).budget();
    let (soft, hard) = (soft.unwrap(), hard.unwrap());
    e.send(&format!("position fen {MIDDLEGAME}"));
    e.send("go ponder wtime 3000 btime 3000");
    // Ponder for longer than the whole hard limit: if the clock ran from `go`, the search
    // would stop at once on ponderhit.
    std::thread::sleep(hard + Duration::from_millis(300));
    let start = Instant::now();
    e.send("ponderhit");
    let lines = e.until(WAIT, |l| l.starts_with("bestmove"));
    let elapsed = start.elapsed();
    check_answer(&pos, &lines);
    assert!(
        elapsed >= soft,
        "{elapsed:?} after ponderhit, soft limit {soft:?}"
    );
    assert!(elapsed <= hard + SLACK, "{elapsed:?} against {hard:?}");
}

#[test]
fn move_overhead_is_kept_back() {
    let mut e = Engine::start();
    let pos = Position::startpos();
    e.send("position startpos");
    // movetime 1100: without overhead the search uses all of it.
    e.send("setoption name Move Overhead value 0");
    let (elapsed, _) = timed_go(&mut e, &pos, "movetime 1100");
    assert!(elapsed >= Duration::from_millis(1100), "{elapsed:?}");
    // With 1000 ms of overhead only 100 ms remain.
    e.send("setoption name Move Overhead value 1000");
    let (elapsed, _) = timed_go(&mut e, &pos, "movetime 1100");
    assert!(elapsed <= Duration::from_millis(100) + SLACK, "{elapsed:?}");
    // On a clock, too: 1.5 s with 1 s of overhead plans on what is left after it.
    let limits = limits([1500, 1500], [0, 0]);
    let overhead = Duration::from_millis(1000);
    let hard = TimeManager::new(&limits, Color::White, overhead)
        .budget()
        .1
        .unwrap();
    let (elapsed, _) = timed_go(&mut e, &pos, "wtime 1500 btime 1500");
    assert!(elapsed <= hard + SLACK, "{elapsed:?} against {hard:?}");
}

#[test]
fn a_ponderhit_outside_pondering_leaves_the_clock_alone() {
    let mut e = Engine::start();
    e.send(&format!("position fen {MIDDLEGAME}"));
    e.ready();
    let start = Instant::now();
    e.send("go movetime 500");
    std::thread::sleep(Duration::from_millis(400));
    e.send("ponderhit");
    e.until(WAIT, |l| l.starts_with("bestmove"));
    let elapsed = start.elapsed();
    // The movetime counts from `go`: a restart at the ponderhit would answer near 900 ms.
    assert!(
        elapsed <= Duration::from_millis(500) + SLACK,
        "answered after {elapsed:?}"
    );
}

#[test]
fn a_movetime_longer_than_the_clock_allows_is_not_spent() {
    let mut e = Engine::start();
    let pos = Position::from_fen(MIDDLEGAME, false).unwrap();
    e.send(&format!("position fen {MIDDLEGAME}"));
    e.ready();
    let hard = TimeManager::new(&limits([1000, 1000], [0, 0]), Color::White, OVERHEAD)
        .budget()
        .1
        .unwrap();
    let (elapsed, _) = timed_go(&mut e, &pos, "wtime 1000 btime 1000 movetime 5000");
    assert!(
        elapsed <= hard + SLACK,
        "{elapsed:?} with 1 s on the clock (hard limit {hard:?})"
    );
}

#[test]
fn a_first_iteration_that_outgrows_the_clock_is_cut_short() {
    // Promotions and captures on both wings: quiescence alone at depth 1 runs into the
    // millions of nodes, seconds on any machine.
    const PROMOTION_STORM: &str = "rnb1kbnr/rqPprRBR/8/8/8/8/ppppRBBB/NQRBBKBN w - - 0 1";
    let mut e = Engine::start();
    let pos = Position::from_fen(PROMOTION_STORM, false).unwrap();
    e.send(&format!("position fen {PROMOTION_STORM}"));
    e.ready();
    let movetime = Duration::from_millis(100);
    let (elapsed, _) = timed_go(&mut e, &pos, "movetime 100");
    assert!(elapsed <= movetime + SLACK, "{elapsed:?} for movetime 100");
    let (elapsed, _) = timed_go(&mut e, &pos, "wtime 300 btime 300");
    assert!(
        elapsed <= Duration::from_millis(300),
        "{elapsed:?} with 300 ms on the clock"
    );
    // The client's stop is answered at once, searched move or not.
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(50));
    let start = Instant::now();
    e.send("stop");
    let lines = e.until(WAIT, |l| l.starts_with("bestmove"));
    let elapsed = start.elapsed();
    check_answer(&pos, &lines);
    assert!(elapsed <= SLACK, "{elapsed:?} from stop to bestmove");
}

/// Sends `go ARGS` and returns its lines and how long the `bestmove` took, which must come
/// within `within`.
fn answered_within(e: &mut Engine, args: &str, within: Duration) -> (Vec<String>, Duration) {
    let start = Instant::now();
    e.send(&format!("go {args}"));
    let lines = e.until(within, |l| l.starts_with("bestmove"));
    (lines, start.elapsed())
}

#[test]
fn a_clock_given_only_for_the_other_side_is_a_clock_of_zero() {
    let mut e = Engine::start();
    // White to move with only Black's clock; Black to move with only White's.
    for (moves, args) in [("", "btime 1000"), (" moves e2e4", "wtime 1000 winc 100")] {
        e.send(&format!("position startpos{moves}"));
        let mut pos = Position::startpos();
        if !moves.is_empty() {
            pos.push_uci("e2e4").unwrap();
        }
        let (lines, took) = answered_within(&mut e, args, Duration::from_secs(3));
        check_answer(&pos, &lines);
        assert!(took < Duration::from_millis(500), "go {args}: {took:?}");
        e.ready();
    }
}

#[test]
fn decimal_numbers_in_go_are_read_and_malformed_limits_stay_bounded() {
    let mut e = Engine::start();
    e.send("position startpos");
    let pos = Position::startpos();
    // Stockfish answers `go wtime 1000.0 btime 1000.0` in about 20 ms.
    let (lines, took) =
        answered_within(&mut e, "wtime 1000.0 btime 1000.0", Duration::from_secs(3));
    check_answer(&pos, &lines);
    assert!(took < Duration::from_millis(500), "{took:?}");
    assert!(
        !lines.iter().any(|l| l.starts_with("info string")),
        "{lines:#?}"
    );
    let (lines, took) = answered_within(&mut e, "movetime 300.0", Duration::from_secs(3));
    check_answer(&pos, &lines);
    assert!(took >= Duration::from_millis(290) && took < Duration::from_millis(300) + SLACK);
    let (lines, _) = answered_within(&mut e, "depth 5.0", Duration::from_secs(10));
    check_answer(&pos, &lines);
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 5 ")),
        "{lines:#?}"
    );
    assert!(
        !lines.iter().any(|l| l.starts_with("info depth 6 ")),
        "{lines:#?}"
    );
    // A limit without a number is read as 0, with a note: never an unbounded search.
    for args in [
        "movetime abc",
        "wtime x btime x",
        "depth",
        "nodes NaN",
        "movetime inf",
    ] {
        let (lines, took) = answered_within(&mut e, args, Duration::from_secs(3));
        check_answer(&pos, &lines);
        assert!(took < Duration::from_millis(500), "go {args}: {took:?}");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string go ") && l.contains("needs a number")),
            "go {args}: {lines:#?}"
        );
        e.ready();
    }
}

#[test]
fn movestogo_0_is_read_as_absent() {
    let mut e = Engine::start();
    e.send(&format!("position fen {MIDDLEGAME}"));
    let pos = Position::from_fen(MIDDLEGAME, false).unwrap();
    let args = "wtime 10000 btime 10000 movestogo 0";
    let (lines, took) = answered_within(&mut e, args, Duration::from_secs(12));
    check_answer(&pos, &lines);
    // Without movestogo the plan is the clock over many moves; read as one move to go it
    // would be most of the clock.
    let budget = TimeManager::new(&limits([10_000, 10_000], [0, 0]), Color::White, OVERHEAD);
    let hard = budget.budget().1.unwrap();
    assert!(took < hard + SLACK, "{took:?} beyond {hard:?}");
}
