//! Telling input kinds apart, in one place, and writing results back in the same kind.
//!
//! Every kind becomes a core [`Grid`] (row-major `u8`, 0 = blank); the [`Kind`] remembers how to
//! turn cells back into what the caller passed in.

use numpy::ndarray::Ix2;
use numpy::{PyArray2, PyArrayDescr, PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyException, PyMemoryError, PyOverflowError, PyTypeError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt, PyList, PyString, PyTuple};

use crate::core::error::{Cell, Error};
use crate::core::grid::expected_values;
use crate::core::grid::text::{self, expected_chars, value_of_char};
use crate::core::Grid;

use super::alloc;
use super::cell_objects::{CellKind, CellObjects};
use super::dtype::{
    check_integer_dtype, first_out_of_range, in_dtype, native_order, read_values, CellElement,
    Values,
};
use super::pystr;
use super::request::Request;
use crate::with_int_type;

/// How the grid came in, so the result goes back the same way.
pub enum Kind<'py> {
    /// A string: the original text as the layout template, or `None` when it holds nothing
    /// but the cell characters (written back as one line, with no template kept).
    Text(Option<String>),
    /// Rows of ints, 0 = blank.
    IntRows,
    /// Rows of one-character strings (the LeetCode board).
    CharRows,
    /// A list of row strings.
    TextRows,
    /// A 2-D numpy array of this dtype.
    Array(Bound<'py, PyArrayDescr>),
}

pub struct Input<'py> {
    pub kind: Kind<'py>,
    pub grid: Grid,
}

/// Reads any supported grid. Malformed grids raise `InvalidPuzzleError`; values of the wrong
/// Python type raise `TypeError`.
pub fn read<'py>(obj: &Bound<'py, PyAny>, request: &Request) -> PyResult<Input<'py>> {
    if let Ok(s) = obj.cast::<PyString>() {
        return pystr::with_text(s, |s| {
            let grid = text::parse(s, request.boxed())?;
            // Cell characters are one byte each: a text of as many bytes has no layout to keep.
            let layout = (s.len() != grid.cells().len()).then(|| s.to_owned());
            Ok(Input {
                kind: Kind::Text(layout),
                grid,
            })
        })?;
    }
    if let Ok(array) = obj.cast::<PyUntypedArray>() {
        return read_array(array, request);
    }
    if let Some(input) = read_plain_rows(obj, request) {
        return input;
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        return read_rows(obj, request);
    }
    Err(PyTypeError::new_err(format!(
        "expected a grid: a str, a list of rows, or a 2-D numpy array of integers; got {}",
        type_name(obj)
    )))
}

/// Reads any supported grid as [`read`] does, and a string of pencil marks (a sukaku: see
/// [`text::parse_with_marks`]) as a blank grid with one mask per cell. Its solution is
/// written back as one line of cells.
pub fn read_marked<'py>(
    obj: &Bound<'py, PyAny>,
    request: &Request,
) -> PyResult<(Input<'py>, Option<Vec<u64>>)> {
    let Ok(s) = obj.cast::<PyString>() else {
        return Ok((read(obj, request)?, None));
    };
    pystr::with_text(s, |s| {
        let (grid, marks) = text::parse_with_marks(s, request.boxed())?;
        let layout = (marks.is_none() && s.len() != grid.cells().len()).then(|| s.to_owned());
        Ok((
            Input {
                kind: Kind::Text(layout),
                grid,
            },
            marks,
        ))
    })?
}

