//! The measuring instruments of `rookery hashstats`: exact encodings that tell positions
//! apart exactly, and a collision counter checked on cases with known answers.

use std::process::Command;

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use rookery::chess::Position;
use rookery::chess::key_samples::{ChessCode, walk_perft};
use rookery::gomoku::key_samples::GomokuCode;
use rookery::gomoku::{Geometry, Gomoku};
use rookery::hashing::quality::{SampleSet, colliding_pairs};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position as _};

fn chess(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Chess960)
        .unwrap()
}

fn code(fen: &str) -> ChessCode {
    ChessCode::of(&chess(fen))
}

#[test]
fn chess_transpositions_encode_equal() {
    let play = |moves: &[&str]| {
        let mut pos = Position::startpos();
        for mv in moves {
            pos.push_uci(mv).unwrap();
        }
        ChessCode::of(pos.chess())
    };
    assert_eq!(
        play(&["g1f3", "g8f6", "b1c3"]),
        play(&["b1c3", "g8f6", "g1f3"])
    );
    // Knights out and back: the start position again, move counters aside.
    assert_eq!(
        play(&["g1f3", "g8f6", "f3g1", "f6g8"]),
        ChessCode::of(&Chess::default())
    );
    // An en-passant square no pawn can use is not part of the position.
    assert_eq!(
        code("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1"),
        code("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1")
    );
}

#[test]
fn chess_positions_that_differ_encode_differently() {
    let base = "r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1";
    let variants = [
        "r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq - 0 1",  // no en passant
        "r3k2r/8/8/3pP3/8/8/8/R3K2R w Kkq d6 0 1",  // a right fewer
        "r3k2r/8/8/3pP3/8/8/8/R3K2R w KQk d6 0 1",  // another right fewer
        "r3k2r/8/8/3pP3/8/8/8/R3K1R1 w Qkq d6 0 1", // a rook elsewhere
        "r3k2r/8/8/3pP3/8/8/8/R3K2R b KQkq - 0 1",  // the other side to move
        "r3k2r/8/8/3pP3/8/8/8/R3K2Q w Qkq d6 0 1",  // another piece type
        "r3k2r/8/8/3Pp3/8/8/8/R3K2R w KQkq - 0 1",  // pawns swapped
        "r3k2r/8/8/3PP3/8/8/8/R3K2R w KQkq - 0 1",  // one pawn of the other colour
    ];
    let mut codes = vec![code(base)];
    codes.extend(variants.iter().map(|f| code(f)));
    for i in 0..codes.len() {
        for j in i + 1..codes.len() {
            assert_ne!(codes[i], codes[j], "{i} and {j}");
        }
    }
}

/// Over a perft tree, equal codes come with equal FENs (move counters aside) and vice
/// versa: the encoding is exact on every node, not only on the cases above.
#[test]
fn chess_codes_agree_with_fen_identity_over_a_tree() {
    let mut by_code = std::collections::HashMap::new();
    let mut by_fen = std::collections::HashMap::new();
    let mut stack = vec![(Chess::default(), 0)];
    while let Some((pos, depth)) = stack.pop() {
        let fen = Fen::from_position(&pos, EnPassantMode::PseudoLegal).to_string();
        let identity: String = fen.split(' ').take(4).collect::<Vec<_>>().join(" ");
        let c = ChessCode::of(&pos);
        assert_eq!(by_code.entry(c).or_insert(identity.clone()), &identity);
        assert_eq!(by_fen.entry(identity).or_insert(c), &c);
        if depth < 4 {
            for mv in pos.legal_moves() {
                let mut child = pos.clone();
                child.play_unchecked(mv);
                stack.push((child, depth + 1));
            }
        }
    }
    // One code per FEN identity and one identity per code: a bijection.
    assert_eq!(by_code.len(), by_fen.len());
    assert!(by_code.len() > 72_078, "{}", by_code.len());
}

#[test]
fn sample_set_counts_distinct_positions_and_catches_key_mismatches() {
    let mut samples = SampleSet::new();
    walk_perft(&mut Position::startpos(), 4, &mut samples);
    let visited = samples.visited();
    assert_eq!(visited, 1 + 20 + 400 + 8902 + 197_281);
    let distinct = samples.finish().unwrap();
    assert!(distinct.len() < visited as usize / 2);
    assert!(distinct.windows(2).all(|w| w[0].code < w[1].code));

    let mut broken = SampleSet::new();
    broken.push(1u8, 10, 0);
    broken.push(2u8, 11, 0);
    broken.push(1u8, 12, 0);
    let mismatch = broken.finish().unwrap_err();
    assert_eq!((mismatch.0.key, mismatch.1.key), (10, 12));
}

