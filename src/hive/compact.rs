//! The exact compact state key: a bit string from which the position can be rebuilt.
//!
//! Unlike the 64-bit Zobrist keys it never collides, so it can check them, and it is small
//! enough to store. It starts from the fixed-slot layout of the Software Challenge write-up
//! this project grew from (one 7-bit cell index per piece, `127` for a piece in reserve, and
//! a bit for the player to move: 155 bits for the 22 pieces) and fixes what that layout
//! misses: identical pieces are interchangeable, the order of a stack is kept, and the
//! obstructed cells are part of the key.
//!
//! # Layout
//!
//! Fields are written from bit 0 upwards; [`CompactKey`] prints as hex, most significant
//! digit first, so bit 0 is the lowest bit of the last digit.
//!
//! 1. The side to move: 1 bit, 0 for white (red), 1 for black (blue).
//! 2. Bounded board only, the obstructed cells: their number `k` (7 bits), then the rank of
//!    the set of their indices among all `k`-subsets of the 91 cells (the combinatorial
//!    number system: `sum C(c_i, i + 1)` over the indices `c_0 < c_1 < ...`), in
//!    `ceil(log2 C(91, k))` bits: 17 bits for the real game's 3 cells.
//! 3. The pieces: for each colour (white first), for each bug in [`Bug::ALL`] order that
//!    the set has, one slot per piece of that kind. A slot is the piece's cell code followed,
//!    for climbers (beetle, mosquito) only, by its height in the stack (3 bits, 0 on the
//!    ground). The slots of one kind are sorted by value, pieces in reserve (all ones) last,
//!    so which of two identical ants stands where makes no difference.
//!
//! Cell codes: on the 91-cell board, the cell index (7 bits, `127` in reserve), as in the
//! write-up but numbered in our reading order. On the open plane, where a position is the
//! same wherever it stands, the cell relative to the position's first occupied cell in
//! reading order: 5 bits of row offset (0 to 30) above 6 bits of column offset plus 32 (0 to
//! 63), 11 bits, all ones in reserve. A connected hive of 28 pieces has offsets of at most 27,
//! so every legal position fits; [`encode`] refuses a scattered test position that does not.
//!
//! # Size
//!
//! | game | bits |
//! | --- | --- |
//! | Software Challenge 2020, 3 obstructed cells | 1 + 7 + 17 + 22 x 7 + 4 x 3 = **191** |
//! | UHP `Base` | 1 + 22 x 11 + 4 x 3 = 255 |
//! | UHP `Base+MLP` | 1 + 28 x 11 + 6 x 3 = 327 |
//!
//! The Software Challenge key is 36 bits longer than the write-up's 155: 12 bits of height
//! for the four beetles (without them, a white beetle on a black one and the reverse read the
//! same) and 24 bits for the obstructed cells (without them, positions on differently
//! obstructed boards read the same). Sorting identical pieces costs no bits. The side to move
//! takes one bit in both. The game's turn counter is not part of the position and is not
//! in the key. The key is at most 384 bits long.

use std::fmt;
use std::sync::OnceLock;

use arrayvec::ArrayVec;

use super::board::{Hive, MoveError};
use super::field::{Field, SC2020_CELLS, Shape, sc2020_cell, sc2020_index};
use super::hex::Hex;
use super::piece::{Bug, Colour, Piece, PieceSet};

/// 64-bit words a key can take.
const WORDS: usize = 6;
/// Bits of the height field of a climber.
const HEIGHT_BITS: u32 = 3;
/// Bits of a cell code on the bounded board.
const BOUNDED_CELL_BITS: u32 = 7;
/// Bits of a cell code on the open plane.
const OPEN_CELL_BITS: u32 = 11;
/// Bits of the column offset inside an open-plane cell code.
const OPEN_COLUMN_BITS: u32 = 6;
/// Bits of the number of obstructed cells.
const COUNT_BITS: u32 = 7;

/// An exact compact key: `len` bits in little-endian 64-bit words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CompactKey {
    words: [u64; WORDS],
    len: u16,
}

