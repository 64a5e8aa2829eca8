//! Search traces and logical steps as token ids (see `core::search::trace` for the
//! vocabulary): `search_trace`, and the compiled batches `search_trace_batch` and
//! `logic_trace_batch`, whose rows of tokens are padded here into one array (their result
//! classes, `SearchTraces` and `LogicTraces`, are in `sudoku_rs/_trace.py`).

use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;

use crate::core::logic::tokens::{states_after, step_tokens};
use crate::core::search::trace::Tokens;
use crate::core::{Control, Error, Grid, Solver, Status};

use super::alloc;
use super::args::{BoxArg, MaxGuesses, Names, Threads};
use super::batch::{open, run_each};
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
            return Err(alloc::too_big("the tokens of the trace"));
        }
        alloc::from_slice(py, &tokens.ids)
    })
}

/// Rows of tokens gathered chunk by chunk, back to back, with each row's length; every buffer
/// grows fallibly, and the rows are padded into one array at the end ([`TokenRows::padded`]).
/// The one owner of token rows for both trace batches: a search trace is one row, a logical
/// step one row.
struct TokenRows<F: Fn() -> String> {
    ids: Vec<u8>,
    lengths: Vec<usize>,
    /// What the rows are, for a `MemoryError`.
    what: F,
}

impl<F: Fn() -> String> TokenRows<F> {
    fn new(what: F) -> Self {
        TokenRows {
            ids: Vec::new(),
            lengths: Vec::new(),
            what,
        }
    }

    /// Adds `ids` as rows of `lengths` tokens each; tokens that overflowed their counter are a
    /// `MemoryError` (the trace could not be held).
    fn push(&mut self, ids: &[u8], lengths: &[usize], overflow: bool) -> PyResult<()> {
        if overflow {
            return Err(alloc::too_big(&(self.what)()));
        }
        alloc::reserve(&mut self.ids, ids.len(), &self.what)?;
        alloc::reserve(&mut self.lengths, lengths.len(), &self.what)?;
        self.ids.extend_from_slice(ids);
        self.lengths.extend_from_slice(lengths);
        Ok(())
    }

    /// Each row's length as `T`.
    fn lengths<'py, T: numpy::Element + Copy + TryFrom<usize>>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Bound<'py, PyArray1<T>>> {
        let mut out = Vec::new();
        alloc::reserve(&mut out, self.lengths.len(), &self.what)?;
        for &len in &self.lengths {
            out.push(T::try_from(len).map_err(|_| alloc::too_big(&(self.what)()))?);
        }
        alloc::from_slice(py, &out)
    }

    /// The rows as a uint8 array (rows, longest row), padded with `PAD` (0).
    fn padded<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let (rows, width) = (self.lengths.len(), self.lengths.iter().copied().max());
        let width = width.unwrap_or(0);
        let out = alloc::zeros::<u8>(py, alloc::product(rows, width, &self.what)?)?;
        {
            // SAFETY: the array was made just above and no other reference to it exists yet.
            let slots = unsafe { out.as_slice_mut() }.expect("a new array is contiguous");
            let mut at = 0;
            for (slot, &len) in slots.chunks_mut(width.max(1)).zip(&self.lengths) {
                slot[..len].copy_from_slice(&self.ids[at..at + len]);
                at += len;
            }
        }
        Ok(out.reshape([rows, width])?.into_any())
    }
}

/// The result class `name` of `sudoku_rs._trace`, imported once per class.
fn result_class<'py>(
    py: Python<'py>,
    cell: &'static PyOnceLock<Py<PyAny>>,
    name: &str,
) -> PyResult<&'py Bound<'py, PyAny>> {
    cell.import(py, "sudoku_rs._trace", name)
}

/// One row of a search trace batch.
#[derive(Clone, Default)]
struct TraceRow {
    ids: Vec<u8>,
    overflow: bool,
    status: i8,
}

