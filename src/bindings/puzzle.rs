//! `sudoku_rs.Puzzle`: a grid with its rules and metadata over the core's
//! [`crate::core::link::Puzzle`], read from and written to f-puzzles and SudokuPad links; and
//! the one place a solving call takes a `Puzzle` in place of a grid.

use std::sync::Arc;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

use crate::core::link::json::{Json, MAX_DEPTH};
use crate::core::link::{Puzzle as Core, Site};
use crate::core::Error;

use super::args::BoxArg;
use super::request::Request;
use super::rules::{Rules, RulesArg};

/// A grid with its rules and what was published with it (title, author, rules text, the
/// stated solution). Read one from a link with `Puzzle.from_url`, or from f-puzzles data with
/// `Puzzle.from_fpuzzles`; every solving function takes it in place of a grid.
#[pyclass(frozen, eq, module = "sudoku_rs", name = "Puzzle")]
#[derive(Clone, Debug, PartialEq)]
pub struct Puzzle(pub(crate) Arc<Core>);

/// The grid of a `Puzzle` (as lists of ints) and its rules, when `grid` is one; else both as
/// given. A `Puzzle` carries its rules and box, so `rules=` or `box=` beside it is an error.
pub(crate) fn unpack<'py>(
    grid: &Bound<'py, PyAny>,
    r#box: Option<BoxArg>,
    rules: Option<RulesArg>,
) -> PyResult<(Bound<'py, PyAny>, Option<BoxArg>, Option<RulesArg>)> {
    let Ok(puzzle) = grid.cast::<Puzzle>() else {
        return Ok((grid.clone(), r#box, rules));
    };
    if rules.is_some() || r#box.is_some() {
        return Err(PyTypeError::new_err(
            "a Puzzle carries its rules and box: pass rules= and box= only with a plain grid",
        ));
    }
    let puzzle = puzzle.get();
    let grid = rows(grid.py(), puzzle.0.size, &puzzle.0.givens)?;
    // The puzzle's own box (f-puzzles' default), unless its regions replace the boxes.
    let boxed = (!puzzle.0.rules.replaces_boxes())
        .then(|| puzzle.0.shape().map(BoxArg::of))
        .transpose()?;
    Ok((
        grid.into_any(),
        boxed,
        Some(RulesArg::of(Rules(Arc::new(puzzle.0.rules.clone())))),
    ))
}

fn rows<'py>(py: Python<'py>, n: usize, cells: &[u8]) -> PyResult<Bound<'py, PyList>> {
    PyList::new(
        py,
        cells
            .chunks(n)
            .map(|row| PyList::new(py, row))
            .collect::<PyResult<Vec<_>>>()?,
    )
}

/// Python data (a decoded JSON dict) as JSON.
fn json_of(obj: &Bound<'_, PyAny>, depth: usize) -> PyResult<Json> {
    if depth > MAX_DEPTH {
        return Err(Error::Link(format!("the data is nested more than {MAX_DEPTH} deep")).into());
    }
    if obj.is_none() {
        return Ok(Json::Null);
    }
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Json::Bool(b.is_true()));
    }
    if obj.is_instance_of::<PyInt>() {
        let x: f64 = obj.extract()?;
        return Ok(Json::Number(x));
    }
    if let Ok(x) = obj.cast::<PyFloat>() {
        return Ok(Json::Number(x.value()));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Json::String(s.to_cow()?.into_owned()));
    }
    if let Ok(d) = obj.cast::<PyDict>() {
        let mut items = Vec::with_capacity(d.len());
        for (k, v) in d.iter() {
            let key = k.cast::<PyString>().map_err(|_| {
                Error::Link(format!(
                    "f-puzzles data has keys that are text; found a key {}",
                    k.repr().map(|r| r.to_string()).unwrap_or_default()
                ))
            })?;
            items.push((key.to_cow()?.into_owned(), json_of(&v, depth + 1)?));
        }
        return Ok(Json::Object(items));
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        return obj
            .try_iter()?
            .map(|item| json_of(&item?, depth + 1))
            .collect::<PyResult<Vec<_>>>()
            .map(Json::Array);
    }
    Err(PyTypeError::new_err(format!(
        "f-puzzles data holds JSON values (dict, list, str, int, float, bool, None), not {}",
        obj.get_type().name()?
    )))
}

