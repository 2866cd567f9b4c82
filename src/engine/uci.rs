//! The UCI protocol: reads commands from stdin, runs searches on their own thread, and
//! writes one line at a time to stdout, flushed.
//!
//! The input loop never waits for a search, so `isready` and `stop` are answered at any
//! moment. Every `go` gets exactly one `bestmove`. Bad input is answered with an
//! `info string` and never changes the engine's state.

use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::Relaxed;
use std::thread::JoinHandle;
use std::time::Duration;

use shakmaty::{CastlingMode, Color, Position as _};
use tracing::debug;

use super::bench;
use super::eval::{Score, trace};
use super::search::{Line, MATE, MATE_BOUND, Reporter, SearchOptions, Signals, search};
use super::timeman::Limits;
use super::tt::{Bound, ChessTable};
use crate::chess::Position;
use crate::chess::perft::divide_report;
use crate::hashing::AllocError;
use crate::logging;

/// Engine name and version sent in `id name`.
pub const NAME: &str = concat!("Rookery ", env!("CARGO_PKG_VERSION"));
const AUTHOR: &str = "the Rookery developers";

const DEFAULT_HASH_MIB: usize = 16;
const MAX_HASH_MIB: usize = 65_536;
const MAX_THREADS: usize = 256;
const MAX_MULTI_PV: usize = 256;
const MAX_MOVE_OVERHEAD_MS: u64 = 5000;

/// Set by [`silence_output`]: protocol lines and bench progress are dropped.
static SILENT: AtomicBool = AtomicBool::new(false);

/// Drops every protocol line and all bench progress from now on, for the fuzz harness and
/// its corpus test, which drive thousands of sessions and check behaviour, not output.
pub fn silence_output() {
    SILENT.store(true, Relaxed);
}

