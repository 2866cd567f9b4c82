//! What a net is: its shape ([`Architecture`]: hidden size, activation, output buckets, king
//! mirroring, king buckets), its quantisation scales, and how a position becomes its inputs.
//!
//! A perspective net: each side sees the board from its own side (768 inputs: own or enemy,
//! role, square mirrored vertically for Black; with king mirroring, also mirrored a-h while
//! that side's king is on files e-h), a shared feature transformer to `hidden` values per
//! side, an activation, and one output from both sides' activations, the side to move's
//! first, through the weights of the output bucket the number of pieces chooses.
//!
//! With king buckets, the feature transformer has a block of 768 rows per bucket, and each
//! side reads the block of the bucket its own king stands in ([`KING_BUCKETS_4`],
//! [`KING_BUCKETS_8`]): input `bucket x 768 + feature`. How a side sees the board, mirrored
//! or not and through which bucket, is its [`InputView`].

use std::fmt;
use std::str::FromStr;

use shakmaty::{Color, File, Piece, Square};

/// Inputs per perspective: 2 colours (own, enemy) x 6 roles x 64 squares.
pub const INPUTS: usize = 768;
/// Scale of feature weights and biases; the activation clips to `0..=QA`.
pub const QA: i32 = 255;
/// Centipawns per unit of the network's output, the trainer's sigmoid scale: the scale at
/// which the hand-written evaluation's search scores best predict self-play results (see
/// `learn::fit::dataset::fit_scale`), so that the net's centipawns are the search's centipawns.
pub const SCALE: i32 = 185;
/// The centipawns per output unit a net file may give: [`SCALE`] as the trainer writes it,
/// another for a net whose scores were scaled to the search's
/// ([`calibration`](super::calibration)).
pub const SCALE_RANGE: std::ops::RangeInclusive<i32> = 16..=1024;
/// The hidden size of every format 2 net, and the trainer's default.
pub const DEFAULT_HIDDEN: usize = 256;
/// The hidden size of the built-in net: with [`DEFAULT_HIDDEN`], the size the accumulator's
/// updates and the output layer are compiled for with the length known.
pub const BUILT_IN_HIDDEN: usize = 384;
/// Hidden sizes come in steps of this many values (the AVX2 kernels take 16 at a time).
pub const HIDDEN_STEP: usize = 16;
/// The largest hidden size a net may have: the SCReLU kernel's `i32` lanes hold
/// `HIDDEN / 16` pair sums of at most `2 x 32640 x 255` (see [`SCRELU_MAX_WEIGHT`]).
pub const MAX_HIDDEN: usize = 1024;
/// The most output buckets a net may have.
pub const MAX_BUCKETS: usize = 8;
/// The king-bucket counts a net may have: one (no king buckets) or one of the layouts below.
pub const KING_BUCKET_COUNTS: [usize; 3] = [1, 4, 8];

/// The 4-bucket layout: the bucket of a perspective's king, indexed by `rank x 4 + file`,
/// the rank counted from that side's own back rank (0 = its rank 1) and the file after the
/// a-h mirror (0 = a to 3 = d). The back rank is split between the corner (a-b) and the
/// centre (c-d); rank 2 is one bucket, ranks 3-8 another.
///
/// | ranks | a | b | c | d |
/// | --- | --- | --- | --- | --- |
/// | 3-8 | 3 | 3 | 3 | 3 |
/// | 2 | 2 | 2 | 2 | 2 |
/// | 1 | 0 | 0 | 1 | 1 |
pub const KING_BUCKETS_4: [u8; 32] = [
    0, 0, 1, 1, // rank 1
    2, 2, 2, 2, // rank 2
    3, 3, 3, 3, // rank 3
    3, 3, 3, 3, // rank 4
    3, 3, 3, 3, // rank 5
    3, 3, 3, 3, // rank 6
    3, 3, 3, 3, // rank 7
    3, 3, 3, 3, // rank 8
];

