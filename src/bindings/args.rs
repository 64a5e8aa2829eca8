//! Every argument the binding takes besides the grids themselves, read in one place with one set
//! of messages, so `threads`, `limit`, `box`, ... mean and say the same in every function.
//!
//! Each argument is a newtype implementing `FromPyObject`, so a bad value is refused before any
//! work and pyo3's generic conversion messages never reach users. The rules shared by all:
//! - numbers are Python ints or anything with `__index__` (numpy ints), never `bool`
//!   (`threads=True` is a TypeError, not one thread);
//! - an int too big for the machine is a value out of range (ValueError), or saturates where a
//!   bigger number means the same (`max_guesses=10**30` is "no practical limit");
//! - `None` means "no limit" for `limit` and `max_guesses` and "every core" for `threads`;
//! - a bad grid side or box is `InvalidPuzzleError`, like a grid whose size has no box.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};

use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyString, PyTuple};

use crate::core::make::generate::Symmetry;
use crate::core::{BoxShape, Error, MAX_SIZE};

/// The most worker threads per core a batch starts, whatever `threads=` asks for: more only
/// adds stacks and context switches (the work is CPU-bound).
pub const THREADS_PER_CORE: usize = 4;

fn type_name(obj: Borrowed<'_, '_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "an unknown type".into(), |n| n.to_string())
}

/// The value of an int argument: exact up to 128 bits, saturated beyond (only the sign of such
/// a number matters to any argument). `what` names the expected type in the TypeError.
fn whole(obj: &Borrowed<'_, '_, PyAny>, name: &str, what: &str) -> PyResult<i128> {
    let refuse = || PyTypeError::new_err(format!("{name} must be {what}, got {}", type_name(*obj)));
    if obj.is_instance_of::<PyBool>() {
        return Err(refuse());
    }
    // Through `__index__` first, as Python's own int arguments are read (an exact int comes
    // back as itself): on Python 3.9 pyo3's i128 read under the stable ABI takes a float
    // through `__int__` (truncated, with a DeprecationWarning) and refuses numpy 1.21's uint64.
    // SAFETY: `obj` is a live object; PyNumber_Index returns a new reference or NULL with an
    // exception set.
    let index =
        unsafe { Bound::from_owned_ptr_or_err(obj.py(), ffi::PyNumber_Index(obj.as_ptr())) };
    let index = match index {
        Ok(index) => index,
        // An `__index__` that raised something of its own: let the caller see it.
        Err(err) if !err.is_instance_of::<PyTypeError>(obj.py()) => return Err(err),
        Err(_) => return Err(refuse()),
    };
    // An i64 first: under the stable ABI pyo3 reads an i128 with a shift and several Python
    // calls, which showed in every call taking an int argument (`limit=2`).
    if let Ok(value) = index.extract::<i64>() {
        return Ok(i128::from(value));
    }
    match index.extract::<i128>() {
        Ok(value) => Ok(value),
        Err(err) if err.is_instance_of::<PyOverflowError>(obj.py()) => {
            Ok(if index.gt(0)? { i128::MAX } else { i128::MIN })
        }
        Err(err) => Err(err),
    }
}

/// A list-of-ints argument (`Transform(rows=...)`): each item read like any int argument, so a
/// bool is refused and a huge value is an out-of-range number (the caller's range check names
/// it), never pyo3's OverflowError.
pub fn int_list(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Vec<i128>> {
    let what = "a list of ints";
    let refuse = || {
        PyTypeError::new_err(format!(
            "{name} must be {what}, got {}",
            type_name(obj.as_borrowed())
        ))
    };
    if obj.is_instance_of::<PyString>() {
        return Err(refuse());
    }
    let items = obj.try_iter().map_err(|_| refuse())?;
    items
        .map(|item| whole(&item?.as_borrowed(), name, what))
        .collect()
}

/// A number as messages print it: saturated values as "a number past 2**127".
pub fn shown(value: i128) -> String {
    match value {
        i128::MAX => "a number of 2**127 or more".into(),
        i128::MIN => "a number below -2**127".into(),
        v => v.to_string(),
    }
}

/// A positive count or `None`; past `u64::MAX` it saturates (nothing can count that far).
fn positive_or_none(obj: Borrowed<'_, '_, PyAny>, name: &str) -> PyResult<Option<u64>> {
    if obj.is_none() {
        return Ok(None);
    }
    let value = whole(&obj, name, "an int or None")?;
    positive(name, value).map(Some)
}

/// `value` as a positive count: the one "must be a positive integer" message.
pub fn positive(name: &str, value: i128) -> PyResult<u64> {
    if value < 1 {
        return Err(PyValueError::new_err(format!(
            "{name} must be a positive integer, got {}",
            shown(value)
        )));
    }
    Ok(u64::try_from(value).unwrap_or(u64::MAX))
}

/// `limit=`: the most solutions to find or count; `None` for no limit.
#[derive(Clone, Copy, Debug)]
pub struct Limit(pub Option<u64>);

impl<'a, 'py> FromPyObject<'a, 'py> for Limit {
    type Error = PyErr;
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        positive_or_none(obj, "limit").map(Limit)
    }
}

