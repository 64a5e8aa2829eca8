//! Checking answers (model output) against their puzzles in bulk, on every core.

use numpy::PyArray1;
use pyo3::prelude::*;

use crate::core::batch::for_each;
use crate::core::grid::check::check_answer;
use crate::core::{Error, Solver};

use super::batch::{open, Progress, CHUNK_CELLS};
use super::errors::InvalidPuzzleError;

/// Bits of a row's result.
const VALID: u8 = 1;
const KEEPS_CLUES: u8 = 2;
const UNIQUE: u8 = 4;

/// Columns (valid, keeps_clues, unique, correct) as bool arrays; `unique` and `correct` stay
/// False unless `unique=True`. See `sudoku_rs.check_batch`.
#[pyfunction]
#[pyo3(signature = (puzzles, answers, /, *, r#box = None, unique = false, threads = None,
                    progress = None))]
#[allow(clippy::type_complexity)]
pub fn _check_batch<'py>(
    puzzles: &Bound<'py, PyAny>,
    answers: &Bound<'py, PyAny>,
    r#box: Option<(i64, i64)>,
    unique: bool,
    threads: Option<super::count::CountArg>,
    progress: Option<Bound<'py, PyAny>>,
) -> PyResult<(
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<bool>>,
)> {
    let py = puzzles.py();
    let threads = super::thread_arg(threads)?;
    let puzzle_batch = open(puzzles, super::box_arg(r#box)?)?;
    let shape = puzzle_batch.shape;
    let n = shape.size();
    // Answers are read as grids of the puzzles' shape, so answers of another size are an
    // error here rather than rows that silently fail.
    let answer_batch = open(answers, Some((shape.rows(), shape.cols()))).map_err(|err| {
        if !err.is_instance_of::<InvalidPuzzleError>(py) {
            return err; // a TypeError says it all
        }
        let detail = err.value(py).to_string();
        PyErr::from(Error::Shape(format!(
            "the answers do not fit the puzzles, which are {n}x{n}: {detail}"
        )))
    })?;
    let count = puzzle_batch.count;
    if answer_batch.count != count {
        return Err(Error::Shape(format!(
            "{count} puzzles but {} answers: pass one answer per puzzle",
            answer_batch.count
        ))
        .into());
    }
    let nc = shape.cell_count();
    let mut flags = vec![0u8; count];
    let chunk = (CHUNK_CELLS / nc).max(1);
    let (mut cells, mut valid, mut answer_cells, mut answer_valid) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut progress = Progress::new(progress);
    let mut start = 0;
    while start < count {
        let end = (start + chunk).min(count);
        puzzle_batch.read(start, end, &mut cells, &mut valid)?;
        answer_batch.read(start, end, &mut answer_cells, &mut answer_valid)?;
        progress.run_chunk(py, |poll| {
            Ok(for_each(
                shape,
                &cells,
                &mut flags[start..end],
                1,
                threads,
                poll,
                |solver: &mut Solver, i, puzzle, out: &mut [u8], control| {
                    // A malformed puzzle gets no flag; a malformed answer is neither valid
                    // nor keeps clues, but the puzzle may still be unique.
                    if !valid[i] {
                        return;
                    }
                    let mut bits = 0;
                    if answer_valid[i] {
                        let answer = &answer_cells[i * nc..(i + 1) * nc];
                        let verdict = check_answer(shape, puzzle, answer);
                        bits |= u8::from(verdict.valid) * VALID;
                        bits |= u8::from(verdict.keeps_clues) * KEEPS_CLUES;
                    }
                    if unique && solver.count(puzzle, Some(2), control) == Ok(1) {
                        bits |= UNIQUE;
                    }
                    out[0] = bits;
                },
            ))
        })?;
        progress.finish_chunk(py, end - start)?;
        start = end;
    }
    let column = |bit: u8| -> Vec<bool> { flags.iter().map(|&f| f & bit == bit).collect() };
    let correct = UNIQUE | VALID | KEEPS_CLUES;
    Ok((
        PyArray1::from_vec(py, column(VALID)),
        PyArray1::from_vec(py, column(KEEPS_CLUES)),
        PyArray1::from_vec(py, column(UNIQUE)),
        PyArray1::from_vec(py, column(correct)),
    ))
}
