//! The output layer's dot products, one per activation, each as a portable loop and as
//! AVX2 intrinsics: a [`Kernel`] names the instructions, chosen once when a net is made.
//! The accumulator's updates are plain loops that [`Kernel::run`] compiles for the same
//! instructions.
//!
//! Every kernel computes the same integers: the tests check that each kernel the processor
//! runs gives the portable loop's exact output.
//!
//! - CReLU: `sum(clamp(x, 0, QA) x w)`.
//! - SCReLU: `sum(clamp(x, 0, QA)^2 x w)`, computed as `(v x w) x v` with `v = clamp(x, 0,
//!   QA)`: `v x w` in `i16` (exact while `|w| <= SCRELU_MAX_WEIGHT`, which loading checks
//!   and the trainer's clip ensures), then multiplied by `v` and added in pairs into `i32`
//!   (`vpmaddwd`). A lane adds `hidden / 16` pair sums of at most `2 x 32640 x 255`: within
//!   `i32` up to `MAX_HIDDEN`.

use super::architecture::{QA, sized};

/// The code that computes the output layer and updates the accumulator: a kernel exists
/// only for a processor that runs it, so choosing one checks the processor once and
/// computing with it never does.
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

/// Values a step: the AVX2 registers hold 16 `i16`, the portable loop keeps 16 lanes.
const STEP: usize = 16;

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

    /// Runs `f` compiled for this kernel's instructions: for the build's target with the
    /// portable kernel, with AVX2 enabled with the AVX2 one, so that the compiler vectorises
    /// `f`'s plain loops (the accumulator's updates) in 256-bit registers. Only what is
    /// inlined into `f` (`#[inline(always)]`) is compiled so; the integers are the same.
    #[inline(always)]
    pub(super) fn run<R>(self, f: impl FnOnce() -> R) -> R {
        match self.0 {
            Instructions::Portable => f(),
            // SAFETY: as for `crelu_dot`.
            #[cfg(target_arch = "x86_64")]
            Instructions::Avx2 => unsafe { run_avx2(f) },
        }
    }

    /// `sum(clamp(x, 0, QA) x w)` over both pairs of values `x` and weights `w` (both
    /// perspectives of a position): four slices of equal length, a multiple of 16.
    #[inline]
    pub(super) fn crelu_dot(self, x: [&[i16]; 2], w: [&[i16]; 2]) -> i64 {
        debug_assert!(pairs_fit(x, w));
        match self.0 {
            Instructions::Portable => crelu_dot_portable(x, w),
            // SAFETY: a kernel of AVX2 instructions is made only by `Kernel::avx2`, which
            // makes one only when the build targets AVX2 or the processor has it.
            #[cfg(target_arch = "x86_64")]
            Instructions::Avx2 => unsafe { crelu_dot_avx2(x, w) },
        }
    }

    /// `sum(clamp(x, 0, QA)^2 x w)` over both pairs of values `x` and weights `w`, as
    /// [`Kernel::crelu_dot`], with every `|w| <= SCRELU_MAX_WEIGHT`.
    #[inline]
    pub(super) fn screlu_dot(self, x: [&[i16]; 2], w: [&[i16]; 2]) -> i64 {
        debug_assert!(pairs_fit(x, w));
        match self.0 {
            Instructions::Portable => screlu_dot_portable(x, w),
            // SAFETY: as for `crelu_dot`.
            #[cfg(target_arch = "x86_64")]
            Instructions::Avx2 => unsafe { screlu_dot_avx2(x, w) },
        }
    }
}

/// Whether the values and weights of both pairs have one length, a multiple of 16.
fn pairs_fit(x: [&[i16]; 2], w: [&[i16]; 2]) -> bool {
    let n = x[0].len();
    n.is_multiple_of(STEP) && [x[1], w[0], w[1]].iter().all(|s| s.len() == n)
}

/// The portable CReLU loop: 16 lanes of `i32` sums, so the compiler keeps it in vector
/// registers. A lane adds `hidden / 16` products of at most `255 x 32768`: within `i32`.
#[inline(always)]
fn crelu_dot_portable(x: [&[i16]; 2], w: [&[i16]; 2]) -> i64 {
    sized(x[0].len(), |n| {
        crelu_dot_portable_n(&x[0][..n], &w[0][..n]) + crelu_dot_portable_n(&x[1][..n], &w[1][..n])
    })
}

#[inline(always)]
fn crelu_dot_portable_n(x: &[i16], w: &[i16]) -> i64 {
    let mut sums = [0i32; STEP];
    for (xs, ws) in x.as_chunks::<STEP>().0.iter().zip(w.as_chunks::<STEP>().0) {
        for i in 0..STEP {
            let v = i32::from(xs[i].clamp(0, QA as i16));
            sums[i] += v * i32::from(ws[i]);
        }
    }
    sums.iter().map(|&s| i64::from(s)).sum()
}

