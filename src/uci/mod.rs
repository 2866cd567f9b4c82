//! The UCI protocol over the [`Engine`] facade: reads command lines, dispatches them, and
//! writes one line at a time through an [`Output`] (stdout, flushed, for a GUI).
//!
//! The input loop never waits for a search, so `isready` and `stop` are answered at any
//! moment of one. Jobs (`go perft`, `bench`) sent while one runs wait their turn; `isready`
//! is answered at once beside them, `stop` ends them, and any other command (`quit` too)
//! waits for their results. Every `go` gets exactly one `bestmove`. Bad input is answered
//! with an `info string` and never changes the engine's state. A UTF-8 byte-order mark
//! before the first command is skipped. Commands given as arguments are read as lines of
//! input are ([`run_commands`]).
//!
//! - [`parse`]: text to [`parse::Command`], no engine state.
//! - [`format`]: engine facts to text.
//! - [`help`]: the answer to `help`, the commands understood.

pub mod format;
pub mod help;
pub mod parse;

use std::borrow::Cow;
use std::io::{self, BufRead, IsTerminal, Write};
use std::sync::Arc;

use shakmaty::{CastlingMode, Move, Position as _};
use tracing::debug;

use self::parse::{Command, parse_command};
use crate::engine::bench::BenchResult;
use crate::engine::search::{CurrentMove, Line, Reporter, SearchResult};
use crate::engine::wdl;
use crate::engine::{Busy, EVAL_FILE_OPTION, Engine, NotStarted, OptionError};

/// Where protocol lines and progress notes go.
pub trait Output: Send + Sync {
    /// One protocol line (no newline).
    fn line(&self, text: &str);
    /// A progress note for people (bench progress), not part of the protocol.
    fn progress(&self, text: &str);
}

/// Protocol lines to stdout, flushed one by one; progress to stderr.
pub struct Stdout;

impl Output for Stdout {
    fn line(&self, text: &str) {
        let mut out = io::stdout().lock();
        // A closed stdout (the GUI went away) is not ours to panic over.
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    }

    fn progress(&self, text: &str) {
        eprintln!("{text}");
    }
}

/// Sends one protocol line, logging it at debug level. A message that carries line breaks
/// (an error's text from a library) still goes out as one line.
fn send(out: &dyn Output, text: &str) {
    let text = if text.contains(['\n', '\r']) {
        Cow::Owned(
            text.split(['\n', '\r'])
                .map(str::trim)
                .collect::<Vec<_>>()
                .join(" "),
        )
    } else {
        Cow::Borrowed(text)
    };
    debug!(target: "uci", ">> {text}");
    out.line(&text);
}

/// Hears a search: `info` lines, then `bestmove`.
struct UciReporter {
    out: Arc<dyn Output>,
    mode: CastlingMode,
    show_wdl: bool,
}

impl Reporter for UciReporter {
    fn line(&self, line: &Line) {
        send(&*self.out, &format::info(line, self.mode, self.show_wdl));
    }

    fn current_move(&self, current: &CurrentMove) {
        send(&*self.out, &format::current_move(current, self.mode));
    }

    fn finished(&self, result: &SearchResult) {
        send(&*self.out, &format::bestmove(result, self.mode));
    }

    fn book_move(&self, mv: Move, weight: u16) {
        send(
            &*self.out,
            &format!(
                "info string book move {} weight {weight}",
                mv.to_uci(self.mode)
            ),
        );
    }

    fn search_failed(&self) {
        send(
            &*self.out,
            "info string error: the search failed (an internal fault); playing a legal move",
        );
    }

    fn threads_short(&self, running: usize, asked: usize, error: &str) {
        send(
            &*self.out,
            &format!(
                "info string Threads: only {running} of {asked} search threads started ({error}); searching with those"
            ),
        );
    }
}

/// The UTF-8 byte-order mark some editors and shells put before a file's first line.
const BYTE_ORDER_MARK: char = '\u{feff}';

/// `line` without a byte-order mark in front.
fn without_byte_order_mark(line: &str) -> &str {
    line.strip_prefix(BYTE_ORDER_MARK).unwrap_or(line)
}

