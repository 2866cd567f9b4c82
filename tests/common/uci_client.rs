//! A UCI client for the tests: drives the real `rookery` binary through its stdin and
//! stdout, as a GUI does.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use rookery::chess::Position;

/// A running engine with a line reader on its stdout.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

pub const WAIT: Duration = Duration::from_secs(20);

/// What an answer may take beyond the hard limit the time manager computed: the first
/// iteration, the gap between clock checks, thread wake-ups and pipes, with the other core
/// busy running tests in parallel.
pub const SLACK: Duration = Duration::from_millis(150);

impl Engine {
    pub fn start() -> Engine {
        Engine::start_with(Command::new(env!("CARGO_BIN_EXE_rookery")))
    }

    /// The engine with its address space limited to `kib` KiB (`ulimit -v`), so that
    /// memory it asks for beyond that is refused. Linux only: other systems' shells may not
    /// honour the limit.
    #[cfg(target_os = "linux")]
    #[allow(dead_code)]
    pub fn start_with_memory_limit(kib: u64) -> Engine {
        let mut command = Command::new("sh");
        command.arg("-c").arg(format!(
            "ulimit -v {kib} && exec '{}'",
            env!("CARGO_BIN_EXE_rookery")
        ));
        Engine::start_with(command)
    }

    /// Starts the engine through `command` (the binary itself with an environment, or a
    /// shell that sets limits and runs it).
    pub fn start_with(mut command: Command) -> Engine {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the engine starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin: Some(stdin),
            lines,
        }
    }

    pub fn send(&mut self, command: &str) {
        self.send_raw(format!("{command}\n").as_bytes());
    }

    /// Writes `bytes` to the engine's stdin as they are (no newline added).
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("input is open");
        stdin.write_all(bytes).expect("the engine reads its input");
        stdin.flush().unwrap();
    }

    /// The engine's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Closes the engine's stdin (end of input).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// Waits up to `within` for the process to exit.
    pub fn wait_exit(&mut self, within: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + within;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        None
    }

    /// Lines up to and including the first that satisfies `done`, within `within`.
    pub fn until(&mut self, within: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + within;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let finished = done(&line);
                    seen.push(line);
                    if finished {
                        return seen;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("timed out; lines so far: {seen:#?}"),
                Err(RecvTimeoutError::Disconnected) => panic!("engine exited; lines: {seen:#?}"),
            }
        }
    }

    /// Everything printed within `within`, expecting nothing in particular.
    pub fn quiet_for(&mut self, within: Duration) -> Vec<String> {
        let deadline = Instant::now() + within;
        let mut seen = Vec::new();
        while let Ok(line) = self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            seen.push(line);
        }
        seen
    }

    pub fn ready(&mut self) {
        self.send("isready");
        self.until(WAIT, |l| l == "readyok");
    }

    /// Runs `go ...` and returns its output up to the bestmove line.
    pub fn go(&mut self, args: &str) -> Vec<String> {
        self.send(&format!("go {args}"));
        self.until(WAIT, |l| l.starts_with("bestmove"))
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Some(stdin) = self.stdin.as_mut() {
            let _ = writeln!(stdin, "quit");
        }
        if self.wait_exit(Duration::from_secs(5)).is_none() {
            let _ = self.child.kill();
        }
    }
}

/// The move and ponder move of a `bestmove` line.
fn parse_bestmove(line: &str) -> (String, Option<String>) {
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words.first(), Some(&"bestmove"), "{line}");
    assert!(
        words.len() == 2 || (words.len() == 4 && words[2] == "ponder"),
        "malformed: {line}"
    );
    (words[1].to_string(), words.get(3).map(|w| w.to_string()))
}

/// The moves of an `info ... pv` line.
fn pv_of(line: &str) -> Vec<&str> {
    line.split(" pv ")
        .nth(1)
        .map_or(Vec::new(), |pv| pv.split_whitespace().collect())
}