/// `max_guesses=`: the guess budget of each search; `None` for no limit.
#[derive(Clone, Copy, Debug, Default)]
pub struct MaxGuesses(pub Option<u64>);

impl<'a, 'py> FromPyObject<'a, 'py> for MaxGuesses {
    type Error = PyErr;
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        positive_or_none(obj, "max_guesses").map(MaxGuesses)
    }
}

/// An optional `max_guesses=` as the solver takes it.
pub fn budget(max_guesses: Option<MaxGuesses>) -> Option<u64> {
    max_guesses.unwrap_or_default().0
}

/// `threads=`: how many threads a batch may use; `None` for every core.
#[derive(Clone, Copy, Debug, Default)]
pub struct Threads(Option<u64>);

impl<'a, 'py> FromPyObject<'a, 'py> for Threads {
    type Error = PyErr;
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        positive_or_none(obj, "threads").map(Threads)
    }
}

/// The cores this process may run on.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}

impl Threads {
    /// The threads to start for `rows` pieces of work: as asked (every core for `None`), but
    /// never more than the rows nor [`THREADS_PER_CORE`] per core, and at least one.
    pub fn for_rows(self, rows: usize) -> usize {
        // Asking the OS for the core count reads cgroup files (tens of microseconds), more than
        // a small batch's whole search: skip it when the answer cannot depend on it (one row,
        // or an explicit count under the cap that every machine allows).
        let asked = self.0.map(|t| usize::try_from(t).unwrap_or(usize::MAX));
        let wanted = asked.unwrap_or(usize::MAX).min(rows).max(1);
        if wanted == 1 || (asked.is_some() && wanted <= THREADS_PER_CORE) {
            return wanted;
        }
        let cores = cores();
        asked
            .unwrap_or(cores)
            .min(cores.saturating_mul(THREADS_PER_CORE))
            .min(rows)
            .max(1)
    }
}

/// `seed=`: any int in 0..2**64; `None` draws a fresh one from the OS-seeded hasher keys.
#[derive(Clone, Copy, Debug)]
pub struct Seed(pub u64);

impl<'a, 'py> FromPyObject<'a, 'py> for Seed {
    type Error = PyErr;
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if obj.is_none() {
            return Ok(Seed::fresh());
        }
        let value = whole(&obj, "seed", "an int or None")?;
        u64::try_from(value).map(Seed).map_err(|_| {
            PyValueError::new_err(format!(
                "seed must be an int in 0..2**64, got {}",
                shown(value)
            ))
        })
    }
}

impl Seed {
    /// A fresh seed from the OS-seeded hasher keys, for `seed=None`.
    pub fn fresh() -> Self {
        Seed(RandomState::new().build_hasher().finish())
    }
}

/// `index=` of `Transform.random`: which item of the seeded stream, 0..2**64.
#[derive(Clone, Copy, Debug, Default)]
pub struct Index(pub u64);

impl<'a, 'py> FromPyObject<'a, 'py> for Index {
    type Error = PyErr;
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let value = whole(&obj, "index", "an int")?;
        if value < 0 {
            return Err(PyValueError::new_err(format!(
                "index must be 0 or more, got {}",
                shown(value)
            )));
        }
        u64::try_from(value).map(Index).map_err(|_| {
            PyValueError::new_err(format!(
                "index must be an int in 0..2**64, got {}",
                shown(value)
            ))
        })
    }
}

/// A count of things to make (`generate_batch(count)`): 0 or more.
#[derive(Clone, Copy, Debug)]
pub struct Count(pub usize);

impl<'a, 'py> FromPyObject<'a, 'py> for Count {
    type Error = PyErr;
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let value = whole(&obj, "count", "an int")?;
        if value < 0 {
            return Err(PyValueError::new_err(format!(
                "count must be 0 or more, got {}",
                shown(value)
            )));
        }
        // Too many to hold is a memory question, asked where the output is allocated.
        Ok(Count(usize::try_from(value).unwrap_or(usize::MAX)))
    }
}

/// `clues=` of the generator: a clue count, or `None` for as few as the digging reaches.
/// Negative counts are the generator's to refuse with its range (`GenerateError`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Clues(pub Option<i128>);

impl<'a, 'py> FromPyObject<'a, 'py> for Clues {
    type Error = PyErr;
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if obj.is_none() {
            return Ok(Clues(None));
        }
        whole(&obj, "clues", "an int or None").map(|c| Clues(Some(c)))
    }
}

/// `box=(rows, cols)`: two ints, checked when used ([`BoxArg::request`]), so that `is_valid`
/// can answer False for a bad box as it does for a bad grid.
#[derive(Clone, Copy, Debug, Default)]
pub struct BoxArg(Option<(i128, i128)>);

