//! Batch solving and counting over numpy stacks and lists of strings.
//!
//! Puzzles are copied into a `u8` buffer a chunk at a time while attached (so no Python thread
//! can change them under the search), searched on every thread with the GIL released, and the
//! results written into the output while attached again. Memory beyond input and output is one
//! chunk, whatever the batch size. A bad row comes back as zeros (None for strings), never as an
//! exception that would lose the rest of the batch.

use numpy::ndarray::Axis;
use numpy::{
    PyArrayDescr, PyArrayDescrMethods, PyArrayDyn, PyArrayMethods, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use std::sync::Arc;

use crate::core::grid::marks::restrict;
use crate::core::grid::text::{self, render_like};
use crate::core::grid::{cell_at, expected_values};
use crate::core::{BoxShape, Control, Error, Grid, Rules, Solver, Status};
use crate::with_int_type;

use super::alloc;
use super::args::{BoxArg, Limit, MaxGuesses, Threads};
use super::chunks::{PerThread, Runner};
use super::dtype::{
    check_integer_dtype, first_out_of_range, in_dtype, native_order, read_values, CellElement,
    Values,
};
use super::errors::InvalidPuzzleError;
use super::input::line_string;
use super::one_row::OneRow;
use super::pystr;
use super::request::Request;

/// Where the puzzles come from.
pub(super) enum Source<'py> {
    /// A native-order integer array of shape (N, n, n) or (N, n*n).
    Array(Bound<'py, PyAny>, Bound<'py, PyArrayDescr>),
    /// Puzzle strings.
    Strings(Vec<Bound<'py, PyAny>>),
}

pub(super) struct Batch<'py> {
    pub(super) source: Source<'py>,
    /// The first string that parsed and decided the shape, kept so that reading that row
    /// does not parse it again (for a batch of one string, half its parsing).
    first: Option<(usize, Grid)>,
    pub(super) shape: BoxShape,
    pub(super) count: usize,
    /// Set by [`Batch::strict`]: a malformed row raises, named `name[i]`, instead of coming
    /// back blank.
    strict: Option<&'static str>,
    /// Variant rules every puzzle is searched under; `None` for classic rules.
    pub(super) rules: Option<Arc<Rules>>,
    /// Set by [`Batch::with_marks`]: a string of pencil marks (a sukaku) is a puzzle too.
    marks: bool,
}

/// The pencil marks of a chunk's sukaku rows, as [`Batch::read_marked`] finds them.
#[derive(Default)]
pub(super) struct RowMarks {
    /// `n*n` masks per row of the chunk ([`restrict`]'s), kept only once a row has marks.
    masks: Vec<u64>,
    /// Which rows of the chunk are sukaku.
    marked: Vec<bool>,
    cells: usize,
}

impl RowMarks {
    fn clear(&mut self, rows: usize, cells: usize) {
        self.masks.clear();
        self.marked.clear();
        self.marked.resize(rows, false);
        self.cells = cells;
    }

    fn set(&mut self, local: usize, masks: &[u64]) {
        if self.masks.is_empty() {
            self.masks.resize(self.marked.len() * self.cells, 0);
        }
        self.masks[local * self.cells..(local + 1) * self.cells].copy_from_slice(masks);
        self.marked[local] = true;
    }

    /// The marks of row `local` of the chunk, `None` for a grid.
    pub(super) fn get(&self, local: usize) -> Option<&[u64]> {
        self.marked
            .get(local)
            .copied()
            .unwrap_or(false)
            .then(|| &self.masks[local * self.cells..(local + 1) * self.cells])
    }
}

/// A shape as Python prints it: `(3, 9, 9)`, `(81,)`.
pub(super) fn dims_text(dims: &[usize]) -> String {
    let dims: Vec<String> = dims.iter().map(ToString::to_string).collect();
    format!(
        "({}{})",
        dims.join(", "),
        if dims.len() == 1 { "," } else { "" }
    )
}

fn batch_shape_error(shape: &[usize]) -> PyErr {
    let dims: Vec<Option<usize>> = shape.iter().copied().map(Some).collect();
    super::entry::shape_error(&dims)
}

