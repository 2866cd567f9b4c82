//! Training samples: records turned into the network's inputs, loaded from data files.
//!
//! Loading reads each file game by game, in either format (see
//! [`crate::learn::data::reader`]): a game file's games replayed into the records of their
//! training positions, a file of records split into its games. It keeps one of each set of
//! identical games (same FNV-1a 64 of the game's bytes), over all the files; a file named
//! twice (the same file, or another with the same content) refuses the data, and so does a
//! fault in any file, named with its byte offset.

use std::collections::{HashMap, HashSet};
use std::io;
use std::path::{Path, PathBuf};

use shakmaty::{Board, Color, Role, Square};

use super::loss;
use crate::engine::eval::nnue::{INPUTS, feature};
use crate::hashing::checksum::fnv1a;
use crate::learn::data::reader::{FileGame, data_files, read_games};
use crate::learn::data::record::{GameResult, Record};

/// Most pieces on a board.
pub const MAX_PIECES: usize = 32;

/// One position as the trainer sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// Input indices from the side to move's view; the first `count` are used.
    pub features: [u16; MAX_PIECES],
    /// Pieces on the board.
    pub count: u8,
    /// The search's score, centipawns for the side to move.
    pub score: i16,
    /// The game's result for the side to move: 0 loss, 1 draw, 2 win.
    pub result: u8,
}

/// The input index of the same piece seen from the other side.
///
/// ```
/// use rookery::learn::fit::dataset::other_side;
/// use rookery::engine::eval::nnue::feature;
/// use shakmaty::{Color, Piece, Role, Square};
/// let knight = Piece { color: Color::Black, role: Role::Knight };
/// let white_view = feature(Color::White, knight, Square::C6) as u16;
/// assert_eq!(other_side(white_view) as usize, feature(Color::Black, knight, Square::C6));
/// ```
#[inline(always)]
pub fn other_side(feature: u16) -> u16 {
    const HALF: u16 = (INPUTS / 2) as u16;
    let swapped = if feature < HALF {
        feature + HALF
    } else {
        feature - HALF
    };
    swapped ^ 56
}

impl Sample {
    /// The sample of a record.
    pub fn from_record(record: &Record) -> Sample {
        let mut features = [0u16; MAX_PIECES];
        let mut count = 0;
        for (square, piece) in &record.board {
            features[count] = feature(record.turn, piece, square) as u16;
            count += 1;
        }
        let result = match (record.result, record.turn) {
            (GameResult::Draw, _) => 1,
            (GameResult::WhiteWon, Color::White) | (GameResult::BlackWon, Color::Black) => 2,
            _ => 0,
        };
        Sample {
            features,
            count: count as u8,
            score: record.score,
            result,
        }
    }

    /// The same position with files mirrored (a to h). Without castling rights, which the
    /// net does not see, the mirror is worth the same: a second sample for free.
    pub fn files_mirrored(&self) -> Sample {
        let mut mirrored = *self;
        for f in &mut mirrored.features[..usize::from(self.count)] {
            *f ^= 7;
        }
        mirrored
    }

    /// The pieces as the side to move sees them, that side playing White: the position the
    /// sample's inputs describe, evaluated the same by the net (castling rights, the en
    /// passant square and the clocks are not inputs and are left out).
    ///
    /// ```
    /// use rookery::learn::data::record::{GameResult, Record};
    /// use rookery::learn::fit::dataset::Sample;
    /// use shakmaty::{Board, Color};
    /// // Black to move: Black's pieces become White's, seen from Black's side of the board.
    /// let record = Record {
    ///     board: "4k3/8/8/8/8/8/3p4/4K3".parse::<Board>().unwrap(),
    ///     turn: Color::Black,
    ///     score: 0,
    ///     result: GameResult::Draw,
    ///     halfmoves: 0,
    ///     fullmoves: 1,
    /// };
    /// let seen = Sample::from_record(&record).board();
    /// assert_eq!(seen.to_string(), "4k3/3P4/8/8/8/8/8/4K3");
    /// ```
    pub fn board(&self) -> Board {
        let mut board = Board::empty();
        for &index in self.ours() {
            let index = usize::from(index);
            let color = if index < INPUTS / 2 {
                Color::White
            } else {
                Color::Black
            };
            let role = Role::ALL[index / 64 % 6];
            board.set_piece_at(Square::new(index as u32 % 64), role.of(color));
        }
        board
    }

