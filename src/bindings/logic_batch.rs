//! Grades and explanations of many puzzles on every thread: flat columns the Python
//! wrappers in `sudoku_rs/_logic_batch.py` assemble into a structured array or trace columns.
//! Each puzzle is explained on its own, so results do not depend on the thread count.

use numpy::PyArray1;
use pyo3::prelude::*;

use super::alloc;

use crate::core::logic::{self, Grade, Solutions, Step, Techniques};
use crate::core::{Control, Error, Grid, Solver, Status};

use super::args::{BoxArg, Threads};
use super::batch::{open, run};
use super::logic::{step_tuple, techniques_arg, StepTuple};

/// A row of grades: hardest (index into the technique table, -1 for none), score, level code
/// (`Level as i64`, 0 when the row has none), solved, unique, status code.
pub(super) const GRADE_STRIDE: usize = 6;

pub(super) fn grade_row(grade: &Grade, out: &mut [i64]) {
    out.copy_from_slice(&[
        grade.hardest.map_or(-1, |t| t.index() as i64),
        grade.score as i64,
        grade.level.map_or(0, |level| level as i64),
        i64::from(grade.solved),
        i64::from(grade.solutions == Solutions::One),
        i64::from(Status::of_grade(grade).code()),
    ]);
}

/// A row the logic could not run on: conflicting clues (or a stop, which the batch raises).
pub(super) fn failed_row(err: &Error, out: &mut [i64]) {
    let status = Status::of_error(err);
    out.copy_from_slice(&[-1, 0, 0, 0, 0, i64::from(status.code())]);
}

pub(super) type GradeColumns<'py> = (
    Bound<'py, PyArray1<i16>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<u8>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<i8>>,
);

/// Unpacks grade rows into the six columns.
#[derive(Default)]
pub(super) struct GradeColumnsBuf {
    hardest: Vec<i16>,
    score: Vec<i64>,
    level: Vec<u8>,
    solved: Vec<bool>,
    unique: Vec<bool>,
    status: Vec<i8>,
}

impl GradeColumnsBuf {
    /// Room for `rows` rows, taken before any puzzle is graded: a batch too large for its
    /// grades is a `MemoryError` at once, not an abort hours in.
    pub(super) fn reserve(&mut self, rows: usize) -> PyResult<()> {
        let what = || format!("grades of {rows} rows");
        alloc::reserve(&mut self.hardest, rows, what)?;
        alloc::reserve(&mut self.score, rows, what)?;
        alloc::reserve(&mut self.level, rows, what)?;
        alloc::reserve(&mut self.solved, rows, what)?;
        alloc::reserve(&mut self.unique, rows, what)?;
        alloc::reserve(&mut self.status, rows, what)
    }

    pub(super) fn push(&mut self, row: &[i64], valid: bool) {
        let invalid = [-1, 0, 0, 0, 0, i64::from(Status::Invalid.code())];
        let row: &[i64] = if valid { row } else { &invalid };
        self.hardest.push(row[0] as i16);
        self.score.push(row[1]);
        self.level.push(row[2] as u8);
        self.solved.push(row[3] != 0);
        self.unique.push(row[4] != 0);
        let status = Status::from_code(row[5]).unwrap_or(Status::Invalid);
        self.status.push(status.code());
    }