/// Opens a batch of grids as `request` asks: its box, and its rules (checked against the
/// batch's shape).
pub(super) fn open<'py>(puzzles: &Bound<'py, PyAny>, request: &Request) -> PyResult<Batch<'py>> {
    let requested_box = request.boxed();
    if let Ok(array) = puzzles.cast::<PyUntypedArray>() {
        let dtype = array.dtype();
        check_integer_dtype(&dtype)?;
        let dims = array.shape();
        // On the stack: a one-row batch costs about a microsecond, an allocation a few percent.
        let n = match *dims {
            [count, cells] => super::entry::puzzle_side(&[Some(count), Some(cells)]),
            [count, rows, cols] => {
                super::entry::puzzle_side(&[Some(count), Some(rows), Some(cols)])
            }
            _ => None,
        };
        let Some(n) = n else {
            return Err(batch_shape_error(dims));
        };
        let shape = request.shape(n)?;
        let native = native_order(array)?;
        request.check(shape)?;
        return Ok(Batch {
            source: Source::Array(native, dtype),
            first: None,
            shape,
            count: dims[0],
            strict: None,
            rules: request.rules().cloned(),
            marks: false,
        });
    }
    if puzzles.is_instance_of::<PyList>() || puzzles.is_instance_of::<PyTuple>() {
        // A copy of the items, so that the rows written back are the rows read even if
        // another thread changes the list while the GIL is released.
        let items: Vec<Bound<'py, PyAny>> = match puzzles.cast::<PyList>() {
            Ok(list) => list.iter().collect(),
            Err(_) => puzzles.try_iter()?.collect::<PyResult<_>>()?,
        };
        // The first string that parses decides the size; rows of another size are bad rows.
        let first = items.iter().enumerate().find_map(|(i, item)| {
            let s = item.cast::<PyString>().ok()?;
            let parsed = pystr::with_text(s, |s| text::parse(s, requested_box).ok());
            parsed.ok()?.map(|grid| (i, grid))
        });
        let shape = match (&first, requested_box) {
            (Some((_, grid)), _) => grid.shape(),
            (None, Some((r, c))) => BoxShape::new(r, c)?,
            (None, None) => BoxShape::CLASSIC,
        };
        let count = items.len();
        request.check(shape)?;
        return Ok(Batch {
            source: Source::Strings(items),
            first,
            shape,
            count,
            strict: None,
            rules: request.rules().cloned(),
            marks: false,
        });
    }
    Err(PyTypeError::new_err(format!(
        "expected a numpy integer array of shape (N, n, n) or (N, n*n), or a list of puzzle \
         strings; got {}",
        puzzles.get_type().name()?
    )))
}