impl<'py> Kind<'py> {
    /// The cells of a solved grid (`n x n`, row-major) in this kind.
    pub fn write(&self, py: Python<'py>, cells: &[u8]) -> PyResult<Bound<'py, PyAny>> {
        let n = crate::core::grid::shape::isqrt(cells.len());
        let rows = cells.chunks(n);
        Ok(match self {
            Kind::Text(None) => line_string(py, cells)?.into_any(),
            Kind::Text(Some(template)) => {
                alloc::string(py, &text::render_like(template, cells))?.into_any()
            }
            Kind::IntRows => {
                let objects = CellObjects::get(py);
                row_lists(py, rows, |v| objects.int(py, v).into_any())?
            }
            Kind::CharRows => {
                let objects = CellObjects::get(py);
                row_lists(py, rows, |v| objects.char(py, v).into_any())?
            }
            Kind::TextRows => alloc::list(
                py,
                rows.map(|row| Ok(alloc::string(py, &text::to_line(row))?.into_any())),
            )?
            .into_any(),
            Kind::Array(dtype) => write_array(py, dtype, cells, n)?,
        })
    }
}

/// A list of row lists, each cell the object `cell` gives for its value.
fn row_lists<'py, 'c>(
    py: Python<'py>,
    rows: impl ExactSizeIterator<Item = &'c [u8]>,
    cell: impl Fn(u8) -> Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let lists = rows.map(|row| Ok(alloc::list(py, row.iter().map(|&v| Ok(cell(v))))?.into_any()));
    Ok(alloc::list(py, lists)?.into_any())
}

/// The cells as one line of text, written on the stack when short: no String between the
/// cells and Python's copy.
pub fn line_string<'py>(py: Python<'py>, cells: &[u8]) -> PyResult<Bound<'py, PyString>> {
    let mut buf = [0u8; pystr::SHORT_TEXT];
    if let Some(line) = buf.get_mut(..cells.len()) {
        if text::write_line(cells, line) {
            if let Ok(line) = std::str::from_utf8(line) {
                return alloc::string(py, line);
            }
        }
    }
    alloc::string(py, &text::to_line(cells))
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "an unknown type".into(), |n| n.to_string())
}

fn shape_error(msg: String) -> PyErr {
    Error::Shape(msg).into()
}

/// The side of a square grid given its row count and every row's length.
fn square_side(lengths: &[usize]) -> PyResult<usize> {
    let n = lengths.len();
    if n == 0 {
        return Err(shape_error(
            "the grid is empty: expected n rows of n cells".into(),
        ));
    }
    if let Some((i, &len)) = lengths
        .iter()
        .enumerate()
        .find(|(_, &len)| len != lengths[0])
    {
        return Err(shape_error(format!(
            "rows have different lengths: row 0 has {} cells, row {i} has {len}",
            lengths[0]
        )));
    }
    if lengths[0] != n {
        return Err(shape_error(format!(
            "expected a square grid, got {n} rows of {} cells ({n}x{})",
            lengths[0], lengths[0]
        )));
    }
    Ok(n)
}

/// The common list of rows, read with borrowed references (no iterator objects, no reference
/// counting per cell): an exact `list` of `n` exact `list`s of `n` cells, every cell a plain
/// int in 0..=n or every cell a one-character str. A list of rows of ints cost about three
/// times a string's call through the general reading below. `None` for anything else, which
/// that reading takes: it has every error message, so none is raised here.
fn read_plain_rows<'py>(
    obj: &Bound<'py, PyAny>,
    request: &Request,
) -> Option<PyResult<Input<'py>>> {
    let py = obj.py();
    // First, before the list is measured: making the objects on first use may let other
    // threads run (and change the list) while it waits for them.
    let objects = CellObjects::get(py);
    let rows = obj.cast_exact::<PyList>().ok()?;
    let n = rows.len();
    let shape = request.shape(n).ok()?;
    let mut cells = Vec::with_capacity(n * n);
    // The first cell decides the kind; every other must match.
    let mut kind = None;
    for r in 0..n {
        // SAFETY: r is below the length of a list nothing here changes (no Python code runs
        // while it is read), so the borrowed item is live.
        let row = unsafe { Borrowed::from_ptr(py, ffi::PyList_GetItem(rows.as_ptr(), r as _)) };
        let row = row.cast_exact::<PyList>().ok()?;
        if row.len() != n {
            return None;
        }
        for c in 0..n {
            // SAFETY: as for the row.
            let item = unsafe { Borrowed::from_ptr(py, ffi::PyList_GetItem(row.as_ptr(), c as _)) };
            let (this, value) = match objects.cell(&item) {
                Some(cell) if cell.1 as usize <= n => cell,
                _ => plain_cell(&item, n)?,
            };
            if *kind.get_or_insert(this) != this {
                return None;
            }
            cells.push(value);
        }
    }
    let kind = match kind? {
        CellKind::Int => Kind::IntRows,
        CellKind::Char if n <= text::MAX_TEXT_VALUE as usize => Kind::CharRows,
        CellKind::Char => return None,
    };
    Some(
        Grid::new(shape, cells)
            .map_err(Into::into)
            .map(|grid| Input { kind, grid }),
    )
}

