//! `canonical` and `canonical_batch`: the canonical form of one grid or of a batch, with the GIL
//! released. A batch runs through the batch machinery of `batch.rs` (chunks, every core, Ctrl-C,
//! progress), so a malformed or conflicting row comes back as zeros (None in a list of strings).

use numpy::{PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::core::make::canonical::{
    canonical_cells, check_supported, class_key, Refused, Unsupported,
};
use crate::core::make::transform::Transform;
use crate::core::{Control, Grid};

use super::args::{BoxArg, Threads};
use super::batch::{open, run_to_grids};

fn unsupported(err: Unsupported) -> PyErr {
    PyValueError::new_err(err.0)
}

/// The canonical form of `grid` and the transform reaching it, searched with the GIL released;
/// conflicting clues raise InvalidPuzzleError.
pub(crate) fn detached(py: Python<'_>, grid: &Grid) -> PyResult<(Grid, Transform)> {
    check_supported(grid.shape()).map_err(unsupported)?;
    py.detach(|| super::guard::no_panic(|| crate::core::make::canonical::canonical(grid)))?
        .map_err(|err| match err {
            Refused::Unsupported(err) => unsupported(err),
            Refused::Invalid(err) => err.into(),
        })
}

/// The canonical form of `grid`, in the kind of `grid`: the lexicographically smallest grid
/// (cells row-major, blank smallest) among all grids equivalent to it under digit relabelling,
/// row swaps within a band, band swaps, column swaps within a stack, stack swaps and (square
/// boxes only) the transpose. Equivalent grids, and only those, have equal canonical forms.
/// Conflicting clues raise InvalidPuzzleError, as the solver does.
/// Sizes 4x4, 6x6, 8x8 and 9x9; larger grids raise ValueError (their symmetry groups are too
/// large to search). `Transform.to_canonical(grid)` gives a transform that maps `grid` onto it.
#[pyfunction]
#[pyo3(signature = (grid, /, *, r#box = None))]
pub fn canonical<'py>(
    grid: &Bound<'py, PyAny>,
    r#box: Option<BoxArg>,
) -> PyResult<Bound<'py, PyAny>> {
    super::guard::entry(|| {
        let input = super::request::Request::classic(r#box)?.read(grid)?;
        let (form, _) = detached(grid.py(), &input.grid)?;
        input.kind.write(grid.py(), form.cells())
    })
}

/// The canonical form of every grid of a batch, on every core.
///
/// Row i of the result is ``canonical(puzzles[i])``: the lexicographically smallest grid
/// equivalent to it under digit relabelling, row and column swaps within bands and stacks, band
/// and stack swaps and (square boxes) the transpose. Two rows are equivalent exactly when their
/// canonical forms are equal, so this deduplicates a dataset::
///
///     flat = sr.canonical_batch(puzzles).reshape(len(puzzles), -1)
///     forms, first = np.unique(flat, axis=0, return_index=True)
///     distinct = puzzles[np.sort(first)]      # one puzzle per equivalence class
///
/// Takes what :func:`solve_batch` takes: a numpy integer array of shape (N, n, n) or (N, n*n)
/// (the result has the same shape and dtype) or a list of puzzle strings (the result is a list
/// of strings). A malformed row comes back as all zeros (``None`` in a list). Sizes 4x4, 6x6,
/// 8x8 and 9x9; larger grids raise ValueError. ``threads=None`` uses every core; the result
/// does not depend on it. ``progress=True`` shows a tqdm bar. The GIL is released.
#[pyfunction]
#[pyo3(
    signature = (puzzles, /, *, r#box = None, threads = None, progress = None),
    text_signature = "(puzzles, /, *, box=None, threads=None, progress=False)"
)]
pub fn canonical_batch<'py>(
    puzzles: &Bound<'py, PyAny>,
    r#box: Option<BoxArg>,
    threads: Option<Threads>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    super::guard::entry(|| {
        super::entry::batch(puzzles, progress, "canonical", |puzzles, update| {
            canonical_rows(puzzles, r#box, threads, update)
        })
    })
}

fn canonical_rows<'py>(
    puzzles: &Bound<'py, PyAny>,
    r#box: Option<BoxArg>,
    threads: Option<Threads>,
    progress: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = puzzles.py();
    let batch = open(puzzles, &super::request::Request::classic(r#box)?)?;
    check_supported(batch.shape).map_err(unsupported)?;
    let shape = batch.shape;
    let nc = shape.cell_count();
    // Per row: the form's cells, then 1 if it has one (0: conflicting clues, a row of zeros).
    let work = |&mut (): &mut (), _: usize, cells: &[u8], out: &mut [u8], _: &mut dyn Control| {
        out[nc] = u8::from(canonical_cells(shape, cells, &mut out[..nc]));
    };
    run_to_grids(
        py,
        &batch,
        threads,
        progress,
        nc + 1,
        work,
        |row| row[nc] == 1,
        |_, _| {},
    )
}

/// `class_key` of every row of `cells` (an (N, n*n) uint8 array of well-formed grids with
/// `box` boxes), with the GIL released: an (N, 2) uint64 array, equal rows for equivalent
/// grids (`export_hrm`'s split groups by it before any canonical form).
#[pyfunction]
#[pyo3(signature = (cells, /, r#box))]
// pyo3 hands the array over as an owned read-only borrow guard.
#[allow(clippy::needless_pass_by_value)]
pub fn _class_keys(
    cells: numpy::PyReadonlyArray2<'_, u8>,
    r#box: (usize, usize),
) -> PyResult<Bound<'_, numpy::PyArray2<u64>>> {
    super::guard::entry(|| {
        let py = cells.py();
        let shape = crate::core::BoxShape::new(r#box.0, r#box.1).map_err(PyErr::from)?;
        let n = shape.size();
        let values = cells.as_slice()?;
        let width = cells.shape()[1];
        if width != n * n {
            return Err(PyValueError::new_err(format!(
                "rows of {width} cells are no {n}x{n} grids"
            )));
        }
        if let Some(&bad) = values.iter().find(|&&v| usize::from(v) > n) {
            return Err(PyValueError::new_err(format!(
                "{bad} is not a value of a {n}x{n} grid"
            )));
        }
        let keys: Vec<u64> = py.detach(|| {
            super::guard::no_panic(|| {
                values
                    .chunks_exact(n * n)
                    .flat_map(|grid| class_key(shape, grid))
                    .collect()
            })
        })?;
        let count = keys.len() / 2;
        numpy::PyArray1::from_vec(py, keys).reshape([count, 2])
    })
}
