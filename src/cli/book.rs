//! `rookery book FILE [FEN] [--chess960]`: a position's entries in a Polyglot book, one line
//! each, in file order, entries naming no legal move left out:
//!
//! ```text
//!  <SAN, right-aligned in 6> <share, %5.2f>% <weight, right-aligned in 6> <UCI move>
//! ```
//!
//! for example `     e4 39.40%  12345 e2e4`. The first 14 characters of a line are the
//! line Debian's `polyglot` prints for the xboard command `bk` (`" %6s %5.2f%%"`): the move
//! in SAN with its check suffix, then its share of the position's total weight in percent,
//! truncated to hundredths as polyglot truncates it. Polyglot adds "(below threshold ...)" to
//! moves under its own `BookThreshold` option and a blank line after the list; Rookery has no
//! threshold and prints neither. The weight and the UCI move (castling in the position's
//! notation: `e1g1`, or `e1h1` with `--chess960` or a Chess960 FEN) follow. The share's total
//! counts the listed entries only; polyglot's counts every entry with the position's key,
//! which differs only for a book holding an entry that names no legal move.
//!
//! A summary goes to stderr. A position without entries lists nothing and exits 0; an
//! unreadable or malformed book, or a bad FEN, exits 2.

use shakmaty::san::SanPlus;

use super::Outcome;
use super::args::{Args, UsageError, misuse};
use super::output::out;
use rookery::chess::Position;
use rookery::engine::book::{Book, BookEntry};

/// Usage text.
pub fn usage() -> String {
    "usage: rookery book FILE [FEN] [--chess960]
  lists the entries of FEN's position (default: the start position) in the Polyglot book
  FILE: the move in SAN, its share of the position's weight, the weight, the UCI move
  --chess960   castling written king-takes-rook (a Shredder-FEN is read as Chess960 anyway)"
        .to_string()
}

/// Runs `rookery book` with the words after `book`.
pub fn run(words: &[String]) -> Result<Outcome, UsageError> {
    let args = Args::parse(words, &[], &["chess960"])?;
    let Some((file, fen)) = args.positional.split_first() else {
        return Err(misuse("book", "no book given"));
    };
    let chess960 = args.switch("chess960");
    let pos = if fen.is_empty() {
        let mut pos = Position::startpos();
        if chess960 {
            pos.set_castling_mode(shakmaty::CastlingMode::Chess960);
        }
        pos
    } else {
        // A FEN given unquoted arrives as several words.
        Position::from_fen(&fen.join(" "), chess960).map_err(|e| UsageError(e.to_string()))?
    };
    let book = Book::open(file).map_err(|e| UsageError(e.to_string()))?;
    let entries = book.entries(&pos);
    for line in listing(&pos, &entries) {
        out!("{line}");
    }
    let total: u64 = entries.iter().map(|e| u64::from(e.weight)).sum();
    eprintln!(
        "{file}: {} entries; key {}: {} moves listed of {} stored, total weight {total}",
        book.len(),
        pos.key(),
        entries.len(),
        book.stored_entries(&pos),
    );
    Ok(Outcome::Success)
}

/// The listing lines of `entries`, entries of `pos` (see the module documentation).
pub fn listing(pos: &Position, entries: &[BookEntry]) -> Vec<String> {
    let total: u64 = entries.iter().map(|e| u64::from(e.weight)).sum();
    entries
        .iter()
        .map(|e| {
            // Hundredths of a percent, truncated, as polyglot's (int)(10000.0 * w / total).
            let share = (u64::from(e.weight) * 10_000)
                .checked_div(total)
                .unwrap_or(0);
            let san = SanPlus::from_move(pos.chess().clone(), e.mv).to_string();
            format!(
                " {san:>6} {:>5}% {:>6} {}",
                format!("{}.{:02}", share / 100, share % 100),
                e.weight,
                pos.uci(e.mv)
            )
        })
        .collect()
}
