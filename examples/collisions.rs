//! Empirical key collisions among distinct random positions of gomoku or Hive.
//!
//! ```sh
//! cargo run --release --example collisions -- hive 10000000
//! cargo run --release --example collisions -- gomoku 10000000
//! ```
//!
//! Positions come from seeded random games (every position along each game). Each is kept
//! as a 128-bit fingerprint of an exact encoding (Hive: the compact key; gomoku: two bits per
//! cell and the side to move) with its main and check keys, 32 bytes a position. Sorting
//! by fingerprint and dropping repeats leaves distinct positions; sorting those by key then
//! counts, for each key, the positions beyond the first that share it. Distinct positions
//! with equal fingerprints would be merged, not counted as collisions: for 10^7 positions
//! the chance of one is about 10^-25. The 32-bit prefix of the main key (the part a table's
//! bucket index reads) is counted too: it should collide about n^2 / 2^33 times, which shows
//! that the counting works.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::time::Instant;

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use rookery::gomoku::{Geometry, Gomoku, Stone};
use rookery::hive::{Expansions, Hive, compact};

/// One visited position.
#[derive(Clone, Copy)]
struct Sample {
    fingerprint: [u64; 2],
    main: u64,
    check: u64,
}

fn fingerprint(exact: &[u64]) -> [u64; 2] {
    [1u8, 2].map(|salt| {
        let mut h = DefaultHasher::new();
        salt.hash(&mut h);
        exact.hash(&mut h);
        h.finish()
    })
}

/// Adds the positions of random Hive games (`Base+MLP`, up to 120 plies each).
fn hive_samples(count: usize, rng: &mut ChaCha8Rng, out: &mut Vec<Sample>) {
    let mut moves = Vec::new();
    let target = out.len() + count;
    while out.len() < target {
        let mut hive = Hive::uhp(Expansions::ALL);
        for _ in 0..rng.random_range(1..=120) {
            hive.sensible_moves(&mut moves);
            hive.play(moves[rng.random_range(0..moves.len())]).unwrap();
            let exact = compact::encode(&hive).expect("sensible positions stay together");
            let key = hive.key();
            out.push(Sample {
                fingerprint: fingerprint(exact.words()),
                main: key.main.0,
                check: key.check.0,
            });
        }
    }
}

/// Adds the positions of random gomoku games on 15x15 (up to 150 stones each).
fn gomoku_samples(count: usize, rng: &mut ChaCha8Rng, out: &mut Vec<Sample>) {
    let geometry = Geometry::new(15, 15).unwrap();
    let target = out.len() + count;
    while out.len() < target {
        let mut game = Gomoku::new(geometry);
        let mut exact = [0u64; 8];
        for _ in 0..rng.random_range(1..=150) {
            let cell = loop {
                let cell = rng.random_range(0..geometry.cells());
                if game.stone(cell).is_none() {
                    break cell;
                }
            };
            let colour = game.to_move();
            game.place(cell).unwrap();
            let bit = 2 * cell + usize::from(colour == Stone::White);
            exact[bit / 64] |= 1 << (bit % 64);
            exact[7] ^= 1 << 63; // the side to move (bit 450 and above are unused)
            let key = game.key();
            out.push(Sample {
                fingerprint: fingerprint(&exact),
                main: key.main.0,
                check: key.check.0,
            });
        }
    }
}

/// Positions beyond the first sharing a key, over `samples` sorted by that key.
fn collisions<K: Ord>(samples: &mut [Sample], key: impl Fn(&Sample) -> K) -> u64 {
    samples.sort_unstable_by_key(&key);
    samples
        .windows(2)
        .filter(|w| key(&w[0]) == key(&w[1]))
        .count() as u64
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (game, wanted) = match &args[..] {
        [game, n] if game == "hive" || game == "gomoku" => (
            game.as_str(),
            n.parse::<usize>().expect("a number of positions"),
        ),
        _ => {
            eprintln!("usage: collisions hive|gomoku POSITIONS");
            std::process::exit(2);
        }
    };
    let start = Instant::now();
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    let mut samples: Vec<Sample> = Vec::new();
    let mut generated = 0;
    loop {
        let more = (wanted - samples.len()) * 11 / 10 + 1000;
        generated += more;
        match game {
            "hive" => hive_samples(more, &mut rng, &mut samples),
            _ => gomoku_samples(more, &mut rng, &mut samples),
        }
        samples.sort_unstable_by_key(|s| s.fingerprint);
        samples.dedup_by_key(|s| s.fingerprint);
        if samples.len() >= wanted {
            break;
        }
    }
    let generation = start.elapsed();
    let n = samples.len() as f64;
    let expected = |bits: i32| n * n / 2f64.powi(bits + 1);
    let main = collisions(&mut samples, |s| s.main);
    let check = collisions(&mut samples, |s| s.check);
    let both = collisions(&mut samples, |s| (s.main, s.check));
    let prefix = collisions(&mut samples, |s| s.main >> 32);
    println!("game: {game}");
    println!("positions: {generated} visited, {} distinct", samples.len());
    println!(
        "main key (64 bits): {main} colliding (expected {:.2e})",
        expected(64)
    );
    println!(
        "check key (64 bits): {check} colliding (expected {:.2e})",
        expected(64)
    );
    println!(
        "main and check (128 bits): {both} colliding (expected {:.2e})",
        expected(128)
    );
    println!(
        "main key, top 32 bits: {prefix} colliding (expected {:.0})",
        expected(32)
    );
    println!(
        "time: {:.1} s generating, {:.1} s in all, {} MiB of samples",
        generation.as_secs_f64(),
        start.elapsed().as_secs_f64(),
        (samples.capacity() * std::mem::size_of::<Sample>()) >> 20
    );
}
