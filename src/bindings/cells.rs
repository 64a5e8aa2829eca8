//! Arrays of cells for the package's encoders and exporters (`python/sudoku_rs/_datasets.py`,
//! `_arrow.py`): a batch's puzzles read exactly as every batch function reads them, and the
//! cells of a one-hot array, and move ids to and from moves, each checked and converted in one
//! pass.

use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::alloc;
use super::args::{BoxArg, Threads};
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

/// An element of a one-hot array seen as its bytes: the unsigned integer of its width, so
/// that one pass serves every dtype (bool, integers, floats): zero is the all-zero bytes of
/// every numeric dtype, and one is whatever bytes the dtype's 1 has.
trait Item: Copy + Eq + Send + Sync {
    const ZERO: Self;
    fn from_bits(bits: u64) -> Self;
    /// The elements as bytes, for one-byte elements.
    fn as_bytes(values: &[Self]) -> Option<&[u8]> {
        let _ = values;
        None
    }
}

macro_rules! item {
    ($($t:ty),*) => {$(
        impl Item for $t {
            const ZERO: Self = 0;
            fn from_bits(bits: u64) -> Self {
                // The caller passes the bits of one element: they fit its width.
                <$t>::try_from(bits).unwrap_or(<$t>::MAX)
            }
        }
    )*};
}
item!(u16, u32);

impl Item for u8 {
    const ZERO: Self = 0;
    fn from_bits(bits: u64) -> Self {
        u8::try_from(bits).unwrap_or(u8::MAX)
    }
    fn as_bytes(values: &[Self]) -> Option<&[u8]> {
        Some(values)
    }
}

impl Item for u64 {
    const ZERO: Self = 0;
    fn from_bits(bits: u64) -> Self {
        bits
    }
}

/// Calls `$body` with `$typed` bound to `$array` cast to a 1-D numpy array of u8, u16, u32
/// or u64 (the one-hot elements' bytes, viewed as unsigned integers by the caller); `$other`
/// for any other dtype.
macro_rules! with_items {
    ($array:expr, |$typed:ident| $body:expr, $other:expr) => {{
        let array = $array;
        if let Ok($typed) = array.cast::<PyArray1<u8>>() {
            $body
        } else if let Ok($typed) = array.cast::<PyArray1<u16>>() {
            $body
        } else if let Ok($typed) = array.cast::<PyArray1<u32>>() {
            $body
        } else if let Ok($typed) = array.cast::<PyArray1<u64>>() {
            $body
        } else {
            $other
        }
    }};
}

fn not_items(what: &str) -> PyErr {
    pyo3::exceptions::PyTypeError::new_err(format!(
        "{what} must be a contiguous 1-D array of uint8, uint16, uint32 or uint64"
    ))
}

/// Writes the one-hot encoding of `cells` (values 0..=n, 0 blank) into `out`, a new array of
/// n elements per cell viewed as unsigned integers of the element's width, in one pass with
/// the GIL released, on every core for large arrays: cell value v > 0 sets element v - 1 of
/// its cell to `one` (the bits of the dtype's 1), every other element to zero. The index of
/// the first cell above `n`, if any (its cells are left as they were).
#[pyfunction]
#[pyo3(signature = (cells, out, /, n, one, threads = None))]
// pyo3 hands the array over as an owned read-only borrow guard.
#[allow(clippy::needless_pass_by_value)]
pub fn _encode_onehot(
    cells: PyReadonlyArray1<'_, u8>,
    out: &Bound<'_, PyAny>,
    n: usize,
    one: u64,
    threads: Option<Threads>,
) -> PyResult<i64> {
    super::guard::entry(|| {
        let py = cells.py();
        let values = cells.as_slice()?;
        with_items!(
            out,
            |typed| {
                let mut slots = typed.try_readwrite()?;
                let slots = slots.as_slice_mut()?;
                if n == 0 || values.len().checked_mul(n) != Some(slots.len()) {
                    return Err(PyValueError::new_err(format!(
                        "{} cells of {n} digits do not fill {} one-hot values",
                        values.len(),
                        slots.len()
                    )));
                }
                let one = Item::from_bits(one);
                let bad = py.detach(|| {
                    super::guard::no_panic(|| {
                        split_units(threads, values, 1, slots, n, |c, o| {
                            encode_cells(c, n, one, o)
                        })
                    })
                })?;
                Ok(bad.map_or(-1, |k| k as i64))
            },
            Err(not_items("out"))
        )
    })
}