/// Writes one protocol line to stdout and flushes it.
pub fn send(line: &str) {
    debug!(target: "uci", ">> {line}");
    if SILENT.load(Relaxed) {
        return;
    }
    let mut out = io::stdout().lock();
    // A closed stdout (the GUI went away) is not ours to panic over.
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// Formats a score as UCI `cp N` or `mate N` (moves, negative when being mated).
pub fn format_score(score: i32) -> String {
    if score.abs() >= MATE_BOUND {
        let moves = (MATE - score.abs() + 1) / 2;
        format!("mate {}", if score > 0 { moves } else { -moves })
    } else {
        format!("cp {score}")
    }
}

/// Prints `info` lines for the GUI.
struct UciReporter {
    mode: CastlingMode,
}

impl Reporter for UciReporter {
    fn line(&self, line: &Line) {
        let ms = line.time.as_millis().max(1) as u64;
        let nps = line.nodes * 1000 / ms;
        let bound = match line.bound {
            Some(Bound::Lower) => " lowerbound",
            Some(Bound::Upper) => " upperbound",
            _ => "",
        };
        let pv: Vec<String> = line
            .pv
            .iter()
            .map(|mv| mv.to_uci(self.mode).to_string())
            .collect();
        let pv = if pv.is_empty() {
            String::new()
        } else {
            format!(" pv {}", pv.join(" "))
        };
        send(&format!(
            "info depth {} seldepth {} multipv {} score {}{bound} nodes {} nps {nps} hashfull {} tbhits 0 time {}{pv}",
            line.depth,
            line.seldepth,
            line.multipv,
            format_score(line.score),
            line.nodes,
            line.hashfull,
            line.time.as_millis(),
        ));
    }
}

/// The engine's state between commands.
pub struct Engine {
    position: Position,
    table: Arc<ChessTable>,
    options: SearchOptions,
    chess960: bool,
    ponder: bool,
    debug: bool,
    signals: Arc<Signals>,
    searching: Option<JoinHandle<()>>,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    /// A new engine with default options and the start position.
    pub fn new() -> Engine {
        Engine::with_hash(DEFAULT_HASH_MIB).expect("the default hash size fits")
    }

    /// A new engine whose table starts at `mib` MiB instead of the default.
    pub fn with_hash(mib: usize) -> Result<Engine, AllocError> {
        Ok(Engine {
            position: Position::startpos(),
            table: Arc::new(ChessTable::new(mib)?),
            options: SearchOptions::default(),
            chess960: false,
            ponder: false,
            debug: false,
            signals: Arc::new(Signals::default()),
            searching: None,
        })
    }

    /// Reads commands from stdin until `quit` or end of input.
    pub fn run(&mut self) {
        let stdin = io::stdin();
        let mut input = stdin.lock();
        let mut buffer = Vec::new();
        loop {
            buffer.clear();
            match input.read_until(b'\n', &mut buffer) {
                Ok(0) | Err(_) => break, // end of input: as `quit`
                Ok(_) => {}
            }
            let line = String::from_utf8_lossy(&buffer);
            if !self.handle(&line) {
                break;
            }
        }
        self.stop_search();
    }

    /// Handles one command line; returns false on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let line = line.trim();
        debug!(target: "uci", "<< {line}");
        self.reap_search();
        let (command, rest) = line
            .split_once(char::is_whitespace)
            .map_or((line, ""), |(c, r)| (c, r.trim()));
        match command {
            "" => {}
            "uci" => self.uci(),
            "isready" => send("readyok"),
            "debug" => self.debug = rest != "off",
            "setoption" => self.setoption(rest),
            "ucinewgame" => self.new_game(),
            "position" => self.set_position(rest),
            "go" => self.go(rest),
            "stop" => self.stop_search(),
            "ponderhit" => self.signals.ponder_hit(),
            "quit" => return false,
            "d" => self.display(),
            "eval" => self.eval(),
            "bench" => self.bench(rest),
            _ => send(&format!("info string unknown command: {}", excerpt(line))),
        }
        true
    }

    fn uci(&self) {
        send(&format!("id name {NAME}"));
        send(&format!("id author {AUTHOR}"));
        send("option name Debug Log File type string default <empty>");
        send(&format!(
            "option name Threads type spin default 1 min 1 max {MAX_THREADS}"
        ));
        send(&format!(
            "option name Hash type spin default {DEFAULT_HASH_MIB} min 1 max {MAX_HASH_MIB}"
        ));
        send("option name Clear Hash type button");
        send("option name Ponder type check default false");
        send(&format!(
            "option name MultiPV type spin default 1 min 1 max {MAX_MULTI_PV}"
        ));
        send(&format!(
            "option name Move Overhead type spin default 10 min 0 max {MAX_MOVE_OVERHEAD_MS}"
        ));
        send("option name UCI_Chess960 type check default false");
        send("uciok");
    }

    /// A search is running until it is about to send its `bestmove`.
    fn is_searching(&self) -> bool {
        self.searching.is_some() && !self.signals.done.load(Relaxed)
    }

    /// Joins a search thread that has sent (or is sending) its `bestmove`.
    fn reap_search(&mut self) {
        if self.searching.is_some()
            && self.signals.done.load(Relaxed)
            && let Some(handle) = self.searching.take()
        {
            let _ = handle.join();
        }
    }

    /// Stops a running search and waits for its `bestmove`.
    fn stop_search(&mut self) {
        self.signals.stop.store(true, Relaxed);
        if let Some(handle) = self.searching.take() {
            let _ = handle.join();
        }
    }

    fn refuse_while_searching(&mut self, what: &str) -> bool {
        self.reap_search();
        if self.is_searching() {
            send(&format!(
                "info string {what} refused: a search is running (send stop first)"
            ));
            true
        } else {
            false
        }
    }

    fn setoption(&mut self, rest: &str) {
        let Some((name, value)) = parse_setoption(rest) else {
            send("info string setoption needs: setoption name <name> [value <value>]");
            return;
        };
        let (name, value) = (name.as_str(), value.as_str());
        if self.refuse_while_searching(&format!("setoption {name}")) {
            return;
        }
        let lower = name.to_ascii_lowercase();
        match lower.as_str() {
            "hash" => {
                if let Some(mib) = spin(name, value, 1, MAX_HASH_MIB as u64) {
                    self.resize_hash(mib as usize);
                }
            }
            "threads" => {
                if let Some(n) = spin(name, value, 1, MAX_THREADS as u64) {
                    self.options.threads = n as usize;
                }
            }
            "multipv" => {
                if let Some(n) = spin(name, value, 1, MAX_MULTI_PV as u64) {
                    self.options.multi_pv = n as usize;
                }
            }
            "move overhead" => {
                if let Some(ms) = spin(name, value, 0, MAX_MOVE_OVERHEAD_MS) {
                    self.options.move_overhead = Duration::from_millis(ms);
                }
            }
            "clear hash" => self.table.clear(),
            "ponder" => {
                if let Some(on) = check(name, value) {
                    self.ponder = on;
                }
            }
            "uci_chess960" => {
                if let Some(on) = check(name, value) {
                    self.chess960 = on;
                    self.position
                        .set_castling_mode(CastlingMode::from_chess960(on));
                }
            }
            "debug log file" => {
                let path = if value == "<empty>" { "" } else { value };
                if let Err(e) = logging::set_log_file(path) {
                    send(&format!("info string cannot open log file '{path}': {e}"));
                }
            }
            _ => send(&format!("info string unknown option: {name}")),
        }
    }

    fn resize_hash(&mut self, mib: usize) {
        if let Some(available) = available_memory_mib()
            && mib > available
        {
            send(&format!(
                "info string Hash {mib} MiB refused: only {available} MiB of memory available; keeping {} MiB",
                self.table.bytes() >> 20
            ));
            return;
        }
        let Some(table) = Arc::get_mut(&mut self.table) else {
            send("info string Hash refused: the table is in use");
            return;
        };
        if let Err(e) = table.resize(mib) {
            send(&format!(
                "info string {e}; keeping {} MiB",
                table.bytes() >> 20
            ));
        }
    }

    fn new_game(&mut self) {
        if self.refuse_while_searching("ucinewgame") {
            return;
        }
        self.table.clear();
        self.position = Position::startpos();
        self.position
            .set_castling_mode(CastlingMode::from_chess960(self.chess960));
    }

    /// `position startpos|fen FEN [moves ...]`: replaces the position only if all of it is
    /// valid.
    fn set_position(&mut self, rest: &str) {
        match parse_position(rest, self.chess960) {
            Ok(pos) => self.position = pos,
            Err(e) => send(&format!("info string {e}; position unchanged")),
        }
    }

    fn go(&mut self, rest: &str) {
        if rest.split_whitespace().next() == Some("perft") {
            self.go_perft(rest);
            return;
        }
        // A `go` while searching: finish the old search first (it sends its bestmove).
        self.stop_search();
        let limits = parse_go(rest, &self.position, |e| send(&format!("info string {e}")));
        let signals = Arc::new(Signals::default());
        signals.pondering.store(limits.ponder, Relaxed);
        self.signals = Arc::clone(&signals);
        let table = Arc::clone(&self.table);
        let options = self.options.clone();
        let pos = self.position.clone();
        let reporter = UciReporter {
            mode: pos.castling_mode(),
        };
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(64 << 20)
            .spawn(move || {
                let result = search(&pos, &limits, &options, &table, &signals, &reporter);
                signals.done.store(true, Relaxed);
                let mode = pos.castling_mode();
                match (result.best, result.ponder) {
                    (None, _) => send("bestmove (none)"),
                    (Some(best), Some(ponder)) => send(&format!(
                        "bestmove {} ponder {}",
                        best.to_uci(mode),
                        ponder.to_uci(mode)
                    )),
                    (Some(best), None) => send(&format!("bestmove {}", best.to_uci(mode))),
                }
            });
        match spawned {
            Ok(handle) => self.searching = Some(handle),
            Err(e) => {
                self.signals.done.store(true, Relaxed);
                send(&format!("info string cannot start the search thread: {e}"));
                send("bestmove (none)");
            }
        }
    }

    fn go_perft(&mut self, rest: &str) {
        let depth = rest
            .split_whitespace()
            .nth(1)
            .and_then(|d| d.parse::<u32>().ok());
        let Some(depth) = depth.filter(|&d| d <= 12) else {
            send("info string go perft needs a depth from 0 to 12");
            return;
        };
        if self.refuse_while_searching("go perft") {
            return;
        }
        let mut pos = self.position.clone();
        for line in divide_report(&mut pos, depth, None).0 {
            send(&line);
        }
    }

    fn display(&self) {
        let board = self.position.chess().board();
        let mut out = String::from("\n +---+---+---+---+---+---+---+---+\n");
        for rank in (0..8).rev() {
            for file in 0..8 {
                let sq = shakmaty::Square::from_coords(
                    shakmaty::File::new(file),
                    shakmaty::Rank::new(rank),
                );
                let c = board.piece_at(sq).map_or(' ', |p| p.char());
                out.push_str(&format!(" | {c}"));
            }
            out.push_str(&format!(
                " | {}\n +---+---+---+---+---+---+---+---+\n",
                rank + 1
            ));
        }
        out.push_str("   a   b   c   d   e   f   g   h\n");
        for line in out.lines() {
            send(line);
        }
        send(&format!("Fen: {}", self.position.fen()));
        send(&format!("Key: {:016X}", self.position.key().bits()));
        let checkers: Vec<String> = self
            .position
            .chess()
            .checkers()
            .into_iter()
            .map(|sq| sq.to_string())
            .collect();
        send(&format!("Checkers: {}", checkers.join(" ")));
    }

    fn eval(&self) {
        let chess = self.position.chess();
        let (score, trace) = trace(chess);
        send("      Term    |    White    |    Black    |    Total   ");
        send("              |   MG    EG  |   MG    EG  |   MG    EG ");
        send(" -------------+-------------+-------------+------------");
        let cell = |s: Score| format!("{:5} {:5}", s.mg, s.eg);
        for (name, white, black) in &trace.terms {
            send(&format!(
                " {name:>12} | {} | {} | {}",
                cell(*white),
                cell(*black),
                cell(*white - *black)
            ));
        }
        send(&format!("Phase: {} of 24", trace.phase));
        let white_view = if chess.turn() == Color::White {
            score
        } else {
            -score
        };
        send(&format!(
            "Final evaluation: {white_view} cp (white side), {score} cp for the side to move"
        ));
    }

    fn bench(&mut self, rest: &str) {
        if self.refuse_while_searching("bench") {
            return;
        }
        let depth = match rest.split_whitespace().next() {
            None => bench::DEFAULT_DEPTH,
            Some(d) => match d.parse::<u32>() {
                Ok(d) if (1..=30).contains(&d) => d,
                _ => {
                    send(&format!(
                        "info string bench depth must be 1 to 30, got '{d}'"
                    ));
                    return;
                }
            },
        };
        let result = bench::run(depth, |i, fen, nodes| {
            if SILENT.load(Relaxed) {
                return;
            }
            eprintln!(
                "position {i:2}/{}: {nodes:>10} nodes  {fen}",
                bench::POSITIONS.len()
            );
        });
        send(&format!("{} nodes {} nps", result.nodes, result.nps()));
    }
}