#[test]
fn gomoku_codes_are_exact() {
    let geometry = Geometry::new(15, 15).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut seen = std::collections::HashMap::new();
    for _ in 0..300 {
        let mut board = Gomoku::new(geometry);
        for _ in 0..rng.random_range(0..12) {
            let cell = rng.random_range(0..geometry.cells());
            let _ = board.place(cell);
        }
        // The exact position: stones by colour and the side to move, in a plain form.
        let plain: (Vec<Option<bool>>, bool) = (
            (0..geometry.cells())
                .map(|c| board.stone(c).map(|s| s == rookery::gomoku::Stone::Black))
                .collect(),
            board.to_move() == rookery::gomoku::Stone::Black,
        );
        let c = GomokuCode::<8>::of(&board).unwrap();
        assert_eq!(seen.entry(c).or_insert(plain.clone()), &plain);
    }
    // A transposition encodes equal; a different move order of other stones does not.
    let code_of = |cells: &[usize]| {
        let mut board = Gomoku::new(geometry);
        for &cell in cells {
            board.place(cell).unwrap();
        }
        GomokuCode::<8>::of(&board).unwrap()
    };
    assert_eq!(code_of(&[1, 2, 3, 4]), code_of(&[3, 4, 1, 2]));
    assert_ne!(code_of(&[1, 2, 3, 4]), code_of(&[2, 1, 3, 4]));
    assert_ne!(code_of(&[1, 2, 3]), code_of(&[1, 2, 3, 4]));
    // Too small a code is refused, not truncated.
    assert!(GomokuCode::<4>::of(&Gomoku::new(Geometry::new(20, 20).unwrap())).is_none());
}

#[test]
fn collision_counts_on_constructed_keys() {
    // 1000 keys that share their top 32 bits in groups of 10, and are all distinct in full.
    let mut keys: Vec<u64> = (0..1000u64).map(|i| (i / 10) << 32 | i).collect();
    let rows = colliding_pairs(&mut keys, &[32, 48, 64]);
    // 100 groups of 10 keys: 45 pairs each at 32 bits; the next 16 bits are all zero,
    // so 48 bits collide just as often; in full, none.
    let pairs: Vec<u64> = rows.iter().map(|r| r.pairs).collect();
    assert_eq!(pairs, vec![4500, 4500, 0]);
    // That many at 32 bits among 1000 keys (0.000116 expected) is flagged.
    assert!(!rows[0].plausible());
    assert!(rows[2].plausible());
}

#[test]
fn hashstats_reports_both_games() {
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_rookery"))
            .args(args)
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8(out.stdout).unwrap())
    };
    let (status, text) = run(&[
        "hashstats",
        "chess",
        "--depth",
        "3",
        "--games",
        "20",
        "--mib",
        "1",
    ]);
    assert_eq!(status, Some(0), "{text}");
    assert!(text.contains("Polyglot key: "), "{text}");
    assert!(
        text.contains("XOR dependence none up to 6 keys: ok"),
        "{text}"
    );
    let (status, json) = run(&["hashstats", "gomoku", "--games", "50", "--json"]);
    assert_eq!(status, Some(0), "{json}");
    assert!(json.starts_with("{\"game\":\"gomoku\""), "{json}");
    assert!(json.trim_end().ends_with("\"passed\":true}"), "{json}");
    let (status, text) = run(&["hashstats", "hive", "--games", "100", "--mib", "1"]);
    assert_eq!(status, Some(0), "{text}");
    assert!(text.contains("canonical table index (remixed)"), "{text}");
    let (status, text) = run(&["hashstats", "hive", "--game", "sc2020", "--games", "50"]);
    assert_eq!(status, Some(0), "{text}");
    let (status, _) = run(&["hashstats", "hive", "--game", "Base+X"]);
    assert_eq!(status, Some(2));
    let (status, _) = run(&["hashstats", "checkers"]);
    assert_eq!(status, Some(2));
}

