//! A net's quantised weights, ready for integer inference, and its output layer.
//!
//! Feature weights and biases are scaled by `QA`, output weights by the activation's `QB`
//! ([`Activation::qb`]), output biases by `QA x QB`. The output in centipawns is
//!
//! - CReLU: `(sum(clamp(x, 0, QA) x w) + bias) x scale / (QA x QB)`;
//! - SCReLU: `(sum(clamp(x, 0, QA)^2 x w) + bias x QA) x scale / (QA^2 x QB)`,
//!
//! the sum over both perspectives (the side to move's first) with the weights of the
//! position's output bucket, in `i64`, clamped within the evaluation's range. `scale` is the
//! net's centipawns per output unit: [`SCALE`] for a net the trainer writes.

use std::fmt;

use shakmaty::Board;

use super::architecture::{Activation, Architecture, QA, SCALE};
use super::kernels::Kernel;
use crate::engine::score::MAX_EVAL;

/// Quantised weights of a network, ready for integer inference.
#[derive(Clone)]
pub struct Network {
    /// The shape.
    pub(super) arch: Architecture,
    /// The file format it is written in: the one it was read in, or for a net made here the
    /// oldest that holds its shape (see [`Network::format`]).
    pub(super) format: u32,
    /// Feature transformer weights: one row of `hidden` per input, 768 inputs per king
    /// bucket, bucket 0's first.
    pub(super) feature_weights: Box<[i16]>,
    /// Feature transformer biases, `hidden`.
    pub(super) feature_bias: Box<[i16]>,
    /// Output weights: per bucket, the side to move's `hidden`, then the other side's.
    pub(super) output_weights: Box<[i16]>,
    /// Output biases, one per bucket.
    pub(super) output_bias: Box<[i32]>,
    /// Centipawns per output unit, within [`SCALE_RANGE`](super::architecture::SCALE_RANGE): [`SCALE`], the trainer's, unless
    /// the net's scores were scaled ([`Network::with_scale_percent`]).
    pub(super) scale: i32,
    /// The output kernel, chosen once when the net is made.
    pub(super) kernel: Kernel,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Network({}, {:016x})", self.arch, self.checksum())
    }
}

impl Network {
    /// A network of zeros of the (checked) architecture `arch`, written in format 3 with one
    /// king bucket, in format 4 with more; evaluates every position as 0.
    ///
    /// # Panics
    /// When `arch` fails [`Architecture::check`].
    pub fn zeroed(arch: Architecture) -> Network {
        if let Err(e) = arch.check() {
            panic!("{e}");
        }
        let h = arch.hidden;
        Network {
            arch,
            format: arch.oldest_format(),
            feature_weights: vec![0; arch.inputs() * h].into_boxed_slice(),
            feature_bias: vec![0; h].into_boxed_slice(),
            output_weights: vec![0; arch.buckets * 2 * h].into_boxed_slice(),
            output_bias: vec![0; arch.buckets].into_boxed_slice(),
            scale: SCALE,
            kernel: Kernel::best(),
        }
    }

    /// The shape.
    #[inline(always)]
    pub fn architecture(&self) -> &Architecture {
        &self.arch
    }

    /// Values per perspective.
    #[inline(always)]
    pub fn hidden(&self) -> usize {
        self.arch.hidden
    }

    /// The feature transformer's row of input `index`.
    #[inline(always)]
    pub fn feature_row(&self, index: usize) -> &[i16] {
        let h = self.arch.hidden;
        &self.feature_weights[index * h..(index + 1) * h]
    }

    /// Every feature weight: a row of `hidden` per input, input 0 first (king bucket 0's 768
    /// rows, then bucket 1's, and so on).
    #[inline(always)]
    pub fn feature_weights(&self) -> &[i16] {
        &self.feature_weights
    }

    /// The feature weights, to set.
    pub fn feature_weights_mut(&mut self) -> &mut [i16] {
        &mut self.feature_weights
    }

    /// The feature transformer's biases.
    #[inline(always)]
    pub fn feature_bias(&self) -> &[i16] {
        &self.feature_bias
    }

    /// The feature biases, to set.
    pub fn feature_bias_mut(&mut self) -> &mut [i16] {
        &mut self.feature_bias
    }

    /// Every output weight: per bucket, the side to move's `hidden`, then the other side's.
    pub fn output_weights(&self) -> &[i16] {
        &self.output_weights
    }

    /// The output weights, to set (a SCReLU net's within
    /// [`SCRELU_MAX_WEIGHT`](super::architecture::SCRELU_MAX_WEIGHT)).
    pub fn output_weights_mut(&mut self) -> &mut [i16] {
        &mut self.output_weights
    }

    /// The output biases, one per bucket.
    pub fn output_bias(&self) -> &[i32] {
        &self.output_bias
    }

    /// The output biases, to set.
    pub fn output_bias_mut(&mut self) -> &mut [i32] {
        &mut self.output_bias
    }

    /// Centipawns per unit of its output: [`SCALE`], the trainer's, unless its scores were
    /// scaled ([`Network::with_scale_percent`]).
    pub fn scale(&self) -> i32 {
        self.scale
    }

    /// The kernel [`Network::output`] runs.
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// The output bucket of `board` (see [`Architecture::bucket`]; the pieces are not
    /// counted for a net of one bucket).
    #[inline(always)]
    pub fn bucket(&self, board: &Board) -> usize {
        if self.arch.buckets == 1 {
            0
        } else {
            self.arch.bucket(board.occupied().count())
        }
    }

    /// The network's evaluation of a position, centipawns for the side to move: `us` and
    /// `them` are the side to move's and the other side's halves of the position's
    /// accumulator ([`Accumulator::perspective`](super::Accumulator::perspective)).
    #[inline]
    pub fn evaluate(&self, us: &[i16], them: &[i16], board: &Board) -> i32 {
        self.output(us, them, self.bucket(board))
    }

    /// The output in centipawns for the side to move, from both sides' accumulators
    /// (`hidden` values each) through the weights of output bucket `bucket`.
    #[inline]
    pub fn output(&self, us: &[i16], them: &[i16], bucket: usize) -> i32 {
        self.output_with(self.kernel, us, them, bucket)
    }

    /// [`Network::output`] computed with a chosen kernel (for tests and benchmarks).
    #[inline]
    pub fn output_with(&self, kernel: Kernel, us: &[i16], them: &[i16], bucket: usize) -> i32 {
        let h = self.arch.hidden;
        debug_assert!(us.len() == h && them.len() == h);
        let (w_us, w_them) = self.output_weights[2 * h * bucket..2 * h * (bucket + 1)].split_at(h);
        let bias = i64::from(self.output_bias[bucket]);
        const QA64: i64 = QA as i64;
        // In i64: any i16 weights of a loaded file fit, and the score is then clamped below
        // the tablebase and mate scores. The divisors are constants, which the compiler
        // turns into multiplications.
        let scale = i64::from(self.scale);
        let score = match self.arch.activation {
            Activation::CReLU => {
                const QB: i64 = Activation::CReLU.qb() as i64;
                let sum = kernel.crelu_dot([us, them], [w_us, w_them]) + bias;
                sum * scale / (QA64 * QB)
            }
            Activation::SCReLU => {
                const QB: i64 = Activation::SCReLU.qb() as i64;
                let sum = kernel.screlu_dot([us, them], [w_us, w_them]) + bias * QA64;
                sum * scale / (QA64 * QA64 * QB)
            }
        };
        score.clamp(-i64::from(MAX_EVAL), i64::from(MAX_EVAL)) as i32
    }
}
