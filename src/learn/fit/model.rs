//! The trainer's model: a net of any [`Architecture`] in `f32`, its forward pass, its
//! gradient, and its quantisation to the engine's [`Network`].
//!
//! The forward pass is the engine's inference without the rounding: each side's inputs
//! (mirrored a-h under king mirroring while that side's king is on files e-h, in the block of
//! that king's bucket under king buckets) through the shared feature transformer, the
//! activation (`clamp(x, 0, 1)`, squared for SCReLU), then the output weights of the bucket
//! the number of pieces chooses, the side to move's first, and that bucket's bias. The output
//! `o` is in units of [`SCALE`] centipawns.
//!
//! # The factoriser
//!
//! With king buckets, each bucket's 768 feature rows `W[b]` see only the positions whose
//! king stands in that bucket. A factoriser, 768 rows `F` shared by every bucket, learns from
//! all of them: the weight of input `i` in bucket `b` is `W[b][i] + F[i]` during training,
//! so the forward pass adds both rows and the backward pass gives the row's gradient to both.
//! The quantised net holds the merged weights: the factoriser exists only in training.

use std::borrow::Cow;

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use shakmaty::{Color, Role, Square};

use super::dataset::{Sample, other_side};
use super::loss;
use crate::engine::eval::nnue::architecture::{QA, SCALE, SCRELU_MAX_WEIGHT};
use crate::engine::eval::nnue::{Activation, Architecture, INPUTS, InputView, Network, feature};

/// Largest weight magnitude, kept by clipping after each step: a quantised CReLU output
/// weight (x4096) stays within `i16`, and 32 feature rows plus a bias (x`QA`) too. With a
/// factoriser the bound holds for the merged weights `W[b][i] + F[i]` (see [`Model::clip`]).
pub const WEIGHT_CLIP: f32 = 1.98;
/// Largest SCReLU output weight: quantised (x64) it stays within the kernel's bound of
/// [`SCRELU_MAX_WEIGHT`] (1.98 x 64 = 126.7, rounded to 127).
pub const SCRELU_OUTPUT_CLIP: f32 = 1.98;

/// Where each parameter block starts in a model's flat parameter vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Feature transformer weights `W`: a row of `hidden` per input, 768 per king bucket.
    pub w1: usize,
    /// The factoriser `F`: 768 rows of `hidden`, added to every king bucket's rows; an empty
    /// block (ending where it starts, at `b1`) with one king bucket.
    pub factoriser: usize,
    /// Feature transformer biases.
    pub b1: usize,
    /// Output weights: per bucket, the side to move's `hidden`, then the other side's.
    pub w2: usize,
    /// Output biases, one per bucket.
    pub b2: usize,
    /// Parameters in all.
    pub params: usize,
}

impl Layout {
    /// The layout of a model of `arch`.
    ///
    /// ```
    /// use rookery::engine::eval::nnue::Architecture;
    /// use rookery::learn::fit::model::Layout;
    /// let plain = Layout::of(&Architecture { hidden: 32, ..Architecture::default() });
    /// assert_eq!((plain.factoriser, plain.b1), (768 * 32, 768 * 32));
    /// let arch = Architecture { hidden: 32, king_mirror: true, king_buckets: 4, ..Architecture::default() };
    /// let bucketed = Layout::of(&arch);
    /// assert_eq!((bucketed.factoriser, bucketed.b1), (4 * 768 * 32, 5 * 768 * 32));
    /// ```
    pub fn of(arch: &Architecture) -> Layout {
        let h = arch.hidden;
        let factoriser = arch.inputs() * h;
        let b1 = factoriser + if arch.king_buckets > 1 { INPUTS * h } else { 0 };
        let w2 = b1 + h;
        let b2 = w2 + arch.buckets * 2 * h;
        Layout {
            w1: 0,
            factoriser,
            b1,
            w2,
            b2,
            params: b2 + arch.buckets,
        }
    }

    /// Whether the model has a factoriser (more than one king bucket).
    pub fn has_factoriser(&self) -> bool {
        self.b1 > self.factoriser
    }
}

/// The network's parameters in `f32`, as one flat vector (see [`Layout`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// The shape.
    pub arch: Architecture,
    /// Every parameter.
    pub params: Vec<f32>,
}

/// One sample's inputs as the model sees them: each side's feature rows (bucket and mirror
/// applied: rows of `W`; the factoriser's row is the same modulo 768) and the output bucket.
struct Inputs {
    ours: [u16; 32],
    theirs: [u16; 32],
    count: usize,
    bucket: usize,
}

/// The feature rows a pass reads: the bucketed rows, and the factoriser's rows to add to
/// them (`None` with one king bucket, or when the factoriser is merged into the rows).
#[derive(Clone, Copy)]
struct Rows<'a> {
    weights: &'a [f32],
    factoriser: Option<&'a [f32]>,
}

/// The input index of the side to move's king on a1, and of the other side's.
fn king_rows() -> (u16, u16) {
    let at_a1 = |color| feature(Color::White, Role::King.of(color), Square::A1) as u16;
    (at_a1(Color::White), at_a1(Color::Black))
}

