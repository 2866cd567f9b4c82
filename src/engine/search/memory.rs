//! What the search threads learn and keep from one search to the next: per thread, the
//! move-ordering histories and the correction history. The engine owns it between
//! searches; a new game (or a cleared table, or another evaluation) forgets it.

use crate::engine::correction::Correction;
use crate::engine::history::Heuristics;

/// One search thread's learned state.
#[derive(Default)]
pub struct ThreadMemory {
    /// Killers, counter moves, history, continuation histories and capture history.
    pub heuristics: Heuristics,
    /// What searches found about the static evaluation.
    pub correction: Correction,
}

/// Every search thread's learned state, kept between searches.
#[derive(Default)]
pub struct SearchMemory {
    threads: Vec<ThreadMemory>,
}

impl SearchMemory {
    /// Nothing learned yet.
    pub fn new() -> SearchMemory {
        SearchMemory::default()
    }

    /// The state of `threads` threads for a new search: what earlier searches learned,
    /// less the killers, whose plies counted from another root (a thread that did not
    /// search before starts empty).
    pub fn for_search(&mut self, threads: usize) -> &mut [ThreadMemory] {
        self.threads.resize_with(threads, ThreadMemory::default);
        for thread in &mut self.threads {
            thread.heuristics.clear_killers();
        }
        &mut self.threads
    }

    /// Forgets everything: a new game, a cleared table, another evaluation.
    pub fn clear(&mut self) {
        self.threads.clear();
    }
}
