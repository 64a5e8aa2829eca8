//! The dataset line format to and from numpy, for the file helpers and the CLI.

use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::core::lines;

/// Parses whole lines of puzzles. Returns `(puzzles, line_numbers, bad)`: an (N, n*n) uint8
/// array (bad rows all zeros), the 1-based line number of each row, and `(row, message)` for
/// each malformed line.
#[pyfunction]
#[pyo3(signature = (data, /, *, column = 0, first_line = 1, size = 0, r#box = None))]
#[allow(clippy::type_complexity)]
pub fn _parse_lines<'py>(
    data: &Bound<'py, PyBytes>,
    column: usize,
    first_line: usize,
    size: usize,
    r#box: Option<(i64, i64)>,
) -> PyResult<(Bound<'py, PyAny>, Vec<usize>, Vec<(usize, String)>)> {
    let py = data.py();
    let requested_box = super::box_arg(r#box)?;
    let bytes = data.as_bytes();
    let parsed = py.detach(|| lines::parse(bytes, column, first_line, size, requested_box));
    let width = parsed.size * parsed.size;
    let rows = parsed.count();
    let array =
        PyArray1::from_vec(py, parsed.cells).reshape([rows, if rows == 0 { 81 } else { width }])?;
    Ok((array.into_any(), parsed.line_numbers, parsed.bad))
}

/// Formats `cells` (n*n bytes per puzzle, values 0..=n) as lines; an all-zero puzzle is an
/// empty line.
#[pyfunction]
#[pyo3(signature = (cells, /, *, size, blank = '.'))]
pub fn _format_lines<'py>(
    cells: &Bound<'py, PyBytes>,
    size: usize,
    blank: char,
) -> PyResult<Bound<'py, PyBytes>> {
    let py = cells.py();
    if !blank.is_ascii() || blank.is_ascii_alphanumeric() && blank != '0' {
        return Err(PyValueError::new_err(format!(
            "blank must be '.' or '0' or another ASCII symbol, got {blank:?}"
        )));
    }
    let bytes = cells.as_bytes();
    if size == 0 || bytes.len() % (size * size) != 0 || bytes.iter().any(|&v| v as usize > size) {
        return Err(PyValueError::new_err(format!(
            "cells must be whole {size}x{size} puzzles of values 0..{size}"
        )));
    }
    let text = py.detach(|| lines::format(bytes, size, blank as u8));
    Ok(PyBytes::new(py, &text))
}
