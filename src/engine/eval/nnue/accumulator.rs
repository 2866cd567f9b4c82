//! The accumulator: both sides' feature-transformer values for one position, kept up to date
//! move by move.
//!
//! A move changes at most four pieces on squares (castling moves two, a capture removes one,
//! en passant removes one elsewhere, a promotion changes the role), so a child's
//! accumulator is its parent's with a few weight rows added and taken away, instead of a sum
//! over every piece.

use arrayvec::ArrayVec;
use shakmaty::{Board, CastlingSide, Chess, Color, Move, Piece, Position, Role, Square};

use super::network::{HIDDEN, Network, feature};

/// Both perspectives' hidden values, indexed by colour (White's, then Black's).
#[derive(Clone, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator {
    /// Values for White's perspective and Black's.
    pub values: [[i16; HIDDEN]; 2],
}

/// The pieces a move takes off squares and puts on squares (two at most each way).
#[derive(Clone, Debug, Default)]
struct Changes {
    removed: ArrayVec<(Piece, Square), 2>,
    added: ArrayVec<(Piece, Square), 2>,
}

impl Changes {
    fn of(before: &Chess, mv: Move) -> Changes {
        let us = before.turn();
        let mut changes = Changes::default();
        match mv {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                changes.removed.push((role.of(us), from));
                if let Some(captured) = capture {
                    changes.removed.push((captured.of(!us), to));
                }
                changes.added.push((promotion.unwrap_or(role).of(us), to));
            }
            Move::EnPassant { from, to } => {
                changes.removed.push((Role::Pawn.of(us), from));
                let captured = Square::from_coords(to.file(), from.rank());
                changes.removed.push((Role::Pawn.of(!us), captured));
                changes.added.push((Role::Pawn.of(us), to));
            }
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_queen_side(rook < king);
                changes.removed.push((Role::King.of(us), king));
                changes.removed.push((Role::Rook.of(us), rook));
                changes.added.push((Role::King.of(us), side.king_to(us)));
                changes.added.push((Role::Rook.of(us), side.rook_to(us)));
            }
            Move::Put { role, to } => changes.added.push((role.of(us), to)),
        }
        changes
    }
}

impl Accumulator {
    /// Sums every piece of `board` from scratch.
    pub fn refresh(net: &Network, board: &Board) -> Accumulator {
        let mut acc = Accumulator {
            values: [*net.feature_bias; 2],
        };
        for (square, piece) in board {
            for color in Color::ALL {
                add(
                    &mut acc.values[color as usize],
                    &net.feature_weights[feature(color, piece, square)],
                );
            }
        }
        acc
    }

    /// Writes into `child` this accumulator updated for the legal move `mv` on `before`.
    #[inline]
    pub fn update_into(&self, child: &mut Accumulator, net: &Network, before: &Chess, mv: Move) {
        let changes = Changes::of(before, mv);
        for color in Color::ALL {
            let side = color as usize;
            let row = |&(piece, square): &(Piece, Square)| {
                &net.feature_weights[feature(color, piece, square)]
            };
            let out = &mut child.values[side];
            let parent = &self.values[side];
            match (changes.removed.as_slice(), changes.added.as_slice()) {
                // A quiet move: one row off, one on.
                ([r], [a]) => sub_add(out, parent, row(r), row(a)),
                // A capture or en passant: two off, one on.
                ([r0, r1], [a]) => sub_sub_add(out, parent, row(r0), row(r1), row(a)),
                (removed, added) => {
                    *out = *parent;
                    for r in removed {
                        sub(out, row(r));
                    }
                    for a in added {
                        add(out, row(a));
                    }
                }
            }
        }
    }
}

#[inline(always)]
fn add(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (a, r) in acc.iter_mut().zip(row) {
        *a = a.wrapping_add(*r);
    }
}

#[inline(always)]
fn sub(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (a, r) in acc.iter_mut().zip(row) {
        *a = a.wrapping_sub(*r);
    }
}

#[inline(always)]
fn sub_add(out: &mut [i16; HIDDEN], parent: &[i16; HIDDEN], r: &[i16; HIDDEN], a: &[i16; HIDDEN]) {
    for i in 0..HIDDEN {
        out[i] = parent[i].wrapping_sub(r[i]).wrapping_add(a[i]);
    }
}

#[inline(always)]
fn sub_sub_add(
    out: &mut [i16; HIDDEN],
    parent: &[i16; HIDDEN],
    r0: &[i16; HIDDEN],
    r1: &[i16; HIDDEN],
    a: &[i16; HIDDEN],
) {
    for i in 0..HIDDEN {
        out[i] = parent[i]
            .wrapping_sub(r0[i])
            .wrapping_sub(r1[i])
            .wrapping_add(a[i]);
    }
}

/// The network's evaluation from an accumulator, centipawns for `turn`, the side to move.
#[inline]
pub fn evaluate(net: &Network, acc: &Accumulator, turn: Color) -> i32 {
    net.output(&acc.values[turn as usize], &acc.values[(!turn) as usize])
}

/// The network's evaluation of `pos` from scratch, centipawns for the side to move.
pub fn evaluate_position(net: &Network, pos: &Chess) -> i32 {
    evaluate(net, &Accumulator::refresh(net, pos.board()), pos.turn())
}
