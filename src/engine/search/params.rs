//! Every margin, reduction and limit of the search, named in one place. Each rule in
//! `node.rs` and `mod.rs` reads its numbers from here; the note beside a group says what
//! the rule does. Depths are in plies, scores in centipawns.

use std::time::Duration;

// Aspiration windows (mod.rs): search near the last score first, widen on failure.
/// Shallowest iteration searched with a window instead of the full range.
pub const ASPIRATION_MIN_DEPTH: i32 = 4;
/// Half-width of the first window.
pub const ASPIRATION_DELTA: i32 = 20;
/// After a failure the half-width grows by half of itself plus this.
pub const ASPIRATION_GROWTH: i32 = 10;
/// Bound-failed lines are reported only once the search has run this long.
pub const ASPIRATION_REPORT_AFTER: Duration = Duration::from_secs(2);

// Razoring: the static eval is so far below alpha that only captures are searched.
// (Razoring, ProbCut and the staged move picker, one SPRT: +40 +/- 22 Elo at 3+0.03.)
/// Deepest node razored.
pub const RAZOR_MAX_DEPTH: i32 = 3;
/// Margin per ply of depth.
pub const RAZOR_MARGIN: i32 = 300;

// Reverse futility pruning: the static eval is so far above beta that a shallow search
// will not fall below it.
/// Deepest node pruned.
pub const RFP_MAX_DEPTH: i32 = 8;
/// Margin per ply of depth.
pub const RFP_MARGIN: i32 = 75;
/// Margin given back when the eval is improving.
pub const RFP_IMPROVING: i32 = 40;

// Null-move pruning: if passing still fails high, a real move will too.
/// Shallowest node tried.
pub const NMP_MIN_DEPTH: i32 = 3;
/// Reduction at any depth.
pub const NMP_BASE_REDUCTION: i32 = 3;
/// One more ply of reduction per this many plies of depth.
pub const NMP_DEPTH_DIVISOR: i32 = 4;
/// One more ply of reduction per this much eval above beta...
pub const NMP_EVAL_DIVISOR: i32 = 200;
/// ...up to this many plies.
pub const NMP_EVAL_MAX: i32 = 3;

// ProbCut: a capture that beats beta by a margin in a shallower search cuts the node.
/// Shallowest node tried.
pub const PROBCUT_MIN_DEPTH: i32 = 5;
/// How far above beta the capture must score.
pub const PROBCUT_MARGIN: i32 = 200;
/// The verifying search is this much shallower than the node.
pub const PROBCUT_REDUCTION: i32 = 4;

// Internal iterative reduction: a deep PV or cut node with no table move is searched a
// ply shallower.
/// Shallowest node reduced.
pub const IIR_MIN_DEPTH: i32 = 4;

// Singular extension: the table move is searched deeper when no other move comes near
// its score. (With continuation and correction histories and the soft-limit scaling,
// one SPRT: +137 +/- 46 Elo at 3+0.03.)
/// Shallowest node tested.
pub const SE_MIN_DEPTH: i32 = 8;
/// The table's entry must be at most this much shallower than the node.
pub const SE_TT_DEPTH_MARGIN: i32 = 3;
/// The other moves are tested against the table score less SE_MARGIN * depth /
/// SE_MARGIN_DIVISOR.
pub const SE_MARGIN: i32 = 1;
/// See [`SE_MARGIN`].
pub const SE_MARGIN_DIVISOR: i32 = 1;
/// Two plies of extension when the others fall this much further below.
pub const SE_DOUBLE_MARGIN: i32 = 20;
/// At most this many double extensions on one line.
pub const SE_DOUBLE_MAX: i32 = 6;

// Late move pruning: enough quiet moves tried at a shallow node.
/// Deepest node pruned.
pub const LMP_MAX_DEPTH: i32 = 6;
/// Quiet moves allowed: (LMP_BASE + depth^2), halved when not improving.
pub const LMP_BASE: i32 = 3;

// Futility pruning: a quiet move cannot lift a hopeless static eval past alpha.
/// Deepest node pruned.
pub const FUTILITY_MAX_DEPTH: i32 = 6;
/// Margin at depth 0.
pub const FUTILITY_BASE: i32 = 100;
/// Margin per ply of depth.
pub const FUTILITY_MARGIN: i32 = 90;

// SEE pruning of losing captures at shallow nodes.
/// Deepest node pruned.
pub const SEE_PRUNE_MAX_DEPTH: i32 = 5;
/// A capture is pruned when it loses more than this per ply of depth.
pub const SEE_PRUNE_MARGIN: i32 = 90;

// Late move reductions: quiet moves after the first few are searched shallower first.
// The history term reads continuation history too (continuation history in ordering and
// LMR alone: +11 +/- 31 Elo at 3+0.03 after 313 games, SPRT undecided).
/// Shallowest node reduced.
pub const LMR_MIN_DEPTH: i32 = 3;
/// Reduction table: LMR_BASE + ln(depth) ln(moves) / LMR_DIVISOR.
pub const LMR_BASE: f64 = 0.75;
/// See [`LMR_BASE`].
pub const LMR_DIVISOR: f64 = 2.25;
/// One ply less (more) reduction per this much good (bad) history and continuation
/// history...
pub const LMR_HISTORY_DIVISOR: i32 = 8000;
/// ...up to this many plies either way.
pub const LMR_HISTORY_MAX: i32 = 2;

// Quiescence search.
/// Captures losing more than this in the exchange are skipped.
pub const QS_SEE_THRESHOLD: i32 = 0;
