//! The single-grid solving calls: `solve`, `count_solutions`, `is_unique`, `is_valid`.

use pyo3::prelude::*;

use super::args::{budget, BoxArg, Limit, MaxGuesses};
use super::errors::InvalidPuzzleError;
use super::request::Request;
use super::{guard, puzzle, rules, run};

/// The first solution of `grid`, in the same kind as the input. `max_guesses` bounds the
/// search: a puzzle that needs more guesses raises `GuessLimitError`, never a wrong answer.
/// A pencil-mark puzzle (a sukaku string, or `candidates=` beside the grid) is solved under its
/// marks; a sukaku string's solution is one line of cells.
#[pyfunction]
#[pyo3(signature = (
    grid, /, *, r#box = None, max_guesses = None, rules = None, candidates = None
))]
pub fn solve<'py>(
    grid: &Bound<'py, PyAny>,
    r#box: Option<BoxArg>,
    max_guesses: Option<MaxGuesses>,
    rules: Option<rules::RulesArg>,
    candidates: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    guard::entry(|| {
        let py = grid.py();
        let (grid, r#box, rules) = puzzle::unpack(grid, r#box, rules)?;
        let request = Request::new(r#box, rules)?;
        let (input, marks) = request.read_marked(&grid, candidates)?;
        let rules = request.into_rules();
        let solution = run::search(
            py,
            &input.grid,
            budget(max_guesses),
            rules,
            |solver, grid, control| {
                // The cells alone: a Grid would check them again.
                let mut out = vec![0; grid.cells().len()];
                match solver.solve_into_marked(grid.cells(), marks.as_deref(), &mut out, control)? {
                    true => Ok(out),
                    false => Err(crate::core::Error::NoSolution),
                }
            },
        )?;
        input.kind.write(py, &solution)
    })
}

/// The number of solutions, stopping at `limit` when one is given. Past `max_guesses` guesses:
/// `GuessLimitError`, never a partial count. Pencil marks as for `solve`.
#[pyfunction]
#[pyo3(signature = (
    grid, /, *, limit = None, r#box = None, max_guesses = None, rules = None, candidates = None
))]
pub fn count_solutions<'py>(
    grid: &Bound<'py, PyAny>,
    limit: Option<Limit>,
    r#box: Option<BoxArg>,
    max_guesses: Option<MaxGuesses>,
    rules: Option<rules::RulesArg>,
    candidates: Option<&Bound<'py, PyAny>>,
) -> PyResult<u64> {
    guard::entry(|| {
        let limit = limit.and_then(|l| l.0);
        let (grid, r#box, rules) = puzzle::unpack(grid, r#box, rules)?;
        let request = Request::new(r#box, rules)?;
        let (input, marks) = request.read_marked(&grid, candidates)?;
        let rules = request.into_rules();
        run::search(
            grid.py(),
            &input.grid,
            budget(max_guesses),
            rules,
            |solver, grid, control| {
                solver.count_marked(grid.cells(), marks.as_deref(), limit, control)
            },
        )
    })
}

/// Whether the grid has exactly one solution; `GuessLimitError` past `max_guesses` guesses.
/// Pencil marks as for `solve`.
#[pyfunction]
#[pyo3(signature = (
    grid, /, *, r#box = None, max_guesses = None, rules = None, candidates = None
))]
pub fn is_unique<'py>(
    grid: &Bound<'py, PyAny>,
    r#box: Option<BoxArg>,
    max_guesses: Option<MaxGuesses>,
    rules: Option<rules::RulesArg>,
    candidates: Option<&Bound<'py, PyAny>>,
) -> PyResult<bool> {
    guard::entry(|| {
        let two = Some(Limit(Some(2)));
        Ok(count_solutions(grid, two, r#box, max_guesses, rules, candidates)? == 1)
    })
}

/// Whether the grid is well formed and no two equal clues share a row, column or box (or
/// break a variant rule of `rules`). Says nothing about solvability; values of the wrong type
/// still raise `TypeError`, and rules that do not fit the grid `InvalidRulesError`.
#[pyfunction]
#[pyo3(signature = (grid, /, *, r#box = None, rules = None))]
pub fn is_valid(
    grid: &Bound<'_, PyAny>,
    r#box: Option<BoxArg>,
    rules: Option<rules::RulesArg>,
) -> PyResult<bool> {
    guard::entry(|| {
        let py = grid.py();
        let (grid, r#box, rules) = puzzle::unpack(grid, r#box, rules)?;
        // A bad box is as invalid as a bad grid: both are InvalidPuzzleError.
        let read = Request::new(r#box, rules).and_then(|request| {
            let input = request.read(&grid)?;
            Ok((input, request.into_rules()))
        });
        match read {
            Ok((input, rules)) => Ok(match &rules {
                None => input.grid.check().is_ok(),
                Some(rules) => {
                    crate::core::rules::find_conflict(input.grid.shape(), rules, input.grid.cells())
                        .is_none()
                }
            }),
            Err(err) if err.is_instance_of::<InvalidPuzzleError>(py) => Ok(false),
            Err(err) => Err(err),
        }
    })
}
