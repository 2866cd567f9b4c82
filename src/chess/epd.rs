//! Lines of EPD files: a position and its operations ([`split_line`]), as a book of
//! openings (`bm e4; id "x";`, a full FEN, or four fields alone) or a perft suite
//! (`FEN ;D1 20 ;D2 400 ...`, [`parse_suite`]) writes them, one position a line.

use std::fmt;

/// One line of an EPD file: its position, and the operations after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdLine<'a> {
    /// The position as a full FEN: the line's four position fields, then its halfmove
    /// clock and move number, taken from the two numbers after the fields (a FEN's), else
    /// from its `hmvc` and `fmvn` operations, else 0 and 1.
    pub fen: String,
    /// The operations after the position, as written (`bm e4; id "x";`, `;D1 20 ;D2 400`).
    pub operations: &'a str,
}

/// Splits a line of an EPD or FEN file into its position and operations; `None` for a
/// blank line or a comment (`#`). A line of fewer than four fields gives what it has, for
/// the FEN parser to refuse.
///
/// ```
/// use rookery::chess::epd::split_line;
///
/// let line = split_line(r#"4k3/8/8/8/8/8/8/4K2R w K - bm Rh8+; hmvc 7; id "a; b";"#).unwrap();
/// assert_eq!(line.fen, "4k3/8/8/8/8/8/8/4K2R w K - 7 1");
/// let line = split_line("4k3/8/8/8/8/8/8/4K2R w K - 3 40 ;D1 15").unwrap();
/// assert_eq!((line.fen.as_str(), line.operations), ("4k3/8/8/8/8/8/8/4K2R w K - 3 40", ";D1 15"));
/// ```
pub fn split_line(line: &str) -> Option<EpdLine<'_>> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return None;
    }
    let mut fields = Vec::with_capacity(6);
    let mut rest = line;
    while fields.len() < 4
        && let Some((field, after)) = next_field(rest)
    {
        fields.push(field);
        rest = after;
    }
    // A FEN's clocks: numbers right after the position fields.
    let mut clocks = Vec::with_capacity(2);
    while clocks.len() < 2
        && let Some((field, after)) = next_field(rest)
        && field.parse::<u32>().is_ok()
    {
        clocks.push(field);
        rest = after;
    }
    let operations = rest.trim();
    let operation = |name: &str| {
        self::operations(operations)
            .find(|&(opcode, _)| opcode == name)
            .map(|(_, operand)| operand)
            .filter(|operand| operand.parse::<u32>().is_ok())
    };
    let halfmoves = clocks.first().copied().or_else(|| operation("hmvc"));
    let fullmoves = clocks.get(1).copied().or_else(|| operation("fmvn"));
    let fen = format!(
        "{} {} {}",
        fields.join(" "),
        halfmoves.unwrap_or("0"),
        fullmoves.unwrap_or("1")
    );
    Some(EpdLine { fen, operations })
}

/// The first field of `text` (up to white space or a `;`) and what follows it; `None` at an
/// operation's `;` or the end.
fn next_field(text: &str) -> Option<(&str, &str)> {
    let text = text.trim_start();
    if text.is_empty() || text.starts_with(';') {
        return None;
    }
    let end = text
        .find(|c: char| c.is_whitespace() || c == ';')
        .unwrap_or(text.len());
    Some(text.split_at(end))
}

/// The operations of an EPD line (`bm e4; id "x; y";`), each `(opcode, operands)`, split
/// at the semicolons outside quoted strings; empty ones left out.
pub fn operations(text: &str) -> impl Iterator<Item = (&str, &str)> {
    let mut quoted = false;
    text.split(move |c: char| {
        if c == '"' {
            quoted = !quoted;
        }
        c == ';' && !quoted
    })
    .map(str::trim)
    .filter(|operation| !operation.is_empty())
    .map(|operation| {
        let (opcode, operands) = operation
            .split_once(char::is_whitespace)
            .unwrap_or((operation, ""));
        (opcode, operands.trim())
    })
}

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
        let Some(EpdLine { fen, operations }) = split_line(raw) else {
            continue;
        };
        let mut counts = Vec::new();
        for (label, value) in self::operations(operations) {
            let error = |message: String| EpdError { line, message };
            if value.is_empty() {
                return Err(error(format!("expected 'Dn count', got '{label}'")));
            }
            let depth = label
                .strip_prefix('D')
                .and_then(|d| d.parse::<u32>().ok())
                .ok_or_else(|| error(format!("bad depth label '{label}'")))?;
            let nodes = value
                .parse::<u64>()
                .map_err(|_| error(format!("bad count '{value}'")))?;
            counts.push((depth, nodes));
        }
        cases.push(PerftCase { line, fen, counts });
    }
    Ok(cases)
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";

    #[test]
    fn a_line_gives_its_position_with_clocks_from_the_fen_the_operations_or_by_default() {
        for (line, fen, operations) in [
            (START.to_string(), format!("{START} 0 1"), ""),
            (format!("{START} 5 9"), format!("{START} 5 9"), ""),
            // A FEN's own clocks come before the operations'.
            (
                format!("{START} 5 9 hmvc 7;"),
                format!("{START} 5 9"),
                "hmvc 7;",
            ),
            (
                format!("{START} bm e4; hmvc 7; fmvn 12; id \"x\";"),
                format!("{START} 7 12"),
                "bm e4; hmvc 7; fmvn 12; id \"x\";",
            ),
            // A `hmvc` inside a quoted string is no operation.
            (
                format!("{START} c0 \"; hmvc 9;\"; fmvn 3;"),
                format!("{START} 0 3"),
                "c0 \"; hmvc 9;\"; fmvn 3;",
            ),
            // A perft suite's counts, with and without a space before them.
            (
                format!("{START} 0 1 ;D1 20"),
                format!("{START} 0 1"),
                ";D1 20",
            ),
            (format!("{START};D1 20"), format!("{START} 0 1"), ";D1 20"),
            ("  a b  ".to_string(), "a b 0 1".to_string(), ""),
        ] {
            let read = split_line(&line).unwrap();
            assert_eq!(
                (read.fen.as_str(), read.operations),
                (fen.as_str(), operations),
                "{line}"
            );
        }
        for skipped in ["", "   ", "# a comment", "  # indented"] {
            assert_eq!(split_line(skipped), None, "{skipped:?}");
        }
    }

    #[test]
    fn operations_split_at_semicolons_outside_quotes() {
        let found: Vec<_> = operations(r#"bm Nf3 e4; id "a; b";; c0 ""; noop;"#).collect();
        assert_eq!(
            found,
            [
                ("bm", "Nf3 e4"),
                ("id", "\"a; b\""),
                ("c0", "\"\""),
                ("noop", "")
            ]
        );
    }

    #[test]
    fn a_suite_line_without_a_count_or_with_a_bad_one_is_refused() {
        let cases = parse_suite(&format!("# suite\n\n{START} ;D1 20 ;D2 400\n")).unwrap();
        assert_eq!(cases.len(), 1);
        assert_eq!(
            (cases[0].line, cases[0].counts.clone()),
            (3, vec![(1, 20), (2, 400)])
        );
        for (text, message) in [
            (format!("{START} ;D1"), "expected 'Dn count', got 'D1'"),
            (format!("{START} ;X1 20"), "bad depth label 'X1'"),
            (format!("{START} ;D1 lots"), "bad count 'lots'"),
        ] {
            let error = parse_suite(&text).unwrap_err();
            assert_eq!((error.line, error.message.as_str()), (1, message), "{text}");
        }
    }
}
