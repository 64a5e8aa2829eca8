//! Rating puzzles: one grid of any kind, or a batch into a structured array.

use pyo3::prelude::*;

use crate::core::make::rate::{self, Difficulty, Rating};
use crate::core::{Control, Grid, Status};

use super::alloc;
use super::args::{BoxArg, Threads};
use super::batch::{open, run_rated};
use super::records;
use super::run::SignalCheck;

/// (guesses, backtracks, singles_only, unique, difficulty); see `sudoku_rs.rate`.
#[pyfunction]
#[pyo3(signature = (grid, /, *, r#box = None))]
pub fn _rate(
    grid: &Bound<'_, PyAny>,
    r#box: Option<BoxArg>,
) -> PyResult<(u64, u64, bool, bool, &'static str)> {
    super::guard::entry(|| {
        let input = super::request::Request::classic(r#box)?.read(grid)?;
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

/// Rate many puzzles on every core: a structured array of shape (N,) whose fields are those
/// of :class:`Rating` (``difficulty`` a ``<U11`` string), then ``status``, the row's
/// :class:`Status` code (int8).
///
/// Takes the same inputs as :func:`solve_batch`. A row that cannot be rated gets guesses and
/// backtracks -1, both flags False, and, told apart as ``status=True`` does elsewhere,
/// difficulty 'invalid' with status ``Status.INVALID`` (malformed or conflicting clues) or
/// 'no solution' with ``Status.NO_SOLUTION`` (the difficulty is the status's ``label``).
/// ``progress=True`` shows a tqdm bar.
#[pyfunction]
#[pyo3(
    signature = (puzzles, /, *, r#box = None, threads = None, progress = None),
    text_signature = "(puzzles, /, *, box=None, threads=None, progress=False)"
)]
pub fn rate_batch<'py>(
    puzzles: &Bound<'py, PyAny>,
    r#box: Option<BoxArg>,
    threads: Option<Threads>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    super::guard::entry(|| {
        super::entry::batch(puzzles, progress, "rating", |puzzles, update| {
            rate_all(puzzles, r#box, threads, update)
        })
    })
}

fn rate_all<'py>(
    puzzles: &Bound<'py, PyAny>,
    r#box: Option<BoxArg>,
    threads: Option<Threads>,
    progress: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = puzzles.py();
    let batch = open(puzzles, &super::request::Request::classic(r#box)?)?;
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
    let mut codes = alloc::filled(count, 0u8, what)?;
    // Per puzzle: guesses, backtracks, singles_only, unique, difficulty code, status code (all
    // i64 for one stride).
    // The batch takes grids only: a row never has marks.
    let work = |&mut (): &mut (),
                _: usize,
                puzzle: &[u8],
                _: Option<&[u64]>,
                out: &mut [i64],
                control: &mut dyn Control| {
        let grid = Grid::new(shape, puzzle.to_vec()).expect("the reader checked the values");
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
                i64::from(Status::Solved.code()),
            ]),
            Err(err) => out[5] = i64::from(Status::of_error(&err).code()),
        }
    };
    let statuses = run_rated(py, &batch, threads, progress, 6, work, |i, row: &[i64]| {
        guesses[i] = row[0];
        backtracks[i] = row[1];
        singles[i] = row[2] != 0;
        unique[i] = row[3] != 0;
        codes[i] = row[4] as u8;
    })?;
    let difficulty = records::labels(py, &Difficulty::LABELS, "U11", &codes, &statuses)?;
    records::records(
        py,
        count,
        &[
            ("guesses", "i8", alloc::from_slice(py, &guesses)?.into_any()),
            (
                "backtracks",
                "i8",
                alloc::from_slice(py, &backtracks)?.into_any(),
            ),
            (
                "singles_only",
                "?",
                alloc::from_slice(py, &singles)?.into_any(),
            ),
            ("unique", "?", alloc::from_slice(py, &unique)?.into_any()),
            ("difficulty", "U11", difficulty),
            ("status", "i1", alloc::from_slice(py, &statuses)?.into_any()),
        ],
    )
}