/// At most the first 100 characters of `line`, for echoing it back.
fn excerpt(line: &str) -> String {
    const KEEP: usize = 100;
    match line.char_indices().nth(KEEP) {
        Some((cut, _)) => format!("{}...", &line[..cut]),
        None => line.to_string(),
    }
}

/// Parses a spin option's value within its range, explaining a refusal.
fn spin(name: &str, value: &str, min: u64, max: u64) -> Option<u64> {
    match value.parse::<u64>() {
        Ok(v) if (min..=max).contains(&v) => Some(v),
        _ => {
            send(&format!(
                "info string option {name}: value must be a number from {min} to {max}, got '{value}'"
            ));
            None
        }
    }
}

/// Parses a check option's value.
fn check(name: &str, value: &str) -> Option<bool> {
    match value.to_ascii_lowercase().as_str() {
        "true" => Some(true),
        "false" => Some(false),
        _ => {
            send(&format!(
                "info string option {name}: value must be true or false, got '{value}'"
            ));
            None
        }
    }
}

/// The name and value of `setoption name <name> [value <value>]`, read word by word as
/// Stockfish does: `name` and `value` count only as whole words, so `value11118` is part of
/// a name, not a value. Names and values may contain spaces.
pub fn parse_setoption(rest: &str) -> Option<(String, String)> {
    let mut words = rest.split_whitespace();
    if words.next() != Some("name") {
        return None;
    }
    let name: Vec<&str> = words.by_ref().take_while(|&w| w != "value").collect();
    let value: Vec<&str> = words.collect();
    (!name.is_empty()).then(|| (name.join(" "), value.join(" ")))
}

