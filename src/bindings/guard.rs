//! A Rust panic must never reach Python as pyo3's `PanicException`: that is a BaseException,
//! so a pipeline's `except Exception` would not catch it and the process would go down. Every
//! entry point runs inside [`no_panic`] (whole, with the GIL held) and the work it detaches runs
//! inside it again. A panic is always a bug in sudoku_rs and becomes a `RuntimeError` that names
//! it, except two: pyo3 panics with "PyObject pointer is null" when Python could not make an
//! object, and rust-numpy's `PyArray1::from_vec` (which `read_puzzles` uses, so that its cells
//! are not copied) panics with "Failed to create slice container"
//! when it could not make the small object that owns the vector. Both mean memory ran out: a
//! `MemoryError`. (A Rust allocation failure aborts instead of panicking; user-sized buffers
//! use the fallible allocations of `alloc.rs`.) The release profile keeps `panic = "unwind"`
//! for this.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::exceptions::{PyMemoryError, PyRuntimeError};
use pyo3::PyErr;

/// pyo3's message when a C API call returned NULL where an object was expected.
const NULL_OBJECT: &str = "PyObject pointer is null";

/// How rust-numpy's message begins when it could not make the object that owns a vector it
/// wraps as an array.
const NO_CONTAINER: &str = "Failed to create slice container";

/// Runs `work`, turning a panic into `RuntimeError("internal error in sudoku_rs ...")`, or into
/// `MemoryError` when Python could not allocate an object.
/// State `work` touched is safe to reuse after a panic: every search reloads the solver.
#[inline]
pub fn no_panic<T>(work: impl FnOnce() -> T) -> Result<T, PyErr> {
    catch_unwind(AssertUnwindSafe(work)).map_err(|payload| {
        let message = panic_message(payload.as_ref());
        if message == NULL_OBJECT || message.starts_with(NO_CONTAINER) {
            return PyMemoryError::new_err("out of memory while making the result");
        }
        PyRuntimeError::new_err(format!(
            "internal error in sudoku_rs (a bug; please report it with the input): {message}"
        ))
    })
}

/// An entry point's body under [`no_panic`].
#[inline]
pub fn entry<T>(work: impl FnOnce() -> Result<T, PyErr>) -> Result<T, PyErr> {
    no_panic(work)?
}

fn panic_message(payload: &(dyn Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic without a message")
}