/// The 8-bucket layout, indexed as [`KING_BUCKETS_4`]: each back-rank square a bucket of its
/// own, rank 2 split into a-b and c-d, rank 3 one bucket, ranks 4-8 one.
///
/// | ranks | a | b | c | d |
/// | --- | --- | --- | --- | --- |
/// | 4-8 | 7 | 7 | 7 | 7 |
/// | 3 | 6 | 6 | 6 | 6 |
/// | 2 | 4 | 4 | 5 | 5 |
/// | 1 | 0 | 1 | 2 | 3 |
pub const KING_BUCKETS_8: [u8; 32] = [
    0, 1, 2, 3, // rank 1
    4, 4, 5, 5, // rank 2
    6, 6, 6, 6, // rank 3
    7, 7, 7, 7, // rank 4
    7, 7, 7, 7, // rank 5
    7, 7, 7, 7, // rank 6
    7, 7, 7, 7, // rank 7
    7, 7, 7, 7, // rank 8
];
/// The largest quantised output weight a SCReLU net may have: the kernel multiplies
/// `clamp(x, 0, QA) x w` in `i16`, and `QA x 128 = 32640` fits. The trainer clips its output
/// weights to +/-1.98 so that they quantise (x64) within it, and loading refuses a file
/// with a larger one.
pub const SCRELU_MAX_WEIGHT: i16 = (i16::MAX as i32 / QA) as i16;

/// The activation between the feature transformer and the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Activation {
    /// Clipped ReLU: `clamp(x, 0, 1)`.
    CReLU,
    /// Squared clipped ReLU: `clamp(x, 0, 1)^2`.
    SCReLU,
}

impl Activation {
    /// Its code in a format 3 header.
    pub fn code(self) -> u32 {
        match self {
            Activation::CReLU => 0,
            Activation::SCReLU => 1,
        }
    }

    /// The activation of a header code.
    pub fn from_code(code: u32) -> Option<Activation> {
        match code {
            0 => Some(Activation::CReLU),
            1 => Some(Activation::SCReLU),
            _ => None,
        }
    }

    /// The scale of the output weights. CReLU keeps them x4096, so rounding costs well
    /// under a centipawn (at 64, format 1, it cost 23 cp RMS). SCReLU's kernel needs
    /// `QA x w` within `i16` (`|w| <= 128`): x64, with the trainer's output weights clipped
    /// below 2. (x128 with a clip below 1 halved the rounding error of a trained test net,
    /// 1.4 cp against 2.8 on average, but the clip bound: trained output weights reach 1.4.)
    pub const fn qb(self) -> i32 {
        match self {
            Activation::CReLU => 4096,
            Activation::SCReLU => 64,
        }
    }

    /// Its name on the command line and in messages: `crelu` or `screlu`.
    pub fn name(self) -> &'static str {
        match self {
            Activation::CReLU => "crelu",
            Activation::SCReLU => "screlu",
        }
    }
}

impl FromStr for Activation {
    type Err = String;

    fn from_str(text: &str) -> Result<Activation, String> {
        match text.to_ascii_lowercase().as_str() {
            "crelu" => Ok(Activation::CReLU),
            "screlu" => Ok(Activation::SCReLU),
            _ => Err(format!("unknown activation '{text}' (crelu or screlu)")),
        }
    }
}

/// The shape of a net: what a format 4 header records.
///
/// ```
/// use rookery::engine::eval::nnue::{Activation, Architecture};
/// let arch = Architecture {
///     hidden: 512,
///     activation: Activation::SCReLU,
///     buckets: 8,
///     king_mirror: true,
///     king_buckets: 1,
/// };
/// assert!(arch.check().is_ok());
/// assert_eq!(arch.to_string(), "768->512x2->1, screlu, 8 output buckets, king mirror");
/// let bucketed = Architecture { king_buckets: 4, ..arch };
/// assert_eq!(
///     bucketed.to_string(),
///     "768->512x2->1, screlu, 8 output buckets, king mirror, 4 king buckets"
/// );
/// assert_eq!(Architecture::default().to_string(), "768->256x2->1, crelu");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Architecture {
    /// Values per perspective after the feature transformer.
    pub hidden: usize,
    /// The activation.
    pub activation: Activation,
    /// Output buckets, chosen by the number of pieces (see [`Architecture::bucket`]).
    pub buckets: usize,
    /// Each perspective is mirrored a-h while its king is on files e-h.
    pub king_mirror: bool,
    /// Blocks of 768 feature rows, one per bucket of the perspective's king square (1: no
    /// king buckets; 4 or 8: [`KING_BUCKETS_4`], [`KING_BUCKETS_8`], whose layouts give a
    /// square and its a-h mirror the same bucket, so they need no king mirroring).
    pub king_buckets: usize,
}

