//! Integer dtypes of grid arrays: the check, the dispatch to one Rust type per dtype, and byte
//! order. Values are read in their own type and compared exactly, never cast by numpy.

use numpy::ndarray::{ArrayView, Dimension};
use numpy::{
    Element, PyArray, PyArrayDescr, PyArrayDescrMethods, PyArrayMethods, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

/// The integer element types numpy grids may have. Values are compared exactly (never cast by
/// numpy), so 300 in an int16 array is reported, not wrapped to 44.
pub trait CellElement: Element + Copy + std::fmt::Display {
    /// Whether the value is a cell of a grid of side `n` (0 to `n`), compared in the element's
    /// own type: the reading loops stay in vector registers.
    fn is_cell(self, n: u8) -> bool;
    /// The value as a byte, which it is when [`CellElement::is_cell`].
    fn as_byte(self) -> u8;
    fn from_value(v: u8) -> Self;
}

macro_rules! cell_elements {
    ($($t:ty),*) => {$(
        // The `u8` instance casts `u8` to itself.
        #[allow(trivial_numeric_casts)]
        impl CellElement for $t {
            // A grid's side is at most 64, which every element type holds.
            #[allow(unused_comparisons)] // `0 <= self` is true of the unsigned types
            #[inline(always)]
            fn is_cell(self, n: u8) -> bool { 0 <= self && self <= n as $t }
            #[inline(always)]
            fn as_byte(self) -> u8 { self as u8 }
            fn from_value(v: u8) -> Self { v as $t }
        }
    )*};
}
cell_elements!(i8, i16, i32, i64, u8, u16, u32, u64);

/// Calls `$body` with `$t` bound to the element type of an integer dtype.
#[macro_export]
macro_rules! with_int_type {
    ($dtype:expr, $t:ident => $body:expr) => {
        match ($dtype.kind(), $dtype.itemsize()) {
            (b'i', 1) => {
                type $t = i8;
                $body
            }
            (b'i', 2) => {
                type $t = i16;
                $body
            }
            (b'i', 4) => {
                type $t = i32;
                $body
            }
            (b'i', 8) => {
                type $t = i64;
                $body
            }
            (b'u', 1) => {
                type $t = u8;
                $body
            }
            (b'u', 2) => {
                type $t = u16;
                $body
            }
            (b'u', 4) => {
                type $t = u32;
                $body
            }
            (b'u', 8) => {
                type $t = u64;
                $body
            }
            _ => unreachable!("dtype checked to be an integer type"),
        }
    };
}

/// The first value outside 0..=n of a grid's or a row's values, by its index among them, as
/// text.
pub fn first_out_of_range<'a, T: CellElement + 'a>(
    values: impl IntoIterator<Item = &'a T>,
    n: usize,
) -> Option<(usize, String)> {
    values
        .into_iter()
        .enumerate()
        .find(|(_, v)| !v.is_cell(n as u8))
        .map(|(k, v)| (k, v.to_string()))
}

/// A caller's array's values as [`read_values`] gives them.
pub enum Values<'a, T, D> {
    /// In memory order, which is row-major: the array is C-contiguous.
    Flat(&'a [T]),
    /// Any other layout.
    Strided(ArrayView<'a, T, D>),
}

/// Runs `read` on a caller's array's values, without rust-numpy's borrow tracking.
///
/// `readonly()` records each borrow in a process-wide table and removes it afterwards, and a
/// view of an array of dynamic rank allocates its shape and strides: together about a tenth of
/// a single call on an easy puzzle, more than reading its 81 cells. What the tracking guards
/// against is a mutable borrow of the same array taken by Rust code in this process, and this
/// crate takes mutable views only of arrays it has just made and not yet returned, never of an
/// array a caller passed in. (Another rust-numpy extension holding a mutable view of an array
/// while it calls this module with that array would, with the tracking, get an error; here its
/// values are read. Only read, never written: accepted.) `read` must not run Python code
/// (nothing can then reach the array through this thread to reshape or free its data); a
/// caller's other threads writing to the array through numpy while it is read are no more
/// excluded by the tracking than here.
pub fn read_values<T: Element, D: Dimension, R>(
    array: &Bound<'_, PyArray<T, D>>,
    read: impl FnOnce(Values<'_, T, D>) -> R,
) -> R {
    // SAFETY: no mutable Rust view of a caller's array exists (see above), and `read` runs no
    // Python code, so the array's data stays allocated and in this shape while it is read.
    let values = unsafe {
        match array.as_slice() {
            Ok(flat) if array.is_c_contiguous() => Values::Flat(flat),
            _ => Values::Strided(array.as_array()),
        }
    };
    read(values)
}

/// Integer dtypes only: one short `TypeError` for floats, bools, objects, strings.
pub fn check_integer_dtype(dtype: &Bound<'_, PyArrayDescr>) -> PyResult<()> {
    if matches!(dtype.kind(), b'i' | b'u') && matches!(dtype.itemsize(), 1 | 2 | 4 | 8) {
        return Ok(());
    }
    Err(PyTypeError::new_err(format!(
        "a grid array must have an integer dtype, got {}; convert it with .astype(int)",
        dtype.str()?
    )))
}

/// The array itself, or a copy numpy makes (exact for integers) when Rust cannot read it in
/// place: byte-swapped, unaligned, or with byte strides that are not whole items (a field of a
/// packed structured array: strides (325, 4) for an int32 field after a one-byte field).
/// Reading those in place would truncate the strides and return wrong cells.
pub fn native_order<'py>(array: &Bound<'py, PyUntypedArray>) -> PyResult<Bound<'py, PyAny>> {
    let dtype = array.dtype();
    let swapped = dtype.is_native_byteorder() == Some(false);
    if swapped || !whole_items(array, dtype.itemsize()) {
        let native_dtype = dtype.call_method1("newbyteorder", ("=",))?;
        return array.call_method1("astype", (native_dtype,));
    }
    Ok(array.clone().into_any())
}

/// Whether the array's data is aligned to its item size and every stride is whole items.
fn whole_items(array: &Bound<'_, PyUntypedArray>, itemsize: usize) -> bool {
    if array.len() == 0 || itemsize <= 1 {
        return true;
    }
    // SAFETY: a live numpy array's struct; only the data pointer's address is read.
    let data = unsafe { (*array.as_array_ptr()).fields.data } as usize;
    let size = itemsize as isize;
    data % itemsize == 0 && array.strides().iter().all(|s| s % size == 0)
}

/// A native-order result converted back to the caller's exact dtype when that was byte-swapped.
pub fn in_dtype<'py>(
    out: Bound<'py, PyAny>,
    dtype: &Bound<'py, PyArrayDescr>,
) -> PyResult<Bound<'py, PyAny>> {
    if dtype.is_native_byteorder() == Some(false) {
        return out.call_method1("astype", (dtype,));
    }
    Ok(out)
}
