//! The dataset line format to and from numpy, for the file helpers and the CLI.

use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::core::grid::{lines, text};
use crate::core::Error;

use super::alloc;
use super::args::BoxArg;

/// Parses whole lines of puzzles. Returns `(puzzles, line_numbers, bad, size, marked)`: an
/// (N, n*n) uint8 array (bad rows all zeros), the 1-based line number of each row,
/// `(row, message)` for each malformed line, the grid side (0 while no good puzzle has been
/// seen; the array is then sized by `box`, or as 9x9), and with `marks` (classic rules only)
/// `(row, text)` for each line of pencil marks (a sukaku, its row blank: the batch solvers
/// read the text). Under jigsaw `rules` the grids are read as for solving (see
/// `Rules::box_for`): the regions replace the boxes.
#[pyfunction]
#[pyo3(signature = (data, /, *, column = 0, first_line = 1, size = 0, r#box = None, rules = None, marks = false))]
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
pub fn _parse_lines<'py>(
    data: &Bound<'py, PyBytes>,
    column: i64,
    first_line: usize,
    size: usize,
    r#box: Option<BoxArg>,
    rules: Option<super::rules::RulesArg>,
    marks: bool,
) -> PyResult<(
    Bound<'py, PyAny>,
    Vec<usize>,
    Vec<(usize, String)>,
    usize,
    Vec<(usize, String)>,
)> {
    super::guard::entry(|| {
        let py = data.py();
        let column = usize::try_from(column).map_err(|_| {
            PyValueError::new_err(format!("column must be 0 or more, got {column}"))
        })?;
        let request = super::request::Request::new(r#box, rules)?;
        let requested_box = request.boxed();
        // Variant rules are searched without marks (as a batch's sukaku rows are refused).
        let marks = marks && request.rules().is_none();
        let bytes = data.as_bytes();
        // The parse grows buffers about as large as the text (cells, one line number per puzzle)
        // with infallible allocations: check first that twice the text fits, so a huge file is a
        // MemoryError here rather than an abort halfway.
        let what = || format!("puzzles parsed from {} bytes", bytes.len());
        alloc::probe(alloc::product(bytes.len(), 2, what)?, what)?;
        let mut parsed = py.detach(|| {
            super::guard::no_panic(|| {
                if marks {
                    lines::parse_marked(bytes, column, first_line, size, requested_box)
                } else {
                    lines::parse(bytes, column, first_line, size, requested_box)
                }
            })
        })?;
        let rows = parsed.count();
        let side = match (parsed.size, requested_box) {
            (0, Some((r, c))) => r * c,
            (0, None) => 9,
            (n, _) => n,
        };
        parsed.cells.resize(rows * side * side, 0);
        let array = PyArray1::from_vec(py, parsed.cells).reshape([rows, side * side])?;
        Ok((
            array.into_any(),
            parsed.line_numbers,
            parsed.bad,
            parsed.size,
            parsed.marked,
        ))
    })
}

/// Formats `cells` (n*n bytes per puzzle, values 0..=n) as lines, a blank puzzle as n*n
/// blanks; `gaps` (one byte per puzzle, nonzero: write an empty line instead) marks the rows
/// the CLI leaves empty.
#[pyfunction]
#[pyo3(signature = (cells, /, *, size, blank = '.', gaps = None))]
pub fn _format_lines<'py>(
    cells: &Bound<'py, PyBytes>,
    size: usize,
    blank: char,
    gaps: Option<&Bound<'py, PyBytes>>,
) -> PyResult<Bound<'py, PyBytes>> {
    super::guard::entry(|| {
        let py = cells.py();
        if blank != '.' && blank != '0' {
            return Err(PyValueError::new_err(format!(
                "blank must be '.' or '0', got {blank:?}"
            )));
        }
        if size > text::MAX_TEXT_VALUE as usize {
            return Err(Error::Shape(format!(
                "a {size}x{size} grid cannot be written as text: cell characters end at 'Z' = {}",
                text::MAX_TEXT_VALUE
            ))
            .into());
        }
        let bytes = cells.as_bytes();
        if size == 0 || bytes.len() % (size * size) != 0 || bytes.iter().any(|&v| v as usize > size)
        {
            return Err(PyValueError::new_err(format!(
                "cells must be whole {size}x{size} puzzles of values 0..{size}"
            )));
        }
        let gaps: Vec<bool> =
            gaps.map_or_else(Vec::new, |g| g.as_bytes().iter().map(|&b| b != 0).collect());
        if !gaps.is_empty() && gaps.len() * size * size != bytes.len() {
            return Err(PyValueError::new_err("gaps must hold one flag per puzzle"));
        }
        // Written straight into the bytes object, allocated fallibly: the text is about as
        // large as the cells.
        let len = lines::formatted_len(bytes, size, &gaps);
        PyBytes::new_with(py, len, |out| {
            py.detach(|| lines::format_into(bytes, size, blank as u8, &gaps, out));
            Ok(())
        })
    })
}
