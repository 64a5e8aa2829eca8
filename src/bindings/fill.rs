//! `fill_from_solution`: puzzles given more of their solution's digits, row by row on every
//! core (the core's `make::fill_from_solution` on the chunk runner). A row whose input is wrong
//! (a solution that does not solve its puzzle, more givens than `clues`) raises naming it; a
//! row that cannot be filled as asked raises too, unless `status=True` asks for a status per row.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::core::make::fill_from_solution::{fill_row, FillError, FillTerms};
use crate::core::search::Unbounded;
use crate::core::{grid::find_conflict, BoxShape, Control, Error, Solver, Status};

use super::alloc;
use super::args::{cell_count, BoxArg, Seed, Threads};
use super::batch::{open, run_to_grids, Batch};
use super::errors::{InvalidPuzzleError, NoSolutionError, SudokuError};
use super::request::Request;

/// Codes a row's work writes after its cells for input errors, past every status code.
const MORE_GIVENS: u8 = 100;
const NOT_A_SOLUTION: u8 = 101;

/// The clue count every row ends with, from exactly one of `clues=` and `empty=`.
fn clue_target<'py>(
    shape: BoxShape,
    clues: Option<&Bound<'py, PyAny>>,
    empty: Option<&Bound<'py, PyAny>>,
) -> PyResult<usize> {
    let given = |arg: Option<&Bound<'py, PyAny>>| arg.filter(|a| !a.is_none()).cloned();
    let (n, nc) = (shape.size(), shape.cell_count());
    let within = |name: &str, value: u64| -> PyResult<usize> {
        match usize::try_from(value) {
            Ok(v) if v <= nc => Ok(v),
            _ => Err(PyValueError::new_err(format!(
                "{name}={value} is more than the {nc} cells of a {n}x{n} grid"
            ))),
        }
    };
    match (given(clues), given(empty)) {
        (Some(clues), None) => within("clues", cell_count(&clues, "clues")?.0),
        (None, Some(empty)) => Ok(nc - within("empty", cell_count(&empty, "empty")?.0)?),
        _ => Err(PyValueError::new_err(
            "give exactly one of clues= (the givens each row ends with) and empty= (the blanks \
             it keeps)",
        )),
    }
}

/// The solutions batch, read whole (one byte per cell), checked to pair up with the puzzles.
fn read_solutions<'py>(puzzles: &Batch<'py>, solutions: &Bound<'py, PyAny>) -> PyResult<Vec<u8>> {
    let py = solutions.py();
    let shape = puzzles.shape;
    let solutions = &super::entry::as_batch(solutions)?;
    let n = shape.size();
    let mismatch = |theirs: String| -> PyResult<PyErr> {
        Ok(Error::Shape(format!(
            "solutions must hold one {n}x{n} grid per puzzle: puzzles has shape {}, solutions \
             {theirs}",
            puzzles.describe()?
        ))
        .into())
    };
    let batch = match open(solutions, &Request::of_shape(shape)) {
        Ok(batch) => batch.strict("solutions"),
        Err(err) if err.is_instance_of::<InvalidPuzzleError>(py) => {
            return Err(mismatch(err.value(py).to_string())?)
        }
        Err(err) => return Err(err),
    };
    if batch.count != puzzles.count || batch.shape != shape {
        return Err(mismatch(batch.describe()?)?);
    }
    let len = alloc::product(batch.count, shape.cell_count(), || {
        format!("{} solutions", batch.count)
    })?;
    let mut cells = Vec::new();
    alloc::reserve(&mut cells, len, || format!("{} solutions", batch.count))?;
    let mut valid = Vec::new();
    batch.read(0, batch.count, &mut cells, &mut valid)?;
    Ok(cells)
}

