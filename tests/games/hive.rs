//! Hive on the shared core: incremental keys against from-scratch ones, canonical keys under
//! the grid's symmetries and translation, transpositions, the exact compact key, and UHP.

use std::collections::HashMap;

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use rookery::hashing::{DualKey, Key, KeyTable};
use rookery::hive::{
    Bug, Colour, CompactError, CompactKey, Expansions, Frame, Hex, Hive, HiveKeys, Move, MoveError,
    Piece, PieceSet, Transform, UhpError, compact, move_string, parse_game_string, parse_move,
    sc2020_cell, sc2020_index,
};

const BASE: Expansions = Expansions {
    mosquito: false,
    ladybug: false,
    pillbug: false,
};

/// Plays `plies` random sensible moves (placements next to the hive, moves of top pieces
/// that keep the rest together, climbs by beetles and mosquitoes).
fn walk(hive: &mut Hive, plies: usize, rng: &mut ChaCha8Rng) {
    let mut moves = Vec::new();
    for _ in 0..plies {
        hive.sensible_moves(&mut moves);
        let mv = moves[rng.random_range(0..moves.len())];
        hive.play(mv).unwrap();
    }
}

/// Three distinct random cells of the 91-cell board other than the centre.
fn random_obstacles(rng: &mut ChaCha8Rng) -> Vec<Hex> {
    let mut cells: Vec<Hex> = Vec::new();
    while cells.len() < 3 {
        let h = sc2020_cell(rng.random_range(0..91));
        if h != Hex::ORIGIN && !cells.contains(&h) {
            cells.push(h);
        }
    }
    cells
}

/// Three cells a third of a turn apart, on a mirror axis: kept by 6 of the 12 symmetries.
fn symmetric_obstacles() -> Vec<Hex> {
    let first = Hex::new(2, -1);
    let third = |h: Hex| Transform::new(2).apply(h);
    vec![first, third(first), third(third(first))]
}

/// The games the tests run on: open plane with and without expansions, the Software
/// Challenge board with random, symmetric and no obstructed cells.
fn setups(rng: &mut ChaCha8Rng) -> Vec<Hive> {
    vec![
        Hive::uhp(BASE),
        Hive::uhp(Expansions::ALL),
        Hive::sc2020(&random_obstacles(rng)).unwrap(),
        Hive::sc2020(&symmetric_obstacles()).unwrap(),
        Hive::sc2020(&[]).unwrap(),
    ]
}

fn random_position(setup: &Hive, rng: &mut ChaCha8Rng) -> Hive {
    let mut hive = setup.clone();
    let plies = rng.random_range(0..80);
    walk(&mut hive, plies, rng);
    hive
}

fn game(text: &str) -> Hive {
    parse_game_string(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn piece(text: &str) -> Piece {
    rookery::hive::parse_piece(text, PieceSet::Uhp(Expansions::ALL)).unwrap()
}

#[test]
fn incremental_keys_equal_from_scratch_over_long_random_sequences() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for setup in setups(&mut rng) {
        let mut hive = setup.clone();
        let mut moves = Vec::new();
        let mut highest = 0;
        for _ in 0..3000 {
            if rng.random_range(0..4) == 0 {
                hive.undo();
            } else {
                hive.sensible_moves(&mut moves);
                hive.play(moves[rng.random_range(0..moves.len())]).unwrap();
            }
            assert_eq!(hive.key(), hive.key_from_scratch());
            if hive.field().is_bounded() {
                assert_eq!(hive.canonical(), hive.canonical_from_scratch());
            }
            highest = highest.max(hive.stacks().map(|(_, s)| s.len()).max().unwrap_or(0));
        }
        assert!(highest >= 3, "the walk built stacks (highest {highest})");
        while hive.undo() {}
        assert_eq!(hive.key(), setup.key(), "back to the empty board");
        assert_eq!(hive.layout(), setup.layout());
    }
}

#[test]
fn canonical_key_is_the_same_under_all_twelve_symmetries_and_translations() {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    for expansions in [BASE, Expansions::ALL] {
        for _ in 0..40 {
            let hive = random_position(&Hive::uhp(expansions), &mut rng);
            let (canonical, frame) = hive.canonical();
            let image = hive.transformed(frame).unwrap();
            assert_eq!(
                image.key(),
                canonical,
                "the frame shows the canonical position"
            );
            assert_eq!(image.key(), image.key_from_scratch());
            for t in Transform::all() {
                let offset = Hex::new(rng.random_range(-50..50), rng.random_range(-50..50));
                let other = hive
                    .transformed(Frame {
                        transform: t,
                        offset,
                    })
                    .unwrap();
                let (other_canonical, other_frame) = other.canonical();
                assert_eq!(other_canonical, canonical, "transform {}", t.index());
                // Each position's frame maps it onto the same canonical position.
                let other_image = other.transformed(other_frame).unwrap();
                assert_eq!(other_image.layout(), image.layout());
                assert_eq!(other_image.key(), canonical);
            }
        }
    }
}

#[test]
fn bounded_board_canonical_key_uses_the_symmetries_that_keep_the_obstructed_cells() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let cases = [
        (Vec::new(), 12),
        (symmetric_obstacles(), 6),
        (vec![Hex::new(2, -3)], 1),
        (vec![Hex::new(2, -3), Hex::new(-2, 3)], 2),
    ];
    for (obstacles, symmetries) in cases {
        let setup = Hive::sc2020(&obstacles).unwrap();
        assert_eq!(setup.frames().count(), symmetries, "{obstacles:?}");
        for _ in 0..30 {
            let hive = random_position(&setup, &mut rng);
            let (canonical, frame) = hive.canonical();
            assert_eq!((canonical, frame), hive.canonical_from_scratch());
            assert_eq!(hive.transformed(frame).unwrap().key(), canonical);
            for f in hive.frames() {
                assert_eq!(f.offset, Hex::ORIGIN, "no translation on a bounded board");
                let other = hive.transformed(f).unwrap();
                assert_eq!(other.field(), hive.field(), "the obstructed cells stay");
                assert_eq!(Some(other.key()), hive.key_in(f));
                assert_eq!(other.canonical().0, canonical);
            }
        }
    }
    // A translation would push the hexagon off itself.
    let hive = Hive::sc2020(&[]).unwrap();
    let shifted = Frame {
        transform: Transform::IDENTITY,
        offset: Hex::new(1, 0),
    };
    assert!(hive.transformed(shifted).is_none());
}

