//! Arrays of cells for the package's encoders and exporters (`python/sudoku_rs/_datasets.py`,
//! `_arrow.py`): a batch's puzzles read exactly as every batch function reads them, and the
//! cells of a one-hot array, and move ids to and from moves, each checked and converted in one
//! pass.

use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::alloc;
use super::args::BoxArg;
use super::batch::open;
use super::request::Request;

/// `(cells, n)`: the puzzles of a batch (anything `solve_batch` takes) as a new (N, n*n) uint8
/// array, 0 blank, and the grid side n. The first malformed row raises InvalidPuzzleError
/// naming it, `puzzles[i]` (or `solutions[i]` when `name` is "solutions").
#[pyfunction]
#[pyo3(signature = (puzzles, /, *, r#box = None, name = "puzzles"))]
pub fn _batch_cells<'py>(
    puzzles: &Bound<'py, PyAny>,
    r#box: Option<BoxArg>,
    name: &str,
) -> PyResult<(Bound<'py, PyAny>, usize)> {
    super::guard::entry(|| {
        let py = puzzles.py();
        let puzzles = super::entry::as_batch(puzzles)?;
        let name = if name == "solutions" {
            "solutions"
        } else {
            "puzzles"
        };
        let batch = open(&puzzles, &Request::classic(r#box)?)?.strict(name);
        let (n, count) = (batch.shape.size(), batch.count);
        let what = || format!("{count} puzzles of {n}x{n}");
        let total = alloc::product(count, n * n, what)?;
        let mut cells = Vec::new();
        alloc::reserve(&mut cells, total, what)?;
        let mut valid = Vec::new();
        batch.read(0, count, &mut cells, &mut valid)?;
        let array = PyArray1::from_vec(py, cells).reshape([count, n * n])?;
        Ok((array.into_any(), n))
    })
}

/// The cells of a one-hot array of 1-byte values (bool viewed as uint8), `onehot` holding
/// `n` values per cell, in one pass with the GIL released: `(cells, bad)`, one uint8 per cell
/// (the digit whose value is 1, 0 when none is) and -1, or, at the first cell that has a value
/// other than 0 and 1 or more than one 1, `(None, index of that cell)`.
#[pyfunction]
#[pyo3(signature = (onehot, /, n))]
// pyo3 hands the array over as an owned read-only borrow guard.
#[allow(clippy::needless_pass_by_value)]
pub fn _decode_onehot(
    onehot: PyReadonlyArray1<'_, u8>,
    n: usize,
) -> PyResult<(Option<Bound<'_, PyArray1<u8>>>, i64)> {
    super::guard::entry(|| {
        let py = onehot.py();
        let values = onehot.as_slice()?;
        if n == 0 || values.len() % n != 0 {
            return Err(PyValueError::new_err(format!(
                "{} one-hot values are no whole number of cells of {n}",
                values.len()
            )));
        }
        let cells = values.len() / n;
        let mut out = alloc::filled(cells, 0u8, || format!("{cells} cells"))?;
        let bad = py.detach(|| super::guard::no_panic(|| decode_cells(values, n, &mut out)))?;
        Ok(match bad {
            Some(cell) => (None, cell as i64),
            None => (Some(PyArray1::from_vec(py, out)), -1),
        })
    })
}

/// Writes each cell's digit to `out`; the index of the first cell with a value above 1 or
/// more than one 1, if any.
fn decode_cells(values: &[u8], n: usize, out: &mut [u8]) -> Option<usize> {
    for (k, (cell, slot)) in values.chunks_exact(n).zip(out.iter_mut()).enumerate() {
        // Branch-free over the cell: the count of ones, the weighted sum giving the digit, and
        // every bit seen (any above bit 0 is a value other than 0 and 1).
        let (mut count, mut digit, mut seen) = (0u32, 0u32, 0u8);
        for (d, &v) in cell.iter().enumerate() {
            count += u32::from(v);
            digit += u32::from(v) * (d as u32 + 1);
            seen |= v;
        }
        if seen > 1 || count > 1 {
            return Some(k);
        }
        *slot = digit as u8;
    }
    None
}

/// An integer a move array may hold, widened so that every value compares exactly (a u64
/// above i64's range becomes i64::MAX, out of range like the value itself).
trait Wide: Copy + Send + Sync {
    fn wide(self) -> i64;
}

macro_rules! wide_from {
    ($($t:ty),*) => {$(
        impl Wide for $t {
            fn wide(self) -> i64 {
                i64::from(self)
            }
        }
    )*};
}
wide_from!(i8, i16, i32, i64, u8, u16, u32);

impl Wide for u64 {
    fn wide(self) -> i64 {
        i64::try_from(self).unwrap_or(i64::MAX)
    }
}

/// Items below which a move array is done on one thread: starting threads costs more.
const PARALLEL_MOVES: usize = 1 << 18;

/// Runs `work` over `input` and `output` cut into matching pieces (`per_in` input items and
/// `per_out` output items per unit), on every core for large arrays; the first failing unit's
/// index, if any.
fn split_units<T: Sync, U: Send>(
    input: &[T],
    per_in: usize,
    output: &mut [U],
    per_out: usize,
    work: impl Fn(&[T], &mut [U]) -> Option<usize> + Sync,
) -> Option<usize> {
    let units = input.len() / per_in;
    // Asking for the cores reads cgroup files: only worth it for an array worth splitting.
    if units < 2 * PARALLEL_MOVES {
        return work(input, output);
    }
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let pieces = threads.min(units / PARALLEL_MOVES).max(1);
    if pieces == 1 {
        return work(input, output);
    }
    let step = units.div_ceil(pieces);
    std::thread::scope(|scope| {
        let handles: Vec<_> = input
            .chunks(step * per_in)
            .zip(output.chunks_mut(step * per_out))
            .enumerate()
            .map(|(p, (inp, out))| {
                let work = &work;
                scope.spawn(move || work(inp, out).map(|k| p * step + k))
            })
            .collect();
        handles
            .into_iter()
            .filter_map(|h| h.join().expect("a move worker does not panic"))
            .min()
    })
}

/// Move ids of `moves` (row, col, digit triples) into `out`; the index of the first move that
/// is neither in range nor all -1.
fn encode_run<T: Wide>(moves: &[T], side: i64, out: &mut [i32]) -> Option<usize> {
    let limit = side as u64;
    for (k, (m, slot)) in moves.chunks_exact(3).zip(out.iter_mut()).enumerate() {
        let (r, c, d) = (m[0].wide(), m[1].wide(), m[2].wide());
        // As unsigned, -1 (and every negative) is out of range.
        if (r as u64) < limit && (c as u64) < limit && (d.wrapping_sub(1) as u64) < limit {
            *slot = ((r * side + c) * side + d - 1) as i32;
        } else if r == -1 && c == -1 && d == -1 {
            *slot = -1;
        } else {
            return Some(k);
        }
    }
    None
}

/// The (row, col, digit) of `ids` into `out` (three per id) from `table`, the triple of every
/// id; the index of the first id that is neither -1 nor below the table's length.
fn decode_run<T: Wide>(ids: &[T], table: &[[i32; 3]], out: &mut [i32]) -> Option<usize> {
    let limit = table.len() as u64;
    for (k, (&id, slot)) in ids.iter().zip(out.chunks_exact_mut(3)).enumerate() {
        let id = id.wide();
        if (id as u64) < limit {
            slot.copy_from_slice(&table[id as usize]);
        } else if id == -1 {
            slot.fill(-1);
        } else {
            return Some(k);
        }
    }
    None
}

/// Calls `$body` with `$slice`, the data of `$array` (a contiguous 1-D numpy array) as a
/// slice of its own integer type; `$other` when the dtype is not an integer one.
macro_rules! with_ints {
    ($array:expr, |$slice:ident| $body:expr, $other:expr) => {{
        let array = $array;
        if let Ok(a) = array.cast::<PyArray1<i32>>() {
            let a = a.readonly();
            let $slice = a.as_slice()?;
            $body
        } else if let Ok(a) = array.cast::<PyArray1<i64>>() {
            let a = a.readonly();
            let $slice = a.as_slice()?;
            $body
        } else if let Ok(a) = array.cast::<PyArray1<i8>>() {
            let a = a.readonly();
            let $slice = a.as_slice()?;
            $body
        } else if let Ok(a) = array.cast::<PyArray1<i16>>() {
            let a = a.readonly();
            let $slice = a.as_slice()?;
            $body
        } else if let Ok(a) = array.cast::<PyArray1<u8>>() {
            let a = a.readonly();
            let $slice = a.as_slice()?;
            $body
        } else if let Ok(a) = array.cast::<PyArray1<u16>>() {
            let a = a.readonly();
            let $slice = a.as_slice()?;
            $body
        } else if let Ok(a) = array.cast::<PyArray1<u32>>() {
            let a = a.readonly();
            let $slice = a.as_slice()?;
            $body
        } else if let Ok(a) = array.cast::<PyArray1<u64>>() {
            let a = a.readonly();
            let $slice = a.as_slice()?;
            $body
        } else {
            $other
        }
    }};
}

fn not_ints(what: &str) -> PyErr {
    pyo3::exceptions::PyTypeError::new_err(format!("{what} must be a contiguous 1-D integer array"))
}

/// The move ids of `moves`, a contiguous 1-D integer array of (row, col, digit) triples, for
/// an `n`x`n` grid, in one pass with the GIL released: `(ids, bad)`, an int32 id per move (-1
/// for a move of three -1) and -1, or, at the first move out of range, `(None, its index)`.
#[pyfunction]
#[pyo3(signature = (moves, /, n))]
pub fn _encode_moves<'py>(
    moves: &Bound<'py, PyAny>,
    n: usize,
) -> PyResult<(Option<Bound<'py, PyArray1<i32>>>, i64)> {
    super::guard::entry(|| {
        let py = moves.py();
        with_ints!(
            moves,
            |values| {
                if n == 0 || values.len() % 3 != 0 {
                    return Err(PyValueError::new_err(format!(
                        "{} values are no whole number of moves of 3",
                        values.len()
                    )));
                }
                let count = values.len() / 3;
                let out = alloc::zeros::<i32>(py, count)?;
                // SAFETY: the array was made just above and no other reference to it exists
                // yet, so nothing else reads or writes its data while it is filled.
                let slots = unsafe { out.as_slice_mut() }.expect("a new array is contiguous");
                let side = n as i64;
                let bad = py.detach(|| {
                    super::guard::no_panic(|| {
                        split_units(values, 3, slots, 1, |m, o| encode_run(m, side, o))
                    })
                })?;
                Ok(match bad {
                    Some(k) => (None, k as i64),
                    None => (Some(out), -1),
                })
            },
            Err(not_ints("moves"))
        )
    })
}

/// The moves of `ids`, a contiguous 1-D integer array of move ids of an `n`x`n` grid, in one
/// pass with the GIL released: `(moves, bad)`, three int32 per id ((-1, -1, -1) for -1) and
/// -1, or, at the first id out of range, `(None, its index)`.
#[pyfunction]
#[pyo3(signature = (ids, /, n))]
pub fn _decode_moves<'py>(
    ids: &Bound<'py, PyAny>,
    n: usize,
) -> PyResult<(Option<Bound<'py, PyArray1<i32>>>, i64)> {
    super::guard::entry(|| {
        let py = ids.py();
        if n == 0 || n > 64 {
            return Err(PyValueError::new_err(format!(
                "a grid side is 1..64, not {n}"
            )));
        }
        let table: Vec<[i32; 3]> = (0..n * n * n)
            .map(|id| {
                let (cell, digit) = (id / n, id % n);
                [(cell / n) as i32, (cell % n) as i32, digit as i32 + 1]
            })
            .collect();
        with_ints!(
            ids,
            |values| {
                let count = values.len();
                let total = alloc::product(count, 3, || format!("{count} moves"))?;
                let out = alloc::zeros::<i32>(py, total)?;
                // SAFETY: the array was made just above and no other reference to it exists
                // yet, so nothing else reads or writes its data while it is filled.
                let slots = unsafe { out.as_slice_mut() }.expect("a new array is contiguous");
                let bad = py.detach(|| {
                    super::guard::no_panic(|| {
                        split_units(values, 1, slots, 3, |i, o| decode_run(i, &table, o))
                    })
                })?;
                Ok(match bad {
                    Some(k) => (None, k as i64),
                    None => (Some(out), -1),
                })
            },
            Err(not_ints("move ids"))
        )
    })
}
