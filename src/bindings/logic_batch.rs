//! Grades and explanations of many puzzles on every thread: a structured array of grades
//! (`grade_batch`, and the grades of `explain_batch` and `logic_trace_batch`) and the steps as
//! columns. Each puzzle is explained on its own, so results do not depend on the thread count.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList};

use crate::core::logic::{self, Grade, Level, Solutions, Step, Technique, Techniques};
use crate::core::{Control, Error, Grid, Solver, Status};

use super::alloc;
use super::args::{BoxArg, Names, Threads};
use super::batch::{open, run_each};
use super::logic::techniques_arg;
use super::records;

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
        let status = super::batch::status_of(valid, row[5]);
        self.status.push(status.code());
    }

    /// The grades as `grade_batch` returns them: a structured array with fields `hardest`
    /// (the technique's name, '' for none), `score`, `level` (its label, or the row's status's),
    /// `solved`, `unique` and `status`.
    pub(super) fn into_records(self, py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
        let mut names: Vec<&str> = Technique::ALL.iter().map(|t| t.name()).collect();
        let width = names.iter().map(|name| name.len()).max().unwrap_or(0);
        let none = names.len() as i64;
        names.push("");
        let hardest: Vec<i64> = self
            .hardest
            .iter()
            .map(|&h| if h < 0 { none } else { i64::from(h) })
            .collect();
        let hardest = records::take(py, &names, &records::text_kind(width), &hardest)?;
        let levels: Vec<&str> = Level::ALL.iter().map(|l| l.label()).collect();
        let level = records::labels(py, &levels, "U11", &self.level, &self.status)?;
        records::records(
            py,
            self.status.len(),
            &[
                ("hardest", &records::text_kind(width), hardest),
                (
                    "score",
                    "i8",
                    alloc::from_slice(py, &self.score)?.into_any(),
                ),
                ("level", "U11", level),
                (
                    "solved",
                    "?",
                    alloc::from_slice(py, &self.solved)?.into_any(),
                ),
                (
                    "unique",
                    "?",
                    alloc::from_slice(py, &self.unique)?.into_any(),
                ),
                (
                    "status",
                    "i1",
                    alloc::from_slice(py, &self.status)?.into_any(),
                ),
            ],
        )
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

/// :func:`grade` of many puzzles on every core (the inputs of :func:`solve_batch`): a
/// structured array of shape (N,) with fields ``hardest`` (technique name, '' when no step
/// was needed), ``score``, ``level``, ``solved``, ``unique`` (as in :class:`Grade`) and
/// ``status`` (a :class:`Status` code).
///
/// A row is never an exception. A row with a level has status ``Status.SOLVED``; one without
/// has the :class:`Status` that says why and that status's ``label`` as its level: a
/// malformed row or one with conflicting clues 'invalid' (``Status.INVALID``), one with no
/// solution 'no solution' (``Status.NO_SOLUTION``), several 'not unique'
/// (``Status.NOT_UNIQUE``), and one the allowed techniques get stuck on 'unsolved'
/// (``Status.UNSOLVED``); the last two are graded as far as logic goes (``hardest``,
/// ``score``). Each puzzle is graded on its own, so the result is the same for every thread
/// count. ``progress=True`` shows a tqdm bar.
#[pyfunction]
#[pyo3(
    signature = (puzzles, /, *, r#box = None, techniques = None, threads = None, progress = None),
    text_signature = "(puzzles, /, *, box=None, techniques=None, threads=None, progress=False)"
)]
pub fn grade_batch<'py>(
    puzzles: &Bound<'py, PyAny>,
    r#box: Option<BoxArg>,
    techniques: Option<Names>,
    threads: Option<Threads>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
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
            columns.into_records(puzzles.py())
        })
    })
}

/// One puzzle's result in a batch: its steps (kept only by `explain_batch`) and its grade row.
#[derive(Clone, Default)]
struct Trace {
    steps: Vec<Step>,
    grade: [i64; GRADE_STRIDE],
}