/// A UCI session: the engine and where its answers go.
pub struct Uci {
    engine: Engine,
    out: Arc<dyn Output>,
    /// Whether the last command handled was refused (its reason sent as `info string`).
    refused: bool,
    /// Whether the search last started runs until `stop`: `go infinite`, `go ponder`
    /// before its `ponderhit`, a `go` with no limit at all.
    endless: Endless,
}

/// What keeps a search from ending by itself ([`Uci::endless`]).
#[derive(Clone, Copy, Debug, Default)]
struct Endless {
    /// No limit of its own: only `stop` ends it.
    unbounded: bool,
    /// It waits for `ponderhit` (or `stop`).
    pondering: bool,
}

/// What ends a run of commands besides `quit`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum InputEnd {
    /// Standard input: its end stops a search, as `quit` does.
    Stdin,
    /// Arguments: a command refused ends the run; after the last one, a search that ends
    /// by itself is waited for, one that would not is stopped.
    Arguments,
}

/// Runs the engine on stdin and stdout until `quit` or end of input.
pub fn run_stdio() {
    let out: Arc<dyn Output> = Arc::new(Stdout);
    // A person at a terminal is told who answers and where the commands are; a GUI, whose
    // input is a pipe, gets the protocol alone.
    if io::stdin().is_terminal() {
        out.line(&format::greeting());
    }
    let mut session = Uci::new(Engine::new(), out);
    session.run(io::stdin().lock());
}

/// Whether `line` is a UCI command this engine knows (its first word decides; a
/// byte-order mark in front is skipped).
pub fn is_command(line: &str) -> bool {
    !matches!(
        parse_command(without_byte_order_mark(line)),
        Command::Unknown(_) | Command::Empty
    )
}

/// Runs `commands` on a fresh engine as if they were lines of standard input, answering
/// on stdout: a search runs while the commands after it are read (`stop` and `ponderhit`
/// reach it), and jobs wait their turn. After the last one the engine ends as at the end
/// of input, except that a search that ends by itself (a clock, `movetime`, `depth` or
/// `nodes`) is let finish, as Stockfish's argument mode waits for its search; `go
/// infinite`, `go ponder` without its `ponderhit` and a `go` without a limit are stopped.
/// A command refused (an unknown one, a bad value, a file that does not load) ends the run
/// there in the same way: returns false.
pub fn run_commands(commands: &[String]) -> bool {
    let mut session = Uci::new(Engine::new(), Arc::new(Stdout));
    session.run_lines(commands.iter(), InputEnd::Arguments)
}

impl Uci {
    /// A session driving `engine`, answering through `out`.
    pub fn new(engine: Engine, out: Arc<dyn Output>) -> Uci {
        Uci {
            engine,
            out,
            refused: false,
            endless: Endless::default(),
        }
    }

    /// The engine behind the session.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// Reads commands until `quit` or the end of `input`, then stops any search (its
    /// `bestmove` still goes out). A job (`go perft`, `bench`) is finished first, at the
    /// end of input and at `quit`, as Stockfish finishes it; `stop` ends it. Lines need not
    /// be valid UTF-8; a byte-order mark before the first is skipped.
    pub fn run(&mut self, mut input: impl BufRead) {
        let mut buffer = Vec::new();
        let lines = std::iter::from_fn(move || {
            buffer.clear();
            match input.read_until(b'\n', &mut buffer) {
                Ok(0) | Err(_) => None,
                Ok(_) => Some(String::from_utf8_lossy(&buffer).into_owned()),
            }
        });
        self.run_lines(lines, InputEnd::Stdin);
    }

    /// Handles `lines` as they come until `quit`, their end, or (for arguments) a command
    /// refused, and ends as [`InputEnd`] says; false when a command was refused.
    fn run_lines(&mut self, lines: impl Iterator<Item = impl AsRef<str>>, end: InputEnd) -> bool {
        let mut first = true;
        for line in lines {
            let line = line.as_ref();
            let line = if std::mem::take(&mut first) {
                without_byte_order_mark(line)
            } else {
                line
            };
            if !self.handle(line) {
                // `quit`: the jobs have given their results; a search stops.
                self.engine.stop();
                return true;
            }
            if end == InputEnd::Arguments && self.refused {
                self.end_arguments();
                return false;
            }
        }
        match end {
            InputEnd::Stdin => {
                // As `quit`, once the jobs have given their results.
                self.engine.finish_job();
                self.engine.stop();
            }
            InputEnd::Arguments => self.end_arguments(),
        }
        true
    }

