//! `sudoku_rs.Rules`: variant rules as an immutable Python value over the core's
//! [`crate::core::rules::Rules`], and reading a grid that is to be solved under them.

use std::sync::Arc;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use pyo3::IntoPyObjectExt;

use crate::core::error::{Cell, Error};
use crate::core::grid::shape::isqrt;
use crate::core::grid::text::{char_of_value, MAX_TEXT_VALUE};
use crate::core::rules::{
    Arrow, Cage, ClonePair, Direction, IndexerKind, LineClue, LineKind, LittleKiller, Outside,
    Pair, PencilMark, Quadruple, Spec, Whisper, NO_REGION, V_SUM, X_SUM,
};
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

/// Region labels: rows of ints (None for a cell in no region), or row strings whose
/// characters are the labels (`.` for a cell in no region).
fn regions_of(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Vec<Option<i64>>>> {
    let obj = if obj.hasattr("tolist")? && !obj.is_instance_of::<PyList>() {
        obj.call_method0("tolist")?
    } else {
        obj.clone()
    };
    items(&obj, "regions")?
        .iter()
        .map(|row| {
            if let Ok(s) = row.cast::<PyString>() {
                Ok(s.to_cow()?
                    .chars()
                    .map(|c| (c != NO_REGION_CHAR).then_some(c as i64))
                    .collect())
            } else {
                items(row, "a row of regions")?
                    .iter()
                    .map(|label| {
                        if label.is_none() {
                            Ok(None)
                        } else {
                            int_of(label, "a region label").map(Some)
                        }
                    })
                    .collect()
            }
        })
        .collect()
}

/// The character of a cell in no region, in row strings of region labels.
const NO_REGION_CHAR: char = '.';

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
            let total = if total.is_none() {
                None
            } else {
                let total = int_of(total, &format!("the total of {what}"))?;
                Some(u32::try_from(total).map_err(|_| {
                    Error::Rules(format!(
                        "{what} (total {total}) is impossible: a total is a positive int or None"
                    ))
                })?)
            };
            Ok(Cage {
                total,
                cells: cells_of(cells, &what)?,
            })
        })
        .collect()
}

/// A whole number that is at least 0 (a total, a value, a count).
fn count_of(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<u32> {
    let v = int_of(obj, what)?;
    u32::try_from(v)
        .map_err(|_| Error::Rules(format!("{what} is {v}, but it is at least 0")).into())
}

/// The items of `obj` as exactly `N` parts, or a TypeError that says what `what` is made of.
fn parts<'py, const N: usize>(
    obj: &Bound<'py, PyAny>,
    what: &str,
    form: &str,
) -> PyResult<[Bound<'py, PyAny>; N]> {
    let got = items(obj, what)?;
    let len = got.len();
    got.try_into()
        .map_err(|_| PyTypeError::new_err(format!("{what} must be {form}, got {len} items")))
}

