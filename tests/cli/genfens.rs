//! `rookery "genfens N seed S book FILE|None"` as OpenBench's data workloads run it: the
//! openings checked with shakmaty (legal, distinct, the game not over), the same for the
//! same seed, others for another seed, drawn from the book when there is one; bad requests
//! answered with an `info string` and exit status 1.

use crate::common;

use std::collections::HashSet;

use common::cli::{rookery, stdout};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position as _, Role};

/// The FENs of `rookery ARGS...`, which must succeed with nothing but `genfens` lines.
fn genfens(args: &[&str]) -> Vec<String> {
    let run = rookery(args);
    assert_eq!(run.status.code(), Some(0), "{args:?}");
    stdout(&run)
        .lines()
        .map(|line| {
            line.strip_prefix("info string genfens ")
                .unwrap_or_else(|| panic!("not a genfens line: {line}"))
                .to_string()
        })
        .collect()
}

/// Each FEN as a legal position where the game goes on; all distinct.
fn positions(fens: &[String]) -> Vec<Chess> {
    let distinct: HashSet<&String> = fens.iter().collect();
    assert_eq!(distinct.len(), fens.len(), "repeated openings");
    fens.iter()
        .map(|fen| {
            let pos: Chess = fen
                .parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert!(!pos.is_game_over(), "{fen}: the game is over");
            assert!(!pos.legal_moves().is_empty(), "{fen}");
            pos
        })
        .collect()
}

#[test]
fn a_hundred_openings_legal_distinct_playable_and_the_same_for_the_same_seed() {
    let first = genfens(&["genfens 100 seed 7 book None"]);
    assert_eq!(first.len(), 100);
    let boards = positions(&first);
    // Eight or nine random plies from the start position.
    for pos in &boards {
        let plies = 2 * (pos.fullmoves().get() - 1) + u32::from(pos.turn().is_black());
        assert!((8..=9).contains(&plies), "{plies} plies");
    }
    let again = genfens(&[
        "setoption name Hash value 16",
        "genfens 100 seed 7 book None",
        "quit",
    ]);
    assert_eq!(again, first);
    // The balance check evaluates as the options before left the engine.
    let hand_written = genfens(&[
        "setoption name Use NNUE value false",
        "genfens 100 seed 7 book None",
    ]);
    positions(&hand_written);
    assert_ne!(hand_written, first);
    let other = genfens(&["genfens 100 seed 8 book None"]);
    positions(&other);
    assert_ne!(other, first);
}

#[test]
fn openings_come_from_the_book() {
    // Both sides without their queen: no opening of this book has one.
    let book = common::scratch_file(
        "genfens-book.epd",
        b"rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - c0 \"no queens\";\n",
    );
    let request = format!("genfens 20 seed 3 book {}", book.display());
    let fens = genfens(&[&request]);
    assert_eq!(fens.len(), 20);
    for pos in positions(&fens) {
        assert!(pos.board().by_role(Role::Queen).is_empty());
    }
}

#[test]
fn words_after_the_book_set_the_random_plies_as_openbench_sends_them() {
    // As OpenBench's client sends it: the test's own words (`genfens_args`) after the book.
    let fens = genfens(&["genfens 30 seed 5 book None plies 2 nodes 1000", "quit"]);
    assert_eq!(fens.len(), 30);
    for pos in positions(&fens) {
        let plies = 2 * (pos.fullmoves().get() - 1) + u32::from(pos.turn().is_black());
        assert!((2..=3).contains(&plies), "{plies} plies");
    }
}

#[test]
fn bad_requests_are_an_info_string_and_exit_status_1() {
    for request in [
        "genfens",
        "genfens 0 seed 1 book None",
        "genfens 2000000 seed 1 book None",
        "genfens ten seed 1 book None",
        "genfens 5 seed 1 book /no/such/book.epd",
        "genfens 5 seed 1 colour white",
        // OpenBench's words for another engine, after the book.
        "genfens 5 seed 1 book None dfrc",
        "genfens 5 seed 1 book None dfrc 1",
        "genfens 5 seed 1 book None plies 99",
    ] {
        let run = rookery(&[request]);
        let out = stdout(&run);
        assert_eq!(run.status.code(), Some(1), "{request}: {out}");
        assert_eq!(out.lines().count(), 1, "{request}: {out}");
        assert!(out.starts_with("info string genfens: "), "{request}: {out}");
    }
}
