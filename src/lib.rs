//! sudoku_rs: a bitmask backtracking Sudoku solver for any box shape.
//!
//! [`core`] is the solver, free of Python; `bindings` (feature `python`) is the thin pyo3 layer
//! that maturin builds into `sudoku_rs._sudoku_rs`.

pub mod core;

#[cfg(feature = "python")]
mod bindings;
