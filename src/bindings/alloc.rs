//! Memory sized by a user's numbers (a batch's row count, a limit, a file's length), allocated
//! so that running out is a `MemoryError`, never an abort: Rust aborts the process when an
//! infallible allocation fails, and pyo3 panics when a numpy constructor returns NULL. Sizes are
//! computed with checked arithmetic, so a count near 2**64 cannot wrap into a small buffer.

use numpy::{Element, PyArray1, PyArrayMethods};
use pyo3::exceptions::PyMemoryError;
use pyo3::prelude::*;

/// The error for a request that cannot fit: `what` says what was asked for.
pub fn too_big(what: &str) -> PyErr {
    PyMemoryError::new_err(format!("out of memory: {what} do not fit in memory"))
}

/// `count * each`, or `MemoryError` naming `what` when it overflows.
pub fn product(count: usize, each: usize, what: impl FnOnce() -> String) -> PyResult<usize> {
    count.checked_mul(each).ok_or_else(|| too_big(&what()))
}

/// A vector of `len` copies of `value`, or `MemoryError`.
pub fn filled<T: Clone>(len: usize, value: T, what: impl FnOnce() -> String) -> PyResult<Vec<T>> {
    let mut out = Vec::new();
    out.try_reserve_exact(len).map_err(|_| too_big(&what()))?;
    out.resize(len, value);
    Ok(out)
}

/// `MemoryError` unless `bytes` could be allocated now (they are reserved and given back): a
/// check before work whose own allocations are infallible.
pub fn probe(bytes: usize, what: impl FnOnce() -> String) -> PyResult<()> {
    let mut room: Vec<u8> = Vec::new();
    room.try_reserve_exact(bytes).map_err(|_| too_big(&what()))
}

/// Room for `more` items in `buffer`, or `MemoryError`.
pub fn reserve<T>(buffer: &mut Vec<T>, more: usize, what: impl FnOnce() -> String) -> PyResult<()> {
    buffer.try_reserve(more).map_err(|_| too_big(&what()))
}

/// A zeroed 1-D numpy array of `len` items, made by numpy itself so that a failed allocation is
/// numpy's `MemoryError` (it names the size) rather than a panic.
pub fn zeros<'py, T: Element>(py: Python<'py>, len: usize) -> PyResult<Bound<'py, PyArray1<T>>> {
    if len == 0 {
        return Ok(PyArray1::zeros(py, 0, false));
    }
    let numpy = py.import("numpy")?;
    let array = numpy.call_method1("zeros", (len, T::get_dtype(py)))?;
    Ok(array.cast_into::<PyArray1<T>>()?)
}

/// A 1-D numpy array holding `values`, or `MemoryError`.
pub fn from_vec<'py, T: Element + Copy>(
    py: Python<'py>,
    values: &[T],
) -> PyResult<Bound<'py, PyArray1<T>>> {
    let array = zeros::<T>(py, values.len())?;
    {
        let mut rw = array.readwrite();
        rw.as_slice_mut()?.copy_from_slice(values);
    }
    Ok(array)
}
