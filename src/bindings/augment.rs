//! `augment_batch`: one seeded random transform per row, applied alike to a puzzle and its
//! solution. Row i's transform depends only on (seed, i), so the result does not depend on the
//! thread count. Unlike solving, a bad row raises: silently zeroing training pairs would hide it.
//! Rows go through in chunks: copied while attached, transformed with the GIL released.

use numpy::ndarray::{Axis, Slice};
use numpy::{
    PyArray1, PyArrayDescr, PyArrayDescrMethods, PyArrayDyn, PyArrayMethods, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::core::error::Error;
use crate::core::grid::shape::isqrt;
use crate::core::grid::{cell_at, expected_values};
use crate::core::make::transform::Transform;
use crate::core::BoxShape;
use crate::with_int_type;

use super::dtype::{check_integer_dtype, in_dtype, native_order, CellElement};
use super::errors::InvalidPuzzleError;

/// Rows per chunk: inputs are copied and transformed about 4 MiB of cells at a time, so memory
/// beyond input and output stays flat, whatever the batch size.
const CHUNK_CELLS: usize = 1 << 22;

/// One input array and its output, flat until `finish` gives it the input's shape.
struct Stack<'py> {
    name: &'static str,
    native: Bound<'py, PyAny>,
    dims: Vec<usize>,
    dtype: Bound<'py, PyArrayDescr>,
    out: Bound<'py, PyAny>,
}

/// A shape as Python prints it: `(3, 9, 9)`.
fn dims_text(dims: &[usize]) -> String {
    let dims: Vec<String> = dims.iter().map(|d| d.to_string()).collect();
    format!(
        "({}{})",
        dims.join(", "),
        if dims.len() == 1 { "," } else { "" }
    )
}

/// The side n of a batch of shape (N, n, n) or (N, n*n).
fn side(name: &str, dims: &[usize]) -> PyResult<usize> {
    let n = match dims {
        [_, rows, cols] if rows == cols => *rows,
        [_, cells] if isqrt(*cells) * isqrt(*cells) == *cells => isqrt(*cells),
        _ => 0,
    };
    if n == 0 {
        return Err(Error::Shape(format!(
            "{name} must have shape (N, n, n) or (N, n*n), got {}",
            dims_text(dims)
        ))
        .into());
    }
    Ok(n)
}

fn open<'py>(name: &'static str, obj: &Bound<'py, PyAny>) -> PyResult<(Stack<'py>, usize)> {
    let array = obj.cast::<PyUntypedArray>().map_err(|_| {
        PyTypeError::new_err(format!(
            "{name} must be a numpy integer array of shape (N, n, n) or (N, n*n), got {}",
            obj.get_type()
                .name()
                .map_or_else(|_| "?".into(), |n| n.to_string())
        ))
    })?;
    let dtype = array.dtype();
    check_integer_dtype(&dtype)?;
    let dims = array.shape().to_vec();
    let n = side(name, &dims)?;
    let native = native_order(array)?;
    let size = dims[0] * n * n;
    let out = with_int_type!(dtype, T => PyArray1::<T>::zeros(obj.py(), size, false).into_any());
    let stack = Stack {
        name,
        native,
        dims,
        dtype,
        out,
    };
    Ok((stack, n))
}

impl<'py> Stack<'py> {
    /// Copies rows `start..end` into `cells`; a value outside 0..=n names its row.
    fn read(&self, n: usize, start: usize, end: usize, cells: &mut Vec<u8>) -> PyResult<()> {
        cells.clear();
        with_int_type!(self.dtype, T => read_rows::<T>(self.name, &self.native, n, start, end, cells))
    }

    /// Writes the transformed rows from `start` on into the output.
    fn write(&self, start: usize, cells: &[u8]) -> PyResult<()> {
        with_int_type!(self.dtype, T => {
            let out = self.out.cast::<PyArray1<T>>()?;
            let mut out = out.readwrite();
            let flat = &mut out.as_slice_mut()?[start..start + cells.len()];
            for (slot, &v) in flat.iter_mut().zip(cells) {
                *slot = T::from_value(v);
            }
            Ok(())
        })
    }

    /// The output in the input's shape and exact dtype.
    fn finish(self) -> PyResult<Bound<'py, PyAny>> {
        let shaped = self.out.call_method1("reshape", (self.dims.clone(),))?;
        in_dtype(shaped, &self.dtype)
    }
}

/// Rows `start..end` in logical order (any strides), appended to `cells`.
fn read_rows<T: CellElement>(
    name: &str,
    array: &Bound<'_, PyAny>,
    n: usize,
    start: usize,
    end: usize,
    cells: &mut Vec<u8>,
) -> PyResult<()> {
    let array = array.cast::<PyArrayDyn<T>>()?.readonly();
    let view = array.as_array();
    let rows = view.slice_axis(Axis(0), Slice::from(start..end));
    for (i, grid) in (start..).zip(rows.axis_iter(Axis(0))) {
        for (k, &v) in grid.iter().enumerate() {
            if !(0..=n as i128).contains(&v.to_i128()) {
                let err = Error::Value {
                    cell: cell_at(k, n),
                    found: v.to_string(),
                    expected: expected_values(n),
                };
                return Err(InvalidPuzzleError::new_err(format!("{name}[{i}]: {err}")));
            }
            cells.push(v.to_i128() as u8);
        }
    }
    Ok(())
}

