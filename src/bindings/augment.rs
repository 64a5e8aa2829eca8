//! `augment_batch`: one seeded random transform per row, applied alike to a puzzle and its
//! solution. Row i's transform depends only on (seed, i), so the result does not depend on the
//! thread count. Unlike solving, a bad row raises: silently zeroing training pairs would hide it.
//! Rows are read by the batch reader and run by the chunk runner, like every batch function.

use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::core::make::transform::Transform;
use crate::core::{Control, Error};

use super::args::{BoxArg, Seed, Threads};
use super::batch::{open, run_to_grids, Batch};

/// Every row of `batch` through its row's transform, in the kind of the batch.
fn transformed<'py>(
    py: Python<'py>,
    batch: &Batch<'py>,
    seed: u64,
    threads: Option<Threads>,
    progress: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let shape = batch.shape;
    let work = |&mut (): &mut (), row: usize, cells: &[u8], out: &mut [u8], _: &mut dyn Control| {
        Transform::for_item(shape, seed, row as u64).apply_cells(cells, out);
    };
    let nc = shape.cell_count();
    run_to_grids(py, batch, threads, progress, nc, work, |_| true, |_, _| {})
}

/// Data augmentation: one random validity-preserving transform per row, the same for
/// ``puzzles[i]`` and ``solutions[i]``, so each pair stays a puzzle and its solution.
///
/// Takes what :func:`solve_batch` takes: numpy integer arrays of shape (N, n, n) or (N, n*n),
/// any dtype (the result has the same shape and dtype), or lists of puzzle strings (the result
/// is a list of strings). Returns the transformed puzzles, or a tuple ``(puzzles, solutions)``
/// when solutions are given; the two may be of different kinds and layouts, as long as they
/// pair up one to one. Blanks stay blank. Row i's transform is
/// ``Transform.random(n, box=box, seed=seed, index=i)``: it depends only on (seed, i), so
/// results are the same for any ``threads`` and on every machine; ``seed=None`` draws a fresh
/// seed. A malformed row raises :class:`InvalidPuzzleError` naming it (``puzzles[2]: ...``).
/// ``progress=True`` shows a tqdm bar. The GIL is released.
#[pyfunction]
#[pyo3(
    signature = (puzzles, solutions = None, /, *, seed = None, r#box = None, threads = None,
        progress = None),
    text_signature = "(puzzles, solutions=None, /, *, seed=None, box=None, threads=None, \
        progress=False)"
)]
pub fn augment_batch<'py>(
    puzzles: &Bound<'py, PyAny>,
    solutions: Option<&Bound<'py, PyAny>>,
    seed: Option<Seed>,
    r#box: Option<BoxArg>,
    threads: Option<Threads>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    super::guard::entry(|| {
        super::entry::batch(puzzles, progress, "augmenting", |puzzles, update| {
            augment(puzzles, solutions, seed, r#box, threads, update)
        })
    })
}

fn augment<'py>(
    puzzles: &Bound<'py, PyAny>,
    solutions: Option<&Bound<'py, PyAny>>,
    seed: Option<Seed>,
    r#box: Option<BoxArg>,
    threads: Option<Threads>,
    progress: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = puzzles.py();
    let seed = seed.unwrap_or_else(Seed::fresh).0;
    let first = open(puzzles, &super::request::Request::classic(r#box)?)?.strict("puzzles");
    let shape = first.shape;
    let second = match solutions.filter(|obj| !obj.is_none()) {
        None => None,
        Some(obj) => {
            let obj = &super::entry::as_batch(obj)?;
            // Either layout, (N, n, n) or (N, n*n), as long as the grids pair up one to one.
            let n = shape.size();
            let mismatch = |theirs: String| -> PyResult<PyErr> {
                Ok(Error::Shape(format!(
                    "solutions must hold one {n}x{n} grid per puzzle: puzzles has shape {}, \
                     solutions {theirs}",
                    first.describe()?
                ))
                .into())
            };
            let batch = match open(obj, &super::request::Request::of_shape(shape)) {
                Ok(batch) => batch.strict("solutions"),
                Err(err) if err.is_instance_of::<super::errors::InvalidPuzzleError>(py) => {
                    return Err(mismatch(err.value(py).to_string())?)
                }
                Err(err) => return Err(err),
            };
            if batch.count != first.count {
                return Err(mismatch(batch.describe()?)?);
            }
            Some(batch)
        }
    };
    let out = transformed(py, &first, seed, threads, progress)?;
    match second {
        None => Ok(out),
        Some(batch) => {
            let paired = transformed(py, &batch, seed, threads, None)?;
            Ok(PyTuple::new(py, [out, paired])?.into_any())
        }
    }
}