    /// The side to move's input indices.
    #[inline(always)]
    pub fn ours(&self) -> &[u16] {
        &self.features[..usize::from(self.count)]
    }

    /// The training target ([`loss::target`]): `wdl` parts game result, the rest the search
    /// score's expected result at `scale` centipawns per unit of the sigmoid.
    #[inline(always)]
    pub fn target(&self, wdl: f32, scale: f32) -> f32 {
        loss::target(self.score, self.result, wdl, scale)
    }
}

/// The sigmoid scale (centipawns per unit) at which the samples' search scores best
/// predict their games' results, by least squares over every `step`-th sample, searched in
/// steps of 5 cp from 50 to 1000; with the mean squared error there. What
/// [`crate::engine::eval::nnue::architecture::SCALE`] was chosen from.
pub fn fit_scale(samples: &[Sample], step: usize) -> (f32, f32) {
    let chosen: Vec<&Sample> = samples.iter().step_by(step.max(1)).collect();
    let error = |scale: f32| {
        let sum: f64 = chosen
            .iter()
            .map(|s| {
                let prediction = f32::from(s.score) / scale;
                f64::from(loss::loss(prediction, loss::result_target(s.result)))
            })
            .sum();
        (sum / chosen.len().max(1) as f64) as f32
    };
    (50..=1000)
        .step_by(5)
        .map(|k| (k as f32, error(k as f32)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .expect("scales to try")
}

/// Splits samples kept in game order into (validation, training): runs of `BLOCK`
/// consecutive samples go to validation with probability `share`, so a game's positions
/// (written together) land on one side, apart from the games cut at a block's edge.
pub fn split_by_blocks(samples: &[Sample], share: f64, seed: u64) -> (Vec<Sample>, Vec<Sample>) {
    use rand::{RngExt, SeedableRng};
    const BLOCK: usize = 1024;
    let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(seed);
    let (mut val, mut train) = (Vec::new(), Vec::new());
    for block in samples.chunks(BLOCK) {
        if rng.random_bool(share.clamp(0.0, 1.0)) {
            val.extend_from_slice(block);
        } else {
            train.extend_from_slice(block);
        }
    }
    (val, train)
}

/// What loading data found.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The samples of every distinct game, in file order.
    pub samples: Vec<Sample>,
    /// Files read.
    pub files: usize,
    /// Bytes at the ends of files of records that made no whole record (runs stopped
    /// mid-write).
    pub trailing_bytes: usize,
    /// Games read, repeats included.
    pub games: usize,
    /// Games kept: one of each set of identical games.
    pub distinct_games: usize,
    /// Positions of the repeated games left out.
    pub repeated_positions: usize,
}

impl Loaded {
    /// The share of the games read that were kept, 1 when there were none.
    pub fn distinct_share(&self) -> f64 {
        if self.games == 0 {
            1.0
        } else {
            self.distinct_games as f64 / self.games as f64
        }
    }
}

/// Loads the training positions of the files `paths` name (files of either format, or
/// directories of them; see [`data_files`]), one of each set of identical games. A fault in
/// a file refuses the data, and so does a file named twice: by the same path (after links),
/// or by another path to the same content.
pub fn load(paths: &[PathBuf]) -> io::Result<Loaded> {
    let mut loaded = Loaded::default();
    let mut seen_paths: HashMap<PathBuf, PathBuf> = HashMap::new();
    let mut seen_contents: HashMap<u64, PathBuf> = HashMap::new();
    let mut seen_games: HashSet<u64> = HashSet::new();
    let named_twice = |file: &Path, other: &Path, how: &str| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{} and {} are {how}: each file may be given once",
                other.display(),
                file.display()
            ),
        )
    };
    for path in paths {
        for file in data_files(path)? {
            let in_file =
                |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", file.display()));
            let canonical = file.canonicalize().map_err(in_file)?;
            if let Some(other) = seen_paths.get(&canonical) {
                return Err(named_twice(&file, other, "the same file"));
            }
            seen_paths.insert(canonical, file.clone());
            let bytes = crate::input_file::read(&file, u64::MAX, "a data file").map_err(in_file)?;
            if !bytes.is_empty() {
                let checksum = fnv1a(&bytes);
                if let Some(other) = seen_contents.get(&checksum) {
                    return Err(named_twice(&file, other, "the same data"));
                }
                seen_contents.insert(checksum, file.clone());
            }
            let read =
                read_games(&bytes, &mut |game| loaded.add(game, &mut seen_games)).map_err(|e| {
                    io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!("{}: {e}", file.display()),
                    )
                })?;
            loaded.files += 1;
            loaded.trailing_bytes += read.trailing_bytes;
        }
    }
    Ok(loaded)
}