impl Default for Architecture {
    /// The architecture of every format 2 net.
    fn default() -> Architecture {
        Architecture {
            hidden: DEFAULT_HIDDEN,
            activation: Activation::CReLU,
            buckets: 1,
            king_mirror: false,
            king_buckets: 1,
        }
    }
}

impl fmt::Display for Architecture {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{INPUTS}->{}x2->1, {}",
            self.hidden,
            self.activation.name()
        )?;
        if self.buckets > 1 {
            write!(f, ", {} output buckets", self.buckets)?;
        }
        if self.king_mirror {
            f.write_str(", king mirror")?;
        }
        if self.king_buckets > 1 {
            write!(f, ", {} king buckets", self.king_buckets)?;
        }
        Ok(())
    }
}

impl Architecture {
    /// Every shape at `hidden` values that the engine runs differently: each activation,
    /// one or 8 output buckets, and for each king-bucket count, with king mirroring and
    /// without (24 shapes; for tests).
    ///
    /// ```
    /// use rookery::engine::eval::nnue::Architecture;
    /// let shapes = Architecture::every_kind(32);
    /// assert_eq!(shapes.len(), 24);
    /// assert!(shapes.iter().all(|arch| arch.hidden == 32 && arch.check().is_ok()));
    /// assert_eq!(shapes.iter().filter(|arch| arch.king_buckets == 8).count(), 8);
    /// ```
    pub fn every_kind(hidden: usize) -> Vec<Architecture> {
        let mut all = Vec::new();
        for activation in [Activation::CReLU, Activation::SCReLU] {
            for buckets in [1, 8] {
                for king_buckets in KING_BUCKET_COUNTS {
                    for king_mirror in [false, true] {
                        all.push(Architecture {
                            hidden,
                            activation,
                            buckets,
                            king_mirror,
                            king_buckets,
                        });
                    }
                }
            }
        }
        all
    }

    /// Refuses a shape this engine does not run: a hidden size that is not a multiple of
    /// [`HIDDEN_STEP`] from 16 to [`MAX_HIDDEN`], 0 or more than [`MAX_BUCKETS`] buckets, or
    /// a king-bucket count without a layout ([`KING_BUCKET_COUNTS`]).
    ///
    /// ```
    /// use rookery::engine::eval::nnue::Architecture;
    /// let arch = Architecture { king_buckets: 4, ..Architecture::default() };
    /// assert!(arch.check().is_ok());
    /// assert!(Architecture { king_mirror: true, ..arch }.check().is_ok());
    /// let odd = Architecture { king_mirror: true, king_buckets: 3, ..Architecture::default() };
    /// assert_eq!(odd.check().unwrap_err(), "3 king buckets: 1, 4 or 8");
    /// ```
    pub fn check(&self) -> Result<(), String> {
        if !(HIDDEN_STEP..=MAX_HIDDEN).contains(&self.hidden)
            || !self.hidden.is_multiple_of(HIDDEN_STEP)
        {
            return Err(format!(
                "hidden size {}: a multiple of {HIDDEN_STEP} from {HIDDEN_STEP} to {MAX_HIDDEN}",
                self.hidden
            ));
        }
        if !(1..=MAX_BUCKETS).contains(&self.buckets) {
            return Err(format!(
                "{} output buckets: 1 to {MAX_BUCKETS}",
                self.buckets
            ));
        }
        if !KING_BUCKET_COUNTS.contains(&self.king_buckets) {
            return Err(format!("{} king buckets: 1, 4 or 8", self.king_buckets));
        }
        Ok(())
    }

    /// Feature transformer rows: 768 per king bucket.
    ///
    /// ```
    /// use rookery::engine::eval::nnue::Architecture;
    /// assert_eq!(Architecture::default().inputs(), 768);
    /// let arch = Architecture { king_mirror: true, king_buckets: 8, ..Architecture::default() };
    /// assert_eq!(arch.inputs(), 8 * 768);
    /// ```
    #[inline(always)]
    pub fn inputs(&self) -> usize {
        self.king_buckets * INPUTS
    }

