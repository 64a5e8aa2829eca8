//! `solutions` and `iter_solutions`: many solutions of one grid. `solutions` holds them in
//! memory allocated fallibly (10**7 solutions of an empty grid are a `MemoryError`, not an
//! abort); `iter_solutions` searches on a thread of its own and hands them over a chunk at a
//! time, waiting with the GIL released, so "all solutions of this 16x16" needs no memory for
//! the ones already seen.
//!
//! Order: up to the solver's restart limit the solutions come as `Solver::solutions` gives them
//! (the first is `solve`'s). Past it they are kept one search long, so the first solution is
//! found as `solve` finds it, and the rest follow in plain search order, without it: restarts
//! would have to remember every solution seen, which "all solutions of this 16x16" cannot afford.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Arc, Mutex};

use pyo3::prelude::*;
use pyo3::types::PyList;

use crate::core::batch::POLL_EVERY;
use crate::core::rules::Rules as CoreRules;
use crate::core::search::solver::MAX_RESTART_LIMIT;
use crate::core::{BoxShape, Control, Error, Flow, Grid, SearchStats, Solver};

use super::alloc;
use super::args::{BoxArg, Limit, MaxGuesses};
use super::request::Request;
use super::rules::RulesArg;

/// Up to `limit` solutions of `cells` in the order described above, each handed to `take`
/// until it says `Stop`.
pub(super) fn each(
    solver: &mut Solver,
    cells: &[u8],
    limit: u64,
    control: &mut dyn Control,
    mut take: impl FnMut(&[u8]) -> Flow,
) -> Result<(), Error> {
    let grid = Grid::new(solver.shape(), cells.to_vec())?;
    if limit <= MAX_RESTART_LIMIT {
        for solution in solver.solutions(&grid, limit as usize, control)? {
            if take(solution.cells()) == Flow::Stop {
                break;
            }
        }
        return Ok(());
    }
    let Some(first) = solver.solutions(&grid, 1, control)?.pop() else {
        return Ok(());
    };
    if take(first.cells()) == Flow::Stop {
        return Ok(());
    }
    let mut taken = 1u64;
    solver.search(cells, control, |solution| {
        if solution == first.cells() {
            return Flow::Continue;
        }
        taken += 1;
        match take(solution) {
            Flow::Continue if taken < limit => Flow::Continue,
            _ => Flow::Stop,
        }
    })
}

/// Up to `limit` solutions back to back; `false` when they did not fit in memory.
fn find(
    solver: &mut Solver,
    cells: &[u8],
    limit: u64,
    control: &mut dyn Control,
    out: &mut Vec<u8>,
) -> Result<bool, Error> {
    let mut fits = true;
    each(solver, cells, limit, control, |solution| {
        if out.try_reserve(solution.len()).is_err() {
            fits = false;
            return Flow::Stop;
        }
        out.extend_from_slice(solution);
        Flow::Continue
    })?;
    Ok(fits)
}

/// Up to `limit` solutions (`None`: all), in search order; the first is `solve(grid)`. Past
/// `max_guesses` guesses: `GuessLimitError`, not the solutions found so far.
#[pyfunction]
#[pyo3(
    signature = (grid, /, *, limit = Limit(Some(10)), r#box = None, max_guesses = None,
        rules = None),
    text_signature = "(grid, /, *, limit=10, box=None, max_guesses=None, rules=None)"
)]
pub fn solutions<'py>(
    grid: &Bound<'py, PyAny>,
    limit: Limit,
    r#box: Option<BoxArg>,
    max_guesses: Option<MaxGuesses>,
    rules: Option<RulesArg>,
) -> PyResult<Bound<'py, PyList>> {
    super::guard::entry(|| {
        let py = grid.py();
        let request = Request::new(r#box, rules)?;
        let input = request.read(grid)?;
        let rules = request.into_rules();
        let limit = limit.0.unwrap_or(u64::MAX);
        let (cells, fits) = super::run::detached_with(
            py,
            &input.grid,
            super::args::budget(max_guesses),
            rules,
            |solver, grid, control| {
                let mut out = Vec::new();
                find(solver, grid.cells(), limit, control, &mut out).map(|fits| (out, fits))
            },
        )?;
        if !fits {
            return Err(alloc::too_big(&match limit {
                u64::MAX => "all the solutions".to_string(),
                _ => format!("{limit} solutions"),
            }));
        }
        alloc::list(
            py,
            cells
                .chunks(input.grid.cells().len())
                .map(|solution| input.kind.write(py, solution)),
        )
    })
}