impl Model {
    /// The default architecture ([`Architecture::default`]) with small random weights.
    pub fn random(seed: u64) -> Model {
        Model::new(Architecture::default(), seed)
    }

    /// A model of `arch` with small random weights from `seed`; a factoriser starts at 0,
    /// so that each king bucket starts as a random net of its own.
    pub fn new(arch: Architecture, seed: u64) -> Model {
        let layout = Layout::of(&arch);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut params = vec![0.0; layout.params];
        for w in &mut params[layout.w1..layout.factoriser] {
            *w = rng.random_range(-0.1..0.1);
        }
        for b in &mut params[layout.b1..layout.w2] {
            *b = rng.random_range(0.0..0.2);
        }
        let output = 1.0 / (arch.hidden as f32).sqrt();
        for w in &mut params[layout.w2..layout.b2] {
            *w = rng.random_range(-output..output);
        }
        Model { arch, params }
    }

    /// The float model a quantised net stands for: each weight divided by the scale it was
    /// quantised with, so that quantising it again gives `net` back (a net of the trainer's
    /// centipawns per output unit; one whose scores were scaled gives the model its scores,
    /// the factor in the output layer). Training can go on
    /// from a net whose checkpoint is gone. A net with king buckets gives each bucket's
    /// rows its own weights and the factoriser 0.
    pub fn from_network(net: &Network) -> Model {
        Model::with_feature_rows(net, *net.architecture(), false)
    }

    /// A model of `arch`, which has king buckets, started from `net`, a net of one king
    /// bucket with `arch`'s hidden size, activation and output buckets (its king mirroring
    /// either way): the net's feature weights become the factoriser, each bucket's own rows
    /// start at 0, and the biases and output weights are the net's. Refused, with the
    /// reason, for any other pair of shapes.
    ///
    /// With every bucket's rows at 0, the model is the net wherever both see the board
    /// alike: everywhere when both are king-mirrored or neither is, and where the kings
    /// stand on files a-d when only the model is. A side whose king is on e-h is then
    /// mirrored a-h by the model and not by the net, so there the model starts as the net's
    /// evaluation of the mirrored board: close for a net trained with mirrored positions
    /// (`--mirror-files`), which rates a position and its mirror alike, but not the same
    /// function. The factoriser takes the net's rows as they are, not symmetrised, so that
    /// the model keeps the net's own weights where it is exact.
    pub fn factorised_from(net: &Network, arch: Architecture) -> Result<Model, String> {
        let from = net.architecture();
        let same_but_king_buckets = Architecture {
            king_mirror: arch.king_mirror,
            king_buckets: arch.king_buckets,
            ..*from
        };
        if arch.king_buckets == 1 || from.king_buckets != 1 || same_but_king_buckets != arch {
            return Err(format!(
                "a net of {from} starts a model of king buckets only when it has one king \
                 bucket and the model's hidden size, activation and output buckets; the \
                 model is {arch}"
            ));
        }
        Ok(Model::with_feature_rows(net, arch, true))
    }

    /// The model of `arch` holding `net`'s weights, its feature weights in the factoriser
    /// when `as_factoriser` (else in the bucketed rows, of the same shape).
    fn with_feature_rows(net: &Network, arch: Architecture, as_factoriser: bool) -> Model {
        let layout = Layout::of(&arch);
        let qb = arch.activation.qb();
        let mut params = vec![0.0; layout.params];
        let rows = if as_factoriser {
            layout.factoriser
        } else {
            layout.w1
        };
        // A net whose scores were scaled (its centipawns per output unit other than the
        // trainer's) starts the model at those scores: its output layer takes the factor.
        let output = net.scale() as f32 / SCALE as f32;
        let blocks: [(usize, &[i16], f32); 3] = [
            (rows, net.feature_weights(), QA as f32),
            (layout.b1, net.feature_bias(), QA as f32),
            (layout.w2, net.output_weights(), qb as f32 / output),
        ];
        for (start, values, scale) in blocks {
            for (p, &v) in params[start..].iter_mut().zip(values) {
                *p = f32::from(v) / scale;
            }
        }
        for (p, &b) in params[layout.b2..].iter_mut().zip(net.output_bias()) {
            *p = b as f32 * output / (QA * qb) as f32;
        }
        Model { arch, params }
    }

    /// Where its parameter blocks are.
    pub fn layout(&self) -> Layout {
        Layout::of(&self.arch)
    }

