//! Search traces and logical steps as token ids (see `core::search::trace` for the
//! vocabulary): `search_trace`, `search_trace_batch` and `logic_trace_batch`, whose Python
//! wrappers in `sudoku_rs/_trace.py` pad the flat columns returned here.

use numpy::PyArray1;
use pyo3::prelude::*;

use crate::core::logic::tokens::{states_after, step_tokens};
use crate::core::search::trace::Tokens;
use crate::core::{Control, Error, Grid, Solver, Status};

use super::alloc;
use super::args::{BoxArg, MaxGuesses, Names, Threads};
use super::batch::{open, run};
use super::logic::techniques_arg;
use super::logic_batch::{explain_one, failed_row, grade_row, GradeColumnsBuf, GRADE_STRIDE};
use super::request::Request;
use super::rules::RulesArg;

/// The request of a trace: variant rules are refused, since only the classic engines are
/// traced.
fn classic_only(r#box: Option<BoxArg>, rules: Option<RulesArg>) -> PyResult<Request> {
    let request = Request::new(r#box, rules)?;
    match request.rules() {
        None => Ok(request),
        Some(_) => Err(Error::Rules(
            "search traces follow the classic engines; variant rules are not traced".into(),
        )
        .into()),
    }
}

/// The trace of one search, its last token `SOLVED` or `NO_SOLUTION`.
fn trace_one(
    solver: &mut Solver,
    n: usize,
    cells: &[u8],
    control: &mut dyn Control,
) -> Result<Tokens, Error> {
    let mut tokens = Tokens::new(n);
    if !solver.trace(cells, &mut tokens, control)? {
        tokens.no_solution();
    }
    Ok(tokens)
}

fn overflowed(what: &str) -> PyErr {
    alloc::too_big(what)
}

/// The search trace of one grid as a 1-D uint8 array; see `sudoku_rs.search_trace`.
#[pyfunction]
#[pyo3(signature = (grid, /, *, r#box = None, max_guesses = None, rules = None))]
pub fn _search_trace<'py>(
    grid: &Bound<'py, PyAny>,
    r#box: Option<BoxArg>,
    max_guesses: Option<MaxGuesses>,
    rules: Option<RulesArg>,
) -> PyResult<Bound<'py, PyArray1<u8>>> {
    super::guard::entry(|| {
        let py = grid.py();
        let input = classic_only(r#box, rules)?.read(grid)?;
        let n = input.grid.shape().size();
        let tokens = super::run::search(
            py,
            &input.grid,
            super::args::budget(max_guesses),
            None,
            |solver, grid, control| trace_one(solver, n, grid.cells(), control),
        )?;
        if tokens.overflow {
            return Err(overflowed("the tokens of the trace"));
        }
        alloc::from_slice(py, &tokens.ids)
    })
}

/// One row of a search trace batch.
#[derive(Clone, Default)]
struct TraceRow {
    ids: Vec<u8>,
    overflow: bool,
    status: i8,
}

type SearchTraces<'py> = (
    Bound<'py, PyArray1<u8>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i8>>,
);

/// (every row's tokens back to back, each row's token count, each row's status code); see
/// `sudoku_rs.search_trace_batch`.
#[pyfunction]
#[pyo3(signature = (puzzles, /, *, r#box = None, max_guesses = None, rules = None,
    threads = None, progress = None))]
pub fn _search_trace_batch<'py>(
    puzzles: &Bound<'py, PyAny>,
    r#box: Option<BoxArg>,
    max_guesses: Option<MaxGuesses>,
    rules: Option<RulesArg>,
    threads: Option<Threads>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<SearchTraces<'py>> {
    super::guard::entry(|| {
        let request = classic_only(r#box, rules)?;
        let max_guesses = super::args::budget(max_guesses);
        super::entry::batch(puzzles, progress, "tracing", |puzzles, update| {
            let py = puzzles.py();
            let batch = open(puzzles, &request)?;
            let n = batch.shape.size();
            let what = || format!("traces of {} rows", batch.count);
            let (mut ids, mut lengths, mut codes) = (Vec::new(), Vec::new(), Vec::new());
            alloc::reserve(&mut lengths, batch.count, what)?;
            alloc::reserve(&mut codes, batch.count, what)?;
            let work = |solver: &mut Solver,
                        _: usize,
                        puzzle: &[u8],
                        out: &mut [TraceRow],
                        control: &mut dyn Control| {
                solver.set_max_guesses(max_guesses);
                let row = &mut out[0];
                match trace_one(solver, n, puzzle, control) {
                    Ok(tokens) => {
                        let solved = tokens.ids.last() == Some(&crate::core::search::trace::SOLVED);
                        let status = if solved {
                            Status::Solved
                        } else {
                            Status::NoSolution
                        };
                        *row = TraceRow {
                            ids: tokens.ids,
                            overflow: tokens.overflow,
                            status: status.code(),
                        };
                    }
                    Err(err) => row.status = Status::of_error(&err).code(),
                }
            };
            run(
                py,
                &batch,
                threads,
                update,
                1,
                work,
                |_, rows: &[TraceRow], valid| {
                    for (row, &ok) in rows.iter().zip(valid) {
                        if row.overflow {
                            return Err(overflowed(&what()));
                        }
                        alloc::reserve(&mut ids, row.ids.len(), what)?;
                        ids.extend_from_slice(&row.ids);
                        lengths.push(row.ids.len() as i64);
                        codes.push(if ok {
                            row.status
                        } else {
                            Status::Invalid.code()
                        });
                    }
                    Ok(())
                },
            )?;
            Ok((
                alloc::from_slice(py, &ids)?,
                alloc::from_slice(py, &lengths)?,
                alloc::from_slice(py, &codes)?,
            ))
        })
    })
}

