//! Running one search per puzzle over many puzzles on several threads.
//!
//! Threads are scoped to the call (the calling thread is one of them), so nothing outlives it:
//! no global pool to deadlock in a forked child, and memory is one solver per thread. Work is
//! handed out in small blocks through an atomic cursor, so a thread that drew hard puzzles does
//! not hold the others up. The calling thread also runs `poll` about every `POLL_EVERY`, the
//! binding's chance to run signal handlers and report progress; when it says stop, every thread
//! stops within one search step.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::core::grid::shape::BoxShape;
use crate::core::search::{Control, SearchStats, Solver};

/// How often the calling thread polls.
pub const POLL_EVERY: Duration = Duration::from_millis(50);

/// The most puzzles handed to a thread at once: small enough to balance, large enough to be
/// cheap on easy puzzles.
const BLOCK: usize = 16;

/// Blocks each thread should get at least, so that the last ones, handed out while the other
/// threads finish, are a small part of the batch: in blocks of 16, a few hundred hard puzzles
/// leave one thread working alone on the last block for a sizeable part of the batch.
const BLOCKS_PER_THREAD: usize = 32;

/// Puzzles per block for `count` puzzles on `threads` threads.
fn block_size(count: usize, threads: usize) -> usize {
    (count / (threads.max(1) * BLOCKS_PER_THREAD)).clamp(1, BLOCK)
}

/// The batch was stopped by `poll` before every puzzle ran.
#[derive(Debug, PartialEq, Eq)]
pub struct Stopped;

/// A block of puzzles and their result slots, taken by the thread that claims it.
type Block<'a, T> = Padded<Mutex<Option<(&'a [u8], &'a mut [T])>>>;

/// A value alone on its cache lines (two 64-byte lines: neighbouring lines are fetched in
/// pairs). What one thread writes often must not share a line with what another reads on
/// every puzzle: the stop flag is read per puzzle, the cursor and the block locks are written
/// per block, and on one line each write sent the line to the other core and back.
#[repr(align(128))]
struct Padded<T>(T);

impl<T> std::ops::Deref for Padded<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// Lets worker searches see a stop request.
struct StopFlag<'a>(&'a AtomicBool);

impl Control for StopFlag<'_> {
    fn proceed(&mut self, _: &SearchStats) -> bool {
        !self.0.load(Ordering::Relaxed)
    }
}

/// The calling thread's control: it also polls on a timer.
struct Poller<'a, P> {
    stop: &'a AtomicBool,
    done: &'a AtomicUsize,
    poll: P,
    last: Instant,
}

impl<P: FnMut(usize) -> bool> Poller<'_, P> {
    fn tick(&mut self) -> bool {
        if self.last.elapsed() >= POLL_EVERY {
            self.last = Instant::now();
            if !(self.poll)(self.done.load(Ordering::Relaxed)) {
                self.stop.store(true, Ordering::Relaxed);
            }
        }
        !self.stop.load(Ordering::Relaxed)
    }
}

impl<P: FnMut(usize) -> bool> Control for Poller<'_, P> {
    fn proceed(&mut self, _: &SearchStats) -> bool {
        self.tick()
    }
}

/// The number of threads to use: `requested`, or every core when `None`.
pub fn thread_count(requested: Option<usize>) -> usize {
    requested
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get))
        .max(1)
}

/// Calls `work(solver, index, puzzle, result, control)` once per puzzle. `puzzles` holds `n*n` cells
/// per puzzle and `results` `stride` values per puzzle. `poll(done)` runs on the calling thread;
/// returning `false` stops the batch (`Err(Stopped)`; results already written stay written).
/// A `work` that sees its control stop a search should just return.
pub fn for_each<T, W, P>(
    shape: BoxShape,
    puzzles: &[u8],
    results: &mut [T],
    stride: usize,
    threads: usize,
    poll: P,
    work: W,
) -> Result<(), Stopped>
where
    T: Send,
    W: Fn(&mut Solver, usize, &[u8], &mut [T], &mut dyn Control) + Sync,
    P: FnMut(usize) -> bool,
{
    let classic = || Solver::new(shape);
    for_each_with(
        shape, &classic, puzzles, results, stride, threads, poll, work,
    )
}

/// [`for_each`] with each thread's solver made by `make_solver` (a solver with variant rules).
#[allow(clippy::too_many_arguments)]
pub fn for_each_with<T, W, P>(
    shape: BoxShape,
    make_solver: &(dyn Fn() -> Solver + Sync),
    puzzles: &[u8],
    results: &mut [T],
    stride: usize,
    threads: usize,
    poll: P,
    work: W,
) -> Result<(), Stopped>
where
    T: Send,
    W: Fn(&mut Solver, usize, &[u8], &mut [T], &mut dyn Control) + Sync,
    P: FnMut(usize) -> bool,
{
    for_each_on(
        &mut make_solver(),
        shape.cell_count(),
        make_solver,
        puzzles,
        results,
        stride,
        threads,
        poll,
        work,
    )
}

