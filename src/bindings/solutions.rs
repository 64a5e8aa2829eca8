//! `solutions` and `iter_solutions`: many solutions of one grid, held in memory that is
//! allocated fallibly (10**7 solutions of an empty grid are a `MemoryError`, not an abort).
//!
//! Order: up to the solver's restart limit the solutions come as `Solver::solutions` gives them
//! (the first is `solve`'s). Past it they are kept one search long, so the first solution is
//! found as `solve` finds it, and the rest follow in plain search order, without it: restarts
//! would have to remember every solution seen, which "all solutions of this 16x16" cannot afford.

use pyo3::prelude::*;
use pyo3::types::PyList;

use crate::core::search::solver::MAX_RESTART_LIMIT;
use crate::core::{Control, Error, Flow, Grid, Solver};

use super::alloc;
use super::args::{BoxArg, Limit, MaxGuesses};

/// Up to `limit` solutions of `cells` in the order described above, appended to `out`; `false`
/// when `out` could not grow (the search stops there).
fn find(
    solver: &mut Solver,
    cells: &[u8],
    limit: u64,
    control: &mut dyn Control,
    out: &mut Vec<u8>,
) -> Result<bool, Error> {
    let nc = cells.len();
    let grid = Grid::new(solver.shape(), cells.to_vec())?;
    if limit <= MAX_RESTART_LIMIT {
        for solution in solver.solutions(&grid, limit as usize, control)? {
            if out.try_reserve(nc).is_err() {
                return Ok(false);
            }
            out.extend_from_slice(solution.cells());
        }
        return Ok(true);
    }
    let Some(first) = solver.solutions(&grid, 1, control)?.pop() else {
        return Ok(true);
    };
    out.extend_from_slice(first.cells());
    let (mut taken, mut fits) = (1u64, true);
    solver.search(cells, control, |solution| {
        if solution == first.cells() {
            return Flow::Continue;
        }
        if out.try_reserve(nc).is_err() {
            fits = false;
            return Flow::Stop;
        }
        out.extend_from_slice(solution);
        taken += 1;
        if taken >= limit {
            Flow::Stop
        } else {
            Flow::Continue
        }
    })?;
    Ok(fits)
}

/// Up to `limit` solutions (`None`: all), in search order; the first is `solve(grid)`. Past
/// `max_guesses` guesses: `GuessLimitError`, not the solutions found so far.
#[pyfunction]
#[pyo3(
    signature = (grid, /, *, limit = Limit(Some(10)), r#box = None, max_guesses = None),
    text_signature = "(grid, /, *, limit=10, box=None, max_guesses=None)"
)]
pub fn solutions<'py>(
    grid: &Bound<'py, PyAny>,
    limit: Limit,
    r#box: Option<BoxArg>,
    max_guesses: Option<MaxGuesses>,
) -> PyResult<Bound<'py, PyList>> {
    super::guard::entry(|| {
        let py = grid.py();
        let input = super::read(grid, r#box)?;
        let limit = limit.0.unwrap_or(u64::MAX);
        let (cells, fits) = super::run::detached(
            py,
            &input.grid,
            super::budget(max_guesses),
            |solver, grid, control| {
                let mut out = Vec::new();
                find(solver, grid.cells(), limit, control, &mut out).map(|fits| (out, fits))
            },
        )?;
        if !fits {
            return Err(alloc::too_big(&match limit {
                u64::MAX => "all the solutions".to_string(),
                _ => format!("{limit} solutions"),
            }));
        }
        let list = PyList::empty(py);
        for solution in cells.chunks(input.grid.cells().len()) {
            list.append(input.kind.write(py, solution)?)?;
        }
        Ok(list)
    })
}
