//! `parse_answer` and `parse_answer_batch`: a language model's replies read by the core's
//! parser (`core::grid::answer`), one reply or many on every core.

use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::{PyMemoryError, PyTypeError};

use pyo3::prelude::*;
use pyo3::types::PyString;
use std::borrow::Cow;

use crate::core::grid::answer::{parse_answer, Move, Reply};
use crate::core::Result;

use super::alloc;
use super::args::Threads;

/// Kind codes of a batch row, in the order `sudoku_rs.parse_answer_batch` names them.
const ERROR: u8 = 0;
const GRID: u8 = 1;
const MOVES: u8 = 2;

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

/// Many replies: (kinds uint8 (N,) with 0 error, 1 grid, 2 moves; grids uint8 (N, n, n);
/// moves uint8 (M, 3); offsets int64 (N+1,), row i's moves being moves[offsets[i]:offsets[i+1]];
/// errors, a list of str or None). See `sudoku_rs.parse_answer_batch`.
#[pyfunction]
#[pyo3(signature = (texts, /, size = 9, *, threads = None, progress = None))]
pub fn _parse_answer_batch<'py>(
    texts: &Bound<'py, PyAny>,
    size: usize,
    threads: Option<Threads>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<BatchColumns<'py>> {
    super::guard::entry(|| {
        let py = texts.py();
        let shown = super::entry::shown(progress)?;
        let items: Vec<Bound<'py, PyAny>> = texts.try_iter()?.collect::<PyResult<_>>()?;
        // Borrowed where the stable ABI allows (3.10 on), so memory beyond the output is a
        // pointer a row; every user-sized buffer is reserved fallibly: MemoryError, not abort.
        let mut owned: Vec<Cow<'_, str>> = Vec::new();
        owned
            .try_reserve_exact(items.len())
            .map_err(|_| out_of_memory(items.len()))?;
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
        let threads = threads.unwrap_or_default().for_rows(count);
        // Reading is quick: the bar moves once, when every reply is read.
        let replies = super::entry::with_progress(py, shown, count, "reading", |update| {
            let replies =
                py.detach(|| super::guard::no_panic(|| parse_all(&owned, size, threads)))??;
            if let Some(update) = update {
                update.call1((count,))?;
            }
            Ok(replies)
        })?;
        let nc = size * size;
        let mut kinds = alloc::filled(count, ERROR, || format!("kinds of {count} rows"))?;
        let mut grids = alloc::filled(count * nc, 0u8, || format!("grids of {count} rows"))?;
        let mut offsets = alloc::filled(count + 1, 0i64, || format!("{count} offsets"))?;
        let mut moves: Vec<u8> = Vec::new();
        let mut errors = Vec::new();
        errors
            .try_reserve_exact(count)
            .map_err(|_| out_of_memory(count))?;
        for (i, reply) in replies.into_iter().enumerate() {
            let mut error = None;
            match reply {
                Ok(Reply::Grid(cells)) => {
                    kinds[i] = GRID;
                    grids[i * nc..(i + 1) * nc].copy_from_slice(&cells);
                }
                Ok(Reply::Moves(list)) => {
                    kinds[i] = MOVES;
                    moves
                        .try_reserve(3 * list.len())
                        .map_err(|_| out_of_memory(count))?;
                    moves.extend(list.iter().flat_map(|m| [m.row, m.col, m.digit]));
                }
                Err(err) => error = Some(err.to_string()),
            }
            errors.push(error);
            offsets[i + 1] = (moves.len() / 3) as i64;
        }
        let grids = alloc::from_slice(py, &grids)?.reshape([count, size, size])?;
        let moves = alloc::from_slice(py, &moves)?.reshape([moves.len() / 3, 3])?;
        Ok((
            alloc::from_slice(py, &kinds)?,
            grids.into_any(),
            moves.into_any(),
            alloc::from_slice(py, &offsets)?,
            errors,
        ))
    })
}

type BatchColumns<'py> = (
    Bound<'py, PyArray1<u8>>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyArray1<i64>>,
    Vec<Option<String>>,
);

/// Every reply parsed, on `threads` threads taking contiguous shares.
fn parse_all(texts: &[Cow<'_, str>], size: usize, threads: usize) -> PyResult<Vec<Result<Reply>>> {
    let mut out: Vec<Option<Result<Reply>>> = Vec::new();
    out.try_reserve_exact(texts.len())
        .map_err(|_| out_of_memory(texts.len()))?;
    out.resize_with(texts.len(), || None);
    let share = texts.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        for (texts, out) in texts.chunks(share).zip(out.chunks_mut(share)) {
            scope.spawn(move || {
                for (text, slot) in texts.iter().zip(out) {
                    *slot = Some(parse_answer(text, size));
                }
            });
        }
    });
    Ok(out
        .into_iter()
        .map(|r| r.expect("every row was parsed"))
        .collect())
}

fn out_of_memory(rows: usize) -> PyErr {
    PyMemoryError::new_err(format!("out of memory reading {rows} replies"))
}