/// [`for_each_with`] over any per-thread state `S` (a solver, or nothing for work that does not
/// search) and rows of `width` bytes each (a grid's cells, or a placeholder byte for rows whose
/// input `work` finds by index), with the calling thread working on `own` (state the caller
/// keeps between calls, so a small batch does not pay for building it); only the other
/// threads' states are made by `make_state`. `own` must behave as a state from `make_state`
/// would.
#[allow(clippy::too_many_arguments)]
pub fn for_each_on<S, T, W, P>(
    own: &mut S,
    width: usize,
    make_state: &(dyn Fn() -> S + Sync),
    puzzles: &[u8],
    results: &mut [T],
    stride: usize,
    threads: usize,
    poll: P,
    work: W,
) -> Result<(), Stopped>
where
    T: Send,
    W: Fn(&mut S, usize, &[u8], &mut [T], &mut dyn Control) + Sync,
    P: FnMut(usize) -> bool,
{
    let cells = width;
    let count = puzzles.len() / cells;
    assert_eq!(puzzles.len(), count * cells, "whole puzzles");
    assert_eq!(results.len(), count * stride, "one result per puzzle");
    let block = block_size(count, threads);
    let blocks: Vec<Block<'_, T>> = puzzles
        .chunks(block * cells)
        .zip(results.chunks_mut(block * stride))
        .map(|block| Padded(Mutex::new(Some(block))))
        .collect();
    let cursor = Padded(AtomicUsize::new(0));
    let done = Padded(AtomicUsize::new(0));
    let stop = Padded(AtomicBool::new(false));

    // Claims blocks until none is left or a stop is requested. Between blocks the control is
    // asked too, so the calling thread polls even when every search is too short to.
    let drain = |state: &mut S, control: &mut dyn Control| loop {
        let i = cursor.fetch_add(1, Ordering::Relaxed);
        let Some(slot) = blocks.get(i) else { return };
        let (input, output) = slot
            .lock()
            .expect("no thread panics while holding a block")
            .take()
            .expect("each block is claimed once");
        let first = i * block;
        for (k, (puzzle, result)) in input
            .chunks(cells)
            .zip(output.chunks_mut(stride))
            .enumerate()
        {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            work(state, first + k, puzzle, result, control);
        }
        done.fetch_add(input.len() / cells, Ordering::Relaxed);
        if !control.proceed(&SearchStats::default()) {
            return;
        }
    };

    let threads = threads.clamp(1, blocks.len().max(1));
    let mut poller = Poller {
        stop: &stop,
        done: &done,
        poll,
        last: Instant::now(),
    };
    let caller = std::thread::current();
    std::thread::scope(|scope| {
        for _ in 1..threads {
            scope.spawn(|| {
                drain(&mut make_state(), &mut StopFlag(&stop));
                caller.unpark();
            });
        }
        drain(own, &mut poller);
        // Keep polling (Ctrl-C, progress) while the other threads finish their last blocks.
        // Each wakes this thread as it ends, so the batch ends with its last search, not
        // up to a sleep later (2 ms is a sizeable part of a batch of a few hundred).
        while done.load(Ordering::Relaxed) < count && poller.tick() {
            std::thread::park_timeout(Duration::from_millis(2));
        }
    });
    if stop.load(Ordering::Relaxed) {
        Err(Stopped)
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::grid::text::parse;
    use crate::core::Unbounded;

    fn puzzles() -> (BoxShape, Vec<u8>) {
        let lines = [
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
            ".................................................................................",
            "55...............................................................................",
        ];
        let mut cells = Vec::new();
        for _ in 0..40 {
            for line in lines {
                cells.extend_from_slice(parse(line, None).unwrap().cells());
            }
        }
        (BoxShape::CLASSIC, cells)
    }

    fn count_all(threads: usize) -> Vec<u64> {
        let (shape, cells) = puzzles();
        let mut counts = vec![0u64; cells.len() / 81];
        for_each(
            shape,
            &cells,
            &mut counts,
            1,
            threads,
            |_| true,
            |solver, _, p, out, control| {
                out[0] = solver.count(p, Some(3), control).unwrap_or(0);
            },
        )
        .unwrap();
        counts
    }

    #[test]
    fn results_do_not_depend_on_the_thread_count() {
        let one = count_all(1);
        assert_eq!(&one[..3], &[1, 3, 0]);
        assert_eq!(one, count_all(2));
        assert_eq!(one, count_all(7));
    }

    #[test]
    fn poll_can_stop_a_batch() {
        let shape = BoxShape::new(5, 5).unwrap();
        let cells = vec![0u8; shape.cell_count() * 4];
        let mut counts = vec![0u64; 4];
        let result = for_each(
            shape,
            &cells,
            &mut counts,
            1,
            2,
            |_| false,
            |solver, _, p, out, control| {
                out[0] = solver.count(p, None, control).unwrap_or(0);
            },
        );
        assert_eq!(result, Err(Stopped));
        let _ = Unbounded;
    }
}