/// :func:`explain` of many puzzles on every core, as columns a data pipeline can store; see
/// :class:`Traces`. A row that cannot be explained (malformed, conflicting clues, no solution)
/// has no steps and its grade says why. Each puzzle is explained on its own, so the traces
/// are the same for every thread count. To write a dataset file, see :func:`write_traces`.
/// ``progress=True`` shows a tqdm bar.
///
/// ``tokens=True`` returns the same steps as token arrays instead, in the vocabulary of
/// :func:`search_trace`, and with ``states=True`` also the grid and the candidates after every
/// step (for probing and trace training): :class:`LogicTraces`, exactly what
/// :func:`logic_trace_batch` returns (it is the same call; ``states`` needs ``tokens``).
#[pyfunction]
#[pyo3(
    signature = (puzzles, /, *, r#box = None, techniques = None, threads = None, progress = None,
                 tokens = false, states = false),
    text_signature = "(puzzles, /, *, box=None, techniques=None, threads=None, progress=False, \
                      tokens=False, states=False)"
)]
#[allow(clippy::fn_params_excessive_bools)]
pub fn explain_batch<'py>(
    puzzles: &Bound<'py, PyAny>,
    r#box: Option<BoxArg>,
    techniques: Option<Names>,
    threads: Option<Threads>,
    progress: Option<&Bound<'py, PyAny>>,
    tokens: bool,
    states: bool,
) -> PyResult<Bound<'py, PyAny>> {
    super::guard::entry(|| {
        if tokens {
            // One owner of the step tokens.
            return super::trace::logic_trace_batch(
                puzzles, r#box, techniques, states, threads, progress,
            );
        }
        if states {
            return Err(pyo3::exceptions::PyValueError::new_err(
                "states=True gives the grid and candidates after each step beside its tokens: \
                 pass tokens=True too",
            ));
        }
        super::entry::batch(puzzles, progress, "explaining", |puzzles, update| {
            static TRACES: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
            let mut steps = StepColumns::default();
            let mut columns = GradeColumnsBuf::default();
            each_trace(
                puzzles,
                r#box,
                techniques,
                threads,
                update,
                &mut columns,
                Some(&mut |i, trace| steps.push(i, &trace.steps)),
            )?;
            let py = puzzles.py();
            TRACES
                .import(py, "sudoku_rs._logic_batch", "Traces")?
                .call1((steps.into_dict(py)?, columns.into_records(py)?))
        })
    })
}

/// The steps of `explain_batch`, one entry per step of every puzzle (see `Traces`).
#[derive(Default)]
struct StepColumns {
    puzzle: Vec<i64>,
    step: Vec<i32>,
    technique: Vec<i64>,
    placements: Vec<Vec<(usize, usize, u8)>>,
    eliminations: Vec<Vec<(usize, usize, u8)>>,
    text: Vec<String>,
    weight: Vec<i32>,
}

impl StepColumns {
    fn push(&mut self, puzzle: usize, steps: &[Step]) {
        for (number, step) in steps.iter().enumerate() {
            self.puzzle.push(puzzle as i64);
            self.step.push(number as i32);
            self.technique.push(step.technique.index() as i64);
            self.placements.push(step.placements.clone());
            self.eliminations.push(step.eliminations.clone());
            self.text.push(step.text.clone());
            self.weight.push(step.technique.weight() as i32);
        }
    }

    /// The columns as `Traces.steps`: numpy arrays, the triples and texts as object arrays.
    fn into_dict(self, py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
        let names: Vec<&str> = Technique::ALL.iter().map(|t| t.name()).collect();
        let width = names.iter().map(|name| name.len()).max().unwrap_or(0);
        let objects = |items: Vec<Bound<'_, PyAny>>| -> PyResult<Bound<'_, PyAny>> {
            let column = records::objects(py, items.len())?;
            for (i, item) in items.into_iter().enumerate() {
                column.set_item(i, item)?;
            }
            Ok(column)
        };
        let triples = |rows: Vec<Vec<(usize, usize, u8)>>| -> PyResult<Vec<Bound<'_, PyAny>>> {
            rows.into_iter()
                .map(|row| Ok(PyList::new(py, row)?.into_any()))
                .collect()
        };
        let steps = PyDict::new(py);
        steps.set_item("puzzle", alloc::from_slice(py, &self.puzzle)?)?;
        steps.set_item("step", alloc::from_slice(py, &self.step)?)?;
        let technique = records::take(py, &names, &records::text_kind(width), &self.technique)?;
        steps.set_item("technique", technique)?;
        steps.set_item("placements", objects(triples(self.placements)?)?)?;
        steps.set_item("eliminations", objects(triples(self.eliminations)?)?)?;
        let text: PyResult<Vec<_>> = self
            .text
            .iter()
            .map(|t| Ok(alloc::string(py, t)?.into_any()))
            .collect();
        steps.set_item("text", objects(text?)?)?;
        steps.set_item("weight", alloc::from_slice(py, &self.weight)?)?;
        Ok(steps)
    }
}

/// What `explain_batch` does with each row's [`Trace`] (its index in the batch first).
type TakeTrace<'a> = dyn FnMut(usize, &Trace) + 'a;

/// The one loop behind both batches: grades every row on the shared chunk runner and adds its
/// grade to `columns`, in batch order; with `take`, explains each row (with the steps and their
/// sentences) and hands its [`Trace`] to `take` too.
fn each_trace<'py>(
    puzzles: &Bound<'py, PyAny>,
    r#box: Option<BoxArg>,
    techniques: Option<Names>,
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
                trace: &mut Trace,
                control: &mut dyn Control| {
        match explain_one(shape, puzzle, techniques, keep, solver, control) {
            Ok((steps, grade)) => {
                trace.steps = steps;
                grade_row(&grade, &mut trace.grade);
            }
            Err(err) => failed_row(&err, &mut trace.grade),
        }
    };
    run_each(
        puzzles.py(),
        &batch,
        threads,
        progress,
        work,
        |i, trace: &Trace, ok| {
            columns.push(&trace.grade, ok);
            if let Some(take) = take.as_mut() {
                take(i, trace);
            }
            Ok(())
        },
    )
}
