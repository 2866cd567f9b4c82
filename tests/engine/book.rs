//! Polyglot books: the fixture book made by `polyglot make-book` from Rookery's own games,
//! refusals of bad files, the move choice, castling in both notations, the `rookery book`
//! listing, and (when it is installed) gnuchess's book against Debian polyglot's listing.

use crate::common;
use common::scratch_file;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use common::cli::{rookery, stdout};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use rookery::chess::Position;
use rookery::engine::book::{Book, BookChoice, BookEntry, BookError, encode_move, pick};
use shakmaty::san::San;
use shakmaty::{CastlingMode, Move, Square};

/// The book's depth: `-max-ply 16` keeps the moves of plies 0 to 15.
const FIXTURE_PLIES: usize = 16;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("data")
        .join(name)
}

fn fixture() -> Book {
    Book::open(data("fixture.bin")).expect("the fixture book opens")
}

/// Book bytes for `(key, move, weight, learn)` entries, in the order given.
fn book_bytes(entries: &[(u64, u16, u16, u32)]) -> Vec<u8> {
    let mut bytes = Vec::new();
    for &(key, mv, weight, learn) in entries {
        bytes.extend(key.to_be_bytes());
        bytes.extend(mv.to_be_bytes());
        bytes.extend(weight.to_be_bytes());
        bytes.extend(learn.to_be_bytes());
    }
    bytes
}

/// The games of a PGN file as SAN move lists (headers, move numbers and results dropped;
/// the fixture has no comments or variations).
fn pgn_games(text: &str) -> Vec<Vec<String>> {
    let mut games = Vec::new();
    let mut moves: Vec<String> = Vec::new();
    for line in text.lines() {
        if line.starts_with('[') {
            if !moves.is_empty() {
                games.push(std::mem::take(&mut moves));
            }
            continue;
        }
        for word in line.split_whitespace() {
            let word = word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
            if !word.is_empty() && !matches!(word, "*" | "1-0" | "0-1" | "1/2-1/2") {
                moves.push(word.to_string());
            }
        }
    }
    if !moves.is_empty() {
        games.push(moves);
    }
    games
}

fn play_san(pos: &mut Position, san: &str) -> Move {
    let mv = san
        .parse::<San>()
        .unwrap_or_else(|e| panic!("{san}: {e}"))
        .to_move(pos.chess())
        .unwrap_or_else(|e| panic!("{san} in {}: {e}", pos.fen()));
    pos.push(mv);
    mv
}

fn uci_moves(pos: &Position, entries: &[BookEntry]) -> Vec<String> {
    entries.iter().map(|e| pos.uci(e.mv)).collect()
}

#[test]
fn every_fixture_game_position_is_found_with_the_move_played() {
    let book = fixture();
    let games = pgn_games(&std::fs::read_to_string(data("fixture.pgn")).unwrap());
    assert_eq!(games.len(), 17);
    let mut checked = 0;
    for (g, game) in games.iter().enumerate() {
        assert!(game.len() >= FIXTURE_PLIES, "game {g} is too short");
        let mut pos = Position::startpos();
        for (ply, san) in game.iter().enumerate() {
            let before = pos.clone();
            let mv = play_san(&mut pos, san);
            if ply >= FIXTURE_PLIES {
                continue;
            }
            let entries = book.entries(&before);
            let entry = entries.iter().find(|e| e.mv == mv).unwrap_or_else(|| {
                panic!(
                    "game {g} ply {ply}: {san} not in book for {} (book has {:?})",
                    before.fen(),
                    uci_moves(&before, &entries)
                )
            });
            assert!(entry.weight > 0, "game {g} ply {ply}: {san} has weight 0");
            checked += 1;
        }
    }
    assert_eq!(checked, 17 * FIXTURE_PLIES);
}

#[test]
fn the_fixture_ends_at_its_depth() {
    // Positions past the book's depth that no earlier ply reaches are not in the book.
    let book = fixture();
    let games = pgn_games(&std::fs::read_to_string(data("fixture.pgn")).unwrap());
    let mut pos = Position::startpos();
    for san in &games[0][..FIXTURE_PLIES] {
        play_san(&mut pos, san);
    }
    assert!(book.entries(&pos).is_empty(), "{}", pos.fen());
}

