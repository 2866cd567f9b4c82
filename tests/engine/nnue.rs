//! The network evaluation: the incremental accumulator against a from-scratch refresh along
//! perft trees and random games (king mirroring's refresh across the d/e boundary and king
//! buckets' refresh into another bucket too), colour and king-mirror symmetry, output
//! buckets by piece count, the output kernels.
//! The net file is tested in `net_file.rs`, the trainer against the engine in
//! `nnue_training.rs`.

use crate::common;
use common::random_net;

use std::sync::Arc;

use common::suite;
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use rookery::chess::Position;
use rookery::engine::board::Board;
use rookery::engine::eval::nnue::architecture::{
    BUILT_IN_HIDDEN, DEFAULT_HIDDEN, QA, SCALE, SCRELU_MAX_WEIGHT,
};
use rookery::engine::eval::nnue::{
    Accumulator, Activation, Architecture, Kernel, Network, evaluate_position,
};
use rookery::engine::score::MAX_EVAL;
use rookery::engine::tt::ChessTable;
use shakmaty::{Bitboard, Chess, Color, Position as _};

/// Each shape the engine distinguishes, at a small hidden size.
fn architectures() -> Vec<Architecture> {
    Architecture::every_kind(32)
}

fn king_mirrored() -> Architecture {
    Architecture {
        king_mirror: true,
        ..Architecture::default()
    }
}

/// Nodes where the board's accumulator was compared with a refresh.
struct Walk {
    net: Arc<Network>,
    table: ChessTable,
    nodes: u64,
    /// Moves that refreshed a perspective because a king's move changed its view (across
    /// the d/e boundary, or into another king bucket).
    king_refreshes: u64,
}

impl Walk {
    fn new(seed: u64) -> Walk {
        Walk::with(Architecture::default(), seed)
    }

