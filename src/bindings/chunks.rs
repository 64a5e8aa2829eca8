//! The one chunk runner every batch function uses: rows go through a chunk at a time (about
//! 4 MiB of cells, so memory beyond input and output stays flat), each chunk on the batch's
//! threads with the GIL released, under the panic guard, with Python's signal handlers (Ctrl-C)
//! and the progress callback polled from the calling thread, and the thread count capped by
//! `args::Threads`.

use pyo3::prelude::*;

use std::sync::Arc;

use crate::core::batch::{for_each_on, Stopped};
use crate::core::{BoxShape, Control, Error, Rules, Solver};

use super::args::Threads;

/// Cells per chunk: a 4 MiB work buffer (about 50,000 9x9 puzzles).
pub const CHUNK_CELLS: usize = 1 << 22;

/// Rows per chunk of a batch whose rows are not grids ([`Runner::for_rows`]).
const CHUNK_ROWS: usize = 1 << 16;

pub struct Runner {
    shape: BoxShape,
    /// Bytes of cells per row: the shape's cell count, or 1 for rows that are not grids.
    width: usize,
    count: usize,
    threads: usize,
    rows_per_chunk: usize,
    progress: Progress,
    /// Variant rules every row is searched under; `None` for classic rules.
    rules: Option<Arc<Rules>>,
    /// Whether [`Runner::for_chunks`] runs a small batch's leading rows with the GIL held.
    attached: bool,
}

/// The most rows a one-thread batch searches with the GIL held (see
/// [`Runner::run_attached`]): at most this many poll intervals, a few milliseconds at worst.
const ATTACHED_ROWS: usize = 4;

impl Runner {
    /// A runner for `count` rows of grids of `shape`.
    pub fn new(
        shape: BoxShape,
        count: usize,
        threads: Option<Threads>,
        progress: Option<Bound<'_, PyAny>>,
    ) -> Self {
        let threads = threads.unwrap_or_default().for_rows(count);
        let width = shape.cell_count();
        let rows_per_chunk = (CHUNK_CELLS / width).max(threads * 64).max(1);
        Runner {
            shape,
            width,
            count,
            threads,
            rows_per_chunk,
            progress: Progress::new(progress),
            rules: None,
            attached: false,
        }
    }

    /// A runner for `count` rows that are not grids (a language model's replies, ...): each
    /// row's cells are one placeholder byte, and `work` finds its input by the row's index.
    /// Such work keeps no solver (its per-thread state is `()`); chunks are of
    /// [`CHUNK_ROWS`] rows, so what a row's results hold stays bounded by a chunk.
    pub fn for_rows(
        count: usize,
        threads: Option<Threads>,
        progress: Option<Bound<'_, PyAny>>,
    ) -> Self {
        let threads = threads.unwrap_or_default().for_rows(count);
        Runner {
            shape: BoxShape::CLASSIC,
            width: 1,
            count,
            threads,
            rows_per_chunk: CHUNK_ROWS.max(threads * 64),
            progress: Progress::new(progress),
            rules: None,
            attached: false,
        }
    }

    /// This runner, its solvers searching under `rules` (already checked against the shape).
    pub fn under(mut self, rules: Option<Arc<Rules>>) -> Self {
        self.rules = rules;
        self
    }

    /// The chunks, as row ranges `start..end`.
    fn chunks(&self) -> impl Iterator<Item = (usize, usize)> {
        let (count, step) = (self.count, self.rows_per_chunk);
        (0..count)
            .step_by(step)
            .map(move |start| (start, (start + step).min(count)))
    }

    /// This runner, with the leading rows of a small one-thread batch run with the GIL held
    /// first (see [`Runner::run_attached`]) by [`Runner::for_chunks`].
    pub fn attached(mut self) -> Self {
        self.attached = true;
        self
    }

