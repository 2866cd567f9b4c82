//! The network's architecture, its quantised weights and its file format.
//!
//! A perspective net: each side sees the board from its own side (768 inputs: own or enemy,
//! role, square mirrored vertically for Black), a shared feature transformer to
//! [`HIDDEN`] values per side, a clipped ReLU, and one output from both sides'
//! activations, the side to move's first.
//!
//! # File format (all little-endian)
//!
//! | bytes | field |
//! | --- | --- |
//! | 0..4 | magic `RKNN` |
//! | 4..8 | format version, [`FORMAT_VERSION`] |
//! | 8..12 | inputs, [`INPUTS`] |
//! | 12..16 | hidden size, [`HIDDEN`] |
//! | 16..20 | `QA`, activation scale, [`QA`] |
//! | 20..24 | `QB`, output weight scale, [`QB`] |
//! | 24..28 | centipawns per output unit, [`SCALE`] |
//! | then | feature weights `i16`, `INPUTS x HIDDEN`, feature-major |
//! | then | feature biases `i16`, `HIDDEN` |
//! | then | output weights `i16`, `2 x HIDDEN`: side to move's, then the other side's |
//! | then | output bias `i32` |
//! | last 8 | FNV-1a 64 checksum of every byte before it |
//!
//! Feature weights and biases are scaled by `QA`, output weights by `QB`, the output bias by
//! `QA x QB`. A file whose header names another architecture is refused.

use std::fmt;

use shakmaty::{Color, Piece, Square};

use crate::engine::score::MAX_EVAL;
use crate::hashing::checksum::fnv1a;

/// Inputs per perspective: 2 colours (own, enemy) x 6 roles x 64 squares.
pub const INPUTS: usize = 768;
/// Values per perspective after the feature transformer.
pub const HIDDEN: usize = 256;
/// Scale of feature weights and biases; the clipped ReLU clips to `0..=QA`.
pub const QA: i32 = 255;
/// Scale of output weights. Trained output weights are small (a median near 0.1): at this
/// scale rounding them costs well under a centipawn (at 64, format 1, it cost 23 cp RMS).
pub const QB: i32 = 4096;
/// Centipawns per unit of the network's output, the trainer's sigmoid scale: the scale at
/// which the hand-written evaluation's search scores best predict self-play results (see
/// `learn::dataset::fit_scale`), so that the net's centipawns are the search's centipawns.
pub const SCALE: i32 = 185;
/// The file format version (2: `QB` 4096 and `SCALE` 185; 1 had 64 and 400).
pub const FORMAT_VERSION: u32 = 2;
/// The magic bytes a net file starts with.
pub const MAGIC: [u8; 4] = *b"RKNN";
/// Bytes of the header.
pub const HEADER_BYTES: usize = 28;
/// Bytes of a whole net file.
pub const FILE_BYTES: usize = HEADER_BYTES + 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) + 4 + 8;

/// The input index of `piece` on `square` seen from `perspective`'s side.
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

/// Quantised weights of a network, ready for integer inference.
#[derive(Clone)]
pub struct Network {
    /// Feature transformer weights, one row of [`HIDDEN`] per input.
    pub feature_weights: Box<[[i16; HIDDEN]; INPUTS]>,
    /// Feature transformer biases.
    pub feature_bias: Box<[i16; HIDDEN]>,
    /// Output weights: the side to move's activations, then the other side's.
    pub output_weights: Box<[[i16; HIDDEN]; 2]>,
    /// Output bias.
    pub output_bias: i32,
    /// The output kernel, chosen once when the net is made.
    kernel: Kernel,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Network({:016x})", self.checksum())
    }
}

/// Why bytes are not a net this engine can use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// The file is not as long as a net of this architecture.
    Length {
        /// Bytes found.
        found: usize,
        /// Bytes a net of this architecture has.
        expected: usize,
    },
    /// The file does not start with [`MAGIC`].
    Magic,
    /// Another file format version.
    Version(u32),
    /// Another architecture: the header's (inputs, hidden, QA, QB, scale).
    Architecture([u32; 5]),
    /// The checksum does not match the contents.
    Checksum,
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Length { found, expected } => {
                write!(f, "{found} bytes, a net has {expected}")
            }
            NetError::Magic => f.write_str("not a Rookery net (bad magic)"),
            NetError::Version(v) => write!(f, "format version {v}, expected {FORMAT_VERSION}"),
            NetError::Architecture([i, h, qa, qb, s]) => write!(
                f,
                "architecture {i}->{h} (QA {qa}, QB {qb}, scale {s}), this engine runs \
                 {INPUTS}->{HIDDEN} (QA {QA}, QB {QB}, scale {SCALE})"
            ),
            NetError::Checksum => f.write_str("checksum mismatch (a damaged file)"),
        }
    }
}