impl Batch<'_> {
    /// This batch, reading a string of pencil marks (a sukaku: see
    /// [`text::parse_with_marks`]) as a puzzle of its own, blank cells under marks, rather
    /// than as a bad row; for work that takes marks (classic rules only: under variant rules
    /// a sukaku stays a bad row).
    pub(super) fn with_marks(mut self) -> Self {
        self.marks = self.rules.is_none();
        self
    }

    /// This batch, raising `InvalidPuzzleError("name[i]: ...")` for its first malformed row
    /// rather than passing it on blank: for work whose output must match its input row for row.
    pub(super) fn strict(mut self, name: &'static str) -> Self {
        self.strict = Some(name);
        self
    }

    /// The batch's shape as Python prints it: `(3, 81)` for an array, `(3,)` for a list.
    pub(super) fn describe(&self) -> PyResult<String> {
        let dims = match &self.source {
            Source::Array(array, _) => array.cast::<PyUntypedArray>()?.shape().to_vec(),
            Source::Strings(items) => vec![items.len()],
        };
        Ok(dims_text(&dims))
    }

    /// Why row `i` is not a well-formed puzzle of the batch's shape, named `name[i]`.
    fn row_error(&self, name: &str, i: usize) -> PyResult<PyErr> {
        let n = self.shape.size();
        let detail = match &self.source {
            Source::Array(array, dtype) => with_int_type!(dtype, T => {
                let nc = n * n;
                let bad = read_values(array.cast::<PyArrayDyn<T>>()?, |values| match values {
                    Values::Flat(flat) => first_out_of_range(&flat[i * nc..(i + 1) * nc], n),
                    Values::Strided(view) => first_out_of_range(view.index_axis(Axis(0), i), n),
                });
                match bad {
                    Some((k, found)) => Error::Value {
                        cell: cell_at(k, n),
                        found,
                        expected: expected_values(n),
                    }
                    .to_string(),
                    None => "not a well-formed puzzle".to_string(),
                }
            }),
            Source::Strings(items) => match items[i].cast::<PyString>() {
                Ok(s) => {
                    match text::parse(&s.to_cow()?, Some((self.shape.rows(), self.shape.cols()))) {
                        Err(err) => err.to_string(),
                        Ok(_) => "not a well-formed puzzle".to_string(),
                    }
                }
                Err(_) => format!(
                    "expected a puzzle string, got {}",
                    items[i].get_type().name()?
                ),
            },
        };
        Ok(InvalidPuzzleError::new_err(format!(
            "{name}[{i}]: {detail}"
        )))
    }

    /// Copies puzzles `start..end` into `cells`; a row that is not a well-formed puzzle of
    /// the batch's shape is marked in `valid` and left blank.
    pub(super) fn read(
        &self,
        start: usize,
        end: usize,
        cells: &mut Vec<u8>,
        valid: &mut Vec<bool>,
    ) -> PyResult<()> {
        self.read_marked(start, end, cells, valid, &mut RowMarks::default())
    }

    /// One string row: its grid, and its marks when it is a sukaku and the batch takes them
    /// (checked as a single call checks them); `None` for a bad row.
    fn parse_row(
        &self,
        s: &str,
        shape: Option<(usize, usize)>,
    ) -> Option<(Grid, Option<Vec<u64>>)> {
        if !self.marks {
            return text::parse(s, shape).ok().map(|grid| (grid, None));
        }
        match text::parse_with_marks(s, shape).ok()? {
            (grid, None) => Some((grid, None)),
            (grid, Some(marks)) => {
                let marks = restrict(&grid, &marks).ok()?;
                Some((grid, Some(marks)))
            }
        }
    }

    /// [`Batch::read`], with the marks of the sukaku rows (see [`Batch::with_marks`]) in
    /// `marks`.
    pub(super) fn read_marked(
        &self,
        start: usize,
        end: usize,
        cells: &mut Vec<u8>,
        valid: &mut Vec<bool>,
        marks: &mut RowMarks,
    ) -> PyResult<()> {
        let nc = self.shape.cell_count();
        marks.clear(end - start, nc);
        cells.clear();
        cells.resize((end - start) * nc, 0);
        valid.clear();
        valid.resize(end - start, true);
        match &self.source {
            Source::Array(array, dtype) => with_int_type!(dtype, T => {
                read_rows::<T>(array, self.shape.size(), start, end, cells, valid)
            }),
            Source::Strings(items) => {
                let shape = Some((self.shape.rows(), self.shape.cols()));
                for (k, item) in items[start..end].iter().enumerate() {
                    if let Some((_, grid)) = self.first.as_ref().filter(|(i, _)| *i == start + k) {
                        cells[k * nc..(k + 1) * nc].copy_from_slice(grid.cells());
                        continue;
                    }
                    let parsed = item
                        .cast::<PyString>()
                        .ok()
                        .and_then(|s| pystr::with_text(s, |s| self.parse_row(s, shape)).ok())
                        .flatten();
                    match parsed {
                        Some((grid, row_marks)) => {
                            cells[k * nc..(k + 1) * nc].copy_from_slice(grid.cells());
                            if let Some(row_marks) = row_marks {
                                marks.set(k, &row_marks);
                            }
                        }
                        None => valid[k] = false,
                    }
                }
                Ok(())
            }
        }?;
        if let Some(name) = self.strict {
            if let Some(k) = valid.iter().position(|ok| !ok) {
                return Err(self.row_error(name, start + k)?);
            }
        }
        Ok(())
    }
}

pub(super) fn read_rows<T: CellElement>(
    array: &Bound<'_, PyAny>,
    n: usize,
    start: usize,
    end: usize,
    cells: &mut [u8],
    valid: &mut [bool],
) -> PyResult<()> {
    let nc = n * n;
    let rows = cells.chunks_exact_mut(nc).zip(valid.iter_mut());
    read_values(array.cast::<PyArrayDyn<T>>()?, |values| match values {
        // The usual case, a C-ordered array: one flat pass the compiler can vectorise. This
        // copy runs on the calling thread with the GIL held, so on easy puzzles it bounds how
        // far a batch scales with threads; the strided walk is several times slower.
        Values::Flat(flat) => {
            for ((out, ok), row) in rows.zip(flat[start * nc..end * nc].chunks_exact(nc)) {
                *ok = copy_row(row, n, out);
            }
        }
        // Logical order, whatever the strides: row-major cells for (n, n) and (n*n,) alike.
        Values::Strided(view) => {
            for ((out, ok), i) in rows.zip(start..end) {
                *ok = copy_row(view.index_axis(Axis(0), i), n, out);
            }
        }
    });
    Ok(())
}

