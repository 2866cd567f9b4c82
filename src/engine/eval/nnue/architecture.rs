//! What a net is: its shape ([`Architecture`]: hidden size, activation, output buckets, king
//! mirroring), its quantisation scales, and how a position becomes its inputs.
//!
//! A perspective net: each side sees the board from its own side (768 inputs: own or enemy,
//! role, square mirrored vertically for Black; with king mirroring, also mirrored a-h while
//! that side's king is on files e-h), a shared feature transformer to `hidden` values per
//! side, an activation, and one output from both sides' activations, the side to move's
//! first, through the weights of the output bucket the number of pieces chooses.

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
/// The hidden size of every format 2 net, and the trainer's default.
pub const DEFAULT_HIDDEN: usize = 256;
/// Hidden sizes come in steps of this many values (the AVX2 kernels take 16 at a time).
pub const HIDDEN_STEP: usize = 16;
/// The largest hidden size a net may have: the SCReLU kernel's `i32` lanes hold
/// `HIDDEN / 16` pair sums of at most `2 x 32640 x 255` (see [`SCRELU_MAX_WEIGHT`]).
pub const MAX_HIDDEN: usize = 1024;
/// The most output buckets a net may have.
pub const MAX_BUCKETS: usize = 8;
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

/// The shape of a net: what a format 3 header records.
///
/// ```
/// use rookery::engine::eval::nnue::{Activation, Architecture};
/// let arch = Architecture { hidden: 512, activation: Activation::SCReLU, buckets: 8, king_mirror: true };
/// assert!(arch.check().is_ok());
/// assert_eq!(arch.to_string(), "768->512x2->1, screlu, 8 output buckets, king mirror");
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
}

impl Default for Architecture {
    /// The architecture of every format 2 net.
    fn default() -> Architecture {
        Architecture {
            hidden: DEFAULT_HIDDEN,
            activation: Activation::CReLU,
            buckets: 1,
            king_mirror: false,
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
        Ok(())
    }
}

impl Architecture {
    /// Every shape at `hidden` values that the engine runs differently: each activation,
    /// one or 8 output buckets, with and without king mirroring (8 shapes; for tests).
    ///
    /// ```
    /// use rookery::engine::eval::nnue::Architecture;
    /// let shapes = Architecture::every_kind(32);
    /// assert_eq!(shapes.len(), 8);
    /// assert!(shapes.iter().all(|arch| arch.hidden == 32 && arch.check().is_ok()));
    /// ```
    pub fn every_kind(hidden: usize) -> Vec<Architecture> {
        let mut all = Vec::new();
        for activation in [Activation::CReLU, Activation::SCReLU] {
            for buckets in [1, 8] {
                for king_mirror in [false, true] {
                    all.push(Architecture {
                        hidden,
                        activation,
                        buckets,
                        king_mirror,
                    });
                }
            }
        }
        all
    }

    /// Refuses a shape this engine does not run: a hidden size that is not a multiple of
    /// [`HIDDEN_STEP`] from 16 to [`MAX_HIDDEN`], or 0 or more than [`MAX_BUCKETS`] buckets.
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
        Ok(())
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

    /// Whether a perspective whose king stands on `king` sees the board mirrored a-h.
    #[inline(always)]
    pub fn mirrored(&self, king: Square) -> bool {
        self.king_mirror && king.file() >= File::E
    }
}

/// Runs `f` with `len`, a hidden size: a constant when it is the default hidden size, so
/// that the compiler unrolls `f`'s loops as for an array of that size (with the length
/// known only at run time, `bench` counted 60% more instructions in `do_move`); any other
/// size runs the same loops with a runtime length.
#[inline(always)]
pub(super) fn sized<R>(len: usize, f: impl FnOnce(usize) -> R) -> R {
    if len == DEFAULT_HIDDEN {
        f(DEFAULT_HIDDEN)
    } else {
        f(len)
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
