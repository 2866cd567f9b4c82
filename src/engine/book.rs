//! Polyglot opening books.
//!
//! # The format
//!
//! A Polyglot book is a flat file of 16-byte entries, every field big-endian:
//!
//! | bytes | field    | meaning                                              |
//! |-------|----------|------------------------------------------------------|
//! | 0-7   | `key`    | the position's Polyglot Zobrist key                  |
//! | 8-9   | `move`   | the move, packed as below                            |
//! | 10-11 | `weight` | how often the move should be played, relatively      |
//! | 12-15 | `learn`  | free for learning tools; read and passed on, unused  |
//!
//! The entries are sorted by key, ascending, so all the entries of one position are
//! consecutive and a binary search finds them. Within a position the file's order is kept.
//!
//! The move packs five 3-bit fields: bits 0-2 the destination file, 3-5 the destination
//! rank, 6-8 the origin file, 9-11 the origin rank (files and ranks counted from 0, so the
//! low six bits are the destination square's index `a1 = 0 ... h8 = 63` and the next six
//! the origin's), and bits 12-14 the promotion: 0 none, 1 knight, 2 bishop, 3 rook,
//! 4 queen. Castling is written as the king taking its own rook (`e1h1`, `e1a1`, `e8h8`,
//! `e8a8` in standard chess), which is how shakmaty's [`Move::Castle`] is built too, so a
//! castling entry becomes the same [`Move`] whichever castling notation the position uses
//! for output (`e1g1` in standard mode, `e1h1` in Chess960 mode).
//!
//! # Reading
//!
//! [`Book::open`] reads the whole file into memory and checks it: a missing or unreadable
//! file, an empty one, one whose length is not a multiple of 16 and one whose keys are not
//! in ascending order are refused with a [`BookError`]. Probing uses the position's own
//! incremental key ([`Position::key`], which is the Polyglot key). A book move is turned into
//! the legal shakmaty [`Move`] it names; an entry naming no legal move (a key collision, a
//! damaged entry) is skipped, never played.

use std::error::Error;
use std::fmt;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::str::FromStr;

use rand::{Rng, RngExt};
use shakmaty::{Move, MoveList, Role, Square};

use crate::chess::Position;

/// Bytes per book entry.
pub const ENTRY_BYTES: usize = 16;
/// The longest book read: 64 Mi entries, several times the largest books published.
pub const MAX_BOOK_BYTES: u64 = 1 << 30;

/// One entry as stored in the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct RawEntry {
    key: u64,
    mv: u16,
    weight: u16,
    learn: u32,
}

impl RawEntry {
    fn read(bytes: &[u8]) -> RawEntry {
        let field = |range: std::ops::Range<usize>| {
            bytes[range]
                .iter()
                .fold(0u64, |acc, &b| (acc << 8) | u64::from(b))
        };
        RawEntry {
            key: field(0..8),
            mv: field(8..10) as u16,
            weight: field(10..12) as u16,
            learn: field(12..16) as u32,
        }
    }
}

/// A Polyglot opening book, held in memory.
#[derive(Clone, Debug)]
pub struct Book {
    entries: Vec<RawEntry>,
}

/// A book entry of a position, its move made legal for that position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookEntry {
    /// The move, as the position's legal move (castling is king-takes-rook internally).
    pub mv: Move,
    /// The entry's weight; moves are picked in proportion to it, weight 0 never.
    pub weight: u16,
    /// The entry's learn field, as stored.
    pub learn: u32,
}

/// How a move is chosen among a position's book entries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BookChoice {
    /// The entry with the highest weight; the first in the file among equals.
    #[default]
    Best,
    /// A random entry, each with a chance proportional to its weight.
    Weighted,
}

impl BookChoice {
    /// The names [`FromStr`] accepts and [`fmt::Display`] writes, in declaration order.
    pub const NAMES: [&'static str; 2] = ["best", "weighted"];
}

impl fmt::Display for BookChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BookChoice::Best => "best",
            BookChoice::Weighted => "weighted",
        })
    }
}

impl FromStr for BookChoice {
    type Err = String;

    /// Reads `best` or `weighted`, in any case.
    fn from_str(text: &str) -> Result<BookChoice, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "best" => Ok(BookChoice::Best),
            "weighted" => Ok(BookChoice::Weighted),
            _ => Err(format!(
                "unknown book choice '{}' (expected best or weighted)",
                text.trim()
            )),
        }
    }
}