impl std::error::Error for NetError {}

fn header() -> [u8; HEADER_BYTES] {
    let mut bytes = [0u8; HEADER_BYTES];
    bytes[0..4].copy_from_slice(&MAGIC);
    let fields = [
        FORMAT_VERSION,
        INPUTS as u32,
        HIDDEN as u32,
        QA as u32,
        QB as u32,
        SCALE as u32,
    ];
    for (i, field) in fields.iter().enumerate() {
        bytes[4 + 4 * i..8 + 4 * i].copy_from_slice(&field.to_le_bytes());
    }
    bytes
}

impl Network {
    /// A network of zeros (evaluates every position as 0).
    pub fn zeroed() -> Network {
        Network {
            feature_weights: vec![[0; HIDDEN]; INPUTS]
                .into_boxed_slice()
                .try_into()
                .expect("INPUTS rows"),
            feature_bias: Box::new([0; HIDDEN]),
            output_weights: Box::new([[0; HIDDEN]; 2]),
            output_bias: 0,
            kernel: Kernel::best(),
        }
    }

    /// The net file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(FILE_BYTES);
        bytes.extend_from_slice(&header());
        let values = self
            .feature_weights
            .iter()
            .flatten()
            .chain(self.feature_bias.iter())
            .chain(self.output_weights.iter().flatten());
        for v in values {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        bytes.extend_from_slice(&self.output_bias.to_le_bytes());
        let checksum = fnv1a(&bytes);
        bytes.extend_from_slice(&checksum.to_le_bytes());
        bytes
    }

    /// Reads a net file, refusing anything that is not a whole net of this architecture.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() >= 4 && bytes[0..4] != MAGIC {
            return Err(NetError::Magic);
        }
        if bytes.len() >= HEADER_BYTES {
            let field = |i: usize| {
                u32::from_le_bytes(bytes[4 + 4 * i..8 + 4 * i].try_into().expect("4 bytes"))
            };
            if field(0) != FORMAT_VERSION {
                return Err(NetError::Version(field(0)));
            }
            if bytes[0..HEADER_BYTES] != header() {
                return Err(NetError::Architecture([
                    field(1),
                    field(2),
                    field(3),
                    field(4),
                    field(5),
                ]));
            }
        }
        if bytes.len() != FILE_BYTES {
            return Err(NetError::Length {
                found: bytes.len(),
                expected: FILE_BYTES,
            });
        }
        let (body, tail) = bytes.split_at(FILE_BYTES - 8);
        if fnv1a(body) != u64::from_le_bytes(tail.try_into().expect("8 bytes")) {
            return Err(NetError::Checksum);
        }
        let mut values = body[HEADER_BYTES..]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut net = Network::zeroed();
        for v in net
            .feature_weights
            .iter_mut()
            .flatten()
            .chain(net.feature_bias.iter_mut())
            .chain(net.output_weights.iter_mut().flatten())
        {
            *v = values.next().expect("length checked");
        }
        let bias = &body[body.len() - 4..];
        net.output_bias = i32::from_le_bytes(bias.try_into().expect("4 bytes"));
        Ok(net)
    }

    /// The checksum its file carries.
    pub fn checksum(&self) -> u64 {
        let bytes = self.to_bytes();
        u64::from_le_bytes(bytes[FILE_BYTES - 8..].try_into().expect("8 bytes"))
    }

    /// The output in centipawns for the side to move, from both sides' accumulators.
    #[inline]
    pub fn output(&self, us: &[i16; HIDDEN], them: &[i16; HIDDEN]) -> i32 {
        self.output_with(self.kernel, us, them)
    }

    /// The kernel [`Network::output`] runs.
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// [`Network::output`] computed with a chosen kernel (for tests and benchmarks).
    #[inline]
    pub fn output_with(&self, kernel: Kernel, us: &[i16; HIDDEN], them: &[i16; HIDDEN]) -> i32 {
        // In i64: any i16 weights of a loaded file fit, and the score is then clamped below
        // the tablebase and mate scores.
        let sum = kernel.crelu_dot(us, &self.output_weights[0])
            + kernel.crelu_dot(them, &self.output_weights[1])
            + i64::from(self.output_bias);
        let score = sum * i64::from(SCALE) / i64::from(QA * QB);
        score.clamp(-i64::from(MAX_EVAL), i64::from(MAX_EVAL)) as i32
    }
}

