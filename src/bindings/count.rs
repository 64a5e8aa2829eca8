//! Whole-number arguments that default to `None` (`threads`, `max_guesses`) as Python gives
//! them: any int. pyo3's `i64` raises OverflowError past 2**63, which is neither the ValueError
//! nor the TypeError a caller expects; these saturate instead, so `max_guesses=10**30` means "no
//! practical limit" and `max_guesses=-10**30` is refused as not positive, like `-1`. (`limit`
//! stays a plain `i64`: pyo3 shows only literal defaults such as `limit=2` in signatures.)

use pyo3::exceptions::PyOverflowError;
use pyo3::prelude::*;

#[derive(Clone, Copy, Debug)]
pub struct CountArg(pub i64);

impl<'a, 'py> FromPyObject<'a, 'py> for CountArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        match obj.extract::<i64>() {
            Ok(value) => Ok(CountArg(value)),
            Err(err) if err.is_instance_of::<PyOverflowError>(obj.py()) => {
                Ok(CountArg(if obj.gt(0)? { i64::MAX } else { i64::MIN }))
            }
            Err(err) => Err(err),
        }
    }
}

impl From<CountArg> for i64 {
    fn from(arg: CountArg) -> i64 {
        arg.0
    }
}
