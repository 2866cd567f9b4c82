//! The search's threads: the helpers started, the main thread's search run here, the
//! helpers stopped and joined. Lazy SMP: every thread searches the same root and shares only
//! the transposition table; the main thread alone reports and decides.

use std::sync::atomic::Ordering::Relaxed;

use tracing::{debug, error};

use super::interface::{Reporter, Silent};
use super::memory::ThreadMemory;
use super::worker::Worker;

/// Stack of a helper thread: the recursion keeps move lists on the stack for up to MAX_PLY.
const HELPER_STACK: usize = 32 << 20;

/// Searches with one thread per entry of `learned`: the main thread (0) here, with
/// `multi_pv` lines reported to `reporter`, and helpers beside it, each worker made by
/// `make_worker` from its thread's memory. Returns the main thread's worker and the depth
/// of its last completed iteration; the helpers' memories are back in `learned`, the main
/// thread's is still in its worker.
pub(super) fn run<'a>(
    learned: &mut [ThreadMemory],
    multi_pv: usize,
    reporter: &dyn Reporter,
    make_worker: impl Fn(usize, ThreadMemory) -> Worker<'a>,
) -> (Worker<'a>, i32) {
    let mut main = make_worker(0, std::mem::take(&mut learned[0]));
    let threads = learned.len();
    let depth = std::thread::scope(|scope| {
        let mut first_error = None;
        let helpers: Vec<_> = (1..threads)
            .filter_map(|id| {
                let mut helper = make_worker(id, std::mem::take(&mut learned[id]));
                let spawned = std::thread::Builder::new()
                    .name(format!("helper {id}"))
                    .stack_size(HELPER_STACK)
                    .spawn_scoped(scope, move || {
                        helper.iterate(1, &Silent);
                        helper.into_memory()
                    });
                // Without a helper the search is only slower, never wrong; it is reported.
                spawned
                    .map(|handle| (id, handle))
                    .map_err(|e| {
                        debug!("helper thread {id} not started: {e}");
                        first_error.get_or_insert_with(|| e.to_string());
                    })
                    .ok()
            })
            .collect();
        if let Some(error) = first_error {
            reporter.threads_short(1 + helpers.len(), threads, &error);
        }
        let depth = main.iterate(multi_pv, reporter);
        // Helpers stop when the main thread is done.
        main.shared.signals.stop.store(true, Relaxed);
        // Joined one by one: the scope's own join returns before a helper's thread-locals
        // are freed, so a helper could still be exiting after `search` returned. A helper
        // that panicked costs only its share of the search; the main thread's move stands.
        for (id, helper) in helpers {
            match helper.join() {
                Ok(kept) => learned[id] = kept,
                Err(_) => error!("a helper thread panicked; its search is lost"),
            }
        }
        depth
    });
    (main, depth)
}
