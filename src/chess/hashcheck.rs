//! Hash consistency: at every node, the incremental key must equal shakmaty's reference
//! hash and our own from-scratch key.

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use shakmaty::{Move, Position as _};

use super::Position;
use super::zobrist::{key_from_scratch, reference_key};
use crate::hashing::Key;

/// The first node whose keys disagree, and how it was reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// FEN of the position before the move (of the position itself for a root).
    pub parent_fen: String,
    /// The move (UCI) that led to the bad key; `0000` for a null move, `-` for a root.
    pub mv: String,
    /// Our incremental key.
    pub incremental: Key,
    /// shakmaty's `Zobrist64` with pseudo-legal en passant.
    pub reference: Key,
    /// Our key computed from scratch.
    pub scratch: Key,
    /// The key predicted for this move before it was played (`Position::keys_after` in tree
    /// walks, `Position::key_after` in games); it must equal the incremental key. `None` for
    /// a root or a null move.
    pub predicted: Option<Key>,
}

/// How the checked node was reached from the one below it on the stack.
#[derive(Clone, Copy)]
enum Step {
    Root,
    /// A move, with the key predicted for it before it was played.
    Move(Move, Key),
    Null,
}

/// Running totals of a hash-consistency walk.
#[derive(Clone, Debug, Default)]
pub struct HashCheck {
    /// Nodes whose keys were compared.
    pub nodes: u64,
    /// Nodes where any two keys differed.
    pub mismatches: u64,
    /// The first mismatch met.
    pub first: Option<Mismatch>,
}

impl HashCheck {
    /// Compares the three keys of the current position, reached by `step`.
    fn check(&mut self, pos: &mut Position, step: Step) {
        self.nodes += 1;
        let incremental = pos.key();
        let reference = reference_key(pos.chess());
        let scratch = key_from_scratch(pos.chess());
        let predicted = match step {
            Step::Move(_, predicted) => Some(predicted),
            Step::Root | Step::Null => None,
        };
        if incremental == reference
            && incremental == scratch
            && predicted.is_none_or(|key| key == incremental)
        {
            return;
        }
        self.mismatches += 1;
        if self.first.is_some() {
            return;
        }
        // Step back to describe the parent; only on the (rare) failure path.
        let (parent_fen, mv) = match step {
            Step::Root => (pos.fen(), "-".to_string()),
            Step::Move(mv, _) => {
                pos.pop();
                let described = (pos.fen(), pos.uci(mv));
                pos.push(mv);
                described
            }
            Step::Null => {
                pos.pop();
                let fen = pos.fen();
                pos.push_null();
                (fen, "0000".to_string())
            }
        };
        self.first = Some(Mismatch {
            parent_fen,
            mv,
            incremental,
            reference,
            scratch,
            predicted,
        });
    }

    /// Checks the root and every node of its legal move tree down to `depth` plies,
    /// including the position after a null move at every inner node not in check.
    pub fn walk_tree(&mut self, pos: &mut Position, depth: u32) {
        self.check(pos, Step::Root);
        self.walk_children(pos, depth);
    }

    fn walk_children(&mut self, pos: &mut Position, depth: u32) {
        if depth == 0 {
            return;
        }
        self.check_null(pos);
        let moves = pos.legal_moves();
        let predicted = pos.keys_after(&moves);
        for (&mv, &key) in moves.iter().zip(&predicted) {
            pos.push(mv);
            self.check(pos, Step::Move(mv, key));
            self.walk_children(pos, depth - 1);
            pos.pop();
        }
    }

    fn check_null(&mut self, pos: &mut Position) {
        if pos.push_null() {
            self.check(pos, Step::Null);
            pos.pop();
        }
    }

    /// Plays `games` random games of at most `max_plies` plies from `start`, seeded by `seed`,
    /// checking every position (and a null move from each) along the way.
    pub fn walk_random_games(&mut self, start: &Position, games: u32, max_plies: u32, seed: u64) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..games {
            let mut pos = start.clone();
            self.check(&mut pos, Step::Root);
            for _ in 0..max_plies {
                let moves = pos.legal_moves();
                if moves.is_empty() || pos.chess().is_insufficient_material() {
                    break;
                }
                self.check_null(&mut pos);
                let mv = moves[rng.random_range(0..moves.len())];
                let predicted = pos.key_after(mv);
                pos.push(mv);
                self.check(&mut pos, Step::Move(mv, predicted));
            }
        }
    }
}
