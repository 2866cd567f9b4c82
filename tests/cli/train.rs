//! `rookery train`'s refusals of settings and outputs it cannot honour, what it says of a
//! run without validation positions, and one run per net at a time.

use crate::common;
use crate::learn::random_games_data;
use common::scratch_dir;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::cli::rookery;

/// Runs `rookery ARGS`, which must be refused with exit status 2 and one line on stderr
/// before any training; returns the line.
fn refused(args: &[&str]) -> String {
    let stderr = common::cli::refused(args);
    assert!(
        !stderr.contains("train loss"),
        "{args:?} trained first: {stderr}"
    );
    stderr
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

#[test]
fn zero_epochs_batches_or_threads_and_too_many_threads_are_refused() {
    let dir = scratch_dir("train-zero");
    let data = dir.join("data.bin");
    random_games_data(&data, 4, 1);
    let net = dir.join("net.nnue");
    let (d, n) = (data.to_str().unwrap(), net.to_str().unwrap());
    for (option, value, says) in [
        ("--epochs", "0", "--epochs 0: expected a number from 1 to"),
        ("--batch", "0", "--batch 0: expected a number from 1 to"),
        (
            "--threads",
            "0",
            "--threads 0: expected a number from 1 to 256",
        ),
        ("--threads", "1000", "from 1 to 256"),
    ] {
        let line = refused(&["train", d, "--out", n, option, value]);
        assert!(line.contains(says), "{option} {value}: {line}");
    }
    assert_eq!(names(&dir), ["data.bin"]);
    for (value, says) in [
        ("0", "--threads 0: expected a number from 1 to 256"),
        ("1000", "from 1 to 256"),
    ] {
        let out = dir.join("selfplay");
        let line = refused(&[
            "datagen",
            "--out",
            out.to_str().unwrap(),
            "--threads",
            value,
        ]);
        assert!(line.contains(says), "--threads {value}: {line}");
        assert!(!out.exists(), "--threads {value}: made {}", out.display());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_output_that_names_no_file_is_refused_for_that_reason() {
    let dir = scratch_dir("train-no-file");
    let data = dir.join("data.bin");
    random_games_data(&data, 4, 1);
    let d = data.to_str().unwrap();
    for out in [".", "./", "..", "/", ""] {
        let line = refused(&["train", d, "--out", out, "--epochs", "1"]);
        assert!(!line.contains(".ckpt"), "--out '{out}': {line}");
        let says = if out.is_empty() {
            "--out is empty"
        } else {
            "a directory, not a file name"
        };
        assert!(line.contains(says), "--out '{out}': {line}");
    }
    assert_eq!(names(&dir), ["data.bin"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_output_over_the_datas_manifest_or_among_its_files_is_refused() {
    let dir = scratch_dir("train-manifest");
    let data = dir.join("data");
    let made = rookery(&[
        "datagen",
        "--out",
        data.to_str().unwrap(),
        "--games",
        "2",
        "--nodes",
        "100",
        "--hce",
    ]);
    assert!(made.status.success(), "{made:?}");
    let manifest = data.join("manifest.jsonl");
    let before = std::fs::read(&manifest).unwrap();
    let d = data.to_str().unwrap();
    let game_file = data.join("selfplay.games");
    let linked = dir.join("linked.nnue");
    std::os::unix::fs::symlink(&manifest, &linked).unwrap();
    let through_dot = format!("{d}/./manifest.jsonl");
    for (inputs, out, says) in [
        (vec![d], manifest.to_str().unwrap(), "manifest"),
        (vec![d], through_dot.as_str(), "manifest"),
        (vec![d], linked.to_str().unwrap(), "manifest"),
        (
            vec![game_file.to_str().unwrap()],
            manifest.to_str().unwrap(),
            "manifest",
        ),
        (
            vec![d],
            &data.join("net.games").display().to_string(),
            "as data",
        ),
    ] {
        let mut args = vec!["train"];
        args.extend(&inputs);
        args.extend(["--out", out, "--epochs", "1", "--batch", "64"]);
        let line = refused(&args);
        assert!(line.contains(says), "--out {out}: {line}");
    }
    assert_eq!(std::fs::read(&manifest).unwrap(), before);
    assert_eq!(names(&data), ["manifest.jsonl", "selfplay.games"]);
    // Without its manifest, the directory's manifest is still not a place for a net.
    std::fs::remove_file(&manifest).unwrap();
    let line = refused(&["train", d, "--out", manifest.to_str().unwrap()]);
    assert!(line.contains("manifest"), "{line}");
    assert_eq!(names(&data), ["selfplay.games"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_run_without_validation_positions_says_so_instead_of_a_loss() {
    let dir = scratch_dir("train-no-validation");
    let data = dir.join("data.bin");
    random_games_data(&data, 8, 3);
    let net = dir.join("net.nnue");
    let run = rookery(&[
        "train",
        data.to_str().unwrap(),
        "--out",
        net.to_str().unwrap(),
        "--epochs",
        "2",
        "--batch",
        "64",
        "--val",
        "0",
    ]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    let epochs: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains(": train loss "))
        .collect();
    assert_eq!(epochs.len(), 2, "{stderr}");
    for line in epochs {
        assert!(line.contains("no validation set"), "{line}");
        assert!(!line.contains("validation loss"), "{line}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_second_run_on_the_same_net_is_refused_while_the_first_runs() {
    let dir = scratch_dir("train-twice");
    let data = dir.join("data.bin");
    random_games_data(&data, 40, 4);
    let net = dir.join("net.nnue");
    let (d, n) = (data.to_str().unwrap(), net.to_str().unwrap());
    // Enough epochs of small batches to keep the first run busy for a while.
    let args = ["train", d, "--out", n, "--epochs", "1000", "--batch", "16"];
    let mut first = Command::new(env!("CARGO_BIN_EXE_rookery"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The first run has its checkpoint once its first epoch ends.
    let checkpoint = dir.join("net.ckpt");
    let started = Instant::now();
    while !checkpoint.exists() {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the first run wrote no checkpoint"
        );
        assert!(first.try_wait().unwrap().is_none(), "the first run ended");
        std::thread::sleep(Duration::from_millis(20));
    }
    // A second run, told to resume from the first's checkpoint, would write the same net.
    let mut second = args.to_vec();
    second.push("--resume");
    let line = refused(&second);
    assert!(line.contains("another train run"), "{line}");
    assert!(line.contains(n), "{line}");
    assert!(first.try_wait().unwrap().is_none(), "the first run ended");
    first.kill().unwrap();
    first.wait().unwrap();
    // The first run gone, its lock is free: a resume goes on from its checkpoint.
    let run = rookery(&[
        "train", d, "--out", n, "--epochs", "1", "--batch", "16", "--resume",
    ]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        !stderr.contains("another train run"),
        "a killed run's lock held on: {stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
