//! The game file as datagen writes it, and `rookery data` checking it: its size per training
//! position, what `data` reports, and damage (a move byte flipped, a game cut off) refused
//! by `data`, `train` and a resumed `datagen` at the byte where it is.

use crate::common;
use common::scratch_dir;

use std::path::Path;
use std::process::Output;

use common::cli::{rookery, stdout};
use rookery::learn::data::game_file;

/// Runs `rookery datagen --out DIR --nodes 300 --games GAMES`, which must succeed.
fn datagen(dir: &Path, games: &str) {
    let out = rookery(&[
        "datagen",
        "--out",
        dir.to_str().unwrap(),
        "--nodes",
        "300",
        "--games",
        games,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Each game of a game file: its first byte, its length, its plies and training plies.
fn games(bytes: &[u8]) -> Vec<(usize, usize, usize, usize)> {
    game_file::read(bytes)
        .unwrap()
        .map(|g| {
            let g = g.unwrap();
            let plies = g.game.plies.len();
            (
                g.offset as usize,
                g.bytes.len(),
                plies,
                g.game.training_plies(),
            )
        })
        .collect()
}

/// Stderr of a run that must have failed with status 2 in one line.
fn refused(out: &Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    stderr
}

#[test]
fn datagen_writes_at_most_8_bytes_a_training_position_and_data_finds_it_sound() {
    let dir = scratch_dir("data-sound");
    datagen(&dir, "6");
    let file = dir.join("selfplay.games");
    let bytes = std::fs::read(&file).unwrap();
    let games = games(&bytes);
    assert_eq!(games.len(), 6);
    let plies: usize = games.iter().map(|g| g.2).sum();
    let positions: usize = games.iter().map(|g| g.3).sum();
    let per_position = bytes.len() as f64 / positions as f64;
    assert!(
        per_position <= 8.0,
        "{} bytes, {positions} positions",
        bytes.len()
    );
    let out = rookery(&["data", dir.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(
        lines[0].starts_with(&format!(
            "{}: game file v1, {positions} training positions of {plies} plies, 6 games (W/D/L ",
            file.display()
        )),
        "{text}"
    );
    assert!(
        lines[0].ends_with(&format!(
            "6 distinct (100.00%), {per_position:.2} bytes per training position"
        )),
        "{text}"
    );
    assert!(
        lines[1].contains(&format!(
            "1 runs (1 ended); seeds 1; nets {:016x}; nodes 300; last records_end {positions}, \
             games_end 6; the directory holds {positions} training positions in 6 games",
            rookery::engine::eval::nnue::default_network().checksum()
        )),
        "{text}"
    );
    assert!(
        lines[2].starts_with(&format!(
            "all: 1 files, {positions} training positions, 6 games"
        )),
        "{text}"
    );
    // Nothing to check is no success.
    refused(&rookery(&["data"]));
    let empty = dir.join("empty");
    std::fs::create_dir(&empty).unwrap();
    refused(&rookery(&["data", empty.to_str().unwrap()]));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn damaged_game_files_are_refused_at_their_offset_by_data_train_and_datagen() {
    let dir = scratch_dir("data-damage");
    let data = dir.join("data");
    datagen(&data, "3");
    let file = data.join("selfplay.games");
    let f = file.to_str().unwrap();
    let whole = std::fs::read(&file).unwrap();
    let games = games(&whole);
    let net = dir.join("net.nnue");
    let n = net.to_str().unwrap();
    let check = |says: &str| {
        for run in [
            rookery(&["data", f]),
            rookery(&["train", f, "--out", n, "--epochs", "1"]),
        ] {
            let stderr = refused(&run);
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
            assert!(
                stderr.contains(&format!("{f}: byte {says}")),
                "{says}: {stderr}"
            );
        }
        assert!(!net.exists());
    };

    // The second game's first move with a queen promotion flipped on: no legal move.
    let (start, len, plies, _) = games[1];
    let ply = start + len - 4 * plies;
    let mut flipped = whole.clone();
    flipped[ply + 1] ^= 0x50;
    std::fs::write(&file, &flipped).unwrap();
    check(&format!("{ply}: ply 0: move word"));

    // Cut off inside the last game: refused at the game's first byte.
    let last = games[2].0;
    std::fs::write(&file, &whole[..last + 10]).unwrap();
    check(&format!(
        "{last}: a game cut off by the end of the file (10 of its"
    ));
    let stderr = refused(&rookery(&["data", f]));
    assert!(
        stderr.contains(&format!("`truncate -s {last} {f}`")),
        "{stderr}"
    );
    // A resumed datagen refuses it too, naming the truncate, and writes nothing.
    let manifest = std::fs::read(data.join("manifest.jsonl")).unwrap();
    let resumed = rookery(&["datagen", "--out", data.to_str().unwrap(), "--games", "5"]);
    let stderr = refused(&resumed);
    assert!(
        stderr.contains(&format!("byte {last}: a game cut off")),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("`truncate -s {last} {f}`")),
        "{stderr}"
    );
    assert_eq!(std::fs::read(&file).unwrap(), &whole[..last + 10]);
    assert_eq!(
        std::fs::read(data.join("manifest.jsonl")).unwrap(),
        manifest
    );
    // Truncated as it says, the file holds the games before the cut one.
    std::fs::write(&file, &whole[..last]).unwrap();
    let out = rookery(&["data", f]);
    assert!(out.status.success());
    assert!(
        stdout(&out).contains(", 2 games (W/D/L"),
        "{}",
        stdout(&out)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_file_that_is_no_data_file_is_refused_as_such_by_data_and_train() {
    let readme = concat!(env!("CARGO_MANIFEST_DIR"), "/README.md");
    let net = scratch_dir("no-data-file").join("x.nnue");
    let net = net.to_str().unwrap();
    for args in [vec!["data", readme], vec!["train", readme, "--out", net]] {
        let stderr = common::cli::refused(&args);
        assert!(stderr.contains("not a data file"), "{args:?}: {stderr}");
    }
}
