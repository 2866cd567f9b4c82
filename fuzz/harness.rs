//! Entry points for the fuzz targets in `fuzz/fuzz_targets/` and for their corpus
//! regression test (`tests/uci/fuzz_corpus.rs`), which both include this file. Each takes
//! arbitrary bytes and panics only on a real defect: a panic anywhere (search threads
//! included) or a broken invariant checked here. It uses only the crate's public API.
//!
//! Invariants checked against independent truth: perft equals shakmaty's own perft, a FEN
//! reads back to the same position and key, the key equals shakmaty's reference hash, the
//! time manager's hard limit stays inside the clock (or movetime) minus the overhead, and a
//! session answers every `go` with exactly one `bestmove` that is legal and the first move
//! of the last reported variation, whose moves are all legal.

use std::sync::{Arc, LazyLock, Mutex};
use std::time::Duration;

use rookery::chess::Position;
use rookery::chess::perft::perft;
use rookery::chess::zobrist::reference_key;
use rookery::engine::search::{SearchOptions, Signals, Silent, search};
use rookery::engine::timeman::TimeManager;
use rookery::engine::tt::ChessTable;
use rookery::engine::{Engine, Limits, OPTIONS, OptionKind};
use rookery::uci::parse::{Command, parse_command, parse_go, parse_position, parse_setoption};
use rookery::uci::{Output, Uci};
use shakmaty::Position as _;

/// A small table shared by every input: allocating one per input would dominate the run.
static TABLE: LazyLock<ChessTable> =
    LazyLock::new(|| ChessTable::new(1).expect("a 1 MiB table fits"));

/// Nodes for the short search run on every position that parses.
const PROBE_NODES: u64 = 400;

/// One command line through the parsers that take user input: `position` (FEN and
/// moves, both castling modes), a bare FEN, and `go` with its time budget. Every
/// position that parses must carry the reference key, survive a perft to depth 2 and a
/// short search, and the search must return a legal move unless there is none.
pub fn command_line(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let text = text.trim();
    for chess960 in [false, true] {
        if let Ok(pos) = parse_position(text).and_then(|spec| spec.build(chess960)) {
            check_position(pos);
        }
        if let Ok(pos) = Position::from_fen(text, chess960) {
            check_position(pos);
        }
    }
    let start = Position::startpos();
    let limits = parse_go(text).resolve(&start, |_| {});
    let overhead = Duration::from_millis(10);
    for us in shakmaty::Color::ALL {
        let tm = TimeManager::new(&limits, us, overhead);
        let (soft, hard) = tm.budget();
        assert!(
            soft <= hard,
            "soft {soft:?} above hard {hard:?} for '{text}'"
        );
        let granted = limits.movetime.or(limits.clock(us));
        if let (Some(granted), Some(hard)) = (granted, hard) {
            assert!(
                hard <= granted.saturating_sub(overhead),
                "hard {hard:?} beyond {granted:?} minus the overhead for '{text}'"
            );
        }
    }
}

/// Invariants of a position built from user input.
fn check_position(mut pos: Position) {
    let chess = pos.chess().clone();
    assert_eq!(pos.key(), reference_key(&chess), "key of {}", pos.fen());
    let fen = pos.fen();
    let again = Position::from_fen(
        &fen,
        pos.castling_mode() == shakmaty::CastlingMode::Chess960,
    )
    .unwrap_or_else(|e| panic!("our own FEN {fen} does not read back: {e}"));
    assert_eq!(again.fen(), fen, "FEN round trip");
    assert_eq!(
        again.key(),
        pos.key(),
        "key after the FEN round trip of {fen}"
    );
    let moves = pos.legal_moves();
    for &mv in &moves {
        let text = mv.to_uci(pos.castling_mode()).to_string();
        assert_eq!(
            pos.parse_uci(&text).ok(),
            Some(mv),
            "{text} in {}",
            pos.fen()
        );
        pos.push(mv);
        assert_eq!(pos.key(), reference_key(pos.chess()), "after {text}");
        pos.pop();
    }
    assert_eq!(
        perft(&mut pos, 2),
        shakmaty::perft(&chess, 2),
        "perft 2 of {}",
        pos.fen()
    );
    let limits = Limits {
        nodes: Some(PROBE_NODES),
        ..Limits::default()
    };
    let result = search(
        &pos,
        &limits,
        &SearchOptions::default(),
        &TABLE,
        &Signals::default(),
        &Silent,
    );
    match result.best {
        Some(best) => assert!(moves.contains(&best), "illegal {best:?} in {}", pos.fen()),
        None => assert!(moves.is_empty(), "no move though {} are legal", moves.len()),
    }
    if let Some(ponder) = result.ponder {
        let best = result.best.expect("a ponder move follows a best move");
        let mut after = chess;
        after.play_unchecked(best);
        assert!(after.is_legal(ponder), "illegal ponder move {ponder:?}");
    }
}