/// Why row `row` cannot be filled as asked (its status is not `Solved`), as the exception a
/// call without `status=True` raises.
fn refusal(shape: BoxShape, row: usize, puzzle: &[u8], status: Status, solved: bool) -> PyErr {
    let again = "(status=True returns every other row's fill and a status per row)";
    match status {
        Status::Invalid => {
            let why = find_conflict(shape, puzzle)
                .map_or_else(|| "not a well-formed puzzle".to_string(), |e| e.to_string());
            InvalidPuzzleError::new_err(format!("puzzles[{row}]: {why} {again}"))
        }
        Status::NoSolution => NoSolutionError::new_err(format!(
            "puzzles[{row}]: the givens have no solution {again}"
        )),
        Status::NotUnique if solved => SudokuError::new_err(format!(
            "puzzles[{row}]: still has several solutions at the clue count asked for; ask for \
             more clues, or unique=False {again}"
        )),
        _ => SudokuError::new_err(format!(
            "puzzles[{row}]: has several solutions, so which digits to add is not defined; give \
             its solution in solutions= {again}"
        )),
    }
}

/// The input error of row `row`, found again on the calling thread (the work only marked it).
fn input_error(
    shape: BoxShape,
    row: usize,
    puzzle: &[u8],
    solution: Option<&[u8]>,
    terms: FillTerms,
) -> PyErr {
    let mut out = vec![0; puzzle.len()];
    let mut solver = Solver::new(shape);
    let found = fill_row(
        &mut solver,
        shape,
        puzzle,
        solution,
        terms,
        row as u64,
        &mut Unbounded,
        &mut out,
    );
    match found {
        Err(FillError::MoreGivens { givens, clues }) => InvalidPuzzleError::new_err(format!(
            "puzzles[{row}]: has {givens} givens, more than clues={clues}"
        )),
        Err(FillError::NotASolution { why }) => InvalidPuzzleError::new_err(format!(
            "solutions[{row}] does not solve puzzles[{row}]: {why}"
        )),
        Ok(_) => InvalidPuzzleError::new_err(format!("puzzles[{row}]: cannot be filled")),
    }
}

