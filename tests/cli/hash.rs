//! `rookery hash`, driven through the binary.

use crate::common;

use common::cli::rookery;
use rookery::gomoku::{Geometry, parse_moves};
use rookery::hive::{compact, parse_game_string};

/// The `name: value` lines of a successful run, checked for order and names.
fn fields(args: &[&str], names: &[&str]) -> Vec<String> {
    let out = rookery(args);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{args:?}: {text}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), names.len(), "{text}");
    lines
        .iter()
        .zip(names)
        .map(|(line, name)| {
            let value = line
                .strip_prefix(&format!("{name}: "))
                .unwrap_or_else(|| panic!("'{line}' is not '{name}: ...'"));
            value.to_string()
        })
        .collect()
}

fn is_key(text: &str) -> bool {
    text.len() == 16
        && text
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
}

const GOMOKU: [&str; 4] = ["key", "check", "canonical", "symmetry"];
const HIVE: [&str; 5] = ["key", "check", "canonical", "symmetry", "compact"];

#[test]
fn gomoku_output_format_and_values() {
    let moves = ["7,7", "8,7", "8,8", "3,12"];
    let mut args = vec!["hash", "gomoku", "--size", "15"];
    args.extend(moves);
    let v = fields(&args, &GOMOKU);
    assert!(is_key(&v[0]) && is_key(&v[1]) && is_key(&v[2]), "{v:?}");
    let symmetry: usize = v[3].parse().unwrap();
    assert!(symmetry < 8);
    let game = parse_moves(Geometry::new(15, 15).unwrap(), moves).unwrap();
    let (canonical, g) = game.canonical();
    assert_eq!(v[0], game.key().main.to_string());
    assert_eq!(v[1], game.key().check.to_string());
    assert_eq!(v[2], canonical.main.to_string());
    assert_eq!(symmetry, g);
    // A rectangle has 4 symmetries; the empty board is fine.
    let rect = fields(&["hash", "gomoku", "--rect", "19x13", "0,0"], &GOMOKU);
    assert!(rect[3].parse::<usize>().unwrap() < 4);
    let empty = fields(&["hash", "gomoku", "--size", "20"], &GOMOKU);
    assert_eq!(empty[0], "0000000000000000");
}

#[test]
fn a_rotated_or_mirrored_gomoku_game_has_the_same_canonical_key() {
    let moves = [(7, 7), (8, 7), (8, 8), (3, 12), (10, 2)];
    let run = |f: &dyn Fn(usize, usize) -> (usize, usize)| {
        let words: Vec<String> = moves
            .iter()
            .map(|&(x, y)| {
                let (x, y) = f(x, y);
                format!("{x},{y}")
            })
            .collect();
        let mut args = vec!["hash", "gomoku", "--size", "15"];
        args.extend(words.iter().map(String::as_str));
        fields(&args, &GOMOKU)
    };
    let original = run(&|x, y| (x, y));
    let quarter_turn = run(&|x, y| (14 - y, x));
    let mirrored = run(&|x, y| (14 - x, y));
    assert_ne!(original[0], quarter_turn[0]);
    assert_ne!(original[0], mirrored[0]);
    assert_eq!(original[2], quarter_turn[2]);
    assert_eq!(original[2], mirrored[2]);
}

#[test]
fn hive_output_format_and_values() {
    let game = "Base+MLP;InProgress;White[3];wS1;bG1 -wS1;wQ \\wS1;bQ -bG1";
    let v = fields(&["hash", "hive", game], &HIVE);
    assert!(is_key(&v[0]) && is_key(&v[1]) && is_key(&v[2]), "{v:?}");
    assert!(v[3].parse::<usize>().unwrap() < 12);
    assert_eq!(v[4].len(), 82, "327 bits");
    let hive = parse_game_string(game).unwrap();
    let (canonical, frame) = hive.canonical();
    assert_eq!(v[0], hive.key().main.to_string());
    assert_eq!(v[1], hive.key().check.to_string());
    assert_eq!(v[2], canonical.main.to_string());
    assert_eq!(v[3], frame.transform.index().to_string());
    assert_eq!(v[4], compact::encode(&hive).unwrap().to_string());
    // Unquoted, the shell splits the GameString at its spaces: the words are joined back.
    let words: Vec<&str> = game.split(' ').collect();
    let mut args = vec!["hash", "hive"];
    args.extend(words);
    assert_eq!(fields(&args, &HIVE), v);
    let empty = fields(&["hash", "hive", "Base;NotStarted;White[1]"], &HIVE);
    assert_eq!(empty[4].len(), 64, "255 bits");
}