fn read_rows<'py>(obj: &Bound<'py, PyAny>, request: &Request) -> PyResult<Input<'py>> {
    // Rows may be numpy arrays (`list(array2d)`): read them as lists of numpy scalars.
    let rows: Vec<Bound<'py, PyAny>> = obj
        .try_iter()?
        .map(|row| {
            let row = row?;
            let plain = row.is_instance_of::<PyList>()
                || row.is_instance_of::<PyTuple>()
                || row.is_instance_of::<PyString>();
            if !plain && row.cast::<PyUntypedArray>().is_ok() {
                row.call_method0("tolist")
            } else {
                Ok(row)
            }
        })
        .collect::<PyResult<_>>()?;
    if rows.iter().all(PyAnyMethods::is_instance_of::<PyString>) && !rows.is_empty() {
        return read_text_rows(&rows, request);
    }
    let mut lengths = Vec::with_capacity(rows.len());
    for (i, row) in rows.iter().enumerate() {
        if !(row.is_instance_of::<PyList>() || row.is_instance_of::<PyTuple>()) {
            return Err(shape_error(format!(
                "expected a list of rows, but item {i} is {} {}; a flat list of cells needs \
                 to be split into rows",
                article(&type_name(row)),
                type_name(row)
            )));
        }
        lengths.push(row.len()?);
    }
    let n = square_side(&lengths)?;
    let shape = request.shape(n)?;
    let mut cells = Vec::with_capacity(n * n);
    let mut kind = None;
    for (r, row) in rows.iter().enumerate() {
        for (c, item) in row.try_iter()?.enumerate() {
            let item = item?;
            let (this, value) = read_cell(&item, n, r, c)?;
            match kind {
                None => kind = Some(this),
                Some(k) if k != this => {
                    return Err(PyTypeError::new_err(format!(
                        "row {r}, column {c} is {} {} but earlier cells are {}; use all ints \
                         or all one-character strings",
                        article(&type_name(&item)),
                        type_name(&item),
                        if k == CellKind::Int {
                            "ints"
                        } else {
                            "strings"
                        }
                    )))
                }
                Some(_) => {}
            }
            cells.push(value);
        }
    }
    let kind = match kind {
        Some(CellKind::Char) => {
            check_text_size(n)?;
            Kind::CharRows
        }
        _ => Kind::IntRows,
    };
    Ok(Input {
        kind,
        grid: Grid::new(shape, cells)?,
    })
}

fn article(noun: &str) -> &'static str {
    match noun.chars().next() {
        Some('a' | 'e' | 'i' | 'o' | 'u' | 'A' | 'E' | 'I' | 'O' | 'U') => "an",
        _ => "a",
    }
}

