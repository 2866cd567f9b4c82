//! The clock's guard: a thread of its own that stops a timed search at its limits, whether
//! or not the search's main thread gets the processor. With many more search threads than
//! cores the main thread's turns come hundreds of milliseconds apart, too rarely for its own
//! look at the clock every few thousand nodes; a sleeping thread is woken on time.

use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;

use super::shared::Shared;
use crate::engine::timeman::TimeManager;

/// How long the guard sleeps between two looks at the clock and the signals.
const LOOK_INTERVAL: Duration = Duration::from_millis(1);

/// Whether a search on `time` has a limit for the guard to keep.
pub(super) fn needed(time: &TimeManager) -> bool {
    time.budget().1.is_some()
}

/// Watches the clock of the search `shared` describes until the search stops, and stops it
/// as the main thread's own check does: past the hard limit once the main thread has
/// completed its first iteration's best line, past the last resort in any case. A ponder
/// search's clock starts at the `ponderhit` instant; before it, the clock does not run.
pub(super) fn keep(shared: &Shared, mut time: TimeManager) {
    let signals = shared.signals;
    let mut clock_running = false;
    while !signals.stop.load(Relaxed) {
        // A `ponderhit`, whenever it came (before this thread started too), starts the
        // clock at its instant; a search that is not pondering runs on its clock from the
        // start.
        if !clock_running {
            if let Some(at) = signals.ponder_hit_at() {
                time.restart_at(at);
                clock_running = true;
            } else if !signals.pondering.load(Relaxed) {
                clock_running = true;
            }
        }
        if clock_running {
            let limit_reached = time.hard_exceeded() && shared.first_line_done.load(Relaxed);
            if limit_reached || time.last_resort_exceeded() {
                signals.stop.store(true, Relaxed);
                return;
            }
        }
        std::thread::park_timeout(LOOK_INTERVAL);
    }
}
