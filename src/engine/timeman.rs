//! The time budget for one move, all of it inside the remaining clock minus the move
//! overhead: a soft limit (do not start another iteration), a hard limit (stop the search
//! once its first iteration's best line is complete) and a last resort (stop it even
//! before). The search asks these through its clock (`search/clock.rs`), which runs them
//! from the `ponderhit` instant in a search that pondered, and not at all while it ponders.

use std::time::{Duration, Instant};

use shakmaty::Color;

use super::limits::Limits;
use super::params::*;
/// Clock never planned on, beyond the move overhead: a loaded machine can stall a process
/// for tens of milliseconds between `go` and `bestmove`. With less than this left, nothing
/// is planned: the engine answers once its first iteration's best line is complete and
/// lives on the increment until the clock has grown back.
const STALL_RESERVE: Duration = Duration::from_millis(50);

/// The least the clock's last resort waits for a first iteration, where half the clock
/// covers it: depth 1 takes well under a millisecond outside positions that explode.
const LAST_RESORT_FLOOR: Duration = Duration::from_millis(5);

/// The most a clock's plan spends on a move that is the only one to choose from (the only
/// legal move, or the only one `searchmoves` names).
pub const SINGLE_MOVE_TIME: Duration = Duration::from_millis(500);

/// The time budget for one move, measured from `start`.
#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    /// Past this (scaled by what the iterations learned, never past the hard limit) the
    /// search starts no further iteration; it is looked at between iterations only.
    soft: Option<Duration>,
    /// Past this the search stops once its first iteration's best line is complete.
    hard: Option<Duration>,
    /// Past this the search stops even before its first iteration's best line is complete
    /// (a first iteration can explode, and the clock runs).
    last_resort: Option<Duration>,
    /// Whether the soft limit is a plan made from a clock (and may be scaled); a
    /// `movetime` is a promise to use that time.
    scalable: bool,
}

impl TimeManager {
    /// Budgets for `us` under `limits`, keeping `overhead` back for communication delays.
    /// Given both a `movetime` and a clock, the smaller plan holds: a movetime never
    /// spends a clock that cannot pay for it.
    pub fn new(limits: &Limits, us: Color, overhead: Duration) -> TimeManager {
        let movetime = limits.movetime.map(|t| t.saturating_sub(overhead));
        let clock = limits.clock_to_play_on(us);
        let clock_plan = clock.map(|clock| {
            let inc = limits.increment(us);
            // Never plan on more than the clock minus the overhead and the stall reserve.
            let available = clock.saturating_sub(overhead + STALL_RESERVE);
            let horizon = tm_horizon_moves() as u32;
            let moves = limits.moves_to_go.unwrap_or(horizon).clamp(1, horizon);
            let max_share = if moves == 1 {
                0.8
            } else {
                pct(tm_max_share_pct())
            };
            let hard_cap = available.mul_f64(max_share);
            let soft = (available / moves + inc.mul_f64(pct(tm_increment_pct()))).min(hard_cap);
            (soft, (soft * tm_hard_ratio() as u32).min(hard_cap))
        });
        // Waiting for the first iteration's best line may spend a quarter of what the clock
        // holds beyond the overhead, and never less than LAST_RESORT_FLOOR while half the
        // clock covers it (a clock within the overhead would otherwise stop the search at
        // once, on a move no search has scored); a movetime is a promise.
        let clock_quarter = clock.map(|clock| {
            (clock.saturating_sub(overhead) / 4).max(LAST_RESORT_FLOOR.min(clock / 2))
        });
        let (soft, hard, scalable) = match (movetime, clock_plan) {
            (Some(t), None) => (Some(t), Some(t), false),
            (None, Some((soft, hard))) => (Some(soft), Some(hard), true),
            // The movetime holds while the clock's plan is longer; else the clock's plan.
            (Some(t), Some((soft, _))) if t <= soft => (Some(t), Some(t), false),
            (Some(t), Some((soft, hard))) => (Some(soft), Some(hard.min(t)), true),
            (None, None) => (None, None, false),
        };
        let last_resort = match (hard, movetime, clock_quarter) {
            (Some(hard), None, Some(quarter)) => Some(hard.max(quarter)),
            _ => hard,
        };
        TimeManager {
            start: Instant::now(),
            soft,
            hard,
            last_resort,
            scalable,
        }
    }