/// One row of a logic trace batch: its steps' tokens and token counts, the states after them
/// (when asked for) and its grade row.
#[derive(Clone, Default)]
struct StepsRow {
    tokens: Vec<u8>,
    lengths: Vec<u32>,
    grids: Vec<u8>,
    marks: Vec<bool>,
    overflow: bool,
    grade: [i64; GRADE_STRIDE],
}

type LogicTraces<'py> = (
    Bound<'py, PyArray1<u8>>,
    Bound<'py, PyArray1<u32>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<u8>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyAny>,
    usize,
);

/// (every step's tokens back to back, each step's token count, each step's puzzle index, the
/// grids after the steps, their marks (both empty without `states`), the grades as
/// `grade_batch` returns them, the grid side); see `sudoku_rs.logic_trace_batch`.
#[pyfunction]
#[pyo3(signature = (puzzles, /, *, r#box = None, techniques = None, states = false,
    threads = None, progress = None))]
pub fn _logic_trace_batch<'py>(
    puzzles: &Bound<'py, PyAny>,
    r#box: Option<BoxArg>,
    techniques: Option<Names>,
    states: bool,
    threads: Option<Threads>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<LogicTraces<'py>> {
    super::guard::entry(|| {
        super::entry::batch(puzzles, progress, "explaining", |puzzles, update| {
            let py = puzzles.py();
            let techniques = techniques_arg(techniques)?;
            let batch = open(puzzles, &Request::classic(r#box)?)?;
            let (shape, n) = (batch.shape, batch.shape.size());
            let mut columns = GradeColumnsBuf::default();
            columns.reserve(batch.count)?;
            let what = || format!("step traces of {} rows", batch.count);
            let (mut tokens, mut lengths, mut index) = (Vec::new(), Vec::new(), Vec::new());
            let (mut grids, mut marks) = (Vec::new(), Vec::new());
            let work = |solver: &mut Solver,
                        _: usize,
                        puzzle: &[u8],
                        out: &mut [StepsRow],
                        control: &mut dyn Control| {
                let row = &mut out[0];
                match explain_one(shape, puzzle, techniques, true, solver, control) {
                    Ok((steps, grade)) => {
                        let mut ids = Tokens::new(n);
                        step_tokens(n, &steps, &mut ids, &mut row.lengths);
                        row.overflow = ids.overflow;
                        row.tokens = ids.ids;
                        if states {
                            let grid = Grid::new(shape, puzzle.to_vec())
                                .expect("an explained puzzle is a grid");
                            states_after(&grid, &steps, &mut row.grids, &mut row.marks);
                        }
                        grade_row(&grade, &mut row.grade);
                    }
                    Err(err) => failed_row(&err, &mut row.grade),
                }
            };
            run(
                py,
                &batch,
                threads,
                update,
                1,
                work,
                |start, rows: &[StepsRow], valid| {
                    for (k, (row, &ok)) in rows.iter().zip(valid).enumerate() {
                        columns.push(&row.grade, ok);
                        if row.overflow {
                            return Err(overflowed(&what()));
                        }
                        alloc::reserve(&mut tokens, row.tokens.len(), what)?;
                        alloc::reserve(&mut lengths, row.lengths.len(), what)?;
                        alloc::reserve(&mut index, row.lengths.len(), what)?;
                        alloc::reserve(&mut grids, row.grids.len(), what)?;
                        alloc::reserve(&mut marks, row.marks.len(), what)?;
                        tokens.extend_from_slice(&row.tokens);
                        lengths.extend_from_slice(&row.lengths);
                        index.resize(index.len() + row.lengths.len(), (start + k) as i64);
                        grids.extend_from_slice(&row.grids);
                        marks.extend_from_slice(&row.marks);
                    }
                    Ok(())
                },
            )?;
            Ok((
                alloc::from_slice(py, &tokens)?,
                alloc::from_slice(py, &lengths)?,
                alloc::from_slice(py, &index)?,
                alloc::from_slice(py, &grids)?,
                alloc::from_slice(py, &marks)?,
                columns.into_records(py)?,
                n,
            ))
        })
    })
}
