//! Checking answers (model output) against their puzzles in bulk, on every core:
//! `check_batch`'s flags and `score_batch`'s finer columns, from one checker
//! (`core::grid::check`) and one way of reading the two batches.

use numpy::PyArrayMethods;
use pyo3::prelude::*;

use crate::core::grid::check::{matching_cells, Checker};
use crate::core::{BoxShape, Control, Error, Grid, Solver};

use super::alloc;
use super::args::{BoxArg, Threads};
use super::batch::{open, Batch};
use super::chunks::{Row, Runner};
use super::errors::InvalidPuzzleError;

/// Bits of a row's result.
const VALID: u8 = 1;
const KEEPS_CLUES: u8 = 2;
const UNIQUE: u8 = 4;

/// Check one answer per puzzle on every core: a structured array of shape (N,) of bools.
///
/// Fields: ``valid`` (the answer is a complete grid with no two equal digits in a row, column
/// or box) and ``keeps_clues`` (every clue of the puzzle is in the answer, in its place); with
/// ``unique=True`` also ``unique`` (the puzzle has exactly one solution) and ``correct`` (the
/// puzzle is unique and the answer is its solution: valid, unique and keeps_clues).
///
/// ``puzzles`` and ``answers`` take the inputs of :func:`solve_batch` (integer arrays of shape
/// (N, n, n) or (N, n*n), any dtype, or lists of strings), not necessarily of the same kind;
/// their lengths and grid sizes must match. A malformed puzzle row gets every flag False; a
/// malformed answer row (a bad value, a string of the wrong length) is neither valid nor keeps
/// clues. ``progress=True`` shows a tqdm bar (worth it with ``unique=True``, which counts
/// every puzzle's solutions).
#[pyfunction]
#[pyo3(
    signature = (puzzles, answers, /, *, r#box = None, unique = false, threads = None,
                 progress = None),
    text_signature = "(puzzles, answers, /, *, box=None, unique=False, threads=None, \
                      progress=False)"
)]
pub fn check_batch<'py>(
    puzzles: &Bound<'py, PyAny>,
    answers: &Bound<'py, PyAny>,
    r#box: Option<BoxArg>,
    unique: bool,
    threads: Option<Threads>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    super::guard::entry(|| {
        super::entry::batch(puzzles, progress, "checking", |puzzles, update| {
            let answers = super::entry::as_batch(answers)?;
            check_all(puzzles, &answers, r#box, unique, threads, update)
        })
    })
}

/// The answers batch read with the puzzles' shape (answers of another size are an error
/// here rather than rows that silently fail), and one answer per puzzle.
fn open_answers<'py>(
    puzzle_batch: &Batch<'py>,
    answers: &Bound<'py, PyAny>,
    what: &str,
) -> PyResult<Batch<'py>> {
    let py = answers.py();
    let shape = puzzle_batch.shape;
    let n = shape.size();
    let answer_batch = open(answers, &super::request::Request::of_shape(shape)).map_err(|err| {
        if !err.is_instance_of::<InvalidPuzzleError>(py) {
            return err; // a TypeError says it all
        }
        let detail = err.value(py).to_string();
        PyErr::from(Error::Shape(format!(
            "the {what} do not fit the puzzles, which are {n}x{n}: {detail}"
        )))
    })?;
    let count = puzzle_batch.count;
    if answer_batch.count != count {
        return Err(Error::Shape(format!(
            "{count} puzzles but {} {what}: pass one {} per puzzle",
            answer_batch.count,
            what.trim_end_matches('s')
        ))
        .into());
    }
    Ok(answer_batch)
}

