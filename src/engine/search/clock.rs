//! The move's clock as a search reads it: the time budget, the `ponderhit` start of the
//! clock and the rule that stops a timed search. The main thread and the clock's guard each
//! keep one and ask it the same questions, so the rule is written here once.

use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;

use super::interface::Signals;
use crate::engine::timeman::TimeManager;

/// The clock of one search, as one thread keeps it.
#[derive(Clone, Debug)]
pub(super) struct SearchClock {
    /// The time budget, measured from the start (or from `ponderhit`).
    time: TimeManager,
    /// Whether the clock runs: from the start of a search that is not pondering, from the
    /// `ponderhit` instant of one that was.
    running: bool,
}

impl SearchClock {
    /// A clock on the budget `time`, not yet started.
    pub(super) fn new(time: TimeManager) -> SearchClock {
        SearchClock {
            time,
            running: false,
        }
    }

    /// Whether the search has a hard limit, which a guard has to keep.
    pub(super) fn has_hard_limit(&self) -> bool {
        self.time.budget().1.is_some()
    }

    /// Time since the search (or the ponder hit) started.
    pub(super) fn elapsed(&self) -> Duration {
        self.time.elapsed()
    }

    /// Whether the move's clock runs: not while the search ponders; once it does not (a
    /// `ponderhit`, whenever it came, or a search that never pondered), the clock starts at
    /// the `ponderhit` instant if there was one, at the search's start otherwise.
    pub(super) fn runs(&mut self, signals: &Signals) -> bool {
        if !self.running && !signals.pondering.load(Relaxed) {
            // Read after the flag: the instant is written under its lock with the flag, so
            // a search that is no longer pondering finds it.
            if let Some(at) = signals.ponder_hit_at() {
                self.time.restart_at(at);
            }
            self.running = true;
        }
        self.running
    }

    /// Whether the clock stops the search now: past the hard limit once the first
    /// iteration's best line is complete (`first_line_done`), past the last resort in any
    /// case; never before the clock runs.
    pub(super) fn out_of_time(&mut self, signals: &Signals, first_line_done: bool) -> bool {
        self.runs(signals)
            && ((self.time.hard_exceeded() && first_line_done) || self.time.last_resort_exceeded())
    }

    /// Whether the clock says not to start another iteration: past the soft limit scaled
    /// by `scale` (see [`TimeManager::soft_exceeded`]), or, with `single_move` (one move to
    /// choose from), past the time such a move is given. Never before the clock runs.
    pub(super) fn iteration_time_spent(
        &mut self,
        signals: &Signals,
        scale: f64,
        single_move: bool,
    ) -> bool {
        self.runs(signals)
            && (self.time.soft_exceeded(scale)
                || (single_move && self.time.single_move_time_spent()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::limits::Limits;
    use shakmaty::{ByColor, Color};
    use std::time::Instant;

    /// A clock for a search on 60 s with no increment, and its hard limit and last resort.
    fn sixty_seconds() -> (SearchClock, Duration, Duration) {
        let overhead = Duration::from_millis(10);
        let limits = Limits {
            time: ByColor::new_with(|_| Some(Duration::from_secs(60))),
            ..Limits::default()
        };
        let time = TimeManager::new(&limits, Color::White, overhead);
        let hard = time.budget().1.expect("a hard limit");
        // The last resort of a clock with no movetime: a quarter of it beyond the overhead.
        let last_resort = (Duration::from_secs(60) - overhead) / 4;
        assert!(hard + Duration::from_secs(1) < last_resort);
        (SearchClock::new(time), hard, last_resort)
    }

    /// Sets the clock's start `ago` before now.
    fn started_ago(clock: &mut SearchClock, ago: Duration) {
        clock.time.restart_at(Instant::now() - ago);
    }

    #[test]
    fn past_the_hard_limit_the_clock_waits_for_the_first_line_and_past_the_last_resort_not() {
        let signals = Signals::default();
        let (mut clock, hard, last_resort) = sixty_seconds();
        started_ago(&mut clock, hard / 2);
        assert!(!clock.out_of_time(&signals, true));
        started_ago(&mut clock, hard + Duration::from_millis(500));
        assert!(!clock.out_of_time(&signals, false));
        assert!(clock.out_of_time(&signals, true));
        started_ago(&mut clock, last_resort + Duration::from_millis(500));
        assert!(clock.out_of_time(&signals, false));
    }

    #[test]
    fn a_pondering_search_has_no_clock_until_ponderhit_starts_it_at_its_instant() {
        let signals = Signals::default();
        signals.pondering.store(true, Relaxed);
        let (mut clock, _, last_resort) = sixty_seconds();
        started_ago(&mut clock, last_resort + Duration::from_secs(1));
        assert!(!clock.runs(&signals));
        assert!(!clock.out_of_time(&signals, true));
        assert!(!clock.iteration_time_spent(&signals, 0.0, true));
        signals.ponder_hit();
        std::thread::sleep(Duration::from_millis(30));
        // The clock is looked at only now; the move's time has run since the ponder hit.
        assert!(clock.runs(&signals));
        let since_hit = clock.elapsed();
        assert!(since_hit >= Duration::from_millis(30), "{since_hit:?}");
        assert!(since_hit < last_resort, "{since_hit:?}");
        assert!(!clock.out_of_time(&signals, true));
        // The start is taken once: a later look does not move it.
        started_ago(&mut clock, last_resort + Duration::from_secs(1));
        assert!(clock.out_of_time(&signals, false));
    }

    #[test]
    fn a_search_that_never_pondered_runs_on_the_clock_from_its_start() {
        let signals = Signals::default();
        let (mut clock, hard, _) = sixty_seconds();
        started_ago(&mut clock, hard + Duration::from_millis(500));
        // A late `ponderhit` leaves the clock as it is.
        signals.ponder_hit();
        assert!(clock.runs(&signals));
        assert!(clock.elapsed() > hard);
        assert!(clock.iteration_time_spent(&signals, 1.0, false));
    }
}
