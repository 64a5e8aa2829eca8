//! The pyo3 binding: each function converts its input, runs the core with the GIL released,
//! and maps core errors to Python exceptions. No solving logic lives here.

mod alloc;
mod args;
mod augment;
mod batch;
mod board;
mod canonical;
mod cell_objects;
mod check;
mod chunks;
mod constants;
mod dtype;
mod entry;
mod errors;
mod generate;
mod guard;
mod input;
mod lines;
mod logic;
mod logic_batch;
mod one_row;
mod pystr;
mod rate;
mod rules;
mod run;
mod solutions;
mod transform;

use pyo3::prelude::*;

use args::{BoxArg, Limit, MaxGuesses};
use errors::{
    GuessLimitError, InvalidPuzzleError, InvalidRulesError, NoSolutionError, SudokuError,
};
use input::Input;

fn read<'py>(grid: &Bound<'py, PyAny>, requested_box: Option<BoxArg>) -> PyResult<Input<'py>> {
    input::read(grid, BoxArg::request(requested_box)?)
}

/// An optional `max_guesses=` as the solver takes it.
fn budget(max_guesses: Option<MaxGuesses>) -> Option<u64> {
    max_guesses.unwrap_or_default().0
}

/// The first solution of `grid`, in the same kind as the input. `max_guesses` bounds the
/// search: a puzzle that needs more guesses raises `GuessLimitError`, never a wrong answer.
#[pyfunction]
#[pyo3(signature = (grid, /, *, r#box = None, max_guesses = None, rules = None))]
fn solve<'py>(
    grid: &Bound<'py, PyAny>,
    r#box: Option<BoxArg>,
    max_guesses: Option<MaxGuesses>,
    rules: Option<rules::RulesArg>,
) -> PyResult<Bound<'py, PyAny>> {
    guard::entry(|| {
        let py = grid.py();
        let rules = rules::RulesArg::core(rules);
        let input = rules::read(grid, r#box, rules.as_deref())?;
        let solution = run::search(
            py,
            &input.grid,
            budget(max_guesses),
            rules,
            |solver, grid, control| {
                // The cells alone: a Grid would check them again.
                let mut out = vec![0; grid.cells().len()];
                match solver.solve_into(grid.cells(), &mut out, control)? {
                    true => Ok(out),
                    false => Err(crate::core::Error::NoSolution),
                }
            },
        )?;
        input.kind.write(py, &solution)
    })
}

/// The number of solutions, stopping at `limit` when one is given. Past `max_guesses` guesses:
/// `GuessLimitError`, never a partial count.
#[pyfunction]
#[pyo3(signature = (grid, /, *, limit = None, r#box = None, max_guesses = None, rules = None))]
fn count_solutions(
    grid: &Bound<'_, PyAny>,
    limit: Option<Limit>,
    r#box: Option<BoxArg>,
    max_guesses: Option<MaxGuesses>,
    rules: Option<rules::RulesArg>,
) -> PyResult<u64> {
    guard::entry(|| {
        let limit = limit.and_then(|l| l.0);
        let rules = rules::RulesArg::core(rules);
        let input = rules::read(grid, r#box, rules.as_deref())?;
        run::search(
            grid.py(),
            &input.grid,
            budget(max_guesses),
            rules,
            |solver, grid, control| solver.count(grid.cells(), limit, control),
        )
    })
}

/// Whether the grid has exactly one solution; `GuessLimitError` past `max_guesses` guesses.
#[pyfunction]
#[pyo3(signature = (grid, /, *, r#box = None, max_guesses = None, rules = None))]
fn is_unique(
    grid: &Bound<'_, PyAny>,
    r#box: Option<BoxArg>,
    max_guesses: Option<MaxGuesses>,
    rules: Option<rules::RulesArg>,
) -> PyResult<bool> {
    Ok(count_solutions(grid, Some(Limit(Some(2))), r#box, max_guesses, rules)? == 1)
}

/// Whether the grid is well formed and no two equal clues share a row, column or box (or
/// break a variant rule of `rules`). Says nothing about solvability; values of the wrong type
/// still raise `TypeError`, and rules that do not fit the grid `InvalidRulesError`.
#[pyfunction]
#[pyo3(signature = (grid, /, *, r#box = None, rules = None))]
fn is_valid(
    grid: &Bound<'_, PyAny>,
    r#box: Option<BoxArg>,
    rules: Option<rules::RulesArg>,
) -> PyResult<bool> {
    guard::entry(|| {
        let py = grid.py();
        let rules = rules::RulesArg::core(rules);
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
    })
}

#[pymodule]
mod _sudoku_rs {
    use pyo3::prelude::*;

    #[pymodule_export]
    use super::augment::augment_batch;
    #[pymodule_export]
    use super::batch::{count_solutions_batch, solve_batch};
    #[pymodule_export]
    use super::board::{_apply_step, _conflicts, _read_grid};
    #[pymodule_export]
    use super::canonical::{canonical, canonical_batch};
    #[pymodule_export]
    use super::check::_check_batch;
    #[pymodule_export]
    use super::entry::_check_batch_shape;
    #[pymodule_export]
    use super::errors::{GenerateError, InvalidCandidatesError};
    #[pymodule_export]
    use super::generate::{_generate, _generate_batch};
    #[pymodule_export]
    use super::lines::{_format_lines, _parse_lines};
    #[pymodule_export]
    use super::logic::{
        _candidates, _explain, _format_candidates, _grade, _hint, _parse_candidates, _techniques,
        candidates_batch,
    };
    #[pymodule_export]
    use super::logic_batch::{_explain_batch, _grade_batch};
    #[pymodule_export]
    use super::rate::{_rate, _rate_batch};
    #[pymodule_export]
    use super::rules::Rules;
    #[pymodule_export]
    use super::solutions::{iter_solutions, solutions, SolutionIterator};
    #[pymodule_export]
    use super::transform::Transform;
    #[pymodule_export]
    use super::{
        count_solutions, is_unique, is_valid, solve, GuessLimitError, InvalidPuzzleError,
        InvalidRulesError, NoSolutionError, SudokuError,
    };

    #[pymodule_init]
    fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
        m.add("__version__", env!("CARGO_PKG_VERSION"))?;
        super::constants::add(m)
    }
}