/// Copies one puzzle's values into `out`; `false`, with `out` zeroed, if one is outside 0..=n.
#[inline]
fn copy_row<'a, T: CellElement + 'a>(
    row: impl IntoIterator<Item = &'a T>,
    n: usize,
    out: &mut [u8],
) -> bool {
    let (side, mut bad) = (n as u8, false);
    for (slot, &v) in out.iter_mut().zip(row) {
        bad |= !v.is_cell(side);
        *slot = v.as_byte();
    }
    if bad {
        out.fill(0);
    }
    !bad
}

/// Runs `work` over the batch chunk by chunk on the shared [`Runner`], each thread with its
/// per-thread state `S` (a solver, or `()` for work that does not search), handing each chunk's
/// results to `write`. Malformed rows are not worked on.
pub(super) fn run<'py, S, R, W>(
    py: Python<'py>,
    batch: &Batch<'py>,
    threads: Option<Threads>,
    progress: Option<Bound<'py, PyAny>>,
    stride: usize,
    work: W,
    write: impl FnMut(usize, &[R], &[bool]) -> PyResult<()>,
) -> PyResult<()>
where
    S: PerThread,
    R: Default + Clone + Send,
    W: Fn(&mut S, usize, &[u8], &mut [R], &mut dyn Control) + Sync,
{
    let work = |state: &mut S,
                i,
                puzzle: &[u8],
                _: Option<&[u64]>,
                out: &mut [R],
                control: &mut dyn Control| {
        work(state, i, puzzle, out, control);
    };
    run_marked(py, batch, threads, progress, stride, work, write)
}

/// [`run`], `work` also given the row's pencil marks: `None` for a grid, the marks of a
/// sukaku row of a batch [`Batch::with_marks`] opened (its cells blank).
pub(super) fn run_marked<'py, S, R, W>(
    py: Python<'py>,
    batch: &Batch<'py>,
    threads: Option<Threads>,
    progress: Option<Bound<'py, PyAny>>,
    stride: usize,
    work: W,
    mut write: impl FnMut(usize, &[R], &[bool]) -> PyResult<()>,
) -> PyResult<()>
where
    S: PerThread,
    R: Default + Clone + Send,
    W: Fn(&mut S, usize, &[u8], Option<&[u64]>, &mut [R], &mut dyn Control) + Sync,
{
    Runner::new(batch.shape, batch.count, threads, progress)
        .under(batch.rules.clone())
        .attached()
        .for_chunks(
            py,
            stride,
            |start, end, cells| {
                let (mut valid, mut marks) = (Vec::new(), RowMarks::default());
                batch.read_marked(start, end, cells, &mut valid, &mut marks)?;
                Ok((valid, marks))
            },
            |state, row, puzzle, out, control| {
                let (valid, marks) = row.chunk;
                if valid[row.local] {
                    work(state, row.index, puzzle, marks.get(row.local), out, control);
                }
            },
            |start, (valid, _), results| write(start, results, valid),
        )
}

/// [`run`] with one result a row: `work(state, row, cells, result, control)` fills the row's
/// result, and `take(row, result, valid)` gets every row's in batch order (a refused row's
/// result as `R::default()`, `valid` false).
pub(super) fn run_each<'py, S, R, W>(
    py: Python<'py>,
    batch: &Batch<'py>,
    threads: Option<Threads>,
    progress: Option<Bound<'py, PyAny>>,
    work: W,
    mut take: impl FnMut(usize, &R, bool) -> PyResult<()>,
) -> PyResult<()>
where
    S: PerThread,
    R: Default + Clone + Send,
    W: Fn(&mut S, usize, &[u8], &mut R, &mut dyn Control) + Sync,
{
    let each = |state: &mut S, i: usize, cells: &[u8], out: &mut [R], control: &mut dyn Control| {
        work(state, i, cells, &mut out[0], control);
    };
    run(
        py,
        batch,
        threads,
        progress,
        1,
        each,
        |start, results: &[R], valid| {
            for (k, (result, &ok)) in results.iter().zip(valid).enumerate() {
                take(start + k, result, ok)?;
            }
            Ok(())
        },
    )
}

