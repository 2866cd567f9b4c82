//! Gomoku keys on the shared core: incremental against from-scratch, symmetry-canonical
//! keys, transpositions, Gomocup input and the table entry.

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use rookery::gomoku::key_samples::GomokuCode;
use rookery::gomoku::{
    Geometry, Gomoku, GomokuEntry, GomokuKeys, GomokuTable, Stone, parse_board_block, parse_moves,
};
use rookery::hashing::{Bound, DualKey, DualKeyTable, Key, TableEntry};

fn random_game(geometry: Geometry, stones: usize, rng: &mut ChaCha8Rng) -> Gomoku {
    let mut game = Gomoku::new(geometry);
    while game.moves().len() < stones.min(geometry.cells()) {
        let cell = rng.random_range(0..geometry.cells());
        let _ = game.place(cell); // occupied cells are simply skipped
    }
    game
}

/// Stones by cell and the side to move: the position itself.
fn snapshot(game: &Gomoku) -> (Vec<Option<Stone>>, Stone) {
    let cells = (0..game.geometry().cells())
        .map(|c| game.stone(c))
        .collect();
    (cells, game.to_move())
}

#[test]
fn incremental_keys_equal_from_scratch_over_long_random_sequences() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for (w, h) in [(15, 15), (20, 20), (5, 5), (32, 32), (19, 13)] {
        let geometry = Geometry::new(w, h).unwrap();
        let mut game = Gomoku::new(geometry);
        for _ in 0..5000 {
            if rng.random_range(0..3) == 0 {
                game.take_back();
            } else {
                let _ = game.place(rng.random_range(0..geometry.cells()));
            }
            assert_eq!(game.key(), game.key_from_scratch());
        }
        while game.take_back() {}
        assert_eq!(
            game.key(),
            Gomoku::new(geometry).key(),
            "back to the empty board"
        );
    }
}

#[test]
fn canonical_key_is_the_same_for_every_transform() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    for (w, h, expected) in [(15, 15, 8), (20, 20, 8), (19, 13, 4), (6, 9, 4)] {
        let geometry = Geometry::new(w, h).unwrap();
        for _ in 0..50 {
            let stones = rng.random_range(1..40);
            let game = random_game(geometry, stones, &mut rng);
            assert_eq!(game.symmetries(), expected);
            let (canonical, g) = game.canonical();
            // The transform names the image with the canonical key.
            let image = game.transformed(g);
            assert_eq!(image.key(), canonical);
            assert_eq!(image.key(), image.key_from_scratch());
            for t in 0..game.symmetries() {
                let other = game.transformed(t);
                assert_eq!(other.key_under(0), game.key_under(t));
                assert_eq!(other.canonical().0, canonical, "transform {t}");
                let (_, back) = other.canonical();
                assert_eq!(snapshot(&other.transformed(back)), snapshot(&image));
            }
        }
    }
}

#[test]
fn moves_map_into_and_out_of_the_canonical_frame() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let geometry = Geometry::new(15, 15).unwrap();
    for _ in 0..100 {
        let game = random_game(geometry, 12, &mut rng);
        let (_, g) = game.canonical();
        let image = game.transformed(g);
        for cell in 0..geometry.cells() {
            let mapped = game.transform_cell(g, cell);
            assert_eq!(image.stone(mapped), game.stone(cell));
            assert_eq!(game.untransform_cell(g, mapped), cell);
        }
    }
}

#[test]
fn transpositions_hash_equal() {
    let geometry = Geometry::new(15, 15).unwrap();
    let a = parse_moves(geometry, ["7,7", "8,8", "6,6", "9,9"]).unwrap();
    let b = parse_moves(geometry, ["6,6", "9,9", "7,7", "8,8"]).unwrap();
    assert_eq!(a.key(), b.key());
    let c = parse_moves(geometry, ["7,7", "9,9", "6,6", "8,8"]).unwrap();
    assert_eq!(a.key(), c.key(), "white's stones placed in another order");
    let swapped = parse_moves(geometry, ["8,8", "7,7", "9,9", "6,6"]).unwrap();
    assert_ne!(a.key(), swapped.key(), "colours matter");
    assert_ne!(a.key().check, swapped.key().check);
}

