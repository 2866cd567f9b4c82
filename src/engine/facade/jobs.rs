//! The engine's one thread of work: a search, or a run of jobs (perft, bench) that wait
//! their turn behind each other. It knows whether the engine is busy, and stops and waits
//! for what runs; what the work is, the facade decides.

use std::collections::VecDeque;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;

use tracing::error;

use crate::engine::search::Signals;

/// Stack of the search thread: the recursion keeps move lists on the stack.
const SEARCH_STACK: usize = 64 << 20;

/// Why a job (`perft`, `bench`) did not start.
#[derive(Debug)]
pub enum NotStarted {
    /// A search is running.
    Busy,
    /// No thread could be started for it.
    Thread(std::io::Error),
}

/// A job (perft, bench) waiting its turn: its work with its report, run on the job thread.
type Job = Box<dyn FnOnce(&Signals) + Send>;

/// The jobs sent while one runs, in order, and whether the job thread is still taking them.
#[derive(Default)]
struct JobQueue {
    waiting: VecDeque<Job>,
    taking: bool,
}

/// The thread that runs a search or the jobs, and what the engine knows of it.
pub(super) struct JobThread {
    /// The signals of the work under way (the last work's once it is done).
    signals: Arc<Signals>,
    /// The thread, until it is joined.
    running: Option<JoinHandle<()>>,
    /// Whether the thread in `running` runs jobs (perft, bench) rather than a search.
    jobs_running: bool,
    /// The jobs waiting for the job thread.
    jobs: Arc<Mutex<JobQueue>>,
}

impl Default for JobThread {
    /// No thread: the engine is idle.
    fn default() -> JobThread {
        JobThread {
            signals: Arc::new(Signals::default()),
            running: None,
            jobs_running: false,
            jobs: Arc::new(Mutex::new(JobQueue::default())),
        }
    }
}

impl JobThread {
    /// Runs `work`, a search (or the run of jobs [`JobThread::queue`] starts), on the
    /// thread (the caller has stopped what ran), then `report` with what it returned, or
    /// with what `recover` gives if `work` panicked (a GUI waiting for `bestmove` must not
    /// wait forever): the engine is busy until `report` has run, and [`JobThread::stop`]
    /// and [`JobThread::wait`] reach the work through `signals`. Fails only when no thread
    /// can be started; then none of them runs.
    pub(super) fn start<T>(
        &mut self,
        signals: Arc<Signals>,
        work: impl FnOnce(&Signals) -> T + Send + 'static,
        recover: impl FnOnce() -> T + Send + 'static,
        report: impl FnOnce(T) + Send + 'static,
    ) -> std::io::Result<()> {
        self.jobs_running = false;
        self.signals = Arc::clone(&signals);
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK)
            .spawn(move || {
                // The work shares only the table (atomics) and the search memory (its lock
                // survives a panic and the memory is then only less useful).
                let result =
                    catch_unwind(AssertUnwindSafe(|| work(&signals))).unwrap_or_else(|_| {
                        error!("the search thread panicked; answering without its result");
                        recover()
                    });
                signals.done.store(true, Relaxed);
                report(result);
            });
        match spawned {
            Ok(handle) => {
                self.running = Some(handle);
                Ok(())
            }
            Err(e) => {
                self.signals.done.store(true, Relaxed);
                Err(e)
            }
        }
    }

    /// Runs `work` on the job thread, then `report` with what it returned (`None` if it
    /// panicked). Jobs run one at a time in the order they came; [`JobThread::stop`] ends
    /// the running one and every one waiting (each still reports). Refused while a search
    /// runs.
    pub(super) fn queue<T: 'static>(
        &mut self,
        work: impl FnOnce(&Signals) -> Option<T> + Send + 'static,
        report: impl FnOnce(Option<T>) + Send + 'static,
    ) -> Result<(), NotStarted> {
        let job: Job = Box::new(move |signals: &Signals| {
            let result = catch_unwind(AssertUnwindSafe(|| work(signals))).unwrap_or_else(|_| {
                error!("a job panicked; reporting it as stopped");
                None
            });
            report(result);
        });
        if self.is_busy() {
            if !self.jobs_running {
                return Err(NotStarted::Busy);
            }
            let mut queue = lock_jobs(&self.jobs);
            if queue.taking {
                queue.waiting.push_back(job);
                return Ok(());
            }
            // The job thread took its last job and is ending.
            drop(queue);
            self.wait();
        }
        lock_jobs(&self.jobs).taking = true;
        let jobs = Arc::clone(&self.jobs);
        let run_jobs = move |signals: &Signals| {
            let mut next = Some(job);
            while let Some(job) = next {
                job(signals);
                let mut queue = lock_jobs(&jobs);
                next = queue.waiting.pop_front();
                queue.taking = next.is_some();
            }
        };
        if let Err(e) = self.start(Arc::new(Signals::default()), run_jobs, || (), |()| ()) {
            lock_jobs(&self.jobs).taking = false;
            return Err(NotStarted::Thread(e));
        }
        // The thread runs jobs, not a search: stop and wait reach it all the same.
        self.jobs_running = true;
        Ok(())
    }

    /// Stops a running search (or the jobs, running and waiting) and waits until its
    /// result has been reported.
    pub(super) fn stop(&mut self) {
        self.signals.request_stop();
        self.wait();
    }

    /// Waits until the work ends by itself and its result has been reported.
    pub(super) fn wait(&mut self) {
        if let Some(handle) = self.running.take() {
            let _ = handle.join();
        }
    }

    /// Waits until the running job and every one waiting have reported their results; a
    /// search is left running.
    pub(super) fn finish_jobs(&mut self) {
        if self.jobs_running {
            self.wait();
        }
    }

    /// The opponent played the move being pondered: the search goes on under its clock.
    pub(super) fn ponderhit(&self) {
        self.signals.ponder_hit();
    }

    /// Whether a search (or job) runs that has not yet reported its result. A finished
    /// thread is joined here.
    pub(super) fn is_busy(&mut self) -> bool {
        if self.running.is_some()
            && self.signals.done.load(Relaxed)
            && let Some(handle) = self.running.take()
        {
            let _ = handle.join();
        }
        self.running.is_some()
    }

    /// Whether a search (not a job) runs that has not yet reported its result.
    pub(super) fn is_running_search(&mut self) -> bool {
        self.is_busy() && !self.jobs_running
    }
}

/// The job queue, also after a thread panicked while holding its lock (a job's panic is
/// caught before the lock is taken, so the queue is whole).
fn lock_jobs(jobs: &Mutex<JobQueue>) -> MutexGuard<'_, JobQueue> {
    jobs.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_panicking_search_thread_still_reports_and_leaves_the_engine_idle() {
        let mut thread = JobThread::default();
        let (tx, rx) = std::sync::mpsc::channel();
        let work = |_: &Signals| -> i32 { panic!("a fault inside the search") };
        let report = move |result| tx.send(result).unwrap();
        thread
            .start(Arc::new(Signals::default()), work, || -1, report)
            .unwrap();
        assert_eq!(rx.recv_timeout(Duration::from_secs(10)), Ok(-1));
        thread.wait();
        assert!(!thread.is_busy());
        // The thread searches again afterwards.
        let (tx, rx) = std::sync::mpsc::channel();
        thread
            .start(
                Arc::new(Signals::default()),
                |_| 7,
                || -1,
                move |r| tx.send(r).unwrap(),
            )
            .unwrap();
        assert_eq!(rx.recv_timeout(Duration::from_secs(10)), Ok(7));
    }
}
