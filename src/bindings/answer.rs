//! `parse_answer` and `parse_answer_batch`: a language model's replies read by the core's
//! parser (`core::grid::answer`), one reply, or many on the batch runner's threads (the
//! batch's `Answers` class is in `sudoku_rs/_llm.py`).

use numpy::{
    PyArray1, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyReadonlyArrayDyn,
    PyUntypedArray, PyUntypedArrayMethods,
};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyString;
use std::borrow::Cow;

use crate::core::grid::answer::{parse_answer, Move, Reply};
use crate::core::{Control, Error};

use super::alloc;
use super::args::Threads;
use super::chunks::{Row, Runner};
use super::records;

/// Kind codes of a batch row, and their names in `Answers.kind`.
const ERROR: u8 = 0;
const GRID: u8 = 1;
const MOVES: u8 = 2;
const KIND_NAMES: [&str; 3] = ["error", "grid", "moves"];

/// One reply: `("grid", cells (n, n) uint8, [])` or `("moves", None, [(row, col, digit)])`,
/// row and column from 0. An unreadable reply raises `ValueError` saying why. See
/// `sudoku_rs.parse_answer`.
#[pyfunction]
#[pyo3(signature = (text, /, size = 9))]
pub fn _parse_answer<'py>(text: &Bound<'py, PyAny>, size: usize) -> PyResult<OneReply<'py>> {
    super::guard::entry(|| {
        let py = text.py();
        let text = text.cast::<PyString>().map_err(|_| {
            PyTypeError::new_err(format!(
                "expected the reply as a str, got {}",
                text.get_type().name().map_or("?".into(), |n| n.to_string())
            ))
        })?;
        let text = text.to_cow()?;
        let reply = py.detach(|| super::guard::no_panic(|| parse_answer(&text, size)))??;
        Ok(match reply {
            Reply::Grid(cells) => {
                let grid = alloc::from_slice(py, &cells)?.reshape([size, size])?;
                ("grid", Some(grid.into_any()), Vec::new())
            }
            Reply::Moves(moves) => ("moves", None, moves.iter().copied().map(tuple).collect()),
        })
    })
}

/// A reply's kind, its grid or None, its moves.
type OneReply<'py> = (&'static str, Option<Bound<'py, PyAny>>, Vec<(u8, u8, u8)>);

fn tuple(m: Move) -> (u8, u8, u8) {
    (m.row, m.col, m.digit)
}

