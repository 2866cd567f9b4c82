//! The efficiently updatable neural network (NNUE) evaluation.
//!
//! - [`network`]: the architecture, the quantised weights and the net file format;
//! - [`accumulator`]: the per-position hidden values, updated move by move.
//!
//! The default net, trained on Rookery's own self-play games, is built into the binary
//! ([`default_network`]); the `EvalFile` option loads another.

pub mod accumulator;
pub mod network;

use std::sync::{Arc, LazyLock};

pub use accumulator::Accumulator;
pub use network::{HIDDEN, INPUTS, Kernel, NetError, Network, feature};

/// The bytes of the net built into the binary.
pub static DEFAULT_NET_BYTES: &[u8] = include_bytes!("../../../../nets/default.nnue");

static DEFAULT_NETWORK: LazyLock<Arc<Network>> = LazyLock::new(|| {
    Arc::new(Network::from_bytes(DEFAULT_NET_BYTES).expect("the embedded net is valid"))
});

/// The net built into the binary.
pub fn default_network() -> Arc<Network> {
    Arc::clone(&DEFAULT_NETWORK)
}
