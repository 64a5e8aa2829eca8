//! `sudoku_rs.Transform`: one validity-preserving transform as a Python value (apply, inverse,
//! composition, equality, pickling), over the core's [`core::transform::Transform`].

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::core::make::transform::Transform as Core;
use crate::core::BoxShape;

use super::args::{int_list, shown, BoxArg, Index, Seed, Size};

/// The box shape of `size`, or of `box=`.
fn shape_of(size: Size, r#box: Option<BoxArg>) -> PyResult<BoxShape> {
    size.shape(r#box)
}

/// `values` as indices, each in `low..=high`; the error names the argument and the value.
fn in_range(name: &str, values: &[i128], low: i128, high: i128) -> PyResult<Vec<usize>> {
    match values.iter().find(|&&v| !(low..=high).contains(&v)) {
        Some(&v) => Err(PyValueError::new_err(format!(
            "{name} must list each of {low}..{high} once, got {} in {values:?}",
            shown(v)
        ))),
        None => Ok(values.iter().map(|&v| v as usize).collect()),
    }
}

/// A validity-preserving transform of n x n grids: rows and columns reordered band by band and
/// stack by stack, digits relabelled, and (square boxes only) a transpose.
#[pyclass(frozen, eq, hash, module = "sudoku_rs", name = "Transform")]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Transform(pub(crate) Core);

#[pymethods]
impl Transform {
    #[new]
    #[pyo3(signature = (rows, cols, digits, *, transpose = false, r#box = None))]
    fn new(
        rows: &Bound<'_, PyAny>,
        cols: &Bound<'_, PyAny>,
        digits: &Bound<'_, PyAny>,
        transpose: bool,
        r#box: Option<BoxArg>,
    ) -> PyResult<Self> {
        super::guard::entry(|| {
            // Each list is read once: any iterable of ints will do, a generator too.
            let (rows, cols, digits) = (
                int_list(rows, "rows")?,
                int_list(cols, "cols")?,
                int_list(digits, "digits")?,
            );
            let shape = shape_of(Size(rows.len()), r#box)?;
            let n = shape.size() as i128;
            let rows = in_range("rows", &rows, 0, n - 1)?;
            let cols = in_range("cols", &cols, 0, n - 1)?;
            let digits = in_range("digits", &digits, 1, n)?;
            let digits: Vec<u8> = digits.into_iter().map(|d| d as u8).collect();
            Core::new(shape, transpose, rows, cols, &digits)
                .map(Transform)
                .map_err(|err| PyValueError::new_err(err.0))
        })
    }

    /// The transform that changes nothing.
    #[staticmethod]
    #[pyo3(signature = (size = Size(9), *, r#box = None), text_signature = "(size=9, *, box=None)")]
    fn identity(size: Size, r#box: Option<BoxArg>) -> PyResult<Self> {
        super::guard::entry(|| Ok(Transform(Core::identity(shape_of(size, r#box)?))))
    }

    /// A uniformly random transform. With a seed it is the same on every machine, and
    /// `Transform.random(n, seed=s, index=i)` is the one `augment_batch(..., seed=s)` applies
    /// to row `i`.
    #[staticmethod]
    #[pyo3(
        signature = (size = Size(9), *, r#box = None, seed = None, index = Index(0)),
        text_signature = "(size=9, *, box=None, seed=None, index=0)"
    )]
    fn random(
        size: Size,
        r#box: Option<BoxArg>,
        seed: Option<Seed>,
        index: Index,
    ) -> PyResult<Self> {
        super::guard::entry(|| {
            let shape = shape_of(size, r#box)?;
            let seed = seed.unwrap_or_else(Seed::fresh).0;
            Ok(Transform(Core::for_item(shape, seed, index.0)))
        })
    }

    /// The transform mapping `grid` onto `canonical(grid)`: apply it to a solution too to keep
    /// the pair matched. 4x4, 6x6, 8x8 and 9x9 only.
    #[staticmethod]
    #[pyo3(signature = (grid, /, *, r#box = None))]
    fn to_canonical(grid: &Bound<'_, PyAny>, r#box: Option<BoxArg>) -> PyResult<Self> {
        super::guard::entry(|| {
            let input = super::request::Request::classic(r#box)?.read(grid)?;
            let (_, t) = super::canonical::detached(grid.py(), &input.grid)?;
            Ok(Transform(t))
        })
    }

    /// The side n of the grids it applies to.
    #[getter]
    fn size(&self) -> usize {
        self.0.shape().size()
    }

    /// The box shape (rows, cols).
    #[getter]
    fn r#box(&self) -> (usize, usize) {
        (self.0.shape().rows(), self.0.shape().cols())
    }

    /// Output row i comes from row `rows[i]` (of the transposed grid when `transpose`).
    #[getter]
    fn rows<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.0.rows())
    }

    /// Output column j comes from column `cols[j]` (of the transposed grid when `transpose`).
    #[getter]
    fn cols<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.0.cols())
    }

    /// Digit d becomes `digits[d - 1]`; blanks stay blank.
    #[getter]
    fn digits<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.0.digits())
    }

    /// Whether the grid is transposed first.
    #[getter]
    fn transpose(&self) -> bool {
        self.0.transpose()
    }

    /// The transformed grid, in the kind of `grid`, which must have this transform's size and box.
    #[pyo3(signature = (grid, /))]
    fn apply<'py>(&self, grid: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        super::guard::entry(|| {
            let shape = self.0.shape();
            let input = super::request::Request::of_shape(shape).read(grid)?;
            let out = self.0.apply(&input.grid);
            input.kind.write(grid.py(), out.cells())
        })
    }

    /// The transform that undoes this one: `t.inverse().apply(t.apply(g)) == g`.
    fn inverse(&self) -> Self {
        Transform(self.0.inverse())
    }

    /// This transform followed by `other`: `t.then(u).apply(g) == u.apply(t.apply(g))`.
    #[pyo3(signature = (other, /))]
    fn then(&self, other: &Transform) -> PyResult<Self> {
        super::guard::entry(|| {
            if self.0.shape() != other.0.shape() {
                let (a, b) = (self.0.shape(), other.0.shape());
                return Err(PyValueError::new_err(format!(
                    "cannot compose a transform of box=({}, {}) with one of box=({}, {})",
                    a.rows(),
                    a.cols(),
                    b.rows(),
                    b.cols()
                )));
            }
            Ok(Transform(self.0.then(&other.0)))
        })
    }

    fn __repr__(&self) -> String {
        let t = &self.0;
        format!(
            "Transform({:?}, {:?}, {:?}, transpose={}, box=({}, {}))",
            t.rows(),
            t.cols(),
            t.digits(),
            if t.transpose() { "True" } else { "False" },
            t.shape().rows(),
            t.shape().cols()
        )
    }

    /// Pickling and copying rebuild the transform through the constructor.
    fn __getnewargs_ex__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, PyDict>)> {
        let t = &self.0;
        let args = (t.rows().to_vec(), t.cols().to_vec(), t.digits().to_vec());
        let kwargs = PyDict::new(py);
        kwargs.set_item("transpose", t.transpose())?;
        kwargs.set_item("box", (t.shape().rows(), t.shape().cols()))?;
        Ok((args.into_pyobject(py)?, kwargs))
    }
}