/// The `position` command's arguments as a position, or why they are not one.
pub fn parse_position(rest: &str, chess960: bool) -> Result<Position, String> {
    let mut words = rest.split_whitespace();
    let mut pos = match words.next() {
        Some("startpos") => {
            let mut pos = Position::startpos();
            pos.set_castling_mode(CastlingMode::from_chess960(chess960));
            pos
        }
        Some("fen") => {
            let fen: Vec<&str> = words.by_ref().take_while(|&w| w != "moves").collect();
            let mut pos =
                Position::from_fen(&fen.join(" "), chess960).map_err(|e| e.to_string())?;
            if chess960 {
                pos.set_castling_mode(CastlingMode::Chess960);
            }
            // take_while consumed "moves"; what follows are the moves.
            for mv in words {
                pos.push_uci(mv)
                    .map_err(|e| format!("{e} in position command"))?;
            }
            return Ok(pos);
        }
        _ => return Err("position needs 'startpos' or 'fen <FEN>'".to_string()),
    };
    match words.next() {
        None => {}
        Some("moves") => {
            for mv in words {
                pos.push_uci(mv)
                    .map_err(|e| format!("{e} in position command"))?;
            }
        }
        Some(other) => return Err(format!("expected 'moves', got '{other}'")),
    }
    Ok(pos)
}

