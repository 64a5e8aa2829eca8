//! The pyo3 binding: each function converts its input, runs the core with the GIL released,
//! and maps core errors to Python exceptions. No solving logic lives here.

mod augment;
mod batch;
mod board;
mod canonical;
mod check;
mod count;
mod dtype;
mod errors;
mod generate;
mod guard;
mod input;
mod lines;
mod logic;
mod rate;
mod rules;
mod run;
mod transform;

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};

use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyList};

use crate::core::{Error, Grid};
use count::CountArg;
use errors::{
    GuessLimitError, InvalidPuzzleError, InvalidRulesError, NoSolutionError, SudokuError,
};
use input::Input;

/// `box=(rows, cols)` as given by the caller; negative numbers are a bad box, not an overflow.
pub(crate) fn box_arg(requested: Option<(i64, i64)>) -> PyResult<Option<(usize, usize)>> {
    match requested {
        None => Ok(None),
        Some((r, c)) if r >= 0 && c >= 0 => Ok(Some((r as usize, c as usize))),
        Some((r, c)) => Err(Error::BoxShape(format!(
            "box=({r}, {c}) is not a box shape: rows and columns must each be at least 2"
        ))
        .into()),
    }
}

fn read<'py>(grid: &Bound<'py, PyAny>, requested_box: Option<(i64, i64)>) -> PyResult<Input<'py>> {
    input::read(grid, box_arg(requested_box)?)
}

/// A count argument (`limit`, `threads`, `max_guesses`) that must be 1 or more.
pub(crate) fn positive(name: &str, value: impl Into<i64>) -> PyResult<u64> {
    let value: i64 = value.into();
    if value < 1 {
        return Err(PyValueError::new_err(format!(
            "{name} must be a positive integer, got {value}"
        )));
    }
    Ok(value as u64)
}

/// `max_guesses` as given: `None` for no limit, else a positive count.
pub(crate) fn guess_budget(max_guesses: Option<CountArg>) -> PyResult<Option<u64>> {
    max_guesses.map(|m| positive("max_guesses", m)).transpose()
}

/// How many threads a batch runs on: `threads` as given, a positive count, or every core for `None`.
pub(crate) fn thread_arg(threads: Option<CountArg>) -> PyResult<usize> {
    let requested = threads.map(|t| positive("threads", t)).transpose()?;
    Ok(crate::core::batch::thread_count(
        requested.map(|t| t as usize),
    ))
}

/// A fresh seed from the OS-seeded hasher keys, for `seed=None`.
fn fresh_seed() -> u64 {
    RandomState::new().build_hasher().finish()
}

/// A `seed=` argument: any int in 0..2**64, or None for a fresh one.
pub(crate) fn seed_arg(seed: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
    let seed = match seed {
        Some(s) if !s.is_none() => s,
        _ => return Ok(fresh_seed()),
    };
    // Any int, numpy's too (as for every other int option), but not a bool.
    let type_error = || {
        let name = seed
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default();
        PyTypeError::new_err(format!("seed must be an int or None, got {name}"))
    };
    if seed.is_instance_of::<PyBool>() {
        return Err(type_error());
    }
    seed.extract::<u64>().map_err(|err| {
        if err.is_instance_of::<PyOverflowError>(seed.py()) {
            PyValueError::new_err(format!("seed must be an int in 0..2**64, got {seed}"))
        } else {
            type_error()
        }
    })
}

/// The first solution of `grid`, in the same kind as the input. `max_guesses` bounds the
/// search: a puzzle that needs more guesses raises `GuessLimitError`, never a wrong answer.
#[pyfunction]
#[pyo3(signature = (grid, /, *, r#box = None, max_guesses = None, rules = None))]
fn solve<'py>(
    grid: &Bound<'py, PyAny>,
    r#box: Option<(i64, i64)>,
    max_guesses: Option<CountArg>,
    rules: Option<Bound<'py, rules::Rules>>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = grid.py();
    let max_guesses = guess_budget(max_guesses)?;
    let rules = rules::rules_arg(rules.as_ref().map(Bound::get));
    let input = rules::read(grid, r#box, rules.as_deref())?;
    let solution = run::detached_with(
        py,
        &input.grid,
        max_guesses,
        rules,
        |solver, grid, control| solver.solve(grid, control),
    )?;
    input.kind.write(py, solution.cells())
}