    /// The columns as numpy arrays, as `rate_batch` and the batch status codes make theirs.
    pub(super) fn into_py(self, py: Python<'_>) -> PyResult<GradeColumns<'_>> {
        Ok((
            alloc::from_slice(py, &self.hardest)?,
            alloc::from_slice(py, &self.score)?,
            alloc::from_slice(py, &self.level)?,
            alloc::from_slice(py, &self.solved)?,
            alloc::from_slice(py, &self.unique)?,
            alloc::from_slice(py, &self.status)?,
        ))
    }
}

/// Explains one puzzle of a batch; `keep` keeps the steps (with their sentences).
pub(super) fn explain_one(
    shape: crate::core::BoxShape,
    puzzle: &[u8],
    techniques: Techniques,
    keep: bool,
    solver: &mut Solver,
    control: &mut dyn Control,
) -> crate::core::Result<(Vec<Step>, Grade)> {
    let grid = Grid::new(shape, puzzle.to_vec())?;
    let start = logic::start(&grid, None, solver, control)?;
    if keep {
        let explanation = logic::explain(start, techniques, solver, control)?;
        Ok((explanation.steps, explanation.grade))
    } else {
        Ok((
            Vec::new(),
            logic::grade(start, techniques, solver, control)?,
        ))
    }
}

/// Columns (hardest index, score, level code, solved, unique, status code); see
/// `sudoku_rs.grade_batch`.
#[pyfunction]
#[pyo3(signature = (puzzles, /, *, r#box = None, techniques = None, threads = None, progress = None))]
pub fn _grade_batch<'py>(
    puzzles: &Bound<'py, PyAny>,
    r#box: Option<BoxArg>,
    techniques: Option<Vec<String>>,
    threads: Option<Threads>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<GradeColumns<'py>> {
    super::guard::entry(|| {
        super::entry::batch(puzzles, progress, "grading", |puzzles, update| {
            let mut columns = GradeColumnsBuf::default();
            each_trace(
                puzzles,
                r#box,
                techniques,
                threads,
                update,
                &mut columns,
                None,
            )?;
            columns.into_py(puzzles.py())
        })
    })
}

/// One puzzle's result in a batch: its steps (kept only by `explain_batch`) and its grade row.
#[derive(Clone, Default)]
struct Trace {
    steps: Vec<Step>,
    grade: [i64; GRADE_STRIDE],
}

/// (steps of every puzzle in order, as (puzzle index, step tuple); grade columns); see
/// `sudoku_rs.explain_batch`.
#[pyfunction]
#[pyo3(signature = (puzzles, /, *, r#box = None, techniques = None, threads = None, progress = None))]
pub fn _explain_batch<'py>(
    puzzles: &Bound<'py, PyAny>,
    r#box: Option<BoxArg>,
    techniques: Option<Vec<String>>,
    threads: Option<Threads>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<ExplainResult<'py>> {
    super::guard::entry(|| {
        super::entry::batch(puzzles, progress, "explaining", |puzzles, update| {
            let mut steps = Vec::new();
            let mut columns = GradeColumnsBuf::default();
            each_trace(
                puzzles,
                r#box,
                techniques,
                threads,
                update,
                &mut columns,
                Some(&mut |i, trace| {
                    steps.extend(trace.steps.iter().map(|s| (i, step_tuple(s.clone()))));
                }),
            )?;
            Ok((steps, columns.into_py(puzzles.py())?))
        })
    })
}

type ExplainResult<'py> = (Vec<(usize, StepTuple)>, GradeColumns<'py>);

/// What `explain_batch` does with each row's [`Trace`] (its index in the batch first).
type TakeTrace<'a> = dyn FnMut(usize, &Trace) + 'a;

/// The one loop behind both batches: grades every row on the shared chunk runner and adds its
/// grade to `columns`, in batch order; with `take`, explains each row (with the steps and their
/// sentences) and hands its [`Trace`] to `take` too.
fn each_trace<'py>(
    puzzles: &Bound<'py, PyAny>,
    r#box: Option<BoxArg>,
    techniques: Option<Vec<String>>,
    threads: Option<Threads>,
    progress: Option<Bound<'py, PyAny>>,
    columns: &mut GradeColumnsBuf,
    mut take: Option<&mut TakeTrace<'_>>,
) -> PyResult<()> {
    let keep = take.is_some();
    let techniques = techniques_arg(techniques)?;
    let batch = open(puzzles, &super::request::Request::classic(r#box)?)?;
    columns.reserve(batch.count)?;
    let shape = batch.shape;
    let work = |solver: &mut Solver,
                _: usize,
                puzzle: &[u8],
                out: &mut [Trace],
                control: &mut dyn Control| {
        let trace = &mut out[0];
        match explain_one(shape, puzzle, techniques, keep, solver, control) {
            Ok((steps, grade)) => {
                trace.steps = steps;
                grade_row(&grade, &mut trace.grade);
            }
            Err(err) => failed_row(&err, &mut trace.grade),
        }
    };
    run(
        puzzles.py(),
        &batch,
        threads,
        progress,
        1,
        work,
        |start, results: &[Trace], valid| {
            for (k, (trace, &ok)) in results.iter().zip(valid).enumerate() {
                columns.push(&trace.grade, ok);
                if let Some(take) = take.as_mut() {
                    take(start + k, trace);
                }
            }
            Ok(())
        },
    )
}
