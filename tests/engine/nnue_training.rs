//! The trainer's float model against the engine's integer inference: a tiny net of each
//! architecture trained for a few epochs (a factoriser with king buckets), written as a net
//! file (format 3, or 4 with king buckets), loaded by the engine, and evaluated along games
//! by `Board` (incremental updates, king-mirror and king-bucket refreshes) next to the
//! model's forward pass. The difference is the quantisation error.
//!
//! `cargo test --release --test engine nnue_training -- --nocapture` prints it per architecture.
//!
//! Output buckets as the trainer runs them: each position in the engine's bucket, and eight
//! buckets fitting a set of self-play positions at least as well as one.

use std::sync::Arc;

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use rookery::chess::Position;
use rookery::engine::board::Board;
use rookery::engine::eval::hce;
use rookery::engine::eval::nnue::architecture::SCALE;
use rookery::engine::eval::nnue::{Activation, Architecture, Network};
use rookery::engine::tt::ChessTable;
use rookery::learn::data::record::{GameResult, Record};
use rookery::learn::fit::dataset::Sample;
use rookery::learn::fit::model::Model;
use rookery::learn::fit::optimiser::{Adam, TrainConfig, mean_loss, train_epoch};
use shakmaty::{Chess, Move, Position as _};

/// The sample of a position, scored by the hand-written evaluation.
fn sample(pos: &Chess) -> Sample {
    Sample::from_record(&Record {
        board: pos.board().clone(),
        turn: pos.turn(),
        score: hce::evaluate(pos).clamp(-3000, 3000) as i16,
        result: GameResult::Draw,
        halfmoves: 0,
        fullmoves: 1,
    })
}

/// Random games from the start and from endgames where kings walk across the d/e
/// boundary: each game's start and moves.
fn games() -> Vec<(Position, Vec<Move>)> {
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    let starts = [
        Position::startpos(),
        Position::from_fen("8/8/3k4/3p4/8/3P4/3K4/8 w - - 0 1", false).unwrap(),
        Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            false,
        )
        .unwrap(),
    ];
    let mut games = Vec::new();
    for start in starts {
        for _ in 0..12 {
            let mut pos = start.chess().clone();
            let mut moves = Vec::new();
            for _ in 0..120 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let mv = legal[rng.random_range(0..legal.len())];
                pos.play_unchecked(mv);
                moves.push(mv);
            }
            games.push((start.clone(), moves));
        }
    }
    games
}

/// Every position of the games.
fn positions(games: &[(Position, Vec<Move>)]) -> Vec<Chess> {
    let mut all = Vec::new();
    for (start, moves) in games {
        let mut pos = start.chess().clone();
        all.push(pos.clone());
        for &mv in moves {
            pos.play_unchecked(mv);
            all.push(pos.clone());
        }
    }
    all
}

/// Quantisation error in centipawns: mean absolute, largest, mean signed.
struct Error {
    mean: f64,
    max: f64,
    bias: f64,
}

/// Trains a model of `arch` a few epochs, writes it as a file, loads it as the engine does,
/// and compares the engine's evaluation with the model's along every game. The engine's
/// evaluation is also checked against the model of the rounded weights (the net read back as
/// a model), within the 1 cp of the output's integer arithmetic: what remains of the
/// error is the weights' rounding.
fn quantisation_error(arch: Architecture, games: &[(Position, Vec<Move>)]) -> Error {
    let samples: Vec<Sample> = positions(games).iter().map(sample).collect();
    let config = TrainConfig {
        epochs: 4,
        batch: 64,
        lr: 0.005,
        wdl: 0.0,
        weight_decay: 0.0,
        threads: 1,
        seed: 5,
        arch,
    };
    let mut model = Model::new(arch, config.seed);
    let mut adam = Adam::new(model.layout().params);
    let untrained = model.clone();
    for epoch in 0..config.epochs {
        train_epoch(&mut model, &mut adam, &samples, &config, epoch, |_, _| {});
    }
    assert_ne!(model, untrained, "{arch}: training moved nothing");
    let path = std::env::temp_dir().join(format!(
        "rookery-quantisation-{}-{}.nnue",
        std::process::id(),
        arch.to_string().replace([' ', ',', '>'], "_")
    ));
    std::fs::write(&path, model.quantise().to_bytes()).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let format = if arch.king_buckets > 1 { 4 } else { 3 };
    assert_eq!(u32::from_le_bytes(bytes[4..8].try_into().unwrap()), format);
    let net = Arc::new(Network::from_bytes(&bytes).unwrap_or_else(|e| panic!("{arch}: {e}")));
    assert_eq!(net.architecture(), &arch);

    let rounded = Model::from_network(&net);
    let table = ChessTable::new(1).unwrap();
    let (mut total, mut signed, mut max, mut n) = (0.0f64, 0.0f64, 0.0f64, 0usize);
    let mut compare = |board: &Board| {
        let sample = sample(board.chess());
        let float = f64::from(model.forward(&sample)) * f64::from(SCALE);
        let engine = f64::from(board.evaluate());
        let of_rounded = f64::from(rounded.forward(&sample)) * f64::from(SCALE);
        assert!(
            (engine - of_rounded).abs() <= 1.0 + 1e-3,
            "{arch}: {}: the engine {engine}, the model of its weights {of_rounded}",
            board.position().fen()
        );
        let error = engine - float;
        total += error.abs();
        signed += error;
        max = max.max(error.abs());
        n += 1;
    };
    for (start, moves) in games {
        let mut board = Board::new(start.clone(), Some(&net));
        compare(&board);
        for &mv in moves {
            board.do_move(mv, &table);
            compare(&board);
        }
    }
    Error {
        mean: total / n as f64,
        max,
        bias: signed / n as f64,
    }
}