/// Runs `work` (see [`run`]) where each row writes `stride` values, its [`Status`] code last;
/// `work` is given the row's marks as in [`run_marked`]; returns every row's status (a row the
/// reader refused is invalid, see [`status_of`]) and
/// hands each solved row's other values to `solved(row, values)`: the one place a row's
/// outcome is read back for batches whose records hold values only for solved rows
/// (`rate_batch`, `se_rate_batch`).
pub(super) fn run_rated<'py, S, T, W>(
    py: Python<'py>,
    batch: &Batch<'py>,
    threads: Option<Threads>,
    progress: Option<Bound<'py, PyAny>>,
    stride: usize,
    work: W,
    mut solved: impl FnMut(usize, &[T]),
) -> PyResult<Vec<i8>>
where
    S: PerThread,
    T: Default + Copy + Send + Into<i64>,
    W: Fn(&mut S, usize, &[u8], Option<&[u64]>, &mut [T], &mut dyn Control) + Sync,
{
    let count = batch.count;
    let mut statuses = alloc::filled(count, Status::Invalid.code(), || {
        format!("statuses of {count} rows")
    })?;
    run_marked(
        py,
        batch,
        threads,
        progress,
        stride,
        work,
        |start, results: &[T], valid| {
            for (k, row) in results.chunks(stride).enumerate() {
                let (values, code) = row.split_at(stride - 1);
                let status = status_of(valid[k], code[0].into());
                statuses[start + k] = status.code();
                if status == Status::Solved {
                    solved(start + k, values);
                }
            }
            Ok(())
        },
    )?;
    Ok(statuses)
}

/// Runs `work` (see [`run`]) and returns the first n*n values of each row's results as grids
/// in the kind of the input: an array of its dtype and shape, or a list of strings written like
/// each input line, None where `is_grid` rejects the row (malformed rows are always None).
/// `note` sees every chunk's results too, for whatever else the caller collects.
#[allow(clippy::too_many_arguments)]
pub(super) fn run_to_grids<'py, S, W>(
    py: Python<'py>,
    batch: &Batch<'py>,
    threads: Option<Threads>,
    progress: Option<Bound<'py, PyAny>>,
    stride: usize,
    work: W,
    is_grid: impl Fn(&[u8]) -> bool,
    note: impl FnMut(&[u8], &[bool]),
) -> PyResult<Bound<'py, PyAny>>
where
    S: PerThread,
    W: Fn(&mut S, usize, &[u8], &mut [u8], &mut dyn Control) + Sync,
{
    let work = |state: &mut S,
                i,
                puzzle: &[u8],
                _: Option<&[u64]>,
                out: &mut [u8],
                control: &mut dyn Control| {
        work(state, i, puzzle, out, control);
    };
    run_marked_to_grids(py, batch, threads, progress, stride, work, is_grid, note)
}

