//! Batch solving and counting over numpy stacks and lists of strings.
//!
//! Puzzles are copied into a `u8` buffer a chunk at a time while attached (so no Python thread
//! can change them under the search), searched on every thread with the GIL released, and the
//! results written into the output while attached again. Memory beyond input and output is one
//! chunk, whatever the batch size. A bad row comes back as zeros (None for strings), never as an
//! exception that would lose the rest of the batch.

use numpy::ndarray::Axis;
use numpy::{
    PyArray1, PyArrayDescr, PyArrayDescrMethods, PyArrayDyn, PyArrayMethods, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use crate::core::batch::{for_each, Stopped};
use crate::core::grid::shape::isqrt;
use crate::core::grid::text::{self, render_like};
use crate::core::{BoxShape, Control, Error, Solver, Status};
use crate::with_int_type;

use super::dtype::{check_integer_dtype, in_dtype, native_order, CellElement};

/// Cells per chunk: a 4 MiB work buffer (about 50,000 9x9 puzzles).
pub(super) const CHUNK_CELLS: usize = 1 << 22;

/// Where the puzzles come from.
pub(super) enum Source<'py> {
    /// A native-order integer array of shape (N, n, n) or (N, n*n).
    Array(Bound<'py, PyAny>, Bound<'py, PyArrayDescr>),
    /// Puzzle strings.
    Strings(Vec<Bound<'py, PyAny>>),
}

pub(super) struct Batch<'py> {
    pub(super) source: Source<'py>,
    pub(super) shape: BoxShape,
    pub(super) count: usize,
}

fn batch_shape_error(shape: &[usize]) -> PyErr {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    Error::Shape(format!(
        "a batch must have shape (N, n, n) or (N, n*n), got ({}{})",
        dims.join(", "),
        if dims.len() == 1 { "," } else { "" }
    ))
    .into()
}

pub(super) fn open<'py>(
    puzzles: &Bound<'py, PyAny>,
    requested_box: Option<(usize, usize)>,
) -> PyResult<Batch<'py>> {
    if let Ok(array) = puzzles.cast::<PyUntypedArray>() {
        let dtype = array.dtype();
        check_integer_dtype(&dtype)?;
        let dims = array.shape().to_vec();
        let n = match dims.as_slice() {
            [_, rows, cols] if rows == cols => *rows,
            [_, cells] if isqrt(*cells) * isqrt(*cells) == *cells => isqrt(*cells),
            _ => return Err(batch_shape_error(&dims)),
        };
        if n == 0 {
            return Err(batch_shape_error(&dims));
        }
        let shape = BoxShape::for_size(n, requested_box)?;
        let native = native_order(array)?;
        return Ok(Batch {
            source: Source::Array(native, dtype),
            shape,
            count: dims[0],
        });
    }
    if puzzles.is_instance_of::<PyList>() || puzzles.is_instance_of::<PyTuple>() {
        let items: Vec<Bound<'py, PyAny>> = puzzles.try_iter()?.collect::<PyResult<_>>()?;
        // The first string that parses decides the size; rows of another size are bad rows.
        let first_good = items.iter().find_map(|item| {
            let s = item.cast::<PyString>().ok()?.to_cow().ok()?;
            text::parse(&s, requested_box).ok().map(|grid| grid.shape())
        });
        let shape = match (first_good, requested_box) {
            (Some(shape), _) => shape,
            (None, Some((r, c))) => BoxShape::new(r, c)?,
            (None, None) => BoxShape::CLASSIC,
        };
        let count = items.len();
        return Ok(Batch {
            source: Source::Strings(items),
            shape,
            count,
        });
    }
    Err(PyTypeError::new_err(format!(
        "expected a numpy integer array of shape (N, n, n) or (N, n*n), or a list of puzzle \
         strings; got {}",
        puzzles.get_type().name()?
    )))
}