/// Whether an `info` line belongs to MultiPV slot 1 (or names no slot).
fn is_first_slot(line: &str) -> bool {
    !line.contains(" multipv ") || line.contains(" multipv 1 ")
}

/// The check every test that reads a `bestmove` goes through, on the answer to the last
/// `go` in `lines` (what follows the previous `bestmove`, if any), searched from `pos`:
/// - `bestmove (none)` exactly when `pos` has no legal move;
/// - otherwise a scored `info` line came first, the move is legal, it is the first move of
///   the last `info ... pv` line of MultiPV slot 1, and the ponder move, if any, is that
///   variation's second move;
/// - every move of every reported variation is legal, and none goes on past a threefold
///   repetition (counting the game's positions in `pos`).
///
/// Returns the move and the ponder move.
pub fn check_answer(pos: &Position, lines: &[String]) -> (String, Option<String>) {
    let end = lines
        .iter()
        .rposition(|l| l.starts_with("bestmove"))
        .unwrap_or_else(|| panic!("no bestmove in {lines:#?}"));
    let start = lines[..end]
        .iter()
        .rposition(|l| l.starts_with("bestmove"))
        .map_or(0, |i| i + 1);
    let answer = &lines[start..=end];
    let (best, ponder) = parse_bestmove(&lines[end]);
    for line in answer
        .iter()
        .filter(|l| l.starts_with("info") && l.contains(" pv "))
    {
        let mut p = pos.clone();
        let pv = pv_of(line);
        for (i, mv) in pv.iter().enumerate() {
            p.push_uci(mv)
                .unwrap_or_else(|e| panic!("pv move {mv}: {e} in {line} from {}", pos.fen()));
            // The game is drawn there: nothing may follow (fastchess warns otherwise).
            assert!(
                p.repetitions() < 2 || i + 1 == pv.len(),
                "pv continues after a threefold repetition at {mv}: {line}"
            );
        }
    }
    if best == "(none)" {
        assert!(
            pos.legal_moves().is_empty(),
            "bestmove (none) with legal moves in {}",
            pos.fen()
        );
        assert!(ponder.is_none(), "a ponder move after (none)");
        return (best, ponder);
    }
    assert!(
        answer
            .iter()
            .any(|l| l.starts_with("info") && l.contains(" score ")),
        "no scored info before bestmove: {answer:#?}"
    );
    let mut after = pos.clone();
    after
        .push_uci(&best)
        .unwrap_or_else(|e| panic!("bestmove {best}: {e} in {}", pos.fen()));
    let last = answer
        .iter()
        .rev()
        .find(|l| l.starts_with("info") && l.contains(" pv ") && is_first_slot(l))
        .unwrap_or_else(|| panic!("no pv before bestmove: {answer:#?}"));
    let pv = pv_of(last);
    assert_eq!(
        pv.first().copied(),
        Some(best.as_str()),
        "bestmove is not the first move of the last pv: {answer:#?}"
    );
    if let Some(ponder) = &ponder {
        assert_eq!(
            pv.get(1).copied(),
            Some(ponder.as_str()),
            "ponder is not the pv's second move: {answer:#?}"
        );
    }
    (best, ponder)
}

/// The number after the word `key` in an `info` line (`nodes`, `cp`, `depth`, ...).
pub fn info_value(line: &str, key: &str) -> Option<i64> {
    let mut words = line.split_whitespace();
    words.find(|&w| w == key)?;
    words.next()?.parse().ok()
}

/// The largest node count the `info` lines of a search report.
pub fn most_nodes(lines: &[String]) -> i64 {
    lines
        .iter()
        .filter_map(|l| info_value(l, "nodes"))
        .max()
        .expect("a search reports its nodes")
}

pub fn scores(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info") && l.contains(" score "))
        .map(|l| {
            let rest = &l[l.find(" score ").unwrap() + 7..];
            rest.split_whitespace()
                .take(2)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}
