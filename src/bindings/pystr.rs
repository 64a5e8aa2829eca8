//! Reading short Python strings without a copy through UTF-8. Built for the stable ABI of
//! Python 3.9 (the cp39 wheel), pyo3 reads any `str` by encoding it into a new bytes object and
//! copying that into a Rust `String`: two allocations, about as long as a 9x9 text's whole
//! parse, and once per cell for a LeetCode board. The calls used here are in that stable ABI,
//! so one path serves every build (from 3.10 on, pyo3 could borrow the UTF-8 form instead).
//! Anything they do not cover (long or non-ASCII text, lone surrogates) returns `None`, and the
//! caller reads it the general way, so every error comes from that one path: this one only
//! makes well-formed short text cheaper.

use std::mem::MaybeUninit;

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyString;

/// Longest text [`short_ascii`] reads: a 9x9 grid with any layout, a 16x16 on one line.
pub const SHORT_TEXT: usize = 256;

/// The text of `s` if it is ASCII of at most [`SHORT_TEXT`] characters, copied into `buf`.
pub fn short_ascii<'b>(s: &Bound<'_, PyString>, buf: &'b mut [u8; SHORT_TEXT]) -> Option<&'b str> {
    // Not zeroed first (a kilobyte on every call): only the code points copied in are read.
    let mut wide = [MaybeUninit::<u32>::uninit(); SHORT_TEXT];
    let len = Some(char_len(s)).filter(|&len| len <= SHORT_TEXT)?;
    // SAFETY: `wide` holds SHORT_TEXT >= len code points, so the copy fits and cannot fail;
    // no terminating NUL is asked for.
    let copied = unsafe {
        ffi::PyUnicode_AsUCS4(
            s.as_ptr(),
            wide.as_mut_ptr().cast::<ffi::Py_UCS4>(),
            SHORT_TEXT as ffi::Py_ssize_t,
            0,
        )
    };
    if copied.is_null() {
        // Unreachable for a str; leave no error set, the general reading reports it.
        let _ = PyErr::take(s.py());
        return None;
    }
    for (byte, code) in buf.iter_mut().zip(&wide[..len]) {
        // SAFETY: PyUnicode_AsUCS4 wrote the string's `len` code points to the front of `wide`.
        let code = unsafe { code.assume_init() };
        *byte = u8::try_from(code).ok().filter(u8::is_ascii)?;
    }
    std::str::from_utf8(&buf[..len]).ok()
}

/// The length of `s` in characters (code points).
pub fn char_len(s: &Bound<'_, PyString>) -> usize {
    // SAFETY: `s` is a live str; PyUnicode_GetLength cannot fail on one.
    let len = unsafe { ffi::PyUnicode_GetLength(s.as_ptr()) };
    usize::try_from(len).unwrap_or(0)
}

/// The character of a `str` (exactly `str`, the common cell of a LeetCode board) of length
/// one; `None` for anything else.
pub fn one_char(obj: &Bound<'_, PyAny>) -> Option<char> {
    if !obj.is_exact_instance_of::<PyString>() {
        return None;
    }
    // SAFETY: `obj` is a live str; for one of length one, index 0 is in range, so
    // PyUnicode_ReadChar cannot fail.
    unsafe {
        if ffi::PyUnicode_GetLength(obj.as_ptr()) != 1 {
            return None;
        }
        char::from_u32(ffi::PyUnicode_ReadChar(obj.as_ptr(), 0))
    }
}

/// `f` of the text of `s`: read into a stack buffer when short ASCII, else through pyo3's
/// copy (whose error, such as a lone surrogate's `UnicodeEncodeError`, is returned).
pub fn with_text<T>(s: &Bound<'_, PyString>, f: impl FnOnce(&str) -> T) -> PyResult<T> {
    let mut buf = [0u8; SHORT_TEXT];
    match short_ascii(s, &mut buf) {
        Some(text) => Ok(f(text)),
        None => Ok(f(&s.to_cow()?)),
    }
}
