//! Hive on the shared hashing core: UHP games on the open plane (base set and the mosquito,
//! ladybug and pillbug expansions) and the Software Challenge 2020 game on its 91-cell
//! board with obstructed cells.
//!
//! Keys: a main and an independent check key ([`crate::hashing::DualKey`]) over features
//! `(colour, bug, height, cell)` plus one for black to move (and, on the bounded board, one per
//! obstructed cell), toggled on every move. Instance numbers are not features, so identical
//! pieces are interchangeable. Heights are kept apart only for the pieces that climb (beetles
//! and mosquitoes, at most six above the ground), which bounds the features at 40 kinds per
//! cell. The open plane is folded onto a 32 x 32 torus for keys (see [`Field`]).
//!
//! Canonical keys: the least main key over the twelve symmetries of the grid, with
//! translation taken out on the open plane (computed when asked), and over those symmetries
//! of the bounded board that keep its obstructed cells in place (kept move by move with
//! [`crate::hashing::SymmetricKeyTable`]). Tables take them through
//! [`crate::hashing::DualKey::canonical_table_key`], which spreads the minimum's top bits.
//!
//! [`compact`] holds the exact compact key; [`parse_game_string`] reads UHP.

mod board;
pub mod compact;
mod field;
mod hex;
pub mod key_samples;
mod piece;
mod uhp;

pub use board::{Hive, HiveKeys, Layout, MAX_HEIGHT, Move, MoveError};
pub use compact::{CompactError, CompactKey};
pub use field::{
    Field, SC2020_CELLS, SC2020_RADIUS, Shape, WINDOW, WINDOW_CELLS, sc2020_cell, sc2020_index,
};
pub use hex::{Direction, Frame, Hex, Transform};
pub use piece::{Bug, Colour, Expansions, Piece, PieceSet};
pub use uhp::{
    UhpError, move_string, parse_game_string, parse_game_string_lenient, parse_move, parse_piece,
    turn_string,
};
