//! Entry points for the fuzz targets in `fuzz/fuzz_targets/` and for their corpus
//! regression test (`tests/fuzz_corpus.rs`), which both include this file. Each takes
//! arbitrary bytes and panics only on a real defect: a panic anywhere (search threads
//! included) or a broken invariant checked here. It uses only the crate's public API.

use std::sync::{Arc, LazyLock};
use std::time::Duration;

use rookery::chess::Position;
use rookery::chess::perft::perft;
use rookery::chess::zobrist::reference_key;
use rookery::engine::search::{Signals, Silent, search};
use rookery::engine::timeman::TimeManager;
use rookery::engine::tt::ChessTable;
use rookery::engine::{Engine, Limits, OPTIONS, Settings};
use rookery::uci::parse::{parse_go, parse_position, parse_setoption};
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
    for us in shakmaty::Color::ALL {
        let tm = TimeManager::new(&limits, us, Duration::from_millis(10));
        let (soft, hard) = tm.budget();
        assert!(
            soft <= hard,
            "soft {soft:?} above hard {hard:?} for '{text}'"
        );
    }
}

/// Invariants of a position built from user input.
fn check_position(mut pos: Position) {
    let chess = pos.chess().clone();
    assert_eq!(pos.key(), reference_key(&chess), "key of {}", pos.fen());
    let _ = pos.fen();
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
    let _ = perft(&mut pos, 2);
    let limits = Limits {
        nodes: Some(PROBE_NODES),
        ..Limits::default()
    };
    let result = search(
        &pos,
        &limits,
        &Settings::default().search_options(),
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

/// Drops everything the engine says: a session checks behaviour, not output.
struct Discard;

impl Output for Discard {
    fn line(&self, _: &str) {}
    fn progress(&self, _: &str) {}
}

/// A whole session: every line of `data` is sent to a fresh engine, as a GUI would,
/// then `stop`. Commands whose cost is the point of the command, not a defect, are
/// scaled down so one input stays cheap: `bench` runs at depth 1, `go perft` at depth 2
/// at most, `Hash` at most 64 MiB and `Threads` at most 4; the `Debug Log File` option
/// is skipped because it writes files.
pub fn session(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let engine = Engine::with_hash(1).expect("a 1 MiB table fits");
    let mut uci = Uci::new(engine, Arc::new(Discard));
    for line in text.split(['\n', '\r']) {
        let Some(line) = tame(line) else { continue };
        if !uci.handle(&line) {
            break;
        }
    }
    uci.handle("stop");
    uci.handle("isready");
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
fn tame(line: &str) -> Option<String> {
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
            if known.is_some_and(|o| o.name == "Debug Log File") {
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
