//! Every tunable number of the engine, declared once: the search's margins, reductions and
//! limits, time management's factors, the history and correction-history limits, and the
//! piece values that exchange evaluation prunes and orders by. Depths are in plies, scores
//! in the evaluation's internal units (not the normalised centipawns UCI reports); a fraction is a whole number of hundredths (`_pct`) so that every value
//! is an integer, as SPSA tuners expect.
//!
//! Each value is read through a function of its name (`rfp_margin()`). In the ordinary
//! build the function returns the declared default, a constant the compiler folds away; a
//! build with the `tune` cargo feature keeps the values in atomics that `setoption` changes
//! (each tunable is then a UCI spin option of its name and range), read at each use, so a
//! change applies to the next search. [`TUNABLES`] lists them all with their ranges and
//! SPSA step in either build.
//!
//! The comments say what each value does; what each rule was measured to be worth is in
//! the lab notebook, in one table by step of the search (`notes/search.md`).

use std::time::Duration;

/// One tunable number: its name (the UCI option's name in a `tune` build), the value the
/// engine plays with, the range it may take, and the step an SPSA tuner perturbs it by
/// at the end of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tunable {
    /// The name, as the accessor function and the UCI option spell it.
    pub name: &'static str,
    /// The value of the ordinary build.
    pub default: i32,
    /// Least value accepted.
    pub min: i32,
    /// Greatest value accepted.
    pub max: i32,
    /// The perturbation at the end of an SPSA run (OpenBench's `c_end`).
    pub step: i32,
}