/// Give each puzzle digits of its solution until it has ``clues`` givens, or ``empty`` blanks
/// left (exactly one of the two), on every core.
///
/// ``puzzles`` is what :func:`solve_batch` takes (numpy integer arrays of shape (N, n, n) or
/// (N, n*n), any dtype, or a list of puzzle strings); the result is of the same kind, shape and
/// dtype. ``solutions`` (optional, the same kinds, one grid per puzzle) are the digits to add;
/// without it each puzzle is solved, and must have exactly one solution. Givens are kept;
/// only blanks change, each to its solution digit.
///
/// Which blanks: row i shuffles its blanks with SplitMix64 seeded by ``(seed, i)`` (the stream
/// of :func:`augment_batch` and :func:`generate_batch`) and fills them in that order, so a
/// row's result depends only on ``seed``, i and the row itself: not on ``threads``, on the
/// other rows, or on the machine.
///
/// ``unique=True`` returns only puzzles with exactly one solution: the first digits added are
/// chosen where the puzzle's other solutions part from the solution (a solution other than it
/// is found, and the first blank of the row's order where the two differ is filled, until none
/// is left), then the order goes on to the clue count. A puzzle that is unique already keeps
/// that whatever is added.
///
/// A row that cannot be filled as asked (its givens conflict or have no solution; no
/// ``solutions`` and several solutions; ``unique=True`` and still several solutions at the
/// clue count) raises, naming the row. ``status=True`` returns ``(filled, status)`` instead:
/// an int8 array of :class:`Status` codes, 0 (``SOLVED``) where the row was filled, else
/// ``INVALID``, ``NO_SOLUTION`` or ``NOT_UNIQUE``, and such rows come back unchanged.
/// Malformed rows, ``solutions`` that do not solve their puzzles and rows with more givens than
/// ``clues`` always raise :class:`InvalidPuzzleError` naming the row (``puzzles[3]: ...``,
/// ``solutions[3] does not solve puzzles[3]: ...``). ``threads=None`` uses every core;
/// ``progress=True`` shows a tqdm bar. The GIL is released.
#[pyfunction]
#[pyo3(
    signature = (puzzles, solutions = None, *, empty = None, clues = None, seed = Seed(0),
        unique = false, status = false, r#box = None, threads = None, progress = None),
    text_signature = "(puzzles, solutions=None, *, empty=None, clues=None, seed=0, \
        unique=False, status=False, box=None, threads=None, progress=False)"
)]
#[allow(clippy::too_many_arguments)]
pub fn fill_from_solution<'py>(
    puzzles: &Bound<'py, PyAny>,
    solutions: Option<&Bound<'py, PyAny>>,
    empty: Option<&Bound<'py, PyAny>>,
    clues: Option<&Bound<'py, PyAny>>,
    seed: Seed,
    unique: bool,
    status: bool,
    r#box: Option<BoxArg>,
    threads: Option<Threads>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    super::guard::entry(|| {
        super::entry::batch(puzzles, progress, "filling", |puzzles, update| {
            let py = puzzles.py();
            let batch = open(puzzles, &Request::classic(r#box)?)?.strict("puzzles");
            let shape = batch.shape;
            let terms = FillTerms {
                clues: clue_target(shape, clues, empty)?,
                seed: seed.0,
                unique,
            };
            let solved = match solutions.filter(|s| !s.is_none()) {
                Some(solutions) => Some(read_solutions(&batch, solutions)?),
                None => None,
            };
            fill_rows(
                py,
                &batch,
                solved.as_deref(),
                terms,
                status,
                threads,
                update,
            )
        })
    })
}

fn fill_rows<'py>(
    py: Python<'py>,
    batch: &Batch<'py>,
    solutions: Option<&[u8]>,
    terms: FillTerms,
    status: bool,
    threads: Option<Threads>,
    progress: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let shape = batch.shape;
    let nc = shape.cell_count();
    let solution_of = |row: usize| solutions.map(|s| &s[row * nc..(row + 1) * nc]);
    // Each row's result is its cells, then its status code (or an input error's code).
    let work = |solver: &mut Solver,
                row: usize,
                puzzle: &[u8],
                out: &mut [u8],
                control: &mut dyn Control| {
        solver.set_max_guesses(None);
        let (cells, code) = out.split_at_mut(nc);
        let filled = fill_row(
            solver,
            shape,
            puzzle,
            solution_of(row),
            terms,
            row as u64,
            control,
            cells,
        );
        code[0] = match filled {
            Ok(outcome) => outcome.code() as u8,
            Err(err) => {
                cells.copy_from_slice(puzzle);
                match err {
                    FillError::MoreGivens { .. } => MORE_GIVENS,
                    FillError::NotASolution { .. } => NOT_A_SOLUTION,
                }
            }
        };
    };
    let mut codes: Vec<i8> = Vec::new();
    alloc::reserve(&mut codes, batch.count, || {
        format!("{} status codes", batch.count)
    })?;
    let mut first_error: Option<PyErr> = None;
    let mut first_refused: Option<PyErr> = None;
    let note = |results: &[u8], _: &[bool]| {
        for row in results.chunks(nc + 1) {
            let (cells, code) = (&row[..nc], row[nc]);
            let i = codes.len();
            if code >= MORE_GIVENS {
                if first_error.is_none() {
                    first_error = Some(input_error(shape, i, cells, solution_of(i), terms));
                }
                codes.push(Status::Invalid.code());
                continue;
            }
            let outcome = Status::from_code(i64::from(code)).unwrap_or(Status::Invalid);
            if outcome != Status::Solved && first_refused.is_none() {
                first_refused = Some(refusal(shape, i, cells, outcome, solutions.is_some()));
            }
            codes.push(outcome.code());
        }
    };
    let filled = run_to_grids(py, batch, threads, progress, nc + 1, work, |_| true, note)?;
    if let Some(err) = first_error {
        return Err(err);
    }
    if !status {
        return match first_refused {
            Some(err) => Err(err),
            None => Ok(filled),
        };
    }
    let codes = alloc::from_slice(py, &codes)?;
    Ok((filled, codes).into_pyobject(py)?.into_any())
}
