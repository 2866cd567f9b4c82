//! The positions a tool reads from an EPD suite (`--epd FILE`), or the start position.

use std::path::Path;

use super::args::{self, UsageError};
use rookery::chess::Position;
use rookery::chess::epd::{self, PerftCase};
use shakmaty::{CastlingMode, Chess};

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

/// The positions of the EPD or FEN file named by `--epd` (any operations after a
/// position, a perft suite's counts among them, are passed over), or the start position
/// without it, and a name for them. A file without a position is refused.
pub(crate) fn epd_roots(args: &args::Args) -> Result<(Vec<Root>, String), UsageError> {
    let Some(path) = args.value::<std::path::PathBuf>("epd")? else {
        return Ok((vec![Root::startpos()], "the start position".to_string()));
    };
    let text = rookery::input_file::read_text(&path, MAX_SUITE_BYTES, "a suite")
        .map_err(|e| UsageError(format!("cannot read {}: {e}", path.display())))?;
    let mut roots = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let Some(line_read) = epd::split_line(line) else {
            continue;
        };
        let pos = Position::from_fen(&line_read.fen, false)
            .map_err(|e| UsageError(format!("{}:{}: {e}", path.display(), i + 1)))?;
        roots.push(Root {
            chess: pos.chess().clone(),
            mode: pos.castling_mode(),
        });
    }
    if roots.is_empty() {
        return Err(UsageError(format!("{}: no positions", path.display())));
    }
    Ok((roots, path.display().to_string()))
}

/// Parses a suite position, naming the line on failure.
pub(crate) fn case_position(case: &PerftCase, chess960: bool) -> Result<Position, UsageError> {
    Position::from_fen(&case.fen, chess960)
        .map_err(|e| UsageError(format!("line {}: {e}", case.line)))
}