/// Transforms the grids of `inputs` (rows `first..`) with each row's transform into `outputs`,
/// on `threads` threads, each taking a contiguous run of rows.
fn augment(
    shape: BoxShape,
    seed: u64,
    first: usize,
    inputs: &[Vec<u8>],
    outputs: &mut [Vec<u8>],
    threads: usize,
) {
    let nc = shape.cell_count();
    let count = inputs[0].len() / nc;
    let per_thread = count.div_ceil(threads.max(1)).max(1);
    // parts[t] holds thread t's slice of every output.
    let mut parts: Vec<Vec<&mut [u8]>> = Vec::new();
    for out in outputs.iter_mut() {
        for (t, part) in out.chunks_mut(per_thread * nc).enumerate() {
            if parts.len() <= t {
                parts.push(Vec::new());
            }
            parts[t].push(part);
        }
    }
    std::thread::scope(|scope| {
        for (t, mut outs) in parts.into_iter().enumerate() {
            scope.spawn(move || {
                for k in 0..outs[0].len() / nc {
                    let row = t * per_thread + k;
                    let transform = Transform::for_item(shape, seed, (first + row) as u64);
                    for (input, out) in inputs.iter().zip(outs.iter_mut()) {
                        let cells = &input[row * nc..(row + 1) * nc];
                        transform.apply_cells(cells, &mut out[k * nc..(k + 1) * nc]);
                    }
                }
            });
        }
    });
}

/// Data augmentation: one random validity-preserving transform per row, the same for
/// `puzzles[i]` and `solutions[i]`, so each pair stays a puzzle and its solution.
///
/// `puzzles` (and `solutions`) are numpy integer arrays of shape (N, n, n) or (N, n*n), any
/// dtype; the result has the same shape and dtype, an array, or a tuple `(puzzles, solutions)`
/// when solutions are given. Blanks (0) stay blank. Row i's transform is
/// `Transform.random(n, box=box, seed=seed, index=i)`: it depends only on (seed, i), so results
/// are the same for any `threads` and on every machine; `seed=None` draws a fresh seed. A value
/// outside 0..n raises `InvalidPuzzleError` naming its row. The GIL is released.
#[pyfunction]
#[pyo3(signature = (puzzles, solutions = None, /, *, seed = None, r#box = None, threads = None))]
pub fn augment_batch<'py>(
    puzzles: &Bound<'py, PyAny>,
    solutions: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
    r#box: Option<(i64, i64)>,
    threads: Option<super::count::CountArg>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = puzzles.py();
    let threads = super::thread_arg(threads)?;
    let seed = super::seed_arg(seed)?;
    let (first, n) = open("puzzles", puzzles)?;
    let shape = BoxShape::for_size(n, super::box_arg(r#box)?)?;
    let mut stacks = vec![first];
    if let Some(obj) = solutions.filter(|obj| !obj.is_none()) {
        // Either layout, (N, n, n) or (N, n*n), as long as the grids pair up one to one.
        let (stack, side) = open("solutions", obj)?;
        if stack.dims[0] != stacks[0].dims[0] || side != n {
            return Err(Error::Shape(format!(
                "solutions must hold one {n}x{n} grid per puzzle: puzzles has shape {}, \
                 solutions {}",
                dims_text(&stacks[0].dims),
                dims_text(&stack.dims)
            ))
            .into());
        }
        stacks.push(stack);
    }
    let nc = shape.cell_count();
    let count = stacks[0].dims[0];
    let chunk = (CHUNK_CELLS / nc).max(1);
    let mut inputs = vec![Vec::new(); stacks.len()];
    let mut outputs = vec![Vec::new(); stacks.len()];
    for start in (0..count).step_by(chunk) {
        let end = (start + chunk).min(count);
        for ((stack, input), output) in stacks.iter().zip(&mut inputs).zip(&mut outputs) {
            stack.read(n, start, end, input)?;
            output.resize(input.len(), 0);
        }
        py.detach(|| augment(shape, seed, start, &inputs, &mut outputs, threads));
        for (stack, output) in stacks.iter().zip(&outputs) {
            stack.write(start * nc, output)?;
        }
    }
    let mut results = stacks.into_iter().map(Stack::finish);
    let out = results.next().expect("puzzles")?;
    match results.next() {
        None => Ok(out),
        Some(second) => Ok(PyTuple::new(py, [out, second?])?.into_any()),
    }
}
