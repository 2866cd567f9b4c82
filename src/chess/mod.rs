//! Chess on top of shakmaty: the position with its incremental Polyglot key, perft and the
//! hash-consistency walker.

pub mod check;
pub mod cycle;
pub mod epd;
pub mod hashcheck;
pub mod key_samples;
pub mod key_update;
pub mod legality;
pub mod material;
pub mod perft;
pub mod position;
pub mod quiet_legality;
pub mod quiet_moves;
pub mod tactical;
pub mod zobrist;

pub use position::{FenError, MoveError, Position};

/// Positions rich in pins, castling, promotions and en passant (the published perft
/// positions and two more): where the move-rule tests start their random games.
#[cfg(test)]
pub(crate) const TRICKY_POSITIONS: [&str; 7] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "4k3/8/8/q2Pp3/8/8/8/4K2R w - e6 0 1",
];
