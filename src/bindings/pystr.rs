//! Reading Python strings without needless copies. Built for the stable ABI of Python 3.9
//! (the cp39 wheel), pyo3 reads any `str` by encoding it into a new bytes object and copying
//! that into a Rust `String`: two allocations, about as long as a 9x9 text's whole parse, and
//! once per cell for a LeetCode board. There, short ASCII text is copied into a stack buffer
//! by calls that stable ABI has instead; anything else (long or non-ASCII text, lone
//! surrogates) is read the general way, so every error comes from that one path. From the
//! stable ABI of 3.10 on (the cp310 wheel, and any build for a newer Python), a `str`'s UTF-8
//! form is borrowed: no copy at all.

#[cfg(not(Py_3_10))]
use std::mem::MaybeUninit;

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyString;

/// Longest text read through a stack buffer: a 9x9 grid with any layout, a 16x16 on one line.
pub const SHORT_TEXT: usize = 256;

/// The text of `s` if it is ASCII of at most [`SHORT_TEXT`] characters, copied into `buf`.
#[cfg(not(Py_3_10))]
fn short_ascii<'b>(s: &Bound<'_, PyString>, buf: &'b mut [u8; SHORT_TEXT]) -> Option<&'b str> {
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

/// `f` of the text of `s`. A text Python cannot give as UTF-8 (a lone surrogate) is its
/// `UnicodeEncodeError`.
pub fn with_text<T>(s: &Bound<'_, PyString>, f: impl FnOnce(&str) -> T) -> PyResult<T> {
    // Borrowed: the UTF-8 form Python keeps with the str (for ASCII, the str's own bytes).
    #[cfg(Py_3_10)]
    return Ok(f(s.to_str()?));
    // Short ASCII through a stack buffer, else pyo3's copy.
    #[cfg(not(Py_3_10))]
    {
        let mut buf = [0u8; SHORT_TEXT];
        match short_ascii(s, &mut buf) {
            Some(text) => Ok(f(text)),
            None => Ok(f(&s.to_cow()?)),
        }
    }
}