/// The `go` command's arguments. Like Stockfish, a word it does not know or a value that is
/// not a number is skipped (and reported through `warn`); the rest still applies.
pub fn parse_go(rest: &str, pos: &Position, mut warn: impl FnMut(String)) -> Limits {
    let mut limits = Limits::default();
    let mut words = rest.split_whitespace().peekable();
    while let Some(word) = words.next() {
        if word == "searchmoves" {
            while let Some(&text) = words.peek() {
                if is_go_keyword(text) {
                    break;
                }
                words.next();
                match pos.parse_uci(text) {
                    Ok(mv) => limits.search_moves.push(mv),
                    Err(e) => warn(format!("searchmoves: {e}, skipped")),
                }
            }
            continue;
        }
        if word == "infinite" || word == "ponder" {
            if word == "infinite" {
                limits.infinite = true;
            } else {
                limits.ponder = true;
            }
            continue;
        }
        if !is_go_keyword(word) {
            warn(format!("go: unknown parameter '{word}' ignored"));
            continue;
        }
        let value = match words.peek().map(|t| t.parse::<i64>()) {
            Some(Ok(n)) => {
                words.next();
                n.max(0) as u64
            }
            _ => {
                warn(format!("go {word}: needs a number, ignored"));
                continue;
            }
        };
        let ms = Duration::from_millis(value);
        match word {
            "wtime" => limits.time[1] = Some(ms),
            "btime" => limits.time[0] = Some(ms),
            "winc" => limits.inc[1] = ms,
            "binc" => limits.inc[0] = ms,
            "movestogo" => limits.moves_to_go = Some(value.clamp(1, 1000) as u32),
            "depth" => limits.depth = Some(value.clamp(1, 255) as u32),
            "nodes" => limits.nodes = Some(value.max(1)),
            "mate" => limits.mate = Some(value.clamp(1, 500) as u32),
            _ => limits.movetime = Some(ms), // "movetime"
        }
    }
    limits
}

fn is_go_keyword(word: &str) -> bool {
    matches!(
        word,
        "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "movestogo"
            | "depth"
            | "nodes"
            | "mate"
            | "movetime"
            | "infinite"
            | "ponder"
            | "searchmoves"
    )
}

/// Memory the system could give us now, in MiB (Linux `MemAvailable`), if known.
fn available_memory_mib() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}