#[test]
fn moves_map_into_and_out_of_the_canonical_frame() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut moves = Vec::new();
    let mut checked = 0;
    for setup in setups(&mut rng) {
        for _ in 0..20 {
            let hive = random_position(&setup, &mut rng);
            let (_, frame) = hive.canonical();
            let image = hive.transformed(frame).unwrap();
            hive.sensible_moves(&mut moves);
            for &mv in &moves {
                let mapped = mv.into_frame(frame);
                assert_eq!(mapped.out_of_frame(frame), mv);
                let mut after = hive.clone();
                after.play(mv).unwrap();
                let mut image_after = image.clone();
                image_after.play(mapped).unwrap();
                let expected = after.transformed(frame).unwrap();
                assert_eq!(image_after.layout(), expected.layout());
                assert_eq!(image_after.key(), expected.key());
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}

#[test]
fn transpositions_hash_equal() {
    let a = game("Base;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 \\wS1;bA1 bQ/");
    // White's second and third moves the other way round.
    let b = game("Base;InProgress;White[4];wS1;bS1 wS1-;wA1 \\wS1;bQ bS1-;wQ -wS1;bA1 bQ/");
    // The other white ant.
    let c = game("Base;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA2 \\wS1;bA1 bQ/");
    assert_eq!(a.key(), b.key());
    assert_eq!(a.key(), c.key());
    assert_eq!(compact::encode(&a), compact::encode(&c));
    // Two identical ants trading places.
    let d =
        game("Base;InProgress;Black[4];wS1;bS1 wS1-;wA1 -wS1;bQ bS1-;wA2 \\wS1;bA1 bQ/;wA3 /wS1");
    let e =
        game("Base;InProgress;Black[4];wS1;bS1 wS1-;wA3 -wS1;bQ bS1-;wA1 \\wS1;bA1 bQ/;wA2 /wS1");
    assert_eq!(d.key(), e.key());
    assert_eq!(d.canonical(), e.canonical());
    assert_eq!(compact::encode(&d), compact::encode(&e));
    // Placed directly, or placed elsewhere and walked there.
    let placed = game("Base;InProgress;White[4];wS1;bS1 wS1-;wA1 /wS1;bQ bS1-;pass;pass");
    let walked = game("Base;InProgress;White[4];wS1;bS1 wS1-;wA1 \\wS1;bQ bS1-;wA1 /wS1;pass");
    assert_eq!(placed.key(), walked.key());
    // The same position two cells further east: only the canonical and compact keys agree.
    let here = game("Base;InProgress;White[3];wS1;bS1 wS1-;pass;pass");
    let east = game("Base;InProgress;White[3];wS1;bS1 wS1-;wS1 bS1-;bS1 wS1-");
    assert_eq!(east.stack(Hex::new(3, 0)), &[piece("bS1")]);
    assert_eq!(east.layout().normalized(), here.layout().normalized());
    assert_ne!(east.key(), here.key());
    assert_eq!(east.canonical().0, here.canonical().0);
    assert_eq!(compact::encode(&east), compact::encode(&here));
}

#[test]
fn different_positions_hash_different() {
    let base =
        "Base+M;InProgress;White[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wB1 \\wS1;bB1 bQ/;wB1 wS1;bB1 bS1";
    let a = game(base);
    let mut keys = vec![a.key()];
    // The side to move.
    let mut passed = a.clone();
    passed.play(Move::Pass).unwrap();
    keys.push(passed.key());
    // Colours swapped on one cell.
    keys.push(game("Base+M;InProgress;White[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wB1 \\wS1;bB1 bQ/;wB1 bS1;bB1 wS1").key());
    // Stack order: black beetle on white beetle, and the reverse, on the same spider.
    let black_on_top = game(
        "Base;InProgress;White[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wB1 \\wS1;bB1 bS1\\;wB1 wS1;bB1 wS1",
    );
    let white_on_top = game(
        "Base;InProgress;White[6];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wB1 \\wS1;bB1 bS1\\;pass;bB1 wS1;wB1 wS1;pass",
    );
    assert_eq!(black_on_top.stack(Hex::ORIGIN).len(), 3);
    assert_ne!(black_on_top.layout().stacks, white_on_top.layout().stacks);
    assert_ne!(black_on_top.key().main, white_on_top.key().main);
    assert_ne!(black_on_top.key().check, white_on_top.key().check);
    assert_ne!(
        compact::encode(&black_on_top),
        compact::encode(&white_on_top)
    );
    keys.push(black_on_top.key());
    // Mosquito and beetle differ.
    keys.push(game("Base+M;InProgress;White[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wM \\wS1;bB1 bQ/;wM wS1;bB1 bS1").key());
    keys.sort_by_key(|k| k.main);
    keys.dedup_by_key(|k| k.main);
    assert_eq!(keys.len(), 5);

    // Over random walks: equal layouts have equal keys, different layouts different keys
    // (instance numbers vary between visits of one layout).
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for setup in setups(&mut rng) {
        let mut seen: HashMap<_, _> = HashMap::new();
        let mut by_key = HashMap::new();
        for _ in 0..300 {
            let hive = random_position(&setup, &mut rng);
            let layout = hive.layout();
            if let Some(key) = seen.insert(layout.clone(), hive.key()) {
                assert_eq!(key, hive.key(), "same position, same key");
            }
            if let Some(other) = by_key.insert(hive.key().main, layout.clone()) {
                assert_eq!(other, layout, "a 64-bit collision between random positions");
            }
        }
        assert!(seen.len() > 250, "{}", seen.len());
    }
}

#[test]
fn the_open_plane_is_folded_every_32_cells() {
    let a = game("Base;InProgress;White[2];wS1;bS1 wS1-");
    let frame = |q, r| Frame {
        transform: Transform::IDENTITY,
        offset: Hex::new(q, r),
    };
    assert_eq!(a.transformed(frame(64, -96)).unwrap().key(), a.key());
    assert_eq!(a.transformed(frame(-32, 0)).unwrap().key(), a.key());
    let moved = a.transformed(frame(5, -7)).unwrap();
    assert_ne!(moved.key(), a.key());
    assert_eq!(moved.canonical().0, a.canonical().0);
    assert_eq!(compact::encode(&moved), compact::encode(&a));
}

#[test]
fn keys_never_drift() {
    // Pinned: a change here changes every stored Hive key.
    let a = game("Base;InProgress;White[2];wS1;bS1 wS1-");
    assert_eq!(format!("{}", a.key().main), PINNED_OPEN);
    let b = Hive::sc2020(&[Hex::new(1, 1)]).unwrap();
    assert_eq!(format!("{}", b.key().main), PINNED_SC2020);
}

const PINNED_OPEN: &str = "451cc900a3c30bb3";
const PINNED_SC2020: &str = "8fa637dda4320198";

fn assert_round_trip(hive: &Hive) {
    let key = compact::encode(hive).unwrap();
    let back = compact::decode(&key, hive.piece_set(), hive.field().shape()).unwrap();
    let expected = if hive.field().is_bounded() {
        hive.layout()
    } else {
        hive.layout().normalized()
    };
    assert_eq!(back.layout(), expected);
    assert_eq!(compact::encode(&back).unwrap(), key);
    assert_eq!(back.key(), back.key_from_scratch());
}

#[test]
fn compact_key_round_trips() {
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let mut stacked = 0;
    for setup in setups(&mut rng) {
        let mut by_key = HashMap::new();
        for _ in 0..300 {
            let hive = random_position(&setup, &mut rng);
            assert_round_trip(&hive);
            stacked += usize::from(hive.stacks().any(|(_, s)| s.len() > 1));
            let key = compact::encode(&hive).unwrap();
            let layout = if hive.field().is_bounded() {
                hive.layout()
            } else {
                hive.layout().normalized()
            };
            if let Some(other) = by_key.insert(key, layout.clone()) {
                assert_eq!(other, layout, "the compact key is exact");
            }
        }
    }
    assert!(stacked > 100, "{stacked}");
    // Sizes from the module documentation.
    let sc = Hive::sc2020(&random_obstacles(&mut rng)).unwrap();
    assert_eq!(compact::encode(&sc).unwrap().len(), 191);
    assert_eq!(compact::encode(&Hive::uhp(BASE)).unwrap().len(), 255);
    let mlp = compact::encode(&Hive::uhp(Expansions::ALL)).unwrap();
    assert_eq!(mlp.len(), 327);
    assert_eq!(mlp.to_string().len(), 82);
    // Obstacle sets of every size fit.
    for k in [0, 1, 45, 88, 91] {
        let cells: Vec<Hex> = (0..k).map(sc2020_cell).collect();
        assert_round_trip(&Hive::sc2020(&cells).unwrap());
    }
}

#[test]
fn compact_decode_accepts_exactly_the_keys_encode_makes() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let (mut accepted, mut refused) = (0, 0);
    for setup in setups(&mut rng) {
        for _ in 0..100 {
            let hive = random_position(&setup, &mut rng);
            let key = compact::encode(&hive).unwrap();
            for _ in 0..20 {
                let mut words = *key.words();
                let bit = rng.random_range(0..key.len());
                words[bit / 64] ^= 1 << (bit % 64);
                let flipped = CompactKey::from_bits(words, key.len()).unwrap();
                match compact::decode(&flipped, hive.piece_set(), hive.field().shape()) {
                    Ok(other) => {
                        accepted += 1;
                        assert_eq!(compact::encode(&other).unwrap(), flipped);
                    }
                    Err(_) => refused += 1,
                }
            }
            let short = CompactKey::from_bits(*key.words(), key.len() - 1);
            if let Some(short) = short {
                assert!(matches!(
                    compact::decode(&short, hive.piece_set(), hive.field().shape()),
                    Err(CompactError::Length { .. })
                ));
            }
        }
    }
    assert!(accepted > 100 && refused > 100, "{accepted} {refused}");
    assert!(CompactKey::from_bits([0; 6], 385).is_none());
    assert!(
        CompactKey::from_bits([4, 0, 0, 0, 0, 0], 2).is_none(),
        "bits past the length"
    );
}

#[test]
fn spread_out_positions_have_no_compact_key() {
    let mut hive = Hive::uhp(BASE);
    hive.put(piece("wQ"), Hex::ORIGIN).unwrap();
    hive.put(piece("bQ"), Hex::new(0, 40)).unwrap();
    assert!(!hive.is_connected());
    assert_eq!(compact::encode(&hive), Err(CompactError::TooSpread));
}

#[test]
fn software_challenge_board_and_pieces() {
    let obstacles = [Hex::new(1, 1), Hex::new(-3, 0), Hex::new(4, -4)];
    let mut hive = Hive::sc2020(&obstacles).unwrap();
    assert_eq!(hive.field().obstructed().len(), 3);
    assert!(Hive::sc2020(&[Hex::new(6, 0)]).is_none(), "off the board");
    let set = hive.piece_set();
    let counts: Vec<u8> = Bug::ALL.iter().map(|&b| set.count(b)).collect();
    assert_eq!(counts, [1, 3, 2, 2, 3, 0, 0, 0]);
    assert_eq!(set.per_side(), 11);
    let bee = Piece::new(Colour::White, Bug::Queen, 1);
    assert_eq!(
        hive.play(Move::Play {
            piece: bee,
            to: Hex::new(1, 1)
        }),
        Err(MoveError::Obstructed(Hex::new(1, 1)))
    );
    assert_eq!(
        hive.play(Move::Play {
            piece: bee,
            to: Hex::new(0, 6)
        }),
        Err(MoveError::OffField(Hex::new(0, 6)))
    );
    let mosquito = Piece::new(Colour::White, Bug::Mosquito, 1);
    assert_eq!(
        hive.play(Move::Play {
            piece: mosquito,
            to: Hex::ORIGIN
        }),
        Err(MoveError::NotInSet(mosquito))
    );
    hive.play(Move::Play {
        piece: bee,
        to: Hex::ORIGIN,
    })
    .unwrap();
    // Different obstructed cells, same pieces: different keys and compact keys.
    let mut other = Hive::sc2020(&obstacles[..2]).unwrap();
    other
        .play(Move::Play {
            piece: bee,
            to: Hex::ORIGIN,
        })
        .unwrap();
    assert_ne!(hive.key(), other.key());
    assert_ne!(compact::encode(&hive), compact::encode(&other));
}

#[test]
fn board_refuses_impossible_moves() {
    let mut hive = game("Base+M;InProgress;White[3];wS1;bS1 wS1-;wB1 -wS1;bQ bS1-");
    let at = |q, r| Hex::new(q, r);
    let play = |hive: &mut Hive, p: &str, to| {
        hive.play(Move::Play {
            piece: piece(p),
            to,
        })
    };
    assert_eq!(
        play(&mut hive, "bA1", at(3, 0)),
        Err(MoveError::NotYours {
            piece: piece("bA1"),
            to_move: Colour::White
        })
    );
    assert!(matches!(
        play(&mut hive, "wA1", at(0, 0)),
        Err(MoveError::PlacedOnHive { .. })
    ));
    assert!(matches!(
        play(&mut hive, "wS1", at(1, 0)),
        Err(MoveError::CannotClimb { .. })
    ));
    assert_eq!(
        play(&mut hive, "wS1", at(0, 0)),
        Err(MoveError::Stays(piece("wS1")))
    );
    assert_eq!(
        Hive::uhp(BASE).play(Move::Play {
            piece: piece("wM"),
            to: at(0, 0)
        }),
        Err(MoveError::NotInSet(piece("wM")))
    );
    play(&mut hive, "wB1", at(0, 0)).unwrap();
    assert_eq!(
        play(&mut hive, "wS1", at(0, 1)),
        Err(MoveError::Covered(piece("wS1")))
    );
    assert_eq!(hive.stack(at(0, 0)), &[piece("wS1"), piece("wB1")]);
    assert_eq!(hive.locate(piece("wB1")), Some((at(0, 0), 1)));
}

#[test]
fn uhp_reads_every_move_string_form() {
    let mut hive = Hive::uhp(Expansions::ALL);
    let cases = [
        ("wS1", "wS1", Hex::new(0, 0)),
        ("bS1 wS1-", "bS1", Hex::new(1, 0)),
        ("wQ -wS1", "wQ", Hex::new(-1, 0)),
        ("bQ bS1/", "bQ", Hex::new(2, -1)),
        ("wG1 /wS1", "wG1", Hex::new(-1, 1)),
        ("bG1 bS1\\", "bG1", Hex::new(1, 1)),
        ("wA1 \\wS1", "wA1", Hex::new(0, -1)),
        ("bB1 bQ-", "bB1", Hex::new(3, -1)),
        ("wB1 \\wQ", "wB1", Hex::new(-1, -1)),
        ("bB1 bQ", "bB1", Hex::new(2, -1)),
        ("wB1 wQ", "wB1", Hex::new(-1, 0)),
        ("bM bG1-", "bM", Hex::new(2, 1)),
        ("wL /wQ", "wL", Hex::new(-2, 1)),
        ("bP bG1\\", "bP", Hex::new(1, 2)),
        ("wB1 bB1", "wB1", Hex::new(2, -1)),
        ("bM wS1", "bM", Hex::new(0, 0)),
        ("wB1 bQ/", "wB1", Hex::new(3, -2)),
    ];
    for (text, name, cell) in cases {
        let mv = parse_move(&hive, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(
            mv,
            Move::Play {
                piece: piece(name),
                to: cell
            },
            "{text}"
        );
        hive.play(mv).unwrap();
    }
    assert_eq!(hive.stack(Hex::new(2, -1)), &[piece("bQ"), piece("bB1")]);
    assert_eq!(hive.stack(Hex::ORIGIN), &[piece("wS1"), piece("bM")]);
    assert_eq!(parse_move(&hive, "pass"), Ok(Move::Pass));
    // And back: every sensible move of random games has a MoveString that reads as itself.
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let mut moves = Vec::new();
    for _ in 0..50 {
        let hive = random_position(&Hive::uhp(Expansions::ALL), &mut rng);
        hive.sensible_moves(&mut moves);
        for &mv in &moves {
            let text = move_string(&hive, mv).unwrap();
            assert_eq!(parse_move(&hive, &text), Ok(mv), "{text}");
        }
    }
}

#[test]
fn uhp_reads_game_types_states_and_turns() {
    for (text, m, l, p) in [
        ("Base", false, false, false),
        ("Base+M", true, false, false),
        ("Base+L", false, true, false),
        ("Base+P", false, false, true),
        ("Base+ML", true, true, false),
        ("Base+MP", true, false, true),
        ("Base+LP", false, true, true),
        ("Base+MLP", true, true, true),
        ("Base+PLM", true, true, true),
    ] {
        let e: Expansions = text.parse().unwrap();
        assert_eq!((e.mosquito, e.ladybug, e.pillbug), (m, l, p), "{text}");
        let hive = game(&format!("{text};NotStarted;White[1]"));
        assert_eq!(
            hive.piece_set().per_side(),
            11 + usize::from(m) + usize::from(l) + usize::from(p)
        );
    }
    assert_eq!(Expansions::ALL.to_string(), "Base+MLP");
    for state in ["InProgress", "Draw", "WhiteWins", "BlackWins"] {
        let hive = game(&format!("Base;{state};Black[1];wS1"));
        assert_eq!(hive.to_move(), Colour::Black);
    }
    let hive = game("Base+MLP;InProgress;White[3];wS1;bG1 -wS1;wQ \\wS1;bQ -bG1");
    assert_eq!(hive.moves().count(), 4);
    assert_eq!(hive.to_move(), Colour::White);
}

/// What a refused input's error must look like.
type Expect = fn(&UhpError) -> bool;

#[test]
fn uhp_refuses_malformed_and_impossible_input() {
    let cases: &[(&str, Expect)] = &[
        ("", |e| matches!(e, UhpError::Fields(_))),
        ("Base;NotStarted", |e| matches!(e, UhpError::Fields(_))),
        ("Base+;NotStarted;White[1]", |e| {
            matches!(e, UhpError::GameType(_))
        }),
        ("Base+MM;NotStarted;White[1]", |e| {
            matches!(e, UhpError::GameType(_))
        }),
        ("Base+X;NotStarted;White[1]", |e| {
            matches!(e, UhpError::GameType(_))
        }),
        ("base;NotStarted;White[1]", |e| {
            matches!(e, UhpError::GameType(_))
        }),
        ("Base;Started;White[1]", |e| {
            matches!(e, UhpError::GameState(_))
        }),
        ("Base;InProgress;White[1]", |e| {
            matches!(e, UhpError::StateMismatch { .. })
        }),
        ("Base;NotStarted;Black[1];wS1", |e| {
            matches!(e, UhpError::StateMismatch { .. })
        }),
        ("Base;NotStarted;White[0]", |e| {
            matches!(e, UhpError::Turn(_))
        }),
        ("Base;NotStarted;White1", |e| matches!(e, UhpError::Turn(_))),
        ("Base;NotStarted;Red[1]", |e| matches!(e, UhpError::Turn(_))),
        ("Base;InProgress;White[1];wS1", |e| {
            matches!(e, UhpError::TurnMismatch { .. })
        }),
        ("Base;InProgress;Black[2];wS1", |e| {
            matches!(e, UhpError::TurnMismatch { .. })
        }),
        // A trailing `;` is an empty MoveString.
        ("Base;InProgress;White[2];wS1;bS1 wS1-;", |e| {
            matches!(e, UhpError::InMove { .. })
        }),
    ];
    for (text, expected) in cases {
        let error = parse_game_string(text)
            .err()
            .unwrap_or_else(|| panic!("{text} accepted"));
        assert!(expected(&error), "{text}: {error:?}");
        assert!(!error.to_string().is_empty());
    }
    // Move errors carry the move number and text.
    let moves: &[(&str, Expect)] = &[
        ("wS1;bS1 wS1-;wX1 -wS1", |e| {
            matches!(e, UhpError::PieceSyntax(_))
        }),
        ("wS1;bS1 wS1-;WQ -wS1", |e| {
            matches!(e, UhpError::PieceSyntax(_))
        }),
        ("wS1;bS1 wS1-;wQ1 -wS1", |e| {
            matches!(e, UhpError::NoSuchPiece(_))
        }),
        ("wS1;bS1 wS1-;wA4 -wS1", |e| {
            matches!(e, UhpError::NoSuchPiece(_))
        }),
        ("wS1;bS1 wS1-;wS3 -wS1", |e| {
            matches!(e, UhpError::NoSuchPiece(_))
        }),
        ("wS1;bS1 wS1-;wA0 -wS1", |e| {
            matches!(e, UhpError::NoSuchPiece(_))
        }),
        ("wS1;bS1 wS1-;wM -wS1", |e| {
            matches!(e, UhpError::NotInGame { .. })
        }),
        ("wS1;bS1 wS1-;wA1 -wQ", |e| {
            matches!(e, UhpError::NotOnBoard(_))
        }),
        ("wS1;bS1 wS1-;wA1 -bA1", |e| {
            matches!(e, UhpError::NotOnBoard(_))
        }),
        ("wS1;bS1 wS1-;wA1 wS1-", |e| {
            matches!(e, UhpError::OccupiedTarget(_))
        }),
        ("wS1;bS1 wS1-;wA1 wS1", |e| {
            matches!(e, UhpError::Illegal(MoveError::PlacedOnHive { .. }))
        }),
        ("wS1;bS1 wS1-;wS1 bS1", |e| {
            matches!(e, UhpError::Illegal(MoveError::CannotClimb { .. }))
        }),
        ("wS1;bS1 wS1-;wA1 -wA1", |e| {
            matches!(e, UhpError::SelfReference(_))
        }),
        ("wS1;bS1 wS1-;wA1", |e| matches!(e, UhpError::NoPosition(_))),
        ("wS1 wS1-;bS1", |e| {
            matches!(e, UhpError::FirstMoveWithPosition(_))
        }),
        ("wS1;bS1 wS1-;wA1 -wS1 x", |e| {
            matches!(e, UhpError::MoveSyntax(_))
        }),
        ("wS1;bS1 wS1-;wA1 -wS1-", |e| {
            matches!(e, UhpError::PieceSyntax(_))
        }),
        ("wS1;bS1 wS1-;wA1 |wS1", |e| {
            matches!(e, UhpError::PieceSyntax(_))
        }),
        ("wS1;bS1  wS1-;wA1 -wS1", |e| {
            matches!(e, UhpError::MoveSyntax(_))
        }),
        ("wS1;bS1 wS1-;Pass", |e| {
            matches!(e, UhpError::PieceSyntax(_))
        }),
        ("wS1;bS1 wS1-;bA1 -wS1", |e| {
            matches!(e, UhpError::Illegal(MoveError::NotYours { .. }))
        }),
        ("wS1;bS1 wS1-;wA1 -wS1;bA1 bS1-;wS1 bA1-", |e| {
            matches!(e, UhpError::SplitsHive(_))
        }),
        ("wS1;bB1 wS1-;wQ -wS1;bB1 wS1;wS1 -wQ", |e| {
            matches!(e, UhpError::Illegal(MoveError::Covered(_)))
        }),
    ];
    for (list, expected) in moves {
        let n = list.split(';').count();
        let text = format!("Base;InProgress;{};{list}", rookery::hive::turn_string(n));
        let Err(UhpError::InMove { number, error, .. }) = parse_game_string(&text) else {
            panic!("{text}: not refused in a move");
        };
        assert!(expected(&error), "{text}: {error:?}");
        assert!(number >= 1 && number <= n);
    }
    let message = parse_game_string("Base;InProgress;White[2];wS1;bS1 wQ-")
        .unwrap_err()
        .to_string();
    assert_eq!(message, "move 2 'bS1 wQ-': wQ is not on the board");
}

#[test]
fn many_obstacle_sets_do_not_pile_up_tables() {
    // More obstacle sets than the cache keeps: every game still gets consistent keys.
    let mut first_keys = Vec::new();
    for i in 0..40 {
        let cells = [sc2020_cell(i), sc2020_cell(i + 40), sc2020_cell(90 - i)];
        let hive = Hive::sc2020(&cells).unwrap();
        assert_eq!(hive.key(), hive.key_from_scratch());
        first_keys.push(hive.key());
    }
    let again = Hive::sc2020(&[sc2020_cell(0), sc2020_cell(40), sc2020_cell(90)]).unwrap();
    assert_eq!(
        again.key(),
        first_keys[0],
        "rebuilt tables give the same keys"
    );
}

// A brute-force reference for the keys, written here: the position as plain data, the twelve
// symmetries of the grid in cube coordinates, the feature layout, and the compact layout,
// each spelled out from the documentation rather than taken from the module.

/// A position as plain data: occupied cells with their pieces bottom first, obstructed
/// cells, the side to move, and whether the field is the bounded hexagon.
#[derive(Clone, Debug)]
struct Board {
    stacks: Vec<(Hex, Vec<(Colour, Bug)>)>,
    obstructed: Vec<Hex>,
    to_move: Colour,
    bounded: bool,
}

impl Board {
    fn of(hive: &Hive) -> Board {
        Board {
            stacks: hive
                .stacks()
                .map(|(h, s)| (h, s.iter().map(|p| (p.colour, p.bug)).collect()))
                .collect(),
            obstructed: hive.field().obstructed(),
            to_move: hive.to_move(),
            bounded: hive.field().is_bounded(),
        }
    }

    /// The first occupied cell in reading order (least row, then least column).
    fn anchor(&self) -> Option<Hex> {
        self.stacks.iter().map(|s| s.0).min_by_key(|h| (h.r, h.q))
    }

    /// Every cell (pieces and obstructed) moved by `f`.
    fn mapped(&self, f: impl Fn(Hex) -> Hex) -> Board {
        Board {
            stacks: self
                .stacks
                .iter()
                .map(|(h, s)| (f(*h), s.clone()))
                .collect(),
            obstructed: self.obstructed.iter().map(|&h| f(h)).collect(),
            ..self.clone()
        }
    }
}

/// A symmetry of the hexagonal grid about the origin, in cube coordinates
/// `(x, y, z) = (q, r, -q - r)`: the coordinates permuted, and all negated or not. The six
/// permutations times two signs are the twelve symmetries (rotations and mirrors).
#[derive(Clone, Copy, Debug)]
struct Symmetry {
    permutation: [usize; 3],
    negate: bool,
}

impl Symmetry {
    fn all() -> Vec<Symmetry> {
        let permutations = [
            [0, 1, 2],
            [1, 2, 0],
            [2, 0, 1],
            [0, 2, 1],
            [2, 1, 0],
            [1, 0, 2],
        ];
        permutations
            .iter()
            .flat_map(|&permutation| {
                [false, true].map(|negate| Symmetry {
                    permutation,
                    negate,
                })
            })
            .collect()
    }

    fn apply(self, h: Hex) -> Hex {
        let cube = [h.q, h.r, -h.q - h.r];
        let sign = if self.negate { -1 } else { 1 };
        Hex::new(
            sign * cube[self.permutation[0]],
            sign * cube[self.permutation[1]],
        )
    }

    /// Whether the module's transform moves cells as this one does (two independent
    /// directions fix a linear map).
    fn is(self, t: Transform) -> bool {
        [Hex::new(1, 0), Hex::new(0, 1)]
            .iter()
            .all(|&h| t.apply(h) == self.apply(h))
    }
}

/// Key kinds per cell: colour x bug on the ground, then colour x climber (beetle, mosquito)
/// x height 1 to 6.
const KINDS: usize = 2 * 8 + 2 * 2 * 6;

/// The feature layout of the Hive keys (see `HiveKeys`): kind of the piece times the number
/// of key cells plus its cell; one feature for black to move; one per obstructed cell.
fn kind(colour: Colour, bug: Bug, height: usize) -> usize {
    let (c, b) = (colour as usize, bug as usize);
    if height == 0 {
        8 * c + b
    } else {
        assert!(bug.climbs() && height <= 6, "{bug:?} at height {height}");
        16 + (2 * c + usize::from(bug == Bug::Mosquito)) * 6 + height - 1
    }
}

/// Cells the keys tell apart and a cell's number among them: the 91 cells of the hexagon, or
/// the open plane folded onto a 32 x 32 torus.
fn key_cell(bounded: bool, h: Hex) -> (usize, usize) {
    if bounded {
        (91, sc2020_index(h).expect("on the board"))
    } else {
        (
            1024,
            (h.r.rem_euclid(32) * 32 + h.q.rem_euclid(32)) as usize,
        )
    }
}

/// Main and check keys of a board XORed together here from the module's key tables.
fn keys_from_tables(keys: &HiveKeys, board: &Board) -> DualKey {
    let (cells, _) = key_cell(board.bounded, Hex::ORIGIN);
    let mut features = Vec::new();
    for (h, stack) in &board.stacks {
        for (height, &(colour, bug)) in stack.iter().enumerate() {
            features.push(kind(colour, bug, height) * cells + key_cell(board.bounded, *h).1);
        }
    }
    if board.to_move == Colour::Black {
        features.push(KINDS * cells);
    }
    for &h in &board.obstructed {
        features.push(KINDS * cells + 1 + key_cell(board.bounded, h).1);
    }
    let xor = |table: &KeyTable| {
        features
            .iter()
            .fold(Key::EMPTY, |k, &f| Key(k.bits() ^ table.key(f).bits()))
    };
    DualKey {
        main: xor(keys.dual().main()),
        check: xor(keys.dual().check()),
    }
}

/// The images the canonical key is the least of: each symmetry that maps the field onto
/// itself (on the hexagon, those keeping the set of obstructed cells), followed on the open
/// plane by the translation bringing the image's first occupied cell to the origin. Each
/// comes with its symmetry, the translation's offset and the keys of the image.
fn reference_images(hive: &Hive) -> Vec<(Symmetry, Hex, DualKey)> {
    let board = Board::of(hive);
    let keys = HiveKeys::for_field(hive.field());
    let mut obstructed = board.obstructed.clone();
    obstructed.sort_by_key(|h| (h.r, h.q));
    Symmetry::all()
        .into_iter()
        .filter(|&s| {
            let mut image: Vec<Hex> = obstructed.iter().map(|&h| s.apply(h)).collect();
            image.sort_by_key(|h| (h.r, h.q));
            image == obstructed
        })
        .map(|s| {
            let turned = board.mapped(|h| s.apply(h));
            let offset = match turned.anchor() {
                Some(anchor) if !board.bounded => anchor,
                _ => Hex::ORIGIN,
            };
            let image = turned.mapped(|h| h - offset);
            (s, offset, keys_from_tables(&keys, &image))
        })
        .collect()
}

/// Random positions of every setup, short ones among them (the empty field, one piece, two:
/// positions that several symmetries map onto themselves), some after take-backs.
fn brute_force_positions(rng: &mut ChaCha8Rng) -> Vec<Hive> {
    let mut out = Vec::new();
    for setup in setups(rng) {
        for plies in 0..3 {
            let mut hive = setup.clone();
            walk(&mut hive, plies, rng);
            out.push(hive);
        }
        for _ in 0..40 {
            let mut hive = random_position(&setup, rng);
            for _ in 0..rng.random_range(0..4) {
                hive.undo();
            }
            out.push(hive);
        }
    }
    out
}

/// The check and main keys, the canonical keys with the frame reported for them, the key in
/// every frame the module takes, against the brute force above: each symmetry applied to
/// the board by hand, each image hashed from scratch from the key tables, the least taken.
#[test]
fn keys_and_canonical_keys_against_a_brute_force_over_the_symmetries() {
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    let (mut positions, mut ties, mut stacked) = (0, 0, 0);
    for hive in brute_force_positions(&mut rng) {
        let board = Board::of(&hive);
        let keys = HiveKeys::for_field(hive.field());
        let (cells, _) = key_cell(board.bounded, Hex::ORIGIN);
        let extra = if board.bounded { cells } else { 0 };
        assert_eq!(keys.features(), KINDS * cells + 1 + extra);
        // Main and check keys, incremental and from scratch, against the tables.
        let plain = keys_from_tables(&keys, &board);
        assert_eq!(hive.key(), plain);
        assert_eq!(hive.key_from_scratch(), plain);

        let images = reference_images(&hive);
        let least = images.iter().map(|i| i.2.main).min().unwrap();
        let (canonical, frame) = hive.canonical();
        assert_eq!(canonical.main, least, "{board:?}");
        // The frame names one of the symmetries whose image has the least key, with the
        // same translation, and the check key is that image's.
        let named = images
            .iter()
            .find(|i| i.0.is(frame.transform))
            .unwrap_or_else(|| panic!("transform {} keeps no field", frame.transform.index()));
        assert_eq!(frame.offset, named.1);
        assert_eq!(named.2, canonical, "transform {}", frame.transform.index());
        // The module's frames are exactly these symmetries, each with the key of its image.
        let mut seen = vec![false; images.len()];
        for f in hive.frames() {
            let i = images
                .iter()
                .position(|i| i.0.is(f.transform))
                .unwrap_or_else(|| panic!("transform {} keeps no field", f.transform.index()));
            assert!(!std::mem::replace(&mut seen[i], true), "a frame twice");
            assert_eq!(f.offset, images[i].1);
            assert_eq!(hive.key_in(f), Some(images[i].2));
        }
        assert!(seen.iter().all(|&s| s), "a symmetry with no frame");

        positions += 1;
        ties += usize::from(images.iter().filter(|i| i.2.main == least).count() > 1);
        stacked += usize::from(board.stacks.iter().any(|s| s.1.len() > 1));
    }
    assert_eq!(positions, 5 * 43);
    // The empty field and a lone piece on the open plane; the empty hexagon without and
    // with symmetric obstacles.
    assert!(
        ties >= 6,
        "positions whose least key several images reach: {ties}"
    );
    assert!(stacked >= 20, "positions with a stack: {stacked}");
}

/// Fields pushed from bit 0 upwards, each least significant bit first.
#[derive(Default)]
struct Bits(Vec<bool>);

impl Bits {
    fn push(&mut self, value: u128, width: u32) {
        assert!(
            width == 128 || value >> width == 0,
            "{value} in {width} bits"
        );
        self.0.extend((0..width).map(|i| value >> i & 1 == 1));
    }
}

/// `C(n, k)`.
fn binomial(n: u128, k: u128) -> u128 {
    if k > n {
        return 0;
    }
    // After step i, c = C(n, i + 1): each step's division is exact.
    (0..k).fold(1, |c, i| c * (n - i) / (i + 1))
}

/// The compact key written here from the layout in the `compact` module's documentation.
fn reference_compact(hive: &Hive) -> Vec<bool> {
    let board = Board::of(hive);
    let mut bits = Bits::default();
    bits.push(u128::from(board.to_move == Colour::Black), 1);
    if board.bounded {
        let mut indices: Vec<u128> = board
            .obstructed
            .iter()
            .map(|&h| sc2020_index(h).unwrap() as u128)
            .collect();
        indices.sort_unstable();
        let k = indices.len() as u128;
        let rank: u128 = indices.iter().zip(1..).map(|(&c, i)| binomial(c, i)).sum();
        // ceil(log2 C(91, k)): the least width that holds every rank.
        let width = (0..128).find(|&b| 1u128 << b >= binomial(91, k)).unwrap();
        bits.push(k, 7);
        bits.push(rank, width);
    }
    let (cell_bits, reserve) = if board.bounded { (7, 127) } else { (11, 2047) };
    let anchor = board.anchor().unwrap_or(Hex::ORIGIN);
    let code = |h: Hex| -> u128 {
        if board.bounded {
            sc2020_index(h).unwrap() as u128
        } else {
            let (row, column) = (h.r - anchor.r, h.q - anchor.q + 32);
            assert!((0..=30).contains(&row) && (0..=63).contains(&column));
            (row * 64 + column) as u128
        }
    };
    for colour in [Colour::White, Colour::Black] {
        for bug in Bug::ALL {
            let height_bits = if bug.climbs() { 3 } else { 0 };
            let mut slots: Vec<u128> = board
                .stacks
                .iter()
                .flat_map(|(h, stack)| {
                    stack
                        .iter()
                        .enumerate()
                        .filter(|(_, p)| **p == (colour, bug))
                        .map(move |(height, _)| code(*h) << height_bits | height as u128)
                })
                .collect();
            slots.sort_unstable();
            let count = usize::from(hive.piece_set().count(bug));
            assert!(slots.len() <= count);
            slots.resize(count, reserve << height_bits);
            for slot in slots {
                bits.push(slot, cell_bits + height_bits);
            }
        }
    }
    bits.0
}

/// The exact compact key, bit for bit, against the layout written out above; and positions
/// that differ only in which of two identical pieces stands where encode alike.
#[test]
fn compact_key_against_a_reference_encoder() {
    let mut rng = ChaCha8Rng::seed_from_u64(32);
    let mut swapped = 0;
    for hive in brute_force_positions(&mut rng) {
        let key = compact::encode(&hive).unwrap();
        let expected = reference_compact(&hive);
        assert_eq!(key.len(), expected.len());
        let got: Vec<bool> = (0..key.len())
            .map(|i| key.words()[i / 64] >> (i % 64) & 1 == 1)
            .collect();
        assert_eq!(got, expected, "{}", key);
        // The same position with the numbers of two identical pieces exchanged.
        let mut pieces: Vec<(Hex, Piece)> = Vec::new();
        for (h, stack) in hive.stacks() {
            pieces.extend(stack.iter().map(|&p| (h, p)));
        }
        let pair = pieces.iter().enumerate().find_map(|(i, &(a, p))| {
            pieces[i + 1..]
                .iter()
                .find(|&&(b, q)| a != b && (q.colour, q.bug) == (p.colour, p.bug))
                .map(|&(_, q)| (p, q))
        });
        if let Some((p, q)) = pair {
            let mut other = Hive::new(hive.piece_set(), hive.field());
            let mut order: Vec<(Hex, usize, Piece)> = hive
                .stacks()
                .flat_map(|(h, s)| s.iter().enumerate().map(move |(i, &x)| (h, i, x)))
                .collect();
            order.sort_by_key(|&(h, i, _)| (i, h.r, h.q));
            for (h, _, x) in order {
                let x = if x == p {
                    q
                } else if x == q {
                    p
                } else {
                    x
                };
                other.put(x, h).unwrap();
            }
            other.set_to_move(hive.to_move());
            assert_ne!(other.locate(p), hive.locate(p));
            assert_eq!(compact::encode(&other).unwrap(), key);
            assert_eq!(other.key(), hive.key());
            swapped += 1;
        }
    }
    assert!(
        swapped >= 100,
        "positions with two identical pieces apart: {swapped}"
    );
}