/// [`run_to_grids`] with `work` given each row's marks, as [`run_marked`] does; a sukaku
/// row's grid is written as one line of cells.
#[allow(clippy::too_many_arguments)]
fn run_marked_to_grids<'py, S, W>(
    py: Python<'py>,
    batch: &Batch<'py>,
    threads: Option<Threads>,
    progress: Option<Bound<'py, PyAny>>,
    stride: usize,
    work: W,
    is_grid: impl Fn(&[u8]) -> bool,
    mut note: impl FnMut(&[u8], &[bool]),
) -> PyResult<Bound<'py, PyAny>>
where
    S: PerThread,
    W: Fn(&mut S, usize, &[u8], Option<&[u64]>, &mut [u8], &mut dyn Control) + Sync,
{
    let nc = batch.shape.cell_count();
    match &batch.source {
        Source::Array(array, dtype) => {
            let dims = array.cast::<PyUntypedArray>()?.shape().to_vec();
            let out = with_int_type!(dtype, T => {
                let len = alloc::product(batch.count, nc, || format!("{} grids of {nc} cells", batch.count))?;
                let out = alloc::zeros_shaped::<T>(py, len, &dims)?;
                // SAFETY: the array was made just above and nothing else holds it until it is
                // returned, so no other reference reads or writes its data meanwhile.
                let flat = unsafe { out.as_slice_mut() }.expect("a new array is contiguous");
                run_marked(py, batch, threads, progress, stride, work, |start, results: &[u8], valid| {
                    let rows = flat[start * nc..].chunks_mut(nc).zip(results.chunks(stride));
                    for (slots, row) in rows {
                        for (slot, &v) in slots.iter_mut().zip(&row[..nc]) {
                            *slot = T::from_value(v);
                        }
                    }
                    note(results, valid);
                    Ok(())
                })?;
                out.into_any()
            });
            in_dtype(out, dtype)
        }
        Source::Strings(items) => {
            let mut grids: Vec<Bound<'py, PyAny>> = Vec::new();
            alloc::reserve(&mut grids, batch.count, || {
                format!("{} results", batch.count)
            })?;
            run_marked(
                py,
                batch,
                threads,
                progress,
                stride,
                work,
                |start, results: &[u8], valid| {
                    for (k, row) in results.chunks(stride).enumerate() {
                        grids.push(if valid[k] && is_grid(row) {
                            written_like(items[start + k].cast::<PyString>()?, &row[..nc])?
                        } else {
                            py.None().into_bound(py)
                        });
                    }
                    note(results, valid);
                    Ok(())
                },
            )?;
            Ok(PyList::new(py, grids)?.into_any())
        }
    }
}

/// A row's solved `cells`, written in the layout of its text `template`.
pub(super) fn written_like<'py>(
    template: &Bound<'py, PyString>,
    cells: &[u8],
) -> PyResult<Bound<'py, PyAny>> {
    let py = template.py();
    // A text of as many characters as cells that was read as a grid is nothing but its cells
    // (whitespace would leave fewer): no layout to follow, so no need to read it again.
    if pystr::char_len(template) == cells.len() {
        return Ok(line_string(py, cells)?.into_any());
    }
    // A template that is not a grid of these cells (a sukaku's marks) gives no layout.
    let text = pystr::with_text(template, |t| {
        if t.chars().filter(|c| !c.is_whitespace()).count() == cells.len() {
            render_like(t, cells)
        } else {
            text::to_line(cells)
        }
    })?;
    Ok(PyString::new(py, &text).into_any())
}

/// A row's search for a first solution as a batch reports it: solved, or the status of a row
/// that comes back blank. Single-row batches ([`super::one_row`]) report through this too.
pub(super) fn solve_status(searched: Result<bool, Error>) -> Status {
    match searched {
        Ok(true) => Status::Solved,
        Ok(false) => Status::NoSolution,
        Err(err) => Status::of_error(&err),
    }
}

/// A row's count as a batch reports it: the count (0 for none or a conflict, -1 out of
/// guesses, never a partial count) and its status.
pub(super) fn count_outcome(counted: Result<u64, Error>) -> (i64, Status) {
    match counted {
        Ok(0) => (0, Status::NoSolution),
        Ok(c) => (c as i64, Status::Solved),
        Err(err @ Error::GuessLimit { .. }) => (-1, Status::of_error(&err)),
        Err(err) => (0, Status::of_error(&err)),
    }
}

/// A row's status from the code its work wrote (after its cells, or after its count); a row
/// the reader refused is invalid.
pub(super) fn status_of(valid: bool, slot: i64) -> Status {
    match Status::from_code(slot) {
        Some(status) if valid => status,
        _ => Status::Invalid,
    }
}

/// The result of a batch function: the results, or `(results, status)` when asked for.
fn with_status<'py>(
    py: Python<'py>,
    results: Bound<'py, PyAny>,
    status: Option<Vec<i8>>,
) -> PyResult<Bound<'py, PyAny>> {
    match status {
        None => Ok(results),
        Some(codes) => Ok((results, alloc::from_slice(py, &codes)?)
            .into_pyobject(py)?
            .into_any()),
    }
}