    /// Restarts the clock at `start` (on `ponderhit`: the move's time starts when it
    /// arrived).
    pub fn restart_at(&mut self, start: Instant) {
        self.start = start;
    }

    /// Time since the search (or the ponder hit) started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Past the soft limit scaled by `scale` (what the search has learned about this
    /// move, see [`SoftScale`]; a `movetime` is not scaled), or past the hard limit,
    /// whichever comes first: do not start another iteration.
    pub fn soft_exceeded(&self, scale: f64) -> bool {
        let scale = if self.scalable { scale } else { 1.0 };
        match (self.soft, self.hard) {
            (Some(soft), Some(hard)) => self.elapsed() >= soft.mul_f64(scale).min(hard),
            _ => false,
        }
    }

    /// With one move to choose from, a clock's plan is cut to [`SINGLE_MOVE_TIME`]: the
    /// search still runs, for a score a GUI can read and a move to ponder on. A `movetime`
    /// is a promise and is spent in full.
    pub fn single_move_time_spent(&self) -> bool {
        self.scalable && self.elapsed() >= SINGLE_MOVE_TIME
    }

    /// Past the hard limit: stop once the first iteration's best line is complete.
    pub fn hard_exceeded(&self) -> bool {
        self.hard.is_some_and(|hard| self.elapsed() >= hard)
    }

    /// Past the last resort: stop now, even before the first iteration's best line is
    /// complete.
    pub fn last_resort_exceeded(&self) -> bool {
        self.last_resort
            .is_some_and(|limit| self.elapsed() >= limit)
    }

    /// The soft and hard limits, if timed.
    pub fn budget(&self) -> (Option<Duration>, Option<Duration>) {
        (self.soft, self.hard)
    }
}

/// What the last iterations say about how much more time this move deserves. The soft limit
/// is multiplied by the product of three factors:
/// - best-move stability: a best move that keeps changing needs more time, one that has
///   stood for several iterations less;
/// - score trend: a score falling from the previous iteration needs more time;
/// - node share: when the best move took most of the nodes, the others were refuted
///   easily and the choice is clear.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SoftScale {
    /// Iterations in a row that ended with the same best move (0: it just changed).
    pub stable_iterations: u32,
    /// The previous iteration's best score less this one's, in centipawns.
    pub score_drop: i32,
    /// Share of the last iteration's root nodes spent under the best move, 0 to 1.
    pub best_move_share: f64,
}

/// The stability factor by iterations the best move has stood (the last for more).
fn stability_factor(stable_iterations: u32) -> f64 {
    pct(match stable_iterations {
        0 => tm_stability_0_pct(),
        1 => tm_stability_1_pct(),
        2 => tm_stability_2_pct(),
        3 => tm_stability_3_pct(),
        _ => tm_stability_4_pct(),
    })
}

/// The range of the score factor.
fn score_factor_range() -> (f64, f64) {
    (
        pct(tm_score_factor_min_pct()),
        pct(tm_score_factor_max_pct()),
    )
}

