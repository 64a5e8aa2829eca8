//! Arrays of cells for the package's encoders and exporters (`python/sudoku_rs/_datasets.py`,
//! `_arrow.py`): a batch's puzzles read exactly as every batch function reads them, and the
//! cells of a one-hot array, checked and decoded in one pass.

use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::alloc;
use super::args::BoxArg;
use super::batch::open;
use super::request::Request;

/// `(cells, n)`: the puzzles of a batch (anything `solve_batch` takes) as a new (N, n*n) uint8
/// array, 0 blank, and the grid side n. The first malformed row raises InvalidPuzzleError
/// naming it, `puzzles[i]` (or `solutions[i]` when `name` is "solutions").
#[pyfunction]
#[pyo3(signature = (puzzles, /, *, r#box = None, name = "puzzles"))]
pub fn _batch_cells<'py>(
    puzzles: &Bound<'py, PyAny>,
    r#box: Option<BoxArg>,
    name: &str,
) -> PyResult<(Bound<'py, PyAny>, usize)> {
    super::guard::entry(|| {
        let py = puzzles.py();
        let puzzles = super::entry::as_batch(puzzles)?;
        let name = if name == "solutions" {
            "solutions"
        } else {
            "puzzles"
        };
        let batch = open(&puzzles, &Request::classic(r#box)?)?.strict(name);
        let (n, count) = (batch.shape.size(), batch.count);
        let what = || format!("{count} puzzles of {n}x{n}");
        let total = alloc::product(count, n * n, what)?;
        let mut cells = Vec::new();
        alloc::reserve(&mut cells, total, what)?;
        let mut valid = Vec::new();
        batch.read(0, count, &mut cells, &mut valid)?;
        let array = PyArray1::from_vec(py, cells).reshape([count, n * n])?;
        Ok((array.into_any(), n))
    })
}

/// The cells of a one-hot array of 1-byte values (bool viewed as uint8), `onehot` holding
/// `n` values per cell, in one pass with the GIL released: `(cells, bad)`, one uint8 per cell
/// (the digit whose value is 1, 0 when none is) and -1, or, at the first cell that has a value
/// other than 0 and 1 or more than one 1, `(None, index of that cell)`.
#[pyfunction]
#[pyo3(signature = (onehot, /, n))]
// pyo3 hands the array over as an owned read-only borrow guard.
#[allow(clippy::needless_pass_by_value)]
pub fn _decode_onehot(
    onehot: PyReadonlyArray1<'_, u8>,
    n: usize,
) -> PyResult<(Option<Bound<'_, PyArray1<u8>>>, i64)> {
    super::guard::entry(|| {
        let py = onehot.py();
        let values = onehot.as_slice()?;
        if n == 0 || values.len() % n != 0 {
            return Err(PyValueError::new_err(format!(
                "{} one-hot values are no whole number of cells of {n}",
                values.len()
            )));
        }
        let cells = values.len() / n;
        let mut out = alloc::filled(cells, 0u8, || format!("{cells} cells"))?;
        let bad = py.detach(|| super::guard::no_panic(|| decode_cells(values, n, &mut out)))?;
        Ok(match bad {
            Some(cell) => (None, cell as i64),
            None => (Some(PyArray1::from_vec(py, out)), -1),
        })
    })
}

/// Writes each cell's digit to `out`; the index of the first cell with a value above 1 or
/// more than one 1, if any.
fn decode_cells(values: &[u8], n: usize, out: &mut [u8]) -> Option<usize> {
    for (k, (cell, slot)) in values.chunks_exact(n).zip(out.iter_mut()).enumerate() {
        // Branch-free over the cell: the count of ones, the weighted sum giving the digit, and
        // every bit seen (any above bit 0 is a value other than 0 and 1).
        let (mut count, mut digit, mut seen) = (0u32, 0u32, 0u8);
        for (d, &v) in cell.iter().enumerate() {
            count += u32::from(v);
            digit += u32::from(v) * (d as u32 + 1);
            seen |= v;
        }
        if seen > 1 || count > 1 {
            return Some(k);
        }
        *slot = digit as u8;
    }
    None
}
