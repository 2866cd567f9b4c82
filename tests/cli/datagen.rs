//! `rookery datagen` driven as a user would, with tiny runs into scratch directories: the
//! manifest beside the data, `--games` as the total the directory holds, and books refused
//! when no game can be played from them, or only in Chess960.

use crate::common;
use common::scratch_dir;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::cli::{Closed, rookery, rookery_closed, rookery_in_memory, stdout};
use rookery::chess::Position;
use rookery::engine::eval::nnue::default_network;
use rookery::engine::search::memory::SearchMemory;
use rookery::engine::tt::ChessTable;
use rookery::hashing::checksum::fnv1a;
use rookery::learn::data::datagen::{DatagenConfig, play_game};
use rookery::learn::data::game_file;
use rookery::learn::data::record::{GameResult, Record};
use shakmaty::fen::Fen;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, Color, EnPassantMode, Position as _};
use shakmaty_syzygy::{AmbiguousWdl, Tablebase};

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

/// Training positions and games in the directory's game file.
fn contents(dir: &Path) -> (usize, usize) {
    let bytes = std::fs::read(dir.join("selfplay.games")).unwrap();
    let games: Vec<_> = game_file::read(&bytes)
        .unwrap()
        .map(|g| g.unwrap().game)
        .collect();
    let positions = games.iter().map(|g| g.training_plies()).sum();
    (positions, games.len())
}

