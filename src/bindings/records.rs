//! Structured numpy arrays made natively: the records `rate_batch`, `grade_batch`,
//! `check_batch` and `score_batch` return, so those batches are compiled like every other one
//! (no Python frame assembling columns), and the text of a row without a rating or level
//! spelled from the core's `Status` labels.

use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList};

use crate::core::Status;

use super::alloc;

/// numpy's `empty`, imported once.
fn empty(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    static EMPTY: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    EMPTY.import(py, "numpy", "empty")
}

/// A structured array of `count` rows whose fields are `fields` in order, each with its
/// numpy type (`"i8"`, `"?"`, `"U11"`, ...) and a 1-D column of `count` values (or a scalar
/// every row takes).
pub fn records<'py>(
    py: Python<'py>,
    count: usize,
    fields: &[(&str, &str, Bound<'py, PyAny>)],
) -> PyResult<Bound<'py, PyAny>> {
    let dtype = PyList::new(py, fields.iter().map(|(name, kind, _)| (*name, *kind)))?;
    let kwargs = PyDict::new(py);
    kwargs.set_item("dtype", dtype)?;
    let out = empty(py)?.call((count,), Some(&kwargs))?;
    for (name, _, column) in fields {
        out.set_item(*name, column)?;
    }
    Ok(out)
}

/// The numpy type of text columns of at most `width` characters.
pub fn text_kind(width: usize) -> String {
    format!("U{}", width.max(1))
}

/// Each row's text: `names[code]` where its status is [`Status::Solved`], else its status's
/// label (how a rating's difficulty and a grade's level name a row they could not give); a
/// numpy array of `kind` strings.
pub fn labels<'py>(
    py: Python<'py>,
    names: &[&str],
    kind: &str,
    codes: &[u8],
    statuses: &[i8],
) -> PyResult<Bound<'py, PyAny>> {
    // The statuses' labels follow the names, in code order (`Status::ALL`).
    let mut table: Vec<&str> = names.to_vec();
    table.extend(Status::ALL.iter().map(|s| s.label()));
    let index = codes.iter().zip(statuses).map(|(&code, &status)| {
        match Status::from_code(i64::from(status)).unwrap_or(Status::Invalid) {
            Status::Solved => usize::from(code),
            other => names.len() + other as usize,
        }
    });
    let mut rows = alloc::filled(codes.len(), 0i64, || format!("{} labels", codes.len()))?;
    for (slot, i) in rows.iter_mut().zip(index) {
        *slot = i as i64;
    }
    take(py, &table, kind, &rows)
}

/// `table[rows[i]]` for every row, as a numpy array of `kind` strings (a negative index counts
/// from the end, as numpy's).
pub fn take<'py>(
    py: Python<'py>,
    table: &[&str],
    kind: &str,
    rows: &[i64],
) -> PyResult<Bound<'py, PyAny>> {
    static ARRAY: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let table = ARRAY
        .import(py, "numpy", "array")?
        .call1((PyList::new(py, table)?, kind))?;
    let rows: Bound<'py, PyArray1<i64>> = alloc::from_slice(py, rows)?;
    table.call_method1("take", (rows,))
}

/// An object array of `count` Nones, for columns of lists and strings.
pub fn objects(py: Python<'_>, count: usize) -> PyResult<Bound<'_, PyAny>> {
    let kwargs = PyDict::new(py);
    kwargs.set_item("dtype", "O")?;
    empty(py)?.call((count,), Some(&kwargs))
}
