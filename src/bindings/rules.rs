//! `sudoku_rs.Rules`: variant rules as an immutable Python value over the core's
//! [`crate::core::rules::Rules`], and reading a grid that is to be solved under them.

use std::sync::Arc;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use crate::core::error::{Cell, Error};
use crate::core::grid::shape::isqrt;
use crate::core::grid::text::{char_of_value, MAX_TEXT_VALUE};
use crate::core::rules::{Cage, Spec};
use crate::core::Rules as Core;

/// Variant rules: the constraints a grid must meet beyond (or, for jigsaw regions, instead
/// of) classic rows, columns and boxes.
#[pyclass(frozen, eq, hash, module = "sudoku_rs", name = "Rules")]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules(pub(crate) Arc<Core>);

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default()
}

/// A whole number from Python (numpy's too), refusing bools and floats.
fn int_of(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<i64> {
    if obj.is_instance_of::<pyo3::types::PyBool>() || obj.is_instance_of::<pyo3::types::PyFloat>() {
        return Err(PyTypeError::new_err(format!(
            "{what} must be an int, got {}",
            type_name(obj)
        )));
    }
    obj.extract::<i64>()
        .map_err(|_| PyTypeError::new_err(format!("{what} must be an int, got {}", type_name(obj))))
}

/// Items of a list, tuple, numpy array or other iterable (not a string).
fn items<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Vec<Bound<'py, PyAny>>> {
    if obj.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!(
            "{what} must be a sequence, got a str"
        )));
    }
    let iter = obj.try_iter().map_err(|_| {
        PyTypeError::new_err(format!("{what} must be a sequence, got {}", type_name(obj)))
    })?;
    iter.collect()
}

