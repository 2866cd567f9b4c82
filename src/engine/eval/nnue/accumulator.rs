//! The accumulator: both sides' feature-transformer values for one position, kept up to date
//! move by move.
//!
//! A move changes at most four pieces on squares (castling moves two, a capture removes one,
//! en passant removes one elsewhere, a promotion changes the role), so a child's
//! accumulator is its parent's with a few weight rows added and taken away, instead of a sum
//! over every piece.
//!
//! With king mirroring, a perspective is mirrored a-h while its king is on files e-h, and
//! with king buckets it reads the feature rows of its king's bucket: its
//! [`InputView`]. A king move that changes its side's view (across the d/e boundary, or
//! into another bucket) changes every one of that side's inputs, so that side's values are
//! summed afresh from the board after the move (the other side's are updated as usual).

use arrayvec::ArrayVec;
use shakmaty::{Board, CastlingSide, Chess, Color, Move, Piece, Position, Role, Square};

use super::architecture::{BUILT_IN_HIDDEN, DEFAULT_HIDDEN, InputView, feature};
use super::network::Network;

/// Both perspectives' hidden values: White's `hidden`, then Black's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    values: Box<[i16]>,
}

/// The pieces a normal move (not en passant, castling or a drop) by `us` changes: the piece
/// it lifts from its origin, the one it captures on its target if any, and the one it puts
/// down there (the promoted piece for a promotion); `None` for the other moves.
#[inline(always)]
fn normal_move_pieces(us: Color, mv: Move) -> Option<NormalMovePieces> {
    let Move::Normal {
        role,
        from,
        capture,
        to,
        promotion,
    } = mv
    else {
        return None;
    };
    let taken = capture.map(|captured| (captured.of(!us), to));
    Some((
        (role.of(us), from),
        taken,
        (promotion.unwrap_or(role).of(us), to),
    ))
}