    /// The king-bucket layout ([`KING_BUCKETS_4`], [`KING_BUCKETS_8`]); `None` for one
    /// bucket (or a count [`Architecture::check`] refuses).
    pub fn king_bucket_layout(&self) -> Option<&'static [u8; 32]> {
        match self.king_buckets {
            4 => Some(&KING_BUCKETS_4),
            8 => Some(&KING_BUCKETS_8),
            _ => None,
        }
    }

    /// How `perspective` sees the board while its king stands on `king` (a square of the
    /// board, not yet flipped for Black): mirrored a-h under king mirroring while the king
    /// is on files e-h, and the king bucket of the king's square seen from that side
    /// (flipped vertically for Black, then mirrored).
    ///
    /// ```
    /// use rookery::engine::eval::nnue::{Architecture, InputView};
    /// use shakmaty::{Color, Square};
    /// let arch = Architecture { king_mirror: true, king_buckets: 8, ..Architecture::default() };
    /// // White's king on g1 is seen as on b1; Black's on g8 too.
    /// let b1 = InputView { mirrored: true, bucket: 1 };
    /// assert_eq!(arch.view(Color::White, Square::G1), b1);
    /// assert_eq!(arch.view(Color::Black, Square::G8), b1);
    /// // Ranks count from each side's own back rank.
    /// assert_eq!(arch.view(Color::White, Square::C3).bucket, 6);
    /// assert_eq!(arch.view(Color::Black, Square::C6).bucket, 6);
    /// assert_eq!(arch.view(Color::Black, Square::C3).bucket, 7);
    /// let four = Architecture { king_buckets: 4, ..arch };
    /// assert_eq!(four.view(Color::White, Square::E1), InputView { mirrored: true, bucket: 1 });
    /// assert_eq!(four.view(Color::White, Square::H2), InputView { mirrored: true, bucket: 2 });
    /// // King buckets without king mirroring: the same bucket, the board as it is.
    /// let unmirrored = Architecture { king_mirror: false, ..four };
    /// assert_eq!(unmirrored.view(Color::White, Square::E1), InputView { mirrored: false, bucket: 1 });
    /// // Without king buckets, bucket 0; without king mirroring, never mirrored.
    /// let mirror = Architecture { king_buckets: 1, ..arch };
    /// assert_eq!(mirror.view(Color::White, Square::E4), InputView { mirrored: true, bucket: 0 });
    /// assert_eq!(Architecture::default().view(Color::White, Square::H8), InputView::PLAIN);
    /// ```
    #[inline(always)]
    pub fn view(&self, perspective: Color, king: Square) -> InputView {
        let mirrored = self.mirrored(king);
        let bucket = match self.king_bucket_layout() {
            None => 0,
            Some(layout) => {
                let own = if perspective.is_white() {
                    king
                } else {
                    king.flip_vertical()
                };
                let file = own.file() as usize;
                let file = if file >= 4 { 7 - file } else { file };
                usize::from(layout[own.rank() as usize * 4 + file])
            }
        };
        InputView { mirrored, bucket }
    }

    /// The output bucket of a position with `pieces` pieces (kings included):
    /// `(pieces - 2) x buckets / 32`, so with 8 buckets `(pieces - 2) / 4`.
    ///
    /// ```
    /// use rookery::engine::eval::nnue::Architecture;
    /// let arch = Architecture { buckets: 8, ..Architecture::default() };
    /// assert_eq!(arch.bucket(2), 0);
    /// assert_eq!(arch.bucket(5), 0);
    /// assert_eq!(arch.bucket(6), 1);
    /// assert_eq!(arch.bucket(32), 7);
    /// assert_eq!(Architecture::default().bucket(32), 0);
    /// ```
    #[inline(always)]
    pub fn bucket(&self, pieces: usize) -> usize {
        (pieces.saturating_sub(2) * self.buckets / 32).min(self.buckets - 1)
    }

    /// The oldest net file format that holds a net of this shape: 3 with one king bucket,
    /// 4 with more.
    ///
    /// ```
    /// use rookery::engine::eval::nnue::Architecture;
    /// assert_eq!(Architecture::default().oldest_format(), 3);
    /// ```
    pub fn oldest_format(&self) -> u32 {
        if self.king_buckets > 1 { 4 } else { 3 }
    }

    /// Whether how a perspective sees the board depends on its king's square: under king
    /// mirroring or king buckets. Without either every view is [`InputView::PLAIN`].
    ///
    /// ```
    /// use rookery::engine::eval::nnue::Architecture;
    /// assert!(!Architecture::default().viewed());
    /// assert!(Architecture { king_buckets: 4, ..Architecture::default() }.viewed());
    /// assert!(Architecture { king_mirror: true, ..Architecture::default() }.viewed());
    /// ```
    #[inline(always)]
    pub fn viewed(&self) -> bool {
        self.king_mirror || self.king_buckets > 1
    }

    /// Whether a perspective whose king stands on `king` sees the board mirrored a-h.
    #[inline(always)]
    pub fn mirrored(&self, king: Square) -> bool {
        self.king_mirror && king.file() >= File::E
    }
}