#[test]
fn start_position_entries_match_the_games() {
    // 11 games open 1.e4, 4 open 1.d4, one each 1.c4 and 1.Nf3; make-book scores an
    // unfinished game (`*`) as a draw, one point per game.
    let book = fixture();
    let pos = Position::startpos();
    assert_eq!(format!("{}", pos.key()), "463b96181691fc9c");
    let entries = book.entries(&pos);
    let listed: Vec<(String, u16)> = entries.iter().map(|e| (pos.uci(e.mv), e.weight)).collect();
    let expected = [("e2e4", 11), ("d2d4", 4), ("c2c4", 1), ("g1f3", 1)];
    assert_eq!(
        listed,
        expected.map(|(m, w)| (m.to_string(), w)).to_vec(),
        "file order is kept"
    );
    assert_eq!(book.stored_entries(&pos), 4);
    assert_eq!(book.len(), 233);
}

#[test]
fn best_picks_the_heaviest_move_and_the_first_of_equals() {
    let book = fixture();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let pos = Position::startpos();
    let best = book.choose(&pos, BookChoice::Best, &mut rng).unwrap();
    assert_eq!(pos.uci(best.mv), "e2e4");
    assert_eq!(best.weight, 11);

    // c4 and Nf3 both weigh 1: the first in the file wins.
    let entries: Vec<BookEntry> = book
        .entries(&pos)
        .into_iter()
        .filter(|e| e.weight == 1)
        .collect();
    let first = pick(&entries, BookChoice::Best, &mut rng).unwrap();
    assert_eq!(pos.uci(first.mv), "c2c4");
    let reversed: Vec<BookEntry> = entries.iter().rev().copied().collect();
    let first = pick(&reversed, BookChoice::Best, &mut rng).unwrap();
    assert_eq!(pos.uci(first.mv), "g1f3");
}

#[test]
fn weighted_choice_is_repeatable_and_follows_the_weights() {
    let book = fixture();
    let pos = Position::startpos();
    let draws = |seed: u64, n: usize| -> Vec<String> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        (0..n)
            .map(|_| {
                let entry = book.choose(&pos, BookChoice::Weighted, &mut rng).unwrap();
                pos.uci(entry.mv)
            })
            .collect()
    };
    assert_eq!(draws(42, 200), draws(42, 200), "same seed, same picks");
    assert_ne!(draws(42, 200), draws(43, 200), "another seed, other picks");

    // 17,000 draws: each move's share is within 1.5 points of weight / 17.
    let n = 17_000;
    let mut counts: HashMap<String, usize> = HashMap::new();
    for mv in draws(7, n) {
        *counts.entry(mv).or_default() += 1;
    }
    for (mv, weight) in [("e2e4", 11), ("d2d4", 4), ("c2c4", 1), ("g1f3", 1)] {
        let share = counts.get(mv).copied().unwrap_or(0) as f64 / n as f64;
        let expected = weight as f64 / 17.0;
        assert!(
            (share - expected).abs() < 0.015,
            "{mv}: drawn {share:.4}, weight share {expected:.4} ({counts:?})"
        );
    }
    assert_eq!(counts.len(), 4, "{counts:?}");
}

