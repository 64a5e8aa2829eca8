//! Constants the core owns, exported by the native module so that Python never re-types them:
//! the batch status codes, the difficulty labels, the cell characters of the text form and the
//! largest grid that has one.

use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::core::grid::text::{char_of_value, MAX_TEXT_VALUE};
use crate::core::make::rate::Difficulty;
use crate::core::Status;

/// The difficulty labels of `rate_batch` rows that could not be rated, after the core's: a
/// malformed row or conflicting clues, then no solution (codes 4 and 5 in `rate.rs`).
pub const UNRATED_LABELS: [&str; 2] = ["invalid", "no_solution"];

pub fn add(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let codes = PyDict::new(py);
    for status in Status::ALL {
        codes.set_item(status.name(), status.code())?;
    }
    m.add("STATUS_CODES", codes)?;
    let mut labels: Vec<&str> = Difficulty::LABELS.to_vec();
    labels.extend(UNRATED_LABELS);
    m.add("DIFFICULTY_LABELS", labels)?;
    let chars: String = (1..=MAX_TEXT_VALUE).map(char_of_value).collect();
    m.add("CELL_CHARS", chars)?;
    m.add("MAX_TEXT_SIZE", MAX_TEXT_VALUE)?;
    Ok(())
}
