//! A Rust panic must never reach Python as pyo3's `PanicException`: that is a BaseException,
//! so a pipeline's `except Exception` would not catch it and the process would go down. The
//! core entry points run inside [`no_panic`], which turns a panic (always a bug in sudoku_rs)
//! into a `RuntimeError` that names it. The release profile keeps `panic = "unwind"` for this.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::exceptions::PyRuntimeError;
use pyo3::PyErr;

/// Runs `work`, turning a panic into `RuntimeError("internal error in sudoku_rs ...")`.
/// State `work` touched is safe to reuse after a panic: every search reloads the solver.
pub fn no_panic<T>(work: impl FnOnce() -> T) -> Result<T, PyErr> {
    catch_unwind(AssertUnwindSafe(work)).map_err(|payload| {
        PyRuntimeError::new_err(format!(
            "internal error in sudoku_rs (a bug; please report it with the input): {}",
            panic_message(payload.as_ref())
        ))
    })
}

fn panic_message(payload: &(dyn Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic without a message")
}