/// Declares the tunables: for each, a doc comment, then
/// `name = default, min..=max, step;`. Generates [`TUNABLES`] and one accessor function
/// per tunable (a constant in the ordinary build, an atomic load in a `tune` build).
macro_rules! tunables {
    ($($(#[doc = $doc:literal])* $name:ident = $default:literal, $min:literal..=$max:literal, $step:literal;)*) => {
        /// Every tunable, in declaration order.
        pub const TUNABLES: &[Tunable] = &[
            $(Tunable { name: stringify!($name), default: $default, min: $min, max: $max, step: $step },)*
        ];

        #[cfg(not(feature = "tune"))]
        mod values {
            $(
                $(#[doc = $doc])*
                #[inline(always)]
                pub const fn $name() -> i32 {
                    $default
                }
            )*
        }

        #[cfg(feature = "tune")]
        mod values {
            use std::sync::atomic::{AtomicI32, Ordering::Relaxed};

            /// Each tunable's position in [`super::TUNABLES`] and [`VALUES`].
            #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
            enum Index {
                $($name,)*
            }

            /// The current values, in declaration order.
            pub(super) static VALUES: [AtomicI32; super::TUNABLES.len()] =
                [$(AtomicI32::new($default),)*];

            $(
                $(#[doc = $doc])*
                #[inline]
                pub fn $name() -> i32 {
                    VALUES[Index::$name as usize].load(Relaxed)
                }
            )*
        }

        pub use values::*;
    };
}

tunables! {
    // Aspiration windows (search/worker.rs): search near the last score first, widen on failure.
    /// Shallowest iteration searched with a window instead of the full range.
    aspiration_min_depth = 4, 1..=10, 1;
    /// Half-width of the first window.
    aspiration_delta = 20, 5..=60, 3;
    /// After a failure the half-width grows by half of itself plus this.
    aspiration_growth = 10, 0..=40, 3;

    // Razoring: the static eval is so far below alpha that only captures are searched.
    /// Deepest node razored.
    razor_max_depth = 3, 1..=6, 1;
    /// Margin per ply of depth.
    razor_margin = 300, 100..=600, 20;

    // Reverse futility pruning: the static eval is so far above beta that a shallow search
    // will not fall below it.
    /// Deepest node pruned.
    rfp_max_depth = 8, 4..=12, 1;
    /// Margin per ply of depth.
    rfp_margin = 75, 30..=150, 6;
    /// Margin given back when the eval is improving.
    rfp_improving = 40, 0..=100, 6;

    // Null-move pruning: if passing still fails high, a real move will too.
    /// Shallowest node tried.
    nmp_min_depth = 3, 1..=6, 1;
    /// Reduction at any depth.
    nmp_base_reduction = 3, 1..=6, 1;
    /// One more ply of reduction per this many plies of depth.
    nmp_depth_divisor = 4, 2..=8, 1;
    /// One more ply of reduction per this much eval above beta...
    nmp_eval_divisor = 200, 50..=400, 15;
    /// ...up to this many plies.
    nmp_eval_max = 3, 1..=6, 1;
    /// Shallowest node whose null-move fail high is verified by a normal search of the node.
    nmp_verify_min_depth = 12, 6..=20, 1;

    // ProbCut: a capture that beats beta by a margin in a shallower search cuts the node.
    /// Shallowest node tried.
    probcut_min_depth = 5, 3..=10, 1;
    /// How far above beta the capture must score.
    probcut_margin = 200, 80..=400, 15;
    /// The verifying search is this much shallower than the node.
    probcut_reduction = 4, 2..=6, 1;

    // Internal iterative reduction: a deep PV or cut node with no table move is searched a
    // ply shallower.
    /// Shallowest node reduced.
    iir_min_depth = 4, 2..=8, 1;

    // Singular extension: the table move is searched deeper when no other move comes near
    // its score.
    /// Shallowest node tested.
    se_min_depth = 8, 4..=12, 1;
    /// The table's entry must be at most this much shallower than the node.
    se_tt_depth_margin = 3, 1..=6, 1;
    /// The other moves are tested against the table score less this many sixteenths of a
    /// centipawn per ply of depth.
    se_margin_per_depth_x16 = 16, 4..=64, 3;
    /// The test searches (depth - 1) / this deep.
    se_verify_divisor = 2, 2..=4, 1;
    /// Two plies of extension when the others fall this much further below.
    se_double_margin = 20, 0..=60, 4;
    /// At most this many double extensions on one line.
    se_double_max = 6, 0..=12, 1;
    /// Plies the table move loses when it is not singular but the node should fail high.
    se_negative_extension = 1, 0..=3, 1;

    // Late move pruning: enough quiet moves tried at a shallow node.
    /// Deepest node pruned.
    lmp_max_depth = 6, 2..=10, 1;
    /// Quiet moves allowed: LMP_BASE + depth^2...
    lmp_base = 3, 0..=10, 1;
    /// ...times this many hundredths when the eval is not improving.
    lmp_not_improving_pct = 50, 25..=100, 5;

    // Futility pruning: a quiet move cannot lift a hopeless static eval past alpha.
    /// Deepest node pruned.
    futility_max_depth = 6, 2..=10, 1;
    /// Margin at depth 0.
    futility_base = 100, 0..=250, 10;
    /// Margin per ply of depth.
    futility_margin = 90, 40..=200, 8;

    // SEE pruning of losing captures at shallow nodes.
    /// Deepest node pruned.
    see_prune_max_depth = 5, 2..=10, 1;
    /// A capture is pruned when it loses more than this per ply of depth.
    see_prune_margin = 90, 30..=200, 8;

    // SEE pruning of quiet moves at shallow nodes.
    /// Deepest node pruned.
    see_quiet_max_depth = 8, 2..=12, 1;
    /// A quiet move is pruned when it loses more than this per ply of depth squared.
    see_quiet_margin = 25, 5..=80, 3;

    // History pruning: a quiet move with a bad history at a shallow node.
    /// Deepest node pruned.
    history_prune_max_depth = 3, 1..=6, 1;
    /// A quiet move is pruned when its history and continuation history sum below minus
    /// this per ply of depth.
    history_prune_margin = 2048, 500..=8000, 250;

    // Late move reductions: quiet moves after the first few are searched shallower first.
    // The history term reads continuation history too.
    /// Shallowest node reduced.
    lmr_min_depth = 3, 1..=6, 1;
    /// Root moves from this place in the list on (the first is 1) are reduced when quiet.
    root_lmr_min_move = 4, 2..=12, 1;
    /// Reduction table, in hundredths of a ply: LMR_BASE + 100 ln(depth) ln(moves) /
    /// LMR_DIVISOR...
    lmr_base_pct = 75, 0..=200, 8;
    /// ...see [`lmr_base_pct`].
    lmr_divisor_pct = 225, 150..=400, 12;
    /// Plies more reduction at an expected cut node.
    lmr_cut_node = 1, 0..=3, 1;
    /// One ply less (more) reduction per this much good (bad) history and continuation
    /// history...
    lmr_history_divisor = 8000, 2000..=20000, 500;
    /// ...up to this many plies either way.
    lmr_history_max = 2, 0..=4, 1;
    /// Losing captures are reduced too: one ply less (more) per this much good (bad) capture
    /// history, up to `lmr_history_max` either way.
    lmr_capture_history_divisor = 6000, 1500..=20000, 500;

    // The re-search of a reduced move that beat alpha goes a ply deeper or shallower by how
    // far its reduced score beat the best score so far.
    /// A ply deeper when the reduced search beat the best score by more than this...
    lmr_deeper_margin = 50, 10..=150, 8;
    /// ...a ply shallower when by less than this.
    lmr_shallower_margin = 10, 0..=50, 4;

    // Hindsight depth: a node reached by a late-move-reduced move searches deeper or
    // shallower by what the static evaluations of the node and its parent (each for its side
    // to move; their sum is what the move cost the side that played it) say of the move.
    /// A node whose move was reduced by at least this many plies and cost its side nothing
    /// (the two evaluations sum to 0 or less) searches a ply deeper.
    hindsight_reduction_min = 3, 1..=6, 1;
    /// A node whose move was reduced and cost its side more than this (both sides to move
    /// think they stand well) searches a ply shallower (from depth 2).
    hindsight_quiet_margin = 150, 50..=400, 15;

    // Quiescence search.
    /// A capture is searched only when it wins at least this in the exchange.
    qs_see_threshold = 0, -200..=100, 10;
    /// A capture is skipped when the stand-pat score plus this and its victim's value
    /// stays at or below alpha.
    qs_futility_margin = 150, 50..=400, 12;

    // Histories (history.rs).
    /// History scores stay within this magnitude (continuation entries are 16-bit).
    history_max = 16384, 8192..=30000, 800;
    // A cutoff's bonus linear in depth: by depth squared the histories stayed too small for
    // the rules that read them (history pruning, the history terms of late move reductions).
    /// Bonus (and malus) of one cutoff, per ply of depth up to `history_bonus_max`.
    history_bonus_per_depth = 256, 16..=800, 16;
    /// The largest bonus (and malus) of one cutoff.
    history_bonus_max = 2400, 300..=6000, 100;
    /// A node that fails low from at least this depth gives the opponent's quiet move to
    /// it a cutoff's bonus in its continuation histories.
    prior_move_bonus_min_depth = 3, 1..=8, 1;
    /// Captures are ordered by victim and attacker plus capture history over this.
    capture_history_divisor = 16, 4..=64, 2;

    // Correction history (correction.rs).
    /// An entry never corrects by more than this many centipawns (127 at most: entries are
    /// 16-bit in 1/256 of a centipawn).
    correction_limit = 64, 16..=127, 6;
    /// A search result weighs min(depth + 1, this) / 256 into its entry.
    correction_weight_max = 16, 4..=64, 2;
    /// Hundredths of the pawn-structure entry in the correction...
    correction_pawn_pct = 60, 0..=150, 6;
    /// ...and of each colour's pieces entry (the three sum to 1.2 when they agree).
    correction_nonpawn_pct = 30, 0..=100, 4;

    // The score the search reads (eval/scaling.rs).
    /// Hundredths by which the evaluation shrinks with no material left, in proportion to
    /// the material missing from the start position's (0: not scaled).
    eval_material_scale_pct = 32, 0..=60, 4;
    /// Hundredths by which the evaluation shrinks at a halfmove clock of 100, in
    /// proportion to the clock (0: not scaled).
    eval_fifty_move_damping_pct = 50, 0..=100, 5;

    // Piece values of exchange evaluation (see.rs) and capture ordering; the pawn is 100.
    /// Knight.
    see_knight = 320, 250..=420, 10;
    /// Bishop.
    see_bishop = 330, 250..=420, 10;
    /// Rook.
    see_rook = 500, 400..=650, 15;
    /// Queen.
    see_queen = 950, 800..=1200, 25;

    // Time management (timeman.rs); only games with a clock exercise these.
    /// Moves planned for when the GUI does not say how many remain.
    tm_horizon_moves = 30, 15..=50, 2;
    /// Hundredths of the increment added to each move's share of the clock.
    tm_increment_pct = 75, 40..=100, 5;
    /// Hundredths of the clock one move may spend at most (with more moves to go).
    tm_max_share_pct = 59, 30..=80, 4;
    /// The hard limit is this many times the soft one (within the cap above).
    tm_hard_ratio = 5, 2..=10, 1;
    /// Soft-limit factor in hundredths after 0 iterations with the same best move...
    tm_stability_0_pct = 160, 100..=250, 8;
    /// ...after 1...
    tm_stability_1_pct = 126, 90..=200, 6;
    /// ...after 2...
    tm_stability_2_pct = 98, 70..=150, 5;
    /// ...after 3...
    tm_stability_3_pct = 89, 50..=130, 5;
    /// ...after 4 or more.
    tm_stability_4_pct = 78, 40..=120, 5;
    /// Centipawns of score drop that add 100% to the score factor...
    tm_score_drop_span = 200, 50..=400, 15;
    /// ...whose least value is this many hundredths...
    tm_score_factor_min_pct = 85, 50..=100, 4;
    /// ...and greatest this many.
    tm_score_factor_max_pct = 158, 100..=250, 8;
    /// The node factor is this many hundredths less the best move's share of the nodes...
    tm_node_factor_base_pct = 173, 120..=250, 6;
    /// ...at least this many hundredths...
    tm_node_factor_min_pct = 75, 40..=100, 4;
    /// ...and at most this many.
    tm_node_factor_max_pct = 149, 100..=250, 6;
}

/// Bound-failed lines are reported only once the search has run this long (display only,
/// not tuned).
pub const ASPIRATION_REPORT_AFTER: Duration = Duration::from_secs(2);

/// A hundredths value as a factor.
pub fn pct(hundredths: i32) -> f64 {
    f64::from(hundredths) / 100.0
}

/// Sets the tunable `name` (spelled as declared, any case) to `value` for the searches
/// that follow. Refused with a message naming the range when out of it, and always in the
/// ordinary build, whose tunables are constants.
pub fn set(name: &str, value: i32) -> Result<(), String> {
    let index = TUNABLES
        .iter()
        .position(|t| t.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| format!("unknown option: {name}"))?;
    let tunable = TUNABLES[index];
    if !(tunable.min..=tunable.max).contains(&value) {
        return Err(format!(
            "option {}: value must be a number from {} to {}, got '{value}'",
            tunable.name, tunable.min, tunable.max
        ));
    }
    #[cfg(feature = "tune")]
    {
        values::VALUES[index].store(value, std::sync::atomic::Ordering::Relaxed);
        Ok(())
    }
    #[cfg(not(feature = "tune"))]
    Err(format!(
        "option {}: this build has no tunable options (built without the tune feature)",
        tunable.name
    ))
}

/// The tunable's current value (its default in the ordinary build).
pub fn current(tunable: &Tunable) -> i32 {
    #[cfg(feature = "tune")]
    if let Some(index) = TUNABLES.iter().position(|t| t.name == tunable.name) {
        return values::VALUES[index].load(std::sync::atomic::Ordering::Relaxed);
    }
    tunable.default
}

/// Whether this build exposes the tunables as UCI options (the `tune` cargo feature).
pub const TUNE_BUILD: bool = cfg!(feature = "tune");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_lies_in_its_range_with_a_positive_step() {
        for t in TUNABLES {
            assert!(t.min <= t.default && t.default <= t.max, "{t:?}");
            assert!(t.step > 0 && t.step <= t.max - t.min, "{t:?}");
        }
    }

    #[test]
    fn names_are_distinct_ignoring_case() {
        for (i, a) in TUNABLES.iter().enumerate() {
            for b in &TUNABLES[i + 1..] {
                assert!(!a.name.eq_ignore_ascii_case(b.name), "{} twice", a.name);
            }
        }
    }

    #[test]
    fn accessors_return_the_declared_defaults() {
        let rfp = TUNABLES.iter().find(|t| t.name == "rfp_margin").unwrap();
        assert_eq!(rfp_margin(), current(rfp));
        assert!(TUNABLES.len() >= 30, "{}", TUNABLES.len());
    }

    /// The name prefixes of the SPSA script's groups (`GROUPS` in `tools/lab/spsa.py`).
    fn spsa_group_prefixes() -> Vec<String> {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tools/lab/spsa.py");
        let script = std::fs::read_to_string(path).expect("tools/lab/spsa.py");
        let start = script.find("GROUPS = {").expect("a GROUPS table");
        let end = start + script[start..].find("\n}").expect("the table's end");
        // Each group is `"name": ("prefix_", ...)`: the quoted strings inside parentheses.
        let mut prefixes = Vec::new();
        for tuple in script[start..end].split('(').skip(1) {
            let inside = tuple.split(')').next().unwrap_or("");
            prefixes.extend(inside.split('"').skip(1).step_by(2).map(str::to_owned));
        }
        prefixes
    }

    #[test]
    fn every_tunable_is_in_an_spsa_group() {
        let prefixes = spsa_group_prefixes();
        assert!(prefixes.iter().any(|p| p == "tm_"), "{prefixes:?}");
        for tunable in TUNABLES {
            assert!(
                prefixes
                    .iter()
                    .any(|p| tunable.name.starts_with(p.as_str())),
                "{} is in no group of tools/lab/spsa.py",
                tunable.name
            );
        }
    }
}
