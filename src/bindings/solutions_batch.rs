//! `solutions_batch`: up to `limit` solutions of every row, on every core, into one
//! (N, limit, n, n) uint8 array allocated fallibly up front (N * limit * n * n bytes can be
//! more than memory: a `MemoryError`, not an abort). Each row is enumerated as `solutions`
//! enumerates one grid, and the chunk runner's threads write straight into the rows of the
//! output (`Runner::for_chunks_in`), so nothing else grows with the batch.

use std::sync::atomic::{AtomicI64, Ordering};

use numpy::PyArrayMethods;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::core::{Control, Error, Flow, Solver};

use super::alloc;
use super::args::{BoxArg, Limit, MaxGuesses, Threads};
use super::batch::{open, Batch};
use super::chunks::Runner;
use super::request::Request;
use super::rules::RulesArg;

/// Up to `limit` solutions of `puzzle` written one after another into `out` (zeros past the
/// last); returns the count, -1 when the guess budget ran out (then `out` is all zeros), 0 for
/// no solution or conflicting givens.
fn enumerate(
    solver: &mut Solver,
    puzzle: &[u8],
    limit: u64,
    control: &mut dyn Control,
    out: &mut [u8],
) -> i64 {
    out.fill(0);
    let nc = puzzle.len();
    let mut slots = out.chunks_mut(nc);
    let mut found = 0i64;
    let searched = super::solutions::each(solver, puzzle, limit, control, |solution| {
        match slots.next() {
            Some(slot) => {
                slot.copy_from_slice(solution);
                found += 1;
                Flow::Continue
            }
            None => Flow::Stop,
        }
    });
    match searched {
        Ok(()) => found,
        Err(Error::GuessLimit { .. }) => {
            out.fill(0);
            -1
        }
        Err(_) => {
            out.fill(0);
            0
        }
    }
}

/// Every row's solutions and counts; see `solutions_batch`.
fn solve_all<'py>(
    py: Python<'py>,
    batch: &Batch<'py>,
    limit: u64,
    threads: Option<Threads>,
    progress: Option<Bound<'py, PyAny>>,
    max_guesses: Option<u64>,
) -> PyResult<Bound<'py, PyAny>> {
    let (n, nc) = (batch.shape.size(), batch.shape.cell_count());
    let what = || format!("{limit} solutions of each of {} puzzles", batch.count);
    let limit_slots = usize::try_from(limit).map_err(|_| alloc::too_big(&what()))?;
    let stride = alloc::product(limit_slots, nc, what)?;
    let len = alloc::product(batch.count, stride, what)?;
    let out = alloc::zeros_shaped::<u8>(py, len, &[batch.count, limit_slots, n, n])?;
    let mut counts = Vec::new();
    alloc::reserve(&mut counts, batch.count, || {
        format!("{} counts", batch.count)
    })?;
    counts.extend((0..batch.count).map(|_| AtomicI64::new(0)));
    // SAFETY: the array was made just above and nothing else holds it until it is returned,
    // so no other reference reads or writes its data meanwhile.
    let flat = unsafe { out.as_slice_mut() }.expect("a new array is contiguous");
    Runner::new(batch.shape, batch.count, threads, progress)
        .under(batch.rules.clone())
        .attached()
        .for_chunks_in(
            py,
            flat,
            stride,
            |start, end, cells| {
                let mut valid = Vec::new();
                batch.read(start, end, cells, &mut valid)?;
                Ok(valid)
            },
            |solver: &mut Solver, row, puzzle, out, control| {
                solver.set_max_guesses(max_guesses);
                let count = if row.chunk[row.local] {
                    enumerate(solver, puzzle, limit, control, out)
                } else {
                    out.fill(0);
                    0
                };
                counts[row.index].store(count, Ordering::Relaxed);
            },
        )?;
    let counts: Vec<i64> = counts.into_iter().map(AtomicI64::into_inner).collect();
    let counts = alloc::from_slice(py, &counts)?;
    Ok((out, counts).into_pyobject(py)?.into_any())
}

/// Every solution up to ``limit`` of each puzzle, on every core.
///
/// Takes the puzzles :func:`solve_batch` takes and returns a tuple ``(solutions, counts)``:
/// ``solutions`` a uint8 array of shape (N, limit, n, n) (uint8 whatever the input, since
/// N * limit * n * n values can be large; n is at most 64), row i's solutions first and zeros
/// past ``counts[i]``; ``counts`` an int64 array of shape (N,). Each row's solutions come in
/// the order of :func:`solutions` (the first is :func:`solve`'s). A malformed or conflicting
/// row, or one with no solution, counts 0; with ``max_guesses``, a row that runs out of
/// guesses counts -1 and has no solutions (never a partial list). ``rules`` enumerates under
/// variant rules, as in :func:`solve_batch`. An output too large for memory is a
/// ``MemoryError`` before any search. ``threads=None`` uses every core; ``progress=True``
/// shows a tqdm bar. The GIL is released; Ctrl-C stops the batch.
#[pyfunction]
#[pyo3(
    signature = (puzzles, limit = Limit(Some(10)), *, rules = None, r#box = None,
        max_guesses = None, threads = None, progress = None),
    text_signature = "(puzzles, limit=10, *, rules=None, box=None, max_guesses=None, \
        threads=None, progress=False)"
)]
#[allow(clippy::too_many_arguments)]
pub fn solutions_batch<'py>(
    puzzles: &Bound<'py, PyAny>,
    limit: Limit,
    rules: Option<RulesArg>,
    r#box: Option<BoxArg>,
    max_guesses: Option<MaxGuesses>,
    threads: Option<Threads>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    super::guard::entry(|| {
        let Some(limit) = limit.0 else {
            return Err(PyValueError::new_err(
                "limit must be a positive integer: solutions_batch makes room for limit \
                 solutions per row (iter_solutions gives every solution of one grid)",
            ));
        };
        super::entry::batch(puzzles, progress, "enumerating", |puzzles, update| {
            let batch = open(puzzles, &Request::new(r#box, rules)?)?;
            solve_all(
                puzzles.py(),
                &batch,
                limit,
                threads,
                update,
                super::args::budget(max_guesses),
            )
        })
    })
}
