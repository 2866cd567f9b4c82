//! Position sets for measuring key quality: seeded random move sequences with take-backs,
//! each node recorded as its exact encoding beside its keys.

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

use super::{Geometry, Gomoku, Stone};

/// A gomoku position encoded exactly: two bits per cell (empty, black, white) in `W`
/// words, so boards of up to `32 * W` cells, and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GomokuCode<const W: usize> {
    cells: [u64; W],
    white_to_move: bool,
}

impl<const W: usize> GomokuCode<W> {
    /// The exact encoding of `board`, or `None` if the board has more than `32 * W` cells.
    pub fn of(board: &Gomoku) -> Option<GomokuCode<W>> {
        // Transform 0 is the identity.
        GomokuCode::of_transformed(board, 0)
    }

    /// The exact encoding of `board` seen through transform `g` (`board.transformed(g)`,
    /// without building it).
    pub fn of_transformed(board: &Gomoku, g: usize) -> Option<GomokuCode<W>> {
        let geometry = board.geometry();
        if geometry.cells() > 32 * W {
            return None;
        }
        let mut cells = [0u64; W];
        for cell in 0..geometry.cells() {
            let bits = match board.stone(cell) {
                None => continue,
                Some(Stone::Black) => 1,
                Some(Stone::White) => 2,
            };
            let image = board.transform_cell(g, cell);
            cells[image / 32] |= bits << (2 * (image % 32));
        }
        Some(GomokuCode {
            cells,
            white_to_move: board.to_move() == Stone::White,
        })
    }

    /// The least encoding over the board's symmetries: equal exactly for positions that
    /// are images of each other, the identity the canonical key stands for.
    pub fn canonical(board: &Gomoku) -> Option<GomokuCode<W>> {
        (0..board.symmetries())
            .map(|g| GomokuCode::of_transformed(board, g))
            .min()
            .flatten()
    }
}

/// Visits every position of `games` seeded random games on `geometry`: each step places a
/// stone on a random empty cell, or with probability 1/8 takes the last one back, for
/// `plies` steps or until the board is full.
pub fn walk_random_games(
    geometry: Geometry,
    games: u64,
    plies: u32,
    seed: u64,
    mut visit: impl FnMut(&Gomoku),
) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut empty: Vec<usize> = Vec::with_capacity(geometry.cells());
    for _ in 0..games {
        let mut board = Gomoku::new(geometry);
        visit(&board);
        for _ in 0..plies {
            if !board.moves().is_empty() && rng.random_range(0..8) == 0 {
                board.take_back();
            } else {
                empty.clear();
                empty.extend((0..geometry.cells()).filter(|&c| board.stone(c).is_none()));
                if empty.is_empty() {
                    break;
                }
                let cell = empty[rng.random_range(0..empty.len())];
                board.place(cell).expect("the cell is empty");
            }
            visit(&board);
        }
    }
}