impl<'py> Batch<'py> {
    /// Copies puzzles `start..end` into `cells`; a row that is not a well-formed puzzle of
    /// the batch's shape is marked in `valid` and left blank.
    pub(super) fn read(
        &self,
        start: usize,
        end: usize,
        cells: &mut Vec<u8>,
        valid: &mut Vec<bool>,
    ) -> PyResult<()> {
        let nc = self.shape.cell_count();
        cells.clear();
        cells.resize((end - start) * nc, 0);
        valid.clear();
        valid.resize(end - start, true);
        match &self.source {
            Source::Array(array, dtype) => with_int_type!(dtype, T => {
                read_rows::<T>(array, self.shape.size(), start, end, cells, valid)
            }),
            Source::Strings(items) => {
                for (k, item) in items[start..end].iter().enumerate() {
                    let parsed = item
                        .cast::<PyString>()
                        .ok()
                        .and_then(|s| s.to_cow().ok())
                        .and_then(|s| {
                            text::parse(&s, Some((self.shape.rows(), self.shape.cols()))).ok()
                        });
                    match parsed {
                        Some(grid) => cells[k * nc..(k + 1) * nc].copy_from_slice(grid.cells()),
                        None => valid[k] = false,
                    }
                }
                Ok(())
            }
        }
    }
}

fn read_rows<T: CellElement>(
    array: &Bound<'_, PyAny>,
    n: usize,
    start: usize,
    end: usize,
    cells: &mut [u8],
    valid: &mut [bool],
) -> PyResult<()> {
    let array = array.cast::<PyArrayDyn<T>>()?.readonly();
    let nc = n * n;
    let rows = cells.chunks_exact_mut(nc).zip(valid.iter_mut());
    // The usual case, a C-ordered array: one flat pass the compiler can vectorise. This copy
    // runs on the calling thread with the GIL held, so on easy puzzles it bounds how far a
    // batch scales with threads; the strided walk below is several times slower.
    if array.is_c_contiguous() {
        let flat = array.as_slice()?;
        for ((out, ok), row) in rows.zip(flat[start * nc..end * nc].chunks_exact(nc)) {
            *ok = copy_row(row.iter(), n, out);
        }
        return Ok(());
    }
    // Logical order, whatever the strides: row-major cells for (n, n) and (n*n,) alike.
    let view = array.as_array();
    for ((out, ok), i) in rows.zip(start..end) {
        *ok = copy_row(view.index_axis(Axis(0), i).iter(), n, out);
    }
    Ok(())
}

/// Copies one puzzle's values into `out`; `false`, with `out` zeroed, if one is outside 0..=n.
#[inline]
fn copy_row<'a, T: CellElement + 'a>(
    row: impl Iterator<Item = &'a T>,
    n: usize,
    out: &mut [u8],
) -> bool {
    let mut bad = false;
    for (slot, &v) in out.iter_mut().zip(row) {
        let v = v.to_i128();
        bad |= v as u128 > n as u128; // negative values wrap to huge ones
        *slot = v as u8;
    }
    if bad {
        out.fill(0);
    }
    !bad
}

/// Runs `work` over the batch chunk by chunk, handing each chunk's results to `write`.
/// Ctrl-C (any exception from a signal handler) and exceptions from `progress` stop the batch.
#[allow(clippy::too_many_arguments)]
pub(super) fn run<'py, R, W>(
    py: Python<'py>,
    batch: &Batch<'py>,
    threads: Option<super::count::CountArg>,
    progress: Option<Bound<'py, PyAny>>,
    stride: usize,
    work: W,
    mut write: impl FnMut(usize, &[R], &[bool]) -> PyResult<()>,
) -> PyResult<()>
where
    R: Default + Clone + Send,
    W: Fn(&mut Solver, &[u8], &mut [R], &mut dyn Control) + Sync,
{
    let threads = super::thread_arg(threads)?;
    let shape = batch.shape;
    let nc = shape.cell_count();
    let chunk = (CHUNK_CELLS / nc).max(threads * 64);
    let mut progress = Progress::new(progress);
    let (mut cells, mut valid, mut results) = (Vec::new(), Vec::new(), Vec::new());
    let mut start = 0;
    while start < batch.count {
        let end = (start + chunk).min(batch.count);
        batch.read(start, end, &mut cells, &mut valid)?;
        results.clear();
        results.resize((end - start) * stride, R::default());
        progress.run_chunk(py, |poll| {
            super::guard::no_panic(|| {
                for_each(
                    shape,
                    &cells,
                    &mut results,
                    stride,
                    threads,
                    poll,
                    |solver, i, puzzle, out, control| {
                        if valid[i] {
                            work(solver, puzzle, out, control);
                        }
                    },
                )
            })
        })?;
        write(start, &results, &valid)?;
        progress.finish_chunk(py, end - start)?;
        start = end;
    }
    Ok(())
}