impl<'a, 'py> FromPyObject<'a, 'py> for BoxArg {
    type Error = PyErr;
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if obj.is_none() {
            return Ok(BoxArg(None));
        }
        let what = "a (rows, cols) pair of ints";
        let pair = obj
            .cast::<PyTuple>()
            .ok()
            .filter(|t| t.len() == 2)
            .ok_or_else(|| {
                PyTypeError::new_err(format!("box must be {what}, got {}", type_name(obj)))
            })?;
        let rows = whole(&pair.get_borrowed_item(0)?, "box", what)?;
        let cols = whole(&pair.get_borrowed_item(1)?, "box", what)?;
        Ok(BoxArg(Some((rows, cols))))
    }
}

impl BoxArg {
    /// The box of a shape already checked.
    pub fn of(shape: BoxShape) -> Self {
        BoxArg(Some((shape.rows() as i128, shape.cols() as i128)))
    }

    /// The box asked for, if any; numbers out of range are a bad box (`InvalidPuzzleError`),
    /// never an overflow. The core checks the rest (at least 2 by 2, fits the grid).
    pub fn request(requested: Option<BoxArg>) -> PyResult<Option<(usize, usize)>> {
        let Some((rows, cols)) = requested.and_then(|b| b.0) else {
            return Ok(None);
        };
        let why = if rows < 0 || cols < 0 {
            "rows and columns must each be at least 2".to_string()
        } else {
            format!("the largest supported grid is {MAX_SIZE}x{MAX_SIZE}")
        };
        match (usize::try_from(rows), usize::try_from(cols)) {
            (Ok(r), Ok(c)) => Ok(Some((r, c))),
            _ => Err(Error::BoxShape(format!(
                "box=({}, {}) is not a box shape: {why}",
                shown(rows),
                shown(cols)
            ))
            .into()),
        }
    }
}

/// `size=`: the side of the grids (4, 6, 9, 16, ...); a side with no box is `InvalidPuzzleError`.
#[derive(Clone, Copy, Debug)]
pub struct Size(pub usize);

impl<'a, 'py> FromPyObject<'a, 'py> for Size {
    type Error = PyErr;
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let value = whole(&obj, "size", "an int")?;
        match usize::try_from(value) {
            Ok(n) if n >= 1 => Ok(Size(n)),
            _ => Err(Error::BoxShape(format!(
                "size={} is not a grid side: expected 4, 6, 8, 9, 16, ...",
                shown(value)
            ))
            .into()),
        }
    }
}

impl Size {
    /// The box shape of this size, or of `box=`.
    pub fn shape(self, requested: Option<BoxArg>) -> PyResult<BoxShape> {
        super::request::Request::classic(requested)?.shape(self.0)
    }
}

/// `symmetry=` of the generator: one of `Symmetry::NAMES`, or `None` for none. An unknown name
/// is an argument error (ValueError), not a puzzle the generator failed to make.
#[derive(Clone, Copy, Debug)]
pub struct SymmetryArg(pub Symmetry);

impl<'a, 'py> FromPyObject<'a, 'py> for SymmetryArg {
    type Error = PyErr;
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if obj.is_none() {
            return Ok(SymmetryArg(Symmetry::None));
        }
        let name = obj.cast::<PyString>().map_err(|_| {
            PyTypeError::new_err(format!(
                "symmetry must be a str or None, got {}",
                type_name(obj)
            ))
        })?;
        Symmetry::parse(&name.to_cow()?)
            .map(SymmetryArg)
            .map_err(|err| PyValueError::new_err(err.to_string()))
    }
}

/// A count of cells (`clues=`, `empty=` of `fill_from_solution`): an int of 0 or more, or
/// `None` when not given. Whether it fits the grid is the caller's check, which knows the size.
#[derive(Clone, Copy, Debug)]
pub struct CellCount(pub u64);

/// Reads a `CellCount` named `name`.
pub fn cell_count(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<CellCount> {
    let value = whole(&obj.as_borrowed(), name, "an int or None")?;
    u64::try_from(value).map(CellCount).map_err(|_| {
        PyValueError::new_err(format!(
            "{name} must be an int of 0 or more, got {}",
            shown(value)
        ))
    })
}

/// `techniques=`: technique names, one name as a str or any iterable of them (the names are
/// checked against the core's table by `logic::techniques_arg`).
#[derive(Clone, Debug)]
pub struct Names(pub Vec<String>);

impl<'a, 'py> FromPyObject<'a, 'py> for Names {
    type Error = PyErr;
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(name) = obj.cast::<PyString>() {
            return Ok(Names(vec![name.to_cow()?.into_owned()]));
        }
        let mut names = Vec::new();
        for item in obj.try_iter()? {
            let item = item?;
            let name = item.cast::<PyString>().map_err(|_| {
                PyTypeError::new_err(format!(
                    "techniques must be names (str), got {}",
                    type_name(item.as_borrowed())
                ))
            })?;
            names.push(name.to_cow()?.into_owned());
        }
        Ok(Names(names))
    }
}