/// :func:`search_trace` of every puzzle of a batch on every core: a padded uint8 array and
/// each row's length and status (see :class:`SearchTraces`). Each trace is the same for every
/// thread count. One very long trace makes the whole array as wide as it: ``max_guesses``
/// bounds every row (a row past it gets status ``GUESS_LIMIT`` and no tokens). Batches are
/// taken as :func:`solve_batch` takes them; ``progress=True`` shows a bar.
#[pyfunction]
#[pyo3(
    signature = (puzzles, /, *, rules = None, r#box = None, max_guesses = None, threads = None,
                 progress = None),
    text_signature = "(puzzles, /, *, rules=None, box=None, max_guesses=None, threads=None, \
                      progress=False)"
)]
pub fn search_trace_batch<'py>(
    puzzles: &Bound<'py, PyAny>,
    rules: Option<RulesArg>,
    r#box: Option<BoxArg>,
    max_guesses: Option<MaxGuesses>,
    threads: Option<Threads>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    super::guard::entry(|| {
        static SEARCH_TRACES: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
        let request = classic_only(r#box, rules)?;
        let max_guesses = super::args::budget(max_guesses);
        super::entry::batch(puzzles, progress, "tracing", |puzzles, update| {
            let py = puzzles.py();
            let batch = open(puzzles, &request)?;
            let n = batch.shape.size();
            let mut rows = TokenRows::new(|| format!("traces of {} rows", batch.count));
            let mut codes = alloc::filled(batch.count, Status::Invalid.code(), rows.what)?;
            // One row a puzzle: its length's room taken before any puzzle is traced.
            alloc::reserve(&mut rows.lengths, batch.count, rows.what)?;
            let work = |solver: &mut Solver,
                        _: usize,
                        puzzle: &[u8],
                        row: &mut TraceRow,
                        control: &mut dyn Control| {
                solver.set_max_guesses(max_guesses);
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
                    Err(err) => {
                        *row = TraceRow {
                            status: Status::of_error(&err).code(),
                            ..TraceRow::default()
                        };
                    }
                }
            };
            run_each(
                py,
                &batch,
                threads,
                update,
                work,
                |i, row: &TraceRow, ok| {
                    // A refused row was never worked on: no tokens, status invalid.
                    rows.push(&row.ids, &[row.ids.len()], row.overflow)?;
                    if ok {
                        codes[i] = row.status;
                    }
                    Ok(())
                },
            )?;
            result_class(py, &SEARCH_TRACES, "SearchTraces")?.call1((
                rows.padded(py)?,
                rows.lengths::<i64>(py)?,
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
    lengths: Vec<usize>,
    grids: Vec<u8>,
    marks: Vec<bool>,
    overflow: bool,
    grade: [i64; GRADE_STRIDE],
}

/// The logical steps of every puzzle (those of :func:`explain_batch`) as token ids, in the
/// vocabulary of :func:`search_trace`, and with ``states=True`` the grid and the pencil marks
/// after every step (for probing and trace training); see :class:`LogicTraces`. The marks
/// start from the candidates the givens leave, as :func:`explain` does, and the steps apply
/// as ``Board`` replays them. Each puzzle is explained on its own: the result is the same for
/// every thread count. ``states=True`` holds n**3 bytes a step (729 on 9x9).
/// ``progress=True`` shows a bar.
#[pyfunction]
#[pyo3(
    signature = (puzzles, /, *, r#box = None, techniques = None, states = false, threads = None,
                 progress = None),
    text_signature = "(puzzles, /, *, box=None, techniques=None, states=False, threads=None, \
                      progress=False)"
)]
pub fn logic_trace_batch<'py>(
    puzzles: &Bound<'py, PyAny>,
    r#box: Option<BoxArg>,
    techniques: Option<Names>,
    states: bool,
    threads: Option<Threads>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    super::guard::entry(|| {
        static LOGIC_TRACES: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
        super::entry::batch(puzzles, progress, "explaining", |puzzles, update| {
            let py = puzzles.py();
            let techniques = techniques_arg(techniques)?;
            let batch = open(puzzles, &Request::classic(r#box)?)?;
            let (shape, n) = (batch.shape, batch.shape.size());
            let mut columns = GradeColumnsBuf::default();
            columns.reserve(batch.count)?;
            let mut rows = TokenRows::new(|| format!("step traces of {} rows", batch.count));
            let (mut index, mut number) = (Vec::<i64>::new(), Vec::<i32>::new());
            let (mut grids, mut marks) = (Vec::new(), Vec::new());
            let work = |solver: &mut Solver,
                        _: usize,
                        puzzle: &[u8],
                        row: &mut StepsRow,
                        control: &mut dyn Control| {
                match explain_one(shape, puzzle, techniques, true, solver, control) {
                    Ok((steps, grade)) => {
                        let (mut ids, mut lengths) = (Tokens::new(n), Vec::new());
                        step_tokens(n, &steps, &mut ids, &mut lengths);
                        row.lengths = lengths.into_iter().map(|len| len as usize).collect();
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
            run_each(
                py,
                &batch,
                threads,
                update,
                work,
                |i, row: &StepsRow, ok| {
                    columns.push(&row.grade, ok);
                    rows.push(&row.tokens, &row.lengths, row.overflow)?;
                    let steps = row.lengths.len();
                    alloc::reserve(&mut index, steps, rows.what)?;
                    alloc::reserve(&mut number, steps, rows.what)?;
                    alloc::reserve(&mut grids, row.grids.len(), rows.what)?;
                    alloc::reserve(&mut marks, row.marks.len(), rows.what)?;
                    index.resize(index.len() + steps, i as i64);
                    number.extend((0..steps).map(|step| step as i32));
                    grids.extend_from_slice(&row.grids);
                    marks.extend_from_slice(&row.marks);
                    Ok(())
                },
            )?;
            let count = index.len();
            let (grids, marks) = if states {
                (
                    alloc::from_slice(py, &grids)?
                        .reshape([count, n, n])?
                        .into_any(),
                    alloc::from_slice(py, &marks)?
                        .reshape([count, n, n, n])?
                        .into_any(),
                )
            } else {
                (py.None().into_bound(py), py.None().into_bound(py))
            };
            result_class(py, &LOGIC_TRACES, "LogicTraces")?.call1((
                rows.padded(py)?,
                rows.lengths::<i32>(py)?,
                alloc::from_slice(py, &index)?,
                alloc::from_slice(py, &number)?,
                grids,
                marks,
                columns.into_records(py)?,
            ))
        })
    })
}
