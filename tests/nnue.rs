//! The network evaluation: the incremental accumulator against a from-scratch refresh along
//! perft trees and random games, colour symmetry, the net file format and the built-in net.

mod common;

use std::sync::Arc;

use common::suite;
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use rookery::chess::Position;
use rookery::engine::board::Board;
use rookery::engine::eval::nnue::network::{FILE_BYTES, HEADER_BYTES};
use rookery::engine::eval::nnue::{Accumulator, DEFAULT_NET_BYTES, NetError, Network, accumulator};
use rookery::engine::tt::ChessTable;
use rookery::hashing::checksum::fnv1a;
use rookery::learn::train::Model;
use shakmaty::{Chess, Color, Position as _};

/// A net with random weights of training-like size, so every input matters.
fn random_net(seed: u64) -> Arc<Network> {
    Arc::new(Model::random(seed).quantise())
}

/// Nodes where the board's accumulator was compared with a refresh.
struct Walk {
    net: Arc<Network>,
    table: ChessTable,
    nodes: u64,
}

impl Walk {
    fn new(seed: u64) -> Walk {
        Walk {
            net: random_net(seed),
            table: ChessTable::new(1).unwrap(),
            nodes: 0,
        }
    }

    fn check(&mut self, board: &Board) {
        let fresh = Accumulator::refresh(&self.net, board.chess().board());
        let kept = board.evaluator().accumulator().expect("the net evaluates");
        assert!(
            *kept == fresh,
            "accumulator drifted at {}",
            board.position().fen()
        );
        assert_eq!(
            board.evaluate(),
            accumulator::evaluate_position(&self.net, board.chess())
        );
        self.nodes += 1;
    }

    /// Every node of the tree to `depth`, with a null move from each.
    fn tree(&mut self, board: &mut Board, depth: u32) {
        self.check(board);
        if depth == 0 {
            return;
        }
        if board.do_null() {
            self.check(board);
            board.undo_null();
        }
        for mv in board.legal_moves() {
            board.do_move(mv, &self.table);
            self.tree(board, depth - 1);
            board.undo_move();
            self.check(board);
        }
    }

    /// The trees to `depth` of the first `take` positions of a perft suite.
    fn suite_trees(&mut self, name: &str, chess960: bool, depth: u32, take: usize) {
        for case in suite(name).iter().take(take) {
            let pos = Position::from_fen(&case.fen, chess960).unwrap();
            let mut board = Board::new(pos, Some(&self.net.clone()));
            self.tree(&mut board, depth);
        }
    }

    /// Random games with a null move tried before each move.
    fn games(&mut self, start: &Position, games: u32, seed: u64) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..games {
            let mut board = Board::new(start.clone(), Some(&self.net));
            let mut plies = 0;
            while plies < 300 {
                let moves = board.legal_moves();
                if moves.is_empty() {
                    break;
                }
                if board.do_null() {
                    self.check(&board);
                    board.undo_null();
                }
                board.do_move(moves[rng.random_range(0..moves.len())], &self.table);
                self.check(&board);
                plies += 1;
            }
            // Unwinding the whole game gets back to the start's accumulator.
            for _ in 0..plies {
                board.undo_move();
            }
            self.check(&board);
        }
    }
}

#[test]
fn incremental_accumulator_equals_refresh_in_perft_trees() {
    let mut walk = Walk::new(1);
    walk.suite_trees("standard.epd", false, 2, usize::MAX);
    walk.suite_trees("published.epd", false, 3, usize::MAX);
    assert!(walk.nodes > 200_000, "{} nodes", walk.nodes);
}

#[test]
fn incremental_accumulator_equals_refresh_in_chess960_trees() {
    let mut walk = Walk::new(2);
    walk.suite_trees("chess960.epd", true, 2, 40);
    assert!(walk.nodes > 20_000, "{} nodes", walk.nodes);
}

#[test]
fn incremental_accumulator_equals_refresh_along_random_games() {
    let mut walk = Walk::new(3);
    walk.games(&Position::startpos(), 30, 7);
    // Positions rich in castling, en passant and promotions.
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ] {
        walk.games(&Position::from_fen(fen, false).unwrap(), 20, 11);
    }
    assert!(walk.nodes > 20_000, "{} nodes", walk.nodes);
}

/// Each named special move, played and checked.
#[test]
fn special_moves_update_exactly() {
    let mut walk = Walk::new(4);
    for (fen, chess960, moves) in [
        // Both castlings, both sides.
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            false,
            &["e1g1", "e8c8", "a1d1"][..],
        ),
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            false,
            &["e1c1", "e8g8"][..],
        ),
        // Chess960 castling where the king stays put and where the rook passes the king.
        (
            "1r2k2r/8/8/8/8/8/8/1R2K2R w KQkq - 0 1",
            true,
            &["e1b1", "e8h8"][..],
        ),
        ("6kr/8/8/8/8/8/8/R5K1 w Ah - 0 1", true, &["g1a1"][..]),
        // En passant both ways.
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", false, &["e5d6"][..]),
        ("4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1", false, &["e4d3"][..]),
        // Every promotion, with and without capture.
        ("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", false, &["a7a8q"][..]),
        ("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", false, &["a7a8r"][..]),
        ("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", false, &["a7b8b"][..]),
        ("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", false, &["a7b8n"][..]),
        ("4k3/8/8/8/8/8/p7/1N2K3 b - - 0 1", false, &["a2b1q"][..]),
    ] {
        let pos = Position::from_fen(fen, chess960).unwrap();
        let mut board = Board::new(pos, Some(&walk.net.clone()));
        for text in moves {
            let mv = board
                .position()
                .parse_uci(text)
                .unwrap_or_else(|e| panic!("{fen}: {e}"));
            board.do_move(mv, &walk.table);
            walk.check(&board);
        }
    }
    assert_eq!(walk.nodes, 15);
}

