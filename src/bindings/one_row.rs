//! Batches of exactly one row, searched as a single call searches its grid.
//!
//! `solve_batch` and `count_solutions_batch` take this path for a list of one string or an
//! array of one row (classic rules, no status, no bar): the general path's buffers, runner
//! and chunk cost about 0.1 µs over a single call, a sixth of an easy puzzle's search
//! (benches/results/2026-11-24-one-row-batches.md). The row is read with the general path's
//! own checks and reported through its outcome mapping, so results and errors are the same;
//! the search is [`super::run::search`]'s (attached until its first poll, then detached with
//! Ctrl-C served).

use numpy::ndarray::IxDyn;
use numpy::{PyArrayDescr, PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};

use crate::core::grid::text;
use crate::core::{BoxShape, Error, Grid, Status};
use crate::with_int_type;

use super::alloc;
use super::batch::{count_outcome, open, read_rows, solve_status, written_like, Source};
use super::dtype::in_dtype;
use super::pystr;
use super::request::Request;

/// What the row came in as, so its result goes back the same way.
enum Row<'py> {
    /// The list's item: the string, or `None` when it is not one.
    Text(Option<Bound<'py, PyString>>),
    /// A native-order integer array of shape (1, n, n) or (1, n*n), and its caller's dtype.
    Array(Bound<'py, PyAny>, Bound<'py, PyArrayDescr>),
}

pub(super) struct OneRow<'py> {
    py: Python<'py>,
    row: Row<'py>,
    /// The puzzle; `None` where the general path finds an invalid row.
    grid: Option<Grid>,
}

impl<'py> OneRow<'py> {
    /// The one row of `puzzles`, or `None` when it is not a batch of one row (the general path
    /// takes it). A batch the general path would refuse raises the same error here.
    pub(super) fn read(puzzles: &Bound<'py, PyAny>, request: &Request) -> PyResult<Option<Self>> {
        if let Ok(list) = puzzles.cast::<PyList>() {
            return if list.len() == 1 {
                Self::string(list.get_item(0)?, request.boxed())
            } else {
                Ok(None)
            };
        }
        match puzzles.cast::<PyUntypedArray>() {
            Ok(array) if array.shape().first() == Some(&1) => {
                Self::array(puzzles, request).map(Some)
            }
            _ => Ok(None),
        }
    }

    /// The one string row; `None` for a sukaku, which the general path reads with its marks.
    fn string(
        item: Bound<'py, PyAny>,
        requested_box: Option<(usize, usize)>,
    ) -> PyResult<Option<Self>> {
        let py = item.py();
        let string = item.cast_into::<PyString>().ok();
        // Text Python cannot give as UTF-8 (a lone surrogate) is a bad row, as in `Batch::read`.
        let parsed = string.as_ref().and_then(|s| {
            pystr::with_text(s, |t| {
                text::parse(t, requested_box).map_err(|_| {
                    matches!(text::parse_with_marks(t, requested_box), Ok((_, Some(_))))
                })
            })
            .ok()
        });
        let grid = match parsed {
            Some(Ok(grid)) => Some(grid),
            Some(Err(true)) => return Ok(None),
            Some(Err(false)) | None => None,
        };
        if let (None, Some((rows, cols))) = (&grid, requested_box) {
            // As in `open`: with no row to size the batch, a bad `box=` is an error of its own.
            BoxShape::new(rows, cols)?;
        }
        Ok(Some(OneRow {
            py,
            row: Row::Text(string),
            grid,
        }))
    }

    fn array(puzzles: &Bound<'py, PyAny>, request: &Request) -> PyResult<Self> {
        let batch = open(puzzles, request)?;
        let Source::Array(array, dtype) = batch.source else {
            unreachable!("an array opens as an array batch")
        };
        // The general path's reading of one row (`Batch::read`), without its buffers.
        let (mut cells, mut valid) = (vec![0; batch.shape.cell_count()], [true]);
        let n = batch.shape.size();
        with_int_type!(dtype, T => read_rows::<T>(&array, n, 0, 1, &mut cells, &mut valid))?;
        // A row `read_rows` accepts has every value in range: it is a grid of the batch's shape.
        let grid = if valid[0] {
            Grid::new(batch.shape, cells).ok()
        } else {
            None
        };
        Ok(OneRow {
            py: puzzles.py(),
            row: Row::Array(array, dtype),
            grid,
        })
    }

    /// `solve_batch`'s result: a list of the solution text (`None` for none), or an array of
    /// the input's shape and dtype (zeros for none).
    pub(super) fn solve(self, max_guesses: Option<u64>) -> PyResult<Bound<'py, PyAny>> {
        let py = self.py;
        let solved = match &self.grid {
            None => None,
            Some(grid) => super::run::search(py, grid, max_guesses, None, |s, g, control| {
                let mut out = vec![0; g.cells().len()];
                match s.solve_into(g.cells(), &mut out, control) {
                    Err(Error::Interrupted) => Err(Error::Interrupted),
                    searched => Ok((solve_status(searched) == Status::Solved).then_some(out)),
                }
            })?,
        };
        match self.row {
            Row::Text(string) => {
                let item = match (string, solved) {
                    (Some(s), Some(cells)) => written_like(&s, &cells)?,
                    _ => py.None().into_bound(py),
                };
                Ok(PyList::new(py, [item])?.into_any())
            }
            Row::Array(array, dtype) => {
                let dims = array.cast::<PyUntypedArray>()?.shape();
                let out = with_int_type!(dtype, T => {
                    alloc::cells_array::<T, IxDyn>(py, dims, solved.as_deref())?.into_any()
                });
                in_dtype(out, &dtype)
            }
        }
    }

    /// `count_solutions_batch`'s result: an int64 array of the one count.
    pub(super) fn count(
        self,
        limit: Option<u64>,
        max_guesses: Option<u64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let counted = match &self.grid {
            None => 0,
            Some(grid) => super::run::search(self.py, grid, max_guesses, None, |s, g, control| {
                match s.count(g.cells(), limit, control) {
                    Err(Error::Interrupted) => Err(Error::Interrupted),
                    counted => Ok(count_outcome(counted).0),
                }
            })?,
        };
        Ok(alloc::from_slice(self.py, &[counted])?.into_any())
    }
}