#[test]
fn gomocup_board_block_matches_the_move_list() {
    let geometry = Geometry::new(20, 20).unwrap();
    let played = parse_moves(geometry, ["10,10", "11,10", "10,11"]).unwrap();
    // White to move: its stones are "1".
    let block = "BOARD\n10,10,2\n11,10,1\n10,11,2\nDONE\n";
    let board = parse_board_block(geometry, block).unwrap();
    assert_eq!(board.key(), played.key());
    assert_eq!(board.to_move(), Stone::White);
    for bad in [
        "10,10,2\n",
        "10,10,1\n11,11,1\nDONE",
        "10,10,7\nDONE",
        "99,0,1\nDONE",
        "a,b,1\nDONE",
    ] {
        assert!(parse_board_block(geometry, bad).is_err(), "{bad:?}");
    }
    for bad in [&["7,7", "7,7"][..], &["20,1"], &["7;7"], &["-1,3"]] {
        assert!(
            parse_moves(geometry, bad.iter().copied()).is_err(),
            "{bad:?}"
        );
    }
    assert!(Geometry::new(4, 15).is_none() && Geometry::new(15, 33).is_none());
}

#[test]
fn table_entry_round_trips_and_counts_hits() {
    for e in [
        GomokuEntry {
            score: -1234,
            depth: 9,
            best: Some(1023),
            bound: Bound::Lower,
        },
        GomokuEntry {
            score: 30000,
            depth: 0,
            best: None,
            bound: Bound::Exact,
        },
        GomokuEntry {
            score: 0,
            depth: 255,
            best: Some(0),
            bound: Bound::Upper,
        },
    ] {
        assert_eq!(GomokuEntry::unpack(e.pack()), e);
    }
    let table = GomokuTable::new(1).unwrap();
    let geometry = Geometry::new(15, 15).unwrap();
    let game = parse_moves(geometry, ["7,7", "8,8"]).unwrap();
    let (key, _) = game.canonical();
    let entry = GomokuEntry {
        score: 50,
        depth: 4,
        best: Some(112),
        bound: Bound::Exact,
    };
    table.store(key.canonical_table_key(), entry);
    // A mirror image finds the same entry through its canonical key.
    let mirrored = game.transformed(2);
    assert_eq!(
        table.probe(mirrored.canonical().0.canonical_table_key()),
        Some(entry)
    );
    assert_eq!(
        table.probe(Gomoku::new(geometry).canonical().0.canonical_table_key()),
        None
    );
    let stats = table.stats();
    assert_eq!((stats.probes, stats.hits, stats.stores), (2, 1, 1));
    assert!((stats.hit_rate() - 0.5).abs() < 1e-9);
}

#[test]
fn keys_of_a_known_game_never_drift() {
    // Pinned through the game itself, so a change of seed, check-key offset or feature
    // layout fails here (`rookery hash gomoku --size 15 7,7 8,8` prints the same).
    let game = parse_moves(Geometry::new(15, 15).unwrap(), ["7,7", "8,8"]).unwrap();
    assert_eq!(game.key().main.bits(), 0xe78e_4271_9020_898a);
    assert_eq!(game.key().check.bits(), 0x85ec_bfcf_77d8_291a);
    let (canonical, g) = game.canonical();
    assert_eq!((canonical.main.bits(), g), (0x0ec3_af1c_8a16_8673, 2));
}

#[test]
fn take_back_restores_the_key_even_after_the_turn_was_set() {
    let geometry = Geometry::new(15, 15).unwrap();
    let mut game = Gomoku::new(geometry);
    game.place(10).unwrap(); // black
    game.set_to_move(Stone::Black); // black to move again
    game.place(11).unwrap(); // black
    assert!(game.take_back());
    assert_eq!(game.stone(11), None);
    assert_eq!(game.to_move(), Stone::Black);
    assert_eq!(game.key(), game.key_from_scratch());
    assert!(game.take_back());
    assert_eq!(game.key(), Gomoku::new(geometry).key());
    assert_eq!(game.canonical(), Gomoku::new(geometry).canonical());
}

