//! Rating puzzles: one grid of any kind, or a batch into flat numpy columns that the Python
//! wrapper assembles into a structured array.

use numpy::PyArray1;
use pyo3::prelude::*;

use crate::core::make::rate::{self, Difficulty, Rating};
use crate::core::{Control, Error, Grid, Solver};

use super::alloc;
use super::args::{BoxArg, Threads};
use super::batch::{open, run};
use super::run::SignalCheck;

/// The difficulty code of a batch row that is malformed or has conflicting clues, then of one
/// with no solution (labels in `constants::UNRATED_LABELS`); the codes below them are
/// `Difficulty as u8`.
const INVALID: i64 = Difficulty::LABELS.len() as i64;
const NO_SOLUTION: i64 = INVALID + 1;

/// (guesses, backtracks, singles_only, unique, difficulty); see `sudoku_rs.rate`.
#[pyfunction]
#[pyo3(signature = (grid, /, *, r#box = None))]
pub fn _rate(
    grid: &Bound<'_, PyAny>,
    r#box: Option<BoxArg>,
) -> PyResult<(u64, u64, bool, bool, &'static str)> {
    super::guard::entry(|| {
        let input = super::read(grid, r#box)?;
        let mut control = SignalCheck::default();
        let rated = grid
            .py()
            .detach(|| super::guard::no_panic(|| rate::rate(&input.grid, &mut control)))?;
        let r = control.finish(rated)?;
        Ok((
            r.guesses,
            r.backtracks,
            r.singles_only,
            r.unique,
            r.difficulty.label(),
        ))
    })
}

/// Columns (guesses, backtracks, singles_only, unique, difficulty code); see
/// `sudoku_rs.rate_batch`. A bad row has guesses and backtracks -1 and code [`INVALID`], an
/// unsolvable one code [`NO_SOLUTION`].
#[pyfunction]
#[pyo3(signature = (puzzles, /, *, r#box = None, threads = None, progress = None))]
pub fn _rate_batch<'py>(
    puzzles: &Bound<'py, PyAny>,
    r#box: Option<BoxArg>,
    threads: Option<Threads>,
    progress: Option<Bound<'py, PyAny>>,
) -> PyResult<Columns<'py>> {
    super::guard::entry(|| rate_batch(puzzles, r#box, threads, progress))
}

/// (guesses, backtracks, singles_only, unique, difficulty code).
type Columns<'py> = (
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<u8>>,
);

fn rate_batch<'py>(
    puzzles: &Bound<'py, PyAny>,
    r#box: Option<BoxArg>,
    threads: Option<Threads>,
    progress: Option<Bound<'py, PyAny>>,
) -> PyResult<Columns<'py>> {
    let py = puzzles.py();
    let batch = open(puzzles, BoxArg::request(r#box)?)?;
    let shape = batch.shape;
    let count = batch.count;
    let what = || format!("ratings of {count} rows");
    let (mut guesses, mut backtracks) = (
        alloc::filled(count, -1i64, what)?,
        alloc::filled(count, -1i64, what)?,
    );
    let (mut singles, mut unique) = (
        alloc::filled(count, false, what)?,
        alloc::filled(count, false, what)?,
    );
    let mut codes = alloc::filled(count, INVALID as u8, what)?;
    // Per puzzle: guesses, backtracks, singles_only, unique, code (all i64 for one stride).
    let work =
        |_: &mut Solver, _: usize, puzzle: &[u8], out: &mut [i64], control: &mut dyn Control| {
            let grid = Grid::new(shape, puzzle.to_vec()).expect("the reader checked the values");
            out[4] = INVALID;
            match rate::rate(&grid, control) {
                Ok(Rating {
                    guesses,
                    backtracks,
                    singles_only,
                    unique,
                    difficulty,
                }) => out.copy_from_slice(&[
                    guesses as i64,
                    backtracks as i64,
                    i64::from(singles_only),
                    i64::from(unique),
                    difficulty as i64,
                ]),
                Err(Error::NoSolution) => out[4] = NO_SOLUTION,
                Err(_) => {}
            }
        };
    run(
        py,
        &batch,
        threads,
        progress,
        5,
        work,
        |start, results: &[i64], valid| {
            for (k, row) in results.chunks(5).enumerate() {
                if valid[k] && row[4] == NO_SOLUTION {
                    codes[start + k] = NO_SOLUTION as u8;
                } else if valid[k] && row[4] != INVALID {
                    let i = start + k;
                    guesses[i] = row[0];
                    backtracks[i] = row[1];
                    singles[i] = row[2] != 0;
                    unique[i] = row[3] != 0;
                    codes[i] = row[4] as u8;
                }
            }
            Ok(())
        },
    )?;
    Ok((
        alloc::from_slice(py, &guesses)?,
        alloc::from_slice(py, &backtracks)?,
        alloc::from_slice(py, &singles)?,
        alloc::from_slice(py, &unique)?,
        alloc::from_slice(py, &codes)?,
    ))
}
