//! The Python objects of cell values, made once: the ints 0 to 64 and the one-character cell
//! strings.
//!
//! Through the stable ABI, reading a cell of a list of rows takes C calls (an int's value; a
//! string's length, then its character), and writing one takes another (making the int or the
//! string). CPython hands out one shared object for each small int and for each one-character
//! ASCII string, so a cell that *is* one of the objects kept here is known by its address, and
//! a result is built from these objects with a reference count each. A cell that is not one of
//! them (a string made some other way, a bool, anything unusual) is read the general way: the
//! address test only recognises the very objects kept here, whose values never change, so it
//! cannot misread a cell; it only makes the usual cells cheaper.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyInt, PyString};

use crate::core::grid::shape::MAX_SIZE;
use crate::core::grid::text::{self, value_of_char};

/// A cell as read from an object: an int, or a cell character.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum CellKind {
    Int,
    Char,
}

/// Slots of the address table (the 8 bits of [`CellObjects::home`]): twice the objects it
/// holds (65 ints, 63 characters), so that lookups end within a few slots.
const SLOTS: usize = 256;

/// A slot of the address table: an object's address (0: empty) and the cell it is.
type Slot = (usize, (CellKind, u8));

pub struct CellObjects {
    /// The int of each value 0..=MAX_SIZE.
    ints: Vec<Py<PyInt>>,
    /// The string of each value a cell character can hold (`.` for a blank), as written.
    chars: Vec<Py<PyString>>,
    /// Every accepted cell character's string, kept alive so that its address stays its own.
    _keys: Vec<Py<PyString>>,
    /// Open addressing by object address.
    slots: Box<[Slot; SLOTS]>,
}

impl CellObjects {
    /// The objects, made on first use.
    pub fn get(py: Python<'_>) -> &CellObjects {
        static OBJECTS: PyOnceLock<CellObjects> = PyOnceLock::new();
        OBJECTS.get_or_init(py, || CellObjects::new(py))
    }

    fn new(py: Python<'_>) -> CellObjects {
        let ints: Vec<Py<PyInt>> = (0..=MAX_SIZE as u8)
            .map(|v| v.into_pyobject(py).expect("small ints convert").unbind())
            .collect();
        let chars = text::CELL_STRS
            .iter()
            .map(|s| PyString::new(py, s).unbind())
            .collect();
        let keys: Vec<(Py<PyString>, u8)> = (b'!'..=b'~')
            .map(char::from)
            .filter_map(|ch| {
                let v = value_of_char(ch)?;
                Some((PyString::new(py, ch.encode_utf8(&mut [0; 4])).unbind(), v))
            })
            .collect();
        let mut slots = Box::new([(0, (CellKind::Int, 0)); SLOTS]);
        for (v, int) in ints.iter().enumerate() {
            insert(&mut slots, int.as_ptr() as usize, (CellKind::Int, v as u8));
        }
        for (key, v) in &keys {
            insert(&mut slots, key.as_ptr() as usize, (CellKind::Char, *v));
        }
        CellObjects {
            ints,
            chars,
            _keys: keys.into_iter().map(|(key, _)| key).collect(),
            slots,
        }
    }

    /// The first slot to look at for an address. Objects sit at multiples of 16, and from
    /// Python 3.12 the shared ints and characters are arrays of objects 32 and 48 bytes apart:
    /// the address without its four zero bits, multiplied by 2^64 / golden ratio, spreads such
    /// runs over the slots by the product's top bits. Replaying the table with the objects'
    /// addresses on CPython 3.9 to 3.13: 1.15-1.24 slots per cell found (at most 5) and
    /// 1.8-2.0 per other object; without the shift, 3.12 and 3.13 took about 4 (up to 29).
    fn home(address: usize) -> usize {
        let mixed = (address as u64 >> 4).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (mixed >> 56) as usize
    }

    /// The cell `item` is, when it is one of the objects kept here.
    #[inline]
    pub fn cell(&self, item: &Bound<'_, PyAny>) -> Option<(CellKind, u8)> {
        let address = item.as_ptr() as usize;
        let mut i = Self::home(address);
        loop {
            match self.slots[i] {
                (0, _) => return None,
                (a, cell) if a == address => return Some(cell),
                _ => i = (i + 1) % SLOTS,
            }
        }
    }

    /// The int of value `v` (at most [`MAX_SIZE`]).
    pub fn int<'py>(&self, py: Python<'py>, v: u8) -> Bound<'py, PyInt> {
        self.ints[v as usize].bind(py).clone()
    }

    /// The cell string of value `v` (at most `text::MAX_TEXT_VALUE`).
    pub fn char<'py>(&self, py: Python<'py>, v: u8) -> Bound<'py, PyString> {
        self.chars[v as usize].bind(py).clone()
    }
}

/// Adds an object's address to the table, by open addressing from its home slot.
fn insert(slots: &mut [Slot; SLOTS], address: usize, cell: (CellKind, u8)) {
    let mut i = CellObjects::home(address);
    // Two strings of one character may be the same object (CPython shares them): the first
    // entry stands, and both are the same character anyway.
    while slots[i].0 != 0 && slots[i].0 != address {
        i = (i + 1) % SLOTS;
    }
    if slots[i].0 == 0 {
        slots[i] = (address, cell);
    }
}
