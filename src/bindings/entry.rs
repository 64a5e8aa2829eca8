//! How every batch function starts: what counts as a batch and how it is taken
//! ([`as_batch`], the one owner of that rule; `sudoku_rs.dask` asks [`_check_batch_shape`]),
//! and the progress bar around the work ([`with_progress`]).
//!
//! Batch entry is compiled for every batch function: the public function is the compiled one,
//! its result made natively (`records.rs` makes structured arrays; result classes such as
//! `Answers` or `SearchTraces` are imported from the package and filled here;
//! tests/test_binding_layout.py checks that none is a Python wrapper). The other direction (every batch a Python wrapper that normalises the
//! input and opens the bar) would put a Python frame and its argument handling in front of
//! every call, which costs more than the rest of a one-row `solve_batch` of an easy puzzle.

use numpy::{PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyList, PyTuple};

use crate::core::grid::shape::isqrt;
use crate::core::Error;

const A_BATCH_IS: &str =
    "a batch is a numpy array of shape (N, n, n) or (N, n*n), or a list of puzzle strings";

/// `puzzles` as the batch readers take it: integer arrays and lists or tuples as they stand;
/// any other 1-D sequence of strings (a pandas Series, a numpy array of str, bytes or object)
/// as a list of str, so a DataFrame column works. Nested lists are refused: they would be read
/// as bad strings. Other arrays go on as they are, for the reader to name what is wrong.
#[inline]
pub(super) fn as_batch<'py>(puzzles: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    // Arrays first: an integer array is the batch that must cost least to take.
    if let Ok(array) = puzzles.cast::<PyUntypedArray>() {
        if array.ndim() == 1 {
            match array.dtype().kind() {
                b'S' => {
                    // `numpy.char` is importable as a module only from numpy 2; on older
                    // numpy it is an attribute of `numpy`.
                    static DECODE: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
                    let py = puzzles.py();
                    return DECODE
                        .get_or_try_init(py, || {
                            py.import("numpy")?
                                .getattr("char")?
                                .getattr("decode")
                                .map(Bound::unbind)
                        })?
                        .bind(py)
                        .call1((puzzles, "ascii", "replace"))?
                        .call_method0("tolist");
                }
                b'O' | b'U' => return puzzles.call_method0("tolist"),
                _ => {}
            }
        }
        return Ok(puzzles.clone());
    }
    if puzzles.is_instance_of::<PyList>() || puzzles.is_instance_of::<PyTuple>() {
        let first = if let Ok(list) = puzzles.cast::<PyList>() {
            list.get_item(0).ok()
        } else {
            puzzles.cast::<PyTuple>()?.get_item(0).ok()
        };
        if first.is_some_and(|item| {
            item.is_instance_of::<PyList>()
                || item.is_instance_of::<PyTuple>()
                || item.cast::<PyUntypedArray>().is_ok()
        }) {
            return Err(PyTypeError::new_err(format!(
                "{A_BATCH_IS}; convert nested lists with np.array(puzzles)"
            )));
        }
        return Ok(puzzles.clone());
    }
    if puzzles.hasattr("tolist")? {
        static ASARRAY: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
        let array = ASARRAY
            .import(puzzles.py(), "numpy", "asarray")?
            .call1((puzzles,))?;
        return as_batch(&array);
    }
    Err(PyTypeError::new_err(format!(
        "{A_BATCH_IS}; got {}",
        puzzles.get_type().name()?
    )))
}

/// The puzzles of a batch as [`as_batch`] takes them, and whether `progress=` asks for a bar.
#[inline]
pub(super) fn start<'py>(
    puzzles: &Bound<'py, PyAny>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<(Bound<'py, PyAny>, bool)> {
    Ok((as_batch(puzzles)?, shown(progress)?))
}

/// Whether `progress=` asks for a bar: any true value does, as `if progress:` reads it.
#[inline]
pub(super) fn shown(progress: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
    progress.map_or(Ok(false), PyAnyMethods::is_truthy)
}