/// Read many replies as :func:`parse_answer` reads one, on every core (``threads`` caps
/// them): an :class:`Answers`. A reply that cannot be read is an ``"error"`` row with its
/// reason in ``errors``, never an exception; a ``size`` no grid has raises ``ValueError``.
/// ``progress=True`` shows a tqdm bar.
#[pyfunction]
#[pyo3(
    signature = (texts, /, size = 9, *, threads = None, progress = None),
    text_signature = "(texts, /, size=9, *, threads=None, progress=False)"
)]
pub fn parse_answer_batch<'py>(
    texts: &Bound<'py, PyAny>,
    size: usize,
    threads: Option<Threads>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    super::guard::entry(|| {
        static ANSWERS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
        let py = texts.py();
        let shown = super::entry::shown(progress)?;
        let items: Vec<Bound<'py, PyAny>> = texts.try_iter()?.collect::<PyResult<_>>()?;
        // Borrowed where the stable ABI allows (3.10 on), so memory beyond the output is a
        // pointer a row; every user-sized buffer is reserved fallibly: MemoryError, not abort.
        let mut owned: Vec<Cow<'_, str>> = Vec::new();
        alloc::reserve(&mut owned, items.len(), || what(items.len()))?;
        for (i, item) in items.iter().enumerate() {
            let s = item.cast::<PyString>().map_err(|_| {
                PyTypeError::new_err(format!(
                    "texts[{i}]: expected a str, got {}",
                    item.get_type().name().map_or("?".into(), |n| n.to_string())
                ))
            })?;
            owned.push(s.to_cow()?);
        }
        // The size is checked once, so a bad one raises instead of failing every row.
        crate::core::grid::answer::check_size(size)?;
        let count = owned.len();
        let nc = size * size;
        let mut kinds = alloc::filled(count, ERROR, || what(count))?;
        let mut grids = alloc::filled(alloc::product(count, nc, || what(count))?, 0u8, || {
            what(count)
        })?;
        let mut offsets = alloc::filled(count + 1, 0i64, || what(count))?;
        let (mut moves, mut errors): (Vec<u8>, Vec<Option<String>>) = (Vec::new(), Vec::new());
        alloc::reserve(&mut errors, count, || what(count))?;
        let read = |start, end, cells: &mut Vec<u8>| {
            cells.clear();
            cells.resize(end - start, 0);
            Ok(())
        };
        let work = |&mut (): &mut (),
                    row: Row<'_, ()>,
                    _: &[u8],
                    out: &mut [ReplyRow],
                    _: &mut dyn Control| {
            out[0] = match parse_answer(&owned[row.index], size) {
                Ok(Reply::Grid(cells)) => ReplyRow {
                    kind: GRID,
                    cells,
                    ..ReplyRow::default()
                },
                Ok(Reply::Moves(list)) => ReplyRow {
                    kind: MOVES,
                    moves: list.iter().flat_map(|m| [m.row, m.col, m.digit]).collect(),
                    ..ReplyRow::default()
                },
                Err(err) => ReplyRow {
                    error: Some(err.to_string()),
                    ..ReplyRow::default()
                },
            };
        };
        let write = |start: usize, (): &(), rows: &[ReplyRow]| {
            for (i, row) in (start..).zip(rows) {
                kinds[i] = row.kind;
                if row.kind == GRID {
                    grids[i * nc..(i + 1) * nc].copy_from_slice(&row.cells);
                }
                alloc::reserve(&mut moves, row.moves.len(), || what(count))?;
                moves.extend_from_slice(&row.moves);
                errors.push(row.error.clone());
                offsets[i + 1] = (moves.len() / 3) as i64;
            }
            Ok(())
        };
        super::entry::with_progress(py, shown, count, "reading", |update| {
            Runner::for_rows(count, threads, update).for_chunks(py, 1, read, work, write)
        })?;
        let rows: Vec<i64> = kinds.iter().map(|&k| i64::from(k)).collect();
        let kind = records::take(py, &KIND_NAMES, "U5", &rows)?;
        let grids = alloc::from_slice(py, &grids)?.reshape([count, size, size])?;
        let moves = alloc::from_slice(py, &moves)?.reshape([moves.len() / 3, 3])?;
        ANSWERS.import(py, "sudoku_rs._llm", "Answers")?.call1((
            kind,
            grids,
            moves,
            alloc::from_slice(py, &offsets)?,
            errors,
        ))
    })
}

/// One reply of a batch as the runner's threads read it.
#[derive(Clone, Default)]
struct ReplyRow {
    kind: u8,
    /// A grid reply's cells.
    cells: Vec<u8>,
    /// A reply of moves: (row, col, digit) back to back.
    moves: Vec<u8>,
    /// Why the reply could not be read.
    error: Option<String>,
}

fn what(rows: usize) -> String {
    format!("the readings of {rows} replies")
}

/// An `Answers` as grids to score or check: each row's grid, its moves placed in order on a
/// blank grid (a later move to the same cell wins); which rows were moves (their blanks stand
/// for the puzzle's clues); which rows were read at all.
pub(super) struct PlacedAnswers<'py> {
    pub(super) grids: Bound<'py, PyAny>,
    pub(super) placed: Vec<bool>,
    pub(super) well_formed: Vec<bool>,
}