/// A place just outside the grid as `(row, col)`, with -1 for above or left of it.
fn outside_of(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Outside> {
    let [row, col] = parts::<2>(obj, what, "a (row, col) pair")?;
    // Past any grid either way; the size check names it.
    let clamp = |v: i64| v.clamp(-(1 << 20), 1 << 20) as i32;
    Ok(Outside {
        row: clamp(int_of(&row, what)?),
        col: clamp(int_of(&col, what)?),
    })
}

/// Digits as a sequence of ints from 1.
fn digits_of(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<u8>> {
    items(obj, what)?
        .iter()
        .map(|d| {
            let v = int_of(d, what)?;
            u8::try_from(v)
                .ok()
                .filter(|&v| v >= 1)
                .ok_or_else(|| Error::Rules(format!("{what} lists {v}; digits are 1..n")).into())
        })
        .collect()
}

/// Each item of an optional list through `one(item, index)`.
fn each<T>(
    obj: Option<&Bound<'_, PyAny>>,
    what: &str,
    mut one: impl FnMut(&Bound<'_, PyAny>, usize) -> PyResult<T>,
) -> PyResult<Vec<T>> {
    match obj {
        Some(list) if !list.is_none() => items(list, what)?
            .iter()
            .enumerate()
            .map(|(i, item)| one(item, i))
            .collect(),
        _ => Ok(Vec::new()),
    }
}

fn lines_of(obj: Option<&Bound<'_, PyAny>>, what: &str, kind: &str) -> PyResult<Vec<Vec<Cell>>> {
    each(obj, what, |line, i| cells_of(line, &format!("{kind} {i}")))
}

/// A pair mark: `(cell, cell)` or `(cell, cell, value)`; `default` when the value is left out.
fn pair_of(obj: &Bound<'_, PyAny>, what: &str, default: Option<u32>) -> PyResult<Pair> {
    let got = items(obj, what)?;
    let (a, b, value) = match (got.as_slice(), default) {
        ([a, b], Some(d)) => (a, b, d),
        ([a, b, v], _) => (a, b, count_of(v, &format!("the value of {what}"))?),
        _ => {
            return Err(PyTypeError::new_err(format!(
                "{what} must be {}, got {} items",
                if default.is_some() {
                    "(cell, cell) or (cell, cell, value)"
                } else {
                    "(cell, cell, value)"
                },
                got.len()
            )))
        }
    };
    Ok(Pair {
        cells: [
            cell_of(a, &format!("a cell of {what}"))?,
            cell_of(b, &format!("a cell of {what}"))?,
        ],
        value,
    })
}

fn xv_of(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Pair> {
    let [a, b, letter] = parts::<3>(obj, what, "(cell, cell, 'X' or 'V')")?;
    let value = match letter.extract::<String>().ok().as_deref() {
        Some("X" | "x") => X_SUM,
        Some("V" | "v") => V_SUM,
        _ => {
            return Err(Error::Rules(format!(
                "{what} has letter {}, but an XV mark is 'X' (adds up to 10) or 'V' (to 5)",
                letter.repr()?
            ))
            .into())
        }
    };
    Ok(Pair {
        cells: [
            cell_of(&a, &format!("a cell of {what}"))?,
            cell_of(&b, &format!("a cell of {what}"))?,
        ],
        value,
    })
}

fn line_clue_of(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<LineClue> {
    let [value, clue] = parts::<2>(obj, what, "a (value, (row, col)) pair")?;
    Ok(LineClue {
        value: count_of(&value, &format!("the value of {what}"))?,
        clue: outside_of(&clue, &format!("the place of {what}"))?,
    })
}

fn little_killer_of(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<LittleKiller> {
    let [total, clue, direction] = parts::<3>(
        obj,
        what,
        "(total, (row, col), direction) with direction 'UR', 'UL', 'DR' or 'DL'",
    )?;
    let direction = direction
        .extract::<String>()
        .ok()
        .and_then(|d| Direction::from_code(&d))
        .ok_or_else(|| {
            Error::Rules(format!(
                "{what} points {}, but a direction is 'UR', 'UL', 'DR' or 'DL'",
                direction.repr().map(|r| r.to_string()).unwrap_or_default()
            ))
        })?;
    Ok(LittleKiller {
        total: count_of(&total, &format!("the total of {what}"))?,
        clue: outside_of(&clue, &format!("the place of {what}"))?,
        direction,
    })
}

/// A whispers line: its cells, or `(cells, difference)` with difference an int or None.
fn whisper_of(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Whisper> {
    let got = items(obj, what)?;
    if let [cells, difference] = got.as_slice() {
        if difference.is_none() || !difference.hasattr("__len__")? {
            let difference = if difference.is_none() {
                None
            } else {
                Some(count_of(difference, &format!("the difference of {what}"))?)
            };
            return Ok(Whisper {
                cells: cells_of(cells, what)?,
                difference,
            });
        }
    }
    Ok(Whisper {
        cells: cells_of(obj, what)?,
        difference: None,
    })
}

fn cell_py(py: Python<'_>, cell: Cell) -> PyResult<Py<PyAny>> {
    (cell.row, cell.col).into_py_any(py)
}

fn outside_py(py: Python<'_>, at: Outside) -> PyResult<Py<PyAny>> {
    (at.row, at.col).into_py_any(py)
}

fn lines_py(py: Python<'_>, lines: &[Vec<Cell>]) -> PyResult<Py<PyTuple>> {
    let lines = lines
        .iter()
        .map(|l| cell_tuple(py, l))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(PyTuple::new(py, lines)?.unbind())
}

fn pairs_py(py: Python<'_>, pairs: &[Pair]) -> PyResult<Py<PyTuple>> {
    let pairs = pairs
        .iter()
        .map(|p| (cell_py(py, p.cells[0])?, cell_py(py, p.cells[1])?, p.value).into_py_any(py))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(PyTuple::new(py, pairs)?.unbind())
}

fn line_clues_py(py: Python<'_>, clues: &[LineClue]) -> PyResult<Py<PyTuple>> {
    let clues = clues
        .iter()
        .map(|c| (c.value, outside_py(py, c.clue)?).into_py_any(py))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(PyTuple::new(py, clues)?.unbind())
}

fn cell_tuple(py: Python<'_>, cells: &[Cell]) -> PyResult<Py<PyTuple>> {
    Ok(PyTuple::new(py, cells.iter().map(|c| (c.row, c.col)))?.unbind())
}

/// Bytes that must be free before a `Rules` is built: well over what one takes.
const ROOM: usize = 1 << 16;

impl Rules {
    /// `core` behind its `Arc`, the room for it checked first: a failed Rust allocation aborts
    /// the process, so a file of many rules read under a memory limit gets a `MemoryError`.
    fn shared(core: Core) -> PyResult<Self> {
        super::alloc::probe(size_of::<Core>() + 1024, || "the rules".to_owned())?;
        Ok(Rules(Arc::new(core)))
    }
}

#[pymethods]
impl Rules {
    #[new]
    #[pyo3(signature = (*, diagonals = false, windows = false, regions = None,
                        extra_regions = None, anti_knight = false, anti_king = false,
                        non_consecutive = false, cages = None, main_diagonal = false,
                        anti_diagonal = false, disjoint_groups = false, little_killers = None,
                        thermometers = None, arrows = None, xv = None, differences = None,
                        ratios = None, negative_xv = false, negative_ratio = false,
                        sandwiches = None, whispers = None, renbans = None, palindromes = None,
                        between_lines = None, odd_cells = None, even_cells = None,
                        minimum_cells = None, maximum_cells = None, quadruples = None,
                        clones = None, x_sums = None, skyscrapers = None, pencil_marks = None,
                        zipper_lines = None, region_sum_lines = None, entropic_lines = None,
                        modular_lines = None, slow_thermometers = None, double_arrows = None,
                        lockout_lines = None, nabner_lines = None, row_indexers = None,
                        column_indexers = None, box_indexers = None))]
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
        main_diagonal: bool,
        anti_diagonal: bool,
        disjoint_groups: bool,
        little_killers: Option<&Bound<'_, PyAny>>,
        thermometers: Option<&Bound<'_, PyAny>>,
        arrows: Option<&Bound<'_, PyAny>>,
        xv: Option<&Bound<'_, PyAny>>,
        differences: Option<&Bound<'_, PyAny>>,
        ratios: Option<&Bound<'_, PyAny>>,
        negative_xv: bool,
        negative_ratio: bool,
        sandwiches: Option<&Bound<'_, PyAny>>,
        whispers: Option<&Bound<'_, PyAny>>,
        renbans: Option<&Bound<'_, PyAny>>,
        palindromes: Option<&Bound<'_, PyAny>>,
        between_lines: Option<&Bound<'_, PyAny>>,
        odd_cells: Option<&Bound<'_, PyAny>>,
        even_cells: Option<&Bound<'_, PyAny>>,
        minimum_cells: Option<&Bound<'_, PyAny>>,
        maximum_cells: Option<&Bound<'_, PyAny>>,
        quadruples: Option<&Bound<'_, PyAny>>,
        clones: Option<&Bound<'_, PyAny>>,
        x_sums: Option<&Bound<'_, PyAny>>,
        skyscrapers: Option<&Bound<'_, PyAny>>,
        pencil_marks: Option<&Bound<'_, PyAny>>,
        zipper_lines: Option<&Bound<'_, PyAny>>,
        region_sum_lines: Option<&Bound<'_, PyAny>>,
        entropic_lines: Option<&Bound<'_, PyAny>>,
        modular_lines: Option<&Bound<'_, PyAny>>,
        slow_thermometers: Option<&Bound<'_, PyAny>>,
        double_arrows: Option<&Bound<'_, PyAny>>,
        lockout_lines: Option<&Bound<'_, PyAny>>,
        nabner_lines: Option<&Bound<'_, PyAny>>,
        row_indexers: Option<&Bound<'_, PyAny>>,
        column_indexers: Option<&Bound<'_, PyAny>>,
        box_indexers: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        super::guard::entry(|| {
            // Files of variant puzzles make one of these per line: when Python has used up
            // the memory, say so here, before the (infallible) allocations below would abort.
            super::alloc::probe(ROOM, || "the rules".into())?;
            let regions = regions
                .filter(|r| !r.is_none())
                .map(regions_of)
                .transpose()?;
            let cells_or_empty = |obj: Option<&Bound<'_, PyAny>>, what: &str| match obj {
                Some(list) if !list.is_none() => cells_of(list, what),
                _ => Ok(Vec::new()),
            };
            let spec = Spec {
                diagonals,
                main_diagonal,
                anti_diagonal,
                windows,
                regions,
                extra_regions: lines_of(extra_regions, "extra_regions", "extra region")?,
                anti_knight,
                anti_king,
                non_consecutive,
                disjoint_groups,
                cages: match cages {
                    Some(list) if !list.is_none() => cages_of(list)?,
                    _ => Vec::new(),
                },
                little_killers: each(little_killers, "little_killers", |k, i| {
                    little_killer_of(k, &format!("little killer {i}"))
                })?,
                thermometers: lines_of(thermometers, "thermometers", "thermometer")?,
                arrows: each(arrows, "arrows", |a, i| {
                    let what = format!("arrow {i}");
                    let [circle, shaft] =
                        parts::<2>(a, &what, "a (circle cells, shaft cells) pair")?;
                    Ok(Arrow {
                        circle: cells_of(&circle, &format!("the circle of {what}"))?,
                        shaft: cells_of(&shaft, &format!("the shaft of {what}"))?,
                    })
                })?,
                xv: each(xv, "xv", |p, i| xv_of(p, &format!("XV mark {i}")))?,
                differences: each(differences, "differences", |p, i| {
                    pair_of(p, &format!("white dot {i}"), Some(1))
                })?,
                ratios: each(ratios, "ratios", |p, i| {
                    pair_of(p, &format!("black dot {i}"), Some(2))
                })?,
                negative_xv,
                negative_ratio,
                sandwiches: each(sandwiches, "sandwiches", |c, i| {
                    line_clue_of(c, &format!("sandwich clue {i}"))
                })?,
                whispers: each(whispers, "whispers", |w, i| {
                    whisper_of(w, &format!("whispers line {i}"))
                })?,
                renbans: lines_of(renbans, "renbans", "renban line")?,
                palindromes: lines_of(palindromes, "palindromes", "palindrome")?,
                between_lines: lines_of(between_lines, "between_lines", "between line")?,
                odd_cells: cells_or_empty(odd_cells, "odd_cells")?,
                even_cells: cells_or_empty(even_cells, "even_cells")?,
                minimum_cells: cells_or_empty(minimum_cells, "minimum_cells")?,
                maximum_cells: cells_or_empty(maximum_cells, "maximum_cells")?,
                quadruples: each(quadruples, "quadruples", |q, i| {
                    let what = format!("quadruple {i}");
                    let [corner, digits] = parts::<2>(q, &what, "a (top-left cell, digits) pair")?;
                    Ok(Quadruple {
                        corner: cell_of(&corner, &format!("the corner of {what}"))?,
                        digits: digits_of(&digits, &format!("the digits of {what}"))?,
                    })
                })?,
                clones: each(clones, "clones", |c, i| {
                    let what = format!("clone {i}");
                    let [cells, copy] = parts::<2>(c, &what, "a (cells, clone cells) pair")?;
                    Ok(ClonePair {
                        cells: cells_of(&cells, &what)?,
                        clone_cells: cells_of(&copy, &format!("the copy of {what}"))?,
                    })
                })?,
                x_sums: each(x_sums, "x_sums", |c, i| {
                    line_clue_of(c, &format!("X-sum clue {i}"))
                })?,
                skyscrapers: each(skyscrapers, "skyscrapers", |c, i| {
                    line_clue_of(c, &format!("skyscraper clue {i}"))
                })?,
                pencil_marks: each(pencil_marks, "pencil_marks", |m, i| {
                    let what = format!("pencil mark {i}");
                    let [cell, digits] = parts::<2>(m, &what, "a (cell, digits) pair")?;
                    Ok(PencilMark {
                        cell: cell_of(&cell, &what)?,
                        digits: digits_of(&digits, &format!("the digits of {what}"))?,
                    })
                })?,
                lines: {
                    let given = [
                        zipper_lines,
                        region_sum_lines,
                        entropic_lines,
                        modular_lines,
                        slow_thermometers,
                        double_arrows,
                        lockout_lines,
                        nabner_lines,
                    ];
                    let mut lines: [Vec<Vec<Cell>>; LineKind::ALL.len()] = Default::default();
                    for (kind, obj) in LineKind::ALL.into_iter().zip(given) {
                        lines[kind as usize] = lines_of(obj, kind.keyword(), kind.name())?;
                    }
                    lines
                },
                indexers: [
                    cells_or_empty(row_indexers, "row_indexers")?,
                    cells_or_empty(column_indexers, "column_indexers")?,
                    cells_or_empty(box_indexers, "box_indexers")?,
                ],
            };
            Rules::shared(Core::new(spec)?)
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
            Rules::shared(Core::new(spec)?)
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
            Rules::shared(Core::new(spec)?)
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
    /// appearance; None for a cell in no region), or None when the boxes hold.
    #[getter]
    fn regions(&self, py: Python<'_>) -> PyResult<Option<Py<PyList>>> {
        let Some(ids) = self.0.regions() else {
            return Ok(None);
        };
        let n = isqrt(ids.len());
        let rows = ids
            .chunks(n)
            .map(|row| PyList::new(py, row.iter().map(|&id| (id != NO_REGION).then_some(id))))
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

    /// Whether the diagonal from top-left to bottom-right holds distinct digits.
    #[getter]
    fn main_diagonal(&self) -> bool {
        self.0.main_diagonal()
    }

    /// Whether the diagonal from bottom-left to top-right holds distinct digits.
    #[getter]
    fn anti_diagonal(&self) -> bool {
        self.0.anti_diagonal()
    }

    /// Whether cells in the same position of their boxes hold distinct digits.
    #[getter]
    fn disjoint_groups(&self) -> bool {
        self.0.disjoint_groups()
    }

    /// The little killers, each `(total, (row, col), direction)`: the clue stands outside the
    /// grid (row or column -1 or n) and its diagonal runs `'UR'`, `'UL'`, `'DR'` or `'DL'`.
    #[getter]
    fn little_killers(&self, py: Python<'_>) -> PyResult<Py<PyTuple>> {
        let items = self
            .0
            .little_killers()
            .iter()
            .map(|k| (k.total, outside_py(py, k.clue)?, k.direction.code()).into_py_any(py))
            .collect::<PyResult<Vec<_>>>()?;
        Ok(PyTuple::new(py, items)?.unbind())
    }

    /// The thermometers, each a tuple of cells from the bulb.
    #[getter]
    fn thermometers(&self, py: Python<'_>) -> PyResult<Py<PyTuple>> {
        lines_py(py, self.0.thermometers())
    }

    /// The arrows, each `(circle cells, shaft cells)`, the shaft from the circle to the tip.
    #[getter]
    fn arrows(&self, py: Python<'_>) -> PyResult<Py<PyTuple>> {
        let items = self
            .0
            .arrows()
            .iter()
            .map(|a| (cell_tuple(py, &a.circle)?, cell_tuple(py, &a.shaft)?).into_py_any(py))
            .collect::<PyResult<Vec<_>>>()?;
        Ok(PyTuple::new(py, items)?.unbind())
    }

    /// The X and V marks, each `(cell, cell, 'X' or 'V')`.
    #[getter]
    fn xv(&self, py: Python<'_>) -> PyResult<Py<PyTuple>> {
        let items = self
            .0
            .xv()
            .iter()
            .map(|p| {
                let letter = if p.value == X_SUM { "X" } else { "V" };
                (cell_py(py, p.cells[0])?, cell_py(py, p.cells[1])?, letter).into_py_any(py)
            })
            .collect::<PyResult<Vec<_>>>()?;
        Ok(PyTuple::new(py, items)?.unbind())
    }

    /// The white Kropki dots, each `(cell, cell, difference)`.
    #[getter]
    fn differences(&self, py: Python<'_>) -> PyResult<Py<PyTuple>> {
        pairs_py(py, self.0.differences())
    }

    /// The black Kropki dots, each `(cell, cell, ratio)`.
    #[getter]
    fn ratios(&self, py: Python<'_>) -> PyResult<Py<PyTuple>> {
        pairs_py(py, self.0.ratios())
    }

    /// Whether every X and V is given (no other orthogonal pair adds up to 10 or 5).
    #[getter]
    fn negative_xv(&self) -> bool {
        self.0.negative_xv()
    }

    /// Whether every black dot is given (no other orthogonal pair has ratio 2 or a black
    /// dot's ratio).
    #[getter]
    fn negative_ratio(&self) -> bool {
        self.0.negative_ratio()
    }

    /// The sandwich clues, each `(total, (row, col))` outside the grid: the digits between
    /// the 1 and the n of the row or column it faces add up to the total.
    #[getter]
    fn sandwiches(&self, py: Python<'_>) -> PyResult<Py<PyTuple>> {
        line_clues_py(py, self.0.sandwiches())
    }

    /// The whispers lines, each `(cells, difference)`; difference None is half the side,
    /// rounded up.
    #[getter]
    fn whispers(&self, py: Python<'_>) -> PyResult<Py<PyTuple>> {
        let items = self
            .0
            .whispers()
            .iter()
            .map(|w| (cell_tuple(py, &w.cells)?, w.difference).into_py_any(py))
            .collect::<PyResult<Vec<_>>>()?;
        Ok(PyTuple::new(py, items)?.unbind())
    }

    /// The renban lines (distinct consecutive digits in any order), each a tuple of cells.
    #[getter]
    fn renbans(&self, py: Python<'_>) -> PyResult<Py<PyTuple>> {
        lines_py(py, self.0.renbans())
    }

    /// The palindrome lines (the same read from either end), each a tuple of cells.
    #[getter]
    fn palindromes(&self, py: Python<'_>) -> PyResult<Py<PyTuple>> {
        lines_py(py, self.0.palindromes())
    }

    /// The between lines (inner digits strictly between the two ends'), each a tuple of cells.
    #[getter]
    fn between_lines(&self, py: Python<'_>) -> PyResult<Py<PyTuple>> {
        lines_py(py, self.0.between_lines())
    }

    /// The cells that hold odd digits.
    #[getter]
    fn odd_cells(&self, py: Python<'_>) -> PyResult<Py<PyTuple>> {
        cell_tuple(py, self.0.odd_cells())
    }

    /// The cells that hold even digits.
    #[getter]
    fn even_cells(&self, py: Python<'_>) -> PyResult<Py<PyTuple>> {
        cell_tuple(py, self.0.even_cells())
    }

    /// The cells less than each orthogonal neighbour that is not a minimum cell itself.
    #[getter]
    fn minimum_cells(&self, py: Python<'_>) -> PyResult<Py<PyTuple>> {
        cell_tuple(py, self.0.minimum_cells())
    }

    /// The cells greater than each orthogonal neighbour that is not a maximum cell itself.
    #[getter]
    fn maximum_cells(&self, py: Python<'_>) -> PyResult<Py<PyTuple>> {
        cell_tuple(py, self.0.maximum_cells())
    }

    /// The quadruples, each `(top-left cell, digits)`: every digit appears in that 2x2.
    #[getter]
    fn quadruples(&self, py: Python<'_>) -> PyResult<Py<PyTuple>> {
        let items = self
            .0
            .quadruples()
            .iter()
            .map(|q| {
                let digits = PyTuple::new(py, &q.digits)?;
                (cell_py(py, q.corner)?, digits).into_py_any(py)
            })
            .collect::<PyResult<Vec<_>>>()?;
        Ok(PyTuple::new(py, items)?.unbind())
    }

    /// The clones, each `(cells, clone cells)`: paired cell by cell, they hold equal digits.
    #[getter]
    fn clones(&self, py: Python<'_>) -> PyResult<Py<PyTuple>> {
        let items = self
            .0
            .clones()
            .iter()
            .map(|c| (cell_tuple(py, &c.cells)?, cell_tuple(py, &c.clone_cells)?).into_py_any(py))
            .collect::<PyResult<Vec<_>>>()?;
        Ok(PyTuple::new(py, items)?.unbind())
    }

    /// The X-sum clues, each `(total, (row, col))` outside the grid: the first X digits from
    /// the clue add up to the total, X being the first.
    #[getter]
    fn x_sums(&self, py: Python<'_>) -> PyResult<Py<PyTuple>> {
        line_clues_py(py, self.0.x_sums())
    }

    /// The skyscraper clues, each `(count, (row, col))` outside the grid: how many digits
    /// are seen from the clue, taller ones hiding shorter ones behind them.
    #[getter]
    fn skyscrapers(&self, py: Python<'_>) -> PyResult<Py<PyTuple>> {
        line_clues_py(py, self.0.skyscrapers())
    }

    /// The given pencil marks, each `(cell, digits)`: the cell holds one of the digits.
    #[getter]
    fn pencil_marks(&self, py: Python<'_>) -> PyResult<Py<PyTuple>> {
        let items = self
            .0
            .pencil_marks()
            .iter()
            .map(|m| (cell_py(py, m.cell)?, PyTuple::new(py, &m.digits)?).into_py_any(py))
            .collect::<PyResult<Vec<_>>>()?;
        Ok(PyTuple::new(py, items)?.unbind())
    }

    /// The zipper lines, each a tuple of cells: digits the same distance from the middle add up to
    /// the same total (the middle cell's digit on a line of odd length).
    #[getter]
    fn zipper_lines(&self, py: Python<'_>) -> PyResult<Py<PyTuple>> {
        lines_py(py, self.0.lines(LineKind::Zipper))
    }

    /// The region sum lines, each a tuple of cells: the stretches of the line in each region
    /// (boxes, or jigsaw regions) add up to the same total; re-entering a region starts a new one.
    #[getter]
    fn region_sum_lines(&self, py: Python<'_>) -> PyResult<Py<PyTuple>> {
        lines_py(py, self.0.lines(LineKind::RegionSum))
    }

    /// The entropic lines, each a tuple of cells: every three cells in a row hold a low, a middle
    /// and a high digit (1-3, 4-6, 7-9 on a 9x9).
    #[getter]
    fn entropic_lines(&self, py: Python<'_>) -> PyResult<Py<PyTuple>> {
        lines_py(py, self.0.lines(LineKind::Entropic))
    }

    /// The modular lines, each a tuple of cells: every three cells in a row hold digits of three
    /// different residues modulo 3.
    #[getter]
    fn modular_lines(&self, py: Python<'_>) -> PyResult<Py<PyTuple>> {
        lines_py(py, self.0.lines(LineKind::Modular))
    }

    /// The slow thermometers, each a tuple of cells from the bulb: digits never decrease along it.
    #[getter]
    fn slow_thermometers(&self, py: Python<'_>) -> PyResult<Py<PyTuple>> {
        lines_py(py, self.0.lines(LineKind::SlowThermo))
    }

    /// The double arrows, each a tuple of cells: the two end digits add up to the sum of the
    /// digits between them.
    #[getter]
    fn double_arrows(&self, py: Python<'_>) -> PyResult<Py<PyTuple>> {
        lines_py(py, self.0.lines(LineKind::DoubleArrow))
    }

    /// The lockout lines, each a tuple of cells: the ends differ by at least half the side
    /// (rounded down) and no digit between them on the line is between or equal to theirs.
    #[getter]
    fn lockout_lines(&self, py: Python<'_>) -> PyResult<Py<PyTuple>> {
        lines_py(py, self.0.lines(LineKind::Lockout))
    }

    /// The nabner lines, each a tuple of cells: no two digits on a line are equal or
    /// consecutive, over every pair of its cells.
    #[getter]
    fn nabner_lines(&self, py: Python<'_>) -> PyResult<Py<PyTuple>> {
        lines_py(py, self.0.lines(LineKind::Nabner))
    }

    /// The row indexing cells: cell (r, c) holding v means cell (v, c) holds r (counted from 1).
    #[getter]
    fn row_indexers(&self, py: Python<'_>) -> PyResult<Py<PyTuple>> {
        cell_tuple(py, self.0.indexers(IndexerKind::Row))
    }

    /// The column indexing cells: cell (r, c) holding v means cell (r, v) holds c (counted from 1).
    #[getter]
    fn column_indexers(&self, py: Python<'_>) -> PyResult<Py<PyTuple>> {
        cell_tuple(py, self.0.indexers(IndexerKind::Column))
    }

    /// The box indexing cells: the cell at place i of its box or region (row-major, from 1)
    /// holding v means the cell at place v of that region holds i.
    #[getter]
    fn box_indexers(&self, py: Python<'_>) -> PyResult<Py<PyTuple>> {
        cell_tuple(py, self.0.indexers(IndexerKind::Box))
    }

    /// The constraint kinds in force, by their keyword, in a fixed order.
    #[getter]
    fn kinds(&self) -> Vec<&'static str> {
        self.0.kinds()
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

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let r = &slf.get().0;
        let mut parts: Vec<String> = Vec::new();
        if r.diagonals() {
            parts.push("diagonals=True".into());
        }
        if r.windows() {
            parts.push("windows=True".into());
        }
        if let Some(ids) = r.regions() {
            let n = isqrt(ids.len());
            let rows: Vec<String> = if n <= MAX_TEXT_VALUE as usize {
                ids.chunks(n)
                    .map(|row| {
                        let s: String = row
                            .iter()
                            .map(|&id| match id {
                                NO_REGION => NO_REGION_CHAR,
                                _ => char_of_value(id + 1),
                            })
                            .collect();
                        format!("'{s}'")
                    })
                    .collect()
            } else {
                ids.chunks(n)
                    .map(|row| {
                        let labels: Vec<String> = row
                            .iter()
                            .map(|&id| match id {
                                NO_REGION => "None".to_string(),
                                _ => id.to_string(),
                            })
                            .collect();
                        format!("[{}]", labels.join(", "))
                    })
                    .collect()
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
        for (name, on) in [
            ("anti_knight", r.anti_knight()),
            ("anti_king", r.anti_king()),
            ("non_consecutive", r.non_consecutive()),
        ] {
            if on {
                parts.push(format!("{name}=True"));
            }
        }
        if !r.cages().is_empty() {
            let cages: Vec<String> = r
                .cages()
                .iter()
                .map(|c| match c.total {
                    Some(total) => format!("({total}, {})", cells(&c.cells)),
                    None => format!("(None, {})", cells(&c.cells)),
                })
                .collect();
            parts.push(format!("cages=[{}]", cages.join(", ")));
        }
        // The kinds added since: each as the repr of its attribute, which the constructor
        // takes back.
        let kwargs = slf.call_method0("__getnewargs_ex__")?.get_item(1)?;
        for name in KEYWORDS.iter().skip(KEYWORDS_BEFORE) {
            if (*name == "anti_diagonal" || *name == "main_diagonal") && r.diagonals() {
                continue;
            }
            let value = kwargs.get_item(*name)?;
            if value.is_truthy()? {
                parts.push(format!("{name}={}", value.repr()?));
            }
        }
        Ok(format!("Rules({})", parts.join(", ")))
    }

    /// Pickling and copying rebuild the rules through the constructor.
    fn __getnewargs_ex__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, PyDict>)> {
        let py = slf.py();
        let kwargs = PyDict::new(py);
        for name in KEYWORDS {
            kwargs.set_item(*name, slf.getattr(*name)?)?;
        }
        Ok((PyTuple::empty(py), kwargs))
    }
}

/// Every constructor keyword that round-trips through its attribute (`diagonals` is written
/// as its two halves), in the order `repr` writes them; the first [`KEYWORDS_BEFORE`] are
/// written by hand above.
const KEYWORDS: &[&str] = &[
    "windows",
    "regions",
    "extra_regions",
    "anti_knight",
    "anti_king",
    "non_consecutive",
    "cages",
    "main_diagonal",
    "anti_diagonal",
    "disjoint_groups",
    "little_killers",
    "thermometers",
    "arrows",
    "xv",
    "differences",
    "ratios",
    "negative_xv",
    "negative_ratio",
    "sandwiches",
    "whispers",
    "renbans",
    "palindromes",
    "between_lines",
    "odd_cells",
    "even_cells",
    "minimum_cells",
    "maximum_cells",
    "quadruples",
    "clones",
    "x_sums",
    "skyscrapers",
    "pencil_marks",
    "zipper_lines",
    "region_sum_lines",
    "entropic_lines",
    "modular_lines",
    "slow_thermometers",
    "double_arrows",
    "lockout_lines",
    "nabner_lines",
    "row_indexers",
    "column_indexers",
    "box_indexers",
];
const KEYWORDS_BEFORE: usize = 7;

/// A `rules=` argument: a `Rules`, or `None` for classic rules. Anything else is a TypeError
/// that says what to pass (pyo3's own message would not point at the text form).
pub(crate) struct RulesArg(Rules);

impl RulesArg {
    /// The argument for `rules` (a `Puzzle`'s own).
    pub(crate) fn of(rules: Rules) -> Self {
        RulesArg(rules)
    }

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