    /// The end of the arguments: the jobs give their results, a search that ends by itself
    /// is waited for, and one that would run until `stop` is stopped.
    fn end_arguments(&mut self) {
        self.engine.finish_job();
        let Endless {
            unbounded,
            pondering,
        } = self.endless;
        if unbounded || pondering {
            self.engine.stop();
        } else {
            self.engine.wait();
        }
    }

    /// Runs one command given as an argument and lets what it started end as the argument
    /// mode's last command would (a search that ends by itself is waited for, an endless one
    /// stopped); false when it was refused. For tools that run their own commands between
    /// UCI ones, as `genfens` does.
    pub fn run_argument(&mut self, line: &str) -> bool {
        self.run_lines(std::iter::once(line), InputEnd::Arguments)
    }

    /// Whether the last command handled was refused.
    pub fn last_refused(&self) -> bool {
        self.refused
    }

    fn send(&self, text: &str) {
        send(&*self.out, text);
    }

    fn info(&self, text: &str) {
        self.send(&format!("info string {text}"));
    }

    /// Refuses the command: says why as `info string`.
    fn refuse(&mut self, reason: &str) {
        self.refused = true;
        self.info(reason);
    }

    /// Refuses `command`: a search is running.
    fn refuse_busy(&mut self, command: &str) {
        self.refuse(&format!(
            "{command} refused: a search is running (send stop first)"
        ));
    }

