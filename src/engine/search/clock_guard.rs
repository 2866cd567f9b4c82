//! The clock's guard: a thread of its own that stops a timed search at its limits, whether
//! or not the search's main thread gets the processor. With many more search threads than
//! cores the main thread's turns come hundreds of milliseconds apart, too rarely for its own
//! look at the clock every few thousand nodes; a sleeping thread is woken on time.

use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;

use super::clock::SearchClock;
use super::shared::Shared;

/// How long the guard sleeps between two looks at the clock and the signals.
const LOOK_INTERVAL: Duration = Duration::from_millis(1);

/// Whether a search on `clock` has a limit for the guard to keep.
pub(super) fn needed(clock: &SearchClock) -> bool {
    clock.has_hard_limit()
}

/// Watches `clock`, a copy of the main thread's, until the search `shared` describes stops,
/// and stops it when the clock says so ([`SearchClock::out_of_time`], the rule the main
/// thread's own look follows).
pub(super) fn keep(shared: &Shared, mut clock: SearchClock) {
    let signals = shared.signals;
    while !signals.stop.load(Relaxed) {
        if clock.out_of_time(signals, shared.first_line_done()) {
            shared.stop();
            return;
        }
        std::thread::park_timeout(LOOK_INTERVAL);
    }
}