#[test]
fn the_engine_evaluates_a_trained_net_as_the_trainer_does() {
    let games = games();
    // Each activation, one or 8 output buckets, without king mirroring and with it for 1, 4
    // and 8 king buckets.
    for arch in Architecture::every_kind(256) {
        let error = quantisation_error(arch, &games);
        println!(
            "{arch}: quantisation error mean {:.2} cp, max {:.2} cp, mean signed {:+.2} cp",
            error.mean, error.max, error.bias
        );
        // Feature weights in steps of 1/255, output weights of 1/4096 (CReLU) or 1/64
        // (SCReLU), and the output rounded toward zero to whole centipawns. King-bucketed
        // SCReLU nets of this run stray further (means 3.4-3.9 cp, largest 17-32 cp against
        // 2.1-3.1 and 12-17), all of it from the rounded weights (see `quantisation_error`).
        let (mean, max) = match arch.activation {
            Activation::CReLU => (1.5, 6.0),
            Activation::SCReLU if arch.king_buckets > 1 => (4.5, 40.0),
            Activation::SCReLU => (3.5, 20.0),
        };
        assert!(
            error.mean <= mean && error.max <= max,
            "{arch}: mean {:.2} cp, max {:.2} cp",
            error.mean,
            error.max
        );
    }
}

/// A net of `arch` with every weight 0 and output bucket `b`'s bias `b` (in output units):
/// what it says of a position is the bucket it evaluates it with.
fn bucket_revealing_model(arch: Architecture) -> Model {
    let mut model = Model::new(arch, 1);
    let layout = model.layout();
    model.params.iter_mut().for_each(|p| *p = 0.0);
    for (b, bias) in model.params[layout.b2..].iter_mut().enumerate() {
        *bias = b as f32;
    }
    model
}

#[test]
fn the_trainer_evaluates_each_position_with_the_engines_output_bucket() {
    use rookery::engine::eval::nnue::evaluate_position;
    let arch = Architecture {
        hidden: 32,
        buckets: 8,
        ..Architecture::default()
    };
    let model = bucket_revealing_model(arch);
    let net = model.quantise();
    let mut seen = [false; 8];
    for pos in positions(&games()) {
        let trainer = model.forward(&sample(&pos)).round() as usize;
        let engine = evaluate_position(&net, &pos) as f32 / SCALE as f32;
        assert_eq!(
            trainer as f32,
            engine.round(),
            "{} pieces",
            pos.board().occupied().count()
        );
        seen[trainer] = true;
    }
    // Games from the start and from endgames reach the first buckets and the last.
    assert!(seen[0] && seen[1] && seen[7], "{seen:?}");
}

#[test]
fn output_buckets_fit_a_small_set_at_least_as_well_as_one_bucket() {
    // Eight output buckets can give every position the one bucket's weights, so trained
    // alike they fit a set at least as well: weight decay among the training, which must not
    // hold each bucket's weights, learning from a share of the samples, smaller than the one
    // bucket's. gen11's own games (10,418 training positions), enough steps for every bucket
    // to learn from its share.
    let data =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/gen11-games.games");
    let samples = rookery::learn::fit::dataset::load(&[data]).unwrap().samples;
    assert_eq!(samples.len(), 10_418);
    let fit = |buckets: usize| {
        let arch = Architecture {
            hidden: 32,
            activation: Activation::SCReLU,
            buckets,
            ..Architecture::default()
        };
        let config = TrainConfig {
            epochs: 150,
            batch: 256,
            lr: 0.003,
            wdl: 0.0,
            weight_decay: 0.1,
            threads: 1,
            seed: 1,
            arch,
        };
        let mut model = Model::new(arch, config.seed);
        let mut adam = Adam::new(model.layout().params);
        for epoch in 0..config.epochs {
            train_epoch(&mut model, &mut adam, &samples, &config, epoch, |_, _| {});
        }
        mean_loss(&model, &samples, config.wdl, 1)
    };
    let (plain, bucketed) = (fit(1), fit(8));
    println!("mean loss on the training set: one output bucket {plain:.6}, eight {bucketed:.6}");
    assert!(
        bucketed <= plain,
        "eight output buckets fit worse: {bucketed:.6} against {plain:.6}"
    );
}