impl CompactKey {
    /// The length in bits.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// True for a key of no bits (never produced by [`encode`]).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// A key of `len` bits from its words (as [`CompactKey::words`] gives them); `None` if
    /// `len` is over 384 or a bit at or past `len` is set.
    pub fn from_bits(words: [u64; WORDS], len: usize) -> Option<CompactKey> {
        let clean = words.iter().enumerate().all(|(i, &w)| {
            let used = len.saturating_sub(i * 64).min(64);
            used == 64 || w >> used == 0
        });
        (len <= WORDS * 64 && clean).then_some(CompactKey {
            words,
            len: len as u16,
        })
    }

    /// The bits, bit `i` being bit `i % 64` of word `i / 64`; bits past the length are 0.
    pub fn words(&self) -> &[u64; WORDS] {
        &self.words
    }

    fn push(&mut self, value: u64, bits: u32) {
        debug_assert!(bits == 64 || value >> bits == 0);
        let at = usize::from(self.len);
        assert!(at + bits as usize <= WORDS * 64, "compact key overflow");
        if bits == 0 {
            return;
        }
        let (w, o) = (at / 64, (at % 64) as u32);
        self.words[w] |= value << o;
        if o + bits > 64 {
            self.words[w + 1] |= value >> (64 - o);
        }
        self.len += bits as u16;
    }

    fn push_wide(&mut self, value: u128, bits: u32) {
        let low = bits.min(64);
        self.push((value & ((1u128 << low) - 1)) as u64, low);
        self.push((value >> 64) as u64, bits - low);
    }
}

impl fmt::Display for CompactKey {
    /// Hex, most significant digit first, `ceil(len / 4)` digits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digits = self.len().div_ceil(4);
        for d in (0..digits).rev() {
            let nibble = self.words[d / 16] >> (d % 16 * 4) & 0xf;
            write!(f, "{nibble:x}")?;
        }
        Ok(())
    }
}

/// Reads fields back in order.
struct Reader<'a> {
    key: &'a CompactKey,
    at: usize,
}

impl Reader<'_> {
    fn read(&mut self, bits: u32) -> Result<u64, CompactError> {
        if bits == 0 {
            return Ok(0);
        }
        if self.at + bits as usize > self.key.len() {
            return Err(CompactError::Length {
                expected: self.at + bits as usize,
                got: self.key.len(),
            });
        }
        let (w, o) = (self.at / 64, (self.at % 64) as u32);
        let mut value = self.key.words[w] >> o;
        if o + bits > 64 {
            value |= self.key.words[w + 1] << (64 - o);
        }
        self.at += bits as usize;
        Ok(if bits == 64 {
            value
        } else {
            value & ((1 << bits) - 1)
        })
    }

    fn read_wide(&mut self, bits: u32) -> Result<u128, CompactError> {
        let low = bits.min(64);
        let lo = self.read(low)?;
        let hi = self.read(bits - low)?;
        Ok(u128::from(lo) | u128::from(hi) << 64)
    }
}

/// A position the compact key cannot hold, or bits that are no compact key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompactError {
    /// An open-plane position spread further than a connected hive can be.
    TooSpread,
    /// The key is shorter or longer than its fields.
    Length {
        /// Bits the fields need.
        expected: usize,
        /// Bits the key has.
        got: usize,
    },
    /// Fields that no position encodes to.
    Invalid(String),
    /// The pieces cannot stand where the key puts them.
    Position(MoveError),
}

impl fmt::Display for CompactError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompactError::TooSpread => f.write_str(
                "the pieces are spread too far apart for the compact key (not one hive)",
            ),
            CompactError::Length { expected, got } => {
                write!(f, "compact key of {got} bits, expected {expected}")
            }
            CompactError::Invalid(why) => write!(f, "not a compact key: {why}"),
            CompactError::Position(e) => write!(f, "not a compact key: {e}"),
        }
    }
}

impl std::error::Error for CompactError {}

fn invalid(why: impl Into<String>) -> CompactError {
    CompactError::Invalid(why.into())
}