fn check_all<'py>(
    puzzles: &Bound<'py, PyAny>,
    answers: &Bound<'py, PyAny>,
    r#box: Option<BoxArg>,
    unique: bool,
    threads: Option<Threads>,
    progress: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = puzzles.py();
    let puzzle_batch = open(puzzles, &super::request::Request::classic(r#box)?)?;
    let shape = puzzle_batch.shape;
    let answer_batch = open_answers(&puzzle_batch, answers, "answers")?;
    let count = puzzle_batch.count;
    let nc = shape.cell_count();
    let mut flags = alloc::filled(count, 0u8, || format!("results for {count} rows"))?;
    // Each chunk's own columns: the puzzles' validity, the answers' cells and validity.
    let read = |start, end, cells: &mut Vec<u8>| {
        let (mut valid, mut answer_cells, mut answer_valid) = (Vec::new(), Vec::new(), Vec::new());
        puzzle_batch.read(start, end, cells, &mut valid)?;
        answer_batch.read(start, end, &mut answer_cells, &mut answer_valid)?;
        Ok((valid, answer_cells, answer_valid))
    };
    let check = |solver: &mut Solver,
                 row: Row<'_, (Vec<bool>, Vec<u8>, Vec<bool>)>,
                 puzzle: &[u8],
                 out: &mut [u8],
                 control: &mut dyn Control| {
        let (valid, answer_cells, answer_valid) = row.chunk;
        let i = row.local;
        // A malformed puzzle gets no flag; a malformed answer is neither valid
        // nor keeps clues, but the puzzle may still be unique.
        if !valid[i] {
            return;
        }
        let mut bits = 0;
        if answer_valid[i] {
            let answer = &answer_cells[i * nc..(i + 1) * nc];
            let verdict = Checker::new(shape).score(puzzle, answer).verdict();
            bits |= u8::from(verdict.valid) * VALID;
            bits |= u8::from(verdict.keeps_clues) * KEEPS_CLUES;
        }
        if unique && solver.count(puzzle, Some(2), control) == Ok(1) {
            bits |= UNIQUE;
        }
        out[0] = bits;
    };
    Runner::new(shape, count, threads, progress).for_chunks(
        py,
        1,
        read,
        check,
        |start, _, results: &[u8]| {
            flags[start..start + results.len()].copy_from_slice(results);
            Ok(())
        },
    )?;
    let column = |bit: u8| -> PyResult<Bound<'py, PyAny>> {
        let column = alloc::zeros::<bool>(py, count)?;
        {
            let mut rw = column.readwrite();
            for (slot, &f) in rw.as_slice_mut()?.iter_mut().zip(&flags) {
                *slot = f & bit == bit;
            }
        }
        Ok(column.into_any())
    };
    let mut fields = vec![
        ("valid", "?", column(VALID)?),
        ("keeps_clues", "?", column(KEEPS_CLUES)?),
    ];
    if unique {
        fields.push(("unique", "?", column(UNIQUE)?));
        fields.push(("correct", "?", column(UNIQUE | VALID | KEEPS_CLUES)?));
    }
    super::records::records(py, count, &fields)
}

/// Bits of a scored row.
const COMPLETE: u8 = 1;
const SCORE_KEEPS_CLUES: u8 = 2;
const COMPLETABLE: u8 = 4;
const SOLVED: u8 = 8;
const EXACT: u8 = 16;

/// One scored row.
#[derive(Clone, Copy, Default)]
struct Score {
    bits: u8,
    conflict_cells: i32,
    conflict_units: i32,
    /// Cells matching the solution; -1 when the puzzle has no unique one.
    matching: i32,
}

/// Score one answer per puzzle on every core, finer than :func:`check_batch` (the same
/// checker): a structured array of shape (N,) with these fields.
///
/// - ``well_formed``: the answer could be read (False only for the ``"error"`` rows of an
///   :class:`Answers`; every other field of such a row is False or 0).
/// - ``complete``: no blank cell.
/// - ``keeps_clues``: every clue of the puzzle is in the answer, in its place.
/// - ``conflict_cells`` (int32): filled cells holding the digit of another cell in one of
///   their rows, columns or boxes; ``conflict_units``: the rows, columns and boxes that hold
///   some digit twice.
/// - ``matching_cells`` (int32): filled cells equal to the puzzle's solution; -1 when the
///   puzzle has no unique solution.
/// - ``completable``: the answer's filled cells, with the clues, still lead to a solution of
///   the puzzle (no clue changed, no conflict, a completion exists).
/// - ``solved``: complete, free of conflicts and keeping every clue (``check_batch``'s
///   ``valid & keeps_clues``); ``exact``: equal to the puzzle's unique solution.
///
/// ``puzzles`` and ``answers`` take the inputs of :func:`check_batch`; answers may be partial
/// (0 or ``.`` blank). ``answers`` may also be the :class:`Answers` of
/// :func:`parse_answer_batch`: a grid reply is scored as it stands, a reply of moves as the
/// moves placed over its puzzle. Without ``solutions`` every puzzle is solved (to two
/// solutions) to know its solution; ``solutions`` (same inputs, the puzzles' unique
/// solutions, trusted) skips that search, the fast path. A row that is not a well-formed grid
/// of the puzzles' size, in any of the three, raises ``InvalidPuzzleError`` naming it
/// (``answers[3]: ...``); lengths that differ raise it too. ``progress=True`` shows a tqdm bar.
#[pyfunction]
#[pyo3(
    signature = (puzzles, answers, /, *, solutions = None, r#box = None, threads = None,
                 progress = None),
    text_signature = "(puzzles, answers, /, *, solutions=None, box=None, threads=None, \
                      progress=False)"
)]
pub fn score_batch<'py>(
    puzzles: &Bound<'py, PyAny>,
    answers: &Bound<'py, PyAny>,
    solutions: Option<&Bound<'py, PyAny>>,
    r#box: Option<BoxArg>,
    threads: Option<Threads>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    super::guard::entry(|| {
        super::entry::batch(puzzles, progress, "scoring", |puzzles, update| {
            let placed = super::answer::placed_answers(answers)?;
            let answers = match &placed {
                Some(placed) => placed.grids.clone(),
                None => super::entry::as_batch(answers)?,
            };
            let solutions = solutions
                .filter(|s| !s.is_none())
                .map(super::entry::as_batch)
                .transpose()?;
            let overlay = placed.as_ref().map(|p| &p.placed[..]);
            let scores = score_all(
                puzzles,
                &answers,
                solutions.as_ref(),
                overlay,
                r#box,
                threads,
                update,
            )?;
            let well_formed = placed.as_ref().map(|p| &p.well_formed[..]);
            score_records(puzzles.py(), &scores, well_formed)
        })
    })
}