/// A batch's progress callback, fed chunk by chunk, and the poll `for_each` calls while a chunk
/// runs. Each puzzle is reported once: as the poll sees it done, or when its chunk finishes.
pub(super) struct Progress {
    callback: Option<Py<PyAny>>,
    /// Puzzles of the current chunk reported so far.
    reported: usize,
}

impl Progress {
    pub(super) fn new(callback: Option<Bound<'_, PyAny>>) -> Self {
        Progress {
            callback: callback.map(Bound::unbind),
            reported: 0,
        }
    }

    /// Runs one chunk with the GIL released; `work` hands `poll` to `for_each`. The poll runs
    /// Python's signal handlers and reports finished puzzles; Ctrl-C (any exception from a signal
    /// handler) or an exception from the callback stops the chunk and is raised here.
    pub(super) fn run_chunk<F>(&mut self, py: Python<'_>, work: F) -> PyResult<()>
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

    /// Reports what the poll has not yet reported of a finished chunk of `size` puzzles.
    pub(super) fn finish_chunk(&mut self, py: Python<'_>, size: usize) -> PyResult<()> {
        if let Some(callback) = &self.callback {
            callback.call1(py, (size - self.reported,))?;
        }
        Ok(())
    }
}

/// Runs `work` (see [`run`]) and returns the first n*n values of each row's results as grids
/// in the kind of the input: an array of its dtype and shape, or a list of strings written like
/// each input line, None where `is_grid` rejects the row (malformed rows are always None).
/// `note` sees every chunk's results too, for whatever else the caller collects.
#[allow(clippy::too_many_arguments)]
pub(super) fn run_to_grids<'py, W>(
    py: Python<'py>,
    batch: &Batch<'py>,
    threads: Option<super::count::CountArg>,
    progress: Option<Bound<'py, PyAny>>,
    stride: usize,
    work: W,
    is_grid: impl Fn(&[u8]) -> bool,
    mut note: impl FnMut(&[u8], &[bool]),
) -> PyResult<Bound<'py, PyAny>>
where
    W: Fn(&mut Solver, &[u8], &mut [u8], &mut dyn Control) + Sync,
{
    let nc = batch.shape.cell_count();
    match &batch.source {
        Source::Array(array, dtype) => {
            let dims = array.cast::<PyUntypedArray>()?.shape().to_vec();
            let out = with_int_type!(dtype, T => {
                let out = PyArray1::<T>::zeros(py, batch.count * nc, false);
                {
                    let mut out_rw = out.readwrite();
                    let flat = out_rw.as_slice_mut()?;
                    run(py, batch, threads, progress, stride, work, |start, results: &[u8], valid| {
                        let rows = flat[start * nc..].chunks_mut(nc).zip(results.chunks(stride));
                        for (slots, row) in rows {
                            for (slot, &v) in slots.iter_mut().zip(&row[..nc]) {
                                *slot = T::from_value(v);
                            }
                        }
                        note(results, valid);
                        Ok(())
                    })?;
                }
                out.reshape(dims)?.into_any()
            });
            in_dtype(out, dtype)
        }
        Source::Strings(items) => {
            let mut grids: Vec<Option<String>> = Vec::with_capacity(batch.count);
            run(
                py,
                batch,
                threads,
                progress,
                stride,
                work,
                |start, results: &[u8], valid| {
                    for (k, row) in results.chunks(stride).enumerate() {
                        grids.push(if valid[k] && is_grid(row) {
                            let template = items[start + k].cast::<PyString>()?.to_cow()?;
                            Some(render_like(&template, &row[..nc]))
                        } else {
                            None
                        });
                    }
                    note(results, valid);
                    Ok(())
                },
            )?;
            Ok(PyList::new(py, grids)?.into_any())
        }
    }
}

/// Where a row's status code goes: after its cells (solve) or its count.
fn status_of(valid: bool, slot: i64) -> Status {
    if !valid {
        return Status::Invalid;
    }
    match slot {
        0 => Status::Solved,
        2 => Status::NoSolution,
        3 => Status::GuessLimit,
        _ => Status::Invalid,
    }
}

/// The result of a batch function: the results, or `(results, status)` when asked for.
fn with_status<'py>(
    py: Python<'py>,
    results: Bound<'py, PyAny>,
    status: Option<Vec<i8>>,
) -> PyResult<Bound<'py, PyAny>> {
    match status {
        None => Ok(results),
        Some(codes) => Ok((results, PyArray1::from_vec(py, codes))
            .into_pyobject(py)?
            .into_any()),
    }
}

