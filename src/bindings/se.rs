//! The Sudoku Explainer rating (ER, EP, ED) of one puzzle, or of a batch into a structured
//! array made natively.

use std::time::{Duration, Instant};

use pyo3::exceptions::{PyRuntimeError, PyTimeoutError};
use pyo3::prelude::*;

use crate::core::logic::se::{self, Outcome};
use crate::core::{Control, Error, Grid, SearchStats, Status};

use super::alloc;
use super::args::{BoxArg, Threads};
use super::batch::{open, run_rated};
use super::errors::{InvalidPuzzleError, InvalidRulesError};
use super::run::SignalCheck;

/// Stops a rating at a deadline, and whenever the caller's own control says so.
struct Deadline<'a> {
    inner: &'a mut dyn Control,
    until: Option<Instant>,
    expired: bool,
}

impl Control for Deadline<'_> {
    fn proceed(&mut self, stats: &SearchStats) -> bool {
        if self.until.is_some_and(|t| Instant::now() >= t) {
            self.expired = true;
            return false;
        }
        self.inner.proceed(stats)
    }
}

fn deadline(time_limit: Option<f64>) -> PyResult<Option<Instant>> {
    match time_limit {
        None => Ok(None),
        Some(t) if t.is_finite() && t >= 0.0 => Ok(Some(
            Instant::now() + Duration::try_from_secs_f64(t).unwrap_or(Duration::MAX / 2),
        )),
        Some(t) => Err(pyo3::exceptions::PyValueError::new_err(format!(
            "time_limit must be a non-negative number of seconds, not {t}"
        ))),
    }
}

/// (er, ep, ed) in tenths; see `sudoku_rs.se_rate`.
#[pyfunction]
#[pyo3(signature = (grid, /, *, r#box = None, candidates = None, time_limit = None))]
pub fn _se_rate(
    grid: &Bound<'_, PyAny>,
    r#box: Option<BoxArg>,
    candidates: Option<&Bound<'_, PyAny>>,
    time_limit: Option<f64>,
) -> PyResult<(u16, u16, u16)> {
    super::guard::entry(|| {
        let (input, marks) =
            super::request::Request::classic(r#box)?.read_marked(grid, candidates)?;
        let until = deadline(time_limit)?;
        let mut signals = SignalCheck::default();
        let (rated, expired) = grid.py().detach(|| {
            super::guard::no_panic(|| {
                let mut control = Deadline {
                    inner: &mut signals,
                    until,
                    expired: false,
                };
                let rated = se::rate_marked(&input.grid, marks.as_deref(), &mut control);
                (rated, control.expired)
            })
        })?;
        if expired {
            return Err(PyTimeoutError::new_err(
                "the Sudoku Explainer rating took longer than time_limit",
            ));
        }
        match signals.finish(rated)? {
            Outcome::Rated(r) => Ok((r.er, r.ep, r.ed)),
            Outcome::NotUnique => Err(InvalidPuzzleError::new_err(
                "the puzzle has several solutions: Sudoku Explainer rates only puzzles with one",
            )),
            Outcome::Stuck(_) => Err(PyRuntimeError::new_err(
                "the Sudoku Explainer techniques get stuck on this puzzle (serate's 20.0)",
            )),
        }
    })
}

/// Rate many puzzles as :func:`se_rate` does, on every core: a structured array of shape
/// (N,) with float fields ``er``, ``ep``, ``ed`` and ``status``, the row's :class:`Status` code.
///
/// Takes the same inputs as :func:`solve_batch`, a sukaku string as a row too (see
/// :func:`se_rate`). A row that is not rated has NaN ratings and
/// status ``INVALID`` (malformed or conflicting clues), ``NO_SOLUTION``, ``NOT_UNIQUE``
/// (several solutions), ``TIME_LIMIT`` (its rating ran past ``time_limit`` seconds) or
/// ``UNSOLVED`` (SE's techniques get stuck: serate's 20.0). Variant ``rules`` raise
/// :class:`InvalidRulesError`: SE does not rate them. ``progress=True`` shows a tqdm bar.
#[pyfunction]
#[pyo3(
    signature = (puzzles, /, *, r#box = None, threads = None, progress = None, time_limit = None, rules = None),
    text_signature = "(puzzles, /, *, box=None, threads=None, progress=False, time_limit=None, rules=None)"
)]
pub fn se_rate_batch<'py>(
    puzzles: &Bound<'py, PyAny>,
    r#box: Option<BoxArg>,
    threads: Option<Threads>,
    progress: Option<&Bound<'py, PyAny>>,
    time_limit: Option<f64>,
    rules: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    super::guard::entry(|| {
        if rules.is_some_and(|r| !r.is_none()) {
            return Err(InvalidRulesError::new_err(
                "the Sudoku Explainer rating is for classic sudoku: it does not rate variant rules",
            ));
        }
        deadline(time_limit)?;
        super::entry::batch(
            puzzles,
            progress,
            "Sudoku Explainer rating",
            |puzzles, update| se_rate_all(puzzles, r#box, threads, update, time_limit),
        )
    })
}

fn se_rate_all<'py>(
    puzzles: &Bound<'py, PyAny>,
    r#box: Option<BoxArg>,
    threads: Option<Threads>,
    progress: Option<Bound<'py, PyAny>>,
    time_limit: Option<f64>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = puzzles.py();
    let batch = open(puzzles, &super::request::Request::classic(r#box)?)?.with_marks();
    let shape = batch.shape;
    let count = batch.count;
    let what = || format!("Sudoku Explainer ratings of {count} rows");
    let mut er = alloc::filled(count, f64::NAN, what)?;
    let mut ep = alloc::filled(count, f64::NAN, what)?;
    let mut ed = alloc::filled(count, f64::NAN, what)?;
    // Per puzzle: er, ep, ed (tenths), status code.
    let work = |&mut (): &mut (),
                _: usize,
                puzzle: &[u8],
                marks: Option<&[u64]>,
                out: &mut [i16],
                control: &mut dyn Control| {
        let grid = Grid::new(shape, puzzle.to_vec()).expect("the reader checked the values");
        let mut control = Deadline {
            inner: control,
            until: deadline(time_limit).ok().flatten(),
            expired: false,
        };
        let status = match se::rate_marked(&grid, marks, &mut control) {
            Ok(Outcome::Rated(r)) => {
                out[..3].copy_from_slice(&[r.er as i16, r.ep as i16, r.ed as i16]);
                Status::Solved
            }
            Ok(Outcome::NotUnique) => Status::NotUnique,
            Ok(Outcome::Stuck(_)) => Status::Unsolved,
            Err(Error::Interrupted) if control.expired => Status::TimeLimit,
            Err(err) => Status::of_error(&err),
        };
        out[3] = i16::from(status.code());
    };
    let statuses = run_rated(py, &batch, threads, progress, 4, work, |i, row: &[i16]| {
        er[i] = f64::from(row[0]) / 10.0;
        ep[i] = f64::from(row[1]) / 10.0;
        ed[i] = f64::from(row[2]) / 10.0;
    })?;
    super::records::records(
        py,
        count,
        &[
            ("er", "f8", alloc::from_slice(py, &er)?.into_any()),
            ("ep", "f8", alloc::from_slice(py, &ep)?.into_any()),
            ("ed", "f8", alloc::from_slice(py, &ed)?.into_any()),
            ("status", "i1", alloc::from_slice(py, &statuses)?.into_any()),
        ],
    )
}