/// The records of `score_batch`: a row that could not be read (`well_formed` false) has every
/// field False or 0.
fn score_records<'py>(
    py: Python<'py>,
    scores: &[Score],
    well_formed: Option<&[bool]>,
) -> PyResult<Bound<'py, PyAny>> {
    let count = scores.len();
    let read = |i: usize| well_formed.map_or(true, |w| w[i]);
    let what = || format!("scores of {count} rows");
    let flag = |bit: u8| -> PyResult<Bound<'py, PyAny>> {
        let mut column = alloc::filled(count, false, what)?;
        for (i, (slot, s)) in column.iter_mut().zip(scores).enumerate() {
            *slot = read(i) && s.bits & bit == bit;
        }
        Ok(alloc::from_slice(py, &column)?.into_any())
    };
    let number = |field: fn(&Score) -> i32| -> PyResult<Bound<'py, PyAny>> {
        let mut column = alloc::filled(count, 0i32, what)?;
        for (i, (slot, s)) in column.iter_mut().zip(scores).enumerate() {
            *slot = if read(i) { field(s) } else { 0 };
        }
        Ok(alloc::from_slice(py, &column)?.into_any())
    };
    let mut well = alloc::filled(count, true, what)?;
    if let Some(w) = well_formed {
        well.copy_from_slice(w);
    }
    super::records::records(
        py,
        count,
        &[
            ("well_formed", "?", alloc::from_slice(py, &well)?.into_any()),
            ("complete", "?", flag(COMPLETE)?),
            ("keeps_clues", "?", flag(SCORE_KEEPS_CLUES)?),
            ("conflict_cells", "i4", number(|s| s.conflict_cells)?),
            ("conflict_units", "i4", number(|s| s.conflict_units)?),
            ("matching_cells", "i4", number(|s| s.matching)?),
            ("completable", "?", flag(COMPLETABLE)?),
            ("solved", "?", flag(SOLVED)?),
            ("exact", "?", flag(EXACT)?),
        ],
    )
}