/// JSON as Python data: dicts, lists, str, int (for whole numbers), float, bool, None.
fn py_of<'py>(py: Python<'py>, json: &Json) -> PyResult<Bound<'py, PyAny>> {
    Ok(match json {
        Json::Null => py.None().into_bound(py),
        Json::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Json::Number(x) if x.fract() == 0.0 && x.abs() < 9.0e15 => {
            (*x as i64).into_pyobject(py)?.into_any()
        }
        Json::Number(x) => x.into_pyobject(py)?.into_any(),
        Json::String(s) => PyString::new(py, s).into_any(),
        Json::Array(items) => PyList::new(
            py,
            items
                .iter()
                .map(|i| py_of(py, i))
                .collect::<PyResult<Vec<_>>>()?,
        )?
        .into_any(),
        Json::Object(items) => {
            let d = PyDict::new(py);
            for (k, v) in items {
                d.set_item(k, py_of(py, v)?)?;
            }
            d.into_any()
        }
    })
}

#[pymethods]
impl Puzzle {
    /// A puzzle of `grid` under `rules` (classic when None), with its metadata.
    #[new]
    #[pyo3(signature = (grid, /, *, rules = None, title = None, author = None,
                        rules_text = None, solution = None))]
    fn new(
        grid: &Bound<'_, PyAny>,
        rules: Option<RulesArg>,
        title: Option<String>,
        author: Option<String>,
        rules_text: Option<String>,
        solution: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        super::guard::entry(|| {
            let request = Request::new(None, rules)?;
            let input = request.read(grid)?;
            let rules = request
                .into_rules()
                .map_or_else(crate::core::Rules::default, |r| (*r).clone());
            let n = input.grid.size();
            let solution = match solution.filter(|s| !s.is_none()) {
                None => None,
                Some(s) => Some(Request::new(None, None)?.read(s)?.grid.cells().to_vec()),
            };
            let mut puzzle = Core::new(n, input.grid.cells().to_vec(), rules)?;
            puzzle.title = title;
            puzzle.author = author;
            puzzle.rules_text = rules_text;
            puzzle.solution = solution;
            puzzle.check()?;
            Ok(Puzzle(Arc::new(puzzle)))
        })
    }

    /// Reads a puzzle link: f-puzzles (`?load=`), SudokuPad carrying an f-puzzles payload
    /// (`sudokupad.app/fpuzzles...`, `?puzzleid=fpuzzles...`), or SudokuPad's own `scl`/`ctc`
    /// payload. Short links need the network and are refused (`InvalidPuzzleError`); a
    /// constraint sudoku_rs does not model is refused with `InvalidRulesError`.
    #[staticmethod]
    #[pyo3(signature = (link, /))]
    fn from_url(link: &Bound<'_, PyAny>) -> PyResult<Self> {
        super::guard::entry(|| {
            let text = link.cast::<PyString>().map_err(|_| {
                PyTypeError::new_err(format!(
                    "link must be a str, got {}",
                    link.get_type()
                        .name()
                        .map(|n| n.to_string())
                        .unwrap_or_default()
                ))
            })?;
            let text = text.to_cow()?;
            let py = link.py();
            let puzzle = py.detach(|| Core::from_url(&text))?;
            Ok(Puzzle(Arc::new(puzzle)))
        })
    }

    /// Reads f-puzzles data: its JSON text, the decoded dict, or the compressed payload (a
    /// link works too).
    #[staticmethod]
    #[pyo3(signature = (data, /))]
    fn from_fpuzzles(data: &Bound<'_, PyAny>) -> PyResult<Self> {
        super::guard::entry(|| {
            let py = data.py();
            let puzzle = if let Ok(text) = data.cast::<PyString>() {
                let text = text.to_cow()?;
                py.detach(|| Core::from_fpuzzles_text(&text))?
            } else if data.is_instance_of::<PyDict>() {
                let json = json_of(data, 0)?;
                crate::core::link::fpuzzles::from_json(&json)?
            } else {
                return Err(PyTypeError::new_err(format!(
                    "f-puzzles data is a str (JSON or the compressed payload) or a dict, not {}",
                    data.get_type().name()?
                )));
            };
            Ok(Puzzle(Arc::new(puzzle)))
        })
    }

    /// The puzzle as f-puzzles data (a dict, as `json.loads` gives it).
    fn to_fpuzzles<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        super::guard::entry(|| py_of(py, &self.0.to_fpuzzles()))
    }

    /// A link that opens the puzzle: on f-puzzles (`site="f-puzzles"`) or SudokuPad
    /// (`site="sudokupad"`).
    #[pyo3(signature = (site = "f-puzzles"))]
    fn to_url(&self, site: &str) -> PyResult<String> {
        super::guard::entry(|| Ok(self.0.to_url(Site::from_name(site)?)))
    }

    /// The givens as a list of rows of ints (0 for an empty cell).
    #[getter]
    fn grid<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        rows(py, self.0.size, &self.0.givens)
    }

    /// The variant rules.
    #[getter]
    fn rules(&self) -> Rules {
        Rules(Arc::new(self.0.rules.clone()))
    }

    /// The side of the grid.
    #[getter]
    fn size(&self) -> usize {
        self.0.size
    }

    /// The `box=` its grid is read with: f-puzzles' default box for its size (the rows,
    /// `(1, n)`, on a prime side), or None where jigsaw regions replace the boxes.
    #[getter]
    #[pyo3(name = "box")]
    fn box_shape(&self) -> PyResult<Option<(usize, usize)>> {
        if self.0.rules.replaces_boxes() {
            return Ok(None);
        }
        let shape = self.0.shape()?;
        Ok(Some((shape.rows(), shape.cols())))
    }

    /// The title, or None.
    #[getter]
    fn title(&self) -> Option<&str> {
        self.0.title.as_deref()
    }

    /// The author, or None.
    #[getter]
    fn author(&self) -> Option<&str> {
        self.0.author.as_deref()
    }

    /// The rules as the setter wrote them, or None.
    #[getter]
    fn rules_text(&self) -> Option<&str> {
        self.0.rules_text.as_deref()
    }

    /// The solution published with the puzzle (rows of ints, 0 where it leaves a cell open),
    /// or None. Kept as published; the solving functions never use it.
    #[getter]
    fn solution<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyList>>> {
        self.0
            .solution
            .as_ref()
            .map(|s| rows(py, self.0.size, s))
            .transpose()
    }

    fn __repr__(&self) -> String {
        let p = &self.0;
        let mut parts = vec![format!("{n}x{n}", n = p.size)];
        if let Some(t) = &p.title {
            parts.push(format!("title={t:?}"));
        }
        if let Some(a) = &p.author {
            parts.push(format!("author={a:?}"));
        }
        let clues = p.givens.iter().filter(|&&v| v != 0).count();
        parts.push(format!("{clues} givens"));
        let kinds = p.rules.kinds();
        if !kinds.is_empty() {
            parts.push(kinds.join(", "));
        }
        format!("Puzzle({})", parts.join(", "))
    }

    /// Pickling and copying go through the f-puzzles form, which keeps everything.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let from = slf.get_type().getattr("from_fpuzzles")?;
        Ok((from, (slf.get().0.to_fpuzzles().write(),)))
    }
}
