//! The book through UCI on the real binary: `OwnBook`, `BookFile`, `BookVariety`,
//! `BookSeed`. A book move comes at once with an `info string` and no search; `go infinite`
//! still waits for `stop`; a bad file is refused and no book is used.

use crate::common;

use std::path::PathBuf;
use std::time::Duration;

use common::uci_client::{Engine, WAIT, check_answer};
use rookery::chess::Position;
use rookery::engine::book::Book;

fn fixture_path() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/fixture.bin")
        .display()
        .to_string()
}

/// The moves the fixture book holds for `pos`, in UCI notation.
fn book_moves(pos: &Position) -> Vec<String> {
    let book = Book::open(fixture_path()).unwrap();
    book.entries(pos).iter().map(|e| pos.uci(e.mv)).collect()
}

#[test]
fn own_book_plays_the_heaviest_move_at_once_and_waits_for_stop_when_infinite() {
    let mut e = Engine::start();
    e.send(&format!("setoption name BookFile value {}", fixture_path()));
    e.send("setoption name OwnBook value true");
    e.send("position startpos");
    let lines = e.go("wtime 60000 btime 60000");
    let pos = Position::startpos();
    let book = Book::open(fixture_path()).unwrap();
    let heaviest = book
        .entries(&pos)
        .into_iter()
        .max_by_key(|e| e.weight)
        .unwrap();
    let expected = pos.uci(heaviest.mv);
    assert_eq!(
        lines,
        vec![
            format!(
                "info string book move {expected} weight {}",
                heaviest.weight
            ),
            format!("bestmove {expected}"),
        ]
    );
    // go infinite: the book move is announced, the bestmove waits for stop.
    e.send("go infinite");
    let early = e.quiet_for(Duration::from_millis(300));
    assert_eq!(early.len(), 1, "{early:#?}");
    assert!(early[0].starts_with("info string book move"), "{early:#?}");
    e.send("stop");
    let lines = e.until(WAIT, |l| l.starts_with("bestmove"));
    assert_eq!(lines, vec![format!("bestmove {expected}")]);
    // Out of the book: a normal search, checked as every search is.
    let deep = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    e.send(&format!("position fen {deep}"));
    let lines = e.go("depth 4");
    check_answer(&Position::from_fen(deep, false).unwrap(), &lines);
}

#[test]
fn weighted_book_choice_repeats_with_a_seed_and_stays_in_the_book() {
    let pos = Position::startpos();
    let in_book = book_moves(&pos);
    let picks = |seed: u32| {
        let mut e = Engine::start();
        e.send(&format!("setoption name BookFile value {}", fixture_path()));
        e.send("setoption name OwnBook value true");
        e.send("setoption name BookVariety value true");
        e.send(&format!("setoption name BookSeed value {seed}"));
        e.send("position startpos");
        (0..30)
            .map(|_| {
                let lines = e.go("depth 1");
                lines.last().unwrap().clone()
            })
            .collect::<Vec<String>>()
    };
    let first = picks(11);
    assert_eq!(first, picks(11), "the same seed repeats");
    assert_ne!(first, picks(12), "another seed, the same 30 picks");
    let mut distinct: Vec<&String> = first.iter().collect();
    distinct.sort();
    distinct.dedup();
    assert!(distinct.len() > 1, "30 weighted picks, one move: {first:?}");
    for line in &first {
        let mv = line.strip_prefix("bestmove ").unwrap();
        assert!(in_book.iter().any(|m| m == mv), "{mv} not in {in_book:?}");
    }
}

#[test]
fn bad_book_files_are_refused_and_no_book_is_used() {
    let mut e = Engine::start();
    e.send("setoption name OwnBook value true");
    e.send(&format!("setoption name BookFile value {}", fixture_path()));
    let pgn = fixture_path().replace("fixture.bin", "fixture.pgn");
    for (file, reason) in [
        ("/nonexistent/book.bin".to_string(), "cannot read"),
        (pgn, "misaligned"),
    ] {
        e.send(&format!("setoption name BookFile value {file}"));
        e.send("isready");
        let lines = e.until(WAIT, |l| l == "readyok");
        assert_eq!(lines.len(), 2, "{lines:#?}");
        assert!(
            lines[0].starts_with("info string") && lines[0].contains(reason),
            "{lines:#?}"
        );
        assert!(lines[0].ends_with("no book is used"), "{lines:#?}");
        // No book: the start position is searched.
        e.send("position startpos");
        let lines = e.go("depth 2");
        assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:#?}");
        check_answer(&Position::startpos(), &lines);
    }
}

#[test]
fn searchmoves_narrows_the_book_and_every_multipv_line() {
    let pos = Position::startpos();
    let in_book = book_moves(&pos);
    let mut e = Engine::start();
    e.send(&format!("setoption name BookFile value {}", fixture_path()));
    e.send("setoption name OwnBook value true");
    e.send("position startpos");
    // Moves the book does not hold: no book move, a search among them alone.
    let outside: Vec<&str> = ["a2a3", "h2h3", "b1a3", "g1h3"]
        .into_iter()
        .filter(|mv| !in_book.iter().any(|b| b == mv))
        .collect();
    assert!(outside.len() >= 3, "{in_book:?}");
    let lines = e.go(&format!("depth 3 searchmoves {}", outside.join(" ")));
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:#?}");
    let (best, _) = check_answer(&pos, &lines);
    assert!(outside.contains(&best.as_str()), "{best}: {lines:#?}");
    // With a book move among them, the book answers with one of those given.
    let lines = e.go(&format!(
        "depth 3 searchmoves {} {}",
        outside[0], in_book[0]
    ));
    assert!(lines[0].contains("book move"), "{lines:#?}");
    assert_eq!(lines.last().unwrap(), &format!("bestmove {}", in_book[0]));
    // Without the book, MultiPV 3 over four moves: three lines, each of a move given, all
    // different, at every depth.
    e.send("setoption name OwnBook value false");
    e.send("setoption name MultiPV value 3");
    let given = ["e2e4", "d2d4", "g1f3", "b2b3"];
    let lines = e.go(&format!("depth 5 searchmoves {}", given.join(" ")));
    let (best, _) = check_answer(&pos, &lines);
    assert!(given.contains(&best.as_str()), "{best}");
    for depth in 1..=5 {
        let firsts: Vec<&str> = lines
            .iter()
            .filter(|l| l.starts_with(&format!("info depth {depth} ")) && l.contains(" pv "))
            .map(|l| l.split(" pv ").nth(1).unwrap().split(' ').next().unwrap())
            .collect();
        let mut distinct = firsts.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 3, "depth {depth}: {lines:#?}");
        assert!(
            firsts.iter().all(|mv| given.contains(mv)),
            "depth {depth}: {firsts:?}"
        );
    }
}
