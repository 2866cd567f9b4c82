//! Gomoku on the shared hashing core: a main key, an independent check key, and both kept
//! for every symmetry of the board, so the canonical key is known at every move.
//!
//! Features: `2 * cell + colour` for a stone, and one more for "white to move". A symmetry
//! moves stones between cells and leaves the side to move alone.

mod board;
pub mod key_samples;
mod notation;
mod tt;

pub use board::{Geometry, Gomoku, GomokuKeys, MAX_SIDE, MIN_SIDE, Stone};
pub use notation::{ParseError, parse_board_block, parse_moves};
pub use tt::{GomokuEntry, GomokuTable};