/// Solves every row of `batch`, reporting finished rows to `progress`; see `solve_batch`.
fn solve_rows<'py>(
    py: Python<'py>,
    batch: &Batch<'py>,
    threads: Option<Threads>,
    progress: Option<Bound<'py, PyAny>>,
    max_guesses: Option<u64>,
    status: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let nc = batch.shape.cell_count();
    // Each row's result is its cells, then its status code.
    let stride = nc + 1;
    let solve = |solver: &mut Solver,
                 _: usize,
                 puzzle: &[u8],
                 marks: Option<&[u64]>,
                 out: &mut [u8],
                 control: &mut dyn Control| {
        solver.set_max_guesses(max_guesses);
        let (cells, code) = out.split_at_mut(nc);
        let outcome = solve_status(solver.solve_into_marked(puzzle, marks, cells, control));
        if outcome != Status::Solved {
            cells.fill(0);
        }
        code[0] = outcome.code() as u8;
    };
    let mut codes: Vec<i8> = Vec::new();
    alloc::reserve(&mut codes, if status { batch.count } else { 0 }, || {
        format!("{} status codes", batch.count)
    })?;
    let note = |results: &[u8], valid: &[bool]| {
        if status {
            for (k, row) in results.chunks(stride).enumerate() {
                codes.push(status_of(valid[k], i64::from(row[nc])).code());
            }
        }
    };
    // Only a solved row is a grid; the others have status codes but no solution to show.
    let is_solved = |row: &[u8]| status_of(true, i64::from(row[nc])) == Status::Solved;
    let solved = run_marked_to_grids(py, batch, threads, progress, stride, solve, is_solved, note)?;
    with_status(py, solved, status.then_some(codes))
}

/// Counts the solutions of every row of `batch` up to `limit`, reporting finished rows to
/// `progress`; see `count_solutions_batch`.
fn count_rows<'py>(
    py: Python<'py>,
    batch: &Batch<'py>,
    limit: Option<u64>,
    threads: Option<Threads>,
    progress: Option<Bound<'py, PyAny>>,
    max_guesses: Option<u64>,
    status: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let out = alloc::zeros::<i64>(py, batch.count)?;
    let mut codes: Vec<i8> = Vec::new();
    alloc::reserve(&mut codes, if status { batch.count } else { 0 }, || {
        format!("{} status codes", batch.count)
    })?;
    {
        // SAFETY: the array was made just above and nothing else holds it until it is
        // returned, so no other reference reads or writes its data meanwhile.
        let flat = unsafe { out.as_slice_mut() }.expect("a new array is contiguous");
        // Each row's result is its count (-1: out of guesses), then its status code.
        let count = |solver: &mut Solver,
                     _: usize,
                     puzzle: &[u8],
                     marks: Option<&[u64]>,
                     out: &mut [i64],
                     control: &mut dyn Control| {
            solver.set_max_guesses(max_guesses);
            let counted = solver.count_marked(puzzle, marks, limit, control);
            let (counted, outcome) = count_outcome(counted);
            out[0] = counted;
            out[1] = i64::from(outcome.code());
        };
        run_marked(
            py,
            batch,
            threads,
            progress,
            2,
            count,
            |start, results: &[i64], valid| {
                for (k, row) in results.chunks(2).enumerate() {
                    flat[start + k] = row[0];
                    if status {
                        codes.push(status_of(valid[k], row[1]).code());
                    }
                }
                Ok(())
            },
        )?;
    }
    with_status(py, out.into_any(), status.then_some(codes))
}

/// What the compiled batch entry points read first: the puzzles as a batch, whether a
/// progress bar is asked for, and the core's rules (`None` for classic ones).
fn entry<'py>(
    puzzles: &Bound<'py, PyAny>,
    progress: Option<&Bound<'py, PyAny>>,
    rules: Option<super::rules::RulesArg>,
) -> PyResult<(Bound<'py, PyAny>, bool, Option<Arc<Rules>>)> {
    let (puzzles, shown) = super::entry::start(puzzles, progress)?;
    Ok((puzzles, shown, super::rules::RulesArg::core(rules)))
}

