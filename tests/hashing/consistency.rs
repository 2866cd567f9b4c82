//! Our incremental key against shakmaty's reference `Zobrist64` (pseudo-legal en passant)
//! and our from-scratch key, along perft trees, random games and named corner cases.

use crate::common;

use common::suite;
use rookery::chess::Position;
use rookery::chess::hashcheck::HashCheck;
use rookery::chess::zobrist::{key_from_scratch, reference_key};
use rookery::hashing::Key;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{EnPassantMode, Position as _};

fn assert_clean(check: &HashCheck, min_nodes: u64) {
    assert!(
        check.nodes >= min_nodes,
        "only {} nodes checked",
        check.nodes
    );
    assert_eq!(check.mismatches, 0, "first: {:?}", check.first);
}

/// Plays `moves` from `fen` (Chess960 notation when asked), checking the key after each.
fn keys_along(fen: &str, chess960: bool, moves: &[&str]) -> Position {
    let mut pos = Position::from_fen(fen, chess960).unwrap();
    for mv in moves {
        pos.push_uci(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
        assert_eq!(
            pos.key(),
            reference_key(pos.chess()),
            "after {mv}: {}",
            pos.fen()
        );
        assert_eq!(pos.key(), key_from_scratch(pos.chess()), "after {mv}");
    }
    pos
}

/// Every legal move (and a null move) from `fen` gives the reference key.
fn all_children_agree(fen: &str, chess960: bool) -> usize {
    let mut check = HashCheck::default();
    let mut pos = Position::from_fen(fen, chess960).unwrap();
    check.walk_tree(&mut pos, 2);
    assert_clean(&check, 2);
    pos.legal_moves().len()
}

#[test]
fn perft_trees_of_the_published_positions() {
    let mut check = HashCheck::default();
    for case in suite("published.epd") {
        check.walk_tree(&mut Position::from_fen(&case.fen, false).unwrap(), 3);
    }
    assert_clean(&check, 200_000);
}

#[test]
fn perft_trees_of_the_standard_suite() {
    let mut check = HashCheck::default();
    for case in suite("standard.epd") {
        check.walk_tree(&mut Position::from_fen(&case.fen, false).unwrap(), 3);
    }
    assert_clean(&check, 500_000);
}

#[test]
fn perft_trees_of_chess960_positions() {
    let mut check = HashCheck::default();
    for case in suite("chess960.epd").iter().step_by(10) {
        check.walk_tree(&mut Position::from_fen(&case.fen, true).unwrap(), 3);
    }
    assert_clean(&check, 500_000);
}

#[test]
fn seeded_random_games() {
    let mut check = HashCheck::default();
    check.walk_random_games(&Position::startpos(), 300, 400, 7);
    for case in suite("chess960.epd").iter().step_by(48) {
        let start = Position::from_fen(&case.fen, true).unwrap();
        check.walk_random_games(&start, 10, 300, case.line as u64);
    }
    assert_clean(&check, 100_000);
}

#[test]
fn start_position_key_is_the_polyglot_one() {
    assert_eq!(Position::startpos().key(), Key(0x463b96181691fc9c));
}

/// Plays `moves` from the start position and checks the key after each move given with one
/// (the Polyglot specification's example keys) against both our incremental key and
/// shakmaty's reference. Every move is also checked against the reference on the way.
fn polyglot_keys_along(moves: &[(&str, Option<u64>)]) {
    let mut pos = Position::startpos();
    let mut pinned = 0;
    for &(mv, expected) in moves {
        pos.push_uci(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
        assert_eq!(pos.key(), reference_key(pos.chess()), "after {mv}");
        if let Some(expected) = expected {
            assert_eq!(pos.key(), Key(expected), "ours after {mv}");
            assert_eq!(
                reference_key(pos.chess()),
                Key(expected),
                "shakmaty's after {mv}"
            );
            pinned += 1;
        }
    }
    assert!(pinned > 0, "the sequence pins at least one key");
}

#[test]
fn polyglot_specification_keys_along_a_game() {
    // Keys published with the Polyglot book format, after each of these moves.
    polyglot_keys_along(&[
        ("e2e4", Some(0x823c9b50fd114196)),
        ("d7d5", Some(0x0756b94461c50fb0)),
        ("e4e5", Some(0x662fafb965db29d4)),
        ("f7f5", Some(0x22a48b5a8e47ff78)),
        ("e1e2", Some(0x652a607ca3f242c1)),
        ("e8f7", Some(0x00fdd303c946bdd9)),
    ]);
}

#[test]
fn polyglot_specification_keys_with_en_passant_and_a_lost_castling_right() {
    // The specification's last two examples. After c2c4 the pawn on b4 can take en passant,
    // so the c file is hashed; b4c3 takes en passant and a1a3 drops white's queen-side right.
    polyglot_keys_along(&[
        ("a2a4", None),
        ("b7b5", None),
        ("h2h4", None),
        ("b5b4", None),
        ("c2c4", Some(0x3c8123ea7b067637)),
        ("b4c3", None),
        ("a1a3", Some(0x5c3f9b829b279560)),
    ]);
}

#[test]
fn pinned_en_passant_pawn_still_hashes_the_file() {
    // After e2e4 the f4 pawn stands beside e4 but fxe3 would expose its king to the rook.
    let pos = keys_along("8/8/8/8/R4p1k/8/4P3/4K3 w - - 0 1", false, &["e2e4"]);
    assert!(
        pos.chess().en_passant_moves().is_empty(),
        "the capture is illegal"
    );
    let legal_only: Zobrist64 = pos.chess().zobrist_hash(EnPassantMode::Legal);
    assert_ne!(
        pos.key(),
        Key(legal_only.0),
        "Polyglot hashes the pseudo-legal file"
    );
    // A double push with no pawn beside it does not hash a file.
    let quiet = keys_along("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false, &["e2e4"]);
    let always: Zobrist64 = quiet.chess().zobrist_hash(EnPassantMode::Always);
    assert_ne!(quiet.key(), Key(always.0));
}

#[test]
fn en_passant_capture_and_file_removal() {
    keys_along(
        "4k3/8/8/8/5p2/8/4P3/4K3 w - - 0 1",
        false,
        &["e2e4", "f4e3", "e1d1"],
    );
    // The ep file disappears on the next move even when the capture is not taken.
    keys_along(
        "4k3/8/8/8/5p2/8/4P3/4K3 w - - 0 1",
        false,
        &["e2e4", "e8d8", "e4e5"],
    );
}

#[test]
fn rook_captured_on_its_home_square() {
    keys_along(
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        false,
        &["a1a8", "e8e7", "h1h8"],
    );
    keys_along(
        "r3k2r/8/8/8/8/8/6B1/R3K2R w KQkq - 0 1",
        false,
        &["g2a8", "e8g8"],
    );
    assert!(all_children_agree("r3k2r/8/8/8/8/8/6B1/R3K2R w KQkq - 0 1", false) > 20);
}

#[test]
fn promotion_with_capture() {
    let pos = keys_along("r3k3/1P6/8/8/8/8/8/4K3 w q - 0 1", false, &["b7a8q"]);
    assert!(
        !pos.chess().castles().any(),
        "the rook's right went with it"
    );
    keys_along(
        "r3k3/1P6/8/8/8/8/8/4K3 w q - 0 1",
        false,
        &["b7a8n", "e8d7"],
    );
    assert_eq!(
        all_children_agree("r3k3/1P6/8/8/8/8/8/4K3 w q - 0 1", false),
        13
    );
}

#[test]
fn castling_rights_lost_by_king_and_rook_moves() {
    keys_along(
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        false,
        &["e1e2", "h8h7", "a1a2", "e8c8"],
    );
}

#[test]
fn chess960_castling_where_the_king_does_not_move() {
    // King g1, rook h1: O-O leaves the king on g1 and brings the rook to f1.
    let pos = keys_along("4k3/8/8/8/8/8/8/6KR w H - 0 1", true, &["g1h1"]);
    assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
}

#[test]
fn chess960_castling_where_the_rook_does_not_move() {
    // King e1, rook f1: O-O takes the king to g1 while the rook stays on f1.
    let pos = keys_along("4k3/8/8/8/8/8/8/4KR2 w F - 0 1", true, &["e1f1"]);
    assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
}

#[test]
fn chess960_castling_with_king_and_rook_swapping_squares() {
    // King f1, rook g1: O-O puts the king on g1 and the rook on f1.
    let pos = keys_along("4k3/8/8/8/8/8/8/5KR1 w G - 0 1", true, &["f1g1"]);
    assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
    // Queen side from b1 with the rook on a1: king to c1, rook to d1.
    keys_along("4k2r/8/8/8/8/8/8/RK6 w Ah - 0 1", true, &["b1a1", "e8h8"]);
}

#[test]
fn null_move_toggles_turn_and_drops_en_passant() {
    let mut pos = keys_along("4k3/8/8/8/5p2/8/4P3/4K3 w - - 0 1", false, &["e2e4"]);
    let before = pos.key();
    assert!(pos.push_null());
    assert_eq!(pos.key(), reference_key(pos.chess()));
    pos.pop();
    assert_eq!(pos.key(), before);
    // No null move while in check.
    let mut checked = Position::from_fen("4k3/8/8/8/8/8/8/4K2r w - - 0 1", false).unwrap();
    assert!(!checked.push_null());
}

#[test]
fn key_history_finds_repetitions() {
    let mut pos = Position::startpos();
    let start = pos.key();
    for mv in ["g1f3", "g8f6", "f3g1", "f6g8"] {
        pos.push_uci(mv).unwrap();
    }
    assert_eq!(pos.key(), start);
    assert_eq!(pos.repetitions(), 1);
    for mv in ["g1f3", "g8f6", "f3g1", "f6g8"] {
        pos.push_uci(mv).unwrap();
    }
    assert_eq!(pos.repetitions(), 2);
    // A pawn move cuts the history: nothing before it can repeat.
    pos.push_uci("e2e4").unwrap();
    assert_eq!(pos.reversible_keys().count(), 0);
    pos.push_uci("e7e5").unwrap();
    assert_eq!(pos.reversible_keys().count(), 0);
    pos.push_uci("g1f3").unwrap();
    assert_eq!(pos.reversible_keys().count(), 1);
}
