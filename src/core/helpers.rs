//! Helper threads kept for many small calls (the environment batch's steps, a fraction of a
//! millisecond each). A call cuts its work into chunks and runs them itself while the helpers,
//! woken, claim chunks too. The caller waits only for chunks a helper has claimed and not yet
//! finished, never for a helper that has not started: on a busy machine a woken thread may wait
//! milliseconds for a CPU, far longer than the whole call, and the caller then simply does
//! every chunk itself.

use std::any::Any;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread;

/// The task of one call: `task(worker, chunk)`, `worker` 0 the caller and 1.. the helpers.
type Task<'a> = dyn Fn(usize, usize) + Sync + 'a;

/// One call's chunks, shared by the caller and the helpers it woke.
struct Job {
    /// The next chunk to claim; claims at or past `chunks` find nothing left.
    next: AtomicUsize,
    chunks: usize,
    /// Chunks not yet finished; the caller returns when it reaches zero.
    left: Mutex<usize>,
    finished: Condvar,
    /// The first panic of a chunk, raised again on the caller.
    panic: Mutex<Option<Box<dyn Any + Send>>>,
    /// The caller's task, its lifetime erased (see [`Job::work`]).
    task: *const Task<'static>,
}

// SAFETY: `task` points at a `Sync` closure, and it is only called while the call that made the
// job waits for it (see `Job::work`); everything else is atomics and mutexes.
unsafe impl Send for Job {}
// SAFETY: as for `Send`.
unsafe impl Sync for Job {}

impl Job {
    /// Runs chunks until none is left to claim.
    fn work(&self, worker: usize) {
        loop {
            let chunk = self.next.fetch_add(1, Ordering::Relaxed);
            if chunk >= self.chunks {
                return;
            }
            // SAFETY: the claim succeeded, so this chunk is counted in `left`, and the caller
            // of `Helpers::run`, which owns the task, does not return before `left` is zero,
            // which it becomes only below, after the call.
            let task = unsafe { &*self.task };
            if let Err(panic) = catch_unwind(AssertUnwindSafe(|| task(worker, chunk))) {
                self.panic
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .get_or_insert(panic);
            }
            let mut left = self.left.lock().unwrap_or_else(PoisonError::into_inner);
            *left -= 1;
            if *left == 0 {
                self.finished.notify_all();
            }
        }
    }
}

/// Up to `count` helper threads, started at the first call that uses them and ended when this
/// is dropped.
#[derive(Debug, Default)]
pub struct Helpers {
    wake: Vec<Sender<Arc<Job>>>,
    count: usize,
}

impl Helpers {
    /// Room for `count` helpers (threads besides the caller's).
    pub fn new(count: usize) -> Helpers {
        Helpers {
            wake: Vec::new(),
            count,
        }
    }

    /// Workers a call may use: the caller and the helpers.
    pub fn workers(&self) -> usize {
        self.count + 1
    }

    /// Calls `task(worker, chunk)` once for every chunk below `chunks`, with `worker` below
    /// [`Helpers::workers`] and no two chunks on one worker at once, and returns when all have
    /// run. A panic of a chunk is raised again here once every chunk has finished.
    pub fn run(&mut self, chunks: usize, task: &(dyn Fn(usize, usize) + Sync)) {
        if chunks <= 1 || self.count == 0 {
            for chunk in 0..chunks {
                task(0, chunk);
            }
            return;
        }
        // SAFETY: only the lifetime changes; `Job::work` calls the task only while this call
        // waits below, so the borrow it stands for outlives every use. (An `as` cast may not
        // lengthen a trait object's lifetime.)
        #[allow(clippy::transmute_ptr_to_ptr)]
        let task: *const Task<'static> =
            unsafe { std::mem::transmute::<*const Task<'_>, *const Task<'static>>(task) };
        let job = Arc::new(Job {
            next: AtomicUsize::new(0),
            chunks,
            left: Mutex::new(chunks),
            finished: Condvar::new(),
            panic: Mutex::new(None),
            task,
        });
        self.start();
        let wanted = (chunks - 1).min(self.wake.len());
        for wake in &self.wake[..wanted] {
            // A helper that is gone (it cannot be: it ends only when `wake` is dropped) would
            // leave its chunks to the caller.
            let _ = wake.send(job.clone());
        }
        job.work(0);
        let mut left = job.left.lock().unwrap_or_else(PoisonError::into_inner);
        while *left > 0 {
            left = job
                .finished
                .wait(left)
                .unwrap_or_else(PoisonError::into_inner);
        }
        drop(left);
        let panic = job
            .panic
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(panic) = panic {
            resume_unwind(panic);
        }
    }

    /// Starts the helpers not started yet; one that cannot start leaves its share to the caller.
    fn start(&mut self) {
        while self.wake.len() < self.count {
            let (wake, jobs) = channel::<Arc<Job>>();
            let worker = self.wake.len() + 1;
            let started = thread::Builder::new()
                .name(format!("sudoku_rs helper {worker}"))
                .spawn(move || {
                    // A job woken for after its call returned finds no chunk left to claim.
                    while let Ok(job) = jobs.recv() {
                        job.work(worker);
                    }
                });
            if started.is_err() {
                self.count = self.wake.len();
                return;
            }
            self.wake.push(wake);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU32;

    #[test]
    fn every_chunk_runs_once_on_a_worker_of_its_own() {
        let mut helpers = Helpers::new(3);
        for chunks in [0, 1, 2, 7, 100] {
            let runs: Vec<AtomicU32> = (0..chunks).map(|_| AtomicU32::new(0)).collect();
            let busy: Vec<AtomicU32> = (0..helpers.workers()).map(|_| AtomicU32::new(0)).collect();
            helpers.run(chunks, &|worker, chunk| {
                assert_eq!(busy[worker].fetch_add(1, Ordering::SeqCst), 0);
                runs[chunk].fetch_add(1, Ordering::SeqCst);
                busy[worker].fetch_sub(1, Ordering::SeqCst);
            });
            assert!(runs.iter().all(|r| r.load(Ordering::SeqCst) == 1));
        }
    }

    #[test]
    fn a_panicking_chunk_panics_the_call_after_the_others_finish() {
        let mut helpers = Helpers::new(1);
        let runs = AtomicU32::new(0);
        let out = catch_unwind(AssertUnwindSafe(|| {
            helpers.run(8, &|_, chunk| {
                runs.fetch_add(1, Ordering::SeqCst);
                assert_ne!(chunk, 3, "chunk 3 fails");
            });
        }));
        assert!(out.is_err());
        assert_eq!(runs.load(Ordering::SeqCst), 8);
        // The helpers still serve the next call.
        let runs = AtomicU32::new(0);
        helpers.run(8, &|_, _| {
            runs.fetch_add(1, Ordering::SeqCst);
        });
        assert_eq!(runs.load(Ordering::SeqCst), 8);
    }
}