/// The table's use of the canonical frame, end to end: a best move stored from one
/// position is read back, from any symmetric image of it, as the image of that move.
#[test]
fn a_best_move_stored_from_one_image_is_found_from_every_other() {
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    let geometry = Geometry::new(15, 15).unwrap();
    let table = GomokuTable::new(1).unwrap();
    for _ in 0..50 {
        let game = random_game(geometry, 9, &mut rng);
        let best = loop {
            let cell = rng.random_range(0..geometry.cells());
            if game.stone(cell).is_none() {
                break cell;
            }
        };
        let (key, g) = game.canonical();
        let entry = GomokuEntry {
            score: 7,
            depth: 3,
            best: Some(game.transform_cell(g, best) as u16),
            bound: Bound::Lower,
        };
        table.store(key.canonical_table_key(), entry);
        for t in 0..game.symmetries() {
            let image = game.transformed(t);
            let (image_key, image_g) = image.canonical();
            let found = table
                .probe(image_key.canonical_table_key())
                .expect("the image finds the entry");
            let mapped = image.untransform_cell(image_g, usize::from(found.best.unwrap()));
            // The image of the stored move, or a cell equivalent to it when the position
            // is itself symmetric: playing either gives the same position up to symmetry.
            let expected = game.transform_cell(t, best);
            let after = |cell| {
                let mut next = image.clone();
                next.place(cell).unwrap();
                next.canonical().0
            };
            assert_eq!(after(mapped), after(expected), "transform {t}");
        }
    }
}

/// The board's symmetries written out here, independently of the module, as cell maps
/// (`map[cell]` is where the symmetry sends `cell`): every combination of swapping the two
/// axes (square boards only) and mirroring each of them, so 8 on a square, 4 on a rectangle.
fn reference_symmetries(geometry: Geometry) -> Vec<Vec<usize>> {
    let (w, h) = (geometry.width(), geometry.height());
    let mut maps = Vec::new();
    for swap in [false, true] {
        if swap && w != h {
            continue;
        }
        for mirror_x in [false, true] {
            for mirror_y in [false, true] {
                let map = (0..w * h)
                    .map(|cell| {
                        let (mut x, mut y) = (cell % w, cell / w);
                        if swap {
                            (x, y) = (y, x);
                        }
                        if mirror_x {
                            x = w - 1 - x;
                        }
                        if mirror_y {
                            y = h - 1 - y;
                        }
                        y * w + x
                    })
                    .collect();
                maps.push(map);
            }
        }
    }
    maps
}

/// The board moved by a cell map: the stone on `cell` goes to `map[cell]`.
fn apply(map: &[usize], cells: &[Option<Stone>]) -> Vec<Option<Stone>> {
    let mut out = vec![None; cells.len()];
    for (cell, &stone) in cells.iter().enumerate() {
        out[map[cell]] = stone;
    }
    out
}

/// Main and check keys XORed together here from the key tables, after the layout the
/// module documents: feature `2 * cell` for a black stone, `2 * cell + 1` for a white one,
/// `2 * cells` when white is to move.
fn keys_from_tables(tables: &DualKeyTable, cells: &[Option<Stone>], to_move: Stone) -> DualKey {
    let mut features: Vec<usize> = (0..cells.len())
        .filter_map(|cell| match cells[cell] {
            None => None,
            Some(Stone::Black) => Some(2 * cell),
            Some(Stone::White) => Some(2 * cell + 1),
        })
        .collect();
    if to_move == Stone::White {
        features.push(2 * cells.len());
    }
    let xor = |table: &rookery::hashing::KeyTable| {
        features
            .iter()
            .fold(Key::EMPTY, |k, &f| Key(k.bits() ^ table.key(f).bits()))
    };
    DualKey {
        main: xor(tables.main()),
        check: xor(tables.check()),
    }
}

/// A board of these stones and side to move, set up stone by stone.
fn board(geometry: Geometry, cells: &[Option<Stone>], to_move: Stone) -> Gomoku {
    let mut game = Gomoku::new(geometry);
    for (cell, stone) in cells.iter().enumerate() {
        if let Some(stone) = stone {
            game.set(cell, *stone).unwrap();
        }
    }
    game.set_to_move(to_move);
    game
}