#[test]
fn weight_zero_and_illegal_entries_are_never_played() {
    let pos = Position::startpos();
    let key = pos.key().0;
    let e2e4 = (12 << 6) | 28;
    let d2d4 = (11 << 6) | 27;
    let e2e5 = (12 << 6) | 36; // not a legal move here
    let e1h1 = (4 << 6) | 7; // castling, not legal at the start
    let path = scratch_file(
        "zero.bin",
        &book_bytes(&[
            (key - 1, e2e4, 9, 0),
            (key, e2e5, 1000, 0),
            (key, e2e4, 0, 7),
            (key, e1h1, 1000, 0),
            (key, d2d4, 5, 3),
            (key + 1, e2e4, 9, 0),
        ]),
    );
    let book = Book::open(&path).unwrap();
    let entries = book.entries(&pos);
    assert_eq!(uci_moves(&pos, &entries), ["e2e4", "d2d4"]);
    assert_eq!((entries[0].weight, entries[0].learn), (0, 7));
    assert_eq!((entries[1].weight, entries[1].learn), (5, 3));
    assert_eq!(book.stored_entries(&pos), 4);
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for _ in 0..100 {
        let chosen = book.choose(&pos, BookChoice::Weighted, &mut rng).unwrap();
        assert_eq!(pos.uci(chosen.mv), "d2d4");
    }
    let best = book.choose(&pos, BookChoice::Best, &mut rng).unwrap();
    assert_eq!(pos.uci(best.mv), "d2d4");

    // Only weight-0 entries: nothing to play.
    let only_zero = &entries[..1];
    assert_eq!(pick(only_zero, BookChoice::Best, &mut rng), None);
    assert_eq!(pick(only_zero, BookChoice::Weighted, &mut rng), None);
    // A position the book does not know.
    let mut other = Position::startpos();
    other.push_uci("g1f3").unwrap();
    assert!(book.entries(&other).is_empty());
    assert_eq!(book.choose(&other, BookChoice::Best, &mut rng), None);
    std::fs::remove_file(path).unwrap();
}

#[test]
fn castling_from_the_book_in_both_notations() {
    // Ruy Lopez after 4...Nf6: the fixture has 5.O-O, stored as e1h1.
    let book = fixture();
    let fen = "r1bqkb1r/1ppp1ppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 2 5";
    let castle = Move::Castle {
        king: Square::E1,
        rook: Square::H1,
    };
    let standard = Position::from_fen(fen, false).unwrap();
    let entries = book.entries(&standard);
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0].mv, castle);
    assert_eq!(standard.uci(entries[0].mv), "e1g1");
    assert_eq!(encode_move(castle), Some((4 << 6) | 7));

    let chess960 = Position::from_fen(fen, true).unwrap();
    assert_eq!(chess960.castling_mode(), CastlingMode::Chess960);
    assert_eq!(chess960.key(), standard.key());
    let entries = book.entries(&chess960);
    assert_eq!(entries[0].mv, castle);
    assert_eq!(chess960.uci(entries[0].mv), "e1h1");

    // Black castles too: the King's Indian line's 5...O-O, stored as e8h8.
    let mut kid = Position::startpos();
    for san in "d4 Nf6 c4 g6 Nc3 Bg7 e4 d6 Nf3".split(' ') {
        play_san(&mut kid, san);
    }
    let entries = book.entries(&kid);
    assert!(
        entries.iter().any(|e| e.mv
            == Move::Castle {
                king: Square::E8,
                rook: Square::H8
            }),
        "{:?}",
        uci_moves(&kid, &entries)
    );
    assert!(uci_moves(&kid, &entries).contains(&"e8g8".to_string()));
}

#[test]
fn chess960_castling_with_the_king_off_the_e_file() {
    // King on b1, rooks on a1 and g1: b1a1 castles long (the king goes right, to c1),
    // b1g1 castles short.
    let fen = "rk4r1/pppppppp/8/8/8/8/PPPPPPPP/RK4R1 w GAga - 0 1";
    let pos = Position::from_fen(fen, true).unwrap();
    let key = pos.key().0;
    let b1a1 = 1 << 6; // a1 is square 0
    let b1g1 = (1 << 6) | 6;
    let path = scratch_file(
        "960.bin",
        &book_bytes(&[(key, b1a1, 3, 0), (key, b1g1, 1, 0)]),
    );
    let book = Book::open(&path).unwrap();
    let entries = book.entries(&pos);
    assert_eq!(
        entries.iter().map(|e| e.mv).collect::<Vec<_>>(),
        [
            Move::Castle {
                king: Square::B1,
                rook: Square::A1
            },
            Move::Castle {
                king: Square::B1,
                rook: Square::G1
            }
        ]
    );
    assert_eq!(uci_moves(&pos, &entries), ["b1a1", "b1g1"]);
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let best = book.choose(&pos, BookChoice::Best, &mut rng).unwrap();
    let mut after = pos.clone();
    after.push(best.mv);
    assert_eq!(
        after.fen(),
        "rk4r1/pppppppp/8/8/8/8/PPPPPPPP/2KR2R1 b kq - 1 1"
    );
    std::fs::remove_file(path).unwrap();
}

