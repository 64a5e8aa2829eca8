//! Checking answers (model output) against their puzzles in bulk, on every core.

use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;

use crate::core::grid::check::check_answer;
use crate::core::{Control, Error, Solver};

use super::alloc;
use super::args::{BoxArg, Threads};
use super::batch::open;
use super::chunks::Runner;
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
pub fn _check_batch<'py>(
    puzzles: &Bound<'py, PyAny>,
    answers: &Bound<'py, PyAny>,
    r#box: Option<BoxArg>,
    unique: bool,
    threads: Option<Threads>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Columns<'py>> {
    super::guard::entry(|| {
        super::entry::batch(puzzles, progress, "checking", |puzzles, update| {
            let answers = super::entry::as_batch(answers)?;
            check_batch(puzzles, &answers, r#box, unique, threads, update)
        })
    })
}

/// The four flag columns.
type Columns<'py> = (
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<bool>>,
);

fn check_batch<'py>(
    puzzles: &Bound<'py, PyAny>,
    answers: &Bound<'py, PyAny>,
    r#box: Option<BoxArg>,
    unique: bool,
    threads: Option<Threads>,
    progress: Option<Bound<'py, PyAny>>,
) -> PyResult<Columns<'py>> {
    let py = puzzles.py();
    let puzzle_batch = open(puzzles, &super::request::Request::classic(r#box)?)?;
    let shape = puzzle_batch.shape;
    let n = shape.size();
    // Answers are read as grids of the puzzles' shape, so answers of another size are an
    // error here rather than rows that silently fail.
    let answer_batch = open(answers, &super::request::Request::of_shape(shape)).map_err(|err| {
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
    let mut flags = alloc::filled(count, 0u8, || format!("results for {count} rows"))?;
    let (mut cells, mut valid, mut answer_cells, mut answer_valid) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut runner = Runner::new(shape, count, threads, progress);
    for (start, end) in runner.chunks() {
        puzzle_batch.read(start, end, &mut cells, &mut valid)?;
        answer_batch.read(start, end, &mut answer_cells, &mut answer_valid)?;
        let check = |solver: &mut Solver,
                     i: usize,
                     puzzle: &[u8],
                     out: &mut [u8],
                     control: &mut dyn Control| {
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
        };
        runner.run(py, &cells, &mut flags[start..end], 1, check)?;
    }
    let column = |bit: u8| -> PyResult<Bound<'py, PyArray1<bool>>> {
        let column = alloc::zeros::<bool>(py, count)?;
        {
            let mut rw = column.readwrite();
            for (slot, &f) in rw.as_slice_mut()?.iter_mut().zip(&flags) {
                *slot = f & bit == bit;
            }
        }
        Ok(column)
    };
    let correct = UNIQUE | VALID | KEEPS_CLUES;
    Ok((
        column(VALID)?,
        column(KEEPS_CLUES)?,
        column(UNIQUE)?,
        column(correct)?,
    ))
}
