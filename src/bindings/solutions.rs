//! `solutions` and `iter_solutions`: many solutions of one grid. `solutions` holds them in
//! memory allocated fallibly (10**7 solutions of an empty grid are a `MemoryError`, not an
//! abort); `iter_solutions` searches a buffer of them at a time for the `__next__` that needs
//! them, waiting with the GIL released, so "all solutions of this 16x16" needs no memory for
//! the ones already seen (see [`Search`]).
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

use crate::core::batch::{Stopped, POLL_EVERY};
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
        let (grid, r#box, rules) = super::puzzle::unpack(grid, r#box, rules)?;
        let request = Request::new(r#box, rules)?;
        let input = request.read(&grid)?;
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

/// Bytes of solutions one `__next__` has searched for at a time (at least one solution).
const CHUNK_BYTES: usize = 1 << 16;

/// What the search hands back for a buffer: the buffer filled, or why it stopped.
enum Message {
    /// The buffer, full; the search waits for the next.
    Full(Vec<u8>),
    /// The last solutions (possibly none): the search has ended.
    Last(Vec<u8>),
    Failed(Error),
    /// The search panicked: the guard's error.
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

/// One iterator's search. Stopping a depth-first search in the middle and resuming it later
/// needs its stack kept meanwhile, and the 9x9 engine recurses, so the search keeps a thread
/// for its stack; but it searches only for a `__next__` that waits for it: each `__next__` that
/// runs out of solutions hands it an empty buffer and waits (with the GIL released, Ctrl-C
/// served, as every batch waits: `chunks::detached`) until the buffer comes back full, and
/// between calls the thread sleeps. So an iterator never searches more than one thread's
/// worth, nothing runs ahead of what was asked for, and one that is dropped ends its thread.
struct Search {
    /// Empty buffers for the search to fill; dropping it ends a sleeping search.
    buffers: SyncSender<Vec<u8>>,
    /// What the search hands back (behind a lock only because a receiver is not `Sync`).
    replies: Mutex<Receiver<Message>>,
    /// Whether a buffer was handed over and not yet handed back (a wait that Ctrl-C cut short
    /// leaves one out; the next `__next__` waits for it).
    asked: bool,
    /// Cleared when the iterator goes, to stop a search that is running.
    alive: Arc<AtomicBool>,
}

impl Search {
    /// Starts the thread; it searches nothing before the first buffer.
    fn start(
        grid: Grid,
        rules: Option<Arc<CoreRules>>,
        limit: u64,
        max_guesses: Option<u64>,
    ) -> std::io::Result<Self> {
        let (buffers, wanted) = sync_channel(1);
        let (reply, replies) = sync_channel(1);
        let alive = Arc::new(AtomicBool::new(true));
        let searching = alive.clone();
        std::thread::Builder::new()
            .name("sudoku_rs iter_solutions".into())
            .spawn(move || {
                // A panic here is reported to the consumer as the error it is, never taken for
                // the end of the solutions.
                let outcome = super::guard::no_panic(|| {
                    produce(&grid, rules, limit, max_guesses, searching, &wanted, &reply);
                });
                if let Err(err) = outcome {
                    let _ = reply.send(Message::Raised(err));
                }
            })?;
        Ok(Search {
            buffers,
            replies: Mutex::new(replies),
            asked: false,
            alive,
        })
    }

    /// Hands the search `buffer` (emptied) unless one is out already, and waits for it back.
    fn next_chunk(&mut self, py: Python<'_>, mut buffer: Vec<u8>) -> PyResult<Message> {
        if !self.asked {
            buffer.clear();
            if self.buffers.send(buffer).is_err() {
                // The thread is gone without a last word: only a panic the guard missed.
                return Ok(Message::Last(Vec::new()));
            }
            self.asked = true;
        }
        let replies = &self.replies;
        let message = super::chunks::detached(
            py,
            |_, _| Ok(()),
            |poll| {
                let replies = replies.lock().expect("no panic while held");
                loop {
                    match replies.recv_timeout(POLL_EVERY) {
                        Ok(message) => return Ok(message),
                        Err(RecvTimeoutError::Timeout) if poll(0) => {}
                        Err(RecvTimeoutError::Timeout) => return Err(Stopped),
                        Err(RecvTimeoutError::Disconnected) => {
                            return Ok(Message::Last(Vec::new()))
                        }
                    }
                }
            },
        )?;
        self.asked = false;
        Ok(message)
    }
}

impl Drop for Search {
    fn drop(&mut self) {
        self.alive.store(false, Ordering::Relaxed);
    }
}

/// The search thread's work: waits for a buffer, fills it with solutions, hands it back and
/// waits for the next, until the solutions end or the iterator goes.
fn produce(
    grid: &Grid,
    rules: Option<Arc<CoreRules>>,
    limit: u64,
    max_guesses: Option<u64>,
    alive: Arc<AtomicBool>,
    wanted: &Receiver<Vec<u8>>,
    reply: &SyncSender<Message>,
) {
    let Ok(mut chunk) = wanted.recv() else {
        return;
    };
    let nc = grid.cells().len();
    let per_chunk = (CHUNK_BYTES / nc).max(1) * nc;
    let mut solver = match rules {
        None => Solver::new(grid.shape()),
        Some(rules) => match Solver::with_rules(grid.shape(), rules) {
            Ok(solver) => solver,
            Err(err) => {
                let _ = reply.send(Message::Failed(err));
                return;
            }
        },
    };
    solver.set_max_guesses(max_guesses);
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
            // Either fails only when the iterator is gone: stop searching.
            let full = std::mem::take(&mut chunk);
            if reply.send(Message::Full(full)).is_err() {
                return Flow::Stop;
            }
            match wanted.recv() {
                Ok(buffer) => {
                    chunk = buffer;
                    Flow::Continue
                }
                Err(_) => Flow::Stop,
            }
        },
    );
    let last = match outcome {
        _ if lost => Message::OutOfMemory,
        Err(Error::Interrupted) => return,
        Err(err) => Message::Failed(err),
        Ok(()) => Message::Last(chunk),
    };
    let _ = reply.send(last);
}

/// The lazy iterator of `sudoku_rs.iter_solutions`.
#[pyclass(module = "sudoku_rs", name = "SolutionIterator")]
pub struct SolutionIterator {
    /// The grid as given, so each solution comes back in its kind.
    grid: Py<PyAny>,
    shape: BoxShape,
    /// `None` once the search has ended.
    search: Option<Search>,
    /// The solutions being handed out, and how much of them has been.
    pending: Vec<u8>,
    next: usize,
}

impl std::fmt::Debug for SolutionIterator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SolutionIterator")
            .field("shape", &self.shape)
            .field("searching", &self.search.is_some())
            .finish_non_exhaustive()
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
                let Some(search) = self.search.as_mut() else {
                    return Ok(None);
                };
                let buffer = std::mem::take(&mut self.pending);
                self.next = 0;
                // Ctrl-C while waiting leaves the buffer with the search; the next call waits
                // for it again.
                match search.next_chunk(py, buffer)? {
                    Message::Full(cells) => self.pending = cells,
                    Message::Last(cells) => {
                        self.pending = cells;
                        self.search = None;
                    }
                    Message::Failed(err) => return Err(self.finish(err.into())),
                    Message::Raised(err) => return Err(self.finish(err)),
                    Message::OutOfMemory => {
                        let err = alloc::too_big("the solutions found so far");
                        return Err(self.finish(err));
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
    /// Ends the iteration with `err`: later calls raise StopIteration.
    fn finish(&mut self, err: PyErr) -> PyErr {
        self.search = None;
        self.pending = Vec::new();
        self.next = 0;
        err
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
        let (grid, r#box, rules) = super::puzzle::unpack(grid, r#box, rules)?;
        let request = Request::new(r#box, rules)?;
        let input = request.read(&grid)?;
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
        let limit = limit.and_then(|l| l.0).unwrap_or(u64::MAX);
        let search = Search::start(input.grid, rules, limit, super::args::budget(max_guesses))
            .map_err(|err| {
                pyo3::exceptions::PyRuntimeError::new_err(format!(
                    "cannot start the search thread: {err}"
                ))
            })?;
        Ok(SolutionIterator {
            grid: grid.clone().unbind(),
            shape,
            search: Some(search),
            pending: Vec::new(),
            next: 0,
        })
    })
}
