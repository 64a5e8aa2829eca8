//! Generating puzzles: one as a string, or a seeded batch straight into a numpy array on every
//! core. Seeds arrive already drawn (the Python wrapper draws one from the OS for `seed=None`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::core::batch::for_each;
use crate::core::grid::text::to_line;
use crate::core::make::generate::{self, Options, Symmetry};
use crate::core::make::random::stream_seed;
use crate::core::{BoxShape, Error, Solver};

use super::batch::{Progress, CHUNK_CELLS};
use super::run::SignalCheck;

/// The shape and options from the call's arguments, checked before any work starts.
fn options(
    clues: Option<i64>,
    size: i64,
    requested_box: Option<(i64, i64)>,
    symmetry: Option<&str>,
    minimal: bool,
) -> PyResult<(BoxShape, Options)> {
    let side = usize::try_from(size).map_err(|_| {
        Error::Generate(format!(
            "size={size} is not a grid side: expected 4, 6, 9, 16, ..."
        ))
    })?;
    let shape = BoxShape::for_size(side, super::box_arg(requested_box)?)?;
    let clues = clues
        .map(|c| {
            usize::try_from(c).map_err(|_| {
                Error::Generate(format!(
                    "clues={c} is impossible: a clue count is at least 0"
                ))
            })
        })
        .transpose()?;
    let options = Options {
        clues,
        symmetry: Symmetry::parse(symmetry.unwrap_or("none"))?,
        minimal,
    };
    generate::check_options(shape, &options)?;
    Ok((shape, options))
}

/// One puzzle with one solution as a line of n*n characters; see `sudoku_rs.generate`.
#[pyfunction]
#[pyo3(signature = (*, seed = None, clues = None, size = 9, r#box = None, symmetry = None, minimal = false))]
pub fn _generate(
    py: Python<'_>,
    seed: Option<&Bound<'_, PyAny>>,
    clues: Option<i64>,
    size: i64,
    r#box: Option<(i64, i64)>,
    symmetry: Option<&str>,
    minimal: bool,
) -> PyResult<String> {
    let seed = super::seed_arg(seed)?;
    let (shape, options) = options(clues, size, r#box, symmetry, minimal)?;
    let mut control = SignalCheck::default();
    // Puzzle 0 of the batch with this seed, so generate(seed=s) == generate_batch(k, seed=s)[0].
    let made = py.detach(|| {
        let mut solver = Solver::new(shape);
        generate::generate(
            shape,
            &options,
            stream_seed(seed, 0),
            &mut solver,
            &mut control,
        )
    });
    control.finish(made).map(|cells| to_line(&cells))
}

/// `count` puzzles as a (count, n, n) uint8 array; puzzle i depends only on (seed, i).
/// See `sudoku_rs.generate_batch`.
#[pyfunction]
#[pyo3(signature = (count, /, *, seed = None, clues = None, size = 9, r#box = None, symmetry = None,
    minimal = false, threads = None, progress = None))]
#[allow(clippy::too_many_arguments)]
pub fn _generate_batch<'py>(
    py: Python<'py>,
    count: i64,
    seed: Option<&Bound<'py, PyAny>>,
    clues: Option<i64>,
    size: i64,
    r#box: Option<(i64, i64)>,
    symmetry: Option<&str>,
    minimal: bool,
    threads: Option<super::count::CountArg>,
    progress: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let count = usize::try_from(count)
        .map_err(|_| PyValueError::new_err(format!("count must be 0 or more, got {count}")))?;
    let seed = super::seed_arg(seed)?;
    let (shape, options) = options(clues, size, r#box, symmetry, minimal)?;
    let threads = super::thread_arg(threads)?;
    let (n, nc) = (shape.size(), shape.cell_count());
    let out = PyArray1::<u8>::zeros(py, count * nc, false);
    let mut progress = Progress::new(progress);
    {
        let mut out_rw = out.readwrite();
        let flat = out_rw.as_slice_mut()?;
        let chunk = (CHUNK_CELLS / nc).max(1);
        // for_each hands out puzzles to fill; generation has no input, so each chunk's puzzles
        // are blank grids, and the index says which seed to use.
        let blank = vec![0u8; chunk.min(count) * nc];
        let mut start = 0;
        while start < count {
            let end = (start + chunk).min(count);
            let cells = &mut flat[start * nc..end * nc];
            // One failure fails the batch (the options are out of reach), so the other puzzles
            // are skipped from then on rather than ground through for minutes. The error names
            // the lowest failing index seen: on one thread the first failing puzzle.
            let failed: Mutex<Option<(usize, Error)>> = Mutex::new(None);
            let give_up = AtomicBool::new(false);
            progress.run_chunk(py, |poll| {
                Ok(for_each(
                    shape,
                    &blank[..(end - start) * nc],
                    cells,
                    nc,
                    threads,
                    poll,
                    |solver: &mut Solver, i, _, out: &mut [u8], control| {
                        if give_up.load(Ordering::Relaxed) {
                            return;
                        }
                        let index = start + i;
                        let seed = stream_seed(seed, index as u64);
                        match generate::generate(shape, &options, seed, solver, control) {
                            Ok(puzzle) => out.copy_from_slice(&puzzle),
                            Err(Error::Interrupted) => {}
                            Err(err) => {
                                give_up.store(true, Ordering::Relaxed);
                                let mut first = failed.lock().expect("no panic while held");
                                if first.as_ref().map_or(true, |(j, _)| index < *j) {
                                    *first = Some((index, err));
                                }
                            }
                        }
                    },
                ))
            })?;
            if let Some((index, err)) = failed.into_inner().expect("no panic while held") {
                return Err(Error::Generate(format!("puzzle {index}: {err}")).into());
            }
            progress.finish_chunk(py, end - start)?;
            start = end;
        }
    }
    Ok(out.reshape([count, n, n])?.into_any())
}
