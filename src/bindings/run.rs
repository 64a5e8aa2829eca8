//! Running a search with the GIL released, on this thread's cached solver, and stopping it
//! when Python has a pending signal (Ctrl-C).

use std::cell::RefCell;
use std::sync::Arc;

use pyo3::prelude::*;

use crate::core::{BoxShape, Control, Error, Grid, Rules, SearchStats, Solver};

use super::chunks::PerThread;

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
        // The method path is not general enough over the GIL token's lifetime.
        #[allow(clippy::redundant_closure_for_method_calls)]
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
    detached_with(py, grid, max_guesses, None, work)
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
    let mut control = SignalCheck::default();
    let result = py.detach(|| {
        super::guard::no_panic(|| {
            with_solver_under(grid.shape(), rules, |solver| {
                solver.set_max_guesses(max_guesses);
                work(solver, grid, &mut control)
            })
        })
    })?;
    control.finish(result)
}

/// Grids up to this side are first searched with the GIL held (see [`search`]).
pub const ATTACHED_MAX_SIDE: usize = 9;

/// Whether searches of `shape` under `rules` start with the GIL held (see [`search`]): small
/// classic grids, whose searches mostly end before their first poll.
pub fn starts_attached(shape: BoxShape, rules: Option<&Rules>) -> bool {
    rules.is_none() && shape.size() <= ATTACHED_MAX_SIDE
}

/// Stops a search at its first poll, after `POLL_INTERVAL` (1024) nodes (well under a
/// millisecond on a 9x9), and notes that it did: a search that gets that far is long enough
/// to be worth releasing the GIL for.
#[derive(Default)]
struct FirstPoll {
    reached: bool,
}

impl Control for FirstPoll {
    fn proceed(&mut self, _: &SearchStats) -> bool {
        self.reached = true;
        false
    }
}

/// The attached step of single calls ([`search`]) and small batches
/// (`chunks::Runner::run_attached`): `work(state, i, control)` for `i` in `0..rows` in turn,
/// with the GIL held, on this thread's cached per-thread state for `shape` (its classic solver,
/// or nothing), each search stopped at its first poll. Returns how many rows finished before
/// one got that far; that row's results are incomplete, and it and the rows after it are for
/// the caller to run detached.
pub fn attached_rows<S, F>(shape: BoxShape, rows: usize, mut work: F) -> PyResult<usize>
where
    S: PerThread,
    F: FnMut(&mut S, usize, &mut dyn Control),
{
    super::guard::no_panic(|| {
        S::with_cached(shape, |state| {
            for i in 0..rows {
                let mut first_poll = FirstPoll::default();
                work(state, i, &mut first_poll);
                if first_poll.reached {
                    return i;
                }
            }
            rows
        })
    })
}

/// One search of `grid` for a single call (`solve`, `count_solutions`): [`detached_with`]
/// for long searches, but a small classic grid is first searched with the GIL held, up to its
/// first poll ([`attached_rows`]). Releasing and taking back the GIL costs more than most 9x9
/// searches, and lets any other Python thread take the GIL for up to its switch interval
/// (5 ms) in the middle of a call that needs microseconds. A search still going at the first
/// poll starts again detached, where Ctrl-C and other threads are served as before; the work
/// thrown away is at most that one poll interval.
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
    if starts_attached(grid.shape(), rules.as_deref()) {
        let mut outcome = None;
        let finished = attached_rows(grid.shape(), 1, |solver: &mut Solver, _, control| {
            solver.set_max_guesses(max_guesses);
            outcome = Some(work(solver, grid, control));
        })?;
        if finished == 1 {
            return outcome.expect("the row ran").map_err(PyErr::from);
        }
    }
    detached_with(py, grid, max_guesses, rules, |solver, grid, control| {
        work(solver, grid, control)
    })
}

/// `work` on this thread's cached solver for `shape` under `rules` (`None`: classic, exactly
/// [`with_solver`]). The variant solver is kept while later calls bring the same rules, so
/// they reuse its tables; a nested call while it is busy gets its own.
fn with_solver_under<T>(
    shape: BoxShape,
    rules: Option<Arc<Rules>>,
    work: impl FnOnce(&mut Solver) -> Result<T, Error>,
) -> Result<T, Error> {
    let Some(rules) = rules else {
        return with_solver(shape, work);
    };
    VARIANT.with(|cell| {
        let Ok(mut cached) = cell.try_borrow_mut() else {
            return work(&mut Solver::with_rules(shape, rules)?);
        };
        let fits = cached.as_ref().is_some_and(|s| {
            s.shape() == shape
                && s.rules()
                    .is_some_and(|r| Arc::ptr_eq(r, &rules) || **r == *rules)
        });
        if !fits {
            *cached = Some(Solver::with_rules(shape, rules)?);
        }
        let solver = cached.as_mut().expect("just made");
        let out = work(solver);
        solver.release(KEEP_BYTES);
        out
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
