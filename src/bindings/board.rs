//! What `sudoku_rs.Board` asks of the core beyond the public functions: reading a grid that may
//! hold conflicting clues (that is how a user sees the conflict, so it cannot go through the
//! solving entry points, which reject them), which clues conflict, and the pencil marks after a
//! logical step (to draw a walkthrough step by step).

use numpy::PyArrayMethods;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::core::logic::{apply_changes, Candidates};
use crate::core::rules::{conflicting_cells, Layout};
use crate::core::{Grid, Rules};

use super::alloc;
use super::args::BoxArg;
use super::logic::{bools_array, marks_arg};
use super::request::Request;
use super::rules::RulesArg;

/// Reads any grid kind exactly as `solve` does (same shape, value and type errors) but without
/// the conflict check. Returns the cells as an (n, n) uint8 array, 0 = blank, and the box shape.
/// Under `rules` the grid is read as the solving calls read it (jigsaw regions choose the box)
/// and the rules must fit it.
#[pyfunction]
#[pyo3(signature = (grid, /, *, r#box = None, rules = None))]
#[allow(clippy::type_complexity)]
pub fn _read_grid<'py>(
    grid: &Bound<'py, PyAny>,
    r#box: Option<BoxArg>,
    rules: Option<RulesArg>,
) -> PyResult<(Bound<'py, PyAny>, (usize, usize))> {
    super::guard::entry(|| {
        let py = grid.py();
        let request = Request::new(r#box, rules)?;
        let input = request.read(grid)?;
        let shape = input.grid.shape();
        let n = shape.size();
        let array = alloc::from_slice(py, input.grid.cells())?.reshape([n, n])?;
        Ok((array.into_any(), (shape.rows(), shape.cols())))
    })
}

/// The clues of `grid` (read as [`_read_grid`] reads it) that break a rule with another clue:
/// an (n, n) bool array. See `core::rules::conflicting_cells` for what counts.
#[pyfunction]
#[pyo3(signature = (grid, /, *, r#box = None, rules = None))]
pub fn _conflicts<'py>(
    grid: &Bound<'py, PyAny>,
    r#box: Option<BoxArg>,
    rules: Option<RulesArg>,
) -> PyResult<Bound<'py, PyAny>> {
    super::guard::entry(|| {
        let py = grid.py();
        let request = Request::new(r#box, rules)?;
        let input = request.read(grid)?;
        let rules = request.into_rules();
        let shape = input.grid.shape();
        let classic = Rules::default();
        let layout = Layout::new(shape, rules.as_deref().unwrap_or(&classic))?;
        let flags = conflicting_cells(
            &layout,
            rules.as_deref().unwrap_or(&classic),
            input.grid.cells(),
        );
        let n = shape.size();
        Ok(alloc::from_slice(py, &flags)?.reshape([n, n])?.into_any())
    })
}

/// `grid` and its pencil marks `candidates` (a bool array (n, n, n) or marks text) after the
/// eliminations, then the placements, of one step, each a list of `(row, col, digit)`, as the
/// core's explanations apply them: `(cells, candidates)`, an (n, n) uint8 array and an
/// (n, n, n) bool array. Under classic rules; the marks must fit the grid as `hint`'s
/// `candidates=` must.
#[pyfunction]
#[pyo3(signature = (grid, candidates, placements, eliminations, /, *, r#box = None))]
#[allow(clippy::type_complexity)]
// pyo3 extracts a sequence argument as an owned Vec; it cannot lend a slice.
#[allow(clippy::needless_pass_by_value)]
pub fn _apply_step<'py>(
    grid: &Bound<'py, PyAny>,
    candidates: &Bound<'py, PyAny>,
    placements: Vec<(usize, usize, u8)>,
    eliminations: Vec<(usize, usize, u8)>,
    r#box: Option<BoxArg>,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    super::guard::entry(|| {
        let py = grid.py();
        let input = Request::classic(r#box)?.read(grid)?;
        let n = input.grid.size();
        for &(r, c, d) in placements.iter().chain(&eliminations) {
            if r >= n || c >= n || d == 0 || usize::from(d) > n {
                return Err(PyValueError::new_err(format!(
                    "({r}, {c}, {d}) is not a (row, col, digit) of a {n}x{n} grid: rows and \
                     columns go from 0 to {}, digits from 1 to {n}",
                    n - 1
                )));
            }
        }
        let grid: &Grid = &input.grid;
        let mut cands = Candidates::from_marks(grid, &marks_arg(candidates, n)?)?;
        apply_changes(&mut cands, &placements, &eliminations);
        let cells = alloc::from_slice(py, cands.values())?.reshape([n, n])?;
        Ok((cells.into_any(), bools_array(py, n, &cands.to_bools())?))
    })
}