/// The finding `hashstats gomoku` made: a canonical key is a minimum, so its top bits crowd
/// the low buckets; the canonical table key spreads them evenly again.
#[test]
fn canonical_table_keys_fill_buckets_evenly() {
    let geometry = Geometry::new(15, 15).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let mut raw = [0u32; 16];
    let mut remixed = [0u32; 16];
    let positions = 40_000;
    for _ in 0..positions {
        let mut board = Gomoku::new(geometry);
        for _ in 0..rng.random_range(1..30) {
            let _ = board.place(rng.random_range(0..geometry.cells()));
        }
        let (key, _) = board.canonical();
        raw[(key.main.0 >> 60) as usize] += 1;
        remixed[(key.canonical_table_key().index >> 60) as usize] += 1;
    }
    let even = positions / 16;
    // The least of 8 keys lands in the first sixteenth with probability 1 - (15/16)^8 = 40%.
    assert!(raw[0] > 5 * even, "{raw:?}");
    for (bin, &count) in remixed.iter().enumerate() {
        assert!(count.abs_diff(even) < even / 5, "bin {bin}: {remixed:?}");
    }
}

#[test]
fn hive_codes_pin_the_translation_and_canonical_codes_do_not() {
    use rookery::hive::key_samples::{PlacedCode, canonical_code};
    use rookery::hive::{Frame, Hex, parse_game_string};
    let hive = parse_game_string("Base;InProgress;Black[2];wS1;bG1 -wS1;wA1 wS1/").unwrap();
    let shifted = hive
        .transformed(Frame {
            offset: Hex { q: 2, r: -1 },
            ..Frame::IDENTITY
        })
        .unwrap();
    assert_ne!(PlacedCode::of(&hive), PlacedCode::of(&shifted));
    assert_ne!(hive.key(), shifted.key());
    assert_eq!(canonical_code(&hive), canonical_code(&shifted));
    assert_eq!(hive.canonical().0, shifted.canonical().0);
    for frame in hive.frames() {
        let image = hive.transformed(frame).unwrap();
        assert_eq!(canonical_code(&image), canonical_code(&hive));
    }
}

/// Runs `rookery hashstats` with `--json` and returns the 64-bit pair count of the main key
/// and the distinct positions it was counted over.
fn main_key_64_bit_pairs(args: &[&str]) -> (u64, u64) {
    let out = Command::new(env!("CARGO_BIN_EXE_rookery"))
        .arg("hashstats")
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    let json = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{json}");
    let number_after = |text: &str, field: &str| -> u64 {
        let at = text
            .find(field)
            .unwrap_or_else(|| panic!("{field} in {text}"))
            + field.len();
        text[at..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect::<String>()
            .parse()
            .unwrap()
    };
    let distinct = number_after(&json, "\"distinct\":");
    let row = &json[json.find("{\"bits\":64,").expect("a 64-bit row")..];
    (number_after(row, "\"pairs\":"), distinct)
}

/// The 64-bit collision count over at least 10 million distinct positions per game
/// (about 2 minutes for gomoku, 5 for Hive, on one core; run with `--ignored`).
#[test]
#[ignore]
fn no_64_bit_collisions_among_ten_million_gomoku_positions() {
    let (pairs, distinct) = main_key_64_bit_pairs(&["gomoku", "--games", "150000", "--mib", "1"]);
    assert!(distinct >= 10_000_000, "{distinct}");
    assert_eq!(pairs, 0);
}

#[test]
#[ignore]
fn no_64_bit_collisions_among_ten_million_hive_positions() {
    let (pairs, distinct) = main_key_64_bit_pairs(&["hive", "--games", "205000", "--mib", "1"]);
    assert!(distinct >= 10_000_000, "{distinct}");
    assert_eq!(pairs, 0);
}

#[test]
#[ignore]
fn no_64_bit_collisions_among_ten_million_chess_positions() {
    let (pairs, distinct) = main_key_64_bit_pairs(&[
        "chess",
        "--epd",
        concat!(env!("CARGO_MANIFEST_DIR"), "/perft/standard.epd"),
        "--depth",
        "4",
        "--games",
        "60000",
        "--games-from-start",
        "--mib",
        "1",
    ]);
    assert!(distinct >= 10_000_000, "{distinct}");
    assert_eq!(pairs, 0);
}