/// Bytes of solutions a producer hands over at once (at least one solution).
const CHUNK_BYTES: usize = 1 << 16;

/// What the search thread sends: a chunk of solutions back to back, or why it stopped.
enum Message {
    Chunk(Vec<u8>),
    Failed(Error),
    /// The search thread panicked: the guard's error.
    Raised(PyErr),
    OutOfMemory,
}

/// A search that only goes on while its iterator exists.
struct Alive(Arc<AtomicBool>);

impl Control for Alive {
    fn proceed(&mut self, _: &SearchStats) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Runs the search on its own thread, handing solutions over a chunk at a time; it waits while
/// the consumer has a chunk not yet taken, so at most about two chunks are held.
fn spawn(
    grid: Grid,
    rules: Option<Arc<CoreRules>>,
    limit: u64,
    max_guesses: Option<u64>,
    alive: Arc<AtomicBool>,
) -> std::io::Result<Receiver<Message>> {
    let (sender, receiver) = sync_channel(1);
    std::thread::Builder::new()
        .name("sudoku_rs iter_solutions".into())
        .spawn(move || {
            // A panic here is reported to the consumer as the error it is, never taken for
            // the end of the solutions.
            let outcome = super::guard::no_panic(|| {
                produce(&grid, rules, limit, max_guesses, alive, &sender);
            });
            if let Err(err) = outcome {
                let _ = sender.send(Message::Raised(err));
            }
        })?;
    Ok(receiver)
}

/// The search thread's work: solutions to `sender` a chunk at a time, then why it stopped.
fn produce(
    grid: &Grid,
    rules: Option<Arc<CoreRules>>,
    limit: u64,
    max_guesses: Option<u64>,
    alive: Arc<AtomicBool>,
    sender: &SyncSender<Message>,
) {
    let nc = grid.cells().len();
    let per_chunk = (CHUNK_BYTES / nc).max(1) * nc;
    let mut solver = match rules {
        None => Solver::new(grid.shape()),
        Some(rules) => match Solver::with_rules(grid.shape(), rules) {
            Ok(solver) => solver,
            Err(err) => {
                let _ = sender.send(Message::Failed(err));
                return;
            }
        },
    };
    solver.set_max_guesses(max_guesses);
    let mut chunk: Vec<u8> = Vec::new();
    let mut lost = false;
    let outcome = each(
        &mut solver,
        grid.cells(),
        limit,
        &mut Alive(alive),
        |solution| {
            if chunk.try_reserve(nc).is_err() {
                lost = true;
                return Flow::Stop;
            }
            chunk.extend_from_slice(solution);
            if chunk.len() < per_chunk {
                return Flow::Continue;
            }
            // A send fails only when the iterator is gone: stop searching.
            match sender.send(Message::Chunk(std::mem::take(&mut chunk))) {
                Ok(()) => Flow::Continue,
                Err(_) => Flow::Stop,
            }
        },
    );
    let last = match outcome {
        _ if lost => Message::OutOfMemory,
        Err(Error::Interrupted) => return,
        Err(err) => Message::Failed(err),
        Ok(()) => Message::Chunk(chunk),
    };
    // After the last chunk the channel closes, which ends the iteration.
    let _ = sender.send(last);
}

/// The lazy iterator of `sudoku_rs.iter_solutions`.
#[pyclass(module = "sudoku_rs", name = "SolutionIterator")]
#[derive(Debug)]
pub struct SolutionIterator {
    /// The grid as given, so each solution comes back in its kind.
    grid: Py<PyAny>,
    shape: BoxShape,
    receiver: Mutex<Option<Receiver<Message>>>,
    alive: Arc<AtomicBool>,
    /// The chunk being handed out, and how much of it has been.
    pending: Vec<u8>,
    next: usize,
}

impl Drop for SolutionIterator {
    fn drop(&mut self) {
        self.alive.store(false, Ordering::Relaxed);
    }
}

#[pymethods]
impl SolutionIterator {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        super::guard::entry(|| {
            let grid = self.grid.bind(py).clone();
            let input = Request::of_shape(self.shape).read(&grid)?;
            let nc = input.grid.cells().len();
            while self.next >= self.pending.len() {
                let Some(message) = self.wait(py)? else {
                    return Ok(None);
                };
                match message {
                    Message::Chunk(cells) => (self.pending, self.next) = (cells, 0),
                    Message::Failed(err) => {
                        self.finish();
                        return Err(err.into());
                    }
                    Message::Raised(err) => {
                        self.finish();
                        return Err(err);
                    }
                    Message::OutOfMemory => {
                        self.finish();
                        return Err(alloc::too_big("the solutions found so far"));
                    }
                }
            }
            let solution = &self.pending[self.next..self.next + nc];
            self.next += nc;
            input.kind.write(py, solution).map(Some)
        })
    }
}