/// Why a book file was refused.
#[derive(Debug)]
pub enum BookError {
    /// The file could not be read (missing, a directory, no permission).
    Unreadable {
        /// The file named.
        path: PathBuf,
        /// What the system said.
        error: io::Error,
    },
    /// The file holds no entry.
    Empty {
        /// The file named.
        path: PathBuf,
    },
    /// The file's length is not a whole number of 16-byte entries.
    Misaligned {
        /// The file named.
        path: PathBuf,
        /// Its length in bytes.
        len: usize,
    },
    /// The keys are not in ascending order, so binary search would miss entries.
    Unsorted {
        /// The file named.
        path: PathBuf,
        /// Index of the first entry whose key is below its predecessor's.
        entry: usize,
    },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Unreadable { path, error } => {
                write!(f, "cannot read book '{}': {error}", path.display())
            }
            BookError::Empty { path } => {
                write!(f, "book '{}' is empty", path.display())
            }
            BookError::Misaligned { path, len } => write!(
                f,
                "book '{}' is misaligned: {len} bytes is not a multiple of {ENTRY_BYTES} \
                 (not a Polyglot book, or truncated)",
                path.display()
            ),
            BookError::Unsorted { path, entry } => write!(
                f,
                "book '{}' is corrupt: the keys are not sorted (entry {entry} is below \
                 entry {})",
                path.display(),
                entry - 1
            ),
        }
    }
}

impl Error for BookError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            BookError::Unreadable { error, .. } => Some(error),
            _ => None,
        }
    }
}

impl Book {
    /// Reads and checks the book at `path`: the whole file is read into memory once, entry
    /// by entry. A path that is not a regular file, or a file longer than [`MAX_BOOK_BYTES`],
    /// is refused before it is read.
    pub fn open(path: impl AsRef<Path>) -> Result<Book, BookError> {
        let path = path.as_ref();
        let unreadable = |error| BookError::Unreadable {
            path: path.to_path_buf(),
            error,
        };
        let (file, len) =
            crate::input_file::open(path, MAX_BOOK_BYTES, "a book").map_err(unreadable)?;
        if len == 0 {
            return Err(BookError::Empty {
                path: path.to_path_buf(),
            });
        }
        if len % ENTRY_BYTES as u64 != 0 {
            return Err(BookError::Misaligned {
                path: path.to_path_buf(),
                len: len as usize,
            });
        }
        let count = (len / ENTRY_BYTES as u64) as usize;
        let mut entries: Vec<RawEntry> = Vec::new();
        entries
            .try_reserve_exact(count)
            .map_err(|_| unreadable(crate::input_file::cannot_hold(len)))?;
        let mut reader = io::BufReader::new(file);
        let mut entry = [0; ENTRY_BYTES];
        for _ in 0..count {
            reader.read_exact(&mut entry).map_err(unreadable)?;
            entries.push(RawEntry::read(&entry));
        }
        if let Some(i) = entries.windows(2).position(|w| w[1].key < w[0].key) {
            return Err(BookError::Unsorted {
                path: path.to_path_buf(),
                entry: i + 1,
            });
        }
        Ok(Book { entries })
    }

    /// Number of entries in the book, all positions together.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no entry (never true of an opened book).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The stored entries with this key, in file order, by binary search.
    fn raw_entries(&self, key: u64) -> &[RawEntry] {
        let start = self.entries.partition_point(|e| e.key < key);
        let len = self.entries[start..].partition_point(|e| e.key == key);
        &self.entries[start..start + len]
    }

    /// How many entries, legal or not, carry the position's key.
    pub fn stored_entries(&self, pos: &Position) -> usize {
        self.raw_entries(pos.key().0).len()
    }

    /// The position's entries in file order, each with its legal move; entries naming no
    /// legal move are left out. Entries of weight 0 are included.
    pub fn entries(&self, pos: &Position) -> Vec<BookEntry> {
        let raw = self.raw_entries(pos.key().0);
        if raw.is_empty() {
            return Vec::new();
        }
        let legal = pos.legal_moves();
        raw.iter()
            .filter_map(|e| {
                find_move(&legal, e.mv).map(|mv| BookEntry {
                    mv,
                    weight: e.weight,
                    learn: e.learn,
                })
            })
            .collect()
    }