/// Solve many puzzles on every core.
///
/// ``puzzles`` is a numpy integer array of shape (N, n, n) or (N, n*n), 0 = blank, any dtype and
/// memory order: the result is a new array of the same shape and dtype. Or a list of puzzle
/// strings (or any 1-D sequence of them with ``tolist``, such as a pandas column or a numpy
/// str array): the result is a list of strings. A string of pencil marks (a sukaku, as
/// :func:`solve` takes it) is a row too, its solution written as one line of cells. A row
/// that is malformed, has conflicting clues or
/// has no solution comes back as all zeros (``None`` in a list). ``threads=None`` uses every
/// core, ``threads=1`` only the calling thread; the result does not depend on it.
/// ``progress=True`` shows a tqdm bar. The GIL is released while solving; Ctrl-C stops the batch.
///
/// ``max_guesses`` bounds the search of each row (see :func:`solve`); a row that runs out comes
/// back as all zeros (``None``), like one with no solution. ``status=True`` returns
/// ``(solutions, status)``, where ``status`` is an int8 array of :class:`Status` codes telling
/// those cases apart: 0 solved, 1 invalid, 2 no solution, 3 guess limit.
///
/// ``rules`` (a :class:`Rules`) solves every puzzle under variant rules; a row whose clues
/// break one is invalid. Rules that do not fit the batch raise :class:`InvalidRulesError`.
// Compiled, not a Python wrapper: a Python frame and its argument handling cost more than the
// rest of a one-row batch of an easy puzzle.
#[pyfunction]
#[pyo3(
    signature = (puzzles, /, *, r#box = None, threads = None, progress = None,
        max_guesses = None, status = false, rules = None),
    text_signature = "(puzzles, /, *, box=None, threads=None, progress=False, \
        max_guesses=None, status=False, rules=None)"
)]
#[allow(clippy::too_many_arguments)]
pub fn solve_batch<'py>(
    puzzles: &Bound<'py, PyAny>,
    r#box: Option<BoxArg>,
    threads: Option<Threads>,
    progress: Option<&Bound<'py, PyAny>>,
    max_guesses: Option<MaxGuesses>,
    status: bool,
    rules: Option<super::rules::RulesArg>,
) -> PyResult<Bound<'py, PyAny>> {
    super::guard::entry(|| {
        let py = puzzles.py();
        let (puzzles, shown, rules) = entry(puzzles, progress, rules)?;
        let request = Request::under(r#box, rules)?;
        if !shown && !status && request.rules().is_none() {
            if let Some(row) = OneRow::read(&puzzles, &request)? {
                return row.solve(super::args::budget(max_guesses));
            }
        }
        let batch = open(&puzzles, &request)?.with_marks();
        super::entry::with_progress(py, shown, batch.count, "solving", |update| {
            solve_rows(
                py,
                &batch,
                threads,
                update,
                super::args::budget(max_guesses),
                status,
            )
        })
    })
}

/// Count each puzzle's solutions up to ``limit`` (2 tells unique from not; None: all) on
/// every core.
///
/// Takes the same inputs as :func:`solve_batch` and returns an int64 array of shape (N,);
/// a malformed or conflicting row counts 0. With ``max_guesses``, a row that runs out of
/// guesses counts -1 (never a partial count); ``status=True`` returns ``(counts, status)``
/// with the :class:`Status` code of each row, as :func:`solve_batch` does. ``rules`` counts
/// under variant rules, as in :func:`solve_batch`.
#[pyfunction]
#[pyo3(
    signature = (puzzles, /, *, limit = Limit(Some(2)), r#box = None, threads = None,
        progress = None, max_guesses = None, status = false, rules = None),
    text_signature = "(puzzles, /, *, limit=2, box=None, threads=None, progress=False, \
        max_guesses=None, status=False, rules=None)"
)]
#[allow(clippy::too_many_arguments)]
pub fn count_solutions_batch<'py>(
    puzzles: &Bound<'py, PyAny>,
    limit: Limit,
    r#box: Option<BoxArg>,
    threads: Option<Threads>,
    progress: Option<&Bound<'py, PyAny>>,
    max_guesses: Option<MaxGuesses>,
    status: bool,
    rules: Option<super::rules::RulesArg>,
) -> PyResult<Bound<'py, PyAny>> {
    super::guard::entry(|| {
        let py = puzzles.py();
        let (puzzles, shown, rules) = entry(puzzles, progress, rules)?;
        let request = Request::under(r#box, rules)?;
        if !shown && !status && request.rules().is_none() {
            if let Some(row) = OneRow::read(&puzzles, &request)? {
                return row.count(limit.0, super::args::budget(max_guesses));
            }
        }
        let batch = open(&puzzles, &request)?.with_marks();
        super::entry::with_progress(py, shown, batch.count, "counting", |update| {
            count_rows(
                py,
                &batch,
                limit.0,
                threads,
                update,
                super::args::budget(max_guesses),
                status,
            )
        })
    })
}
