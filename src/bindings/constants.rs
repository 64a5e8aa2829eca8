//! Constants the core owns, exported by the native module so that Python never re-types them:
//! the per-row statuses of the batches, the difficulty and level labels, the cell characters of
//! the text form and the largest grid that has one, the token ids of search traces.

use pyo3::prelude::*;

use crate::core::grid::text::{char_of_value, MAX_TEXT_VALUE};
use crate::core::logic::Level;
use crate::core::make::rate::Difficulty;
use crate::core::search::trace;
use crate::core::Status;

pub fn add(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let statuses: Vec<(&str, i8, &str)> = Status::ALL
        .iter()
        .map(|s| (s.name(), s.code(), s.label()))
        .collect();
    m.add("STATUSES", statuses)?;
    m.add("DIFFICULTY_LABELS", Difficulty::LABELS.to_vec())?;
    let levels: Vec<&str> = Level::ALL.iter().map(|l| l.label()).collect();
    m.add("LEVEL_LABELS", levels)?;
    let chars: String = (1..=MAX_TEXT_VALUE).map(char_of_value).collect();
    m.add("CELL_CHARS", chars)?;
    m.add("MAX_TEXT_SIZE", MAX_TEXT_VALUE)?;
    for (name, id) in trace::NAMES {
        m.add(format!("TRACE_{name}"), id)?;
    }
    m.add("TRACE_VOCABULARY_SIZE", trace::VOCABULARY_SIZE)?;
    Ok(())
}