/// `C(n, k)` for `n` up to 91 (exact in `u128`).
fn binomial(n: usize, k: usize) -> u128 {
    static TABLE: OnceLock<Vec<Vec<u128>>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut rows: Vec<Vec<u128>> = Vec::with_capacity(SC2020_CELLS + 1);
        for n in 0..=SC2020_CELLS {
            let row = (0..=n)
                .map(|k| {
                    if k == 0 || k == n {
                        1
                    } else {
                        rows[n - 1][k - 1] + rows[n - 1][k]
                    }
                })
                .collect();
            rows.push(row);
        }
        rows
    });
    if k > n { 0 } else { table[n][k] }
}

/// Bits that hold every rank of a `k`-subset of the 91 cells.
fn rank_bits(k: usize) -> u32 {
    let count = binomial(SC2020_CELLS, k);
    if count <= 1 {
        0
    } else {
        128 - (count - 1).leading_zeros()
    }
}

fn bits_of(bug: Bug) -> u32 {
    if bug.climbs() { HEIGHT_BITS } else { 0 }
}

/// The compact key of a position. Fails only for an open-plane position spread further than
/// one hive can be.
///
/// ```
/// use rookery::hive::{compact, parse_game_string, PieceSet, Shape};
/// let a = parse_game_string("Base;InProgress;White[2];wA1;bA1 wA1-").unwrap();
/// let key = compact::encode(&a).unwrap();
/// assert_eq!(key.len(), 255);
/// let b = compact::decode(&key, a.piece_set(), Shape::Open).unwrap();
/// assert_eq!(b.layout(), a.layout().normalized());
/// ```
pub fn encode(hive: &Hive) -> Result<CompactKey, CompactError> {
    let mut key = CompactKey {
        words: [0; WORDS],
        len: 0,
    };
    key.push(hive.to_move() as u64, 1);
    let field = hive.field();
    if let Field::Sc2020 { obstructed } = field {
        let cells: Vec<usize> = (0..SC2020_CELLS)
            .filter(|i| obstructed >> i & 1 == 1)
            .collect();
        let rank = cells
            .iter()
            .enumerate()
            .map(|(i, &c)| binomial(c, i + 1))
            .sum();
        key.push(cells.len() as u64, COUNT_BITS);
        key.push_wide(rank, rank_bits(cells.len()));
    }
    let anchor = hive.stacks().map(|(h, _)| h).min().unwrap_or(Hex::ORIGIN);
    let (cell_bits, reserve) = match field {
        Field::Open => (OPEN_CELL_BITS, (1 << OPEN_CELL_BITS) - 1),
        Field::Sc2020 { .. } => (BOUNDED_CELL_BITS, (1 << BOUNDED_CELL_BITS) - 1),
    };
    let code = |h: Hex| -> Result<u64, CompactError> {
        match field {
            Field::Open => {
                let (row, column) = (h.r - anchor.r, h.q - anchor.q + 32);
                if !(0..31).contains(&row) || !(0..64).contains(&column) {
                    return Err(CompactError::TooSpread);
                }
                Ok((row as u64) << OPEN_COLUMN_BITS | column as u64)
            }
            Field::Sc2020 { .. } => Ok(sc2020_index(h).expect("pieces stand on the board") as u64),
        }
    };
    let mut slots: [[ArrayVec<u64, 3>; 8]; 2] = Default::default();
    for (cell, pieces) in hive.stacks() {
        let code = code(cell)?;
        for (height, p) in pieces.iter().enumerate() {
            let bits = bits_of(p.bug);
            slots[p.colour as usize][p.bug as usize].push(code << bits | height as u64);
        }
    }
    let set = hive.piece_set();
    for colour in Colour::ALL {
        for bug in Bug::ALL {
            let kind = &mut slots[colour as usize][bug as usize];
            kind.sort_unstable();
            let bits = bits_of(bug);
            for i in 0..usize::from(set.count(bug)) {
                let value = kind.get(i).copied().unwrap_or(reserve << bits);
                key.push(value, cell_bits + bits);
            }
        }
    }
    Ok(key)
}

