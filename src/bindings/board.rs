//! Reading a grid for `sudoku_rs.Board`, which must hold grids with conflicting clues (that is
//! how a user sees the conflict) and so cannot go through the solving entry points, which
//! reject them.

use numpy::PyArrayMethods;
use pyo3::prelude::*;

use super::alloc;

/// Reads any grid kind exactly as `solve` does (same shape, value and type errors) but without
/// the conflict check. Returns the cells as an (n, n) uint8 array, 0 = blank, and the box shape.
/// Under `rules` the grid is read as the solving calls read it (jigsaw regions choose the box)
/// and the rules must fit it.
#[pyfunction]
#[pyo3(signature = (grid, /, *, r#box = None, rules = None))]
#[allow(clippy::type_complexity)]
pub fn _read_grid<'py>(
    grid: &Bound<'py, PyAny>,
    r#box: Option<super::args::BoxArg>,
    rules: Option<super::rules::RulesArg>,
) -> PyResult<(Bound<'py, PyAny>, (usize, usize))> {
    let py = grid.py();
    let rules = super::rules::RulesArg::core(rules);
    let input = super::rules::read(grid, r#box, rules.as_deref())?;
    let shape = input.grid.shape();
    let n = shape.size();
    let array = alloc::from_slice(py, input.grid.cells())?.reshape([n, n])?;
    Ok((array.into_any(), (shape.rows(), shape.cols())))
}