/// Every row's [`Score`]; `overlay` marks rows whose answer is placed over the puzzle (its
/// blanks take the clues), as a list of moves is.
fn score_all<'py>(
    puzzles: &Bound<'py, PyAny>,
    answers: &Bound<'py, PyAny>,
    solutions: Option<&Bound<'py, PyAny>>,
    overlay: Option<&[bool]>,
    r#box: Option<BoxArg>,
    threads: Option<Threads>,
    progress: Option<Bound<'py, PyAny>>,
) -> PyResult<Vec<Score>> {
    let py = puzzles.py();
    let puzzle_batch = open(puzzles, &super::request::Request::classic(r#box)?)?.strict("puzzles");
    let shape = puzzle_batch.shape;
    let answer_batch = open_answers(&puzzle_batch, answers, "answers")?.strict("answers");
    let solution_batch = solutions
        .map(|s| open_answers(&puzzle_batch, s, "solutions").map(|b| b.strict("solutions")))
        .transpose()?;
    let count = puzzle_batch.count;
    if let Some(mask) = overlay {
        if mask.len() != count {
            return Err(Error::Shape(format!(
                "{count} puzzles but an overlay mask of {} rows",
                mask.len()
            ))
            .into());
        }
    }
    let nc = shape.cell_count();
    let mut scores = alloc::filled(count, Score::default(), || {
        format!("results for {count} rows")
    })?;
    let given = solution_batch.is_some();
    // Each chunk's own columns: the answers' cells, the solutions' cells when given.
    let read = |start, end, cells: &mut Vec<u8>| {
        let (mut valid, mut answer_cells, mut answer_valid) = (Vec::new(), Vec::new(), Vec::new());
        let (mut solution_cells, mut solution_valid) = (Vec::new(), Vec::new());
        puzzle_batch.read(start, end, cells, &mut valid)?;
        answer_batch.read(start, end, &mut answer_cells, &mut answer_valid)?;
        if let Some(batch) = &solution_batch {
            batch.read(start, end, &mut solution_cells, &mut solution_valid)?;
        }
        Ok((answer_cells, solution_cells))
    };
    let score = |solver: &mut Solver,
                 row: Row<'_, (Vec<u8>, Vec<u8>)>,
                 puzzle: &[u8],
                 out: &mut [Score],
                 control: &mut dyn Control| {
        let (answer_cells, solution_cells) = row.chunk;
        let i = row.local;
        let answer = &answer_cells[i * nc..(i + 1) * nc];
        let merged;
        let answer = if overlay.is_some_and(|mask| mask[row.index]) {
            merged = answer
                .iter()
                .zip(puzzle)
                .map(|(&a, &clue)| if a == 0 { clue } else { a })
                .collect::<Vec<u8>>();
            &merged[..]
        } else {
            answer
        };
        let searched;
        let solution = if given {
            Some(&solution_cells[i * nc..(i + 1) * nc])
        } else {
            searched = unique_solution(shape, solver, puzzle, control);
            searched.as_deref()
        };
        out[0] = score_row(shape, solver, puzzle, answer, solution, control);
    };
    Runner::new(shape, count, threads, progress).for_chunks(
        py,
        1,
        read,
        score,
        |start, _, results: &[Score]| {
            scores[start..start + results.len()].clone_from_slice(results);
            Ok(())
        },
    )?;
    Ok(scores)
}

/// The puzzle's solution if it has exactly one (a puzzle with conflicting clues has none).
fn unique_solution(
    shape: BoxShape,
    solver: &mut Solver,
    puzzle: &[u8],
    control: &mut dyn Control,
) -> Option<Vec<u8>> {
    let grid = Grid::new(shape, puzzle.to_vec()).ok()?;
    let mut found = solver.solutions(&grid, 2, control).ok()?;
    (found.len() == 1).then(|| found.pop().map(Grid::into_cells))?
}

/// Scores one answer (already placed over the puzzle if it was moves).
fn score_row(
    shape: BoxShape,
    solver: &mut Solver,
    puzzle: &[u8],
    answer: &[u8],
    solution: Option<&[u8]>,
    control: &mut dyn Control,
) -> Score {
    let marks = Checker::new(shape).score(puzzle, answer);
    let nc = shape.cell_count();
    let matching = solution.map(|s| matching_cells(answer, s));
    let completable = if marks.changes_clues || marks.conflict_units > 0 {
        false
    } else if let Some(matching) = matching {
        // A unique puzzle completes only to its solution.
        matching == marks.filled
    } else if marks.complete {
        true
    } else {
        // Not unique (or no solution): search the answer with the clues it left blank.
        let merged: Vec<u8> = answer
            .iter()
            .zip(puzzle)
            .map(|(&a, &clue)| if a == 0 { clue } else { a })
            .collect();
        Checker::new(shape).score(puzzle, &merged).conflict_units == 0
            && solver.count(&merged, Some(1), control) == Ok(1)
    };
    let exact = matching.is_some_and(|m| m as usize == nc);
    let mut bits = 0;
    bits |= u8::from(marks.complete) * COMPLETE;
    bits |= u8::from(marks.keeps_clues) * SCORE_KEEPS_CLUES;
    bits |= u8::from(completable) * COMPLETABLE;
    bits |= u8::from(marks.solved()) * SOLVED;
    bits |= u8::from(exact) * EXACT;
    Score {
        bits,
        conflict_cells: marks.conflict_cells as i32,
        conflict_units: marks.conflict_units as i32,
        matching: matching.map_or(-1, |m| m as i32),
    }
}
