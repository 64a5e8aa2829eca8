//! Reading a grid for `sudoku_rs.Board`, which must hold grids with conflicting clues (that is
//! how a user sees the conflict) and so cannot go through the solving entry points, which
//! reject them.

use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;

/// Reads any grid kind exactly as `solve` does (same shape, value and type errors) but without
/// the conflict check. Returns the cells as an (n, n) uint8 array, 0 = blank, and the box shape.
#[pyfunction]
#[pyo3(signature = (grid, /, *, r#box = None))]
#[allow(clippy::type_complexity)]
pub fn _read_grid<'py>(
    grid: &Bound<'py, PyAny>,
    r#box: Option<super::args::BoxArg>,
) -> PyResult<(Bound<'py, PyAny>, (usize, usize))> {
    let py = grid.py();
    let input = super::read(grid, r#box)?;
    let shape = input.grid.shape();
    let n = shape.size();
    let array = PyArray1::from_vec(py, input.grid.into_cells()).reshape([n, n])?;
    Ok((array.into_any(), (shape.rows(), shape.cols())))
}