fn mirrored(pos: &Chess) -> Chess {
    let fen = shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal);
    let mut setup = fen.into_setup();
    setup.mirror();
    setup
        .position(shakmaty::CastlingMode::Standard)
        .expect("a mirrored legal position is legal")
}

#[test]
fn evaluation_equals_that_of_the_colour_flipped_mirror() {
    let net = random_net(5);
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut checked = 0;
    for _ in 0..20 {
        let mut pos = Chess::default();
        for _ in 0..80 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[rng.random_range(0..moves.len())]);
            let mirror = mirrored(&pos);
            assert_eq!(mirror.turn(), !pos.turn());
            assert_eq!(
                accumulator::evaluate_position(&net, &pos),
                accumulator::evaluate_position(&net, &mirror),
                "{:?}",
                pos.board()
            );
            checked += 1;
        }
    }
    assert!(checked > 1000);
    // The evaluations are not equal by accident: the same board with the other side to
    // move is another position, and the net tells them apart.
    let board = Position::from_fen(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        false,
    )
    .unwrap()
    .chess()
    .board()
    .clone();
    let acc = Accumulator::refresh(&net, &board);
    assert_ne!(
        accumulator::evaluate(&net, &acc, Color::White),
        accumulator::evaluate(&net, &acc, Color::Black)
    );
}

#[test]
fn net_file_round_trips() {
    let net = random_net(6);
    let bytes = net.to_bytes();
    assert_eq!(bytes.len(), FILE_BYTES);
    let back = Network::from_bytes(&bytes).unwrap();
    assert_eq!(back.to_bytes(), bytes);
}

#[test]
fn net_file_refusals() {
    let bytes = random_net(7).to_bytes();
    // Cut short, or with bytes after it.
    assert!(matches!(
        Network::from_bytes(&bytes[..bytes.len() - 1]),
        Err(NetError::Length { .. })
    ));
    assert!(matches!(
        Network::from_bytes(&bytes[..10]),
        Err(NetError::Length { .. })
    ));
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(
        Network::from_bytes(&longer),
        Err(NetError::Length { .. })
    ));
    // Not a net.
    assert_eq!(
        Network::from_bytes(b"\x7fELF rest").unwrap_err(),
        NetError::Magic
    );
    // Another version (1: the nets of QB 64 and scale 400), another architecture (a hidden
    // layer of 128).
    for other in [1u8, 3] {
        let mut version = bytes.clone();
        version[4] = other;
        assert_eq!(
            Network::from_bytes(&version).unwrap_err(),
            NetError::Version(u32::from(other))
        );
    }
    let mut hidden = bytes.clone();
    hidden[12..16].copy_from_slice(&128u32.to_le_bytes());
    assert!(matches!(
        Network::from_bytes(&hidden),
        Err(NetError::Architecture([768, 128, 255, 4096, 185]))
    ));
    // One flipped bit in a weight.
    let mut damaged = bytes.clone();
    damaged[HEADER_BYTES + 1000] ^= 4;
    assert_eq!(
        Network::from_bytes(&damaged).unwrap_err(),
        NetError::Checksum
    );
    // A damaged file with its checksum recomputed is a valid (other) net: the checksum is
    // what catches damage.
    let body = damaged.len() - 8;
    let sum = fnv1a(&damaged[..body]);
    damaged[body..].copy_from_slice(&sum.to_le_bytes());
    assert!(Network::from_bytes(&damaged).is_ok());
}

/// The checksum of `nets/default.nnue`; a new default net changes it here.
const DEFAULT_NET_CHECKSUM: u64 = 0xd448_e24d_0dec_3867;

#[test]
fn built_in_net_is_the_committed_file() {
    let net = Network::from_bytes(DEFAULT_NET_BYTES).expect("the built-in net loads");
    let file = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/nets/default.nnue")).unwrap();
    assert_eq!(file, DEFAULT_NET_BYTES);
    assert_eq!(
        net.checksum(),
        DEFAULT_NET_CHECKSUM,
        "{:016x}",
        net.checksum()
    );
}

#[test]
fn output_kernels_agree() {
    use rookery::engine::eval::nnue::{HIDDEN, Kernel};
    let net = random_net(8);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for _ in 0..1000 {
        let mut us = [0i16; HIDDEN];
        let mut them = [0i16; HIDDEN];
        for v in us.iter_mut().chain(them.iter_mut()) {
            // Values on both sides of the clip range, and at its edges.
            *v = rng.random_range(-400..700);
        }
        us[0] = 0;
        us[1] = 255;
        them[2] = 256;
        for kernel in Kernel::available() {
            assert_eq!(
                net.output_with(Kernel::PORTABLE, &us, &them),
                net.output_with(kernel, &us, &them),
                "{}",
                kernel.name()
            );
        }
    }
}
