//! The pure Rust core: grid model, text parsing, the search engine. No pyo3 types in here, so
//! it is unit-tested with plain `cargo test` and usable from Rust directly.

pub mod batch;
pub mod check;
pub mod error;
pub mod generate;
pub mod grid;
pub mod lines;
pub mod random;
pub mod rate;
pub mod shape;
pub mod solver;
pub mod text;

pub use error::{Cell, Error, Result, Unit};
pub use grid::Grid;
pub use shape::{BoxShape, MAX_SIZE};
pub use solver::{Control, Flow, SearchStats, Solver, Unbounded};