/// Keeps every protocol line for the checks at the end of a session; drops progress.
#[derive(Default)]
struct Collect(Mutex<Vec<String>>);

impl Output for Collect {
    fn line(&self, text: &str) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(text.to_string());
    }
    fn progress(&self, _: &str) {}
}

/// A whole session: every line of `data` is sent to a fresh engine, as a GUI would,
/// then `stop`. Commands whose cost is the point of the command, not a defect, are
/// scaled down so one input stays cheap: `bench` runs at depth 1, `go perft` at depth 2
/// at most, `Hash` at most 64 MiB and `Threads` at most 4; the string options (`Debug Log
/// File`, `BookFile`, `SyzygyPath`, `EvalFile`) are skipped because they name files.
pub fn session(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let engine = Engine::with_hash(1).expect("a 1 MiB table fits");
    let output = Arc::new(Collect::default());
    let mut uci = Uci::new(engine, output.clone());
    // The position each `go` searched, in order.
    let mut searched = Vec::new();
    for line in text.split(['\n', '\r']) {
        let Some(line) = tame(line) else { continue };
        if matches!(parse_command(&line), Command::Go(_)) {
            searched.push(uci.engine().position().clone());
        }
        if !uci.handle(&line) {
            break;
        }
    }
    uci.handle("stop");
    uci.handle("isready");
    let lines = output.0.lock().unwrap_or_else(|e| e.into_inner());
    check_answers(&searched, &lines);
}

/// Every `go` got exactly one `bestmove`, in order; each is legal, `(none)` exactly when
/// nothing is legal, and the first move of the last slot-1 variation reported since the
/// previous `bestmove`; every reported variation is legal.
fn check_answers(searched: &[Position], lines: &[String]) {
    let answers: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("bestmove"))
        .collect();
    assert_eq!(
        answers.len(),
        searched.len(),
        "{} go, {} bestmove",
        searched.len(),
        answers.len()
    );
    let mut from = 0;
    for (pos, &end) in searched.iter().zip(&answers) {
        let best = lines[end].split_whitespace().nth(1).unwrap_or("");
        let mut last_pv: Option<Vec<&str>> = None;
        for line in lines[from..end]
            .iter()
            .filter(|l| l.starts_with("info depth"))
        {
            let Some((_, pv)) = line.split_once(" pv ") else {
                continue;
            };
            let pv: Vec<&str> = pv.split_whitespace().collect();
            let mut p = pos.clone();
            for mv in &pv {
                p.push_uci(mv)
                    .unwrap_or_else(|e| panic!("{line}: {e} from {}", pos.fen()));
            }
            if !line.contains(" multipv ") || line.contains(" multipv 1 ") {
                last_pv = Some(pv);
            }
        }
        if best == "(none)" {
            assert!(pos.legal_moves().is_empty(), "(none) in {}", pos.fen());
        } else {
            pos.parse_uci(best)
                .unwrap_or_else(|e| panic!("bestmove {best}: {e} in {}", pos.fen()));
            let first = last_pv.as_ref().and_then(|pv| pv.first().copied());
            assert_eq!(first, Some(best), "bestmove vs last pv in {}", pos.fen());
        }
        from = end + 1;
    }
}

/// The largest value a session may give a spin option whose cost grows with its value.
fn cap(option: &str) -> Option<u64> {
    match option {
        "hash" => Some(64),
        "threads" => Some(4),
        _ => None,
    }
}

/// The line a session sends in place of `line`, or `None` to skip it.
pub fn tame(line: &str) -> Option<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let lower: Vec<String> = words.iter().map(|w| w.to_ascii_lowercase()).collect();
    match lower.first().map(String::as_str) {
        Some("bench") => return Some("bench 1".to_string()),
        Some("go") if lower.get(1).is_some_and(|w| w == "perft") => {
            let depth = words.get(2).and_then(|d| d.parse::<u32>().ok());
            return Some(match depth {
                Some(d) => format!("go perft {}", d.min(2)),
                None => line.to_string(),
            });
        }
        Some("setoption") => {
            // Read as the engine reads it, so no spelling slips a large value past the cap.
            let Some((name, value)) = parse_setoption(&words[1..].join(" ")) else {
                return Some(line.to_string());
            };
            let known = OPTIONS.iter().find(|o| o.name.eq_ignore_ascii_case(&name));
            let name = name.to_ascii_lowercase();
            // String options name files (log, book, tablebases, net): the harness neither
            // writes nor reads arbitrary paths.
            if known.is_some_and(|o| matches!(o.kind, OptionKind::String { .. })) {
                return None;
            }
            let Some(cap) = cap(&name) else {
                return Some(line.to_string());
            };
            return Some(match value.parse::<u64>() {
                Ok(v) => format!("setoption name {name} value {}", v.min(cap)),
                Err(_) => line.to_string(),
            });
        }
        _ => {}
    }
    Some(line.to_string())
}