    /// A book move for the position chosen as `choice` says (`rng` is only drawn from for
    /// [`BookChoice::Weighted`]), or `None` when the position has no legal entry of
    /// weight above 0.
    pub fn choose<R: Rng + ?Sized>(
        &self,
        pos: &Position,
        choice: BookChoice,
        rng: &mut R,
    ) -> Option<BookEntry> {
        pick(&self.entries(pos), choice, rng)
    }
}

/// Chooses among `entries` as `choice` says; entries of weight 0 are never chosen.
/// [`BookChoice::Weighted`] draws one number from `rng` when there is a choice to make.
pub fn pick<R: Rng + ?Sized>(
    entries: &[BookEntry],
    choice: BookChoice,
    rng: &mut R,
) -> Option<BookEntry> {
    let candidates = entries.iter().filter(|e| e.weight > 0);
    match choice {
        // `max_by_key` keeps the last of equals, so search the reversed order.
        BookChoice::Best => candidates.rev().max_by_key(|e| e.weight).copied(),
        BookChoice::Weighted => {
            let total: u64 = entries.iter().map(|e| u64::from(e.weight)).sum();
            if total == 0 {
                return None;
            }
            let mut ticket = rng.random_range(0..total);
            for e in candidates {
                let weight = u64::from(e.weight);
                if ticket < weight {
                    return Some(*e);
                }
                ticket -= weight;
            }
            unreachable!("the ticket is below the total weight")
        }
    }
}

/// Decodes a Polyglot move into the origin, destination and promotion it names; `None`
/// for a promotion code above 4 or a set bit 15.
pub fn decode_move(raw: u16) -> Option<(Square, Square, Option<Role>)> {
    let to = Square::new(u32::from(raw & 0x3f));
    let from = Square::new(u32::from((raw >> 6) & 0x3f));
    let promotion = match raw >> 12 {
        0 => None,
        1 => Some(Role::Knight),
        2 => Some(Role::Bishop),
        3 => Some(Role::Rook),
        4 => Some(Role::Queen),
        _ => return None,
    };
    Some((from, to, promotion))
}

/// Encodes a move the Polyglot way (castling as king takes rook); `None` for a move with
/// no origin square (a drop) or a promotion to a piece Polyglot cannot name.
pub fn encode_move(mv: Move) -> Option<u16> {
    let from = mv.from()?;
    let promotion = match mv.promotion() {
        None => 0,
        Some(Role::Knight) => 1,
        Some(Role::Bishop) => 2,
        Some(Role::Rook) => 3,
        Some(Role::Queen) => 4,
        Some(_) => return None,
    };
    Some((promotion << 12) | (u16::from(from) << 6) | u16::from(mv.to()))
}

/// The legal move a Polyglot move names, if any. Castling needs no special case: shakmaty's
/// castling move goes from the king's square to the rook's, as Polyglot writes it.
fn find_move(legal: &MoveList, raw: u16) -> Option<Move> {
    let (from, to, promotion) = decode_move(raw)?;
    legal
        .iter()
        .find(|m| m.from() == Some(from) && m.to() == to && m.promotion() == promotion)
        .copied()
}

/// The legal move a Polyglot move names in `pos`, or `None` when it names none.
pub fn book_move(pos: &Position, raw: u16) -> Option<Move> {
    find_move(&pos.legal_moves(), raw)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_legal_move_survives_encoding() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",
        ];
        for fen in fens {
            let pos = Position::from_fen(fen, false).unwrap();
            let legal = pos.legal_moves();
            for &mv in &legal {
                let raw = encode_move(mv).unwrap();
                assert_eq!(find_move(&legal, raw), Some(mv), "{fen}: {mv:?}");
            }
        }
    }

    #[test]
    fn castling_is_king_takes_rook() {
        let pos = Position::startpos();
        let e1h1 = (4 << 6) | 7;
        assert_eq!(decode_move(e1h1), Some((Square::E1, Square::H1, None)));
        assert_eq!(book_move(&pos, e1h1), None, "not legal at the start");
        // e2e4 is 0x031c: from e2 = 12, to e4 = 28.
        assert_eq!(decode_move(0x031c), Some((Square::E2, Square::E4, None)));
    }

    #[test]
    fn bad_promotion_codes_name_no_move() {
        assert_eq!(decode_move(5 << 12), None);
        assert_eq!(decode_move(0x8000), None);
        assert_eq!(
            decode_move((4 << 12) | (52 << 6) | 60),
            Some((Square::E7, Square::E8, Some(Role::Queen)))
        );
    }
}
