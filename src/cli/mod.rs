//! The command-line tools. Results go to stdout in the documented formats; progress,
//! timings and speeds go to stderr.

pub mod args;
pub mod bench;
pub mod book;
pub mod data;
pub mod data_import;
pub mod datagen;
pub mod games;
pub mod genfens;
pub mod hash;
pub mod hashcheck;
pub mod hashstats;
pub mod key_report;
pub mod net;
pub mod output;
pub mod perft;
pub mod spsa;
pub mod train;

use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use args::UsageError;
use rookery::chess::Position;
use rookery::chess::epd::{self, PerftCase};
use shakmaty::{CastlingMode, Chess};

/// What a tool run ended with.
pub enum Outcome {
    /// Everything checked out (exit 0).
    Success,
    /// A check failed (exit 1).
    Failure,
}

impl From<Outcome> for ExitCode {
    fn from(outcome: Outcome) -> ExitCode {
        match outcome {
            Outcome::Success => ExitCode::SUCCESS,
            Outcome::Failure => ExitCode::from(1),
        }
    }
}

/// The longest EPD suite read: a hundred times the size of the 960 Chess960 positions.
const MAX_SUITE_BYTES: u64 = 64 << 20;

/// Reads a perft suite from `path`; a suite without a position is refused.
pub(crate) fn read_suite(path: &Path) -> Result<Vec<PerftCase>, UsageError> {
    let text = rookery::input_file::read_text(path, MAX_SUITE_BYTES, "a suite")
        .map_err(|e| UsageError(format!("cannot read {}: {e}", path.display())))?;
    let cases =
        epd::parse_suite(&text).map_err(|e| UsageError(format!("{}: {e}", path.display())))?;
    if cases.is_empty() {
        return Err(UsageError(format!("{}: no positions", path.display())));
    }
    Ok(cases)
}

/// A position read from a suite, kept as its board alone: [`Root::position`] gives it the
/// key stack a walk needs when it is walked (a stack takes tens of KiB, a board a few
/// hundred bytes), so a long suite costs little more than its text.
#[derive(Clone, Debug)]
pub(crate) struct Root {
    chess: Chess,
    mode: CastlingMode,
}

impl Root {
    /// The standard start position.
    pub(crate) fn startpos() -> Root {
        Root {
            chess: Chess::default(),
            mode: CastlingMode::Standard,
        }
    }

    /// The position, ready to walk.
    pub(crate) fn position(&self) -> Position {
        Position::new(self.chess.clone(), self.mode)
    }
}

/// The positions of the suite named by `--epd`, or the start position without it, and a
/// name for them.
pub(crate) fn epd_roots(args: &args::Args) -> Result<(Vec<Root>, String), UsageError> {
    match args.value::<std::path::PathBuf>("epd")? {
        Some(path) => {
            let roots = read_suite(&path)?
                .iter()
                .map(|case| {
                    case_position(case, false).map(|pos| Root {
                        chess: pos.chess().clone(),
                        mode: pos.castling_mode(),
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok((roots, path.display().to_string()))
        }
        None => Ok((vec![Root::startpos()], "the start position".to_string())),
    }
}

/// Parses a suite position, naming the line on failure.
pub(crate) fn case_position(case: &PerftCase, chess960: bool) -> Result<Position, UsageError> {
    Position::from_fen(&case.fen, chess960)
        .map_err(|e| UsageError(format!("line {}: {e}", case.line)))
}

/// Nodes per second, 0 for an instant run.
pub(crate) fn nps(nodes: u64, elapsed: Duration) -> u64 {
    let secs = elapsed.as_secs_f64();
    if secs > 0.0 {
        (nodes as f64 / secs) as u64
    } else {
        0
    }
}