/// A cell as `(row, col)`, counted from 0.
fn cell_of(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Cell> {
    let pair = items(obj, what)?;
    let [row, col] = pair.as_slice() else {
        return Err(PyTypeError::new_err(format!(
            "{what} must be a (row, col) pair, got {} items",
            pair.len()
        )));
    };
    let (row, col) = (int_of(row, what)?, int_of(col, what)?);
    if row < 0 || col < 0 {
        return Err(Error::Rules(format!(
            "{what} is ({row}, {col}): rows and columns count from 0"
        ))
        .into());
    }
    // Past any grid either way; the size check names it.
    let clamp = |v: i64| usize::try_from(v).unwrap_or(usize::MAX).min(1 << 20);
    Ok(Cell {
        row: clamp(row),
        col: clamp(col),
    })
}

fn cells_of(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<Cell>> {
    items(obj, what)?
        .iter()
        .map(|c| cell_of(c, &format!("a cell of {what}")))
        .collect()
}

/// Region labels: rows of ints, or row strings whose characters are the labels.
fn regions_of(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Vec<i64>>> {
    let obj = if obj.hasattr("tolist")? && !obj.is_instance_of::<PyList>() {
        obj.call_method0("tolist")?
    } else {
        obj.clone()
    };
    items(&obj, "regions")?
        .iter()
        .map(|row| {
            if let Ok(s) = row.cast::<PyString>() {
                Ok(s.to_cow()?.chars().map(|c| c as i64).collect())
            } else {
                items(row, "a row of regions")?
                    .iter()
                    .map(|label| int_of(label, "a region label"))
                    .collect()
            }
        })
        .collect()
}

fn cages_of(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Cage>> {
    items(obj, "cages")?
        .iter()
        .enumerate()
        .map(|(i, cage)| {
            let what = format!("killer cage {i}");
            let parts = items(cage, &what)?;
            let [total, cells] = parts.as_slice() else {
                return Err(PyTypeError::new_err(format!(
                    "{what} must be a (total, cells) pair, got {} items",
                    parts.len()
                )));
            };
            let total = int_of(total, &format!("the total of {what}"))?;
            let total = u32::try_from(total).map_err(|_| {
                Error::Rules(format!(
                    "{what} (total {total}) is impossible: a total is a positive int"
                ))
            })?;
            Ok(Cage {
                total,
                cells: cells_of(cells, &what)?,
            })
        })
        .collect()
}

fn cell_tuple(py: Python<'_>, cells: &[Cell]) -> PyResult<Py<PyTuple>> {
    Ok(PyTuple::new(py, cells.iter().map(|c| (c.row, c.col)))?.unbind())
}

/// Bytes that must be free before a `Rules` is built: well over what one takes.
const ROOM: usize = 1 << 16;

#[pymethods]
impl Rules {
    #[new]
    #[pyo3(signature = (*, diagonals = false, windows = false, regions = None,
                        extra_regions = None, anti_knight = false, anti_king = false,
                        non_consecutive = false, cages = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        diagonals: bool,
        windows: bool,
        regions: Option<&Bound<'_, PyAny>>,
        extra_regions: Option<&Bound<'_, PyAny>>,
        anti_knight: bool,
        anti_king: bool,
        non_consecutive: bool,
        cages: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        super::guard::entry(|| {
            // Files of variant puzzles make one of these per line: when Python has used up
            // the memory, say so here, before the (infallible) allocations below would abort.
            super::alloc::probe(ROOM, || "the rules".into())?;
            let regions = regions
                .filter(|r| !r.is_none())
                .map(regions_of)
                .transpose()?;
            let extra_regions = match extra_regions {
                Some(list) if !list.is_none() => items(list, "extra_regions")?
                    .iter()
                    .enumerate()
                    .map(|(i, region)| cells_of(region, &format!("extra region {i}")))
                    .collect::<PyResult<_>>()?,
                _ => Vec::new(),
            };
            let cages = match cages {
                Some(list) if !list.is_none() => cages_of(list)?,
                _ => Vec::new(),
            };
            let spec = Spec {
                diagonals,
                windows,
                regions,
                extra_regions,
                anti_knight,
                anti_king,
                non_consecutive,
                cages,
            };
            Ok(Rules(Arc::new(Core::new(spec)?)))
        })
    }

    /// Classic rules: rows, columns and boxes only.
    #[staticmethod]
    fn classic() -> Self {
        Rules(Arc::new(Core::default()))
    }

    /// X-Sudoku: both long diagonals hold distinct digits.
    #[staticmethod]
    fn x() -> Self {
        let spec = Spec {
            diagonals: true,
            ..Spec::default()
        };
        Rules(Arc::new(Core::new(spec).expect("valid")))
    }

    /// Windoku (hyper Sudoku): four extra 3x3 windows of a 9x9 grid hold distinct digits.
    #[staticmethod]
    fn windoku() -> Self {
        let spec = Spec {
            windows: true,
            ..Spec::default()
        };
        Rules(Arc::new(Core::new(spec).expect("valid")))
    }

    /// Jigsaw: `regions` (n rows of n labels) replace the boxes.
    #[staticmethod]
    #[pyo3(signature = (regions, /))]
    fn jigsaw(regions: &Bound<'_, PyAny>) -> PyResult<Self> {
        super::guard::entry(|| {
            let spec = Spec {
                regions: Some(regions_of(regions)?),
                ..Spec::default()
            };
            Ok(Rules(Arc::new(Core::new(spec)?)))
        })
    }

    /// Killer: `cages` is a list of `(total, cells)`.
    #[staticmethod]
    #[pyo3(signature = (cages, /))]
    fn killer(cages: &Bound<'_, PyAny>) -> PyResult<Self> {
        super::guard::entry(|| {
            let spec = Spec {
                cages: cages_of(cages)?,
                ..Spec::default()
            };
            Ok(Rules(Arc::new(Core::new(spec)?)))
        })
    }

    /// Whether both long diagonals hold distinct digits (X-Sudoku).
    #[getter]
    fn diagonals(&self) -> bool {
        self.0.diagonals()
    }

    /// Whether the four extra 3x3 windows of a 9x9 grid hold distinct digits (windoku).
    #[getter]
    fn windows(&self) -> bool {
        self.0.windows()
    }

    /// The jigsaw regions as n rows of n region ids `0..n` (numbered in order of first
    /// appearance), or None when the boxes hold.
    #[getter]
    fn regions(&self, py: Python<'_>) -> PyResult<Option<Py<PyList>>> {
        let Some(ids) = self.0.regions() else {
            return Ok(None);
        };
        let n = isqrt(ids.len());
        let rows = ids
            .chunks(n)
            .map(|row| PyList::new(py, row))
            .collect::<PyResult<Vec<_>>>()?;
        Ok(Some(PyList::new(py, rows)?.unbind()))
    }

    /// The extra regions, each a tuple of `(row, col)` cells.
    #[getter]
    fn extra_regions(&self, py: Python<'_>) -> PyResult<Py<PyTuple>> {
        let regions = self
            .0
            .extra_regions()
            .iter()
            .map(|r| cell_tuple(py, r))
            .collect::<PyResult<Vec<_>>>()?;
        Ok(PyTuple::new(py, regions)?.unbind())
    }

    /// Whether two cells a knight's move apart never hold the same digit.
    #[getter]
    fn anti_knight(&self) -> bool {
        self.0.anti_knight()
    }

    /// Whether two diagonally touching cells never hold the same digit.
    #[getter]
    fn anti_king(&self) -> bool {
        self.0.anti_king()
    }

    /// Whether orthogonally touching cells never hold consecutive digits.
    #[getter]
    fn non_consecutive(&self) -> bool {
        self.0.non_consecutive()
    }

    /// The killer cages, each `(total, cells)` with cells a tuple of `(row, col)`.
    #[getter]
    fn cages(&self, py: Python<'_>) -> PyResult<Py<PyTuple>> {
        let cages = self
            .0
            .cages()
            .iter()
            .map(|c| Ok((c.total, cell_tuple(py, &c.cells)?)))
            .collect::<PyResult<Vec<_>>>()?;
        Ok(PyTuple::new(py, cages)?.unbind())
    }

    /// The grid side the rules fix (the regions', or 9 for windows), or None.
    #[getter]
    fn size(&self) -> Option<usize> {
        self.0.size()
    }

    /// Whether these are the classic rules (no variant rule at all).
    #[getter]
    fn is_classic(&self) -> bool {
        self.0.is_classic()
    }

    /// The `box=` a call under these rules is given for a board whose box is `box`: None where
    /// the rules replace the boxes (jigsaw regions), else `box`.
    #[pyo3(signature = (r#box, /))]
    fn _box_arg(&self, r#box: (usize, usize)) -> Option<(usize, usize)> {
        (!self.0.replaces_boxes()).then_some(r#box)
    }

    fn __repr__(&self) -> String {
        let r = &self.0;
        let mut parts: Vec<String> = Vec::new();
        let flags = [
            ("diagonals", r.diagonals()),
            ("windows", r.windows()),
            ("anti_knight", r.anti_knight()),
            ("anti_king", r.anti_king()),
            ("non_consecutive", r.non_consecutive()),
        ];
        for (name, on) in flags.iter().take(2) {
            if *on {
                parts.push(format!("{name}=True"));
            }
        }
        if let Some(ids) = r.regions() {
            let n = isqrt(ids.len());
            let rows: Vec<String> = if n <= MAX_TEXT_VALUE as usize {
                ids.chunks(n)
                    .map(|row| {
                        let s: String = row.iter().map(|&id| char_of_value(id + 1)).collect();
                        format!("'{s}'")
                    })
                    .collect()
            } else {
                ids.chunks(n).map(|row| format!("{row:?}")).collect()
            };
            parts.push(format!("regions=[{}]", rows.join(", ")));
        }
        let cells = |cells: &[Cell]| {
            let items: Vec<String> = cells
                .iter()
                .map(|c| format!("({}, {})", c.row, c.col))
                .collect();
            format!("[{}]", items.join(", "))
        };
        if !r.extra_regions().is_empty() {
            let regions: Vec<String> = r.extra_regions().iter().map(|x| cells(x)).collect();
            parts.push(format!("extra_regions=[{}]", regions.join(", ")));
        }
        for (name, on) in flags.iter().skip(2) {
            if *on {
                parts.push(format!("{name}=True"));
            }
        }
        if !r.cages().is_empty() {
            let cages: Vec<String> = r
                .cages()
                .iter()
                .map(|c| format!("({}, {})", c.total, cells(&c.cells)))
                .collect();
            parts.push(format!("cages=[{}]", cages.join(", ")));
        }
        format!("Rules({})", parts.join(", "))
    }

    /// Pickling and copying rebuild the rules through the constructor.
    fn __getnewargs_ex__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, PyDict>)> {
        let kwargs = PyDict::new(py);
        kwargs.set_item("diagonals", self.diagonals())?;
        kwargs.set_item("windows", self.windows())?;
        kwargs.set_item("regions", self.regions(py)?)?;
        kwargs.set_item("extra_regions", self.extra_regions(py)?)?;
        kwargs.set_item("anti_knight", self.anti_knight())?;
        kwargs.set_item("anti_king", self.anti_king())?;
        kwargs.set_item("non_consecutive", self.non_consecutive())?;
        kwargs.set_item("cages", self.cages(py)?)?;
        Ok((PyTuple::empty(py), kwargs))
    }
}

/// A `rules=` argument: a `Rules`, or `None` for classic rules. Anything else is a TypeError
/// that says what to pass (pyo3's own message would not point at the text form).
pub(crate) struct RulesArg(Rules);

impl RulesArg {
    /// The rules to search under; `None` for classic rules, however given.
    pub(crate) fn core(arg: Option<RulesArg>) -> Option<Arc<Core>> {
        arg.map(|a| a.0 .0).filter(|r| !r.is_classic())
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for RulesArg {
    type Error = PyErr;
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        match obj.cast::<Rules>() {
            Ok(rules) => Ok(RulesArg(rules.get().clone())),
            Err(_) => Err(PyTypeError::new_err(format!(
                "rules must be a sudoku_rs.Rules or None, got {}{}",
                type_name(&obj.to_owned()),
                if obj.is_instance_of::<PyString>() {
                    "; read the rules text form with sudoku_rs.parse_rules"
                } else {
                    ""
                }
            ))),
        }
    }
}