fn refusal(name: &str, bytes: Option<&[u8]>) -> BookError {
    let path = match bytes {
        Some(bytes) => scratch_file(name, bytes),
        None => Path::new(env!("CARGO_TARGET_TMPDIR")).join("no-such-book.bin"),
    };
    let err = Book::open(&path).expect_err("the file is refused");
    if bytes.is_some() {
        std::fs::remove_file(path).unwrap();
    }
    err
}

#[test]
fn bad_files_are_refused() {
    let missing = refusal("missing", None);
    assert!(
        matches!(missing, BookError::Unreadable { .. }),
        "{missing:?}"
    );
    assert!(
        missing.to_string().starts_with("cannot read book '"),
        "{missing}"
    );
    assert!(
        missing.to_string().contains("no-such-book.bin"),
        "{missing}"
    );

    let empty = refusal("empty.bin", Some(&[]));
    assert!(matches!(empty, BookError::Empty { .. }), "{empty:?}");
    assert!(empty.to_string().ends_with("is empty"), "{empty}");

    let misaligned = refusal("misaligned.bin", Some(&[0u8; 17]));
    assert!(
        matches!(misaligned, BookError::Misaligned { len: 17, .. }),
        "{misaligned:?}"
    );
    assert!(
        misaligned.to_string().contains("misaligned: 17 bytes"),
        "{misaligned}"
    );

    let unsorted = refusal(
        "unsorted.bin",
        Some(&book_bytes(&[
            (1, 0x031c, 1, 0),
            (5, 0x031c, 1, 0),
            (5, 0x02db, 1, 0),
            (3, 0x031c, 1, 0),
        ])),
    );
    assert!(
        matches!(unsorted, BookError::Unsorted { entry: 3, .. }),
        "{unsorted:?}"
    );
    assert!(
        unsorted
            .to_string()
            .contains("corrupt: the keys are not sorted"),
        "{unsorted}"
    );

    // A directory is unreadable as a book too.
    let dir = Book::open(env!("CARGO_TARGET_TMPDIR")).expect_err("a directory is refused");
    assert!(matches!(dir, BookError::Unreadable { .. }), "{dir:?}");
}

#[test]
fn book_choice_names() {
    assert_eq!("best".parse::<BookChoice>(), Ok(BookChoice::Best));
    assert_eq!("Weighted".parse::<BookChoice>(), Ok(BookChoice::Weighted));
    assert!("random".parse::<BookChoice>().is_err());
    assert_eq!(BookChoice::default(), BookChoice::Best);
    for name in BookChoice::NAMES {
        assert_eq!(name.parse::<BookChoice>().unwrap().to_string(), name);
    }
}

#[test]
fn cli_lists_the_fixture() {
    let book = data("fixture.bin");
    let book = book.to_str().unwrap();
    let out = rookery(&["book", book]);
    assert!(out.status.success());
    assert_eq!(
        stdout(&out),
        "     e4 64.70%     11 e2e4\n     d4 23.52%      4 d2d4\n     c4  5.88%      1 c2c4\n    Nf3  5.88%      1 g1f3\n"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "233 entries; key 463b96181691fc9c: 4 moves listed of 4 stored, total weight 17"
        ),
        "{stderr}"
    );

    // A FEN given as many words; castling shown in the position's notation.
    let fen = "r1bqkb1r/1ppp1ppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 2 5";
    let mut words = vec!["book", book];
    words.extend(fen.split(' '));
    assert_eq!(stdout(&rookery(&words)), "    O-O 100.00%      2 e1g1\n");
    words.push("--chess960");
    assert_eq!(stdout(&rookery(&words)), "    O-O 100.00%      2 e1h1\n");

    // A position the book does not know lists nothing.
    let out = rookery(&["book", book, "8/8/8/8/8/8/8/K6k w - - 0 1"]);
    assert!(out.status.success());
    assert_eq!(stdout(&out), "");
}

