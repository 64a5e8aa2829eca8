//! Pencil marks, hints, explanations and grades. The Python wrappers in
//! `sudoku_rs/_logic.py` build `Step`, `Explanation` and `Grade` from the tuples returned here.

use numpy::{PyArray3, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use crate::core::logic::candidates::{format_marks, masks_from_bools, parse_marks};
use crate::core::logic::{self, Candidates, Grade, Solutions, Step, Technique, Techniques};
use crate::core::{Error, Grid, Solver, Unit};

use super::alloc;
use super::args::{BoxArg, MaxGuesses, Names, Threads};
use super::batch::{open, run};
use super::run::SignalCheck;

/// A step as Python sees it: (technique, placements, eliminations, cells, units, digits, text,
/// weight).
pub(super) type StepTuple = (
    &'static str,
    Vec<(usize, usize, u8)>,
    Vec<(usize, usize, u8)>,
    Vec<(usize, usize)>,
    Vec<(&'static str, usize)>,
    Vec<u8>,
    String,
    u32,
);

/// A grade as Python sees it: (hardest, score, level, solved, unique).
type GradeTuple = (Option<&'static str>, u64, &'static str, bool, bool);

fn unit_name(unit: Unit) -> &'static str {
    match unit {
        Unit::Row => "row",
        Unit::Column => "column",
        Unit::Box => "box",
    }
}

pub(super) fn step_tuple(step: Step) -> StepTuple {
    let digits = logic::step::bits(step.digits)
        .map(|d| d as u8 + 1)
        .collect();
    (
        step.technique.name(),
        step.placements,
        step.eliminations,
        step.cells,
        step.units
            .into_iter()
            .map(|(unit, i)| (unit_name(unit), i))
            .collect(),
        digits,
        step.text,
        step.technique.weight(),
    )
}

fn grade_tuple(grade: &Grade) -> GradeTuple {
    (
        grade.hardest.map(Technique::name),
        grade.score,
        grade.label(),
        grade.solved,
        grade.solutions == Solutions::One,
    )
}

/// `techniques=`: `None` for all, else names from the table.
pub(super) fn techniques_arg(names: Option<Names>) -> PyResult<Techniques> {
    let Some(Names(names)) = names else {
        return Ok(Techniques::all());
    };
    Techniques::from_names(names.iter().map(String::as_str)).map_err(|unknown| {
        let known: Vec<&str> = Technique::ALL.iter().map(|t| t.name()).collect();
        PyValueError::new_err(format!(
            "unknown technique '{unknown}'; the techniques are: {}",
            known.join(", ")
        ))
    })
}

/// `candidates=`: marks text or a bool array of shape (n, n, n), as one mask per cell. Nested
/// lists and arrays of 0/1 integers are taken as numpy reads them.
pub(super) fn marks_arg(marks: &Bound<'_, PyAny>, n: usize) -> PyResult<Vec<u64>> {
    let converted = if marks.cast::<PyString>().is_err() && marks.cast::<PyArray3<bool>>().is_err()
    {
        bools_of(marks)?
    } else {
        None
    };
    let marks = converted.as_ref().unwrap_or(marks);
    if let Ok(text) = marks.cast::<PyString>() {
        let (side, masks) = parse_marks(&text.to_cow()?)?;
        if side != n {
            return Err(Error::Candidates(format!(
                "the candidates text is for a {side}x{side} grid, but the grid is {n}x{n}"
            ))
            .into());
        }
        return Ok(masks);
    }
    if let Ok(array) = marks.cast::<PyArray3<bool>>() {
        let dims = array.shape().to_vec();
        if dims != [n, n, n] {
            let dims: Vec<String> = dims.iter().map(usize::to_string).collect();
            return Err(Error::Candidates(format!(
                "candidates must have shape ({n}, {n}, {n}) for this grid, got ({})",
                dims.join(", ")
            ))
            .into());
        }
        let bools: Vec<bool> = array.readonly().as_array().iter().copied().collect();
        return Ok(masks_from_bools(n, &bools));
    }
    Err(PyTypeError::new_err(format!(
        "candidates must be a bool numpy array of shape (n, n, n) or a marks string, got {}",
        marks.get_type().name()?
    )))
}

/// A list or an integer array of marks as a C-ordered bool array, when it is one (0/1
/// integers, or bools); `None` for anything else, which [`marks_arg`] refuses by type.
fn bools_of<'py>(marks: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyAny>>> {
    let py = marks.py();
    let is_array = marks.cast::<numpy::PyUntypedArray>().is_ok();
    if !is_array && !marks.is_instance_of::<PyList>() && !marks.is_instance_of::<PyTuple>() {
        return Ok(None);
    }
    let numpy = py.import("numpy")?;
    let Ok(array) = numpy.call_method1("asarray", (marks,)) else {
        return Ok(None);
    };
    let kind: String = array.getattr("dtype")?.getattr("kind")?.extract()?;
    match kind.as_str() {
        "b" => {}
        "i" | "u" => {
            let zero_one = numpy
                .call_method1("isin", (&array, (0, 1)))?
                .call_method0("all")?
                .is_truthy()?;
            if !zero_one {
                return Err(Error::Candidates(
                    "candidates must be 0/1 or True/False for each (row, col, digit)".into(),
                )
                .into());
            }
        }
        _ => return Ok(None),
    }
    let bools = numpy.getattr("bool_")?;
    Ok(Some(
        numpy.call_method1("ascontiguousarray", (array, bools))?,
    ))
}

