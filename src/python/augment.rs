//! `augment_batch`: one seeded random transform per row, applied alike to a puzzle and its
//! solution. Row i's transform depends only on (seed, i), so the result does not depend on the
//! thread count. Unlike solving, a bad row raises: silently zeroing training pairs would hide it.

use numpy::ndarray::Axis;
use numpy::{
    PyArray1, PyArrayDescrMethods, PyArrayDyn, PyArrayMethods, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::core::batch::thread_count;
use crate::core::error::Error;
use crate::core::grid::{cell_at, expected_values};
use crate::core::shape::isqrt;
use crate::core::transform::Transform;
use crate::core::BoxShape;
use crate::with_int_type;

use super::dtype::{check_integer_dtype, in_dtype, native_order, CellElement};
use super::errors::InvalidPuzzleError;

/// One input array, copied to row-major `u8` cells.
struct Stack<'py> {
    dims: Vec<usize>,
    dtype: Bound<'py, numpy::PyArrayDescr>,
    cells: Vec<u8>,
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

fn read<'py>(name: &str, obj: &Bound<'py, PyAny>) -> PyResult<(Stack<'py>, usize)> {
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
    let cells = with_int_type!(dtype, T => read_cells::<T>(name, &native, n)?);
    Ok((Stack { dims, dtype, cells }, n))
}

/// Every row's cells in logical order (any strides); a value outside 0..=n names its row.
fn read_cells<T: CellElement>(name: &str, array: &Bound<'_, PyAny>, n: usize) -> PyResult<Vec<u8>> {
    let array = array.cast::<PyArrayDyn<T>>()?.readonly();
    let view = array.as_array();
    let mut cells = Vec::with_capacity(view.len());
    for (i, grid) in view.axis_iter(Axis(0)).enumerate() {
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
    Ok(cells)
}

fn write<'py>(py: Python<'py>, stack: &Stack<'py>, cells: &[u8]) -> PyResult<Bound<'py, PyAny>> {
    let out = with_int_type!(stack.dtype, T => {
        let values: Vec<T> = cells.iter().map(|&v| T::from_value(v)).collect();
        PyArray1::from_vec(py, values).reshape(stack.dims.clone())?.into_any()
    });
    in_dtype(out, &stack.dtype)
}

/// Transforms every grid of `inputs` (each `count` grids) with row i's transform, on `threads`
/// threads, each taking a contiguous run of rows.
fn augment(shape: BoxShape, seed: u64, inputs: &[&[u8]], threads: usize) -> Vec<Vec<u8>> {
    let nc = shape.cell_count();
    let count = inputs[0].len() / nc;
    let mut outputs: Vec<Vec<u8>> = inputs.iter().map(|c| vec![0u8; c.len()]).collect();
    let per_thread = count.div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let mut parts: Vec<Vec<&mut [u8]>> = Vec::new();
        for out in outputs.iter_mut() {
            for (t, part) in out.chunks_mut(per_thread * nc).enumerate() {
                if parts.len() <= t {
                    parts.push(Vec::new());
                }
                parts[t].push(part);
            }
        }
        for (t, mut outs) in parts.into_iter().enumerate() {
            scope.spawn(move || {
                let first = t * per_thread;
                let rows = outs[0].len() / nc;
                for k in 0..rows {
                    let i = first + k;
                    let transform = Transform::for_item(shape, seed, i as u64);
                    for (input, out) in inputs.iter().zip(outs.iter_mut()) {
                        let cells = &input[i * nc..(i + 1) * nc];
                        transform.apply_cells(cells, &mut out[k * nc..(k + 1) * nc]);
                    }
                }
            });
        }
    });
    outputs
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
    threads: Option<i64>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = puzzles.py();
    let threads = thread_count(
        threads
            .map(|t| super::positive("threads", t))
            .transpose()?
            .map(|t| t as usize),
    );
    let seed = super::transform::seed_arg(seed)?;
    let (first, n) = read("puzzles", puzzles)?;
    let shape = BoxShape::for_size(n, super::box_arg(r#box)?)?;
    let second = match solutions {
        Some(obj) if !obj.is_none() => {
            // Either layout, (N, n, n) or (N, n*n), as long as the grids pair up one to one.
            let (stack, side) = read("solutions", obj)?;
            if stack.dims[0] != first.dims[0] || side != n {
                return Err(Error::Shape(format!(
                    "solutions must hold one {n}x{n} grid per puzzle: puzzles has shape {}, \
                     solutions {}",
                    dims_text(&first.dims),
                    dims_text(&stack.dims)
                ))
                .into());
            }
            Some(stack)
        }
        _ => None,
    };
    let mut inputs: Vec<&[u8]> = vec![&first.cells];
    if let Some(s) = &second {
        inputs.push(&s.cells);
    }
    let outputs = py.detach(|| augment(shape, seed, &inputs, threads));
    let out = write(py, &first, &outputs[0])?;
    match &second {
        None => Ok(out),
        Some(s) => Ok(PyTuple::new(py, [out, write(py, s, &outputs[1])?])?.into_any()),
    }
}
