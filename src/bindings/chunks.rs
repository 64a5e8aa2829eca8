//! The one chunk runner every batch function uses: rows go through a chunk at a time (about
//! 4 MiB of cells, so memory beyond input and output stays flat), each chunk on the batch's
//! threads with the GIL released, under the panic guard, with Python's signal handlers (Ctrl-C)
//! and the progress callback polled from the calling thread, and the thread count capped by
//! `args::Threads`.

use pyo3::prelude::*;

use std::sync::Arc;

use crate::core::batch::{for_each_on, for_each_with, Stopped};
use crate::core::{BoxShape, Control, Error, Rules, Solver};

use super::args::Threads;

/// Cells per chunk: a 4 MiB work buffer (about 50,000 9x9 puzzles).
pub const CHUNK_CELLS: usize = 1 << 22;

pub struct Runner {
    shape: BoxShape,
    count: usize,
    threads: usize,
    rows_per_chunk: usize,
    progress: Progress,
    /// Variant rules every row is searched under; `None` for classic rules.
    rules: Option<Arc<Rules>>,
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
        let rows_per_chunk = (CHUNK_CELLS / shape.cell_count()).max(threads * 64).max(1);
        Runner {
            shape,
            count,
            threads,
            rows_per_chunk,
            progress: Progress::new(progress),
            rules: None,
        }
    }

    /// This runner, its solvers searching under `rules` (already checked against the shape).
    pub fn under(mut self, rules: Option<Arc<Rules>>) -> Self {
        self.rules = rules;
        self
    }

    /// The chunks, as row ranges `start..end`.
    pub fn chunks(&self) -> impl Iterator<Item = (usize, usize)> {
        let (count, step) = (self.count, self.rows_per_chunk);
        (0..count)
            .step_by(step)
            .map(move |start| (start, (start + step).min(count)))
    }

    /// The most rows in one chunk.
    pub fn chunk_rows(&self) -> usize {
        self.rows_per_chunk.min(self.count)
    }

    /// Runs the leading rows of a small one-thread batch without a progress callback (at most
    /// [`ATTACHED_ROWS`] on grids up to 9x9, classic rules) with the GIL held, as single calls
    /// do: each until its first poll ([`super::run::attached_rows`]). Returns how many rows
    /// finished; [`Runner::run`] then runs the rest, from the first row whose search got that
    /// far (its results are written again). Taking the GIL round trip, threads and progress
    /// machinery out of a one-row batch makes it cost what a single call does.
    pub fn run_attached<R, W>(
        &self,
        cells: &[u8],
        results: &mut [R],
        stride: usize,
        work: W,
    ) -> PyResult<usize>
    where
        W: Fn(&mut Solver, usize, &[u8], &mut [R], &mut dyn Control),
    {
        let nc = self.shape.cell_count();
        let rows = cells.len() / nc;
        let small = self.threads == 1
            && rows <= ATTACHED_ROWS
            && self.progress.callback.is_none()
            && super::run::starts_attached(self.shape, self.rules.as_deref());
        if !small {
            return Ok(0);
        }
        // No budget of the solver's own: each row's `work` sets the batch's.
        super::run::attached_rows(self.shape, rows, None, |solver, i, control| {
            let out = &mut results[i * stride..(i + 1) * stride];
            work(solver, i, &cells[i * nc..(i + 1) * nc], out, control);
        })
    }

    /// Runs `work(solver, row, cells, results, control)` for every row of one chunk (`cells`
    /// holds its rows' cells, `results` `stride` slots per row) with the GIL released, then
    /// reports the chunk's rows to the progress callback. Ctrl-C (any exception from a signal
    /// handler), an exception from the callback, or a panic stops the batch and is raised here.
    pub fn run<R, W>(
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
        let (shape, threads, rules) = (self.shape, self.threads, &self.rules);
        let rows = cells.len() / shape.cell_count();
        let make_solver = || match rules {
            None => Solver::new(shape),
            Some(rules) => Solver::with_rules(shape, rules.clone())
                .expect("the rules were checked against the batch's shape"),
        };
        self.progress.run_chunk(py, |poll| {
            super::guard::no_panic(|| match rules {
                // The calling thread searches on its cached solver (reset to a new one's
                // budget), as single calls do: building a solver costs more than a small
                // batch's whole search.
                None => super::run::with_solver(shape, |own| {
                    own.set_max_guesses(None);
                    for_each_on(
                        own,
                        shape,
                        &make_solver,
                        cells,
                        results,
                        stride,
                        threads,
                        poll,
                        work,
                    )
                }),
                Some(_) => for_each_with(
                    shape,
                    &make_solver,
                    cells,
                    results,
                    stride,
                    threads,
                    poll,
                    work,
                ),
            })
        })?;
        self.progress.finish_chunk(py, rows)
    }
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

    /// Runs one chunk with the GIL released; `work` hands `poll` to `for_each`. The poll runs
    /// Python's signal handlers and reports finished rows; Ctrl-C (any exception from a signal
    /// handler) or an exception from the callback stops the chunk and is raised here.
    fn run_chunk<F>(&mut self, py: Python<'_>, work: F) -> PyResult<()>
    where
        F: Send + FnOnce(&mut dyn FnMut(usize) -> bool) -> PyResult<Result<(), Stopped>>,
    {
        self.reported = 0;
        let (callback, reported) = (&self.callback, &mut self.reported);
        let mut raised: Option<PyErr> = None;
        let outcome = py.detach(|| {
            let mut poll = |done: usize| {
                Python::attach(|py| {
                    let step = py.check_signals().and_then(|()| match callback {
                        Some(callback) if done > *reported => callback
                            .call1(py, (done - *reported,))
                            .map(|_| *reported = done),
                        _ => Ok(()),
                    });
                    step.map_err(|err| raised = Some(err)).is_ok()
                })
            };
            work(&mut poll)
        })?;
        if outcome == Err(Stopped) {
            return Err(raised.unwrap_or_else(|| Error::Interrupted.into()));
        }
        Ok(())
    }

    /// Reports what the poll has not yet reported of a finished chunk of `size` rows.
    fn finish_chunk(&mut self, py: Python<'_>, size: usize) -> PyResult<()> {
        if let Some(callback) = &self.callback {
            callback.call1(py, (size - self.reported,))?;
        }
        Ok(())
    }
}