pub(super) fn bools_array<'py>(
    py: Python<'py>,
    n: usize,
    bools: &[bool],
) -> PyResult<Bound<'py, PyAny>> {
    Ok(alloc::from_slice(py, bools)?.reshape([n, n, n])?.into_any())
}

/// The candidates the givens leave, as a bool array (n, n, n); see `sudoku_rs.candidates`.
#[pyfunction]
#[pyo3(signature = (grid, /, *, r#box = None))]
pub fn _candidates<'py>(
    grid: &Bound<'py, PyAny>,
    r#box: Option<BoxArg>,
) -> PyResult<Bound<'py, PyAny>> {
    super::guard::entry(|| {
        let input = super::request::Request::classic(r#box)?.read(grid)?;
        input.grid.check()?;
        let n = input.grid.size();
        bools_array(grid.py(), n, &Candidates::from_grid(&input.grid).to_bools())
    })
}

/// :func:`candidates` of many puzzles (the inputs of :func:`solve_batch`): a bool array
/// (N, n, n, n). A malformed or conflicting row is all False. ``threads=None`` uses every core;
/// ``progress=True`` shows a tqdm bar.
#[pyfunction]
#[pyo3(
    signature = (puzzles, /, *, r#box = None, threads = None, progress = None),
    text_signature = "(puzzles, /, *, box=None, threads=None, progress=False)"
)]
pub fn candidates_batch<'py>(
    puzzles: &Bound<'py, PyAny>,
    r#box: Option<BoxArg>,
    threads: Option<Threads>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    super::guard::entry(|| {
        super::entry::batch(puzzles, progress, "candidates", |puzzles, update| {
            candidates_of(puzzles, r#box, threads, update)
        })
    })
}

fn candidates_of<'py>(
    puzzles: &Bound<'py, PyAny>,
    r#box: Option<BoxArg>,
    threads: Option<Threads>,
    progress: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = puzzles.py();
    let batch = open(puzzles, &super::request::Request::classic(r#box)?)?;
    let shape = batch.shape;
    let n = shape.size();
    let stride = n * n * n;
    let count = batch.count;
    let len = alloc::product(count, stride, || format!("candidates of {count} grids"))?;
    let array = alloc::zeros::<bool>(py, len)?;
    let mut rw = array.readwrite();
    let out = rw.as_slice_mut()?;
    let work = |_: &mut Solver,
                _: usize,
                puzzle: &[u8],
                slots: &mut [bool],
                _: &mut dyn crate::core::Control| {
        let grid = Grid::new(shape, puzzle.to_vec()).expect("the reader checked the values");
        if grid.check().is_ok() {
            slots.copy_from_slice(&Candidates::from_grid(&grid).to_bools());
        }
    };
    run(
        py,
        &batch,
        threads,
        progress,
        stride,
        work,
        |start, results: &[bool], _| {
            out[start * stride..start * stride + results.len()].copy_from_slice(results);
            Ok(())
        },
    )?;
    drop(rw);
    Ok(array.reshape([count, n, n, n])?.into_any())
}

/// Marks text from a bool array (n, n, n).
#[pyfunction]
pub fn _format_candidates(marks: &Bound<'_, PyAny>) -> PyResult<String> {
    super::guard::entry(|| {
        let array = marks.cast::<PyArray3<bool>>().map_err(|_| {
            PyTypeError::new_err("candidates must be a bool numpy array of shape (n, n, n)")
        })?;
        let n = array.shape()[0];
        if n == 0 || array.shape() != [n, n, n] {
            let dims: Vec<String> = array.shape().iter().map(usize::to_string).collect();
            return Err(Error::Candidates(format!(
                "candidates must have shape (n, n, n), got ({})",
                dims.join(", ")
            ))
            .into());
        }
        Ok(format_marks(n, &marks_arg(marks, n)?)?)
    })
}

/// A bool array (n, n, n) from marks text.
#[pyfunction]
pub fn _parse_candidates<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    super::guard::entry(|| {
        let (n, masks) = parse_marks(text)?;
        let bools: Vec<bool> = masks
            .iter()
            .flat_map(|&m| (0..n).map(move |d| m >> d & 1 != 0))
            .collect();
        bools_array(py, n, &bools)
    })
}