    /// The feature rows as they are: the bucketed rows and the factoriser.
    fn rows(&self) -> Rows<'_> {
        let layout = self.layout();
        Rows {
            weights: &self.params[layout.w1..layout.factoriser],
            factoriser: layout
                .has_factoriser()
                .then(|| &self.params[layout.factoriser..layout.b1]),
        }
    }

    /// The feature weights the net has: `W[b][i] + F[i]` for every king bucket `b` and input
    /// `i` with a factoriser, else `W` itself (`king buckets x 768 x hidden` values).
    pub fn merged_feature_weights(&self) -> Cow<'_, [f32]> {
        let layout = self.layout();
        let weights = &self.params[layout.w1..layout.factoriser];
        if !layout.has_factoriser() {
            return Cow::Borrowed(weights);
        }
        let factoriser = &self.params[layout.factoriser..layout.b1];
        let mut merged = weights.to_vec();
        for block in merged.chunks_exact_mut(factoriser.len()) {
            for (w, f) in block.iter_mut().zip(factoriser) {
                *w += f;
            }
        }
        Cow::Owned(merged)
    }

    /// The model with its factoriser merged into its rows once, for many passes at one row
    /// per piece: what a validation pass runs on.
    pub fn merged(&self) -> Merged<'_> {
        Merged {
            model: self,
            weights: self.merged_feature_weights(),
        }
    }

    /// [`Model::merged`], the merged rows written into `buffer` (in the memory it has),
    /// which a batch's gradient keeps from batch to batch. With one king bucket the model's
    /// own rows are read and `buffer` is left alone.
    pub fn merged_into<'a>(&'a self, buffer: &'a mut Vec<f32>) -> Merged<'a> {
        let layout = self.layout();
        let weights = &self.params[layout.w1..layout.factoriser];
        if !layout.has_factoriser() {
            return Merged {
                model: self,
                weights: Cow::Borrowed(weights),
            };
        }
        let factoriser = &self.params[layout.factoriser..layout.b1];
        buffer.clear();
        for block in weights.chunks_exact(factoriser.len()) {
            buffer.extend(block.iter().zip(factoriser).map(|(w, f)| w + f));
        }
        Merged {
            model: self,
            weights: Cow::Borrowed(buffer),
        }
    }

    /// Gives the factoriser its share of a gradient whose feature rows' share went to the
    /// bucketed rows only ([`Merged::backward`]): the gradient of `F[i]` is the sum over the
    /// buckets of the gradients of `W[b][i]`, added to `grad`'s factoriser block. Nothing to
    /// do without a factoriser.
    pub fn fold_factoriser(&self, grad: &mut [f32]) {
        let layout = self.layout();
        if !layout.has_factoriser() {
            return;
        }
        let (rows, rest) = grad[layout.w1..layout.b1].split_at_mut(layout.factoriser);
        for block in rows.chunks_exact(rest.len()) {
            for (f, g) in rest.iter_mut().zip(block) {
                *f += g;
            }
        }
    }

    /// Each side's feature rows for a sample, mirrored and bucketed as the engine reads
    /// them.
    #[inline]
    fn inputs(&self, sample: &Sample) -> Inputs {
        let (mut ours, mut theirs) = (InputView::PLAIN, InputView::PLAIN);
        if self.arch.viewed() {
            let (own_king, enemy_king) = king_rows();
            for &f in sample.ours() {
                // A king's row is its role's block plus its square seen from the side to
                // move's side: as is for that side; flipped vertically, as Black's square
                // is, for the other.
                if (own_king..own_king + 64).contains(&f) {
                    let king = Square::new(u32::from(f - own_king));
                    ours = self.arch.view(Color::White, king);
                } else if (enemy_king..enemy_king + 64).contains(&f) {
                    let king = Square::new(u32::from(f - enemy_king));
                    theirs = self.arch.view(Color::Black, king);
                }
            }
        }
        let mut inputs = Inputs {
            ours: [0; 32],
            theirs: [0; 32],
            count: sample.ours().len(),
            bucket: self.arch.bucket(usize::from(sample.count)),
        };
        for (i, &f) in sample.ours().iter().enumerate() {
            inputs.ours[i] = ours.input(usize::from(f)) as u16;
            inputs.theirs[i] = theirs.input(usize::from(other_side(f))) as u16;
        }
        inputs
    }

    /// Both sides' feature-transformer sums (`hidden` each, the side to move's first).
    #[inline]
    fn accumulate(&self, rows: Rows<'_>, inputs: &Inputs, acc: &mut [f32]) {
        let h = self.arch.hidden;
        let layout = self.layout();
        let bias = &self.params[layout.b1..layout.w2];
        let (ours, theirs) = acc.split_at_mut(h);
        ours.copy_from_slice(bias);
        theirs.copy_from_slice(bias);
        let add = |side: &mut [f32], r: u16| {
            let r = usize::from(r);
            for (a, w) in side.iter_mut().zip(&rows.weights[r * h..][..h]) {
                *a += w;
            }
            if let Some(factoriser) = rows.factoriser {
                for (a, w) in side.iter_mut().zip(&factoriser[r % INPUTS * h..][..h]) {
                    *a += w;
                }
            }
        };
        for i in 0..inputs.count {
            add(ours, inputs.ours[i]);
            add(theirs, inputs.theirs[i]);
        }
    }

    /// The activation of a sum, and its derivative.
    #[inline(always)]
    fn activate(&self, x: f32) -> (f32, f32) {
        let a = x.clamp(0.0, 1.0);
        let inside = x > 0.0 && x < 1.0;
        match self.arch.activation {
            Activation::CReLU => (a, if inside { 1.0 } else { 0.0 }),
            Activation::SCReLU => (a * a, if inside { 2.0 * a } else { 0.0 }),
        }
    }

    /// The output weights of `bucket`, both sides.
    #[inline]
    fn output_weights(&self, bucket: usize) -> &[f32] {
        let h2 = 2 * self.arch.hidden;
        &self.params[self.layout().w2 + bucket * h2..][..h2]
    }

    /// The output `o` (units of [`SCALE`] centipawns) for a sample.
    pub fn forward(&self, sample: &Sample) -> f32 {
        self.forward_with(self.rows(), sample)
    }

    fn forward_with(&self, rows: Rows<'_>, sample: &Sample) -> f32 {
        let inputs = self.inputs(sample);
        let mut acc = vec![0.0; 2 * self.arch.hidden];
        self.accumulate(rows, &inputs, &mut acc);
        self.output(&acc, inputs.bucket)
    }

    #[inline]
    fn output(&self, acc: &[f32], bucket: usize) -> f32 {
        let sum: f32 = acc
            .iter()
            .zip(self.output_weights(bucket))
            .map(|(&x, w)| self.activate(x).0 * w)
            .sum();
        self.params[self.layout().b2 + bucket] + sum
    }

    /// The sample's loss against its target ([`loss::loss`]).
    pub fn loss(&self, sample: &Sample, wdl: f32) -> f32 {
        self.loss_with(self.rows(), sample, wdl)
    }

    fn loss_with(&self, rows: Rows<'_>, sample: &Sample, wdl: f32) -> f32 {
        let output = self.forward_with(rows, sample);
        loss::loss(output, sample.target(wdl, SCALE as f32))
    }

    /// Adds the sample's loss gradient to `grad` and returns its loss: the loss's slope
    /// along the output ([`loss::loss_and_slope`]) carried back to every weight. A feature
    /// row's share goes to its bucket's row and to the factoriser's row alike.
    pub fn backward(&self, sample: &Sample, wdl: f32, grad: &mut [f32]) -> f32 {
        self.backward_with(self.rows(), sample, wdl, grad)
    }

    /// [`Model::backward`] reading `rows`: the factoriser's rows get their share only when
    /// `rows` has them (not merged).
    fn backward_with(&self, rows: Rows<'_>, sample: &Sample, wdl: f32, grad: &mut [f32]) -> f32 {
        let h = self.arch.hidden;
        let layout = self.layout();
        let inputs = self.inputs(sample);
        let mut acc = vec![0.0; 4 * h];
        let (acc, g_acc) = acc.split_at_mut(2 * h);
        self.accumulate(rows, &inputs, acc);
        let output = self.output(acc, inputs.bucket);
        let (sample_loss, g) = loss::loss_and_slope(output, sample.target(wdl, SCALE as f32));
        grad[layout.b2 + inputs.bucket] += g;
        let w = self.output_weights(inputs.bucket);
        let gw = &mut grad[layout.w2 + inputs.bucket * 2 * h..][..2 * h];
        for i in 0..2 * h {
            let (a, slope) = self.activate(acc[i]);
            gw[i] += g * a;
            g_acc[i] = g * w[i] * slope;
        }
        let (g_ours, g_theirs) = g_acc.split_at(h);
        for (b, (o, t)) in grad[layout.b1..layout.w2]
            .iter_mut()
            .zip(g_ours.iter().zip(g_theirs))
        {
            *b += o + t;
        }
        let factorised = rows.factoriser.is_some();
        for i in 0..inputs.count {
            for (side, g_side) in [(inputs.ours[i], g_ours), (inputs.theirs[i], g_theirs)] {
                let side = usize::from(side);
                let row = &mut grad[layout.w1 + side * h..][..h];
                for (r, g) in row.iter_mut().zip(g_side) {
                    *r += g;
                }
                if factorised {
                    let row = &mut grad[layout.factoriser + side % INPUTS * h..][..h];
                    for (r, g) in row.iter_mut().zip(g_side) {
                        *r += g;
                    }
                }
            }
        }
        sample_loss
    }

    /// Clips every weight (not the output biases) to +/-[`WEIGHT_CLIP`], a SCReLU net's
    /// output weights to +/-[`SCRELU_OUTPUT_CLIP`].
    ///
    /// With a factoriser the clip is on the weights the net will have: the factoriser is
    /// clipped to +/-[`WEIGHT_CLIP`], then each bucketed weight `W[b][i]` is moved so that
    /// `W[b][i] + F[i]` is within +/-[`WEIGHT_CLIP`] (it is left alone when it already is).
    /// So the merged weights keep the bound that keeps 32 rows and a bias within `i16`, the
    /// float model stays exactly what its quantised net computes (a clip at quantisation
    /// alone would let them part), and the factoriser can hold a whole one-bucket net's
    /// weights, which reach the clip (clipping `W` and `F` each to half of it would cut
    /// them when such a net starts a bucketed model).
    pub fn clip(&mut self) {
        let layout = self.layout();
        let output = match self.arch.activation {
            Activation::CReLU => WEIGHT_CLIP,
            Activation::SCReLU => SCRELU_OUTPUT_CLIP,
        };
        let clip = WEIGHT_CLIP;
        let (rows, rest) = self.params[layout.w1..layout.b1].split_at_mut(layout.factoriser);
        if rest.is_empty() {
            for w in rows {
                *w = w.clamp(-clip, clip);
            }
        } else {
            for f in rest.iter_mut() {
                *f = f.clamp(-clip, clip);
            }
            for block in rows.chunks_exact_mut(rest.len()) {
                for (w, &f) in block.iter_mut().zip(rest.iter()) {
                    let merged = *w + f;
                    if merged > clip {
                        *w = clip - f;
                    } else if merged < -clip {
                        *w = -clip - f;
                    }
                }
            }
        }
        let blocks = [
            (layout.b1..layout.w2, WEIGHT_CLIP),
            (layout.w2..layout.b2, output),
        ];
        for (block, clip) in blocks {
            for p in &mut self.params[block] {
                *p = p.clamp(-clip, clip);
            }
        }
    }

    /// How many output weights sit at their clip, of how many: a clip that binds often
    /// limits what the net can say.
    pub fn output_weights_at_clip(&self) -> (usize, usize) {
        let layout = self.layout();
        let clip = match self.arch.activation {
            Activation::CReLU => WEIGHT_CLIP,
            Activation::SCReLU => SCRELU_OUTPUT_CLIP,
        };
        let weights = &self.params[layout.w2..layout.b2];
        let at_clip = weights.iter().filter(|w| w.abs() >= clip).count();
        (at_clip, weights.len())
    }

    /// The quantised net, in format 3 (4 with king buckets): the feature weights merged
    /// with the factoriser ([`Model::merged_feature_weights`]).
    pub fn quantise(&self) -> Network {
        let layout = self.layout();
        let qb = self.arch.activation.qb();
        let limit = match self.arch.activation {
            Activation::CReLU => f32::from(i16::MAX),
            Activation::SCReLU => f32::from(SCRELU_MAX_WEIGHT),
        };
        let q =
            |x: f32, scale: i32, limit: f32| (x * scale as f32).round().clamp(-limit, limit) as i16;
        let fill = |values: &mut [i16], from: &[f32], scale: i32, limit: f32| {
            for (v, &p) in values.iter_mut().zip(from) {
                *v = q(p, scale, limit);
            }
        };
        let mut net = Network::zeroed(self.arch);
        let wide = f32::from(i16::MAX);
        fill(
            net.feature_weights_mut(),
            &self.merged_feature_weights(),
            QA,
            wide,
        );
        fill(net.feature_bias_mut(), &self.params[layout.b1..], QA, wide);
        fill(
            net.output_weights_mut(),
            &self.params[layout.w2..],
            qb,
            limit,
        );
        for (b, &p) in net
            .output_bias_mut()
            .iter_mut()
            .zip(&self.params[layout.b2..])
        {
            *b = (p * (QA * qb) as f32).round() as i32;
        }
        net
    }
}