/// Random positions of every kind the tests need: played with take-backs (so the
/// incremental keys have undone toggles), with the turn set by hand, and made symmetric
/// (each stone copied to its image under a random symmetry) so that the least key is
/// reached by several symmetries.
fn brute_force_positions(geometry: Geometry, rng: &mut ChaCha8Rng) -> Vec<Gomoku> {
    let maps = reference_symmetries(geometry);
    let mut out = vec![Gomoku::new(geometry)];
    for _ in 0..40 {
        let stones = rng.random_range(1..60);
        let mut game = random_game(geometry, stones, rng);
        for _ in 0..rng.random_range(0..5) {
            game.take_back();
        }
        if rng.random_range(0..4) == 0 {
            game.set_to_move(game.to_move().other());
        }
        out.push(game);
    }
    for _ in 0..10 {
        // Stones placed by whole orbits of one symmetry other than the identity, so the
        // board is its own image under it.
        let map = &maps[rng.random_range(1..maps.len())];
        let mut cells = vec![None; geometry.cells()];
        for _ in 0..6 {
            let mut orbit = vec![rng.random_range(0..geometry.cells())];
            while map[orbit[orbit.len() - 1]] != orbit[0] {
                orbit.push(map[orbit[orbit.len() - 1]]);
            }
            let stone = [Stone::Black, Stone::White][rng.random_range(0..2)];
            if orbit.iter().all(|&c| cells[c].is_none()) {
                for c in orbit {
                    cells[c] = Some(stone);
                }
            }
        }
        assert_eq!(apply(map, &cells), cells);
        out.push(board(geometry, &cells, Stone::Black));
    }
    out
}

/// The canonical key (least main key over the symmetries, with the check key of the same
/// image), the symmetry index reported with it, every key under a symmetry and the exact
/// canonical code, all against a brute force written here: each symmetry applied to the
/// board by hand, each image hashed from scratch from the key tables, the least taken.
#[test]
fn canonical_and_check_keys_against_a_brute_force_over_the_symmetries() {
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let (mut positions, mut ties) = (0, 0);
    for (w, h) in [(15, 15), (5, 5), (32, 32), (19, 13), (6, 9)] {
        let geometry = Geometry::new(w, h).unwrap();
        let keys = GomokuKeys::for_geometry(geometry);
        let tables = keys.dual();
        assert_eq!(tables.main().len(), 2 * geometry.cells() + 1);
        let maps = reference_symmetries(geometry);
        for game in brute_force_positions(geometry, &mut rng) {
            let (cells, to_move) = snapshot(&game);
            // The incremental keys against keys hashed here.
            assert_eq!(game.key(), keys_from_tables(tables, &cells, to_move));
            let images: Vec<DualKey> = maps
                .iter()
                .map(|map| keys_from_tables(tables, &apply(map, &cells), to_move))
                .collect();
            let least = images.iter().map(|k| k.main).min().unwrap();
            let (canonical, g) = game.canonical();
            assert_eq!(canonical.main, least, "{w}x{h}: the least key");
            // The reported index names a symmetry whose image has the canonical main and
            // check keys (any of them when several reach the least key).
            assert_eq!(game.symmetries(), maps.len());
            let module_map = |g: usize| -> Vec<usize> {
                (0..geometry.cells())
                    .map(|cell| game.transform_cell(g, cell))
                    .collect()
            };
            let named = maps
                .iter()
                .position(|m| *m == module_map(g))
                .unwrap_or_else(|| panic!("{w}x{h}: transform {g} is no symmetry"));
            assert_eq!(images[named], canonical, "{w}x{h}: transform {g}");
            // The module's symmetries are exactly these, and its key under each is the key
            // of that image.
            let mut found = vec![false; maps.len()];
            for t in 0..game.symmetries() {
                let m = maps
                    .iter()
                    .position(|m| *m == module_map(t))
                    .unwrap_or_else(|| panic!("{w}x{h}: transform {t} is no symmetry"));
                assert!(!std::mem::replace(&mut found[m], true), "{w}x{h}: twice");
                assert_eq!(game.key_under(t), images[m].main, "{w}x{h}: transform {t}");
            }
            // The exact canonical code is the least code over the images built here.
            let least_code = maps
                .iter()
                .map(|map| {
                    GomokuCode::<32>::of(&board(geometry, &apply(map, &cells), to_move)).unwrap()
                })
                .min()
                .unwrap();
            assert_eq!(GomokuCode::<32>::canonical(&game), Some(least_code));
            positions += 1;
            ties += usize::from(images.iter().filter(|k| k.main == least).count() > 1);
        }
    }
    assert_eq!(positions, 5 * 51);
    assert!(
        ties >= 50,
        "symmetric positions reach the least key twice ({ties})"
    );
}
