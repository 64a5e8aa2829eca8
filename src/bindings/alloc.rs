//! Memory sized by a user's numbers (a batch's row count, a limit, a file's length), allocated
//! so that running out is a `MemoryError`, never an abort: Rust aborts the process when an
//! infallible allocation fails, and pyo3 panics when a numpy constructor returns NULL. Sizes are
//! computed with checked arithmetic, so a count near 2**64 cannot wrap into a small buffer.

use numpy::ndarray::Dimension;
use numpy::npyffi::{npy_intp, PY_ARRAY_API};
use numpy::{Element, PyArray, PyArray1, PyArrayDescrMethods, PyArrayDyn, PyArrayMethods};
use pyo3::exceptions::PyMemoryError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};

use super::dtype::CellElement;

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
    room.try_reserve_exact(bytes)
        .map_err(|_| too_big(&what()))?;
    // An allocation freed unused may be removed by the optimiser (it is, under LTO), and with
    // it the check: the buffer is handed to an opaque use first.
    std::hint::black_box(&mut room);
    Ok(())
}

/// Room for `more` items in `buffer`, or `MemoryError`.
pub fn reserve<T>(buffer: &mut Vec<T>, more: usize, what: impl FnOnce() -> String) -> PyResult<()> {
    buffer.try_reserve(more).map_err(|_| too_big(&what()))
}

/// Items up to which arrays are made by numpy's C call directly.
const SMALL: usize = 1 << 20;

/// A zeroed C-ordered array of shape `dims` (one to three dimensions, at most [`SMALL`] items) from numpy's C call, as
/// `numpy.zeros` makes it, without importing and calling numpy from Python (about a
/// microsecond, a one-row batch's whole search). NULL is numpy's `MemoryError`.
fn small_zeros<'py, T: Element, D: Dimension>(
    py: Python<'py>,
    dims: &[usize],
) -> PyResult<Bound<'py, PyArray<T, D>>> {
    debug_assert!(dims.len() <= 3 && dims.iter().product::<usize>() <= SMALL);
    let mut shape: [npy_intp; 3] = [0; 3];
    for (slot, &d) in shape.iter_mut().zip(dims) {
        *slot = d as npy_intp;
    }
    // SAFETY: a shape of `dims.len()` dimensions and a new reference to the dtype, which the
    // call steals; the result is a new reference to a C-ordered array of that dtype and as
    // many dimensions as `D` has (checked by the callers' types), or NULL with an error set.
    unsafe {
        let ptr = PY_ARRAY_API.PyArray_Zeros(
            py,
            dims.len().min(3) as std::os::raw::c_int,
            shape.as_mut_ptr(),
            T::get_dtype(py).into_dtype_ptr(),
            0,
        );
        Ok(Bound::from_owned_ptr_or_err(py, ptr)?.cast_into_unchecked())
    }
}

/// A zeroed 1-D numpy array of `len` items, made by numpy itself so that a failed allocation is
/// numpy's `MemoryError` (it names the size) rather than a panic.
pub fn zeros<T: Element>(py: Python<'_>, len: usize) -> PyResult<Bound<'_, PyArray1<T>>> {
    if len == 0 {
        return Ok(PyArray1::zeros(py, 0, false));
    }
    if len <= SMALL {
        return small_zeros(py, &[len]);
    }
    let numpy = py.import("numpy")?;
    let array = numpy.call_method1("zeros", (len, T::get_dtype(py)))?;
    Ok(array.cast_into::<PyArray1<T>>()?)
}

/// A zeroed array of shape `dims` holding `len` (their product, checked by the caller) items,
/// made as [`zeros`] makes it.
pub fn zeros_shaped<'py, T: Element>(
    py: Python<'py>,
    len: usize,
    dims: &[usize],
) -> PyResult<Bound<'py, PyArrayDyn<T>>> {
    if len > 0 && len <= SMALL && dims.len() <= 3 {
        return small_zeros(py, dims);
    }
    zeros::<T>(py, len)?.reshape(dims.to_vec())
}

/// A new grid array of shape `dims` (an `n` x `n` grid, or a batch of one) holding `cells`
/// (row-major) as `T`; all zeros for `None`.
pub fn cells_array<'py, T: CellElement, D: Dimension>(
    py: Python<'py>,
    dims: &[usize],
    cells: Option<&[u8]>,
) -> PyResult<Bound<'py, PyArray<T, D>>> {
    let array = small_zeros::<T, D>(py, dims)?;
    if let Some(cells) = cells {
        // SAFETY: the array was made just above and no other reference to it exists yet, so
        // nothing else can read or write its data while it is filled.
        let slots = unsafe { array.as_slice_mut() }.expect("a new array is contiguous");
        for (slot, &v) in slots.iter_mut().zip(cells) {
            *slot = T::from_value(v);
        }
    }
    Ok(array)
}

/// A new 1-D numpy array holding a copy of `values`, or `MemoryError` (rust-numpy's own
/// `from_slice` panics where numpy fails).
pub fn from_slice<'py, T: Element + Copy>(
    py: Python<'py>,
    values: &[T],
) -> PyResult<Bound<'py, PyArray1<T>>> {
    let array = zeros::<T>(py, values.len())?;
    // SAFETY: the array was made just above and no other reference to it exists yet, so
    // nothing else can read or write its data while it is filled (no borrow tracking needed).
    unsafe { array.as_slice_mut() }
        .expect("a new array is contiguous")
        .copy_from_slice(values);
    Ok(array)
}

/// A new `str` holding `text`, or the `MemoryError` Python raised (pyo3's `PyString::new`
/// panics when Python cannot make the object).
#[inline]
pub fn string<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyString>> {
    let len = ffi::Py_ssize_t::try_from(text.len()).map_err(|_| too_big("the text"))?;
    // SAFETY: `text` is valid UTF-8 of `len` bytes; the call returns a new reference or NULL
    // with an exception set.
    unsafe {
        let ptr = ffi::PyUnicode_FromStringAndSize(text.as_ptr().cast(), len);
        Ok(Bound::from_owned_ptr_or_err(py, ptr)?.cast_into_unchecked())
    }
}

/// A new list of `items`, or the `MemoryError` Python raised (pyo3's `PyList::new` panics when
/// Python cannot make the list).
pub fn list<'py>(
    py: Python<'py>,
    items: impl IntoIterator<Item = PyResult<Bound<'py, PyAny>>>,
) -> PyResult<Bound<'py, PyList>> {
    // SAFETY: PyList_New returns a new reference to an empty list or NULL with an exception set.
    let list: Bound<'py, PyList> =
        unsafe { Bound::from_owned_ptr_or_err(py, ffi::PyList_New(0))?.cast_into_unchecked() };
    for item in items {
        list.append(item?)?;
    }
    Ok(list)
}