/// `answers` as [`PlacedAnswers`] when it is an `Answers`, else `None`.
pub(super) fn placed_answers<'py>(
    answers: &Bound<'py, PyAny>,
) -> PyResult<Option<PlacedAnswers<'py>>> {
    static ANSWERS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let py = answers.py();
    if !answers.is_instance(ANSWERS.import(py, "sudoku_rs._llm", "Answers")?)? {
        return Ok(None);
    }
    let kind = answers.getattr("kind")?;
    let flags = |name: &str, op| -> PyResult<Vec<bool>> {
        let mask = kind.rich_compare(name, op)?;
        Ok(mask
            .extract::<PyReadonlyArray1<'_, bool>>()?
            .as_array()
            .to_vec())
    };
    let placed = flags("moves", CompareOp::Eq)?;
    let well_formed = flags("error", CompareOp::Ne)?;
    let grids = answers.getattr("grids")?;
    let array = grids.cast::<PyUntypedArray>()?;
    let dims: Vec<Option<usize>> = array.shape().iter().copied().map(Some).collect();
    let Some(n) = super::entry::puzzle_side(&dims) else {
        return Err(super::entry::shape_error(&dims));
    };
    let count = array.shape()[0];
    let nc = n * n;
    let grids = grids.extract::<PyReadonlyArrayDyn<'_, u8>>()?;
    let moves = answers
        .getattr("moves")?
        .extract::<PyReadonlyArray2<'_, u8>>()?;
    let offsets = answers
        .getattr("offsets")?
        .extract::<PyReadonlyArray1<'_, i64>>()?;
    let (moves, offsets) = (moves.as_array(), offsets.as_array());
    if placed.len() != count || offsets.len() != count + 1 || moves.ncols() != 3 {
        return Err(Error::Shape(format!(
            "an Answers of {count} grids needs {count} kinds, {} offsets and moves of shape \
             (M, 3); got {} kinds, {} offsets and moves of shape ({}, {})",
            count + 1,
            placed.len(),
            offsets.len(),
            moves.nrows(),
            moves.ncols()
        ))
        .into());
    }
    let out = alloc::zeros::<u8>(py, alloc::product(count, nc, || what(count))?)?;
    // SAFETY: the array was made just above and no other reference to it exists yet.
    let cells = unsafe { out.as_slice_mut() }.expect("a new array is contiguous");
    match grids.as_slice() {
        Ok(flat) => cells.copy_from_slice(flat),
        Err(_) => {
            for (slot, &v) in cells.iter_mut().zip(grids.as_array().iter()) {
                *slot = v;
            }
        }
    }
    for i in 0..count {
        let (from, to) = (offsets[i], offsets[i + 1]);
        let within = |at: i64| usize::try_from(at).is_ok_and(|at| at <= moves.nrows());
        if !(within(from) && within(to) && from <= to) {
            return Err(Error::Shape(format!(
                "answers.offsets[{i}:{}] = {from}, {to}: not a run of the {} moves",
                i + 2,
                moves.nrows()
            ))
            .into());
        }
        for k in from as usize..to as usize {
            let (r, c, d) = (moves[[k, 0]], moves[[k, 1]], moves[[k, 2]]);
            if usize::from(r) >= n || usize::from(c) >= n || usize::from(d) > n {
                return Err(Error::Shape(format!(
                    "answers.moves[{k}]: the move r{}c{}={d} is outside the {n}x{n} grids",
                    u16::from(r) + 1,
                    u16::from(c) + 1
                ))
                .into());
            }
            cells[i * nc + usize::from(r) * n + usize::from(c)] = d;
        }
    }
    let grids = out.reshape([count, n, n])?.into_any();
    Ok(Some(PlacedAnswers {
        grids,
        placed,
        well_formed,
    }))
}

/// `(grids, placed)` of an `Answers`; see `Answers.as_grids`.
#[pyfunction]
#[pyo3(signature = (answers, /))]
pub fn _answer_grids<'py>(
    answers: &Bound<'py, PyAny>,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyArray1<bool>>)> {
    super::guard::entry(|| {
        let Some(placed) = placed_answers(answers)? else {
            return Err(PyTypeError::new_err(format!(
                "expected an Answers, got {}",
                answers.get_type().name()?
            )));
        };
        Ok((
            placed.grids,
            alloc::from_slice(answers.py(), &placed.placed)?,
        ))
    })
}