/// Up to `limit` solutions, in search order; the first is `solve(grid)`. Past `max_guesses`
/// guesses: `GuessLimitError`, not the solutions found so far.
#[pyfunction]
#[pyo3(signature = (grid, /, *, limit = 10, r#box = None, max_guesses = None, rules = None))]
fn solutions<'py>(
    grid: &Bound<'py, PyAny>,
    limit: i64,
    r#box: Option<(i64, i64)>,
    max_guesses: Option<CountArg>,
    rules: Option<Bound<'py, rules::Rules>>,
) -> PyResult<Bound<'py, PyList>> {
    let py = grid.py();
    let limit = positive("limit", limit)?;
    let max_guesses = guess_budget(max_guesses)?;
    let rules = rules::rules_arg(rules.as_ref().map(Bound::get));
    let input = rules::read(grid, r#box, rules.as_deref())?;
    let limit = usize::try_from(limit).unwrap_or(usize::MAX);
    let found: Vec<Grid> = run::detached_with(
        py,
        &input.grid,
        max_guesses,
        rules,
        |solver, grid, control| solver.solutions(grid, limit, control),
    )?;
    let items = found
        .iter()
        .map(|g| input.kind.write(py, g.cells()))
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, items)
}

/// The number of solutions, stopping at `limit` when one is given. Past `max_guesses` guesses:
/// `GuessLimitError`, never a partial count.
#[pyfunction]
#[pyo3(signature = (grid, /, *, limit = None, r#box = None, max_guesses = None, rules = None))]
fn count_solutions(
    grid: &Bound<'_, PyAny>,
    limit: Option<i64>,
    r#box: Option<(i64, i64)>,
    max_guesses: Option<CountArg>,
    rules: Option<Bound<'_, rules::Rules>>,
) -> PyResult<u64> {
    let limit = limit.map(|l| positive("limit", l)).transpose()?;
    let max_guesses = guess_budget(max_guesses)?;
    let rules = rules::rules_arg(rules.as_ref().map(Bound::get));
    let input = rules::read(grid, r#box, rules.as_deref())?;
    run::detached_with(
        grid.py(),
        &input.grid,
        max_guesses,
        rules,
        |solver, grid, control| solver.count(grid.cells(), limit, control),
    )
}

/// Whether the grid has exactly one solution; `GuessLimitError` past `max_guesses` guesses.
#[pyfunction]
#[pyo3(signature = (grid, /, *, r#box = None, max_guesses = None, rules = None))]
fn is_unique(
    grid: &Bound<'_, PyAny>,
    r#box: Option<(i64, i64)>,
    max_guesses: Option<CountArg>,
    rules: Option<Bound<'_, rules::Rules>>,
) -> PyResult<bool> {
    Ok(count_solutions(grid, Some(2), r#box, max_guesses, rules)? == 1)
}

/// Whether the grid is well formed and no two equal clues share a row, column or box (or
/// break a variant rule of `rules`). Says nothing about solvability; values of the wrong type
/// still raise `TypeError`, and rules that do not fit the grid `InvalidRulesError`.
#[pyfunction]
#[pyo3(signature = (grid, /, *, r#box = None, rules = None))]
fn is_valid(
    grid: &Bound<'_, PyAny>,
    r#box: Option<(i64, i64)>,
    rules: Option<Bound<'_, rules::Rules>>,
) -> PyResult<bool> {
    let py = grid.py();
    let rules = rules::rules_arg(rules.as_ref().map(Bound::get));
    match rules::read(grid, r#box, rules.as_deref()) {
        Ok(input) => Ok(match &rules {
            None => input.grid.check().is_ok(),
            Some(rules) => {
                crate::core::rules::find_conflict(input.grid.shape(), rules, input.grid.cells())
                    .is_none()
            }
        }),
        Err(err) if err.is_instance_of::<InvalidPuzzleError>(py) => Ok(false),
        Err(err) => Err(err),
    }
}

#[pymodule]
mod _sudoku_rs {
    use pyo3::prelude::*;

    #[pymodule_export]
    use super::augment::augment_batch;
    #[pymodule_export]
    use super::batch::{_count_solutions_batch, _solve_batch};
    #[pymodule_export]
    use super::board::_read_grid;
    #[pymodule_export]
    use super::canonical::{_canonical_batch, canonical};
    #[pymodule_export]
    use super::check::_check_batch;
    #[pymodule_export]
    use super::errors::{GenerateError, InvalidCandidatesError};
    #[pymodule_export]
    use super::generate::{_generate, _generate_batch};
    #[pymodule_export]
    use super::lines::{_format_lines, _parse_lines};
    #[pymodule_export]
    use super::logic::{
        _candidates, _candidates_batch, _explain, _format_candidates, _grade, _hint,
        _parse_candidates, _techniques,
    };
    #[pymodule_export]
    use super::rate::{_rate, _rate_batch};
    #[pymodule_export]
    use super::rules::Rules;
    #[pymodule_export]
    use super::transform::Transform;
    #[pymodule_export]
    use super::{
        count_solutions, is_unique, is_valid, solutions, solve, GuessLimitError,
        InvalidPuzzleError, InvalidRulesError, NoSolutionError, SudokuError,
    };

    #[pymodule_init]
    fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
        m.add("__version__", env!("CARGO_PKG_VERSION"))
    }
}
