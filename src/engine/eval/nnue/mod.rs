//! The efficiently updatable neural network (NNUE) evaluation.
//!
//! - [`architecture`]: a net's shape (hidden size, activation, output buckets, king
//!   mirroring, king buckets), its quantisation scales and its inputs;
//! - [`network`]: the quantised weights, the output layer and the evaluation;
//! - [`kernels`]: the output layer's dot products, portable and AVX2, and the instructions
//!   the accumulator's updates are compiled for;
//! - [`format`](mod@format): the net file, formats 2 to 4;
//! - [`accumulator`]: the per-position hidden values, updated move by move;
//! - [`calibration`]: how far from 0 a net's scores run, and the net with them scaled.
//!
//! The default net, trained on Rookery's own self-play games, is built into the binary
//! ([`default_network`]); the `EvalFile` option loads another.

pub mod accumulator;
pub mod architecture;
pub mod calibration;
pub mod format;
pub mod kernels;
pub mod network;

use std::sync::{Arc, LazyLock};

use shakmaty::{Board, Chess, Color, Position as _};

pub use accumulator::Accumulator;
pub use architecture::{
    Activation, Architecture, DEFAULT_HIDDEN, INPUTS, InputView, feature, mirrored_feature,
};
pub use format::NetError;
pub use kernels::Kernel;
pub use network::Network;

/// The bytes of the net built into the binary.
pub static DEFAULT_NET_BYTES: &[u8] = include_bytes!("../../../../nets/default.nnue");

static DEFAULT_NETWORK: LazyLock<Arc<Network>> = LazyLock::new(|| {
    Arc::new(Network::from_bytes(DEFAULT_NET_BYTES).expect("the embedded net is valid"))
});

/// The net built into the binary.
pub fn default_network() -> Arc<Network> {
    Arc::clone(&DEFAULT_NETWORK)
}

/// The network's evaluation of `pos` from scratch (its accumulator summed afresh),
/// centipawns for the side to move.
pub fn evaluate_position(net: &Network, pos: &Chess) -> i32 {
    evaluate_board(net, pos.board(), pos.turn())
}

/// The network's evaluation of the pieces of `board` with `turn` to move, from scratch:
/// centipawns for the side to move. The board need not be a legal position.
pub fn evaluate_board(net: &Network, board: &Board, turn: Color) -> i32 {
    let acc = Accumulator::refresh(net, board);
    net.evaluate(acc.perspective(turn), acc.perspective(!turn), board)
}
