//! The accumulator: both sides' feature-transformer values for one position, kept up to date
//! move by move.
//!
//! A move changes at most four pieces on squares (castling moves two, a capture removes one,
//! en passant removes one elsewhere, a promotion changes the role), so a child's
//! accumulator is its parent's with a few weight rows added and taken away, instead of a sum
//! over every piece.
//!
//! With king mirroring, a perspective is mirrored a-h while its king is on files e-h: a king
//! move across the d/e boundary changes every one of that side's inputs, so that side's
//! values are summed afresh from the board after the move (the other side's are updated as
//! usual).

use arrayvec::ArrayVec;
use shakmaty::{Board, CastlingSide, Chess, Color, Move, Piece, Position, Role, Square};

use super::architecture::{mirrored_feature, sized};
use super::network::Network;

/// Both perspectives' hidden values: White's `hidden`, then Black's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    values: Box<[i16]>,
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

    /// Where the moving side's king lands, when the move moves it.
    fn king_destination(&self) -> Option<Square> {
        self.added
            .iter()
            .find(|(piece, _)| piece.role == Role::King)
            .map(|&(_, square)| square)
    }

    /// The board after the move.
    fn apply(&self, before: &Board) -> Board {
        let mut after = before.clone();
        for &(_, square) in &self.removed {
            after.discard_piece_at(square);
        }
        for &(piece, square) in &self.added {
            after.set_piece_at(square, piece);
        }
        after
    }
}

/// Whether `color`'s perspective of `board` is mirrored a-h under `net`'s king mirroring.
#[inline(always)]
fn mirrored(net: &Network, board: &Board, color: Color) -> bool {
    let arch = net.architecture();
    arch.king_mirror && board.king_of(color).is_some_and(|king| arch.mirrored(king))
}

impl Accumulator {
    /// The values of `color`'s perspective.
    #[inline(always)]
    pub fn perspective(&self, color: Color) -> &[i16] {
        let (white, black) = self.values.split_at(self.values.len() / 2);
        if color.is_white() { white } else { black }
    }

    #[inline(always)]
    fn perspective_mut(&mut self, color: Color) -> &mut [i16] {
        let half = self.values.len() / 2;
        let (white, black) = self.values.split_at_mut(half);
        if color.is_white() { white } else { black }
    }

    /// Sums every piece of `board` from scratch.
    pub fn refresh(net: &Network, board: &Board) -> Accumulator {
        let mut acc = Accumulator {
            values: vec![0; 2 * net.hidden()].into_boxed_slice(),
        };
        for color in Color::ALL {
            refresh_perspective(acc.perspective_mut(color), net, board, color);
        }
        acc
    }

    /// Makes this accumulator a copy of `other` (of the same net), keeping its memory.
    #[inline]
    pub fn copy_from(&mut self, other: &Accumulator) {
        sized(self.values.len() / 2, |n| {
            self.values[..2 * n].copy_from_slice(&other.values[..2 * n]);
        });
    }

    /// Writes into `child` this accumulator updated for the legal move `mv` on `before`.
    /// Returns whether a perspective was summed afresh (its king crossed the d/e boundary
    /// under king mirroring).
    #[inline]
    pub fn update_into(
        &self,
        child: &mut Accumulator,
        net: &Network,
        before: &Chess,
        mv: Move,
    ) -> bool {
        let changes = Changes::of(before, mv);
        if !net.architecture().king_mirror {
            self.update_perspective(child, net, &changes, Color::White, false);
            self.update_perspective(child, net, &changes, Color::Black, false);
            return false;
        }
        let us = before.turn();
        let mirror = |color| mirrored(net, before.board(), color);
        let (ours, theirs) = (mirror(us), mirror(!us));
        // The other side's king stays where it is: its perspective is updated.
        self.update_perspective(child, net, &changes, !us, theirs);
        match changes.king_destination() {
            Some(king) if net.architecture().mirrored(king) != ours => {
                let after = changes.apply(before.board());
                refresh_perspective(child.perspective_mut(us), net, &after, us);
                true
            }
            _ => {
                self.update_perspective(child, net, &changes, us, ours);
                false
            }
        }
    }