/// The position of a compact key, given the piece set and the shape of the field (the
/// obstructed cells are in the key). Pieces are numbered in slot order; on the open plane
/// the first occupied cell is the origin. `encode(decode(k)) == k` for every key accepted,
/// and `decode(encode(p))` has the layout of `p` (normalized on the open plane).
pub fn decode(key: &CompactKey, set: PieceSet, shape: Shape) -> Result<Hive, CompactError> {
    let mut r = Reader { key, at: 0 };
    let to_move = if r.read(1)? == 0 {
        Colour::White
    } else {
        Colour::Black
    };
    let field = match shape {
        Shape::Open => Field::Open,
        Shape::Sc2020 => {
            let k = r.read(COUNT_BITS)? as usize;
            if k > SC2020_CELLS {
                return Err(invalid(format!("{k} obstructed cells")));
            }
            let mut rank = r.read_wide(rank_bits(k))?;
            if rank >= binomial(SC2020_CELLS, k) {
                return Err(invalid("obstructed-cell rank out of range"));
            }
            let mut cells = Vec::with_capacity(k);
            let mut below = SC2020_CELLS;
            for i in (1..=k).rev() {
                let c = (0..below)
                    .rev()
                    .find(|&c| binomial(c, i) <= rank)
                    .expect("C(i - 1, i) = 0 always fits");
                rank -= binomial(c, i);
                cells.push(sc2020_cell(c));
                below = c;
            }
            Field::sc2020(&cells).expect("indices are on the board")
        }
    };
    let (cell_bits, reserve) = match shape {
        Shape::Open => (OPEN_CELL_BITS, (1u64 << OPEN_CELL_BITS) - 1),
        Shape::Sc2020 => (BOUNDED_CELL_BITS, (1u64 << BOUNDED_CELL_BITS) - 1),
    };
    let mut placed: Vec<(Hex, usize, Piece)> = Vec::new();
    for colour in Colour::ALL {
        for bug in Bug::ALL {
            let bits = bits_of(bug);
            let mut previous = None;
            for number in 1..=set.count(bug) {
                let value = r.read(cell_bits + bits)?;
                let (code, height) = (value >> bits, (value & ((1 << bits) - 1)) as usize);
                if previous.is_some_and(|p| p >= value) && code != reserve {
                    return Err(invalid("slots of identical pieces out of order"));
                }
                if previous.is_some_and(|p| p >> bits == reserve) && code != reserve {
                    return Err(invalid("a piece on the board after one in reserve"));
                }
                previous = Some(value);
                if code == reserve {
                    if height != 0 {
                        return Err(invalid("a height for a piece in reserve"));
                    }
                    continue;
                }
                let cell = match shape {
                    Shape::Open if code >> OPEN_COLUMN_BITS == 31 => {
                        return Err(invalid("row offset 31"));
                    }
                    Shape::Open => Hex::new(
                        (code & ((1 << OPEN_COLUMN_BITS) - 1)) as i32 - 32,
                        (code >> OPEN_COLUMN_BITS) as i32,
                    ),
                    Shape::Sc2020 if (code as usize) < SC2020_CELLS => sc2020_cell(code as usize),
                    Shape::Sc2020 => return Err(invalid(format!("cell index {code}"))),
                };
                placed.push((cell, height, Piece::new(colour, bug, number)));
            }
        }
    }
    if r.at != key.len() {
        return Err(CompactError::Length {
            expected: r.at,
            got: key.len(),
        });
    }
    placed.sort_unstable_by_key(|&(cell, height, _)| (cell, height));
    if shape == Shape::Open && placed.first().is_some_and(|p| p.0 != Hex::ORIGIN) {
        return Err(invalid("the first occupied cell is not the origin"));
    }
    let mut hive = Hive::new(set, field);
    for (i, &(cell, height, piece)) in placed.iter().enumerate() {
        let below = if i > 0 && placed[i - 1].0 == cell {
            placed[i - 1].1 + 1
        } else {
            0
        };
        if height != below {
            return Err(invalid(format!("a gap or a clash in the stack on {cell}")));
        }
        hive.put(piece, cell).map_err(CompactError::Position)?;
    }
    hive.set_to_move(to_move);
    Ok(hive)
}
