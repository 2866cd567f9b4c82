//! `rookery datagen` driven as a user would, with tiny runs into scratch directories: the
//! manifest beside the data, `--games` as the total the directory holds, and books refused
//! when no game can be played from them.

use crate::common;
use common::scratch_dir;

use std::collections::HashMap;
use std::path::Path;

use common::cli::{rookery, stdout};
use rookery::engine::eval::nnue::default_network;
use rookery::hashing::checksum::fnv1a;
use rookery::learn::data::games::split;
use rookery::learn::data::record::decode_all;

/// Runs `rookery datagen --out DIR --nodes 300 ARGS...`, which must succeed; returns stdout.
fn datagen(dir: &Path, args: &[&str]) -> String {
    let out = rookery(
        &[
            &["datagen", "--out", dir.to_str().unwrap(), "--nodes", "300"],
            args,
        ]
        .concat(),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {stderr}");
    stdout(&out)
}

/// The members of a flat JSON object of strings, numbers and nulls, each as its text
/// (strings unquoted and unescaped).
fn members(line: &str) -> HashMap<String, String> {
    let inner = line
        .strip_prefix('{')
        .and_then(|l| l.strip_suffix('}'))
        .unwrap_or_else(|| panic!("not an object: {line}"));
    let mut chars = inner.chars().peekable();
    let mut out = HashMap::new();
    let string = |chars: &mut std::iter::Peekable<std::str::Chars>| {
        assert_eq!(chars.next(), Some('"'));
        let mut s = String::new();
        loop {
            match chars.next().expect("a closed string") {
                '"' => return s,
                '\\' => match chars.next().unwrap() {
                    'n' => s.push('\n'),
                    c => s.push(c),
                },
                c => s.push(c),
            }
        }
    };
    while chars.peek().is_some() {
        let key = string(&mut chars);
        assert_eq!(chars.next(), Some(':'));
        let value = if chars.peek() == Some(&'"') {
            string(&mut chars)
        } else {
            let mut v = String::new();
            while let Some(&c) = chars.peek().filter(|&&c| c != ',') {
                v.push(c);
                chars.next();
            }
            v
        };
        out.insert(key, value);
        if chars.peek() == Some(&',') {
            chars.next();
        }
    }
    out
}

fn manifest(dir: &Path) -> Vec<HashMap<String, String>> {
    std::fs::read_to_string(dir.join("manifest.jsonl"))
        .unwrap()
        .lines()
        .map(members)
        .collect()
}

/// Records and games in the directory's data file.
fn contents(dir: &Path) -> (usize, usize) {
    let records = decode_all(&std::fs::read(dir.join("selfplay.bin")).unwrap())
        .unwrap()
        .records;
    (records.len(), split(&records).len())
}

#[test]
fn the_manifest_logs_each_run_with_its_settings_and_counts() {
    let dir = scratch_dir("datagen-manifest");
    let data = dir.join("data");
    datagen(&data, &["--games", "2", "--seed", "4", "--threads", "2"]);
    let lines = manifest(&data);
    assert_eq!(lines.len(), 2, "{lines:?}");
    let (start, end) = (&lines[0], &lines[1]);
    let commit = &start["commit"];
    let hex = commit.trim_end_matches("-modified");
    assert!(
        commit == "unknown" || (hex.len() == 40 && hex.chars().all(|c| c.is_ascii_hexdigit())),
        "{commit}"
    );
    let net = format!("{:016x}", default_network().checksum());
    for (key, value) in [
        ("event", "start"),
        ("build", rookery::engine::NAME),
        ("net", &net),
        ("nodes", "300"),
        ("hard_nodes", "2400"),
        ("seed", "4"),
        ("threads", "2"),
        ("openings", "start position"),
        ("book", "null"),
        ("random_plies", "8"),
        ("games_target", "2"),
        ("records_start", "0"),
        ("games_start", "0"),
    ] {
        assert_eq!(start[key], value, "{key}: {start:?}");
    }
    let (records, games) = contents(&data);
    assert_eq!(games, 2);
    assert_eq!(end["event"], "end");
    assert_eq!(end["time_start"], start["time"]);
    assert_eq!(end["records_start"], "0");
    assert_eq!(end["records_end"], records.to_string());
    assert_eq!(end["games_end"], "2");
    assert!(start["time"].parse::<u64>().unwrap() <= end["time"].parse::<u64>().unwrap());

    // A second run with other settings: a line of its own, starting where the first ended.
    let book = dir.join("book.epd");
    let book_text = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n\
                     rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - bm d5;\n";
    std::fs::write(&book, book_text).unwrap();
    datagen(
        &data,
        &[
            "--games",
            "3",
            "--hce",
            "--book",
            book.to_str().unwrap(),
            "--random-plies",
            "2",
        ],
    );
    let lines = manifest(&data);
    assert_eq!(lines.len(), 4, "{lines:?}");
    let (start, end) = (&lines[2], &lines[3]);
    let checksum = format!("{:016x}", fnv1a(book_text.as_bytes()));
    for (key, value) in [
        ("net", "null"),
        ("openings", "book"),
        ("book", book.to_str().unwrap()),
        ("book_checksum", &checksum),
        ("book_positions", "2"),
        ("random_plies", "2"),
        ("records_start", &records.to_string()),
        ("games_start", "2"),
    ] {
        assert_eq!(start[key], value, "{key}: {start:?}");
    }
    let (records, games) = contents(&data);
    assert_eq!((games, end["games_end"].as_str()), (3, "3"));
    assert_eq!(end["records_end"], records.to_string());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_rerun_plays_up_to_the_total_games() {
    let dir = scratch_dir("datagen-total");
    assert!(datagen(&dir, &["--games", "2"]).starts_with("2 games"));
    assert_eq!(contents(&dir).1, 2);
    // As after a kill: the same command with a larger total plays only what is missing.
    let out = datagen(&dir, &["--games", "3"]);
    assert!(out.starts_with("1 games"), "{out}");
    assert!(out.contains("holds 3 games"), "{out}");
    assert_eq!(contents(&dir).1, 3);
    // The total reached, a rerun is refused and writes nothing.
    let data = std::fs::read(dir.join("selfplay.bin")).unwrap();
    let log = std::fs::read(dir.join("manifest.jsonl")).unwrap();
    for games in ["3", "2"] {
        let out = rookery(&["datagen", "--out", dir.to_str().unwrap(), "--games", games]);
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("already holds 3 games"), "{stderr}");
    }
    assert_eq!(std::fs::read(dir.join("selfplay.bin")).unwrap(), data);
    assert_eq!(std::fs::read(dir.join("manifest.jsonl")).unwrap(), log);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_book_without_a_playable_position_is_refused() {
    let dir = scratch_dir("datagen-book");
    let book = dir.join("over.epd");
    // Mate, stalemate, bare kings.
    std::fs::write(
        &book,
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq -\n\
         7k/5Q2/6K1/8/8/8/8/8 b - -\n\
         8/8/8/4k3/8/8/4K3/8 w - -\n",
    )
    .unwrap();
    let illegal = dir.join("illegal.epd");
    // Two white kings.
    std::fs::write(&illegal, "4k3/8/8/8/8/8/8/3KK3 w - -\n").unwrap();
    let data = dir.join("data");
    for (book, says) in [(&book, "no playable position"), (&illegal, "illegal.epd:1")] {
        let out = rookery(&[
            "datagen",
            "--out",
            data.to_str().unwrap(),
            "--games",
            "1",
            "--book",
            book.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(says), "{stderr}");
        assert!(!data.exists(), "nothing written");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
