//! The search's threads: the main thread's search run here at once, the helpers started
//! beside it by a thread of their own, the clock kept by its guard, and everything stopped
//! and joined when the main thread is done. Lazy SMP: every thread searches the same root
//! and shares only the transposition table; the main thread alone reports and decides.
//!
//! Nothing the main thread needs waits on the helpers: it searches while they are still
//! being started, and a guard thread stops the search on time even when there are many
//! more threads than cores and the main thread seldom gets one.

use std::sync::atomic::Ordering::Relaxed;
use std::thread::{Scope, ScopedJoinHandle};

use tracing::{debug, error};

use super::clock_guard;
use super::interface::{Reporter, Silent};
use super::memory::ThreadMemory;
use super::worker::Worker;

/// Stack of a helper thread: the recursion keeps move lists on the stack for up to MAX_PLY.
const HELPER_STACK: usize = 32 << 20;

/// A started helper: its thread id and its thread, which gives back its memory.
type Helper<'scope> = (usize, ScopedJoinHandle<'scope, ThreadMemory>);

/// What the helper starter leaves: the helpers started, the memories of those not started
/// because the search stopped first (by thread id), and the first reason a helper could not
/// be started.
struct Started<'scope> {
    helpers: Vec<Helper<'scope>>,
    unused: Vec<(usize, ThreadMemory)>,
    error: Option<String>,
}

/// Searches with one thread per entry of `learned`: the main thread (0) here, with
/// `multi_pv` lines reported to `reporter`, and helpers beside it, each worker made by
/// `make_worker` from its thread's memory. Returns the main thread's worker and the depth
/// of its last completed iteration; the helpers' memories are back in `learned`, the main
/// thread's is still in its worker.
pub(super) fn run<'a>(
    learned: &mut [ThreadMemory],
    multi_pv: usize,
    reporter: &dyn Reporter,
    make_worker: impl Fn(usize, ThreadMemory) -> Worker<'a> + Sync,
) -> (Worker<'a>, i32) {
    let mut main = make_worker(0, std::mem::take(&mut learned[0]));
    let threads = learned.len();
    let helper_memories: Vec<ThreadMemory> = learned[1..].iter_mut().map(std::mem::take).collect();
    let shared = main.shared;
    let (depth, kept) = std::thread::scope(|scope| {
        let main_clock = main.main.as_ref().map(|m| m.clock().clone());
        let guard = main_clock.filter(clock_guard::needed).map(|time| {
            std::thread::Builder::new()
                .name("clock guard".into())
                .spawn_scoped(scope, move || clock_guard::keep(shared, time))
        });
        let guard = match guard.transpose() {
            Ok(guard) => guard,
            // Without the guard the main thread's own look at the clock still stops it.
            Err(e) => {
                debug!("clock guard not started: {e}");
                None
            }
        };
        let make_worker = &make_worker;
        let starter = std::thread::Builder::new()
            .name("helper starter".into())
            .spawn_scoped(scope, move || {
                start_helpers(scope, helper_memories, make_worker)
            });
        let depth = main.iterate(multi_pv, reporter);
        // Helpers (and the guard, and the starter) stop when the main thread is done.
        shared.signals.stop.store(true, Relaxed);
        if let Some(guard) = &guard {
            guard.thread().unpark();
        }
        let started = match starter {
            Ok(starter) => starter.join().unwrap_or_else(|_| Started {
                helpers: Vec::new(),
                unused: Vec::new(),
                error: Some("the helper starter panicked".to_string()),
            }),
            Err(e) => Started {
                helpers: Vec::new(),
                unused: Vec::new(),
                error: Some(e.to_string()),
            },
        };
        if let Some(error) = started.error {
            reporter.threads_short(1 + started.helpers.len(), threads, &error);
        }
        // Joined one by one: the scope's own join returns before a helper's thread-locals
        // are freed, so a helper could still be exiting after `search` returned. A helper
        // that panicked costs only its share of the search; the main thread's move stands.
        let mut kept = started.unused;
        for (id, helper) in started.helpers {
            match helper.join() {
                Ok(memory) => kept.push((id, memory)),
                Err(_) => error!("a helper thread panicked; its search is lost"),
            }
        }
        if let Some(guard) = guard {
            let _ = guard.join();
        }
        (depth, kept)
    });
    for (id, memory) in kept {
        learned[id] = memory;
    }
    (main, depth)
}

/// Starts a helper for each of `memories` (thread ids from 1) until the search stops; a
/// helper that cannot be started costs only its share of the search.
fn start_helpers<'scope, 'env, 'a: 'scope>(
    scope: &'scope Scope<'scope, 'env>,
    memories: Vec<ThreadMemory>,
    make_worker: &'scope (impl Fn(usize, ThreadMemory) -> Worker<'a> + Sync),
) -> Started<'scope> {
    let mut started = Started {
        helpers: Vec::with_capacity(memories.len()),
        unused: Vec::new(),
        error: None,
    };
    let mut memories = (1..).zip(memories);
    for (id, memory) in memories.by_ref() {
        let mut helper = make_worker(id, memory);
        if helper.stopped() {
            started.unused.push((id, helper.into_memory()));
            break;
        }
        let spawned = std::thread::Builder::new()
            .name(format!("helper {id}"))
            .stack_size(HELPER_STACK)
            .spawn_scoped(scope, move || {
                helper.iterate(1, &Silent);
                helper.into_memory()
            });
        match spawned {
            Ok(handle) => started.helpers.push((id, handle)),
            Err(e) => {
                debug!("helper thread {id} not started: {e}");
                started.error.get_or_insert_with(|| e.to_string());
            }
        }
    }
    started.unused.extend(memories);
    started
}