/// The code that computes the output layer: a kernel exists only for a processor that
/// runs it, so choosing one checks the processor once and computing with it never does.
///
/// ```
/// use rookery::engine::eval::nnue::Kernel;
/// assert!(Kernel::available().contains(&Kernel::PORTABLE));
/// assert!(Kernel::available().contains(&Kernel::best()));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kernel(Instructions);

/// The instructions a [`Kernel`] is compiled for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Instructions {
    /// The portable loop, which the compiler vectorises for the build's target.
    Portable,
    /// The same arithmetic with AVX2 intrinsics.
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

impl Kernel {
    /// The portable loop, which every processor runs.
    pub const PORTABLE: Kernel = Kernel(Instructions::Portable);

    /// The AVX2 kernel, when the build targets AVX2 or this processor has it.
    pub fn avx2() -> Option<Kernel> {
        #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
        return Some(Kernel(Instructions::Avx2));
        #[cfg(all(target_arch = "x86_64", not(target_feature = "avx2")))]
        return std::arch::is_x86_feature_detected!("avx2").then_some(Kernel(Instructions::Avx2));
        #[cfg(not(target_arch = "x86_64"))]
        None
    }

    /// The fastest kernel this processor runs.
    pub fn best() -> Kernel {
        Kernel::avx2().unwrap_or(Kernel::PORTABLE)
    }

    /// Every kernel this processor runs, the portable one first.
    pub fn available() -> Vec<Kernel> {
        std::iter::once(Kernel::PORTABLE)
            .chain(Kernel::avx2())
            .collect()
    }

    /// A short name: `portable` or `avx2`.
    pub fn name(self) -> &'static str {
        match self.0 {
            Instructions::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Instructions::Avx2 => "avx2",
        }
    }

    /// `sum(clamp(x, 0, QA) * w)`.
    #[inline]
    fn crelu_dot(self, x: &[i16; HIDDEN], w: &[i16; HIDDEN]) -> i64 {
        match self.0 {
            Instructions::Portable => crelu_dot_portable(x, w),
            // SAFETY: a kernel of AVX2 instructions is made only by `Kernel::avx2`, which
            // makes one only when the build targets AVX2 or the processor has it.
            #[cfg(target_arch = "x86_64")]
            Instructions::Avx2 => unsafe { crelu_dot_avx2(x, w) },
        }
    }
}

/// The AVX2 kernel: 16 values a step, clipped with `max`/`min`, multiplied and added in
/// pairs with `vpmaddwd`. A lane adds `HIDDEN / 16` pair sums of at most `2 x 255 x 32768`:
/// within i32.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn crelu_dot_avx2(x: &[i16; HIDDEN], w: &[i16; HIDDEN]) -> i64 {
    use std::arch::x86_64::{
        __m256i, _mm256_add_epi32, _mm256_loadu_si256, _mm256_madd_epi16, _mm256_max_epi16,
        _mm256_min_epi16, _mm256_set1_epi16, _mm256_setzero_si256, _mm256_storeu_si256,
    };
    const STEP: usize = 16;
    let zero = _mm256_setzero_si256();
    let ceiling = _mm256_set1_epi16(QA as i16);
    let mut sum = _mm256_setzero_si256();
    for (xs, ws) in x.chunks_exact(STEP).zip(w.chunks_exact(STEP)) {
        // SAFETY: each chunk is 16 i16 values, the 32 bytes an unaligned load reads.
        let (v, weights) = unsafe {
            (
                _mm256_loadu_si256(xs.as_ptr().cast::<__m256i>()),
                _mm256_loadu_si256(ws.as_ptr().cast::<__m256i>()),
            )
        };
        let clipped = _mm256_min_epi16(_mm256_max_epi16(v, zero), ceiling);
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(clipped, weights));
    }
    let mut lanes = [0i32; 8];
    // SAFETY: `lanes` is 32 bytes, the width of an unaligned store.
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast::<__m256i>(), sum) };
    lanes.iter().map(|&l| i64::from(l)).sum()
}

/// The portable loop: 16 lanes of i32 sums, so the compiler keeps it in vector registers.
/// A lane adds `HIDDEN / 16` products of at most `255 x 32768`: within i32.
#[inline(always)]
fn crelu_dot_portable(x: &[i16; HIDDEN], w: &[i16; HIDDEN]) -> i64 {
    const LANES: usize = 16;
    let mut sums = [0i32; LANES];
    for (xs, ws) in x.chunks_exact(LANES).zip(w.chunks_exact(LANES)) {
        for i in 0..LANES {
            let a = i32::from(xs[i].clamp(0, QA as i16));
            sums[i] += a * i32::from(ws[i]);
        }
    }
    sums.iter().map(|&s| i64::from(s)).sum()
}