    /// Writes `color`'s perspective of `child`: this one's with the rows of `changes`
    /// taken off and put on, mirrored a-h when `mirror`.
    #[inline(always)]
    fn update_perspective(
        &self,
        child: &mut Accumulator,
        net: &Network,
        changes: &Changes,
        color: Color,
        mirror: bool,
    ) {
        let row = |&(piece, square): &(Piece, Square)| {
            net.feature_row(mirrored_feature(color, piece, square, mirror))
        };
        let out = child.perspective_mut(color);
        let parent = self.perspective(color);
        match (changes.removed.as_slice(), changes.added.as_slice()) {
            // A quiet move: one row off, one on.
            ([r], [a]) => sub_add(out, parent, row(r), row(a)),
            // A capture or en passant: two off, one on.
            ([r0, r1], [a]) => sub_sub_add(out, parent, row(r0), row(r1), row(a)),
            (removed, added) => {
                copy(out, parent);
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

/// Sums the pieces of `board` into `color`'s perspective from scratch.
#[inline(never)]
fn refresh_perspective(out: &mut [i16], net: &Network, board: &Board, color: Color) {
    out.copy_from_slice(net.feature_bias());
    let mirror = mirrored(net, board, color);
    for (square, piece) in board {
        add(
            out,
            net.feature_row(mirrored_feature(color, piece, square, mirror)),
        );
    }
}

#[inline(always)]
fn copy(out: &mut [i16], values: &[i16]) {
    sized(out.len(), |n| out[..n].copy_from_slice(&values[..n]));
}

#[inline(always)]
fn add(acc: &mut [i16], row: &[i16]) {
    sized(acc.len(), |n| {
        let (acc, row) = (&mut acc[..n], &row[..n]);
        for i in 0..n {
            acc[i] = acc[i].wrapping_add(row[i]);
        }
    })
}

#[inline(always)]
fn sub(acc: &mut [i16], row: &[i16]) {
    sized(acc.len(), |n| {
        let (acc, row) = (&mut acc[..n], &row[..n]);
        for i in 0..n {
            acc[i] = acc[i].wrapping_sub(row[i]);
        }
    })
}

#[inline(always)]
fn sub_add(out: &mut [i16], parent: &[i16], r: &[i16], a: &[i16]) {
    sized(out.len(), |n| {
        let (out, parent, r, a) = (&mut out[..n], &parent[..n], &r[..n], &a[..n]);
        for i in 0..n {
            out[i] = parent[i].wrapping_sub(r[i]).wrapping_add(a[i]);
        }
    })
}

#[inline(always)]
fn sub_sub_add(out: &mut [i16], parent: &[i16], r0: &[i16], r1: &[i16], a: &[i16]) {
    sized(out.len(), |n| {
        let (out, parent) = (&mut out[..n], &parent[..n]);
        let (r0, r1, a) = (&r0[..n], &r1[..n], &a[..n]);
        for i in 0..n {
            out[i] = parent[i]
                .wrapping_sub(r0[i])
                .wrapping_sub(r1[i])
                .wrapping_add(a[i]);
        }
    })
}

/// The network's evaluation from the accumulator of `board`, centipawns for `turn`, the
/// side to move.
#[inline]
pub fn evaluate(net: &Network, acc: &Accumulator, board: &Board, turn: Color) -> i32 {
    net.output(
        acc.perspective(turn),
        acc.perspective(!turn),
        net.bucket(board),
    )
}

/// The network's evaluation of `pos` from scratch, centipawns for the side to move.
pub fn evaluate_position(net: &Network, pos: &Chess) -> i32 {
    let board = pos.board();
    evaluate(net, &Accumulator::refresh(net, board), board, pos.turn())
}