/// What [`normal_move_pieces`] finds: the piece lifted, the piece taken, the piece put down.
type NormalMovePieces = ((Piece, Square), Option<(Piece, Square)>, (Piece, Square));

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
            Move::Normal { .. } => {
                if let Some((lifted, taken, put)) = normal_move_pieces(us, mv) {
                    changes.removed.push(lifted);
                    changes.removed.extend(taken);
                    changes.added.push(put);
                }
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

/// How `color`'s perspective of `board` sees it under `net`'s king mirroring and king
/// buckets: [`InputView::PLAIN`] without either, or without a king of that colour.
#[inline(always)]
fn view(net: &Network, board: &Board, color: Color) -> InputView {
    let arch = net.architecture();
    if !arch.viewed() {
        return InputView::PLAIN;
    }
    board
        .king_of(color)
        .map_or(InputView::PLAIN, |king| arch.view(color, king))
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

    /// Writes into `child` this accumulator updated for the legal move `mv` on `before`.
    /// Returns whether a perspective was summed afresh (its king's move changed its view:
    /// across the d/e boundary under king mirroring, or into another king bucket).
    #[inline]
    pub fn update_into(
        &self,
        child: &mut Accumulator,
        net: &Network,
        before: &Chess,
        mv: Move,
    ) -> bool {
        // The hidden size is chosen once a move: at the default size and the built-in net's
        // every loop below runs over a length the compiler knows, unrolled and vectorised
        // (with the length known only at run time, `bench` once counted 60% more
        // instructions in `do_move` at 256; at the built-in 384, in AVX2, 1.9% more
        // instructions a node in all).
        // The loops are compiled for the net's kernel: with AVX2, in 256-bit registers.
        net.kernel.run(
            #[inline(always)]
            || match net.hidden() {
                DEFAULT_HIDDEN => self.update_sized::<DEFAULT_HIDDEN>(child, net, before, mv),
                BUILT_IN_HIDDEN => self.update_sized::<BUILT_IN_HIDDEN>(child, net, before, mv),
                _ => self.update_sized::<RUNTIME>(child, net, before, mv),
            },
        )
    }

    /// [`Accumulator::update_into`] for hidden size `N` ([`RUNTIME`]: the net's own).
    #[inline(always)]
    fn update_sized<const N: usize>(
        &self,
        child: &mut Accumulator,
        net: &Network,
        before: &Chess,
        mv: Move,
    ) -> bool {
        // Without king mirroring or king buckets every view is the plain one: a constant,
        // which leaves this path the plain row lookups it always was.
        if net.architecture().viewed() {
            let changes = Changes::of(before, mv);
            return self.update_viewed::<N>(child, net, before, &changes);
        }
        let us = before.turn();
        // Quiet moves and plain captures, most moves, read their rows straight from the
        // move: no list of changes is built for them.
        match normal_move_pieces(us, mv) {
            Some((lifted, None, put)) => self.update_plain::<N>(child, net, &[lifted], &[put]),
            Some((lifted, Some(taken), put)) => {
                self.update_plain::<N>(child, net, &[lifted, taken], &[put]);
            }
            None => {
                let changes = Changes::of(before, mv);
                self.update_plain::<N>(child, net, &changes.removed, &changes.added);
            }
        }
        false
    }

    /// Both perspectives updated in the plain view (without king mirroring or king
    /// buckets): the rows of the pieces `removed` taken off, those of the pieces `added`
    /// put on.
    #[inline(always)]
    fn update_plain<const N: usize>(
        &self,
        child: &mut Accumulator,
        net: &Network,
        removed: &[(Piece, Square)],
        added: &[(Piece, Square)],
    ) {
        for color in Color::ALL {
            self.update_perspective::<N>(child, net, removed, added, color, InputView::PLAIN);
        }
    }

    /// The update under king mirroring or king buckets: the side whose king's move
    /// changes its view is summed afresh (returns true then), every other perspective
    /// updated in its view.
    #[inline(never)]
    fn update_viewed<const N: usize>(
        &self,
        child: &mut Accumulator,
        net: &Network,
        before: &Chess,
        changes: &Changes,
    ) -> bool {
        // Not inlined into the caller's kernel: compiled for the kernel again.
        net.kernel.run(
            #[inline(always)]
            || {
                let us = before.turn();
                let view = |color| view(net, before.board(), color);
                let (ours, theirs) = (view(us), view(!us));
                // The other side's king stays where it is: its perspective is updated.
                let (removed, added) = (&changes.removed[..], &changes.added[..]);
                self.update_perspective::<N>(child, net, removed, added, !us, theirs);
                match changes.king_destination() {
                    Some(king) if net.architecture().view(us, king) != ours => {
                        let after = changes.apply(before.board());
                        refresh_perspective(child.perspective_mut(us), net, &after, us);
                        true
                    }
                    _ => {
                        self.update_perspective::<N>(child, net, removed, added, us, ours);
                        false
                    }
                }
            },
        )
    }

    /// Writes `color`'s perspective of `child`: this one's with the rows of the pieces
    /// `removed` taken off and those of the pieces `added` put on, in `view`; `N` values
    /// ([`RUNTIME`]: the net's hidden size).
    #[inline(always)]
    fn update_perspective<const N: usize>(
        &self,
        child: &mut Accumulator,
        net: &Network,
        removed: &[(Piece, Square)],
        added: &[(Piece, Square)],
        color: Color,
        view: InputView,
    ) {
        let n = size::<N>(net.hidden());
        let row = |change| row_of(net, color, view, change, n);
        let out = &mut child.perspective_mut(color)[..n];
        let parent = &self.perspective(color)[..n];
        match (removed, added) {
            // A quiet move: one row off, one on.
            ([r], [a]) => sub_add(out, parent, row(r), row(a)),
            // A capture or en passant: two off, one on.
            ([r0, r1], [a]) => sub_sub_add(out, parent, row(r0), row(r1), row(a)),
            (removed, added) => {
                out.copy_from_slice(parent);
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

/// The feature transformer's row, `n` values (the net's hidden size), of the input a
/// piece on a square is for `color`'s perspective in `view`.
#[inline(always)]
fn row_of<'a>(
    net: &'a Network,
    color: Color,
    view: InputView,
    &(piece, square): &(Piece, Square),
    n: usize,
) -> &'a [i16] {
    let index = view.input(feature(color, piece, square));
    &net.feature_weights()[index * n..][..n]
}

/// The `N` of a sized update that takes the hidden size from the net at run time.
const RUNTIME: usize = 0;

/// The length a sized update runs over: `N`, or `hidden` for [`RUNTIME`].
#[inline(always)]
const fn size<const N: usize>(hidden: usize) -> usize {
    if N == RUNTIME { hidden } else { N }
}

/// Sums the pieces of `board` into `color`'s perspective from scratch.
#[inline(never)]
fn refresh_perspective(out: &mut [i16], net: &Network, board: &Board, color: Color) {
    net.kernel.run(
        #[inline(always)]
        || {
            out.copy_from_slice(net.feature_bias());
            let view = view(net, board, color);
            for (square, piece) in board {
                add(
                    out,
                    net.feature_row(view.input(feature(color, piece, square))),
                );
            }
        },
    )
}

// The helpers below take slices whose lengths the caller has cut to one size; with a
// constant size, the compiler unrolls and vectorises them as for arrays.

#[inline(always)]
fn add(acc: &mut [i16], row: &[i16]) {
    let row = &row[..acc.len()];
    for (a, r) in acc.iter_mut().zip(row) {
        *a = a.wrapping_add(*r);
    }
}

#[inline(always)]
fn sub(acc: &mut [i16], row: &[i16]) {
    let row = &row[..acc.len()];
    for (a, r) in acc.iter_mut().zip(row) {
        *a = a.wrapping_sub(*r);
    }
}

#[inline(always)]
fn sub_add(out: &mut [i16], parent: &[i16], r: &[i16], a: &[i16]) {
    let n = out.len();
    let (parent, r, a) = (&parent[..n], &r[..n], &a[..n]);
    for i in 0..n {
        out[i] = parent[i].wrapping_sub(r[i]).wrapping_add(a[i]);
    }
}

#[inline(always)]
fn sub_sub_add(out: &mut [i16], parent: &[i16], r0: &[i16], r1: &[i16], a: &[i16]) {
    let n = out.len();
    let (parent, r0, r1, a) = (&parent[..n], &r0[..n], &r1[..n], &a[..n]);
    for i in 0..n {
        out[i] = parent[i]
            .wrapping_sub(r0[i])
            .wrapping_sub(r1[i])
            .wrapping_add(a[i]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::eval::nnue::{Architecture, Kernel};

    /// A net of `arch` whose feature weights and biases are spread over the `i16` range,
    /// so that the sums wrap.
    fn net(arch: Architecture) -> Network {
        let mut net = Network::zeroed(arch);
        let mut x: u32 = 12345;
        let mut next = move || {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            (x >> 16) as i16
        };
        net.feature_weights_mut()
            .iter_mut()
            .for_each(|w| *w = next());
        net.feature_bias_mut().iter_mut().for_each(|b| *b = next());
        net
    }

    #[test]
    fn the_built_in_net_has_the_size_compiled_for_it() {
        let net = crate::engine::eval::nnue::default_network();
        assert_eq!(net.hidden(), BUILT_IN_HIDDEN, "update BUILT_IN_HIDDEN");
    }

    #[test]
    fn every_kernel_updates_and_refreshes_to_the_same_values() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        ];
        for arch in [32, DEFAULT_HIDDEN, BUILT_IN_HIDDEN]
            .into_iter()
            .flat_map(Architecture::every_kind)
        {
            let portable = Network {
                kernel: Kernel::PORTABLE,
                ..net(arch)
            };
            for kernel in Kernel::available() {
                let net = Network {
                    kernel,
                    ..portable.clone()
                };
                for fen in fens {
                    let pos: Chess = fen
                        .parse::<shakmaty::fen::Fen>()
                        .expect("test FEN")
                        .into_position(shakmaty::CastlingMode::Standard)
                        .expect("legal");
                    let parent = Accumulator::refresh(&net, pos.board());
                    assert_eq!(parent, Accumulator::refresh(&portable, pos.board()));
                    for mv in pos.legal_moves() {
                        let mut expected = parent.clone();
                        let mut child = parent.clone();
                        let refreshed = parent.update_into(&mut expected, &portable, &pos, mv);
                        assert_eq!(parent.update_into(&mut child, &net, &pos, mv), refreshed);
                        assert_eq!(child, expected, "{arch}, {}, {fen} {mv}", kernel.name());
                    }
                }
            }
        }
    }
}