/// The portable SCReLU loop: `v x w` wraps in `i16` as `vpmullw` does (exact within the
/// weight bound), then `x v` into 16 `i32` lanes.
#[inline(always)]
fn screlu_dot_portable(x: [&[i16]; 2], w: [&[i16]; 2]) -> i64 {
    sized(x[0].len(), |n| {
        screlu_dot_portable_n(&x[0][..n], &w[0][..n])
            + screlu_dot_portable_n(&x[1][..n], &w[1][..n])
    })
}

#[inline(always)]
fn screlu_dot_portable_n(x: &[i16], w: &[i16]) -> i64 {
    let mut sums = [0i32; STEP];
    for (xs, ws) in x.as_chunks::<STEP>().0.iter().zip(w.as_chunks::<STEP>().0) {
        for i in 0..STEP {
            let v = xs[i].clamp(0, QA as i16);
            let vw = v.wrapping_mul(ws[i]);
            sums[i] += i32::from(vw) * i32::from(v);
        }
    }
    sums.iter().map(|&s| i64::from(s)).sum()
}

/// Calls `f` with AVX2 enabled: `f`, inlined here, is compiled for it.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn run_avx2<R>(f: impl FnOnce() -> R) -> R {
    f()
}

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::{
    __m256i, _mm_add_epi64, _mm_cvtsi128_si64, _mm_unpackhi_epi64, _mm256_add_epi32,
    _mm256_add_epi64, _mm256_castsi256_si128, _mm256_cvtepi32_epi64, _mm256_extracti128_si256,
    _mm256_loadu_si256, _mm256_madd_epi16, _mm256_max_epi16, _mm256_min_epi16, _mm256_mullo_epi16,
    _mm256_set1_epi16, _mm256_setzero_si256,
};

/// Loads 16 values.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn load(chunk: &[i16; STEP]) -> __m256i {
    // SAFETY: 16 i16 values are the 32 bytes an unaligned load reads.
    unsafe { _mm256_loadu_si256(chunk.as_ptr().cast::<__m256i>()) }
}

/// The sum of the sixteen `i32` lanes of two sums, in `i64`: each sum's lanes widened to
/// `i64` and added in registers.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn lane_sum([a, b]: [__m256i; 2]) -> i64 {
    let widen = |x: __m256i| {
        _mm256_add_epi64(
            _mm256_cvtepi32_epi64(_mm256_castsi256_si128(x)),
            _mm256_cvtepi32_epi64(_mm256_extracti128_si256::<1>(x)),
        )
    };
    let quad = _mm256_add_epi64(widen(a), widen(b));
    let pair = _mm_add_epi64(
        _mm256_castsi256_si128(quad),
        _mm256_extracti128_si256::<1>(quad),
    );
    _mm_cvtsi128_si64(_mm_add_epi64(pair, _mm_unpackhi_epi64(pair, pair)))
}

/// The AVX2 CReLU kernel: 16 values a step, clipped with `max`/`min`, multiplied and added
/// in pairs with `vpmaddwd`. A lane adds `hidden / 16` pair sums of at most
/// `2 x 255 x 32768`: within `i32`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn crelu_dot_avx2(x: [&[i16]; 2], w: [&[i16]; 2]) -> i64 {
    sized(x[0].len(), |n| {
        lane_sum([0, 1].map(|i| crelu_sum_avx2(&x[i][..n], &w[i][..n])))
    })
}

/// One pair's CReLU sum in eight `i32` lanes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn crelu_sum_avx2(x: &[i16], w: &[i16]) -> __m256i {
    let zero = _mm256_setzero_si256();
    let ceiling = _mm256_set1_epi16(QA as i16);
    let mut sum = _mm256_setzero_si256();
    for (xs, ws) in x.as_chunks::<STEP>().0.iter().zip(w.as_chunks::<STEP>().0) {
        let clipped = _mm256_min_epi16(_mm256_max_epi16(load(xs), zero), ceiling);
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(clipped, load(ws)));
    }
    sum
}

/// The AVX2 SCReLU kernel: clip, `vpmullw` by the weights (in `i16`), then `vpmaddwd` by
/// the clipped values again.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn screlu_dot_avx2(x: [&[i16]; 2], w: [&[i16]; 2]) -> i64 {
    sized(x[0].len(), |n| {
        lane_sum([0, 1].map(|i| screlu_sum_avx2(&x[i][..n], &w[i][..n])))
    })
}

/// One pair's SCReLU sum in eight `i32` lanes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn screlu_sum_avx2(x: &[i16], w: &[i16]) -> __m256i {
    let zero = _mm256_setzero_si256();
    let ceiling = _mm256_set1_epi16(QA as i16);
    let mut sum = _mm256_setzero_si256();
    for (xs, ws) in x.as_chunks::<STEP>().0.iter().zip(w.as_chunks::<STEP>().0) {
        let clipped = _mm256_min_epi16(_mm256_max_epi16(load(xs), zero), ceiling);
        let weighted = _mm256_mullo_epi16(clipped, load(ws));
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(weighted, clipped));
    }
    sum
}