#[test]
fn cli_refuses_bad_input_with_status_2() {
    let fixture = data("fixture.bin");
    let misaligned = scratch_file("cli-misaligned.bin", &[0u8; 17]);
    let cases: [(Vec<&str>, &str); 5] = [
        (vec!["book", misaligned.to_str().unwrap()], "misaligned"),
        (vec!["book", "/no/such/book.bin"], "cannot read book"),
        (
            vec!["book", fixture.to_str().unwrap(), "not", "a", "fen"],
            "invalid FEN",
        ),
        (vec!["book"], "rookery book --help"),
        (
            vec!["book", fixture.to_str().unwrap(), "--deep"],
            "unknown option",
        ),
    ];
    for (args, message) in cases {
        let out = rookery(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(stdout(&out), "", "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
    std::fs::remove_file(misaligned).unwrap();
}

/// Where gnuchess's book may be: `ROOKERY_GNUCHESS_BOOK`, else Debian's `gnuchess-book`.
fn gnuchess_book() -> Option<PathBuf> {
    let path = std::env::var_os("ROOKERY_GNUCHESS_BOOK")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/share/games/gnuchess/book.bin"));
    path.is_file().then_some(path)
}

/// gnuchess's book is not part of the repository; when asked for, it must be there.
#[test]
#[ignore = "needs gnuchess's book.bin: cargo test --release --test engine book:: -- --ignored gnuchess"]
fn gnuchess_book_matches_polyglots_listing() {
    let path = gnuchess_book().expect(
        "gnuchess's book.bin not found (set ROOKERY_GNUCHESS_BOOK or install gnuchess-book)",
    );
    // Debian polyglot 2.0.4's `bk` lines for these positions (see `docs/tools.md`); a listing
    // line is polyglot's line, then the weight and the UCI move.
    let cases: [(&str, &[&str]); 4] = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            &[
                "     e4 39.40%",
                "     d4 36.55%",
                "    Nf3 12.16%",
                "     c4 10.69%",
                "     g3  0.78%",
                "     b3  0.12%",
                "     f4  0.11%",
                "    Nc3  0.05%",
                "     b4  0.05%",
                "     e3  0.02%",
                "     d3  0.01%",
                "     g4  0.01%",
                "     a3  0.00%",
            ],
        ),
        (
            "r1bqkb1r/1ppp1ppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 2 5",
            &[
                "    O-O 90.88%",
                "     d3  2.92%",
                "    Qe2  2.14%",
                "     d4  2.03%",
                "    Nc3  1.66%",
                "   Bxc6  0.35%",
            ],
        ),
        (
            "rnbqkbnr/pppp1ppp/4p3/8/2PP4/8/PP2PPPP/RNBQKBNR b KQkq - 0 2",
            &[
                "    Nf6 33.58%",
                "     f5 24.00%",
                "   Bb4+ 17.98%",
                "     d5 15.51%",
                "     b6  7.50%",
                "     c5  1.40%",
            ],
        ),
        (
            "rnbqk1nr/ppp2ppp/3b4/4N3/3PpP2/8/PPP3PP/RNBQKB1R b KQkq d3 0 5",
            &["   exd3 72.72%", "    Nf6 27.27%"],
        ),
    ];
    for (fen, expected) in cases {
        let out = rookery(&["book", path.to_str().unwrap(), fen]);
        assert!(out.status.success(), "{fen}");
        let text = stdout(&out);
        let ours: Vec<&str> = text
            .lines()
            .map(|line| line.rsplitn(3, ' ').nth(2).unwrap().trim_end())
            .collect();
        assert_eq!(ours, expected, "{fen}\n{text}");
    }
}
