//! `rookery datagen` and `rookery train` driven as a user would, and the net they make
//! loaded through `EvalFile` in the real binary.

use crate::common;
use common::scratch_dir;

use std::time::Duration;

use common::cli::rookery;
use common::uci_client::Engine;
use rookery::chess::Position;
use rookery::engine::eval::nnue::evaluate_position;
use rookery::engine::eval::nnue::{Activation, Architecture, Network, default_network};
use rookery::learn::data::game_file;
use rookery::learn::data::record::{GameResult, Record};

const WAIT: Duration = Duration::from_secs(20);

/// Runs `rookery ARGS...`, which must succeed, and returns its stderr.
fn succeeds(args: &[&str]) -> String {
    let out = rookery(args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{args:?}: {stderr}");
    stderr
}

/// Sends `go ARGS` and checks a search ends with a `bestmove`.
fn assert_bestmove(engine: &mut Engine, args: &str) {
    let answer = engine.go(args);
    assert!(
        answer.last().unwrap().starts_with("bestmove "),
        "{answer:?}"
    );
}

/// The training losses a training run printed, epoch by epoch.
fn train_losses(stderr: &str) -> Vec<f32> {
    stderr
        .lines()
        .filter_map(|l| l.split(": train loss ").nth(1))
        .map(|rest| rest.split_whitespace().next().unwrap().parse().unwrap())
        .collect()
}

#[test]
fn datagen_then_train_then_play_with_the_net() {
    let dir = scratch_dir("learn-pipeline");
    let data = dir.join("data");
    let d = data.to_str().unwrap();
    let stderr = succeeds(&[
        "datagen",
        "--out",
        d,
        "--games",
        "4",
        "--nodes",
        "300",
        "--threads",
        "2",
    ]);
    assert!(stderr.contains("games 4 positions"), "{stderr}");
    let records = training_positions(&std::fs::read(data.join("selfplay.games")).unwrap());
    assert!(records > 40, "{records} records");

    let net = dir.join("net.nnue");
    let n = net.to_str().unwrap();
    let train = ["train", d, "--out", n, "--epochs", "2", "--batch", "64"];
    let stderr = succeeds(&[&train[..], &["--mirror-files"]].concat());
    assert!(stderr.contains("epoch 2/2: train loss"), "{stderr}");
    // So little data keeps no validation block: every epoch's net is written.
    let losses = train_losses(&stderr);
    assert_eq!(losses.len(), 2, "{stderr}");
    assert!(
        losses.iter().all(|l| l.is_finite() && *l > 0.0),
        "{losses:?}"
    );
    let trained = Network::from_bytes(&std::fs::read(&net).unwrap()).unwrap();
    assert!(
        trained.feature_weights().iter().any(|&w| w != 0)
            && trained.output_weights().iter().any(|&w| w != 0),
        "a trained net has weights"
    );
    assert_eq!(trained.format(), 3);
    assert_eq!(trained.architecture(), &Architecture::default());
    let checkpoint = dir.join("net.nnue.ckpt");
    let saved = std::fs::read(&checkpoint).unwrap();
    // Without --resume an existing checkpoint is neither used nor overwritten.
    let out = rookery(&[&train[..], &["--mirror-files"]].concat());
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("a checkpoint exists"));
    assert_eq!(std::fs::read(&checkpoint).unwrap(), saved);
    // A resume with the same settings goes on from the checkpoint (here: nothing left to
    // do; the trainer's own test resumes with epochs left and the best loss kept).
    let stderr = succeeds(&[&train[..], &["--mirror-files", "--resume"]].concat());
    assert!(stderr.contains("resuming after epoch 2"), "{stderr}");
    // One with other settings (the data without its mirror) is refused.
    let out = rookery(&[&train[..], &["--resume"]].concat());
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("other data or settings"));

    let mut engine = Engine::start();
    engine.send("uci");
    engine.until(WAIT, |l| l == "uciok");
    engine.send(&format!("setoption name EvalFile value {n}"));
    engine.send("setoption name Use NNUE value true");
    engine.send("position startpos moves e2e4");
    engine.send("eval");
    let lines = engine.until(WAIT, |l| l.starts_with("Final evaluation"));
    // One confirmation, naming the file and the trained net's checksum; no refusal.
    let checksum = Network::from_bytes(&std::fs::read(&net).unwrap())
        .unwrap()
        .checksum();
    let infos: Vec<_> = lines
        .iter()
        .filter(|l| l.starts_with("info string"))
        .collect();
    assert_eq!(
        infos,
        [&format!(
            "info string EvalFile: net '{n}' loaded, checksum {checksum:016x} (768->256x2->1, crelu)"
        )],
        "{lines:?}"
    );
    assert!(lines.last().unwrap().ends_with("(NNUE)"), "{lines:?}");
    // The engine evaluates with the trained net, not the built-in one.
    let after_e4 = Position::from_fen(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        false,
    )
    .unwrap();
    let ours = evaluate_position(&trained, after_e4.chess());
    assert_ne!(
        ours,
        evaluate_position(&default_network(), after_e4.chess())
    );
    assert!(
        lines.iter().any(
            |l| l.ends_with(&format!(", {ours} units for the side to move"))
                && l.starts_with("NNUE evaluation")
        ),
        "{ours}: {lines:?}"
    );
    assert_bestmove(&mut engine, "nodes 2000");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn eval_file_refusals_keep_the_engine_usable() {
    let dir = scratch_dir("learn-refusals");
    let short = dir.join("short.nnue");
    std::fs::write(&short, b"RKNN\x01\x00\x00\x00").unwrap();
    let mut engine = Engine::start();
    engine.send("uci");
    engine.until(WAIT, |l| l == "uciok");
    for (path, says) in [
        ("/nonexistent/net.nnue".to_string(), "cannot read"),
        (short.display().to_string(), "refused"),
        (env!("CARGO_BIN_EXE_rookery").to_string(), "bad magic"),
    ] {
        engine.send(&format!("setoption name EvalFile value {path}"));
        let lines = engine.until(WAIT, |l| l.starts_with("info string"));
        let line = lines.last().unwrap();
        assert!(
            line.contains(says) && line.contains("the current net stays"),
            "{line}"
        );
    }
    engine.send("setoption name EvalFile value <default>");
    let lines = engine.until(WAIT, |l| l.starts_with("info string"));
    let built_in = default_network();
    assert_eq!(
        lines.last().unwrap(),
        &format!(
            "info string EvalFile: the built-in net, checksum {:016x} ({})",
            built_in.checksum(),
            built_in.architecture()
        ),
        "{lines:?}"
    );
    engine.send("setoption name Use NNUE value true");
    assert_bestmove(&mut engine, "depth 4");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_command_lines_exit_2() {
    for args in [
        &["datagen"][..],
        &["datagen", "--out", "/tmp", "--nodes", "many"][..],
        &["train", "--out", "/tmp/x.nnue"][..],
        &["train", "/nonexistent-data", "--out", "/tmp/x.nnue"][..],
    ] {
        let out = rookery(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty());
    }
}

#[test]
fn the_trainer_loads_each_file_and_each_game_once() {
    let dir = scratch_dir("learn-distinct");
    let data = dir.join("data");
    succeeds(&[
        "datagen",
        "--out",
        data.to_str().unwrap(),
        "--games",
        "2",
        "--nodes",
        "300",
    ]);
    let file = data.join("selfplay.games");
    let bytes = std::fs::read(&file).unwrap();
    let copy = dir.join("copy.games");
    std::fs::write(&copy, &bytes).unwrap();
    let net = dir.join("net.nnue");
    let n = net.to_str().unwrap();
    // The same file twice (once through its directory), or a copy of it: refused.
    for (twice, says) in [
        (file.clone(), "the same file"),
        (copy.clone(), "the same data"),
    ] {
        let out = rookery(&[
            "train",
            data.to_str().unwrap(),
            twice.to_str().unwrap(),
            "--out",
            n,
        ]);
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(says), "{stderr}");
        assert!(!net.exists());
    }
    // One file holding each game twice: the repeats are counted and left out.
    let doubled = dir.join("doubled.games");
    let games = &bytes[game_file::HEADER_BYTES..];
    std::fs::write(&doubled, [&bytes[..], games].concat()).unwrap();
    let positions = training_positions(&bytes);
    let train = [
        "train",
        doubled.to_str().unwrap(),
        "--out",
        n,
        "--epochs",
        "1",
        "--val",
        "0",
    ];
    let stderr = succeeds(&train);
    assert!(
        stderr.contains(&format!(
            "train: 4 games, 2 distinct (50.00%); 2 repeated games ({positions} positions) left out"
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("{positions} samples ({positions} training")),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn train_learns_from_game_files_and_records_together_and_the_net_plays() {
    let dir = scratch_dir("learn-both-formats");
    // A directory holding datagen's game file and a file of records, and one of records.
    let both = dir.join("both");
    let d = both.to_str().unwrap();
    succeeds(&["datagen", "--out", d, "--games", "3", "--nodes", "300"]);
    random_games_data(&both.join("selfplay.bin"), 4, 3);
    let older = dir.join("older");
    std::fs::create_dir(&older).unwrap();
    random_games_data(&older.join("gen1.bin"), 5, 4);
    let o = older.to_str().unwrap();
    let listed = rookery(&["data", d, o]);
    assert!(listed.status.success());
    let listed = String::from_utf8(listed.stdout).unwrap();
    let all = listed.lines().last().unwrap();
    // "all: 3 files, P training positions, G games (...".
    let words: Vec<&str> = all.split_whitespace().collect();
    assert_eq!(words[..3], ["all:", "3", "files,"], "{listed}");
    let (positions, games) = (words[3], words[6]);
    assert!(listed.contains("selfplay.games: game file v1"), "{listed}");
    assert!(listed.contains("selfplay.bin: 32-byte records"), "{listed}");

    let net = dir.join("net.nnue");
    let n = net.to_str().unwrap();
    let train = ["train", d, o, "--out", n, "--epochs", "1", "--batch", "64"];
    let stderr = succeeds(&[&train[..], &["--val", "0"]].concat());
    // The trainer read the three files and every game in them, as `data` counted them.
    assert!(
        stderr.contains(&format!("train: {games} games, {games} distinct")),
        "{games}: {stderr}"
    );
    assert!(
        stderr.contains(&format!("train: 3 files, {positions} samples")),
        "{positions}: {stderr}"
    );
    let losses = train_losses(&stderr);
    assert!(losses.len() == 1 && losses[0].is_finite(), "{stderr}");
    // The net written is the model rounded: the engine's evaluation with it stays within a
    // few centipawns of the model's on the positions trained on.
    let quantisation = stderr
        .lines()
        .find_map(|l| {
            l.split_once("quantisation error mean ")?
                .1
                .split_once(" cp")
        })
        .unwrap_or_else(|| panic!("no quantisation error reported: {stderr}"));
    let mean: f64 = quantisation.0.parse().unwrap();
    assert!((0.0..3.0).contains(&mean), "{stderr}");

    let mut engine = Engine::start();
    engine.send("uci");
    engine.until(WAIT, |l| l == "uciok");
    engine.send(&format!("setoption name EvalFile value {n}"));
    let lines = engine.until(WAIT, |l| l.starts_with("info string"));
    let checksum = Network::from_bytes(&std::fs::read(&net).unwrap())
        .unwrap()
        .checksum();
    assert!(
        lines
            .last()
            .unwrap()
            .contains(&format!("checksum {checksum:016x}")),
        "{lines:?}"
    );
    engine.send("setoption name Use NNUE value true");
    engine.send("position startpos moves d2d4");
    assert_bestmove(&mut engine, "nodes 2000");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The training positions of a game file's bytes.
fn training_positions(bytes: &[u8]) -> usize {
    game_file::read(bytes)
        .unwrap()
        .map(|g| g.unwrap().game.training_plies())
        .sum()
}

/// A data file of random games' positions, scored by the hand-written evaluation.
pub(crate) fn random_games_data(path: &std::path::Path, games: usize, seed: u64) {
    use rand::{RngExt, SeedableRng};
    use shakmaty::{Chess, Position as _};
    let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(seed);
    let mut bytes = Vec::new();
    for _ in 0..games {
        let mut pos = Chess::default();
        for ply in 0..80u16 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            pos.play_unchecked(legal[rng.random_range(0..legal.len())]);
            let score = rookery::engine::eval::hce::evaluate(&pos).clamp(-3000, 3000) as i16;
            let record = Record {
                board: pos.board().clone(),
                turn: pos.turn(),
                score,
                result: GameResult::Draw,
                halfmoves: 0,
                fullmoves: ply / 2 + 1,
            };
            bytes.extend_from_slice(&record.encode());
        }
    }
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn train_flags_choose_the_architecture_and_the_engine_runs_it() {
    let dir = scratch_dir("learn-architecture");
    let data = dir.join("data.bin");
    random_games_data(&data, 8, 2);
    let d = data.to_str().unwrap();
    let net = dir.join("net.nnue");
    let n = net.to_str().unwrap();
    let shape = [
        "--hidden",
        "32",
        "--activation",
        "screlu",
        "--output-buckets",
        "8",
        "--king-mirror",
    ];
    let train = ["train", d, "--out", n, "--epochs", "1", "--batch", "64"];
    let stderr = succeeds(&[&train[..], &shape[..]].concat());
    assert!(
        stderr.contains("train: net 768->32x2->1, screlu, 8 output buckets, king mirror"),
        "{stderr}"
    );
    let bytes = std::fs::read(&net).unwrap();
    let trained = Network::from_bytes(&bytes).unwrap();
    let arch = Architecture {
        hidden: 32,
        activation: Activation::SCReLU,
        buckets: 8,
        king_mirror: true,
        king_buckets: 1,
    };
    assert_eq!(trained.architecture(), &arch);
    assert_eq!(trained.format(), 3);
    // A resume of another architecture is refused, and the checkpoint stays.
    let checkpoint = dir.join("net.nnue.ckpt");
    let saved = std::fs::read(&checkpoint).unwrap();
    let out = rookery(&[&train[..], &["--resume", "--hidden", "32"]].concat());
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("another architecture"), "{stderr}");
    assert_eq!(std::fs::read(&checkpoint).unwrap(), saved);
    // The same architecture resumes.
    let stderr = succeeds(&[&train[..], &shape[..], &["--resume"]].concat());
    assert!(stderr.contains("resuming after epoch 1"), "{stderr}");
    // King mirroring makes mirrored files the same inputs: the pair is refused.
    let other = dir.join("other.nnue");
    let o = other.to_str().unwrap();
    for flags in [
        &["--king-mirror", "--mirror-files"][..],
        &["--hidden", "100"][..],
        &["--hidden", "2048"][..],
        &["--activation", "relu"][..],
        &["--output-buckets", "9"][..],
        &["--output-buckets", "0"][..],
    ] {
        let out = rookery(&[&["train", d, "--out", o][..], flags].concat());
        assert_eq!(out.status.code(), Some(2), "{flags:?}");
        assert!(!other.exists(), "{flags:?}");
    }

    engine_loads_and_evaluates_as(n, &trained);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn train_king_buckets_start_from_a_one_bucket_net_and_the_engine_runs_them() {
    let dir = scratch_dir("learn-king-buckets");
    let data = dir.join("data.bin");
    random_games_data(&data, 8, 3);
    let d = data.to_str().unwrap();
    let (one, bucketed) = (dir.join("one.nnue"), dir.join("four.nnue"));
    let (o, b) = (one.to_str().unwrap(), bucketed.to_str().unwrap());
    let shape = ["--hidden", "32", "--activation", "screlu"];
    let run = ["--epochs", "1", "--batch", "64", "--val", "0"];
    succeeds(&[&["train", d, "--out", o][..], &shape[..], &run[..]].concat());
    // --king-buckets turns king mirroring on; the one-bucket net starts the factoriser.
    let flags = [
        &["train", d, "--out", b, "--init", o][..],
        &shape[..],
        &run[..],
    ]
    .concat();
    let stderr = succeeds(&[&flags[..], &["--king-buckets", "4"][..]].concat());
    assert!(
        stderr.contains("train: net 768->32x2->1, screlu, king mirror, 4 king buckets"),
        "{stderr}"
    );
    assert!(
        stderr.contains("its feature weights as the factoriser shared by the 4 king buckets"),
        "{stderr}"
    );
    let trained = Network::from_bytes(&std::fs::read(&bucketed).unwrap()).unwrap();
    let arch = Architecture {
        hidden: 32,
        activation: Activation::SCReLU,
        buckets: 1,
        king_mirror: true,
        king_buckets: 4,
    };
    assert_eq!(trained.architecture(), &arch);
    assert_eq!(trained.format(), 4);
    // With mirrored files, king buckets read the board as it is, and the one-bucket net
    // (not king-mirrored) starts the model exactly.
    let plain = dir.join("plain-four.nnue");
    let p = plain.to_str().unwrap();
    let unmirrored = [
        &[
            "train",
            d,
            "--out",
            p,
            "--init",
            o,
            "--mirror-files",
            "--king-buckets",
            "4",
        ][..],
        &shape[..],
        &run[..],
    ]
    .concat();
    let stderr = succeeds(&unmirrored);
    assert!(
        stderr.contains("train: net 768->32x2->1, screlu, 4 king buckets"),
        "{stderr}"
    );
    assert!(!stderr.contains("not king-mirrored"), "{stderr}");
    let plain_net = Network::from_bytes(&std::fs::read(&plain).unwrap()).unwrap();
    let plain_arch = Architecture {
        king_mirror: false,
        ..arch
    };
    assert_eq!(plain_net.architecture(), &plain_arch);
    engine_loads_and_evaluates_as(p, &plain_net);
    // Counts without a layout, and mirrored files with king mirroring.
    let other = dir.join("other.nnue");
    let t = other.to_str().unwrap();
    for flags in [
        &["--king-buckets", "3"][..],
        &["--king-buckets", "0"][..],
        &["--king-buckets", "x"][..],
        &["--king-buckets", "4", "--mirror-files", "--king-mirror"][..],
    ] {
        let out = rookery(&[&["train", d, "--out", t][..], flags].concat());
        assert_eq!(out.status.code(), Some(2), "{flags:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("king"), "{flags:?}: {stderr}");
        assert!(!other.exists(), "{flags:?}");
    }
    // A resume with another king-bucket count is refused.
    let out = rookery(&[&flags[..], &["--king-buckets", "8", "--resume"][..]].concat());
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("another architecture"), "{stderr}");

    engine_loads_and_evaluates_as(b, &trained);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn train_refuses_an_output_directory_before_any_work_and_leaves_no_temporary() {
    let dir = scratch_dir("learn-out-directory");
    let data = dir.join("data.bin");
    random_games_data(&data, 8, 2);
    let d = data.to_str().unwrap();
    let existing = dir.join("nets");
    std::fs::create_dir(&existing).unwrap();
    let trailing = format!("{}/", dir.join("new").display());
    for out in [existing.to_str().unwrap(), &trailing, "/dev/null"] {
        let run = rookery(&["train", d, "--out", out, "--epochs", "1", "--batch", "64"]);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "--out {out}: {stderr}");
        assert!(
            !stderr.contains("epoch"),
            "--out {out}: trained first: {stderr}"
        );
        assert_eq!(stderr.lines().count(), 1, "--out {out}: {stderr}");
        let mut left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(left, ["data.bin", "nets"], "--out {out}");
        assert_eq!(
            std::fs::read_dir(&existing).unwrap().count(),
            0,
            "--out {out}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The engine loads the net file `path` by `EvalFile`, says so with its checksum and shape,
/// evaluates a position (the white king off its square) as `trained` does, and searches.
fn engine_loads_and_evaluates_as(path: &str, trained: &Network) {
    let arch = trained.architecture();
    let mut engine = Engine::start();
    engine.send("uci");
    engine.until(WAIT, |l| l == "uciok");
    engine.send(&format!("setoption name EvalFile value {path}"));
    let lines = engine.until(WAIT, |l| l.starts_with("info string"));
    assert_eq!(
        lines.last().unwrap(),
        &format!(
            "info string EvalFile: net '{path}' loaded, checksum {:016x} ({arch})",
            trained.checksum()
        )
    );
    engine.send("setoption name Use NNUE value true");
    engine.send("position startpos moves e2e4 e7e5 e1e2");
    engine.send("eval");
    let lines = engine.until(WAIT, |l| l.starts_with("Final evaluation"));
    let pos = Position::from_fen(
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPPKPPP/RNBQ1BNR b kq - 1 2",
        false,
    )
    .unwrap();
    let ours = evaluate_position(trained, pos.chess());
    assert!(
        lines.iter().any(|l| l.starts_with("NNUE evaluation")
            && l.ends_with(&format!(", {ours} units for the side to move"))),
        "{ours}: {lines:?}"
    );
    assert_bestmove(&mut engine, "nodes 2000");
}