/// A batch function's body: `work(puzzles, update)` with the puzzles as [`as_batch`] takes
/// them, inside a bar of `desc` over `len(puzzles)` rows when `progress=` is true (`update`
/// is then the bar's callback, else `None`).
pub(super) fn batch<'py, T>(
    puzzles: &Bound<'py, PyAny>,
    progress: Option<&Bound<'py, PyAny>>,
    desc: &str,
    work: impl FnOnce(&Bound<'py, PyAny>, Option<Bound<'py, PyAny>>) -> PyResult<T>,
) -> PyResult<T> {
    let (puzzles, shown) = start(puzzles, progress)?;
    let total = if shown { puzzles.len()? } else { 0 };
    with_progress(puzzles.py(), shown, total, desc, |update| {
        work(&puzzles, update)
    })
}

/// The side n of the puzzles of a batch array of dimensions `dims`: (N, n, n) or (N, n*n) with
/// n >= 1. An unknown dimension (`None`, as a lazy array may have) is allowed for N only.
pub(super) fn puzzle_side(dims: &[Option<usize>]) -> Option<usize> {
    let n = match dims {
        [_, Some(rows), Some(cols)] if rows == cols => *rows,
        [_, Some(cells)] if isqrt(*cells) * isqrt(*cells) == *cells => isqrt(*cells),
        _ => return None,
    };
    (n > 0).then_some(n)
}

/// The error of a batch array whose dimensions are not a batch's; an unknown one shows as N.
pub(super) fn shape_error(dims: &[Option<usize>]) -> PyErr {
    let dims: Vec<String> = dims
        .iter()
        .map(|d| d.map_or_else(|| "N".to_string(), |d| d.to_string()))
        .collect();
    let comma = if dims.len() == 1 { "," } else { "" };
    Error::Shape(format!(
        "a batch must have shape (N, n, n) or (N, n*n), got ({}{comma})",
        dims.join(", ")
    ))
    .into()
}

/// Raises the batch readers' `InvalidPuzzleError` unless `dims` (None where unknown) are the
/// dimensions of a batch array; for `sudoku_rs.dask`, whose arrays are read block by block.
#[pyfunction]
// pyo3 extracts a sequence argument as an owned Vec; it cannot lend a slice.
#[allow(clippy::needless_pass_by_value)]
pub fn _check_batch_shape(dims: Vec<Option<usize>>) -> PyResult<()> {
    super::guard::entry(|| match puzzle_side(&dims) {
        Some(_) => Ok(()),
        None => Err(shape_error(&dims)),
    })
}

/// `work(None)` without a bar; with one, `work(Some(update))` inside the package's
/// `_progress.progress_bar(True, total, desc)`, entered and left as a `with` statement does
/// (tqdm draws the bar; without tqdm entering it raises an ImportError that says so).
pub(super) fn with_progress<'py, T>(
    py: Python<'py>,
    enabled: bool,
    total: usize,
    desc: &str,
    work: impl FnOnce(Option<Bound<'py, PyAny>>) -> PyResult<T>,
) -> PyResult<T> {
    static PROGRESS_BAR: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    if !enabled {
        return work(None);
    }
    let manager = PROGRESS_BAR
        .import(py, "sudoku_rs._progress", "progress_bar")?
        .call1((true, total, desc))?;
    let update = manager.call_method0("__enter__")?;
    match work(Some(update)) {
        Ok(value) => {
            manager.call_method1("__exit__", (py.None(), py.None(), py.None()))?;
            Ok(value)
        }
        Err(err) => {
            let details = (err.get_type(py), err.value(py), err.traceback(py));
            // progress_bar never suppresses an exception; one raised while leaving it wins,
            // as in a `with` statement.
            manager.call_method1("__exit__", details)?;
            Err(err)
        }
    }
}
