//! Running a search with the GIL released, on this thread's cached solver, and stopping it
//! when Python has a pending signal (Ctrl-C).

use std::cell::RefCell;
use std::sync::Arc;

use pyo3::prelude::*;

use crate::core::{BoxShape, Control, Error, Grid, Rules, SearchStats, Solver};

thread_local! {
    /// One solver per shape seen on this thread, so repeated single calls allocate nothing.
    static SOLVERS: RefCell<Vec<Solver>> = const { RefCell::new(Vec::new()) };
    /// The last variant solver used on this thread, so repeated calls with the same rules
    /// reuse its tables.
    static VARIANT: RefCell<Option<Solver>> = const { RefCell::new(None) };
}

/// Re-attaches now and then to run Python's signal handlers; a raised exception stops the search
/// and is kept so the caller re-raises exactly it (KeyboardInterrupt, or whatever a handler raised).
#[derive(Default)]
pub struct SignalCheck {
    pub raised: Option<PyErr>,
}

impl Control for SignalCheck {
    fn proceed(&mut self, _: &SearchStats) -> bool {
        match Python::attach(|py| py.check_signals()) {
            Ok(()) => true,
            Err(err) => {
                self.raised = Some(err);
                false
            }
        }
    }
}

impl SignalCheck {
    /// The search's result for Python: an interrupted search re-raises what stopped it.
    pub fn finish<T>(&mut self, result: Result<T, Error>) -> PyResult<T> {
        match result {
            Ok(value) => Ok(value),
            Err(Error::Interrupted) => Err(self
                .raised
                .take()
                .unwrap_or_else(|| Error::Interrupted.into())),
            Err(err) => Err(err.into()),
        }
    }
}

/// What a cached solver may keep between calls: enough for any 9x9 or 16x16 search; the arena
/// of a deep search on a big grid (133 MiB for an empty 64x64) is freed when the call returns.
const KEEP_BYTES: usize = 1 << 20;

/// Runs `work` on a solver for `grid`'s shape with the GIL released, limited to `max_guesses`.
pub fn detached<T, F>(py: Python<'_>, grid: &Grid, max_guesses: Option<u64>, work: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce(&mut Solver, &Grid, &mut SignalCheck) -> Result<T, Error> + Send,
{
    let mut control = SignalCheck::default();
    let result = py.detach(|| {
        super::guard::no_panic(|| {
            with_solver(grid.shape(), |solver| {
                solver.set_max_guesses(max_guesses);
                work(solver, grid, &mut control)
            })
        })
    })?;
    control.finish(result)
}

/// [`detached`] under variant `rules` (`None`: classic, exactly [`detached`]).
pub fn detached_with<T, F>(
    py: Python<'_>,
    grid: &Grid,
    max_guesses: Option<u64>,
    rules: Option<Arc<Rules>>,
    work: F,
) -> PyResult<T>
where
    T: Send,
    F: FnOnce(&mut Solver, &Grid, &mut SignalCheck) -> Result<T, Error> + Send,
{
    let Some(rules) = rules else {
        return detached(py, grid, max_guesses, work);
    };
    let mut control = SignalCheck::default();
    let result = py.detach(|| {
        super::guard::no_panic(|| {
            VARIANT.with(|cell| {
                // A nested call while this thread's variant solver is busy gets its own.
                let Ok(mut cached) = cell.try_borrow_mut() else {
                    let mut solver = Solver::with_rules(grid.shape(), rules)?;
                    solver.set_max_guesses(max_guesses);
                    return work(&mut solver, grid, &mut control);
                };
                let fits = cached.as_ref().is_some_and(|s| {
                    s.shape() == grid.shape()
                        && s.rules()
                            .is_some_and(|r| Arc::ptr_eq(r, &rules) || **r == *rules)
                });
                if !fits {
                    *cached = Some(Solver::with_rules(grid.shape(), rules)?);
                }
                let solver = cached.as_mut().expect("just made");
                solver.set_max_guesses(max_guesses);
                let out = work(solver, grid, &mut control);
                // As for classic solvers: a deep search's arena is not kept between calls.
                solver.release(KEEP_BYTES);
                out
            })
        })
    })?;
    control.finish(result)
}

/// Grids up to this side are first searched with the GIL held (see [`search`]).
pub const ATTACHED_MAX_SIDE: usize = 9;

/// Stops a search at its first poll, after `POLL_INTERVAL` (1024) nodes (well under a
/// millisecond on a 9x9), and notes that it did: a search that gets that far is long enough
/// to be worth releasing the GIL for.
#[derive(Default)]
pub struct FirstPoll {
    pub reached: bool,
}

impl Control for FirstPoll {
    fn proceed(&mut self, _: &SearchStats) -> bool {
        self.reached = true;
        false
    }
}

/// One search of `grid` for a single call (`solve`, `count_solutions`): [`detached_with`]
/// for long searches, but a small classic grid is first searched with the GIL held, up to its
/// first poll. Releasing and taking back the GIL costs more than most 9x9 searches, and lets
/// any other Python thread take the GIL for up to its switch interval (5 ms) in the middle
/// of a call that needs microseconds. A search still going at the first poll starts again
/// detached, where Ctrl-C and other threads are served as before; the work thrown away is
/// at most that one poll interval.
pub fn search<T, F>(
    py: Python<'_>,
    grid: &Grid,
    max_guesses: Option<u64>,
    rules: Option<Arc<Rules>>,
    work: F,
) -> PyResult<T>
where
    T: Send,
    F: Fn(&mut Solver, &Grid, &mut dyn Control) -> Result<T, Error> + Send + Sync,
{
    if rules.is_none() && grid.size() <= ATTACHED_MAX_SIDE {
        let attempt = super::guard::no_panic(|| {
            with_solver(grid.shape(), |solver| {
                solver.set_max_guesses(max_guesses);
                work(solver, grid, &mut FirstPoll::default())
            })
        })?;
        match attempt {
            Err(Error::Interrupted) => {}
            done => return done.map_err(PyErr::from),
        }
    }
    detached_with(py, grid, max_guesses, rules, |solver, grid, control| {
        work(solver, grid, control)
    })
}

/// Runs `work` on this thread's cached solver for `shape`. A call made while that solver is busy
/// (a signal handler or progress callback calling `solve` during a long search on the same
/// thread) gets a fresh solver instead, so nested calls work.
pub fn with_solver<T>(shape: BoxShape, work: impl FnOnce(&mut Solver) -> T) -> T {
    SOLVERS.with(|cell| {
        let Ok(mut solvers) = cell.try_borrow_mut() else {
            return work(&mut Solver::new(shape));
        };
        let index = match solvers.iter().position(|s| s.shape() == shape) {
            Some(i) => i,
            None => {
                solvers.push(Solver::new(shape));
                solvers.len() - 1
            }
        };
        let solver = &mut solvers[index];
        let out = work(solver);
        solver.release(KEEP_BYTES);
        out
    })
}