    fn with(arch: Architecture, seed: u64) -> Walk {
        Walk {
            net: Arc::new(random_net(arch, seed)),
            table: ChessTable::new(1).unwrap(),
            nodes: 0,
            king_refreshes: 0,
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
            evaluate_position(&self.net, board.chess())
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
            self.king_refreshes += board.evaluator().king_refreshes();
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
            self.king_refreshes += board.evaluator().king_refreshes();
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
    for arch in architectures() {
        colour_flip_symmetry(&Arc::new(random_net(arch, 5)));
    }
}

fn colour_flip_symmetry(net: &Network) {
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
                evaluate_position(net, &pos),
                evaluate_position(net, &mirror),
                "{:?} {:?}",
                net.architecture(),
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
    let acc = Accumulator::refresh(net, &board);
    assert_ne!(
        net.evaluate(
            acc.perspective(Color::White),
            acc.perspective(Color::Black),
            &board
        ),
        net.evaluate(
            acc.perspective(Color::Black),
            acc.perspective(Color::White),
            &board
        )
    );
}

/// Positions whose kings cross the d/e boundary often: bare kings and endgames, castling
/// both ways (O-O-O crosses), kings in the middle.
const KING_WALKS: [&str; 6] = [
    "8/8/3k4/3p4/8/3P4/3K4/8 w - - 0 1",
    "8/8/4k3/8/8/4K3/8/8 w - - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "4k3/8/8/3Pp3/8/8/8/3K4 w - e6 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
];

#[test]
fn king_mirroring_refreshes_equal_a_refresh_from_scratch_in_perft_trees() {
    let mut walk = Walk::with(king_mirrored(), 21);
    for fen in KING_WALKS {
        let pos = Position::from_fen(fen, false).unwrap();
        let mut board = Board::new(pos, Some(&walk.net.clone()));
        walk.tree(&mut board, 3);
        walk.king_refreshes += board.evaluator().king_refreshes();
    }
    walk.suite_trees("published.epd", false, 3, usize::MAX);
    // Chess960 castlings that take the king across the boundary (b1 to g1, g1 to c1).
    walk.suite_trees("chess960.epd", true, 2, 40);
    assert!(walk.nodes > 100_000, "{} nodes", walk.nodes);
    assert!(
        walk.king_refreshes > 5_000,
        "{} king refreshes",
        walk.king_refreshes
    );
}

#[test]
fn king_mirroring_refreshes_equal_a_refresh_from_scratch_along_random_games() {
    for arch in architectures().into_iter().filter(|a| a.viewed()) {
        let mut walk = Walk::with(arch, 22);
        for fen in KING_WALKS {
            walk.games(&Position::from_fen(fen, false).unwrap(), 10, 5);
        }
        assert!(walk.nodes > 5_000, "{arch}: {} nodes", walk.nodes);
        assert!(
            walk.king_refreshes > 500,
            "{arch}: {} king refreshes",
            walk.king_refreshes
        );
    }
    // Without king mirroring a king move never refreshes.
    let mut walk = Walk::new(23);
    walk.games(&Position::from_fen(KING_WALKS[1], false).unwrap(), 5, 5);
    assert_eq!(walk.king_refreshes, 0);
}

fn king_bucketed(king_buckets: usize) -> Architecture {
    Architecture {
        king_buckets,
        ..king_mirrored()
    }
}

/// A move and the refreshes it makes under 4 and under 8 king buckets.
type Refreshes = (&'static str, usize, usize);

/// Games whose kings cross king-bucket boundaries, with the refreshes each move makes under
/// 4 and 8 king buckets: castling both ways, a king walk from rank 1 to rank 5, a king along
/// its back rank, and Black's king near White's back rank (its own ranks 6 to 8).
#[test]
fn king_buckets_refresh_a_side_whose_king_enters_another_bucket() {
    #[rustfmt::skip]
    let games: [(&str, &[Refreshes]); 4] = [
        (
            "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
            // Castling king side: e1 (d1 mirrored) to g1 (b1 mirrored); queen side: e8 to
            // c8 crosses to the unmirrored side. A rook move refreshes nothing.
            &[("e1g1", 1, 1), ("e8c8", 1, 1), ("a1b1", 0, 0), ("d8e8", 0, 0)],
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            // White's king walks e1-e2-e3-e4-e5 (d-file mirrored): buckets (4) 1, 2, 3, 3, 3
            // and (8) 3, 5, 6, 7, 7; Black's king waits along its back rank, e8-f8-g8-h8:
            // (8) 3, 2, 1, 0 and (4) 1, 1, 0, 0.
            &[
                ("e1e2", 1, 1), ("e8f8", 0, 1), ("e2e3", 1, 1), ("f8g8", 1, 1),
                ("e3e4", 0, 1), ("g8h8", 0, 1), ("e4e5", 0, 0), ("h8h7", 1, 1),
            ],
        ),
        (
            "8/8/8/8/8/8/8/K6k b - - 0 1",
            // Black's king on h1, g2, f3 stands on its own ranks 8, 7, 6: one bucket, no
            // refresh (seen unflipped, as ranks 1 to 3, it would change bucket each move).
            &[("h1g2", 0, 0), ("a1b1", 0, 1), ("g2f3", 0, 0), ("b1c1", 1, 1)],
        ),
        (
            "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
            // Black castles queen side (e8, d8 mirrored, to c8), White king side.
            &[("e8c8", 1, 1), ("e1g1", 1, 1), ("c8b8", 1, 1), ("g1g2", 1, 1)],
        ),
    ];
    for (index, king_buckets) in [(1, 4), (2, 8)] {
        let mut walk = Walk::with(king_bucketed(king_buckets), 25 + king_buckets as u64);
        for (fen, moves) in games {
            let pos = Position::from_fen(fen, false).unwrap();
            let mut board = Board::new(pos, Some(&walk.net.clone()));
            walk.check(&board);
            for &(text, four, eight) in moves {
                let before = board.evaluator().king_refreshes();
                let mv = board.position().parse_uci(text).unwrap();
                board.do_move(mv, &walk.table);
                walk.check(&board);
                let expected = [four, eight][index - 1];
                assert_eq!(
                    board.evaluator().king_refreshes() - before,
                    expected as u64,
                    "{king_buckets} king buckets: {fen} {text}"
                );
            }
            // Taken back move by move, each parent is as it was.
            for _ in 0..moves.len() {
                board.undo_move();
                walk.check(&board);
            }
        }
        // The same moves in perft trees from the same positions.
        for (fen, _) in games {
            let pos = Position::from_fen(fen, false).unwrap();
            let mut board = Board::new(pos, Some(&walk.net.clone()));
            walk.tree(&mut board, 3);
            walk.king_refreshes += board.evaluator().king_refreshes();
        }
        assert!(walk.king_refreshes > 1_000, "{}", walk.king_refreshes);
    }
}

/// King buckets without king mirroring: a king move refreshes its side only when it enters
/// another bucket, never for crossing the d/e boundary alone.
#[test]
fn unmirrored_king_buckets_refresh_only_on_a_change_of_bucket() {
    let arch = Architecture {
        king_mirror: false,
        ..king_bucketed(4)
    };
    let mut walk = Walk::with(arch, 33);
    #[rustfmt::skip]
    let games: [(&str, &[(&str, u64)]); 2] = [
        (
            "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
            // e1 (bucket 1) to g1 (bucket 0); e8 to c8 stays in bucket 1, across d/e.
            &[("e1g1", 1), ("e8c8", 0), ("g1h1", 0), ("c8b8", 1)],
        ),
        (
            "4k3/8/8/8/8/8/8/3K4 w - - 0 1",
            // d1 to e1 and back: bucket 1 both, crossing d/e; then to rank 2 and rank 3.
            &[("d1e1", 0), ("e8d8", 0), ("e1d1", 0), ("d8e7", 1), ("d1d2", 1), ("e7e6", 1)],
        ),
    ];
    for (fen, moves) in games {
        let pos = Position::from_fen(fen, false).unwrap();
        let mut board = Board::new(pos, Some(&walk.net.clone()));
        walk.check(&board);
        for &(text, expected) in moves {
            let before = board.evaluator().king_refreshes();
            let mv = board.position().parse_uci(text).unwrap();
            board.do_move(mv, &walk.table);
            walk.check(&board);
            let made = board.evaluator().king_refreshes() - before;
            assert_eq!(made, expected, "{fen} {text}");
        }
    }
    // A king-mirrored net refreshes on the same crossings.
    let mut mirrored = Walk::with(king_bucketed(4), 34);
    let pos = Position::from_fen(games[1].0, false).unwrap();
    let mut board = Board::new(pos, Some(&mirrored.net.clone()));
    board.do_move(board.position().parse_uci("d1e1").unwrap(), &mirrored.table);
    mirrored.check(&board);
    assert_eq!(board.evaluator().king_refreshes(), 1);
}

#[test]
fn each_king_bucket_reads_its_own_rows() {
    // A net whose only non-zero rows are those of king bucket 2 (4 buckets: rank 2 from the
    // side's own side): a side's values move off its biases exactly when its king is on its
    // rank 2.
    let arch = king_bucketed(4);
    let mut net = random_net(arch, 31);
    let h = arch.hidden;
    for (i, w) in net.feature_weights_mut().iter_mut().enumerate() {
        if i / h / 768 != 2 {
            *w = 0;
        }
    }
    let bias = net.feature_bias().to_vec();
    for (fen, white, black) in [
        ("4k3/8/8/8/8/8/4K3/8 w - - 0 1", true, false),
        ("8/4k3/8/8/8/8/8/4K3 w - - 0 1", false, true),
        ("8/8/8/8/8/8/6k1/K7 w - - 0 1", false, false),
        ("8/6K1/8/8/8/8/1k6/8 w - - 0 1", false, false),
        ("8/1K6/5k2/8/8/8/8/8 w - - 0 1", false, false),
    ] {
        let board: shakmaty::Board = fen.split(' ').next().unwrap().parse().unwrap();
        let acc = Accumulator::refresh(&net, &board);
        assert_eq!(acc.perspective(Color::White) != bias, white, "{fen}");
        assert_eq!(acc.perspective(Color::Black) != bias, black, "{fen}");
    }
}

/// The position mirrored a-h (castling rights dropped: the net does not see them).
fn files_mirrored(pos: &Chess) -> Chess {
    let fen = shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal);
    let mut setup = fen.into_setup();
    setup.board.flip_horizontal();
    setup.castling_rights = Bitboard::EMPTY;
    setup.ep_square = None;
    setup
        .position(shakmaty::CastlingMode::Standard)
        .expect("a mirrored legal position is legal")
}

#[test]
fn a_king_mirrored_net_evaluates_a_position_and_its_files_mirror_alike() {
    let mirrored_net = Arc::new(random_net(king_mirrored(), 24));
    let plain_net = Arc::new(random_net(Architecture::default(), 24));
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let table = ChessTable::new(1).unwrap();
    let (mut checked, mut plain_differs) = (0, 0);
    for _ in 0..20 {
        let mut board = Board::new(Position::startpos(), Some(&mirrored_net));
        for _ in 0..80 {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            board.do_move(moves[rng.random_range(0..moves.len())], &table);
            let mirror = files_mirrored(board.chess());
            assert_eq!(
                board.evaluate(),
                evaluate_position(&mirrored_net, &mirror),
                "{}",
                board.position().fen()
            );
            plain_differs += usize::from(
                evaluate_position(&plain_net, board.chess())
                    != evaluate_position(&plain_net, &mirror),
            );
            checked += 1;
        }
    }
    assert!(checked > 1000);
    // Without king mirroring the mirror is another position to the net.
    assert!(plain_differs > checked / 2, "{plain_differs} of {checked}");
}

/// A net whose output is its bucket's bias only: bucket `b` evaluates to `(b + 1) x 10` cp.
fn bucket_net(activation: Activation) -> Arc<Network> {
    let mut net = Network::zeroed(Architecture {
        hidden: 16,
        activation,
        buckets: 8,
        king_mirror: false,
        king_buckets: 1,
    });
    for (b, bias) in net.output_bias_mut().iter_mut().enumerate() {
        // Output = bias x SCALE / (QA x QB): a bias of (b + 1) x 10 x QA x QB / SCALE.
        let units = i64::from(QA * activation.qb()) * 10 * (b as i64 + 1);
        *bias = (units / i64::from(SCALE) + 1) as i32;
    }
    Arc::new(net)
}

#[test]
fn output_buckets_are_chosen_by_the_number_of_pieces() {
    // The start position with its pieces taken off one by one (kings stay), which never
    // gives check, down to the bare kings.
    let start = Chess::default();
    let mut board = start.board().clone();
    let order: Vec<_> = board
        .clone()
        .into_iter()
        .filter(|(_, piece)| piece.role != shakmaty::Role::King)
        .map(|(square, _)| square)
        .collect();
    let mut counts = Vec::new();
    for step in 0..=order.len() {
        if step > 0 {
            board.discard_piece_at(order[step - 1]);
        }
        let pieces = board.occupied().count();
        let fen = format!("{board} w - - 0 1");
        for activation in [Activation::CReLU, Activation::SCReLU] {
            let net = bucket_net(activation);
            let evaluated = Board::new(Position::from_fen(&fen, false).unwrap(), Some(&net));
            let bucket = (pieces - 2) / 4;
            assert_eq!(
                evaluated.evaluate(),
                (bucket as i32 + 1) * 10,
                "{fen}: {pieces} pieces"
            );
        }
        counts.push(pieces);
    }
    assert_eq!(counts.first(), Some(&32));
    assert_eq!(counts.last(), Some(&2));
    // Along a game the evaluator follows the count: a capture can change the bucket.
    let net = bucket_net(Activation::CReLU);
    let mut board = Board::new(
        Position::from_fen("4k3/7p/8/3p4/4P3/8/7P/4K3 w - - 0 1", false).unwrap(),
        Some(&net),
    );
    assert_eq!(board.evaluate(), 20); // 6 pieces: bucket 1
    let table = ChessTable::new(1).unwrap();
    let capture = board.position().parse_uci("e4d5").unwrap();
    board.do_move(capture, &table);
    assert_eq!(board.evaluate(), 10); // 5 pieces: bucket 0
    board.undo_move();
    assert_eq!(board.evaluate(), 20);
}

/// The output layer in plain `i64` arithmetic, as the module docs define it.
fn reference_output(net: &Network, us: &[i16], them: &[i16], pieces: usize) -> i32 {
    let arch = net.architecture();
    let h = arch.hidden;
    let bucket = arch.bucket(pieces);
    let weights = &net.output_weights()[2 * h * bucket..2 * h * (bucket + 1)];
    let (qa, qb) = (i64::from(QA), i64::from(arch.activation.qb()));
    let mut sum = 0i64;
    for (x, w) in us.iter().chain(them).zip(weights) {
        let v = i64::from(*x).clamp(0, qa);
        sum += match arch.activation {
            Activation::CReLU => v * i64::from(*w),
            Activation::SCReLU => v * v * i64::from(*w),
        };
    }
    let bias = i64::from(net.output_bias()[bucket]);
    let score = match arch.activation {
        Activation::CReLU => (sum + bias) * i64::from(SCALE) / (qa * qb),
        Activation::SCReLU => (sum + bias * qa) * i64::from(SCALE) / (qa * qa * qb),
    };
    score.clamp(-i64::from(MAX_EVAL), i64::from(MAX_EVAL)) as i32
}

#[test]
fn output_kernels_agree_with_each_other_and_the_reference() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for activation in [Activation::CReLU, Activation::SCReLU] {
        // The sizes compiled with the length known, and two others.
        for hidden in [16, DEFAULT_HIDDEN, BUILT_IN_HIDDEN, 1024] {
            let arch = Architecture {
                hidden,
                activation,
                buckets: 8,
                king_mirror: false,
                king_buckets: 1,
            };
            let bound = match activation {
                Activation::CReLU => i16::MAX,
                Activation::SCReLU => SCRELU_MAX_WEIGHT,
            };
            let mut net = Network::zeroed(arch);
            for round in 0..200 {
                for w in net.output_weights_mut() {
                    // Every weight at the bound in some rounds: the sums' extremes.
                    *w = match round % 4 {
                        0 => bound,
                        1 => -bound,
                        _ => rng.random_range(-bound..=bound),
                    };
                }
                for b in net.output_bias_mut() {
                    *b = rng.random_range(-100_000..100_000);
                }
                let mut us = vec![0i16; hidden];
                let mut them = vec![0i16; hidden];
                for v in us.iter_mut().chain(them.iter_mut()) {
                    // Values on both sides of the clip range, and at its edges; all at the
                    // top in some rounds.
                    *v = if round % 4 < 2 {
                        rng.random_range(255..400)
                    } else {
                        rng.random_range(-400..700)
                    };
                }
                us[0] = 0;
                us[1] = 255;
                them[2] = 256;
                let pieces = rng.random_range(2..=32);
                let expected = reference_output(&net, &us, &them, pieces);
                for kernel in Kernel::available() {
                    assert_eq!(
                        net.output_with(kernel, &us, &them, arch.bucket(pieces)),
                        expected,
                        "{arch}, {}",
                        kernel.name()
                    );
                }
            }
        }
    }
}