impl Loaded {
    /// Counts a game, and takes its samples unless an identical game came before.
    fn add(&mut self, game: FileGame, seen_games: &mut HashSet<u64>) {
        self.games += 1;
        if !seen_games.insert(game.hash) {
            self.repeated_positions += game.records.len();
            return;
        }
        self.distinct_games += 1;
        self.samples
            .extend(game.records.iter().map(Sample::from_record));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Board, CastlingMode, Chess, Position, fen::Fen};

    fn record(fen: &str, result: GameResult) -> Record {
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        Record {
            board: pos.board().clone(),
            turn: pos.turn(),
            score: 50,
            result,
            halfmoves: 0,
            fullmoves: 1,
        }
    }

    #[test]
    fn results_are_turned_to_the_side_to_move() {
        let white = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
        let black = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1";
        for (fen, result, expected) in [
            (white, GameResult::WhiteWon, 2),
            (white, GameResult::BlackWon, 0),
            (black, GameResult::WhiteWon, 0),
            (black, GameResult::BlackWon, 2),
            (black, GameResult::Draw, 1),
        ] {
            assert_eq!(
                Sample::from_record(&record(fen, result)).result,
                expected,
                "{fen} {result:?}"
            );
        }
        // Black to move sees its own king as "own": the same inputs as White in the mirror.
        let mirrored =
            Sample::from_record(&record("4k3/4p3/8/8/8/8/8/4K3 w - - 0 1", GameResult::Draw));
        let mut a = Sample::from_record(&record(black, GameResult::Draw))
            .ours()
            .to_vec();
        let mut b = mirrored.ours().to_vec();
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b);
    }

    fn sample(score: i16, result: u8) -> Sample {
        Sample {
            features: [0; MAX_PIECES],
            count: 0,
            score,
            result,
        }
    }

    #[test]
    fn the_fitted_scale_is_the_one_the_results_follow() {
        // Results drawn so that a score s wins with probability sigmoid(s / 250).
        use rand::{RngExt, SeedableRng};
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(3);
        let samples: Vec<Sample> = (0..200_000)
            .map(|_| {
                let score = rng.random_range(-800i16..=800);
                let won = rng.random_bool(f64::from(loss::sigmoid(f32::from(score) / 250.0)));
                sample(score, if won { 2 } else { 0 })
            })
            .collect();
        let (scale, error) = fit_scale(&samples, 1);
        assert!((235.0..=265.0).contains(&scale), "fitted {scale}");
        // A calibrated forecast of coin flips errs by less than a constant one half.
        assert!(error < 0.25, "{error}");
    }

    #[test]
    fn blocks_keep_neighbours_together() {
        let samples: Vec<Sample> = (0..29 * 1024).map(|i| sample(i as i16, 1)).collect();
        let (val, train) = split_by_blocks(&samples, 0.5, 7);
        assert_eq!(val.len() + train.len(), samples.len());
        let blocks = val.len() / 1024;
        assert!((5..=24).contains(&blocks), "{blocks} of 29 blocks");
        // Whole runs of 1024 consecutive samples went to validation.
        assert_eq!(val.len() % 1024, 0);
        for block in val.chunks(1024) {
            assert_eq!(block[0].score % 1024, 0);
            assert!(block.windows(2).all(|w| w[1].score == w[0].score + 1));
        }
        assert_eq!(split_by_blocks(&samples, 0.5, 7).0, val);
    }

    #[test]
    fn files_mirrored_is_the_mirrored_board() {
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b - - 0 1";
        let original = record(fen, GameResult::Draw);
        let mut board: Board = original.board.clone();
        board.flip_horizontal();
        let flipped = Record {
            board,
            ..original.clone()
        };
        let mut a = Sample::from_record(&original)
            .files_mirrored()
            .ours()
            .to_vec();
        let mut b = Sample::from_record(&flipped).ours().to_vec();
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b);
        assert_ne!(a, {
            let mut c = Sample::from_record(&original).ours().to_vec();
            c.sort_unstable();
            c
        });
    }
}
