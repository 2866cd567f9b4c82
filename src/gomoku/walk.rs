//! Position sets for measuring key quality: seeded random move sequences with take-backs,
//! each node recorded as its exact encoding beside its keys.

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

use super::{Geometry, Gomoku, Stone};
use crate::hashing::quality::SampleSet;

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
        let geometry = board.geometry();
        if geometry.cells() > 32 * W {
            return None;
        }
        let mut cells = [0u64; W];
        for cell in 0..geometry.cells() {
            let bits = match board.stone(cell) {
                None => 0,
                Some(Stone::Black) => 1,
                Some(Stone::White) => 2,
            };
            cells[cell / 32] |= bits << (2 * (cell % 32));
        }
        Some(GomokuCode {
            cells,
            white_to_move: board.to_move() == Stone::White,
        })
    }
}

/// Adds every position of `games` seeded random games on `geometry`: each step places a
/// stone on a random empty cell, or with probability 1/8 takes the last one back, for
/// `plies` steps or until the board is full.
pub fn walk_random_games<const W: usize>(
    geometry: Geometry,
    games: u64,
    plies: u32,
    seed: u64,
    samples: &mut SampleSet<GomokuCode<W>>,
) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut empty: Vec<usize> = Vec::with_capacity(geometry.cells());
    for _ in 0..games {
        let mut board = Gomoku::new(geometry);
        record(&board, samples);
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
            record(&board, samples);
        }
    }
}

fn record<const W: usize>(board: &Gomoku, samples: &mut SampleSet<GomokuCode<W>>) {
    let code = GomokuCode::of(board).expect("the caller picked a code wide enough");
    let key = board.key();
    samples.push(code, key.main.0, key.check.0);
}