fn read_text_rows<'py>(rows: &[Bound<'py, PyAny>], request: &Request) -> PyResult<Input<'py>> {
    let lines: Vec<String> = rows
        .iter()
        .map(PyAnyMethods::extract)
        .collect::<PyResult<_>>()?;
    let lengths: Vec<usize> = lines.iter().map(|l| l.chars().count()).collect();
    let n = square_side(&lengths)?;
    check_text_size(n)?;
    let shape = request.shape(n)?;
    let mut cells = Vec::with_capacity(n * n);
    for (r, line) in lines.iter().enumerate() {
        for (c, ch) in line.chars().enumerate() {
            cells.push(char_value(ch, n, r, c)?);
        }
    }
    Ok(Input {
        kind: Kind::TextRows,
        grid: Grid::new(shape, cells)?,
    })
}

/// Cell characters end at `Z` = 35: a bigger grid cannot come back as characters.
fn check_text_size(n: usize) -> PyResult<()> {
    if n > text::MAX_TEXT_VALUE as usize {
        return Err(shape_error(format!(
            "a {n}x{n} grid cannot be written with cell characters (they end at 'Z' = {}); \
             pass rows of ints or a numpy array",
            text::MAX_TEXT_VALUE
        )));
    }
    Ok(())
}

fn char_value(ch: char, n: usize, row: usize, col: usize) -> Result<u8, Error> {
    match value_of_char(ch) {
        Some(v) if (v as usize) <= n => Ok(v),
        _ => Err(Error::Value {
            cell: Cell { row, col },
            found: format!("{ch:?}"),
            expected: expected_chars(n),
        }),
    }
}

fn value_error(item: &Bound<'_, PyAny>, n: usize, row: usize, col: usize) -> PyErr {
    let found = item.repr().map_or_else(|_| "?".into(), |r| r.to_string());
    Error::Value {
        cell: Cell { row, col },
        found,
        expected: expected_values(n),
    }
    .into()
}

/// The usual cell, after one type check: a plain int or a one-character str, in range for a
/// grid of side `n`. `None` for anything else, valid or not.
#[inline]
fn plain_cell(item: &Bound<'_, PyAny>, n: usize) -> Option<(CellKind, u8)> {
    if item.is_exact_instance_of::<PyInt>() {
        let v = item.extract::<i64>().ok()?;
        (0..=n as i64)
            .contains(&v)
            .then_some((CellKind::Int, v as u8))
    } else {
        let v = pystr::one_char(item)
            .and_then(value_of_char)
            .filter(|&v| v as usize <= n)?;
        Some((CellKind::Char, v))
    }
}

/// One cell of a list of rows: an int (or an int-valued float, or anything with `__index__`),
/// or a one-character string.
fn read_cell(
    item: &Bound<'_, PyAny>,
    n: usize,
    row: usize,
    col: usize,
) -> PyResult<(CellKind, u8)> {
    // The usual cells first; anything else, and every error, goes the general way below.
    if let Some(cell) = plain_cell(item, n) {
        return Ok(cell);
    }
    if let Ok(s) = item.cast::<PyString>() {
        let s = s.to_cow()?;
        let mut chars = s.chars();
        return match (chars.next(), chars.next()) {
            (Some(ch), None) => Ok((CellKind::Char, char_value(ch, n, row, col)?)),
            _ => Err(Error::Value {
                cell: Cell { row, col },
                found: item.repr()?.to_string(),
                expected: expected_chars(n) + " (one character)",
            }
            .into()),
        };
    }
    if item.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "row {row}, column {col} is a bool; expected an int (0 = blank) or a one-character string"
        )));
    }
    // Floats count when integral: Python floats, and numpy's float16/float32 scalars, which are
    // not float subclasses (numpy bools, which also convert to float, are refused above/below).
    // Plain ints, by far the common case, skip the type-name lookup (a string per cell).
    let float = if item.is_instance_of::<PyInt>() {
        None
    } else {
        match item.cast::<PyFloat>() {
            Ok(f) => Some(f.value()),
            Err(_) if type_name(item).starts_with("float") => Some(item.extract::<f64>()?),
            Err(_) => None,
        }
    };
    let value: i64 = if let Some(x) = float {
        if x.fract() != 0.0 || !(0.0..=n as f64).contains(&x) {
            return Err(value_error(item, n, row, col));
        }
        x as i64
    } else {
        match item.extract::<i64>() {
            Ok(v) => v,
            Err(e) if e.is_instance_of::<PyOverflowError>(item.py()) => {
                return Err(value_error(item, n, row, col))
            }
            // Ctrl-C or running out of memory inside a cell's `__index__` is not a bad cell.
            Err(e) if passes_through(item.py(), &e) => return Err(e),
            Err(e) => {
                let err = PyTypeError::new_err(format!(
                    "row {row}, column {col} is {} {}; expected an int (0 = blank) or a \
                     one-character string",
                    article(&type_name(item)),
                    type_name(item)
                ));
                // Whatever the cell's own `__index__` raised stays visible as the cause.
                err.set_cause(item.py(), Some(e));
                return Err(err);
            }
        }
    };
    if !(0..=n as i64).contains(&value) {
        return Err(value_error(item, n, row, col));
    }
    Ok((CellKind::Int, value as u8))
}