/// How one perspective sees the board, which its king's square decides: mirrored a-h or
/// not, and the king bucket whose block of feature rows it reads. A king move that changes
/// it changes every input of that perspective.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct InputView {
    /// The board is mirrored a-h (the king is on files e-h under king mirroring).
    pub mirrored: bool,
    /// The king bucket: the block of 768 feature rows read.
    pub bucket: usize,
}

impl InputView {
    /// The view of every perspective of a net without king mirroring.
    pub const PLAIN: InputView = InputView {
        mirrored: false,
        bucket: 0,
    };

    /// The feature transformer row of the input `feature` (as [`feature`] gives it) in
    /// this view: its bucket's block, the square mirrored a-h when the view is mirrored.
    ///
    /// ```
    /// use rookery::engine::eval::nnue::{InputView, feature};
    /// use shakmaty::{Color, Piece, Role, Square};
    /// let rook = Piece { color: Color::White, role: Role::Rook };
    /// let view = InputView { mirrored: true, bucket: 2 };
    /// assert_eq!(
    ///     view.input(feature(Color::White, rook, Square::B3)),
    ///     2 * 768 + feature(Color::White, rook, Square::G3)
    /// );
    /// ```
    #[inline(always)]
    pub fn input(self, feature: usize) -> usize {
        self.bucket * INPUTS + (feature ^ if self.mirrored { 7 } else { 0 })
    }
}

/// Runs `f` with `len`, a hidden size: a constant when it is the default hidden size or the
/// built-in net's, so that the compiler unrolls `f`'s loops as for an array of that size
/// (with the length known only at run time, `bench` counted 60% more instructions in
/// `do_move`); any other size runs the same loops with a runtime length.
#[inline(always)]
pub(super) fn sized<R>(len: usize, f: impl FnOnce(usize) -> R) -> R {
    match len {
        DEFAULT_HIDDEN => f(DEFAULT_HIDDEN),
        BUILT_IN_HIDDEN => f(BUILT_IN_HIDDEN),
        _ => f(len),
    }
}

/// The input index of `piece` on `square` seen from `perspective`'s side (unmirrored).
///
/// ```
/// use rookery::engine::eval::nnue::feature;
/// use shakmaty::{Color, Piece, Role, Square};
/// let white_pawn = Piece { color: Color::White, role: Role::Pawn };
/// let black_pawn = Piece { color: Color::Black, role: Role::Pawn };
/// // A white pawn on e2 seen by White is a black pawn on e7 seen by Black.
/// assert_eq!(
///     feature(Color::White, white_pawn, Square::E2),
///     feature(Color::Black, black_pawn, Square::E7)
/// );
/// ```
#[inline(always)]
pub fn feature(perspective: Color, piece: Piece, square: Square) -> usize {
    let (enemy, square) = if perspective.is_white() {
        (piece.color.is_black(), square)
    } else {
        (piece.color.is_white(), square.flip_vertical())
    };
    (usize::from(enemy) * 6 + (piece.role as usize - 1)) * 64 + square as usize
}

/// [`feature`], mirrored a-h when `mirrored` (the square's low three bits are its file).
///
/// ```
/// use rookery::engine::eval::nnue::{feature, mirrored_feature};
/// use shakmaty::{Color, Piece, Role, Square};
/// let rook = Piece { color: Color::White, role: Role::Rook };
/// assert_eq!(
///     mirrored_feature(Color::White, rook, Square::B3, true),
///     feature(Color::White, rook, Square::G3)
/// );
/// ```
#[inline(always)]
pub fn mirrored_feature(perspective: Color, piece: Piece, square: Square, mirrored: bool) -> usize {
    feature(perspective, piece, square) ^ if mirrored { 7 } else { 0 }
}