    /// The one chunk loop: for each chunk, `read(start, end, cells)` puts its rows' cells in
    /// `cells` and returns what else the chunk's rows need (their validity, answers: `C`);
    /// `work(state, row, cells, results, control)` runs for every row on the batch's threads,
    /// each thread with its own per-thread state `S` (a [`Solver`], or `()` for work that does
    /// not search), writing `stride` results per row; `write(start, chunk, results)` takes the
    /// chunk's results. Ctrl-C, an exception from the progress callback or from `read` or
    /// `write`, or a panic stops the batch and is raised here.
    pub fn for_chunks<S, R, C, W>(
        &mut self,
        py: Python<'_>,
        stride: usize,
        read: impl FnMut(usize, usize, &mut Vec<u8>) -> PyResult<C>,
        work: W,
        write: impl FnMut(usize, &C, &[R]) -> PyResult<()>,
    ) -> PyResult<()>
    where
        S: PerThread,
        R: Default + Clone + Send,
        C: Sync,
        W: Fn(&mut S, Row<'_, C>, &[u8], &mut [R], &mut dyn Control) + Sync,
    {
        self.chunk_loop(py, stride, None, read, work, write)
    }

    /// [`Runner::for_chunks`] with every row's `stride` results written in place, row `i`'s at
    /// `out[i * stride..]`, for outputs too large to pass through a chunk buffer as well
    /// (`solutions_batch`). A row may be written twice (see [`Runner::run_attached`]), so `work`
    /// writes every slot of its row.
    pub fn for_chunks_in<S, R, C, W>(
        &mut self,
        py: Python<'_>,
        out: &mut [R],
        stride: usize,
        read: impl FnMut(usize, usize, &mut Vec<u8>) -> PyResult<C>,
        work: W,
    ) -> PyResult<()>
    where
        S: PerThread,
        R: Default + Clone + Send,
        C: Sync,
        W: Fn(&mut S, Row<'_, C>, &[u8], &mut [R], &mut dyn Control) + Sync,
    {
        assert_eq!(out.len(), self.count * stride, "stride results per row");
        self.chunk_loop(py, stride, Some(out), read, work, |_, _, _| Ok(()))
    }

    /// The loop of [`Runner::for_chunks`] and [`Runner::for_chunks_in`]: each chunk's results
    /// go to its rows of `out`, or without `out` to a buffer handed to `write`.
    fn chunk_loop<S, R, C, W>(
        &mut self,
        py: Python<'_>,
        stride: usize,
        mut out: Option<&mut [R]>,
        mut read: impl FnMut(usize, usize, &mut Vec<u8>) -> PyResult<C>,
        work: W,
        mut write: impl FnMut(usize, &C, &[R]) -> PyResult<()>,
    ) -> PyResult<()>
    where
        S: PerThread,
        R: Default + Clone + Send,
        C: Sync,
        W: Fn(&mut S, Row<'_, C>, &[u8], &mut [R], &mut dyn Control) + Sync,
    {
        let nc = self.width;
        let (mut cells, mut buffer) = (Vec::new(), Vec::new());
        for (start, end) in self.chunks() {
            let chunk = read(start, end, &mut cells)?;
            let results: &mut [R] = match out.as_deref_mut() {
                Some(out) => &mut out[start * stride..end * stride],
                None => {
                    buffer.clear();
                    buffer.resize((end - start) * stride, R::default());
                    &mut buffer
                }
            };
            let row = |local| Row {
                index: start + local,
                local,
                chunk: &chunk,
            };
            let done = if self.attached {
                self.run_attached(&cells, results, stride, |state: &mut S, i, p, o, c| {
                    work(state, row(i), p, o, c);
                })?
            } else {
                0
            };
            if done < end - start {
                S::run_rows(
                    self,
                    py,
                    &cells[done * nc..],
                    &mut results[done * stride..],
                    stride,
                    |state, i, p, o, c| work(state, row(done + i), p, o, c),
                )?;
            }
            write(start, &chunk, results)?;
        }
        Ok(())
    }

    /// Whether a chunk of `rows` rows is small enough to run with the GIL held: one thread, no
    /// progress callback, at most [`ATTACHED_ROWS`] rows of a grid up to 9x9 under classic rules.
    fn is_small(&self, rows: usize) -> bool {
        self.threads == 1
            && rows <= ATTACHED_ROWS
            && self.progress.callback.is_none()
            && super::run::starts_attached(self.shape, self.rules.as_deref())
    }

    /// Runs the leading rows of a small one-thread batch without a progress callback (at most
    /// [`ATTACHED_ROWS`] on grids up to 9x9, classic rules) with the GIL held, as single calls
    /// do: each until its first poll ([`super::run::attached_rows`]), on this thread's cached
    /// state. Returns how many rows finished; [`PerThread::run_rows`] then runs the rest, from
    /// the first row whose search got that far (its results are written again). Taking the GIL
    /// round trip, threads and progress machinery out of a one-row batch makes it cost what a
    /// single call does.
    fn run_attached<S, R, W>(
        &self,
        cells: &[u8],
        results: &mut [R],
        stride: usize,
        work: W,
    ) -> PyResult<usize>
    where
        S: PerThread,
        W: Fn(&mut S, usize, &[u8], &mut [R], &mut dyn Control),
    {
        let nc = self.width;
        let rows = cells.len() / nc;
        if !self.is_small(rows) {
            return Ok(0);
        }
        super::run::attached_rows(self.shape, rows, |state, i, control| {
            let out = &mut results[i * stride..(i + 1) * stride];
            work(state, i, &cells[i * nc..(i + 1) * nc], out, control);
        })
    }

    /// Runs `work(solver, row, cells, results, control)` for every row of one chunk (`cells`
    /// holds its rows' cells, `results` `stride` slots per row) with the GIL released, then
    /// reports the chunk's rows to the progress callback. Ctrl-C (any exception from a signal
    /// handler), an exception from the callback, or a panic stops the batch and is raised here.
    fn run<R, W>(
        &mut self,
        py: Python<'_>,
        cells: &[u8],
        results: &mut [R],
        stride: usize,
        work: W,
    ) -> PyResult<()>
    where
        R: Send,
        W: Fn(&mut Solver, usize, &[u8], &mut [R], &mut dyn Control) + Sync + Send,
    {
        let (shape, rules) = (self.shape, self.rules.clone());
        let make_solver = || match &rules {
            None => Solver::new(shape),
            Some(rules) => Solver::with_rules(shape, rules.clone())
                .expect("the rules were checked against the batch's shape"),
        };
        match self.rules {
            // The calling thread searches on its cached solver (reset to a new one's budget),
            // as single calls do: building a solver costs more than a small batch's whole
            // search.
            None => self.run_on(py, Own::Cached, &make_solver, cells, results, stride, work),
            Some(_) => self.run_on(py, Own::Made, &make_solver, cells, results, stride, work),
        }
    }

    /// [`Runner::run`] with per-thread state made by `make_state` (the calling thread's own
    /// state too, or its cached solver under `Own::Cached`).
    #[allow(clippy::too_many_arguments)]
    fn run_on<S, R, W>(
        &mut self,
        py: Python<'_>,
        own: Own,
        make_state: &(dyn Fn() -> S + Sync),
        cells: &[u8],
        results: &mut [R],
        stride: usize,
        work: W,
    ) -> PyResult<()>
    where
        S: PerThread,
        R: Send,
        W: Fn(&mut S, usize, &[u8], &mut [R], &mut dyn Control) + Sync + Send,
    {
        let (shape, width, threads) = (self.shape, self.width, self.threads);
        let rows = cells.len() / width;
        self.progress.run_chunk(py, |poll| {
            let each = |own: &mut S| {
                for_each_on(
                    own, width, make_state, cells, results, stride, threads, poll, work,
                )
            };
            match own {
                Own::Cached => S::with_cached(shape, each),
                Own::Made => each(&mut make_state()),
            }
        })?;
        self.progress.finish_chunk(py, rows)
    }
}

/// Where the calling thread's per-thread state comes from.
#[derive(Clone, Copy)]
enum Own {
    /// The thread's cached state ([`PerThread::with_cached`]).
    Cached,
    /// A new one from the state factory.
    Made,
}

/// One row as [`Runner::for_chunks`] hands it to `work`.
pub struct Row<'a, C> {
    /// The row's index in the batch.
    pub index: usize,
    /// The row's index in its chunk (for the chunk's own columns, such as validity).
    pub local: usize,
    /// What `read` returned for the row's chunk.
    pub chunk: &'a C,
}

/// What each thread of a batch keeps between rows: a [`Solver`] for work that searches, `()`
/// for work that does not (it then builds no solver at all).
pub trait PerThread: Sized {
    /// Runs every row of one chunk on the runner's threads (see [`Runner::run`]).
    fn run_rows<R, W>(
        runner: &mut Runner,
        py: Python<'_>,
        cells: &[u8],
        results: &mut [R],
        stride: usize,
        work: W,
    ) -> PyResult<()>
    where
        R: Send,
        W: Fn(&mut Self, usize, &[u8], &mut [R], &mut dyn Control) + Sync + Send;

    /// Runs `work` on this thread's cached state for `shape` (one made for the call where the
    /// thread keeps none), reset as a new one would be.
    fn with_cached<T>(shape: BoxShape, work: impl FnOnce(&mut Self) -> T) -> T;
}

impl PerThread for Solver {
    fn run_rows<R, W>(
        runner: &mut Runner,
        py: Python<'_>,
        cells: &[u8],
        results: &mut [R],
        stride: usize,
        work: W,
    ) -> PyResult<()>
    where
        R: Send,
        W: Fn(&mut Self, usize, &[u8], &mut [R], &mut dyn Control) + Sync + Send,
    {
        runner.run(py, cells, results, stride, work)
    }

    fn with_cached<T>(shape: BoxShape, work: impl FnOnce(&mut Self) -> T) -> T {
        super::run::with_solver(shape, |own| {
            own.set_max_guesses(None);
            work(own)
        })
    }
}

impl PerThread for () {
    fn run_rows<R, W>(
        runner: &mut Runner,
        py: Python<'_>,
        cells: &[u8],
        results: &mut [R],
        stride: usize,
        work: W,
    ) -> PyResult<()>
    where
        R: Send,
        W: Fn(&mut Self, usize, &[u8], &mut [R], &mut dyn Control) + Sync + Send,
    {
        runner.run_on(py, Own::Made, &|| (), cells, results, stride, work)
    }

    fn with_cached<T>(_: BoxShape, work: impl FnOnce(&mut Self) -> T) -> T {
        work(&mut ())
    }
}

/// The one way work runs with the GIL released and Python still served (every batch's chunks,
/// and the solution iterator's wait): `work` runs detached under the panic guard and calls
/// `poll(done)` now and then; the poll takes the GIL, runs Python's signal handlers, then
/// `report(py, done)`, and returns `false` once either raised. Ctrl-C (any exception from a
/// signal handler), an exception from `report`, or a panic stops the work and is raised here;
/// work that stops with nothing raised is `Error::Interrupted`.
pub fn detached<T, W, P>(py: Python<'_>, mut report: P, work: W) -> PyResult<T>
where
    T: Send,
    P: Send + FnMut(Python<'_>, usize) -> PyResult<()>,
    W: Send + FnOnce(&mut dyn FnMut(usize) -> bool) -> Result<T, Stopped>,
{
    let mut raised: Option<PyErr> = None;
    let outcome = py.detach(|| {
        let mut poll = |done: usize| {
            Python::attach(|py| {
                let step = py.check_signals().and_then(|()| report(py, done));
                step.map_err(|err| raised = Some(err)).is_ok()
            })
        };
        super::guard::no_panic(|| work(&mut poll))
    })?;
    outcome.map_err(|Stopped| raised.unwrap_or_else(|| Error::Interrupted.into()))
}

/// A batch's progress callback, fed chunk by chunk, and the poll `for_each` calls while a chunk
/// runs. Each row is reported once: as the poll sees it done, or when its chunk finishes.
struct Progress {
    callback: Option<Py<PyAny>>,
    /// Rows of the current chunk reported so far.
    reported: usize,
}

impl Progress {
    fn new(callback: Option<Bound<'_, PyAny>>) -> Self {
        Progress {
            callback: callback.filter(|c| !c.is_none()).map(Bound::unbind),
            reported: 0,
        }
    }

    /// Runs one chunk with the GIL released ([`detached`]); `work` hands `poll` to
    /// `for_each`, and the poll reports finished rows to the callback.
    fn run_chunk<F>(&mut self, py: Python<'_>, work: F) -> PyResult<()>
    where
        F: Send + FnOnce(&mut dyn FnMut(usize) -> bool) -> Result<(), Stopped>,
    {
        self.reported = 0;
        let (callback, reported) = (&self.callback, &mut self.reported);
        detached(
            py,
            |py, done| match callback {
                Some(callback) if done > *reported => {
                    callback.call1(py, (done - *reported,))?;
                    *reported = done;
                    Ok(())
                }
                _ => Ok(()),
            },
            work,
        )
    }

    /// Reports what the poll has not yet reported of a finished chunk of `size` rows.
    fn finish_chunk(&mut self, py: Python<'_>, size: usize) -> PyResult<()> {
        if let Some(callback) = &self.callback {
            callback.call1(py, (size - self.reported,))?;
        }
        Ok(())
    }
}