/// Cells per block of the one-hot passes: a block's output (or its element codes) stays in
/// the cache between the two steps that write and read it.
const BLOCK: usize = 1024;

/// [`_encode_onehot`]'s pass over one piece.
fn encode_cells<U: Item>(cells: &[u8], n: usize, one: U, out: &mut [U]) -> Option<usize> {
    if n == 9 {
        // The classic grid, by far the most common: a copy of constant length per cell.
        return encode_rows(cells, 9, one, out);
    }
    for (b, (block, slots)) in cells
        .chunks(BLOCK)
        .zip(out.chunks_mut(BLOCK * n))
        .enumerate()
    {
        if let Some(k) = block.iter().position(|&v| usize::from(v) > n) {
            return Some(b * BLOCK + k);
        }
        slots.fill(U::ZERO);
        for (cell, &v) in slots.chunks_exact_mut(n).zip(block) {
            // Branch-free (blanks and digits alternate unpredictably): a blank writes zero over
            // its first element, a digit its one.
            let v = usize::from(v);
            cell[v.max(1) - 1] = if v == 0 { U::ZERO } else { one };
        }
    }
    None
}

/// Each cell's n elements copied from a table of the n + 1 encodings, in one write of the
/// output; inlined where `n` is a constant, so that the copy is a few moves.
#[inline(always)]
fn encode_rows<U: Item>(cells: &[u8], n: usize, one: U, out: &mut [U]) -> Option<usize> {
    let mut table = vec![U::ZERO; (n + 1) * n];
    for d in 0..n {
        table[(d + 1) * n + d] = one;
    }
    for (k, (&v, slot)) in cells.iter().zip(out.chunks_exact_mut(n)).enumerate() {
        let v = usize::from(v);
        let Some(row) = table.get(v * n..v * n + n) else {
            return Some(k);
        };
        slot.copy_from_slice(row);
    }
    None
}

/// The cells of a one-hot array, `onehot` holding `n` elements per cell viewed as unsigned
/// integers of the element's width and `one` the bits of the dtype's 1, in one pass with the
/// GIL released, on every core for large arrays: `(cells, bad)`, one uint8 per cell (the digit
/// whose element is one, 0 when every element is zero) and -1, or, at the first cell with an
/// element whose bits are neither zero nor `one`, or more than one `one`, `(None, index of
/// that cell)`. Bits are compared, not values: the caller reads a float's -0.0 (not the bits
/// of zero) the slower way.
#[pyfunction]
#[pyo3(signature = (onehot, /, n, one, threads = None))]
pub fn _decode_onehot<'py>(
    onehot: &Bound<'py, PyAny>,
    n: usize,
    one: u64,
    threads: Option<Threads>,
) -> PyResult<(Option<Bound<'py, PyArray1<u8>>>, i64)> {
    super::guard::entry(|| {
        let py = onehot.py();
        with_items!(
            onehot,
            |typed| {
                let values = typed.try_readonly()?;
                let values = values.as_slice()?;
                if n == 0 || values.len() % n != 0 {
                    return Err(PyValueError::new_err(format!(
                        "{} one-hot values are no whole number of cells of {n}",
                        values.len()
                    )));
                }
                let cells = values.len() / n;
                let out = alloc::zeros::<u8>(py, cells)?;
                // SAFETY: the array was made just above and no other reference to it exists
                // yet, so nothing else reads or writes its data while it is filled.
                let slots = unsafe { out.as_slice_mut() }.expect("a new array is contiguous");
                let one = Item::from_bits(one);
                let bad = py.detach(|| {
                    super::guard::no_panic(|| {
                        split_units(threads, values, n, slots, 1, |v, o| {
                            decode_cells(v, n, one, o)
                        })
                    })
                })?;
                Ok(match bad {
                    Some(cell) => (None, cell as i64),
                    None => (Some(out), -1),
                })
            },
            Err(not_items("onehot"))
        )
    })
}