impl SoftScale {
    /// The factor the soft limit is multiplied by.
    pub fn factor(&self) -> f64 {
        let stability = stability_factor(self.stable_iterations);
        let (least, most) = score_factor_range();
        let score = (1.0 + f64::from(self.score_drop) / f64::from(tm_score_drop_span()))
            .clamp(least, most.max(least));
        let nodes = (pct(tm_node_factor_base_pct()) - self.best_move_share).clamp(
            pct(tm_node_factor_min_pct()),
            pct(tm_node_factor_max_pct()).max(pct(tm_node_factor_min_pct())),
        );
        stability * score * nodes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::ByColor;

    fn clock(ms: u64, inc: u64, mtg: Option<u32>) -> Limits {
        Limits {
            time: ByColor::new_with(|_| Some(Duration::from_millis(ms))),
            inc: ByColor::new_with(|_| Duration::from_millis(inc)),
            moves_to_go: mtg,
            ..Limits::default()
        }
    }

    #[test]
    fn budgets_stay_inside_the_clock() {
        let overhead = Duration::from_millis(10);
        for (ms, inc, mtg) in [
            (1, 0, None),
            (5, 10, None),
            (1000, 10, None),
            (60_000, 0, Some(1)),
            (60_000, 0, Some(40)),
            (300_000, 3000, None),
            (10, 5000, None),
        ] {
            let tm = TimeManager::new(&clock(ms, inc, mtg), Color::White, overhead);
            let (soft, hard) = tm.budget();
            let (soft, hard) = (soft.unwrap(), hard.unwrap());
            assert!(soft <= hard, "{ms}+{inc}");
            assert!(
                hard <= Duration::from_millis(ms).saturating_sub(overhead),
                "{ms}+{inc}: hard {hard:?}"
            );
        }
    }

    #[test]
    fn with_a_movetime_and_a_clock_the_smaller_plan_holds() {
        let overhead = Duration::from_millis(10);
        let both = |ms: u64, movetime: u64| {
            let limits = Limits {
                movetime: Some(Duration::from_millis(movetime)),
                ..clock(ms, 0, None)
            };
            TimeManager::new(&limits, Color::White, overhead).budget()
        };
        let clock_only = TimeManager::new(&clock(1000, 0, None), Color::White, overhead).budget();
        // A long movetime on a short clock: the clock's plan.
        assert_eq!(both(1000, 5000), clock_only);
        // A short movetime on a long clock: the movetime, less the overhead.
        let short = Some(Duration::from_millis(90));
        assert_eq!(both(60_000, 100), (short, short));
    }

    #[test]
    fn a_stall_of_the_reserve_never_flags_the_clock() {
        let overhead = Duration::from_millis(10);
        for ms in [1, 30, 59, 60, 61, 75, 100, 250, 1000, 60_000] {
            for inc in [0, 5, 10, 100, 1000] {
                for mtg in [None, Some(1), Some(5)] {
                    let tm = TimeManager::new(&clock(ms, inc, mtg), Color::White, overhead);
                    let hard = tm.budget().1.unwrap();
                    // The search may overrun its hard limit by its first iteration's best
                    // line and a node check; the reserve absorbs a stall on top of that.
                    if ms > 60 {
                        assert!(
                            hard + overhead + STALL_RESERVE <= Duration::from_millis(ms),
                            "{ms}+{inc} mtg {mtg:?}: hard {hard:?}"
                        );
                    } else {
                        assert_eq!(hard, Duration::ZERO, "{ms}+{inc}: plan on nothing");
                    }
                }
            }
        }
    }

    #[test]
    fn the_last_resort_waits_for_a_first_iteration_on_a_clock_but_keeps_a_movetime() {
        let overhead = Duration::from_millis(10);
        let last_resort = |limits: &Limits| {
            TimeManager::new(limits, Color::White, overhead)
                .last_resort
                .unwrap()
        };
        // On the reserve nothing is planned, yet a first iteration may take a quarter of it.
        assert_eq!(last_resort(&clock(50, 10, None)), Duration::from_millis(10));
        // On a long clock the hard limit comes well before a quarter of the clock.
        let long = clock(60_000, 0, None);
        let hard = TimeManager::new(&long, Color::White, overhead)
            .budget()
            .1
            .unwrap();
        assert!(hard < last_resort(&long));
        assert_eq!(last_resort(&long), Duration::from_millis(60_000 - 10) / 4);
        // A movetime is a promise: no grace beyond it.
        let movetime = Limits {
            movetime: Some(Duration::from_millis(100)),
            ..clock(60_000, 0, None)
        };
        assert_eq!(last_resort(&movetime), Duration::from_millis(90));
    }

    #[test]
    fn a_clock_given_only_for_the_other_side_leaves_nothing_to_plan_on() {
        let overhead = Duration::from_millis(10);
        let limits = Limits {
            time: ByColor {
                white: None,
                black: Some(Duration::from_millis(1000)),
            },
            inc: ByColor::new_with(|_| Duration::from_millis(100)),
            ..Limits::default()
        };
        let tm = TimeManager::new(&limits, Color::White, overhead);
        assert_eq!(tm.budget(), (Some(Duration::ZERO), Some(Duration::ZERO)));
        assert_eq!(tm.last_resort, Some(Duration::ZERO));
        // Black plans on its own clock.
        let black = TimeManager::new(&limits, Color::Black, overhead).budget();
        assert!(black.1.is_some_and(|hard| hard > Duration::ZERO));
    }

    #[test]
    fn each_side_plans_on_its_own_clock() {
        let overhead = Duration::from_millis(10);
        let limits = Limits {
            time: ByColor {
                white: Some(Duration::from_millis(60_000)),
                black: Some(Duration::from_millis(2_000)),
            },
            inc: ByColor {
                white: Duration::ZERO,
                black: Duration::from_millis(500),
            },
            ..Limits::default()
        };
        let white = TimeManager::new(&limits, Color::White, overhead).budget();
        let black = TimeManager::new(&limits, Color::Black, overhead).budget();
        // White: 59.94 s / 30; black: 1.94 s / 30 + 0.75 x 0.5 s, capped at 0.59 x 1.94 s.
        assert_eq!(white.0, Some(Duration::from_millis(1998)));
        assert_eq!(black.0, Some(Duration::from_nanos(439_666_666)));
        assert_eq!(black.1, Some(Duration::from_micros(1_144_600)));
    }

    #[test]
    fn increments_and_moves_to_go_shape_the_budget() {
        let overhead = Duration::from_millis(10);
        let plain = TimeManager::new(&clock(60_000, 0, None), Color::Black, overhead);
        let with_inc = TimeManager::new(&clock(60_000, 1000, None), Color::Black, overhead);
        assert!(with_inc.budget().0 > plain.budget().0);
        let last_move = TimeManager::new(&clock(60_000, 0, Some(1)), Color::Black, overhead);
        assert!(last_move.budget().0 > plain.budget().0);
        let untimed = TimeManager::new(&Limits::default(), Color::White, overhead);
        assert_eq!(untimed.budget(), (None, None));
    }

    fn scale(stable_iterations: u32, score_drop: i32, best_move_share: f64) -> f64 {
        SoftScale {
            stable_iterations,
            score_drop,
            best_move_share,
        }
        .factor()
    }

    #[test]
    fn the_soft_scale_grows_with_doubt() {
        let settled = scale(4, 0, 0.9);
        // A move with no news (the best move has stood two iterations and took three
        // quarters of the nodes, the score holds) keeps about the time planned.
        let neutral = scale(2, 0, 0.75);
        assert!((neutral - 1.0).abs() < 0.05, "{neutral}");
        // No score drop leaves the score factor at exactly 1: only stability and node share.
        let others = stability_factor(2) * (pct(tm_node_factor_base_pct()) - 0.75);
        assert!((neutral - others).abs() < 1e-9, "{neutral} {others}");
        assert!(settled < neutral);
        // Each sign of doubt alone adds time.
        assert!(scale(0, 0, 0.75) > neutral);
        assert!(scale(2, 60, 0.75) > neutral);
        assert!(scale(2, 0, 0.3) > neutral);
        // A rising score takes a little away, within the range.
        assert!(scale(2, -60, 0.75) < neutral);
        assert!(scale(2, -10_000, 0.75) >= neutral * score_factor_range().0 - 1e-9);
        // The extremes stay bounded.
        let most = stability_factor(0) * score_factor_range().1 * pct(tm_node_factor_max_pct());
        assert!((scale(0, 10_000, 0.0) - most).abs() < 1e-9);
        assert!(scale(100, -10_000, 1.0) > 0.4);
    }

    #[test]
    fn a_scaled_soft_limit_never_passes_the_hard_limit() {
        // 100 ms + 1 s: 50 ms to plan on, both limits capped at 0.59 x 50 ms.
        let tm = TimeManager::new(&clock(100, 1000, None), Color::White, Duration::ZERO);
        assert_eq!(tm.budget().1, Some(Duration::from_micros(29_500)));
        std::thread::sleep(Duration::from_millis(35));
        assert!(tm.soft_exceeded(1000.0));
        let untimed = TimeManager::new(&Limits::default(), Color::White, Duration::ZERO);
        assert!(!untimed.soft_exceeded(0.0));
    }

    #[test]
    fn a_movetime_is_not_scaled_down() {
        let limits = Limits {
            movetime: Some(Duration::from_secs(60)),
            ..Limits::default()
        };
        let tm = TimeManager::new(&limits, Color::White, Duration::ZERO);
        std::thread::sleep(Duration::from_millis(5));
        // A clock's soft limit scaled by 0 would be passed at once.
        assert!(!tm.soft_exceeded(0.0));
        let clock = TimeManager::new(&clock(60_000, 0, None), Color::White, Duration::ZERO);
        std::thread::sleep(Duration::from_millis(5));
        assert!(clock.soft_exceeded(0.0));
    }
}