impl SolutionIterator {
    /// The next message, waiting with the GIL released and running Python's signal handlers
    /// meanwhile; `None` once the search has ended.
    fn wait(&mut self, py: Python<'_>) -> PyResult<Option<Message>> {
        let Some(mut receiver) = self.receiver.lock().expect("no panic while held").take() else {
            return Ok(None);
        };
        loop {
            // The receiver moves into the detached closure and back: it is not Sync.
            let got;
            (receiver, got) = py.detach(move || {
                let got = receiver.recv_timeout(POLL_EVERY);
                (receiver, got)
            });
            match got {
                Ok(message) => {
                    *self.receiver.lock().expect("no panic while held") = Some(receiver);
                    return Ok(Some(message));
                }
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(err) = py.check_signals() {
                        *self.receiver.lock().expect("no panic while held") = Some(receiver);
                        return Err(err);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    self.finish();
                    return Ok(None);
                }
            }
        }
    }

    /// Ends the iteration: later calls raise StopIteration.
    fn finish(&mut self) {
        self.alive.store(false, Ordering::Relaxed);
        *self.receiver.lock().expect("no panic while held") = None;
        self.pending = Vec::new();
        self.next = 0;
    }
}

/// The solutions of `grid`, one at a time, in the order of `solutions` (the first is
/// `solve(grid)`); see `sudoku_rs.iter_solutions`.
#[pyfunction]
#[pyo3(signature = (grid, /, *, limit = None, r#box = None, max_guesses = None, rules = None))]
pub fn iter_solutions(
    grid: &Bound<'_, PyAny>,
    limit: Option<Limit>,
    r#box: Option<BoxArg>,
    max_guesses: Option<MaxGuesses>,
    rules: Option<RulesArg>,
) -> PyResult<SolutionIterator> {
    super::guard::entry(|| {
        let request = Request::new(r#box, rules)?;
        let input = request.read(grid)?;
        let rules = request.into_rules();
        // Conflicting clues raise here, not at the first next().
        match &rules {
            None => input.grid.check()?,
            Some(rules) => {
                if let Some(conflict) =
                    crate::core::rules::find_conflict(input.grid.shape(), rules, input.grid.cells())
                {
                    return Err(conflict.into());
                }
            }
        }
        let shape = input.grid.shape();
        let alive = Arc::new(AtomicBool::new(true));
        let limit = limit.and_then(|l| l.0).unwrap_or(u64::MAX);
        let receiver = spawn(
            input.grid,
            rules,
            limit,
            super::args::budget(max_guesses),
            alive.clone(),
        )
        .map_err(|err| {
            pyo3::exceptions::PyRuntimeError::new_err(format!(
                "cannot start the search thread: {err}"
            ))
        })?;
        Ok(SolutionIterator {
            grid: grid.clone().unbind(),
            shape,
            receiver: Mutex::new(Some(receiver)),
            alive,
            pending: Vec::new(),
            next: 0,
        })
    })
}