#[test]
fn a_turned_hive_game_has_the_same_canonical_and_compact_keys() {
    let east = fields(
        &["hash", "hive", "Base;InProgress;White[2];wS1;bS1 wS1-"],
        &HIVE,
    );
    let north_east = fields(
        &["hash", "hive", "Base;InProgress;White[2];wS1;bS1 wS1/"],
        &HIVE,
    );
    assert_ne!(east[0], north_east[0]);
    assert_eq!(east[2], north_east[2]);
    let swapped = fields(
        &["hash", "hive", "Base;InProgress;White[2];wA2;bA3 wA2-"],
        &HIVE,
    );
    let original = fields(
        &["hash", "hive", "Base;InProgress;White[2];wA1;bA1 wA1-"],
        &HIVE,
    );
    assert_eq!(swapped, original, "identical pieces are interchangeable");
}

#[test]
fn a_turn_string_that_disagrees_with_the_moves_is_a_warning() {
    // Three moves played, so the turn is Black[2], not White[3].
    let given = rookery(&[
        "hash",
        "hive",
        "Base+MLP;InProgress;White[3];wS1;bG1 -wS1;wQ \\wS1",
    ]);
    assert_eq!(given.status.code(), Some(0));
    let warning = String::from_utf8(given.stderr).unwrap();
    assert!(warning.starts_with("rookery: warning: "), "{warning}");
    assert!(warning.contains("Black[2]"), "{warning}");
    let right = rookery(&[
        "hash",
        "hive",
        "Base+MLP;InProgress;Black[2];wS1;bG1 -wS1;wQ \\wS1",
    ]);
    assert_eq!(right.status.code(), Some(0));
    assert!(right.stderr.is_empty());
    assert_eq!(given.stdout, right.stdout);
}

#[test]
fn bad_input_exits_2_with_a_message() {
    for args in [
        &["hash"][..],
        &["hash", "chess"],
        &["hash", "gomoku"],
        &["hash", "gomoku", "7,7"],
        &["hash", "gomoku", "--size", "4"],
        &["hash", "gomoku", "--size", "33"],
        &["hash", "gomoku", "--size", "x"],
        &["hash", "gomoku", "--size", "15", "--rect", "15x15"],
        &["hash", "gomoku", "--rect", "15by15"],
        &["hash", "gomoku", "--size", "15", "7,7", "7,7"],
        &["hash", "gomoku", "--size", "15", "15,0"],
        &["hash", "gomoku", "--size", "15", "7;7"],
        &["hash", "gomoku", "--size", "15", "--colour", "black"],
        &["hash", "hive"],
        &["hash", "hive", "Base;InProgress;White[2];wS1;bS1 wQ-"],
        &["hash", "hive", "Base+X;NotStarted;White[1]"],
        &["hash", "hive", "Base;NotStarted;White[1];wM"],
        &["hash", "hive", "not a game string"],
    ] {
        let out = rookery(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let message = String::from_utf8(out.stderr).unwrap();
        assert!(message.starts_with("rookery: "), "{args:?}: {message}");
    }
    let out = rookery(&["hash", "hive", "Base;InProgress;White[2];wS1;bS1 wQ-"]);
    let message = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        message,
        "rookery: move 2 'bS1 wQ-': wQ is not on the board\n"
    );
}
