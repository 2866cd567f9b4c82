//! Position sets for measuring key quality: seeded random sequences of physically sensible
//! moves with take-backs, each node recorded as its exact encoding beside its keys.

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

use super::board::{Hive, Move};
use super::compact::{self, CompactKey};
use super::hex::Hex;

/// A Hive position encoded exactly where it stands, as far as the main key can see: the
/// compact key (exact up to translation on the open plane) and the key cell of the first
/// occupied cell in reading order ([`Field::key_cell`](super::Field::key_cell): the open plane folded onto the
/// torus the keys use). The main key is a function of exactly this.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PlacedCode {
    compact: CompactKey,
    anchor: usize,
}

impl PlacedCode {
    /// The exact encoding of `hive`, or `None` for a position too spread out for the
    /// compact key (never a connected one).
    pub fn of(hive: &Hive) -> Option<PlacedCode> {
        let anchor = hive.stacks().map(|(h, _)| h).min().unwrap_or(Hex::ORIGIN);
        Some(PlacedCode {
            compact: compact::encode(hive).ok()?,
            anchor: hive.field().key_cell(anchor)?,
        })
    }
}

/// The least compact key over the frames of the canonical key: equal exactly for positions
/// that are images of each other under translation and the field's symmetries.
pub fn canonical_code(hive: &Hive) -> Option<CompactKey> {
    hive.frames()
        .map(|frame| {
            hive.transformed(frame)
                .and_then(|h| compact::encode(&h).ok())
        })
        .min()
        .flatten()
}

/// Visits every position of `games` seeded random games from `start`: each step plays a
/// random physically sensible move ([`Hive::sensible_moves`]), or with probability 1/8
/// takes the last one back, for `plies` steps.
pub fn walk_random_games(
    start: &Hive,
    games: u64,
    plies: u32,
    seed: u64,
    mut visit: impl FnMut(&Hive),
) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut moves: Vec<Move> = Vec::new();
    for _ in 0..games {
        let mut hive = start.clone();
        visit(&hive);
        for _ in 0..plies {
            if rng.random_range(0..8) == 0 && hive.undo() {
                visit(&hive);
                continue;
            }
            hive.sensible_moves(&mut moves);
            let mv = moves[rng.random_range(0..moves.len())];
            hive.play(mv).expect("sensible moves can be played");
            visit(&hive);
        }
    }
}