/// Writes each cell's digit to `out`; the index of the first cell with an element neither
/// zero nor `one`, or more than one `one`, if any. Each block's elements are first coded as
/// bytes (0 zero, 1 one, 2 anything else: one compare of every element, which vectorises),
/// then read by [`decode_bytes`]; one-byte elements whose one is 1 are read as they are.
fn decode_cells<U: Item>(values: &[U], n: usize, one: U, out: &mut [u8]) -> Option<usize> {
    if let Some(bytes) = U::as_bytes(values).filter(|_| one == U::from_bits(1)) {
        return decode_bytes_of(bytes, n, out);
    }
    let mut codes = vec![0u8; BLOCK * n];
    for (b, (block, slots)) in values
        .chunks(BLOCK * n)
        .zip(out.chunks_mut(BLOCK))
        .enumerate()
    {
        let codes = &mut codes[..block.len()];
        for (code, &v) in codes.iter_mut().zip(block) {
            *code = (u8::from(v != U::ZERO) << 1) - u8::from(v == one);
        }
        if let Some(k) = decode_bytes_of(codes, n, slots) {
            return Some(b * BLOCK + k);
        }
    }
    None
}

/// [`decode_bytes`], with `n` a constant on the classic grid.
fn decode_bytes_of(values: &[u8], n: usize, out: &mut [u8]) -> Option<usize> {
    if n == 9 {
        decode_bytes(values, 9, out)
    } else {
        decode_bytes(values, n, out)
    }
}

/// The digits of cells of `n` bytes each, every byte 0 or 1 (anything else, and more than one
/// 1 in a cell, is the index returned): eight bytes at a time as one word, whose bytes' sum is
/// one multiply and whose 1 is its trailing zeros.
#[inline(always)]
fn decode_bytes(values: &[u8], n: usize, out: &mut [u8]) -> Option<usize> {
    const HIGH: u64 = 0xFEFE_FEFE_FEFE_FEFE;
    const LOW: u64 = 0x0101_0101_0101_0101;
    let whole = n - n % 8;
    for (k, (cell, slot)) in values.chunks_exact(n).zip(out.iter_mut()).enumerate() {
        let (mut high, mut count, mut digit) = (0u64, 0u64, 0u32);
        let mut words = cell.chunks_exact(8);
        for (w, word) in (&mut words).enumerate() {
            let x = u64::from_le_bytes(word.try_into().expect("eight bytes"));
            high |= x & HIGH;
            // The sum of the word's bytes (at most 8 when each is 0 or 1).
            count += x.wrapping_mul(LOW) >> 56;
            let at = 8 * w as u32 + x.trailing_zeros() / 8 + 1;
            digit = if x == 0 { digit } else { at };
        }
        for (i, &v) in words.remainder().iter().enumerate() {
            high |= u64::from(v & 0xFE);
            count += u64::from(v);
            digit = if v == 0 {
                digit
            } else {
                (whole + i) as u32 + 1
            };
        }
        if high != 0 || count > 1 {
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

/// Units (moves, cells) below which an array is done on one thread: starting threads costs
/// more.
const PARALLEL_UNITS: usize = 1 << 18;

/// Runs `work` over `input` and `output` cut into matching pieces (`per_in` input items and
/// `per_out` output items per unit), on up to `threads` threads (every core for `None`) for
/// large arrays; the first failing unit's index, if any.
fn split_units<T: Sync, U: Send>(
    threads: Option<Threads>,
    input: &[T],
    per_in: usize,
    output: &mut [U],
    per_out: usize,
    work: impl Fn(&[T], &mut [U]) -> Option<usize> + Sync,
) -> Option<usize> {
    let units = input.len() / per_in;
    // Asking for the cores reads cgroup files: only worth it for an array worth splitting.
    if units < 2 * PARALLEL_UNITS {
        return work(input, output);
    }
    let pieces = threads.unwrap_or_default().for_rows(units / PARALLEL_UNITS);
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
            .filter_map(|h| h.join().expect("a worker does not panic"))
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
#[pyo3(signature = (moves, /, n, threads = None))]
pub fn _encode_moves<'py>(
    moves: &Bound<'py, PyAny>,
    n: usize,
    threads: Option<Threads>,
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
                        split_units(threads, values, 3, slots, 1, |m, o| encode_run(m, side, o))
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
#[pyo3(signature = (ids, /, n, threads = None))]
pub fn _decode_moves<'py>(
    ids: &Bound<'py, PyAny>,
    n: usize,
    threads: Option<Threads>,
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
                        split_units(threads, values, 1, slots, 3, |i, o| {
                            decode_run(i, &table, o)
                        })
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
