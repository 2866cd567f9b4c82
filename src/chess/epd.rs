//! Perft suites in EPD form: `FEN ;D1 20 ;D2 400 ...`, one position a line.

use std::fmt;

/// One line of a perft suite: a position and its published leaf counts by depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftCase {
    /// Line number in the file, from 1.
    pub line: usize,
    /// The position.
    pub fen: String,
    /// `(depth, leaves)` pairs in the order given.
    pub counts: Vec<(u32, u64)>,
}

/// A line that is not `FEN ;Dn count ...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdError {
    /// Line number, from 1.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for EpdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for EpdError {}

/// Parses a perft suite. Blank lines and lines starting with `#` are skipped.
///
/// ```
/// let cases = rookery::chess::epd::parse_suite("8/8/8/8/8/8/8/K6k w - - ;D1 3 ;D2 9\n").unwrap();
/// assert_eq!(cases[0].counts, vec![(1, 3), (2, 9)]);
/// ```
pub fn parse_suite(text: &str) -> Result<Vec<PerftCase>, EpdError> {
    let mut cases = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let raw = raw.trim();
        if raw.is_empty() || raw.starts_with('#') {
            continue;
        }
        let mut parts = raw.split(';');
        let fen = parts.next().unwrap_or_default().trim().to_string();
        let mut counts = Vec::new();
        for part in parts {
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            let error = |message: String| EpdError { line, message };
            let (label, value) = part
                .split_once(char::is_whitespace)
                .ok_or_else(|| error(format!("expected 'Dn count', got '{part}'")))?;
            let depth = label
                .strip_prefix('D')
                .and_then(|d| d.parse::<u32>().ok())
                .ok_or_else(|| error(format!("bad depth label '{label}'")))?;
            let nodes = value
                .trim()
                .parse::<u64>()
                .map_err(|_| error(format!("bad count '{}'", value.trim())))?;
            counts.push((depth, nodes));
        }
        cases.push(PerftCase { line, fen, counts });
    }
    Ok(cases)
}
