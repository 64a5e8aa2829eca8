//! The puzzle sets the unit tests run over: the small samples in `tests/data` (always there) and,
//! when the benchmark data sits beside the repository, more lines of the same set from
//! `../shared/data`.

use std::path::PathBuf;

/// The lines of set `name`: all of `tests/data/<name>`, then up to `extra` lines of
/// `../shared/data/<name>` past the ones the sample already holds (the sample is the head of the
/// full set).
pub(crate) fn puzzles(name: &str, extra: usize) -> Vec<String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut lines: Vec<String> = std::fs::read_to_string(root.join("tests/data").join(name))
        .expect("tests/data sample")
        .lines()
        .map(str::to_string)
        .collect();
    if let Ok(text) = std::fs::read_to_string(root.join("../shared/data").join(name)) {
        let have = lines.len();
        lines.extend(text.lines().skip(have).take(extra).map(str::to_string));
    }
    lines
}