/// Reads the grid and the marks, sets up the start (marks checked), and runs `work` on it with
/// the GIL released.
fn with_start<'py, T: Send>(
    grid: &Bound<'py, PyAny>,
    r#box: Option<BoxArg>,
    candidates: Option<&Bound<'py, PyAny>>,
    max_guesses: Option<MaxGuesses>,
    work: impl FnOnce(logic::Start, &mut Solver, &mut SignalCheck) -> crate::core::Result<T> + Send,
) -> PyResult<T> {
    let (input, marks) = super::request::Request::classic(r#box)?.read_marked(grid, candidates)?;
    let budget = max_guesses.unwrap_or_default().0;
    super::run::detached(grid.py(), &input.grid, budget, |solver, grid, control| {
        let start = logic::start(grid, marks.as_deref(), solver, control)?;
        work(start, solver, control)
    })
}

/// The next step, or None; see `sudoku_rs.hint`.
#[pyfunction]
#[pyo3(signature = (
    grid, /, *, r#box = None, techniques = None, candidates = None, max_guesses = None
))]
pub fn _hint(
    grid: &Bound<'_, PyAny>,
    r#box: Option<BoxArg>,
    techniques: Option<Names>,
    candidates: Option<&Bound<'_, PyAny>>,
    max_guesses: Option<MaxGuesses>,
) -> PyResult<Option<StepTuple>> {
    super::guard::entry(|| {
        let techniques = techniques_arg(techniques)?;
        let step = with_start(
            grid,
            r#box,
            candidates,
            max_guesses,
            |start, solver, control| logic::next_step(&start, techniques, solver, control),
        )?;
        Ok(step.map(step_tuple))
    })
}

/// (steps, grade, remaining cells, final candidates); see `sudoku_rs.explain`.
#[pyfunction]
#[pyo3(signature = (
    grid, /, *, r#box = None, techniques = None, candidates = None, max_guesses = None
))]
#[allow(clippy::type_complexity)]
pub fn _explain<'py>(
    grid: &Bound<'py, PyAny>,
    r#box: Option<BoxArg>,
    techniques: Option<Names>,
    candidates: Option<&Bound<'py, PyAny>>,
    max_guesses: Option<MaxGuesses>,
) -> PyResult<(
    Vec<StepTuple>,
    GradeTuple,
    Vec<(usize, usize)>,
    Bound<'py, PyAny>,
)> {
    super::guard::entry(|| {
        let techniques = techniques_arg(techniques)?;
        let explanation = with_start(
            grid,
            r#box,
            candidates,
            max_guesses,
            |start, solver, control| logic::explain(start, techniques, solver, control),
        )?;
        let remaining = explanation.remaining();
        let grade = grade_tuple(&explanation.grade);
        let n = explanation.candidates.size();
        let marks = bools_array(grid.py(), n, &explanation.candidates.to_bools())?;
        let steps = explanation.steps.into_iter().map(step_tuple).collect();
        Ok((steps, grade, remaining, marks))
    })
}

/// (hardest, score, level, solved, unique); see `sudoku_rs.grade`.
#[pyfunction]
#[pyo3(signature = (
    grid, /, *, r#box = None, techniques = None, candidates = None, max_guesses = None
))]
pub fn _grade<'py>(
    grid: &Bound<'py, PyAny>,
    r#box: Option<BoxArg>,
    techniques: Option<Names>,
    candidates: Option<&Bound<'py, PyAny>>,
    max_guesses: Option<MaxGuesses>,
) -> PyResult<GradeTuple> {
    super::guard::entry(|| {
        let techniques = techniques_arg(techniques)?;
        let grade = with_start(
            grid,
            r#box,
            candidates,
            max_guesses,
            |start, solver, control| logic::grade(start, techniques, solver, control),
        )?;
        Ok(grade_tuple(&grade))
    })
}

/// The technique table: (name, weight, level) in the order hints try them.
#[pyfunction]
pub fn _techniques() -> PyResult<Vec<(&'static str, u32, &'static str)>> {
    super::guard::entry(|| {
        Ok(Technique::ALL
            .iter()
            .map(|t| (t.name(), t.weight(), t.level().label()))
            .collect())
    })
}