#[test]
fn the_manifest_logs_each_run_with_its_settings_and_counts() {
    let (dir, data) = scratch_data("datagen-manifest");
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
    let data = std::fs::read(dir.join("selfplay.games")).unwrap();
    let log = std::fs::read(dir.join("manifest.jsonl")).unwrap();
    for games in ["3", "2"] {
        let out = rookery(&["datagen", "--out", dir.to_str().unwrap(), "--games", games]);
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("already holds 3 games"), "{stderr}");
    }
    assert_eq!(std::fs::read(dir.join("selfplay.games")).unwrap(), data);
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
    // Castling with the b1 rook: a Chess960 right, which the game file cannot hold.
    let chess960 = dir.join("chess960.epd");
    std::fs::write(&chess960, "4k3/8/8/8/8/8/8/1R2K3 w B -\n").unwrap();
    let data = dir.join("data");
    for (book, says) in [
        (&book, "no playable position"),
        (&illegal, "illegal.epd:1"),
        (
            &chess960,
            "chess960.epd:1: castling rights that only Chess960 can have",
        ),
    ] {
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

/// The tables' verdict on `pos` for the side to move, its fifty-move counter read: `None`
/// when they do not cover it, or when the counter leaves the outcome to the fifty-move rule.
fn tables_verdict(tables: &Tablebase<Chess>, pos: &Chess) -> Option<AmbiguousWdl> {
    if pos.board().occupied().count() > 4 || !pos.castles().castling_rights().is_empty() {
        return None;
    }
    tables.probe_wdl(pos).ok().filter(|wdl| {
        matches!(
            wdl,
            AmbiguousWdl::Win | AmbiguousWdl::Draw | AmbiguousWdl::Loss
        )
    })
}

fn winner(result: GameResult) -> Option<Color> {
    match result {
        GameResult::WhiteWon => Some(Color::White),
        GameResult::BlackWon => Some(Color::Black),
        GameResult::Draw => None,
    }
}

/// The most games the label test plays to see enough positions of each kind.
const MAX_LABEL_GAMES: u64 = 96;

#[test]
fn self_play_labels_agree_with_the_games_replayed() {
    // Pawn endings and a few middlegames, a thousand nodes a move: each game is replayed
    // with shakmaty from its opening, and every label checked against what the replay and
    // the tables say. The result: the final position's by the rules (mate, stalemate,
    // material, fifty moves, threefold), else the tables' verdict where they cover it (an
    // adjudicated ending). Every record: a position of the game, in order, its side to
    // move, the game's result, and a score whose sign agrees with the tables where they
    // call the position won or lost.
    let mut tables = Tablebase::<Chess>::new();
    tables
        .add_directory(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/syzygy"))
        .unwrap();
    let openings = [
        "8/8/8/3k4/8/3K4/3P4/8 w - - 0 1",
        "8/8/8/2k5/8/2K5/2P5/8 b - - 0 1",
        "8/3k4/8/3K4/3P4/8/8/8 w - - 0 1",
        "8/5k2/8/3p4/8/2K5/4P3/8 w - - 0 1",
        "8/2p5/8/8/5K2/5P2/8/2k5 w - - 0 1",
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
    ];
    let config = DatagenConfig {
        nodes: 1000,
        games: None,
        threads: 1,
        random_plies: 1,
        seed: 7,
        openings: openings
            .iter()
            .map(|fen| Position::from_fen(fen, false).unwrap().chess().clone())
            .collect(),
        network: Some(default_network()),
    };
    let table = ChessTable::new(4).unwrap();
    let mut memory = SearchMemory::new();
    let (mut by_rules, mut by_tables, mut signs, mut records, mut decisive, mut mates) =
        (0, 0, 0, 0, 0, 0);
    let mut level = 0;
    // Games are played until the checks below have seen enough of each kind: how many
    // positions reach the tables depends on the net, so the count of games is not fixed.
    let enough = |by_rules, by_tables, decisive, signs, records| {
        by_rules >= 10 && by_tables >= 2 && decisive >= 5 && signs >= 200 && records >= 600
    };
    for seed in 0..MAX_LABEL_GAMES {
        if enough(by_rules, by_tables, decisive, signs, records) {
            break;
        }
        let game = play_game(&config, seed, &table, &mut memory).unwrap();
        let mut pos = game.start.chess().clone();
        let key = |p: &Chess| p.zobrist_hash::<Zobrist64>(EnPassantMode::Legal);
        let mut seen = vec![key(&pos)];
        let mut kept = game.records.iter().peekable();
        let matches = |record: &Record, pos: &Chess| {
            record.board == *pos.board()
                && record.halfmoves as u32 == pos.halfmoves()
                && u32::from(record.fullmoves) == u32::from(pos.fullmoves())
        };
        for mv in game.plies.iter().map(|p| p.mv) {
            if let Some(record) = kept.next_if(|r| matches(r, &pos)) {
                records += 1;
                assert_eq!(record.turn, pos.turn(), "seed {seed}: side to move");
                assert_eq!(record.result, game.result, "seed {seed}: record's result");
                if let Some(wdl) = tables_verdict(&tables, &pos) {
                    let expected = match wdl {
                        AmbiguousWdl::Win => 1,
                        AmbiguousWdl::Loss => -1,
                        _ => 0,
                    };
                    // A score of the wrong sign is a label from the wrong side's view; a
                    // score of 0 is the search's own verdict of a draw, which a 1,000-node
                    // search may reach in a won ending: allowed in a few records.
                    if expected != 0 {
                        signs += 1;
                        level += usize::from(record.score == 0);
                        assert_ne!(
                            record.score.signum(),
                            -expected,
                            "seed {seed}: score {} in {}, the tables say {wdl:?}",
                            record.score,
                            Fen::from_position(&pos, EnPassantMode::Legal)
                        );
                    }
                }
            }
            pos = pos.play(mv).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            seen.push(key(&pos));
        }
        assert!(
            kept.next().is_none(),
            "seed {seed}: a record no position of the game matches"
        );
        let fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
        let repeated = seen.iter().filter(|&&k| k == key(&pos)).count() >= 3;
        mates += usize::from(pos.is_checkmate());
        let truth = if pos.is_checkmate() {
            Some(if pos.turn().is_white() {
                GameResult::BlackWon
            } else {
                GameResult::WhiteWon
            })
        } else if pos.is_stalemate()
            || pos.is_insufficient_material()
            || pos.halfmoves() >= 100
            || repeated
        {
            Some(GameResult::Draw)
        } else {
            None
        };
        // A win the search's score decided: the game's last record agrees (its side to
        // move's score, turned to the winner's view).
        if let (Some(side), None, Some(last)) = (winner(game.result), truth, game.records.last()) {
            let for_winner = if last.turn == side {
                last.score
            } else {
                -last.score
            };
            assert!(
                for_winner > 0,
                "seed {seed}: {:?} won, last record {last:?}",
                side
            );
            decisive += 1;
        }
        if let Some(truth) = truth {
            by_rules += 1;
            assert_eq!(
                game.result, truth,
                "seed {seed}: ended by the rules at {fen}"
            );
        } else if let Some(wdl) = tables_verdict(&tables, &pos) {
            by_tables += 1;
            let expected = match wdl {
                AmbiguousWdl::Win => Some(pos.turn()),
                AmbiguousWdl::Loss => Some(!pos.turn()),
                _ => None,
            };
            assert_eq!(
                winner(game.result),
                expected,
                "seed {seed}: adjudicated at {fen}"
            );
        }
    }
    // What was checked (seed 7's first 32 games with gen11 built in: 20 ended by the rules,
    // 2 mated, 8 adjudicated where the tables reach, 12 won on the score; 552 of 1,330
    // records scored where the tables call them won or lost, none of them 0).
    assert!(
        enough(by_rules, by_tables, decisive, signs, records),
        "rules {by_rules} tables {by_tables} decisive {decisive} signs {signs} records {records} mates {mates}"
    );
    assert!(
        level * 50 <= signs,
        "{level} of {signs} records scored 0 where the tables call them won or lost"
    );
}

/// Runs `rookery ARGS...` to its end, which must come within `limit` (the run is killed and
/// the test fails otherwise).
fn run_within(args: &[&str], limit: Duration) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rookery"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("{args:?} still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

/// One game of the hand-crafted evaluation's play.
const ONE_GAME: [&str; 3] = ["--games", "1", "--hce"];

/// Three games of the hand-crafted evaluation's play.
const THREE_GAMES: [&str; 3] = ["--games", "3", "--hce"];

/// The command line `rookery datagen --out DIR ARGS...`.
fn datagen_line<'a>(dir: &'a str, args: &[&'a str]) -> Vec<&'a str> {
    [&["datagen", "--out", dir][..], args].concat()
}

/// A scratch directory for the test `name`, and the data directory in it for datagen to make.
fn scratch_data(name: &str) -> (PathBuf, PathBuf) {
    let dir = scratch_dir(name);
    let data = dir.join("data");
    (dir, data)
}

/// `rookery data PATH` accepts what datagen left: its stdout.
fn checked(path: &Path) -> String {
    let out = rookery(&["data", path.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(0),
        "data {}: {stderr}",
        path.display()
    );
    stdout(&out)
}

/// Each game of the directory's game file, as its bytes.
fn games_of(dir: &Path) -> Vec<Vec<u8>> {
    let bytes = std::fs::read(dir.join("selfplay.games")).unwrap();
    game_file::read(&bytes)
        .unwrap()
        .map(|g| g.unwrap().bytes.to_vec())
        .collect()
}

#[test]
fn a_run_whose_settings_make_no_new_games_stops_and_says_why() {
    // From the start position with no random ply or one, a run has 21 openings, and a game
    // is a function of its opening: 21 games, then repeats.
    let (dir, data) = scratch_data("datagen-repeats");
    let d = data.to_str().unwrap();
    let settings = ["--games", "30", "--nodes", "50", "--threads", "1", "--hce"];
    let args = datagen_line(d, &[&settings[..], &["--random-plies", "0"]].concat());
    let out = run_within(&args, Duration::from_secs(300));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let last = stderr.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("datagen: stopped: ") && last.contains("no new games"),
        "{stderr}"
    );
    let written = games_of(&data).len();
    assert!((1..30).contains(&written), "{written} games");
    assert!(stdout(&out).starts_with(&format!("{written} games")));
    // What it wrote reads back whole, the run's end logged.
    let report = checked(&data);
    assert!(report.contains("1 runs (1 ended)"), "{report}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn random_plies_that_end_every_game_are_refused_before_anything_is_written() {
    let (dir, data) = scratch_data("datagen-random-plies");
    let d = data.to_str().unwrap();
    // White's one move takes Black's last pawn: the first random ply ends the game.
    let book = dir.join("one-move.epd");
    std::fs::write(&book, "8/8/8/8/8/8/p1k5/K7 w - -\n").unwrap();
    let b = book.to_str().unwrap();
    let plies = ["--book", b, "--random-plies", "1"];
    let line = common::cli::refused(&datagen_line(d, &[&ONE_GAME[..], &plies].concat()));
    assert!(line.contains("no opening"), "{line}");
    assert!(line.contains("random plies"), "{line}");
    assert!(!data.exists(), "made {d}");
    // As many random plies as the command line takes: each try's random game ends, in
    // bounded time and memory, and the run is refused (by the bound on the count, or for
    // want of an opening).
    let plies = ["--random-plies", "100000000"];
    let run = rookery_in_memory(2097152, &datagen_line(d, &[&ONE_GAME[..], &plies].concat()));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(!data.exists(), "made {d}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_manifest_line_never_joins_another_and_a_broken_manifest_is_refused() {
    let (dir, data) = scratch_data("datagen-manifest-break");
    datagen(&data, &["--games", "1", "--hce"]);
    let manifest = data.join("manifest.jsonl");
    // The last line's break taken off, as an editor may leave it.
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(&manifest, text.trim_end()).unwrap();
    datagen(&data, &["--games", "2", "--hce"]);
    assert_eq!(manifest_lines(&data).len(), 4);
    let report = checked(&data);
    assert!(report.contains("2 runs (2 ended)"), "{report}");
    // A manifest `data` refuses: datagen appends nothing, and plays nothing.
    let mut broken = std::fs::read(&manifest).unwrap();
    broken.extend_from_slice(b"{\"event\":\"start\"\n");
    std::fs::write(&manifest, &broken).unwrap();
    let games = std::fs::read(data.join("selfplay.games")).unwrap();
    let line = common::cli::refused(&datagen_line(data.to_str().unwrap(), &THREE_GAMES));
    assert!(line.contains("manifest.jsonl: byte"), "{line}");
    assert_eq!(std::fs::read(&manifest).unwrap(), broken);
    assert_eq!(std::fs::read(data.join("selfplay.games")).unwrap(), games);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The manifest's lines.
fn manifest_lines(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("manifest.jsonl"))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// The shell command between the backquotes of `line`.
fn quoted_command(line: &str) -> &str {
    line.split('`')
        .nth(1)
        .unwrap_or_else(|| panic!("no command in {line}"))
}

#[test]
fn the_truncate_advice_for_a_torn_game_works_when_pasted() {
    // A directory whose name a shell splits, beside files the unquoted command would cut.
    let dir = scratch_dir("datagen-torn");
    let data = dir.join("a b");
    std::fs::create_dir_all(dir.join("b")).unwrap();
    std::fs::write(dir.join("a"), "keep").unwrap();
    datagen(&data, &["--games", "2", "--hce"]);
    let file = data.join("selfplay.games");
    let whole = std::fs::read(&file).unwrap();
    std::fs::write(&file, &whole[..whole.len() - 3]).unwrap();
    let out = rookery(&["data", data.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let from_data = String::from_utf8_lossy(&out.stderr).into_owned();
    let refused = common::cli::refused(&datagen_line(data.to_str().unwrap(), &THREE_GAMES));
    let command = quoted_command(&refused);
    assert_eq!(command, quoted_command(&from_data), "{from_data}");
    let pasted = Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(pasted.status.success(), "{command}: {pasted:?}");
    // The torn game dropped, the first kept; nothing else touched.
    checked(&data);
    assert_eq!(games_of(&data).len(), 1);
    assert_eq!(std::fs::read_to_string(dir.join("a")).unwrap(), "keep");
    assert!(!dir.join("b/selfplay.games").exists());
    datagen(&data, &["--games", "3", "--hce"]);
    assert_eq!(games_of(&data).len(), 3);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn progress_to_a_closed_stderr_is_dropped_and_the_run_goes_on() {
    let (dir, data) = scratch_data("datagen-closed-stderr");
    let net = dir.join("net.nnue");
    let games = data.join("selfplay.games");
    let (d, g, n) = (
        data.to_str().unwrap(),
        games.to_str().unwrap(),
        net.to_str().unwrap(),
    );
    let runs = [
        datagen_line(d, &["--games", "2", "--nodes", "50", "--hce"]),
        vec!["train", g, "--out", n, "--epochs", "1"],
    ];
    for args in runs {
        // Its first progress line cannot be written.
        let run = rookery_closed(Closed::Stderr, &args);
        assert_eq!(run.status.code(), Some(0), "{args:?}: {run:?}");
        assert!(!stdout(&run).is_empty(), "{args:?}");
    }
    assert_eq!(games_of(&data).len(), 2);
    checked(&data);
    assert!(net.is_file());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_games_do_not_depend_on_the_threads_that_play_them() {
    // Game i of a run is a function of the binary, the seed, the node limit and the games
    // already in the directory: one thread and two write the same games (in another order).
    let dir = scratch_dir("datagen-threads");
    let sets: Vec<Vec<Vec<u8>>> = ["1", "2"]
        .iter()
        .map(|threads| {
            let data = dir.join(format!("threads-{threads}"));
            let args = [
                "--games",
                "8",
                "--hce",
                "--seed",
                "11",
                "--threads",
                threads,
            ];
            datagen(&data, &args);
            // Run again for more: the seeds of the new games take in the games there.
            let more = [
                "--games",
                "12",
                "--hce",
                "--seed",
                "12",
                "--threads",
                threads,
            ];
            datagen(&data, &more);
            let mut games = games_of(&data);
            assert_eq!(games.len(), 12);
            games.sort();
            games
        })
        .collect();
    assert!(sets[0] == sets[1], "one thread and two wrote other games");
    std::fs::remove_dir_all(&dir).unwrap();
}