/// A model whose factoriser is merged into its bucketed rows (`W[b][i] + F[i]`, computed
/// once): its passes add one row per piece, as without a factoriser. With one king bucket it
/// reads the model's own rows.
pub struct Merged<'a> {
    model: &'a Model,
    weights: Cow<'a, [f32]>,
}

impl Merged<'_> {
    fn rows(&self) -> Rows<'_> {
        Rows {
            weights: &self.weights,
            factoriser: None,
        }
    }

    /// [`Model::forward`].
    pub fn forward(&self, sample: &Sample) -> f32 {
        self.model.forward_with(self.rows(), sample)
    }

    /// [`Model::loss`].
    pub fn loss(&self, sample: &Sample, wdl: f32) -> f32 {
        self.model.loss_with(self.rows(), sample, wdl)
    }

    /// Adds the sample's loss gradient to `grad` and returns its loss, as
    /// [`Model::backward`] but for the factoriser: a feature row's share goes to its
    /// bucket's row only, and [`Model::fold_factoriser`] gives the factoriser its share once
    /// a batch's gradients are summed.
    pub fn backward(&self, sample: &Sample, wdl: f32, grad: &mut [f32]) -> f32 {
        self.model.backward_with(self.rows(), sample, wdl, grad)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::learn::data::record::{GameResult, Record};
    use shakmaty::{Chess, Position};

    /// The sample of a position given as FEN.
    pub(crate) fn sample_of(fen: &str, score: i16, result: GameResult) -> Sample {
        let pos: Chess = fen
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap();
        Sample::from_record(&Record {
            board: pos.board().clone(),
            turn: pos.turn(),
            score,
            result,
            halfmoves: 0,
            fullmoves: 1,
        })
    }

    /// The positions of [`samples`].
    pub(crate) const FENS: [&str; 5] = [
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "4k3/8/8/8/8/8/4P3/4K2Q w - - 0 1",
        "4k3/8/8/8/8/8/4P3/4K2Q b - - 0 1",
        "4k2q/4p3/8/8/8/8/8/4K3 w - - 0 1",
        "r3k3/8/8/8/8/8/8/4K3 w - - 0 1",
    ];

    /// Five small positions with scores and results: a queen up wins, a rook down loses.
    pub(crate) fn samples() -> Vec<Sample> {
        let labels = [
            (-20, GameResult::Draw),
            (900, GameResult::WhiteWon),
            (-900, GameResult::WhiteWon),
            (-900, GameResult::BlackWon),
            (-500, GameResult::BlackWon),
        ];
        FENS.iter()
            .zip(labels)
            .map(|(fen, (score, result))| sample_of(fen, score, result))
            .collect()
    }

    fn architectures() -> Vec<Architecture> {
        Architecture::every_kind(32)
    }

    /// Positions whose kings stand in many king buckets (and on both halves of the board),
    /// with the side to move either colour.
    pub(crate) const KING_SQUARES: [&str; 6] = [
        "8/8/2k5/8/8/8/5PPP/6K1 w - - 0 1",
        "8/8/2k5/8/8/8/5PPP/6K1 b - - 0 1",
        "6k1/pp6/8/8/3K4/8/1P6/8 w - - 0 1",
        "1k6/8/3n4/8/8/8/1R6/K7 b - - 0 1",
        "8/3k4/8/8/8/4K3/Q7/8 w - - 0 1",
        "2kr4/8/8/8/8/8/7P/7K w - - 0 1",
    ];

    /// A model of `arch` from `seed` with a random factoriser too (a fresh model's is 0),
    /// so that passes which forget it show.
    pub(crate) fn with_factoriser(arch: Architecture, seed: u64) -> Model {
        let mut model = Model::new(arch, seed);
        let layout = model.layout();
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
        for f in &mut model.params[layout.factoriser..layout.b1] {
            *f = rng.random_range(-0.1..0.1);
        }
        model
    }

    #[test]
    fn gradient_matches_finite_differences() {
        let data = samples();
        // Black to move, so the side to move's rows and the other side's differ from
        // White's; then kings in other buckets, a side mirrored and the other not.
        let cases = [data[2], sample_of(KING_SQUARES[1], 50, GameResult::Draw)];
        for arch in architectures().into_iter().chain([Architecture::default()]) {
            for sample in &cases {
                gradient_check(&with_factoriser(arch, 11), sample);
            }
        }
    }

    fn gradient_check(model: &Model, sample: &Sample) {
        let arch = model.arch;
        let layout = model.layout();
        let h = arch.hidden;
        let mut grad = vec![0.0; layout.params];
        model.backward(sample, 0.3, &mut grad);
        let inputs = model.inputs(sample);
        // Every hidden unit of a feature row the sample uses from each side, and of its
        // factoriser row, every bias, every output weight, the output biases.
        let (f, g) = (usize::from(inputs.ours[0]), usize::from(inputs.theirs[1]));
        let mut rows: Vec<usize> = (f * h..(f + 1) * h).chain(g * h..(g + 1) * h).collect();
        if layout.has_factoriser() {
            for r in [f, g] {
                let start = layout.factoriser + r % INPUTS * h;
                rows.extend(start..start + h);
            }
            // The same input's row in a bucket neither side's king is in gets nothing.
            let (ours, theirs) = (f / INPUTS, g / INPUTS);
            let other = (0..arch.king_buckets)
                .find(|b| *b != ours && *b != theirs)
                .unwrap();
            let unused = (other * INPUTS + f % INPUTS) * h;
            assert!(
                grad[unused..unused + h].iter().all(|&g| g == 0.0),
                "{arch}: king bucket {other}'s rows have a gradient"
            );
        }
        // The loss is an f32 near 0.25: steps much below 1e-2 drown in its rounding.
        let eps = 1e-2f64;
        // Units whose sum lies within a step of the clip's corners (0 and 1) are left
        // out: there the loss has a kink and a finite difference says nothing.
        let mut acc = vec![0.0; 2 * h];
        model.accumulate(model.rows(), &inputs, &mut acc);
        let near_kink = |i: usize| {
            let a = f64::from(acc[i]);
            a.abs() < 4.0 * eps || (a - 1.0).abs() < 4.0 * eps
        };
        // (A row can feed both sides: here the kings' rows do.)
        let smooth = |i: usize| {
            i >= layout.w2 || {
                let unit = i % h;
                !near_kink(unit) && !near_kink(h + unit)
            }
        };
        // The output weights of the sample's bucket; the other buckets' get nothing.
        let bucket = layout.w2 + inputs.bucket * 2 * h..layout.w2 + (inputs.bucket + 1) * 2 * h;
        assert!(
            (layout.w2..layout.b2)
                .filter(|i| !bucket.contains(i))
                .all(|i| grad[i] == 0.0),
            "{arch}: another bucket's weights have a gradient"
        );
        let checked: Vec<usize> = rows
            .into_iter()
            .chain(layout.b1..layout.w2)
            .chain(bucket)
            .chain(layout.b2..layout.params)
            .filter(|&i| smooth(i))
            .collect();
        let mut nonzero = 0;
        for &i in &checked {
            let loss_at = |delta: f64| {
                let mut m = model.clone();
                m.params[i] = (f64::from(m.params[i]) + delta) as f32;
                f64::from(m.loss(sample, 0.3))
            };
            let numeric = (loss_at(eps) - loss_at(-eps)) / (2.0 * eps);
            let analytic = f64::from(grad[i]);
            // The f32 loss rounds at about 1e-7, which a step of 2e-2 turns into about
            // 5e-6 of noise in the numeric gradient.
            let slack = 1e-5;
            assert!(
                (numeric - analytic).abs() <= 3e-2 * numeric.abs() + slack,
                "{arch}: parameter {i}: numeric {numeric}, analytic {analytic}"
            );
            nonzero += usize::from(analytic.abs() > 1e-5);
        }
        assert!(
            nonzero > checked.len() / 3,
            "{arch}: {nonzero} of {} gradients non-zero",
            checked.len()
        );
    }

    #[test]
    fn merged_passes_equal_the_factorised_ones() {
        let mut data = samples();
        data.extend(
            KING_SQUARES
                .iter()
                .map(|fen| sample_of(fen, 100, GameResult::WhiteWon)),
        );
        for arch in architectures() {
            let model = with_factoriser(arch, 12);
            let merged = model.merged();
            let mut unmerged = vec![0.0; model.layout().params];
            let mut summed = vec![0.0; model.layout().params];
            for sample in &data {
                let (a, b) = (model.forward(sample), merged.forward(sample));
                assert!((a - b).abs() < 1e-5, "{arch}: {a} {b}");
                model.backward(sample, 0.5, &mut unmerged);
                merged.backward(sample, 0.5, &mut summed);
            }
            model.fold_factoriser(&mut summed);
            for (i, (a, b)) in unmerged.iter().zip(&summed).enumerate() {
                assert!(
                    (a - b).abs() <= 1e-5 * a.abs().max(1e-2),
                    "{arch}: {i}: {a} {b}"
                );
            }
            if model.layout().has_factoriser() {
                // Without the fold the factoriser's gradient is missing.
                let layout = model.layout();
                let mut bare = vec![0.0; layout.params];
                merged.backward(&data[0], 0.5, &mut bare);
                assert!(bare[layout.factoriser..layout.b1].iter().all(|&g| g == 0.0));
                assert!(
                    unmerged[layout.factoriser..layout.b1]
                        .iter()
                        .any(|&g| g != 0.0)
                );
            }
        }
    }

    #[test]
    fn the_clip_bounds_the_merged_weights_and_moves_only_those_beyond_it() {
        let arch = Architecture {
            hidden: 16,
            king_mirror: true,
            king_buckets: 4,
            ..Architecture::default()
        };
        let mut model = Model::new(arch, 3);
        let layout = model.layout();
        let block = INPUTS * 16;
        let f = layout.factoriser;
        model.params[f] = 1.5;
        model.params[f + 1] = 3.0;
        model.params[f + 2] = -1.0;
        // Bucket 0: beyond the clip once merged; bucket 1: within it.
        model.params[0] = 1.0;
        model.params[1] = -0.5;
        model.params[2] = -1.5;
        model.params[block] = 0.25;
        model.params[block + 2] = 0.9;
        let before = model.clone();
        model.clip();
        let p = &model.params;
        assert_eq!(p[f], 1.5);
        assert_eq!(p[f + 1], WEIGHT_CLIP);
        assert!((p[0] + p[f] - WEIGHT_CLIP).abs() < 1e-6);
        assert!((p[1] + p[f + 1] - 1.48).abs() < 1e-6, "{}", p[1] + p[f + 1]);
        assert!((p[2] + p[f + 2] + WEIGHT_CLIP).abs() < 1e-6);
        assert_eq!(p[block], 0.25);
        assert_eq!(p[block + 2], 0.9);
        let moved = p.iter().zip(&before.params).filter(|(a, b)| a != b).count();
        assert_eq!(moved, 4);
        let merged = model.merged_feature_weights();
        assert!(merged.iter().all(|w| w.abs() <= WEIGHT_CLIP + 1e-6));
    }

    #[test]
    fn a_net_read_back_as_a_model_quantises_to_itself() {
        for activation in [Activation::CReLU, Activation::SCReLU] {
            for king_buckets in [1, 8] {
                let arch = Architecture {
                    activation,
                    buckets: 8,
                    king_mirror: king_buckets > 1,
                    king_buckets,
                    ..Architecture::default()
                };
                let mut model = with_factoriser(arch, 7);
                model.clip();
                let net = model.quantise();
                let again = Model::from_network(&net);
                assert_eq!(again.arch, arch);
                // The net's merged weights are the bucketed rows; the factoriser is 0.
                let layout = again.layout();
                assert!(
                    again.params[layout.factoriser..layout.b1]
                        .iter()
                        .all(|&f| f == 0.0)
                );
                assert_eq!(again.quantise().to_bytes(), net.to_bytes(), "{arch}");
            }
        }
    }

    #[test]
    fn a_net_with_scaled_scores_starts_a_model_at_those_scores() {
        use crate::engine::eval::nnue::evaluate_position;
        let arch = Architecture {
            hidden: 32,
            activation: Activation::SCReLU,
            ..Architecture::default()
        };
        let net = with_factoriser(arch, 11).quantise();
        let scaled = net.with_scale_percent(60).unwrap();
        let (plain, from_scaled) = (Model::from_network(&net), Model::from_network(&scaled));
        for fen in FENS {
            let pos: Chess = fen
                .parse::<shakmaty::fen::Fen>()
                .unwrap()
                .into_position(shakmaty::CastlingMode::Standard)
                .unwrap();
            let sample = sample_of(fen, 0, GameResult::Draw);
            let engine = evaluate_position(&scaled, &pos) as f32;
            let model = from_scaled.forward(&sample) * SCALE as f32;
            assert!(
                (model - engine).abs() <= 1.0,
                "{fen}: model {model}, engine {engine}"
            );
            let unscaled = plain.forward(&sample) * SCALE as f32;
            assert!(
                (model - 0.6 * unscaled).abs() <= 0.01 * unscaled.abs() + 0.01,
                "{fen}"
            );
        }
    }

    #[test]
    fn a_one_bucket_net_starts_a_bucketed_model_as_its_factoriser() {
        let one = Architecture {
            hidden: 32,
            activation: Activation::SCReLU,
            buckets: 8,
            ..Architecture::default()
        };
        let mut plain = with_factoriser(one, 4);
        plain.clip();
        let net = plain.quantise();
        let arch = Architecture {
            king_mirror: true,
            king_buckets: 4,
            ..one
        };
        let model = Model::factorised_from(&net, arch).unwrap();
        let (from, layout) = (Model::from_network(&net), model.layout());
        let from_layout = from.layout();
        assert_eq!(
            model.params[layout.factoriser..layout.b1],
            from.params[from_layout.w1..from_layout.factoriser]
        );
        assert!(
            model.params[layout.w1..layout.factoriser]
                .iter()
                .all(|&w| w == 0.0)
        );
        assert_eq!(model.params[layout.b1..], from.params[from_layout.b1..]);
        // Another hidden size, activation or output bucket count, a bucketed net, or a
        // model of one king bucket is refused.
        for (net_arch, model_arch) in [
            (one, Architecture { hidden: 48, ..arch }),
            (
                one,
                Architecture {
                    activation: Activation::CReLU,
                    ..arch
                },
            ),
            (one, Architecture { buckets: 1, ..arch }),
            (
                arch,
                Architecture {
                    king_buckets: 8,
                    ..arch
                },
            ),
            (
                one,
                Architecture {
                    king_mirror: true,
                    ..one
                },
            ),
        ] {
            let refused = Model::factorised_from(&Model::new(net_arch, 1).quantise(), model_arch);
            assert!(refused.is_err(), "{net_arch} -> {model_arch}");
        }
    }

    #[test]
    fn clipped_weights_fit_their_quantised_type() {
        assert!(WEIGHT_CLIP * Activation::CReLU.qb() as f32 <= f32::from(i16::MAX));
        assert!(
            (SCRELU_OUTPUT_CLIP * Activation::SCReLU.qb() as f32).round()
                <= f32::from(SCRELU_MAX_WEIGHT)
        );
        assert!((32.0 * WEIGHT_CLIP + WEIGHT_CLIP) * QA as f32 <= f32::from(i16::MAX));
        // A clipped SCReLU model quantises within the kernel's bound, and the file loads.
        let arch = Architecture {
            activation: Activation::SCReLU,
            ..Architecture::default()
        };
        let mut model = Model::new(arch, 1);
        let layout = model.layout();
        for (i, w) in model.params[layout.w2..layout.b2].iter_mut().enumerate() {
            *w = if i % 2 == 0 { 5.0 } else { -5.0 };
        }
        model.clip();
        let net = model.quantise();
        assert!(net.output_weights().iter().all(|w| w.abs() == 127));
        assert!(Network::from_bytes(&net.to_bytes()).is_ok());
    }

    #[test]
    fn king_mirroring_sees_the_mirrored_board_alike() {
        let data = samples();
        let arch = Architecture {
            king_mirror: true,
            hidden: 32,
            ..Architecture::default()
        };
        let model = Model::new(arch, 4);
        for sample in &data {
            let a = model.forward(sample);
            let b = model.forward(&sample.files_mirrored());
            assert!((a - b).abs() < 1e-5, "{a} {b}");
        }
        // Without it, the mirror is another position.
        let plain = Model::new(
            Architecture {
                king_mirror: false,
                ..arch
            },
            4,
        );
        assert!(
            data.iter()
                .any(|s| (plain.forward(s) - plain.forward(&s.files_mirrored())).abs() > 1e-3)
        );
    }

    #[test]
    fn quantised_net_follows_the_float_model() {
        use crate::engine::eval::nnue::evaluate_position;
        let fens: Vec<&str> = FENS.iter().chain(&KING_SQUARES).copied().collect();
        let data: Vec<Sample> = fens
            .iter()
            .map(|fen| sample_of(fen, 0, GameResult::Draw))
            .collect();
        for arch in architectures() {
            let model = with_factoriser(arch, 9);
            let net = model.quantise();
            for (fen, sample) in fens.iter().zip(&data) {
                let pos: Chess = fen
                    .parse::<shakmaty::fen::Fen>()
                    .unwrap()
                    .into_position(shakmaty::CastlingMode::Standard)
                    .unwrap();
                let quantised = evaluate_position(&net, &pos);
                let float = model.forward(sample) * SCALE as f32;
                // Feature weights are kept in steps of 1/255, output weights of 1/4096
                // (CReLU) or 1/128 (SCReLU).
                let slack = match arch.activation {
                    Activation::CReLU => 0.01 * float.abs() + 2.0,
                    Activation::SCReLU => 0.02 * float.abs() + 5.0,
                };
                assert!(
                    (quantised as f32 - float).abs() <= slack,
                    "{arch}, {fen}: quantised {quantised}, float {float}"
                );
            }
        }
    }
}
