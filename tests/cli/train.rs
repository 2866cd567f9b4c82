//! `rookery train`'s refusals of settings and outputs it cannot honour, what it says of a
//! run without validation positions, and one run per net at a time.

use crate::common;
use crate::learn::random_games_data;
use common::scratch_dir;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::cli::{rookery, rookery_in_memory};

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

/// A run killed when the test lets it go, failed or not.
struct Killed(std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
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
    let mut first = Killed(
        Command::new(env!("CARGO_BIN_EXE_rookery"))
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let first = &mut first.0;
    // The first run has its checkpoint once its first epoch ends.
    let checkpoint = dir.join("net.nnue.ckpt");
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

/// Runs `rookery train ARGS...` to its end; returns its exit status and stderr.
fn train(args: &[&str]) -> (Option<i32>, String) {
    let run = rookery(&[&["train"], args].concat());
    (
        run.status.code(),
        String::from_utf8_lossy(&run.stderr).into_owned(),
    )
}

#[test]
fn runs_on_nets_that_share_a_stem_write_files_of_their_own() {
    let dir = scratch_dir("train-stem");
    let data = dir.join("data.bin");
    random_games_data(&data, 4, 6);
    let d = data.to_str().unwrap();
    for (a, b) in [("x.a", "x.b"), ("net", "net.nnue")] {
        let (a, b) = (dir.join(a), dir.join(b));
        let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
        // The second run starts while the first one's checkpoint is there: each has its own.
        for out in [a, b] {
            let (status, stderr) = train(&[d, "--out", out, "--epochs", "1", "--batch", "64"]);
            assert_eq!(status, Some(0), "--out {out}: {stderr}");
        }
        for out in [a, b] {
            let checkpoint = format!("{out}.ckpt");
            assert!(Path::new(&checkpoint).is_file(), "{checkpoint}");
            // Each resumes from its own checkpoint (and has no epoch left).
            let (status, stderr) = train(&[
                d, "--out", out, "--epochs", "1", "--batch", "64", "--resume",
            ]);
            assert_eq!(status, Some(0), "--out {out} --resume: {stderr}");
            assert!(stderr.contains("resuming after epoch 1"), "{stderr}");
        }
    }
    // Nothing else is left: no lock, no temporary.
    assert_eq!(
        names(&dir),
        [
            "data.bin",
            "net",
            "net.ckpt",
            "net.nnue",
            "net.nnue.ckpt",
            "x.a",
            "x.a.ckpt",
            "x.b",
            "x.b.ckpt"
        ]
    );
    // A net named as another net's checkpoint, temporary or lock is refused.
    for name in ["x.ckpt", "x.tmp", "x.lock"] {
        let out = dir.join(name);
        let line = refused(&["train", d, "--out", out.to_str().unwrap()]);
        assert!(line.contains("cannot end in"), "--out {name}: {line}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_resume_whose_checkpoint_has_the_name_of_older_builds_is_refused() {
    let dir = scratch_dir("train-stem-checkpoint");
    let data = dir.join("data.bin");
    random_games_data(&data, 4, 7);
    let d = data.to_str().unwrap();
    let net = dir.join("net.nnue");
    let n = net.to_str().unwrap();
    let (status, stderr) = train(&[d, "--out", n, "--epochs", "1", "--batch", "64"]);
    assert_eq!(status, Some(0), "{stderr}");
    // As an older build left it: NET's stem with `.ckpt`.
    std::fs::rename(dir.join("net.nnue.ckpt"), dir.join("net.ckpt")).unwrap();
    let before = std::fs::read(&net).unwrap();
    let line = refused(&["train", d, "--out", n, "--epochs", "1", "--resume"]);
    assert!(line.contains("rename it to"), "{line}");
    assert_eq!(std::fs::read(&net).unwrap(), before, "the net was written");
    std::fs::rename(dir.join("net.ckpt"), dir.join("net.nnue.ckpt")).unwrap();
    let (status, stderr) = train(&[d, "--out", n, "--epochs", "1", "--batch", "64", "--resume"]);
    assert_eq!(status, Some(0), "{stderr}");
    assert!(stderr.contains("resuming after epoch 1"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_batch_larger_than_the_data_trains_in_the_memory_the_data_needs() {
    let dir = scratch_dir("train-large-batch");
    let data = dir.join("data.bin");
    random_games_data(&data, 4, 8);
    let net = dir.join("net.nnue");
    let (d, n) = (data.to_str().unwrap(), net.to_str().unwrap());
    // Under 4 GiB of address space: a buffer of a billion samples would not fit. A batch
    // size is trained on (the whole data in one batch) or refused with exit status 2; it
    // never ends the run otherwise, and no lock or temporary is left.
    for batch in ["1000000000", "18446744073709551615"] {
        let run = rookery_in_memory(
            4194304,
            &["train", d, "--out", n, "--epochs", "1", "--batch", batch],
        );
        let stderr = String::from_utf8_lossy(&run.stderr);
        match run.status.code() {
            Some(0) => assert!(net.is_file(), "--batch {batch}: no net: {stderr}"),
            Some(2) => assert_eq!(stderr.lines().count(), 1, "{stderr}"),
            other => panic!("--batch {batch}: status {other:?}: {stderr}"),
        }
        let left: Vec<String> = names(&dir)
            .into_iter()
            .filter(|name| name.ends_with(".lock") || name.ends_with(".tmp"))
            .collect();
        assert!(left.is_empty(), "--batch {batch} left {left:?}");
        for name in ["net.nnue", "net.nnue.ckpt"] {
            let _ = std::fs::remove_file(dir.join(name));
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