/// Errors from a user's object that must reach the caller unchanged: `MemoryError` and anything
/// that is not an `Exception` (KeyboardInterrupt, SystemExit).
fn passes_through(py: Python<'_>, err: &PyErr) -> bool {
    err.is_instance_of::<PyMemoryError>(py) || !err.is_instance_of::<PyException>(py)
}

fn read_array<'py>(array: &Bound<'py, PyUntypedArray>, request: &Request) -> PyResult<Input<'py>> {
    let dtype = array.dtype();
    check_integer_dtype(&dtype)?;
    let shape = array.shape();
    if shape.len() != 2 || shape[0] != shape[1] || shape[0] == 0 {
        let dims: Vec<String> = shape.iter().map(ToString::to_string).collect();
        return Err(shape_error(format!(
            "expected a 2-D array of shape (n, n), got shape ({}{})",
            dims.join(", "),
            if dims.len() == 1 { "," } else { "" }
        )));
    }
    let n = shape[0];
    let box_shape = request.shape(n)?;
    let native = native_order(array)?;
    let cells = with_int_type!(dtype, T => read_typed::<T>(&native, n)?);
    Ok(Input {
        kind: Kind::Array(dtype),
        grid: Grid::new(box_shape, cells)?,
    })
}

fn read_typed<T: CellElement>(array: &Bound<'_, PyAny>, n: usize) -> PyResult<Vec<u8>> {
    // A value out of range is named by its (row, col): from a flat index in row-major order,
    // or from the view's own indices whatever the memory layout.
    let side = n as u8; // at most 64, checked by the box shape
    let out_of_range = |(row, col): (usize, usize), found: String| Error::Value {
        cell: Cell { row, col },
        found,
        expected: expected_values(n),
    };
    read_values(array.cast::<PyArray2<T>>()?, |values| match values {
        Values::Flat(flat) => {
            // Every value checked in one pass without an early exit, which vectorises.
            if flat.iter().fold(true, |ok, &v| ok & v.is_cell(side)) {
                return Ok(flat.iter().map(|&v| v.as_byte()).collect());
            }
            let (k, found) = first_out_of_range(flat, n).expect("a bad value");
            Err(out_of_range((k / n, k % n), found).into())
        }
        Values::Strided(view) => {
            let mut cells = Vec::with_capacity(n * n);
            for (at, &v) in view.indexed_iter() {
                if !v.is_cell(side) {
                    return Err(out_of_range(at, v.to_string()).into());
                }
                cells.push(v.as_byte());
            }
            Ok(cells)
        }
    })
}

fn write_array<'py>(
    py: Python<'py>,
    dtype: &Bound<'py, PyArrayDescr>,
    cells: &[u8],
    n: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let out = with_int_type!(dtype, T => {
        alloc::cells_array::<T, Ix2>(py, &[n, n], Some(cells))?.into_any()
    });
    in_dtype(out, dtype)
}