/// Solves every puzzle; see `sudoku_rs.solve_batch`.
#[pyfunction]
#[pyo3(signature = (
    puzzles, /, *, r#box = None, threads = None, progress = None, max_guesses = None,
    status = false
))]
pub fn _solve_batch<'py>(
    puzzles: &Bound<'py, PyAny>,
    r#box: Option<(i64, i64)>,
    threads: Option<super::count::CountArg>,
    progress: Option<Bound<'py, PyAny>>,
    max_guesses: Option<super::count::CountArg>,
    status: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let py = puzzles.py();
    let max_guesses = super::guess_budget(max_guesses)?;
    let batch = open(puzzles, super::box_arg(r#box)?)?;
    let nc = batch.shape.cell_count();
    // Each row's result is its cells, then its status code.
    let stride = nc + 1;
    let solve = |solver: &mut Solver, puzzle: &[u8], out: &mut [u8], control: &mut dyn Control| {
        solver.set_max_guesses(max_guesses);
        let (cells, code) = out.split_at_mut(nc);
        let outcome = match solver.solve_into(puzzle, cells, control) {
            Ok(true) => Status::Solved,
            Ok(false) => Status::NoSolution,
            Err(err) => Status::of_error(&err),
        };
        if outcome != Status::Solved {
            cells.fill(0);
        }
        code[0] = outcome.code() as u8;
    };
    let mut codes: Vec<i8> = Vec::with_capacity(if status { batch.count } else { 0 });
    let note = |results: &[u8], valid: &[bool]| {
        if status {
            for (k, row) in results.chunks(stride).enumerate() {
                codes.push(status_of(valid[k], i64::from(row[nc])).code());
            }
        }
    };
    // Only a solved row is a grid; the others have status codes but no solution to show.
    let is_solved = |row: &[u8]| status_of(true, i64::from(row[nc])) == Status::Solved;
    let solved = run_to_grids(
        py, &batch, threads, progress, stride, solve, is_solved, note,
    )?;
    with_status(py, solved, status.then_some(codes))
}

/// Counts each puzzle's solutions up to `limit`; see `sudoku_rs.count_solutions_batch`.
#[pyfunction]
#[pyo3(signature = (
    puzzles, /, *, limit = 2, r#box = None, threads = None, progress = None, max_guesses = None,
    status = false
))]
#[allow(clippy::too_many_arguments)]
pub fn _count_solutions_batch<'py>(
    puzzles: &Bound<'py, PyAny>,
    limit: i64,
    r#box: Option<(i64, i64)>,
    threads: Option<super::count::CountArg>,
    progress: Option<Bound<'py, PyAny>>,
    max_guesses: Option<super::count::CountArg>,
    status: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let py = puzzles.py();
    let limit = super::positive("limit", limit)?;
    let max_guesses = super::guess_budget(max_guesses)?;
    let batch = open(puzzles, super::box_arg(r#box)?)?;
    let out = PyArray1::<i64>::zeros(py, batch.count, false);
    let mut codes: Vec<i8> = Vec::with_capacity(if status { batch.count } else { 0 });
    {
        let mut out_rw = out.readwrite();
        let flat = out_rw.as_slice_mut()?;
        // Each row's result is its count (-1: out of guesses), then its status code.
        let count =
            |solver: &mut Solver, puzzle: &[u8], out: &mut [i64], control: &mut dyn Control| {
                solver.set_max_guesses(max_guesses);
                let (counted, outcome) = match solver.count(puzzle, Some(limit), control) {
                    Ok(0) => (0, Status::NoSolution),
                    Ok(c) => (c as i64, Status::Solved),
                    Err(err @ Error::GuessLimit { .. }) => (-1, Status::of_error(&err)),
                    Err(err) => (0, Status::of_error(&err)),
                };
                out[0] = counted;
                out[1] = i64::from(outcome.code());
            };
        run(
            py,
            &batch,
            threads,
            progress,
            2,
            count,
            |start, results: &[i64], valid| {
                for (k, row) in results.chunks(2).enumerate() {
                    flat[start + k] = row[0];
                    if status {
                        codes.push(status_of(valid[k], row[1]).code());
                    }
                }
                Ok(())
            },
        )?;
    }
    with_status(py, out.into_any(), status.then_some(codes))
}