    /// Handles one command line; returns false on `quit`. Jobs (`go perft`, `bench`) that
    /// come while one runs wait their turn without holding up the input; `isready` is
    /// answered at once, `stop` ends the jobs, and any other command (`quit` too) waits
    /// until they have given their results, so commands take effect in the order sent; a
    /// search is not waited for.
    pub fn handle(&mut self, line: &str) -> bool {
        debug!(target: "uci", "<< {}", line.trim());
        self.refused = false;
        let command = parse_command(line);
        let beside_jobs = matches!(
            command,
            Command::Stop | Command::IsReady | Command::Perft(_) | Command::Bench(_)
        );
        if !beside_jobs {
            self.engine.finish_job();
        }
        match command {
            Command::Empty => {}
            Command::Uci => {
                for text in format::handshake() {
                    self.send(&text);
                }
            }
            Command::IsReady => self.send("readyok"),
            // Accepted, and like Stockfish's, changes nothing: debug output goes to the
            // `Debug Log File`.
            Command::Debug => {}
            Command::SetOption(Err(e)) => self.refuse(&e),
            Command::SetOption(Ok((name, value))) => match self.engine.set_option(&name, &value) {
                // Which net evaluates is worth a confirmation, as a refusal is.
                Ok(()) if name.eq_ignore_ascii_case(EVAL_FILE_OPTION) => {
                    let text = format::net_in_use(self.engine.settings(), self.engine.network());
                    self.info(&text);
                }
                // As Stockfish: what a tablebase path found.
                Ok(()) if name.eq_ignore_ascii_case("SyzygyPath") => {
                    if let Some(tables) = self.engine.tablebases() {
                        self.info(&format::tablebases_found(tables));
                    }
                }
                Ok(()) => {}
                Err(OptionError::Busy(name)) => self.refuse_busy(&format!("setoption {name}")),
                Err(e) => self.refuse(&e.to_string()),
            },
            Command::NewGame => {
                if let Err(Busy) = self.engine.new_game() {
                    self.refuse_busy("ucinewgame");
                }
            }
            Command::Position(spec) => {
                match spec.and_then(|spec| spec.build(self.engine.settings().chess960)) {
                    Ok(pos) => self.engine.set_position(pos),
                    Err(e) => self.refuse(&format!("{e}; position unchanged")),
                }
            }
            Command::Go(spec) => {
                // A `go` while searching: the old search sends its bestmove first.
                self.engine.stop();
                let out = Arc::clone(&self.out);
                let limits = spec.resolve(self.engine.position(), |warning| {
                    send(&*out, &format!("info string {warning}"));
                });
                self.endless = Endless {
                    unbounded: !limits.bounded(),
                    pondering: limits.ponder,
                };
                let reporter = Arc::new(UciReporter {
                    out,
                    mode: self.engine.position().castling_mode(),
                    show_wdl: self.engine.settings().show_wdl,
                });
                if let Err(e) = self.engine.go(limits, reporter) {
                    self.refuse(&format!("cannot start the search thread: {e}"));
                    self.send("bestmove (none)");
                }
            }
            Command::Perft(Err(e)) => self.refuse(&e),
            Command::Perft(Ok(depth)) => {
                let out = Arc::clone(&self.out);
                let report = move |lines: Option<Vec<String>>| match lines {
                    Some(lines) => lines.iter().for_each(|text| send(&*out, text)),
                    None => send(&*out, "info string go perft stopped"),
                };
                let started = self.engine.perft(depth, report);
                self.not_started("go perft", started);
            }
            Command::Stop => self.engine.stop(),
            Command::PonderHit => {
                self.endless.pondering = false;
                self.engine.ponderhit();
            }
            Command::Quit => return false,
            Command::Display => {
                let chess960 = self.engine.settings().chess960;
                for text in format::board(self.engine.position(), chess960) {
                    self.send(&text);
                }
            }
            // As Stockfish: a position in check (mated or not) has no static evaluation.
            Command::Eval if self.engine.position().chess().is_check() => {
                self.send("Final evaluation: none (in check)");
            }
            Command::Eval => {
                let (score, trace) = self.engine.eval_trace();
                let turn = self.engine.position().chess().turn();
                for text in format::eval_table(score, &trace, turn) {
                    self.send(&text);
                }
                let network = self.engine.network_eval();
                let by_network = self.engine.evaluates_with_network();
                let material = wdl::material(self.engine.position().chess().board());
                let used = if by_network { network } else { score };
                let searched = self.engine.scaled_for_search(used);
                for text in
                    format::network_eval_lines(network, turn, by_network, searched, material)
                {
                    self.send(&text);
                }
            }
            Command::Compiler => {
                for text in format::compiler(self.engine.kernel()) {
                    self.send(&text);
                }
            }
            Command::Bench(depth) => self.bench(depth),
            Command::Help => {
                for text in help::lines() {
                    self.send(&text);
                }
            }
            Command::Unknown(excerpt) => self.refuse(&format!("unknown command: {excerpt}")),
        }
        true
    }

    /// Runs the bench on the job thread: `isready`, `stop` and `quit` are answered while
    /// it runs.
    fn bench(&mut self, depth: Result<u32, String>) {
        // Refused while searching before the depth is looked at, as before.
        if self.engine.is_running_search() {
            self.refuse_busy("bench");
            return;
        }
        let depth = match depth {
            Ok(depth) => depth,
            Err(e) => return self.refuse(&e),
        };
        let out = Arc::clone(&self.out);
        let count = crate::engine::bench::POSITIONS.len();
        let progress = move |i: usize, fen: &str, nodes: u64| {
            out.progress(&format!("position {i:2}/{count}: {nodes:>10} nodes  {fen}"));
        };
        let out = Arc::clone(&self.out);
        let report = move |result: Option<BenchResult>| match result {
            Some(r) => send(&*out, &format!("{} nodes {} nps", r.nodes, r.nps())),
            None => send(&*out, "info string bench stopped"),
        };
        let started = self.engine.bench(depth, progress, report);
        self.not_started("bench", started);
    }

    /// Says why a job did not start, if it did not.
    fn not_started(&mut self, command: &str, started: Result<(), NotStarted>) {
        match started {
            Ok(()) => {}
            Err(NotStarted::Busy) => self.refuse_busy(command),
            Err(NotStarted::Thread(e)) => {
                self.refuse(&format!("{command}: cannot start a thread: {e}"))
            }
        }
    }
}
